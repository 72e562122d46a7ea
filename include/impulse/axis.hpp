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

#include "config.hpp"
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
/// `lambda` to the running `total`, clamps the total to [lo, hi], and returns the change that
/// must actually be applied this iteration (`new total - old total`).
template <class S>
S accumulate(S& total, detail::same_t<S> lambda, detail::same_t<S> lo, detail::same_t<S> hi) noexcept
{
    const S old = total;
    S next = old + lambda;
    if (next < lo) next = lo;
    if (next > hi) next = hi;
    total = next;
    return next - old;
}

}  // namespace impulse
