// SPDX-License-Identifier: MIT
// The lab "Impulse, Restitution and Friction", step by step, with impulse computing every
// collision response. It writes, into the output folder (default out/, or the first argument):
//
//   01-crate.txt                          the friction lesson's crate trace (also on stdout)
//   03-conserve.txt, conserve.svg         momentum and energy through a collision, e = 1, 0.5, 0
//   bounce.csv, 04-bounce.txt             a ball dropped on a floor with e = 0.7 ...
//   bounce.svg, bounce-energy.svg         ... its height and its energy over time
//   05-friction.txt, friction.svg,        a box sliding to a stop, mu = 0.3: speed and distance
//   friction-distance.svg                 over time beside the analytic solution
//   06-tangent.txt                        one bounce with friction along the tangent
//   07-balls.txt, balls.svg,              five balls in a box: their paths, and the energy
//   balls-energy.svg                      the walls take
//   00-check.png                          the drawing toolbox's test pattern
//   index.html                            the examples' front page: the other examples' pages
//                                         (scenes, particles, rigid bodies, identification),
//                                         then everything above
//
// Every wall and floor here is an immovable body: inverse mass 0, so the same impulse formula
// serves it with no special case. Usage: lab [output-folder]
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include <impulse/impulse.hpp>

#include "page.hpp"
#include "plot.hpp"
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

using page::fixed;

/// The output folder: writes files and reports each on stdout; the lab's part of index.html is
/// built beside them (`html`).
class Out {
public:
    explicit Out(fs::path dir) : dir_(std::move(dir)) {}

    const fs::path& dir() const { return dir_; }
    bool failed() const { return failed_; }

    std::string html;  ///< the lab's sections of index.html, in order

    void text(const std::string& name, const std::string& content, const std::string& summary)
    {
        if (!page::write_text(dir_ / name, content)) return fail((dir_ / name).string() + ": cannot write");
        done(name, summary);
    }

    void png(const std::string& name, const gfx::Canvas& c, const std::string& summary)
    {
        std::string err;
        if (!gfx::write_png(c, (dir_ / name).string(), err)) return fail(err);
        done(name, summary);
    }

    void svg(const std::string& name, const plot::Figure& f, const std::string& summary)
    {
        std::string err;
        if (!f.write((dir_ / name).string(), err)) return fail(err);
        done(name, summary);
    }

private:
    void fail(const std::string& why)
    {
        std::fprintf(stderr, "lab: %s\n", why.c_str());
        failed_ = true;
    }

    void done(const std::string& name, const std::string& summary)
    {
        std::printf("%-21s %s\n", name.c_str(), summary.c_str());
    }

