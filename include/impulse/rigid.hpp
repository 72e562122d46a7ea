// SPDX-License-Identifier: MIT
/// \file rigid.hpp
/// Contact response with rotation, in 2D and 3D: rigid-body state, the inertia of common shapes,
/// the velocity of a contact point, the effective mass along a direction, impulses applied at a
/// point, the sequential response (normal, then friction: contact.hpp's `resolve`, unchanged), the
/// precomputed contact axis an iterative solver sweeps with (`Motion`, `ContactAxis`), and the
/// coupled contact-space solve that handles normal and friction together.
///
/// What rotation adds (for each body, with r the contact point minus the centre of mass):
///   velocity of the contact point   v_p = v + omega x r
///   impulse J at the point          v += w*J,  omega += I^-1 (r x J)      (B: +J, A: -J)
///   inverse effective mass along d  k = wA + wB + (rA x d).IA^-1 (rA x d) + (rB x d).IB^-1 (rB x d)
/// In 2D omega and the inertia are scalars and `a x b = ax*by - ay*bx`, `omega x r = omega*(-ry, rx)`.
/// With zero inverse inertia or zero offsets every function here gives bit for bit the point-mass
/// result of contact.hpp.
#pragma once

#include <cmath>
#include <type_traits>
#include <utility>

#include <Eigen/Core>
#include <Eigen/Geometry>  // cross()
#include <Eigen/LU>        // inverse()

#include "axis.hpp"
#include "config.hpp"
#include "contact.hpp"
#include "kinematics.hpp"
#include "material.hpp"

