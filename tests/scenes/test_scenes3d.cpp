// SPDX-License-Identifier: MIT
// The 3D scenes of boxes and capsules (examples/common/scenes/scenes3d.hpp), at the defaults (60 Hz,
// 4 substeps), with the criteria of the issue that asked for them; each bound's reason is beside it.
// Every case runs on both of the solver's paths, in the order given and coloured (paths.hpp).
#include <algorithm>
#include <cmath>
#include <vector>

#include "catch.hpp"
#include "paths.hpp"
#include "scenes/scenes3d.hpp"

namespace {

using S = double;
using V = impulse::Vec<S, 3>;
using World = scenes::OnPath<scenes::World<S, 3>>;
constexpr double degree = 3.14159265358979323846 / 180;

/// The largest distance any movable body moved from `start`.
double largest_move(const World& w, const std::vector<V>& start)
{
    double d = 0;
    for (std::size_t i = w.first_ball(); i < w.body_count(); ++i) d = std::max(d, (w.x[i] - start[i]).norm());
    return d;
}

}  // namespace

PATHS_CASE("a stack of 10 unit cubes stands for 10 s: the top within 2 cm of its column and level within 1 degree",
           "[scenes][boxes3d]", "", "")
{
    World w(coloured);
    scenes::build_cube_stack(w, 10);
    for (int step = 0; step < 600; ++step) w.step();
    const std::size_t top = w.body_count() - 1;
    const double off = std::hypot(w.x[top].x(), w.x[top].z());  // the column is x = z = 0
    INFO("top: " << off << " m off its column, tilted " << scenes::tilt(w, top) / degree << " degrees, at y = "
                 << w.x[top].y());
    CHECK(w.finite());
    CHECK(off < 0.02);
    CHECK(scenes::tilt(w, top) < 1 * degree);
    CHECK(w.x[top].y() > 9);  // still the tenth cube up (it would be lower if the stack had fallen)
}

namespace {

/// A pyramid of cubes on a base x base square run for 10 s: the fastest cube at the end and the
/// largest distance any cube moved.
void check_pyramid(int base, bool coloured)
{
    // At rest: nothing faster than 1 cm/s at the end (the criterion). Stands: no cube moved
    // more than 5 cm, a twentieth of a side; a falling pyramid moves cubes by their size, while the
    // contact springs' sag is millimetres (each layer compresses by its load / (m_eff omega^2), and
    // g / omega^2 is 0.28 mm at 30 Hz).
    World w(coloured);
    scenes::build_cube_pyramid(w, base);
    REQUIRE(w.ball_count() == std::size_t(scenes::pyramid_cubes(base)));
    const std::vector<V> start = w.x;
    for (int step = 0; step < 600; ++step) w.step();
    INFO("base " << base << ": fastest " << w.max_speed() << " m/s, largest move " << largest_move(w, start) << " m");
    CHECK(w.finite());
    CHECK(w.max_speed() < 0.01);
    CHECK(largest_move(w, start) < 0.05);
}

}  // namespace

PATHS_CASE("a pyramid of cubes on a 6 x 6 base stands and is at rest after 10 s",
           "[scenes][boxes3d]", "", "")
{
    // The smallest pyramid that still has what makes the 10 x 10 one (385 cubes) hard: six
    // layers, inner cubes each on four below (four-point manifolds on quarter faces), the bottom
    // contacts carrying the whole weight. The 385-cube and 2870-cube pyramids run in the example
    // program (pyramid3d) and in the hidden test below.
    check_pyramid(6, coloured);
}

TEST_CASE("a pyramid of 385 cubes on a 10 x 10 base stands and is at rest after 10 s", "[.][scenes][pyramid385]")
{
    // The size; hidden from the CI suite for its run time (scene_checks "[pyramid385]").
    // In the order given only: the coloured path runs the 6 x 6 pyramid.
    check_pyramid(10, false);
}

namespace {

/// The mass-ratio scene run for 10 s: the heavy cube's deepest overlap into the small cubes' tops,
/// how far the small ones moved and tilted.
struct Crushed {
    double sink{0}, moved{0}, tilted{0};
};

Crushed crush(double small, double big, bool coloured)
{
    World w(coloured);
    const std::uint32_t heavy = scenes::build_mass_ratio(w, small, big);
    const std::vector<V> start = w.x;
    Crushed r;
    for (int step = 0; step < 600; ++step) {
        w.step();
        r.sink = std::max(r.sink, small - (w.x[heavy].y() - big / 2));  // small tops at y = small
    }
    for (std::uint32_t i = w.first_ball(); i < heavy; ++i) {
        r.moved = std::max(r.moved, (w.x[i] - start[i]).norm());
        r.tilted = std::max(r.tilted, scenes::tilt(w, i));
    }
    CHECK(w.finite());
    return r;
}

}  // namespace

