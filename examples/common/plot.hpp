// SPDX-License-Identifier: MIT
/// \file plot.hpp
/// The examples' plots: a small SVG writer (plain SVG text, no library needed) for a quantity over time
/// or over iterations: line series, scatter points, dashed reference lines, notes at data points,
/// axes with "nice" tick values and tick labels, axis titles with units, and a legend. A picture
/// drawn with png.hpp can be framed by the axes (`image`), so that a reader can tell its size.
///
///     plot::Figure f;
///     f.x_axis("time (s)").y_axis("height (m)");
///     f.line("height", t, y);
///     f.hline(5 * 0.49, "e\u00b2 \u00d7 5 m");
///     std::string err;
///     if (!f.write("bounce.svg", err)) { std::fprintf(stderr, "%s\n", err.c_str()); return 1; }
///
/// Ticks: the step between two ticks is 1, 2 or 5 times a power of ten, the smallest such step
/// that gives at most `target` intervals over the axis (nice_step); the ticks are the multiples of
/// the step inside the axis range (ticks). An axis whose range is not given spans the data,
/// widened to the neighbouring multiples of its step, so that it starts and ends on a tick.
/// A logarithmic axis puts its ticks on powers of ten, every 1, 2 or 5 decades.
///
/// The SVG names its parts with classes, for the tests and for anyone reading the file: the axes
/// are `<g class="axis x-axis">` and `<g class="axis y-axis">`, each with `<g class="tick">`
/// groups holding a tick mark and a `<text class="tick-label">` placed at the tick (x-axis: its
/// x attribute; y-axis: its y attribute), and a `<text class="axis-title">`; every series is a
/// `<g class="series" data-label="...">` of polylines or circles; the legend is
/// `<g class="legend">` with one `<g class="legend-entry">` per labelled series.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "markup.hpp"

namespace plot {

// ---------------------------------------------------------------------------------------------
// Tick values

/// The smallest step s = m 10^k, m in {1, 2, 5}, with s >= span / target: at most `target`
/// intervals of s cover `span`. 1 for a span that is not positive and finite.
inline double nice_step(double span, int target = 5)
{
    if (!(span > 0.0) || !std::isfinite(span)) return 1.0;
    const double raw = span / double(std::max(target, 1));
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : {1.0, 2.0, 5.0})
        if (m * mag >= raw * (1.0 - 1e-9)) return m * mag;
    return 10.0 * mag;  // (log10 rounded down past a power of ten)
}

/// The multiples k * step in [lo, hi] (to rounding), in increasing order. Computed as k * step,
/// not by adding steps, so no error accumulates; a tick within rounding of zero is exactly 0.
inline std::vector<double> ticks(double lo, double hi, double step)
{
    std::vector<double> out;
    if (!(step > 0.0) || !(hi >= lo) || !std::isfinite(lo) || !std::isfinite(hi)) return out;
    const double k0 = std::ceil(lo / step - 1e-9), k1 = std::floor(hi / step + 1e-9);
    for (double k = k0; k <= k1 && out.size() < 1000; k += 1.0) {
        const double v = k * step;
        out.push_back(std::abs(v) < 1e-9 * step ? 0.0 : v);
    }
    return out;
}

/// The ticks of [lo, hi] with the step nice_step(hi - lo, target).
inline std::vector<double> nice_ticks(double lo, double hi, int target = 5)
{
    return ticks(lo, hi, nice_step(hi - lo, target));
}

/// Digits after the decimal point that tell ticks `step` apart: 0 for steps of 1 and more,
/// 1 for 0.5 or 0.2, 3 for 0.005.
inline int decimals(double step)
{
    if (!(step > 0.0) || !std::isfinite(step)) return 0;
    return std::max(0, -int(std::floor(std::log10(step) + 1e-9)));
}

/// A tick label: `value` with decimals(step) digits after the point ("1.705" for step 0.005);
/// never "-0".
inline std::string tick_label(double value, double step)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals(step), value);
    std::string s = buf;
    if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
    return s;
}

