// SPDX-License-Identifier: MIT
// collide2d.hpp: polygons (boxes, hulls, capsules), their mass, and polygon-polygon,
// polygon-circle and plane-polygon manifolds. Every expected number is derived in the comment
// beside it.
#include <cmath>
#include <cstdint>
#include <random>

#include "catch.hpp"
#include "common.hpp"

namespace {

template <class S>
using V2 = impulse::Vec<S, 2>;

template <class S>
impulse::Pose<S, 2> pose(S x, S y, impulse::Rot2<S> q = impulse::Rot2<S>())
{
    impulse::Pose<S, 2> p;
    p.p = V2<S>(x, y);
    p.q = q;
    return p;
}

/// |a - b| <= margin (b and margin take their type from a, so Zero() and literals work).
template <class S>
bool near(const V2<S>& a, const impulse::detail::same_t<V2<S>>& b, impulse::detail::same_t<S> margin)
{
    return (a - b).norm() <= margin;
}

/// The point of `m` with feature id `feature`, or nullptr.
template <class S>
const impulse::ManifoldPoint<S, 2>* find(const impulse::Manifold<S, 2>& m, std::uint32_t feature)
{
    for (int i = 0; i < m.count; ++i)
        if (m.points[i].feature == feature) return &m.points[i];
    return nullptr;
}

/// Checks that `m` has a point with id `feature`, separation `s` and anchor rA = `rA`, each to
/// within `eps`, and returns it.
template <class S>
const impulse::ManifoldPoint<S, 2>& check_point(const impulse::Manifold<S, 2>& m, std::uint32_t feature, double s,
                                                const impulse::detail::same_t<V2<S>>& rA, S eps)
{
    INFO("feature 0x" << std::hex << feature);
    const auto* p = find(m, feature);
    REQUIRE(p);
    CHECK(p->separation == Approx(s).margin(eps));
    CHECK(near(p->rA, rA, eps));
    return *p;
}

/// A rigid motion of the whole scene: x -> R x + T.
template <class S>
impulse::Pose<S, 2> moved(const impulse::Pose<S, 2>& p, const impulse::Rot2<S>& R, const V2<S>& T)
{
    impulse::Pose<S, 2> out;
    out.p = R.rotate(p.p) + T;
    out.q = R * p.q;
    return out;
}

using impulse::make_feature;

}  // namespace

// ---------------------------------------------------------------------------------------------
// Polygons and their mass

TEMPLATE_TEST_CASE("a box has counter-clockwise corners and outward unit normals", "[collide2d]", test::F2,
                   test::D2)
{
    using S = typename TestType::S;
    const auto box = impulse::make_box(S(2), S(0.5));
    REQUIRE(box.count == 4);
    CHECK(box.vertices[0] == V2<S>(-2, S(-0.5)));
    CHECK(box.vertices[2] == V2<S>(2, S(0.5)));
    CHECK(box.normals[0] == V2<S>(0, -1));  // edge 0: bottom
    CHECK(box.normals[1] == V2<S>(1, 0));   // edge 1: right
    CHECK(box.centroid == V2<S>::Zero());
    // Turned by 90 degrees about its centre at (1, 2): corner 0 (-2, -0.5) -> (0.5, -2) + (1, 2).
    const auto off = impulse::make_offset_box(S(2), S(0.5), V2<S>(1, 2), S(1.5707963267948966));
    CHECK(near(off.vertices[0], V2<S>(S(1.5), 0), test::tol(S(4))));
    CHECK(near(off.normals[0], V2<S>(1, 0), test::tol(S(1))));  // -y turned a quarter: +x
    CHECK(off.centroid == V2<S>(1, 2));
}

TEMPLATE_TEST_CASE("a hull of unordered points drops duplicates, collinear and interior points", "[collide2d]",
                   test::F2, test::D2)
{
    using S = typename TestType::S;
    // The square [-1, 1]^2 given out of order, with (0, -1) on its bottom edge, (0.5, 0.2)
    // inside and (1, 1) twice: the hull is the four corners, counter-clockwise from the lowest of
    // the leftmost, (-1, -1).
    const V2<S> pts[7] = {V2<S>(1, 1),  V2<S>(-1, -1), V2<S>(1, -1), V2<S>(0, -1),
                          V2<S>(-1, 1), V2<S>(S(0.5), S(0.2)), V2<S>(1, 1)};
    const auto p = impulse::make_polygon(pts, 7);
    REQUIRE(p.count == 4);
    CHECK(p.vertices[0] == V2<S>(-1, -1));
    CHECK(p.vertices[1] == V2<S>(1, -1));
    CHECK(p.vertices[2] == V2<S>(1, 1));
    CHECK(p.vertices[3] == V2<S>(-1, 1));
    CHECK(p.normals[0] == V2<S>(0, -1));
    CHECK(p.normals[1] == V2<S>(1, 0));
    CHECK(p.normals[2] == V2<S>(0, 1));
    CHECK(p.normals[3] == V2<S>(-1, 0));
    CHECK(near(p.centroid, V2<S>::Zero(), test::tol(S(4))));
    CHECK(p.radius == S(0));
    // A point 1e-6 off the bottom edge (below the 1e-4 * diagonal = 2.8e-4 tolerance) is collinear
    // too; one 1e-2 off is a corner.
    const V2<S> bump[5] = {V2<S>(-1, -1), V2<S>(1, -1), V2<S>(1, 1), V2<S>(-1, 1), V2<S>(0, S(-1.000001))};
    CHECK(impulse::make_polygon(bump, 5).count == 4);
    const V2<S> corner[5] = {V2<S>(-1, -1), V2<S>(1, -1), V2<S>(1, 1), V2<S>(-1, 1), V2<S>(0, S(-1.01))};
    const auto five = impulse::make_polygon(corner, 5, S(0.25));
    REQUIRE(five.count == 5);
    CHECK(five.radius == S(0.25));
    // Counter-clockwise: every turn from one edge to the next is to the left, and each normal is
    // the edge turned clockwise (perpendicular, pointing out).
    for (int i = 0; i < five.count; ++i) {
        const V2<S> e = five.vertices[(i + 1) % 5] - five.vertices[i];
        const V2<S> f = five.vertices[(i + 2) % 5] - five.vertices[(i + 1) % 5];
        CHECK(impulse::cross(e, f) > S(0));
        CHECK(std::abs(five.normals[i].dot(e)) <= test::tol(S(4)));
        CHECK(impulse::cross(e, five.normals[i]) < S(0));
        CHECK(std::abs(five.normals[i].norm() - S(1)) <= test::tol(S(1)));
    }
}

