// SPDX-License-Identifier: MIT
// The 3D scenes of boxes and capsules (scenes3d.hpp), each run at 60 Hz with the solver's defaults
// and drawn in an orthographic view. Writes
//   stack3d.png      10 unit cubes, at the start and after 10 s
//   massratio3d.png  a cube 100 times denser on four cubes; a 2 m one on four 0.5 m cubes (6400 to 1)
//   dominoes.png     30 dominoes, the first pushed: at the start, while falling, at the end
//   ramp3d.png       a capsule rolling down a ramp, every 0.5 s, stopped by rolling resistance
//   thandle.png      the T-handle spun about its intermediate axis, once per turn for 12 s
//   boxes3d.txt, boxes3d.tsv   what each scene measured, against the criteria tests/scenes checks
// and rewrites scenes.html. Usage: boxes3d [output-folder]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "draw3d.hpp"
#include "output.hpp"
#include "scenes/scenes3d.hpp"

namespace {

using S = double;
using V = impulse::Vec<S, 3>;
using World = scenes::World<S, 3>;
constexpr double degree = scenes::pi<double> / 180;

namespace draw = scenes::draw;

const gfx::Rgb sand{214, 170, 100}, slate{110, 130, 170}, heavy{170, 60, 50};

/// One panel: the world seen from (yaw, pitch), centred on `centre`, into the canvas at (cx, cy).
void panel(gfx::Canvas& pic, const World& w, double yaw, double pitch, double scale, const V& centre, double cx,
           double cy, double floor_half, gfx::Rgb (*colour)(const World&, std::size_t))
{
    draw::Painter p(draw::Camera::looking(yaw, pitch, scale, centre, cx, cy));
    const double depth = std::min(floor_half, 2.0);  // along z: no farther than the panel below can take
    draw::floor(p, std::floor(centre.x() - floor_half), std::ceil(centre.x() + floor_half), -depth, depth);
    draw::bodies(p, w, [&](std::size_t i) { return colour(w, i); });
    p.paint(pic);
}

gfx::Rgb by_height(const World& w, std::size_t i)
{
    return draw::mix(sand, slate, w.x[i].y() / 10);
}

struct Row {
    std::string scene, quantity, value, bound;
};

}  // namespace

