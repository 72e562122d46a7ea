// SPDX-License-Identifier: MIT
// The examples' SVG plot writer (examples/common/plot.hpp): tick values derived by hand, and
// written figures read back with the tests' own XML reader (svg_read.hpp) the way a reader reads
// a plot: from its tick labels.
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "plot.hpp"
#include "png.hpp"
#include "svg_read.hpp"

namespace {

std::string scratch(const char* name) { return std::string(LAB_SCRATCH_DIR) + "/" + name; }

std::string read_file(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

void check_values(const std::vector<double>& got, const std::vector<double>& want)
{
    CAPTURE(got, want);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) CHECK_THAT(got[i], WithinAbs(want[i], 1e-12));
}

}  // namespace

TEST_CASE("a tick step is the smallest 1, 2 or 5 times a power of ten giving at most the target intervals", "[plot]")
{
    // raw = span / target; the step is the first of 1, 2, 5, 10 (times the power of ten at or
    // below raw) that is at least raw.
    CHECK(plot::nice_step(10, 5) == 2);                          // raw 2: 2 itself
    CHECK_THAT(plot::nice_step(1, 5), WithinAbs(0.2, 1e-15));    // raw 0.2
    CHECK(plot::nice_step(12, 5) == 5);                          // raw 2.4: 5 (2 would give 6 intervals)
    CHECK_THAT(plot::nice_step(2.43, 5), WithinAbs(0.5, 1e-15)); // raw 0.486
    CHECK_THAT(plot::nice_step(0.01, 4), WithinAbs(0.005, 1e-15));  // raw 0.0025
    CHECK_THAT(plot::nice_step(0.074, 5), WithinAbs(0.02, 1e-15));  // raw 0.0148
    CHECK(plot::nice_step(100, 5) == 20);                        // raw 20
    CHECK_THAT(plot::nice_step(0.001, 1), WithinAbs(0.001, 1e-18));  // raw exactly a power of ten
    CHECK(plot::nice_step(0, 5) == 1);                           // no span: a unit step
}

TEST_CASE("ticks are the multiples of the step inside the range", "[plot]")
{
    check_values(plot::nice_ticks(0, 10), {0, 2, 4, 6, 8, 10});            // step 2
    check_values(plot::nice_ticks(0, 1), {0, 0.2, 0.4, 0.6, 0.8, 1.0});    // step 0.2
    check_values(plot::nice_ticks(-5, 7), {-5, 0, 5});                     // step 5
    check_values(plot::nice_ticks(0, 2.43), {0, 0.5, 1.0, 1.5, 2.0});      // step 0.5; 2.5 is outside
    check_values(plot::nice_ticks(1.7, 1.71, 4), {1.7, 1.705, 1.71});      // step 0.005, both ends on ticks
    check_values(plot::nice_ticks(0.013, 0.087), {0.02, 0.04, 0.06, 0.08});  // step 0.02, neither end on one
    check_values(plot::nice_ticks(-1, 1), {-1, -0.5, 0, 0.5, 1});          // raw 0.4: step 0.5
    // Zero is exactly zero, not k * step rounded: -0.3 .. 0.3 has raw 0.12, step 0.2.
    const std::vector<double> z = plot::nice_ticks(-0.3, 0.3);
    check_values(z, {-0.2, 0, 0.2});
    CHECK(z[1] == 0.0);
}

TEST_CASE("tick labels carry the decimals the step needs and never read -0", "[plot]")
{
    CHECK(plot::decimals(2) == 0);
    CHECK(plot::decimals(0.5) == 1);
    CHECK(plot::decimals(0.1) == 1);
    CHECK(plot::decimals(0.005) == 3);
    CHECK(plot::tick_label(1.705, 0.005) == "1.705");
    CHECK(plot::tick_label(1.0, 0.5) == "1.0");
    CHECK(plot::tick_label(4, 2) == "4");
    CHECK(plot::tick_label(-1e-17, 0.2) == "0.0");
    CHECK(plot::tick_label(-0.4, 0.2) == "-0.4");
}

TEST_CASE("a logarithmic axis puts its ticks on powers of ten, every 1, 2 or 5 decades", "[plot]")
{
    // 1e-20 .. 0.3: decades -20 .. 0 (0.3 rounds up to 10^0), 20 decades, step nice_step(20, 5) = 5.
    CHECK(plot::log_ticks(1e-20, 0.3) == std::vector<int>{-20, -15, -10, -5, 0});
    // 0.05 .. 300: decades -2 .. 3, 5 of them, step 1.
    CHECK(plot::log_ticks(0.05, 300) == std::vector<int>{-2, -1, 0, 1, 2, 3});
    CHECK(plot::power_label(0) == "1");
    CHECK(plot::power_label(1) == "10");
    CHECK(plot::power_label(-5) == "10\u207b\u2075");
    CHECK(plot::power_label(12) == "10\u00b9\u00b2");
}