TEMPLATE_TEST_CASE("polygon mass: a box, a right triangle, a capsule", "[collide2d]", test::F2, test::D2)
{
    using S = typename TestType::S;
    // Unit box, density 1: m = 1, I = m (w^2 + h^2)/12 = 1/6 (inertia_rectangle).
    const auto unit = impulse::mass_properties(impulse::make_box(S(0.5), S(0.5)), S(1));
    CHECK(unit.mass == Approx(1).epsilon(test::tol(S(1))));
    CHECK(unit.inertia == Approx(impulse::inertia_rectangle(S(1), S(1), S(1))).epsilon(test::tol(S(4))));
    CHECK(near(unit.centroid, V2<S>::Zero(), test::tol(S(1))));
    // A 2 x 1 box centred at (3, -1), turned 30 degrees, density 2: m = 4, I = 4 (4 + 1)/12 = 5/3
    // about its own centre, wherever it sits.
    const auto off = impulse::mass_properties(impulse::make_offset_box(S(1), S(0.5), V2<S>(3, -1), S(0.5236)), S(2));
    CHECK(off.mass == Approx(4).epsilon(test::tol(S(16))));
    CHECK(off.inertia == Approx(S(5) / S(3)).epsilon(test::tol(S(16))));
    CHECK(near(off.centroid, V2<S>(3, -1), test::tol(S(16))));
    // Right triangle (0,0), (1,0), (0,1), density 1: area 1/2, centroid (1/3, 1/3), and about the
    // centroid I = m (a^2 + b^2 + c^2)/36 with sides 1, 1, sqrt 2: 0.5 * 4 / 36 = 1/18.
    const V2<S> tri[3] = {V2<S>(0, 1), V2<S>(0, 0), V2<S>(1, 0)};
    const auto t = impulse::mass_properties(impulse::make_polygon(tri, 3), S(1));
    CHECK(t.mass == Approx(0.5).epsilon(test::tol(S(4))));
    CHECK(near(t.centroid, V2<S>(S(1) / S(3), S(1) / S(3)), test::tol(S(4))));
    CHECK(t.inertia == Approx(S(1) / S(18)).epsilon(test::tol(S(16))));
    // Capsule of zero length: a disc, m = pi r^2, I = m r^2/2.
    const S pi = S(3.14159265358979323846), r = S(0.3);
    const auto disc = impulse::mass_properties(impulse::make_capsule(V2<S>(1, 1), V2<S>(1, 1), r), S(1));
    CHECK(disc.mass == Approx(pi * r * r).epsilon(test::tol(S(4))));
    CHECK(disc.inertia == Approx(pi * r * r * r * r / S(2)).epsilon(test::tol(S(16))));
    CHECK(disc.centroid == V2<S>(1, 1));
    // Capsule (-1, 0)..(1, 0), r = 0.3: against a midpoint-rule integral of m = sum dA and
    // I = sum |x|^2 dA over a 1200 x 360 grid covering [-1.3, 1.3] x [-0.3, 0.3] (the rim cells
    // make the sums good to about 1e-3).
    const auto cap = impulse::mass_properties(impulse::make_capsule(V2<S>(-1, 0), V2<S>(1, 0), r), S(1));
    double m = 0, I = 0;
    const int nx = 1200, ny = 360;
    const double hx = 2.6 / nx, hy = 0.6 / ny;
    for (int i = 0; i < nx; ++i)
        for (int j = 0; j < ny; ++j) {
            const double x = -1.3 + (i + 0.5) * hx, y = -0.3 + (j + 0.5) * hy;
            const double dx = std::abs(x) > 1 ? std::abs(x) - 1 : 0;
            if (dx * dx + y * y > 0.09) continue;
            m += hx * hy;
            I += (x * x + y * y) * hx * hy;
        }
    CHECK(double(cap.mass) == Approx(m).epsilon(2e-3));
    CHECK(double(cap.inertia) == Approx(I).epsilon(2e-3));
    CHECK(near(cap.centroid, V2<S>::Zero(), test::tol(S(1))));
}

// ---------------------------------------------------------------------------------------------
// Polygon against polygon

