// SPDX-License-Identifier: MIT
/// \file axis.hpp
/// The one-axis impulse: every impulse in impulse is solved along one direction at a time from
///   - `k`, the inverse effective mass along the direction (velocity change per unit impulse:
///     `wA + wB` for point masses, plus angular terms for rigid bodies),
///   - the relative speed along it and the speed wanted after,
///   - bounds: `[0, inf)` for the normal impulse, `[-cap, +cap]` for friction.
/// Point masses, rigid bodies and the iterative solver all call these; none re-derives them.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "config.hpp"
#include "kinematics.hpp"
#include "material.hpp"

namespace impulse {

/// What a contact did.
enum class Regime : std::uint8_t {
    separating,  ///< not approaching (vn >= 0): left untouched
    sticking,    ///< approaching; friction stopped all sliding (static friction held)
    sliding,     ///< approaching; friction was capped at mu_k*jn and only slowed the slide
    immovable,   ///< both bodies immovable (zero inverse mass along the normal): nothing to do
};

/// Name of a regime as the command-line tool prints it.
constexpr const char* to_string(Regime r) noexcept
{
    switch (r) {
    case Regime::separating: return "separating";
    case Regime::sticking: return "sticking";
    case Regime::sliding: return "sliding";
    case Regime::immovable: return "immovable";
    }
    return "unknown";
}

/// Restitution actually used for an approach with normal speed `vn`: `e`, or 0 when the approach
/// speed `-vn` is at or below `threshold` (resting contacts must not jitter). Threshold 0 keeps
/// the textbook behaviour: every approach bounces with `e`.
template <class S>
S effective_restitution(S e, detail::same_t<S> vn, detail::same_t<S> threshold) noexcept
{
    return -vn > threshold ? e : S(0);
}

/// Normal impulse magnitude along one axis:
///   jn = -(1 + e) * vn / k      when approaching (vn < 0) and k > 0,
///   jn = 0                      otherwise (separating, resting, or immovable: no division).
/// Afterwards the relative normal speed is `vn + k*jn = -e*vn` (to rounding), and jn >= 0.
template <class S>
S bounce_impulse(S vn, detail::same_t<S> k, detail::same_t<S> e) noexcept
{
    IMPULSE_ASSERT(!(e < S(0)) && !(e > S(1)), "restitution must lie in [0, 1]");
    IMPULSE_ASSERT(!(k < S(0)), "inverse effective mass must be non-negative");
    if (!(vn < S(0)) || !(k > S(0))) return S(0);
    return -(S(1) + e) * vn / k;
}

/// A friction impulse along one axis and the regime it leaves the contact in.
template <class S>
struct Clamp {
    S j{0};                           ///< the impulse, within [-mu*jn, +mu*jn]
    Regime regime{Regime::sticking};  ///< sticking or sliding
};

/// Coulomb's law on one axis. `want` is the impulse that would stop all sliding (`-vt/k`),
/// `jn` the normal impulse it is capped by:
///   |want| <= mu_s*jn  ->  j = want                    (sticking: the slide stops)
///   otherwise          ->  j = sign(want) * mu_k*jn    (sliding: the slide only slows)
/// With one coefficient this is the clamp of `want` to [-mu*jn, +mu*jn]. A kinetic coefficient
/// above the static one can never push past `want`: friction never reverses the slide.
template <class S>
Clamp<S> coulomb(detail::same_t<S> want, detail::same_t<S> jn, const Friction<S>& f) noexcept
{
    IMPULSE_ASSERT(!(f.mu_s < S(0)) && !(f.mu_k < S(0)), "friction coefficients must be non-negative");
    IMPULSE_ASSERT(!(jn < S(0)), "the normal impulse caps friction and must be non-negative");
    using std::abs;
    const S size = abs(want);
    if (size <= f.mu_s * jn) return {want, Regime::sticking};
    S cap = f.mu_k * jn;
    if (cap > size) cap = size;
    return {want < S(0) ? -cap : cap, Regime::sliding};
}

/// Accumulated clamping for iterative solvers (box2d-lite's `Arbiter::ApplyImpulse`): adds
/// the impulse `j` to the running `total`, clamps the total to [lo, hi], and returns the change
/// that must actually be applied this iteration (`new total - old total`).
template <class S>
S accumulate(S& total, detail::same_t<S> j, detail::same_t<S> lo, detail::same_t<S> hi) noexcept
{
    const S old = total;
    S next = old + j;
    if (next < lo) next = lo;
    if (next > hi) next = hi;
    total = next;
    return next - old;
}

// ---------------------------------------------------------------------------------------------
// One axis of a contact, precomputed for iterative solvers

/// A body's motion as an iterative solver touches it on every pass: velocity, angular velocity and
/// inverse mass. Compact (2D float: 16 bytes) so that a pass over many contacts stays in cache; the
/// inverse inertia is not needed here because each ContactAxis carries it, premultiplied.
template <class S, int D>
struct Motion {
    Vec<S, D> v = Vec<S, D>::Zero();                       ///< linear velocity of the centre of mass
    Angular<S, D> omega = Rotation<S, D>::zero_angular();  ///< angular velocity
    S inv_mass{0};                                         ///< 1/m; 0 is immovable

