// SPDX-License-Identifier: MIT
// Shared helpers for the tests: the 2D/3D x float/double type list and random contacts.
#pragma once

#include <cmath>
#include <limits>
#include <random>

#include <impulse/impulse.hpp>

namespace test {

/// One (scalar, dimension) combination for TEMPLATE_TEST_CASE.
template <class Scalar, int Dim>
struct Space {
    using S = Scalar;
    static constexpr int D = Dim;
    using V = impulse::Vec<Scalar, Dim>;
};
using F2 = Space<float, 2>;
using F3 = Space<float, 3>;
using D2 = Space<double, 2>;
using D3 = Space<double, 3>;

/// Whether two paths that do the same operations in the same order must agree bit for bit. Not where
/// the compiler may fuse a multiply-add (an FMA target) on one path and not on the other; define
/// IMPULSE_TEST_NO_FP_CONTRACT when building with -ffp-contract=off on such a target, where no
/// multiply-add is fused and the bits must match again.
#if (defined(__FMA__) || defined(__ARM_FEATURE_FMA)) && !defined(IMPULSE_TEST_NO_FP_CONTRACT)
inline constexpr bool exact_bits = false;
#else
inline constexpr bool exact_bits = true;
#endif

/// A rounding allowance: `ulps` units of the scalar's epsilon, relative to `scale`.
template <class S>
S tol(S scale, S ulps = S(64))
{
    return ulps * std::numeric_limits<S>::epsilon() * scale;
}

template <class S, int D>
bool all_finite(const impulse::Vec<S, D>& v)
{
    for (int i = 0; i < D; ++i)
        if (!std::isfinite(v[i])) return false;
    return true;
}

/// Deterministic random contacts (fixed seed per test).
template <class S, int D>
struct Random {
    std::mt19937 gen;
    explicit Random(unsigned seed) : gen(seed) {}

    S uniform(S lo, S hi) { return std::uniform_real_distribution<S>(lo, hi)(gen); }
    bool chance(double p) { return std::bernoulli_distribution(p)(gen); }

    impulse::Vec<S, D> vec(S lo, S hi)
    {
        impulse::Vec<S, D> v;
        for (int i = 0; i < D; ++i) v[i] = uniform(lo, hi);
        return v;
    }
    impulse::Vec<S, D> unit()
    {
        for (;;) {
            impulse::Vec<S, D> v = vec(S(-1), S(1));
            const S len = v.norm();
            if (len > S(0.1) && len <= S(1)) return v / len;
        }
    }
    /// Inverse mass: mostly movable (masses 0.1 .. 10), sometimes immovable when allowed.
    S inverse_mass(bool allow_static)
    {
        if (allow_static && chance(0.15)) return S(0);
        return S(1) / uniform(S(0.1), S(10));
    }
};

}  // namespace test
