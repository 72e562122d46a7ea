// SPDX-License-Identifier: MIT
// collide3d.hpp: manifolds between boxes, capsules, spheres and planes in 3D. Every expected number
// is derived by hand in the comment beside it (positions of corners, edges and segment ends after
// the stated placements; separations as the distance between surfaces; points midway).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <Eigen/Geometry>

#include <impulse/collide3d.hpp>

#include "catch.hpp"
#include "common.hpp"

namespace {

template <class S>
using V3 = impulse::Vec<S, 3>;
template <class S>
using Pose3 = impulse::Pose<S, 3>;
template <class S>
using M3 = impulse::Manifold<S, 3>;

template <class S>
Pose3<S> at(S x, S y, S z)
{
    Pose3<S> p;
    p.p = V3<S>(x, y, z);
    return p;
}

template <class S>
Eigen::Quaternion<S> about(double angle, double ax, double ay, double az)
{
    const Eigen::Vector3d axis = Eigen::Vector3d(ax, ay, az).normalized();
    return Eigen::Quaternion<S>(Eigen::Quaterniond(Eigen::AngleAxisd(angle, axis)).cast<S>());
}

template <class S>
impulse::Box<S> box(double hx, double hy, double hz)
{
    impulse::Box<S> b;
    b.half_extents = V3<S>(S(hx), S(hy), S(hz));
    return b;
}

// A capsule whose segment runs from -half to +half along a body axis.
template <class S>
impulse::Capsule<S> capsule(const V3<S>& half, double r)
{
    impulse::Capsule<S> c;
    c.center1 = -half;
    c.center2 = half;
    c.radius = S(r);
    return c;
}

template <class S>
impulse::Sphere<S, 3> sphere(double r)
{
    impulse::Sphere<S, 3> s;
    s.radius = S(r);
    return s;
}

// The world position of point i (anchor rA from A's centre).
template <class S>
V3<S> world(const M3<S>& m, int i, const Pose3<S>& pa)
{
    return pa.p + m.points[i].rA;
}

template <class S>
int find(const M3<S>& m, std::uint32_t feature)
{
    for (int i = 0; i < m.count; ++i)
        if (m.points[i].feature == feature) return i;
    return -1;
}

template <class S>
std::vector<std::uint32_t> features(const M3<S>& m)
{
    std::vector<std::uint32_t> f;
    for (int i = 0; i < m.count; ++i) f.push_back(m.points[i].feature);
    std::sort(f.begin(), f.end());
    return f;
}

// Everything finite, the normal a unit vector, rB the same world point as rA, ids unique.
template <class S>
bool well_formed(const M3<S>& m, const Pose3<S>& pa, const Pose3<S>& pb)
{
    if (!test::all_finite(m.n) || !impulse::is_unit(m.n)) return false;
    if (m.count < 0 || m.count > 4) return false;
    for (int i = 0; i < m.count; ++i) {
        const auto& p = m.points[i];
        if (!test::all_finite(p.rA) || !test::all_finite(p.rB) || !std::isfinite(p.separation)) return false;
        const S scale = S(1) + p.rA.norm() + p.rB.norm();
        if (((pa.p + p.rA) - (pb.p + p.rB)).norm() > test::tol(scale, S(256))) return false;
        for (int j = 0; j < i; ++j)
            if (m.points[j].feature == p.feature) return false;
    }
    return true;
}

// a manifold and the flipped one of the same pair read the other way agree point by point
template <class S>
void check_flipped_agrees(const M3<S>& ab, const M3<S>& ba)
{
    const M3<S> back = impulse::flipped(ba);
    REQUIRE(back.count == ab.count);
    CHECK((back.n - ab.n).norm() <= test::tol(S(16)));
    for (int i = 0; i < ab.count; ++i) {
        const int j = find(back, ab.points[i].feature);
        REQUIRE(j >= 0);
        CHECK((back.points[j].rA - ab.points[i].rA).norm() <= test::tol(S(64)));
        CHECK((back.points[j].rB - ab.points[i].rB).norm() <= test::tol(S(64)));
        CHECK(back.points[j].separation == Approx(ab.points[i].separation).margin(test::tol(S(64))));
    }
}

constexpr std::uint32_t face_zp = 0x25;  // box face +z: 0x20 + 2*2 + 1
constexpr std::uint32_t end1 = 0x41, end2 = 0x42, side = 0x40;  // capsule features

}  // namespace

// ---------------------------------------------------------------------------------------------
// Shapes

TEMPLATE_TEST_CASE("box and capsule volumes and principal inertia", "[collide3d]", float, double)
{
    using S = TestType;
    // Box of sides 1, 2, 3: V = 6; I = m/12 (2^2 + 3^2, 1^2 + 3^2, 1^2 + 2^2) = m/12 (13, 10, 5).
    const auto b = box<S>(0.5, 1, 1.5);
    CHECK(impulse::volume(b) == Approx(6.0));
    const V3<S> Ib = impulse::principal_inertia(b, S(12));
    CHECK(Ib.x() == Approx(13.0));
    CHECK(Ib.y() == Approx(10.0));
    CHECK(Ib.z() == Approx(5.0));
    // Capsule along x, L = 2, r = 0.5: V = pi r^2 L + 4/3 pi r^3 = pi/2 + pi/6 = 2 pi/3.
    const auto c = capsule<S>(V3<S>(1, 0, 0), 0.5);
    CHECK(impulse::volume(c) == Approx(2.0 * 3.14159265358979 / 3.0));
    // The moment about the segment (rigid.hpp's Iz of a z capsule) goes on x, the side moment on y, z.
    const V3<S> Iz = impulse::inertia_capsule(S(3), S(0.5), S(2));
    const V3<S> Ic = impulse::principal_inertia(c, S(3));
    CHECK(Ic.x() == Iz.z());
    CHECK(Ic.y() == Iz.x());
    CHECK(Ic.z() == Iz.x());
    // Zero length: a sphere, 2/5 m r^2 = 0.4 * 3 * 0.25 = 0.3 about every axis.
    const auto ball = capsule<S>(V3<S>::Zero(), 0.5);
    const V3<S> Is = impulse::principal_inertia(ball, S(3));
    CHECK(Is.x() == Approx(0.3));
    CHECK(Is.y() == Approx(0.3));
    CHECK(Is.z() == Approx(0.3));
}

// ---------------------------------------------------------------------------------------------
// Box against box

TEMPLATE_TEST_CASE("a box resting face on face gives 4 points at its bottom corners", "[collide3d]", test::F3,
                   test::D3)
{
    using S = typename TestType::S;
    // A: a slab of half extents (2, 2, 0.5) at the origin, top face z = 0.5 (face +z: 0x25).
    // B: a cube of half 0.5 at (0.3, -0.2, 0.99): its bottom face z = 0.49, 0.01 into the slab.
    // Faces of A and B along z both separate by 0.99 - 0.5 - 0.5 = -0.01: a tie keeps A's face.
    // Incident face: B's bottom (z-); its 4 corners (0.3 +- 0.5, -0.2 +- 0.5, 0.49) lie inside the
    // slab's top, so each is a point with s = 0.49 - 0.5 = -0.01, midway at z = 0.495:
    //   rA = (0.3 +- 0.5, -0.2 +- 0.5, 0.495),  rB = (+-0.5, +-0.5, 0.495 - 0.99 = -0.495).
    // Feature (A's face 0x25, B's vertex (x>0) + 2 (y>0) + 4*0).
    const auto a = box<S>(2, 2, 0.5), b = box<S>(0.5, 0.5, 0.5);
    const Pose3<S> pa;
    const Pose3<S> pb = at<S>(S(0.3), S(-0.2), S(0.99));
    const M3<S> m = impulse::collide_boxes(a, pa, b, pb);
    REQUIRE(m.count == 4);
    CHECK(well_formed(m, pa, pb));
    CHECK((m.n - V3<S>::UnitZ()).norm() <= test::tol(S(1)));
    for (int sx = -1; sx <= 1; sx += 2) {
        for (int sy = -1; sy <= 1; sy += 2) {
            const std::uint32_t vertex = (sx > 0 ? 1u : 0u) + (sy > 0 ? 2u : 0u);
            const int i = find(m, impulse::make_feature(face_zp, vertex));
            REQUIRE(i >= 0);
            CHECK(m.points[i].separation == Approx(-0.01).margin(test::tol(S(4))));
            const V3<S> rA(S(0.3) + S(0.5) * S(sx), S(-0.2) + S(0.5) * S(sy), S(0.495));
            const V3<S> rB(S(0.5) * S(sx), S(0.5) * S(sy), S(-0.495));
            CHECK((m.points[i].rA - rA).norm() <= test::tol(S(4)));
            CHECK((m.points[i].rB - rB).norm() <= test::tol(S(4)));
        }
    }
}