    Motion() noexcept = default;  ///< at rest, immovable
    /// The motion of a body right now.
    /// \tparam Body  a type with members `v`, `omega` and `inv_mass` of these types (`RigidBody`)
    template <class Body>
    explicit Motion(const Body& b) noexcept : v(b.v), omega(b.omega), inv_mass(b.inv_mass)
    {
    }
};

namespace detail {
/// a.b summed left to right, ((a0 b0 + a1 b1) + a2 b2), whatever the scalar, the vector unit and
/// Eigen's version (Eigen's own dot product of a 3-vector sums a0 b0 + (a1 b1 + a2 b2) for float and
/// (a0 b0 + a1 b1) + a2 b2 for double on SSE2): the order the solver's wide rows repeat lane by
/// lane (detail/wide_axis.hpp).
template <class X, class Y>
EIGEN_ALWAYS_INLINE typename X::Scalar ordered_dot(const Eigen::MatrixBase<X>& a, const Eigen::MatrixBase<Y>& b) noexcept
{
    typename X::Scalar r = a.coeff(0) * b.coeff(0);
    for (Eigen::Index k = 1; k < a.size(); ++k) r += a.coeff(k) * b.coeff(k);
    return r;
}

/// a.b for 3-vectors summed a0 b0 + (a1 b1 + a2 b2), the order of a row of `ordered_product` (and
/// of Eigen's own dot product for float), whatever the scalar and the vector unit: the solver's 3D
/// effective masses, which its wide rows repeat lane by lane (detail/wide_axis.hpp).
template <class S>
EIGEN_ALWAYS_INLINE S row_dot(const Vec<S, 3>& a, const Vec<S, 3>& b) noexcept
{
    return a[0] * b[0] + (a[1] * b[1] + a[2] * b[2]);
}

/// M v for a 3x3 M, each row summed m0 v0 + (m1 v1 + m2 v2), whatever the scalar and the vector unit,
/// and always inlined. Eigen's own product sums each row in that order for float, but for double on
/// SSE2 sums the first two rows (m0 v0 + m1 v1) + m2 v2 (it fills a two-double register with them),
/// and GCC at -O2 calls it out of line: in 3D the solver's prepare makes two per contact axis, and
/// the call and the reload of its result through memory were a third of the time of making an axis.
template <class S>
EIGEN_ALWAYS_INLINE Vec<S, 3> ordered_product(const Eigen::Matrix<S, 3, 3>& m, const Vec<S, 3>& v) noexcept
{
    return Vec<S, 3>(m(0, 0) * v[0] + (m(0, 1) * v[1] + m(0, 2) * v[2]),
                     m(1, 0) * v[0] + (m(1, 1) * v[1] + m(1, 2) * v[2]),
                     m(2, 0) * v[0] + (m(2, 1) * v[1] + m(2, 2) * v[2]));
}
/// I^-1 times an angular quantity: a product of scalars in 2D, `ordered_product` in 3D.
template <class S>
EIGEN_ALWAYS_INLINE S inertia_times(S inertia, S a) noexcept
{
    return inertia * a;
}
template <class S>
EIGEN_ALWAYS_INLINE Vec<S, 3> inertia_times(const Eigen::Matrix<S, 3, 3>& inertia, const Vec<S, 3>& a) noexcept
{
    return ordered_product(inertia, a);
}

/// Product of two angular quantities: a*b in 2D (scalars), a.b in 3D (summed as `ordered_dot`).
template <class S>
S angular_dot(S a, S b) noexcept
{
    return a * b;
}
template <class S>
S angular_dot(const Vec<S, 3>& a, const Vec<S, 3>& b) noexcept
{
    return ordered_dot(a, b);
}
/// True when every component of an angular quantity is finite.
template <class S>
bool angular_finite(S a) noexcept
{
    using std::isfinite;
    return isfinite(a);
}
template <class S>
bool angular_finite(const Vec<S, 3>& a) noexcept
{
    using std::isfinite;
    return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]);
}
}  // namespace detail