TEST_CASE("a written plot is well-formed SVG with axes, tick labels, titles, series and a legend", "[plot]")
{
    plot::Figure f(640, 360);
    f.x_axis("time t (s)").y_axis("height <y> & more (m)").x_range(0, 10).y_range(0, 5);
    f.line("height", {0, 5, 10}, {5, 2.5, 0});
    f.points("peaks", {2, 4}, {2.45, 1.2});
    f.hline(1, "");  // no label: not in the legend
    std::string err;
    REQUIRE(f.write(scratch("plot-check.svg"), err));

    const svgtest::Document d = svgtest::parse(read_file(scratch("plot-check.svg")));
    INFO(d.error);
    REQUIRE(d.error.empty());
    CHECK(d.root.name == "svg");
    REQUIRE(d.root.attr("xmlns"));
    CHECK(*d.root.attr("xmlns") == "http://www.w3.org/2000/svg");
    CHECK(d.root.number("width") == 640);

    // Ticks: x 0 .. 10 has step 2 (6 labels), y 0 .. 5 has step 1 (6 labels), as derived above.
    const std::vector<svgtest::Tick> x = svgtest::ticks(d.root, "x-axis"), y = svgtest::ticks(d.root, "y-axis");
    std::vector<std::string> xl, yl;
    for (const auto& t : x) xl.push_back(t.label);
    for (const auto& t : y) yl.push_back(t.label);
    CHECK(xl == std::vector<std::string>{"0", "2", "4", "6", "8", "10"});
    CHECK(yl == std::vector<std::string>{"0", "1", "2", "3", "4", "5"});
    // Evenly spaced, x growing to the right and y upwards (pixel y downwards).
    for (std::size_t i = 1; i < x.size(); ++i) CHECK_THAT(x[i].pixel - x[i - 1].pixel, WithinAbs(x[1].pixel - x[0].pixel, 0.11));
    CHECK(x[1].pixel > x[0].pixel);
    CHECK(y[1].pixel < y[0].pixel);
    CHECK(svgtest::axis_title(d.root, "x-axis") == "time t (s)");
    CHECK(svgtest::axis_title(d.root, "y-axis") == "height <y> & more (m)");  // escaped, read back as written

    // The line's points read off the axes are the data (to the 0.1 px the file rounds to).
    const svgtest::Element* height = svgtest::series(d.root, "height");
    REQUIRE(height);
    const auto lines = height->named("polyline");
    REQUIRE(lines.size() == 1);
    const auto pts = svgtest::polyline_points(*lines[0]);
    REQUIRE(pts.size() == 3);
    const svgtest::Scale sx = svgtest::scale_of(x), sy = svgtest::scale_of(y);
    const double want[3][2] = {{0, 5}, {5, 2.5}, {10, 0}};
    for (int i = 0; i < 3; ++i) {
        CHECK_THAT(sx.data(pts[std::size_t(i)].first), WithinAbs(want[i][0], 0.01));
        CHECK_THAT(sy.data(pts[std::size_t(i)].second), WithinAbs(want[i][1], 0.01));
    }
    const svgtest::Element* peaks = svgtest::series(d.root, "peaks");
    REQUIRE(peaks);
    CHECK(peaks->named("circle").size() == 2);

    // The legend names the two labelled series, not the unlabelled line.
    const auto entries = d.root.with_class("legend-entry");
    REQUIRE(entries.size() == 2);
    CHECK(entries[0]->named("text").front()->text == "height");
    CHECK(entries[1]->named("text").front()->text == "peaks");
}

TEST_CASE("a range from the data is widened to ticks, and a non-finite value breaks a line", "[plot]")
{
    plot::Figure f;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    f.x_axis("x (m)").y_axis("y (m)");
    f.line("two pieces", {0.13, 1, 2, 3, 4.3}, {-0.4, 1, nan, 2, 2.6});
    const svgtest::Document d = svgtest::parse(f.svg());
    REQUIRE(d.error.empty());
    // x 0.13 .. 4.3: raw 0.834, step 1, widened to 0 .. 5. y -0.4 .. 2.6: raw 0.6, step 1, -1 .. 3.
    const auto x = svgtest::ticks(d.root, "x-axis"), y = svgtest::ticks(d.root, "y-axis");
    REQUIRE(x.size() == 6);
    CHECK(x.front().label == "0");
    CHECK(x.back().label == "5");
    REQUIRE(y.size() == 5);
    CHECK(y.front().label == "-1");
    CHECK(y.back().label == "3");
    const svgtest::Element* s = svgtest::series(d.root, "two pieces");
    REQUIRE(s);
    const auto lines = s->named("polyline");
    REQUIRE(lines.size() == 2);
    CHECK(svgtest::polyline_points(*lines[0]).size() == 2);
    CHECK(svgtest::polyline_points(*lines[1]).size() == 2);
}

