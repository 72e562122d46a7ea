// SPDX-License-Identifier: MIT
// contact.hpp: hand-derived cases for the normal impulse, friction, resolve and positional
// correction. Each expected number's derivation is in the comment beside it.
#include "catch.hpp"
#include "common.hpp"

using impulse::Regime;

TEMPLATE_TEST_CASE("a normal from A to B pushes approaching bodies apart", "[contact][convention]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // A at the origin, B one unit along +x, closing at 2 units/s; n = +x points from A to B.
    V a = V::UnitX(), b = -V::UnitX();
    const V n = V::UnitX();
    impulse::Coefficients<S> coefficients;
    coefficients.restitution = S(0.5);
    const auto r = impulse::resolve(a, S(1), b, S(1), n, coefficients);
    CHECK(r.jn > S(0));
    CHECK(a.x() < S(1));   // A pushed back (towards -n)
    CHECK(b.x() > S(-1));  // B pushed forward (towards +n)
    CHECK((b - a).dot(n) > S(0));  // now separating
    // vn = -2, jn = -(1.5)(-2)/2 = 1.5, vA = 1 - 1.5 = -0.5, vB = -1 + 1.5 = 0.5 (exact in binary)
    CHECK(r.jn == S(1.5));
    CHECK(a == S(-0.5) * V::UnitX());
    CHECK(b == S(0.5) * V::UnitX());
}

TEMPLATE_TEST_CASE("a normal pointing the wrong way (B to A) leaves the bodies stuck together",
                   "[contact][convention]", test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // The failure a mismatched detector causes: with n from B to A the approach reads as
    // separation (rv.n > 0), so nothing happens and the bodies keep interpenetrating.
    V a = V::UnitX(), b = -V::UnitX();
    const V wrong = -V::UnitX();
    const auto r = impulse::resolve(a, S(1), b, S(1), wrong, impulse::Coefficients<S>{});
    CHECK(r.regime == Regime::separating);
    CHECK(a == V::UnitX());
    CHECK(b == -V::UnitX());
}

TEMPLATE_TEST_CASE("separating and resting contacts are left untouched", "[contact][normal]", test::F2,
                   test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    impulse::Coefficients<S> coefficients;
    coefficients.restitution = S(1);
    coefficients.friction = S(1);
    const V n = V::UnitX();
    // Separating: vn = +1 (with sliding that friction would act on if it ran).
    V a = V::Zero(), b = V::Ones();
    auto r = impulse::resolve(a, S(1), b, S(1), n, coefficients);
    CHECK(r.regime == Regime::separating);
    CHECK(r.jn == S(0));
    CHECK(a == V::Zero());
    CHECK(b == V::Ones());
    // Resting: vn = 0 exactly.
    V c = V::Zero(), d = V::Ones() - V::UnitX();
    r = impulse::resolve(c, S(1), d, S(1), n, coefficients);
    CHECK(r.regime == Regime::separating);
    CHECK(d == V::Ones() - V::UnitX());
}

TEMPLATE_TEST_CASE("both bodies immovable: no impulse, no division, no NaN", "[contact][normal]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    V a = V::UnitX(), b = -V::UnitX() + V::UnitY();
    const V a0 = a, b0 = b;
    impulse::Coefficients<S> coefficients;
    coefficients.restitution = S(1);
    coefficients.friction = S(0.5);
    const auto r = impulse::resolve(a, S(0), b, S(0), V::UnitX(), coefficients);
    CHECK(r.regime == Regime::immovable);
    CHECK(r.jn == S(0));
    CHECK(r.friction_impulse == V::Zero());
    CHECK(a == a0);
    CHECK(b == b0);
    CHECK(impulse::normal_impulse(a, S(0), b, S(0), V::UnitX(), S(1)) == S(0));
    const auto f = impulse::friction_impulse(a, S(0), b, S(0), V::UnitX(), S(1), coefficients.friction);
    CHECK(f.regime == Regime::immovable);
    CHECK(test::all_finite(f.J));
}

