// SPDX-License-Identifier: MIT
/// \file material.hpp
/// Surface materials, the coefficients of a touching pair, and the rules that mix one from two.
#pragma once

#include <cmath>
#include <cstdint>

#include "config.hpp"

namespace impulse {

/// How two bodies' coefficients become the pair's.
///
/// Ordered by priority: when the two materials ask for different rules, the higher one wins
/// (PhysX's order average < min < multiply < max, with the geometric mean below all of them
/// because it is the friction default: any rule a material asks for explicitly overrides it).
enum class Combine : std::uint8_t {
    geometric_mean = 0,  ///< sqrt(a*b): a frictionless surface stays frictionless (Box2D, Bullet)
    average = 1,         ///< (a+b)/2
    min = 2,             ///< min(a, b): the restitution default (the softer body decides)
    multiply = 3,        ///< a*b
    max = 4,             ///< max(a, b)
};

/// The rule used when material A asks for `a` and material B for `b`: the higher priority one.
constexpr Combine combine_rule(Combine a, Combine b) noexcept { return a > b ? a : b; }

/// Mixes two coefficients with a rule. Non-negative inputs give a non-negative result.
template <class S>
S combine(S a, S b, Combine rule) noexcept
{
    using std::sqrt;
    switch (rule) {
    case Combine::geometric_mean: return sqrt(a * b);
    case Combine::average: return (a + b) / S(2);
    case Combine::min: return b < a ? b : a;
    case Combine::multiply: return a * b;
    case Combine::max: return a < b ? b : a;
    }
    return sqrt(a * b);  // unreachable for valid enumerators
}

/// Coulomb friction of a pair: `mu_s` decides whether the contact sticks, `mu_k` sets the
/// impulse while it slides. One coefficient (the implicit constructor) means `mu_s = mu_k = mu`,
/// which is exactly the clamp of the wanted impulse to `[-mu*jn, +mu*jn]`.
template <class S>
struct Friction {
    S mu_s{0};  ///< static coefficient: stick while |Jt_want| <= mu_s*jn
    S mu_k{0};  ///< kinetic (dynamic) coefficient: |Jt| = mu_k*jn while sliding

    constexpr Friction() noexcept = default;  ///< frictionless
    /// One coefficient: `mu_s = mu_k = mu`. Implicit, so a plain `mu` is accepted wherever a
    /// Friction is.
    constexpr Friction(S mu) noexcept : mu_s(mu), mu_k(mu) {}  // NOLINT: implicit on purpose
    /// Separate static and kinetic coefficients.
    constexpr Friction(S static_mu, S kinetic_mu) noexcept : mu_s(static_mu), mu_k(kinetic_mu) {}
};

/// Everything about a touching pair that is not geometry or state: the inputs of `resolve`.
template <class S>
struct Coefficients {
    S restitution{0};      ///< e in [0, 1]: 1 elastic, 0 perfectly inelastic
    Friction<S> friction;  ///< Coulomb coefficients of the pair
    S threshold{0};        ///< approach speeds at or below this do not bounce (e counts as 0)
};

/// A body's surface. Defaults are those of the seed lesson: no bounce, mu_s 0.6, mu_k 0.4.
template <class S>
struct Material {
    S restitution{0};                                   ///< e in [0, 1]
    S static_friction{S(0.6)};                          ///< mu_s >= 0
    S dynamic_friction{S(0.4)};                         ///< mu_k >= 0 (kinetic)
    Combine friction_combine{Combine::geometric_mean};  ///< rule this surface asks for friction
    Combine restitution_combine{Combine::min};          ///< rule this surface asks for restitution
};

/// The pair's coefficients from two materials, each coefficient mixed by the higher-priority rule
/// of the two materials. `threshold` is a property of the simulation, not of a surface.
template <class S>
Coefficients<S> mix(const Material<S>& a, const Material<S>& b, S threshold = S(0)) noexcept
{
    IMPULSE_ASSERT(a.restitution >= S(0) && a.restitution <= S(1) && b.restitution >= S(0) &&
                       b.restitution <= S(1),
                   "restitution must lie in [0, 1]");
    IMPULSE_ASSERT(a.static_friction >= S(0) && a.dynamic_friction >= S(0) &&
                       b.static_friction >= S(0) && b.dynamic_friction >= S(0),
                   "friction coefficients must be non-negative");
    const Combine fr = combine_rule(a.friction_combine, b.friction_combine);
    const Combine er = combine_rule(a.restitution_combine, b.restitution_combine);
    Coefficients<S> c;
    c.restitution = combine(a.restitution, b.restitution, er);
    c.friction = Friction<S>(combine(a.static_friction, b.static_friction, fr),
                             combine(a.dynamic_friction, b.dynamic_friction, fr));
    c.threshold = threshold;
    return c;
}

}  // namespace impulse
