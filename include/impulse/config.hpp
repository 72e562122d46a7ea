// SPDX-License-Identifier: MIT
/// \file config.hpp
/// Version, the overridable assertion hook, and the vector alias every header uses.
#pragma once

#include <cmath>

#include <Eigen/Core>

#define IMPULSE_VERSION_MAJOR 0
#define IMPULSE_VERSION_MINOR 1
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

namespace impulse {

/// A column vector of dimension D (2 or 3) over scalar S: the only vector type in the API.
template <class S, int D>
using Vec = Eigen::Matrix<S, D, 1>;

using Vec2f = Vec<float, 2>;
using Vec3f = Vec<float, 3>;
using Vec2d = Vec<double, 2>;
using Vec3d = Vec<double, 3>;

/// True when `n` has unit length to within what normalising in float leaves (|n.n - 1| <= 1e-4).
/// The contract every normal passed to impulse must meet.
template <class S, int D>
bool is_unit(const Vec<S, D>& n) noexcept
{
    using std::abs;
    return abs(n.squaredNorm() - S(1)) <= S(1e-4);
}

namespace detail {
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
