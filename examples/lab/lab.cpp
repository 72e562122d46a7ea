// SPDX-License-Identifier: MIT
// The lab "Impulse, Restitution and Friction", step by step, with impulse computing every
// collision response. It writes, into the output folder (default out/, or the first argument):
//
//   00-check.png                          the drawing toolbox's test pattern
//   01-crate.txt                          the friction lesson's crate trace (also on stdout)
//   03-conserve.txt                       momentum and energy through a collision, e = 1, 0.5, 0
//   bounce.csv, 04-bounce.txt, bounce.png a ball dropped on a floor with e = 0.7
//   05-friction.txt                       a box sliding to a stop, mu = 0.3
//   06-tangent.txt                        one bounce with friction along the tangent
//   balls.png, 07-balls.txt               five balls in a box
//   index.html                            everything above on one page
//
// Every wall and floor here is an immovable body: inverse mass 0, so the same impulse formula
// serves it with no special case. Usage: lab [output-folder]
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <impulse/impulse.hpp>

#include "png.hpp"

namespace fs = std::filesystem;
using impulse::Vec2d;

namespace {

// ---------------------------------------------------------------------------------------------
// Formatting and output

/// Six decimals, as the lab prints every number.
std::string f6(double x)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6f", x);
    return buf;
}

std::string f6(const Vec2d& v) { return f6(v.x()) + "," + f6(v.y()); }

/// One entry of index.html: a file the lab wrote and what to look for in it.
struct Entry {
    std::string file;
    std::string note;
    bool image{false};
};

/// The output folder: writes files, reports each on stdout, and remembers them for index.html.
class Out {
public:
    explicit Out(fs::path dir) : dir_(std::move(dir)) {}

    const fs::path& dir() const { return dir_; }
    bool failed() const { return failed_; }
    const std::vector<Entry>& entries() const { return entries_; }

    void text(const std::string& name, const std::string& content, const std::string& summary,
              const std::string& note)
    {
        const fs::path path = dir_ / name;
        std::ofstream f(path, std::ios::binary);
        f << content;
        f.close();
        if (!f) return fail(path.string() + ": cannot write");
        done(name, summary, note, false);
    }

    void png(const std::string& name, const gfx::Canvas& c, const std::string& summary,
             const std::string& note)
    {
        std::string err;
        if (!gfx::write_png(c, (dir_ / name).string(), err)) return fail(err);
        done(name, summary, note, true);
    }

private:
    void fail(const std::string& why)
    {
        std::fprintf(stderr, "lab: %s\n", why.c_str());
        failed_ = true;
    }

    void done(const std::string& name, const std::string& summary, const std::string& note, bool image)
    {
        std::printf("%-16s %s\n", name.c_str(), summary.c_str());
        entries_.push_back({name, note, image});
    }

    fs::path dir_;
    bool failed_{false};
    std::vector<Entry> entries_;
};

// ---------------------------------------------------------------------------------------------
// Physics helpers

/// A body (inverse mass w, velocity v) against an immovable surface (inverse mass 0) whose normal
/// n points from the surface towards the body. impulse::resolve applies the normal impulse (only
/// when approaching) and Coulomb friction to v in place.
impulse::Result<double, 2> hit_static(Vec2d& v, double w, const Vec2d& n, double e, double mu)
{
    Vec2d surface(0.0, 0.0);
    impulse::Coefficients<double> coefficients;
    coefficients.restitution = e;
    coefficients.friction = mu;
    return impulse::resolve(surface, 0.0, v, w, n, coefficients);
}

// ---------------------------------------------------------------------------------------------
// 00: the drawing toolbox

void check_pattern(Out& out)
{
    gfx::Canvas c(64, 64, gfx::black);
    c.line(0, 0, 63, 63, gfx::white);
    c.line(0, 32, 63, 32, gfx::red);  // drawn last, so the crossing (32, 32) is red
    out.png("00-check.png", c, "64x64 test pattern: white diagonal, red horizontal on top",
            "The drawing toolbox's test pattern (64&times;64, shown 4&times; enlarged): a white "
            "diagonal from (0,0) to (63,63) and a red horizontal line at y = 32 drawn after it. "
            "Look for the crossing at (32,32): it must be red, not white.");
}