namespace impulse {

/// A rigid body's velocity state and mass properties.
template <class S, int D>
struct RigidBody {
    Vec<S, D> v = Vec<S, D>::Zero();                            ///< linear velocity of the centre of mass
    Angular<S, D> omega = Rotation<S, D>::zero_angular();       ///< angular velocity
    S inv_mass{0};                                              ///< 1/m; 0 is immovable
    Inertia<S, D> inv_inertia = Rotation<S, D>::zero_inertia();  ///< I^-1 (3D: in world space)
};

// ---------------------------------------------------------------------------------------------
// Inertia: principal moments of common shapes (about the centre of mass), and the world tensor

/// Solid disk (2D) or moment of a solid cylinder about its axis: I = m r^2 / 2.
template <class S>
S inertia_disk(S m, S r) noexcept
{
    return m * r * r / S(2);
}

/// Thin ring / hollow cylinder about its axis: I = m r^2.
template <class S>
S inertia_ring(S m, S r) noexcept
{
    return m * r * r;
}

/// 2D rectangle of width w and height h about its centre: I = m (w^2 + h^2) / 12.
template <class S>
S inertia_rectangle(S m, S w, S h) noexcept
{
    return m * (w * w + h * h) / S(12);
}

/// Solid sphere: I = 2/5 m r^2 about every axis.
template <class S>
Vec<S, 3> inertia_solid_sphere(S m, S r) noexcept
{
    return Vec<S, 3>::Constant(S(2) * m * r * r / S(5));
}

/// Thin hollow sphere: I = 2/3 m r^2 about every axis.
template <class S>
Vec<S, 3> inertia_hollow_sphere(S m, S r) noexcept
{
    return Vec<S, 3>::Constant(S(2) * m * r * r / S(3));
}

/// Box with full side lengths (x, y, z): Ix = m (y^2 + z^2) / 12, and cyclically.
template <class S>
Vec<S, 3> inertia_box(S m, const Vec<S, 3>& size) noexcept
{
    const Vec<S, 3> s2 = size.cwiseProduct(size);
    return Vec<S, 3>(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y()) * (m / S(12));
}

/// Solid cylinder of radius r and height h along z: Iz = m r^2 / 2, Ix = Iy = m (3 r^2 + h^2) / 12.
template <class S>
Vec<S, 3> inertia_cylinder(S m, S r, S h) noexcept
{
    const S side = m * (S(3) * r * r + h * h) / S(12);
    return Vec<S, 3>(side, side, inertia_disk(m, r));
}

/// Solid capsule along z: a cylinder of radius r and height h (the straight part) with two
/// hemispherical caps; m is the whole mass, shared by volume. With mc, mh the cylinder's and one
/// cap's masses:
///   Iz = mc r^2/2 + 2 * (2/5 mh r^2)
///   Ix = Iy = mc (3 r^2 + h^2)/12 + 2 * mh (2/5 r^2 + h^2/4 + 3/8 h r)
/// (each cap's moment about its own centre of mass, 83/320 mh r^2, moved by the parallel-axis
/// theorem to the capsule's centre, at h/2 + 3r/8).
template <class S>
Vec<S, 3> inertia_capsule(S m, S r, S h) noexcept
{
    const S vc = h;                     // cylinder volume / (pi r^2)
    const S vh = S(2) * r / S(3);       // one hemisphere's volume / (pi r^2)
    const S mc = m * vc / (vc + S(2) * vh);
    const S mh = m * vh / (vc + S(2) * vh);
    const S iz = mc * r * r / S(2) + S(2) * (S(2) * mh * r * r / S(5));
    const S ix = mc * (S(3) * r * r + h * h) / S(12) +
                 S(2) * mh * (S(2) * r * r / S(5) + h * h / S(4) + S(3) * h * r / S(8));
    return Vec<S, 3>(ix, ix, iz);
}

/// Inverse of a (principal) moment, with 0 for an infinite or zero moment kept immovable: 1/I, or
/// 0 when I is not positive.
template <class S>
S inverse_moment(S I) noexcept
{
    return I > S(0) ? S(1) / I : S(0);
}

/// World-space inverse inertia from body-space principal moments and the body's orientation R
/// (columns: the body axes in world space; from a quaternion q pass q.toRotationMatrix()):
/// I_world^-1 = R diag(1/I) R^T. A moment of 0 means no
/// rotation about that axis (its inverse is taken as 0).
template <class S>
Eigen::Matrix<S, 3, 3> world_inverse_inertia(const Vec<S, 3>& principal,
                                             const detail::same_t<Eigen::Matrix<S, 3, 3>>& R) noexcept
{
    const Vec<S, 3> inv(inverse_moment(principal.x()), inverse_moment(principal.y()),
                        inverse_moment(principal.z()));
    return R * inv.asDiagonal() * R.transpose();
}

// ---------------------------------------------------------------------------------------------
// Points on a body

/// Velocity of the body point at offset r from the centre of mass: v + omega x r.
template <class S, int D>
Vec<S, D> point_velocity(const RigidBody<S, D>& b, const Vec<S, D>& r) noexcept
{
    return b.v + cross(b.omega, r);
}

/// Velocity change at offset r per unit impulse along d, from rotation alone:
/// (r x d).I^-1 (r x d)  (2D: (r x d)^2 I^-1).
template <class S, int D>
S angular_inverse_mass(const RigidBody<S, D>& b, const Vec<S, D>& r, const Vec<S, D>& d) noexcept
{
    if constexpr (D == 2) {
        const S rd = cross(r, d);
        return rd * rd * b.inv_inertia;
    } else {
        const Vec<S, 3> rd = r.cross(d);
        return rd.dot(b.inv_inertia * rd);
    }
}

/// The matrix of velocity change at offset r per unit impulse, from rotation alone:
/// 3D: -[r]x I^-1 [r]x;  2D: I^-1 perp(r) perp(r)^T with perp(r) = (-ry, rx).
template <class S, int D>
Eigen::Matrix<S, D, D> angular_inverse_mass_matrix(const RigidBody<S, D>& b, const Vec<S, D>& r) noexcept
{
    if constexpr (D == 2) {
        const Vec<S, 2> p(-r.y(), r.x());
        return b.inv_inertia * (p * p.transpose());
    } else {
        Eigen::Matrix<S, 3, 3> rx;
        rx << S(0), -r.z(), r.y(), r.z(), S(0), -r.x(), -r.y(), r.x(), S(0);
        return -(rx * b.inv_inertia * rx);
    }
}

/// Applies impulse `J` at offset `r` to a body with sign `sign` (+1 for B, -1 for A):
/// v += sign*w*J, omega += sign*I^-1 (r x J). Immovable parts are not touched.
template <class S, int D>
void apply_at(RigidBody<S, D>& b, const Vec<S, D>& r, const Vec<S, D>& J, S sign) noexcept
{
    if (b.inv_mass != S(0)) b.v += (sign * b.inv_mass) * J;
    if constexpr (D == 2) {
        if (b.inv_inertia != S(0)) b.omega += sign * b.inv_inertia * cross(r, J);
    } else {
        if (!b.inv_inertia.isZero(S(0))) b.omega += sign * (b.inv_inertia * r.cross(J));
    }
}

// ---------------------------------------------------------------------------------------------
// A contact between two rigid bodies

/// Two rigid bodies touching at one point, seen from each centre of mass: `rA` and `rB` are the
/// contact point minus A's and B's centres. A model and a contact in the sense of contact.hpp,
/// so `resolve(RigidContact{...}, n, coefficients)` gives the sequential response with rotation.
template <class S, int D>
struct RigidContact {
    using Scalar = S;              ///< the scalar type
    static constexpr int Dim = D;  ///< the dimension, 2 or 3