TEMPLATE_TEST_CASE("a unit box resting flat on a wide box: two points at its bottom corners", "[collide2d]",
                   test::F2, test::D2)
{
    using S = typename TestType::S;
    // A: 4 x 1 box at the origin (top y = 0.5, corners 2 = (2, 0.5), 3 = (-2, 0.5)). B: unit box at
    // (0.3, 0.99), bottom y = 0.49, corners 0 = (-0.2, 0.49), 1 = (0.8, 0.49). A's top and B's
    // bottom both separate by -0.01; A's face is the reference. Its edge runs from corner 2 to
    // corner 3, the incident edge (B's bottom) from B's 0 to B's 1, so B's 1 pairs with A's 2 and
    // B's 0 with A's 3. Points midway between y = 0.49 and 0.5: (0.8, 0.495), (-0.2, 0.495);
    // rB = point - (0.3, 0.99).
    const auto ground = impulse::make_box(S(2), S(0.5));
    const auto box = impulse::make_box(S(0.5), S(0.5));
    const auto pa = pose<S>(0, 0), pb = pose<S>(S(0.3), S(0.99));
    const S eps = test::tol(S(16));
    // The same geometry moved as a whole (turned by 0, 90 and 180 degrees, shifted): the normal and
    // the anchors turn with it, separations and ids stay.
    const impulse::Rot2<S> turns[3] = {impulse::Rot2<S>(), impulse::Rot2<S>(0, 1), impulse::Rot2<S>(-1, 0)};
    for (const auto& R : turns) {
        const V2<S> T(S(-3.25), S(7.5));
        const auto m = impulse::collide_polygons(ground, moved(pa, R, T), box, moved(pb, R, T));
        REQUIRE(m.count == 2);
        CHECK(near(m.n, R.rotate(V2<S>(0, 1)), eps));
        const auto& right = check_point(m, make_feature(2, 1), -0.01, R.rotate(V2<S>(S(0.8), S(0.495))), eps);
        const auto& left = check_point(m, make_feature(3, 0), -0.01, R.rotate(V2<S>(S(-0.2), S(0.495))), eps);
        CHECK(near(right.rB, R.rotate(V2<S>(S(0.5), S(-0.495))), eps));
        CHECK(near(left.rB, R.rotate(V2<S>(S(-0.5), S(-0.495))), eps));
    }
    // The top box turned in its own frame by 90 or 180 degrees is the same square: same points and
    // separations, and B's ids name the corners that are now at the bottom. Turned +90: body corner
    // 3 (-0.5, 0.5) -> (-0.5, -0.5) is bottom left, 0 -> (0.5, -0.5) bottom right; turned 180:
    // corners 2 and 3.
    const std::uint32_t bl[2] = {3, 2}, br[2] = {0, 3};
    for (int k = 0; k < 2; ++k) {
        const auto q = k == 0 ? impulse::Rot2<S>(0, 1) : impulse::Rot2<S>(-1, 0);
        const auto m = impulse::collide_polygons(ground, pa, box, pose<S>(S(0.3), S(0.99), q));
        REQUIRE(m.count == 2);
        CHECK(near(m.n, V2<S>(0, 1), eps));
        check_point(m, make_feature(2, br[k]), -0.01, V2<S>(S(0.8), S(0.495)), eps);
        check_point(m, make_feature(3, bl[k]), -0.01, V2<S>(S(-0.2), S(0.495)), eps);
    }
}

TEMPLATE_TEST_CASE("a box tilted onto its corner touches at that corner only", "[collide2d]", test::F2, test::D2)
{
    using S = typename TestType::S;
    // B: unit box turned 30 degrees (c = cos, s = sin). Its corner 0, R (-0.5, -0.5) =
    // (-(c - s)/2, -(c + s)/2), is lowest, (c + s)/2 = 0.683 below the centre; corner 1,
    // ((c + s)/2, -(c - s)/2), is 0.5 higher. Centre at (0.1, 0.5 + (c + s)/2 - 0.01): corner 0 sinks
    // 0.01 into A's top face, corner 1 is 0.49 above it (beyond the 2 cm speculative distance):
    // one point, on the face under corner 0, midway: corner + (0, 0.005). The incident edge is B's
    // edge 0 (its normal (s, -c) is the most downward), running from corner 0 (paired with A's
    // corner 3) to corner 1 (with A's 2): id make_feature(3, 0).
    const auto ground = impulse::make_box(S(2), S(0.5));
    const auto box = impulse::make_box(S(0.5), S(0.5));
    const auto q = impulse::Rot2<S>::from_angle(S(0.52359877559829887));
    const S c = q.c, s = q.s;
    const auto pb = pose<S>(S(0.1), S(0.5) + (c + s) / S(2) - S(0.01), q);
    const auto m = impulse::collide_polygons(ground, pose<S>(0, 0), box, pb);
    REQUIRE(m.count == 1);
    const S eps = test::tol(S(16));
    CHECK(near(m.n, V2<S>(0, 1), eps));
    CHECK(m.points[0].separation == Approx(-0.01).margin(eps));
    CHECK(m.points[0].feature == make_feature(3, 0));
    CHECK(near(m.points[0].rB, V2<S>(-(c - s) / S(2), -(c + s) / S(2) + S(0.005)), eps));
    CHECK(near(m.points[0].rA, V2<S>(S(0.1) - (c - s) / S(2), S(0.495)), eps));
}

