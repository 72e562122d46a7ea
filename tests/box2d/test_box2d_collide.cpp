// SPDX-License-Identifier: MIT
// collide_polygons against Box2D 2.4's b2CollidePolygons on random overlapping boxes.
//
// Box2D 2.4 gives every polygon a skin of b2_polygonRadius = 0.01 m: its surface is 1 cm outside
// the vertices, so b2WorldManifold's separations are the cores' separations less 0.02, and its
// points lie midway between the skins, which for two equal skins is midway between the cores,
// as impulse's points are for sharp boxes. Two differences remain, both from Box2D's own rules:
//   - the reference face: Box2D keeps A's unless B's separates more by 0.1 * b2_linearSlop
//     = 0.0005 m; impulse takes the longer face when the two are within 1e-3 of the smaller box's
//     reach. Where faces are that close, either is a valid reference: the normal is checked to be
//     one of the faces within those tolerances of the best, and the points are compared only
//     where both chose the same face.
//   - the side planes: Box2D clips the incident edge 0.02 (the two skins) beyond each end of the
//     reference edge, impulse at the ends. A point at a clipped end therefore moves along the
//     incident edge: at most 0.02 along the reference face, and its separation changes by twice
//     the move of the midway point along the reference face's normal. Box2D's wider clip can lift such a point above its
//     0.02 threshold, so impulse may report a speculative point (s > 0) Box2D does not.
// Measured on the 400 pairs below (seed 2024, float and double alike): 396 pairs have the same
// reference face, and there the deepest separations agree to 9e-7; of Box2D's 716 points 560 are
// impulse's to 1e-5 and 156 are clipped ends moved by up to 0.0200 along the face, as the skins
// explain; impulse has 4 speculative points Box2D lacks. In the other 4 pairs two faces were
// within the tolerances and the libraries chose different ones.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include <box2d/box2d.h>

#include "catch.hpp"
#include "common.hpp"

namespace {

/// A box of both libraries: half extents and pose.
struct BoxPair {
    float hx[2], hy[2];
    b2Transform xf[2];
};

/// The faces of box i (world axes, normal pointing from box 0 to box 1: box 1's normals negated)
/// and their separations s = min over the other box's corners of n.(w - v).
struct Face {
    double s;
    b2Vec2 n;
};

int faces(const BoxPair& p, Face out[8])
{
    b2PolygonShape shape[2];
    for (int i = 0; i < 2; ++i) shape[i].SetAsBox(p.hx[i], p.hy[i]);
    int k = 0;
    for (int i = 0; i < 2; ++i) {
        const int o = 1 - i;
        for (int e = 0; e < 4; ++e) {
            const b2Vec2 n = b2Mul(p.xf[i].q, shape[i].m_normals[e]);
            const b2Vec2 v = b2Mul(p.xf[i], shape[i].m_vertices[e]);
            double s = 1e30;
            for (int j = 0; j < 4; ++j) s = std::min(s, double(b2Dot(n, b2Mul(p.xf[o], shape[o].m_vertices[j]) - v)));
            out[k++] = {s, i == 0 ? n : -n};
        }
    }
    return k;
}

}  // namespace

