// SPDX-License-Identifier: MIT
// IMPULSE_ASSERT can be routed into an engine's own handler, and the contract checks fire on the
// violations they name. Built as its own executable: it defines IMPULSE_ASSERT differently from
// the other test files, and one program must not see two definitions of the same inline function.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace hook {
std::vector<std::string> fired;  // messages of the checks that failed, in order
inline void record(const char* msg) { fired.emplace_back(msg); }
}  // namespace hook

// An engine-style handler: log and carry on (no abort, no exception: the library is noexcept).
#define IMPULSE_ASSERT(cond, msg) ((cond) ? (void)0 : ::hook::record(msg))

#include <impulse/impulse.hpp>

#include "catch.hpp"

namespace {
bool fired_with(const char* needle)
{
    for (const std::string& m : hook::fired)
        if (m.find(needle) != std::string::npos) return true;
    return false;
}
}  // namespace

TEST_CASE("a valid contact passes every check", "[assert]")
{
    hook::fired.clear();
    impulse::Vec2d a(1, 0), b(-1, 0);
    impulse::Coefficients<double> coefficients;
    coefficients.restitution = 0.5;
    coefficients.friction = impulse::Friction<double>(0.6, 0.4);
    impulse::resolve(a, 1.0, b, 1.0, impulse::Vec2d(1, 0), coefficients);
    impulse::positional_correction(1.0, 1.0, impulse::Vec2d(1, 0), 0.2);
    impulse::collide_spheres(impulse::Vec2d(0, 0), 1.0, impulse::Vec2d(1, 0), 1.0);
    CHECK(hook::fired.empty());
}

TEST_CASE("contract violations reach the overridden handler", "[assert]")
{
    impulse::Vec2d a(1, 0), b(-1, 0);
    impulse::Coefficients<double> coefficients;

    hook::fired.clear();
    impulse::resolve(a, 1.0, b, 1.0, impulse::Vec2d(2, 0), coefficients);  // not a unit normal
    CHECK(fired_with("unit vector"));

    hook::fired.clear();
    a = impulse::Vec2d(1, 0), b = impulse::Vec2d(-1, 0);
    impulse::resolve(a, -1.0, b, 1.0, impulse::Vec2d(1, 0), coefficients);  // negative inverse mass
    CHECK(fired_with("inverse mass"));

    hook::fired.clear();
    a = impulse::Vec2d(1, 0), b = impulse::Vec2d(-1, 0);
    coefficients.restitution = 1.5;  // e outside [0, 1]
    impulse::resolve(a, 1.0, b, 1.0, impulse::Vec2d(1, 0), coefficients);
    CHECK(fired_with("restitution"));

    hook::fired.clear();
    a = impulse::Vec2d(1, 1), b = impulse::Vec2d(-1, 0);
    coefficients.restitution = 0.0;
    coefficients.friction = -0.5;  // negative mu
    impulse::resolve(a, 1.0, b, 1.0, impulse::Vec2d(1, 0), coefficients);
    CHECK(fired_with("friction"));

    hook::fired.clear();
    impulse::Material<double> m;
    m.static_friction = -1.0;
    impulse::mix(m, m);
    CHECK(fired_with("friction"));

    hook::fired.clear();
    impulse::collide_spheres(impulse::Vec2d(0, 0), -1.0, impulse::Vec2d(1, 0), 1.0);  // negative radius
    CHECK(fired_with("radi"));
}