TEMPLATE_TEST_CASE("a deep overlap from the side clips the incident edge to the reference face", "[collide2d]",
                   test::F2, test::D2)
{
    using S = typename TestType::S;
    // A: 4 x 1 box at the origin; B: unit box at (2.3, 0.2), spanning x 1.8 .. 2.8, y -0.3 .. 0.7.
    // A's right face (x = 2) has s = 1.8 - 2 = -0.2, B's left face -(2 - 1.8) = -0.2 (equal: A's
    // wins), A's top 0.5 - ... = -0.3 - 0.5 = -0.8. Reference: A's edge 1, corner 1 (2, -0.5) to
    // corner 2 (2, 0.5); incident: B's left edge, from B's corner 3 (1.8, 0.7) to corner 0
    // (1.8, -0.3). Clipped to y in [-0.5, 0.5]: corner 0 stays (paired with A's 1), the upper end is
    // cut at y = 0.5 (B's 3 with A's 2). Both 0.2 deep, midway at x = 1.9.
    const auto m = impulse::collide_polygons(impulse::make_box(S(2), S(0.5)), pose<S>(0, 0),
                                             impulse::make_box(S(0.5), S(0.5)), pose<S>(S(2.3), S(0.2)));
    REQUIRE(m.count == 2);
    const S eps = test::tol(S(16));
    CHECK(near(m.n, V2<S>(1, 0), eps));
    check_point(m, make_feature(1, 0), -0.2, V2<S>(S(1.9), S(-0.3)), eps);
    const auto& high = check_point(m, make_feature(2, 3), -0.2, V2<S>(S(1.9), S(0.5)), eps);
    CHECK(near(high.rB, V2<S>(S(-0.4), S(0.3)), eps));
}

TEMPLATE_TEST_CASE("edge on edge with partial overlap: the points bound the shared interval", "[collide2d]",
                   test::F2, test::D2)
{
    using S = typename TestType::S;
    // Unit boxes, A at the origin, B at (0.7, 0.99): B's bottom (y = 0.49, x 0.2 .. 1.2) overlaps A's
    // top (y = 0.5, x -0.5 .. 0.5) on x in [0.2, 0.5]. Tops separate by -0.01, sides by -0.3.
    // Reference A's top, corner 2 (0.5, 0.5) to 3 (-0.5, 0.5); incident B's bottom from its corner 0
    // (0.2, 0.49) to 1 (1.2, 0.49). Corner 1 is cut back to x = 0.5 (still paired with A's 2),
    // corner 0 stays (with A's 3). Midway y = 0.495.
    const auto box = impulse::make_box(S(0.5), S(0.5));
    const auto pa = pose<S>(0, 0), pb = pose<S>(S(0.7), S(0.99));
    const auto m = impulse::collide_polygons(box, pa, box, pb);
    REQUIRE(m.count == 2);
    const S eps = test::tol(S(16));
    CHECK(near(m.n, V2<S>(0, 1), eps));
    check_point(m, make_feature(2, 1), -0.01, V2<S>(S(0.5), S(0.495)), eps);  // cut back
    check_point(m, make_feature(3, 0), -0.01, V2<S>(S(0.2), S(0.495)), eps);  // kept
}

TEMPLATE_TEST_CASE("polygons read in either order give the same contact, flipped", "[collide2d]", test::F2,
                   test::D2)
{
    using S = typename TestType::S;
    // Two unit boxes, B's bottom on A's top, both turned 1 mrad (the edge-on-edge case below): read
    // B-first, B's bottom face is the reference (the faces separate equally, are equally long, and
    // the first shape's wins), the incident edge is A's top: the same two ends, vertices paired the
    // same way, so flipped() gives back A-first's normal, anchors, separations and ids. A unit box
    // on a 4 x 1 box, resting, and 5 mm above it turned 1 mrad against it: in either order the
    // wider box's face is the reference (the two faces are within the tolerance, and it is the
    // longer), so again the same contact.
    const auto box = impulse::make_box(S(0.5), S(0.5));
    const auto ground = impulse::make_box(S(2), S(0.5));
    const auto turn = impulse::Rot2<S>::from_angle(S(0.001));
    const impulse::Pose<S, 2> pbs[3] = {pose<S>(S(0.7), S(0.99), turn), pose<S>(S(0.3), S(0.99), turn),
                                        pose<S>(S(0.3), S(1.005), impulse::Rot2<S>::from_angle(S(0.002)))};
    const impulse::Polygon<S>* below[3] = {&box, &ground, &ground};
    const S eps = test::tol(S(32));
    for (int k = 0; k < 3; ++k) {
        const auto pa = pose<S>(S(0), S(0), turn);
        const auto ab = impulse::collide_polygons(*below[k], pa, box, pbs[k]);
        const auto ba = impulse::flipped(impulse::collide_polygons(box, pbs[k], *below[k], pa));
        REQUIRE(ab.count == 2);
        REQUIRE(ba.count == 2);
        CHECK(near(ab.n, ba.n, eps));
        for (int i = 0; i < 2; ++i) {
            const auto* p = find(ba, ab.points[i].feature);
            REQUIRE(p);
            CHECK(near(p->rA, ab.points[i].rA, eps));
            CHECK(near(p->rB, ab.points[i].rB, eps));
            CHECK(p->separation == Approx(ab.points[i].separation).margin(eps));
        }
    }
}

