// SPDX-License-Identifier: MIT
// The scene suite (scenes/suite.hpp): vertical stacks of 10 and 20 boxes and the box pyramids of
// base 20 and 100, 10 s each at the solver's default settings, 60 Hz. Writes
//   stacks.png       the stacks and the base-20 pyramid after 10 s (pale: the start)
//   boxpyramid.png   the base-100 pyramid after 10 s
//   stacks.txt/.tsv  each number against its criterion
// and rewrites scenes.html. Usage: stacks [output-folder [small]]; `small` puts a pyramid of base 40
// in place of base 100 (for the test that runs the program: a fifth of the run).
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
    const bool small = argc > 2 && std::string(argv[2]) == "small";
    const int large_base = small ? 40 : 100;
    std::vector<Check> checks;
    const int steps = 600;  // 10 s

    World stack_start[2], stack[2];
    for (int k = 0; k < 2; ++k) {
        const int n = k == 0 ? 10 : 20;
        suite::build_vertical_stack(stack[k], n);
        stack_start[k] = stack[k];
        const auto r = suite::run_vertical_stack(stack[k], n, steps, suite::NoFrame{});
        const std::string name = "stack of " + std::to_string(n);
        checks.push_back({name, "top box to the side of its column at 10 s", metres(r.drift), metres(bounds::stack_column),
                          r.drift <= bounds::stack_column});
        checks.push_back({name, "top box below its ideal height", metres(r.sink), metres(bounds::stack_sink_per_box * n),
                          r.sink <= bounds::stack_sink_per_box * n});
        checks.push_back({name, "fastest point at 10 s", speed(r.fastest), speed(bounds::at_rest), r.fastest <= bounds::at_rest});
    }

    World pyramid_start[2], pyramid[2];
    for (int k = 0; k < 2; ++k) {
        const int base = k == 0 ? 20 : large_base;
        scenes::build_box_pyramid(pyramid[k], base);
        pyramid_start[k] = pyramid[k];
        const auto r = suite::run_box_pyramid(pyramid[k], steps, suite::NoFrame{});
        const double top = k == 0 ? bounds::pyramid20_top : bounds::pyramid100_top;
        const std::string name = "pyramid of base " + std::to_string(base);
        checks.push_back({name, "top box from its start at 10 s", metres(r.top_moved), metres(top), r.top_moved <= top});
        checks.push_back({name, "top box sank", metres(r.top_drop), "", -1});
        checks.push_back({name, "fastest point at 10 s", speed(r.fastest), speed(bounds::at_rest), r.fastest <= bounds::at_rest});
    }

    namespace draw = scenes::draw;
    const std::vector<draw::Region> regions = {{-3, -0.5, 3, 21}, {-3, -0.5, 3, 21}, {-11, -0.5, 11, 21}};
    draw::Layout pic = draw::layout(regions, 20, draw::paper);
    draw::scene(pic.canvas, pic.views[0], regions[0], stack_start[0], stack[0]);
    draw::scene(pic.canvas, pic.views[1], regions[1], stack_start[1], stack[1]);
    draw::scene(pic.canvas, pic.views[2], regions[2], pyramid_start[0], pyramid[0]);
    const double half = 0.5 * large_base + 1;
    const std::vector<draw::Region> big = {{-half, -1, half, 2 * half - 1}};
    draw::Layout pic100 = draw::layout(big, 8, draw::paper);
    draw::scene(pic100.canvas, pic100.views[0], big[0], pyramid_start[1], pyramid[1]);

    const std::string headline =
        "Vertical stacks (unit boxes placed touching, friction 0.3) and box pyramids (Box2D's benchmark brick pattern, "
        "friction 0.6), 10 s at dt = 1/60 s, the solver's default settings (4 substeps).\n";
    bool ok = scenes::output::write_png(dir, "stacks.png", pic.canvas);
    ok = scenes::output::write_png(dir, "boxpyramid.png", pic100.canvas) && ok;
    ok = scenes::output::finish_suite(dir, "stacks", headline, checks) && ok;
    ok = scenes::output::write_page(dir) && ok;
    return ok ? 0 : 1;
}
