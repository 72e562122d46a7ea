// SPDX-License-Identifier: MIT
/// \file contact.hpp
/// Contact response between two point masses: the normal (bounce) impulse with restitution, then
/// the Coulomb friction impulse, in 2D and 3D, float and double.
///
/// Every function here and in rigid.hpp follows the conventions of docs/conventions.md (the normal
/// from A to B, the impulse signs, inverse masses, the 2D tangent); docs/vocabulary.md names every
/// quantity.
///
/// The algorithms are written once over a *mass model*: any type with
///   `S inverse_mass(const Vec<S,D>& d) const`    (k along unit d: velocity change per unit impulse)
///   `Vec<S,D> stick_impulse(const Vec<S,D>& n, const Vec<S,D>& vt) const`
///                                                (impulse in the tangent plane that cancels vt)
/// and a *contact* adds state to a model:
///   `Vec<S,D> relative_velocity() const`  and  `void apply(const Vec<S,D>& J) const`.
/// `PointMasses`/`PointContact` are the point-mass models; rigid.hpp adds the rotating ones.
#pragma once

#include <cmath>
#include <type_traits>
#include <utility>

#include "axis.hpp"
#include "config.hpp"
#include "material.hpp"

namespace impulse {

/// The 2D tangent: `n` turned a quarter turn counter-clockwise, `t = (-ny, nx)`.
template <class S>
Vec<S, 2> tangent(const Vec<S, 2>& n) noexcept
{
    return Vec<S, 2>(-n.y(), n.x());
}

namespace detail {
template <class M, class = void>
struct has_scalar_and_dim : std::false_type {};
template <class M>
struct has_scalar_and_dim<M, std::void_t<typename M::Scalar, decltype(M::Dim)>> : std::true_type {};

/// `Scalar` and `Dim` of a mass model or contact, with one readable error for a type that names
/// neither (instead of a page of failed overloads).
template <class M, bool = has_scalar_and_dim<M>::value>
struct model_types {
    static_assert(has_scalar_and_dim<M>::value,
                  "impulse: a mass model or contact type must name its scalar and dimension: "
                  "`using Scalar = float or double; static constexpr int Dim = 2 or 3;` (see PointMasses)");
    using Scalar = float;          // never used: the assertion above has failed
    static constexpr int Dim = 2;  // never used
};
template <class M>
struct model_types<M, true> {
    static_assert(M::Dim == 2 || M::Dim == 3, "impulse: Dim must be 2 or 3");
    using Scalar = typename M::Scalar;
    static constexpr int Dim = M::Dim;
};
}  // namespace detail

/// The vector type of a mass model or contact `M` (which names its `Scalar` and `Dim`).
template <class M>
using VecOf = Vec<typename detail::model_types<M>::Scalar, detail::model_types<M>::Dim>;

namespace detail {
template <class M, class = void>
struct is_mass_model : std::false_type {};
template <class M>
struct is_mass_model<M, std::void_t<decltype(std::declval<const M&>().inverse_mass(std::declval<const VecOf<M>&>())),
                                    decltype(std::declval<const M&>().stick_impulse(std::declval<const VecOf<M>&>(),
                                                                                    std::declval<const VecOf<M>&>()))>>
    : std::bool_constant<
          std::is_convertible<decltype(std::declval<const M&>().inverse_mass(std::declval<const VecOf<M>&>())),
                              typename M::Scalar>::value &&
          std::is_convertible<decltype(std::declval<const M&>().stick_impulse(std::declval<const VecOf<M>&>(),
                                                                             std::declval<const VecOf<M>&>())),
                              VecOf<M>>::value> {};

template <class C, class = void>
struct is_contact : std::false_type {};
template <class C>
struct is_contact<C, std::void_t<decltype(std::declval<const C&>().relative_velocity()),
                                 decltype(std::declval<const C&>().apply(std::declval<const VecOf<C>&>()))>>
    : std::bool_constant<is_mass_model<C>::value &&
                         std::is_convertible<decltype(std::declval<const C&>().relative_velocity()), VecOf<C>>::value> {};
}  // namespace detail

/// The requirements on a mass model `M`, checked where one is taken (one readable error).
#define IMPULSE_REQUIRE_MASS_MODEL(M)                                                                       \
    static_assert(::impulse::detail::is_mass_model<M>::value,                                                \
                  "impulse: a mass model needs `Scalar inverse_mass(const Vec<Scalar, Dim>& d) const` and " \
                  "`Vec<Scalar, Dim> stick_impulse(const Vec<Scalar, Dim>& n, const Vec<Scalar, Dim>& vt) const` " \
                  "(see PointMasses)")
/// The requirements on a contact `C`, checked where one is taken (one readable error).
#define IMPULSE_REQUIRE_CONTACT(C)                                                                        \
    static_assert(::impulse::detail::is_contact<C>::value,                                                 \
                  "impulse: a contact is a mass model with `Vec<Scalar, Dim> relative_velocity() const` and " \
                  "`void apply(const Vec<Scalar, Dim>& J) const` (see PointContact, RigidContact)")

/// Mass model of two point masses: the effective inverse mass is `wA + wB` in every direction.
template <class S, int D>
struct PointMasses {
    using Scalar = S;              ///< the scalar type
    static constexpr int Dim = D;  ///< the dimension, 2 or 3

