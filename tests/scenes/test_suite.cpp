// SPDX-License-Identifier: MIT
// The scene suite of the field in 2D (examples/common/scenes/suite.hpp): Solver2D's setups at the
// solver's default settings, 60 Hz, each against the pass criterion stated for it (suite::bounds,
// the solver's issue item 5). Where a scene runs here at a smaller size than in its example program,
// the test says which and why the smaller one still tests the claim. Criteria the solver does not
// meet yet are kept as they are, in test cases marked [!mayfail] that state the measured number
// and its cause.
//
// Every case runs on both of the solver's paths, in the order given and coloured (paths.hpp).
#include <algorithm>
#include <cmath>
#include <vector>

#include "catch.hpp"
#include "paths.hpp"
#include "scenes/suite.hpp"

namespace {

using S = double;
using World = scenes::OnPath<scenes::World<S, 2>>;
namespace suite = scenes::suite;
namespace bounds = scenes::suite::bounds;
constexpr suite::NoFrame none{};

int seconds(double t) { return int(std::lround(t * 60)); }

}  // namespace


// ---------------------------------------------------------------------------------------------
// Vertical stacks

PATHS_CASE("a vertical stack of 10 boxes stands for 10 s: in its column, sunk no more than 2 cm per box, at rest",
           "[scenes][suite][stack]", "", "")
{
    World w(coloured);
    suite::build_vertical_stack(w, 10);
    const auto r = suite::run_vertical_stack(w, 10, seconds(10), none);
    CHECK(r.drift <= bounds::stack_column);
    CHECK(r.sink <= bounds::stack_sink_per_box * 10);
    CHECK(r.fastest <= bounds::at_rest);
}

// Stands with the world's contact recycling (World::recycle, impulse/recycle.hpp; on by default).
// Measured (the suite's builders, double, 10 s, defaults): the top 0.4 mm off its column, 0.13 m
// below its ideal height, the fastest point at 0.05 mm/s at 10 s. With recycling off it leans over
// and falls (0.74 m to the side and moving at 0.53 m/s at 10 s). Cause: a column of 30 Hz soft
// contacts buckles under its own weight beyond about 14 boxes (q L^3 / k = 7.84 with the joints'
// rotational stiffness k = m_p omega^2 / 2 = 3553 N m/rad: L = 14 boxes; without recycling 14
// stand, 15 sway, 13.6 cm off and moving at 4.5 cm/s at 10 s, 20 fall) when each step's manifold
// has its anchors at the corners as they are now. Kept while a pair moves less than 2 mm and 0.004
// rad, the anchors and the normal stay where they were in world axes and only the separations
// follow the bodies (Box2D v3 does the same, within 5 cm); kept with the anchors turning with the
// bodies instead, the column falls as before, whether the normal is kept in world axes or turns
// with the box below, so it is the anchors that matter (measured with one pass per manifold). 25
// and 30 boxes stand too (1.1 cm and 4.3 mm off). With one pass per manifold
// (settings.manifold_iterations = 1) the 20 boxes stood 5.8 mm off and moving at 6.9 mm/s, 25
// stood 3.5 cm off and 30 fell.
PATHS_CASE("a vertical stack of 20 boxes stands for 10 s: in its column, sunk no more than 2 cm per box, at rest",
           "[scenes][suite][stack]", "", "")
{
    World w(coloured);
    suite::build_vertical_stack(w, 20);
    const auto r = suite::run_vertical_stack(w, 20, seconds(10), none);
    CHECK(r.drift <= bounds::stack_column);
    CHECK(r.sink <= bounds::stack_sink_per_box * 20);
    CHECK(r.fastest <= bounds::at_rest);
}

// ---------------------------------------------------------------------------------------------
// Box pyramids (Box2D's benchmark brick pattern)

PATHS_CASE("a box pyramid of base 20 stands for 10 s: the top within 5 cm of its start, at rest",
           "[scenes][suite][pyramid]", "", "")
{
    World w(coloured);
    scenes::build_box_pyramid(w, 20);
    const auto r = suite::run_box_pyramid(w, seconds(10), none);
    CHECK(r.top_moved <= bounds::pyramid20_top);
    CHECK(r.fastest <= bounds::at_rest);
}

