// SPDX-License-Identifier: MIT
// solver.hpp: sequential impulses with accumulated clamping, warm starting and position correction;
// and rigid.hpp's ContactAxis, the precomputed axis the solver sweeps with.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include <Eigen/Geometry>

#include "catch.hpp"
#include "common.hpp"

using impulse::Regime;

namespace {

template <class S, int D>
impulse::Manifold<S, D> one_point(std::uint32_t a, std::uint32_t b, const impulse::Vec<S, D>& n,
                                  const impulse::Vec<S, D>& rA, const impulse::Vec<S, D>& rB, S pen,
                                  const impulse::Coefficients<S>& coefficients)
{
    impulse::Manifold<S, D> m;
    m.a = a;
    m.b = b;
    m.n = n;
    m.coefficients = coefficients;
    m.count = 1;
    m.points[0].rA = rA;
    m.points[0].rB = rB;
    m.points[0].separation = -pen;
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
    impulse::Coefficients<S> coefficients;
    coefficients.restitution = S(0.5);
    coefficients.friction = S(0.4);
    const V n = V::UnitY();
    const V v0 = S(3) * V::UnitX() - S(3) * V::UnitY();
    impulse::RigidBody<S, D> bodies[2];
    bodies[1].inv_mass = S(1);
    bodies[1].v = v0;
    const auto m = one_point<S, D>(0, 1, n, V::Zero(), V::Zero(), S(0), coefficients);
    impulse::Solver<S, D> solver;
    solver.settings.correction = impulse::PositionCorrection::none;
    solver.step(bodies, 2, &m, 1, S(1) / S(60));
    V va = V::Zero(), vb = v0;
    impulse::resolve(va, S(0), vb, S(1), n, coefficients);
    CHECK((bodies[1].v - vb).norm() <= test::tol(S(4)));
    CHECK(bodies[0].v == V::Zero());
    CHECK(solver.impulse(0, 0).jn == Approx(4.5));  // jn = -(1 + 0.5)(-3)/1
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
    impulse::Coefficients<S> coefficients;
    coefficients.friction = S(0.5);
    const auto m = one_point<S, D>(0, 1, n, V::Zero(), V(S(-0.5) * n), S(0.001), coefficients);
    impulse::Solver<S, D> solver;
    for (int step = 0; step < 10; ++step) {
        bodies[1].v -= g * dt * n;
        solver.step(bodies, 2, &m, 1, dt);
        CHECK(std::abs(bodies[1].v.dot(n)) <= test::tol(S(1)));
        CHECK(solver.impulse(0, 0).jn == Approx(S(2) * g * dt));
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
    impulse::Coefficients<S> coefficients;
    impulse::Manifold<S, 2> m[3];
    m[0] = one_point<S, 2>(0, 1, up, V::Zero(), V(S(-0.5) * up), S(0), coefficients);  // floor - ball 1
    m[1] = one_point<S, 2>(1, 2, up, V(S(0.5) * up), V(S(-0.5) * up), S(0), coefficients);
    m[2] = one_point<S, 2>(2, 3, up, V(S(0.5) * up), V(S(-0.5) * up), S(0), coefficients);
    impulse::Solver<S, 2> solver;
    solver.settings.velocity_iterations = 30;
    for (int step = 0; step < 60; ++step) {
        for (int i = 1; i < 4; ++i) bodies[i].v -= g * dt * up;
        solver.step(bodies, 4, m, 3, dt);
    }
    for (int i = 1; i < 4; ++i) CHECK(std::abs(bodies[i].v.y()) <= S(1e-3));
    CHECK(solver.impulse(0, 0).jn == Approx(S(3) * g * dt).epsilon(1e-3));
    CHECK(solver.impulse(1, 0).jn == Approx(S(2) * g * dt).epsilon(1e-3));
    CHECK(solver.impulse(2, 0).jn == Approx(S(1) * g * dt).epsilon(1e-3));
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
            impulse::Coefficients<double> coefficients;
            coefficients.restitution = rnd.uniform(0, 1);
            coefficients.friction = rnd.uniform(0, 1);
            ms.push_back(one_point<double, 2>(i % 20, (i * 7 + 3) % 20, rnd.unit(), rnd.vec(-1, 1), rnd.vec(-1, 1),
                                              rnd.uniform(0, 0.1), coefficients));
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

// ---------------------------------------------------------------------------------------------
// ContactAxis (rigid.hpp): the precomputed axis the solver sweeps with

namespace {

template <class S, int D>
impulse::RigidBody<S, D> random_body(test::Random<S, D>& rnd, bool allow_static)
{
    impulse::RigidBody<S, D> b;
    b.inv_mass = rnd.inverse_mass(allow_static);
    b.v = rnd.vec(S(-3), S(3));
    if constexpr (D == 2) {
        b.inv_inertia = b.inv_mass > S(0) ? S(1) / rnd.uniform(S(0.1), S(2)) : S(0);
        b.omega = rnd.uniform(S(-2), S(2));
    } else {
        // A symmetric positive definite inverse inertia: R diag(1/I) R^T with random moments.
        const impulse::Vec<S, 3> I(rnd.uniform(S(0.1), S(2)), rnd.uniform(S(0.1), S(2)), rnd.uniform(S(0.1), S(2)));
        const Eigen::Matrix<S, 3, 3> R =
            Eigen::AngleAxis<S>(rnd.uniform(S(0), S(3)), rnd.unit()).toRotationMatrix();
        b.inv_inertia = b.inv_mass > S(0) ? impulse::world_inverse_inertia(I, R) : Eigen::Matrix<S, 3, 3>::Zero();
        b.omega = rnd.vec(S(-2), S(2));
    }
    return b;
}

/// A random spinning body about to hit a static floor (normal +y) at rB, half a unit below its
/// centre and off to the side: rotation couples the normal and friction axes (n.K.t != 0).
template <class S, int D>
struct OffCentreHit {
    impulse::RigidBody<S, D> body;
    impulse::Vec<S, D> rB;
    explicit OffCentreHit(test::Random<S, D>& rnd) : body(random_body(rnd, false)), rB(rnd.vec(S(-0.5), S(0.5)))
    {
        rB.y() = S(-0.5);
        body.v.y() = -std::abs(body.v.y()) - S(1);  // approaching
    }
};

}  // namespace

TEMPLATE_TEST_CASE("a contact axis gives RigidContact's speed, effective mass and impulse", "[solver][rigid]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    using V = typename TestType::V;
    // ContactAxis precomputes rA x d, rB x d and IA^-1 (rA x d), IB^-1 (rB x d); with them
    // speed = d.(vB - vA) + (rB x d).wB - (rA x d).wA equals RigidContact's relative velocity
    // along d because (w x r).d = w.(r x d), and apply(lambda) equals RigidContact::apply(lambda d).
    test::Random<S, D> rnd(11u);
    for (int i = 0; i < 200; ++i) {
        impulse::RigidBody<S, D> A = random_body(rnd, true), B = random_body(rnd, false);
        const V rA = rnd.vec(S(-1), S(1)), rB = rnd.vec(S(-1), S(1)), d = rnd.unit();
        const impulse::RigidContact<S, D> rc(A, rA, B, rB);
        const impulse::ContactAxis<S, D> axis(rc, d);
        impulse::Motion<S, D> mA(A), mB(B);
        const S scale = S(10);
        CHECK(std::abs(axis.speed(mA, mB) - rc.relative_velocity().dot(d)) <= test::tol(scale));
        CHECK(axis.mass * rc.inverse_mass(d) == Approx(S(1)).epsilon(test::tol(S(10))));
        const S lambda = rnd.uniform(S(-2), S(2));
        axis.apply(mA, mB, lambda);
        rc.apply(V(lambda * d));
        CHECK((mA.v - A.v).norm() <= test::tol(scale));
        CHECK((mB.v - B.v).norm() <= test::tol(scale));
        if constexpr (D == 2) {
            CHECK(std::abs(mA.omega - A.omega) <= test::tol(scale));
            CHECK(std::abs(mB.omega - B.omega) <= test::tol(scale));
        } else {
            CHECK((mA.omega - A.omega).norm() <= test::tol(scale));
            CHECK((mB.omega - B.omega).norm() <= test::tol(scale));
        }
    }
}

TEMPLATE_TEST_CASE("a contact axis leaves an immovable body exactly as it was", "[solver][rigid]", test::F2,
                   test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    using V = typename TestType::V;
    // A moving platform (inverse mass and inertia 0, velocity set): +-0 is added, bit for bit nothing.
    impulse::RigidBody<S, D> A, B;
    A.v = V::Constant(S(0.3));
    B.inv_mass = S(1);
    const impulse::RigidContact<S, D> rc(A, V::Constant(S(0.7)), B, V::Constant(S(-0.2)));
    const impulse::ContactAxis<S, D> axis(rc, V::UnitX());
    impulse::Motion<S, D> mA(A), mB(B);
    axis.apply(mA, mB, S(123.456));
    CHECK(mA.v == A.v);
    CHECK(mA.omega == A.omega);
    CHECK(mB.v.x() == Approx(123.456));
}

TEST_CASE("a contact axis along the floor of a disk has the rolling effective mass m/3", "[solver][rigid]")
{
    // A disk (m = 2, r = 0.5, I = m r^2/2 = 0.25) on a static floor, contact point rB = (0, -0.5).
    // Along t = (-1, 0): rB x t = 0*0 - (-0.5)(-1) = -0.5, so k = 1/m + (rB x t)^2 / I
    // = 0.5 + 0.25/0.25 = 1.5 = 3/m: the effective mass is m/3 = 2/3. Along n = (0, 1) the arm is 0
    // and the mass is m = 2.
    impulse::RigidBody<double, 2> floor, disk;
    disk.inv_mass = 0.5;
    disk.inv_inertia = 1.0 / 0.25;
    const impulse::RigidContact<double, 2> rc(floor, impulse::Vec2d::Zero(), disk, impulse::Vec2d(0, -0.5));
    const impulse::ContactAxis<double, 2> t(rc, impulse::Vec2d(-1, 0)), n(rc, impulse::Vec2d(0, 1));
    CHECK(t.armB == Approx(-0.5));
    CHECK(t.spinB == Approx(-0.5 / 0.25));
    CHECK(t.mass == Approx(2.0 / 3.0));
    CHECK(n.armB == 0.0);
    CHECK(n.mass == Approx(2.0));
}

// ---------------------------------------------------------------------------------------------
// The solver's phases, its order, and what it converges to

TEST_CASE("a step is prepare, the velocity passes and finish", "[solver]")
{
    // Calling the phases by hand (as an engine that times them or adds its own constraints does)
    // gives bit for bit what step() gives.
    auto pile = [] {
        test::Random<double, 2> rnd(9u);
        std::vector<impulse::RigidBody<double, 2>> bodies(30);
        for (std::size_t i = 1; i < bodies.size(); ++i) bodies[i] = random_body(rnd, false);
        std::vector<impulse::Manifold<double, 2>> ms;
        for (std::uint32_t i = 0; i < 60; ++i) {
            impulse::Coefficients<double> coefficients;
            coefficients.restitution = rnd.uniform(0, 1);
            coefficients.friction = rnd.uniform(0, 1);
            const std::uint32_t a = i % 30, b = (i * 7 + 3) % 30;
            if (a == b) continue;
            ms.push_back(one_point<double, 2>(a, b, rnd.unit(), rnd.vec(-1, 1), rnd.vec(-1, 1), rnd.uniform(0, 0.1), coefficients));
        }
        return std::make_pair(bodies, ms);
    };
    auto [a, ms] = pile();
    auto b = a;
    impulse::Solver<double, 2> one, three;
    for (int s = 0; s < 5; ++s) {
        one.step(a.data(), a.size(), ms.data(), ms.size(), 1.0 / 60);
        three.prepare(b.data(), b.size(), ms.data(), ms.size(), 1.0 / 60);
        for (int i = 0; i < three.settings.velocity_iterations; ++i) three.solve_velocities();
        three.finish();
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(std::memcmp(a[i].v.data(), b[i].v.data(), sizeof(double) * 2) == 0);
        CHECK(std::memcmp(&a[i].omega, &b[i].omega, sizeof(double)) == 0);
        CHECK(one.position_velocity(a.data(), i) == three.position_velocity(b.data(), i));
    }
    CHECK(one.point_count() == ms.size());
}

TEMPLATE_TEST_CASE("iterated to convergence, one rotating contact reaches the coupled contact-space answer",
                   "[solver]", test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    using V = typename TestType::V;
    // A spinning body hits a static floor off-centre, so normal and friction couple through its
    // inertia (K's off-diagonal terms n.K.t are not 0). With friction high enough to stick, the
    // exact answer takes the normal speed to -e vn and the tangential speed to 0 at once: the
    // coupled solve (resolve_coupled, rigid.hpp). Sequential impulses converge to the same
    // answer; the solver reads the normal speed before applying friction and corrects it by
    // n.K.t times the friction impulse, so it must converge there too.
    test::Random<S, D> rnd(3u);
    const OffCentreHit<S, D> hit(rnd);
    impulse::RigidBody<S, D> body = hit.body;
    const V n = V::UnitY(), rB = hit.rB;
    impulse::Coefficients<S> coefficients;
    coefficients.restitution = S(0.5);
    coefficients.friction = S(10);  // sticks
    impulse::RigidBody<S, D> floor, floor2, exact = body;
    impulse::resolve_coupled(floor2, V::Zero(), exact, rB, n, coefficients);

    impulse::RigidBody<S, D> bodies[2] = {floor, body};
    const auto m = one_point<S, D>(0, 1, n, V::Zero(), rB, S(0), coefficients);
    impulse::Solver<S, D> solver;
    solver.settings.correction = impulse::PositionCorrection::none;
    solver.settings.velocity_iterations = 300;
    solver.step(bodies, 2, &m, 1, S(1) / S(60));
    CHECK((bodies[1].v - exact.v).norm() <= S(1e-9));
    if constexpr (D == 2) CHECK(std::abs(bodies[1].omega - exact.omega) <= S(1e-9));
    else CHECK((bodies[1].omega - exact.omega).norm() <= S(1e-9));
}

TEMPLATE_TEST_CASE("each pass solves friction, then the normal from the velocity friction left", "[solver]",
                   test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    using V = typename TestType::V;
    // Two passes over one off-centre contact of a spinning body, by hand with RigidContact (the
    // sequential order of box2d-lite: friction within +-mu Pn, applied; then the normal from the
    // relative velocity after it) and by the solver. Rotation couples the axes (n.K.t != 0), so
    // reading the normal speed before friction was applied, without the solver's correction
    // n.K.t dPt, would give a different second pass.
    test::Random<S, D> rnd(21u);
    const OffCentreHit<S, D> hit(rnd);
    impulse::RigidBody<S, D> body = hit.body;
    const V n = V::UnitY(), rB = hit.rB;
    impulse::Coefficients<S> coefficients;
    coefficients.restitution = S(0.3);
    coefficients.friction = S(0.4);

    impulse::RigidBody<S, D> floor, hand = body;
    const impulse::RigidContact<S, D> rc(floor, V::Zero(), hand, rB);
    const Eigen::Matrix<S, D, D> C = impulse::contact_basis(n);
    const S vn0 = rc.relative_velocity().dot(n);
    const S target = -coefficients.restitution * vn0;  // restitution from the approach before solving
    S jn = S(0);
    Eigen::Matrix<S, D - 1, 1> jt = Eigen::Matrix<S, D - 1, 1>::Zero();
    for (int pass = 0; pass < 2; ++pass) {
        const V rv = rc.relative_velocity();
        Eigen::Matrix<S, D - 1, 1> next = jt;
        for (int j = 0; j < D - 1; ++j) {
            const V t = C.col(j + 1);
            next[j] -= rv.dot(t) / rc.inverse_mass(t);
        }
        const S cap = S(0.4) * jn;
        if (next.norm() > cap) next *= cap / next.norm();
        V J = V::Zero();
        for (int j = 0; j < D - 1; ++j) J += (next[j] - jt[j]) * V(C.col(j + 1));
        rc.apply(J);
        jt = next;
        const S vn = rc.relative_velocity().dot(n);  // after friction
        const S P = std::max(S(0), jn + (target - vn) / rc.inverse_mass(n));
        rc.apply(V((P - jn) * n));
        jn = P;
    }

    impulse::RigidBody<S, D> bodies[2] = {floor, body};
    const auto m = one_point<S, D>(0, 1, n, V::Zero(), rB, S(0), coefficients);
    impulse::Solver<S, D> solver;
    solver.settings.correction = impulse::PositionCorrection::none;
    solver.settings.velocity_iterations = 2;
    solver.step(bodies, 2, &m, 1, S(1) / S(60));
    CHECK(solver.impulse(0, 0).jn == Approx(jn).epsilon(1e-12));
    CHECK((solver.impulse(0, 0).jt - jt).norm() <= S(1e-12));
    CHECK((bodies[1].v - hand.v).norm() <= S(1e-12));
}

TEMPLATE_TEST_CASE("the split impulse removes the overlap the solved velocities would leave", "[solver]",
                   test::F2, test::D2)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // A ball sunk 0.1 into a static floor and already moving up at u = 1.2 m/s (a bounce, e = 1):
    // after the velocity passes it still moves up at 1.2 (it separates: no impulse), and in this
    // step it rises u dt = 0.02 by itself. The split impulse removes `percent` of what is left
    // beyond slop: pseudo speed = percent * (0.1 - u dt - slop) / dt.
    const S dt = S(1) / S(60), u = S(1.2);
    const V up = V::UnitY();
    const auto m = one_point<S, 2>(0, 1, up, V::Zero(), V(S(-0.5) * up), S(0.1), impulse::Coefficients<S>{});
    impulse::RigidBody<S, 2> bodies[2];
    bodies[1].inv_mass = S(1);
    bodies[1].v = u * up;
    impulse::Solver<S, 2> solver;
    solver.step(bodies, 2, &m, 1, dt);
    CHECK(bodies[1].v.y() == Approx(u));
    const S pseudo = solver.settings.percent * (S(0.1) - u * dt - solver.settings.slop) / dt;
    CHECK(solver.position_velocity(bodies, 1).y() - bodies[1].v.y() == Approx(pseudo).epsilon(1e-4));
}

TEST_CASE("warm starting finds last step's impulses whatever order the contacts come in", "[solver]")
{
    // The three-ball stack of above, solved for a second with its contacts in one order; then one
    // step with them reversed and no iterations at all: only the warm start acts, and the impulses
    // it finds (3, 2 and 1 ball weights) cancel the step's gravity on every ball.
    const double g = 9.8, dt = 1.0 / 60;
    impulse::RigidBody<double, 2> bodies[4];
    for (int i = 1; i < 4; ++i) bodies[i].inv_mass = 1.0;
    const impulse::Vec2d up(0, 1);
    impulse::Manifold<double, 2> m[3];
    m[0] = one_point<double, 2>(0, 1, up, impulse::Vec2d::Zero(), -0.5 * up, 0.0, {});
    m[1] = one_point<double, 2>(1, 2, up, 0.5 * up, -0.5 * up, 0.0, {});
    m[2] = one_point<double, 2>(2, 3, up, 0.5 * up, -0.5 * up, 0.0, {});
    impulse::Solver<double, 2> solver;
    solver.settings.velocity_iterations = 30;
    for (int step = 0; step < 60; ++step) {
        for (int i = 1; i < 4; ++i) bodies[i].v -= g * dt * up;
        solver.step(bodies, 4, m, 3, dt);
    }
    const impulse::Manifold<double, 2> reversed[3] = {m[2], m[1], m[0]};
    solver.settings.velocity_iterations = 0;
    for (int i = 1; i < 4; ++i) bodies[i].v -= g * dt * up;
    solver.step(bodies, 4, reversed, 3, dt);
    for (int i = 1; i < 4; ++i) CHECK(std::abs(bodies[i].v.y()) <= 1e-3);
    CHECK(solver.impulse(0, 0).jn == Approx(1 * g * dt).epsilon(1e-3));  // reversed[0]: the top contact
    CHECK(solver.impulse(2, 0).jn == Approx(3 * g * dt).epsilon(1e-3));  // reversed[2]: the floor
}

TEST_CASE("the solve order interleaves the points but every pass solves each once", "[solver]")
{
    // 20 independent contacts (each its own pair of bodies), so the order cannot matter: one pass
    // gives every contact its sequential answer, and impulse(m, 0) still reports manifold m's own.
    const std::size_t n = 20;
    std::vector<impulse::RigidBody<double, 2>> bodies(2 * n);
    std::vector<impulse::Manifold<double, 2>> ms;
    impulse::Coefficients<double> coefficients;
    coefficients.restitution = 0.5;
    for (std::uint32_t i = 0; i < n; ++i) {
        bodies[2 * i + 1].inv_mass = 1.0;
        bodies[2 * i + 1].v = impulse::Vec2d(0, -1.0 - i);  // approaching at 1 + i
        ms.push_back(one_point<double, 2>(2 * i, 2 * i + 1, impulse::Vec2d(0, 1), impulse::Vec2d::Zero(),
                                          impulse::Vec2d::Zero(), 0.0, coefficients));
    }
    impulse::Solver<double, 2> solver;
    solver.settings.velocity_iterations = 1;
    solver.settings.correction = impulse::PositionCorrection::none;
    solver.step(bodies.data(), bodies.size(), ms.data(), ms.size(), 1.0 / 60);
    for (std::uint32_t i = 0; i < n; ++i) {
        // jn = -(1 + e) vn / (wA + wB) = 1.5 (1 + i); the ball leaves at e (1 + i) = 0.5 (1 + i).
        CHECK(solver.impulse(i, 0).jn == Approx(1.5 * (1.0 + i)));
        CHECK(bodies[2 * i + 1].v.y() == Approx(0.5 * (1.0 + i)));
    }
}

TEST_CASE("reserve makes room for a step's size", "[solver]")
{
    // After reserve, steps up to that size work as without it (the allocation count itself is
    // checked by the scenes' own test program, which replaces operator new).
    impulse::RigidBody<double, 2> bodies[2];
    bodies[1].inv_mass = 1.0;
    bodies[1].v = impulse::Vec2d(0, -2);
    const auto m = one_point<double, 2>(0, 1, impulse::Vec2d(0, 1), impulse::Vec2d::Zero(), impulse::Vec2d::Zero(),
                                        0.0, impulse::Coefficients<double>{});
    impulse::Solver<double, 2> solver;
    solver.reserve(2, 1, 1);
    solver.step(bodies, 2, &m, 1, 1.0 / 60);
    CHECK(bodies[1].v.y() == Approx(0.0).margin(1e-12));  // e = 0: the approach is stopped
    CHECK(solver.impulse(0, 0).jn == Approx(2.0));   // jn = -(1 + 0)(-2)/1
}