// ---------------------------------------------------------------------------------------------
// 01: the friction lesson's crate

void crate(Out& out)
{
    // Crate B (mass 2) on a static floor A, n = (0, 1) from floor to crate, so t = (-ny, nx) =
    // (-1, 0). The normal impulse jn = 4 has already left the crate moving at (3, 0).
    Vec2d floor_v(0.0, 0.0), crate_v(3.0, 0.0);
    const double w_floor = 0.0, w_crate = 1.0 / 2.0;
    const Vec2d n(0.0, 1.0);
    const Vec2d t = impulse::tangent(n);
    const double jn = 4.0;
    const double mu = impulse::combine(0.5, 0.5, impulse::Combine::geometric_mean);  // both 0.5
    const Vec2d before = crate_v;

    const double vt = (crate_v - floor_v).dot(t);  // vt = rv.t
    // The impulse that would stop the slide, Jt_want = -vt / (wA + wB), from the library's model.
    const impulse::PointMasses<double, 2> pair{w_floor, w_crate};
    const double want = pair.stick_impulse(n, vt * t).dot(t);
    const double cap = mu * jn;  // Coulomb: |jt| <= mu * jn
    const auto f = impulse::friction_impulse(floor_v, w_floor, crate_v, w_crate, n, jn, mu);
    impulse::apply_impulse(floor_v, w_floor, crate_v, w_crate, f.J);

    std::ostringstream s;
    s << "n=" << f6(n) << "\n"
      << "t=" << f6(t) << "\n"
      << "v_before=" << f6(before) << "\n"
      << "jn=" << f6(jn) << "\n"
      << "mu=" << f6(mu) << "\n"
      << "vt=" << f6(vt) << "\n"
      << "jt_want=" << f6(want) << "\n"
      << "cap=" << f6(cap) << "\n"
      << "jt=" << f6(f.jt) << "\n"
      << "regime=" << impulse::to_string(f.regime) << "\n"
      << "v_after=" << f6(crate_v) << "\n";

    std::printf("crate trace (friction lesson): crate mass 2 on a static floor, jn = 4, mu = 0.5\n");
    std::istringstream lines(s.str());
    for (std::string line; std::getline(lines, line);) std::printf("    %s\n", line.c_str());
    out.text("01-crate.txt", s.str(),
             "jt = " + f6(f.jt) + " (" + impulse::to_string(f.regime) + "), crate ends at (" +
                 f6(crate_v) + ")",
             "The friction lesson's crate (mass 2) on a static floor after a normal impulse jn = 4, "
             "moving at (3,0). Stopping the slide would take jt_want = 6, but Coulomb friction is "
             "capped at mu&middot;jn = 2, so the crate slides on. Look for jt = +2 along t = (-1,0), "
             "regime=sliding and v_after = (2,0): slower, but not stopped.");
}

// ---------------------------------------------------------------------------------------------
// 03: what is conserved and what disappears