    fs::path dir_;
    bool failed_{false};
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
    out.png("00-check.png", c, "64x64 test pattern: white diagonal, red horizontal on top");
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
             "jt = " + f6(f.jt) + " (" + impulse::to_string(f.regime) + "), crate ends at (" + f6(crate_v) + ")");

    page::Table tab({"quantity", "value", "expected"});
    tab.row({"tangential speed vt along t = (&minus;1, 0)", fixed(vt, 3, "m/s"), "&minus;3 m/s"})
        .row({"impulse that would stop the slide, jt_want", fixed(want, 3, "N s"), "&minus;vt / wB = 6 N s"})
        .row({"Coulomb cap &mu; jn", fixed(cap, 3, "N s"), "0.5 &times; 4 = 2 N s"})
        .row({"friction impulse jt", fixed(f.jt, 3, "N s"), "2 N s (capped: sliding)"})
        .row({"velocity after", "(" + fixed(crate_v.x(), 3) + ", " + fixed(crate_v.y(), 3) + ") m/s", "(2, 0) m/s"});
    out.html += "<h3>The crate: friction is capped by Coulomb's law</h3>\n<p>The friction lesson's crate (mass 2 kg) "
                "on a static floor, moving at (3, 0) m/s after a normal impulse jn = 4 N s, &mu; = 0.5. Stopping the "
                "slide would take 6 N s, but friction can give at most &mu; jn = 2 N s: the crate slides on, slower "
                "but not stopped.</p>\n" +
                tab.html() + page::text_result("01-crate.txt", s.str());
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
    page::Table tab({"restitution e", "momentum after", "kinetic energy after", "expected energy"});
    std::vector<double> es, kes;
    for (const auto& c : cases) {
        Vec2d v1 = u1, v2 = u2;
        impulse::Coefficients<double> coefficients;
        coefficients.restitution = c.e;
        impulse::resolve(v1, 1.0 / m1, v2, 1.0 / m2, n, coefficients);
        s << "p_" << c.key << "=" << f6(momentum(v1, v2)) << "\n"
          << "ke_" << c.key << "=" << f6(energy(v1, v2)) << "\n";
        summary += std::string("; e = ") + c.label + ": p = " + f6(momentum(v1, v2)) + ", ke = " + f6(energy(v1, v2));
        es.push_back(c.e);
        kes.push_back(energy(v1, v2));
        tab.row({c.label, fixed(momentum(v1, v2), 6, "kg m/s"), fixed(energy(v1, v2), 6, "J"),
                 fixed(9.5 - (1 - c.e * c.e) * 16.0 / 3.0, 6, "J")});
    }
    out.text("03-conserve.txt", s.str(), summary);

    // The energy a collision takes: with the reduced mass m1 m2 / (m1 + m2) = 2/3 kg and the
    // approach speed |vn| = 4 m/s, KE_after = KE_before - (1 - e^2) (2/3) 4^2 / 2 = 9.5 - (1 - e^2) 16/3.
    std::vector<double> ex, kx;
    for (int i = 0; i <= 50; ++i) {
        ex.push_back(i / 50.0);
        kx.push_back(9.5 - (1 - ex.back() * ex.back()) * 16.0 / 3.0);
    }
    plot::Figure f(640, 320);
    f.x_axis("restitution e").y_axis("kinetic energy after the collision (J)").x_range(0, 1).y_range(0, 10);
    f.dashed("9.5 J \u2212 (1 \u2212 e\u00b2) \u00b7 16/3 J (by hand)", ex, kx, "#777777");
    f.points("impulse::resolve", es, kes, plot::palette[1], 5);
    f.hline(9.5, "before: 9.5 J", plot::palette[0]);
    f.legend_at(plot::Corner::bottom_right);
    out.svg("conserve.svg", f, "kinetic energy after the collision against e");

    out.html += "<h3>What is conserved and what disappears</h3>\n<p>A 2 kg body at (3, 0) m/s meets a 1 kg body at "
                "(&minus;1, 0) m/s along n = (1, 0). Equal and opposite impulses keep the momentum (5 kg m/s) for every "
                "e; the kinetic energy survives only for e = 1.</p>\n" +
                page::figure("conserve.svg",
                             "Kinetic energy after the collision against the restitution e: the library's results "
                             "(dots) on the curve derived by hand from the reduced mass. Look for all of it kept at e = 1 "
                             "(9.5 J) and the most lost at e = 0, where the two move on together.",
                             "kinetic energy after the collision against restitution") +
                tab.html() + page::text_result("03-conserve.txt", s.str());
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
    std::vector<double> time, energy;
    for (int step = 0; step <= steps; ++step) {
        const double yi = ys[std::size_t(step)], vi = vs[std::size_t(step)];
        csv += std::to_string(step) + "," + f6(yi) + "," + f6(vi) + "\n";
        time.push_back(step * dt);
        energy.push_back(-g * yi + 0.5 * vi * vi);  // per kilogram: g y + v^2/2
    }

    // Peaks: local maxima, y at least both neighbours; the first three.
    std::vector<double> peaks, peak_t;
    for (std::size_t i = 1; i + 1 < ys.size() && peaks.size() < 3; ++i)
        if (ys[i] >= ys[i - 1] && ys[i] >= ys[i + 1]) {
            peaks.push_back(ys[i]);
            peak_t.push_back(double(i) * dt);
        }
    while (peaks.size() < 3) peaks.push_back(0.0), peak_t.push_back(0.0);  // (not reached: 10 s hold many bounces)
    const double r21 = peaks[1] / peaks[0], r32 = peaks[2] / peaks[1];

    std::ostringstream s;
    for (std::size_t i = 0; i < 3; ++i) s << "peak" << i + 1 << "=" << f6(peaks[i]) << "\n";

    out.text("bounce.csv", csv, "2401 rows (steps 0..2400) of step,y,v");
    out.text("04-bounce.txt", s.str(),
             "peaks " + f6(peaks[0]) + ", " + f6(peaks[1]) + ", " + f6(peaks[2]) + "; ratios " + f6(r21) + ", " +
                 f6(r32) + " (e^2 = 0.49)");

    plot::Figure h;
    h.x_axis("time t (s)").y_axis("height of the ball y (m)").x_range(0, 10).y_range(0, 5);
    h.line("height", time, ys);
    h.points("first three peaks", peak_t, peaks, plot::palette[1], 4);
    h.hline(5 * e * e, "5 m \u00d7 e\u00b2, \u00d7 e\u2074, \u00d7 e\u2076");
    h.hline(5 * e * e * e * e, "");
    h.hline(5 * e * e * e * e * e * e, "");
    out.svg("bounce.svg", h, "height over 10 s, peaks shrinking by about e^2");

    plot::Figure en;
    en.x_axis("time t (s)").y_axis("energy per kilogram g y + v\u00b2/2 (J/kg)").x_range(0, 10).y_range(0, 50);
    en.line("energy", time, energy, plot::palette[2]);
    en.hline(-g * 5 * e * e, "49 J/kg \u00d7 e\u00b2, \u00d7 e\u2074");
    en.hline(-g * 5 * e * e * e * e, "");
    out.svg("bounce-energy.svg", en, "energy per kilogram over 10 s, down by e^2 at each bounce");

    page::Table tab({"quantity", "value", "expected"});
    tab.row({"peak 1", fixed(peaks[0], 3, "m"), "5 m &times; e&sup2; = 2.45 m"})
        .row({"peak 2 / peak 1", fixed(r21, 3), "e&sup2; = 0.49"})
        .row({"peak 3 / peak 2", fixed(r32, 3), "e&sup2; = 0.49"});
    out.html +=
        "<h3>A bounce: each peak is e&sup2; of the one before</h3>\n<p>A ball dropped from 5 m onto a floor with "
        "e = 0.7, stepped at 240 Hz for 10 s; at each bounce <code>impulse::resolve</code> turns the approach "
        "speed u into e&middot;u, so the next rise u&sup2;/2g is e&sup2; = 0.49 of the last.</p>\n" +
        page::figure("bounce.svg",
                     "Height of the ball over time. Look for each arc rising to about half of the one before: "
                     "the peaks (dots) sit on the dashed lines at 5 m &times; e&sup2;, e&#8308;, e&#8310; "
                     "(off by up to a few percent: the bounce is found at a step boundary).",
                     "height of the bouncing ball over time") +
        page::figure("bounce-energy.svg",
                     "The ball's energy per kilogram, g&middot;y + v&sup2;/2, over time. Look for flat stretches in "
                     "flight (gravity only trades height for speed) and a step down to e&sup2; = 0.49 of the level "
                     "at each bounce: the energy the collision takes.",
                     "energy of the bouncing ball over time") +
        tab.html() + page::text_result("04-bounce.txt", s.str()) +
        "<p>Every step (step, y, v): <a href=\"bounce.csv\">bounce.csv</a>.</p>\n";
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
    std::vector<double> ts{0.0}, xs{0.0}, speeds{v0};
    while (v.x() > 0.0 && steps < 1000000) {
        // Gravity gives the box vy = -g*dt into the floor within the step; the floor's normal
        // impulse with e = 0 takes it back: jn = m*g*dt. Friction is capped at mu*jn, so the
        // slide slows by mu*g*dt, or stops when less than that is left (sticking): exactly
        // the lab's v = max(0, v - mu*g*dt).
        v.y() += -g * dt;
        hit_static(v, 1.0 / m, n, 0.0, mu);
        x += v.x() * dt;  // x += v*dt
        ++steps;
        ts.push_back(steps * dt);
        xs.push_back(x);
        speeds.push_back(v.x());
    }
    const double t_stop = steps * dt;
    const double t_exact = v0 / (mu * g);             // t = v0 / (mu*g)
    const double d_exact = v0 * v0 / (2.0 * mu * g);  // d = v0^2 / (2*mu*g)

    std::ostringstream s;
    s << "steps=" << steps << "\n" << "stop_time=" << f6(t_stop) << "\n" << "distance=" << f6(x) << "\n";
    out.text("05-friction.txt", s.str(),
             "stops after " + std::to_string(steps) + " steps: t = " + f6(t_stop) + " s (analytic " + f6(t_exact) +
                 "), d = " + f6(x) + " m (analytic " + f6(d_exact) + ")");

    // The analytic slide: v(t) = v0 - mu g t, x(t) = v0 t - mu g t^2 / 2 until t_exact.
    std::vector<double> ta, va, xa;
    for (int i = 0; i <= 100; ++i) {
        const double t = t_exact * i / 100.0;
        ta.push_back(t);
        va.push_back(v0 - mu * g * t);
        xa.push_back(v0 * t - 0.5 * mu * g * t * t);
    }
    plot::Figure sp(640, 320);
    sp.x_axis("time t (s)").y_axis("speed of the box v (m/s)").x_range(0, 2).y_range(0, 5);
    sp.line("impulse, 240 steps per second", ts, speeds);
    sp.dashed("v\u2080 \u2212 \u03bc g t (analytic)", ta, va, "#222222");
    sp.vline(t_exact, "analytic stop, v\u2080/(\u03bc g) = " + fixed(t_exact, 3, "s"));
    out.svg("friction.svg", sp, "speed over time beside v0 - mu g t");

    plot::Figure di(640, 320);
    di.x_axis("time t (s)").y_axis("distance slid x (m)").x_range(0, 2).y_range(0, 5);
    di.line("impulse, 240 steps per second", ts, xs);
    di.dashed("v\u2080 t \u2212 \u03bc g t\u00b2/2 (analytic)", ta, xa, "#222222");
    di.hline(d_exact, "analytic distance, v\u2080\u00b2/(2 \u03bc g) = " + fixed(d_exact, 3, "m"));
    di.legend_at(plot::Corner::bottom_right);
    out.svg("friction-distance.svg", di, "distance over time beside v0 t - mu g t^2 / 2");

    page::Table tab({"quantity", "value", "analytic"});
    tab.row({"steps until it stops", std::to_string(steps), "&mdash;"})
        .row({"stop time", fixed(t_stop, 4, "s"), "v&#8320;/(&mu;g) = " + fixed(t_exact, 4, "s")})
        .row({"distance", fixed(x, 4, "m"), "v&#8320;&sup2;/(2&mu;g) = " + fixed(d_exact, 4, "m")});
    out.html +=
        "<h3>Friction: where a sliding box stops</h3>\n<p>A box sliding at 5 m/s on a floor with &mu; = 0.3, one "
        "contact per step (dt = 1/240 s). Each step the floor's normal impulse answers gravity, jn = m g dt, and "
        "friction takes at most &mu; jn off the slide: a constant deceleration &mu; g until the box sticks.</p>\n" +
        page::figure("friction.svg",
                     "The box's speed over time (blue) on the analytic line v&#8320; &minus; &mu;g t (dashed). Look "
                     "for a straight line that reaches zero at the analytic stop time and stays there: the contact "
                     "sticks, friction does not push it backwards.",
                     "speed of the sliding box over time") +
        page::figure("friction-distance.svg",
                     "Distance slid over time on the analytic parabola. Look for it levelling off at the analytic "
                     "stopping distance, within 1% (each step moves at its end-of-step speed, so a little short).",
                     "distance slid over time") +
        tab.html() + page::text_result("05-friction.txt", s.str());
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
                 impulse::to_string(r.regime) + ")");

    page::Table tab({"quantity", "value", "expected"});
    tab.row({"normal impulse jn", fixed(r.jn, 3, "N s"), "&minus;(1 + 0.5)(&minus;3) = 4.5 N s"})
        .row({"friction impulse along the slide", fixed(jt, 3, "N s"), "&minus;min(3, 0.4 &times; 4.5) = &minus;1.8 N s"})
        .row({"velocity after", "(" + fixed(v.x(), 3) + ", " + fixed(v.y(), 3) + ") m/s", "(1.2, 1.5) m/s"});
    out.html += "<h3>Friction is an impulse too</h3>\n<p>A body (inverse mass 1 /kg) hits a static floor at "
                "(3, &minus;3) m/s with e = 0.5 and &mu; = 0.4. Stopping the slide would take 3 N s, the cap is "
                "0.4 &times; 4.5 = 1.8 N s: it leaves sliding, against the slide's direction (negative).</p>\n" +
                tab.html() + page::text_result("06-tangent.txt", s.str());
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
    auto energy = [&] {  // sum 0.5*(vx^2 + vy^2) + 9.8*y (unit masses)
        double sum = 0.0;
        for (const Ball& ball : b) sum += 0.5 * ball.v.squaredNorm() + 9.8 * ball.p.y();
        return sum;
    };

    const double e_start = energy();
    std::vector<std::vector<double>> px(b.size()), py(b.size());
    std::vector<double> times, energies;
    for (int step = 0; step < steps; ++step) {
        if (step % 10 == 0)
            for (std::size_t i = 0; i < b.size(); ++i) {  // a dot every 10 steps
                px[i].push_back(b[i].p.x());
                py[i].push_back(b[i].p.y());
            }
        times.push_back(step * dt);
        energies.push_back(energy());
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
    times.push_back(steps * dt);
    energies.push_back(e_end);

    std::ostringstream s;
    for (std::size_t i = 0; i < b.size(); ++i) s << "b" << i + 1 << "=" << f6(b[i].p) << "," << f6(b[i].v) << "\n";
    s << "energy_start=" << f6(e_start) << "\n" << "energy_end=" << f6(e_end) << "\n";
    out.text("07-balls.txt", s.str(), "energy " + f6(e_start) + " -> " + f6(e_end));

    plot::Figure paths(560, 560);
    paths.x_axis("x (m)").y_axis("y (m)").x_range(0, 10).y_range(0, 10).equal_aspect().legend_at(plot::Corner::bottom_left);
    paths.line("", {r, side - r, side - r, r, r}, {r, r, side - r, side - r, r}, "#aaaaaa", 1);  // reach of a centre
    for (std::size_t i = 0; i < b.size(); ++i)
        paths.points("ball " + std::to_string(i + 1), px[i], py[i], plot::palette[i], 2.2);
    out.svg("balls.svg", paths, "paths of 5 balls, a dot every 10 steps");

    plot::Figure en(640, 300);
    en.x_axis("time t (s)").y_axis("total energy \u03a3 v\u00b2/2 + g y (J)").x_range(0, 7.5).y_range(0, 400);
    en.line("5 balls, 1 kg each", times, energies, plot::palette[2]);
    en.hline(5 * 9.8 * r, "floor: all at rest, y = r", "#777777");
    out.svg("balls-energy.svg", en, "total energy of the five balls over 7.5 s");

    page::Table tab({"quantity", "value", "expected"});
    tab.row({"energy at the start", fixed(e_start, 3, "J"), "&frac12;&Sigma;v&sup2; + g&Sigma;y = 22 + 323.4 = 345.4 J"})
        .row({"energy after 1800 steps", fixed(e_end, 3, "J"), "less: every wall hit keeps e&sup2; of the normal part"});
    out.html +=
        "<h3>Five balls in a box</h3>\n<p>Five balls (radius 0.5 m, 1 kg) in a 10 m &times; 10 m box under "
        "gravity; each wall is an immovable body with e = 0.9 and no friction.</p>\n" +
        page::figure("balls.svg",
                     "Each ball's centre every 10 steps (1/24 s) for 7.5 s; the grey square is as far as a centre can "
                     "go (0.5 m from the walls). Look for parabolas joined at the bounces, every dot inside the "
                     "square, and each bounce a little lower than the last.",
                     "paths of five balls in a box") +
        page::figure("balls-energy.svg",
                     "The five balls' total energy over time. Look for flat stretches between wall hits and a step down "
                     "at each hit (e = 0.9 keeps 81% of the energy of the normal motion); it never rises.",
                     "energy of the five balls over time") +
        tab.html() + page::text_result("07-balls.txt", s.str());
}

