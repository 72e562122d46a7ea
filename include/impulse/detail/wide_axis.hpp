// SPDX-License-Identifier: MIT
/// \file wide_axis.hpp
/// axis.hpp's one-axis pieces on W contacts at once: `WideMotion` (W bodies' velocities, one lane
/// each), `WideAxis` (W contact axes: speed, apply), `wide_accumulate` and `wide_soft_normal`.
/// Each is the scalar piece rewritten operation for operation in simd.hpp's names, so lane l gives
/// the bits the scalar piece gives on lane l's values (simd.hpp: every operation rounds as the
/// scalar one does, and issues no fused multiply-add of its own). The solver's wide rows
/// (solver.hpp) are built from them; the scalar pieces stay the reference they are tested against.
#pragma once

#include <limits>

#include "simd.hpp"

namespace impulse::detail {

/// Components of an angular quantity: 1 in 2D, 3 in 3D.
template <int D>
constexpr int angular_size = D == 2 ? 1 : 3;

/// W bodies' `Motion`s, lane l the motion of one body.
template <class P, int D>
struct WideMotion {
    P v[D];                   ///< linear velocity
    P w[angular_size<D>];     ///< angular velocity (2D: one component)
    P inv_mass;               ///< 1/m
};

/// The dot product of a and b summed left to right, ((a0 b0 + a1 b1) + a2 b2), as `ordered_dot`
/// (axis.hpp) sums it.
template <class P, int N>
EIGEN_ALWAYS_INLINE P wide_dot(const P (&a)[N], const P (&b)[N]) noexcept
{
    using namespace simd;
    P r = mul(a[0], b[0]);
    for (int k = 1; k < N; ++k) r = add(r, mul(a[k], b[k]));
    return r;
}

/// `row_dot` (axis.hpp) per lane: a0 b0 + (a1 b1 + a2 b2).
template <class P>
EIGEN_ALWAYS_INLINE P wide_row_dot(const P (&a)[3], const P (&b)[3]) noexcept
{
    using namespace simd;
    return add(mul(a[0], b[0]), add(mul(a[1], b[1]), mul(a[2], b[2])));
}

/// a x b per lane, component by component as Eigen's cross product: (a1 b2 - a2 b1, a2 b0 - a0 b2,
/// a0 b1 - a1 b0). a and b hold at least 3 values (a quaternion's first three: its vector part).
template <class P>
EIGEN_ALWAYS_INLINE void wide_cross(const P* a, const P* b, P (&out)[3]) noexcept
{
    using namespace simd;
    for (int c = 0; c < 3; ++c) {
        const int i = (c + 1) % 3, j = (c + 2) % 3;
        out[c] = sub(mul(a[i], b[j]), mul(a[j], b[i]));
    }
}

/// `ordered_product` (axis.hpp) per lane: M v for a 3x3 M held column by column (m[3 c + r] is
/// M(r, c), Eigen's layout), each row M(r,0) v0 + (M(r,1) v1 + M(r,2) v2).
template <class P>
EIGEN_ALWAYS_INLINE void wide_product(const P (&m)[9], const P (&v)[3], P (&out)[3]) noexcept
{
    using namespace simd;
    for (int r = 0; r < 3; ++r) out[r] = add(mul(m[r], v[0]), add(mul(m[3 + r], v[1]), mul(m[6 + r], v[2])));
}

/// W `ContactAxis`es, lane l one axis (d, arms, spins, effective mass as there).
template <class P, int D>
struct WideAxis {
    static constexpr int A = angular_size<D>;
    P d[D];
    P armA[A], armB[A], spinA[A], spinB[A];
    P mass;

    /// ContactAxis::speed per lane: d.(vB - vA) + armB.omegaB - armA.omegaA.
    EIGEN_ALWAYS_INLINE P speed(const WideMotion<P, D>& a, const WideMotion<P, D>& b) const noexcept
    {
        using namespace simd;
        P dv[D];
        for (int k = 0; k < D; ++k) dv[k] = sub(b.v[k], a.v[k]);
        return sub(add(wide_dot(d, dv), wide_dot(armB, b.w)), wide_dot(armA, a.w));
    }

    /// ContactAxis::apply per lane: -j d to A, +j d to B.
    EIGEN_ALWAYS_INLINE void apply(WideMotion<P, D>& a, WideMotion<P, D>& b, const P& j) const noexcept
    {
        using namespace simd;
        const P ja = mul(a.inv_mass, j), jb = mul(b.inv_mass, j);
        for (int k = 0; k < D; ++k) a.v[k] = sub(a.v[k], mul(ja, d[k]));
        for (int k = 0; k < A; ++k) a.w[k] = sub(a.w[k], mul(j, spinA[k]));
        for (int k = 0; k < D; ++k) b.v[k] = add(b.v[k], mul(jb, d[k]));
        for (int k = 0; k < A; ++k) b.w[k] = add(b.w[k], mul(j, spinB[k]));
    }
};

/// `accumulate` per lane: total' = min(max(total + j, lo), hi); returns total' - total.
template <class P>
EIGEN_ALWAYS_INLINE P wide_accumulate(P& total, const P& j, const P& lo, const P& hi) noexcept
{
    using namespace simd;
    const P old = total;
    P next = add(old, j);
    next = select(lt(next, lo), lo, next);
    next = select(lt(hi, next), hi, next);
    total = next;
    return sub(next, old);
}

/// `soft_normal` per lane, with the softness given per lane (a contact with an immovable body is
/// stiffer). `Bias` as `bias` there.
template <bool Bias, class P>
EIGEN_ALWAYS_INLINE P wide_soft_normal(P& total, const P& vn, const P& s, const P& mass, const P& inv_h,
                                       const P& bias_rate, const P& soft_mass_scale, const P& soft_impulse_scale,
                                       const P& neg_push_out) noexcept
{
    using namespace simd;
    const P zero = simd::zero<P>(), one = broadcast<P>(Scalar<P>(1));
    const auto gap = lt(zero, s);  // speculative: close the gap, no faster
    P velocity_bias = zero, mass_scale = one, impulse_scale = zero;
    if (Bias) {
        const P soft = mul(bias_rate, s);
        velocity_bias = select(lt(soft, neg_push_out), neg_push_out, soft);
        mass_scale = soft_mass_scale;
        impulse_scale = soft_impulse_scale;
    }
    velocity_bias = select(gap, mul(s, inv_h), velocity_bias);
    mass_scale = select(gap, one, mass_scale);
    impulse_scale = select(gap, zero, impulse_scale);
    const P j = sub(mul(mul(neg(mass), mass_scale), add(vn, velocity_bias)), mul(impulse_scale, total));
    // accumulate(total, j, 0, inf): nothing exceeds the upper bound.
    const P old = total;
    P next = add(old, j);
    next = select(lt(next, zero), zero, next);
    total = next;
    return sub(next, old);
}

}  // namespace impulse::detail