TEMPLATE_TEST_CASE("a cube turned 45 degrees on a cube: the clipped octagon reduced to a square of 4", "[collide3d]",
                   test::F3, test::D3)
{
    using S = typename TestType::S;
    // Two cubes of half 1; B at (0, 0, 1.9) turned 45 degrees about z. B's bottom face (z = 0.9)
    // is the square |x| + |y| <= sqrt 2; clipped to A's top |x|, |y| <= 1 it is the regular octagon
    // with vertices (+-1, +-(sqrt2 - 1)) and (+-(sqrt2 - 1), +-1), each where an edge of B crosses
    // a side of A's top, all at s = 0.9 - 1 = -0.1, midway at z = 0.95. Reduced to 4: the first
    // vertex, the opposite one (farthest), then the largest triangles: a square inscribed in the
    // circle of radius R = sqrt(1 + (sqrt2 - 1)^2) = sqrt(4 - 2 sqrt2), area 2 R^2 = 8 - 4 sqrt2.
    const auto a = box<S>(1, 1, 1);
    const Pose3<S> pa;
    Pose3<S> pb = at<S>(0, 0, S(1.9));
    pb.q = about<S>(M_PI / 4, 0, 0, 1);
    const M3<S> m = impulse::collide_boxes(a, pa, a, pb);
    REQUIRE(m.count == 4);
    CHECK(well_formed(m, pa, pb));
    CHECK((m.n - V3<S>::UnitZ()).norm() <= test::tol(S(4)));
    const double k = std::sqrt(2.0) - 1;
    const double R2 = 4 - 2 * std::sqrt(2.0);
    std::vector<double> angle;
    for (int i = 0; i < 4; ++i) {
        const V3<S> x = world(m, i, pa);
        CHECK(m.points[i].separation == Approx(-0.1).margin(test::tol(S(16))));
        CHECK(x.z() == Approx(0.95).margin(test::tol(S(16))));
        // an octagon vertex: one coordinate +-1, the other +-(sqrt2 - 1)
        const double ax = std::abs(double(x.x())), ay = std::abs(double(x.y()));
        const bool vertex = (std::abs(ax - 1) < 1e-5 && std::abs(ay - k) < 1e-5) ||
                            (std::abs(ay - 1) < 1e-5 && std::abs(ax - k) < 1e-5);
        CHECK(vertex);
        angle.push_back(std::atan2(double(x.y()), double(x.x())));
        // an edge of A (low half 0x10..0x1b) against an edge of B (high half)
        const std::uint32_t f = m.points[i].feature;
        CHECK((f & 0xffffu) >= 0x10u);
        CHECK((f & 0xffffu) <= 0x1bu);
        CHECK((f >> 16) >= 0x10u);
        CHECK((f >> 16) <= 0x1bu);
    }
    // Around the centre the 4 points are a quarter turn apart: a square of area 2 R^2.
    std::sort(angle.begin(), angle.end());
    for (int i = 0; i < 3; ++i) CHECK(angle[i + 1] - angle[i] == Approx(M_PI / 2).margin(1e-4));
    double area = 0;
    for (int i = 0; i < 4; ++i) area += 0.5 * R2 * std::sin(angle[(i + 1) % 4] - angle[i] + (i == 3 ? 2 * M_PI : 0));
    CHECK(area == Approx(8 - 4 * std::sqrt(2.0)).margin(1e-4));
}

TEMPLATE_TEST_CASE("crossed boxes touch edge on edge: one point, normal along the edges' cross product",
                   "[collide3d]", test::F3, test::D3)
{
    using S = typename TestType::S;
    // A: half (2, 0.5, 0.5) at the origin turned 45 degrees about x: its edge along x at body
    // (y+, z+) is on top at z = 0.5 sqrt2 (edge id 0x10 + 0 + 2 + 1 = 0x13).
    // B: half (0.5, 2, 0.5) turned 45 degrees about y (body x -> (c, 0, -s), z -> (s, 0, c)): its
    // edge along y at body (x+, z-) is lowest, 0.5 sqrt2 below its centre (edge id 0x10 + 4 + 2 = 0x16).
    // B at height sqrt2 - 0.1: the edges cross at right angles, 0.1 into each other. The axis
    // x cross y = +z separates by -0.1; every face axis overlaps by more than 1.
    // One point midway: (0, 0, 0.5 sqrt2 - 0.05), s = -0.1, n = +z, feature (0x13, 0x16).
    const double h = 0.5 * std::sqrt(2.0);
    Pose3<S> pa, pb = at<S>(0, 0, S(2 * h - 0.1));
    pa.q = about<S>(M_PI / 4, 1, 0, 0);
    pb.q = about<S>(M_PI / 4, 0, 1, 0);
    const auto a = box<S>(2, 0.5, 0.5), b = box<S>(0.5, 2, 0.5);
    const M3<S> m = impulse::collide_boxes(a, pa, b, pb);
    REQUIRE(m.count == 1);
    CHECK(well_formed(m, pa, pb));
    CHECK((m.n - V3<S>::UnitZ()).norm() <= test::tol(S(16)));
    CHECK(m.points[0].separation == Approx(-0.1).margin(test::tol(S(16))));
    CHECK((world(m, 0, pa) - V3<S>(0, 0, S(h - 0.05))).norm() <= test::tol(S(16)));
    CHECK(m.points[0].feature == impulse::make_feature(0x13, 0x16));
    // Read the other way round: the same point, flipped.
    check_flipped_agrees(m, impulse::collide_boxes(b, pb, a, pa));
}

TEMPLATE_TEST_CASE("a cube standing on its corner touches the slab at that corner alone", "[collide3d]", test::F3,
                   test::D3)
{
    using S = typename TestType::S;
    // B: a cube of half 0.5 turned so its body diagonal (1,1,1) points up: its corner (-,-,-)
    // (vertex 0) is lowest, 0.5 sqrt3 below its centre; the three next corners are
    // 0.5/sqrt3 below the centre, i.e. 1/sqrt3 = 0.577 higher. B at (0.1, 0.2, 0.5 + 0.5 sqrt3 - 0.02):
    // the corner is 0.02 into the slab's top (z = 0.5), the others far beyond 2 cm: one point,
    // s = -0.02, midway at (0.1, 0.2, 0.49), feature (face 0x25, vertex 0).
    const auto a = box<S>(2, 2, 0.5), b = box<S>(0.5, 0.5, 0.5);
    const Pose3<S> pa;
    Pose3<S> pb = at<S>(S(0.1), S(0.2), S(0.5 + 0.5 * std::sqrt(3.0) - 0.02));
    pb.q = Eigen::Quaternion<S>::FromTwoVectors(V3<S>(1, 1, 1), V3<S>::UnitZ());
    const M3<S> m = impulse::collide_boxes(a, pa, b, pb);
    REQUIRE(m.count == 1);
    CHECK(well_formed(m, pa, pb));
    CHECK((m.n - V3<S>::UnitZ()).norm() <= test::tol(S(4)));
    CHECK(m.points[0].separation == Approx(-0.02).margin(test::tol(S(16))));
    CHECK((world(m, 0, pa) - V3<S>(S(0.1), S(0.2), S(0.49))).norm() <= test::tol(S(16)));
    CHECK(m.points[0].feature == impulse::make_feature(face_zp, 0));
}

