// SPDX-License-Identifier: MIT
/// \file collide2d.hpp
/// Contact generation in 2D between convex polygons (boxes among them), circles, planes and
/// capsules, as manifolds (manifold.hpp) in the conventions of collide.hpp: shapes in body
/// coordinates (relative to the centre of mass) placed by a `Pose`, the normal from A to B, per
/// point the anchors rA, rB (the point minus each pose's `p`), the signed separation (< 0
/// overlapping) with the point midway between the two surfaces, and points up to `speculative`
/// apart reported too.
///
///   Polygon          convex, counter-clockwise, up to 8 vertices, optionally rounded by `radius`;
///                    2 vertices make a segment, rounded a capsule
///   make_box, make_offset_box, make_polygon (convex hull of any points), make_capsule
///   mass_properties  mass, centroid and moment of inertia at a density
///   collide_polygons         polygon A against polygon B: up to 2 points
///   collide_polygon_circle   polygon A against circle B: 1 point
///   collide_plane_polygon    plane A against polygon B: up to 2 points
///
/// Feature ids (`make_feature`): a point of `collide_polygons` names the vertex of A and the
/// vertex of B at its end of the contact interval (see there); a point of `collide_plane_polygon`
/// names the vertex of B; the single point of `collide_polygon_circle` has id 0.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "collide.hpp"
#include "config.hpp"
#include "kinematics.hpp"
#include "manifold.hpp"

namespace impulse {

/// A convex polygon in body coordinates, vertices counter-clockwise, with the outward unit normal
/// of every edge precomputed. Edge i runs from vertex i to vertex i + 1 (mod count); its outward
/// normal is that direction turned a quarter turn clockwise, `(e.y, -e.x) / |e|`.
///
/// A `radius` > 0 rounds it: the shape is every point within `radius` of the polygon (its
/// Minkowski sum with a disc). Two vertices make a segment, which rounded is a capsule
/// (`make_capsule`). Build it with the factories below, which fill in the normals and the
/// centroid; set `radius` afterwards to round a box.
/// \tparam S scalar type (float or double)
template <class S>
struct Polygon {
    static constexpr int max_vertices = 8;  ///< vertices a polygon can hold
    Vec<S, 2> vertices[max_vertices];       ///< counter-clockwise; the first `count` are used
    Vec<S, 2> normals[max_vertices];        ///< normals[i]: outward unit normal of edge i
    Vec<S, 2> centroid = Vec<S, 2>::Zero(); ///< centre of the area (of the segment when count is 2)
    S radius{0};                            ///< rounding radius, >= 0 (0: sharp corners)
    int count{0};                           ///< vertices in use: 3 .. 8 (2: a segment)