void conserve(Out& out)
{
    const double m1 = 2.0, m2 = 1.0;                   // inverse masses 0.5 and 1
    const Vec2d u1(3.0, 0.0), u2(-1.0, 0.0), n(1.0, 0.0);  // n from body 1 to body 2
    auto momentum = [&](const Vec2d& v1, const Vec2d& v2) { return m1 * v1.x() + m2 * v2.x(); };
    auto energy = [&](const Vec2d& v1, const Vec2d& v2) {  // sum 0.5 * m * |v|^2
        return 0.5 * m1 * v1.squaredNorm() + 0.5 * m2 * v2.squaredNorm();
    };

    std::ostringstream s;
    s << "p_before=" << f6(momentum(u1, u2)) << "\n" << "ke_before=" << f6(energy(u1, u2)) << "\n";
    std::string summary = "p = " + f6(momentum(u1, u2)) + ", ke = " + f6(energy(u1, u2));
    const struct {
        double e;
        const char* key;
        const char* label;
    } cases[] = {{1.0, "e1", "1"}, {0.5, "e05", "0.5"}, {0.0, "e0", "0"}};
    for (const auto& c : cases) {
        Vec2d v1 = u1, v2 = u2;
        impulse::Coefficients<double> coefficients;
        coefficients.restitution = c.e;
        impulse::resolve(v1, 1.0 / m1, v2, 1.0 / m2, n, coefficients);
        s << "p_" << c.key << "=" << f6(momentum(v1, v2)) << "\n"
          << "ke_" << c.key << "=" << f6(energy(v1, v2)) << "\n";
        summary += std::string("; e = ") + c.label + ": p = " + f6(momentum(v1, v2)) +
                   ", ke = " + f6(energy(v1, v2));
    }
    out.text("03-conserve.txt", s.str(), summary,
             "Mass 2 at (3,0) meets mass 1 at (-1,0) along n = (1,0), for e = 1, 0.5 and 0. "
             "Look for momentum 5 in every case (equal and opposite impulses), kinetic energy kept "
             "(9.5) only for e = 1, and falling to 5.5 and 4.166667 as e shrinks (with e = 0 the "
             "two move on together).");
}

// ---------------------------------------------------------------------------------------------
// 04: the bouncing height shrinks by e squared

void bounce(Out& out)
{
    const double g = -9.8, dt = 1.0 / 240.0, e = 0.7;
    const int steps = 2400;
    std::vector<double> ys{5.0}, vs{0.0};  // dropped from y = 5 at rest
    double y = 5.0, v = 0.0;
    for (int step = 1; step <= steps; ++step) {
        v += g * dt;  // v += g*dt
        y += v * dt;  // y += v*dt
        if (y < 0.0) {
            y = -y;  // reflect the penetration back above the floor
            // The floor is immovable (inverse mass 0), n = (0, 1) from floor to ball: resolve
            // leaves vn' = -e*vn, the lab's v = -0.7*v (to rounding).
            Vec2d vel(0.0, v);
            hit_static(vel, 1.0, Vec2d(0.0, 1.0), e, 0.0);
            v = vel.y();
        }
        ys.push_back(y);
        vs.push_back(v);
    }

    std::string csv = "step,y,v\n";
    gfx::Canvas c(256, 256, gfx::black);
    for (int step = 0; step <= steps; ++step) {
        const double yi = ys[std::size_t(step)];
        csv += std::to_string(step) + "," + f6(yi) + "," + f6(vs[std::size_t(step)]) + "\n";
        const int px = int(step * 255.0 / steps);     // px = int(step*255/2400)
        const int py = 255 - int(yi / 5.0 * 255.0);   // py = 255 - int(y/5*255)
        c.set(px, py, gfx::Rgb{120, 200, 255});       // clipped to the canvas
    }

    // Peaks: local maxima, y at least both neighbours; the first three.
    std::vector<double> peaks;
    for (std::size_t i = 1; i + 1 < ys.size() && peaks.size() < 3; ++i)
        if (ys[i] >= ys[i - 1] && ys[i] >= ys[i + 1]) peaks.push_back(ys[i]);
    while (peaks.size() < 3) peaks.push_back(0.0);  // (not reached: 10 s hold many bounces)
    const double r21 = peaks[1] / peaks[0], r32 = peaks[2] / peaks[1];

    std::ostringstream s;
    for (std::size_t i = 0; i < 3; ++i) s << "peak" << i + 1 << "=" << f6(peaks[i]) << "\n";

    out.text("bounce.csv", csv, "2401 rows (steps 0..2400) of step,y,v",
             "Every step of the bounce (the first rows; follow the link for all 2401): "
             "<a href=\"bounce.csv\">bounce.csv</a>. Look for y never below 0 and v flipping sign "
             "and shrinking by 0.7 at each bounce.");
    out.text("04-bounce.txt", s.str(),
             "peaks " + f6(peaks[0]) + ", " + f6(peaks[1]) + ", " + f6(peaks[2]) + "; ratios " +
                 f6(r21) + ", " + f6(r32) + " (e^2 = 0.49)",
             "The first three peak heights after the drop from 5 m. Look for peak ratios near "
             "e&sup2; = 0.49: here peak2/peak1 = " + f6(r21) + " and peak3/peak2 = " + f6(r32) + ".");
    out.png("bounce.png", c, "height over 10 s, peaks shrinking by about e^2",
            "Height of the ball (up) over time (right, 10 s), dropped from 5 m onto a floor with "
            "e = 0.7. Look for each arc rising to about half (e&sup2; = 0.49) of the one before.");
}

