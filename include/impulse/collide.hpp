// SPDX-License-Identifier: MIT
/// \file collide.hpp
/// Contact generation.
///
/// Between shapes placed by poses, as manifolds for the solver (manifold.hpp): each shape is given
/// in its body's coordinates (relative to the centre of mass, along the body's axes) and placed by
/// the body's `Pose`; the result holds the normal from A to B and, per point, the anchors rA, rB,
/// the signed separation (< 0 overlapping) and a feature id. Points up to `speculative` apart are
/// reported too. Functions are named `collide_<A>_<B>` with A the first shape of the order
/// plane < polygon, box < capsule < sphere (circle); `flipped()` turns a result around.
///   any D    collide_spheres, collide_plane_sphere                        (this header)
///   2D       collide_polygons, collide_polygon_circle, collide_plane_polygon   (collide2d.hpp)
///   3D       collide_boxes, collide_box_sphere, collide_box_capsule, collide_capsules,
///            collide_capsule_sphere, collide_plane_box, collide_plane_capsule  (collide3d.hpp)
///
/// Between two spheres or a sphere and a plane in world coordinates, as one `ContactPoint` (the
/// form the single-contact responders take): collide_spheres(cA, rA, cB, rB), collide_sphere_plane.
#pragma once

#include <cmath>
#include <limits>
#include <optional>

#include "config.hpp"
#include "kinematics.hpp"
#include "manifold.hpp"