TEST_CASE("equal aspect makes a metre as long upwards as across", "[plot]")
{
    plot::Figure f(640, 100);  // the height is set by the aspect, not by this
    f.x_axis("x (m)").y_axis("y (m)").x_range(0, 10).y_range(0, 5).equal_aspect();
    const svgtest::Document d = svgtest::parse(f.svg());
    REQUIRE(d.error.empty());
    const auto x = svgtest::ticks(d.root, "x-axis"), y = svgtest::ticks(d.root, "y-axis");
    REQUIRE(x.size() >= 2);
    REQUIRE(y.size() >= 2);
    const double px_per_m_x = (x.back().pixel - x.front().pixel) / (x.back().value - x.front().value);
    const double px_per_m_y = (y.front().pixel - y.back().pixel) / (y.back().value - y.front().value);
    CHECK_THAT(px_per_m_y, WithinRel(px_per_m_x, 0.005));
}

TEST_CASE("a logarithmic plot labels its ticks as powers of ten", "[plot]")
{
    plot::Figure f;
    f.x_axis("iteration").y_axis("loss (m\u00b2)").log_y();
    f.line("loss", {0, 1, 2, 3}, {0.2, 1e-3, 1e-9, 1e-20});
    const svgtest::Document d = svgtest::parse(f.svg());
    REQUIRE(d.error.empty());
    std::vector<std::string> labels;
    for (const auto& t : svgtest::ticks(d.root, "y-axis")) labels.push_back(t.label);
    // 1e-20 .. 0.2 as in log_ticks: every 5 decades from 10^-20 to 10^0.
    CHECK(labels == std::vector<std::string>{"10\u207b\u00b2\u2070", "10\u207b\u00b9\u2075", "10\u207b\u00b9\u2070",
                                             "10\u207b\u2075", "1"});
}

TEST_CASE("a picture framed by a plot is embedded whole, and a missing one fails the write", "[plot]")
{
    gfx::Canvas c(4, 2, gfx::red);
    std::string err;
    REQUIRE(gfx::write_png(c, scratch("plot-frame.png"), err));
    plot::Figure f;
    f.x_axis("x (m)").y_axis("y (m)").x_range(0, 4).y_range(0, 2).image(scratch("plot-frame.png"), 0, 4, 0, 2);
    const svgtest::Document d = svgtest::parse(f.svg());
    REQUIRE(d.error.empty());
    const auto images = d.root.named("image");
    REQUIRE(images.size() == 1);
    const std::string* href = images[0]->attr("xlink:href");
    REQUIRE(href);
    // Base64 of the PNG signature 89 50 4E 47 0D 0A 1A 0A: "iVBORw0KGgo".
    CHECK(href->rfind("data:image/png;base64,iVBORw0KGgo", 0) == 0);
    // The file's 4 x 2 pixels over 4 m x 2 m: the picture spans the same pixels as 4 m and 2 m of the axes.
    const auto x = svgtest::ticks(d.root, "x-axis"), y = svgtest::ticks(d.root, "y-axis");
    const svgtest::Scale sx = svgtest::scale_of(x), sy = svgtest::scale_of(y);
    CHECK_THAT(sx.data(images[0]->number("x")), WithinAbs(0.0, 0.01));
    CHECK_THAT(sx.data(images[0]->number("x") + images[0]->number("width")), WithinAbs(4.0, 0.01));
    CHECK_THAT(sy.data(images[0]->number("y")), WithinAbs(2.0, 0.01));

    plot::Figure missing;
    missing.image(scratch("no-such-picture.png"), 0, 1, 0, 1);
    CHECK_FALSE(missing.write(scratch("plot-missing.svg"), err));
    CHECK(err.find("no-such-picture.png") != std::string::npos);
}

TEST_CASE("the test's XML reader refuses what is not well-formed", "[plot]")
{
    // The checks above rely on the reader: it must not accept broken files.
    CHECK(svgtest::parse("<a><b></a>").error.find("closes") != std::string::npos);
    CHECK_FALSE(svgtest::parse("<a x=1/>").error.empty());
    CHECK_FALSE(svgtest::parse("<a x=\"1\" x=\"2\"/>").error.empty());
    CHECK_FALSE(svgtest::parse("<a>fish & chips</a>").error.empty());
    CHECK_FALSE(svgtest::parse("<a/><b/>").error.empty());
    CHECK_FALSE(svgtest::parse("<a>").error.empty());
    const svgtest::Document ok = svgtest::parse("<?xml version=\"1.0\"?>\n<!-- c --><a k='&lt;&amp;'>x &gt; y</a>\n");
    REQUIRE(ok.error.empty());
    CHECK(*ok.root.attr("k") == "<&");
    CHECK(ok.root.text == "x > y");
}
