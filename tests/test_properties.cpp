// SPDX-License-Identifier: MIT
// Physics that must hold for every contact, checked over thousands of random ones (fixed seeds,
// 2D and 3D, float and double). The allowances are rounding only: a small multiple of the
// scalar's epsilon times the size of the quantities involved.
#include <algorithm>

#include "catch.hpp"
#include "common.hpp"

using impulse::Regime;

namespace {

template <class S, int D>
struct Trial {
    impulse::Vec<S, D> vA, vB, n;
    S inv_mass_a, inv_mass_b;
    impulse::Coefficients<S> coefficients;
};

template <class S, int D>
Trial<S, D> draw(test::Random<S, D>& rnd)
{
    Trial<S, D> t;
    t.vA = rnd.vec(S(-10), S(10));
    t.vB = rnd.vec(S(-10), S(10));
    t.n = rnd.unit();
    t.inv_mass_a = rnd.inverse_mass(true);
    t.inv_mass_b = rnd.inverse_mass(true);
    t.coefficients.restitution = rnd.uniform(S(0), S(1));
    const S mu_s = rnd.chance(0.1) ? S(0) : rnd.uniform(S(0), S(1.5));
    // Mostly mu_k <= mu_s as in nature; sometimes above it, which must still never reverse a slide.
    const S mu_k = rnd.chance(0.8) ? rnd.uniform(S(0), mu_s) : rnd.uniform(S(0), S(2));
    t.coefficients.friction = impulse::Friction<S>(mu_s, mu_k);
    return t;
}

}  // namespace

TEMPLATE_TEST_CASE("random contacts obey conservation, Coulomb and restitution", "[properties]", test::F2,
                   test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    using V = typename TestType::V;
    test::Random<S, D> rnd(20261129u + unsigned(D) * 7u + unsigned(sizeof(S)));
    int approached = 0, stuck = 0, slid = 0;
    for (int i = 0; i < 5000; ++i) {
        Trial<S, D> t = draw(rnd);
        V vA = t.vA, vB = t.vB;
        const V rv0 = vB - vA;
        const S vn0 = rv0.dot(t.n);
        const V vt0 = rv0 - vn0 * t.n;
        const auto r = impulse::resolve(vA, t.inv_mass_a, vB, t.inv_mass_b, t.n, t.coefficients);
        CAPTURE(i, t.inv_mass_a, t.inv_mass_b, t.coefficients.restitution, t.coefficients.friction.mu_s, t.coefficients.friction.mu_k);

        REQUIRE(test::all_finite(vA));
        REQUIRE(test::all_finite(vB));
        CHECK(r.jn >= S(0));
        const S speed = t.vA.norm() + t.vB.norm() + vA.norm() + vB.norm();

        if (t.inv_mass_a == S(0) && t.inv_mass_b == S(0)) {
            CHECK(r.regime == Regime::immovable);
            CHECK((vA == t.vA && vB == t.vB));
            continue;
        }
        if (!(vn0 < S(0))) {  // separating or resting: untouched, bit for bit
            CHECK(r.regime == Regime::separating);
            CHECK((vA == t.vA && vB == t.vB));
            continue;
        }
        ++approached;
        (r.regime == Regime::sticking ? stuck : slid) += 1;

        // An immovable body never moves.
        if (t.inv_mass_a == S(0)) CHECK(vA == t.vA);
        if (t.inv_mass_b == S(0)) CHECK(vB == t.vB);

        // Momentum: equal and opposite impulses cancel (only meaningful when both can move).
        if (t.inv_mass_a > S(0) && t.inv_mass_b > S(0)) {
            const V p0 = t.vA / t.inv_mass_a + t.vB / t.inv_mass_b;
            const V p1 = vA / t.inv_mass_a + vB / t.inv_mass_b;
            const S scale = t.vA.norm() / t.inv_mass_a + t.vB.norm() / t.inv_mass_b + S(4) * r.impulse(t.n).norm();
            CHECK((p1 - p0).norm() <= test::tol(scale));
        }

        // Kinetic energy never increases for e <= 1. Measured in the frame of an immovable body if
        // there is one (a moving immovable wall can do work in other frames; the impulse only sees
        // relative velocity, so the frame does not change it).
        const V u = t.inv_mass_a == S(0) ? t.vA : (t.inv_mass_b == S(0) ? t.vB : V(V::Zero()));
        auto ke = [&](const V& a, const V& b) {
            S e = S(0);
            if (t.inv_mass_a > S(0)) e += (a - u).squaredNorm() / (S(2) * t.inv_mass_a);
            if (t.inv_mass_b > S(0)) e += (b - u).squaredNorm() / (S(2) * t.inv_mass_b);
            return e;
        };
        S ke_scale = S(0);
        if (t.inv_mass_a > S(0)) ke_scale += ((t.vA - u).norm() + (vA - u).norm()) * ((t.vA - u).norm() + (vA - u).norm()) / t.inv_mass_a;
        if (t.inv_mass_b > S(0)) ke_scale += ((t.vB - u).norm() + (vB - u).norm()) * ((t.vB - u).norm() + (vB - u).norm()) / t.inv_mass_b;
        CHECK(ke(vA, vB) <= ke(t.vA, t.vB) + test::tol(ke_scale));

        // Restitution: the normal relative speed after is -e times the one before.
        const V rv1 = vB - vA;
        CHECK(std::abs(rv1.dot(t.n) + t.coefficients.restitution * vn0) <= test::tol(speed));

        // Coulomb: |Jt| <= mu*jn, with mu_s when sticking and mu_k when sliding.
        const S mu = r.regime == Regime::sticking ? t.coefficients.friction.mu_s : t.coefficients.friction.mu_k;
        CHECK(r.friction_impulse.norm() <= mu * r.jn * (S(1) + test::tol(S(1))) + test::tol(S(1)) * std::numeric_limits<S>::min());
        // Friction lies in the tangent plane.
        CHECK(std::abs(r.friction_impulse.dot(t.n)) <= test::tol(r.friction_impulse.norm() + S(1)) );

        // Friction never reverses the tangential relative velocity; sticking removes it.
        const V vt1 = rv1 - rv1.dot(t.n) * t.n;
        CHECK(vt1.dot(vt0) >= -test::tol(vt0.norm() * speed));
        if (r.regime == Regime::sticking) CHECK(vt1.norm() <= test::tol(speed));
        else CHECK(vt1.norm() <= vt0.norm() + test::tol(speed));
    }
    // The draws must exercise every branch, or the checks above prove little.
    CHECK(approached > 1000);
    CHECK(stuck > 100);
    CHECK(slid > 100);
}