PATHS_CASE("a box pyramid of base 40 holds the base-100 criteria: the top within 1 m of its start, at rest at 10 s",
           "[scenes][suite][pyramid]", "", "")
{
    // The base-100 pyramid (5050 boxes) runs in the example program (stacks); here base 40 (820
    // boxes, 40 rows), a sixth of the cost, carries the same claim: the rows pass the weight down
    // and come to rest within 10 s. It does not show what base 100 does: there the top stays within
    // 1 m (0.80 m) but the pyramid still moves at 5 cm/s at 10 s (Box2D v3: 1.5 cm/s), which the
    // example program reports.
    World w(coloured);
    scenes::build_box_pyramid(w, 40);
    const auto r = suite::run_box_pyramid(w, seconds(10), none);
    CHECK(r.top_moved <= bounds::pyramid100_top);
    CHECK(r.fastest <= bounds::at_rest);
}

// ---------------------------------------------------------------------------------------------
// High mass ratio, placed resting

PATHS_CASE("a 400:1 box on two small boxes rests: no box moves after 5 s, none moved 0.2 m, the small ones sunk <= 2 cm",
           "[scenes][suite][mass]", "", "")
{
    // Solver2D's HighMassRatio2 (thin ground, a segment) and 3 (thick ground, a box). The heavy box's
    // contacts with the small ones are heavy on light (SolverSettings::shock_propagation, on by
    // default): it rests on them as on the ground, and they and the small boxes' ground contacts are
    // stiffened by their load, so that each sinks g / omega^2, the sag of a contact carrying its own
    // body: 0.28 mm at 30 Hz, 0.07 mm at 60 Hz (docs/solver.md). Bound: the heavy box sinks less
    // than 1 mm, three times those two contacts in series (0.35 mm), where the soft step without it
    // sinks 8.6 cm (the next test). Measured: 0.06 mm; the small boxes 0.1 mm into the ground.
    for (bool thick : {false, true}) {
        World w(coloured);
        const auto scene = suite::build_big_on_small(w, thick, false);
        const auto r = suite::run_mass_ratio(w, scene, seconds(10), seconds(5), none);
        INFO((thick ? "thick ground" : "thin ground"));
        CHECK(r.fastest_late <= bounds::at_rest);
        CHECK(r.moved <= bounds::mass_ratio_moved);
        CHECK(r.small_sink <= bounds::mass_ratio_small_sink);
        CHECK(r.heavy_sink < 1e-3);
    }
}

PATHS_CASE("without shock propagation the 400:1 box sinks by the soft contacts' sag, as the model says",
           "[scenes][suite][mass]", "", "")
{
    // The same scene with SolverSettings::shock_propagation off: the soft step alone. The big box
    // sinks by its contact springs: 1972 N on each small box, against its two ground points of
    // m_p = 1 / (1 + 0.25 * 6) = 0.4 at 60 Hz (k = 2 * 0.4 * (2 pi 60)^2 = 113 700 N/m) is 1.73 cm;
    // the big box's own points on the small box (m_p = 0.40 at 30 Hz, k = 28 300 N/m) add 6.9 cm.
    // It still rests and passes the scene's other criteria.
    for (bool thick : {false, true}) {
        World w(coloured);
        const auto scene = suite::build_big_on_small(w, thick, false);
        w.solver.settings.shock_propagation = false;
        const auto r = suite::run_mass_ratio(w, scene, seconds(10), seconds(5), none);
        INFO((thick ? "thick ground" : "thin ground"));
        CHECK(r.fastest_late <= bounds::at_rest);
        CHECK(r.moved <= bounds::mass_ratio_moved);
        CHECK(r.small_sink <= bounds::mass_ratio_small_sink);
        CHECK(r.heavy_sink == Approx(0.0173 + 0.069).margin(0.005));
    }
}

// Measured: a box moves 0.104 m at most (coloured 0.108 m) and the pyramids at 0.45 cm/s at most
// after 5 s (coloured 0.41 cm/s). Before the heavy-on-light pass the 300:1 box moved 0.188 m, 0.183 m
// of it its contact springs' sag under 1200 kg, the rest a slide of 3.1 cm to the side while the
// pyramid under it settled; with one pass over each manifold's points per solve
// (settings.manifold_iterations = 1) it failed then, just: 0.215 m and 0.85 cm/s after 5 s.
PATHS_CASE("pyramids with 100, 200, 300 times denser top boxes rest: no box moves after 5 s, none moved 0.2 m",
           "[scenes][suite][mass]", "", "")
{
    World w(coloured);
    const auto scene = suite::build_mass_ratio_pyramids(w, false);
    const auto r = suite::run_mass_ratio(w, scene, seconds(10), seconds(5), none);
    CHECK(r.fastest_late <= bounds::at_rest);
    CHECK(r.moved <= bounds::mass_ratio_moved);
}

