// SPDX-License-Identifier: MIT
// The scene suite (scenes/suite.hpp): the friction ramp (boxes of mu 0 to 0.8 dropped onto 30-degree
// ramps), restitution (balls of e = 0 to 1 dropped onto a floor of e = 0 from 8 heights near 4 m),
// rolling resistance (balls rolling at 2 m/s) and a conveyor belt (2 m/s), at the solver's default
// settings, 60 Hz. Writes ramp.png, bounce.png, rolling.png, surfaces.txt and surfaces.tsv, and
// rewrites scenes.html. Usage: surfaces [output-folder]
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "draw.hpp"
#include "output.hpp"
#include "scenes/suite.hpp"

namespace {

using S = double;
using World = scenes::World<S, 2>;
namespace suite = scenes::suite;
namespace bounds = scenes::suite::bounds;
namespace draw = scenes::draw;
using scenes::output::Check;

}  // namespace

int main(int argc, char** argv)
{
    const auto dir = scenes::output::output_dir(argc, argv);
    std::vector<Check> checks;

    // Friction ramp.
    const std::vector<S> mu{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8};
    World ramp;
    const auto boxes = suite::build_friction_ramps(ramp, mu);
    const World ramp_start = ramp;
    for (const auto& r : suite::run_friction_ramps(ramp, boxes, mu, suite::NoFrame{})) {
        const std::string name = ::page::formatted("ramp, mu = %.1f", r.mu);
        if (r.mu < std::tan(suite::ramp_angle)) {
            const double a = suite::slide_acceleration(r.mu);
            const double err = std::abs(r.acceleration - a) / a;
            checks.push_back({name, "acceleration from 1 s to 2 s", ::page::formatted("%.4f m/s^2", r.acceleration),
                              ::page::formatted("%.4f m/s^2 within 5%%", a), int(err <= bounds::ramp_acceleration)});
        } else {
            checks.push_back({name, "fastest point from 1 s on", ::page::formatted("%.5f m/s", r.fastest_late),
                              ::page::formatted("%.2f m/s", bounds::at_rest), int(r.fastest_late <= bounds::at_rest)});
        }
    }
    const draw::Region ramp_region{-12, -40, 12, 8};
    draw::Layout ramp_pic = draw::layout({ramp_region}, 12, draw::paper);
    draw::scene(ramp_pic.canvas, ramp_pic.views[0], ramp_region, ramp_start, ramp);

    // Restitution: 8 drop heights, the impact at 8 points of a step; the picture from 4 m.
    const std::vector<S> e{0, 0.25, 0.5, 0.75, 1};
    const draw::Region bounce_region{0, -0.2, 10, 4.4};  // x: time, 4 m per second
    draw::Layout bounce_pic = draw::layout({bounce_region}, 60, draw::paper);
    const draw::View& bv = bounce_pic.views[0];
    for (int k = 0; k < 8; ++k) {
        const S h = 4 + k * std::sqrt(2 * suite::g * 4) / 60 / 8;
        World w;
        const auto balls = suite::build_restitution(w, h, e);
        std::vector<double> last(e.size(), h);
        const auto apex = suite::run_restitution(w, balls, 240, [&](int step, const World& now) {
            if (k != 0) return;
            for (std::size_t i = 0; i < balls.size(); ++i) {
                const double y = double(now.x[balls[i]].y() - now.radius[balls[i]]);
                draw::segment(bounce_pic.canvas, bv, bounce_region, 4.0 * step / 60, last[i], 4.0 * (step + 1) / 60, y,
                              draw::ramp(double(i) / 4));
                last[i] = y;
            }
        });
        for (std::size_t i = 0; i < e.size(); ++i) {
            const double want = e[i] * e[i] * h, bound = suite::apex_bound(e[i], h);
            checks.push_back({::page::formatted("restitution, drop %.4f m", h), ::page::formatted("e = %.2f: first apex", e[i]),
                              ::page::formatted("%.4f m", apex[i]), ::page::formatted("%.4f m", want) + " +- " +
                              ::page::formatted("%.4f m", bound), int(std::abs(apex[i] - want) <= bound)});
        }
    }
    for (double v : {0.0, 0.25, 0.5, 0.75, 1.0})
        draw::segment(bounce_pic.canvas, bv, bounce_region, 0, v * v * 4, 0.3, v * v * 4, draw::wall);
    draw::segment(bounce_pic.canvas, bv, bounce_region, 0, 0, 10, 0, draw::wall);

    // Rolling resistance and the conveyor: one panel each, stacked.
    std::vector<World> rolled, rolled_start;
    for (S c : {0.025, 0.05, 0.1}) {
        World w;
        const auto ball = suite::build_rolling(w, c);
        rolled_start.push_back(w);
        const auto r = suite::run_rolling(w, ball, 1200, suite::NoFrame{});
        const auto p = suite::rolling_stop(c);
        const std::string name = ::page::formatted("rolling, c = %.3f m", c);
        checks.push_back({name, "stopped at", ::page::formatted("%.4f s", r.stopped_at),
                          ::page::formatted("%.4f s within 2%%", p.time), int(std::abs(r.stopped_at - p.time) <= bounds::rolling * p.time)});
        checks.push_back({name, "rolled", ::page::formatted("%.4f m", r.distance), ::page::formatted("%.4f m within 2%%", p.distance),
                          int(std::abs(r.distance - p.distance) <= bounds::rolling * p.distance)});
        rolled.push_back(w);
    }
    World belt;
    const auto box = suite::build_conveyor(belt);
    const World belt_start = belt;
    const auto cv = suite::run_conveyor(belt, box, suite::NoFrame{});
    for (const auto& [t, v] : {std::pair<double, double>{1, cv.v1}, {2, cv.v2}})
        checks.push_back({"conveyor", ::page::formatted("box speed at %.0f s", t), ::page::formatted("%.5f m/s", v),
                          ::page::formatted("%.1f m/s within 2%%", suite::belt_speed),
                          int(std::abs(v - suite::belt_speed) <= bounds::conveyor * suite::belt_speed)});
    const draw::Region roll_region{-1, -0.3, 11, 1.3}, belt_region{-10.5, -0.8, 10.5, 1.3};
    draw::Layout roll_pic = draw::layout({roll_region}, 60, draw::paper);
    draw::Layout belt_pic = draw::layout({belt_region}, 34, draw::paper);
    gfx::Canvas rolling(roll_pic.canvas.width(), 3 * roll_pic.canvas.height() + belt_pic.canvas.height(), draw::paper);
    for (std::size_t k = 0; k < 3; ++k) {
        gfx::Canvas panel = roll_pic.canvas;
        draw::scene(panel, roll_pic.views[0], roll_region, rolled_start[k], rolled[k]);
        const double d = suite::rolling_stop(k == 0 ? 0.025 : k == 1 ? 0.05 : 0.1).distance;
        draw::segment(panel, roll_pic.views[0], roll_region, d, -0.2, d, 0, draw::hot);
        for (int y = 0; y < panel.height(); ++y)
            for (int x = 0; x < panel.width(); ++x) rolling.set(x, int(k) * panel.height() + y, panel.get(x, y));
    }
    draw::scene(belt_pic.canvas, belt_pic.views[0], belt_region, belt_start, belt);
    for (int y = 0; y < belt_pic.canvas.height(); ++y)
        for (int x = 0; x < belt_pic.canvas.width(); ++x) rolling.set(x, 3 * roll_pic.canvas.height() + y, belt_pic.canvas.get(x, y));

    const std::string headline =
        "Friction ramp (boxes dropped 0.5 m onto 30-degree ramps, 3 s), restitution (balls of radius 0.5 m dropped onto a "
        "floor of e = 0 from 8 heights spanning the fall of one step at impact; threshold 1 m/s), rolling resistance (a "
        "disk of radius 0.5 m rolling at 2 m/s) and a conveyor (belt surface at 2 m/s, friction 0.6); dt = 1/60 s, the "
        "solver's default settings (4 substeps).\n";
    bool ok = scenes::output::write_png(dir, "ramp.png", ramp_pic.canvas);
    ok = scenes::output::write_png(dir, "bounce.png", bounce_pic.canvas) && ok;
    ok = scenes::output::write_png(dir, "rolling.png", rolling) && ok;
    ok = scenes::output::finish_suite(dir, "surfaces", headline, checks) && ok;
    ok = scenes::output::write_page(dir) && ok;
    return ok ? 0 : 1;
}
