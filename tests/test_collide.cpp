// SPDX-License-Identifier: MIT
// collide.hpp: sphere-sphere and sphere-plane contacts, and the detector/responder agreement.
#include "catch.hpp"
#include "common.hpp"

TEMPLATE_TEST_CASE("overlapping spheres: normal from A to B, depth, midpoint", "[collide]", test::F2,
                   test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // Radii 1 and 1, centres 1.5 apart on x: n = +x, pen = 2 - 1.5 = 0.5,
    // point = cA + n*(rA - pen/2) = 0.75 along x (halfway between the surfaces at 0.5 and 1).
    const auto c = impulse::collide_spheres(V(V::Zero()), S(1), V(S(1.5) * V::UnitX()), S(1));
    REQUIRE(c);
    CHECK(c->n == V::UnitX());
    CHECK(c->penetration == S(0.5));
    CHECK(c->point == S(0.75) * V::UnitX());
    // Swapping A and B flips the normal: it always points from the first sphere to the second.
    const auto d = impulse::collide_spheres(V(S(1.5) * V::UnitX()), S(1), V(V::Zero()), S(1));
    REQUIRE(d);
    CHECK(d->n == -V::UnitX());
}

TEST_CASE("spheres along a slanted line get the unit direction between centres", "[collide]")
{
    // 3D: centres 0 and (0, 0.6, 0.8) (distance 1), radii 1 and 0.5: n = (0, 0.6, 0.8), pen 0.5.
    const auto c = impulse::collide_spheres(impulse::Vec3d(0, 0, 0), 1.0, impulse::Vec3d(0, 0.6, 0.8), 0.5);
    REQUIRE(c);
    CHECK(c->n.x() == 0.0);
    CHECK(c->n.y() == Approx(0.6));
    CHECK(c->n.z() == Approx(0.8));
    CHECK(c->penetration == Approx(0.5));
    CHECK(impulse::is_unit(c->n));
}

TEMPLATE_TEST_CASE("separated spheres do not touch, grazing ones do", "[collide]", test::F2, test::F3,
                   test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    CHECK_FALSE(impulse::collide_spheres(V(V::Zero()), S(1), V(S(2.5) * V::UnitX()), S(1)));
    const auto c = impulse::collide_spheres(V(V::Zero()), S(1), V(S(2) * V::UnitX()), S(1));
    REQUIRE(c);  // distance == rA + rB: the seed only rejects distance > radii_sum
    CHECK(c->penetration == S(0));
}

TEMPLATE_TEST_CASE("coincident centres give the +x fallback normal, never NaN", "[collide]", test::F2,
                   test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    const V p = V::Ones();
    const auto c = impulse::collide_spheres(p, S(1), p, S(0.5));
    REQUIRE(c);
    CHECK(c->n == V::UnitX());
    CHECK(c->penetration == S(1.5));
    CHECK(test::all_finite(c->point));
    // Centres so close that the squared distance is subnormal (half of sqrt(min) apart): the
    // square root is no longer accurate, so no direction is trusted; same fallback.
    const V q = (S(0.5) * std::sqrt(std::numeric_limits<S>::min())) * V::UnitY();
    const auto d = impulse::collide_spheres(V(V::Zero()), S(1), q, S(1));
    REQUIRE(d);
    CHECK(d->n == V::UnitX());
    CHECK(test::all_finite(d->point));
}

TEMPLATE_TEST_CASE("sphere against a plane", "[collide]", test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // Floor y = 0 (normal +y, offset 0); sphere radius 1 at height 0.5: distance 0.5, pen 0.5,
    // point at y = 0.5 - (1 - 0.25) = -0.25 (halfway between the sphere's bottom and the floor).
    const V c = S(2) * V::UnitX() + S(0.5) * V::UnitY();
    const auto k = impulse::collide_sphere_plane(c, S(1), V(V::UnitY()), S(0));
    REQUIRE(k);
    CHECK(k->n == V::UnitY());
    CHECK(k->penetration == S(0.5));
    CHECK(k->point == S(2) * V::UnitX() - S(0.25) * V::UnitY());
    // Raised floor y = 1 (offset 1): distance -0.5, pen 1.5. Above the floor by more than r: none.
    const auto raised = impulse::collide_sphere_plane(c, S(1), V(V::UnitY()), S(1));
    REQUIRE(raised);
    CHECK(raised->penetration == S(1.5));
    CHECK_FALSE(impulse::collide_sphere_plane(V(S(3) * V::UnitY()), S(1), V(V::UnitY()), S(0)));
}