TEMPLATE_TEST_CASE("a resting box keeps its two feature ids through 600 small jitters", "[collide2d]", test::F2,
                   test::D2)
{
    using S = typename TestType::S;
    // The warm start matches points by id: a box resting 5 mm deep, jittered by up to 1 mm and
    // 1 mrad (more than a solver's drift at rest), must keep the ids of its two bottom corners:
    // make_feature(2, 1) (A's top right with B's bottom right) and make_feature(3, 0), on a wide
    // box and on a box of its own width (where the corners sit on A's edge ends and the reference
    // face may be either box's), in both orders.
    const auto box = impulse::make_box(S(0.5), S(0.5));
    const auto ground = impulse::make_box(S(2), S(0.5));
    std::mt19937 gen(7);
    std::uniform_real_distribution<double> jitter(-1e-3, 1e-3);
    int checked = 0;
    for (const auto* below : {&ground, &box}) {
        for (int i = 0; i < 600; ++i) {
            double r[6];  // drawn in order: a call's arguments are evaluated in an unspecified order
            for (double& d : r) d = jitter(gen);
            const auto pa = pose<S>(S(r[0]), S(r[1]), impulse::Rot2<S>::from_angle(S(r[2])));
            const auto pb = pose<S>(S(r[3]), S(0.995 + r[4]), impulse::Rot2<S>::from_angle(S(r[5])));
            const auto ab = impulse::collide_polygons(*below, pa, box, pb);
            const auto ba = impulse::flipped(impulse::collide_polygons(box, pb, *below, pa));
            for (const auto* m : {&ab, &ba}) {
                REQUIRE(m->count == 2);
                REQUIRE(find(*m, make_feature(2, 1)));
                REQUIRE(find(*m, make_feature(3, 0)));
                ++checked;
            }
        }
    }
    CHECK(checked == 2400);
}

TEMPLATE_TEST_CASE("a gap below the speculative distance is reported with its positive separation",
                   "[collide2d]", test::F2, test::D2)
{
    using S = typename TestType::S;
    // Unit box 1.5 cm above A's top (centre y = 0.5 + 0.5 + 0.015): two points with s = +0.015,
    // midway at y = 0.5075. 2.5 cm above: beyond the 2 cm default, nothing; with speculative 0, the
    // 1.5 cm gap is nothing either.
    const auto ground = impulse::make_box(S(2), S(0.5));
    const auto box = impulse::make_box(S(0.5), S(0.5));
    const S eps = test::tol(S(16));
    const auto m = impulse::collide_polygons(ground, pose<S>(0, 0), box, pose<S>(0, S(1.015)));
    REQUIRE(m.count == 2);
    for (int i = 0; i < 2; ++i) {
        CHECK(m.points[i].separation == Approx(0.015).margin(eps));
        CHECK(m.points[i].rA.y() == Approx(0.5075).margin(eps));
    }
    CHECK(impulse::collide_polygons(ground, pose<S>(0, 0), box, pose<S>(0, S(1.025))).count == 0);
    CHECK(impulse::collide_polygons(ground, pose<S>(0, 0), box, pose<S>(0, S(1.015)), 0).count == 0);
}

TEMPLATE_TEST_CASE("corners approaching corner to corner meet along the line between them", "[collide2d]",
                   test::F2, test::D2)
{
    using S = typename TestType::S;
    // Unit boxes, B at (1.006, 1.008): B's corner 0 (0.506, 0.508) is (0.006, 0.008) from A's corner
    // 2 (0.5, 0.5), 1 cm away along (0.6, 0.8). The faces alone would say 0.8 cm along +y; the
    // corners' own direction is the contact normal, with s = 0.01 and the point midway,
    // (0.503, 0.504); id make_feature(2, 0).
    const auto box = impulse::make_box(S(0.5), S(0.5));
    const auto m = impulse::collide_polygons(box, pose<S>(0, 0), box, pose<S>(S(1.006), S(1.008)));
    REQUIRE(m.count == 1);
    const S eps = test::tol(S(16));
    CHECK(near(m.n, V2<S>(S(0.6), S(0.8)), eps));
    CHECK(m.points[0].separation == Approx(0.01).margin(eps));
    CHECK(near(m.points[0].rA, V2<S>(S(0.503), S(0.504)), eps));
    CHECK(m.points[0].feature == make_feature(2, 0));
    // Rounded by 0.004 each, the corners are 0.01 - 0.008 = 0.002 apart, the point still midway
    // between the rounded surfaces: A's corner + n (0.004 + 0.001).
    auto round = box;
    round.radius = S(0.004);
    const auto r = impulse::collide_polygons(round, pose<S>(0, 0), round, pose<S>(S(1.006), S(1.008)));
    REQUIRE(r.count == 1);
    CHECK(r.points[0].separation == Approx(0.002).margin(eps));
    CHECK(near(r.points[0].rA, V2<S>(S(0.5 + 0.005 * 0.6), S(0.5 + 0.005 * 0.8)), eps));
}