// ---------------------------------------------------------------------------------------------
// Overlap recovery

namespace {
const suite::RecoveryResult<S>& recovery(bool coloured)
{
    return scenes::once_per_path(
        [](bool c) {
            World w(c);
            suite::build_overlap_recovery(w);
            return suite::run_overlap_recovery(w, seconds(5), none);
        },
        coloured);
}
}  // namespace

PATHS_CASE("boxes stacked 25% overlapping push apart within 1 s, no faster than the push-out cap, and then stand",
           "[scenes][suite][recovery]", "", "")
{
    const auto& r = recovery(coloured);
    CHECK(r.start_overlap == Approx(0.25).margin(1e-9));  // the setup: a quarter of a 1 m box
    CHECK(r.recovered_at <= bounds::recovered_within);
    CHECK(r.overlap_end < bounds::recovered_overlap);
    // Relative normal speed of every point after each step: at most the cap.
    CHECK(r.separating <= 3.0);  // SolverSettings::push_out_speed
    CHECK(r.fastest <= bounds::at_rest);
}

// Fails today in the order given, just: averaged over a step, the surfaces of one pair separate at up
// to 3.009 m/s (the speed left after each step is at most 2.18 m/s, within the cap; with one pass per
// manifold, settings.manifold_iterations = 1: 3.45 and 2.60 m/s). Coloured it passes: 2.54 m/s over
// a step, 2.72 m/s left after one. Cause, where it fails: Gauss-Seidel over a box's several
// overlapping neighbours: each contact pushes at up to 3 m/s, and a push solved after it adds to the
// speed of a pair already solved, which a non-negative impulse cannot take back.
PATHS_CASE("boxes stacked 25% overlapping: no pair's surfaces separate faster than the cap over a step",
           "[scenes][suite][recovery]", "[!mayfail]", "")
{
    CHECK(recovery(coloured).separation_rate <= 3.0);  // SolverSettings::push_out_speed
}

// ---------------------------------------------------------------------------------------------
// Confined

namespace {
const suite::ConfinedResult<S>& confined(bool coloured)
{
    return scenes::once_per_path(
        [](bool c) {
            World w(c);
            suite::build_confined(w);
            return suite::run_confined(w, seconds(10), none);
        },
        coloured);
}
}  // namespace

// Coloured, the pairs separate at up to 3.17 m/s averaged over a step (3.00 in the order given): the
// recovering boxes' cause (below), in another order of the circles' contacts. Both come to rest.
PATHS_CASE("625 circles started overlapping in a box too small for them come to rest within 10 s",
           "[scenes][suite][confined]", "", "[!mayfail]")
{
    const auto& r = confined(coloured);
    CHECK(r.start_overlap == Approx(0.28).margin(1e-9));  // the setup: 1 m circles 0.72 m apart
    CHECK(r.separation_rate <= 3.0);  // averaged over each step: within the push-out cap
    CHECK(r.fastest <= bounds::at_rest);
}

// Fails today: circles reach 21.8 m/s (Box2D v3: 23.7 m/s) and a pair separates at 4.4 m/s after a
// step (coloured: 21.5 m/s, a step's travel at 22.1 m/s, a pair at 5.0 m/s). Cause: the push-out
// cap is per contact; along a chain of 12 overlapping circles from the middle of the box to a wall
// each contact adds up to 3 m/s, so the outer circles move at many times the cap while the crowd
// spreads to the walls. Bounding a body's speed needs the cap to act on
// bodies (or on chains), a change to the solver's method rather than a small fix. More relaxing
// passes take back more of the pushes but do not bound it: the fastest circle reaches 15.2, 12.1
// and 9.6 m/s with 2, 3 and 4 (settings.relax_iterations; coloured 15.2, 11.6 and 9.6), the pairs
// then separating at up to 3.09 to 3.17 m/s averaged over a step (coloured 3.18 to 3.21).
PATHS_CASE("625 circles started overlapping: no body ever faster than 5 m/s, no pair separating faster than the cap",
           "[scenes][suite][confined]", "[!mayfail]", "[!mayfail]")
{
    const auto& r = confined(coloured);
    CHECK(r.body_speed <= bounds::confined_speed);
    CHECK(r.body_travel <= bounds::confined_speed);
    CHECK(r.separating <= 3.0);  // SolverSettings::push_out_speed
}

