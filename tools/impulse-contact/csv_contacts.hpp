// SPDX-License-Identifier: MIT
/// \file csv_contacts.hpp
/// impulse-contact: reads contacts as CSV, resolves each with impulse, writes the results as CSV.
///
/// The command-line program (main.cpp), its tests and its fuzzer all call these functions, so
/// they exercise the same code. Unlike the library, the tool uses exceptions, strings and streams.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace impulse_contact {

/// Exit statuses.
constexpr int ok = 0;
constexpr int failure = 2;  ///< bad input, unreadable file, unknown option

/// What the command line chooses besides the input.
struct Options {
    /// `--coupled`: resolve normal and friction together with impulse::resolve_coupled instead of
    /// one after the other with impulse::resolve (a given `jn` column is then an error).
    bool coupled = false;
};

/// Reads a contact file from `in` (called `name` in messages: a path, or "<stdin>"), writes the
/// results to `out`. Each line is checked completely before its result is printed; the first bad
/// line stops the run with ONE message on `err`,
///     impulse-contact: <name>:<line>: column '<col>': <what is wrong>
/// and `failure` is returned. Everything printed before that line is valid output.
int run(std::istream& in, const std::string& name, std::ostream& out, std::ostream& err,
        const Options& options = {});

/// The whole command line (arguments without the program name): `--help`, `--version`,
/// `--coupled`, and one input file, `-` or nothing for `in`. Returns the exit status.
int cli(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);

/// What `--help` prints: the column reference and a worked example.
std::string help_text();

/// What `--version` prints: "impulse-contact <major>.<minor>.<patch>" and a newline.
std::string version_text();

}  // namespace impulse_contact