// ---------------------------------------------------------------------------------------------
// 05: where does a sliding box stop

void friction(Out& out)
{
    const double v0 = 5.0, mu = 0.3, g = 9.8, dt = 1.0 / 240.0;
    const double m = 1.0;  // any mass: jn = m*g*dt and the cap mu*jn both scale with it
    const Vec2d n(0.0, 1.0);  // from the floor to the box
    Vec2d v(v0, 0.0);
    double x = 0.0;
    int steps = 0;
    while (v.x() > 0.0 && steps < 1000000) {
        // Gravity gives the box vy = -g*dt into the floor within the step; the floor's normal
        // impulse with e = 0 takes it back: jn = m*g*dt. Friction is capped at mu*jn, so the
        // slide slows by mu*g*dt, or stops when less than that is left (sticking): exactly
        // the lab's v = max(0, v - mu*g*dt).
        v.y() += -g * dt;
        hit_static(v, 1.0 / m, n, 0.0, mu);
        x += v.x() * dt;  // x += v*dt
        ++steps;
    }
    const double t_stop = steps * dt;
    const double t_exact = v0 / (mu * g);             // t = v0 / (mu*g)
    const double d_exact = v0 * v0 / (2.0 * mu * g);  // d = v0^2 / (2*mu*g)

    std::ostringstream s;
    s << "steps=" << steps << "\n" << "stop_time=" << f6(t_stop) << "\n" << "distance=" << f6(x) << "\n";
    out.text("05-friction.txt", s.str(),
             "stops after " + std::to_string(steps) + " steps: t = " + f6(t_stop) + " s (analytic " +
                 f6(t_exact) + "), d = " + f6(x) + " m (analytic " + f6(d_exact) + ")",
             "A box sliding at 5 m/s on a floor with mu = 0.3, one contact per step (dt = 1/240). "
             "Look for stop_time near the analytic v0/(mu&middot;g) = " + f6(t_exact) +
                 " s and distance near v0&sup2;/(2&middot;mu&middot;g) = " + f6(d_exact) +
                 " m, within 1% (the last step is cut off).");
}

// ---------------------------------------------------------------------------------------------
// 06: friction is an impulse too

void tangent(Out& out)
{
    const Vec2d v_in(3.0, -3.0), n(0.0, 1.0);  // n from the surface to the body
    Vec2d v = v_in;
    const auto r = hit_static(v, 1.0, n, 0.5, 0.4);
    // The lab measures jt along the sliding direction, the tangential part of the incoming
    // velocity normalised: s = (v - (v.n) n) / |...| = (1, 0). The library reports its scalar jt
    // along t = (-ny, nx) = (-1, 0) instead (+1.8 here). Both describe the same friction impulse
    // vector r.Jt = (-1.8, 0); projecting it onto s gives the lab's number, -1.8 (negative:
    // against the slide). A head-on hit has no sliding direction and no friction: jt = 0.
    const Vec2d slide = v_in - v_in.dot(n) * n;
    const double jt = slide.norm() > 0.0 ? r.friction_impulse.dot(slide.normalized()) : 0.0;

    std::ostringstream s;
    s << "vout=" << f6(v) << "\n" << "jn=" << f6(r.jn) << "\n" << "jt=" << f6(jt) << "\n";
    out.text("06-tangent.txt", s.str(),
             "v (3,-3) -> (" + f6(v) + "), jn = " + f6(r.jn) + ", jt = " + f6(jt) + " (" +
                 impulse::to_string(r.regime) + ")",
             "A body (inverse mass 1) hits a static floor at (3,-3) with e = 0.5 and mu = 0.4. "
             "jn = 4.5; stopping the slide would take 3, the cap is 0.4&middot;4.5 = 1.8. Look for "
             "vout = (1.2, 1.5), jn = 4.5 and jt = -1.8 (measured along the sliding direction, "
             "so negative: friction opposes the slide).");
}

