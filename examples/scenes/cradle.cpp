// SPDX-License-Identifier: MIT
// Newton's cradle: five equal balls in a row, e = 1 (scenes.hpp, build_cradle). Writes
//   cradle.png            the balls every 0.1 s, time running downwards (1 mm gaps)
//   cradle-touching.png   the same with the balls touching: solved together, not a cradle
//   cradle.txt            velocities, momentum and kinetic energy before and after
//   cradle.tsv            the same after the runs, as a table
// and rewrites scenes.html. Usage: cradle [output-folder]
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "draw.hpp"
#include "output.hpp"
#include "scenes/scenes.hpp"

namespace {

using World = scenes::World<double, 2>;

/// Momentum along the row, sum m v_x.
double momentum(const World& w)
{
    double p = 0;
    for (std::size_t i = w.first_ball(); i < w.body_count(); ++i) p += w.v[i].x() / w.inv_mass[i];
    return p;
}

std::string velocities(const World& w)
{
    std::string s;
    char buf[32];
    for (std::size_t i = w.first_ball(); i < w.body_count(); ++i) {
        std::snprintf(buf, sizeof buf, "%s%.6f", s.empty() ? "" : " ", w.v[i].x() + 0.0);
        s += buf;
    }
    return s;
}

/// Runs the cradle for 2 s, drawing a row every 0.1 s; returns a summary, and adds the run's row
/// to `table` (gap, velocities after, momentum, kinetic energy).
std::string run(double gap, gfx::Canvas& strip, std::vector<std::vector<std::string>>& table)
{
    World w;
    scenes::build_cradle(w, gap);
    char buf[256];
    std::string out;
    std::snprintf(buf, sizeof buf, "gap %g m: before  v = %s   p = %.6f   KE = %.6f\n", gap, velocities(w).c_str(),
                  momentum(w), w.kinetic_energy());
    out += buf;
    const double scale = 40, row = 2 * 0.5 * scale + 6;
    for (int step = 0; step <= 120; ++step) {
        if (step % 6 == 0) {
            scenes::draw::View v;
            v.x0 = -1.0;
            v.y0 = -0.6;
            v.scale = scale;
            v.height = int(row * (step / 6 + 1));
            scenes::draw::rect(strip, 0, int(v.py(-0.5)), strip.width() - 1, int(v.py(-0.5)), scenes::draw::wall);
            for (std::size_t i = w.first_ball(); i < w.body_count(); ++i) {
                const double speed = std::abs(w.v[i].x());
                scenes::draw::disc(strip, v.px(w.x[i].x()), v.py(w.x[i].y()), 0.5 * scale - 1,
                                   scenes::draw::mix(scenes::draw::rest, scenes::draw::hot, speed));
            }
        }
        if (step < 120) w.step();
    }
    std::snprintf(buf, sizeof buf, "gap %g m: after   v = %s   p = %.6f   KE = %.6f\n", gap, velocities(w).c_str(),
                  momentum(w), w.kinetic_energy());
    out += buf;
    table.push_back({::page::formatted("%g m", gap), velocities(w), ::page::formatted("%.6f", momentum(w)),
                     ::page::formatted("%.6f", w.kinetic_energy())});
    return out;
}

}  // namespace

int main(int argc, char** argv)
{
    const auto dir = scenes::output::output_dir(argc, argv);
    const int width = 40 * 9, height = 21 * 46;
    gfx::Canvas gaps(width, height, scenes::draw::paper), touching(width, height, scenes::draw::paper);
    std::string text = "Newton's cradle: five balls, m = 1 kg, r = 0.5 m, e = 1, no gravity; ball 1 at 1 m/s.\n"
                       "Expected with gaps (each collision swaps velocities): v = 0 0 0 0 1, p = 1, KE = 0.5.\n"
                       "Touching (all contacts in one step): only the first contact approaches at the step's start and\n"
                       "bounces; the resting ones are solved inelastic: p = 1 still, KE lower, several balls move on.\n\n";
    std::vector<std::vector<std::string>> table = {
        {"gap", "velocities after (m/s)", "momentum (kg m/s)", "kinetic energy (J)"}};
    text += run(1e-3, gaps, table);
    text += run(0.0, touching, table);
    std::fputs(text.c_str(), stdout);
    bool ok = scenes::output::write_png(dir, "cradle.png", gaps);
    ok = scenes::output::write_png(dir, "cradle-touching.png", touching) && ok;
    ok = scenes::output::write_text(dir, "cradle.txt", text) && ok;
    ok = scenes::output::write_table(dir, "cradle.tsv", table) && ok;
    ok = scenes::output::write_page(dir) && ok;
    return ok ? 0 : 1;
}