PATHS_CASE("a cube 100 times denser resting on four cubes pushes none of them through",
           "[scenes][boxes3d]", "", "")
{
    // 100 kg on four 1 kg cubes, a quarter of each one's top (scenes3d.hpp). Each small cube carries
    // 25 g = 245 N. Heavy on light (SolverSettings::shock_propagation, on by default): the heavy cube
    // rests on the small ones as on the ground, and their contacts are stiffened by their load to
    // sink g / omega^2 (0.28 mm at 30 Hz); the soft step alone gives a spring of m_eff omega^2 with
    // m_eff about 1.4 kg over its four points (per point 1 / (1/100 + 1 + about 1.8 of rotation)):
    // about 5 mm. Not pushed through: the heavy cube sinks less than 5 cm into the small ones (ten
    // times the soft step's estimate, a twentieth of a side), and each small cube stays where it
    // stood (within 5 cm) and level (within 1 degree). Measured: 0.09 mm, 5.3 mm, 0.002 degrees.
    const Crushed r = crush(1, 1, coloured);
    INFO("heavy cube sank " << r.sink << " m into the small ones; they moved " << r.moved << " m, tilted "
                            << r.tilted / degree << " degrees");
    CHECK(r.sink < 0.05);
    CHECK(r.moved < 0.05);
    CHECK(r.tilted < 1 * degree);
}

PATHS_CASE("a 2 m cube 100 times denser covering four 0.5 m cubes pushes none of them through",
           "[scenes][boxes3d]", "", "")
{
    // 800 kg on four 0.125 kg cubes: 6400 to 1. The same criteria as above, with a quarter of the small
    // side for the sinking. The soft step alone fails it: its contact is a spring of stiffness
    // m_eff omega^2 with m_eff the light cube's (per point about 1 / (8 + 24) kg: its mass and its
    // rotation), so the 1962 N each small cube carries compresses it by about
    // 1962 / (0.125 * 188^2) = 0.44 m, nearly the small cube's 0.5 m: the heavy cube sinks through
    // them and they are squeezed out (measured with shock_propagation off: the heavy cube reaches the
    // floor, the small cubes pushed 0.48 m aside). With it (the default) the heavy cube rests on them
    // as on the ground. Measured: sunk 0.07 mm, the small cubes moved 2.0 cm, tilted 0.005 degrees.
    const Crushed r = crush(0.5, 2, coloured);
    INFO("heavy cube sank " << r.sink << " m into the small ones; they moved " << r.moved << " m, tilted "
                            << r.tilted / degree << " degrees");
    CHECK(r.sink < 0.125);
    CHECK(r.moved < 0.05);
    CHECK(r.tilted < 1 * degree);
}

PATHS_CASE("one push topples 30 dominoes, each after the one before it",
           "[scenes][boxes3d]", "", "")
{
    // A domino 0.1 m thick and 1 m tall tips over past atan(0.1 / 1) = 5.7 degrees; one leaning on an
    // upright neighbour 0.5 m on rests at asin(0.45 / 1) = 26.7 degrees or more. So "toppled" is
    // leaning past 20 degrees: beyond tipping, short of the least lean of a fallen row. All 30 must
    // topple, in order, within 20 s (the wave runs at a few metres per second along 15 m).
    World w(coloured);
    scenes::DominoSpec<S> d;
    scenes::build_dominoes(w, d);
    scenes::Topple<S> topple;
    for (int step = 1; step <= 1200; ++step) {
        w.step();
        topple.watch(w, step * w.dt, 20 * degree);
    }
    int fallen = 0, in_order = 1;
    for (std::size_t k = 0; k < topple.when.size(); ++k) {
        if (topple.when[k] >= 0) ++fallen;
        if (k > 0 && topple.when[k] >= 0 && topple.when[k] > topple.when[k - 1]) ++in_order;
    }
    INFO(fallen << " toppled, " << in_order << " in order; the last at " << topple.when.back() << " s");
    CHECK(w.finite());
    CHECK(fallen == d.count);
    CHECK(in_order == d.count);
}