// ---------------------------------------------------------------------------------------------
// index.html: the showcase (the other examples' pages), then the lab, then the checks

/// A card for an example page: its title (linked), its summary and its first figure.
std::string card(const std::string& file, const std::string& html)
{
    const std::string title = page::title_of(html), summary = page::summary_of(html);
    const std::vector<page::FigureRef> figs = page::figures_of(html);
    std::string s = "<div class=\"card\">\n";
    if (!figs.empty())
        s += "<a href=\"" + file + "\"><img src=\"" + figs.front().src + "\" alt=\"" + title + "\"></a>\n";
    s += "<h3><a href=\"" + file + "\">" + (title.empty() ? file : title) + "</a></h3>\n";
    if (!summary.empty()) s += "<p>" + summary + "</p>\n";
    return s + "</div>\n";
}

void index_html(Out& out)
{
    // Pages in the folder, in showcase order: the scenes first (many bodies through the solver),
    // then particles, rigid bodies, the differentiable contacts, then any other page by name.
    const char* const order[] = {"scenes.html", "particles.html", "rigid.html", "identify.html"};
    std::vector<std::string> pages;
    for (const char* p : order)
        if (fs::exists(out.dir() / p)) pages.push_back(p);
    std::vector<std::string> others;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(out.dir(), ec)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() == ".html" && name != "index.html" &&
            std::find(std::begin(order), std::end(order), name) == std::end(order))
            others.push_back(name);
    }
    std::sort(others.begin(), others.end());
    pages.insert(pages.end(), others.begin(), others.end());

    std::string body;
    std::string scenes;
    std::string cards;
    for (const std::string& p : pages) {
        const std::string html = page::read_text(out.dir() / p);
        if (p == "scenes.html") {
            // The scenes: every picture as a thumbnail linking to its place on the page.
            scenes = "<h2 id=\"scenes\"><a href=\"scenes.html\">" + page::title_of(html) + "</a></h2>\n<p>" +
                     page::summary_of(html) + "</p>\n<div class=\"thumbs\">\n";
            for (const page::FigureRef& f : page::figures_of(html)) {
                const std::string ext = f.src.size() > 4 ? f.src.substr(f.src.size() - 4) : "";
                if (ext != ".png" && ext != ".svg") continue;
                const std::string target = "scenes.html" + (f.id.empty() ? std::string() : "#" + f.id);
                scenes += "<figure><a href=\"" + target + "\"><img src=\"" + f.src + "\" alt=\"" + f.alt +
                          "\"></a>\n<figcaption>" + f.alt + "</figcaption></figure>\n";
            }
            scenes += "</div>\n";
        } else {
            cards += card(p, html);
        }
    }
    if (!scenes.empty()) body += scenes;
    if (!cards.empty()) body += "<h2 id=\"examples\">More examples</h2>\n<div class=\"cards\">\n" + cards + "</div>\n";
    if (pages.empty())
        body += "<p>The other examples' pages appear here when they have run into this folder "
                "(<code>cmake --build &lt;build&gt; --target run-examples</code>).</p>\n";

    body += "<h2 id=\"lab\">The course lab: impulse, restitution and friction</h2>\n<p>The lessons' lab, step by step, "
            "with every collision response computed by <code>impulse::resolve</code> and its friends. Each result "
            "is beside the value derived by hand or the analytic solution it must match.</p>\n" +
            out.html;

    body += "<h2 id=\"checks\">Checks</h2>\n<p>The drawing toolbox the pictures are made with, and where the "
            "examples check themselves: every example exits with an error when a physics check fails, and the "
            "tests (<code>ctest -L lab</code>, <code>-L examples</code>, <code>-L scenes</code>) run them and read "
            "their files back.</p>\n" +
            page::figure("00-check.png",
                         "The drawing toolbox's test pattern (64 &times; 64 pixels, shown 3&times;): a white diagonal "
                         "from (0, 0) to (63, 63) and a red horizontal line at y = 32 drawn after it. Look for the "
                         "crossing at (32, 32): red, not white.",
                         "the drawing toolbox's test pattern", 192, true);

    const std::string html = page::html(
        "impulse: contact response, shown",
        "<p class=\"intro\">impulse computes contact response &mdash; the normal (bounce) impulse and Coulomb "
        "friction &mdash; for point masses and rigid bodies in 2D and 3D, one contact at a time, in SIMD batches, "
        "or many at once in a solver. These pages are written by the examples: each picture and plot comes with "
        "what to look for, and each number with the value physics says it must have.</p>\n" +
            body,
        "The examples' front page: scenes, particles, rigid bodies, differentiable contacts and the course lab.");
    out.text("index.html", html, "this page: the examples' pages, then the lab's results, then the checks");
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
    crate(out);
    conserve(out);
    bounce(out);
    friction(out);
    tangent(out);
    balls(out);
    check_pattern(out);
    if (!out.failed()) index_html(out);
    if (out.failed()) {
        std::fprintf(stderr, "lab: some files could not be written\n");
        return 1;
    }
    std::printf("output: %s\n", fs::absolute(dir, ec).string().c_str());
    return 0;
}
