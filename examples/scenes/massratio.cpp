// SPDX-License-Identifier: MIT
// The scene suite (scenes/suite.hpp): high mass ratios, Solver2D's HighMassRatio1 (pyramids with 100,
// 200 and 300 times denser top boxes) and 2/3 (a box of 400 times the mass on two small boxes, thin
// and thick ground), placed resting and dropped, 10 s each at the solver's default settings, 60 Hz.
// Writes massratio.png, massratio.txt and massratio.tsv, and rewrites scenes.html.
// Usage: massratio [output-folder]
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
using scenes::output::speed;

}  // namespace

int main(int argc, char** argv)
{
    const auto dir = scenes::output::output_dir(argc, argv);
    std::vector<Check> checks;
    const int steps = 600, late = 300;  // 10 s; speeds from 5 s on

    // Scene k: 0 the pyramids, 1 the big box on thin ground, 2 on thick ground; row 0 resting, 1 dropped.
    World start[2][3], end[2][3];
    const char* names[3] = {"pyramids 100:1, 200:1, 300:1", "400:1 on thin ground", "400:1 on thick ground"};
    for (int dropped = 0; dropped < 2; ++dropped) {
        for (int k = 0; k < 3; ++k) {
            World& w = end[dropped][k];
            const auto scene = k == 0 ? suite::build_mass_ratio_pyramids(w, dropped != 0) : suite::build_big_on_small(w, k == 2, dropped != 0);
            start[dropped][k] = w;
            const auto r = suite::run_mass_ratio(w, scene, steps, late, suite::NoFrame{});
            const std::string name = std::string(names[k]) + (dropped ? ", dropped" : ", resting");
            const int v = dropped ? -1 : 1;  // the dropped scenes are reported, not judged
            auto judged = [&](bool pass) { return dropped ? -1 : int(pass); };
            checks.push_back({name, "fastest point from 5 s to 10 s", speed(r.fastest_late), dropped ? "" : speed(bounds::at_rest),
                              judged(r.fastest_late <= bounds::at_rest)});
            checks.push_back({name, "farthest any box got from where it was placed", metres(r.moved),
                              dropped ? "" : metres(bounds::mass_ratio_moved), judged(r.moved <= bounds::mass_ratio_moved)});
            const bool judge_sink = k > 0 && !dropped;  // the criterion: the small boxes under the 400:1 load
            checks.push_back({name, "deepest a small box got into the ground", metres(r.small_sink),
                              judge_sink ? metres(bounds::mass_ratio_small_sink) : "",
                              judge_sink ? int(r.small_sink <= bounds::mass_ratio_small_sink) : -1});
            if (dropped) {
                checks.push_back({name, "small boxes in the ground at 10 s", metres(r.small_sink_end), "", v});
                checks.push_back({name, "farthest a small box was thrown", metres(r.small_moved), "", v});
            }
            checks.push_back({name, "heavy boxes below their resting height at 10 s", metres(r.heavy_sink), "", -1});
        }
    }

    namespace draw = scenes::draw;
    const std::vector<draw::Region> regions = {{-32, -1, 36, 24}, {-12, -1, 12, 24}, {-12, -1, 12, 24}};
    const std::vector<draw::Region> tall = {{-32, -1, 36, 37}, {-12, -1, 12, 37}, {-12, -1, 12, 37}};
    draw::Layout top = draw::layout(regions, 10, draw::paper), bottom = draw::layout(tall, 10, draw::paper);
    for (int k = 0; k < 3; ++k) {
        draw::scene(top.canvas, top.views[std::size_t(k)], regions[std::size_t(k)], start[0][k], end[0][k]);
        draw::scene(bottom.canvas, bottom.views[std::size_t(k)], tall[std::size_t(k)], start[1][k], end[1][k]);
    }
    gfx::Canvas pic(top.canvas.width(), top.canvas.height() + bottom.canvas.height(), draw::paper);
    for (int y = 0; y < top.canvas.height(); ++y)
        for (int x = 0; x < top.canvas.width(); ++x) pic.set(x, y, top.canvas.get(x, y));
    for (int y = 0; y < bottom.canvas.height(); ++y)
        for (int x = 0; x < bottom.canvas.width(); ++x) pic.set(x, top.canvas.height() + y, bottom.canvas.get(x, y));

    const std::string headline =
        "High mass ratio (Solver2D's HighMassRatio1, 2 and 3), 10 s at dt = 1/60 s, the solver's default settings (4 "
        "substeps). Placed resting: judged; dropped as Solver2D starts them: reported.\n";
    bool ok = scenes::output::write_png(dir, "massratio.png", pic);
    ok = scenes::output::finish_suite(dir, "massratio", headline, checks) && ok;
    ok = scenes::output::write_page(dir) && ok;
    return ok ? 0 : 1;
}
