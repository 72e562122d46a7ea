// SPDX-License-Identifier: MIT
/// \file collide3d.hpp
/// Contact generation in 3D between boxes, capsules, spheres and planes placed by poses, as manifolds
/// (manifold.hpp) of up to 4 points sharing one normal, in the conventions of collide.hpp: shapes in
/// body coordinates (relative to the centre of mass, along the body's axes) placed by a `Pose`; n
/// from A to B; per point the anchors rA, rB (the point minus each pose's p), the signed separation
/// s (< 0 overlapping) and a feature id; the point lies midway between the two surfaces; points with
/// s <= `speculative` are reported. A first in the order plane < box < capsule < sphere.
///
///   collide_boxes           separating axes: the 3 + 3 face normals and the 9 edge-pair cross
///                           products. A face axis: the other box's face most anti-parallel to it
///                           (incident face) clipped to the face of the axis (reference face), up
///                           to 4 points. An edge pair: one point midway between the two edges.
///   collide_box_sphere      the box point closest to the centre (the nearest face when inside)
///   collide_box_capsule     closest points of segment and box; when the capsule lies on a face,
///                           the segment clipped to the face: up to 2 points
///   collide_capsules        closest points of the segments; 2 points when they lie side by side
///   collide_capsule_sphere  closest point of the segment to the centre
///   collide_plane_box       the box's corners within `speculative` of the plane, the deepest 4
///   collide_plane_capsule   the segment's ends within `speculative` of the plane: up to 2 points
///   (collide.hpp: collide_spheres, collide_plane_sphere)
///
/// Feature ids (manifold.hpp: the low 16 bits name a feature of A, the high 16 one of B); they
/// stay the same while two shapes rest on each other, and name the same point with A and B
/// swapped (`swap_feature`):
///   box      vertex  0x00 + (x > 0) + 2 (y > 0) + 4 (z > 0)   (the signs of its coordinates)
///            edge    0x10 + 4 axis + 2 (first other > 0) + (second other > 0)
///                    (an edge along `axis`; the other two axes in increasing order: x,y,z = 0,1,2)
///            face    0x20 + 2 axis + (outward normal along +axis)
///   capsule  0x40 its side, 0x41 the cap around center1, 0x42 the cap around center2
///   sphere, plane: 0
///
/// Tolerances (lengths in metres, like `speculative_distance`):
///   box axes     face of B over face of A, or an edge pair over the faces, only when clearly
///                better: s_new > s_old + rel |s_old| + 2.5 mm, rel 0.02 (face) and 0.1 (edge),
///                so resting boxes keep their reference face from step to step
///   parallel     box edges within a sine of 1e-3 of parallel are left to the face axes; capsule
///                segments within a sine of 0.02 count as side by side
///   box-capsule  a segment closer than 0.5 mm to the box (or inside it) is handled by separating
///                axes instead of closest points, whose direction is then unreliable
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "collide.hpp"
#include "config.hpp"
#include "kinematics.hpp"
#include "manifold.hpp"
#include "rigid.hpp"

