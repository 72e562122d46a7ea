// SPDX-License-Identifier: MIT
// A pyramid of 210 circles in 20 rows between two walls, for 10 s (scenes.hpp, build_pyramid).
// Writes
//   pyramid.png   the start; after 10 s (with the start as outlines); after 10 s without warm starting
//   pyramid.txt   how far the circles moved, with and without warm starting
//   pyramid.tsv   the same as a table
// and rewrites scenes.html. Usage: pyramid [output-folder]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "draw.hpp"
#include "output.hpp"
#include "scenes/scenes.hpp"

namespace {

using S = double;
using World = scenes::World<S, 2>;
constexpr int rows = 20;

struct Run {
    World w;
    std::vector<impulse::Vec<S, 2>> start;
    S moved{0};     // largest distance any circle moved
    S top_drop{0};  // how far the top circle sank
};

Run run(bool warm_start)
{
    Run r;
    scenes::build_pyramid(r.w, rows, S(0.5));
    r.w.solver.settings.warm_start = warm_start;
    r.start = r.w.x;
    for (int step = 0; step < 600; ++step) r.w.step();  // 10 s
    for (std::size_t i = r.w.first_ball(); i < r.w.x.size(); ++i)
        r.moved = std::max(r.moved, (r.w.x[i] - r.start[i]).norm());
    r.top_drop = r.start.back().y() - r.w.x.back().y();
    return r;
}

void panel(gfx::Canvas& c, const World& w, const std::vector<impulse::Vec<S, 2>>* outline, int left, double scale)
{
    scenes::draw::View v;
    v.x0 = -0.5;
    v.y0 = -0.5;
    v.scale = scale;
    v.left = left;
    v.height = c.height();
    const double width = 2 * 0.5 * rows;
    const int floor = int(v.py(0)), x0 = int(v.px(0)), x1 = int(v.px(width));
    scenes::draw::rect(c, x0 - 3, floor, x1 + 3, floor + 3, scenes::draw::wall);
    scenes::draw::rect(c, x0 - 3, int(v.py(rows * 0.9)), x0 - 1, floor, scenes::draw::wall);
    scenes::draw::rect(c, x1 + 1, int(v.py(rows * 0.9)), x1 + 3, floor, scenes::draw::wall);
    for (std::size_t i = w.first_ball(); i < w.x.size(); ++i) {
        const double t = (w.x[i].y() - 0.5) / (rows * 0.87);
        scenes::draw::disc(c, v.px(w.x[i].x()), v.py(w.x[i].y()), 0.5 * scale - 0.5, scenes::draw::ramp(t));
    }
    if (outline)
        for (std::size_t i = w.first_ball(); i < w.x.size(); ++i)
            scenes::draw::ring(c, v.px((*outline)[i].x()), v.py((*outline)[i].y()), 0.5 * scale, scenes::draw::hot);
}

}  // namespace

int main(int argc, char** argv)
{
    const auto dir = scenes::output::output_dir(argc, argv);
    const Run held = run(true), fell = run(false);
    World start;
    scenes::build_pyramid(start, rows, S(0.5));

    const double scale = 24;
    const int pw = int((2 * 0.5 * rows + 1) * scale) + 8, ph = int((rows * 0.9 + 1) * scale);
    gfx::Canvas pic(3 * pw, ph, scenes::draw::paper);
    panel(pic, start, nullptr, 0, scale);
    panel(pic, held.w, &held.start, pw, scale);
    panel(pic, fell.w, nullptr, 2 * pw, scale);
    gfx::scale_bar(pic, 20, 40, scale, 2, scenes::draw::wall);  // beside the first pyramid's top

    // Each contact is a spring (tests/scenes: the sag of a pyramid of soft contacts): row j from the
    // top carries F_j = (j + 1) m g / (2 sqrt 3) on each contact below it, compressing it by F_j / k,
    // k = m_eff (2 pi f)^2; the top sinks by the sum of these over sin 60deg, plus the floor's share.
    const auto& settings = held.w.solver.settings;
    const double f = std::min(double(settings.contact_hertz), 60.0);
    const double k = 0.5 * (2 * scenes::pi<double> * f) * (2 * scenes::pi<double> * f);
    const double k_floor = std::pow(2 * scenes::pi<double> * f * double(settings.static_hertz_scale), 2);
    double sag = (rows + 1) / 2.0 * 9.81 / k_floor;
    for (int j = 1; j < rows; ++j) sag += (j + 1) * 9.81 / (2 * std::sqrt(3.0)) / (k * std::sin(scenes::pi<double> / 3));
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "Pyramid: %d circles (r = 0.5 m, m = 1 kg) in %d rows between walls %d m apart; mu = 0.5, e = 0;\n"
                  "10 s at dt = 1/60 s, %d substeps, contacts %.0f Hz (x%.0f against static bodies), damping ratio %.0f.\n\n"
                  "with warm starting:    top sank %.4f m (the contact springs' sag: %.4f m), no circle moved more than %.4f m\n"
                  "without warm starting: top sank %.4f m, a circle moved %.4f m: it collapsed\n",
                  rows * (rows + 1) / 2, rows, rows, settings.substeps, double(settings.contact_hertz),
                  double(settings.static_hertz_scale), double(settings.contact_damping_ratio), held.top_drop, sag,
                  held.moved, fell.top_drop, fell.moved);
    std::fputs(buf, stdout);
    const std::vector<std::vector<std::string>> table = {
        {"run", "top sank", "largest move", "bound"},
        {"with warm starting", ::page::formatted("%.4f m", double(held.top_drop)), ::page::formatted("%.4f m", double(held.moved)),
         ::page::formatted("top: %.4f m, the contact springs' sag", sag)},
        {"without warm starting", ::page::formatted("%.4f m", double(fell.top_drop)),
         ::page::formatted("%.4f m", double(fell.moved)), "(it collapses)"}};
    bool ok = scenes::output::write_png(dir, "pyramid.png", pic);
    ok = scenes::output::write_text(dir, "pyramid.txt", buf) && ok;
    ok = scenes::output::write_table(dir, "pyramid.tsv", table) && ok;
    ok = scenes::output::write_page(dir) && ok;
    return ok ? 0 : 1;
}