    S inv_mass_a{0};  ///< inverse mass of A (0: immovable)
    S inv_mass_b{0};  ///< inverse mass of B

    /// k = wA + wB, whatever the direction.
    S inverse_mass(const Vec<S, D>& /*d*/) const noexcept { return inv_mass_a + inv_mass_b; }

    /// K = (wA + wB) 1: velocity change per unit impulse as a matrix (for coupled solves).
    Eigen::Matrix<S, D, D> inverse_mass_matrix() const noexcept
    {
        return Eigen::Matrix<S, D, D>::Identity() * (inv_mass_a + inv_mass_b);
    }

    /// Jt = -vt / (wA + wB): removes the whole tangential relative velocity `vt`.
    Vec<S, D> stick_impulse(const Vec<S, D>& /*n*/, const Vec<S, D>& vt) const noexcept
    {
        return -vt / (inv_mass_a + inv_mass_b);
    }
};

/// Two point masses with their velocities, updated in place by `apply`. The velocities are seen
/// through `Eigen::Map`s, so they may live in an `impulse::Vec` or in any D consecutive scalars of
/// the caller's own storage (an engine's `struct Vec2 { float x, y; }`): no copies either way.
template <class S, int D>
struct PointContact : PointMasses<S, D> {
    // A Map is a view, like a pointer: writing through it does not change the contact itself,
    // hence `mutable` (resolve takes the contact as const and calls apply).
    mutable Eigen::Map<Vec<S, D>> vA;  ///< A's velocity, updated by apply
    mutable Eigen::Map<Vec<S, D>> vB;  ///< B's velocity, updated by apply

    /// Views two point masses: velocities by reference, inverse masses by value (>= 0).
    PointContact(Vec<S, D>& va, S inv_a, Vec<S, D>& vb, S inv_b) noexcept
        : PointContact(va.data(), inv_a, vb.data(), inv_b)
    {
    }

    /// Views two point masses whose velocities are the D scalars at `va` and `vb`.
    PointContact(S* va, S inv_a, S* vb, S inv_b) noexcept : PointMasses<S, D>{inv_a, inv_b}, vA(va), vB(vb)
    {
        IMPULSE_ASSERT(!(inv_a < S(0)) && !(inv_b < S(0)), "inverse masses must be non-negative");
    }

    /// rv = vB - vA
    Vec<S, D> relative_velocity() const noexcept { return vB - vA; }