namespace impulse {

/// A touching pair as a detector reports it.
template <class S, int D>
struct ContactPoint {
    Vec<S, D> n = Vec<S, D>::UnitX();      ///< unit normal from A to B
    S penetration{0};                      ///< overlap depth along n (>= 0 when touching)
    Vec<S, D> point = Vec<S, D>::Zero();   ///< midway between the two surfaces
};

/// Sphere A (centre cA, radius rA) against sphere B. Touching when the centres are at most
/// rA + rB apart (the seed's `distance > radii_sum` is the only miss).
///   n = (cB - cA) / |cB - cA|,   penetration = rA + rB - |cB - cA|,
///   point = cA + n * (rA - penetration/2)  (the middle of the overlap).
/// Coincident centres (or centres so close their distance underflows) have no direction: the
/// normal falls back to +x, deterministically, never NaN.
template <class S, int D>
std::optional<ContactPoint<S, D>> collide_spheres(const Vec<S, D>& cA, detail::same_t<S> rA,
                                                  const Vec<S, D>& cB,
                                                  detail::same_t<S> rB) noexcept
{
    IMPULSE_ASSERT(!(rA < S(0)) && !(rB < S(0)), "radii must be non-negative");
    using std::sqrt;
    const Vec<S, D> d = cB - cA;
    const S dist2 = d.squaredNorm();
    const S reach = rA + rB;
    if (!(dist2 <= reach * reach)) return std::nullopt;
    ContactPoint<S, D> c;
    S dist{0};
    // Below the smallest normal number the square root loses its precision and d/dist may not
    // be unit: treat that as coincident.
    if (dist2 >= std::numeric_limits<S>::min()) {
        dist = sqrt(dist2);
        c.n = d / dist;
    }
    c.penetration = reach - dist;
    c.point = cA + c.n * (rA - c.penetration / S(2));
    return c;
}

/// Sphere B (centre c, radius r) against a plane (body A, usually static): the points x with
/// `normal.x = offset`, solid on the side opposite `normal`. The contact normal is the plane's
/// normal (from the plane, A, towards the sphere, B).
///   distance = normal.c - offset,   penetration = r - distance,
///   point = c - normal * (r - penetration/2)  (the middle of the overlap).
/// Touching when distance <= r; a sphere wholly behind the plane still reports its depth.
template <class S, int D>
std::optional<ContactPoint<S, D>> collide_sphere_plane(const Vec<S, D>& c, detail::same_t<S> r,
                                                       const Vec<S, D>& normal,
                                                       detail::same_t<S> offset) noexcept
{
    IMPULSE_ASSERT(!(r < S(0)), "radius must be non-negative");
    IMPULSE_ASSERT(is_unit(normal), "the plane normal must be a unit vector");
    const S distance = normal.dot(c) - offset;
    if (!(distance <= r)) return std::nullopt;
    ContactPoint<S, D> out;
    out.n = normal;
    out.penetration = r - distance;
    out.point = c - normal * (r - out.penetration / S(2));
    return out;
}

// ---------------------------------------------------------------------------------------------
// Shapes placed by poses, as manifolds

/// A sphere (a circle in 2D) of `radius` around `center`, in body coordinates.
template <class S, int D>
struct Sphere {
    Vec<S, D> center = Vec<S, D>::Zero();  ///< centre in body coordinates
    S radius{0};                           ///< radius, >= 0
};

/// A circle: the 2D sphere.
template <class S>
using Circle = Sphere<S, 2>;

/// A plane: the points x (body coordinates) with `normal.x = offset`, solid on the side opposite
/// `normal` (a floor with normal +y and offset 0 is solid below y = 0).
template <class S, int D>
struct Plane {
    Vec<S, D> normal = Vec<S, D>::UnitY();  ///< unit normal in body axes, pointing out of the solid
    S offset{0};                            ///< normal.x of the plane's points
};

namespace detail {
/// One manifold point at world position `x` between bodies placed at `pa`, `pb`.
template <class S, int D>
ManifoldPoint<S, D> point_at(const Vec<S, D>& x, const Pose<S, D>& pa, const Pose<S, D>& pb, S separation,
                             std::uint32_t feature) noexcept
{
    ManifoldPoint<S, D> mp;
    mp.rA = x - pa.p;
    mp.rB = x - pb.p;
    mp.separation = separation;
    mp.feature = feature;
    return mp;
}
}  // namespace detail

/// Sphere A against sphere B: one point midway between the surfaces on the line of centres.
///   d = cB - cA (world),  n = d / |d|,  s = |d| - rA - rB,  point = cA + n (rA + s/2)
/// Reported when s <= speculative. Coincident centres have no direction: n = +x, never NaN.
template <class S, int D>
Manifold<S, D> collide_spheres(const Sphere<S, D>& a, const Pose<S, D>& pa, const Sphere<S, D>& b,
                               const Pose<S, D>& pb, detail::same_t<S> speculative = speculative_distance<S>) noexcept
{
    IMPULSE_ASSERT(!(a.radius < S(0)) && !(b.radius < S(0)), "radii must be non-negative");
    using std::sqrt;
    Manifold<S, D> m;
    const Vec<S, D> ca = pa.apply(a.center), cb = pb.apply(b.center);
    const Vec<S, D> d = cb - ca;
    const S dist2 = d.squaredNorm();
    const S reach = a.radius + b.radius + speculative;
    if (!(dist2 <= reach * reach)) return m;
    S dist{0};
    if (dist2 >= std::numeric_limits<S>::min()) {  // below it d/dist may not be unit: coincident
        dist = sqrt(dist2);
        m.n = d / dist;
    }
    const S s = dist - a.radius - b.radius;
    m.count = 1;
    m.points[0] = detail::point_at<S, D>(ca + m.n * (a.radius + s / S(2)), pa, pb, s, 0);
    return m;
}

/// Plane A against sphere B: the normal is the plane's (from the plane towards the sphere), one
/// point midway between the plane and the sphere's nearest surface point.
///   n = RA normal,  distance = n.cB - (offset + n.pA),  s = distance - r,  point = cB - n (r + s/2)
/// Reported when s <= speculative; a sphere wholly behind the plane still reports its depth.
template <class S, int D>
Manifold<S, D> collide_plane_sphere(const Plane<S, D>& a, const Pose<S, D>& pa, const Sphere<S, D>& b,
                                    const Pose<S, D>& pb,
                                    detail::same_t<S> speculative = speculative_distance<S>) noexcept
{
    IMPULSE_ASSERT(!(b.radius < S(0)), "radius must be non-negative");
    IMPULSE_ASSERT(is_unit(a.normal), "the plane normal must be a unit vector");
    Manifold<S, D> m;
    const Vec<S, D> n = pa.rotate(a.normal);
    const Vec<S, D> cb = pb.apply(b.center);
    const S distance = n.dot(cb) - (a.offset + n.dot(pa.p));
    const S s = distance - b.radius;
    if (!(s <= speculative)) return m;
    m.n = n;
    m.count = 1;
    m.points[0] = detail::point_at<S, D>(cb - n * (b.radius + s / S(2)), pa, pb, s, 0);
    return m;
}

}  // namespace impulse
