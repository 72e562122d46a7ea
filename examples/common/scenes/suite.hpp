// SPDX-License-Identifier: MIT
// The scene suite of the field, in 2D: the setups of Catto's Solver2D study (its samples/collection
// scenes), each with the measurement its pass criterion needs, over the scenes' world (world.hpp).
// Shared by the scene programs (examples/scenes/: stacks, massratio, recovery, cardhouse, surfaces),
// which run them at full size and draw them, and the scene tests (tests/scenes/test_suite.cpp), which
// check the criteria, some at a smaller size.
//
//   vertical stack      n unit boxes placed touching
//   box pyramid         scenes.hpp's build_box_pyramid (Box2D's benchmark brick pattern)
//   high mass ratio     three pyramids with 100, 200, 300 times denser top boxes; a box of 400
//                       times the mass on two small boxes, on thin and on thick ground
//   overlap recovery    a pyramid of boxes started 25% overlapping
//   confined            625 circles started overlapping in a box too small for them, no gravity
//   card house          cards 2 mm thick leaning on each other, friction 0.7
//   friction ramp       boxes of friction 0 to 0.8 dropped onto 30-degree ramps
//   restitution         balls of e = 0 to 1 dropped onto a floor of e = 0
//   rolling resistance  a ball rolling at 2 m/s until rolling resistance stops it
//   conveyor            a box carried by a belt whose surface moves at 2 m/s
//
// Every scene runs at the solver's default settings at 60 Hz; the criteria are in suite::bounds.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <impulse/impulse.hpp>

#include "scenes.hpp"
#include "world.hpp"

namespace scenes::suite {

template <class S>
using V2 = impulse::Vec<S, 2>;

/// The pass criteria, as stated for the scene suite (the solver's issue, item 5). Lengths in metres,
/// speeds in m/s, times in seconds.
namespace bounds {
inline constexpr double at_rest = 0.01;               ///< "nothing faster than 1 cm/s"
inline constexpr double stack_column = 0.02;          ///< stack: top within 2 cm of its column
inline constexpr double stack_sink_per_box = 0.02;    ///< stack: sunk <= 2 cm per box below ideal height
inline constexpr double pyramid20_top = 0.05;         ///< pyramid base 20: top within 5 cm of its start
inline constexpr double pyramid100_top = 1.0;         ///< pyramid base 100: top within 1 m of its start
inline constexpr double mass_ratio_moved = 0.2;       ///< no box moved more than 0.2 m from where placed
inline constexpr double mass_ratio_small_sink = 0.02; ///< small boxes sunk <= 2 cm into the ground
inline constexpr double recovered_overlap = 0.01;     ///< overlap recovery: deepest overlap below 1 cm ...
inline constexpr double recovered_within = 1.0;       ///< ... within 1 s
inline constexpr double confined_speed = 5.0;         ///< confined: no body ever faster than 5 m/s
inline constexpr double card_top = 0.05;              ///< card house: top cards within 5 cm of their start
inline constexpr double ramp_stop_within = 1.0;       ///< ramp: mu > tan 30 stops within 1 s
inline constexpr double ramp_acceleration = 0.05;     ///< ramp: slides at g (sin 30 - mu cos 30) within 5%
inline constexpr double apex_relative = 0.05;         ///< restitution: apex within 5% of e^2 h ...
inline constexpr double apex_absolute = 0.02;         ///< ... or 2 cm, whichever is larger
inline constexpr double rolling = 0.02;               ///< rolling: stops when and where predicted, within 2%
inline constexpr double conveyor = 0.02;              ///< conveyor: moves at the belt's speed within 2%
}  // namespace bounds

inline constexpr double g = 9.81;  ///< gravity of every scene that has it, m/s^2

// ---------------------------------------------------------------------------------------------
// Measurements

/// The fastest any point of a movable body moves: |v| + |omega| r over the movable bodies, r the
/// radius of the body's bounding circle (no point of the body moves faster than that).
template <class S>
S fastest_point(const World<S, 2>& w)
{
    S s = S(0);
    for (std::size_t i = w.first_ball(); i < w.body_count(); ++i)
        s = std::max(s, w.v[i].norm() + std::abs(w.omega[i]) * w.radius[i]);
    return s;
}

/// The lowest point of body i: its lowest vertex (polygons, less any rounding), or its centre less
/// its radius (balls).
template <class S>
S lowest(const World<S, 2>& w, std::size_t i)
{
    if (w.polygon[i] < 0) return w.x[i].y() - w.radius[i];
    const impulse::Polygon<S>& p = w.polygons[std::size_t(w.polygon[i])];
    S y = std::numeric_limits<S>::max();
    for (int k = 0; k < p.count; ++k) y = std::min(y, w.x[i].y() + w.q[i].rotate(p.vertices[k]).y() - p.radius);
    return y;
}

/// What a step did to its contacts: how fast their surfaces separate, measured two ways over the
/// contacts the step solved (World::contacts()), and how fast the bodies moved. Call before() before
/// each step and after() after it.
///   - relative normal speed: n.(vB + wB x rB - vA - wA x rA) at each point after the step, with the
///     anchors turned by the bodies' rotation in the step;
///   - separation speed: (s_after - s_before) / dt, the separation after the step from the bodies'
///     pose change, s_after = s + n.(dxB - dxA + (rB' - rB) - (rA' - rA)) (what a push moved, even
///     when relaxing has taken the push's speed away again);
///   - body speed: |v| after the step, and |dx| / dt over it.
template <class S>
class StepMonitor {
public:
    S separating{0};       ///< largest relative normal speed of a separating point, any step so far
    S separation_rate{0};  ///< largest (s_after - s_before) / dt of a point, any step so far
    S body_speed{0};       ///< largest |v| of a movable body after a step
    S body_travel{0};      ///< largest |dx| / dt of a movable body over a step

