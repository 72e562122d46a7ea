// SPDX-License-Identifier: MIT
/// \file csv_contacts.hpp
/// impulse-contact: reads contacts as CSV, resolves each with impulse, writes the results as CSV.
///
/// The command-line program (main.cpp), its tests and its fuzzer all call these functions, so
/// they exercise the same code. Unlike the library, the tool uses exceptions, strings and streams.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace impulse_contact {

/// Exit statuses.
constexpr int ok = 0;
constexpr int failure = 2;  ///< bad input, unreadable file, unknown option, output not written

/// The longest line read, in bytes without its line end. A contact line has at most 46 numbers;
/// written with 17 significant digits and padded, it stays under 2 KiB. A longer line stops the
/// run, except a comment, which is skipped unread; so the reader's memory does not grow with the
/// input (one line buffer of this size, and at most one field per column).
constexpr std::size_t default_max_line = 65536;

/// What the command line chooses besides the input.
struct Options {
    /// `--coupled`: resolve normal and friction together with impulse::resolve_coupled instead of
    /// one after the other with impulse::resolve (a given `jn` column is then an error).
    bool coupled = false;
    /// The longest line read (at least 1); not a command-line option: the fuzzer lowers it to
    /// reach the limit with short inputs.
    std::size_t max_line = default_max_line;
};

/// Reads a contact file from `in` (called `name` in messages: a path, or "<stdin>"; escaped as
/// option arguments are), writes the results to `out`. A UTF-8 byte-order mark at the start of
/// `in` is skipped. Each line is checked completely before its result is printed; the first bad
/// line stops the run with ONE message on `err`,
///     impulse-contact: <name>:<line>: column '<col>': <what is wrong>
/// and `failure` is returned. Everything printed before that line is valid output. `out` is
/// checked after every line and flushed at the end: the first failed write stops the run (a
/// closed pipe ends it at once) with the message
///     impulse-contact: cannot write the output: <the system's reason>
/// (after the bad line's, if there was one) and `failure`.
int run(std::istream& in, const std::string& name, std::ostream& out, std::ostream& err,
        const Options& options = {});

/// The whole command line (arguments without the program name): `--help`, `--version`,
/// `--coupled`, and one input file, `-` or nothing for `in`. Returns the exit status; what it
/// writes to `out` is flushed, and a write error is reported as run() reports it.
int cli(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);

/// What `--help` prints: the column reference and a worked example.
std::string help_text();

/// What `--version` prints: "impulse-contact <major>.<minor>.<patch>" and a newline.
std::string version_text();

}  // namespace impulse_contact
