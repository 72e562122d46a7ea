// SPDX-License-Identifier: MIT
// The worked numbers of the seed documents, pinned. Each expected value is the seed's own, with the
// hand arithmetic that reaches it in the comment beside it.
#include "catch.hpp"
#include "common.hpp"

using impulse::Vec2d;

TEST_CASE("seed crate trace: a sliding crate keeps sliding, slower", "[seed][friction]")
{
    // Coulomb friction lesson: crate B, mass 2 (w = 0.5), on a static floor A (w = 0), n = (0, 1),
    // so t = (-1, 0). Velocity after the normal impulse (3, 0), jn = 4, both mu 0.5.
    // vt = (3,0).(-1,0) = -3; jt_want = -vt/(0 + 0.5) = 6; mu = sqrt(0.5*0.5) = 0.5; cap = 0.5*4 = 2.
    // 6 > 2 -> sliding, jt = +2 along t, J = (-2, 0); crate: (3,0) + 0.5*(-2,0) = (2, 0).
    Vec2d floor(0, 0), crate(3, 0);
    const Vec2d n(0, 1);
    const double mu = impulse::combine(0.5, 0.5, impulse::Combine::geometric_mean);
    const auto f = impulse::friction_impulse(floor, 0.0, crate, 0.5, n, 4.0, mu);
    CHECK(f.regime == impulse::Regime::sliding);
    CHECK(f.jt == 2.0);
    CHECK(f.J == Vec2d(-2, 0));
    impulse::apply_impulse(floor, 0.0, crate, 0.5, f.J);
    CHECK(crate == Vec2d(2, 0));
    CHECK(floor == Vec2d(0, 0));  // the static floor never moves
}

TEST_CASE("seed tangent trace: bounce then capped friction on a static surface", "[seed][friction]")
{
    // Lab, "Friction is an impulse too": v = (3, -3), inverse mass 1, static surface, n = (0, 1),
    // e = 0.5, mu = 0.4. vn = -3, jn = -(1 + 0.5)*(-3)/1 = 4.5; after it v = (3, 1.5).
    // Tangential: want 3 against the slide, cap = 0.4*4.5 = 1.8 -> sliding, impulse (-1.8, 0)
    // (the lab's jt = -1.8 is along the sliding direction (1,0); ours is +1.8 along t = (-1,0)).
    // Final velocity (3 - 1.8, 1.5) = (1.2, 1.5).
    Vec2d wall(0, 0), v(3, -3);
    const Vec2d n(0, 1);
    impulse::Coefficients<double> coefficients;
    coefficients.restitution = 0.5;
    coefficients.friction = 0.4;
    const auto r = impulse::resolve(wall, 0.0, v, 1.0, n, coefficients);
    CHECK(r.regime == impulse::Regime::sliding);
    CHECK(r.jn == Approx(4.5));
    CHECK(r.jt == Approx(1.8));
    CHECK(r.friction_impulse.x() == Approx(-1.8));
    CHECK(r.friction_impulse.y() == 0.0);
    CHECK(v.x() == Approx(1.2));
    CHECK(v.y() == Approx(1.5));
    CHECK(wall == Vec2d(0, 0));
}

TEST_CASE("seed conservation: momentum is kept for every e, energy only for e = 1", "[seed][normal]")
{
    // Lab "What is conserved": mass 2 at (3,0) (w = 0.5) and mass 1 at (-1,0) (w = 1), n = (1,0).
    // vn = -1 - 3 = -4, k = 1.5, jn = (1+e)*4/1.5.
    //   e = 1:   jn = 16/3, vA = 3 - 8/3 = 1/3, vB = -1 + 16/3 = 13/3, KE = 1/9 + 169/18 = 9.5
    //   e = 0.5: jn = 4,    vA = 1,           vB = 3,              KE = 1 + 4.5 = 5.5
    //   e = 0:   jn = 8/3,  vA = vB = 5/3,                          KE = 1.5*25/9 = 25/6
    // Momentum 2*3 + 1*(-1) = 5 before and after; KE before 0.5*2*9 + 0.5*1*1 = 9.5.
    struct Case {
        double e, vA, vB, ke;
    };
    const Case cases[] = {{1.0, 1.0 / 3, 13.0 / 3, 9.5}, {0.5, 1.0, 3.0, 5.5}, {0.0, 5.0 / 3, 5.0 / 3, 25.0 / 6}};
    for (const Case& c : cases) {
        CAPTURE(c.e);
        Vec2d a(3, 0), b(-1, 0);
        impulse::Coefficients<double> coefficients;
        coefficients.restitution = c.e;
        const auto r = impulse::resolve(a, 0.5, b, 1.0, Vec2d(1, 0), coefficients);
        CHECK(r.regime != impulse::Regime::separating);
        CHECK(a.x() == Approx(c.vA));
        CHECK(b.x() == Approx(c.vB));
        CHECK(2 * a.x() + 1 * b.x() == Approx(5.0));
        const double ke = 0.5 * 2 * a.squaredNorm() + 0.5 * 1 * b.squaredNorm();
        CHECK(ke == Approx(c.ke));
        CHECK(ke <= 9.5 + 1e-12);
    }
    // The seed's printed six-decimal value for e = 0.
    CHECK(25.0 / 6 == Approx(4.166667).epsilon(1e-6));
}

TEMPLATE_TEST_CASE("equal masses head-on: e = 1 exchanges velocities, e = 0 moves them together",
                   "[seed][normal]", test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // Momentum and (for e = 1) energy conservation with m1 = m2 solve to an exchange;
    // e = 0 leaves the common velocity (2 + (-1))/2 = 0.5. All values are exact in binary.
    const V n = V::UnitX();
    for (S e : {S(1), S(0)}) {
        V a = S(2) * V::UnitX(), b = S(-1) * V::UnitX();
        impulse::Coefficients<S> coefficients;
        coefficients.restitution = e;
        impulse::resolve(a, S(1), b, S(1), n, coefficients);
        if (e == S(1)) {
            CHECK(a == S(-1) * V::UnitX());
            CHECK(b == S(2) * V::UnitX());
        } else {
            CHECK(a == S(0.5) * V::UnitX());
            CHECK(b == S(0.5) * V::UnitX());
        }
    }
}