TEMPLATE_TEST_CASE("a capsule leaning back over a box's corner touches it end to corner", "[collide2d]",
                   test::F2, test::D2)
{
    using S = typename TestType::S;
    // A: 4 x 1 box, top right corner 2 = (2, 0.5). B: capsule from p1 = (2.03, 0.55) to
    // p2 = (1.83, 1.55), r = 0.05 (placed by the identity pose). Faces: A's top s = 0.05 (p1's
    // height), the capsule's lower-left face (normal (-1, -0.2)/1.0198) s = (0.03 + 0.01)/1.0198 =
    // 0.039, A's right face -0.17: A's top is the reference, the capsule's edge from p2 to p1 the
    // incident edge. Clipped to x <= 2 it starts at (2, 0.7), 0.2 above the face; but the nearest
    // core points are p1 and A's corner, (0.03, 0.05) apart: 0.0583095, smaller by far. So one
    // point along n = (0.03, 0.05)/0.0583095 = (0.514496, 0.857493), s = 0.0583095 - 0.05 =
    // 0.0083095, midway: corner + n s/2; id make_feature(2, 0).
    const auto cap = impulse::make_capsule(V2<S>(S(2.03), S(0.55)), V2<S>(S(1.83), S(1.55)), S(0.05));
    const auto m = impulse::collide_polygons(impulse::make_box(S(2), S(0.5)), pose<S>(0, 0), cap, pose<S>(0, 0));
    REQUIRE(m.count == 1);
    const S eps = test::tol(S(64));
    CHECK(near(m.n, V2<S>(S(0.514496), S(0.857493)), S(2e-6) + eps));
    CHECK(m.points[0].separation == Approx(0.0083095).margin(S(1e-7) + eps));
    CHECK(near(m.points[0].rA, V2<S>(S(2) + S(0.514496 * 0.00415475), S(0.5) + S(0.857493 * 0.00415475)),
               S(1e-6) + eps));
    CHECK(m.points[0].feature == make_feature(2, 0));
}

TEMPLATE_TEST_CASE("rounded boxes resting flat: separation less the radii, points midway between the rims",
                   "[collide2d]", test::F2, test::D2)
{
    using S = typename TestType::S;
    // Cores: A 4 x 1 at the origin (top 0.5), B unit at (0.3, 1.09) (bottom 0.59): 0.09 apart.
    // Rounded by 0.05 each, the rims are at 0.55 and 0.54: s = 0.09 - 0.1 = -0.01, points midway at
    // y = 0.545, x = 0.8 and -0.2, ids as for sharp boxes.
    auto ground = impulse::make_box(S(2), S(0.5));
    auto box = impulse::make_box(S(0.5), S(0.5));
    ground.radius = box.radius = S(0.05);
    const auto m = impulse::collide_polygons(ground, pose<S>(0, 0), box, pose<S>(S(0.3), S(1.09)));
    REQUIRE(m.count == 2);
    const S eps = test::tol(S(16));
    CHECK(near(m.n, V2<S>(0, 1), eps));
    check_point(m, make_feature(2, 1), -0.01, V2<S>(S(0.8), S(0.545)), eps);
    check_point(m, make_feature(3, 0), -0.01, V2<S>(S(-0.2), S(0.545)), eps);
    // On a rounded box as wide, B moved 2 mm right and turned -1 mrad: its bottom right corner,
    // (0.002, 1.09) + (0.5 c + 0.5 s, 0.5 s - 0.5 c) = (0.5015, 0.5895), sticks out past A's top
    // right corner (0.5, 0.5), but that corner still lies under B's bottom edge, 0.0895015 from it
    // (less than the corners' 0.0895126): a corner against a face, so the face contact stays, with
    // both points.
    auto same = impulse::make_box(S(0.5), S(0.5));
    same.radius = S(0.05);
    const auto rock = impulse::collide_polygons(same, pose<S>(0, 0), box,
                                                pose<S>(S(0.002), S(1.09), impulse::Rot2<S>::from_angle(S(-0.001))));
    CHECK(rock.count == 2);
    CHECK(near(rock.n, V2<S>(0, 1), eps));
}

TEMPLATE_TEST_CASE("coincident boxes give a finite, repeatable manifold", "[collide2d]", test::F2, test::D2)
{
    using S = typename TestType::S;
    // Every face of either box is 1 deep: the first face of A (its bottom, normal -y) is taken;
    // the incident edge is B's top, both corners 1 deep, midway at y = 0: (-0.5, 0) with ids
    // (A's 0, B's 3) and (0.5, 0) with (A's 1, B's 2).
    const auto box = impulse::make_box(S(0.5), S(0.5));
    const auto pa = pose<S>(S(3), S(-2), impulse::Rot2<S>(0, 1));
    const auto m = impulse::collide_polygons(box, pa, box, pa);
    REQUIRE(m.count == 2);
    CHECK(near(m.n, pa.rotate(V2<S>(0, -1)), test::tol(S(4))));
    check_point(m, make_feature(0, 3), -1, pa.rotate(V2<S>(S(-0.5), 0)), test::tol(S(8)));
    const auto& p1 = check_point(m, make_feature(1, 2), -1, pa.rotate(V2<S>(S(0.5), 0)), test::tol(S(8)));
    CHECK(near(p1.rB, pa.rotate(V2<S>(S(0.5), 0)), test::tol(S(8))));
    const auto again = impulse::collide_polygons(box, pa, box, pa);
    CHECK(again.points[0].rA == m.points[0].rA);
    CHECK(again.points[1].feature == m.points[1].feature);
    // A circle at a box's centre and a capsule on itself: finite too.
    impulse::Circle<S> ball;
    ball.radius = S(0.25);
    const auto c = impulse::collide_polygon_circle(box, pa, ball, pa);
    REQUIRE(c.count == 1);
    CHECK(c.points[0].separation == Approx(-0.75).margin(test::tol(S(8))));  // -0.5 - 0.25
    CHECK(test::all_finite(c.points[0].rA));
    const auto cap = impulse::make_capsule(V2<S>(-1, 0), V2<S>(1, 0), S(0.1));
    const auto cc = impulse::collide_polygons(cap, pa, cap, pa);
    REQUIRE(cc.count == 2);
    CHECK(cc.points[0].separation == Approx(-0.2).margin(test::tol(S(8))));
    CHECK(test::all_finite(cc.n));
}

