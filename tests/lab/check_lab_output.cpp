// SPDX-License-Identifier: MIT
// The lab's files (written by the lab_run fixture into LAB_OUT_DIR) against the lab's stated values
// and against physics. Every expected number says where it comes from: the lab's text, a hand
// derivation, or an analytic solution.
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "png_read.hpp"

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

TEST_CASE("the bounce plot starts at the top-left corner in the plot colour", "[lab]")
{
    // Step 0, y = 5: px = int(0*255/2400) = 0, py = 255 - int(5/5*255) = 0.
    const labtest::Image img = labtest::read_png(path_of("bounce.png"));
    INFO(img.error);
    REQUIRE(img.error.empty());
    REQUIRE(img.width == 256);
    REQUIRE(img.height == 256);
    CHECK(img.at(0, 0) == Pixel{120, 200, 255});
    CHECK(img.at(255, 0) == Pixel{0, 0, 0});  // the ball never climbs back to 5 m
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

    const labtest::Image img = labtest::read_png(path_of("balls.png"));
    INFO(img.error);
    REQUIRE(img.error.empty());
    CHECK(img.width == 256);
    CHECK(img.height == 256);
    // The first dot of ball 3, which starts at rest at (8,7) and only ever moves vertically:
    // sx = int(8*25.6) = 204, sy = int(255 - 7*25.6) = int(75.8) = 75, colour (100,150,255).
    CHECK(img.at(204, 75) == Pixel{100, 150, 255});
}

TEST_CASE("index.html shows every picture and every text result on one page", "[lab]")
{
    const std::string html = read_text("index.html");
    for (const char* png : {"00-check.png", "bounce.png", "balls.png"}) {
        CAPTURE(png);
        CHECK(html.find(std::string("<img src=\"") + png + "\"") != std::string::npos);
    }
    // Each text result appears inline, read back from its file.
    for (const char* txt : {"01-crate.txt", "03-conserve.txt", "04-bounce.txt", "05-friction.txt",
                            "06-tangent.txt", "07-balls.txt"}) {
        CAPTURE(txt);
        CHECK(html.find(read_text(txt)) != std::string::npos);
    }
    CHECK(html.find("href=\"bounce.csv\"") != std::string::npos);
    // Self-contained: nothing is fetched from elsewhere.
    CHECK(html.find("http://") == std::string::npos);
    CHECK(html.find("https://") == std::string::npos);
}