TEMPLATE_TEST_CASE("restitution threshold: slow approaches do not bounce", "[contact][normal]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // B (w = 1) falls at 0.5 onto a static floor, e = 1. Threshold 1 > 0.5: e counts as 0, so
    // jn = -(1+0)(-0.5)/1 = 0.5 and B stops. Threshold 0.25 < 0.5: jn = 1, B leaves at +0.5.
    const V n = V::UnitY();
    for (S threshold : {S(1), S(0.25)}) {
        V floor = V::Zero(), b = S(-0.5) * V::UnitY();
        impulse::Coefficients<S> coefficients;
        coefficients.restitution = S(1);
        coefficients.threshold = threshold;
        const auto r = impulse::resolve(floor, S(0), b, S(1), n, coefficients);
        if (threshold == S(1)) {
            CHECK(r.jn == S(0.5));
            CHECK(b == V::Zero());
        } else {
            CHECK(r.jn == S(1));
            CHECK(b == S(0.5) * V::UnitY());
        }
    }
}

TEMPLATE_TEST_CASE("static and kinetic friction: mu_s decides sticking, mu_k sets the slide",
                   "[contact][friction]", test::F2, test::D2)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // B (w = 1) lands at vy = -2 on a static floor, e = 0: jn = 2. mu_s = 0.5 -> stick while
    // |want| <= 1; mu_k = 0.25 -> a slide gets 0.5. want = vx (t = (-1,0), vt = -vx, k = 1).
    const impulse::Friction<S> f(S(0.5), S(0.25));
    impulse::Coefficients<S> coefficients;
    coefficients.friction = f;
    const V n(0, 1);
    {  // vx = 0.75: want 0.75 <= 1 -> sticking, the slide stops completely.
        V floor = V::Zero(), b(S(0.75), S(-2));
        const auto r = impulse::resolve(floor, S(0), b, S(1), n, coefficients);
        CHECK(r.regime == Regime::sticking);
        CHECK(r.jt == S(0.75));
        CHECK(b == V::Zero());
    }
    {  // vx = 1.5: want 1.5 > 1 -> sliding with mu_k*jn = 0.5: vx = 1.5 - 0.5 = 1.
        V floor = V::Zero(), b(S(1.5), S(-2));
        const auto r = impulse::resolve(floor, S(0), b, S(1), n, coefficients);
        CHECK(r.regime == Regime::sliding);
        CHECK(r.jt == S(0.5));
        CHECK(b == V(S(1), S(0)));
    }
    {  // The same slide to the left: friction flips sign with the slide (the clamp is +-cap).
        V floor = V::Zero(), b(S(-1.5), S(-2));
        const auto r = impulse::resolve(floor, S(0), b, S(1), n, coefficients);
        CHECK(r.regime == Regime::sliding);
        CHECK(r.jt == S(-0.5));
        CHECK(b == V(S(-1), S(0)));
    }
}

TEMPLATE_TEST_CASE("a kinetic coefficient above the static one never reverses the slide",
                   "[contact][friction]", test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // jn = 2 (as above); want = 1.5 > mu_s*jn = 0.2 -> sliding, but mu_k*jn = 6 would overshoot.
    // Friction may at most stop the slide: B ends at rest along the tangent, not moving backwards.
    V floor = V::Zero(), b = S(1.5) * V::UnitX() - S(2) * V::UnitY();
    impulse::Coefficients<S> coefficients;
    coefficients.friction = impulse::Friction<S>(S(0.1), S(3));
    const auto r = impulse::resolve(floor, S(0), b, S(1), V::UnitY(), coefficients);
    CHECK(r.regime == Regime::sliding);
    CHECK(b.x() == S(0));
}

