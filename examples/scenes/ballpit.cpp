// SPDX-License-Identifier: MIT
// The ball pit: 2000 circles poured into a 32 m box and left to settle (scenes.hpp). Writes
//   ballpit.png   four moments: 2.5 s, 5 s, 7.5 s, and settled (5 s after the last layer)
//   ballpit.txt   escapes, overlap after settling, kinetic energy at rest, energy drift
// and rewrites scenes.html. Usage: ballpit [output-folder]
#include <cstdio>
#include <string>

#include "draw.hpp"
#include "output.hpp"
#include "scenes/scenes.hpp"

namespace {

using S = double;
using World = scenes::World<S, 2>;

/// Draws the box and its balls into one panel of the picture.
void panel(gfx::Canvas& c, const World& w, const scenes::PitSpec<S>& p, int left, int top, double scale, int h)
{
    scenes::draw::View v;
    v.x0 = -0.5;
    v.y0 = -0.5;
    v.scale = scale;
    v.left = left;
    v.height = top + h;
    const int floor = int(v.py(0)), x0 = int(v.px(0)), x1 = int(v.px(p.width));
    scenes::draw::rect(c, x0 - 3, floor, x1 + 3, floor + 3, scenes::draw::wall);
    scenes::draw::rect(c, x0 - 3, top + 4, x0 - 1, floor, scenes::draw::wall);
    scenes::draw::rect(c, x1 + 1, top + 4, x1 + 3, floor, scenes::draw::wall);
    const double n = double(p.count);
    for (std::size_t i = w.first_ball(); i < w.body_count(); ++i) {
        const double order = double(i - w.first_ball()) / n;
        scenes::draw::disc(c, v.px(w.x[i].x()), v.py(w.x[i].y()), w.radius[i] * scale, scenes::draw::ramp(order));
    }
}

}  // namespace

int main(int argc, char** argv)
{
    const auto dir = scenes::output::output_dir(argc, argv);
    scenes::PitSpec<S> p;  // 2000 circles, r 0.2-0.3 m, 32 m box, e = 0.2, mu = 0.4
    World w;
    scenes::build_box(w, p);

    const double scale = 15;
    const int pw = int((p.width + 1) * scale), ph = int(20 * scale);
    gfx::Canvas pic(2 * pw, 2 * ph, scenes::draw::paper);
    const int snaps[] = {150, 300, 450};  // 2.5 s, 5 s, 7.5 s
    int next = 0;
    const int settle = 300;  // 5 s after the last layer
    const scenes::PitStats<S> st = scenes::run_pit(w, p, settle, 60, [&](int step, const World& world) {
        if (next < 3 && step + 1 == snaps[next]) {
            panel(pic, world, p, (next % 2) * pw, (next / 2) * ph, scale, ph);
            ++next;
        }
    });
    panel(pic, w, p, pw, ph, scale, ph);
    gfx::scale_bar(pic, 20, 40, scale, 5, scenes::draw::wall);  // above the first panel's balls

    char headline[256];
    std::snprintf(headline, sizeof headline,
                  "Ball pit: %zu circles, radius %.1f-%.1f m, density 1, in a box %.0f m wide; e = %.1f (none below "
                  "%.0f m/s), mu = %.1f;\n",
                  p.count, p.rmin, p.rmax, p.width, p.restitution, p.threshold, p.friction);
    return scenes::output::finish_pit(dir, "ballpit", pic, headline, p, settle, w.solver.settings, st);
}