TEMPLATE_TEST_CASE("finite input stays finite across magnitudes", "[properties]", test::F2, test::F3,
                   test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    using V = typename TestType::V;
    // Velocities and inverse masses spread over many decades (float: 1e-12 .. 1e12, so impulses
    // stay representable; double: 1e-100 .. 1e100), with exact zeros mixed in.
    const S decades = sizeof(S) == 4 ? S(12) : S(100);
    test::Random<S, D> rnd(7u + unsigned(D));
    auto wide = [&] { return rnd.chance(0.1) ? S(0) : std::pow(S(10), rnd.uniform(-decades, decades)); };
    for (int i = 0; i < 5000; ++i) {
        V vA = rnd.vec(S(-1), S(1)) * wide(), vB = rnd.vec(S(-1), S(1)) * wide();
        const V n = rnd.unit();
        impulse::Coefficients<S> coefficients;
        coefficients.restitution = rnd.uniform(S(0), S(1));
        coefficients.friction = rnd.uniform(S(0), S(2));
        const S inv_mass_a = wide(), inv_mass_b = wide();
        const auto r = impulse::resolve(vA, inv_mass_a, vB, inv_mass_b, n, coefficients);
        CAPTURE(i, inv_mass_a, inv_mass_b);
        CHECK(test::all_finite(vA));
        CHECK(test::all_finite(vB));
        CHECK(std::isfinite(r.jn));
        CHECK(test::all_finite(r.friction_impulse));
        const auto c = impulse::positional_correction(inv_mass_a, inv_mass_b, n, wide());
        CHECK(test::all_finite(c.dA));
        CHECK(test::all_finite(c.dB));
    }
}