    /// vA -= wA*J, vB += wB*J. An immovable body is not touched at all, so even an impulse that
    /// overflowed to infinity cannot make its velocity NaN (0 * inf).
    void apply(const Vec<S, D>& J) const noexcept
    {
        if (this->inv_mass_a != S(0)) vA -= this->inv_mass_a * J;
        if (this->inv_mass_b != S(0)) vB += this->inv_mass_b * J;
    }
};

/// Applies impulse `J` to two point masses: `vA -= wA*J`, `vB += wB*J`.
template <class S, int D>
void apply_impulse(Vec<S, D>& vA, detail::same_t<S> inv_mass_a, Vec<S, D>& vB, detail::same_t<S> inv_mass_b,
                   const detail::same_t<Vec<S, D>>& J) noexcept
{
    PointContact<S, D>(vA, inv_mass_a, vB, inv_mass_b).apply(J);
}

// ---------------------------------------------------------------------------------------------
// Normal impulse

/// Normal impulse for a mass model at relative contact velocity `rv`:
///   vn = rv.n,  k = inverse_mass(n),  jn = -(1 + e) * vn / k   if vn < 0 and k > 0, else 0.
/// `e` drops to 0 when the approach speed `-vn` is at or below `threshold`.
/// \tparam Model  a mass model: `Scalar`, `Dim`, `inverse_mass(d)` and `stick_impulse(n, vt)`
///                (PointMasses, RigidContact, or your own; checked by a static_assert)
template <class Model, class S = typename detail::model_types<Model>::Scalar>
S normal_impulse(const Model& m, const VecOf<Model>& rv, const VecOf<Model>& n, detail::same_t<S> e,
                 detail::same_t<S> threshold = S(0)) noexcept
{
    IMPULSE_REQUIRE_MASS_MODEL(Model);
    IMPULSE_ASSERT(is_unit(n), "the contact normal must be a unit vector");
    const S vn = rv.dot(n);
    return bounce_impulse(vn, m.inverse_mass(n), effective_restitution(e, vn, threshold));
}

/// Normal impulse between two point masses: `jn = -(1+e)*vn/(wA+wB)` when approaching, else 0.
/// Nothing is applied; see `resolve` for the whole contact.
template <class S, int D>
S normal_impulse(const Vec<S, D>& vA, detail::same_t<S> inv_mass_a, const Vec<S, D>& vB,
                 detail::same_t<S> inv_mass_b, const detail::same_t<Vec<S, D>>& n, detail::same_t<S> e,
                 detail::same_t<S> threshold = S(0)) noexcept
{
    IMPULSE_ASSERT(!(inv_mass_a < S(0)) && !(inv_mass_b < S(0)), "inverse masses must be non-negative");
    const Vec<S, D> rv = vB - vA;
    return normal_impulse(PointMasses<S, D>{inv_mass_a, inv_mass_b}, rv, n, e, threshold);
}

// ---------------------------------------------------------------------------------------------
// Friction impulse

/// A friction impulse: the vector applied to B (A receives `-J`), its scalar, and the regime.
template <class S, int D>
struct FrictionImpulse {
    Vec<S, D> J = Vec<S, D>::Zero();  ///< friction impulse on B, in the tangent plane of n
    S jt{0};  ///< 2D: signed component along t = (-ny, nx); 3D: the magnitude |J|
    Regime regime{Regime::sticking};  ///< sticking, sliding, or immovable (both bodies)
};

/// Coulomb friction for a mass model at relative contact velocity `rv` (taken *after* the normal
/// impulse `jn` was applied), capped by that `jn`.
///
/// 2D: vt = rv.t, Jt_want = -vt / k(t), clamped by `coulomb` to the [-mu*jn, +mu*jn] band.
/// 3D: vt = rv - (rv.n) n; the impulse that cancels vt (for point masses -vt/(wA+wB)) sticks if
///     its magnitude is <= mu_s*jn; otherwise friction slides with magnitude mu_k*jn opposite vt.
/// No tangential speed gives no friction (and no division); an impulse never reverses the slide.
/// \tparam Model  a mass model: `Scalar`, `Dim`, `inverse_mass(d)` and `stick_impulse(n, vt)`
///                (PointMasses, RigidContact, or your own; checked by a static_assert)
template <class Model, class S = typename detail::model_types<Model>::Scalar, int D = detail::model_types<Model>::Dim>
FrictionImpulse<S, D> friction_impulse(const Model& m, const VecOf<Model>& rv, const VecOf<Model>& n,
                                       detail::same_t<S> jn,
                                       const detail::same_t<Friction<S>>& f) noexcept
{
    IMPULSE_REQUIRE_MASS_MODEL(Model);
    IMPULSE_ASSERT(is_unit(n), "the contact normal must be a unit vector");
    FrictionImpulse<S, D> out;
    if constexpr (D == 2) {
        const Vec<S, 2> t = tangent(n);
        const S vt = rv.dot(t);
        const S k = m.inverse_mass(t);
        if (vt == S(0)) return out;  // nothing slides: sticking, no impulse
        if (!(k > S(0))) {           // no impulse along t can change vt: friction is powerless
            out.regime = Regime::sliding;
            return out;
        }
        const Clamp<S> c = coulomb(-vt / k, jn, f);
        out.jt = c.j;
        out.regime = c.regime;
        out.J = c.j * t;
    } else {
        using std::sqrt;
        const Vec<S, D> vt = rv - rv.dot(n) * n;
        const S speed = detail::safe_norm(vt);  // no underflow to 0 for tiny slides
        if (speed == S(0)) return out;  // nothing slides: sticking, no impulse
        const Vec<S, D> dir = vt / speed;
        const S k = m.inverse_mass(dir);
        if (!(k > S(0))) {
            out.regime = Regime::sliding;
            return out;
        }
        const Vec<S, D> stick = m.stick_impulse(n, vt);
        const Clamp<S> c = coulomb(detail::safe_norm(stick), jn, f);
        out.regime = c.regime;
        if (c.regime == Regime::sticking) {
            out.J = stick;
            out.jt = c.j;
        } else {
            // Slide opposite vt; along dir the impulse changes the slide speed by k per unit, so
            // more than speed/k would reverse it (possible with coupled rotation, or mu_k > mu_s).
            S size = c.j;
            if (size * k > speed) size = speed / k;
            out.J = -size * dir;
            out.jt = size;
        }
    }
    return out;
}

/// Coulomb friction between two point masses whose velocities already include the normal
/// impulse `jn`. Nothing is applied.
template <class S, int D>
FrictionImpulse<S, D> friction_impulse(const Vec<S, D>& vA, detail::same_t<S> inv_mass_a,
                                       const Vec<S, D>& vB, detail::same_t<S> inv_mass_b,
                                       const detail::same_t<Vec<S, D>>& n, detail::same_t<S> jn,
                                       const detail::same_t<Friction<S>>& f) noexcept
{
    IMPULSE_ASSERT(!(inv_mass_a < S(0)) && !(inv_mass_b < S(0)), "inverse masses must be non-negative");
    const Vec<S, D> rv = vB - vA;
    if (!(inv_mass_a + inv_mass_b > S(0))) {  // both immovable: nothing can change, and no division
        FrictionImpulse<S, D> none;
        none.regime = Regime::immovable;
        return none;
    }
    return friction_impulse(PointMasses<S, D>{inv_mass_a, inv_mass_b}, rv, n, jn, f);
}

// ---------------------------------------------------------------------------------------------
// The whole contact

/// What `resolve` did.
template <class S, int D>
struct Result {
    S jn{0};                           ///< normal impulse (>= 0), on B along +n
    Vec<S, D> friction_impulse = Vec<S, D>::Zero();  ///< friction impulse on B (A receives -Jt)
    S jt{0};  ///< 2D: Jt's signed component along t = (-ny, nx); 3D: |Jt|
    Regime regime{Regime::separating};  ///< what the contact did

