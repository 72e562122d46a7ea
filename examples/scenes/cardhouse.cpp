// SPDX-License-Identifier: MIT
// The scene suite (scenes/suite.hpp): Solver2D's card house (from PEEL), 10 s at 1, 2, 4 (the
// default) and 8 substeps, 60 Hz. Writes cardhouse.png, cardhouse.txt and cardhouse.tsv, and
// rewrites scenes.html. Usage: cardhouse [output-folder]
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

}  // namespace

int main(int argc, char** argv)
{
    const auto dir = scenes::output::output_dir(argc, argv);
    std::vector<Check> checks;
    World start, at4, at8;
    int needs = 0;
    for (int substeps : {1, 2, 4, 8}) {
        World w;
        const auto top = suite::build_card_house(w);
        start = w;
        w.solver.settings.substeps = substeps;
        const auto r = suite::run_card_house(w, top, 600, suite::NoFrame{});
        const bool holds = r.top_moved <= bounds::card_top;
        if (holds && needs == 0) needs = substeps;
        checks.push_back({std::to_string(substeps) + " substeps" + (substeps == 4 ? " (the default)" : ""),
                          "farthest a top card got from its start in 10 s", ::page::formatted("%.4f m", r.top_moved),
                          ::page::formatted("%.2f m", bounds::card_top), int(holds)});
        if (substeps == 4) at4 = w;
        if (substeps == 8) at8 = w;
    }
    checks.push_back({"card house", "substeps it needs (of 1, 2, 4, 8)", needs ? std::to_string(needs) : "more than 8", "", -1});

    namespace draw = scenes::draw;
    const std::vector<draw::Region> regions = {{-0.2, -0.05, 1.8, 1.7}, {-0.2, -0.05, 1.8, 1.7}};
    draw::Layout pic = draw::layout(regions, 300, draw::paper);
    draw::scene(pic.canvas, pic.views[0], regions[0], start, at4);
    draw::scene(pic.canvas, pic.views[1], regions[1], start, at8);

    const std::string headline =
        "Card house (Solver2D's, from PEEL): 40 cards 0.4 m x 2 mm in five storeys, friction 0.7, 10 s at dt = 1/60 s, "
        "the solver's default settings but for the substep count.\n";
    bool ok = scenes::output::write_png(dir, "cardhouse.png", pic.canvas);
    ok = scenes::output::finish_suite(dir, "cardhouse", headline, checks) && ok;
    ok = scenes::output::write_page(dir) && ok;
    return ok ? 0 : 1;
}