TEMPLATE_TEST_CASE("detector and responder agree: a detected approach is pushed apart", "[collide][convention]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // Two unit spheres overlapping and closing head-on. Whatever order they are passed in, the
    // detector's normal (first -> second) fed to the responder with the same order separates them.
    const V pa = V::Zero(), pb = S(1.8) * V::UnitX() + S(0.3) * V::UnitY();
    for (int swap = 0; swap < 2; ++swap) {
        V va = (pb - pa).normalized(), vb = -(pb - pa).normalized();
        const V& first = swap ? pb : pa;
        const V& second = swap ? pa : pb;
        V& v1 = swap ? vb : va;
        V& v2 = swap ? va : vb;
        const auto c = impulse::collide_spheres(first, S(1), second, S(1));
        REQUIRE(c);
        impulse::Coefficients<S> coefficients;
        coefficients.restitution = S(0.5);
        const auto r = impulse::resolve(v1, S(1), v2, S(1), c->n, coefficients);
        CHECK(r.jn > S(0));
        CHECK((v2 - v1).dot(c->n) > S(0));
    }
}

TEMPLATE_TEST_CASE("sphere manifolds: the point midway between the surfaces, anchors from each centre", "[collide]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    using V = typename TestType::V;
    // A: radius 1 at the origin; B: radius 0.5, its body at (3, 0, ..) with the sphere 1.6 to the
    // left of the body's centre (x = 1.4). s = 1.4 - 1 - 0.5 = -0.1; the point is at
    // x = 1 + s/2 = 0.95; rA = 0.95 - 0, rB = 0.95 - 3 = -2.05 (along x).
    impulse::Sphere<S, D> a, b;
    a.radius = S(1);
    b.radius = S(0.5);
    b.center = S(-1.6) * V::UnitX();
    impulse::Pose<S, D> pa, pb;
    pb.p = S(3) * V::UnitX();
    const impulse::Manifold<S, D> m = impulse::collide_spheres(a, pa, b, pb);
    REQUIRE(m.count == 1);
    CHECK(m.n == V::UnitX());
    CHECK(m.points[0].separation == Approx(-0.1).margin(test::tol(S(1))));
    CHECK((m.points[0].rA - S(0.95) * V::UnitX()).norm() <= test::tol(S(4)));
    CHECK((m.points[0].rB + S(2.05) * V::UnitX()).norm() <= test::tol(S(4)));
    // Apart by 0.015 < the 2 cm speculative distance: still a point, with a positive separation;
    // apart by 0.025: none.
    pb.p = S(3.115) * V::UnitX();
    const auto near = impulse::collide_spheres(a, pa, b, pb);
    REQUIRE(near.count == 1);
    CHECK(near.points[0].separation == Approx(0.015).margin(test::tol(S(4))));
    pb.p = S(3.125) * V::UnitX();
    CHECK(impulse::collide_spheres(a, pa, b, pb).count == 0);
    // Read the other way round, the same contact is flipped: normal reversed, anchors swapped.
    pb.p = S(3) * V::UnitX();
    const auto ba = impulse::collide_spheres(b, pb, a, pa);
    const auto back = impulse::flipped(ba);
    CHECK(ba.n == -V::UnitX());
    CHECK((back.points[0].rA - m.points[0].rA).norm() <= test::tol(S(4)));
    CHECK((back.points[0].rB - m.points[0].rB).norm() <= test::tol(S(4)));
}

TEMPLATE_TEST_CASE("a plane body turned and moved still reports the sphere's depth along its own normal",
                   "[collide]", test::F2, test::D2)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // The plane y = 0 (normal +y) of a body at (0, 1) turned 90 degrees counter-clockwise: in the
    // world its normal is (-1, 0) and it passes through x = 0 (offset 0 along the turned normal,
    // through the body's centre (0, 1)). A ball of radius 0.5 at (-0.4, 5): distance 0.4, s = -0.1;
    // the point lies at x = -0.4 + (0.5 - 0.05) = 0.05 (midway between x = 0 and x = 0.1).
    impulse::Plane<S, 2> plane;
    impulse::Pose<S, 2> pa, pb;
    pa.p = V(S(0), S(1));
    pa.q = impulse::Rot2<S>(S(0), S(1));
    impulse::Circle<S> ball;
    ball.radius = S(0.5);
    pb.p = V(S(-0.4), S(5));
    const auto m = impulse::collide_plane_sphere(plane, pa, ball, pb);
    REQUIRE(m.count == 1);
    CHECK((m.n - V(S(-1), S(0))).norm() <= test::tol(S(1)));
    CHECK(m.points[0].separation == Approx(-0.1).margin(test::tol(S(4))));
    CHECK((m.points[0].rB - V(S(0.45), S(0))).norm() <= test::tol(S(4)));
    CHECK((m.points[0].rA - V(S(0.05), S(4))).norm() <= test::tol(S(8)));  // (0.05, 5) - (0, 1)
}