TEMPLATE_TEST_CASE("3D friction opposes the sliding direction and is capped by magnitude",
                   "[contact][friction]", test::F3, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // B (w = 1) hits a static floor n = (0,0,1) at (3, 4, -2), e = 0: jn = 2, then v = (3,4,0),
    // slide speed 5 along (0.6, 0.8, 0). mu = 0.5: want 5 > cap 1 -> sliding, J = -(0.6, 0.8, 0),
    // v = (2.4, 3.2, 0): slower, same direction. mu = 3: cap 6 >= 5 -> sticking, v = 0.
    const V n = V::UnitZ();
    {
        V floor = V::Zero(), b(S(3), S(4), S(-2));
        impulse::Coefficients<S> coefficients;
        coefficients.friction = S(0.5);
        const auto r = impulse::resolve(floor, S(0), b, S(1), n, coefficients);
        CHECK(r.regime == Regime::sliding);
        CHECK(r.jn == S(2));
        CHECK(r.jt == Approx(1.0));
        CHECK(r.friction_impulse.x() == Approx(-0.6));
        CHECK(r.friction_impulse.y() == Approx(-0.8));
        CHECK(r.friction_impulse.z() == S(0));
        CHECK(b.x() == Approx(2.4));
        CHECK(b.y() == Approx(3.2));
        CHECK(b.z() == S(0));
    }
    {
        V floor = V::Zero(), b(S(3), S(4), S(-2));
        impulse::Coefficients<S> coefficients;
        coefficients.friction = S(3);
        const auto r = impulse::resolve(floor, S(0), b, S(1), n, coefficients);
        CHECK(r.regime == Regime::sticking);
        CHECK(r.jt == Approx(5.0));
        CHECK(b == V::Zero());
    }
}

TEMPLATE_TEST_CASE("no tangential speed: no friction impulse and no division", "[contact][friction]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    V floor = V::Zero(), b = -V::UnitY();
    impulse::Coefficients<S> coefficients;
    coefficients.friction = S(0.7);
    const auto r = impulse::resolve(floor, S(0), b, S(1), V::UnitY(), coefficients);
    CHECK(r.regime == Regime::sticking);
    CHECK(r.friction_impulse == V::Zero());
    CHECK(r.jt == S(0));
    CHECK(b == V::Zero());  // e = 0: jn = 1 stops the fall exactly
}

TEMPLATE_TEST_CASE("frictionless contacts only bounce", "[contact][friction]", test::F2, test::F3,
                   test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // mu = 0: the cap is 0, so the tangential velocity (1 along x) survives unchanged.
    V floor = V::Zero(), b = V::UnitX() - V::UnitY();
    const auto r = impulse::resolve(floor, S(0), b, S(1), V::UnitY(), impulse::Coefficients<S>{});
    CHECK(r.regime == Regime::sliding);
    CHECK(r.jt == S(0));
    CHECK(b == V::UnitX());
}

TEST_CASE("the 2D tangent is the normal turned a quarter turn counter-clockwise", "[contact][convention]")
{
    // t = (-ny, nx): (1,0) -> (0,1), (0,1) -> (-1,0); t is unit and orthogonal to n.
    CHECK(impulse::tangent(impulse::Vec2d(1, 0)) == impulse::Vec2d(0, 1));
    CHECK(impulse::tangent(impulse::Vec2d(0, 1)) == impulse::Vec2d(-1, 0));
    const impulse::Vec2d n(0.6, 0.8);
    CHECK(impulse::tangent(n).dot(n) == 0.0);
    CHECK(impulse::tangent(n) == impulse::Vec2d(-0.8, 0.6));
}

TEMPLATE_TEST_CASE("scalar arguments take the vectors' type", "[contact][api]", test::F2, test::F3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // Double literals with float vectors compile (the scalars are non-deduced) and give the same
    // result as float literals: vn = -1, jn = -(1.5)(-1)/1 = 1.5.
    const V a = V::Zero(), b = -V::UnitX();
    CHECK(impulse::normal_impulse(a, 0.0, b, 1.0, V::UnitX(), 0.5) == S(1.5));
}