TEMPLATE_TEST_CASE("box manifolds agree with Box2D 2.4's b2CollidePolygons on 400 random overlapping pairs",
                   "[collide2d][box2d]", test::F2, test::D2)
{
    using S = typename TestType::S;
    using V = impulse::Vec<S, 2>;
    const double skin = 2.0 * double(b2_polygonRadius);  // both boxes' skins: 0.02
    std::mt19937 gen(2024);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    int pairs = 0, same_face = 0, exact = 0, shifted = 0, extra = 0;
    double deepest_gap = 0, shift_max = 0;
    while (pairs < 400) {
        // Half extents 0.1 .. 1, any angles, B's centre within 0.9 of the two reaches from A's.
        BoxPair p;
        for (int i = 0; i < 2; ++i) {
            p.hx[i] = 0.1f + 0.9f * u(gen);
            p.hy[i] = 0.1f + 0.9f * u(gen);
        }
        const float angle_a = 6.2831853f * u(gen) - 3.1415927f, angle_b = 6.2831853f * u(gen) - 3.1415927f;
        const float cx = 10.0f * u(gen) - 5.0f, cy = 10.0f * u(gen) - 5.0f;  // in this order on every compiler
        const b2Vec2 ca(cx, cy);
        const float dir = 6.2831853f * u(gen);
        const float reach = std::sqrt(p.hx[0] * p.hx[0] + p.hy[0] * p.hy[0]) + std::sqrt(p.hx[1] * p.hx[1] + p.hy[1] * p.hy[1]);
        const float dist = 0.9f * reach * u(gen);
        p.xf[0].Set(ca, angle_a);
        p.xf[1].Set(ca + dist * b2Vec2(std::cos(dir), std::sin(dir)), angle_b);

        b2PolygonShape A, B;
        A.SetAsBox(p.hx[0], p.hy[0]);
        B.SetAsBox(p.hx[1], p.hy[1]);
        b2Manifold bm;
        b2CollidePolygons(&bm, &A, p.xf[0], &B, p.xf[1]);
        if (bm.pointCount == 0) continue;
        b2WorldManifold wm;
        wm.Initialize(&bm, p.xf[0], A.m_radius, p.xf[1], B.m_radius);
        double b2_deepest = 1e30;
        for (int j = 0; j < bm.pointCount; ++j) b2_deepest = std::min(b2_deepest, double(wm.separations[j]) + skin);
        if (!(b2_deepest < 0)) continue;  // overlapping cores only
        ++pairs;

        impulse::Pose<S, 2> pa, pb;
        pa.p = V(S(p.xf[0].p.x), S(p.xf[0].p.y));
        pa.q = impulse::Rot2<S>(S(p.xf[0].q.c), S(p.xf[0].q.s));
        pb.p = V(S(p.xf[1].p.x), S(p.xf[1].p.y));
        pb.q = impulse::Rot2<S>(S(p.xf[1].q.c), S(p.xf[1].q.s));
        const auto m = impulse::collide_polygons(impulse::make_box(S(p.hx[0]), S(p.hy[0])), pa,
                                                 impulse::make_box(S(p.hx[1]), S(p.hy[1])), pb);
        REQUIRE(m.count >= 1);

        // The normal: a face within the larger of the two tolerances of the best face.
        Face f[8];
        const int nf = faces(p, f);
        double best = -1e30;
        for (int i = 0; i < nf; ++i) best = std::max(best, f[i].s);
        const double reach_min = std::min(std::hypot(p.hx[0], p.hy[0]), std::hypot(p.hx[1], p.hy[1]));
        const double within = std::max(0.1 * double(b2_linearSlop), 1e-3 * reach_min) + 1e-5;
        bool mine_ok = false, theirs_ok = false;
        for (int i = 0; i < nf; ++i) {
            if (f[i].s < best - within) continue;
            mine_ok = mine_ok || std::hypot(double(m.n.x()) - f[i].n.x, double(m.n.y()) - f[i].n.y) <= 1e-5;
            theirs_ok = theirs_ok || std::hypot(double(wm.normal.x - f[i].n.x), double(wm.normal.y - f[i].n.y)) <= 1e-5;
        }
        CHECK(mine_ok);
        CHECK(theirs_ok);
        if (std::hypot(double(m.n.x()) - wm.normal.x, double(m.n.y()) - wm.normal.y) > 1e-5) continue;
        ++same_face;

        // Same face: the same deepest separation (rounding in float: 2e-6 at coordinates up to 7).
        double deepest = 1e30;
        for (int i = 0; i < m.count; ++i) deepest = std::min(deepest, double(m.points[i].separation));
        CHECK(std::abs(deepest - b2_deepest) <= 2e-6);
        deepest_gap = std::max(deepest_gap, std::abs(deepest - b2_deepest));

        // Every Box2D point is one of impulse's: the same (1e-5), or a clipped end moved along the
        // incident edge by Box2D's wider side planes (<= 0.02 along the face, and the separation
        // changed by twice the midway point's move along n).
        const b2Vec2 t(-wm.normal.y, wm.normal.x);
        bool used[2] = {false, false};
        for (int j = 0; j < bm.pointCount; ++j) {
            const double sj = double(wm.separations[j]) + skin;
            int nearest = -1;
            double d_best = 1e30;
            for (int i = 0; i < m.count; ++i) {
                const V x = pa.p + m.points[i].rA;
                const double d = std::hypot(double(x.x()) - wm.points[j].x, double(x.y()) - wm.points[j].y);
                if (d < d_best) {
                    d_best = d;
                    nearest = i;
                }
            }
            REQUIRE(nearest >= 0);
            used[nearest] = true;
            const V x = pa.p + m.points[nearest].rA;
            const double dx = wm.points[j].x - double(x.x()), dy = wm.points[j].y - double(x.y());
            const double along_t = dx * t.x + dy * t.y, along_n = dx * wm.normal.x + dy * wm.normal.y;
            const double ds = sj - double(m.points[nearest].separation);
            if (d_best <= 1e-5 && std::abs(ds) <= 1e-5) {
                ++exact;
                continue;
            }
            ++shifted;
            shift_max = std::max(shift_max, std::abs(along_t));
            CHECK(std::abs(along_t) <= skin + 1e-5);
            // The reference normal is n for A's face, -n for B's: s = n_ref.(p - v1) grows by
            // n_ref.move, twice the midway point's move along n_ref.
            const double sign = bm.type == b2Manifold::e_faceA ? 1.0 : -1.0;
            CHECK(std::abs(ds - 2 * sign * along_n) <= 1e-5);
        }
        // impulse's points Box2D lacks: speculative ones its wider clip lifted above 0.02.
        for (int i = 0; i < m.count; ++i) {
            if (used[i]) continue;
            ++extra;
            CHECK(m.points[i].separation > S(0));
        }
    }
    std::printf("box2d (%s): %d pairs, %d with the same face; Box2D's points: %d equal, %d clipped ends moved "
                "up to %.4f; %d speculative points Box2D lacks; deepest separations within %.2g\n",
                sizeof(S) == 4 ? "float" : "double", pairs, same_face, exact, shifted, shift_max, extra, deepest_gap);
    CHECK(same_face >= 390);  // near-equal faces are rare: 4 of 400 pairs measured
}
