// SPDX-License-Identifier: MIT
/// \file config.hpp
/// Version, the overridable assertion hook, and the vector alias every header uses.
#pragma once

#include <cmath>
#include <limits>

#include <Eigen/Core>

/// Major version: incremented for incompatible API changes (0 while the API settles).
#define IMPULSE_VERSION_MAJOR 0
/// Minor version: incremented for additions.
#define IMPULSE_VERSION_MINOR 1
/// Patch version: incremented for fixes. The three must equal `project(VERSION)` in
/// CMakeLists.txt (a test checks it).
#define IMPULSE_VERSION_PATCH 0
/// Version as one comparable number: major * 10000 + minor * 100 + patch.
#define IMPULSE_VERSION (IMPULSE_VERSION_MAJOR * 10000 + IMPULSE_VERSION_MINOR * 100 + IMPULSE_VERSION_PATCH)

/// \def IMPULSE_ASSERT(cond, msg)
/// Checks a caller's contract (unit normal, non-negative inverse mass, e in [0,1], mu >= 0).
/// Active unless NDEBUG is defined (like `assert`), or IMPULSE_NO_ASSERT is defined.
/// Define it yourself before including any impulse header to route failures into an engine's
/// own handler, the way `eigen_assert` is overridden:
///
///     #define IMPULSE_ASSERT(cond, msg) my_engine_check((cond), (msg), __FILE__, __LINE__)
///
/// The library never evaluates anything with side effects inside the condition.
#ifndef IMPULSE_ASSERT
#if defined(NDEBUG) || defined(IMPULSE_NO_ASSERT)
#define IMPULSE_ASSERT(cond, msg) ((void)0)
#else
#include <cstdio>
#include <cstdlib>
#define IMPULSE_ASSERT(cond, msg) \
    ((cond) ? (void)0 : ::impulse::detail::assert_fail(#cond, msg, __FILE__, __LINE__))
namespace impulse::detail {
[[noreturn]] inline void assert_fail(const char* cond, const char* msg, const char* file, int line) noexcept
{
    std::fprintf(stderr, "%s:%d: impulse: %s (failed: %s)\n", file, line, msg, cond);
    std::abort();
}
}  // namespace impulse::detail
#endif
#endif

/// Contact response: normal (restitution) and Coulomb friction impulses over Eigen vectors, in
/// 2D and 3D, float and double. The conventions are in docs/conventions.md.
namespace impulse {

/// A column vector of dimension D (2 or 3) over scalar S: the only vector type in the API.
template <class S, int D>
using Vec = Eigen::Matrix<S, D, 1>;

using Vec2f = Vec<float, 2>;   ///< 2D, float
using Vec3f = Vec<float, 3>;   ///< 3D, float
using Vec2d = Vec<double, 2>;  ///< 2D, double
using Vec3d = Vec<double, 3>;  ///< 3D, double

/// True when `n` has unit length to within what normalising in float leaves (|n.n - 1| <= 1e-4).
/// The contract every normal passed to impulse must meet.
template <class S, int D>
bool is_unit(const Vec<S, D>& n) noexcept
{
    using std::abs;
    return abs(n.squaredNorm() - S(1)) <= S(1e-4);
}

namespace detail {
/// |v| without overflow or underflow in the squares: sqrt(v.v) where v.v is a normal number,
/// otherwise scaled by the largest component first (|v| = m |v/m|). Same bits as v.norm() in the
/// ordinary range; right (not 0 or inf) for components down to the smallest and up to the largest.
template <class S, int D>
S safe_norm(const Vec<S, D>& v) noexcept
{
    using std::abs;
    using std::sqrt;
    const S n2 = v.squaredNorm();
    if (n2 >= std::numeric_limits<S>::min() && n2 <= std::numeric_limits<S>::max()) return sqrt(n2);
    S m(0);
    for (int i = 0; i < D; ++i)
        if (abs(v[i]) > m) m = abs(v[i]);
    if (!(m > S(0))) return S(0);  // the zero vector
    const Vec<S, D> u = v / m;
    return m * sqrt(u.squaredNorm());
}

template <class T>
struct identity {
    using type = T;
};
/// `T` in a non-deduced context: scalar parameters take their type from the vectors, so
/// `normal_impulse(va, 0.5f, vb, 1.0f, n, 0.5)` compiles for float vectors.
template <class T>
using same_t = typename identity<T>::type;
}  // namespace detail

}  // namespace impulse