    /// No vertices yet (count 0); the arrays hold zeros, so a copy reads no indeterminate values.
    Polygon() noexcept
    {
        for (int i = 0; i < max_vertices; ++i) {
            vertices[i].setZero();
            normals[i].setZero();
        }
    }
};

/// Mass, centre of mass and moment of inertia of a shape at a uniform density.
/// \tparam S scalar type
template <class S>
struct PolygonMass {
    S mass{0};                               ///< density times area
    Vec<S, 2> centroid = Vec<S, 2>::Zero();  ///< centre of mass, body coordinates
    S inertia{0};                            ///< moment of inertia about the centroid
};

namespace detail {
/// Relative size, against a polygon's extent, below which two hull points are one and a point that
/// close to the chord of its neighbours is dropped as collinear (make_polygon).
template <class S>
inline constexpr S hull_tolerance = S(1e-4);

/// Relative size, against the smaller shape's extent, of the slack in collide_polygons: A's face is
/// kept as the reference unless B's separates the shapes by more than this (no flicker between two
/// nearly equal faces), and a closest pair of vertices counts as a vertex-vertex contact only when
/// each lies beyond the other's edge by more than this.
template <class S>
inline constexpr S face_tolerance = S(1e-3);

/// Index of the vertex after i.
inline int next_vertex(int i, int count) noexcept { return i + 1 < count ? i + 1 : 0; }

/// Area moments of a polygon (3 or more vertices) from a fan of triangles (v0, v0 + e1, v0 + e2)
/// over its edges, each of area a = cross(e1, e2)/2:
///   area = sum a,  first = sum a (e1 + e2)/3,  second = sum a (e1.e1 + e1.e2 + e2.e2)/6
/// (first and second about v0: the centroid is v0 + first/area, the polar moment about v0 second).
template <class S>
struct Fan {
    S area{0};                            ///< sum of the triangles' areas
    Vec<S, 2> first = Vec<S, 2>::Zero();  ///< first moment about v0
    S second{0};                          ///< polar second moment about v0
};
template <class S>
Fan<S> fan(const Polygon<S>& p) noexcept
{
    Fan<S> f;
    const Vec<S, 2> o = p.vertices[0];
    for (int i = 1; i + 1 < p.count; ++i) {
        const Vec<S, 2> e1 = p.vertices[i] - o, e2 = p.vertices[i + 1] - o;
        const S a = cross(e1, e2) / S(2);
        f.area += a;
        f.first += a * (e1 + e2) / S(3);
        f.second += a * (e1.dot(e1) + e1.dot(e2) + e2.dot(e2)) / S(6);
    }
    return f;
}

/// Fills in the normals and the centroid of a polygon whose `count` vertices are set.
///   normal_i = (e.y, -e.x) / |e|,  e = v_{i+1} - v_i
/// A zero-length edge (only a segment of two coincident points can have one) gets -y for its
/// normal, so the result stays finite. Centroid: v0 + first/area of the fan; the midpoint for a
/// segment.
template <class S>
void finish_polygon(Polygon<S>& p) noexcept
{
    using std::sqrt;
    for (int i = 0; i < p.count; ++i) {
        const Vec<S, 2> e = p.vertices[next_vertex(i, p.count)] - p.vertices[i];
        const S len2 = e.squaredNorm();
        if (len2 >= std::numeric_limits<S>::min()) p.normals[i] = Vec<S, 2>(e.y(), -e.x()) / sqrt(len2);
        else p.normals[i] = Vec<S, 2>(S(0), i == 0 ? S(-1) : S(1));
    }
    if (p.count < 3) {
        p.centroid = (p.vertices[0] + p.vertices[p.count - 1]) / S(2);
        return;
    }
    const Fan<S> f = fan(p);
    p.centroid = f.area > S(0) ? Vec<S, 2>(p.vertices[0] + f.first / f.area) : p.vertices[0];
}

/// The shape's reach from its centroid: max |v - centroid| + radius.
template <class S>
S extent(const Polygon<S>& p) noexcept
{
    using std::sqrt;
    S r2{0};
    for (int i = 0; i < p.count; ++i) r2 = std::max(r2, S((p.vertices[i] - p.centroid).squaredNorm()));
    return sqrt(r2) + p.radius;
}

/// A polygon's contract: 2 .. max_vertices vertices, radius >= 0.
template <class S>
bool valid_polygon(const Polygon<S>& p) noexcept
{
    return p.count >= 2 && p.count <= Polygon<S>::max_vertices && !(p.radius < S(0));
}
}  // namespace detail

/// The box [-half_width, half_width] x [-half_height, half_height], centred on the body's origin.
/// Vertices from the lower left, counter-clockwise; edge 0 is the bottom (normal -y), 1 the right
/// (+x), 2 the top (+y), 3 the left (-x).
template <class S>
Polygon<S> make_box(S half_width, S half_height) noexcept
{
    IMPULSE_ASSERT(half_width > S(0) && half_height > S(0), "a box's half extents must be positive");
    Polygon<S> p;
    p.count = 4;
    p.vertices[0] = Vec<S, 2>(-half_width, -half_height);
    p.vertices[1] = Vec<S, 2>(half_width, -half_height);
    p.vertices[2] = Vec<S, 2>(half_width, half_height);
    p.vertices[3] = Vec<S, 2>(-half_width, half_height);
    p.normals[0] = Vec<S, 2>(S(0), S(-1));
    p.normals[1] = Vec<S, 2>(S(1), S(0));
    p.normals[2] = Vec<S, 2>(S(0), S(1));
    p.normals[3] = Vec<S, 2>(S(-1), S(0));
    return p;
}

/// The box of make_box turned by `angle` (radians, counter-clockwise) about its centre and moved to
/// `center` (body coordinates): x = center + R(angle) x_box.
template <class S>
Polygon<S> make_offset_box(S half_width, S half_height, const Vec<S, 2>& center,
                           detail::same_t<S> angle) noexcept
{
    Polygon<S> p = make_box(half_width, half_height);
    const Rot2<S> q = Rot2<S>::from_angle(angle);
    for (int i = 0; i < p.count; ++i) {
        p.vertices[i] = center + q.rotate(p.vertices[i]);
        p.normals[i] = q.rotate(p.normals[i]);
    }
    p.centroid = center;
    return p;
}

/// The convex hull of `count` points (1 .. 8, any order), counter-clockwise, rounded by `radius`.
/// Points closer together than `1e-4` of the points' bounding-box diagonal are merged, and a point
/// that close to the line through its hull neighbours is dropped (it would make a short edge with
/// a poorly determined normal). Fewer than 3 hull points (all points coincident or on one line) is a
/// contract violation; without asserts the result is then the segment between the two extreme
/// points (a capsule when rounded), finite.
template <class S>
Polygon<S> make_polygon(const Vec<S, 2>* points, int count, detail::same_t<S> radius = S(0)) noexcept
{
    constexpr int N = Polygon<S>::max_vertices;
    IMPULSE_ASSERT(points != nullptr && count >= 1 && count <= N, "make_polygon takes 1 to 8 points");
    IMPULSE_ASSERT(!(radius < S(0)), "radius must be non-negative");
    Polygon<S> p;
    p.radius = radius;
    if (points == nullptr || count < 1) {  // without asserts: a point at the origin, as a segment
        p.count = 2;
        detail::finish_polygon(p);
        return p;
    }
    count = std::min(count, N);
    Vec<S, 2> lo = points[0], hi = points[0];
    for (int i = 1; i < count; ++i) {
        lo = lo.cwiseMin(points[i]);
        hi = hi.cwiseMax(points[i]);
    }
    const S weld = detail::hull_tolerance<S> * (hi - lo).norm();

    // Distinct points (relative to `lo`, so the differences below are small numbers), sorted by
    // x, then y (insertion sort: at most 8).
    Vec<S, 2> ps[N];
    int n = 0;
    for (int i = 0; i < count; ++i) {
        const Vec<S, 2> x = points[i] - lo;
        bool seen = false;
        for (int k = 0; k < n && !seen; ++k) seen = (ps[k] - x).squaredNorm() <= weld * weld;
        if (seen) continue;
        int k = n++;
        for (; k > 0 && (x.x() < ps[k - 1].x() || (x.x() == ps[k - 1].x() && x.y() < ps[k - 1].y())); --k)
            ps[k] = ps[k - 1];
        ps[k] = x;
    }

    // Monotone chain (Andrew): the lower hull left to right, then the upper hull right to left,
    // keeping a point only where the chain turns counter-clockwise by more than `weld`:
    //   keep a between o and b  <=>  distance of a to the right of o->b = cross(a-o, b-o)/|b-o| > weld
    Vec<S, 2> h[2 * N + 1];
    int k = 0;
    const auto turns = [&](const Vec<S, 2>& o, const Vec<S, 2>& a, const Vec<S, 2>& b) {
        const Vec<S, 2> ob = b - o;
        return cross(Vec<S, 2>(a - o), ob) > weld * ob.norm();
    };
    for (int i = 0; i < n; ++i) {
        while (k >= 2 && !turns(h[k - 2], h[k - 1], ps[i])) --k;
        h[k++] = ps[i];
    }
    for (int i = n - 2, lower = k + 1; i >= 0; --i) {
        while (k >= lower && !turns(h[k - 2], h[k - 1], ps[i])) --k;
        h[k++] = ps[i];
    }
    --k;  // the chain ends where it began

    IMPULSE_ASSERT(k >= 3, "make_polygon needs 3 points not on one line");
    if (k < 3) {  // the extreme points of the sort: a segment (one point twice if all coincide)
        p.count = 2;
        p.vertices[0] = ps[0] + lo;
        p.vertices[1] = ps[n - 1] + lo;
    } else {
        p.count = k;
        for (int i = 0; i < k; ++i) p.vertices[i] = h[i] + lo;
    }
    detail::finish_polygon(p);
    return p;
}

/// A capsule: the segment from `p1` to `p2` (body coordinates) rounded by `radius` > 0. As a
/// polygon it has 2 vertices, and edges 0 (p1 -> p2) and 1 (p2 -> p1) with opposite normals.
template <class S>
Polygon<S> make_capsule(const Vec<S, 2>& p1, const Vec<S, 2>& p2, detail::same_t<S> radius) noexcept
{
    IMPULSE_ASSERT(radius > S(0), "a capsule's radius must be positive");
    Polygon<S> p;
    p.count = 2;
    p.radius = radius;
    p.vertices[0] = p1;
    p.vertices[1] = p2;
    detail::finish_polygon(p);
    return p;
}

/// Mass, centroid and moment of inertia about the centroid of a polygon at `density` (mass per
/// area). With 3 or more vertices the rounding is ignored: the polygon's own area (a box rounded by
/// r weighs as the box without it). Fan of triangles (0, e1, e2) from vertex 0:
///   a = cross(e1, e2)/2,  m = rho sum a,  c = v0 + sum a (e1 + e2)/3 / sum a,
///   I_v0 = rho sum a (e1.e1 + e1.e2 + e2.e2)/6,  I = I_v0 - m |c - v0|^2  (parallel axes).
/// A capsule (2 vertices, length L = 2h, radius r) counts its round ends: a rectangle 2r x L and
/// two half discs, each with its centroid lc = 4r/(3 pi) beyond its end of the segment:
///   I = m_rect (L^2 + 4 r^2)/12 + m_disc (r^2/2 + h^2 + 2 h lc)
/// (the half discs' r^2/2 about their flat sides, moved to their centroids and on to the centre).
/// A unit box of density 1: m = 1, I = (1 + 1)/12 = 1/6 (`inertia_rectangle`).
template <class S>
PolygonMass<S> mass_properties(const Polygon<S>& p, detail::same_t<S> density) noexcept
{
    IMPULSE_ASSERT(detail::valid_polygon(p), "a polygon has 2 to 8 vertices and a radius >= 0");
    IMPULSE_ASSERT(!(density < S(0)), "density must be non-negative");
    PolygonMass<S> out;
    if (p.count < 3) {
        constexpr S pi = S(3.14159265358979323846);
        const S r = p.radius, L = (p.vertices[1] - p.vertices[0]).norm(), h = L / S(2);
        const S m_rect = density * S(2) * r * L, m_disc = density * pi * r * r;
        const S lc = S(4) * r / (S(3) * pi);
        out.mass = m_rect + m_disc;
        out.centroid = (p.vertices[0] + p.vertices[1]) / S(2);
        out.inertia = m_rect * (L * L + S(4) * r * r) / S(12) + m_disc * (r * r / S(2) + h * h + S(2) * h * lc);
        return out;
    }
    const detail::Fan<S> f = detail::fan(p);
    out.centroid = p.vertices[0];
    if (!(f.area > S(0))) return out;
    const Vec<S, 2> c = f.first / f.area;  // centroid - v0
    out.mass = density * f.area;
    out.centroid += c;
    out.inertia = density * f.second - out.mass * c.squaredNorm();
    return out;
}

namespace detail {
/// The face of `p` that separates it most from `q` (both in one frame): the largest over p's edges
/// of s_i = min_j n_i.(q_j - p_i), the signed distance of q's deepest vertex beyond edge i. The
/// first of equal faces wins.
template <class S>
struct FaceSeparation {
    S separation;  ///< s of the face
    int edge;      ///< its index
};
template <class S>
FaceSeparation<S> max_separation(const Polygon<S>& p, const Polygon<S>& q) noexcept
{
    FaceSeparation<S> best{-std::numeric_limits<S>::max(), 0};
    for (int i = 0; i < p.count; ++i) {
        S s = std::numeric_limits<S>::max();
        for (int j = 0; j < q.count; ++j) s = std::min(s, S(p.normals[i].dot(q.vertices[j] - p.vertices[i])));
        if (s > best.separation) best = {s, i};
    }
    return best;
}

/// The edge of `p` whose normal is most anti-parallel to `n` (smallest n.normal_j; first on ties).
template <class S>
int incident_edge(const Polygon<S>& p, const Vec<S, 2>& n) noexcept
{
    int best = 0;
    S least = std::numeric_limits<S>::max();
    for (int j = 0; j < p.count; ++j) {
        const S d = n.dot(p.normals[j]);
        if (d < least) {
            least = d;
            best = j;
        }
    }
    return best;
}

/// Up to 2 points between a reference edge of one polygon and an incident edge of another, in one
/// frame; vertices are named by their index in their own polygon.
template <class S>
struct EdgeContact {
    Vec<S, 2> n = Vec<S, 2>::UnitX();  ///< unit normal from the reference polygon to the incident one
    int count{0};                      ///< points
    Vec<S, 2> x[2] = {Vec<S, 2>::Zero(), Vec<S, 2>::Zero()};  ///< points, midway between the surfaces
    S separation[2]{};                 ///< their separations
    int ref_vertex[2]{};               ///< vertex of the reference polygon at each point's end
    int inc_vertex[2]{};               ///< vertex of the incident polygon at each point's end
};

/// The closest pair of points of segments [v1, v2] and [w1, w2] that do not cross: in 2D one of
/// them is an end of its segment, so it is the nearest of the four ends projected onto the other
/// segment, u = (x - q1).(q2 - q1) / |q2 - q1|^2 clamped to [0, 1].
template <class S>
struct ClosestPair {
    Vec<S, 2> a;      ///< point of [v1, v2]
    Vec<S, 2> b;      ///< point of [w1, w2]
    int va;           ///< 0 or 1: the end of [v1, v2] nearest a
    int wb;           ///< 0 or 1: the end of [w1, w2] nearest b
    S beyond;         ///< how far the end's projection fell beyond the end of the other segment
};
template <class S>
ClosestPair<S> closest_pair(const Vec<S, 2>& v1, const Vec<S, 2>& v2, const Vec<S, 2>& w1,
                            const Vec<S, 2>& w2) noexcept
{
    using std::sqrt;
    ClosestPair<S> best{v1, w1, 0, 0, S(0)};
    S best_d2 = std::numeric_limits<S>::max();
    // x, an end of one segment, against [q1, q2]; `x_is_w`: x is an end of [w1, w2].
    const auto test = [&](const Vec<S, 2>& x, int end, const Vec<S, 2>& q1, const Vec<S, 2>& q2, bool x_is_w) {
        const Vec<S, 2> e = q2 - q1;
        const S len2 = e.squaredNorm();
        S u = len2 >= std::numeric_limits<S>::min() ? S(e.dot(x - q1) / len2) : S(0);
        const S len = sqrt(len2);
        const S beyond = u < S(0) ? -u * len : (u > S(1) ? (u - S(1)) * len : S(0));
        u = std::min(std::max(u, S(0)), S(1));
        const Vec<S, 2> q = q1 + u * e;
        const S d2 = (x - q).squaredNorm();
        if (!(d2 < best_d2)) return;
        best_d2 = d2;
        const int near = u < S(0.5) ? 0 : 1;
        best = x_is_w ? ClosestPair<S>{q, x, near, end, beyond} : ClosestPair<S>{x, q, end, near, beyond};
    };
    test(w1, 0, v1, v2, true);
    test(w2, 1, v1, v2, true);
    test(v1, 0, w1, w2, false);
    test(v2, 1, w1, w2, false);
    return best;
}

/// The contact between reference edge i1 of `ref` and incident edge j1 of `inc` (one frame), whose
/// cores are `sep` apart along the reference normal n (the SAT separation, < 0 overlapping).
///
/// Clipping: t = (-n.y, n.x) runs along the reference edge from v1 to v2; the incident edge runs
/// from w1 (near v2) to w2 (near v1). Its part between the side planes t.x = t.v1 and t.x = t.v2
/// is w2 + u (w1 - w2), u in [u_lo, u_hi]:
///   u_lo = max(0, (t.v1 - t.w2) / (t.w1 - t.w2)),  u_hi = min(1, (t.v2 - t.w2) / (t.w1 - t.w2))
/// Its ends p are the points, each paired with the vertices at its end: (v1, w2) and (v2, w1),
/// whether clipped or not, so a point keeps its ids while the edges slide a little. Per point
///   s = n.(p - v1) - r_ref - r_inc,  x = p - n (r_inc + s/2)  (midway between the surfaces),
/// kept when s <= speculative.
///
/// One point from the closest pair (a, b) of the two edges instead when the cores are apart
/// (sep > tol), the pair are two corners (each beyond the other edge's end by more than tol) and
/// |b - a| is below the clipped ends' least n.(p - v1) by more than tol (a vertex-vertex region:
/// n = (b - a)/|b - a|, s = |b - a| - r_ref - r_inc); or when nothing of the incident edge lies
/// between the side planes (n from the pair when it is more than tol apart).
template <class S>
EdgeContact<S> edge_contact(const Polygon<S>& ref, int i1, const Polygon<S>& inc, int j1, S sep, S tol,
                            S speculative) noexcept
{
    using std::sqrt;
    const int i2 = next_vertex(i1, ref.count), j2 = next_vertex(j1, inc.count);
    const Vec<S, 2> v1 = ref.vertices[i1], v2 = ref.vertices[i2];
    const Vec<S, 2> w1 = inc.vertices[j1], w2 = inc.vertices[j2];
    const S radii = ref.radius + inc.radius;
    EdgeContact<S> c;
    c.n = ref.normals[i1];

    // One point from the closest pair of the edges: along it when the pair is more than tol apart,
    // along n otherwise.
    const auto one_point = [&](const ClosestPair<S>& cp) {
        const Vec<S, 2> d = cp.b - cp.a;
        const S dist = sqrt(d.squaredNorm());
        S s = c.n.dot(d) - radii;
        if (dist > tol) {
            c.n = d / dist;
            s = dist - radii;
        }
        if (!(s <= speculative)) return c;
        c.count = 1;
        c.x[0] = cp.b - c.n * (inc.radius + s / S(2));
        c.separation[0] = s;
        c.ref_vertex[0] = cp.va == 0 ? i1 : i2;
        c.inc_vertex[0] = cp.wb == 0 ? j1 : j2;
        return c;
    };

    // Clip the incident edge to the reference edge's side planes.
    const Vec<S, 2> t(-c.n.y(), c.n.x());
    const S lower = t.dot(v1), upper = t.dot(v2);
    const S d1 = t.dot(w1), d2 = t.dot(w2), span = d1 - d2;
    S u_lo{0}, u_hi{1};
    if (span > S(0)) {
        u_lo = std::max(S(0), S((lower - d2) / span));
        u_hi = std::min(S(1), S((upper - d2) / span));
    } else if (d2 < lower || d2 > upper) {  // across the reference edge (only a segment can be)
        u_lo = S(1);
        u_hi = S(0);
    }
    if (!(u_lo <= u_hi)) return one_point(closest_pair(v1, v2, w1, w2));

    const Vec<S, 2> ends[2] = {w2 + u_lo * (w1 - w2), w2 + u_hi * (w1 - w2)};
    const S core[2] = {c.n.dot(ends[0] - v1), c.n.dot(ends[1] - v1)};

    // Cores apart and nearest at two corners: the clipped ends, measured along n, can overstate the
    // gap (an incident edge leaning back over the reference edge from beyond its end). The corners'
    // own line is the normal when their distance is smaller by more than tol.
    if (sep > tol) {
        const ClosestPair<S> cp = closest_pair(v1, v2, w1, w2);
        if (cp.beyond > tol && (cp.b - cp.a).norm() < std::min(core[0], core[1]) - tol) return one_point(cp);
    }

    const int ref_end[2] = {i1, i2}, inc_end[2] = {j2, j1};
    for (int k = 0; k < 2; ++k) {
        const S s = core[k] - radii;
        if (!(s <= speculative)) continue;
        c.x[c.count] = ends[k] - c.n * (inc.radius + s / S(2));
        c.separation[c.count] = s;
        c.ref_vertex[c.count] = ref_end[k];
        c.inc_vertex[c.count] = inc_end[k];
        ++c.count;
    }
    return c;
}
}  // namespace detail

/// Polygon A against polygon B (either may be rounded, or a capsule): up to 2 points.
///
/// Separating axes: every edge normal of A against B's vertices and of B against A's (B brought
/// into A's frame first, so the result depends only on the relative pose), s_i = min_j n_i.(x_j -
/// v_i). The reference face is the one of largest s (least overlap), except that A's best face and
/// B's count as equal when their s differ by at most tol = 1e-3 of the smaller shape's extent
/// (reach from its centroid): then the longer of the two is the reference, and A's when they are
/// as long (to within tol). So two nearly equal faces do not trade places from step to step as a
/// resting body rocks, and a box resting on a wider one is referenced to the wider face whichever
/// is passed first. No points when
/// s - rA - rB > speculative. The incident edge is the other polygon's edge most anti-parallel to
/// the reference normal; it is clipped to the reference edge's side planes and each end with
///   s = n.(p - v1) - rA - rB <= speculative
/// is a point, midway between the (rounded) surfaces. When the cores are apart and their closest
/// points are two corners (a vertex-vertex region), one point along the line between those corners.
///
/// The normal points from A to B also when B's face is the reference. A point's id is
/// `make_feature(vertex of A, vertex of B)` for the two vertices at its end of the contact (the
/// ends of the reference edge and of the incident edge pair up: v1 with w2, v2 with w1), whether
/// the end was clipped or not: stable while the bodies rest, and the same point read with A and B
/// swapped has the same vertices. `flipped(collide_polygons(B, pb, A, pa))` therefore has this
/// result's ids; it has its normal, anchors and separations too unless the two faces are equally
/// long and turned against each other (then each reading takes its first shape's face, and the
/// normals differ by the angle between the faces, below about 1e-3). The order of the points is
/// not part of the result: match them by id.
/// Coincident shapes have no preferred face: the first of equal faces is taken, deterministically.
/// \tparam S scalar type
template <class S>
Manifold<S, 2> collide_polygons(const Polygon<S>& a, const Pose<S, 2>& pa, const Polygon<S>& b,
                                const Pose<S, 2>& pb,
                                detail::same_t<S> speculative = speculative_distance<S>) noexcept
{
    IMPULSE_ASSERT(detail::valid_polygon(a) && detail::valid_polygon(b),
                   "a polygon has 2 to 8 vertices and a radius >= 0");
    Manifold<S, 2> m;
    // B in A's frame: x_A = RA^T (pB + RB x_B - pA).
    const Rot2<S> q = pa.q.inverse() * pb.q;
    const Vec<S, 2> p = pa.q.inverse_rotate(pb.p - pa.p);
    Polygon<S> lb = b;
    for (int i = 0; i < b.count; ++i) {
        lb.vertices[i] = p + q.rotate(b.vertices[i]);
        lb.normals[i] = q.rotate(b.normals[i]);
    }
    lb.centroid = p + q.rotate(b.centroid);

    const detail::FaceSeparation<S> fa = detail::max_separation(a, lb);
    const detail::FaceSeparation<S> fb = detail::max_separation(lb, a);
    if (!(std::max(fa.separation, fb.separation) - (a.radius + b.radius) <= speculative)) return m;
    const S tol = detail::face_tolerance<S> * std::min(detail::extent(a), detail::extent(lb));
    // B's face is the reference when it separates more by over tol; within tol of A's, when it is
    // longer by over tol.
    bool flip = fb.separation > fa.separation + tol;
    if (!flip && !(fa.separation > fb.separation + tol)) {
        const S la = (a.vertices[detail::next_vertex(fa.edge, a.count)] - a.vertices[fa.edge]).norm();
        const S lbe = (lb.vertices[detail::next_vertex(fb.edge, lb.count)] - lb.vertices[fb.edge]).norm();
        flip = lbe > la + tol;
    }
    const Polygon<S>& ref = flip ? lb : a;
    const Polygon<S>& inc = flip ? a : lb;
    const detail::FaceSeparation<S>& f = flip ? fb : fa;
    const int j = detail::incident_edge(inc, ref.normals[f.edge]);
    const detail::EdgeContact<S> c = detail::edge_contact(ref, f.edge, inc, j, f.separation, tol, speculative);
    if (c.count == 0) return m;

    m.n = pa.rotate(flip ? Vec<S, 2>(-c.n) : c.n);
    for (int k = 0; k < c.count; ++k) {
        const auto va = std::uint32_t(flip ? c.inc_vertex[k] : c.ref_vertex[k]);
        const auto vb = std::uint32_t(flip ? c.ref_vertex[k] : c.inc_vertex[k]);
        m.points[k] = detail::point_at<S, 2>(pa.apply(c.x[k]), pa, pb, c.separation[k], make_feature(va, vb));
    }
    m.count = c.count;
    return m;
}

/// Polygon A against circle B: one point, from the feature of A nearest the circle's centre c
/// (in A's frame). The face of largest s = n_i.(c - v_i); when c is not behind it (s >= 0) and
/// projects beyond one of the face's ends, that corner v is nearest instead:
///   face region    n = n_i,               s_core = n_i.(c - v_i)
///   vertex region  n = (c - v)/|c - v|,   s_core = |c - v|
///   separation = s_core - r_polygon - r_circle,  point = c - n (r_circle + separation/2).
/// A centre inside the polygon takes the face it is least deep behind. Reported when
/// separation <= speculative. The point moves continuously as the circle crosses from a face region
/// to a vertex region, so it keeps one id, 0.
/// \tparam S scalar type
template <class S>
Manifold<S, 2> collide_polygon_circle(const Polygon<S>& a, const Pose<S, 2>& pa, const Circle<S>& b,
                                      const Pose<S, 2>& pb,
                                      detail::same_t<S> speculative = speculative_distance<S>) noexcept
{
    IMPULSE_ASSERT(detail::valid_polygon(a), "a polygon has 2 to 8 vertices and a radius >= 0");
    IMPULSE_ASSERT(!(b.radius < S(0)), "radius must be non-negative");
    using std::sqrt;
    Manifold<S, 2> m;
    const Vec<S, 2> c = pa.inverse_apply(pb.apply(b.center));  // the centre in A's frame
    int face = 0;
    S s = -std::numeric_limits<S>::max();
    for (int i = 0; i < a.count; ++i) {
        const S si = a.normals[i].dot(c - a.vertices[i]);
        if (si > s) {
            s = si;
            face = i;
        }
    }
    const S radii = a.radius + b.radius;
    if (!(s - radii <= speculative)) return m;
    Vec<S, 2> n = a.normals[face];
    if (s >= S(0)) {  // on or outside the face's line (a segment's own line counts: s = 0 there)
        const Vec<S, 2> v1 = a.vertices[face], v2 = a.vertices[detail::next_vertex(face, a.count)];
        const bool before = (c - v1).dot(v2 - v1) < S(0), after = (c - v2).dot(v1 - v2) < S(0);
        if (before || after) {
            const Vec<S, 2> d = c - (before ? v1 : v2);
            const S dist2 = d.squaredNorm();
            if (dist2 >= std::numeric_limits<S>::min()) {  // else c is on the corner: keep the face
                s = sqrt(dist2);
                n = d / s;
            }
        }
    }
    const S separation = s - radii;
    if (!(separation <= speculative)) return m;
    m.n = pa.rotate(n);
    m.count = 1;
    m.points[0] = detail::point_at<S, 2>(pa.apply(Vec<S, 2>(c - n * (b.radius + separation / S(2)))), pa, pb,
                                         separation, 0);
    return m;
}

/// Plane A against polygon B: the normal is the plane's (from the plane towards the polygon), the
/// points the two deepest vertices of B with separation <= speculative (for a box lying flat, its
/// two bottom corners), in the order of B's vertices:
///   n = RA normal,  s_j = n.x_j - (offset + n.pA) - r,  point = x_j - n (r + s_j/2)
/// (x_j vertex j in the world, r the polygon's rounding). Ids: `make_feature(0, j)`.
/// \tparam S scalar type
template <class S>
Manifold<S, 2> collide_plane_polygon(const Plane<S, 2>& a, const Pose<S, 2>& pa, const Polygon<S>& b,
                                     const Pose<S, 2>& pb,
                                     detail::same_t<S> speculative = speculative_distance<S>) noexcept
{
    IMPULSE_ASSERT(detail::valid_polygon(b), "a polygon has 2 to 8 vertices and a radius >= 0");
    IMPULSE_ASSERT(is_unit(a.normal), "the plane normal must be a unit vector");
    Manifold<S, 2> m;
    const Vec<S, 2> n = pa.rotate(a.normal);
    const S offset = a.offset + n.dot(pa.p);
    // The deepest vertex, then the deepest of the others.
    int deepest[2] = {-1, -1};
    S s[2] = {std::numeric_limits<S>::max(), std::numeric_limits<S>::max()};
    for (int j = 0; j < b.count; ++j) {
        const S sj = n.dot(pb.apply(b.vertices[j])) - offset - b.radius;
        if (sj < s[0]) {
            deepest[1] = deepest[0];
            s[1] = s[0];
            deepest[0] = j;
            s[0] = sj;
        } else if (sj < s[1]) {
            deepest[1] = j;
            s[1] = sj;
        }
    }
    const int first = deepest[1] >= 0 && deepest[1] < deepest[0] ? 1 : 0;  // in vertex order
    for (int k = 0; k < 2; ++k) {
        const int i = k == 0 ? first : 1 - first;
        if (deepest[i] < 0 || !(s[i] <= speculative)) continue;
        const Vec<S, 2> x = pb.apply(b.vertices[deepest[i]]);
        m.points[m.count++] = detail::point_at<S, 2>(Vec<S, 2>(x - n * (b.radius + s[i] / S(2))), pa, pb, s[i],
                                                     make_feature(0, std::uint32_t(deepest[i])));
    }
    m.n = n;
    return m;
}

}  // namespace impulse