// ---------------------------------------------------------------------------------------------
// Card house

// Fails today at the default 4 substeps in the order given: the top pair falls, 1.85 m (Box2D v3
// holds it: 3.8 cm). It holds at 8 substeps (the next test), and coloured at 4: the top cards move
// 3.6 cm at most (3.3 cm at 8 substeps). The coloured pass is not the more robust one, only another
// order: over ten leans of the cards it holds 5 (below). What is known: the top pair, its feet on the flat card
// below and its tops meeting corner to corner, is a linkage of one degree of freedom while the top
// contact slides, and gravity drives it away from the symmetric pose either way. Its statics (cards
// as lines 0.4 m long, one card's corner on the other's face, weights at the middles) need a
// friction ratio at the top of tan 25 deg = 0.47 as built, 0.66 once one card leans 27.5 deg and the
// other 24 deg, 0.76 at 28.6 and 23.2 deg: past about 3 degrees of lean mu = 0.7 cannot hold it and
// the fall is right. Whether the impact of step 4 (the tops close their 4 mm gap as the feet land)
// starts that lean is decided by the order the contacts are solved in, in Box2D v3 as here. Over
// ten leans of the cards, 24.5 to 26 deg: Box2D v3 solving its contacts serially holds 9 in the
// order it creates them, 1 when they are sorted by pair as this scene world gives them; this solver,
// before it solved each manifold's points to their own end, held none in that sorted order (coloured from it, 1 of 9), 8 of 9 shuffled and all 10 in an order
// hashed from the pair (3.3 to 4.0 cm). The hashed order is not taken: it moves other scenes past
// their bounds (the 400:1 boxes sink 2.09 cm, a recovering pair separates at 4.0 m/s, the confined
// circles at 3.99 m/s). Cleared as causes: Box2D v3's choice of reference face, collide_polygons'
// one-point vertex-vertex case, contact recycling and the approach speed in the speculative distance.
// Convergence decides it as much as order: rerun at the ten leans 24.5 + k/6 deg with the solver as
// it is now, in the sorted order, it holds at 2 of them with one relaxing pass per substep (coloured:
// 5, the suite's 25 deg among them), at 8 with two (8), at 9 with three (9) and at all 10 with four;
// with one pass per manifold (settings.manifold_iterations = 1) at 1, 8 and 8 (coloured 1, 7, 8). A
// second relaxing pass is not the default because the confined circles then separate faster than
// the push-out cap over a step (3.09 m/s), and the 20-box stack's top leaves its column by 9.6 mm
// where one pass leaves it at 0.4 mm (docs/solver.md).
PATHS_CASE("the card house stands for 10 s at 4 substeps: the top cards within 5 cm of their start",
           "[scenes][suite][cards]", "[!mayfail]", "")
{
    World w(coloured);
    const auto top = suite::build_card_house(w);
    const auto r = suite::run_card_house(w, top, seconds(10), none);
    CHECK(r.top_moved <= bounds::card_top);
}

PATHS_CASE("the card house stands for 10 s at 8 substeps, the count it needs: the top cards within 5 cm of their start",
           "[scenes][suite][cards]", "", "")
{
    World w(coloured);
    const auto top = suite::build_card_house(w);
    w.solver.settings.substeps = 8;
    const auto r = suite::run_card_house(w, top, seconds(10), none);
    CHECK(r.top_moved <= bounds::card_top);
    CHECK(r.fastest <= bounds::at_rest);
}

// ---------------------------------------------------------------------------------------------
// Friction ramp

namespace {
const std::vector<suite::RampResult<S>>& ramps(bool coloured)
{
    return scenes::once_per_path(
        [](bool c) {
            const std::vector<S> mu{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8};
            World w(c);
            const auto boxes = suite::build_friction_ramps(w, mu);
            return suite::run_friction_ramps(w, boxes, mu, none);
        },
        coloured);
}
}  // namespace

