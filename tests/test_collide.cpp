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

TEMPLATE_TEST_CASE("separated spheres do not touch; grazing ones do", "[collide]", test::F2, test::F3,
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
