// SPDX-License-Identifier: MIT
/// \file kinematics.hpp
/// The types a body's motion is described with, in 2D and 3D: angular velocity and inertia
/// (`Angular`, `Inertia`), the cross products between them and vectors, and where a body is
/// (`Rot2`, `Pose`): the position of its centre of mass and its orientation.
///
///   2D   angular velocity and inertia are scalars (rotation about the axis out of the plane);
///        orientation is a unit complex number q = (cos a, sin a): rotate(v) = (c vx - s vy, s vx + c vy)
///   3D   angular velocity is a vector, the inverse inertia a symmetric 3x3 tensor in world axes;
///        orientation is a unit quaternion (Eigen::Quaternion): rotate(v) = q v q*
///
/// A pose maps body coordinates (relative to the centre of mass, along the body's own axes) to
/// world coordinates: x_world = p + rotate(x_body). Shapes (collide.hpp) are given in body
/// coordinates and placed by a pose.
#pragma once

#include <cmath>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "config.hpp"

namespace impulse {

/// The rotational types of dimension D: angular velocity and (inverse) inertia.
/// 2D: both scalars (rotation about the axis out of the plane). 3D: a vector and a 3x3 tensor.
template <class S, int D>
struct Rotation;

/// 2D: rotation about the axis out of the plane; angular velocity and inertia are scalars.
template <class S>
struct Rotation<S, 2> {
    using Angular = S;  ///< angular velocity, counter-clockwise positive
    using Inertia = S;  ///< (inverse) moment of inertia about the centre of mass
    /// A body at rest: omega = 0.
    static Angular zero_angular() noexcept { return S(0); }
    /// No rotational inertia term: I^-1 = 0 (a body that cannot be spun).
    static Inertia zero_inertia() noexcept { return S(0); }
};

/// 3D: angular velocity is a vector, the inverse inertia a symmetric 3x3 tensor in world space.
template <class S>
struct Rotation<S, 3> {
    using Angular = Vec<S, 3>;               ///< angular velocity (axis times rate, right-handed)
    using Inertia = Eigen::Matrix<S, 3, 3>;  ///< world-space tensor, symmetric
    /// A body at rest: omega = 0.
    static Angular zero_angular() noexcept { return Angular::Zero(); }
    /// No rotational inertia term: I^-1 = 0 (a body that cannot be spun).
    static Inertia zero_inertia() noexcept { return Inertia::Zero(); }
};

/// Angular velocity type of dimension D: S in 2D, Vec<S, 3> in 3D.
template <class S, int D>
using Angular = typename Rotation<S, D>::Angular;
/// (Inverse) inertia type of dimension D: S in 2D, a 3x3 matrix in 3D.
template <class S, int D>
using Inertia = typename Rotation<S, D>::Inertia;

/// 2D cross product of two vectors: the z component `a.x*b.y - a.y*b.x`.
template <class S>
S cross(const Vec<S, 2>& a, const Vec<S, 2>& b) noexcept
{
    return a.x() * b.y() - a.y() * b.x();
}

/// 2D cross product of an angular velocity (about z) with a vector: `omega*(-r.y, r.x)`.
template <class S>
Vec<S, 2> cross(S omega, const Vec<S, 2>& r) noexcept
{
    return Vec<S, 2>(-omega * r.y(), omega * r.x());
}

/// 3D cross product.
template <class S>
Vec<S, 3> cross(const Vec<S, 3>& a, const Vec<S, 3>& b) noexcept
{
    return a.cross(b);
}

// ---------------------------------------------------------------------------------------------
// Orientation and pose

/// A 2D rotation as the unit complex number (c, s) = (cos a, sin a).
template <class S>
struct Rot2 {
    S c{1};  ///< cos of the angle
    S s{0};  ///< sin of the angle

