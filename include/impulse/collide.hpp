// SPDX-License-Identifier: MIT
/// \file collide.hpp
/// Small contact generation: sphere-sphere (circle-circle in 2D) and sphere-plane. Each returns
/// the contact in the form the responders take: the unit normal from A to B, the penetration
/// depth, and a contact point.
#pragma once

#include <cmath>
#include <limits>
#include <optional>

#include "config.hpp"

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

}  // namespace impulse