    void before(const World<S, 2>& w)
    {
        x_ = w.x;
        q_ = w.q;
    }

    void after(const World<S, 2>& w)
    {
        for (const auto& c : w.contacts()) {
            const impulse::Rot2<S> da = w.q[c.a] * q_[c.a].inverse(), db = w.q[c.b] * q_[c.b].inverse();
            const V2<S> dxa = w.x[c.a] - x_[c.a], dxb = w.x[c.b] - x_[c.b];
            for (int k = 0; k < c.count; ++k) {
                const auto& p = c.points[k];
                const V2<S> ra = da.rotate(p.rA), rb = db.rotate(p.rB);
                const V2<S> va = w.v[c.a] + w.omega[c.a] * V2<S>(-ra.y(), ra.x());
                const V2<S> vb = w.v[c.b] + w.omega[c.b] * V2<S>(-rb.y(), rb.x());
                separating = std::max(separating, c.n.dot(vb - va));
                const S moved = c.n.dot(dxb - dxa + (rb - p.rB) - (ra - p.rA));
                separation_rate = std::max(separation_rate, moved / w.dt);
            }
        }
        for (std::size_t i = w.first_ball(); i < w.body_count(); ++i) {
            body_speed = std::max(body_speed, w.v[i].norm());
            body_travel = std::max(body_travel, (w.x[i] - x_[i]).norm() / w.dt);
        }
    }

private:
    std::vector<V2<S>> x_;
    std::vector<impulse::Rot2<S>> q_;
};

/// A segment from a to b (a static polygon of two vertices, no thickness): Solver2D's thin ground.
template <class S>
impulse::Polygon<S> segment(const V2<S>& a, const V2<S>& b)
{
    impulse::Polygon<S> p;
    p.count = 2;
    p.vertices[0] = a;
    p.vertices[1] = b;
    impulse::detail::finish_polygon(p);
    return p;
}

/// Gravity -g y, no restitution (threshold 1 m/s, Box2D's default), friction mu for every pair.
template <class S>
void standard(World<S, 2>& w, S mu)
{
    w.solver.settings.gravity = V2<S>(S(0), -S(g));
    w.coefficients = impulse::Coefficients<S>{};
    w.coefficients.friction = mu;
    w.coefficients.threshold = S(1);
}

// ---------------------------------------------------------------------------------------------
// Vertical stack

/// Solver2D's vertical stack, placed touching: `n` boxes of 1 m (half extent 0.5, density 1) on the
/// static ground box 200 m x 2 m whose top is y = 0, box i centred at y = 0.5 + i and shifted 1 cm
/// sideways, to alternate sides (even i to -x, odd i to +x), as Solver2D does, so the column is not
/// perfect. Friction 0.3 (Solver2D's), e = 0.
template <class S>
void build_vertical_stack(World<S, 2>& w, int n)
{
    standard(w, S(0.3));
    w.add_static_polygon(impulse::make_box(S(100), S(1)), V2<S>(S(0), S(-1)));
    w.lo = V2<S>(S(-5), S(-1));
    w.hi = V2<S>(S(5), S(n) + S(1));
    w.reserve(std::size_t(n));
    const impulse::Polygon<S> box = impulse::make_box(S(0.5), S(0.5));
    for (int i = 0; i < n; ++i) w.add_polygon(box, V2<S>(i % 2 == 0 ? S(-0.01) : S(0.01), S(0.5) + S(i)), S(1));
}

/// What a stack did.
template <class S>
struct StackResult {
    S drift{0};    ///< how far the top box moved sideways from where it started (its column)
    S sink{0};     ///< how far the top box is below its ideal height n - 0.5 (every box touching)
    S fastest{0};  ///< the fastest point of any box at the end
};

/// Runs a stack built by build_vertical_stack(w, n) for `steps` steps; frame(step, w) after each.
template <class S, class Frame>
StackResult<S> run_vertical_stack(World<S, 2>& w, int n, int steps, Frame&& frame)
{
    const V2<S> start = w.x.back();
    for (int step = 0; step < steps; ++step) {
        w.step();
        frame(step, w);
    }
    StackResult<S> r;
    r.drift = std::abs(w.x.back().x() - start.x());
    r.sink = S(n) - S(0.5) - w.x.back().y();
    r.fastest = fastest_point(w);
    return r;
}

// ---------------------------------------------------------------------------------------------
// The box pyramid (scenes.hpp: build_box_pyramid)

/// What a pyramid did.
template <class S>
struct PyramidResult {
    S top_moved{0};  ///< how far the top box is from where it started
    S top_drop{0};   ///< how far it sank
    S fastest{0};    ///< the fastest point of any box at the end
};

/// Runs a pyramid built by build_box_pyramid for `steps` steps; frame(step, w) after each.
template <class S, class Frame>
PyramidResult<S> run_box_pyramid(World<S, 2>& w, int steps, Frame&& frame)
{
    const V2<S> start = w.x.back();  // the top box is the last one placed
    for (int step = 0; step < steps; ++step) {
        w.step();
        frame(step, w);
    }
    PyramidResult<S> r;
    r.top_moved = (w.x.back() - start).norm();
    r.top_drop = start.y() - w.x.back().y();
    r.fastest = fastest_point(w);
    return r;
}

// ---------------------------------------------------------------------------------------------
// High mass ratio

/// A mass-ratio scene: which boxes are heavy, which are the small ones under them, and the height
/// each heavy box has when it rests on the boxes below (its start when placed resting).
template <class S>
struct MassRatioScene {
    std::vector<std::uint32_t> heavy, small;
    std::vector<S> rest_height;  ///< per heavy box
};

/// Solver2D's HighMassRatio1: three pyramids of base 10 of 2 m boxes (half extent 1, density 1) in
/// the brick pattern, 22 m apart, on a thin ground (a segment 132 m long at y = 0); the single box on
/// top of pyramid j (j = 1, 2, 3) has density 100 j: 100, 200 and 300 times the mass of each box
/// under it. Friction 0.5, e = 0. Placed resting (every box touching the row below) or, `dropped`,
/// with the top boxes 2 m higher, as Solver2D starts them. The ordinary boxes are the `small` ones.
template <class S>
MassRatioScene<S> build_mass_ratio_pyramids(World<S, 2>& w, bool dropped)
{
    standard(w, S(0.5));
    w.add_static_polygon(segment(V2<S>(S(-66), S(0)), V2<S>(S(66), S(0))), V2<S>::Zero());
    w.lo = V2<S>(S(-32), S(-1));
    w.hi = V2<S>(S(36), S(24));
    w.reserve(3 * 55);
    MassRatioScene<S> scene;
    const impulse::Polygon<S> box = impulse::make_box(S(1), S(1));
    for (int j = 0; j < 3; ++j) {
        const S offset = S(-20) + S(22) * S(j);
        S y = S(1);
        for (int count = 10; count > 0; --count, y += S(2)) {
            for (int i = 0; i < count; ++i) {
                const S x = S(2) * (S(i) - S(0.5) * S(count)) + offset;
                if (count == 1) {
                    scene.heavy.push_back(w.add_polygon(box, V2<S>(x, y + (dropped ? S(2) : S(0))), S(100) * S(j + 1)));
                    scene.rest_height.push_back(y);
                } else {
                    scene.small.push_back(w.add_polygon(box, V2<S>(x, y), S(1)));
                }
            }
        }
    }
    return scene;
}

/// Solver2D's HighMassRatio2 (thin ground: a segment 40 m long at y = 0) and HighMassRatio3 (`thick`
/// ground: a static box 80 m x 4 m whose top is y = 0): a box of 20 m (half extent 10, density 1,
/// mass 400) on two boxes of 1 m (mass 1) 18 m apart: 400 times the mass of each. Friction 0.6, e = 0.
/// Placed resting (the big box on the small ones, touching) or, `dropped`, with its bottom 15 m
/// above them, as Solver2D starts it.
template <class S>
MassRatioScene<S> build_big_on_small(World<S, 2>& w, bool thick, bool dropped)
{
    standard(w, S(0.6));
    if (thick) w.add_static_polygon(impulse::make_box(S(40), S(2)), V2<S>(S(0), S(-2)));
    else w.add_static_polygon(segment(V2<S>(S(-20), S(0)), V2<S>(S(20), S(0))), V2<S>::Zero());
    w.lo = V2<S>(S(-12), S(-1));
    w.hi = V2<S>(S(12), S(37));
    MassRatioScene<S> scene;
    const impulse::Polygon<S> small = impulse::make_box(S(0.5), S(0.5));
    scene.small.push_back(w.add_polygon(small, V2<S>(S(-9), S(0.5)), S(1)));
    scene.small.push_back(w.add_polygon(small, V2<S>(S(9), S(0.5)), S(1)));
    scene.heavy.push_back(w.add_polygon(impulse::make_box(S(10), S(10)), V2<S>(S(0), dropped ? S(26) : S(11)), S(1)));
    scene.rest_height.push_back(S(11));
    return scene;
}

/// What a mass-ratio scene did.
template <class S>
struct MassRatioResult {
    S fastest_late{0};   ///< the fastest point of any box over the steps from `late_step` on
    S moved{0};          ///< the farthest any box got from where it was placed, any step
    S small_sink{0};     ///< the deepest any small box reached below the ground's top (y = 0), any step
    S small_sink_end{0}; ///< the same at the end
    S small_moved{0};    ///< the farthest a small box got from where it was placed, any step
    S heavy_sink{0};     ///< the most a heavy box is below its resting height at the end
};

/// Runs a mass-ratio scene for `steps` steps, frame(step, w) after each; speeds are measured from
/// step `late_step` on.
template <class S, class Frame>
MassRatioResult<S> run_mass_ratio(World<S, 2>& w, const MassRatioScene<S>& scene, int steps, int late_step, Frame&& frame)
{
    const std::vector<V2<S>> start = w.x;
    MassRatioResult<S> r;
    for (int step = 0; step < steps; ++step) {
        w.step();
        frame(step, w);
        for (std::size_t i = w.first_ball(); i < w.body_count(); ++i) r.moved = std::max(r.moved, (w.x[i] - start[i]).norm());
        for (std::uint32_t i : scene.small) {
            r.small_sink = std::max(r.small_sink, -lowest(w, i));
            r.small_moved = std::max(r.small_moved, (w.x[i] - start[i]).norm());
        }
        if (step + 1 >= late_step) r.fastest_late = std::max(r.fastest_late, fastest_point(w));
    }
    for (std::uint32_t i : scene.small) r.small_sink_end = std::max(r.small_sink_end, -lowest(w, i));
    for (std::size_t k = 0; k < scene.heavy.size(); ++k)
        r.heavy_sink = std::max(r.heavy_sink, scene.rest_height[k] - w.x[scene.heavy[k]].y());
    return r;
}

// ---------------------------------------------------------------------------------------------
// Overlap recovery

/// Solver2D's OverlapRecovery: a pyramid of base 4 of unit boxes (half extent 0.5, density 1) whose
/// neighbours overlap by a quarter of their size: boxes 0.75 m apart in a row, rows 0.75 m apart,
/// the bottom row resting on a thin ground (a segment 80 m long at y = 0). Friction 0.6, e = 0.
template <class S>
void build_overlap_recovery(World<S, 2>& w)
{
    standard(w, S(0.6));
    w.add_static_polygon(segment(V2<S>(S(-40), S(0)), V2<S>(S(40), S(0))), V2<S>::Zero());
    w.lo = V2<S>(S(-4), S(-1));
    w.hi = V2<S>(S(3), S(5));
    const int base = 4;
    const S extent = S(0.5), fraction = S(0.75);  // 1 - overlap
    const impulse::Polygon<S> box = impulse::make_box(extent, extent);
    S y = extent;
    for (int i = 0; i < base; ++i, y += S(2) * fraction * extent) {
        S x = fraction * extent * S(i - base);
        for (int j = i; j < base; ++j, x += S(2) * fraction * extent) w.add_polygon(box, V2<S>(x, y), S(1));
    }
}

/// What the overlap recovery did.
template <class S>
struct RecoveryResult {
    S start_overlap{0};   ///< the deepest overlap at the start
    S recovered_at{0};    ///< the time after which the deepest overlap stays below 1 cm
    S overlap_end{0};     ///< the deepest overlap at the end
    S separating{0};      ///< StepMonitor::separating
    S separation_rate{0}; ///< StepMonitor::separation_rate
    S fastest{0};         ///< the fastest point of any box at the end
};

/// Runs the overlap recovery for `steps` steps; frame(step, w) after each.
template <class S, class Frame>
RecoveryResult<S> run_overlap_recovery(World<S, 2>& w, int steps, Frame&& frame)
{
    RecoveryResult<S> r;
    w.find_contacts();
    r.start_overlap = w.overlap().max;
    StepMonitor<S> monitor;
    for (int step = 0; step < steps; ++step) {
        monitor.before(w);
        w.step();
        monitor.after(w);
        w.find_contacts();  // the overlap at the new poses
        r.overlap_end = w.overlap().max;
        if (!(r.overlap_end < S(bounds::recovered_overlap))) r.recovered_at = S(step + 1) * w.dt;
        frame(step, w);
    }
    r.separating = monitor.separating;
    r.separation_rate = monitor.separation_rate;
    r.fastest = fastest_point(w);
    return r;
}

// ---------------------------------------------------------------------------------------------
// Confined

/// Solver2D's Confined: 625 circles of radius 0.5 (density 1, friction 0.6) on a 25 x 25 grid 0.72 m
/// apart (overlapping their neighbours by 0.28 m), in a closed box x in [-10, 10], y in [0.5, 20]
/// (planes along the inner faces of Solver2D's capsule walls), no gravity. The box holds 390 m^2,
/// the circles' area is 491 m^2: they cannot all fit without overlap.
/// `grid` < 25 builds the lower left grid x grid corner of the same lattice in a box shrunk by the
/// same factor along each side (the same crowding, fewer circles).
template <class S>
void build_confined(World<S, 2>& w, int grid = 25)
{
    w.solver.settings.gravity = V2<S>::Zero();
    w.coefficients = impulse::Coefficients<S>{};
    w.coefficients.friction = S(0.6);
    w.coefficients.threshold = S(1);
    const S f = S(grid) / S(25);
    const S left = S(-10), bottom = S(0.5);
    const S right = left + S(20) * f, top = bottom + S(19.5) * f;
    w.add_wall(V2<S>::UnitY(), bottom);
    w.add_wall(-V2<S>::UnitY(), -top);
    w.add_wall(V2<S>::UnitX(), left);
    w.add_wall(-V2<S>::UnitX(), -right);
    w.lo = V2<S>(left, bottom);
    w.hi = V2<S>(right, top);
    w.reserve(std::size_t(grid * grid));
    const S r = S(0.5);
    for (int col = 0; col < grid; ++col)
        for (int row = 0; row < grid; ++row)
            w.add_ball(V2<S>(S(-8.75) + S(col) * S(18) / S(25), S(1.5) + S(row) * S(18) / S(25)), r, S(1));
}

/// What the confined scene did.
template <class S>
struct ConfinedResult {
    S start_overlap{0};   ///< the deepest overlap at the start
    S separating{0};      ///< StepMonitor::separating
    S separation_rate{0}; ///< StepMonitor::separation_rate
    S body_speed{0};      ///< StepMonitor::body_speed
    S body_travel{0};     ///< StepMonitor::body_travel
    S fastest{0};         ///< the fastest point of any circle at the end
    S overlap_end{0};     ///< the deepest overlap at the end
};

/// Runs the confined scene for `steps` steps; frame(step, w) after each.
template <class S, class Frame>
ConfinedResult<S> run_confined(World<S, 2>& w, int steps, Frame&& frame)
{
    ConfinedResult<S> r;
    w.find_contacts();
    r.start_overlap = w.overlap().max;
    StepMonitor<S> monitor;
    for (int step = 0; step < steps; ++step) {
        monitor.before(w);
        w.step();
        monitor.after(w);
        frame(step, w);
    }
    r.separating = monitor.separating;
    r.separation_rate = monitor.separation_rate;
    r.body_speed = monitor.body_speed;
    r.body_travel = monitor.body_travel;
    r.fastest = fastest_point(w);
    w.find_contacts();
    r.overlap_end = w.overlap().max;
    return r;
}

// ---------------------------------------------------------------------------------------------
// Card house

/// Solver2D's CardHouse (from PEEL): cards 0.4 m tall and 2 mm thick (half extents 0.001 x 0.2,
/// density 1) in five storeys on a static ground box 80 m x 4 m whose top is y = 0: each storey a
/// row of pairs leaning on each other at +-25 degrees, with a card laid flat across each two
/// neighbouring pairs; each storey one pair narrower. Friction 0.7 everywhere, e = 0. Returns the
/// indices of the top pair's two cards.
template <class S>
std::vector<std::uint32_t> build_card_house(World<S, 2>& w)
{
    standard(w, S(0.7));
    w.add_static_polygon(impulse::make_box(S(40), S(2)), V2<S>(S(0), S(-2)));
    w.lo = V2<S>(S(-0.5), S(-0.5));
    w.hi = V2<S>(S(2), S(2));
    const S height = S(0.2), thickness = S(0.001);
    const S a0 = S(25) * pi<S> / S(180), a1 = -a0, a2 = pi<S> / S(2);
    const impulse::Polygon<S> card = impulse::make_box(thickness, height);
    std::vector<std::uint32_t> top;
    S z0 = S(0), y = height - S(0.02);
    for (int nb = 5; nb > 0; --nb) {
        S z = z0;
        for (int i = 0; i < nb; ++i) {
            if (i != nb - 1) w.add_polygon(card, V2<S>(z + S(0.25), y + height - S(0.015)), S(1), a2);
            const std::uint32_t left = w.add_polygon(card, V2<S>(z, y), S(1), a1);
            z += S(0.175);
            const std::uint32_t right = w.add_polygon(card, V2<S>(z, y), S(1), a0);
            z += S(0.175);
            if (nb == 1) top = {left, right};
        }
        y += height * S(2) - S(0.03);
        z0 += S(0.175);
    }
    return top;
}

/// What the card house did.
template <class S>
struct CardResult {
    S top_moved{0};  ///< the farthest a top card got from its start, any step
    S moved{0};      ///< the farthest any card got from its start, any step
    S fastest{0};    ///< the fastest point of any card at the end
};

/// Runs the card house for `steps` steps; frame(step, w) after each.
template <class S, class Frame>
CardResult<S> run_card_house(World<S, 2>& w, const std::vector<std::uint32_t>& top, int steps, Frame&& frame)
{
    const std::vector<V2<S>> start = w.x;
    CardResult<S> r;
    for (int step = 0; step < steps; ++step) {
        w.step();
        frame(step, w);
        for (std::uint32_t i : top) r.top_moved = std::max(r.top_moved, (w.x[i] - start[i]).norm());
        for (std::size_t i = w.first_ball(); i < w.body_count(); ++i) r.moved = std::max(r.moved, (w.x[i] - start[i]).norm());
    }
    r.fastest = fastest_point(w);
    return r;
}

// ---------------------------------------------------------------------------------------------
// Friction ramp

inline constexpr double ramp_angle = 3.14159265358979323846 / 6;  ///< 30 degrees

/// The friction ramp: for each coefficient mu[k], a static ramp 24 m long and 0.5 m thick rising at
/// 30 degrees to the right (ramp k centred at (0, -4k), the ramps parallel and 4 m apart), and a
/// unit box (half extent 0.5, density 1) turned to lie flat on it, 10 m up the slope from the ramp's
/// middle, dropped from 0.5 m above it (its lowest face 0.5 m higher than the ramp's surface below).
/// Falling straight down onto a 30-degree slope it arrives with tangential and normal speeds in the
/// ratio tan 30: the friction of the impact stops the slide exactly when mu > tan 30, the same
/// condition as for a box at rest. e = 0. The pair's friction is the box's: the ramps have
/// friction 1 and ask for the `min` rule (material.hpp), so min(mu, 1) = mu.
/// Returns the boxes, one per coefficient.
template <class S>
std::vector<std::uint32_t> build_friction_ramps(World<S, 2>& w, const std::vector<S>& mu)
{
    w.solver.settings.gravity = V2<S>(S(0), -S(g));
    w.coefficients = impulse::Coefficients<S>{};
    w.coefficients.threshold = S(1);
    w.mix_materials = true;
    const S a = S(ramp_angle);
    const V2<S> along(std::cos(a), std::sin(a)), normal(-std::sin(a), std::cos(a));
    const impulse::Polygon<S> ramp = impulse::make_box(S(12), S(0.25)), box = impulse::make_box(S(0.5), S(0.5));
    const int n = int(mu.size());
    w.lo = V2<S>(S(-12), S(-4) * S(n) - S(6));
    w.hi = V2<S>(S(12), S(9));
    impulse::Material<S> grippy;
    grippy.static_friction = grippy.dynamic_friction = S(1);
    grippy.friction_combine = impulse::Combine::min;
    for (int k = 0; k < n; ++k) w.material[w.add_static_polygon(ramp, V2<S>(S(0), S(-4) * S(k)), a)] = grippy;
    std::vector<std::uint32_t> boxes;
    for (int k = 0; k < n; ++k) {
        const V2<S> on_surface = V2<S>(S(0), S(-4) * S(k)) + S(10) * along + S(0.25) * normal;
        const std::uint32_t i = w.add_polygon(box, on_surface + S(0.5) * normal + V2<S>(S(0), S(0.5)), S(1), a);
        w.material[i].static_friction = w.material[i].dynamic_friction = mu[std::size_t(k)];
        boxes.push_back(i);
    }
    return boxes;
}

/// The acceleration down a 30-degree slope while sliding: m x'' = m g sin a - mu m g cos a.
inline double slide_acceleration(double mu) { return g * (std::sin(ramp_angle) - mu * std::cos(ramp_angle)); }

/// What one box on the ramp did.
template <class S>
struct RampResult {
    S mu{0};
    S v1{0}, v2{0};       ///< speed down the slope at 1 s and at 2 s
    S acceleration{0};    ///< (v2 - v1) / 1 s
    S fastest_late{0};    ///< the fastest point of the box from 1 s on
    S moved{0};           ///< how far it slid along the slope
};

/// Runs the friction ramps for 3 s; frame(step, w) after each step.
template <class S, class Frame>
std::vector<RampResult<S>> run_friction_ramps(World<S, 2>& w, const std::vector<std::uint32_t>& boxes, const std::vector<S>& mu,
                                              Frame&& frame)
{
    const S a = S(ramp_angle);
    const V2<S> down(-std::cos(a), -std::sin(a));
    const std::vector<V2<S>> start = w.x;
    std::vector<RampResult<S>> r(boxes.size());
    const int second = int(std::lround(S(1) / w.dt));
    for (int step = 0; step < 3 * second; ++step) {
        w.step();
        frame(step, w);
        for (std::size_t k = 0; k < boxes.size(); ++k) {
            const std::uint32_t i = boxes[k];
            if (step + 1 == second) r[k].v1 = w.v[i].dot(down);
            if (step + 1 == 2 * second) r[k].v2 = w.v[i].dot(down);
            if (step + 1 >= second)
                r[k].fastest_late = std::max(r[k].fastest_late, w.v[i].norm() + std::abs(w.omega[i]) * w.radius[i]);
        }
    }
    for (std::size_t k = 0; k < boxes.size(); ++k) {
        r[k].mu = mu[k];
        r[k].acceleration = (r[k].v2 - r[k].v1) / S(1);
        r[k].moved = (w.x[boxes[k]] - start[boxes[k]]).dot(down);
    }
    return r;
}

// ---------------------------------------------------------------------------------------------
// Restitution

/// Balls of restitution e = 0, 0.25, 0.5, 0.75, 1 (radius 0.5, density 1) 2 m apart, dropped from
/// rest with their lowest point `drop` above a floor (the plane y = 0) of restitution 0. The pair's
/// restitution is the ball's: the balls ask for the `max` rule (material.hpp; Box2D's rule), so
/// max(e, 0) = e. Threshold 1 m/s, no friction. Returns the balls.
template <class S>
std::vector<std::uint32_t> build_restitution(World<S, 2>& w, S drop, const std::vector<S>& e)
{
    w.solver.settings.gravity = V2<S>(S(0), -S(g));
    w.coefficients = impulse::Coefficients<S>{};
    w.coefficients.threshold = S(1);
    w.mix_materials = true;
    impulse::Material<S> floor;
    floor.restitution = S(0);
    floor.static_friction = floor.dynamic_friction = S(0);
    w.material[w.add_wall(V2<S>::UnitY(), S(0))] = floor;
    w.lo = V2<S>(S(-1), S(0));
    w.hi = V2<S>(S(2) * S(e.size()), drop + S(2));
    std::vector<std::uint32_t> balls;
    for (std::size_t k = 0; k < e.size(); ++k) {
        const std::uint32_t i = w.add_ball(V2<S>(S(2) * S(k), drop + S(0.5)), S(0.5), S(1));
        w.material[i].restitution = e[k];
        w.material[i].restitution_combine = impulse::Combine::max;
        w.material[i].static_friction = w.material[i].dynamic_friction = S(0);
        balls.push_back(i);
    }
    return balls;
}

/// The first apex of each ball of build_restitution: the highest its lowest point gets after its
/// first impact (the first step in which its vertical velocity rises: only a contact raises it)
/// and before its second (the next step in which it rises after it has been falling again).
/// Runs until every ball has passed its first apex, or for `max_steps`; frame(step, w) after each.
template <class S, class Frame>
std::vector<S> run_restitution(World<S, 2>& w, const std::vector<std::uint32_t>& balls, int max_steps, Frame&& frame)
{
    enum Phase { falling, bounced, done };
    std::vector<Phase> phase(balls.size(), falling);
    std::vector<S> apex(balls.size(), S(0));
    std::vector<bool> fell_again(balls.size(), false);
    for (int step = 0; step < max_steps; ++step) {
        std::vector<S> vy(balls.size());
        for (std::size_t k = 0; k < balls.size(); ++k) vy[k] = w.v[balls[k]].y();
        w.step();
        frame(step, w);
        bool all = true;
        for (std::size_t k = 0; k < balls.size(); ++k) {
            const std::uint32_t i = balls[k];
            const bool rose = w.v[i].y() > vy[k];  // gravity only lowers vy: a contact acted
            const S height = w.x[i].y() - w.radius[i];
            if (phase[k] == falling && rose) {
                phase[k] = bounced;
                apex[k] = height;
            } else if (phase[k] == bounced) {
                if (rose && fell_again[k]) phase[k] = done;
                else apex[k] = std::max(apex[k], height);
                if (w.v[i].y() < S(0)) fell_again[k] = true;
            }
            all = all && phase[k] == done;
        }
        if (all) break;
    }
    return apex;
}

/// The bound on a first apex after a drop from h: within 5% of e^2 h, or 2 cm, whichever is larger.
inline double apex_bound(double e, double h) { return std::max(bounds::apex_relative * e * e * h, bounds::apex_absolute); }

// ---------------------------------------------------------------------------------------------
// Rolling resistance

/// A ball (a disk: radius 0.5, mass 1) rolling at 2 m/s along the floor (the plane y = 0; friction 0.6,
/// enough to keep it rolling), rolling resistance c (m) on the pair.
template <class S>
std::uint32_t build_rolling(World<S, 2>& w, S c)
{
    standard(w, S(0.6));
    w.rolling_resistance = c;
    w.add_wall(V2<S>::UnitY(), S(0));
    w.lo = V2<S>(S(-1), S(0));
    w.hi = V2<S>(S(30), S(2));
    const S r = S(0.5);
    const std::uint32_t i = w.add_ball(V2<S>(S(0), r), r, S(1) / (pi<S> * r * r));
    w.v[i] = V2<S>(S(2), S(0));
    w.omega[i] = -S(2) / r;  // rolling: omega = -v / r
    return i;
}

/// When and where rolling resistance stops the ball of build_rolling. The solver resists the
/// bodies' relative rotation with an angular impulse of up to c times the normal impulse (solver.hpp:
/// per substep, |jr| <= c sum jn), a torque of up to c N = c m g. Rolling (v = -omega r), friction f
/// at the contact:  m v' = f,  I omega' = r f + c m g  =>  v' = -c g r / (r^2 + I/m) = -(2/3) c g / r
/// for a disk (I = m r^2 / 2). From v0 it stops after t = v0 / |v'| = 3 v0 r / (2 c g), having rolled
/// v0^2 / (2 |v'|) = 3 v0^2 r / (4 c g).
struct RollingPrediction {
    double time, distance;
};
inline RollingPrediction rolling_stop(double c, double v0 = 2, double r = 0.5)
{
    const double decel = 2.0 / 3.0 * c * g / r;
    return {v0 / decel, v0 * v0 / (2 * decel)};
}

/// What the rolling ball did: the end of the first step after which it moves at under 1 mm/s, and
/// where it is then.
template <class S>
struct RollingResult {
    S stopped_at{-1};  ///< s (-1: never)
    S distance{0};     ///< m rolled by then
};

/// Runs the rolling ball until it stops or for `max_steps`; frame(step, w) after each.
template <class S, class Frame>
RollingResult<S> run_rolling(World<S, 2>& w, std::uint32_t ball, int max_steps, Frame&& frame)
{
    const S x0 = w.x[ball].x();
    RollingResult<S> r;
    for (int step = 0; step < max_steps; ++step) {
        w.step();
        frame(step, w);
        if (w.v[ball].norm() < S(1e-3)) {
            r.stopped_at = S(step + 1) * w.dt;
            r.distance = w.x[ball].x() - x0;
            break;
        }
    }
    return r;
}

// ---------------------------------------------------------------------------------------------
// Conveyor

inline constexpr double belt_speed = 2;  ///< m/s

/// A conveyor belt: a static box 20 m x 0.5 m whose top is y = 0 and whose surface moves at 2 m/s
/// to the right (World::surface), and a unit box (density 1) at rest on it near its left end.
/// Friction 0.6: the belt brings the box to its speed in 2 / (0.6 g) = 0.34 s.
template <class S>
std::uint32_t build_conveyor(World<S, 2>& w)
{
    standard(w, S(0.6));
    const std::uint32_t belt = w.add_static_polygon(impulse::make_box(S(10), S(0.25)), V2<S>(S(0), S(-0.25)));
    w.surface[belt] = V2<S>(S(belt_speed), S(0));
    w.lo = V2<S>(S(-10), S(-1));
    w.hi = V2<S>(S(10), S(2));
    return w.add_polygon(impulse::make_box(S(0.5), S(0.5)), V2<S>(S(-8), S(0.5)), S(1));
}

/// The box's speed along the belt at 1 s and at 2 s.
template <class S>
struct ConveyorResult {
    S v1{0}, v2{0};
};

/// Runs the conveyor for 2 s; frame(step, w) after each step.
template <class S, class Frame>
ConveyorResult<S> run_conveyor(World<S, 2>& w, std::uint32_t box, Frame&& frame)
{
    ConveyorResult<S> r;
    const int second = int(std::lround(S(1) / w.dt));
    for (int step = 0; step < 2 * second; ++step) {
        w.step();
        frame(step, w);
        if (step + 1 == second) r.v1 = w.v[box].x();
    }
    r.v2 = w.v[box].x();
    return r;
}

/// A frame callback that does nothing.
struct NoFrame {
    template <class W>
    void operator()(int, const W&) const
    {
    }
};

}  // namespace scenes::suite
