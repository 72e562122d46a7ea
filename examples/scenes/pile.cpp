// SPDX-License-Identifier: MIT
// A 3D pile: 1000 spheres poured into a 6 m x 6 m box and left to settle (scenes.hpp). Writes
//   pile3d.png   the settled pile from the side and from above
//   pile3d.txt   escapes, overlap after settling, kinetic energy at rest, energy drift
// and rewrites scenes.html. Usage: pile [output-folder]
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "draw.hpp"
#include "output.hpp"
#include "scenes/scenes.hpp"

namespace {

using S = double;
using World = scenes::World<S, 3>;

/// An orthographic view along one axis: (u, v) are the picture's axes, `depth` grows towards the
/// viewer; nearer spheres are drawn later and lighter.
void view(gfx::Canvas& c, const World& w, const scenes::PitSpec<S>& p, int left, int u, int v, int depth,
          double scale, double height)
{
    scenes::draw::View vw;
    vw.x0 = -0.3;
    vw.y0 = -0.3;
    vw.scale = scale;
    vw.left = left;
    vw.height = c.height();
    // The box outline.
    const int x0 = int(vw.px(0)), x1 = int(vw.px(p.width)), y0 = int(vw.py(0)), y1 = int(vw.py(height));
    scenes::draw::rect(c, x0 - 2, y0, x1 + 2, y0 + 2, scenes::draw::wall);
    scenes::draw::rect(c, x0 - 2, y1, x0 - 1, y0, scenes::draw::wall);
    scenes::draw::rect(c, x1 + 1, y1, x1 + 2, y0, scenes::draw::wall);
    if (depth == 1) scenes::draw::rect(c, x0 - 2, y1 - 2, x1 + 2, y1, scenes::draw::wall);  // from above: all four walls
    std::vector<std::size_t> order(w.ball_count());
    std::iota(order.begin(), order.end(), std::size_t(w.first_ball()));
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return w.x[a][depth] < w.x[b][depth]; });
    const double far = w.x[order.front()][depth], near = w.x[order.back()][depth];
    for (std::size_t i : order) {
        const double t = near > far ? (w.x[i][depth] - far) / (near - far) : 1.0;
        const gfx::Rgb base = scenes::draw::ramp(double(i - w.first_ball()) / double(p.count));
        scenes::draw::disc(c, vw.px(w.x[i][u]), vw.py(w.x[i][v]), w.radius[i] * scale,
                           scenes::draw::mix(scenes::draw::mix(base, gfx::black, 0.5), base, 0.3 + 0.7 * t));
    }
}

}  // namespace

int main(int argc, char** argv)
{
    const auto dir = scenes::output::output_dir(argc, argv);
    scenes::PitSpec<S> p;
    p.count = 1000;
    p.width = 6;
    p.height = 8;
    World w;
    scenes::build_box(w, p);
    const int settle = 300;  // 5 s after the last layer
    const scenes::PitStats<S> st = scenes::run_pit(w, p, settle, 60, [](int, const World&) {});

    const double scale = 60, pile_top = 4.0;
    const int pw = int((p.width + 0.6) * scale);
    gfx::Canvas pic(2 * pw, pw, scenes::draw::paper);
    view(pic, w, p, 0, 0, 1, 2, scale, pile_top);      // from the side: x right, y up, z towards the viewer
    view(pic, w, p, pw, 0, 2, 1, scale, p.width);      // from above: x right, z up, y towards the viewer
    gfx::scale_bar(pic, 20, 40, scale, 1, scenes::draw::wall);  // above the side view's box

    char headline[256];
    std::snprintf(headline, sizeof headline,
                  "3D pile: %zu spheres, radius %.1f-%.1f m, density 1, in a %.0f m x %.0f m box; e = %.1f (none "
                  "below %.0f m/s), mu = %.1f;\n",
                  p.count, p.rmin, p.rmax, p.width, p.width, p.restitution, p.threshold, p.friction);
    return scenes::output::finish_pit(dir, "pile3d", pic, headline, p, settle, w.solver.settings, st);
}