// ---------------------------------------------------------------------------------------------
// 07: five balls in a box

void balls(Out& out)
{
    const double g = -9.8, dt = 1.0 / 240.0, e = 0.9, r = 0.5, side = 10.0;
    const int steps = 1800;
    struct Ball {
        Vec2d p, v;
    };
    std::vector<Ball> b = {{Vec2d(2, 8), Vec2d(3, 0)},
                           {Vec2d(5, 9), Vec2d(-2, 1)},
                           {Vec2d(8, 7), Vec2d(0, 0)},
                           {Vec2d(3, 5), Vec2d(4, 2)},
                           {Vec2d(7, 4), Vec2d(-3, -1)}};
    const gfx::Rgb colour[] = {
        {255, 100, 100}, {100, 255, 100}, {100, 150, 255}, {255, 220, 80}, {220, 120, 255}};
    auto energy = [&] {  // sum 0.5*(vx^2 + vy^2) + 9.8*y (unit masses)
        double sum = 0.0;
        for (const Ball& ball : b) sum += 0.5 * ball.v.squaredNorm() + 9.8 * ball.p.y();
        return sum;
    };

    const double e_start = energy();
    gfx::Canvas c(256, 256, gfx::black);
    for (int step = 0; step < steps; ++step) {
        if (step % 10 == 0)
            for (std::size_t i = 0; i < b.size(); ++i)  // sx = int(x*25.6), sy = int(255 - y*25.6)
                c.set(int(b[i].p.x() * 25.6), int(255.0 - b[i].p.y() * 25.6), colour[i]);
        for (Ball& ball : b) {
            ball.v.y() += g * dt;   // gravity
            ball.p += ball.v * dt;  // position
            // Walls, one axis at a time: put the ball back against the wall, then let the wall
            // (immovable, inverse mass 0, normal from the wall towards the ball) bounce it with
            // e = 0.9 and no friction.
            for (int axis = 0; axis < 2; ++axis) {
                const Vec2d inward = Vec2d::Unit(axis);  // normal of the wall at coordinate 0
                if (ball.p[axis] - r < 0.0) {
                    ball.p[axis] = r;
                    hit_static(ball.v, 1.0, inward, e, 0.0);
                } else if (ball.p[axis] + r > side) {
                    ball.p[axis] = side - r;
                    hit_static(ball.v, 1.0, -inward, e, 0.0);
                }
            }
        }
    }
    const double e_end = energy();

    std::ostringstream s;
    for (std::size_t i = 0; i < b.size(); ++i)
        s << "b" << i + 1 << "=" << f6(b[i].p) << "," << f6(b[i].v) << "\n";
    s << "energy_start=" << f6(e_start) << "\n" << "energy_end=" << f6(e_end) << "\n";
    out.text("07-balls.txt", s.str(), "energy " + f6(e_start) + " -> " + f6(e_end),
             "Where the five balls end after 1800 steps (x, y, vx, vy), and the total energy "
             "sum(0.5&middot;v&sup2; + 9.8&middot;y) before and after. Look for energy_end below "
             "energy_start: every wall hit with e = 0.9 takes some away.");
    out.png("balls.png", c, "trajectories of 5 balls, a dot every 10 steps",
            "Five balls of radius 0.5 in a 10&times;10 box (walls e = 0.9), each ball's position "
            "every 10 steps in its own colour. Look for parabolic arcs joined at the bounces, and "
            "no dot outside the box.");
}