// ---------------------------------------------------------------------------------------------
// Capsules

TEMPLATE_TEST_CASE("capsules: lying on a box, and end to end", "[collide2d]", test::F2, test::D2)
{
    using S = typename TestType::S;
    const S eps = test::tol(S(16));
    // Capsule (-0.5, 0)..(0.5, 0), r = 0.1, centred at (0, 0.59) on a 4 x 1 box: its rim is at
    // 0.49, 1 cm into the top face; two points under the segment's ends, midway at y = 0.495.
    const auto cap = impulse::make_capsule(V2<S>(S(-0.5), 0), V2<S>(S(0.5), 0), S(0.1));
    const auto m = impulse::collide_polygons(impulse::make_box(S(2), S(0.5)), pose<S>(0, 0), cap,
                                             pose<S>(0, S(0.59)));
    REQUIRE(m.count == 2);
    CHECK(near(m.n, V2<S>(0, 1), eps));
    for (int i = 0; i < 2; ++i) {
        CHECK(m.points[i].separation == Approx(-0.01).margin(eps));
        CHECK(std::abs(m.points[i].rA.x()) == Approx(0.5).margin(eps));
        CHECK(m.points[i].rA.y() == Approx(0.495).margin(eps));
    }
    // Two such capsules on one line, the second at (1.15, 0): the segments end 0.15 apart, the
    // caps overlap by 0.05. No face normal separates them; the ends do: n = +x, s = -0.05, the
    // point at 0.5 + 0.1 - 0.025 = 0.575, between A's end 1 and B's end 0.
    const auto e = impulse::collide_polygons(cap, pose<S>(0, 0), cap, pose<S>(S(1.15), 0));
    REQUIRE(e.count == 1);
    CHECK(near(e.n, V2<S>(1, 0), eps));
    CHECK(e.points[0].separation == Approx(-0.05).margin(eps));
    CHECK(near(e.points[0].rA, V2<S>(S(0.575), 0), eps));
    CHECK(e.points[0].feature == make_feature(1, 0));
    // 1 m apart: nothing.
    CHECK(impulse::collide_polygons(cap, pose<S>(0, 0), cap, pose<S>(S(2.2), 0)).count == 0);
}

// ---------------------------------------------------------------------------------------------
// Polygon against circle

TEMPLATE_TEST_CASE("polygon and circle: face region, vertex region, centre inside", "[collide2d]", test::F2,
                   test::D2)
{
    using S = typename TestType::S;
    const auto box = impulse::make_box(S(0.5), S(0.5));
    impulse::Circle<S> ball;
    ball.radius = S(0.25);
    const S eps = test::tol(S(16));
    // Face region: centre (0.2, 0.7), 0.2 above the top face: s = 0.2 - 0.25 = -0.05, n = +y,
    // point = c - n (0.25 - 0.025) = (0.2, 0.475); rB = point - c = (0, -0.225).
    auto m = impulse::collide_polygon_circle(box, pose<S>(0, 0), ball, pose<S>(S(0.2), S(0.7)));
    REQUIRE(m.count == 1);
    CHECK(near(m.n, V2<S>(0, 1), eps));
    CHECK(m.points[0].separation == Approx(-0.05).margin(eps));
    CHECK(near(m.points[0].rA, V2<S>(S(0.2), S(0.475)), eps));
    CHECK(near(m.points[0].rB, V2<S>(0, S(-0.225)), eps));
    // Vertex region: centre (0.62, 0.66) is (0.12, 0.16) from corner (0.5, 0.5): 0.2 away along
    // (0.6, 0.8), s = -0.05, point = c - 0.225 (0.6, 0.8) = (0.485, 0.48).
    m = impulse::collide_polygon_circle(box, pose<S>(0, 0), ball, pose<S>(S(0.62), S(0.66)));
    REQUIRE(m.count == 1);
    CHECK(near(m.n, V2<S>(S(0.6), S(0.8)), eps));
    CHECK(m.points[0].separation == Approx(-0.05).margin(eps));
    CHECK(near(m.points[0].rA, V2<S>(S(0.485), S(0.48)), eps));
    // Centre inside at (0.1, 0.3): the top face is least deep (0.2 below it), n = +y,
    // s = -0.2 - 0.25 = -0.45; point midway between the top (0.5) and the circle's bottom (0.05).
    m = impulse::collide_polygon_circle(box, pose<S>(0, 0), ball, pose<S>(S(0.1), S(0.3)));
    REQUIRE(m.count == 1);
    CHECK(near(m.n, V2<S>(0, 1), eps));
    CHECK(m.points[0].separation == Approx(-0.45).margin(eps));
    CHECK(near(m.points[0].rA, V2<S>(S(0.1), S(0.275)), eps));
    // The box turned 90 degrees and moved to (5, 1), the circle placed the same way relative to it:
    // the same contact, turned. A rounded box (0.05) against the face-region circle: s = -0.1,
    // point midway between the rim (0.55) and the circle (0.45), at y = 0.5.
    const impulse::Rot2<S> R(0, 1);
    m = impulse::collide_polygon_circle(box, pose<S>(5, 1, R), ball, pose<S>(S(5) - S(0.66), S(1) + S(0.62)));
    REQUIRE(m.count == 1);
    CHECK(near(m.n, R.rotate(V2<S>(S(0.6), S(0.8))), eps));
    CHECK(near(m.points[0].rA, R.rotate(V2<S>(S(0.485), S(0.48))), eps));
    auto round = box;
    round.radius = S(0.05);
    m = impulse::collide_polygon_circle(round, pose<S>(0, 0), ball, pose<S>(S(0.2), S(0.7)));
    REQUIRE(m.count == 1);
    CHECK(m.points[0].separation == Approx(-0.1).margin(eps));
    CHECK(near(m.points[0].rA, V2<S>(S(0.2), S(0.5)), eps));
    // Speculative: 1.5 cm above the face a point with s = 0.015; 2.5 cm above, none.
    m = impulse::collide_polygon_circle(box, pose<S>(0, 0), ball, pose<S>(0, S(0.765)));
    REQUIRE(m.count == 1);
    CHECK(m.points[0].separation == Approx(0.015).margin(eps));
    CHECK(impulse::collide_polygon_circle(box, pose<S>(0, 0), ball, pose<S>(0, S(0.775))).count == 0);
    // A circle off a capsule's end: capsule (-1, 0)..(1, 0), r 0.1; circle at (1.3, 0): centre 0.3
    // from the end, s = 0.3 - 0.35 = -0.05, n = +x.
    const auto cap = impulse::make_capsule(V2<S>(-1, 0), V2<S>(1, 0), S(0.1));
    m = impulse::collide_polygon_circle(cap, pose<S>(0, 0), ball, pose<S>(S(1.3), 0));
    REQUIRE(m.count == 1);
    CHECK(near(m.n, V2<S>(1, 0), eps));
    CHECK(m.points[0].separation == Approx(-0.05).margin(eps));
}

