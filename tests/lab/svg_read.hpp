// SPDX-License-Identifier: MIT
// Reading the examples' SVG files back for the checks: a small, strict XML reader (written for
// the tests, apart from the writer in examples/common/plot.hpp) and what a reader of a plot does
// with it: find the axes, read the tick labels, and turn pixel positions back into data.
//
// The reader accepts well-formed XML only: one root element, every start tag closed by the same
// name, attribute values quoted and not repeated in a tag, no raw '<' in a value, entity
// references only the five predefined ones or numeric ones; an XML declaration and comments are
// skipped. Anything else is an error that names the offset where it was found.
#pragma once

#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace svgtest {

struct Element {
    std::string name;
    std::vector<std::pair<std::string, std::string>> attrs;  // entities decoded
    std::vector<Element> children;
    std::string text;  // the element's own character data, entities decoded (not its children's)

    const std::string* attr(const std::string& key) const
    {
        for (const auto& a : attrs)
            if (a.first == key) return &a.second;
        return nullptr;
    }
    double number(const std::string& key) const
    {
        const std::string* v = attr(key);
        return v ? std::strtod(v->c_str(), nullptr) : NAN;
    }
    bool has_class(const std::string& c) const
    {
        const std::string* v = attr("class");
        if (!v) return false;
        std::istringstream words(*v);
        for (std::string w; words >> w;)
            if (w == c) return true;
        return false;
    }
    /// This element and every descendant for which `pred` holds, in document order.
    template <class Pred>
    void collect(Pred pred, std::vector<const Element*>& out) const
    {
        if (pred(*this)) out.push_back(this);
        for (const Element& c : children) c.collect(pred, out);
    }
    std::vector<const Element*> with_class(const std::string& c) const
    {
        std::vector<const Element*> out;
        collect([&](const Element& e) { return e.has_class(c); }, out);
        return out;
    }
    std::vector<const Element*> named(const std::string& n) const
    {
        std::vector<const Element*> out;
        collect([&](const Element& e) { return e.name == n; }, out);
        return out;
    }
};

struct Document {
    Element root;
    std::string error;  // empty when the text is well-formed
};

namespace detail {

class Parser {
public:
    explicit Parser(const std::string& s) : s_(s) {}