// ---------------------------------------------------------------------------------------------
// index.html: every result on one page, read back from the files written

std::string read_file(const fs::path& path)
{
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::string escape_html(const std::string& s)
{
    std::string out;
    for (char ch : s) {
        switch (ch) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        default: out += ch;
        }
    }
    return out;
}

void index_html(Out& out)
{
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>impulse lab: impulse, restitution and friction</title>\n<style>\n"
        "body { font-family: sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; "
        "background: #fafafa; color: #222; }\n"
        "section { border-top: 1px solid #ccc; padding: 0.5em 0 1em; }\n"
        "img { image-rendering: pixelated; border: 1px solid #888; background: #000; }\n"
        "pre { background: #eee; padding: 0.6em; overflow-x: auto; }\n"
        "</style>\n</head>\n<body>\n<h1>Impulse, restitution and friction</h1>\n"
        "<p>Every collision response below is computed by the impulse library. Each section names "
        "the file the lab wrote, what it shows and what to look for.</p>\n";
    for (const Entry& en : out.entries()) {
        html += "<section>\n<h2>" + en.file + "</h2>\n<p>" + en.note + "</p>\n";
        if (en.image) {
            const int scale = en.file == "00-check.png" ? 256 : 512;  // enlarge small images
            html += "<img src=\"" + en.file + "\" alt=\"" + en.file + "\" width=\"" + std::to_string(scale) +
                    "\" height=\"" + std::to_string(scale) + "\">\n";
        } else {
            std::string content = read_file(out.dir() / en.file);
            if (en.file == "bounce.csv") {  // 2401 rows: show the head only
                std::size_t cut = 0;  // just past the 8th line
                for (int lines = 0; lines < 8 && cut != std::string::npos; ++lines) {
                    cut = content.find('\n', cut);
                    if (cut != std::string::npos) ++cut;
                }
                if (cut < content.size()) content = content.substr(0, cut) + "...\n";
            }
            html += "<pre>" + escape_html(content) + "</pre>\n";
        }
        html += "</section>\n";
    }
    // The other examples' pages in the same folder (the build runs the lab last, so they exist).
    std::vector<fs::path> pages;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(out.dir(), ec))
        if (e.path().extension() == ".html" && e.path().filename() != "index.html") pages.push_back(e.path());
    std::sort(pages.begin(), pages.end());
    if (!pages.empty()) {
        html += "<section>\n<h2>More examples</h2>\n<ul>\n";
        for (const fs::path& page : pages) {
            const std::string text = read_file(page);
            const std::size_t a = text.find("<title>"), b = text.find("</title>");
            const std::string title = a != std::string::npos && b != std::string::npos && b > a + 7
                                          ? text.substr(a + 7, b - a - 7)
                                          : page.filename().string();
            html += "<li><a href=\"" + page.filename().string() + "\">" + escape_html(title) + "</a></li>\n";
        }
        html += "</ul>\n</section>\n";
    }
    html += "</body>\n</html>\n";
    out.text("index.html", html, "this page: every picture and text result, with what to look for", "");
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc > 2 || (argc == 2 && (std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help"))) {
        std::fprintf(argc > 2 ? stderr : stdout,
                     "usage: %s [output-folder]   (default: out)\n"
                     "Runs the impulse/restitution/friction lab and writes its files there.\n",
                     argv[0]);
        return argc > 2 ? 2 : 0;
    }
    const fs::path dir = argc == 2 ? fs::path(argv[1]) : fs::path("out");
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        std::fprintf(stderr, "lab: cannot create %s: %s\n", dir.string().c_str(), ec.message().c_str());
        return 1;
    }

    Out out(dir);
    check_pattern(out);
    crate(out);
    conserve(out);
    bounce(out);
    friction(out);
    tangent(out);
    balls(out);
    if (!out.failed()) index_html(out);
    if (out.failed()) {
        std::fprintf(stderr, "lab: some files could not be written\n");
        return 1;
    }
    std::printf("output: %s\n", fs::absolute(dir, ec).string().c_str());
    return 0;
}
