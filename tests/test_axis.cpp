// SPDX-License-Identifier: MIT
// axis.hpp: the one-axis building blocks shared by every responder and the solver.
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Geometry>
#include <impulse/detail/wide_axis.hpp>

#include "catch.hpp"
#include "common.hpp"

using impulse::Regime;

TEST_CASE("bounce impulse along one axis", "[axis]")
{
    // vn = -4, k = 1.5, e = 1: jn = -(2)(-4)/1.5 = 16/3; after: vn + k*jn = -4 + 8 = 4 = -e*vn.
    CHECK(impulse::bounce_impulse(-4.0, 1.5, 1.0) == Approx(16.0 / 3));
    CHECK(-4.0 + 1.5 * impulse::bounce_impulse(-4.0, 1.5, 1.0) == Approx(4.0));
    CHECK(impulse::bounce_impulse(0.0, 1.5, 1.0) == 0.0);   // resting
    CHECK(impulse::bounce_impulse(2.0, 1.5, 1.0) == 0.0);   // separating
    CHECK(impulse::bounce_impulse(-4.0, 0.0, 1.0) == 0.0);  // immovable: no division
}

TEST_CASE("restitution drops to zero at or below the threshold approach speed", "[axis]")
{
    CHECK(impulse::effective_restitution(0.8, -2.0, 1.0) == 0.8);  // approach 2 > 1
    CHECK(impulse::effective_restitution(0.8, -1.0, 1.0) == 0.0);  // approach 1, not above 1
    CHECK(impulse::effective_restitution(0.8, -0.5, 1.0) == 0.0);
    CHECK(impulse::effective_restitution(0.8, -1e-9, 0.0) == 0.8);  // threshold 0: textbook
}

TEST_CASE("Coulomb clamp: stick inside the band, slide at its edge with the wanted sign", "[axis]")
{
    // jn = 4, mu = 0.5: band [-2, 2].
    auto c = impulse::coulomb(1.5, 4.0, impulse::Friction<double>(0.5));
    CHECK(c.regime == Regime::sticking);
    CHECK(c.j == 1.5);
    c = impulse::coulomb(-2.0, 4.0, impulse::Friction<double>(0.5));  // on the edge: still sticks
    CHECK(c.regime == Regime::sticking);
    CHECK(c.j == -2.0);
    c = impulse::coulomb(6.0, 4.0, impulse::Friction<double>(0.5));
    CHECK(c.regime == Regime::sliding);
    CHECK(c.j == 2.0);
    c = impulse::coulomb(-6.0, 4.0, impulse::Friction<double>(0.5));
    CHECK(c.regime == Regime::sliding);
    CHECK(c.j == -2.0);  // the clamp is [-cap, +cap], not [0, cap]
    c = impulse::coulomb(6.0, 0.0, impulse::Friction<double>(0.5));  // no normal impulse, no grip
    CHECK(c.regime == Regime::sliding);
    CHECK(c.j == 0.0);
}

TEST_CASE("accumulated clamping applies only the change of the clamped total", "[axis]")
{
    // box2d-lite: total 3, lambda -5 would make -2; clamped to 0 the applied change is -3.
    double total = 3.0;
    CHECK(impulse::accumulate(total, -5.0, 0.0, 1e300) == -3.0);
    CHECK(total == 0.0);
    // Friction band [-1, 1]: total 0.5 + 2 -> 1, change 0.5; then -0.25 -> 0.75, change -0.25.
    total = 0.5;
    CHECK(impulse::accumulate(total, 2.0, -1.0, 1.0) == 0.5);
    CHECK(impulse::accumulate(total, -0.25, -1.0, 1.0) == -0.25);
    CHECK(total == 0.75);
}

TEST_CASE("regimes have the names the tool prints", "[axis]")
{
    CHECK(std::string(impulse::to_string(Regime::separating)) == "separating");
    CHECK(std::string(impulse::to_string(Regime::sticking)) == "sticking");
    CHECK(std::string(impulse::to_string(Regime::sliding)) == "sliding");
    CHECK(std::string(impulse::to_string(Regime::immovable)) == "immovable");
}