PATHS_CASE("a capsule rolls down a ramp and rolling resistance stops it on the flat, within its energy",
           "[scenes][boxes3d]", "", "")
{
    // Rolling without slipping, rolling resistance takes c N per radian turned, c = `rolling` (the
    // normal force's lever arm): over a distance d at normal force N it takes c N d / r. The capsule
    // starts at rest with its centre H = height + r cos(a) up; on the slope N = m g cos a over
    // L = height / sin a, on the flat N = m g. Its energy m g (H - r) runs out at the latest when
    //   g (H - r) = c g cos(a) L / r + c g d / r   ->   d_max = r (H - r) / c - cos(a) L,
    // measured from the foot of the slope along the floor (the kink where slope meets floor only
    // takes energy, so it stops sooner). At rest: slower than 1 mm/s. Rolling: its axis stays across
    // the slope (within 1 degree of z) and it spins at v / r while it rolls.
    World w(coloured);
    scenes::RampSpec<S> p;
    const std::uint32_t c = scenes::build_ramp(w, p);
    const double H = w.x[c].y(), L = p.height / std::sin(p.slope);
    const double d_max = p.radius * (H - p.radius) / p.rolling - std::cos(p.slope) * L;
    double worst_axis = 0, worst_roll = 0;
    for (int step = 0; step < 1800; ++step) {
        w.step();
        const V axis = w.q[c] * V::UnitX();
        worst_axis = std::max(worst_axis, std::acos(std::min(1.0, std::abs(axis.z()))));
        const double v = w.v[c].norm();
        if (v > 0.2) worst_roll = std::max(worst_roll, std::abs(w.omega[c].norm() * p.radius - v) / v);
    }
    INFO("stopped at x = " << w.x[c].x() << " m (at most " << d_max << " m), speed " << w.v[c].norm()
                           << " m/s; axis off z by " << worst_axis / degree << " degrees; rolling slip "
                           << worst_roll);
    CHECK(w.finite());
    CHECK(w.x[c].x() > 0);            // it reached the flat
    CHECK(w.x[c].x() < d_max);        // no farther than its energy allows
    CHECK(w.v[c].norm() < 0.001);     // at rest
    CHECK(worst_axis < 1 * degree);
    CHECK(worst_roll < 0.05);         // omega r = v within 5%: rolling, not sliding
}

PATHS_CASE("a T-handle spun about its intermediate axis flips with the period of Euler's equations",
           "[scenes][boxes3d]", "", "")
{
    // The reference: Euler's equations for the same moments and start, integrated by RK4 at 1e-4 s
    // (its error, of order h^4, is far below the 10% compared). The time between flips (sign changes
    // of the x component of omega in body axes) must be within 10% of the reference's (the issue's
    // criterion), over 12 s: three flips.
    World w(coloured);
    const std::uint32_t i = scenes::build_t_handle(w);
    const V I = scenes::t_handle_inertia<S>();
    const double dt = w.dt;
    std::vector<double> got{w.omega[i].x()}, ref{w.omega[i].x()};
    V ref_w = w.omega[i];
    for (int step = 0; step < 720; ++step) {
        w.step();
        got.push_back((w.q[i].conjugate() * w.omega[i]).x());
        for (int k = 0; k < 167; ++k) ref_w = scenes::euler_rk4(ref_w, I, dt / 167);
        ref.push_back(ref_w.x());
    }
    const auto flips = scenes::sign_changes(got, dt), ref_flips = scenes::sign_changes(ref, dt);
    INFO(flips.size() << " flips " << scenes::mean_interval(flips) << " s apart; reference " << ref_flips.size()
                      << " flips " << scenes::mean_interval(ref_flips) << " s apart");
    REQUIRE(ref_flips.size() >= 3);
    REQUIRE(flips.size() >= 3);
    CHECK(std::abs(scenes::mean_interval(flips) - scenes::mean_interval(ref_flips)) < 0.1 * scenes::mean_interval(ref_flips));
}

PATHS_CASE("the world's 3D pairs rest where they touch: box, capsule and sphere on a static box, a sphere on a box",
           "[scenes][boxes3d]", "", "")
{
    // Each shape dropped from 10 cm onto the top face (y = 0) of a static box 10 x 1 x 10 m, and a
    // ball (added before the box it rests on, so the pair is collided box-first and flipped). After
    // 2 s each rests where it touches: its lowest point within 1 mm of the surface below it (the
    // contact springs' sag is g / omega^2 = 0.07 mm against a static body at 60 Hz, 0.3 mm between
    // movable bodies at 30 Hz, times the load's share) and slower than 1 mm/s.
    World w(coloured);
    scenes::box_material(w, 0.6);
    w.lo = V(-5, -1, -5);
    w.hi = V(5, 3, 5);
    w.add_static_box(V(5, 0.5, 5), V(0, -0.5, 0));
    const std::uint32_t ball_on_box = w.add_ball(V(-2, 1.0 + 0.3 + 0.1, 0), 0.3, 1.0);  // on the box below
    const std::uint32_t box = w.add_box(V(0.5, 0.5, 0.5), V(-2, 0.6, 0), 1.0);
    const std::uint32_t capsule = w.add_capsule(1.0, 0.25, V(0, 0.35, 0), 1.0);
    const std::uint32_t ball = w.add_ball(V(2, 0.4, 0), 0.3, 1.0);
    for (int step = 0; step < 120; ++step) w.step();
    CHECK(w.finite());
    CHECK(std::abs(w.x[box].y() - 0.5) < 0.001);
    CHECK(std::abs(w.x[capsule].y() - 0.25) < 0.001);
    CHECK(std::abs(w.x[ball].y() - 0.3) < 0.001);
    CHECK(std::abs(w.x[ball_on_box].y() - (w.x[box].y() + 0.5 + 0.3)) < 0.001);
    CHECK(w.max_speed() < 0.001);
    CHECK(std::abs(w.x[ball_on_box].x() - -2) < 0.01);  // stayed on the box's top
}