namespace impulse {

// ---------------------------------------------------------------------------------------------
// Shapes

/// A box centred at the origin of its body, its sides along the body's axes.
/// \tparam S scalar type (float or double)
template <class S>
struct Box {
    Vec<S, 3> half_extents = Vec<S, 3>::Zero();  ///< half side lengths along the body's x, y, z (>= 0; 0: flat)
};

/// A capsule: the points within `radius` of the segment from `center1` to `center2` (body
/// coordinates). A segment of zero length is a sphere.
/// \tparam S scalar type (float or double)
template <class S>
struct Capsule {
    Vec<S, 3> center1 = Vec<S, 3>::Zero();  ///< one end of the segment: the centre of one cap
    Vec<S, 3> center2 = Vec<S, 3>::Zero();  ///< the other end
    S radius{0};                            ///< radius, >= 0
};

/// Volume of a box: V = 8 hx hy hz (mass = density V).
template <class S>
S volume(const Box<S>& box) noexcept
{
    return S(8) * box.half_extents.x() * box.half_extents.y() * box.half_extents.z();
}

/// Volume of a capsule: V = pi r^2 L + 4/3 pi r^3, L = |center2 - center1| (mass = density V).
template <class S>
S volume(const Capsule<S>& capsule) noexcept
{
    const S pi = S(3.14159265358979323846);
    const S r = capsule.radius;
    const S length = (capsule.center2 - capsule.center1).norm();
    return pi * r * r * length + S(4) * pi * r * r * r / S(3);
}

/// Principal moments of inertia of a solid box of mass m about its centre, along the body axes:
/// `inertia_box(m, 2 h)`, Ix = m (4 hy^2 + 4 hz^2) / 12 and cyclically.
template <class S>
Vec<S, 3> principal_inertia(const Box<S>& box, detail::same_t<S> mass) noexcept
{
    return inertia_box(mass, Vec<S, 3>(S(2) * box.half_extents));
}

/// Principal moments of inertia of a solid capsule of mass m about its centre, along the body
/// axes: `inertia_capsule(m, r, L)` with the moment about the segment put on the body axis the
/// segment lies along. Contract: the segment lies along x, y or z and its midpoint is the body's
/// origin (the centre of mass). A segment of zero length gives the sphere's 2/5 m r^2.
template <class S>
Vec<S, 3> principal_inertia(const Capsule<S>& capsule, detail::same_t<S> mass) noexcept
{
    using std::abs;
    const Vec<S, 3> d = capsule.center2 - capsule.center1;
    const S length = d.norm();
    int axis = 0;
    for (int i = 1; i < 3; ++i)
        if (abs(d[i]) > abs(d[axis])) axis = i;
    IMPULSE_ASSERT(abs(d[(axis + 1) % 3]) <= S(1e-4) * length && abs(d[(axis + 2) % 3]) <= S(1e-4) * length,
                   "the capsule's segment must lie along a body axis");
    IMPULSE_ASSERT((capsule.center1 + capsule.center2).norm() <= S(1e-4) * (length + capsule.radius),
                   "the capsule's segment must be centred on the body's origin");
    const Vec<S, 3> zi = inertia_capsule(mass, capsule.radius, length);  // axis along z
    Vec<S, 3> out = Vec<S, 3>::Constant(zi.x());
    out[axis] = zi.z();
    return out;
}

// ---------------------------------------------------------------------------------------------
// Machinery

namespace detail {

template <class S>
inline constexpr S axis_tolerance = S(0.0025);  // absolute part of "clearly better" (m)
template <class S>
inline constexpr S face_relative = S(0.02);  // relative part, face of B over face of A
template <class S>
inline constexpr S edge_relative = S(0.1);  // relative part, an edge pair over the faces
template <class S>
inline constexpr S edge_parallel_sine = S(1e-3);  // box edges closer to parallel: no edge axis
template <class S>
inline constexpr S capsule_parallel_sine = S(0.02);  // capsule segments closer: side by side
template <class S>
inline constexpr S capsule_touch_distance = S(0.0005);  // box-capsule: below, separating axes

inline constexpr std::uint32_t capsule_side = 0x40u;
inline constexpr std::uint32_t capsule_end1 = 0x41u;
inline constexpr std::uint32_t capsule_end2 = 0x42u;

/// +1 for x >= 0 (and NaN), -1 below.
template <class S>
int sign_of(S x) noexcept
{
    return x < S(0) ? -1 : 1;
}

/// x clamped to [0, 1]; NaN gives 0.
template <class S>
S clamp01(S x) noexcept
{
    if (!(x > S(0))) return S(0);
    return x > S(1) ? S(1) : x;
}

/// s_new beats s_old only by a margin: s_new > s_old + rel |s_old| + axis_tolerance.
template <class S>
bool clearly_better(S s_new, S s_old, S relative) noexcept
{
    using std::abs;
    return s_new > s_old + relative * abs(s_old) + axis_tolerance<S>;
}

/// Box vertex with coordinate signs sg (+1 / -1).
inline std::uint32_t box_vertex(const int sg[3]) noexcept
{
    return (sg[0] > 0 ? 1u : 0u) + (sg[1] > 0 ? 2u : 0u) + (sg[2] > 0 ? 4u : 0u);
}
/// Box edge along `axis`, at the signs sg of the other two axes (sg[axis] is ignored).
inline std::uint32_t box_edge(int axis, const int sg[3]) noexcept
{
    const int first = axis == 0 ? 1 : 0, second = axis == 2 ? 1 : 2;
    return 0x10u + 4u * static_cast<std::uint32_t>(axis) + (sg[first] > 0 ? 2u : 0u) + (sg[second] > 0 ? 1u : 0u);
}
/// Box face with outward normal sign * e_axis.
inline std::uint32_t box_face(int axis, int sign) noexcept
{
    return 0x20u + 2u * static_cast<std::uint32_t>(axis) + (sign > 0 ? 1u : 0u);
}
/// The capsule feature of a point at parameter t of its segment: an end cap at t = 0 or 1, the
/// side between.
template <class S>
std::uint32_t capsule_feature(S t) noexcept
{
    return t <= S(0) ? capsule_end1 : (t >= S(1) ? capsule_end2 : capsule_side);
}

/// Where a point x (box frame) lies against the box |x_i| <= h_i: q the box point nearest to it
/// (x clamped), sg[i] = +-1 on the axes where x is beyond the face +-h_i (0 within), `outside`
/// how many such axes, and the box feature q lies on: the face (1 axis), the edge (2) or the
/// vertex (3) between those planes; `face_axis` the axis of that face when outside == 1.
template <class S>
struct BoxRegion {
    Vec<S, 3> q = Vec<S, 3>::Zero();
    int sg[3] = {0, 0, 0};
    int outside{0};
    int face_axis{0};
    std::uint32_t feature{0};
};

template <class S>
BoxRegion<S> box_region(const Vec<S, 3>& x, const Vec<S, 3>& h) noexcept
{
    BoxRegion<S> r;
    r.q = x;
    for (int i = 0; i < 3; ++i) {
        if (x[i] > h[i]) r.q[i] = h[i], r.sg[i] = 1, ++r.outside;
        else if (x[i] < -h[i]) r.q[i] = -h[i], r.sg[i] = -1, ++r.outside;
    }
    if (r.outside == 1) {
        while (r.sg[r.face_axis] == 0) ++r.face_axis;
        r.feature = box_face(r.face_axis, r.sg[r.face_axis]);
    } else if (r.outside == 2) {
        int along = 0;
        while (r.sg[along] != 0) ++along;
        r.feature = box_edge(along, r.sg);
    } else if (r.outside == 3) {
        r.feature = box_vertex(r.sg);
    }
    return r;
}

/// v / |v|, or `fallback` when |v|^2 is not a normal number (no reliable direction).
template <class S>
Vec<S, 3> unit_or(const Vec<S, 3>& v, const Vec<S, 3>& fallback) noexcept
{
    using std::sqrt;
    const S n2 = v.squaredNorm();
    if (n2 >= std::numeric_limits<S>::min() && n2 <= std::numeric_limits<S>::max()) return v / sqrt(n2);
    return fallback;
}

/// A unit vector perpendicular to v: v x e_k for the axis e_k least aligned with v, normalised;
/// +x for the zero vector.
template <class S>
Vec<S, 3> any_perpendicular(const Vec<S, 3>& v) noexcept
{
    using std::abs;
    int k = 0;
    for (int i = 1; i < 3; ++i)
        if (abs(v[i]) < abs(v[k])) k = i;
    return unit_or<S>(v.cross(Vec<S, 3>::Unit(k)), Vec<S, 3>::UnitX());
}

/// Parameters of the closest points p1 + s d1, p2 + t d2 (s, t in [0, 1]) of two segments.
/// With r = p1 - p2, a = d1.d1, b = d1.d2, c = d1.r, e = d2.d2, f = d2.r, the unclamped lines meet
/// at s = (b f - c e) / (a e - b^2), t = (b s + f) / e; s is clamped, t follows from it and is
/// clamped, and s is recomputed from the clamped t. Parallel segments (a e - b^2 ~ 0) start from
/// s = 0; a segment of zero length is a point.
template <class S>
void closest_segment_params(const Vec<S, 3>& p1, const Vec<S, 3>& d1, const Vec<S, 3>& p2, const Vec<S, 3>& d2,
                            S& s, S& t) noexcept
{
    const S tiny = std::numeric_limits<S>::min();
    const Vec<S, 3> r = p1 - p2;
    const S a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
    s = S(0);
    t = S(0);
    if (a < tiny && e < tiny) return;
    if (a < tiny) {
        t = clamp01(f / e);
        return;
    }
    const S c = d1.dot(r);
    if (e < tiny) {
        s = clamp01(-c / a);
        return;
    }
    const S b = d1.dot(d2);
    const S denom = a * e - b * b;  // |d1 x d2|^2
    if (denom > std::numeric_limits<S>::epsilon() * a * e) s = clamp01((b * f - c * e) / denom);
    t = (b * s + f) / e;
    if (t < S(0)) {
        t = S(0);
        s = clamp01(-c / a);
    } else if (t > S(1)) {
        t = S(1);
        s = clamp01((b - c) / a);
    }
}

/// Appends a point (world position x) to m.
template <class S>
void add_point(Manifold<S, 3>& m, const Vec<S, 3>& x, const Pose<S, 3>& pa, const Pose<S, 3>& pb, S separation,
               std::uint32_t feature) noexcept
{
    if (m.count < Manifold<S, 3>::max_points) m.points[m.count++] = point_at<S, 3>(x, pa, pb, separation, feature);
}

/// Of `count` candidate points (positions x, separations s) on a contact plane with normal n,
/// picks at most 4 indices: the deepest, the one farthest from it, the one that makes the largest
/// triangle with those two, and the one outside that triangle that adds the most area. Returns how
/// many were picked (fewer when the others add no area: coincident or collinear points).
template <class S>
int reduce_to_four(const Vec<S, 3>* x, const S* s, int count, const Vec<S, 3>& n, int keep[4]) noexcept
{
    if (count <= 4) {
        for (int i = 0; i < count; ++i) keep[i] = i;
        return count;
    }
    // twice the signed area of triangle (p, q, r) seen along n
    const auto area = [&n](const Vec<S, 3>& p, const Vec<S, 3>& q, const Vec<S, 3>& r) {
        return (q - p).cross(r - p).dot(n);
    };
    int i0 = 0;
    for (int i = 1; i < count; ++i)
        if (s[i] < s[i0]) i0 = i;
    int i1 = -1;
    S best(0);
    for (int i = 0; i < count; ++i) {
        const S d2 = (x[i] - x[i0]).squaredNorm();
        if (d2 > best) best = d2, i1 = i;
    }
    keep[0] = i0;
    if (i1 < 0) return 1;
    keep[1] = i1;
    int i2 = -1;
    best = S(0);
    for (int i = 0; i < count; ++i) {
        using std::abs;
        const S a2 = abs(area(x[i0], x[i1], x[i]));
        if (a2 > best) best = a2, i2 = i;
    }
    if (i2 < 0) return 2;
    keep[2] = i2;
    const S orient = area(x[i0], x[i1], x[i2]) > S(0) ? S(1) : S(-1);
    int i3 = -1;
    best = S(0);
    for (int i = 0; i < count; ++i) {
        if (i == i0 || i == i1 || i == i2) continue;
        // area added outside each edge of the triangle (positive when the point is outside it)
        S out = -orient * area(x[i0], x[i1], x[i]);
        const S o12 = -orient * area(x[i1], x[i2], x[i]);
        const S o20 = -orient * area(x[i2], x[i0], x[i]);
        if (o12 > out) out = o12;
        if (o20 > out) out = o20;
        if (out > best) best = out, i3 = i;
    }
    if (i3 < 0) return 3;
    keep[3] = i3;
    return 4;
}

/// A vertex of the incident face while it is clipped: position (reference box frame), the
/// features of the two boxes it lies on, and the edge that leaves it towards the next vertex:
/// an incident box edge (side < 0) or a piece along the reference face's side plane `side`.
template <class S>
struct ClipVertex {
    Vec<S, 3> x = Vec<S, 3>::Zero();
    std::uint32_t ref{0}, inc{0};  // features of the reference and the incident box
    int side{-1};                   // the edge leaving: along side plane `side`, or (-1) the box edge
    std::uint32_t edge{0};          // ... incident box edge `edge`
    bool fresh{false};              // made by the current clipping plane
};

/// The reference face of a box face contact: axis, outward sign, and its 4 side planes
/// sign_k x[axis_k] <= h[axis_k].
struct RefFace {
    int axis{0}, sign{1};
    int side_axis[4]{}, side_sign[4]{};
};

/// Sutherland-Hodgman: the polygon `in` clipped to side plane k of the reference face
/// (sign x[axis] <= h), into `out` (capacity `cap`). An intersection's features: with an incident
/// edge, (reference edge on the plane, incident edge); with a piece along side plane j, (the
/// reference face's corner between planes j and k, incident face). Vertices that fall on the
/// same position (a vertex on the plane, zero extents) are merged, keeping the older features.
template <class S>
int clip_to_side(const ClipVertex<S>* in, int n, ClipVertex<S>* out, int cap, const RefFace& f, int k, S h,
                 std::uint32_t inc_face) noexcept
{
    const int axis = f.side_axis[k];
    const S sgn = S(f.side_sign[k]);
    int sg[3];
    sg[f.axis] = f.sign;
    sg[axis] = f.side_sign[k];
    const int along = 3 - f.axis - axis;  // the reference edge on plane k runs along this axis
    const std::uint32_t ref_edge = box_edge(along, sg);
    int count = 0;
    const auto emit = [&](const ClipVertex<S>& v) {
        if (count < cap) out[count++] = v;
    };
    for (int i = 0; i < n; ++i) {
        const ClipVertex<S>& p = in[i];
        const ClipVertex<S>& q = in[(i + 1) % n];
        const S dp = sgn * p.x[axis] - h, dq = sgn * q.x[axis] - h;
        const bool p_in = dp <= S(0), q_in = dq <= S(0);
        if (p_in == q_in) {
            if (q_in) {
                ClipVertex<S> v = q;
                v.fresh = false;
                emit(v);
            }
            continue;
        }
        // The crossing point, interpolated from the inside end (so a vertex on the plane is hit exactly).
        const ClipVertex<S>& inside = p_in ? p : q;
        const ClipVertex<S>& outside = p_in ? q : p;
        const S di = p_in ? dp : dq, d_out = p_in ? dq : dp;
        ClipVertex<S> c;
        c.x = inside.x + (outside.x - inside.x) * (di / (di - d_out));
        c.fresh = true;
        if (p.side < 0) {  // the edge p -> q is an incident box edge
            c.ref = ref_edge;
            c.inc = p.edge;
        } else if (f.side_axis[p.side] != axis) {  // a piece along another side plane: a face corner
            int corner[3];
            corner[f.axis] = f.sign;
            corner[axis] = f.side_sign[k];
            corner[f.side_axis[p.side]] = f.side_sign[p.side];
            c.ref = box_vertex(corner);
            c.inc = inc_face;
        } else {  // along the opposite side plane (a face of zero width): the edge on this plane
            c.ref = ref_edge;
            c.inc = inc_face;
        }
        if (p_in) {  // leaving: the output goes on along plane k
            c.side = k;
            emit(c);
        } else {  // entering: the output goes on along the edge p -> q, then q
            c.side = p.side;
            c.edge = p.edge;
            emit(c);
            ClipVertex<S> v = q;
            v.fresh = false;
            emit(v);
        }
    }
    // Merge neighbours at the same position: the older vertex's features, the later one's leaving edge.
    int merged = 0;
    for (int i = 0; i < count; ++i) {
        if (merged > 0 && out[merged - 1].x == out[i].x) {
            ClipVertex<S>& prev = out[merged - 1];
            if (prev.fresh && !out[i].fresh) {
                prev.ref = out[i].ref;
                prev.inc = out[i].inc;
            }
            prev.side = out[i].side;
            prev.edge = out[i].edge;
            prev.fresh = prev.fresh && out[i].fresh;
            continue;
        }
        out[merged++] = out[i];
    }
    if (merged > 1 && out[merged - 1].x == out[0].x) {
        ClipVertex<S>& last = out[merged - 1];
        if (out[0].fresh && !last.fresh) {
            out[0].ref = last.ref;
            out[0].inc = last.inc;
        }
        out[0].fresh = out[0].fresh && last.fresh;
        --merged;  // the first vertex keeps its own leaving edge
    }
    return merged;
}

/// A box face contact: the reference box's face `axis` (outward sign towards the other box's
/// centre c) against the incident box (half extents hi, centre c and axes Ri in the reference
/// box's frame). The incident face (the face whose normal is most anti-parallel to the reference
/// normal) is clipped to the reference face's 4 side planes; each vertex with
/// s = sign x[axis] - href[axis] <= speculative becomes a point midway, x - n_ref s/2; more than 4
/// are reduced. Written into m with n from A to B: ref_is_a says which box A is.
template <class S>
void box_face_contact(Manifold<S, 3>& m, const Vec<S, 3>& href, const Vec<S, 3>& hi, const Vec<S, 3>& c,
                      const Eigen::Matrix<S, 3, 3>& Ri, int axis, const Pose<S, 3>& pref,
                      const Eigen::Matrix<S, 3, 3>& Rref, bool ref_is_a, const Pose<S, 3>& pa, const Pose<S, 3>& pb,
                      S speculative) noexcept
{
    using std::abs;
    using V = Vec<S, 3>;
    RefFace f;
    f.axis = axis;
    f.sign = sign_of(c[axis]);
    const int b = (axis + 1) % 3, d = (axis + 2) % 3;
    f.side_axis[0] = b, f.side_sign[0] = 1;
    f.side_axis[1] = b, f.side_sign[1] = -1;
    f.side_axis[2] = d, f.side_sign[2] = 1;
    f.side_axis[3] = d, f.side_sign[3] = -1;
    const std::uint32_t ref_face = box_face(axis, f.sign);

    // Incident face: outward normal tau Ri e_k with sign * tau * Ri(axis, k) most negative.
    int k = 0;
    for (int j = 1; j < 3; ++j)
        if (abs(Ri(axis, j)) > abs(Ri(axis, k))) k = j;
    const int tau = S(f.sign) * Ri(axis, k) > S(0) ? -1 : 1;
    const std::uint32_t inc_face = box_face(k, tau);
    const int u1 = (k + 1) % 3, u2 = (k + 2) % 3;

    constexpr int cap = 16;
    ClipVertex<S> buf[2][cap];
    int n = 4;
    const int s1[4] = {1, -1, -1, 1}, s2[4] = {1, 1, -1, -1};  // around the face: u1 flips, then u2, ...
    for (int v = 0; v < 4; ++v) {
        int sg[3];
        sg[k] = tau;
        sg[u1] = s1[v];
        sg[u2] = s2[v];
        ClipVertex<S>& cv = buf[0][v];
        cv.x = c + Ri * V(S(sg[0]) * hi[0], S(sg[1]) * hi[1], S(sg[2]) * hi[2]);
        cv.ref = ref_face;
        cv.inc = box_vertex(sg);
        cv.side = -1;
        cv.edge = box_edge(v % 2 == 0 ? u1 : u2, sg);  // the edge to the next vertex
    }
    int cur = 0;
    for (int side = 0; side < 4 && n > 0; ++side) {
        n = clip_to_side(buf[cur], n, buf[1 - cur], cap, f, side, href[f.side_axis[side]], inc_face);
        cur = 1 - cur;
    }

    // Points within reach, without repeats (by position or by features).
    V x[cap];
    S s[cap];
    std::uint32_t feature[cap];
    int count = 0;
    const V n_ref = S(f.sign) * V::Unit(axis);
    for (int i = 0; i < n; ++i) {
        const ClipVertex<S>& cv = buf[cur][i];
        const S sep = S(f.sign) * cv.x[axis] - href[axis];
        if (!(sep <= speculative)) continue;
        const std::uint32_t id = ref_is_a ? make_feature(cv.ref, cv.inc) : make_feature(cv.inc, cv.ref);
        bool repeat = false;
        for (int j = 0; j < count && !repeat; ++j) repeat = feature[j] == id || x[j] == cv.x;
        if (repeat) continue;
        x[count] = cv.x;
        s[count] = sep;
        feature[count] = id;
        ++count;
    }
    int keep[4];
    const int kept = reduce_to_four(x, s, count, n_ref, keep);
    const V n_world = Rref * n_ref;
    m.n = ref_is_a ? n_world : V(-n_world);
    for (int i = 0; i < kept; ++i) {
        const int j = keep[i];
        const V mid = x[j] - n_ref * (s[j] / S(2));
        add_point<S>(m, pref.p + Rref * mid, pa, pb, s[j], feature[j]);
    }
}

/// Parameter t in [0, 1] of the point of the segment p + t d closest to the box |x_i| <= h_i, and
/// its squared distance. The squared distance f(t) = sum over the axes outside the box of
/// (sigma_i (p_i + t d_i) - h_i)^2 is convex and piecewise quadratic, with pieces between the
/// parameters where the segment crosses a plane x_i = +-h_i; on a piece f'(t) = 0 at
///   t = sum d_i (sigma_i h_i - p_i) / sum d_i^2   (over the axes outside),
/// clamped to the piece (its middle where f is constant there). The least over the pieces wins.
template <class S>
S closest_segment_box(const Vec<S, 3>& p, const Vec<S, 3>& d, const Vec<S, 3>& h, S& t_best) noexcept
{
    using std::abs;
    S ts[8];
    int n = 0;
    ts[n++] = S(0);
    ts[n++] = S(1);
    for (int i = 0; i < 3; ++i) {
        if (d[i] == S(0)) continue;
        for (int sg = -1; sg <= 1; sg += 2) {
            const S tb = (S(sg) * h[i] - p[i]) / d[i];
            if (tb > S(0) && tb < S(1)) ts[n++] = tb;
        }
    }
    for (int i = 1; i < n; ++i)  // insertion sort: at most 8
        for (int j = i; j > 0 && ts[j] < ts[j - 1]; --j) {
            const S tmp = ts[j];
            ts[j] = ts[j - 1];
            ts[j - 1] = tmp;
        }
    const auto dist2 = [&](S t) {
        S sum(0);
        for (int i = 0; i < 3; ++i) {
            const S e = abs(p[i] + t * d[i]) - h[i];
            if (e > S(0)) sum += e * e;
        }
        return sum;
    };
    S best = std::numeric_limits<S>::max();
    t_best = S(0);
    for (int k = 0; k + 1 < n; ++k) {
        const S t0 = ts[k], t1 = ts[k + 1];
        const S mid = (t0 + t1) / S(2);
        S num(0), den(0);
        for (int i = 0; i < 3; ++i) {
            const S xi = p[i] + mid * d[i];
            if (xi > h[i]) num += d[i] * (h[i] - p[i]);
            else if (xi < -h[i]) num += d[i] * (-h[i] - p[i]);
            else continue;
            den += d[i] * d[i];
        }
        S t = mid;
        if (den > S(0)) {
            t = num / den;
            if (!(t > t0)) t = t0;
            if (t > t1) t = t1;
        }
        const S f = dist2(t);
        if (f < best) best = f, t_best = t;
    }
    return best;
}

/// Clips the segment p + t d, t in [lo, hi], to the prism over a box face: |x_j| <= h_j for the two
/// axes j != axis. Each bound sigma (p_j + t d_j) <= h_j cuts t from above (sigma d_j > 0) or below
/// (sigma d_j < 0). lo_cut / hi_cut receive the plane (axis j, sign sigma) that cut each end, or
/// axis -1 when it is the segment's own end. False when nothing is left.
template <class S>
bool clip_segment_to_prism(const Vec<S, 3>& p, const Vec<S, 3>& d, const Vec<S, 3>& h, int axis, S& lo, S& hi,
                           int lo_cut[2], int hi_cut[2]) noexcept
{
    lo = S(0);
    hi = S(1);
    lo_cut[0] = hi_cut[0] = -1;
    lo_cut[1] = hi_cut[1] = 0;
    for (int j = 0; j < 3; ++j) {
        if (j == axis) continue;
        for (int sg = -1; sg <= 1; sg += 2) {
            const S rate = S(sg) * d[j], room = h[j] - S(sg) * p[j];
            if (rate == S(0)) {
                if (room < S(0)) return false;
                continue;
            }
            const S t = room / rate;
            if (rate > S(0)) {
                if (t < hi) hi = t, hi_cut[0] = j, hi_cut[1] = sg;
            } else if (t > lo) {
                lo = t, lo_cut[0] = j, lo_cut[1] = sg;
            }
        }
    }
    return lo <= hi;
}

/// Box A (half extents h) against a capsule segment p + t d (radius r, box frame) lying over the
/// box's face (axis, sign): the segment clipped to the prism over the face; each end with
/// s = sign x[axis] - h[axis] - r <= speculative becomes a point midway, x - n (r + s/2),
/// n = sign e_axis. Ends cut by a side plane carry (that side's edge, capsule side); the segment's
/// own ends (face, cap). Returns the number of points written (0 when nothing is within reach).
template <class S>
int box_capsule_face(Manifold<S, 3>& m, const Vec<S, 3>& h, const Vec<S, 3>& p, const Vec<S, 3>& d, S r, int axis,
                     int sign, const Pose<S, 3>& pa, const Eigen::Matrix<S, 3, 3>& RA, const Pose<S, 3>& pb,
                     S speculative) noexcept
{
    using V = Vec<S, 3>;
    S lo, hi;
    int lo_cut[2], hi_cut[2];
    if (!clip_segment_to_prism(p, d, h, axis, lo, hi, lo_cut, hi_cut)) return 0;
    const V n = S(sign) * V::Unit(axis);
    const auto feature_of = [&](const int cut[2], std::uint32_t own_end) {
        if (cut[0] < 0) return make_feature(box_face(axis, sign), own_end);
        int sg[3];
        sg[axis] = sign;
        sg[cut[0]] = cut[1];
        return make_feature(box_edge(3 - axis - cut[0], sg), capsule_side);
    };
    const V x0 = p + lo * d, x1 = p + hi * d;
    const S s0 = S(sign) * x0[axis] - h[axis] - r, s1 = S(sign) * x1[axis] - h[axis] - r;
    int added = 0;
    if (s0 <= speculative) {
        add_point<S>(m, pa.p + RA * V(x0 - n * (r + s0 / S(2))), pa, pb, s0, feature_of(lo_cut, capsule_end1));
        ++added;
    }
    if (s1 <= speculative && !(x1 == x0 && added > 0)) {
        add_point<S>(m, pa.p + RA * V(x1 - n * (r + s1 / S(2))), pa, pb, s1, feature_of(hi_cut, capsule_end2));
        ++added;
    }
    if (added > 0) m.n = RA * n;
    return added;
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Contacts

/// Box A against box B by separating axes, in A's frame (R = RA^T RB holds B's axes, t = RA^T
/// (pB - pA) B's centre). Along a unit axis u the boxes are apart by
///   s(u) = |u.t| - sum_i hA_i |u_i| - sum_j hB_j |(R^T u)_j|
/// over the 3 face normals of A, the 3 of B and the 9 cross products e_i x R e_j (skipped for
/// edges within a sine of 1e-3 of parallel). Any s(u) > speculative: no contact. The axis with the
/// largest s wins, A's faces preferred, then B's, then edge pairs, each later kind only when
/// clearly better (see the file comment), so resting boxes keep their reference face.
///   face axis   reference face: the face of that axis towards the other box; incident face: the
///               other box's face most anti-parallel to it, clipped (Sutherland-Hodgman) to the
///               reference face's 4 side planes; vertices with s <= speculative (s: height above
///               the reference face) become points midway, reduced to 4 (the deepest, then the
///               widest area). Features: an incident vertex (reference face, vertex); an incident
///               edge crossing a side plane (reference edge, incident edge); a reference face
///               corner inside the incident face (reference vertex, incident face).
///   edge pair   the edge of A farthest along u and the edge of B farthest along -u; one point
///               midway between their closest points, s = (xB - xA).u; features (edge, edge).
///               Also the fallback when a face axis wins but its clipped face keeps no point.
/// n runs from A to B along the winning axis. Coincident centres, flat boxes (zero extents) and
/// parallel edges give finite results.
template <class S>
Manifold<S, 3> collide_boxes(const Box<S>& a, const Pose<S, 3>& pa, const Box<S>& b, const Pose<S, 3>& pb,
                             detail::same_t<S> speculative = speculative_distance<S>) noexcept
{
    using std::abs;
    using V = Vec<S, 3>;
    using M = Eigen::Matrix<S, 3, 3>;
    IMPULSE_ASSERT(!(a.half_extents.minCoeff() < S(0)) && !(b.half_extents.minCoeff() < S(0)),
                   "half extents must be non-negative");
    Manifold<S, 3> m;
    const M RA = pa.q.toRotationMatrix(), RB = pb.q.toRotationMatrix();
    const M R = RA.transpose() * RB;  // B's axes in A's frame (columns)
    const M absR = R.cwiseAbs();
    const V t = RA.transpose() * (pb.p - pa.p);  // B's centre in A's frame
    const V& hA = a.half_extents;
    const V& hB = b.half_extents;

    S face_a = std::numeric_limits<S>::lowest(), face_b = face_a, edge = face_a;
    int ia = 0, ib = 0, ei = -1, ej = -1;
    V edge_u = V::UnitZ();
    for (int i = 0; i < 3; ++i) {  // A's faces: u = e_i
        const S s = abs(t[i]) - hA[i] - hB.dot(absR.row(i).transpose());
        if (!(s <= speculative)) return m;
        if (s > face_a) face_a = s, ia = i;
    }
    for (int j = 0; j < 3; ++j) {  // B's faces: u = R e_j
        const S s = abs(t.dot(R.col(j))) - hA.dot(absR.col(j)) - hB[j];
        if (!(s <= speculative)) return m;
        if (s > face_b) face_b = s, ib = j;
    }
    for (int i = 0; i < 3; ++i) {  // edge pairs: u = e_i x R e_j, normalised
        for (int j = 0; j < 3; ++j) {
            const V u = V::Unit(i).cross(V(R.col(j)));
            const S len = u.norm();  // the sine of the angle between the edges
            if (!(len > detail::edge_parallel_sine<S>)) continue;
            const V un = u / len;
            const S s = abs(un.dot(t)) - hA.dot(un.cwiseAbs()) - hB.dot(V(R.transpose() * un).cwiseAbs());
            if (!(s <= speculative)) return m;
            if (s > edge) edge = s, ei = i, ej = j, edge_u = un;
        }
    }

    const bool use_b = detail::clearly_better(face_b, face_a, detail::face_relative<S>);
    const bool use_edge =
        ei >= 0 && detail::clearly_better(edge, face_a > face_b ? face_a : face_b, detail::edge_relative<S>);
    if (!use_edge) {
        if (!use_b) {
            detail::box_face_contact<S>(m, hA, hB, t, R, ia, pa, RA, true, pa, pb, speculative);
        } else {
            const M Rt = R.transpose();  // A's axes in B's frame
            detail::box_face_contact<S>(m, hB, hA, V(-(Rt * t)), Rt, ib, pb, RB, false, pa, pb, speculative);
        }
        // A face whose clipped incident face keeps nothing within reach (the other box reaches
        // it only beyond its sides) falls back to the best edge pair.
        if (m.count > 0 || ei < 0) return m;
    }

    // Edge pair: the edge of A farthest along u, the edge of B farthest along -u.
    const V u = edge_u.dot(t) < S(0) ? V(-edge_u) : edge_u;
    const V uB = R.transpose() * u;
    int sa[3], sb[3];
    for (int k = 0; k < 3; ++k) {
        sa[k] = detail::sign_of(u[k]);
        sb[k] = -detail::sign_of(uB[k]);
    }
    V ca, cb;
    for (int k = 0; k < 3; ++k) {
        ca[k] = k == ei ? S(0) : S(sa[k]) * hA[k];
        cb[k] = k == ej ? S(0) : S(sb[k]) * hB[k];
    }
    const V da = hA[ei] * V::Unit(ei);           // half of A's edge
    const V db = hB[ej] * V(R.col(ej));          // half of B's edge, in A's frame
    const V p1 = ca - da, p2 = t + R * cb - db;  // the edges' first ends
    S sp, tp;
    detail::closest_segment_params<S>(p1, V(S(2) * da), p2, V(S(2) * db), sp, tp);
    const V xa = p1 + S(2) * sp * da, xb = p2 + S(2) * tp * db;
    const S s = (xb - xa).dot(u);
    if (!(s <= speculative)) return m;
    m.n = RA * u;
    detail::add_point<S>(m, pa.apply(V((xa + xb) / S(2))), pa, pb, s,
                         make_feature(detail::box_edge(ei, sa), detail::box_edge(ej, sb)));
    return m;
}

/// Box A against sphere B: the sphere's centre c in A's frame and the box point q nearest to it
/// (c clamped to the box).
///   outside   n = (c - q) / |c - q|,  s = |c - q| - r;  feature: the face, edge or vertex holding q
///   inside    (c in the box) the nearest face i: n = sign(c_i) e_i,  s = (|c_i| - h_i) - r
///   point     c - n (r + s/2), midway between the box and the sphere's surface
/// Reported when s <= speculative. A centre at the box's centre takes the face +x.
template <class S>
Manifold<S, 3> collide_box_sphere(const Box<S>& a, const Pose<S, 3>& pa, const Sphere<S, 3>& b,
                                  const Pose<S, 3>& pb, detail::same_t<S> speculative = speculative_distance<S>) noexcept
{
    using std::abs;
    using std::sqrt;
    using V = Vec<S, 3>;
    IMPULSE_ASSERT(!(a.half_extents.minCoeff() < S(0)) && !(b.radius < S(0)), "sizes must be non-negative");
    Manifold<S, 3> m;
    const V& h = a.half_extents;
    const V c = pa.inverse_apply(pb.apply(b.center));
    const detail::BoxRegion<S> region = detail::box_region(c, h);
    const V d = c - region.q;
    const S d2 = d.squaredNorm();
    V n;
    S s;
    std::uint32_t fa;
    if (region.outside > 0 && d2 >= std::numeric_limits<S>::min()) {
        const S dist = sqrt(d2);
        n = d / dist;
        s = dist - b.radius;
        fa = region.feature;
    } else {
        int i = 0;
        for (int k = 1; k < 3; ++k)
            if (h[k] - abs(c[k]) < h[i] - abs(c[i])) i = k;
        const int sign = detail::sign_of(c[i]);
        n = S(sign) * V::Unit(i);
        s = abs(c[i]) - h[i] - b.radius;
        fa = detail::box_face(i, sign);
    }
    if (!(s <= speculative)) return m;
    m.n = pa.rotate(n);
    detail::add_point<S>(m, pa.apply(V(c - n * (b.radius + s / S(2)))), pa, pb, s, make_feature(fa, 0));
    return m;
}

/// Plane A against box B: each corner x of B (corners of a flat box that coincide counted once)
/// lies at s = n.x - (offset + n.pA) above the plane (n = RA normal); the corners with
/// s <= speculative, the deepest 4 of them (ties by vertex id), become points midway, x - n s/2.
/// Features (0, vertex).
template <class S>
Manifold<S, 3> collide_plane_box(const Plane<S, 3>& a, const Pose<S, 3>& pa, const Box<S>& b, const Pose<S, 3>& pb,
                                 detail::same_t<S> speculative = speculative_distance<S>) noexcept
{
    using V = Vec<S, 3>;
    IMPULSE_ASSERT(is_unit(a.normal), "the plane normal must be a unit vector");
    IMPULSE_ASSERT(!(b.half_extents.minCoeff() < S(0)), "half extents must be non-negative");
    Manifold<S, 3> m;
    const V n = pa.rotate(a.normal);
    const S level = a.offset + n.dot(pa.p);
    const Eigen::Matrix<S, 3, 3> RB = pb.q.toRotationMatrix();
    const V& h = b.half_extents;
    V x[8];
    S s[8];
    std::uint32_t id[8];
    int count = 0;
    for (int v = 0; v < 8; ++v) {
        int sg[3];
        bool repeat = false;
        for (int k = 0; k < 3; ++k) {
            sg[k] = (v >> k) & 1 ? 1 : -1;
            repeat = repeat || (sg[k] > 0 && h[k] == S(0));  // the same point as its -k twin
        }
        if (repeat) continue;
        const V xv = pb.p + RB * V(S(sg[0]) * h[0], S(sg[1]) * h[1], S(sg[2]) * h[2]);
        const S sv = n.dot(xv) - level;
        if (!(sv <= speculative)) continue;
        // insertion by depth (stable: equal depths keep the vertex order)
        int j = count++;
        for (; j > 0 && s[j - 1] > sv; --j) x[j] = x[j - 1], s[j] = s[j - 1], id[j] = id[j - 1];
        x[j] = xv, s[j] = sv, id[j] = detail::box_vertex(sg);
    }
    if (count > 0) m.n = n;
    for (int i = 0; i < count && i < 4; ++i)
        detail::add_point<S>(m, V(x[i] - n * (s[i] / S(2))), pa, pb, s[i], make_feature(0, id[i]));
    return m;
}

/// Capsule A against capsule B: the closest points xA, xB of the two segments,
///   n = (xB - xA) / |xB - xA|,  s = |xB - xA| - rA - rB,  point xA + n (rA + s/2).
/// Segments that cross (both closest points inside them) take n along dA x dB, exact however
/// close they pass; touching axes without a direction take dA x dB, or a perpendicular of A's
/// segment (towards B where it can), or +x for two points. Side by side (the segments within a
/// sine of 0.02 of parallel, their projections overlapping): two points, at the two ends of the
/// overlap along A's segment, each paired with the closest point of B's segment and measured
/// along the same n: s_k = (xB_k - xA_k).n - rA - rB, both kept when both are within
/// `speculative` (else the one closest point). Features: (the cap or side of A, of B) at the
/// points' parameters; side by side, the caps nearest each overlap end.
template <class S>
Manifold<S, 3> collide_capsules(const Capsule<S>& a, const Pose<S, 3>& pa, const Capsule<S>& b, const Pose<S, 3>& pb,
                                detail::same_t<S> speculative = speculative_distance<S>) noexcept
{
    using std::sqrt;
    using V = Vec<S, 3>;
    IMPULSE_ASSERT(!(a.radius < S(0)) && !(b.radius < S(0)), "radii must be non-negative");
    Manifold<S, 3> m;
    const S tiny = std::numeric_limits<S>::min();
    const V a1 = pa.apply(a.center1), da = pa.apply(a.center2) - a1;
    const V b1 = pb.apply(b.center1), db = pb.apply(b.center2) - b1;
    S sa, tb;
    detail::closest_segment_params<S>(a1, da, b1, db, sa, tb);
    const V xa = a1 + sa * da, xb = b1 + tb * db;
    const V dv = xb - xa;
    const S dist2 = dv.squaredNorm();
    const S reach = a.radius + b.radius + speculative;
    if (!(dist2 <= reach * reach)) return m;
    const S dist = sqrt(dist2);

    const S la2 = da.squaredNorm(), lb2 = db.squaredNorm();
    const V axb = da.cross(db);
    const S sin2 = axb.squaredNorm();  // |dA x dB|^2 = sin^2 |dA|^2 |dB|^2
    const S par = detail::capsule_parallel_sine<S>;
    const bool lines = la2 >= tiny && lb2 >= tiny;
    const bool parallel = lines && sin2 <= par * par * la2 * lb2;
    // the direction from A to B between the segments' midpoints, to orient the fallbacks
    const V mid = (b1 + db / S(2)) - (a1 + da / S(2));
    V n;
    if (lines && !parallel && sa > S(0) && sa < S(1) && tb > S(0) && tb < S(1)) {
        n = detail::unit_or<S>(axb, V::UnitX());  // crossing: xB - xA is along dA x dB
        const S side = dv.dot(n) != S(0) ? dv.dot(n) : mid.dot(n);
        if (side < S(0)) n = -n;
    } else if (dist2 >= tiny) {
        n = dv / dist;
    } else if (lines && !parallel) {
        n = detail::unit_or<S>(axb, V::UnitX());
        if (mid.dot(n) < S(0)) n = -n;
    } else if (la2 >= tiny || lb2 >= tiny) {
        const V& axis = la2 >= tiny ? da : db;
        const V across = mid - axis * (mid.dot(axis) / axis.squaredNorm());
        n = detail::unit_or<S>(across, detail::any_perpendicular<S>(axis));
    } else {
        n = detail::unit_or<S>(mid, V::UnitX());
    }
    m.n = n;

    if (parallel) {
        // B's ends projected on A's segment (parameters along it), and the overlap of the two.
        const S u1 = (b1 - a1).dot(da) / la2, u2 = (b1 + db - a1).dot(da) / la2;
        const bool same_way = da.dot(db) >= S(0);
        const S lo = u1 < u2 ? u1 : u2, hi = u1 < u2 ? u2 : u1;
        const S ulo = lo > S(0) ? lo : S(0), uhi = hi < S(1) ? hi : S(1);
        if (ulo < uhi) {
            const S ends[2] = {ulo, uhi};
            const std::uint32_t ids[2] = {
                make_feature(detail::capsule_end1, same_way ? detail::capsule_end1 : detail::capsule_end2),
                make_feature(detail::capsule_end2, same_way ? detail::capsule_end2 : detail::capsule_end1)};
            V x[2];
            S s[2];
            bool both = true;
            for (int k = 0; k < 2; ++k) {
                const V pk = a1 + ends[k] * da;
                const V qk = b1 + detail::clamp01((pk - b1).dot(db) / lb2) * db;
                s[k] = (qk - pk).dot(n) - a.radius - b.radius;
                x[k] = pk + n * (a.radius + s[k] / S(2));
                both = both && s[k] <= speculative;
            }
            if (both) {
                for (int k = 0; k < 2; ++k) detail::add_point<S>(m, x[k], pa, pb, s[k], ids[k]);
                return m;
            }
        }
    }
    const S s = dist - a.radius - b.radius;
    detail::add_point<S>(m, V(xa + n * (a.radius + s / S(2))), pa, pb, s,
                         make_feature(detail::capsule_feature(sa), detail::capsule_feature(tb)));
    return m;
}

/// Capsule A against sphere B: x the point of A's segment closest to the centre c,
///   n = (c - x) / |c - x|,  s = |c - x| - rA - rB,  point x + n (rA + s/2).
/// A centre on the segment has no direction: n is a perpendicular of the segment (+x for a
/// capsule of zero length). Features (cap or side of A, 0).
template <class S>
Manifold<S, 3> collide_capsule_sphere(const Capsule<S>& a, const Pose<S, 3>& pa, const Sphere<S, 3>& b,
                                      const Pose<S, 3>& pb,
                                      detail::same_t<S> speculative = speculative_distance<S>) noexcept
{
    using std::sqrt;
    using V = Vec<S, 3>;
    IMPULSE_ASSERT(!(a.radius < S(0)) && !(b.radius < S(0)), "radii must be non-negative");
    Manifold<S, 3> m;
    const V a1 = pa.apply(a.center1), da = pa.apply(a.center2) - a1;
    const V c = pb.apply(b.center);
    const S la2 = da.squaredNorm();
    const S u = la2 >= std::numeric_limits<S>::min() ? detail::clamp01((c - a1).dot(da) / la2) : S(0);
    const V x = a1 + u * da;
    const V dv = c - x;
    const S dist2 = dv.squaredNorm();
    const S reach = a.radius + b.radius + speculative;
    if (!(dist2 <= reach * reach)) return m;
    const S dist = sqrt(dist2);
    m.n = dist2 >= std::numeric_limits<S>::min() ? V(dv / dist) : detail::any_perpendicular<S>(da);
    const S s = dist - a.radius - b.radius;
    detail::add_point<S>(m, V(x + m.n * (a.radius + s / S(2))), pa, pb, s,
                         make_feature(detail::capsule_feature(u), 0));
    return m;
}

/// Box A against capsule B, in A's frame (the segment p + t d, radius r).
///   apart     (the segment more than 0.5 mm from the box) the closest points: t* minimising the
///             distance to the box, q the box point nearest to x = p + t* d,
///             n = (x - q) / |x - q|,  s = |x - q| - r. When q lies on a face (x outside one
///             face plane only), the segment is clipped to the prism over that face and each
///             end with s_k = sign x_k[i] - h_i - r <= speculative is a point (the capsule lying
///             on the face: 2 points); otherwise one point x - n (r + s/2).
///   touching  (closer, or inside) separating axes: the 3 face normals and e_i x d,
///             s(u) = |u.c| - sum h_i |u_i| - |u.d|/2 - r (c the segment's midpoint); a face axis
///             clips the segment as above, an edge axis (only when clearly better) gives one point
///             midway between the closest points of the box's edge farthest along u and the segment.
/// Features: (the box's face, edge or vertex; the capsule's cap or side); a clipped end carries
/// (the box edge whose side plane cut it, capsule side).
template <class S>
Manifold<S, 3> collide_box_capsule(const Box<S>& a, const Pose<S, 3>& pa, const Capsule<S>& b, const Pose<S, 3>& pb,
                                   detail::same_t<S> speculative = speculative_distance<S>) noexcept
{
    using std::abs;
    using std::sqrt;
    using V = Vec<S, 3>;
    IMPULSE_ASSERT(!(a.half_extents.minCoeff() < S(0)) && !(b.radius < S(0)), "sizes must be non-negative");
    Manifold<S, 3> m;
    const Eigen::Matrix<S, 3, 3> RA = pa.q.toRotationMatrix();
    const V& h = a.half_extents;
    const S r = b.radius;
    const V p = pa.inverse_apply(pb.apply(b.center1));
    const V d = pa.inverse_apply(pb.apply(b.center2)) - p;
    S t;
    const S dist2 = detail::closest_segment_box(p, d, h, t);
    const S reach = r + speculative;
    if (!(dist2 <= reach * reach)) return m;
    const S dist = sqrt(dist2);

    if (dist > detail::capsule_touch_distance<S>) {
        const V x = p + t * d;
        const detail::BoxRegion<S> region = detail::box_region(x, h);
        if (region.outside == 1 && detail::box_capsule_face<S>(m, h, p, d, r, region.face_axis,
                                                               region.sg[region.face_axis], pa, RA, pb,
                                                               speculative) > 0)
            return m;
        const V n = detail::unit_or<S>(V(x - region.q), V::UnitX());
        const S s = dist - r;
        m.n = RA * n;
        detail::add_point<S>(m, pa.p + RA * V(x - n * (r + s / S(2))), pa, pb, s,
                             make_feature(region.feature, detail::capsule_feature(t)));
        return m;
    }

    // Touching or inside: separating axes.
    const V c = p + d / S(2);
    S face = std::numeric_limits<S>::lowest(), edge = face;
    int fi = 0, ei = -1;
    V edge_u = V::UnitZ();
    for (int i = 0; i < 3; ++i) {
        const S s = abs(c[i]) - h[i] - abs(d[i]) / S(2) - r;
        if (s > face) face = s, fi = i;
    }
    const S len_d = d.norm();
    for (int i = 0; i < 3; ++i) {
        const V u = V::Unit(i).cross(d);
        const S len = u.norm();
        if (!(len > detail::edge_parallel_sine<S> * len_d)) continue;
        const V un = u / len;
        const S s = abs(un.dot(c)) - h.dot(un.cwiseAbs()) - r;  // u is perpendicular to d
        if (s > edge) edge = s, ei = i, edge_u = un;
    }
    if (!(face <= speculative) || !(edge <= speculative)) return m;
    if (ei >= 0 && detail::clearly_better(edge, face, detail::edge_relative<S>)) {
        const V u = edge_u.dot(c) < S(0) ? V(-edge_u) : edge_u;
        int sg[3];
        for (int k = 0; k < 3; ++k) sg[k] = detail::sign_of(u[k]);
        V e0;
        for (int k = 0; k < 3; ++k) e0[k] = k == ei ? -h[k] : S(sg[k]) * h[k];
        const V de = S(2) * h[ei] * V::Unit(ei);
        S se, tc;
        detail::closest_segment_params<S>(e0, de, p, d, se, tc);
        const V xe = e0 + se * de, xc = p + tc * d;
        const S s = (xc - xe).dot(u) - r;
        if (!(s <= speculative)) return m;
        m.n = RA * u;
        detail::add_point<S>(m, pa.p + RA * V(xc - u * (r + s / S(2))), pa, pb, s,
                             make_feature(detail::box_edge(ei, sg), detail::capsule_feature(tc)));
        return m;
    }
    const int sign = detail::sign_of(c[fi]);
    if (detail::box_capsule_face<S>(m, h, p, d, r, fi, sign, pa, RA, pb, speculative) > 0) return m;
    // The segment misses the prism over that face (it only grazes an edge): the deepest end of the
    // segment along the face normal, as one point.
    const V n = S(sign) * V::Unit(fi);
    const S t_end = S(sign) * d[fi] <= S(0) ? S(1) : S(0);
    const V x = p + t_end * d;
    const S s = S(sign) * x[fi] - h[fi] - r;
    if (!(s <= speculative)) return m;
    m.n = RA * n;
    detail::add_point<S>(m, pa.p + RA * V(x - n * (r + s / S(2))), pa, pb, s,
                         make_feature(detail::box_face(fi, sign), detail::capsule_feature(t_end)));
    return m;
}

/// Plane A against capsule B: each end e of the segment lies at s = n.e - (offset + n.pA) - r
/// above the plane (n = RA normal); ends with s <= speculative become points midway,
/// e - n (r + s/2): both ends of a lying capsule, the lower end of a standing one. Features
/// (0, cap); a capsule of zero length gives one point.
template <class S>
Manifold<S, 3> collide_plane_capsule(const Plane<S, 3>& a, const Pose<S, 3>& pa, const Capsule<S>& b,
                                     const Pose<S, 3>& pb,
                                     detail::same_t<S> speculative = speculative_distance<S>) noexcept
{
    using V = Vec<S, 3>;
    IMPULSE_ASSERT(is_unit(a.normal), "the plane normal must be a unit vector");
    IMPULSE_ASSERT(!(b.radius < S(0)), "radius must be non-negative");
    Manifold<S, 3> m;
    const V n = pa.rotate(a.normal);
    const S level = a.offset + n.dot(pa.p);
    const V ends[2] = {pb.apply(b.center1), pb.apply(b.center2)};
    const std::uint32_t ids[2] = {detail::capsule_end1, detail::capsule_end2};
    for (int k = 0; k < 2; ++k) {
        if (k == 1 && ends[1] == ends[0]) break;
        const S s = n.dot(ends[k]) - level - b.radius;
        if (!(s <= speculative)) continue;
        m.n = n;
        detail::add_point<S>(m, V(ends[k] - n * (b.radius + s / S(2))), pa, pb, s, make_feature(0, ids[k]));
    }
    return m;
}

}  // namespace impulse