int main(int argc, char** argv)
{
    const auto dir = scenes::output::output_dir(argc, argv);
    std::vector<Row> rows;
    bool ok = true;

    // ---- the stack ----
    {
        World w0, w;
        scenes::build_cube_stack(w0, 10);
        scenes::build_cube_stack(w, 10);
        for (int step = 0; step < 600; ++step) w.step();
        const std::size_t top = w.body_count() - 1;
        rows.push_back({"stack of 10 cubes", "top cube off its column after 10 s",
                        ::page::formatted("%.4f m", std::hypot(w.x[top].x(), w.x[top].z())), "0.02 m"});
        rows.push_back({"stack of 10 cubes", "top cube's tilt after 10 s",
                        ::page::formatted("%.3f\u00b0", scenes::tilt(w, top) / degree), "1\u00b0"});
        rows.push_back({"stack of 10 cubes", "top cube's centre height (placed at 9.5 m)",
                        ::page::formatted("%.4f m", w.x[top].y()), "(the contact springs' sag)"});
        const double scale = 30;
        gfx::Canvas pic(2 * 200, 12 * int(scale), draw::paper);
        panel(pic, w0, 0.6, 0.35, scale, V(0, 5, 0), 100, 6 * scale, 3, by_height);
        panel(pic, w, 0.6, 0.35, scale, V(0, 5, 0), 300, 6 * scale, 3, by_height);
        ok = scenes::output::write_png(dir, "stack3d.png", pic) && ok;
    }

    // ---- the mass ratio ----
    {
        const double scale = 70;
        gfx::Canvas pic(2 * 330, 300, draw::paper);
        const double sizes[2][2] = {{1, 1}, {0.5, 2}};
        for (int k = 0; k < 2; ++k) {
            World w;
            const double small = sizes[k][0], big = sizes[k][1];
            const std::uint32_t h = scenes::build_mass_ratio(w, small, big);
            const std::vector<V> start = w.x;
            double sink = 0;
            for (int step = 0; step < 600; ++step) {
                w.step();
                sink = std::max(sink, small - (w.x[h].y() - big / 2));
            }
            double moved = 0;
            for (std::uint32_t i = w.first_ball(); i < h; ++i) moved = std::max(moved, (w.x[i] - start[i]).norm());
            const std::string name = k == 0 ? "100 kg cube on four 1 kg cubes" : "800 kg cube on four 0.125 kg cubes";
            rows.push_back({name, "heavy cube sank into the small ones (deepest)", ::page::formatted("%.4f m", sink),
                            k == 0 ? "0.05 m" : "0.125 m (known to fail)"});
            rows.push_back({name, "small cubes moved (most)", ::page::formatted("%.4f m", moved), "0.05 m"});
            panel(pic, w, 0.5, 0.3, scale, V(0, 1, 0), 165 + 330 * k, 190, 3,
                  [](const World& ww, std::size_t i) { return ww.inv_mass[i] < 0.1 ? heavy : sand; });
        }
        ok = scenes::output::write_png(dir, "massratio3d.png", pic) && ok;
    }

    // ---- dominoes ----
    {
        World w;
        scenes::DominoSpec<S> d;
        scenes::build_dominoes(w, d);
        scenes::Topple<S> topple;
        const double scale = 40;
        const int pw = int((d.count * d.spacing + 2) * scale), ph = 140;
        gfx::Canvas pic(pw, 3 * ph, draw::paper);
        auto colour = [](const World& ww, std::size_t i) {
            return draw::ramp(double(i - ww.first_ball()) / double(ww.ball_count()));
        };
        const V centre(d.count * d.spacing / 2 - 0.5, 0.5, 0);
        const double floor_half = d.count * d.spacing / 2 + 1;
        panel(pic, w, 0.25, 0.25, scale, centre, pw / 2.0, ph * 0.7, floor_half, colour);
        for (int step = 1; step <= 1200; ++step) {
            w.step();
            topple.watch(w, step * w.dt, 20 * degree);
            if (step == 150) panel(pic, w, 0.25, 0.25, scale, centre, pw / 2.0, ph * 1.7, floor_half, colour);
        }
        panel(pic, w, 0.25, 0.25, scale, centre, pw / 2.0, ph * 2.7, floor_half, colour);
        int fallen = 0, in_order = 1;
        for (std::size_t k = 0; k < topple.when.size(); ++k) {
            if (topple.when[k] >= 0) ++fallen;
            if (k > 0 && topple.when[k] >= 0 && topple.when[k] > topple.when[k - 1]) ++in_order;
        }
        rows.push_back({"30 dominoes", "toppled (leaning past 20\u00b0) within 20 s", std::to_string(fallen), "30"});
        rows.push_back({"30 dominoes", "toppled after the one before", std::to_string(in_order), "30"});
        rows.push_back({"30 dominoes", "the last one toppled at", ::page::formatted("%.2f s", topple.when.back()), ""});
        ok = scenes::output::write_png(dir, "dominoes.png", pic) && ok;
    }

    // ---- the capsule on the ramp ----
    {
        World w;
        scenes::RampSpec<S> p;
        const std::uint32_t c = scenes::build_ramp(w, p);
        const double H = w.x[c].y(), L = p.height / std::sin(p.slope);
        const double d_max = p.radius * (H - p.radius) / p.rolling - std::cos(p.slope) * L;
        const double x_left = w.x[c].x() - 1, x_right = d_max + 2;
        const double scale = 14;
        const int pw = int((x_right - x_left) * scale), ph = 120;
        gfx::Canvas pic(pw, ph, draw::paper);
        draw::Painter painter(draw::Camera::looking(0.0, 0.0, scale, V(x_left, 0, 0), 0, ph - 20));
        {
            // The slope and the floor, seen edge on: two thick bands.
            const Eigen::Vector3d slope[4] = {{x_left, -x_left * std::tan(p.slope), -1}, {0, 0, -1}, {0, -0.3, -1},
                                              {x_left, -x_left * std::tan(p.slope) - 0.3, -1}};
            painter.face(slope, Eigen::Vector3d::UnitZ(), draw::wall, false, true);
            const Eigen::Vector3d flat[4] = {{0, 0, -1}, {x_right, 0, -1}, {x_right, -0.3, -1}, {0, -0.3, -1}};
            painter.face(flat, Eigen::Vector3d::UnitZ(), draw::wall, false, true);
        }
        double worst_roll = 0;
        for (int step = 0; step < 1800; ++step) {
            if (step % 30 == 0)
                draw::bodies(painter, w, [&](std::size_t) { return draw::ramp(step / 1800.0); });
            w.step();
            const double v = w.v[c].norm();
            if (v > 0.2) worst_roll = std::max(worst_roll, std::abs(w.omega[c].norm() * p.radius - v) / v);
        }
        painter.paint(pic);
        gfx::scale_bar(pic, 20, 20, scale, 5, draw::wall);
        rows.push_back({"capsule on a ramp", "stopped at x (the foot of the slope is 0)", ::page::formatted("%.3f m", w.x[c].x()),
                        ::page::formatted("0 < x < %.3f m (its energy)", d_max)});
        rows.push_back({"capsule on a ramp", "speed after 30 s", ::page::formatted("%.2e m/s", w.v[c].norm()), "0.001 m/s"});
        rows.push_back({"capsule on a ramp", "|omega r - v| / v while rolling (worst)", ::page::formatted("%.4f", worst_roll), "0.05"});
        ok = scenes::output::write_png(dir, "ramp3d.png", pic) && ok;
    }

    // ---- the T-handle ----
    {
        World w;
        const std::uint32_t i = scenes::build_t_handle(w);
        const V I = scenes::t_handle_inertia<S>();
        std::vector<double> got{w.omega[i].x()}, ref{w.omega[i].x()};
        V ref_w = w.omega[i];
        // A strobe: one frame per turn about the crossbar (2 pi / 6 rad/s = 1.05 s, 63 steps), so the
        // spin itself stands still and what is left is the flip.
        const int frames = 12, every = 63;
        const double scale = 50;
        gfx::Canvas pic(frames * 80, 100, draw::paper);
        for (int step = 0; step <= 720; ++step) {
            if (step % every == 0 && step / every < frames) {
                // The handle as two bars: the crossbar (along x) at z = +0.25 from the centre of mass, the
                // shaft (along z) from -0.75 to +0.25.
                const int f = step / every;
                draw::Painter p(draw::Camera::looking(0.5, 0.4, scale, V::Zero(), 40 + 80 * f, 50));
                const Eigen::Quaterniond q = w.q[i];
                p.box(V(0.5, 0.04, 0.04), q * V(0, 0, 0.25), q, heavy);
                p.box(V(0.04, 0.04, 0.5), q * V(0, 0, -0.25), q, slate);
                p.paint(pic);
            }
            if (step == 720) break;
            w.step();
            got.push_back((w.q[i].conjugate() * w.omega[i]).x());
            for (int k = 0; k < 167; ++k) ref_w = scenes::euler_rk4(ref_w, I, w.dt / 167);
            ref.push_back(ref_w.x());
        }
        const auto flips = scenes::sign_changes(got, w.dt), ref_flips = scenes::sign_changes(ref, w.dt);
        rows.push_back({"T-handle", "time between flips, 12 s", ::page::formatted("%.3f s", scenes::mean_interval(flips)),
                        ::page::formatted("%.3f s \u00b1 10%% (Euler's equations, RK4 at 1e-4 s)", scenes::mean_interval(ref_flips))});
        ok = scenes::output::write_png(dir, "thandle.png", pic) && ok;
    }

    std::string text =
        "3D scenes of boxes and capsules: 60 Hz, 4 substeps, the solver's defaults (gyroscopic term on);\n"
        "friction 0.6, e = 0, unit cubes of density 1.\n\n";
    std::vector<std::vector<std::string>> table = {{"scene", "quantity", "value", "bound"}};
    for (const Row& r : rows) {
        text += r.scene + ": " + r.quantity + ": " + r.value + (r.bound.empty() ? "" : " (bound: " + r.bound + ")") + "\n";
        table.push_back({r.scene, r.quantity, r.value, r.bound});
    }
    std::fputs(text.c_str(), stdout);
    ok = scenes::output::write_text(dir, "boxes3d.txt", text) && ok;
    ok = scenes::output::write_table(dir, "boxes3d.tsv", table) && ok;
    ok = scenes::output::write_page(dir) && ok;
    return ok ? 0 : 1;
}