TEMPLATE_TEST_CASE("box overlap: deep, shallow and a speculative gap", "[collide3d]", test::F3, test::D3)
{
    using S = typename TestType::S;
    // The cube of half 0.5 over the slab's top (z = 0.5) at height zc: s = zc - 1 at every bottom
    // corner, the points midway at z = 0.5 + s/2.
    const auto a = box<S>(2, 2, 0.5), b = box<S>(0.5, 0.5, 0.5);
    const Pose3<S> pa;
    struct Case {
        double zc, s;
    };
    // deep (0.4 in), shallow (0.1 mm in), a gap of 1.5 cm (within the 2 cm speculative distance)
    for (const Case c : {Case{0.6, -0.4}, Case{0.9999, -1e-4}, Case{1.015, 0.015}}) {
        const Pose3<S> pb = at<S>(0, 0, S(c.zc));
        const M3<S> m = impulse::collide_boxes(a, pa, b, pb);
        REQUIRE(m.count == 4);
        CHECK(well_formed(m, pa, pb));
        for (int i = 0; i < 4; ++i) {
            CHECK(m.points[i].separation == Approx(c.s).margin(test::tol(S(4))));
            CHECK(world(m, i, pa).z() == Approx(0.5 + c.s / 2).margin(test::tol(S(4))));
        }
    }
    // A gap of 2.5 cm: beyond the speculative distance, nothing; 1.5 cm with no speculative
    // distance: nothing either.
    CHECK(impulse::collide_boxes(a, pa, b, at<S>(0, 0, S(1.025))).count == 0);
    CHECK(impulse::collide_boxes(a, pa, b, at<S>(0, 0, S(1.015)), S(0)).count == 0);
    // Side by side with a gap along x (B's face x- 0.01 from A's face x+ at 2): all 4 points of
    // B's face x-, s = 0.01, normal +x.
    const M3<S> side_gap = impulse::collide_boxes(a, pa, b, at<S>(S(2.51), 0, 0));
    REQUIRE(side_gap.count == 4);
    CHECK((side_gap.n - V3<S>::UnitX()).norm() <= test::tol(S(1)));
    for (int i = 0; i < 4; ++i) CHECK(side_gap.points[i].separation == Approx(0.01).margin(test::tol(S(4))));
}

TEMPLATE_TEST_CASE("boxes read in the other order give the flipped manifold", "[collide3d]", test::F3, test::D3)
{
    using S = typename TestType::S;
    // A cube tilted by 0.1 rad about (1, 2, 0) resting on the slab: the slab's face is clearly the
    // better axis in both orders (the cube's own faces see the slab's 2 m extent tilted), so both
    // orders clip against the same face and must agree once flipped: same normal, anchors and
    // separations, feature halves swapped.
    const auto slab = box<S>(2, 2, 0.5), cube = box<S>(0.5, 0.5, 0.5);
    const Pose3<S> ps;
    Pose3<S> pc = at<S>(S(0.2), S(0.1), S(1.0));
    pc.q = about<S>(0.1, 1, 2, 0);
    const M3<S> ab = impulse::collide_boxes(slab, ps, cube, pc);
    const M3<S> ba = impulse::collide_boxes(cube, pc, slab, ps);
    REQUIRE(ab.count >= 1);
    CHECK(well_formed(ab, ps, pc));
    CHECK(well_formed(ba, pc, ps));
    check_flipped_agrees(ab, ba);
    // The cube under the slab instead (slab above, 0.01 into it): n from the cube (A) up to the slab
    // (B) is +z. The two faces tie; whichever is the reference, the points are the cube's top
    // corners (vertices 4..7, z bit set) against the slab's face z- (0x24): the reference face's
    // corners inside the incident face, or the incident face's corners inside the reference face.
    const M3<S> under = impulse::collide_boxes(cube, at<S>(0, 0, S(-0.99)), slab, ps);
    REQUIRE(under.count == 4);
    CHECK((under.n - V3<S>::UnitZ()).norm() <= test::tol(S(1)));
    // the slab's face z- (0x24) as B's half, the cube's top corners (z bit 4) as A's
    for (int i = 0; i < 4; ++i) {
        CHECK((under.points[i].feature >> 16) == 0x24u);
        CHECK((under.points[i].feature & 0xffffu) >= 4u);
        CHECK((under.points[i].feature & 0xffffu) <= 7u);
    }
}