// ---------------------------------------------------------------------------------------------
// Plane against polygon

TEMPLATE_TEST_CASE("plane and polygon: a box lying flat touches at its two bottom corners", "[collide2d]",
                   test::F2, test::D2)
{
    using S = typename TestType::S;
    const S eps = test::tol(S(16));
    const impulse::Plane<S, 2> floor;  // y = 0, normal +y
    const auto box = impulse::make_box(S(0.5), S(0.5));
    // Unit box at (1, 0.49): corners 0 (0.5, -0.01) and 1 (1.5, -0.01) are 1 cm deep, midway at
    // y = -0.005; rB = (-+0.5, -0.495). Ids make_feature(0, 0) and (0, 1), in that order.
    auto m = impulse::collide_plane_polygon(floor, pose<S>(0, 0), box, pose<S>(1, S(0.49)));
    REQUIRE(m.count == 2);
    CHECK(near(m.n, V2<S>(0, 1), eps));
    CHECK(m.points[0].feature == make_feature(0, 0));
    CHECK(m.points[1].feature == make_feature(0, 1));
    CHECK(m.points[0].separation == Approx(-0.01).margin(eps));
    CHECK(near(m.points[0].rA, V2<S>(S(0.5), S(-0.005)), eps));
    CHECK(near(m.points[1].rB, V2<S>(S(0.5), S(-0.495)), eps));
    // Turned 30 degrees, lowest corner 0 is (c + s)/2 below the centre, corner 1 0.5 higher:
    // centre at height (c + s)/2 - 0.01 leaves one point, 1 cm deep.
    const auto q = impulse::Rot2<S>::from_angle(S(0.52359877559829887));
    m = impulse::collide_plane_polygon(floor, pose<S>(0, 0), box, pose<S>(0, (q.c + q.s) / S(2) - S(0.01), q));
    REQUIRE(m.count == 1);
    CHECK(m.points[0].feature == make_feature(0, 0));
    CHECK(m.points[0].separation == Approx(-0.01).margin(eps));
    // A wall: the plane x = 0 of a body at (0, 3) turned -90 degrees (normal +y -> +x), a box
    // rounded by 0.1 at (0.59, 0): its left corners 0 and 3 are 0.09 right of the wall, their rim
    // 0.01 into it; points at x = -0.005 ... midway, i.e. x - n (0.1 - 0.005) = 0.09 - 0.095.
    auto round = box;
    round.radius = S(0.1);
    m = impulse::collide_plane_polygon(floor, pose<S>(0, 3, impulse::Rot2<S>(0, -1)), round, pose<S>(S(0.59), 0));
    REQUIRE(m.count == 2);
    CHECK(near(m.n, V2<S>(1, 0), eps));
    CHECK(m.points[0].feature == make_feature(0, 0));
    CHECK(m.points[1].feature == make_feature(0, 3));
    CHECK(m.points[1].separation == Approx(-0.01).margin(eps));
    CHECK(near(m.points[1].rA, V2<S>(S(-0.005), S(0.5) - S(3)), eps));
    // 1.5 cm above the floor: two speculative points; 2.5 cm: none.
    CHECK(impulse::collide_plane_polygon(floor, pose<S>(0, 0), box, pose<S>(0, S(0.515))).count == 2);
    CHECK(impulse::collide_plane_polygon(floor, pose<S>(0, 0), box, pose<S>(0, S(0.525))).count == 0);
}