/// One direction `d` of a contact between two rigid bodies, with everything that stays fixed while
/// an iterative solver sweeps precomputed from a RigidContact (rigid.hpp; the Jacobian row of Catto's
/// sequential impulses; Jolt's `AxisConstraintPart`):
///
///     arms    armA = rA x d,            armB = rB x d              (2D: scalars)
///     spins   spinA = IA^-1 (rA x d),   spinB = IB^-1 (rB x d)
///     mass    1/k(d), k(d) = RigidContact::inverse_mass(d); 0 when k = 0 (nothing moves along d)
///
/// so that each pass costs a few multiply-adds and no branch:
///
///     speed   vd = d.(vB - vA) + armB.omegaB - armA.omegaA    = RigidContact::relative_velocity().d
///             (because (omega x r).d = omega.(r x d))
///     apply   vA -= wA*j*d,  omegaA -= j*spinA,
///             vB += wB*j*d,  omegaB += j*spinB                = RigidContact::apply(j*d)
///
/// Both agree with RigidContact to rounding. An immovable body (inverse mass and inertia 0) gets
/// exactly +-0 added, so its velocity stays as it was as long as j is finite.
///
/// **Overflow.** A body whose angular term (rA x d).IA^-1 (rA x d) is not representable (a huge
/// inverse inertia times a far anchor: float 1e30 at 1e9 m) cannot be spun by this axis: its spin is
/// taken as 0, which is the effective mass of a body whose moment of inertia is infinite along d
/// (its arm stays, so its rotation still counts in the speed). Without this, k would be infinite,
/// the mass 0 and every apply 0 * inf = NaN.
template <class S, int D>
struct ContactAxis {
    Vec<S, D> d = Vec<S, D>::UnitX();                      ///< the unit direction; +j*d acts on B
    Angular<S, D> armA = Rotation<S, D>::zero_angular();   ///< rA x d
    Angular<S, D> armB = Rotation<S, D>::zero_angular();   ///< rB x d
    Angular<S, D> spinA = Rotation<S, D>::zero_angular();  ///< IA^-1 (rA x d)
    Angular<S, D> spinB = Rotation<S, D>::zero_angular();  ///< IB^-1 (rB x d)
    S mass{0};  ///< effective mass along d, 1/k(d) (0 when k(d) = 0)

    ContactAxis() noexcept = default;  ///< along x, massless: changes nothing

    /// Precomputes the axis along unit `dir` for the contact `c` (offsets and inertias as they are now).
    /// \tparam Contact  `RigidContact<S, D>`, or a type with its members `rA`, `rB`, `A.inv_mass`,
    ///                  `A.inv_inertia`, `B.inv_mass`, `B.inv_inertia` and `inverse_mass(d)`
    template <class Contact>
    ContactAxis(const Contact& c, const Vec<S, D>& dir) noexcept
        : d(dir), armA(cross(c.rA, dir)), armB(cross(c.rB, dir)), spinA(detail::inertia_times(c.A.inv_inertia, armA)),
          spinB(detail::inertia_times(c.B.inv_inertia, armB))
    {
        IMPULSE_ASSERT(is_unit(dir), "the axis direction must be a unit vector");
        S k = c.inverse_mass(dir);
        if (!(k <= std::numeric_limits<S>::max())) {
            // Something overflowed (or an input is not finite): keep the angular terms that are
            // representable, drop the others with their spins ("this body cannot be spun along d").
            k = c.A.inv_mass + c.B.inv_mass;
            k += representable_spin(armA, spinA) + representable_spin(armB, spinB);
        }
        mass = k > S(0) ? S(1) / k : S(0);
    }

    /// arm.spin when it and the spin are finite; otherwise 0, and the spin (and, if it is not finite
    /// either, the arm) set to 0.
    static S representable_spin(Angular<S, D>& arm, Angular<S, D>& spin) noexcept
    {
        const S term = detail::angular_dot(arm, spin);
        if (term <= std::numeric_limits<S>::max() && detail::angular_finite(spin)) return term;
        spin = Rotation<S, D>::zero_angular();
        if (!detail::angular_finite(arm)) arm = Rotation<S, D>::zero_angular();
        return S(0);
    }

    /// Relative speed of the contact point along d: vd = d.(vB - vA) + armB.omegaB - armA.omegaA.
    /// (Always inlined, as `apply`: the solver's passes call both for every point, and a call costs
    /// more than either.)
    EIGEN_ALWAYS_INLINE S speed(const Motion<S, D>& A, const Motion<S, D>& B) const noexcept
    {
        return detail::ordered_dot(d, B.v - A.v) + detail::angular_dot(armB, B.omega) -
               detail::angular_dot(armA, A.omega);
    }