    RigidBody<S, D>& A;  ///< body A (the normal points away from it)
    RigidBody<S, D>& B;  ///< body B
    Vec<S, D> rA;  ///< contact point minus A's centre of mass
    Vec<S, D> rB;  ///< contact point minus B's centre of mass

    /// Views bodies a and b touching at offsets ra and rb from their centres of mass.
    RigidContact(RigidBody<S, D>& a, const Vec<S, D>& ra, RigidBody<S, D>& b, const Vec<S, D>& rb) noexcept
        : A(a), B(b), rA(ra), rB(rb)
    {
        IMPULSE_ASSERT(!(a.inv_mass < S(0)) && !(b.inv_mass < S(0)), "inverse masses must be non-negative");
    }

    /// rv = (vB + omegaB x rB) - (vA + omegaA x rA): the contact point's relative velocity.
    Vec<S, D> relative_velocity() const noexcept { return point_velocity(B, rB) - point_velocity(A, rA); }

    /// k(d) = wA + wB + (rA x d).IA^-1 (rA x d) + (rB x d).IB^-1 (rB x d)
    S inverse_mass(const Vec<S, D>& d) const noexcept
    {
        return A.inv_mass + B.inv_mass + angular_inverse_mass(A, rA, d) + angular_inverse_mass(B, rB, d);
    }

    /// K = (wA + wB) 1 + the angular matrices of both bodies: relative contact-point velocity
    /// change per unit impulse, as a matrix (symmetric, positive semi-definite).
    Eigen::Matrix<S, D, D> inverse_mass_matrix() const noexcept
    {
        return Eigen::Matrix<S, D, D>::Identity() * (A.inv_mass + B.inv_mass) +
               angular_inverse_mass_matrix(A, rA) + angular_inverse_mass_matrix(B, rB);
    }

    /// The tangent-plane impulse that cancels the tangential velocity `vt` exactly.
    /// 2D: -vt / k(t) along t. 3D: the two tangent directions are coupled through the inertia, so
    /// solve the 2x2 tangent-plane system P K J = -vt. Written as the point-mass answer
    /// J0 = -vt/(wA+wB) plus a correction for the angular part, so that without rotation it is
    /// bit for bit the point-mass impulse.
    Vec<S, D> stick_impulse(const Vec<S, D>& n, const Vec<S, D>& vt) const noexcept
    {
        const S w = A.inv_mass + B.inv_mass;
        if constexpr (D == 2) {
            const Vec<S, 2> t = tangent(n);
            return (-vt.dot(t) / inverse_mass(t)) * t;
        } else {
            if (!(w > S(0))) return solve_tangent(n, -vt, vt);
            const Vec<S, 3> J0 = -vt / w;
            // Residual tangential velocity after J0: P (K J0) + vt = P (K_ang J0).
            const Vec<S, 3> angular = (angular_inverse_mass_matrix(A, rA) + angular_inverse_mass_matrix(B, rB)) * J0;
            const Vec<S, 3> residual = angular - angular.dot(n) * n;
            if (residual.isZero(S(0))) return J0;
            return J0 + solve_tangent(n, -residual, vt);
        }
    }