TEST_CASE("a float box resting on a box keeps its 4 points and feature ids over 600 small jitters", "[collide3d]")
{
    using S = float;
    std::mt19937 gen(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    // B shaken about a resting pose: shifted up to 5 mm sideways and 2 mm up or down, tilted up
    // to `tilt` rad about a random axis. Its bottom corners then stay within
    // 0.5 (|sin| + |sin|) + 0.002 <= tilt + 0.002 of the resting level 5 mm in, inside the 2 cm reach.
    const auto shaken = [&](double x, double y, double tilt) {
        float r[7];  // drawn in order: a call's arguments are evaluated in an unspecified order
        for (float& d : r) d = u(gen);
        Pose3<S> p = at<S>(float(x) + 0.005f * r[0], float(y) + 0.005f * r[1], 0.995f + 0.002f * r[2]);
        const V3<S> axis(r[3], r[4], r[5]);
        p.q = Eigen::Quaternionf(Eigen::AngleAxisf(float(tilt) * r[6], axis.normalized()));
        return p;
    };
    const Pose3<S> pa;
    const auto cube = box<S>(0.5, 0.5, 0.5);

    // 1. The cube on the slab (half 2, 2, 0.5), 5 mm in, tilts up to 0.02 rad: the slab's face is
    // the reference (the cube's own faces see the slab's 2 m width tilted, far deeper) and the
    // cube's 4 bottom corners lie inside it: ids (face 0x25, vertex 0..3), every time.
    {
        const auto slab = box<S>(2, 2, 0.5);
        std::vector<std::uint32_t> expected;
        for (std::uint32_t v = 0; v < 4; ++v) expected.push_back(impulse::make_feature(face_zp, v));
        int same = 0;
        for (int k = 0; k < 600; ++k) {
            const Pose3<S> pc = shaken(0.1, -0.2, 0.02);
            const M3<S> m = impulse::collide_boxes(slab, pa, cube, pc);
            if (m.count == 4 && features(m) == expected && well_formed(m, pa, pc)) ++same;
        }
        CHECK(same == 600);
    }
    // 2. Two equal cubes, B offset by (0.3, 0.2): the faces overlap in the rectangle
    // [-0.2, 0.5] x [-0.3, 0.5], whose corners are
    //   (-0.2, -0.3)  B's corner (-,-,-) inside A's top              (face 0x25, vertex 0)
    //   ( 0.5, -0.3)  B's edge along x at (y-, z-) = 0x10 crossing A's side x = 0.5, i.e. A's top
    //                 edge along y at (x+, z+) = 0x10 + 4 + 2 + 1 = 0x17    (0x17, 0x10)
    //   (-0.2,  0.5)  B's edge along y at (x-, z-) = 0x14 crossing A's top edge along x at
    //                 (y+, z+) = 0x13                                       (0x13, 0x14)
    //   ( 0.5,  0.5)  A's corner (+,+,+) inside B's bottom face z- (0x24)    (vertex 7, 0x24)
    // Whichever face is the reference these ids are the same (a vertex of one box against a face
    // of the other, or an edge against an edge). Tilted up to 0.02 rad the near-vertical edge-pair
    // axes separate by about as much as the faces; only the preference for faces (an edge pair
    // must be better by 10 % + 2.5 mm) keeps the 4 points from collapsing to one edge point.
    const std::vector<std::uint32_t> expected{impulse::make_feature(face_zp, 0), impulse::make_feature(0x17, 0x10),
                                              impulse::make_feature(0x13, 0x14), impulse::make_feature(7, 0x24)};
    {
        int same = 0;
        for (int k = 0; k < 600; ++k) {
            const Pose3<S> pb = shaken(0.3, 0.2, 0.02);
            const M3<S> m = impulse::collide_boxes(cube, pa, cube, pb);
            if (m.count == 4 && features(m) == expected && well_formed(m, pa, pb)) ++same;
        }
        CHECK(same == 600);
    }
    // 3. The same, tilted up to 1e-3 rad: A's face stays the reference, so n is exactly +z. B's
    // face can only win by 2.5 mm + 2 %; the two faces' separations
    //   sA = |t_z| - 0.5 - 0.5 (|R_zx| + |R_zy| + |R_zz|),  sB = |t.R_z| - 0.5 (|R_xz| + |R_yz| + |R_zz|) - 0.5
    // differ by at most |t_x R_xz| + |t_y R_yz| + |t_z| (1 - R_zz) + 0.5 (|R_zx| + |R_zy|)
    // <= 0.305 e + 0.205 e + e^2/2 + e ~ 1.5 mm for off-diagonal entries up to e = 1e-3.
    {
        int same = 0;
        for (int k = 0; k < 600; ++k) {
            const Pose3<S> pb = shaken(0.3, 0.2, 0.001);
            const M3<S> m = impulse::collide_boxes(cube, pa, cube, pb);
            if (m.count == 4 && features(m) == expected && m.n == V3<S>::UnitZ()) ++same;
        }
        CHECK(same == 600);
    }
}

TEST_CASE("boxes that overlap report a point even when the reference face's clipping keeps none", "[collide3d]")
{
    using S = double;
    // Two pairs from a random search over 2 million placements (the only two of 378 572
    // overlapping ones where clipping against the winning face left nothing): every one of the 15
    // axes overlaps, so the boxes intersect, with s(u) = |u.t| - sum hA_i |u_i| - sum hB_j |(R^T u)_j|
    // largest, -0.0083546862878 and -0.0014530032064, along an edge pair that is not clearly better
    // than the best face. The face's incident face reaches it only beyond its sides; the edge pair
    // must then give the point, at that separation.
    struct Pair {
        double ha[3], hb[3], qa[4], qb[4], p[3], s;
    };
    const Pair pairs[] = {
        {{0.54549626490022318, 0.59088977770276607, 0.26886863810734618},
         {0.61765019319428038, 0.37929478635332747, 0.47312778058225846},
         {-0.34951751866268521, -0.91020069203502207, -0.1003816107829726, 0.19823152267856434},
         {0.064759210443902565, 0.82886925064839456, -0.22514774169011575, -0.50802608634212088},
         {-1.4089738440941373, -0.021252736530352812, 0.2959698344321775},
         -0.0083546862878447481},
        {{0.16431805499843244, 0.8811185786704796, 0.20701334767589968},
         {0.55888973930444863, 0.17970665754333742, 0.43680938445995099},
         {-0.35195285688488936, -0.03924923990179828, -0.30236411183721773, -0.88496589062550102},
         {-0.39368233290471683, -0.78402866147361405, -0.20075461206875286, -0.43590235658885518},
         {1.1674516263274373, 0.45984485625757082, -0.71756958240974578},
         -0.0014530032063708731},
    };
    for (const Pair& c : pairs) {
        const auto a = box<S>(c.ha[0], c.ha[1], c.ha[2]), b = box<S>(c.hb[0], c.hb[1], c.hb[2]);
        Pose3<S> pa, pb = at<S>(c.p[0], c.p[1], c.p[2]);
        pa.q = Eigen::Quaterniond(c.qa[0], c.qa[1], c.qa[2], c.qa[3]);
        pb.q = Eigen::Quaterniond(c.qb[0], c.qb[1], c.qb[2], c.qb[3]);
        const M3<S> m = impulse::collide_boxes(a, pa, b, pb, 0.0);
        REQUIRE(m.count == 1);
        CHECK(well_formed(m, pa, pb));
        CHECK(m.points[0].separation == Approx(c.s).margin(1e-9));
        // an edge of A against an edge of B
        CHECK((m.points[0].feature & 0xf0u) == 0x10u);
        CHECK(((m.points[0].feature >> 16) & 0xf0u) == 0x10u);
        check_flipped_agrees(m, impulse::collide_boxes(b, pb, a, pa, 0.0));
    }
}

// ---------------------------------------------------------------------------------------------
// Box against sphere

TEMPLATE_TEST_CASE("box and sphere: over a face, an edge, a corner, and inside", "[collide3d]", test::F3, test::D3)
{
    using S = typename TestType::S;
    const auto a = box<S>(1, 1, 0.5);
    const Pose3<S> pa;
    const auto b = sphere<S>(0.5);
    // Over the top face: centre (0.2, 0.3, 0.9), s = 0.9 - 0.5 - 0.5 = -0.1, n = +z,
    // point c - n (r + s/2) = 0.9 - 0.45 = 0.45 high; feature (face 0x25, 0).
    {
        const Pose3<S> pb = at<S>(S(0.2), S(0.3), S(0.9));
        const M3<S> m = impulse::collide_box_sphere(a, pa, b, pb);
        REQUIRE(m.count == 1);
        CHECK(well_formed(m, pa, pb));
        CHECK((m.n - V3<S>::UnitZ()).norm() <= test::tol(S(1)));
        CHECK(m.points[0].separation == Approx(-0.1).margin(test::tol(S(4))));
        CHECK((world(m, 0, pa) - V3<S>(S(0.2), S(0.3), S(0.45))).norm() <= test::tol(S(4)));
        CHECK(m.points[0].feature == face_zp);
    }
    // Beyond the edge along y at (x+, z+): centre (1.3, 0, 0.8), nearest box point (1, 0, 0.5),
    // d = (0.3, 0, 0.3), |d| = 0.3 sqrt2, s = 0.3 sqrt2 - 0.5, n = (1, 0, 1)/sqrt2, point midway
    // q + n s/2; feature edge 0x10 + 4*1 + 2 + 1 = 0x17.
    {
        const Pose3<S> pb = at<S>(S(1.3), 0, S(0.8));
        const M3<S> m = impulse::collide_box_sphere(a, pa, b, pb);
        REQUIRE(m.count == 1);
        const double s = 0.3 * std::sqrt(2.0) - 0.5;
        const V3<S> n = V3<S>(1, 0, 1).normalized();
        CHECK((m.n - n).norm() <= test::tol(S(4)));
        CHECK(m.points[0].separation == Approx(s).margin(test::tol(S(4))));
        CHECK((world(m, 0, pa) - (V3<S>(1, 0, S(0.5)) + n * S(s / 2))).norm() <= test::tol(S(4)));
        CHECK(m.points[0].feature == 0x17u);
    }
    // Beyond the corner (+,+,+): centre (1.2, 1.2, 0.7), d = (0.2, 0.2, 0.2), s = 0.2 sqrt3 - 0.5,
    // feature vertex 7.
    {
        const M3<S> m = impulse::collide_box_sphere(a, pa, b, at<S>(S(1.2), S(1.2), S(0.7)));
        REQUIRE(m.count == 1);
        CHECK(m.points[0].separation == Approx(0.2 * std::sqrt(3.0) - 0.5).margin(test::tol(S(4))));
        CHECK((m.n - V3<S>(1, 1, 1).normalized()).norm() <= test::tol(S(4)));
        CHECK(m.points[0].feature == 7u);
    }
    // Centre inside at (0.1, 0.2, 0.3): room to the faces x 0.9, y 0.8, z 0.2: out through +z,
    // s = (0.3 - 0.5) - 0.5 = -0.7, point 0.3 - (0.5 - 0.35) = 0.15 high.
    {
        const M3<S> m = impulse::collide_box_sphere(a, pa, b, at<S>(S(0.1), S(0.2), S(0.3)));
        REQUIRE(m.count == 1);
        CHECK((m.n - V3<S>::UnitZ()).norm() <= test::tol(S(1)));
        CHECK(m.points[0].separation == Approx(-0.7).margin(test::tol(S(4))));
        CHECK((world(m, 0, pa) - V3<S>(S(0.1), S(0.2), S(0.15))).norm() <= test::tol(S(4)));
    }
    // A turned box: the box turned 90 degrees about x (body z -> world -y): a sphere at world
    // (0, -0.9, 0) sits over the body face +z: n = -y, s = 0.9 - 0.5 - 0.5 = -0.1.
    {
        Pose3<S> turned;
        turned.q = about<S>(M_PI / 2, 1, 0, 0);
        const M3<S> m = impulse::collide_box_sphere(a, turned, b, at<S>(0, S(-0.9), 0));
        REQUIRE(m.count == 1);
        CHECK((m.n + V3<S>::UnitY()).norm() <= test::tol(S(4)));
        CHECK(m.points[0].separation == Approx(-0.1).margin(test::tol(S(4))));
    }
    // 2.5 cm apart over the face: nothing.
    CHECK(impulse::collide_box_sphere(a, pa, b, at<S>(0, 0, S(1.025))).count == 0);
}

// ---------------------------------------------------------------------------------------------
// Plane against box and capsule

TEMPLATE_TEST_CASE("plane and box: a lying box gives its 4 bottom corners, a tilted one its deepest", "[collide3d]",
                   test::F3, test::D3)
{
    using S = typename TestType::S;
    const impulse::Plane<S, 3> floor{V3<S>::UnitZ(), S(0)};
    const Pose3<S> pf;
    const auto b = box<S>(0.5, 0.3, 0.2);
    // Lying at (1, 2, 0.19): bottom corners (1 +- 0.5, 2 +- 0.3, -0.01), s = -0.01, points at
    // z = -0.005; the top corners at 0.39 are out of reach. Features (0, vertex 0..3).
    {
        const Pose3<S> pb = at<S>(1, 2, S(0.19));
        const M3<S> m = impulse::collide_plane_box(floor, pf, b, pb);
        REQUIRE(m.count == 4);
        CHECK(well_formed(m, pf, pb));
        CHECK(m.n == V3<S>::UnitZ());
        for (std::uint32_t v = 0; v < 4; ++v) {
            const int i = find(m, impulse::make_feature(0, v));
            REQUIRE(i >= 0);
            CHECK(m.points[i].separation == Approx(-0.01).margin(test::tol(S(4))));
            const V3<S> x(S(1) + ((v & 1) ? S(0.5) : S(-0.5)), S(2) + ((v & 2) ? S(0.3) : S(-0.3)), S(-0.005));
            CHECK((world(m, i, pf) - x).norm() <= test::tol(S(4)));
            CHECK((m.points[i].rB - (x - pb.p)).norm() <= test::tol(S(4)));
        }
    }
    // Tilted by 0.1 rad about y (body x -> (c, 0, -s), z -> (s, 0, c), c = cos 0.1, s = sin 0.1): a
    // corner at body (x, y, z) is at height zc - x s + z c. With zc = 0.5 s + 0.2 c + 0.001 the
    // corners (x+, z-) (vertices 1 and 3) are at 0.001; (x-, z-) at 0.001 + s = 0.1008 and the top
    // ones higher still, beyond reach: 2 points, s = 0.001.
    {
        const double c = std::cos(0.1), s = std::sin(0.1);
        Pose3<S> pb = at<S>(0, 0, S(0.5 * s + 0.2 * c + 0.001));
        pb.q = about<S>(0.1, 0, 1, 0);
        const M3<S> m = impulse::collide_plane_box(floor, pf, b, pb);
        REQUIRE(m.count == 2);
        CHECK(features(m) == std::vector<std::uint32_t>{1u << 16, 3u << 16});
        for (int i = 0; i < 2; ++i) CHECK(m.points[i].separation == Approx(0.001).margin(test::tol(S(16))));
    }
    // Sunk whole (centre at -1): all 8 corners are in reach; the deepest 4 are the bottom ones.
    {
        const M3<S> m = impulse::collide_plane_box(floor, pf, b, at<S>(0, 0, -1));
        REQUIRE(m.count == 4);
        for (int i = 0; i < 4; ++i) CHECK(m.points[i].separation == Approx(-1.2).margin(test::tol(S(4))));
        CHECK(features(m) == std::vector<std::uint32_t>{0u, 1u << 16, 2u << 16, 3u << 16});
    }
}

TEMPLATE_TEST_CASE("plane and capsule: both ends of a lying capsule, the lower end of a standing one", "[collide3d]",
                   test::F3, test::D3)
{
    using S = typename TestType::S;
    const impulse::Plane<S, 3> floor{V3<S>::UnitZ(), S(0)};
    const Pose3<S> pf;
    const auto lying = capsule<S>(V3<S>(1, 0, 0), 0.25);
    // Lying at height 0.24: both ends (+-1, 0, 0.24) at s = 0.24 - 0.25 = -0.01, points at
    // z = -0.005. Features (0, cap 1) and (0, cap 2).
    {
        const Pose3<S> pb = at<S>(S(0.5), 0, S(0.24));
        const M3<S> m = impulse::collide_plane_capsule(floor, pf, lying, pb);
        REQUIRE(m.count == 2);
        CHECK(well_formed(m, pf, pb));
        const int i1 = find(m, impulse::make_feature(0, end1)), i2 = find(m, impulse::make_feature(0, end2));
        REQUIRE(i1 >= 0);
        REQUIRE(i2 >= 0);
        CHECK((world(m, i1, pf) - V3<S>(S(-0.5), 0, S(-0.005))).norm() <= test::tol(S(4)));
        CHECK((world(m, i2, pf) - V3<S>(S(1.5), 0, S(-0.005))).norm() <= test::tol(S(4)));
        CHECK(m.points[i1].separation == Approx(-0.01).margin(test::tol(S(4))));
    }
    // The same capsule standing (turned 90 degrees about y: body x -> -z) with its centre at 1.2:
    // the end at body +x is lowest at z = 0.2, s = -0.05; the other end 2 m higher is out of reach.
    {
        Pose3<S> pb = at<S>(0, 0, S(1.2));
        pb.q = about<S>(M_PI / 2, 0, 1, 0);
        const M3<S> m = impulse::collide_plane_capsule(floor, pf, lying, pb);
        REQUIRE(m.count == 1);
        CHECK(m.points[0].feature == impulse::make_feature(0, end2));
        CHECK(m.points[0].separation == Approx(-0.05).margin(test::tol(S(4))));
        CHECK((world(m, 0, pf) - V3<S>(0, 0, S(-0.025))).norm() <= test::tol(S(4)));
    }
}

// ---------------------------------------------------------------------------------------------
// Capsules and spheres

TEMPLATE_TEST_CASE("a capsule lying on a capsule, side by side, gets two points at the ends of the overlap",
                   "[collide3d]", test::F3, test::D3)
{
    using S = typename TestType::S;
    // A along x from -1 to 1, radius 0.5, at the origin; B the same at (0.3, 0, 0.98): the axes are
    // 0.98 apart, s = 0.98 - 1 = -0.02. B's segment spans x in [-0.7, 1.3]; the overlap with A's
    // [-1, 1] is [-0.7, 1]: points at x = -0.7 and 1, midway at z = 0.5 - 0.01 = 0.49, n = +z.
    // Features: the overlap's lower end near both first caps (0x41, 0x41), the upper (0x42, 0x42).
    const auto c = capsule<S>(V3<S>(1, 0, 0), 0.5);
    const Pose3<S> pa;
    const Pose3<S> pb = at<S>(S(0.3), 0, S(0.98));
    const M3<S> m = impulse::collide_capsules(c, pa, c, pb);
    REQUIRE(m.count == 2);
    CHECK(well_formed(m, pa, pb));
    CHECK((m.n - V3<S>::UnitZ()).norm() <= test::tol(S(1)));
    const int lo = find(m, impulse::make_feature(end1, end1)), hi = find(m, impulse::make_feature(end2, end2));
    REQUIRE(lo >= 0);
    REQUIRE(hi >= 0);
    CHECK((world(m, lo, pa) - V3<S>(S(-0.7), 0, S(0.49))).norm() <= test::tol(S(4)));
    CHECK((world(m, hi, pa) - V3<S>(1, 0, S(0.49))).norm() <= test::tol(S(4)));
    CHECK(m.points[lo].separation == Approx(-0.02).margin(test::tol(S(4))));
    CHECK(m.points[hi].separation == Approx(-0.02).margin(test::tol(S(4))));
    // B turned end for end (its center1 now at +x): the lower end pairs A's cap 1 with B's cap 2.
    Pose3<S> rev = pb;
    rev.q = about<S>(M_PI, 0, 0, 1);
    const M3<S> r = impulse::collide_capsules(c, pa, c, rev);
    REQUIRE(r.count == 2);
    CHECK(find(r, impulse::make_feature(end1, end2)) >= 0);
    CHECK(find(r, impulse::make_feature(end2, end1)) >= 0);
    // Read the other way round: flipped agrees.
    check_flipped_agrees(m, impulse::collide_capsules(c, pb, c, pa));
}

TEST_CASE("a float capsule resting on a capsule keeps both points over 600 small jitters", "[collide3d]")
{
    using S = float;
    // The lying pair above, shaken by tilts up to 0.005 rad (sine below the 0.02 of "side by
    // side") and shifts up to 2 mm: the ends of the overlap move by at most 1 m * 0.005 + 0.002
    // = 7 mm up or down, within reach, so both points and their ids stay: no rocking on one point.
    const auto c = capsule<S>(V3<S>(1, 0, 0), 0.5);
    const Pose3<S> pa;
    std::mt19937 gen(11);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    const std::vector<std::uint32_t> expected{impulse::make_feature(end1, end1), impulse::make_feature(end2, end2)};
    int same = 0;
    for (int k = 0; k < 600; ++k) {
        float r[7];  // drawn in order: a call's arguments are evaluated in an unspecified order
        for (float& d : r) d = u(gen);
        Pose3<S> pb = at<S>(0.3f + 0.002f * r[0], 0.002f * r[1], 0.99f + 0.002f * r[2]);
        const V3<S> axis(r[3], r[4], r[5]);
        pb.q = Eigen::Quaternionf(Eigen::AngleAxisf(0.005f * r[6], axis.normalized()));
        const M3<S> m = impulse::collide_capsules(c, pa, c, pb);
        if (m.count == 2 && features(m) == expected && well_formed(m, pa, pb)) ++same;
    }
    CHECK(same == 600);
}

TEMPLATE_TEST_CASE("crossed and standing capsules touch at one point", "[collide3d]", test::F3, test::D3)
{
    using S = typename TestType::S;
    const auto along_x = capsule<S>(V3<S>(1, 0, 0), 0.5);
    const Pose3<S> pa;
    // Crossed: B along y (from -1 to 1) at (0.2, 0.1, 0.9): the closest points (0.2, 0, 0) on A and
    // (0.2, 0, 0.9) on B, inside both segments; d = 0.9, s = -0.1, n = x cross y = +z, point
    // (0.2, 0, 0.45); features (side, side).
    {
        const auto along_y = capsule<S>(V3<S>(0, 1, 0), 0.5);
        const Pose3<S> pb = at<S>(S(0.2), S(0.1), S(0.9));
        const M3<S> m = impulse::collide_capsules(along_x, pa, along_y, pb);
        REQUIRE(m.count == 1);
        CHECK(well_formed(m, pa, pb));
        CHECK((m.n - V3<S>::UnitZ()).norm() <= test::tol(S(1)));
        CHECK(m.points[0].separation == Approx(-0.1).margin(test::tol(S(4))));
        CHECK((world(m, 0, pa) - V3<S>(S(0.2), 0, S(0.45))).norm() <= test::tol(S(4)));
        CHECK(m.points[0].feature == impulse::make_feature(side, side));
        check_flipped_agrees(m, impulse::collide_capsules(along_y, pb, along_x, pa));
    }
    // Standing: B along z (from -1 to 1) at (0.4, 0, 1.97): its lower cap centre (0.4, 0, 0.97) over
    // A's axis: s = 0.97 - 1 = -0.03, n = +z, point (0.4, 0, 0.485); features (side, cap 1).
    {
        const auto along_z = capsule<S>(V3<S>(0, 0, 1), 0.5);
        const Pose3<S> pb = at<S>(S(0.4), 0, S(1.97));
        const M3<S> m = impulse::collide_capsules(along_x, pa, along_z, pb);
        REQUIRE(m.count == 1);
        CHECK((m.n - V3<S>::UnitZ()).norm() <= test::tol(S(1)));
        CHECK(m.points[0].separation == Approx(-0.03).margin(test::tol(S(4))));
        CHECK((world(m, 0, pa) - V3<S>(S(0.4), 0, S(0.485))).norm() <= test::tol(S(4)));
        CHECK(m.points[0].feature == impulse::make_feature(side, end1));
    }
    // Parallel but end to end (B along x at (2.9, 0, 0)): the caps around x = 1 and x = 1.9 are 0.9
    // apart, s = -0.1, n = +x; no overlap along the axis, so one point (cap 2, cap 1) at x = 1.45.
    {
        const Pose3<S> pb = at<S>(S(2.9), 0, 0);
        const M3<S> m = impulse::collide_capsules(along_x, pa, along_x, pb);
        REQUIRE(m.count == 1);
        CHECK((m.n - V3<S>::UnitX()).norm() <= test::tol(S(1)));
        CHECK(m.points[0].separation == Approx(-0.1).margin(test::tol(S(4))));
        CHECK((world(m, 0, pa) - V3<S>(S(1.45), 0, 0)).norm() <= test::tol(S(4)));
        CHECK(m.points[0].feature == impulse::make_feature(end2, end1));
    }
    // 2.5 cm apart, crossed: nothing.
    CHECK(impulse::collide_capsules(along_x, pa, capsule<S>(V3<S>(0, 1, 0), 0.5), at<S>(0, 0, S(1.025))).count == 0);
}

TEMPLATE_TEST_CASE("capsule and sphere: beside the side and beyond a cap", "[collide3d]", test::F3, test::D3)
{
    using S = typename TestType::S;
    const auto a = capsule<S>(V3<S>(1, 0, 0), 0.5);
    const Pose3<S> pa;
    const auto b = sphere<S>(0.3);
    // Over the side at (0.5, 0, 0.75): d = 0.75, s = 0.75 - 0.8 = -0.05, n = +z, point at
    // 0.5 - 0.025 = 0.475 high; features (side, 0).
    {
        const Pose3<S> pb = at<S>(S(0.5), 0, S(0.75));
        const M3<S> m = impulse::collide_capsule_sphere(a, pa, b, pb);
        REQUIRE(m.count == 1);
        CHECK(well_formed(m, pa, pb));
        CHECK((m.n - V3<S>::UnitZ()).norm() <= test::tol(S(1)));
        CHECK(m.points[0].separation == Approx(-0.05).margin(test::tol(S(4))));
        CHECK((world(m, 0, pa) - V3<S>(S(0.5), 0, S(0.475))).norm() <= test::tol(S(4)));
        CHECK(m.points[0].feature == side);
    }
    // Beyond cap 2 at (1.5, 0, 0.5): nearest segment point (1, 0, 0), d = (0.5, 0, 0.5),
    // s = 0.5 sqrt2 - 0.8, n = (1, 0, 1)/sqrt2; feature (cap 2, 0).
    {
        const M3<S> m = impulse::collide_capsule_sphere(a, pa, b, at<S>(S(1.5), 0, S(0.5)));
        REQUIRE(m.count == 1);
        CHECK((m.n - V3<S>(1, 0, 1).normalized()).norm() <= test::tol(S(4)));
        CHECK(m.points[0].separation == Approx(0.5 * std::sqrt(2.0) - 0.8).margin(test::tol(S(4))));
        CHECK(m.points[0].feature == end2);
    }
    // A standing capsule (segment along z) with the sphere on top: centre (0, 0, 1.75) over cap 2
    // at (0, 0, 1): s = 0.75 - 0.8 = -0.05, n = +z.
    {
        const auto standing = capsule<S>(V3<S>(0, 0, 1), 0.5);
        const M3<S> m = impulse::collide_capsule_sphere(standing, pa, b, at<S>(0, 0, S(1.75)));
        REQUIRE(m.count == 1);
        CHECK((m.n - V3<S>::UnitZ()).norm() <= test::tol(S(1)));
        CHECK(m.points[0].separation == Approx(-0.05).margin(test::tol(S(4))));
        CHECK(m.points[0].feature == end2);
    }
}

// ---------------------------------------------------------------------------------------------
// Box against capsule

TEMPLATE_TEST_CASE("a capsule lying on a box face gets two points, standing one", "[collide3d]", test::F3, test::D3)
{
    using S = typename TestType::S;
    const auto slab = box<S>(2, 2, 0.5);
    const Pose3<S> pa;
    const auto c = capsule<S>(V3<S>(S(0.8), 0, 0), 0.25);
    // Lying at (0.1, 0.2, 0.74): segment ends (0.1 -+ 0.8, 0.2, 0.74) over the top face, 0.24 above
    // it: s = 0.24 - 0.25 = -0.01 at both ends, points midway at z = 0.495, n = +z. Features
    // (face 0x25, cap 1) and (face 0x25, cap 2).
    {
        const Pose3<S> pb = at<S>(S(0.1), S(0.2), S(0.74));
        const M3<S> m = impulse::collide_box_capsule(slab, pa, c, pb);
        REQUIRE(m.count == 2);
        CHECK(well_formed(m, pa, pb));
        CHECK((m.n - V3<S>::UnitZ()).norm() <= test::tol(S(1)));
        const int i1 = find(m, impulse::make_feature(face_zp, end1)), i2 = find(m, impulse::make_feature(face_zp, end2));
        REQUIRE(i1 >= 0);
        REQUIRE(i2 >= 0);
        CHECK((world(m, i1, pa) - V3<S>(S(-0.7), S(0.2), S(0.495))).norm() <= test::tol(S(4)));
        CHECK((world(m, i2, pa) - V3<S>(S(0.9), S(0.2), S(0.495))).norm() <= test::tol(S(4)));
        CHECK(m.points[i1].separation == Approx(-0.01).margin(test::tol(S(4))));
        CHECK(m.points[i2].separation == Approx(-0.01).margin(test::tol(S(4))));
    }
    // Sunk to 0.45 (its axis inside the slab: separating axes): the top face still, s = 0.45 - 0.5
    // - 0.25 = -0.3 at both ends, points at z = 0.45 - (0.25 - 0.15) = 0.35.
    {
        const Pose3<S> pb = at<S>(S(0.1), S(0.2), S(0.45));
        const M3<S> m = impulse::collide_box_capsule(slab, pa, c, pb);
        REQUIRE(m.count == 2);
        CHECK((m.n - V3<S>::UnitZ()).norm() <= test::tol(S(1)));
        for (int i = 0; i < 2; ++i) {
            CHECK(m.points[i].separation == Approx(-0.3).margin(test::tol(S(4))));
            CHECK(world(m, i, pa).z() == Approx(0.35).margin(test::tol(S(4))));
        }
        CHECK(features(m) ==
              std::vector<std::uint32_t>{impulse::make_feature(face_zp, end1), impulse::make_feature(face_zp, end2)});
    }
    // Hanging over the +x side (centre x = 2.3, segment x in [1.5, 3.1]): clipped at x = 2 by the
    // side plane of the top face's edge along y at (x+, z+) (0x17): points at x = 1.5 (cap 1) and
    // x = 2 (that edge, capsule side).
    {
        const Pose3<S> pb = at<S>(S(2.3), S(0.2), S(0.74));
        const M3<S> m = impulse::collide_box_capsule(slab, pa, c, pb);
        REQUIRE(m.count == 2);
        const int i1 = find(m, impulse::make_feature(face_zp, end1)), ie = find(m, impulse::make_feature(0x17, side));
        REQUIRE(i1 >= 0);
        REQUIRE(ie >= 0);
        CHECK((world(m, i1, pa) - V3<S>(S(1.5), S(0.2), S(0.495))).norm() <= test::tol(S(4)));
        CHECK((world(m, ie, pa) - V3<S>(2, S(0.2), S(0.495))).norm() <= test::tol(S(4)));
    }
    // Standing (segment along z) at (0.3, 0, 1.54): the lower cap centre 0.24 above the face,
    // s = -0.01, point (0.3, 0, 0.495); the upper one 1.84 above, out of reach.
    {
        const auto standing = capsule<S>(V3<S>(0, 0, S(0.8)), 0.25);
        const M3<S> m = impulse::collide_box_capsule(slab, pa, standing, at<S>(S(0.3), 0, S(1.54)));
        REQUIRE(m.count == 1);
        CHECK(m.points[0].feature == impulse::make_feature(face_zp, end1));
        CHECK(m.points[0].separation == Approx(-0.01).margin(test::tol(S(4))));
        CHECK((world(m, 0, pa) - V3<S>(S(0.3), 0, S(0.495))).norm() <= test::tol(S(4)));
    }
}

TEMPLATE_TEST_CASE("a capsule across a box edge touches the edge at one point", "[collide3d]", test::F3, test::D3)
{
    using S = typename TestType::S;
    // A cube of half 1; a capsule along y (from -0.5 to 0.5, radius 0.3) at (1.2, 0, 1.2), beside the
    // edge along y at x = z = 1 (0x10 + 4 + 2 + 1 = 0x17): d = 0.2 sqrt2, s = 0.2 sqrt2 - 0.3,
    // n = (1, 0, 1)/sqrt2, point q + n s/2 with q = (1, 0, 1) (the middle of the segment's equally
    // near stretch); features (edge 0x17, capsule side).
    const auto cube = box<S>(1, 1, 1);
    const Pose3<S> pa;
    const auto c = capsule<S>(V3<S>(0, S(0.5), 0), 0.3);
    const Pose3<S> pb = at<S>(S(1.2), 0, S(1.2));
    const M3<S> m = impulse::collide_box_capsule(cube, pa, c, pb);
    REQUIRE(m.count == 1);
    CHECK(well_formed(m, pa, pb));
    const double s = 0.2 * std::sqrt(2.0) - 0.3;
    const V3<S> n = V3<S>(1, 0, 1).normalized();
    CHECK((m.n - n).norm() <= test::tol(S(4)));
    CHECK(m.points[0].separation == Approx(s).margin(test::tol(S(4))));
    CHECK((world(m, 0, pa) - (V3<S>(1, 0, 1) + n * S(s / 2))).norm() <= test::tol(S(4)));
    CHECK(m.points[0].feature == impulse::make_feature(0x17, side));
}

// ---------------------------------------------------------------------------------------------
// Degenerate input: finite results, never NaN

TEMPLATE_TEST_CASE("coincident centres give finite manifolds with a chosen normal", "[collide3d]", test::F3, test::D3)
{
    using S = typename TestType::S;
    const Pose3<S> p = at<S>(1, 2, 3);
    // Two equal cubes (half 0.5) at one place: every face axis overlaps by 1; A's face +x (the
    // first, t = 0 counted positive) is the reference: 4 points, s = -1, n = +x.
    const auto cube = box<S>(0.5, 0.5, 0.5);
    const M3<S> bb = impulse::collide_boxes(cube, p, cube, p);
    REQUIRE(bb.count == 4);
    CHECK(well_formed(bb, p, p));
    CHECK(bb.n == V3<S>::UnitX());
    for (int i = 0; i < 4; ++i) CHECK(bb.points[i].separation == Approx(-1.0).margin(test::tol(S(4))));
    // A sphere (r 0.25) at the cube's centre: the face +x, s = (0 - 0.5) - 0.25 = -0.75.
    const M3<S> bs = impulse::collide_box_sphere(cube, p, sphere<S>(0.25), p);
    REQUIRE(bs.count == 1);
    CHECK(bs.n == V3<S>::UnitX());
    CHECK(bs.points[0].separation == Approx(-0.75).margin(test::tol(S(4))));
    // Two equal capsules along x at one place: side by side with no direction between them; n is
    // a perpendicular of the axis (x cross y = +z: y is the first least-aligned axis), 2 points at
    // s = -1 (the radii 0.5 + 0.5).
    const auto cx = capsule<S>(V3<S>(1, 0, 0), 0.5);
    const M3<S> cc = impulse::collide_capsules(cx, p, cx, p);
    REQUIRE(cc.count == 2);
    CHECK(well_formed(cc, p, p));
    CHECK(cc.n == V3<S>::UnitZ());
    CHECK(cc.points[0].separation == Approx(-1.0).margin(test::tol(S(4))));
    // Crossed capsules whose axes meet: n along x cross y = +z.
    const auto cy = capsule<S>(V3<S>(0, 1, 0), 0.5);
    const M3<S> cross = impulse::collide_capsules(cx, p, cy, p);
    REQUIRE(cross.count == 1);
    CHECK(cross.n == V3<S>::UnitZ());
    // A sphere centred on a capsule's axis: a perpendicular of the axis; s = -(0.5 + 0.25).
    const M3<S> cs = impulse::collide_capsule_sphere(cx, p, sphere<S>(0.25), p);
    REQUIRE(cs.count == 1);
    CHECK(well_formed(cs, p, p));
    CHECK(cs.n.dot(V3<S>::UnitX()) == S(0));
    CHECK(cs.points[0].separation == Approx(-0.75).margin(test::tol(S(4))));
    // A capsule through the middle of a cube: finite, the faces across the capsule overlap least.
    const M3<S> bc = impulse::collide_box_capsule(cube, p, cx, p);
    REQUIRE(bc.count >= 1);
    CHECK(well_formed(bc, p, p));
}

TEMPLATE_TEST_CASE("nearly parallel box edges are left to the face axes, finite and stable", "[collide3d]", test::F3,
                   test::D3)
{
    using S = typename TestType::S;
    // The resting cube of the first test turned about z by 1e-7 .. 1e-3 rad: its edges are within
    // that angle of the slab's. The face axis wins every time: 4 points at s = -0.01, the same ids.
    const auto slab = box<S>(2, 2, 0.5), cube = box<S>(0.5, 0.5, 0.5);
    const Pose3<S> ps;
    for (const double angle : {1e-7, 1e-5, 1e-4, 1e-3, 2e-3}) {
        Pose3<S> pc = at<S>(S(0.3), S(-0.2), S(0.99));
        pc.q = about<S>(angle, 0, 0, 1);
        const M3<S> m = impulse::collide_boxes(slab, ps, cube, pc);
        REQUIRE(m.count == 4);
        CHECK(well_formed(m, ps, pc));
        for (int i = 0; i < 4; ++i) CHECK(m.points[i].separation == Approx(-0.01).margin(test::tol(S(16))));
        CHECK(features(m) == std::vector<std::uint32_t>{face_zp, face_zp | (1u << 16), face_zp | (2u << 16),
                                                        face_zp | (3u << 16)});
    }
    // Two cubes stacked exactly (equal faces, corners on each other's side planes): still 4 points,
    // at the 4 shared corners, ids unique.
    const M3<S> m = impulse::collide_boxes(cube, ps, cube, at<S>(0, 0, S(0.99)));
    REQUIRE(m.count == 4);
    CHECK(well_formed(m, ps, at<S>(0, 0, S(0.99))));
}

TEMPLATE_TEST_CASE("a capsule of zero length collides as a sphere", "[collide3d]", test::F3, test::D3)
{
    using S = typename TestType::S;
    // The capsule with center1 = center2 = (0.1, 0, 0) and radius 0.3 is the sphere of radius 0.3
    // around (0.1, 0, 0): each pair must give the sphere's point, normal and separation.
    impulse::Capsule<S> dot;
    dot.center1 = dot.center2 = V3<S>(S(0.1), 0, 0);
    dot.radius = S(0.3);
    impulse::Sphere<S, 3> ball;
    ball.center = dot.center1;
    ball.radius = S(0.3);
    const Pose3<S> pa;
    Pose3<S> pb = at<S>(S(0.4), S(0.3), S(0.7));
    pb.q = about<S>(0.3, 1, 1, 0);
    const auto same = [](const M3<S>& x, const M3<S>& y) {
        REQUIRE(x.count == 1);
        REQUIRE(y.count == 1);
        CHECK((x.n - y.n).norm() <= test::tol(S(16)));
        CHECK((x.points[0].rA - y.points[0].rA).norm() <= test::tol(S(16)));
        CHECK(x.points[0].separation == Approx(y.points[0].separation).margin(test::tol(S(16))));
    };
    // against a box (half (1, 1, 0.5)): the capsule's closest-point path and the sphere's clamp
    same(impulse::collide_box_capsule(box<S>(1, 1, 0.5), pa, dot, pb),
         impulse::collide_box_sphere(box<S>(1, 1, 0.5), pa, ball, pb));
    // against a capsule (A along x, radius 0.5) and as the pair of two such dots
    const auto cx = capsule<S>(V3<S>(1, 0, 0), 0.5);
    same(impulse::collide_capsules(cx, pa, dot, pb), impulse::collide_capsule_sphere(cx, pa, ball, pb));
    // two dots: centres (0.1, 0, 0) and (0.4, 0.2, 0.1), 0.374 apart, within 0.6
    const Pose3<S> near = at<S>(S(0.3), S(0.2), S(0.1));
    same(impulse::collide_capsules(dot, pa, dot, near), impulse::collide_spheres(ball, pa, ball, near));
    // against a plane: one point, not two
    const impulse::Plane<S, 3> floor{V3<S>::UnitZ(), S(0)};
    same(impulse::collide_plane_capsule(floor, pa, dot, at<S>(0, 0, S(0.25))),
         impulse::collide_plane_sphere(floor, pa, ball, at<S>(0, 0, S(0.25))));
    // the dot sunk into a box (its centre inside): separating axes, finite, one point
    const M3<S> in = impulse::collide_box_capsule(box<S>(1, 1, 0.5), pa, dot, at<S>(0, 0, S(0.2)));
    REQUIRE(in.count == 1);
    // its centre at (0.1, 0, 0.2): nearest face +z, s = (0.2 - 0.5) - 0.3 = -0.6
    CHECK((in.n - V3<S>::UnitZ()).norm() <= test::tol(S(1)));
    CHECK(in.points[0].separation == Approx(-0.6).margin(test::tol(S(4))));
}

TEMPLATE_TEST_CASE("a flat box (zero extents) collides without NaN or repeated points", "[collide3d]", test::F3,
                   test::D3)
{
    using S = typename TestType::S;
    const Pose3<S> pa;
    // A card of half (0.5, 0.3, 0) lying 0.005 into the slab's top: its 4 corners (z = 0.495),
    // s = -0.005; as its z+ and z- faces coincide, still 4 points, not 8.
    const auto slab = box<S>(2, 2, 0.5), card = box<S>(0.5, 0.3, 0);
    const Pose3<S> pc = at<S>(0, 0, S(0.495));
    const M3<S> m = impulse::collide_boxes(slab, pa, card, pc);
    REQUIRE(m.count == 4);
    CHECK(well_formed(m, pa, pc));
    for (int i = 0; i < 4; ++i) CHECK(m.points[i].separation == Approx(-0.005).margin(test::tol(S(4))));
    // The card standing on its long edge (turned 90 degrees about x: body y -> world z), its centre
    // at 0.795: its bottom edge (x in [-0.5, 0.5], z = 0.495) is the incident face, of zero width:
    // 2 distinct points at x = +-0.5, s = 0.795 - 0.3 - 0.5 = -0.005.
    Pose3<S> up = at<S>(0, 0, S(0.795));
    up.q = about<S>(M_PI / 2, 1, 0, 0);
    const M3<S> e = impulse::collide_boxes(slab, pa, card, up);
    REQUIRE(e.count == 2);
    CHECK(well_formed(e, pa, up));
    for (int i = 0; i < 2; ++i) CHECK(e.points[i].separation == Approx(-0.005).margin(test::tol(S(16))));
    // Against a plane: 4 corners, not 8.
    const impulse::Plane<S, 3> floor{V3<S>::UnitZ(), S(0)};
    const M3<S> p = impulse::collide_plane_box(floor, pa, card, at<S>(0, 0, S(-0.001)));
    REQUIRE(p.count == 4);
    CHECK(features(p) == std::vector<std::uint32_t>{0u, 1u << 16, 2u << 16, 3u << 16});
    // A box of no size at all is a point: against the cube of half 0.5, 0.1 inside its top face.
    const auto point = box<S>(0, 0, 0);
    const M3<S> q = impulse::collide_boxes(box<S>(0.5, 0.5, 0.5), pa, point, at<S>(S(0.2), 0, S(0.4)));
    REQUIRE(q.count == 1);
    CHECK(well_formed(q, pa, at<S>(S(0.2), 0, S(0.4))));
    CHECK(q.points[0].separation == Approx(-0.1).margin(test::tol(S(4))));
    CHECK((q.n - V3<S>::UnitZ()).norm() <= test::tol(S(1)));
    // A flat box against a sphere and a capsule: finite.
    CHECK(well_formed(impulse::collide_box_sphere(card, pa, sphere<S>(0.2), at<S>(0, 0, S(0.1))), pa,
                      at<S>(0, 0, S(0.1))));
    CHECK(well_formed(impulse::collide_box_capsule(card, pa, capsule<S>(V3<S>(1, 0, 0), 0.2), at<S>(0, 0, 0)), pa,
                      at<S>(0, 0, 0)));
}

TEMPLATE_TEST_CASE("random placements never give NaN, and rB names the same point as rA", "[collide3d]", test::F3,
                   test::D3)
{
    using S = typename TestType::S;
    // Shapes of random sizes (some flat or of zero length) placed at random within reach of each
    // other: every manifold is well formed (finite, unit normal, unique ids, consistent anchors)
    // and every reported point is within the speculative distance.
    test::Random<S, 3> rnd(5);
    const auto random_pose = [&rnd]() {
        Pose3<S> p;
        p.p = rnd.vec(S(-1), S(1));
        p.q = Eigen::Quaternion<S>(Eigen::AngleAxis<S>(rnd.uniform(S(-3), S(3)), rnd.unit()));
        return p;
    };
    const auto random_box = [&rnd]() {
        impulse::Box<S> b;
        b.half_extents = rnd.vec(S(0), S(1));
        if (rnd.chance(0.2)) b.half_extents[int(rnd.uniform(S(0), S(2.99)))] = S(0);
        return b;
    };
    const auto random_capsule = [&rnd]() {
        impulse::Capsule<S> c;
        c.center1 = rnd.vec(S(-1), S(1));
        c.center2 = rnd.chance(0.2) ? c.center1 : V3<S>(-c.center1);
        c.radius = rnd.uniform(S(0), S(0.5));
        return c;
    };
    const S spec = impulse::speculative_distance<S>;
    const auto check = [&](const M3<S>& m, const Pose3<S>& pa, const Pose3<S>& pb) {
        CHECK(well_formed(m, pa, pb));
        for (int i = 0; i < m.count; ++i) CHECK(m.points[i].separation <= spec);
    };
    for (int k = 0; k < 2000; ++k) {
        const Pose3<S> pa = random_pose(), pb = random_pose();
        const auto ba = random_box(), bb = random_box();
        const auto ca = random_capsule(), cb = random_capsule();
        const auto sb = sphere<S>(double(rnd.uniform(S(0), S(0.5))));
        const impulse::Plane<S, 3> plane{rnd.unit(), rnd.uniform(S(-0.5), S(0.5))};
        check(impulse::collide_boxes(ba, pa, bb, pb), pa, pb);
        check(impulse::collide_box_sphere(ba, pa, sb, pb), pa, pb);
        check(impulse::collide_box_capsule(ba, pa, cb, pb), pa, pb);
        check(impulse::collide_capsules(ca, pa, cb, pb), pa, pb);
        check(impulse::collide_capsule_sphere(ca, pa, sb, pb), pa, pb);
        check(impulse::collide_plane_box(plane, pa, bb, pb), pa, pb);
        check(impulse::collide_plane_capsule(plane, pa, cb, pb), pa, pb);
    }
}