PATHS_CASE("boxes on a 30-degree ramp with mu < tan 30 slide at g (sin 30 - mu cos 30)",
           "[scenes][suite][ramp]", "", "")
{
    for (const auto& r : ramps(coloured)) {
        if (!(r.mu < std::tan(suite::ramp_angle))) continue;
        INFO("mu = " << r.mu);
        const double a = suite::slide_acceleration(r.mu);
        CHECK(std::abs(r.acceleration - a) <= bounds::ramp_acceleration * a);
    }
}

PATHS_CASE("boxes on a 30-degree ramp with mu >= 0.7 stop within 1 s",
           "[scenes][suite][ramp]", "", "")
{
    for (const auto& r : ramps(coloured)) {
        if (!(r.mu > 0.65)) continue;
        INFO("mu = " << r.mu);
        CHECK(r.fastest_late <= bounds::at_rest);
    }
}

// Dropped onto the slope the box arrives with tangential and normal speeds in the ratio tan 30 =
// 0.577, so friction must use 96% of what the impact's normal impulse allows. A rigid impact of the
// flat face does: the normal impulse shifts to the front edge (0.57 and 2.14 of 2.71 N s) so that
// friction's torque is balanced, and both points stick. The solver lands it so when it solves the
// face's two points to their own end within each pass (settings.manifold_iterations): at rest from
// 1 s on (the fastest point at 4e-7 m/s). With one pass per manifold it did not: the two points
// solved one after the other, and the friction after them, left the box turning at 1.6 rad/s about
// its front edge; it rocked, lifted off at 0.17 m/s and slid on at 0.35 m/s at 1 s (stopping at 2.8
// s, slowing at g (mu cos 30 - sin 30) = 0.19 m/s^2 as it should).
PATHS_CASE("a box on a 30-degree ramp with mu = 0.6 > tan 30 stops within 1 s",
           "[scenes][suite][ramp]", "", "")
{
    for (const auto& r : ramps(coloured)) {
        if (!(r.mu > std::tan(suite::ramp_angle) && r.mu < 0.65)) continue;
        CHECK(r.fastest_late <= bounds::at_rest);
    }
}

// ---------------------------------------------------------------------------------------------
// Restitution

PATHS_CASE("balls of e = 0 to 1 dropped onto a floor of e = 0 reach e^2 h, within 5% or 2 cm, from 8 heights",
           "[scenes][suite][restitution]", "", "")
{
    // From 4 m a ball arrives at v = sqrt(2 g h) = 8.86 m/s and leaves at e v, rising (e v)^2 / (2 g) =
    // e^2 h. The 8 heights are 4 m plus eighths of the distance it falls in the step of impact
    // (v dt = 0.148 m), so the impact falls at 8 points of a step.
    const std::vector<S> e{0, 0.25, 0.5, 0.75, 1};
    for (int k = 0; k < 8; ++k) {
        const S h = 4 + k * std::sqrt(2 * suite::g * 4) / 60 / 8;
        World w(coloured);
        const auto balls = suite::build_restitution(w, h, e);
        const auto apex = suite::run_restitution(w, balls, seconds(4), none);
        for (std::size_t i = 0; i < e.size(); ++i) {
            INFO("h = " << h << ", e = " << e[i]);
            CHECK(std::abs(apex[i] - e[i] * e[i] * h) <= suite::apex_bound(e[i], h));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rolling resistance, conveyor

PATHS_CASE("rolling resistance stops a rolling ball when and where its torque c N predicts",
           "[scenes][suite][rolling]", "", "")
{
    for (S c : {0.025, 0.05, 0.1}) {
        World w(coloured);
        const auto ball = suite::build_rolling(w, c);
        const auto r = suite::run_rolling(w, ball, seconds(10), none);
        const auto p = suite::rolling_stop(c);  // 6.12, 3.06, 1.53 s and m
        INFO("c = " << c);
        CHECK(std::abs(r.stopped_at - p.time) <= bounds::rolling * p.time);
        CHECK(std::abs(r.distance - p.distance) <= bounds::rolling * p.distance);
    }
}

PATHS_CASE("a box on a conveyor belt moves at the belt's 2 m/s",
           "[scenes][suite][conveyor]", "", "")
{
    World w(coloured);
    const auto box = suite::build_conveyor(w);
    const auto r = suite::run_conveyor(w, box, none);
    CHECK(std::abs(r.v1 - suite::belt_speed) <= bounds::conveyor * suite::belt_speed);
    CHECK(std::abs(r.v2 - suite::belt_speed) <= bounds::conveyor * suite::belt_speed);
}