TEMPLATE_TEST_CASE("positional correction shares the push by inverse mass", "[contact][position]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    const V n = V::UnitX();
    // Equal bodies, pen 0.11, slop 0.01, percent 0.4: c = 0.4*0.1/2 = 0.02 each way.
    auto c = impulse::positional_correction(S(1), S(1), n, S(0.11));
    CHECK(c.dA.x() == Approx(-0.02));
    CHECK(c.dB.x() == Approx(0.02));
    CHECK(c.dA.x() == -c.dB.x());
    // A static: B takes all of it, 0.4*0.1/1 = 0.04; A does not move.
    c = impulse::positional_correction(S(0), S(1), n, S(0.11));
    CHECK(c.dA.isZero());
    CHECK(c.dB.x() == Approx(0.04));
    // Within the slop, or both static: nothing.
    CHECK(impulse::positional_correction(S(1), S(1), n, S(0.005)).dB.isZero());
    CHECK(impulse::positional_correction(S(0), S(0), n, S(1)).dB.isZero());
    // Custom percent and slop: 1.0*(0.5 - 0.1)/(1 + 3) = 0.1; A moves 1*0.1 back, B 3*0.1 forward.
    c = impulse::positional_correction(S(1), S(3), n, S(0.5), S(1), S(0.1));
    CHECK(c.dA.x() == Approx(-0.1));
    CHECK(c.dB.x() == Approx(0.3));
}

TEST_CASE("3D friction is right for tiny and huge slides (no underflow or overflow in norms)",
          "[contact][friction]")
{
    // Frictionless, tiny: B (w = 1e100) slides at 1e-100 and lands at 1e-100 on a static floor.
    // mu = 0 cannot stop the slide: vx stays 1e-100 (the squared speeds, 1e-200 and the wanted
    // impulse's 1e-400, underflow in a plain norm, which made this read as "sticking").
    impulse::Vec3d floor = impulse::Vec3d::Zero(), b(1e-100, 0, -1e-100);
    impulse::Coefficients<double> coefficients;
    auto r = impulse::resolve(floor, 0.0, b, 1e100, impulse::Vec3d::UnitZ(), coefficients);
    CHECK(r.regime == Regime::sliding);
    CHECK(b.x() == 1e-100);
    // Huge: w = 1e-120, v = (1e120, 0, -1e120): jn = 1e240 and the wanted friction impulse is 1e240,
    // exactly mu*jn for mu = 1: it sticks (the wanted impulse's square, 1e480, overflows a plain norm).
    b = impulse::Vec3d(1e120, 0, -1e120);
    coefficients.friction = 1.0;
    r = impulse::resolve(floor, 0.0, b, 1e-120, impulse::Vec3d::UnitZ(), coefficients);
    CHECK(r.regime == Regime::sticking);
    CHECK(r.jn == Approx(1e240));
    CHECK(b.x() == 0.0);
}

TEST_CASE("velocities in the caller's own storage are resolved in place, as Vec ones are", "[contact][api]")
{
    // An engine's plain struct, seen through Eigen::Map by the pointer overload: the same bits as
    // resolving copies held in impulse::Vec (the seed tangent trace: B ends at (1.2, 1.5)).
    struct EngineVec2 {
        float x, y;
    };
    EngineVec2 v[2] = {{0.0f, 0.0f}, {3.0f, -3.0f}};
    impulse::Coefficients<float> coefficients;
    coefficients.restitution = 0.5f;
    coefficients.friction = 0.4f;
    const auto r = impulse::resolve(&v[0].x, 0.0f, &v[1].x, 1.0f, impulse::Vec2f(0, 1), coefficients);
    impulse::Vec2f a(0, 0), b(3, -3);
    const auto q = impulse::resolve(a, 0.0f, b, 1.0f, impulse::Vec2f(0, 1), coefficients);
    CHECK(r.jn == q.jn);
    CHECK(r.friction_impulse == q.friction_impulse);
    CHECK(v[1].x == b.x());
    CHECK(v[1].y == b.y());
    CHECK(v[1].x == Approx(1.2f));
    CHECK(v[0].x == 0.0f);  // the immovable body's storage is not written
}
