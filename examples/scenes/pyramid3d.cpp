// SPDX-License-Identifier: MIT
// Pyramids of unit cubes (scenes3d.hpp, build_cube_pyramid): a 10 x 10 base (385 cubes) and a
// 20 x 20 base (2870 cubes), 10 s each at 60 Hz with the solver's defaults. Writes
//   pyramid3d.png   each pyramid after 10 s, coloured by how far each cube moved
//   pyramid3d.txt, pyramid3d.tsv   fastest cube at the end, largest move, top cube's sag
// and rewrites scenes.html. Usage: pyramid3d [output-folder [base ...]] (default bases 10 20).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "draw3d.hpp"
#include "output.hpp"
#include "scenes/scenes3d.hpp"

namespace {

using S = double;
using V = impulse::Vec<S, 3>;
using World = scenes::World<S, 3>;

struct Run {
    int base{0};
    World w;
    std::vector<V> start;
    double fastest{0}, moved{0}, sag{0};
};

}  // namespace

int main(int argc, char** argv)
{
    const auto dir = scenes::output::output_dir(argc, argv);
    std::vector<int> bases;
    for (int k = 2; k < argc; ++k) bases.push_back(std::atoi(argv[k]));
    if (bases.empty()) bases = {10, 20};

    std::vector<Run> runs(bases.size());
    for (std::size_t r = 0; r < bases.size(); ++r) {
        Run& run = runs[r];
        run.base = bases[r];
        scenes::build_cube_pyramid(run.w, run.base);
        run.start = run.w.x;
        for (int step = 0; step < 600; ++step) run.w.step();
        run.fastest = run.w.max_speed();
        for (std::size_t i = run.w.first_ball(); i < run.w.body_count(); ++i)
            run.moved = std::max(run.moved, (run.w.x[i] - run.start[i]).norm());
        run.sag = run.start.back().y() - run.w.x.back().y();
    }

    const int pw = 420, ph = 360;
    gfx::Canvas pic(pw * int(runs.size()), ph, scenes::draw::paper);
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const Run& run = runs[r];
        const double scale = 0.8 * pw / (1.6 * run.base);
        scenes::draw::Painter p(scenes::draw::Camera::looking(0.7, 0.45, scale, V(0, run.base / 4.0, 0),
                                                              pw * (double(r) + 0.5), ph * 0.5));
        const double half = run.base / 2.0 + 1;
        scenes::draw::floor(p, -half, half, -half, half);
        // Colour: how far the cube moved in 10 s, 0 (grey) to 1 cm (red).
        scenes::draw::bodies(p, run.w, [&](std::size_t i) {
            return scenes::draw::mix(scenes::draw::rest, scenes::draw::hot, (run.w.x[i] - run.start[i]).norm() / 0.01);
        });
        p.paint(pic);
    }

    std::string text = "Pyramids of unit cubes (density 1, friction 0.6, e = 0) on the floor, each cube on four below;\n"
                       "10 s at 60 Hz, 4 substeps, the solver's defaults.\n\n";
    std::vector<std::vector<std::string>> table = {{"pyramid", "fastest cube at the end", "largest move in 10 s",
                                                    "top cube sank", "bounds"}};
    for (const Run& run : runs) {
        const std::string name = std::to_string(run.base) + " x " + std::to_string(run.base) + " base, " +
                                 std::to_string(scenes::pyramid_cubes(run.base)) + " cubes";
        text += name + ": fastest " + ::page::formatted("%.2e m/s", run.fastest) + " (bound 0.01 m/s), largest move " +
                ::page::formatted("%.4f m", run.moved) + " (bound 0.05 m), top sank " + ::page::formatted("%.4f m", run.sag) + "\n";
        table.push_back({name, ::page::formatted("%.2e m/s", run.fastest), ::page::formatted("%.4f m", run.moved),
                         ::page::formatted("%.4f m", run.sag), "0.01 m/s; 0.05 m"});
    }
    std::fputs(text.c_str(), stdout);
    bool ok = scenes::output::write_png(dir, "pyramid3d.png", pic);
    ok = scenes::output::write_text(dir, "pyramid3d.txt", text) && ok;
    ok = scenes::output::write_table(dir, "pyramid3d.tsv", table) && ok;
    ok = scenes::output::write_page(dir) && ok;
    return ok ? 0 : 1;
}
