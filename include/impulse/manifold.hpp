// SPDX-License-Identifier: MIT
/// \file manifold.hpp
/// A contact manifold: where two bodies touch (up to 2 points in 2D, 4 in 3D, all with one normal)
/// and what the solver needs to know about the pair. The collide_ functions (collide.hpp) fill in
/// the geometry; the engine fills in which bodies touch and their coefficients; the solver
/// (solver.hpp) takes an array of them.
///
/// Geometry, per point (the conventions of docs/conventions.md):
///   n            unit normal from A to B, shared by the points
///   rA, rB       the contact point minus A's and B's centres of mass, in world axes (anchors)
///   separation   signed distance of the surfaces along n: < 0 overlapping, > 0 a gap that a
///                speculative point keeps from closing faster than it can within a step
///   feature      an id of the point, unique within the manifold and the same from step to step
///                while the shapes rest on each other, so the solver can start from the point's
///                last impulses (warm starting)
#pragma once

#include <cstdint>

#include "config.hpp"
#include "material.hpp"

namespace impulse {

/// One point of a manifold.
template <class S, int D>
struct ManifoldPoint {
    Vec<S, D> rA = Vec<S, D>::Zero();  ///< contact point minus A's centre of mass (world axes)
    Vec<S, D> rB = Vec<S, D>::Zero();  ///< contact point minus B's centre of mass (world axes)
    S separation{0};                   ///< surface distance along n: < 0 overlap, > 0 gap
    /// Id of the point within its manifold: the low 16 bits name a feature (vertex, edge, face) of
    /// A, the high 16 bits one of B, so that the id read with A and B swapped is the same point
    /// with its halves swapped (`swap_feature`). Unique within a manifold; the same from step to
    /// step while the shapes rest.
    std::uint32_t feature{0};
};

/// The id a feature pair has when A and B trade places: the two 16-bit halves swapped.
constexpr std::uint32_t swap_feature(std::uint32_t feature) noexcept
{
    return (feature >> 16) | (feature << 16);
}

/// A feature id from a feature of A and one of B (each below 65536).
constexpr std::uint32_t make_feature(std::uint32_t of_a, std::uint32_t of_b) noexcept
{
    return (of_a & 0xffffu) | ((of_b & 0xffffu) << 16);
}

/// How far apart two shapes may be for the collide_ functions to still report points (speculative
/// points): 2 cm, Box2D's choice for worlds measured in metres. The solver keeps such a gap from
/// closing faster than it can within a step, so a fast approach stops at the surface.
template <class S>
inline constexpr S speculative_distance = S(0.02);

/// Two bodies in contact: the pair (bodies, key, coefficients, surface motion) and the geometry
/// (normal and points).
template <class S, int D>
struct Manifold {
    static constexpr int max_points = D == 2 ? 2 : 4;  ///< points a manifold can hold

    // The pair: filled in by the engine.
    std::uint32_t a{0};  ///< index of body A in the solver's bodies
    std::uint32_t b{0};  ///< index of body B
    /// Identifies the pair for warm starting: the same pair must have the same key from step to
    /// step, and no two manifolds of a step may share one. 0 (the default): the solver makes one
    /// from the two bodies (see solver.hpp), the same whichever of them is A.
    std::uint64_t key{0};
    Coefficients<S> coefficients;  ///< restitution, friction and restitution threshold of the pair
    /// Rolling resistance, a length: the relative rotation of the bodies is resisted by an angular
    /// impulse of up to `rolling_resistance` times the normal impulse (0: none).
    S rolling_resistance{0};
    /// Surface velocity: friction drives the tangential part of the relative velocity (B's surface
    /// relative to A's, at the points) towards this instead of 0. A conveyor belt as body A whose
    /// surface moves at u carries B along at u: `tangent_velocity = u` (in the tangent plane).
    Vec<S, D> tangent_velocity = Vec<S, D>::Zero();

    // The geometry: filled in by a collide_ function.
    Vec<S, D> n = Vec<S, D>::UnitX();        ///< unit normal from A to B
    int count{0};                            ///< points in use (0: not touching)
    ManifoldPoint<S, D> points[max_points];  ///< the points; the first `count` are used
};

/// The same contact seen from the other body: A and B swapped, so the normal is reversed, the anchors
/// trade places and every feature id has its halves swapped. Use it when a narrow phase reports a
/// pair in the other order than a collide_ function takes it.
template <class S, int D>
Manifold<S, D> flipped(const Manifold<S, D>& m) noexcept
{
    Manifold<S, D> r = m;
    r.a = m.b;
    r.b = m.a;
    r.n = -m.n;
    r.tangent_velocity = -m.tangent_velocity;
    for (int i = 0; i < m.count; ++i) {
        r.points[i].rA = m.points[i].rB;
        r.points[i].rB = m.points[i].rA;
        r.points[i].feature = swap_feature(m.points[i].feature);
    }
    return r;
}

}  // namespace impulse
