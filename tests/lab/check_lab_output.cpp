// SPDX-License-Identifier: MIT
// The lab's files (written by the lab_run fixture into LAB_OUT_DIR) against the lab's stated values
// and against physics. Every expected number says where it comes from: the lab's text, a hand
// derivation, or an analytic solution.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "png_read.hpp"
#include "svg_read.hpp"

namespace {

std::string path_of(const std::string& name) { return std::string(LAB_OUT_DIR) + "/" + name; }

std::string read_text(const std::string& name)
{
    std::ifstream f(path_of(name), std::ios::binary);
    INFO("reading " << path_of(name));
    REQUIRE(f.good());
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

/// The `key=value` lines of a result file.
std::map<std::string, std::string> read_keys(const std::string& name)
{
    std::map<std::string, std::string> out;
    std::istringstream lines(read_text(name));
    for (std::string line; std::getline(lines, line);) {
        const auto eq = line.find('=');
        if (eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return out;
}

/// The comma-separated numbers of a value ("1.200000,1.500000").
std::vector<double> numbers(const std::string& value)
{
    std::vector<double> out;
    std::istringstream s(value);
    for (std::string item; std::getline(s, item, ',');) out.push_back(std::stod(item));
    return out;
}

/// The number stored under `key`; fails the test when it is missing.
double number(const std::map<std::string, std::string>& keys, const std::string& key)
{
    INFO("key " << key);
    const auto it = keys.find(key);
    REQUIRE(it != keys.end());
    const std::vector<double> v = numbers(it->second);
    REQUIRE(v.size() == 1);
    return v[0];
}

std::vector<double> vector_at(const std::map<std::string, std::string>& keys, const std::string& key)
{
    INFO("key " << key);
    const auto it = keys.find(key);
    REQUIRE(it != keys.end());
    return numbers(it->second);
}

// The files print six decimals: a value agrees with an exact one when it is within half a unit
// of the sixth decimal (plus the binary rounding of the value itself).
constexpr double six_decimals = 0.5e-6 + 1e-12;

using Pixel = labtest::Image::Pixel;

/// An SVG file of the lab's, parsed; fails the test when it does not parse.
svgtest::Document read_svg(const std::string& name)
{
    svgtest::Document d = svgtest::parse(read_text(name));
    INFO(name << ": " << d.error);
    REQUIRE(d.error.empty());
    REQUIRE(d.root.name == "svg");
    return d;
}

}  // namespace

TEST_CASE("the check pattern is 64x64 with the red line drawn over the white diagonal", "[lab]")
{
    // The lab's test pattern: black 64x64, white (0,0)-(63,63), red (0,32)-(63,32) drawn last.
    const labtest::Image img = labtest::read_png(path_of("00-check.png"));
    INFO(img.error);
    REQUIRE(img.error.empty());
    REQUIRE(img.width == 64);
    REQUIRE(img.height == 64);
    const Pixel white{255, 255, 255}, red{255, 0, 0}, black{0, 0, 0};
    CHECK(img.at(0, 0) == white);    // the diagonal's ends
    CHECK(img.at(63, 63) == white);
    CHECK(img.at(32, 32) == red);    // the crossing: the red line came last
    CHECK(img.at(10, 32) == red);    // on the red line only
    CHECK(img.at(5, 40) == black);   // on neither line
}

TEST_CASE("the crate keeps sliding, slower, as the friction lesson's trace says", "[lab]")
{
    // Friction lesson trace: crate mass 2 (w = 0.5) on a static floor, n = (0,1), t = (-1,0),
    // velocity (3,0) after jn = 4, mu = 0.5. vt = -3, jt_want = 3/0.5 = 6 > cap = 0.5*4 = 2:
    // sliding, jt = +2 along t; velocity (3,0) + 2*0.5*(-1,0) = (2,0).
    const auto k = read_keys("01-crate.txt");
    CHECK_THAT(number(k, "jt_want"), WithinAbs(6.0, six_decimals));
    CHECK_THAT(number(k, "cap"), WithinAbs(2.0, six_decimals));
    CHECK_THAT(number(k, "jt"), WithinAbs(2.0, six_decimals));
    CHECK(k.at("regime") == "sliding");
    const std::vector<double> v = vector_at(k, "v_after");
    REQUIRE(v.size() == 2);
    CHECK_THAT(v[0], WithinAbs(2.0, six_decimals));
    CHECK_THAT(v[1], WithinAbs(0.0, six_decimals));
}

TEST_CASE("momentum is 5 before and after the collision, for every e", "[lab]")
{
    // p = m1*v1 + m2*v2 = 2*3 + 1*(-1) = 5; equal and opposite impulses cannot change it.
    const auto k = read_keys("03-conserve.txt");
    for (const char* key : {"p_before", "p_e1", "p_e05", "p_e0"}) {
        CAPTURE(key);
        CHECK_THAT(number(k, key), WithinAbs(5.0, six_decimals));
    }
}

TEST_CASE("kinetic energy is kept only when e = 1 and falls as e shrinks", "[lab]")
{
    // Hand values (the lab's): vn = -1 - 3 = -4, k = 0.5 + 1 = 1.5, jn = (1+e)*4/1.5,
    // v1 = 3 - 0.5*jn, v2 = -1 + jn, KE = 0.5*2*v1^2 + 0.5*1*v2^2.
    //   before:  0.5*2*9 + 0.5*1*1 = 9.5
    //   e = 1:   jn = 16/3, v1 = 1/3, v2 = 13/3, KE = 1/9 + 169/18 = 171/18 = 9.5
    //   e = 0.5: jn = 4, v1 = 1, v2 = 3, KE = 1 + 4.5 = 5.5
    //   e = 0:   jn = 8/3, v1 = v2 = 5/3, KE = 1.5 * 25/9 = 25/6 = 4.166667
    const auto k = read_keys("03-conserve.txt");
    CHECK_THAT(number(k, "ke_before"), WithinAbs(9.5, six_decimals));
    CHECK_THAT(number(k, "ke_e1"), WithinAbs(9.5, six_decimals));
    CHECK_THAT(number(k, "ke_e05"), WithinAbs(5.5, six_decimals));
    CHECK_THAT(number(k, "ke_e0"), WithinAbs(25.0 / 6.0, six_decimals));
    CHECK(k.at("ke_e0") == "4.166667");  // the lab's printed value
}

namespace {

struct Row {
    int step;
    double y, v;
};

std::vector<Row> bounce_rows(std::string& header)
{
    std::istringstream lines(read_text("bounce.csv"));
    std::getline(lines, header);
    std::vector<Row> rows;
    for (std::string line; std::getline(lines, line);) {
        const std::vector<double> f = numbers(line);
        INFO("row " << line);
        REQUIRE(f.size() == 3);
        rows.push_back({int(f[0]), f[1], f[2]});
    }
    return rows;
}

}  // namespace

TEST_CASE("the bounce log has a header and one row per step from 0 to 2400", "[lab]")
{
    std::string header;
    const std::vector<Row> rows = bounce_rows(header);
    CHECK(header == "step,y,v");
    REQUIRE(rows.size() == 2401);
    for (std::size_t i = 0; i < rows.size(); ++i) REQUIRE(rows[i].step == int(i));
    CHECK_THAT(rows[0].y, WithinAbs(5.0, six_decimals));  // dropped from y = 5 at rest
    CHECK_THAT(rows[0].v, WithinAbs(0.0, six_decimals));
    for (const Row& r : rows) REQUIRE(r.y >= 0.0);  // y = -y puts every penetration back above
}

TEST_CASE("each bounce peak is about e squared of the one before", "[lab]")
{
    // Energy: a ball leaving the floor at speed u rises to u^2/(2g); the bounce multiplies u by
    // e = 0.7, so each peak is e^2 = 0.49 of the one before (the first of the 5 m drop height).
    // The band [0.45, 0.53] (0.49 +- 8%) allows for the discrete steps (dt = 1/240): the bounce
    // is detected at a step boundary, up to one step (|v|*dt ~ 0.03 m, g*dt ~ 0.04 m/s) from the
    // true contact, and y = -y mirrors that penetration at full size instead of scaled by e;
    // against peaks of 0.6..2.5 m that moves a ratio by a few percent. A wrong restitution falls
    // outside: e = 0.6 gives 0.36, e = 0.8 gives 0.64, and a bounce without the impulse gives 1.
    const auto k = read_keys("04-bounce.txt");
    const double p1 = number(k, "peak1"), p2 = number(k, "peak2"), p3 = number(k, "peak3");
    CHECK(p1 < 5.0);  // below the drop height: the bounce lost energy
    CHECK(p1 > p2);
    CHECK(p2 > p3);
    CHECK(p3 > 0.0);
    for (double ratio : {p1 / 5.0, p2 / p1, p3 / p2}) {
        CAPTURE(ratio);
        CHECK(ratio >= 0.45);
        CHECK(ratio <= 0.53);
    }

    // The peaks are the lab's definition applied to the log: the first three rows whose y is at
    // least both neighbours'.
    std::string header;
    const std::vector<Row> rows = bounce_rows(header);
    std::vector<double> maxima;
    for (std::size_t i = 1; i + 1 < rows.size() && maxima.size() < 3; ++i)
        if (rows[i].y >= rows[i - 1].y && rows[i].y >= rows[i + 1].y) maxima.push_back(rows[i].y);
    REQUIRE(maxima.size() == 3);
    CHECK_THAT(maxima[0], WithinAbs(p1, 2 * six_decimals));
    CHECK_THAT(maxima[1], WithinAbs(p2, 2 * six_decimals));
    CHECK_THAT(maxima[2], WithinAbs(p3, 2 * six_decimals));
}

TEST_CASE("the bounce plot, read off its axes, starts at 5 m and marks the peaks of the log", "[lab]")
{
    const svgtest::Document d = read_svg("bounce.svg");
    const auto x = svgtest::ticks(d.root, "x-axis"), y = svgtest::ticks(d.root, "y-axis");
    REQUIRE(x.size() >= 2);
    REQUIRE(y.size() >= 2);
    const svgtest::Scale sx = svgtest::scale_of(x), sy = svgtest::scale_of(y);
    // Step 0 of the drop: t = 0, y = 5 m. The file rounds pixels to 0.1 px, a few millimetres here.
    const svgtest::Element* height = svgtest::series(d.root, "height");
    REQUIRE(height);
    const auto lines = height->named("polyline");
    REQUIRE(!lines.empty());
    const auto pts = svgtest::polyline_points(*lines.front());
    REQUIRE(pts.size() == 2401);  // one point per row of bounce.csv
    CHECK_THAT(sx.data(pts.front().first), WithinAbs(0.0, 0.01));
    CHECK_THAT(sy.data(pts.front().second), WithinAbs(5.0, 0.01));
    CHECK_THAT(sx.data(pts.back().first), WithinAbs(10.0, 0.01));  // step 2400 at 1/240 s
    // The marked peaks are those of 04-bounce.txt.
    const auto k = read_keys("04-bounce.txt");
    const svgtest::Element* peaks = svgtest::series(d.root, "first three peaks");
    REQUIRE(peaks);
    const auto dots = peaks->named("circle");
    REQUIRE(dots.size() == 3);
    const char* keys[] = {"peak1", "peak2", "peak3"};
    for (std::size_t i = 0; i < 3; ++i) {
        CAPTURE(i);
        CHECK_THAT(sy.data(dots[i]->number("cy")), WithinAbs(number(k, keys[i]), 0.01));
    }
}

TEST_CASE("every plot of the lab has both axes titled with their quantity and unit, and tick labels", "[lab]")
{
    const struct {
        const char* file;
        const char* x;
        const char* y;
    } plots[] = {
        {"conserve.svg", "restitution e", "kinetic energy after the collision (J)"},
        {"bounce.svg", "time t (s)", "height of the ball y (m)"},
        {"bounce-energy.svg", "time t (s)", "energy per kilogram g y + v\u00b2/2 (J/kg)"},
        {"friction.svg", "time t (s)", "speed of the box v (m/s)"},
        {"friction-distance.svg", "time t (s)", "distance slid x (m)"},
        {"balls.svg", "x (m)", "y (m)"},
        {"balls-energy.svg", "time t (s)", "total energy \u03a3 v\u00b2/2 + g y (J)"},
    };
    for (const auto& p : plots) {
        CAPTURE(p.file);
        const svgtest::Document d = read_svg(p.file);
        CHECK(svgtest::axis_title(d.root, "x-axis") == p.x);
        CHECK(svgtest::axis_title(d.root, "y-axis") == p.y);
        for (const char* axis : {"x-axis", "y-axis"}) {
            CAPTURE(axis);
            const auto t = svgtest::ticks(d.root, axis);
            CHECK(t.size() >= 3);
            for (const auto& tick : t) CHECK(std::isfinite(tick.value));  // plain numbers
        }
        CHECK(!d.root.with_class("series").empty());
    }
}
TEST_CASE("the sliding box stops within 1% of the analytic time and distance", "[lab]")
{
    // Constant Coulomb deceleration a = mu*g = 0.3*9.8 = 2.94 from v0 = 5 (the lab's analytic
    // solution): t = v0/(mu*g) = 1.7007 s, d = v0^2/(2*mu*g) = 4.2517 m.
    const double v0 = 5.0, mu = 0.3, g = 9.8, dt = 1.0 / 240.0;
    const double t_exact = v0 / (mu * g), d_exact = v0 * v0 / (2.0 * mu * g);
    const auto k = read_keys("05-friction.txt");
    const double steps = number(k, "steps"), t = number(k, "stop_time"), d = number(k, "distance");
    CHECK_THAT(t, WithinRel(t_exact, 0.01));
    CHECK_THAT(d, WithinRel(d_exact, 0.01));
    CHECK_THAT(t, WithinAbs(steps * dt, six_decimals));  // stop_time counts whole steps
    // Discrete steps: the speed reaches 0 only at the end of the step that crosses t_exact, and
    // each step moves the box at its end-of-step (lower) speed, so it stops late but short.
    CHECK(t >= t_exact);
    CHECK(d <= d_exact);
}

TEST_CASE("the tangent bounce gives the lab's vout, jn and jt", "[lab]")
{
    // The lab's worked values: v = (3,-3), inverse mass 1, n = (0,1), e = 0.5, mu = 0.4.
    // jn = -(1+0.5)*(-3)/1 = 4.5; stopping the slide takes 3 > cap 0.4*4.5 = 1.8, so jt = -1.8
    // along the sliding direction (1,0); vout = (3 - 1.8, -3 + 4.5) = (1.2, 1.5).
    const auto k = read_keys("06-tangent.txt");
    const std::vector<double> v = vector_at(k, "vout");
    REQUIRE(v.size() == 2);
    CHECK_THAT(v[0], WithinAbs(1.2, 1e-9));
    CHECK_THAT(v[1], WithinAbs(1.5, 1e-9));
    CHECK_THAT(number(k, "jn"), WithinAbs(4.5, 1e-9));
    CHECK_THAT(number(k, "jt"), WithinAbs(-1.8, 1e-9));
}

TEST_CASE("the five balls lose energy to the walls and stay in the box", "[lab]")
{
    const auto k = read_keys("07-balls.txt");
    // Start, by hand: speeds^2 9 + 5 + 0 + 20 + 10 = 44 -> 22; heights 8+9+7+5+4 = 33 -> 323.4.
    const double e0 = number(k, "energy_start"), e1 = number(k, "energy_end");
    CHECK_THAT(e0, WithinAbs(345.4, six_decimals));
    CHECK(e1 < e0);  // every wall hit with e = 0.9 removes energy; nothing adds any
    CHECK(e1 >= 5 * 9.8 * 0.5);  // no ball below y = r = 0.5: at least that much potential energy
    for (const char* key : {"b1", "b2", "b3", "b4", "b5"}) {
        CAPTURE(key);
        const std::vector<double> b = vector_at(k, key);
        REQUIRE(b.size() == 4);
        CHECK(b[0] >= 0.5);  // x and y within the 10x10 box less the radius 0.5
        CHECK(b[0] <= 9.5);
        CHECK(b[1] >= 0.5);
        CHECK(b[1] <= 9.5);
    }

    // The plot of their paths, read off its axes: ball 3 starts at rest at (8, 7) m and only ever
    // moves vertically, so every dot of it is at x = 8 m; every dot of every ball is inside the
    // box less the radius, 0.5 .. 9.5 m (a dot every 10 of 1800 steps: 180 per ball).
    const svgtest::Document d = read_svg("balls.svg");
    const svgtest::Scale sx = svgtest::scale_of(svgtest::ticks(d.root, "x-axis"));
    const svgtest::Scale sy = svgtest::scale_of(svgtest::ticks(d.root, "y-axis"));
    for (const char* label : {"ball 1", "ball 2", "ball 3", "ball 4", "ball 5"}) {
        CAPTURE(label);
        const svgtest::Element* ball = svgtest::series(d.root, label);
        REQUIRE(ball);
        const auto dots = ball->named("circle");
        REQUIRE(dots.size() == 180);
        for (const svgtest::Element* dot : dots) {
            const double x = sx.data(dot->number("cx")), y = sy.data(dot->number("cy"));
            REQUIRE(x >= 0.5 - 0.01);
            REQUIRE(x <= 9.5 + 0.01);
            REQUIRE(y >= 0.5 - 0.01);
            REQUIRE(y <= 9.5 + 0.01);
        }
        if (std::string(label) == "ball 3") {
            CHECK_THAT(sx.data(dots.front()->number("cx")), WithinAbs(8.0, 0.01));
            CHECK_THAT(sy.data(dots.front()->number("cy")), WithinAbs(7.0, 0.01));
            for (const svgtest::Element* dot : dots) CHECK_THAT(sx.data(dot->number("cx")), WithinAbs(8.0, 0.01));
        }
    }
}

namespace {

/// Every value of `attribute="..."` in an HTML page, in order.
std::vector<std::string> attribute_values(const std::string& html, const std::string& attribute)
{
    std::vector<std::string> out;
    const std::string key = " " + attribute + "=\"";
    for (std::size_t at = html.find(key); at != std::string::npos; at = html.find(key, at + 1)) {
        const std::size_t a = at + key.size(), b = html.find('"', a);
        if (b == std::string::npos) break;
        out.push_back(html.substr(a, b - a));
    }
    return out;
}

/// The checks every page in the folder must pass: each file it links or shows exists, each figure
/// has a caption, each SVG it shows has both axes with tick labels (or is not a plot: a framed
/// picture has them too), nothing comes from the network.
void check_page(const std::string& name)
{
    CAPTURE(name);
    const std::string html = read_text(name);
    CHECK(html.find("http://") == std::string::npos);
    CHECK(html.find("https://") == std::string::npos);
    CHECK(html.find("<title>") != std::string::npos);
    std::vector<std::string> links = attribute_values(html, "href");
    const std::vector<std::string> sources = attribute_values(html, "src");
    links.insert(links.end(), sources.begin(), sources.end());
    CHECK(!sources.empty());
    for (const std::string& link : links) {
        CAPTURE(link);
        const std::string file = link.substr(0, link.find('#'));
        if (file.empty()) continue;  // an anchor on the same page
        CHECK(std::filesystem::exists(path_of(file)));
    }
    // Figures: each has a non-empty caption and shows a picture.
    std::size_t figures = 0;
    for (std::size_t at = html.find("<figure"); at != std::string::npos; at = html.find("<figure", at + 1)) {
        ++figures;
        const std::size_t end = html.find("</figure>", at);
        REQUIRE(end != std::string::npos);
        const std::string f = html.substr(at, end - at);
        CAPTURE(f);
        const std::size_t cap = f.find("<figcaption>"), cap_end = f.find("</figcaption>");
        REQUIRE(cap != std::string::npos);
        REQUIRE(cap_end != std::string::npos);
        CHECK(cap_end > cap + 12 + 3);  // more than a word
        CHECK(f.find("<img src=\"") != std::string::npos);
    }
    CHECK(figures > 0);
    // Every SVG shown is a plot or a framed picture: both axes, each with tick labels.
    for (const std::string& src : sources) {
        if (src.size() < 4 || src.compare(src.size() - 4, 4, ".svg") != 0) continue;
        CAPTURE(src);
        const svgtest::Document d = read_svg(src);
        CHECK(svgtest::ticks(d.root, "x-axis").size() >= 2);
        CHECK(svgtest::ticks(d.root, "y-axis").size() >= 2);
        CHECK(!svgtest::axis_title(d.root, "x-axis").empty());
        CHECK(!svgtest::axis_title(d.root, "y-axis").empty());
    }
}

}  // namespace

TEST_CASE("index.html opens with the scenes, then the other examples, the lab, and the checks last", "[lab]")
{
    const std::string html = read_text("index.html");
    // The lab_pages fixture ran the scenes' cradle, particles, rigid and identify into this folder
    // before the lab, so their pages are there to be linked.
    const std::size_t scenes = html.find("<h2 id=\"scenes\">"), examples = html.find("<h2 id=\"examples\">"),
                      lab = html.find("<h2 id=\"lab\">"), checks = html.find("<h2 id=\"checks\">");
    REQUIRE(scenes != std::string::npos);
    REQUIRE(examples != std::string::npos);
    REQUIRE(lab != std::string::npos);
    REQUIRE(checks != std::string::npos);
    CHECK(scenes < examples);
    CHECK(examples < lab);
    CHECK(lab < checks);
    // The scenes' pictures as thumbnails, each linking to its figure on scenes.html.
    for (const char* png : {"cradle.png", "cradle-touching.png"}) {
        CAPTURE(png);
        const std::size_t at = html.find(std::string("<img src=\"") + png + "\"");
        CHECK(at > scenes);
        CHECK(at < examples);
        CHECK(html.find(std::string("href=\"scenes.html#") + std::string(png).substr(0, std::string(png).size() - 4) +
                        "\"") != std::string::npos);
    }
    // The examples in showcase order: particles, rigid bodies, the differentiable contacts.
    const std::size_t particles = html.find("href=\"particles.html\""), rigid = html.find("href=\"rigid.html\""),
                      identify = html.find("href=\"identify.html\"");
    CHECK(examples < particles);
    CHECK(particles < rigid);
    CHECK(rigid < identify);
    CHECK(identify < lab);
    // The test pattern is out of the headline: only in the checks section.
    const std::size_t pattern = html.find("src=\"00-check.png\"");
    CHECK(pattern > checks);
    CHECK(html.find("00-check.png") > checks);
}

TEST_CASE("index.html shows every plot and every text result of the lab", "[lab]")
{
    const std::string html = read_text("index.html");
    const std::size_t lab = html.find("<h2 id=\"lab\">");
    REQUIRE(lab != std::string::npos);
    for (const char* svg : {"conserve.svg", "bounce.svg", "bounce-energy.svg", "friction.svg", "friction-distance.svg",
                            "balls.svg", "balls-energy.svg"}) {
        CAPTURE(svg);
        CHECK(html.find(std::string("<img src=\"") + svg + "\"", lab) != std::string::npos);
    }
    // Each text result appears inline (escaped as HTML; these have nothing to escape), read back from its file.
    for (const char* txt : {"01-crate.txt", "03-conserve.txt", "04-bounce.txt", "05-friction.txt", "06-tangent.txt",
                            "07-balls.txt"}) {
        CAPTURE(txt);
        CHECK(html.find(read_text(txt)) != std::string::npos);
    }
    CHECK(html.find("href=\"bounce.csv\"") != std::string::npos);
}

TEST_CASE("every page links only files that exist, captions every figure and shows plots with tick labels", "[lab]")
{
    std::vector<std::string> pages;
    for (const auto& e : std::filesystem::directory_iterator(LAB_OUT_DIR))
        if (e.path().extension() == ".html") pages.push_back(e.path().filename().string());
    std::sort(pages.begin(), pages.end());
    // index.html and the pages of the lab_pages fixture, at least.
    for (const char* want : {"identify.html", "index.html", "particles.html", "rigid.html", "scenes.html"}) {
        CAPTURE(want);
        CHECK(std::find(pages.begin(), pages.end(), want) != pages.end());
    }
    for (const std::string& p : pages) check_page(p);
}