PATHS_CASE("a column of 20 cubes stands when its contacts are stiff enough not to buckle",
           "[scenes][boxes3d]", "", "")
{
    // docs/solver.md, tall stacks: a joint of four soft points at +-0.5 m resists tilting with
    // K = 4 m_eff (2 pi f)^2 (0.5)^2, m_eff about 1/8 kg per corner point of a unit cube; the cubes
    // above tip it, and over a column of n the overturning compliance is about g n^3 / (6 K). For
    // n = 20 that is 2.97 at the default 30 Hz (the column falls over) and 0.74 at 60 Hz, which
    // needs 8 substeps (the stiffness is capped at a quarter of the substep rate). At 60 Hz it must
    // stand: after 20 s the top within 2 cm of its column and level within 1 degree.
    World w(coloured);
    scenes::build_cube_stack(w, 20);
    w.solver.settings.contact_hertz = 60;
    w.solver.settings.substeps = 8;
    for (int step = 0; step < 1200; ++step) w.step();
    const std::size_t top = w.body_count() - 1;
    const double off = std::hypot(w.x[top].x(), w.x[top].z());
    INFO("top: " << off << " m off its column, tilted " << scenes::tilt(w, top) / degree << " degrees");
    CHECK(off < 0.02);
    CHECK(scenes::tilt(w, top) < 1 * degree);
}

PATHS_CASE("a column of 20 cubes stands at the default 30 Hz contacts when the world recycles them",
           "[scenes][boxes3d]", "", "")
{
    // docs/solver.md, tall stacks and contact recycling: at 30 Hz the column's overturning
    // compliance g n^3 / (6 K) is 2.97 for n = 20, and collided anew each step it falls (16 cubes
    // already do). With the world's contact recycling (on by default) the anchors are kept while a
    // pair moves less than 2 mm, and the same column must stand by the criterion of the 60 Hz test
    // above: after 20 s the top within 2 cm of its column and level within 1 degree.
    World w(coloured);
    scenes::build_cube_stack(w, 20);
    REQUIRE(w.recycle);
    for (int step = 0; step < 1200; ++step) w.step();
    const std::size_t top = w.body_count() - 1;
    const double off = std::hypot(w.x[top].x(), w.x[top].z());
    INFO("top: " << off << " m off its column, tilted " << scenes::tilt(w, top) / degree << " degrees");
    CHECK(off < 0.02);
    CHECK(scenes::tilt(w, top) < 1 * degree);
}

PATHS_CASE("a ball thrown onto the floor lands and rolls at the speed its angular momentum about the contact allows",
           "[scenes][boxes3d]", "", "")
{
    // A ball (r = 0.5 m) dropped from 5 cm with v0 = 2 m/s along x and spin w0 about z. The contact's
    // impulses act at the contact point and gravity through it, so the angular momentum about that
    // point, L = -m r v + I w (I = 2/5 m r^2), is kept through landing and skidding until it rolls
    // (w = -v / r): v = (v0 - (2/5) r w0) / (7/5) = (5 v0 - 2 r w0) / 7. Without spin 5/7 of v0
    // (1.4286 m/s); with 2 rad/s of backspin 8/7 m/s. After 2 s each must roll at that speed within 1%.
    World w(coloured);
    scenes::box_material(w, 0.6);
    w.add_wall(V::UnitY(), 0);
    w.lo = V(-1, 0, -1);
    w.hi = V(8, 2, 4);
    const std::uint32_t plain = w.add_ball(V(0, 0.55, 0), 0.5, 1.0, V(2, 0, 0));
    const std::uint32_t spun = w.add_ball(V(0, 0.55, 3), 0.5, 1.0, V(2, 0, 0));
    w.omega[spun] = V(0, 0, 2);
    for (int step = 0; step < 120; ++step) w.step();
    INFO("rolling at " << w.v[plain].x() << " and " << w.v[spun].x() << " m/s");
    CHECK(w.v[plain].x() == Approx(5.0 * 2 / 7).epsilon(0.01));
    CHECK(w.v[spun].x() == Approx((5.0 * 2 - 2 * 0.5 * 2) / 7).epsilon(0.01));
    CHECK(std::abs(w.omega[spun].z() * 0.5 + w.v[spun].x()) < 0.01 * w.v[spun].x());  // rolling: w r = -v
}
