// SPDX-License-Identifier: MIT
// Text inside the examples' HTML pages (page.hpp) and SVG plots (plot.hpp): both are markup with
// the same special characters.
#pragma once

#include <string>

namespace markup {

/// Plain text for HTML or XML content and attribute values: &, <, >, " escaped.
inline std::string escape(const std::string& s)
{
    std::string out;
    for (const char ch : s) {
        switch (ch) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += ch;
        }
    }
    return out;
}

}  // namespace markup