    /// Applies J at the contact point: -J to A at rA, +J to B at rB.
    void apply(const Vec<S, D>& J) const noexcept
    {
        apply_at(A, rA, J, S(-1));
        apply_at(B, rB, J, S(1));
    }

private:
    /// Solves P K J = rhs for J in the tangent plane of n (3D), in the basis t1 = vt/|vt|,
    /// t2 = n x t1, by Gaussian elimination on the 2x2 system (pivot K11 = t1.K t1).
    Vec<S, 3> solve_tangent(const Vec<S, 3>& n, const Vec<S, 3>& rhs, const Vec<S, 3>& vt) const noexcept
    {
        const Vec<S, 3> t1 = vt / detail::safe_norm(vt);  // vt != 0 here; safe for tiny slides
        const Vec<S, 3> t2 = n.cross(t1);
        const Eigen::Matrix<S, 3, 3> K = inverse_mass_matrix();
        const S k11 = t1.dot(K * t1), k12 = t1.dot(K * t2), k22 = t2.dot(K * t2);
        const S b1 = rhs.dot(t1), b2 = rhs.dot(t2);
        if (!(k11 > S(0))) return Vec<S, 3>::Zero();
        const S schur = k22 - k12 * k12 / k11;  // k22 - k21 k11^-1 k12 > 0 for a positive definite K
        const S j2 = schur > S(0) ? (b2 - k12 / k11 * b1) / schur : S(0);
        const S j1 = (b1 - k12 * j2) / k11;
        return j1 * t1 + j2 * t2;
    }
};

/// Deduction guide: RigidContact(A, rA, B, rB).
template <class S, int D>
RigidContact(RigidBody<S, D>&, const Vec<S, D>&, RigidBody<S, D>&, const Vec<S, D>&) -> RigidContact<S, D>;

/// Sequential response of two rigid bodies touching at rA/rB (see contact.hpp `resolve`): the
/// normal impulse with restitution first, then friction from the contact-point velocity after it.
template <class S, int D>
Result<S, D> resolve(RigidBody<S, D>& A, const detail::same_t<Vec<S, D>>& rA, RigidBody<S, D>& B,
                     const detail::same_t<Vec<S, D>>& rB, const detail::same_t<Vec<S, D>>& n,
                     const detail::same_t<Coefficients<S>>& coefficients) noexcept
{
    return resolve(RigidContact<S, D>(A, rA, B, rB), n, coefficients);
}

// ---------------------------------------------------------------------------------------------
// The coupled contact-space solve

namespace detail {
template <class C, class = void>
struct has_inverse_mass_matrix : std::false_type {};
template <class C>
struct has_inverse_mass_matrix<C, std::void_t<decltype(std::declval<const C&>().inverse_mass_matrix())>>
    : std::true_type {};
}  // namespace detail

/// An orthonormal basis of the contact: columns n, t1[, t2]. In 2D t1 = (-ny, nx) as everywhere;
/// in 3D t1, t2 span the tangent plane (Duff et al., "Building an Orthonormal Basis, Revisited",
/// JCGT 2017: continuous except where nz changes sign, deterministic, no normalisation).
template <class S, int D>
Eigen::Matrix<S, D, D> contact_basis(const Vec<S, D>& n) noexcept
{
    Eigen::Matrix<S, D, D> C;
    C.col(0) = n;
    if constexpr (D == 2) {
        C.col(1) = tangent(n);
    } else {
        const S sign = n.z() < S(0) ? S(-1) : S(1);
        const S a = S(-1) / (sign + n.z());
        const S b = n.x() * n.y() * a;
        C.col(1) = Vec<S, 3>(S(1) + sign * n.x() * n.x() * a, sign * b, -sign * n.x());
        C.col(2) = Vec<S, 3>(b, sign + n.y() * n.y() * a, -n.y());
    }
    return C;
}

/// The coupled solve (Millington's contact-space friction, seed 003): one impulse J, normal and
/// tangential together, from the matrix of velocity change per unit impulse in contact space
///   Kc = C^T K C,   K = (wA + wB) 1 - [rA]x IA^-1 [rA]x - [rB]x IB^-1 [rB]x,
/// solved for the velocity change (-(1+e) vn, -vt1[, -vt2]): the normal speed becomes -e*vn and
/// all sliding stops. If that impulse lies outside the friction cone (|Jt| > mu_s*jn), friction
/// takes the cone's edge along the impulse's planar direction d with mu_k, and the normal
/// impulse is solved again so the normal target still holds:
///   jn = -(1+e) vn / (Kc_nn + mu_k Kc_nt . d),   Jt = mu_k jn d.
/// Exact for one contact with coupling through the inertia (an off-centre hit); costs a 3x3
/// inverse. Where rotation does not couple normal and tangent (sphere on plane) it agrees with
/// the sequential `resolve`. Applies the impulse; returns what it did like `resolve`.
///
/// A (nearly) singular Kc (determinant of Kc / max diagonal below 16 epsilon: a body that can only turn,
/// or masses so small that Kc underflows) has no impulse meeting every target: the sequential
/// `resolve` answers instead.
///
/// Non-smooth corner: when the friction-corrected denominator is not positive (the friction at
/// the cone's edge would pull the bodies together: Painleve's paradox), friction is dropped to
/// the cone's edge of the sequential method instead: jn from the normal alone, then mu_k jn.
/// \tparam Contact  a contact (see `resolve`) that also has `inverse_mass_matrix()`, the D x D
///                  matrix K (RigidContact and PointContact have it; checked by a static_assert)
template <class Contact, class S = typename detail::model_types<Contact>::Scalar,
          int D = detail::model_types<Contact>::Dim>
Result<S, D> resolve_coupled(const Contact& c, const VecOf<Contact>& n,
                             const Coefficients<typename detail::model_types<Contact>::Scalar>& coefficients) noexcept
{
    IMPULSE_REQUIRE_CONTACT(Contact);
    static_assert(detail::has_inverse_mass_matrix<Contact>::value,
                  "impulse: resolve_coupled needs the contact's `inverse_mass_matrix()` (see RigidContact)");
    IMPULSE_ASSERT(is_unit(n), "the contact normal must be a unit vector");
    IMPULSE_ASSERT(!(coefficients.restitution < S(0)) && !(coefficients.restitution > S(1)), "restitution must lie in [0, 1]");
    IMPULSE_ASSERT(!(coefficients.friction.mu_s < S(0)) && !(coefficients.friction.mu_k < S(0)),
                   "friction coefficients must be non-negative");
    Result<S, D> r;
    if (!(c.inverse_mass(n) > S(0))) {
        r.regime = Regime::immovable;
        return r;
    }
    const Vec<S, D> rv = c.relative_velocity();
    const S vn = rv.dot(n);
    if (!(vn < S(0))) return r;  // separating or resting: untouched

    const Eigen::Matrix<S, D, D> C = contact_basis(n);
    const Eigen::Matrix<S, D, D> Kc = C.transpose() * c.inverse_mass_matrix() * C;
    const Vec<S, D> u = C.transpose() * rv;  // contact-space velocity (vn, vt1[, vt2])
    const S desired = -(S(1) + effective_restitution(coefficients.restitution, vn, coefficients.threshold)) * vn;
    Vec<S, D> dv = -u;
    dv[0] = desired;
    // Kc must be well conditioned to solve for all D components: a body that can only turn (a
    // pinned wheel) or masses so small that Kc underflows leave it (nearly) singular, and no
    // impulse meets every target. Then the sequential method answers instead.
    // Solved scaled to a unit largest diagonal, so that tiny or huge masses do not underflow or
    // overflow the determinant.
    const S scale = Kc.diagonal().maxCoeff();
    const Eigen::Matrix<S, D, D> unit_scale = Kc / scale;
    if (!(scale > S(0)) || !(unit_scale.determinant() > S(16) * std::numeric_limits<S>::epsilon()))
        return resolve(c, n, coefficients);
    Vec<S, D> j = (unit_scale.inverse() * dv) / scale;  // kill the slide, reach -e*vn

    const S planar = detail::safe_norm(Vec<S, D - 1>(j.template tail<D - 1>()));
    r.regime = Regime::sticking;
    if (!(planar <= coefficients.friction.mu_s * j[0])) {
        r.regime = Regime::sliding;
        const Vec<S, D - 1> d = planar > S(0) ? Vec<S, D - 1>(j.template tail<D - 1>() / planar)
                                              : Vec<S, D - 1>(Vec<S, D - 1>::Zero());
        const S mu = coefficients.friction.mu_k;
        const S denom = Kc(0, 0) + mu * Kc.template block<1, D - 1>(0, 1).dot(d.transpose());
        j[0] = denom > S(0) ? desired / denom : desired / Kc(0, 0);
        j.template tail<D - 1>() = (mu * j[0]) * d;
    }
    if (j[0] < S(0)) j.setZero();  // a contact only pushes
    const Vec<S, D> J = C * j;
    c.apply(J);
    r.jn = j[0];
    r.friction_impulse = J - j[0] * n;
    if constexpr (D == 2) r.jt = j[1];
    else r.jt = detail::safe_norm(Vec<S, D - 1>(j.template tail<D - 1>()));
    return r;
}

/// Coupled solve for two rigid bodies touching at rA/rB; see the Contact overload.
template <class S, int D>
Result<S, D> resolve_coupled(RigidBody<S, D>& A, const detail::same_t<Vec<S, D>>& rA, RigidBody<S, D>& B,
                             const detail::same_t<Vec<S, D>>& rB, const detail::same_t<Vec<S, D>>& n,
                             const detail::same_t<Coefficients<S>>& coefficients) noexcept
{
    return resolve_coupled(RigidContact<S, D>(A, rA, B, rB), n, coefficients);
}

}  // namespace impulse