    /// Applies j*d at the contact point: -j*d to A, +j*d to B.
    EIGEN_ALWAYS_INLINE void apply(Motion<S, D>& A, Motion<S, D>& B, S j) const noexcept
    {
        A.v -= (A.inv_mass * j) * d;
        A.omega -= j * spinA;
        B.v += (B.inv_mass * j) * d;
        B.omega += j * spinB;
    }
};

// ---------------------------------------------------------------------------------------------
// Soft constraints (the soft step's contact)

/// A soft constraint: the contact as a mass-spring-damper of natural frequency `hertz` and damping
/// ratio `zeta`, solved implicitly over a substep of length h (Catto, "Solver2D", 2024, and Box2D
/// v3's b2MakeSoft). With omega = 2 pi hertz:
///
///     bias_rate     = omega / (2 zeta + h omega)                 velocity wanted per metre of overlap
///     mass_scale    = h omega (2 zeta + h omega) / (1 + h omega (2 zeta + h omega))
///     impulse_scale = 1 / (1 + h omega (2 zeta + h omega))
///
/// so that one substep's impulse along an axis of effective mass m, relative speed v and separation s
/// is  j = -m mass_scale (v + bias_rate s) - impulse_scale j_total  (`soft_normal`). hertz = 0 is a
/// constraint with no stiffness at all: nothing pushes (bias_rate = mass_scale = 0).
template <class S>
struct Softness {
    S bias_rate{0};      ///< 1/s: separation speed wanted per metre of overlap
    S mass_scale{1};     ///< in [0, 1]: how much of the effective mass a soft substep applies
    S impulse_scale{0};  ///< in [0, 1]: how much of the accumulated impulse relaxes each substep
};

/// The softness of a contact of stiffness `hertz` (Hz) and damping ratio `zeta` over substeps of
/// length `h` (see `Softness`).
template <class S>
Softness<S> make_softness(S hertz, detail::same_t<S> zeta, detail::same_t<S> h) noexcept
{
    IMPULSE_ASSERT(!(hertz < S(0)) && !(zeta < S(0)) && h > S(0), "softness needs hertz >= 0, zeta >= 0, h > 0");
    Softness<S> out;
    if (!(hertz > S(0))) {
        out.mass_scale = S(0);
        return out;
    }
    const S omega = S(2) * S(3.14159265358979323846) * hertz;
    const S a1 = S(2) * zeta + h * omega;  // 2 zeta + h omega
    const S a2 = h * omega * a1;           // h omega (2 zeta + h omega)
    const S a3 = S(1) / (S(1) + a2);
    out.bias_rate = omega / a1;
    out.mass_scale = a2 * a3;
    out.impulse_scale = a3;
    return out;
}

/// One substep of a contact's normal impulse in the soft step, along an axis of effective mass
/// `mass` (1/k) where the bodies approach at `vn` (< 0 approaching) with separation `s` (< 0 overlap):
///
///     s > 0 (a gap: speculative)   bias = s / h, rigid: the gap may close within the substep, no more
///     s <= 0, with `bias`          bias = max(bias_rate s, -push_out), soft (mass_scale, impulse_scale)
///     s <= 0, without              bias = 0, rigid (relaxing: remove the push's speed again)
///
///     j = -mass mass_scale (vn + bias) - impulse_scale total,   total' = max(total + j, 0)
///
/// Returns the change of the accumulated normal impulse `total` (>= 0 always), the impulse to apply.
/// `push_out` caps the speed at which overlap is pushed apart.
template <class S>
S soft_normal(S& total, detail::same_t<S> vn, detail::same_t<S> s, detail::same_t<S> mass,
              detail::same_t<S> inv_h, const Softness<S>& soft, detail::same_t<S> push_out, bool bias) noexcept
{
    S velocity_bias{0}, mass_scale{1}, impulse_scale{0};
    if (s > S(0)) {
        velocity_bias = s * inv_h;  // speculative: close the gap, no faster
    } else if (bias) {
        velocity_bias = soft.bias_rate * s;
        if (velocity_bias < -push_out) velocity_bias = -push_out;
        mass_scale = soft.mass_scale;
        impulse_scale = soft.impulse_scale;
    }
    const S j = -mass * mass_scale * (vn + velocity_bias) - impulse_scale * total;
    return accumulate(total, j, S(0), std::numeric_limits<S>::infinity());
}

}  // namespace impulse