TEMPLATE_TEST_CASE("the solver's 3x3 product sums each row m0 v0 + (m1 v1 + m2 v2) on every vector unit",
                   "[axis]", float, double)
{
    using S = TestType;
    // Row i holds (1, big, -big) in a rotated order of columns, v = (1, 1, 1): summed as documented,
    // m0 v0 + (m1 v1 + m2 v2), the row gives 1 + (big - big) = 1 when the two large terms are the
    // last two; (m0 v0 + m1 v1) + m2 v2 would give (1 + big) - big = 0, since 1 + big rounds to big
    // for big = 2^(digits + 1) (2^25 in float, 2^54 in double). Row 0: the large terms last, exactly 1.
    // Row 1: (big, -big, 1): (big + (-big + 1)) = big - big = 0, the 1 lost inside the bracket.
    // Row 2: (-big, 1, big): -big + (1 + big) = -big + big = 0.
    const S big = std::ldexp(S(1), std::numeric_limits<S>::digits + 1);
    Eigen::Matrix<S, 3, 3> m;
    m << S(1), big, -big,  //
        big, -big, S(1),   //
        -big, S(1), big;
    const impulse::Vec<S, 3> r = impulse::detail::ordered_product(m, impulse::Vec<S, 3>(S(1), S(1), S(1)));
    CHECK(r[0] == S(1));
    CHECK(r[1] == S(0));
    CHECK(r[2] == S(0));
    // And it is the product: a general case against the exact sums (small integers, no rounding).
    Eigen::Matrix<S, 3, 3> a;
    a << S(1), S(2), S(3), S(4), S(5), S(6), S(7), S(8), S(10);
    const impulse::Vec<S, 3> x = impulse::detail::ordered_product(a, impulse::Vec<S, 3>(S(1), S(-1), S(2)));
    CHECK(x == impulse::Vec<S, 3>(S(5), S(11), S(19)));  // 1-2+6, 4-5+12, 7-8+20
    CHECK(impulse::detail::inertia_times(S(3), S(2)) == S(6));  // 2D: a product of scalars
}

TEMPLATE_TEST_CASE("the solver's 3D dot product sums a0 b0 + (a1 b1 + a2 b2), and its wide rows repeat it "
                   "and the 3x3 product lane by lane",
                   "[axis]", float, double)
{
    using S = TestType;
    using V = impulse::Vec<S, 3>;
    // As the product's rows above: with b = (1, 1, 1) and big = 2^(digits + 1), a = (1, big, -big)
    // gives 1 + (big - big) = 1 in the documented order and (1 + big) - big = 0 in the other;
    // (big, -big, 1) gives big + (-big + 1) = 0 (the 1 lost in the bracket), (-big, 1, big) 0.
    const S big = std::ldexp(S(1), std::numeric_limits<S>::digits + 1);
    const V ones(S(1), S(1), S(1));
    CHECK(impulse::detail::row_dot(V(S(1), big, -big), ones) == S(1));
    CHECK(impulse::detail::row_dot(V(big, -big, S(1)), ones) == S(0));
    CHECK(impulse::detail::row_dot(V(-big, S(1), big), ones) == S(0));
    CHECK(impulse::detail::row_dot(V(S(1), S(-1), S(2)), V(S(3), S(5), S(7))) == S(12));  // 3 - 5 + 14, exact

    // The wide pieces give each lane the scalar piece's bits: lane l holds its own vectors and
    // matrix (lane 0 the cancelling rows above, the others thirds and sevenths, which round).
    namespace simd = impulse::detail::simd;
    using P = simd::Wide<S>;
    constexpr int W = simd::lanes<P>;
    V a[W], b[W];
    Eigen::Matrix<S, 3, 3> m[W];
    for (int l = 0; l < W; ++l) {
        const S x = S(l + 1) / S(3), y = S(l + 2) / S(7);
        a[l] = l == 0 ? V(S(1), big, -big) : V(x, -y, x * y);
        b[l] = l == 0 ? ones : V(y, x, -S(l));
        m[l] << x, y, -x, big * S(l == 0), -y, S(1), S(l), x - y, -big * S(l == 0);
    }
    P wa[3], wb[3], wm[9];
    for (int k = 0; k < 3; ++k) {
        S lane_a[W], lane_b[W];
        for (int l = 0; l < W; ++l) {
            lane_a[l] = a[l][k];
            lane_b[l] = b[l][k];
        }
        wa[k] = simd::load<P>(lane_a);
        wb[k] = simd::load<P>(lane_b);
    }
    for (int k = 0; k < 9; ++k) {
        S lane[W];
        for (int l = 0; l < W; ++l) lane[l] = m[l].data()[k];  // column by column, as Eigen holds it
        wm[k] = simd::load<P>(lane);
    }
    S dot[W], product[3][W];
    simd::store(dot, impulse::detail::wide_row_dot(wa, wb));
    P wp[3];
    impulse::detail::wide_product(wm, wb, wp);
    for (int k = 0; k < 3; ++k) simd::store(product[k], wp[k]);
    for (int l = 0; l < W; ++l) {
        CAPTURE(l);
        CHECK(dot[l] == impulse::detail::row_dot(a[l], b[l]));
        const V want = impulse::detail::ordered_product(m[l], b[l]);
        for (int k = 0; k < 3; ++k) CHECK(product[k][l] == want[k]);
    }
    CHECK(dot[0] == S(1));
}

// ---------------------------------------------------------------------------------------------
// ContactAxis: one direction of a rigid contact, precomputed for iterative solvers

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

}  // namespace