/// A power of ten as a label: "1", "10", else "10" with a superscript exponent ("10⁻⁵").
inline std::string power_label(int exponent)
{
    if (exponent == 0) return "1";
    if (exponent == 1) return "10";
    static const char* const sup[] = {"\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074",
                                      "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
    std::string digits = std::to_string(exponent < 0 ? -exponent : exponent), s = "10";
    if (exponent < 0) s += "\u207b";
    for (const char d : digits) s += sup[d - '0'];
    return s;
}

/// The exponents e of the ticks 10^e of a logarithmic axis over [lo, hi] (both > 0): multiples
/// of nice_step(decades, target), at least 1, from the one at or below lo to the one at or above
/// hi (so the axis starts and ends on a tick).
inline std::vector<int> log_ticks(double lo, double hi, int target = 5)
{
    std::vector<int> out;
    if (!(lo > 0.0) || !(hi >= lo) || !std::isfinite(hi)) return out;
    const double e0 = std::floor(std::log10(lo) + 1e-9), e1 = std::ceil(std::log10(hi) - 1e-9);
    const double step = std::max(1.0, std::round(nice_step(std::max(e1 - e0, 1.0), target)));
    for (double k = std::floor(e0 / step); k * step <= e1 + 0.5 * step; k += 1.0) {
        out.push_back(int(k * step));
        if (k * step >= e1) break;
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// The figure

/// Text for SVG content and attribute values: &, <, >, " escaped.
using markup::escape;

/// Colour-blind-safe series colours (Okabe and Ito), taken in turn by series given no colour.
inline const char* const palette[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#222222"};

/// Where the legend sits inside the plot area.
enum class Corner { top_right, top_left, bottom_right, bottom_left };

/// One plot: axes, series, legend. Every setter returns the figure, so calls chain.
class Figure {
public:
    /// A figure `width` x `height` pixels (the height grows or shrinks with equal_aspect()).
    explicit Figure(int width = 640, int height = 360) : width_(width), height_(height) {}

    Figure& title(std::string text) { title_ = std::move(text); return *this; }
    /// Axis titles: the quantity and its unit, e.g. "time (s)".
    Figure& x_axis(std::string text) { x_.title = std::move(text); return *this; }
    Figure& y_axis(std::string text) { y_.title = std::move(text); return *this; }
    /// Fixed axis ranges (otherwise the data's, widened to ticks).
    Figure& x_range(double lo, double hi) { x_.fixed = true; x_.lo = lo; x_.hi = hi; return *this; }
    Figure& y_range(double lo, double hi) { y_.fixed = true; y_.lo = lo; y_.hi = hi; return *this; }
    /// A logarithmic y axis (ticks on powers of ten); points with y <= 0 are left out.
    Figure& log_y() { y_.log = true; return *this; }
    /// How many tick intervals an axis may have at most (default 5 on x, 5 on y).
    Figure& tick_target(int x, int y) { x_.target = x; y_.target = y; return *this; }
    /// One data unit is as long on y as on x (positions in metres): the height follows the width.
    Figure& equal_aspect() { equal_ = true; return *this; }
    Figure& legend_at(Corner c) { corner_ = c; return *this; }

    /// A line through the points (x[i], y[i]); a non-finite value breaks the line there.
    Figure& line(std::string label, std::vector<double> x, std::vector<double> y, std::string colour = "",
                 double width = 2.0)
    {
        return add(Kind::line, std::move(label), std::move(x), std::move(y), std::move(colour), width, false);
    }
    /// The same, dashed: an analytic solution or a prediction beside the measured line.
    Figure& dashed(std::string label, std::vector<double> x, std::vector<double> y, std::string colour = "",
                   double width = 1.5)
    {
        return add(Kind::line, std::move(label), std::move(x), std::move(y), std::move(colour), width, true);
    }
    /// A dot of `radius` pixels at each point.
    Figure& points(std::string label, std::vector<double> x, std::vector<double> y, std::string colour = "",
                   double radius = 2.5)
    {
        return add(Kind::points, std::move(label), std::move(x), std::move(y), std::move(colour), radius, false);
    }
    /// A dashed horizontal reference line at y across the whole plot.
    Figure& hline(double y, std::string label, std::string colour = "#777777")
    {
        return add(Kind::hline, std::move(label), {}, {y}, std::move(colour), 1.5, true);
    }
    /// A dashed vertical reference line at x.
    Figure& vline(double x, std::string label, std::string colour = "#777777")
    {
        return add(Kind::vline, std::move(label), {x}, {}, std::move(colour), 1.5, true);
    }
    /// A short text at the data point (x, y), marked by a small ring.
    Figure& note(double x, double y, std::string text)
    {
        notes_.push_back({x, y, std::move(text)});
        return *this;
    }
    /// A PNG file (e.g. written by png.hpp) embedded in the SVG and stretched over the data
    /// rectangle [x0, x1] x [y0, y1], under the series: the axes then give its size in data units.
    /// If the file cannot be read, write() fails and says so.
    Figure& image(const std::string& png_file, double x0, double x1, double y0, double y1)
    {
        std::ifstream f(png_file, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        if (!f.good() && !f.eof()) image_error_ = png_file + ": cannot read";
        else if (bytes.empty()) image_error_ = png_file + ": cannot read, or empty";
        image_ = {base64(bytes), x0, x1, y0, y1};
        has_image_ = true;
        return *this;
    }

    /// The SVG document.
    std::string svg() const
    {
        Axis x = x_, y = y_;
        settle(x, Dir::x);
        settle(y, Dir::y);

        // Layout: the left margin fits the longest y tick label (about 7 px per character at 12 px).
        std::size_t longest = 0;
        for (const auto& t : y.labels) longest = std::max(longest, glyphs(t.second));
        const double left = std::max(52.0, 30.0 + 7.0 * double(longest)), right = 18.0;
        const double top = title_.empty() ? 14.0 : 34.0, bottom = 50.0;
        const double pw = double(width_) - left - right;
        double ph = double(height_) - top - bottom;
        if (equal_ && !y.log && x.hi > x.lo) ph = pw * (y.hi - y.lo) / (x.hi - x.lo);
        const double height = top + ph + bottom;
        Map m{left, top, pw, ph, x, y};

        std::string s;
        s += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
        s += "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"" +
             std::to_string(width_) + "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + std::to_string(width_) +
             " " + num(height) + "\" font-family=\"DejaVu Sans, Verdana, sans-serif\" font-size=\"12\">\n";
        s += "<rect class=\"background\" width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
        const std::string clip = "plot-area-" + std::to_string(width_) + "x" + num(height);
        s += "<defs><clipPath id=\"" + clip + "\"><rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" +
             num(pw) + "\" height=\"" + num(ph) + "\"/></clipPath></defs>\n";
        if (!title_.empty())
            s += "<text class=\"title\" x=\"" + num(left + pw / 2) + "\" y=\"22\" text-anchor=\"middle\" "
                 "font-size=\"14\" font-weight=\"bold\">" + escape(title_) + "</text>\n";

        // Grid, under everything else.
        s += "<g class=\"grid\" stroke=\"#e4e4e4\" stroke-width=\"1\">\n";
        for (const auto& t : x.labels) s += seg(m.px(t.first), top, m.px(t.first), top + ph);
        for (const auto& t : y.labels) s += seg(left, m.py(t.first), left + pw, m.py(t.first));
        s += "</g>\n";

        if (has_image_)
            s += "<image class=\"picture\" x=\"" + num(m.px(image_.x0)) + "\" y=\"" + num(m.py(image_.y1)) +
                 "\" width=\"" + num(m.px(image_.x1) - m.px(image_.x0)) + "\" height=\"" +
                 num(m.py(image_.y0) - m.py(image_.y1)) +
                 "\" preserveAspectRatio=\"none\" style=\"image-rendering: pixelated\" "
                 "xlink:href=\"data:image/png;base64," + image_.data + "\"/>\n";

        // Series, clipped to the plot area.
        s += "<g clip-path=\"url(#" + clip + ")\">\n";
        for (std::size_t i = 0; i < series_.size(); ++i) s += draw(series_[i], colour(i), m);
        s += "</g>\n";
        for (const Note& n : notes_) {
            if (!m.inside(n.x, n.y)) continue;
            const double px = m.px(n.x), py = m.py(n.y);
            s += "<g class=\"note\"><circle cx=\"" + num(px) + "\" cy=\"" + num(py) +
                 "\" r=\"4\" fill=\"none\" stroke=\"#222222\" stroke-width=\"1.2\"/><text x=\"" + num(px + 7) +
                 "\" y=\"" + num(py - 7) + "\" fill=\"#222222\">" + escape(n.text) + "</text></g>\n";
        }

        // Axes: a frame, tick marks and labels outside the plot area, the titles.
        s += "<rect class=\"frame\" x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(pw) +
             "\" height=\"" + num(ph) + "\" fill=\"none\" stroke=\"#555555\" stroke-width=\"1\"/>\n";
        s += "<g class=\"axis x-axis\" fill=\"#333333\">\n";
        for (const auto& t : x.labels) {
            const double px = m.px(t.first);
            s += "<g class=\"tick\">" + seg(px, top + ph, px, top + ph + 5, "#555555") + "<text class=\"tick-label\" x=\"" +
                 num(px) + "\" y=\"" + num(top + ph + 19) + "\" text-anchor=\"middle\">" + escape(t.second) +
                 "</text></g>\n";
        }
        s += "<text class=\"axis-title\" x=\"" + num(left + pw / 2) + "\" y=\"" + num(top + ph + 42) +
             "\" text-anchor=\"middle\">" + escape(x.title) + "</text>\n</g>\n";
        s += "<g class=\"axis y-axis\" fill=\"#333333\">\n";
        for (const auto& t : y.labels) {
            const double py = m.py(t.first);
            s += "<g class=\"tick\">" + seg(left - 5, py, left, py, "#555555") + "<text class=\"tick-label\" x=\"" +
                 num(left - 8) + "\" y=\"" + num(py) + "\" dy=\"0.35em\" text-anchor=\"end\">" + escape(t.second) +
                 "</text></g>\n";
        }
        s += "<text class=\"axis-title\" transform=\"translate(16 " + num(top + ph / 2) +
             ") rotate(-90)\" text-anchor=\"middle\">" + escape(y.title) + "</text>\n</g>\n";
        s += legend(m);
        s += "</svg>\n";
        return s;
    }

    /// Writes svg() to `path`; false with `error` saying why if it cannot (or if an image() file
    /// could not be read).
    bool write(const std::string& path, std::string& error) const
    {
        if (!image_error_.empty()) {
            error = image_error_;
            return false;
        }
        std::ofstream f(path, std::ios::binary);
        f << svg();
        f.close();
        if (!f) {
            error = path + ": cannot write";
            return false;
        }
        return true;
    }

private:
    enum class Kind { line, points, hline, vline };
    enum class Dir { x, y };

    struct Series {
        Kind kind;
        std::string label;
        std::vector<double> x, y;
        std::string colour;
        double size;  // stroke width, or dot radius
        bool dashed;
    };
    struct Note {
        double x, y;
        std::string text;
    };
    struct Image {
        std::string data;  // base64
        double x0, x1, y0, y1;
    };
    struct Axis {
        std::string title;
        bool fixed{false}, log{false};
        double lo{0}, hi{1};
        int target{5};
        std::vector<std::pair<double, std::string>> labels;  // tick value (log axes: the exponent), label
    };

    /// Data to pixels. A log axis maps log10 of the value.
    struct Map {
        double left, top, pw, ph;
        Axis x, y;
        double ux(double v) const { return x.log ? std::log10(v) : v; }
        double uy(double v) const { return y.log ? std::log10(v) : v; }
        double px(double v) const { return left + (v - x.lo) / (x.hi - x.lo) * pw; }
        double py(double v) const { return top + ph - (v - y.lo) / (y.hi - y.lo) * ph; }
        double dx(double v) const { return px(ux(v)); }
        double dy(double v) const { return py(uy(v)); }
        bool usable(double vx, double vy) const
        {
            return std::isfinite(vx) && std::isfinite(vy) && (!x.log || vx > 0) && (!y.log || vy > 0);
        }
        bool inside(double vx, double vy) const
        {
            if (!usable(vx, vy)) return false;
            const double a = ux(vx), b = uy(vy);
            return a >= std::min(x.lo, x.hi) && a <= std::max(x.lo, x.hi) && b >= std::min(y.lo, y.hi) &&
                   b <= std::max(y.lo, y.hi);
        }
    };

    Figure& add(Kind k, std::string label, std::vector<double> x, std::vector<double> y, std::string colour,
                double size, bool dashed)
    {
        series_.push_back({k, std::move(label), std::move(x), std::move(y), std::move(colour), size, dashed});
        return *this;
    }

    std::string colour(std::size_t i) const
    {
        if (!series_[i].colour.empty()) return series_[i].colour;
        std::size_t k = 0;  // the i-th series without a colour of its own takes the next palette entry
        for (std::size_t j = 0; j < i; ++j) k += series_[j].colour.empty();
        return palette[k % (sizeof palette / sizeof palette[0])];
    }

    /// The axis range (from the data unless fixed) and its tick labels. Log axes work in log10.
    void settle(Axis& a, Dir d) const
    {
        const bool on_x = d == Dir::x;
        if (!a.fixed) {
            double lo = HUGE_VAL, hi = -HUGE_VAL;
            auto take = [&](double v) {
                if (std::isfinite(v) && (!a.log || v > 0)) {
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
            };
            for (const Series& s : series_) {
                if ((s.kind == Kind::hline && on_x) || (s.kind == Kind::vline && !on_x)) continue;
                const std::vector<double>& v = on_x ? s.x : s.y;
                const std::vector<double>& w = on_x ? s.y : s.x;
                for (std::size_t i = 0; i < v.size(); ++i)
                    if (s.kind != Kind::line && s.kind != Kind::points) take(v[i]);
                    else if (i < w.size() && std::isfinite(w[i])) take(v[i]);
            }
            if (has_image_) {
                take(on_x ? image_.x0 : image_.y0);
                take(on_x ? image_.x1 : image_.y1);
            }
            for (const Note& n : notes_) take(on_x ? n.x : n.y);
            if (!(lo <= hi)) lo = a.log ? 0.1 : 0.0, hi = a.log ? 10.0 : 1.0;
            a.lo = lo;
            a.hi = hi;
        }
        if (a.log) {
            if (!(a.lo > 0)) a.lo = a.hi > 0 ? a.hi / 1e3 : 0.1;
            if (!(a.hi > a.lo)) a.hi = a.lo * 10;
            const std::vector<int> e = log_ticks(a.lo, a.hi, a.target);
            if (a.fixed) {
                a.lo = std::log10(a.lo);
                a.hi = std::log10(a.hi);
            } else {
                a.lo = e.front();
                a.hi = e.back();
            }
            for (const int k : e)
                if (k >= a.lo - 1e-9 && k <= a.hi + 1e-9) a.labels.push_back({double(k), power_label(k)});
            return;
        }
        if (!(a.hi > a.lo)) {  // one value: a unit of its size around it
            const double pad = a.lo != 0 ? std::abs(a.lo) * 0.1 : 1.0;
            a.lo -= pad;
            a.hi += pad;
        }
        double step = nice_step(a.hi - a.lo, a.target);
        if (!a.fixed) {
            a.lo = std::floor(a.lo / step + 1e-9) * step;
            a.hi = std::ceil(a.hi / step - 1e-9) * step;
            step = nice_step(a.hi - a.lo, a.target);
        }
        for (const double v : ticks(a.lo, a.hi, step)) a.labels.push_back({v, tick_label(v, step)});
    }

    std::string draw(const Series& s, const std::string& c, const Map& m) const
    {
        std::string out = "<g class=\"series\" data-label=\"" + escape(s.label) + "\">\n";
        const std::string dash = s.dashed ? " stroke-dasharray=\"7 4\"" : "";
        if (s.kind == Kind::hline && !s.y.empty() && m.usable(1.0, s.y[0])) {
            const double py = m.dy(s.y[0]);
            out += "<line x1=\"" + num(m.left) + "\" y1=\"" + num(py) + "\" x2=\"" + num(m.left + m.pw) + "\" y2=\"" +
                   num(py) + "\" stroke=\"" + c + "\" stroke-width=\"" + num(s.size) + "\"" + dash + "/>\n";
        } else if (s.kind == Kind::vline && !s.x.empty() && m.usable(s.x[0], 1.0)) {
            const double px = m.dx(s.x[0]);
            out += "<line x1=\"" + num(px) + "\" y1=\"" + num(m.top) + "\" x2=\"" + num(px) + "\" y2=\"" +
                   num(m.top + m.ph) + "\" stroke=\"" + c + "\" stroke-width=\"" + num(s.size) + "\"" + dash + "/>\n";
        } else if (s.kind == Kind::points) {
            const std::size_t n = std::min(s.x.size(), s.y.size());
            for (std::size_t i = 0; i < n; ++i)
                if (m.usable(s.x[i], s.y[i]))
                    out += "<circle cx=\"" + num(m.dx(s.x[i])) + "\" cy=\"" + num(m.dy(s.y[i])) + "\" r=\"" +
                           num(s.size) + "\" fill=\"" + c + "\"/>\n";
        } else if (s.kind == Kind::line) {
            const std::size_t n = std::min(s.x.size(), s.y.size());
            std::string pts;
            std::size_t count = 0;
            auto flush = [&] {
                if (count >= 2)
                    out += "<polyline points=\"" + pts + "\" fill=\"none\" stroke=\"" + c + "\" stroke-width=\"" +
                           num(s.size) + "\" stroke-linejoin=\"round\" stroke-linecap=\"round\"" + dash + "/>\n";
                pts.clear();
                count = 0;
            };
            for (std::size_t i = 0; i < n; ++i) {
                if (!m.usable(s.x[i], s.y[i])) {
                    flush();
                    continue;
                }
                if (count++) pts += ' ';
                pts += num(m.dx(s.x[i])) + "," + num(m.dy(s.y[i]));
            }
            flush();
        }
        return out + "</g>\n";
    }

    std::string legend(const Map& m) const
    {
        std::vector<std::size_t> shown;
        std::size_t longest = 0;
        for (std::size_t i = 0; i < series_.size(); ++i)
            if (!series_[i].label.empty()) {
                shown.push_back(i);
                longest = std::max(longest, glyphs(series_[i].label));
            }
        if (shown.empty()) return "";
        const double row = 18, w = 40 + 7.0 * double(longest), h = 8 + row * double(shown.size());
        const bool right = corner_ == Corner::top_right || corner_ == Corner::bottom_right;
        const bool up = corner_ == Corner::top_right || corner_ == Corner::top_left;
        const double x0 = right ? m.left + m.pw - w - 8 : m.left + 8, y0 = up ? m.top + 8 : m.top + m.ph - h - 8;
        std::string s = "<g class=\"legend\">\n<rect x=\"" + num(x0) + "\" y=\"" + num(y0) + "\" width=\"" + num(w) +
                        "\" height=\"" + num(h) +
                        "\" fill=\"#ffffff\" fill-opacity=\"0.88\" stroke=\"#bbbbbb\" stroke-width=\"1\" rx=\"3\"/>\n";
        for (std::size_t k = 0; k < shown.size(); ++k) {
            const Series& se = series_[shown[k]];
            const std::string c = colour(shown[k]);
            const double cy = y0 + 4 + row * (double(k) + 0.5);
            s += "<g class=\"legend-entry\">";
            if (se.kind == Kind::points)
                s += "<circle cx=\"" + num(x0 + 18) + "\" cy=\"" + num(cy) + "\" r=\"" + num(std::max(se.size, 3.0)) +
                     "\" fill=\"" + c + "\"/>";
            else
                s += "<line x1=\"" + num(x0 + 7) + "\" y1=\"" + num(cy) + "\" x2=\"" + num(x0 + 29) + "\" y2=\"" +
                     num(cy) + "\" stroke=\"" + c + "\" stroke-width=\"" + num(std::max(se.size, 2.0)) + "\"" +
                     (se.dashed ? " stroke-dasharray=\"6 3\"" : "") + "/>";
            s += "<text x=\"" + num(x0 + 35) + "\" y=\"" + num(cy) + "\" dy=\"0.35em\" fill=\"#222222\">" +
                 escape(se.label) + "</text></g>\n";
        }
        return s + "</g>\n";
    }

    /// Characters as a reader counts them (UTF-8 continuation bytes not counted).
    static std::size_t glyphs(const std::string& s)
    {
        std::size_t n = 0;
        for (const char ch : s) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
        return n;
    }

    static std::string num(double v)
    {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f", v);
        return buf;
    }

    static std::string seg(double x1, double y1, double x2, double y2, const char* stroke = nullptr)
    {
        return "<line x1=\"" + num(x1) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x2) + "\" y2=\"" + num(y2) + "\"" +
               (stroke ? std::string(" stroke=\"") + stroke + "\"" : std::string()) + "/>";
    }

    static std::string base64(const std::string& bytes)
    {
        static const char* const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        std::string out;
        out.reserve((bytes.size() + 2) / 3 * 4);
        for (std::size_t i = 0; i < bytes.size(); i += 3) {
            // Three bytes a, b, c make four 6-bit digits; '=' pads a short last group.
            const unsigned a = static_cast<unsigned char>(bytes[i]);
            const unsigned b = i + 1 < bytes.size() ? static_cast<unsigned char>(bytes[i + 1]) : 0u;
            const unsigned c = i + 2 < bytes.size() ? static_cast<unsigned char>(bytes[i + 2]) : 0u;
            const unsigned v = (a << 16) | (b << 8) | c;
            out += digits[(v >> 18) & 63];
            out += digits[(v >> 12) & 63];
            out += i + 1 < bytes.size() ? digits[(v >> 6) & 63] : '=';
            out += i + 2 < bytes.size() ? digits[v & 63] : '=';
        }
        return out;
    }

    int width_, height_;
    std::string title_;
    Axis x_, y_;
    bool equal_{false};
    Corner corner_{Corner::top_right};
    std::vector<Series> series_;
    std::vector<Note> notes_;
    bool has_image_{false};
    Image image_{};
    std::string image_error_;
};

}  // namespace plot
