// SPDX-License-Identifier: MIT
// solver.hpp: sequential impulses with accumulated clamping, warm starting and position correction.
#include <cstring>

#include "catch.hpp"
#include "common.hpp"

using impulse::Regime;

namespace {

template <class S, int D>
impulse::Manifold<S, D> one_point(std::uint32_t a, std::uint32_t b, const impulse::Vec<S, D>& n,
                                  const impulse::Vec<S, D>& rA, const impulse::Vec<S, D>& rB, S pen,
                                  const impulse::Coefficients<S>& k)
{
    impulse::Manifold<S, D> m;
    m.a = a;
    m.b = b;
    m.n = n;
    m.k = k;
    m.count = 1;
    m.points[0].rA = rA;
    m.points[0].rB = rB;
    m.points[0].penetration = pen;
    return m;
}

}  // namespace

TEMPLATE_TEST_CASE("one contact, iterated: the solver reaches the sequential answer", "[solver]", test::F2,
                   test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    using V = typename TestType::V;
    // A point mass on a static floor: normal and friction do not couple, so after the first pass
    // (normal: Pn = jn) the second pass applies friction capped at mu*jn, exactly what resolve()
    // does in one go; later passes change nothing. Same inputs as the seed tangent trace.
    impulse::Coefficients<S> k;
    k.restitution = S(0.5);
    k.friction = S(0.4);
    const V n = V::UnitY();
    const V v0 = S(3) * V::UnitX() - S(3) * V::UnitY();
    impulse::RigidBody<S, D> bodies[2];
    bodies[1].inv_mass = S(1);
    bodies[1].v = v0;
    const auto m = one_point<S, D>(0, 1, n, V::Zero(), V::Zero(), S(0), k);
    impulse::Solver<S, D> solver;
    solver.settings.correction = impulse::PositionCorrection::none;
    solver.step(bodies, 2, &m, 1, S(1) / S(60));
    V va = V::Zero(), vb = v0;
    impulse::resolve(va, S(0), vb, S(1), n, k);
    CHECK((bodies[1].v - vb).norm() <= test::tol(S(4)));
    CHECK(bodies[0].v == V::Zero());
    CHECK(solver.impulse(0, 0).normal == Approx(4.5));  // jn = -(1 + 0.5)(-3)/1
}

TEMPLATE_TEST_CASE("a resting ball keeps resting and warm starting carries its weight", "[solver]", test::F2,
                   test::D2, test::F3, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    using V = typename TestType::V;
    // Ball m = 2 resting on a static floor: each step gravity adds -g*dt and the contact must take
    // it out again; the accumulated impulse is the weight's impulse m*g*dt. With warm starting the
    // stored impulse alone already cancels gravity, so the solver starts from the answer.
    const S g = S(9.8), dt = S(1) / S(60);
    impulse::RigidBody<S, D> bodies[2];
    bodies[1].inv_mass = S(0.5);
    const V n = V::UnitY();
    impulse::Coefficients<S> k;
    k.friction = S(0.5);
    const auto m = one_point<S, D>(0, 1, n, V::Zero(), V(S(-0.5) * n), S(0.001), k);
    impulse::Solver<S, D> solver;
    for (int step = 0; step < 10; ++step) {
        bodies[1].v -= g * dt * n;
        solver.step(bodies, 2, &m, 1, dt);
        CHECK(std::abs(bodies[1].v.dot(n)) <= test::tol(S(1)));
        CHECK(solver.impulse(0, 0).normal == Approx(S(2) * g * dt));
    }
    // Warm start only (no iterations): the cached impulse cancels the step's gravity by itself.
    solver.settings.velocity_iterations = 0;
    bodies[1].v -= g * dt * n;
    solver.step(bodies, 2, &m, 1, dt);
    CHECK(std::abs(bodies[1].v.dot(n)) <= test::tol(S(1)));
}