TEST_CASE("a hull of points on one line is a contract violation, and without asserts a finite segment",
          "[assert]")
{
    using V = impulse::Vec2d;
    hook::fired.clear();
    const V square[4] = {V(0, 0), V(1, 0), V(1, 1), V(0, 1)};
    impulse::make_polygon(square, 4);
    CHECK(hook::fired.empty());

    // Three points on the x axis: the hull has 2 points; the handler returns, and the result is the
    // segment between the extremes (0, 0) and (2, 0).
    const V line[3] = {V(0, 0), V(2, 0), V(1, 0)};
    const auto seg = impulse::make_polygon(line, 3);
    CHECK(fired_with("not on one line"));
    REQUIRE(seg.count == 2);
    CHECK(seg.vertices[0] == V(0, 0));
    CHECK(seg.vertices[1] == V(2, 0));

    // All points coincident: a segment of length 0, whose normals fall back to -y and +y.
    hook::fired.clear();
    const V same[2] = {V(1, 1), V(1, 1)};
    const auto dot = impulse::make_polygon(same, 2);
    CHECK(fired_with("not on one line"));
    REQUIRE(dot.count == 2);
    CHECK(dot.normals[0] == V(0, -1));
    CHECK(dot.normals[1] == V(0, 1));

    // Either of them against a box, anywhere near it: finite manifolds.
    const auto box = impulse::make_box(0.5, 0.5);
    for (const auto* shape : {&seg, &dot}) {
        for (int i = 0; i < 25; ++i) {
            impulse::Pose<double, 2> pa, pb;
            pb.p = V(-2 + (i % 5), -2 + (i / 5));
            for (const auto& m : {impulse::collide_polygons(box, pa, *shape, pb),
                                  impulse::collide_polygons(*shape, pb, box, pa)}) {
                CHECK(std::isfinite(m.n.x()));
                CHECK(std::isfinite(m.n.y()));
                for (int k = 0; k < m.count; ++k) {
                    CHECK(std::isfinite(m.points[k].separation));
                    CHECK(std::isfinite(m.points[k].rA.norm()));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The solver: its contract checked in debug builds, warm-start keys, non-finite bodies. Here and
// not in test_solver.cpp because these steps break the contract on purpose: the handler records
// the check and returns, as an engine's logging handler would, and the step goes on.

namespace {

using Body2 = impulse::Body<double, 2>;
using Manifold2 = impulse::Manifold<double, 2>;

/// A static floor (body 0) and `balls` balls of radius 0.5 resting on it 2 m apart, each touching
/// only the floor: one manifold per ball (floor as A), coefficients e = 0, mu = 0.5.
struct Balls {
    std::vector<Body2> bodies;
    std::vector<Manifold2> contacts;
    impulse::Solver<double, 2> solver;

    explicit Balls(int balls) : bodies(std::size_t(balls) + 1)
    {
        solver.settings.gravity = impulse::Vec2d(0, -9.81);
        for (int k = 1; k <= balls; ++k) {
            Body2& b = bodies[std::size_t(k)];
            b.inv_mass = 1;
            b.inv_inertia[0] = 8;  // I = m r^2 / 2 = 1/8
            b.pose.p = impulse::Vec2d(2.0 * k, 0.5);
            Manifold2 m;
            m.a = 0;
            m.b = std::uint32_t(k);
            m.n = impulse::Vec2d(0, 1);
            m.count = 1;
            m.points[0].rA = impulse::Vec2d(2.0 * k, 0);
            m.points[0].rB = impulse::Vec2d(0, -0.5);
            m.coefficients.friction = 0.5;
            contacts.push_back(m);
        }
    }
    void step() { solver.step(impulse::view(bodies.data(), bodies.size()), contacts.data(), contacts.size(), 1.0 / 60); }
    impulse::Violation validate() const
    {
        auto v = impulse::view(const_cast<Body2*>(bodies.data()), bodies.size());
        return solver.validate(v, contacts.data(), contacts.size(), 1.0 / 60);
    }
};

/// Every value of a body bit for bit equal (not memcmp of the whole struct: padding).
bool same_bits(const Body2& a, const Body2& b)
{
    auto eq = [](const auto& x, const auto& y) { return std::memcmp(&x, &y, sizeof x) == 0; };
    return eq(a.pose.p, b.pose.p) && eq(a.pose.q.c, b.pose.q.c) && eq(a.pose.q.s, b.pose.q.s) && eq(a.v, b.v) &&
           eq(a.omega, b.omega) && eq(a.inv_mass, b.inv_mass) && eq(a.inv_inertia, b.inv_inertia);
}

}  // namespace

TEST_CASE("a valid solver step passes every check", "[assert][solver]")
{
    Balls w(3);
    hook::fired.clear();
    for (int i = 0; i < 10; ++i) w.step();
    CHECK(hook::fired.empty());
    CHECK(!w.validate());
}

TEST_CASE("Solver::step checks every contract resolve checks, and validate finds the same", "[assert][solver]")
{
    // Each case breaks one rule in a scene of three resting balls; the step's check must fire with
    // the rule's message, and validate must name the same rule and where it is broken.
    struct Case {
        const char* rule;                       // what the message must contain
        std::size_t manifold;                   // where validate must find it
        int point;
        std::size_t body;
        void (*spoil)(Balls&);
    };
    constexpr std::size_t none = impulse::Violation::none;
    const Case cases[] = {
        {"restitution", 1, -1, none, [](Balls& w) { w.contacts[1].coefficients.restitution = 2; }},
        {"restitution", 1, -1, none, [](Balls& w) { w.contacts[1].coefficients.restitution = -0.5; }},
        {"friction", 2, -1, none, [](Balls& w) { w.contacts[2].coefficients.friction = -0.5; }},
        {"friction", 0, -1, none, [](Balls& w) { w.contacts[0].coefficients.friction.mu_k = -0.5; }},
        {"rolling resistance", 1, -1, none, [](Balls& w) { w.contacts[1].rolling_resistance = -0.01; }},
        {"threshold", 1, -1, none, [](Balls& w) { w.contacts[1].coefficients.threshold = std::nan(""); }},
        {"unit vector", 2, -1, none, [](Balls& w) { w.contacts[2].n = impulse::Vec2d(0, 2); }},
        {"index out of range", 1, -1, none, [](Balls& w) { w.contacts[1].b = 4; }},
        {"cannot touch itself", 2, -1, 3, [](Balls& w) { w.contacts[2].a = 3; }},
        {"point count", 0, -1, none, [](Balls& w) { w.contacts[0].count = 3; }},
        {"point count", 0, -1, none, [](Balls& w) { w.contacts[0].count = -1; }},
        {"anchors and separation", 1, 0, none, [](Balls& w) { w.contacts[1].points[0].rB.x() = std::nan(""); }},
        {"anchors and separation", 1, 0, none,
         [](Balls& w) { w.contacts[1].points[0].separation = std::numeric_limits<double>::infinity(); }},
        {"share a feature id", 0, 1, none,
         [](Balls& w) {
             w.contacts[0].count = 2;  // both points left at feature 0
             w.contacts[0].points[1] = w.contacts[0].points[0];
         }},
        {"tangent velocity", 2, -1, none, [](Balls& w) { w.contacts[2].tangent_velocity.x() = std::nan(""); }},
        {"inverse mass", none, -1, 2, [](Balls& w) { w.bodies[2].inv_mass = -1; }},
        {"inverse inertia", none, -1, 3, [](Balls& w) { w.bodies[3].inv_inertia[0] = std::nan(""); }},
        {"velocity", none, -1, 1, [](Balls& w) { w.bodies[1].v.x() = std::nan(""); }},
        {"velocity", none, -1, 2, [](Balls& w) { w.bodies[2].omega = std::numeric_limits<double>::infinity(); }},
        {"position", none, -1, 3, [](Balls& w) { w.bodies[3].pose.p.y() = std::nan(""); }},
        {"rotation", none, -1, 1, [](Balls& w) { w.bodies[1].pose.q = impulse::Rot2<double>(2, 0); }},
        {"substeps", none, -1, none, [](Balls& w) { w.solver.settings.substeps = 0; }},
        {"contact_hertz", none, -1, none, [](Balls& w) { w.solver.settings.contact_hertz = 0; }},
        {"contact_hertz", none, -1, none, [](Balls& w) { w.solver.settings.contact_damping_ratio = -1; }},
        {"max_linear_speed", none, -1, none, [](Balls& w) { w.solver.settings.max_linear_speed = 0; }},
        {"manifold_iterations", none, -1, none, [](Balls& w) { w.solver.settings.manifold_iterations = 0; }},
        {"manifold_tolerance", none, -1, none, [](Balls& w) { w.solver.settings.manifold_tolerance = -0.01; }},
        {"manifold_tolerance", none, -1, none, [](Balls& w) { w.solver.settings.manifold_tolerance = std::nan(""); }},
        {"gravity", none, -1, none, [](Balls& w) { w.solver.settings.gravity.y() = std::nan(""); }},
        {"shock_mass_ratio", none, -1, none, [](Balls& w) { w.solver.settings.shock_mass_ratio = 0.5; }},
        {"shock_mass_ratio", none, -1, none, [](Balls& w) { w.solver.settings.shock_mass_ratio = std::nan(""); }},
        {"load_hertz_scale", none, -1, none, [](Balls& w) { w.solver.settings.load_hertz_scale = 0.5; }},
        {"load_hertz_scale", none, -1, none, [](Balls& w) { w.solver.settings.load_hertz_scale = std::numeric_limits<double>::infinity(); }},
        {"load_hertz_from", none, -1, none, [](Balls& w) { w.solver.settings.load_hertz_from = 0.5; }},
        {"load_hertz_from", none, -1, none, [](Balls& w) { w.solver.settings.load_hertz_from = std::nan(""); }},
    };
    for (const Case& c : cases) {
        INFO(c.rule);
        Balls w(3);
        c.spoil(w);
        const impulse::Violation v = w.validate();
        REQUIRE(v);
        CHECK(std::string(v.message).find(c.rule) != std::string::npos);
        CHECK(v.manifold == c.manifold);
        CHECK(v.point == c.point);
        CHECK(v.body == c.body);
        hook::fired.clear();
        w.step();
        CHECK(fired_with(c.rule));
    }

    // The time step: validate, and the step, which then does nothing at all.
    for (double dt : {0.0, -1.0 / 60, std::nan(""), std::numeric_limits<double>::infinity()}) {
        Balls w(3);
        const auto v = impulse::view(w.bodies.data(), w.bodies.size());
        CHECK(std::string(impulse::validate(v, w.contacts.data(), w.contacts.size(), dt, w.solver.settings).message)
                  .find("time step") != std::string::npos);
        const std::vector<Body2> before = w.bodies;
        hook::fired.clear();
        w.solver.step(v, w.contacts.data(), w.contacts.size(), dt);
        CHECK(fired_with("time step"));
        for (std::size_t i = 0; i < before.size(); ++i) CHECK(same_bits(w.bodies[i], before[i]));
    }
}

TEST_CASE("an immovable body is never written, even by a contact with a non-finite body", "[assert][solver]")
{
    // The reproduction of the issue: five balls resting on one static floor, touching nothing else;
    // ball 1 has a NaN velocity (a contract violation: the check fires, the step goes on). The
    // floor's state is never written, so nothing reaches the other four through it.
    Balls w(5);
    w.bodies[1].v.x() = std::nan("");
    const Body2 floor_before = w.bodies[0];
    hook::fired.clear();
    w.step();
    CHECK(fired_with("not finite"));
    CHECK(same_bits(w.bodies[0], floor_before));
    for (std::size_t k = 2; k <= 5; ++k) {
        CHECK(w.bodies[k].v.allFinite());
        CHECK(w.bodies[k].pose.p.allFinite());
    }
}

TEST_CASE("nonfinite() lists exactly the bodies that went non-finite in the step", "[assert][solver]")
{
    // Five balls on a shared static floor; ball 3 gets a NaN angular velocity. After the step only
    // ball 3 is listed; the other four are finite and still at rest on the floor (|v| below the
    // 1 mm/s a resting ball's contact spring leaves).
    Balls w(5);
    w.step();
    CHECK(w.solver.nonfinite().empty());
    w.bodies[3].omega = std::nan("");
    w.step();
    REQUIRE(w.solver.nonfinite().size() == 1);
    CHECK(w.solver.nonfinite()[0] == 3);
    CHECK(!std::isfinite(w.bodies[3].v.x() + w.bodies[3].v.y() + w.bodies[3].omega));
    for (std::size_t k : {1u, 2u, 4u, 5u}) {
        CHECK(w.bodies[k].v.allFinite());
        CHECK(w.bodies[k].v.norm() < 1e-3);
    }
    // The engine resets the body; the next step lists nothing (the warm-start cache kept no NaN
    // impulse for its contact to hand back).
    w.bodies[3] = Balls(5).bodies[3];
    w.step();
    CHECK(w.solver.nonfinite().empty());
}

TEST_CASE("warm-start keys: a key shared within a step and a stale key are caught in debug builds",
          "[assert][solver]")
{
    // Two manifolds of one step with the same key: their points' (key, feature) collide.
    {
        Balls w(2);
        w.contacts[0].key = w.contacts[1].key = 7;
        hook::fired.clear();
        w.step();
        CHECK(fired_with("share a warm-start key"));
    }
    // Index-made keys and a compacted body array without reset(): balls of masses 1, 2, 3 on the
    // floor (keys from indices (0, 1), (0, 2), (0, 3)); then ball 1 is removed and the array
    // compacted, so the pair (0, 1) is now the floor and the 2 kg ball: the key finds last step's
    // impulse of another pair, which the inverse masses (1 vs 1/2) give away.
    {
        Balls w(3);
        for (std::size_t k = 1; k <= 3; ++k) w.bodies[k].inv_mass = 1.0 / double(k);
        hook::fired.clear();
        w.step();
        CHECK(hook::fired.empty());
        w.bodies.erase(w.bodies.begin() + 1);
        w.contacts.pop_back();  // two balls left: manifolds (0, 1), (0, 2) with the anchors of balls 2 and 3
        w.contacts[0].points[0].rA.x() = w.bodies[1].pose.p.x();
        w.contacts[1].points[0].rA.x() = w.bodies[2].pose.p.x();
        w.step();
        CHECK(fired_with("matched a pair of other bodies"));
        // After reset() the same step is clean.
        hook::fired.clear();
        w.solver.reset();
        w.step();
        CHECK(hook::fired.empty());
    }
    // Ids make the keys: the same compaction with ids kept is no longer stale.
    {
        Balls w(3);
        std::vector<std::uint64_t> ids = {100, 101, 102, 103};
        auto view = [&] {
            auto v = impulse::view(w.bodies.data(), w.bodies.size());
            v.id = impulse::Strided<const std::uint64_t>{ids.data(), std::ptrdiff_t(sizeof(std::uint64_t))};
            return v;
        };
        for (std::size_t k = 1; k <= 3; ++k) w.bodies[k].inv_mass = 1.0 / double(k);
        hook::fired.clear();
        w.solver.step(view(), w.contacts.data(), w.contacts.size(), 1.0 / 60);
        w.bodies.erase(w.bodies.begin() + 1);
        ids.erase(ids.begin() + 1);
        w.contacts.pop_back();
        w.contacts[0].points[0].rA.x() = w.bodies[1].pose.p.x();
        w.contacts[1].points[0].rA.x() = w.bodies[2].pose.p.x();
        w.solver.step(view(), w.contacts.data(), w.contacts.size(), 1.0 / 60);
        CHECK(hook::fired.empty());
    }
}