TEMPLATE_TEST_CASE("a contact axis gives RigidContact's speed, effective mass and impulse", "[axis][rigid]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    using V = typename TestType::V;
    // ContactAxis precomputes rA x d, rB x d and IA^-1 (rA x d), IB^-1 (rB x d); with them
    // speed = d.(vB - vA) + (rB x d).wB - (rA x d).wA equals RigidContact's relative velocity
    // along d because (w x r).d = w.(r x d), and apply(j) equals RigidContact::apply(j d).
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
        const S j = rnd.uniform(S(-2), S(2));
        axis.apply(mA, mB, j);
        rc.apply(V(j * d));
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

TEMPLATE_TEST_CASE("a contact axis leaves an immovable body exactly as it was", "[axis][rigid]", test::F2,
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

TEST_CASE("a contact axis along the floor of a disk has the rolling effective mass m/3", "[axis][rigid]")
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
// Soft constraints

TEST_CASE("a contact's softness follows from its frequency, damping ratio and substep", "[axis][soft]")
{
    // 30 Hz, zeta 10, h = 1/240: omega = 60 pi = 188.4956; a1 = 2 zeta + h omega = 20.785398;
    // a2 = h omega a1 = 16.324... ; bias_rate = omega / a1, mass_scale = a2 / (1 + a2),
    // impulse_scale = 1 / (1 + a2).
    const double h = 1.0 / 240, omega = 2 * 3.14159265358979323846 * 30;
    const double a1 = 20 + h * omega, a2 = h * omega * a1;
    const auto s = impulse::make_softness(30.0, 10.0, h);
    CHECK(s.bias_rate == Approx(omega / a1));
    CHECK(s.mass_scale == Approx(a2 / (1 + a2)));
    CHECK(s.impulse_scale == Approx(1 / (1 + a2)));
    CHECK(s.mass_scale + s.impulse_scale == Approx(1.0));  // a2/(1+a2) + 1/(1+a2)
    // No stiffness: no push at all.
    const auto none = impulse::make_softness(0.0, 10.0, h);
    CHECK(none.bias_rate == 0.0);
    CHECK(none.mass_scale == 0.0);
}

TEST_CASE("the soft normal impulse: speculative gaps close no faster than the substep allows", "[axis][soft]")
{
    const double h = 1.0 / 240, inv_h = 240, mass = 2;
    const auto soft = impulse::make_softness(30.0, 10.0, h);
    // A gap s = 1 cm closing at 5 m/s: the bias s/h = 2.4 m/s lets it close at 2.4 m/s, exactly
    // reaching the surface at the end of the substep: j = -m (vn + s/h) = -2 (-5 + 2.4) = 5.2,
    // rigid (no softness), with or without the bias.
    for (bool bias : {true, false}) {
        double total = 0;
        CHECK(impulse::soft_normal(total, -5.0, 0.01, mass, inv_h, soft, 3.0, bias) == Approx(5.2));
        CHECK(total == Approx(5.2));
    }
    // A gap closing slower than s/h needs no impulse: the accumulated impulse stays at 0.
    double total = 0;
    CHECK(impulse::soft_normal(total, -1.0, 0.01, mass, inv_h, soft, 3.0, true) == 0.0);
    CHECK(total == 0.0);
}

TEST_CASE("the soft normal impulse pushes overlap apart softly, at most at the push-out speed", "[axis][soft]")
{
    const double h = 1.0 / 240, inv_h = 240, mass = 2;
    const auto soft = impulse::make_softness(30.0, 10.0, h);
    // Overlap s = -1 mm at rest: bias = bias_rate s; j = -m mass_scale (0 + bias_rate s) (total 0).
    double total = 0;
    const double j = impulse::soft_normal(total, 0.0, -0.001, mass, inv_h, soft, 3.0, true);
    CHECK(j == Approx(-mass * soft.mass_scale * soft.bias_rate * -0.001));
    // Overlap of 1 m: the wanted speed bias_rate * 1 m (about 9 m/s) is capped at 3 m/s.
    total = 0;
    CHECK(impulse::soft_normal(total, 0.0, -1.0, mass, inv_h, soft, 3.0, true) == Approx(mass * soft.mass_scale * 3.0));
    // Relaxing (no bias): overlap alone asks for nothing; an approach is stopped rigidly.
    total = 0;
    CHECK(impulse::soft_normal(total, 0.0, -1.0, mass, inv_h, soft, 3.0, false) == 0.0);
    CHECK(impulse::soft_normal(total, -1.0, -1.0, mass, inv_h, soft, 3.0, false) == Approx(2.0));
    // Never pulls: separating at 1 m/s with an accumulated 0.5 gives back only the 0.5.
    total = 0.5;
    CHECK(impulse::soft_normal(total, 1.0, -0.001, mass, inv_h, soft, 3.0, false) == Approx(-0.5));
    CHECK(total == 0.0);
}
