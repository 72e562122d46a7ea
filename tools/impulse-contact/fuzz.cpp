// SPDX-License-Identifier: MIT
// libFuzzer target for impulse-contact's reader: any bytes as a contact file, read three times:
// with the sequential solve and with --coupled, and once more with a line limit of 1 to 64 bytes
// (so that short inputs reach it). Besides the sanitizers and the library's
// IMPULSE_ASSERT (contract violations the reader let through), it checks what the tool promises:
//   - exit status 0 or 2; on 2 exactly one message line "impulse-contact: fuzz.csv:<line>: ...",
//     on 0 nothing on standard error;
//   - standard output is an output header (point masses or rigid bodies, 2D or 3D), then lines
//     of finite numbers and a regime;
//   - jn >= 0, and a separating or immovable contact got no friction impulse (and a separating
//     one no normal impulse).
//
//   cmake --preset fuzz && cmake --build build/fuzz --target impulse-contact-fuzz
//   build/fuzz/tools/impulse-contact/impulse-contact-fuzz -max_total_time=60 \
//       build/fuzz/corpus tools/impulse-contact/corpus tools/impulse-contact/examples
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "csv_contacts.hpp"

namespace {

[[noreturn]] void broken(const char* what, const std::string& detail)
{
    std::fprintf(stderr, "impulse-contact-fuzz: %s\n%s\n", what, detail.c_str());
    std::abort();
}

std::vector<std::string> split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t at = s.find(sep, start);
        out.push_back(s.substr(start, at - start));
        if (at == std::string::npos) return out;
        start = at + 1;
    }
}

void check_output(const std::string& out)
{
    if (out.empty()) return;
    if (out.back() != '\n') broken("output does not end with a newline", out);
    std::vector<std::string> lines = split(out.substr(0, out.size() - 1), '\n');
    int dim = 0;
    std::size_t angular = 0;  // angular velocity fields (rigid bodies)
    if (lines[0] == "jn,jtx,jty,vax,vay,vbx,vby,regime") dim = 2;
    if (lines[0] == "jn,jtx,jty,jtz,vax,vay,vaz,vbx,vby,vbz,regime") dim = 3;
    if (lines[0] == "jn,jtx,jty,vax,vay,vbx,vby,oma,omb,regime") dim = 2, angular = 2;
    if (lines[0] == "jn,jtx,jty,jtz,vax,vay,vaz,vbx,vby,vbz,omax,omay,omaz,ombx,omby,ombz,regime")
        dim = 3, angular = 6;
    if (!dim) broken("bad output header", lines[0]);
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const std::vector<std::string> f = split(lines[i], ',');
        if (f.size() != std::size_t(3 * dim + 2) + angular) broken("bad output field count", lines[i]);
        std::vector<double> x;
        for (std::size_t k = 0; k + 1 < f.size(); ++k) {
            double v = 0;
            const auto r = std::from_chars(f[k].data(), f[k].data() + f[k].size(), v);
            if (r.ec != std::errc() || r.ptr != f[k].data() + f[k].size() || !std::isfinite(v))
                broken("output field is not a finite number", lines[i]);
            x.push_back(v);
        }
        const std::string& regime = f.back();
        if (regime != "separating" && regime != "sticking" && regime != "sliding" && regime != "immovable")
            broken("unknown regime", lines[i]);
        if (!(x[0] >= 0)) broken("negative normal impulse", lines[i]);
        bool friction = false;
        for (int k = 1; k <= dim; ++k) friction = friction || x[k] != 0;
        if ((regime == "separating" || regime == "immovable") && friction)
            broken("friction impulse on a separating or immovable contact", lines[i]);
        if (regime == "separating" && x[0] != 0) broken("normal impulse on a separating contact", lines[i]);
    }
}

/// One run over the input, checked.
void check_run(const std::string& input, bool coupled, std::size_t max_line)
{
    std::istringstream in(input);
    std::ostringstream out, err;
    impulse_contact::Options options;
    options.coupled = coupled;
    options.max_line = max_line;
    const int status = impulse_contact::run(in, "fuzz.csv", out, err, options);
    const std::string e = err.str();
    if (status == impulse_contact::ok) {
        if (!e.empty()) broken("messages on success", e);
    } else if (status == impulse_contact::failure) {
        const std::string prefix = "impulse-contact: fuzz.csv:";
        if (e.compare(0, prefix.size(), prefix) != 0) broken("message without file and line", e);
        if (e.back() != '\n' || e.find('\n') != e.size() - 1) broken("not exactly one message line", e);
    } else {
        broken("exit status neither 0 nor 2", std::to_string(status));
    }
    check_output(out.str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    check_run(input, false, impulse_contact::default_max_line);
    check_run(input, true, impulse_contact::default_max_line);
    check_run(input, false, 1 + size % 64);
    return 0;
}
