// SPDX-License-Identifier: MIT
// The scene suite (scenes/suite.hpp): overlap recovery (a pyramid of boxes started 25% overlapping,
// 5 s) and confined (625 circles started overlapping in a box too small for them, no gravity, 10 s),
// at the solver's default settings, 60 Hz. Writes recovery.png, recovery.txt and recovery.tsv, and
// rewrites scenes.html. Usage: recovery [output-folder]
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
using scenes::output::Check;

using scenes::output::metres;
std::string speed(double x) { return scenes::output::speed(x, 4); }

}  // namespace

int main(int argc, char** argv)
{
    const auto dir = scenes::output::output_dir(argc, argv);
    std::vector<Check> checks;

    World boxes;
    suite::build_overlap_recovery(boxes);
    const World boxes_start = boxes;
    const double cap = boxes.solver.settings.push_out_speed;
    const auto r = suite::run_overlap_recovery(boxes, 300, suite::NoFrame{});
    const std::string a = "overlap recovery";
    checks.push_back({a, "deepest overlap at the start", metres(r.start_overlap), "", -1});
    checks.push_back({a, "deepest overlap below 1 cm from", ::page::formatted("%.3f s", r.recovered_at),
                      ::page::formatted("%.0f s", bounds::recovered_within), r.recovered_at <= bounds::recovered_within});
    checks.push_back({a, "fastest separating point after a step (relative normal speed)", speed(r.separating), speed(cap),
                      r.separating <= cap});
    checks.push_back({a, "fastest separation of a pair over a step (change of separation / dt)", speed(r.separation_rate),
                      speed(cap), r.separation_rate <= cap});
    checks.push_back({a, "fastest point at 5 s", speed(r.fastest), speed(bounds::at_rest), r.fastest <= bounds::at_rest});

    World circles;
    suite::build_confined(circles);
    const World circles_start = circles;
    const auto c = suite::run_confined(circles, 600, suite::NoFrame{});
    const std::string b = "confined, 625 circles";
    checks.push_back({b, "deepest overlap at the start", metres(c.start_overlap), "", -1});
    checks.push_back({b, "fastest separating point after a step (relative normal speed)", speed(c.separating), speed(cap),
                      c.separating <= cap});
    checks.push_back({b, "fastest separation of a pair over a step (change of separation / dt)", speed(c.separation_rate),
                      speed(cap), c.separation_rate <= cap});
    checks.push_back({b, "fastest body, any step (|v|)", speed(c.body_speed), speed(bounds::confined_speed),
                      c.body_speed <= bounds::confined_speed});
    checks.push_back({b, "fastest body, any step (|dx| / dt)", speed(c.body_travel), speed(bounds::confined_speed),
                      c.body_travel <= bounds::confined_speed});
    checks.push_back({b, "fastest point at 10 s", speed(c.fastest), speed(bounds::at_rest), c.fastest <= bounds::at_rest});
    checks.push_back({b, "deepest overlap at 10 s (they cannot all fit)", metres(c.overlap_end), "", -1});

    namespace draw = scenes::draw;
    const std::vector<draw::Region> regions = {{-4, -0.5, 3, 4}, {-10.5, 0, 10.5, 20.5}};
    draw::Layout pic = draw::layout(regions, 24, draw::paper);
    draw::scene(pic.canvas, pic.views[0], regions[0], boxes_start, boxes);
    draw::scene(pic.canvas, pic.views[1], regions[1], circles_start, circles);

    const std::string headline =
        "Overlap recovery (Solver2D's: a pyramid of base 4 of unit boxes 25% overlapping, 5 s) and confined (Solver2D's: "
        "625 circles of radius 0.5 m 0.72 m apart in a 20 m x 19.5 m box, no gravity, 10 s); dt = 1/60 s, the solver's "
        "default settings (4 substeps, push-out speed 3 m/s).\n";
    bool ok = scenes::output::write_png(dir, "recovery.png", pic.canvas);
    ok = scenes::output::finish_suite(dir, "recovery", headline, checks) && ok;
    ok = scenes::output::write_page(dir) && ok;
    return ok ? 0 : 1;
}