TEMPLATE_TEST_CASE("accumulated clamping: a stack of three balls holds without pulling", "[solver]", test::F2,
                   test::D2)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // Three unit balls (m = 1, r = 0.5) stacked on a static floor: the contacts must carry 3, 2 and
    // 1 ball weights (m g dt each), every accumulated impulse stays >= 0, and nothing moves.
    const S g = S(9.8), dt = S(1) / S(60);
    impulse::RigidBody<S, 2> bodies[4];
    for (int i = 1; i < 4; ++i) bodies[i].inv_mass = S(1);
    const V up = V::UnitY();
    impulse::Coefficients<S> k;
    impulse::Manifold<S, 2> m[3];
    m[0] = one_point<S, 2>(0, 1, up, V::Zero(), V(S(-0.5) * up), S(0), k);  // floor - ball 1
    m[1] = one_point<S, 2>(1, 2, up, V(S(0.5) * up), V(S(-0.5) * up), S(0), k);
    m[2] = one_point<S, 2>(2, 3, up, V(S(0.5) * up), V(S(-0.5) * up), S(0), k);
    impulse::Solver<S, 2> solver;
    solver.settings.velocity_iterations = 30;
    for (int step = 0; step < 60; ++step) {
        for (int i = 1; i < 4; ++i) bodies[i].v -= g * dt * up;
        solver.step(bodies, 4, m, 3, dt);
    }
    for (int i = 1; i < 4; ++i) CHECK(std::abs(bodies[i].v.y()) <= S(1e-3));
    CHECK(solver.impulse(0, 0).normal == Approx(S(3) * g * dt).epsilon(1e-3));
    CHECK(solver.impulse(1, 0).normal == Approx(S(2) * g * dt).epsilon(1e-3));
    CHECK(solver.impulse(2, 0).normal == Approx(S(1) * g * dt).epsilon(1e-3));
}

TEMPLATE_TEST_CASE("split impulse removes penetration without a bounce; Baumgarte bounces", "[solver]",
                   test::F2, test::D2)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // A ball at rest sunk 0.1 into a static floor. Split impulse: the real velocity stays 0 (no
    // energy added) while the position velocity pushes it out. Baumgarte: the push is a real
    // velocity, percent*(pen - slop)/dt, which the ball keeps.
    const S dt = S(1) / S(60);
    const V up = V::UnitY();
    const auto m = one_point<S, 2>(0, 1, up, V::Zero(), V(S(-0.5) * up), S(0.1), impulse::Coefficients<S>{});
    for (auto mode : {impulse::PositionCorrection::split_impulse, impulse::PositionCorrection::baumgarte}) {
        impulse::RigidBody<S, 2> bodies[2];
        bodies[1].inv_mass = S(1);
        impulse::Solver<S, 2> solver;
        solver.settings.correction = mode;
        solver.step(bodies, 2, &m, 1, dt);
        const S push = solver.settings.percent * (S(0.1) - solver.settings.slop) / dt;
        if (mode == impulse::PositionCorrection::split_impulse) {
            CHECK(bodies[1].v == V::Zero());
            CHECK(solver.position_velocity(bodies, 1).y() == Approx(push));
        } else {
            CHECK(bodies[1].v.y() == Approx(push));
        }
    }
}

TEST_CASE("the same input gives bitwise the same output", "[solver]")
{
    // A small random pile, run twice from the same state: every velocity bit for bit equal.
    auto run = [] {
        test::Random<double, 2> rnd(5u);
        std::vector<impulse::RigidBody<double, 2>> bodies(20);
        std::vector<impulse::Manifold<double, 2>> ms;
        for (std::size_t i = 1; i < bodies.size(); ++i) {
            bodies[i].inv_mass = 1.0 / rnd.uniform(0.5, 2.0);
            bodies[i].inv_inertia = 1.0 / rnd.uniform(0.1, 1.0);
            bodies[i].v = rnd.vec(-3, 3);
        }
        for (std::uint32_t i = 0; i < 40; ++i) {
            impulse::Coefficients<double> k;
            k.restitution = rnd.uniform(0, 1);
            k.friction = rnd.uniform(0, 1);
            ms.push_back(one_point<double, 2>(i % 20, (i * 7 + 3) % 20, rnd.unit(), rnd.vec(-1, 1), rnd.vec(-1, 1),
                                              rnd.uniform(0, 0.1), k));
        }
        impulse::Solver<double, 2> solver;
        for (int s = 0; s < 20; ++s) solver.step(bodies.data(), bodies.size(), ms.data(), ms.size(), 1.0 / 60);
        return bodies;
    };
    const auto a = run(), b = run();
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(std::memcmp(a[i].v.data(), b[i].v.data(), sizeof(double) * 2) == 0);
        CHECK(std::memcmp(&a[i].omega, &b[i].omega, sizeof(double)) == 0);
    }
}