    constexpr Rot2() noexcept = default;  ///< no rotation
    /// The rotation whose cosine and sine are c and s (the caller keeps c^2 + s^2 = 1).
    constexpr Rot2(S cosine, S sine) noexcept : c(cosine), s(sine) {}
    /// The rotation by `angle` radians, counter-clockwise.
    static Rot2 from_angle(S angle) noexcept
    {
        using std::cos;
        using std::sin;
        return Rot2(cos(angle), sin(angle));
    }
    /// The angle in (-pi, pi].
    S angle() const noexcept
    {
        using std::atan2;
        return atan2(s, c);
    }
    // rotate and operator* write c a - s b as c a + (-s) b: the same bits (IEEE 754 defines x - y
    // as x + (-y), and (-s) b is -(s b) exactly), but GCC 12's vectorizer turns the first form of a
    // complex product into a fused multiply-add-subtract on FMA targets even under
    // -ffp-contract=off, and the two-step results would then differ between builds.
    /// R v
    Vec<S, 2> rotate(const Vec<S, 2>& v) const noexcept
    {
        return Vec<S, 2>(c * v.x() + (-s) * v.y(), s * v.x() + c * v.y());
    }
    /// R^T v
    Vec<S, 2> inverse_rotate(const Vec<S, 2>& v) const noexcept
    {
        return Vec<S, 2>(c * v.x() + s * v.y(), -s * v.x() + c * v.y());
    }
    /// The product R R_o: `o` applied first, then this rotation.
    Rot2 operator*(const Rot2& o) const noexcept { return Rot2(c * o.c + (-s) * o.s, s * o.c + c * o.s); }
    /// R^T
    Rot2 inverse() const noexcept { return Rot2(c, -s); }
    /// The columns of R: the body's x and y axes in world coordinates.
    Eigen::Matrix<S, 2, 2> matrix() const noexcept
    {
        Eigen::Matrix<S, 2, 2> m;
        m << c, -s, s, c;
        return m;
    }
};

/// The orientation type of dimension D: Rot2 in 2D, a unit quaternion in 3D.
template <class S, int D>
struct Orientation;
/// 2D: a unit complex number.
template <class S>
struct Orientation<S, 2> {
    using type = Rot2<S>;  ///< the type
};
/// 3D: a unit quaternion.
template <class S>
struct Orientation<S, 3> {
    using type = Eigen::Quaternion<S>;  ///< the type
};
/// `Rot2<S>` in 2D, `Eigen::Quaternion<S>` in 3D.
template <class S, int D>
using Orientation_t = typename Orientation<S, D>::type;

/// A body's pose: `p` its centre of mass, `q` its orientation (body axes in the world).
template <class S, int D>
struct Pose {
    Vec<S, D> p = Vec<S, D>::Zero();                                   ///< centre of mass, world
    Orientation_t<S, D> q = Orientation_t<S, D>(identity_orientation());  ///< orientation

    /// A direction given in body axes, in world axes: R v.
    Vec<S, D> rotate(const Vec<S, D>& v) const noexcept
    {
        if constexpr (D == 2) return q.rotate(v);
        else return q * v;
    }
    /// A direction given in world axes, in body axes: R^T v.
    Vec<S, D> inverse_rotate(const Vec<S, D>& v) const noexcept
    {
        if constexpr (D == 2) return q.inverse_rotate(v);
        else return q.conjugate() * v;
    }
    /// A point given in body coordinates, in world coordinates: p + R x.
    Vec<S, D> apply(const Vec<S, D>& x) const noexcept { return p + rotate(x); }
    /// A point given in world coordinates, in body coordinates: R^T (x - p).
    Vec<S, D> inverse_apply(const Vec<S, D>& x) const noexcept { return inverse_rotate(Vec<S, D>(x - p)); }

private:
    static Orientation_t<S, D> identity_orientation() noexcept
    {
        if constexpr (D == 2) return Rot2<S>();
        else return Eigen::Quaternion<S>::Identity();
    }
};

}  // namespace impulse