    /// The total impulse on B: jn*n + Jt.
    Vec<S, D> impulse(const Vec<S, D>& n) const noexcept { return jn * n + friction_impulse; }
};

/// Resolves one contact in place: normal impulse (restitution, threshold) first, applied; then
/// friction from the velocity after it, capped by that jn, applied. Works for any contact type
/// (PointContact here, the rigid contacts of rigid.hpp).
///   both immovable along n  -> immovable, nothing changes
///   vn >= 0                 -> separating, nothing changes
///   otherwise               -> sticking or sliding, as friction decided
/// \tparam Contact  a contact: a mass model (`Scalar`, `Dim`, `inverse_mass(d)`,
///                  `stick_impulse(n, vt)`) with `relative_velocity()` and `apply(J)` (PointContact,
///                  RigidContact, or your own over an engine's storage; checked by a static_assert)
template <class Contact, class S = typename detail::model_types<Contact>::Scalar,
          int D = detail::model_types<Contact>::Dim>
Result<S, D> resolve(const Contact& c, const VecOf<Contact>& n,
                     const Coefficients<typename detail::model_types<Contact>::Scalar>& coefficients) noexcept
{
    IMPULSE_REQUIRE_CONTACT(Contact);
    Result<S, D> r;
    if (!(c.inverse_mass(n) > S(0))) {
        r.regime = Regime::immovable;
        return r;
    }
    const Vec<S, D> rv = c.relative_velocity();
    r.jn = normal_impulse(c, rv, n, coefficients.restitution, coefficients.threshold);
    if (!(r.jn > S(0))) return r;  // separating or resting: untouched
    c.apply(r.jn * n);
    const FrictionImpulse<S, D> f = friction_impulse(c, c.relative_velocity(), n, r.jn, coefficients.friction);
    c.apply(f.J);
    r.friction_impulse = f.J;
    r.jt = f.jt;
    r.regime = f.regime;
    return r;
}

/// Resolves a contact between two point masses in place (see the Contact overload).
template <class S, int D>
Result<S, D> resolve(Vec<S, D>& vA, detail::same_t<S> inv_mass_a, Vec<S, D>& vB, detail::same_t<S> inv_mass_b,
                     const detail::same_t<Vec<S, D>>& n,
                     const detail::same_t<Coefficients<S>>& coefficients) noexcept
{
    return resolve(PointContact<S, D>(vA, inv_mass_a, vB, inv_mass_b), n, coefficients);
}

/// Resolves a contact between two point masses whose velocities are stored in the caller's own
/// memory: the D consecutive scalars at `vA` and `vB` (an engine's `&velocity[i].x`), updated in
/// place through `Eigen::Map`s, with no copies. D is taken from the normal.
template <class S, int D>
Result<S, D> resolve(S* vA, detail::same_t<S> inv_mass_a, S* vB, detail::same_t<S> inv_mass_b, const Vec<S, D>& n,
                     const detail::same_t<Coefficients<S>>& coefficients) noexcept
{
    return resolve(PointContact<S, D>(vA, inv_mass_a, vB, inv_mass_b), n, coefficients);
}

// ---------------------------------------------------------------------------------------------
// Positional correction

/// Position changes that push two overlapping bodies apart.
template <class S, int D>
struct Correction {
    Vec<S, D> dA = Vec<S, D>::Zero();  ///< add to A's position
    Vec<S, D> dB = Vec<S, D>::Zero();  ///< add to B's position
};

/// Linear projection (the seed's positional correction): the overlap beyond `slop`, scaled by
/// `percent`, is removed along n and shared by inverse mass:
///   c = percent * max(pen - slop, 0) / (wA + wB) * n,   dA = -wA*c,   dB = +wB*c.
/// Both immovable gives no change.
template <class S, int D>
Correction<S, D> positional_correction(detail::same_t<S> inv_mass_a, detail::same_t<S> inv_mass_b,
                                       const Vec<S, D>& n, detail::same_t<S> penetration,
                                       detail::same_t<S> percent = S(0.4),
                                       detail::same_t<S> slop = S(0.01)) noexcept
{
    IMPULSE_ASSERT(is_unit(n), "the contact normal must be a unit vector");
    IMPULSE_ASSERT(!(inv_mass_a < S(0)) && !(inv_mass_b < S(0)), "inverse masses must be non-negative");
    Correction<S, D> out;
    const S w = inv_mass_a + inv_mass_b;
    const S excess = penetration - slop;
    if (!(w > S(0)) || !(excess > S(0))) return out;
    const Vec<S, D> c = (percent * excess / w) * n;
    out.dA = -inv_mass_a * c;
    out.dB = inv_mass_b * c;
    return out;
}

}  // namespace impulse