    Document run()
    {
        Document d;
        skip_misc();
        if (!fail_ && (at_end() || s_[i_] != '<')) error("expected the root element");
        if (!fail_) d.root = element();
        if (!fail_) skip_misc();
        if (!fail_ && !at_end()) error("text after the root element");
        d.error = err_;
        return d;
    }

private:
    bool at_end() const { return i_ >= s_.size(); }
    bool starts(const char* p) const { return s_.compare(i_, std::char_traits<char>::length(p), p) == 0; }
    void error(const std::string& what)
    {
        if (fail_) return;
        fail_ = true;
        err_ = what + " at offset " + std::to_string(i_);
    }
    void skip_space()
    {
        while (!at_end() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
    }
    /// Whitespace, the XML declaration (or another processing instruction) and comments.
    void skip_misc()
    {
        for (;;) {
            skip_space();
            if (starts("<?")) {
                const std::size_t e = s_.find("?>", i_);
                if (e == std::string::npos) return error("unterminated processing instruction");
                i_ = e + 2;
            } else if (starts("<!--")) {
                const std::size_t e = s_.find("-->", i_ + 4);
                if (e == std::string::npos) return error("unterminated comment");
                i_ = e + 3;
            } else {
                return;
            }
        }
    }
    static bool name_char(char c)
    {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':' || c == '.';
    }
    std::string name()
    {
        const std::size_t a = i_;
        if (at_end() || !(std::isalpha(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == ':')) {
            error("expected a name");
            return "";
        }
        while (!at_end() && name_char(s_[i_])) ++i_;
        return s_.substr(a, i_ - a);
    }
    /// Decodes the entity reference at i_ ('&' ... ';') and appends it to out.
    void entity(std::string& out)
    {
        const std::size_t semi = s_.find(';', i_);
        if (semi == std::string::npos || semi - i_ > 10) return error("a bare '&'");
        const std::string ref = s_.substr(i_ + 1, semi - i_ - 1);
        if (ref == "amp") out += '&';
        else if (ref == "lt") out += '<';
        else if (ref == "gt") out += '>';
        else if (ref == "quot") out += '"';
        else if (ref == "apos") out += '\'';
        else if (ref.size() > 1 && ref[0] == '#') {
            const bool hex = ref[1] == 'x';
            char* end = nullptr;
            const long code = std::strtol(ref.c_str() + (hex ? 2 : 1), &end, hex ? 16 : 10);
            if (*end != '\0' || code <= 0) return error("a bad character reference");
            out += code < 128 ? std::string(1, char(code)) : std::string("?");  // (non-ASCII: not needed here)
        } else {
            return error("an unknown entity '&" + ref + ";'");
        }
        i_ = semi + 1;
    }
    Element element()
    {
        Element e;
        ++i_;  // '<'
        e.name = name();
        for (;;) {
            if (fail_) return e;
            skip_space();
            if (at_end()) {
                error("unterminated start tag <" + e.name + ">");
                return e;
            }
            if (starts("/>")) {
                i_ += 2;
                return e;
            }
            if (s_[i_] == '>') {
                ++i_;
                break;
            }
            const std::string key = name();
            skip_space();
            if (fail_ || at_end() || s_[i_] != '=') {
                error("attribute " + key + " without a value");
                return e;
            }
            ++i_;
            skip_space();
            if (at_end() || (s_[i_] != '"' && s_[i_] != '\'')) {
                error("attribute " + key + " not quoted");
                return e;
            }
            const char q = s_[i_++];
            std::string value;
            while (!fail_ && !at_end() && s_[i_] != q) {
                if (s_[i_] == '<') error("'<' in the value of " + key);
                else if (s_[i_] == '&') entity(value);
                else value += s_[i_++];
            }
            if (at_end()) error("unterminated value of " + key);
            ++i_;
            if (e.attr(key)) error("attribute " + key + " given twice");
            e.attrs.push_back({key, value});
        }
        // Content: text, children, comments, up to the matching end tag.
        for (;;) {
            if (fail_) return e;
            if (at_end()) {
                error("<" + e.name + "> is never closed");
                return e;
            }
            if (starts("</")) {
                i_ += 2;
                const std::string end = name();
                skip_space();
                if (end != e.name) error("</" + end + "> closes <" + e.name + ">");
                else if (at_end() || s_[i_] != '>') error("unterminated end tag");
                else ++i_;
                return e;
            }
            if (starts("<!--")) {
                const std::size_t c = s_.find("-->", i_ + 4);
                if (c == std::string::npos) error("unterminated comment");
                else i_ = c + 3;
            } else if (s_[i_] == '<') {
                e.children.push_back(element());
            } else if (s_[i_] == '&') {
                entity(e.text);
            } else {
                e.text += s_[i_++];
            }
        }
    }

    const std::string& s_;
    std::size_t i_{0};
    bool fail_{false};
    std::string err_;
};

}  // namespace detail

inline Document parse(const std::string& text) { return detail::Parser(text).run(); }

// ---------------------------------------------------------------------------------------------
// Reading a plot as a reader does

/// A tick as drawn: its label's number and the pixel position of the label along its axis.
struct Tick {
    std::string label;
    double value;  // the label read as a number (NaN for labels that are not plain numbers)
    double pixel;  // x of an x-axis label, y of a y-axis label
};

/// The ticks of the axis with class `axis_class` ("x-axis" or "y-axis").
inline std::vector<Tick> ticks(const Element& svg, const std::string& axis_class)
{
    std::vector<Tick> out;
    for (const Element* axis : svg.with_class(axis_class))
        for (const Element* label : axis->with_class("tick-label")) {
            char* end = nullptr;
            const double v = std::strtod(label->text.c_str(), &end);
            const bool plain = !label->text.empty() && end && *end == '\0';
            out.push_back({label->text, plain ? v : NAN, label->number(axis_class == "x-axis" ? "x" : "y")});
        }
    return out;
}

/// The axis title's text.
inline std::string axis_title(const Element& svg, const std::string& axis_class)
{
    for (const Element* axis : svg.with_class(axis_class))
        for (const Element* t : axis->with_class("axis-title")) return t->text;
    return "";
}

/// Pixel to data along one axis, from its first and last tick labels (a linear axis).
struct Scale {
    double p0{0}, v0{0}, p1{1}, v1{1};
    double data(double pixel) const { return v0 + (pixel - p0) * (v1 - v0) / (p1 - p0); }
};

inline Scale scale_of(const std::vector<Tick>& t)
{
    Scale s;
    if (t.size() >= 2) s = {t.front().pixel, t.front().value, t.back().pixel, t.back().value};
    return s;
}

/// The series group with data-label `label` (null if absent).
inline const Element* series(const Element& svg, const std::string& label)
{
    for (const Element* g : svg.with_class("series"))
        if (const std::string* l = g->attr("data-label"))
            if (*l == label) return g;
    return nullptr;
}

/// The points of a polyline's `points` attribute, as pixel pairs.
inline std::vector<std::pair<double, double>> polyline_points(const Element& polyline)
{
    std::vector<std::pair<double, double>> out;
    const std::string* p = polyline.attr("points");
    if (!p) return out;
    std::istringstream in(*p);
    for (std::string pair; in >> pair;) {
        const std::size_t comma = pair.find(',');
        if (comma == std::string::npos) continue;
        out.push_back({std::strtod(pair.substr(0, comma).c_str(), nullptr), std::strtod(pair.substr(comma + 1).c_str(), nullptr)});
    }
    return out;
}

}  // namespace svgtest
