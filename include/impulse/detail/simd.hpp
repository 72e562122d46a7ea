// SPDX-License-Identifier: MIT
/// \file simd.hpp
/// Wide arithmetic on float and double: the instruction set, chosen once at compile time, and one
/// set of operation names that every register type of that set answers to. Kernels written with
/// these names (the batch kernel, detail/batch_kernel.hpp) compile unchanged on every target.
///
/// A wide value `P` holds `lanes<P>` scalars of one type, `Scalar<P>` (float or double), and every
/// operation acts lane by lane: `add(a, b)` holds `a[l] + b[l]` in each lane l. A comparison gives
/// a `Mask<P>`, true or false per lane, which the mask operations combine and `select` uses.
/// Every arithmetic operation rounds as the scalar operation does (`div` and `sqrt` correctly
/// rounded, `neg` flips the sign bit as the scalar minus does, `min` and `max` are `std::min` and
/// `std::max`), so scalar code rewritten with these names, operation for operation, gives the
/// scalar code's bits in every lane. The layer issues no fused multiply-add: where the target has
/// FMA the compiler may contract a `mul` followed by an `add`, as it may in scalar code, unless
/// told not to (`-ffp-contract=off`).
///
/// **The ladder.** Eigen decides how the target vectorizes (its EIGEN_VECTORIZE_* macros: the
/// compiler's target flags, or EIGEN_DONT_VECTORIZE); the widest rung it allows is taken:
///
///     rung      registers (float / double lanes)            masks
///     AVX-512   __m512 (16) / __m512d (8), and the AVX and   mask registers (__mmask16, __mmask8)
///               SSE2 registers below for narrower blocks
///     AVX       __m256 (8) / __m256d (4), with or without    a register of the same type
///               AVX2; and the SSE2 registers
///     SSE2      __m128 (4) / __m128d (2)                     a register of the same type
///     NEON      float32x4_t (4) / float64x2_t (2), AArch64    a register of the same type
///     scalar    float / double themselves (1)                bool
///
/// The scalar rung serves every other target, and 32-bit ARM too: its NEON flushes subnormal
/// numbers to zero and has no division or square root, so its lanes would not round as the
/// scalar operations do. The scalar operations (width 1) are defined on every target.
/// `Twin<P>` is two registers side by side, one wide value of twice the lanes (every operation
/// on each half), for kernels that want more independent work per step than one register holds.
///
/// **Operations** (P wide, M = Mask<P>, S = Scalar<P>); where a rung differs from Eigen's packet
/// math (`Eigen::internal`, which the rest uses), it says so:
///
///     load<P>(const S*), store(S*, P)     unaligned, lanes<P> scalars
///     broadcast<P>(S), zero<P>()          every lane the same (zero: +0)
///     add sub mul div                     + - * /
///     sqrt                                correctly rounded: the instruction on every rung (Eigen's
///                                         float sqrt is an approximation under EIGEN_FAST_MATH)
///     min max                             std::min, std::max: `b < a ? b : a`, `a < b ? b : a`,
///                                         NaN and signed zeros included (x86: the instruction, its
///                                         operands swapped; NEON: compare and select, its own
///                                         min/max differ on NaN and on zeros)
///     neg                                 flips the sign bit (Eigen's AVX and AVX-512 negation is 0 - x,
///                                         which makes -(+0) = +0)
///     abs                                 clears the sign bit
///     lt le eq -> M                       ordered and quiet: false where a lane is NaN
///     mask_and mask_or mask_andnot        a & b, a | b, a & ~b
///     select(M, P a, P b)                 m ? a : b (AVX without AVX2: bitwise, see there;
///                                         AVX-512: a blend under the mask register)
///     keep(M, P a)                        m ? a : +0
///     any all movemask                    some lane, every lane, bit l = lane l (x86: movemask
///                                         or the mask register; NEON: lane by lane)
///     broadcast_code<P>(std::uint8_t)     every lane holding an integer code 0..255 as its bits
///                                         (carried by select, never computed with)
///     store_codes(void*, P)               lane l's code as byte l, lanes<P> bytes (x86: packing
///                                         instructions; NEON: lane by lane)
///     gather<P>(const S*, const I*)       lane l from base[index[l]] (lane by lane)
///     scatter(S*, const I*, P)            base[index[l]] = lane l, in lane order (lane by lane)
///     Rows4<P>::gather, ::scatter         lanes<P> rows of 4 scalars to 4 wide values and back
///                                         (SSE2, AVX: a transpose; elsewhere lane by lane)
///
/// Types: `Wide<S>` is the widest register for S on the rung (`Wide256<S>` the widest of at most
/// 256 bits); `Narrower<P>` the next narrower
/// register of the same scalar (a Twin's half; AVX-512, then AVX, then SSE2 registers), or P
/// itself at the narrowest; `Bits<S>` the unsigned integer of S's size. The operations are
/// `noexcept` and inline; they compile without exceptions or RTTI.
///
/// Like the scalar operations, the lanes may raise IEEE flags (inexact, division by zero,
/// invalid) for values a kernel computes and then does not select.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <Eigen/Core>

// Eigen's packet types carry attributes (__m256 and friends) that GCC reports dropping when they
// are used as template arguments; they are dropped on purpose, everywhere Eigen does the same.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
#endif

// ---------------------------------------------------------------------------------------------
// The ladder, once. Internal macros (not undefined at the end: kernels in other headers test
// them): IMPULSE_SIMD_SSE2 / _AVX / _AVX512 say which x86 registers exist (each rung has those
// of the rungs below it), IMPULSE_SIMD_AVX2 whether AVX has its integer half, IMPULSE_SIMD_NEON
// the AArch64 rung. None of them: the scalar rung.
// ---------------------------------------------------------------------------------------------
#if defined(EIGEN_VECTORIZE_AVX512)
#define IMPULSE_SIMD_AVX512 1
#define IMPULSE_SIMD_AVX 1
#define IMPULSE_SIMD_SSE2 1
#elif defined(EIGEN_VECTORIZE_AVX)
#define IMPULSE_SIMD_AVX 1
#define IMPULSE_SIMD_SSE2 1
#elif defined(EIGEN_VECTORIZE_SSE2)
#define IMPULSE_SIMD_SSE2 1
#elif defined(EIGEN_VECTORIZE_NEON) && (defined(__aarch64__) || defined(_M_ARM64))
#define IMPULSE_SIMD_NEON 1
#endif
#if defined(IMPULSE_SIMD_AVX) && defined(EIGEN_VECTORIZE_AVX2)
#define IMPULSE_SIMD_AVX2 1
#endif

#if defined(__GNUC__) || defined(__clang__)
/// Unrolls the loop after it (over the components of a vector of wide values) whatever the
/// optimisation level: at -O2 GCC would keep the registers of an unrollable loop in memory.
#define IMPULSE_SIMD_UNROLL _Pragma("GCC unroll 4")
#else
/// Unrolls the loop after it where the compiler has an unroll pragma (here: nothing).
#define IMPULSE_SIMD_UNROLL
#endif

namespace impulse::detail::simd {

namespace ei = Eigen::internal;

/// The rungs of the ladder.
enum class Isa { scalar, sse2, avx, avx2, avx512, neon };

/// The rung this target stands on.
#if defined(IMPULSE_SIMD_AVX512)
inline constexpr Isa isa = Isa::avx512;
#elif defined(IMPULSE_SIMD_AVX2)
inline constexpr Isa isa = Isa::avx2;
#elif defined(IMPULSE_SIMD_AVX)
inline constexpr Isa isa = Isa::avx;
#elif defined(IMPULSE_SIMD_SSE2)
inline constexpr Isa isa = Isa::sse2;
#elif defined(IMPULSE_SIMD_NEON)
inline constexpr Isa isa = Isa::neon;
#else
inline constexpr Isa isa = Isa::scalar;
#endif

/// Unsigned integer of a scalar's size: the bits of one lane.
template <class S>
using Bits = std::conditional_t<sizeof(S) == 4, std::uint32_t, std::uint64_t>;

/// Two registers side by side: one wide value of twice the lanes, `lo` holding the first half.
template <class P>
struct Twin {
    P lo, hi;
};

// ---------------------------------------------------------------------------------------------
// The wide types of the rung
// ---------------------------------------------------------------------------------------------

/// How a type takes part: not wide, a scalar (width 1), one of the rung's registers, or a Twin.
enum class Kind { none, scalar, packet, twin };

/// What the layer knows of a wide type P: `kind`, and for wide types its `Scalar`, `lanes`, the
/// `Mask` its comparisons give and the `Narrower` register of the same scalar.
template <class P>
struct Register {
    static constexpr Kind kind = Kind::none;
};
/// A scalar is a wide value of one lane; its masks are bool.
template <class S>
struct ScalarRegister {
    static constexpr Kind kind = Kind::scalar;
    using Scalar = S;
    using Mask = bool;
    using Narrower = S;
    static constexpr int lanes = 1;
};
template <>
struct Register<float> : ScalarRegister<float> {};
template <>
struct Register<double> : ScalarRegister<double> {};
/// A register of Eigen's packet math; comparisons give the same type, all bits set or none.
template <class P, class S, int N, class M = P, class H = P>
struct PacketRegister {
    static constexpr Kind kind = Kind::packet;
    using Scalar = S;
    using Mask = M;
    using Narrower = H;
    static constexpr int lanes = N;
};
/// A Twin of wide values is wide (a Twin of bool or of AVX-512 masks is only a mask).
template <class P, bool = Register<P>::kind != Kind::none>
struct TwinRegister {
    static constexpr Kind kind = Kind::none;
};
template <class P>
struct TwinRegister<P, true> {
    static constexpr Kind kind = Kind::twin;
    using Scalar = typename Register<P>::Scalar;
    using Mask = Twin<typename Register<P>::Mask>;
    using Narrower = P;
    static constexpr int lanes = 2 * Register<P>::lanes;
};
template <class P>
struct Register<Twin<P>> : TwinRegister<P> {};

#if defined(IMPULSE_SIMD_SSE2)
template <>
struct Register<__m128> : PacketRegister<__m128, float, 4> {};
template <>
struct Register<__m128d> : PacketRegister<__m128d, double, 2> {};
#endif
#if defined(IMPULSE_SIMD_AVX)
template <>
struct Register<__m256> : PacketRegister<__m256, float, 8, __m256, __m128> {};
template <>
struct Register<__m256d> : PacketRegister<__m256d, double, 4, __m256d, __m128d> {};
#endif
#if defined(IMPULSE_SIMD_AVX512)
template <>
struct Register<__m512> : PacketRegister<__m512, float, 16, __mmask16, __m256> {};
template <>
struct Register<__m512d> : PacketRegister<__m512d, double, 8, __mmask8, __m256d> {};
#endif
#if defined(IMPULSE_SIMD_NEON)
template <>
struct Register<float32x4_t> : PacketRegister<float32x4_t, float, 4> {};
template <>
struct Register<float64x2_t> : PacketRegister<float64x2_t, double, 2> {};
#endif

/// The rung's widest registers for float and double (the scalars themselves on the scalar rung).
#if defined(IMPULSE_SIMD_AVX512)
using WideFloat = __m512;
using WideDouble = __m512d;
#elif defined(IMPULSE_SIMD_AVX)
using WideFloat = __m256;
using WideDouble = __m256d;
#elif defined(IMPULSE_SIMD_SSE2)
using WideFloat = __m128;
using WideDouble = __m128d;
#elif defined(IMPULSE_SIMD_NEON)
using WideFloat = float32x4_t;
using WideDouble = float64x2_t;
#else
using WideFloat = float;
using WideDouble = double;
#endif

/// The widest register for S: `lanes<Wide<S>>` scalars at once (S itself for other scalars).
template <class S>
using Wide = std::conditional_t<std::is_same<S, float>::value, WideFloat,
                                std::conditional_t<std::is_same<S, double>::value, WideDouble, S>>;

/// The scalar in each lane of P.
template <class P>
using Scalar = typename Register<P>::Scalar;
/// What comparisons of P give.
template <class P>
using Mask = typename Register<P>::Mask;
/// The next narrower register of P's scalar, or P itself at the narrowest.
template <class P>
using Narrower = typename Register<P>::Narrower;
/// Scalars in a wide value of type P.
template <class P>
constexpr int lanes = Register<P>::lanes;

/// The widest register for float or double of at most 256 bits: `Wide<S>`, except on the AVX-512
/// rung, where it is the AVX register (8 floats, 4 doubles). For kernels that move each lane's data
/// through `Rows4`, which transposes SSE2 and AVX registers but fills AVX-512 ones lane by lane.
template <class S>
using Wide256 = std::conditional_t<(lanes<Wide<S>> * sizeof(S) > 32), Narrower<Wide<S>>, Wide<S>>;

/// Lanes of a mask type: those of the register it is (bool: 1; AVX-512 masks below).
template <class M>
constexpr int mask_lanes = Register<M>::lanes;
template <>
inline constexpr int mask_lanes<bool> = 1;
template <class M>
constexpr int mask_lanes<Twin<M>> = 2 * mask_lanes<M>;
#if defined(IMPULSE_SIMD_AVX512)
template <>
inline constexpr int mask_lanes<__mmask16> = 16;
template <>
inline constexpr int mask_lanes<__mmask8> = 8;
#endif

/// Overloads for one kind of wide type (SFINAE): `template <class P, If<P, Kind::packet> = 0>`.
template <class P, Kind K>
using If = std::enable_if_t<Register<P>::kind == K, int>;

// ---------------------------------------------------------------------------------------------
// Load, store, broadcast (by kind: P is named, not deduced)
// ---------------------------------------------------------------------------------------------

/// Memory access and broadcasts for wide type P.
template <class P, Kind = Register<P>::kind>
struct Access;
template <class S>
struct Access<S, Kind::scalar> {
    static EIGEN_STRONG_INLINE S load(const S* p) noexcept { return *p; }
    static EIGEN_STRONG_INLINE void store(S* p, S x) noexcept { *p = x; }
    static EIGEN_STRONG_INLINE S broadcast(S x) noexcept { return x; }
};
template <class P>
struct Access<P, Kind::packet> {
    using S = Scalar<P>;
    static EIGEN_STRONG_INLINE P load(const S* p) noexcept { return ei::ploadu<P>(p); }
    static EIGEN_STRONG_INLINE void store(S* p, const P& x) noexcept { ei::pstoreu(p, x); }
    static EIGEN_STRONG_INLINE P broadcast(S x) noexcept { return ei::pset1<P>(x); }
};
template <class P>
struct Access<Twin<P>, Kind::twin> {
    using S = Scalar<P>;
    static constexpr int half = lanes<P>;
    static EIGEN_STRONG_INLINE Twin<P> load(const S* p) noexcept
    {
        return {Access<P>::load(p), Access<P>::load(p + half)};
    }
    static EIGEN_STRONG_INLINE void store(S* p, const Twin<P>& x) noexcept
    {
        Access<P>::store(p, x.lo);
        Access<P>::store(p + half, x.hi);
    }
    static EIGEN_STRONG_INLINE Twin<P> broadcast(S x) noexcept { return {Access<P>::broadcast(x), Access<P>::broadcast(x)}; }
};

/// lanes<P> scalars from p (any alignment).
template <class P>
EIGEN_STRONG_INLINE P load(const Scalar<P>* p) noexcept
{
    return Access<P>::load(p);
}
/// Stores the lanes of x to p (any alignment).
template <class P>
EIGEN_STRONG_INLINE void store(Scalar<P>* p, const P& x) noexcept
{
    Access<P>::store(p, x);
}
/// x in every lane.
template <class P>
EIGEN_STRONG_INLINE P broadcast(Scalar<P> x) noexcept
{
    return Access<P>::broadcast(x);
}
/// +0 in every lane.
template <class P>
EIGEN_STRONG_INLINE P zero() noexcept
{
    return Access<P>::broadcast(Scalar<P>(0));
}
/// Every lane holding the integer `code` as its bits: a value to move with `select` (never to
/// compute with) and to store with `store_codes`.
template <class P>
EIGEN_STRONG_INLINE P broadcast_code(std::uint8_t code) noexcept
{
    const Bits<Scalar<P>> u = code;
    Scalar<P> x;
    std::memcpy(&x, &u, sizeof x);
    return Access<P>::broadcast(x);
}

/// Lane l from base[index[l]].
template <class P, class I>
EIGEN_STRONG_INLINE P gather(const Scalar<P>* base, const I* index) noexcept
{
    Scalar<P> lane[lanes<P>];
    for (int l = 0; l < lanes<P>; ++l) lane[l] = base[index[l]];
    return Access<P>::load(lane);
}
/// base[index[l]] = lane l, in lane order (of two lanes with the same index, the later stays).
template <class P, class I>
EIGEN_STRONG_INLINE void scatter(Scalar<P>* base, const I* index, const P& x) noexcept
{
    Scalar<P> lane[lanes<P>];
    Access<P>::store(lane, x);
    for (int l = 0; l < lanes<P>; ++l) base[index[l]] = lane[l];
}

// ---------------------------------------------------------------------------------------------
// The scalar rung: width 1, masks bool (defined on every target)
// ---------------------------------------------------------------------------------------------

template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE S add(S a, S b) noexcept { return a + b; }
template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE S sub(S a, S b) noexcept { return a - b; }
template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE S mul(S a, S b) noexcept { return a * b; }
template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE S div(S a, S b) noexcept { return a / b; }
template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE S sqrt(S x) noexcept { return std::sqrt(x); }
template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE S min(S a, S b) noexcept { return b < a ? b : a; }
template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE S max(S a, S b) noexcept { return a < b ? b : a; }
template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE S neg(S x) noexcept { return -x; }
template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE S abs(S x) noexcept { return std::abs(x); }
template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE bool lt(S a, S b) noexcept { return a < b; }
template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE bool le(S a, S b) noexcept { return a <= b; }
template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE bool eq(S a, S b) noexcept { return a == b; }
template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE S select(bool m, S a, S b) noexcept { return m ? a : b; }
template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE S keep(bool m, S a) noexcept { return m ? a : S(0); }
template <class S, If<S, Kind::scalar> = 0>
EIGEN_STRONG_INLINE void store_codes(void* out, S x) noexcept
{
    Bits<S> u;
    std::memcpy(&u, &x, sizeof u);
    const auto byte = static_cast<std::uint8_t>(u);
    std::memcpy(out, &byte, 1);
}
EIGEN_STRONG_INLINE bool mask_and(bool a, bool b) noexcept { return a && b; }
EIGEN_STRONG_INLINE bool mask_or(bool a, bool b) noexcept { return a || b; }
EIGEN_STRONG_INLINE bool mask_andnot(bool a, bool b) noexcept { return a && !b; }
EIGEN_STRONG_INLINE std::uint32_t movemask(bool m) noexcept { return m ? 1u : 0u; }

// ---------------------------------------------------------------------------------------------
// Registers: Eigen's packet math, for every register of the rung; the rungs' own sections below
// replace what Eigen does differently or lacks, and each gives its square root.
// ---------------------------------------------------------------------------------------------

template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P add(const P& a, const P& b) noexcept { return ei::padd(a, b); }
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P sub(const P& a, const P& b) noexcept { return ei::psub(a, b); }
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P mul(const P& a, const P& b) noexcept { return ei::pmul(a, b); }
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P div(const P& a, const P& b) noexcept { return ei::pdiv(a, b); }
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P abs(const P& x) noexcept { return ei::pabs(x); }
/// -x as a flip of the sign bit, on every rung (see the table above for why not Eigen's).
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P neg(const P& x) noexcept { return ei::pxor(x, ei::pset1<P>(-Scalar<P>(0))); }
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P lt(const P& a, const P& b) noexcept { return ei::pcmp_lt(a, b); }
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P le(const P& a, const P& b) noexcept { return ei::pcmp_le(a, b); }
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P eq(const P& a, const P& b) noexcept { return ei::pcmp_eq(a, b); }
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P mask_and(const P& a, const P& b) noexcept { return ei::pand(a, b); }
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P mask_or(const P& a, const P& b) noexcept { return ei::por(a, b); }
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P mask_andnot(const P& a, const P& b) noexcept { return ei::pandnot(a, b); }
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P select(const P& m, const P& a, const P& b) noexcept { return ei::pselect(m, a, b); }
/// m ? a : +0, as a plain AND (+0 has no bit set).
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P keep(const P& m, const P& a) noexcept { return ei::pand(m, a); }
/// min and max by comparison and select (NEON; x86 has the instructions, below).
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P min(const P& a, const P& b) noexcept { return select(lt(b, a), b, a); }
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE P max(const P& a, const P& b) noexcept { return select(lt(a, b), b, a); }
/// Bit l set where lane l of the mask is true, lane by lane through memory.
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE std::uint32_t movemask(const P& m) noexcept
{
    using S = Scalar<P>;
    S stored[lanes<P>];
    Bits<S> lane[lanes<P>];
    ei::pstoreu(stored, m);
    std::memcpy(lane, stored, sizeof lane);
    std::uint32_t bits = 0;
    for (int l = 0; l < lanes<P>; ++l)
        if (lane[l] != 0) bits |= std::uint32_t(1) << l;
    return bits;
}
/// Lane l's code (from broadcast_code) as byte l, lane by lane through memory.
template <class P, If<P, Kind::packet> = 0>
EIGEN_STRONG_INLINE void store_codes(void* out, const P& x) noexcept
{
    using S = Scalar<P>;
    S stored[lanes<P>];
    Bits<S> lane[lanes<P>];
    std::uint8_t bytes[lanes<P>];
    ei::pstoreu(stored, x);
    std::memcpy(lane, stored, sizeof lane);
    for (int l = 0; l < lanes<P>; ++l) bytes[l] = static_cast<std::uint8_t>(lane[l]);
    std::memcpy(out, bytes, sizeof bytes);
}

// ---------------------------------------------------------------------------------------------
// SSE2: __m128, __m128d (also the narrowest registers of the AVX and AVX-512 rungs)
// ---------------------------------------------------------------------------------------------
#if defined(IMPULSE_SIMD_SSE2)
/// sqrt, min, max and movemask of the x86 register type P, whose instructions are named
/// PREFIX_op_SUFFIX (_mm_sqrt_ps, _mm256_min_pd, ...). minps(x, y) is x < y ? x : y, so
/// std::min(a, b) = b < a ? b : a is minps(b, a); maxps alike. Internal: undefined after AVX.
#define IMPULSE_SIMD_X86(P, PREFIX, SUFFIX)                                                                   \
    EIGEN_STRONG_INLINE P sqrt(const P& x) noexcept { return PREFIX##_sqrt_##SUFFIX(x); }                     \
    EIGEN_STRONG_INLINE P min(const P& a, const P& b) noexcept { return PREFIX##_min_##SUFFIX(b, a); }        \
    EIGEN_STRONG_INLINE P max(const P& a, const P& b) noexcept { return PREFIX##_max_##SUFFIX(b, a); }        \
    EIGEN_STRONG_INLINE std::uint32_t movemask(const P& m) noexcept                                           \
    {                                                                                                         \
        return std::uint32_t(PREFIX##_movemask_##SUFFIX(m));                                                  \
    }
IMPULSE_SIMD_X86(__m128, _mm, ps)
IMPULSE_SIMD_X86(__m128d, _mm, pd)
/// Packs 32-bit lanes holding codes 0..255 to bytes: byte l of the result is lane l's code (lo's
/// four lanes, then hi's; the packing saturates, which leaves such codes as they are).
EIGEN_STRONG_INLINE __m128i pack_codes(const __m128i& lo, const __m128i& hi) noexcept
{
    const __m128i w = _mm_packs_epi32(lo, hi);  // 8 x 16 bits
    return _mm_packus_epi16(w, w);              // 16 x 8 bits
}
EIGEN_STRONG_INLINE void store_codes(void* out, const __m128& x) noexcept
{
    const __m128i i = _mm_castps_si128(x);
    const int b = _mm_cvtsi128_si32(pack_codes(i, i));
    std::memcpy(out, &b, 4);
}
EIGEN_STRONG_INLINE void store_codes(void* out, const __m128d& x) noexcept
{
    // 64-bit lanes read as 32-bit ones: c0 0 c1 0; packing twice keeps c0 c1
    const __m128i i = _mm_castpd_si128(x);
    const __m128i w = _mm_packs_epi32(i, i);
    const int b = _mm_cvtsi128_si32(pack_codes(w, w));
    std::memcpy(out, &b, 2);
}
#endif

// ---------------------------------------------------------------------------------------------
// AVX: __m256, __m256d (also the middle registers of the AVX-512 rung)
// ---------------------------------------------------------------------------------------------
#if defined(IMPULSE_SIMD_AVX)
IMPULSE_SIMD_X86(__m256, _mm256, ps)
IMPULSE_SIMD_X86(__m256d, _mm256, pd)
EIGEN_STRONG_INLINE void store_codes(void* out, const __m256& x) noexcept
{
    const __m128i lo = _mm_castps_si128(_mm256_castps256_ps128(x));
    const __m128i hi = _mm_castps_si128(_mm256_extractf128_ps(x, 1));
    _mm_storel_epi64(static_cast<__m128i*>(out), pack_codes(lo, hi));
}
EIGEN_STRONG_INLINE void store_codes(void* out, const __m256d& x) noexcept
{
    const __m128i lo = _mm_castpd_si128(_mm256_castpd256_pd128(x));
    const __m128i hi = _mm_castpd_si128(_mm256_extractf128_pd(x, 1));
    const __m128i w = _mm_packs_epi32(lo, hi);  // c0 0 c1 0 c2 0 c3 0 as 16 bits = c0 c1 c2 c3 as 32
    const int b = _mm_cvtsi128_si32(pack_codes(w, w));
    std::memcpy(out, &b, 4);
}
#if !defined(IMPULSE_SIMD_AVX2)
// AVX without AVX2: GCC turns the blend instruction Eigen selects with into a comparison of the
// mask it can only do lane by lane (there are no 256-bit integer comparisons), with a branch per
// lane; the same select as bitwise operations stays in the registers.
EIGEN_STRONG_INLINE __m256 select(const __m256& m, const __m256& a, const __m256& b) noexcept
{
    return _mm256_or_ps(_mm256_and_ps(m, a), _mm256_andnot_ps(m, b));
}
EIGEN_STRONG_INLINE __m256d select(const __m256d& m, const __m256d& a, const __m256d& b) noexcept
{
    return _mm256_or_pd(_mm256_and_pd(m, a), _mm256_andnot_pd(m, b));
}
#endif
#endif

#undef IMPULSE_SIMD_X86

// ---------------------------------------------------------------------------------------------
// AVX-512: __m512, __m512d, with comparisons into the mask registers (Eigen's comparisons widen
// each mask to a register and its selects narrow it again: two instructions per comparison).
// The predicates are Eigen's: ordered and quiet, false where a lane is NaN. Where a plain form
// leaves a source undefined (sqrt, min, max, the byte narrowing), the masked form with every lane
// selected is used: GCC 12 warns about the undefined source of the plain ones.
// ---------------------------------------------------------------------------------------------
#if defined(IMPULSE_SIMD_AVX512)
EIGEN_STRONG_INLINE __m512 sqrt(const __m512& x) noexcept { return _mm512_mask_sqrt_ps(x, 0xFFFF, x); }
EIGEN_STRONG_INLINE __m512d sqrt(const __m512d& x) noexcept { return _mm512_mask_sqrt_pd(x, 0xFF, x); }
EIGEN_STRONG_INLINE __m512 min(const __m512& a, const __m512& b) noexcept { return _mm512_mask_min_ps(b, 0xFFFF, b, a); }
EIGEN_STRONG_INLINE __m512d min(const __m512d& a, const __m512d& b) noexcept { return _mm512_mask_min_pd(b, 0xFF, b, a); }
EIGEN_STRONG_INLINE __m512 max(const __m512& a, const __m512& b) noexcept { return _mm512_mask_max_ps(b, 0xFFFF, b, a); }
EIGEN_STRONG_INLINE __m512d max(const __m512d& a, const __m512d& b) noexcept { return _mm512_mask_max_pd(b, 0xFF, b, a); }
EIGEN_STRONG_INLINE __mmask16 lt(const __m512& a, const __m512& b) noexcept { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
EIGEN_STRONG_INLINE __mmask16 le(const __m512& a, const __m512& b) noexcept { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ); }
EIGEN_STRONG_INLINE __mmask16 eq(const __m512& a, const __m512& b) noexcept { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
EIGEN_STRONG_INLINE __mmask8 lt(const __m512d& a, const __m512d& b) noexcept { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
EIGEN_STRONG_INLINE __mmask8 le(const __m512d& a, const __m512d& b) noexcept { return _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ); }
EIGEN_STRONG_INLINE __mmask8 eq(const __m512d& a, const __m512d& b) noexcept { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
EIGEN_STRONG_INLINE __mmask16 mask_and(__mmask16 a, __mmask16 b) noexcept { return static_cast<__mmask16>(a & b); }
EIGEN_STRONG_INLINE __mmask8 mask_and(__mmask8 a, __mmask8 b) noexcept { return static_cast<__mmask8>(a & b); }
EIGEN_STRONG_INLINE __mmask16 mask_or(__mmask16 a, __mmask16 b) noexcept { return static_cast<__mmask16>(a | b); }
EIGEN_STRONG_INLINE __mmask8 mask_or(__mmask8 a, __mmask8 b) noexcept { return static_cast<__mmask8>(a | b); }
EIGEN_STRONG_INLINE __mmask16 mask_andnot(__mmask16 a, __mmask16 b) noexcept { return static_cast<__mmask16>(a & ~b); }
EIGEN_STRONG_INLINE __mmask8 mask_andnot(__mmask8 a, __mmask8 b) noexcept { return static_cast<__mmask8>(a & ~b); }
EIGEN_STRONG_INLINE __m512 select(__mmask16 m, const __m512& a, const __m512& b) noexcept { return _mm512_mask_blend_ps(m, b, a); }
EIGEN_STRONG_INLINE __m512d select(__mmask8 m, const __m512d& a, const __m512d& b) noexcept { return _mm512_mask_blend_pd(m, b, a); }
EIGEN_STRONG_INLINE __m512 keep(__mmask16 m, const __m512& a) noexcept { return _mm512_maskz_mov_ps(m, a); }
EIGEN_STRONG_INLINE __m512d keep(__mmask8 m, const __m512d& a) noexcept { return _mm512_maskz_mov_pd(m, a); }
EIGEN_STRONG_INLINE std::uint32_t movemask(__mmask16 m) noexcept { return m; }
EIGEN_STRONG_INLINE std::uint32_t movemask(__mmask8 m) noexcept { return m; }
EIGEN_STRONG_INLINE void store_codes(void* out, const __m512& x) noexcept
{
    _mm_storeu_si128(static_cast<__m128i*>(out),
                     _mm512_mask_cvtepi32_epi8(_mm_setzero_si128(), 0xFFFF, _mm512_castps_si512(x)));
}
EIGEN_STRONG_INLINE void store_codes(void* out, const __m512d& x) noexcept
{
    _mm_storel_epi64(static_cast<__m128i*>(out),
                     _mm512_mask_cvtepi64_epi8(_mm_setzero_si128(), 0xFF, _mm512_castpd_si512(x)));
}
#endif

// ---------------------------------------------------------------------------------------------
// NEON (AArch64): float32x4_t, float64x2_t. Eigen's packet math is exact here; its min and max
// are NEON's (NaN wins, -0 < +0), so the compare-and-select forms above serve instead.
// ---------------------------------------------------------------------------------------------
#if defined(IMPULSE_SIMD_NEON)
EIGEN_STRONG_INLINE float32x4_t sqrt(const float32x4_t& x) noexcept { return vsqrtq_f32(x); }
EIGEN_STRONG_INLINE float64x2_t sqrt(const float64x2_t& x) noexcept { return vsqrtq_f64(x); }
#endif

// ---------------------------------------------------------------------------------------------
// Reductions of a mask, from movemask (on x86 one instruction, or the mask register itself)
// ---------------------------------------------------------------------------------------------

/// Whether some lane of the mask is true.
template <class M>
EIGEN_STRONG_INLINE bool any(const M& m) noexcept { return movemask(m) != 0; }
/// Whether every lane of the mask is true.
template <class M>
EIGEN_STRONG_INLINE bool all(const M& m) noexcept
{
    return movemask(m) == (mask_lanes<M> == 32 ? ~std::uint32_t(0) : (std::uint32_t(1) << mask_lanes<M>) - 1);
}

// ---------------------------------------------------------------------------------------------
// Twin: every operation on each half
// ---------------------------------------------------------------------------------------------

template <class P>
EIGEN_STRONG_INLINE Twin<P> add(const Twin<P>& a, const Twin<P>& b) noexcept { return {add(a.lo, b.lo), add(a.hi, b.hi)}; }
template <class P>
EIGEN_STRONG_INLINE Twin<P> sub(const Twin<P>& a, const Twin<P>& b) noexcept { return {sub(a.lo, b.lo), sub(a.hi, b.hi)}; }
template <class P>
EIGEN_STRONG_INLINE Twin<P> mul(const Twin<P>& a, const Twin<P>& b) noexcept { return {mul(a.lo, b.lo), mul(a.hi, b.hi)}; }
template <class P>
EIGEN_STRONG_INLINE Twin<P> div(const Twin<P>& a, const Twin<P>& b) noexcept { return {div(a.lo, b.lo), div(a.hi, b.hi)}; }
template <class P>
EIGEN_STRONG_INLINE Twin<P> min(const Twin<P>& a, const Twin<P>& b) noexcept { return {min(a.lo, b.lo), min(a.hi, b.hi)}; }
template <class P>
EIGEN_STRONG_INLINE Twin<P> max(const Twin<P>& a, const Twin<P>& b) noexcept { return {max(a.lo, b.lo), max(a.hi, b.hi)}; }
template <class P>
EIGEN_STRONG_INLINE Twin<P> sqrt(const Twin<P>& x) noexcept { return {sqrt(x.lo), sqrt(x.hi)}; }
template <class P>
EIGEN_STRONG_INLINE Twin<P> neg(const Twin<P>& x) noexcept { return {neg(x.lo), neg(x.hi)}; }
template <class P>
EIGEN_STRONG_INLINE Twin<P> abs(const Twin<P>& x) noexcept { return {abs(x.lo), abs(x.hi)}; }
template <class P>
EIGEN_STRONG_INLINE Mask<Twin<P>> lt(const Twin<P>& a, const Twin<P>& b) noexcept { return {lt(a.lo, b.lo), lt(a.hi, b.hi)}; }
template <class P>
EIGEN_STRONG_INLINE Mask<Twin<P>> le(const Twin<P>& a, const Twin<P>& b) noexcept { return {le(a.lo, b.lo), le(a.hi, b.hi)}; }
template <class P>
EIGEN_STRONG_INLINE Mask<Twin<P>> eq(const Twin<P>& a, const Twin<P>& b) noexcept { return {eq(a.lo, b.lo), eq(a.hi, b.hi)}; }
template <class M>
EIGEN_STRONG_INLINE Twin<M> mask_and(const Twin<M>& a, const Twin<M>& b) noexcept
{
    return {mask_and(a.lo, b.lo), mask_and(a.hi, b.hi)};
}
template <class M>
EIGEN_STRONG_INLINE Twin<M> mask_or(const Twin<M>& a, const Twin<M>& b) noexcept
{
    return {mask_or(a.lo, b.lo), mask_or(a.hi, b.hi)};
}
template <class M>
EIGEN_STRONG_INLINE Twin<M> mask_andnot(const Twin<M>& a, const Twin<M>& b) noexcept
{
    return {mask_andnot(a.lo, b.lo), mask_andnot(a.hi, b.hi)};
}
template <class M, class P>
EIGEN_STRONG_INLINE Twin<P> select(const Twin<M>& m, const Twin<P>& a, const Twin<P>& b) noexcept
{
    return {select(m.lo, a.lo, b.lo), select(m.hi, a.hi, b.hi)};
}
template <class M, class P>
EIGEN_STRONG_INLINE Twin<P> keep(const Twin<M>& m, const Twin<P>& a) noexcept { return {keep(m.lo, a.lo), keep(m.hi, a.hi)}; }
/// Some lane of either half: one reduction of the two halves' union.
template <class M>
EIGEN_STRONG_INLINE bool any(const Twin<M>& m) noexcept { return any(mask_or(m.lo, m.hi)); }
template <class M>
EIGEN_STRONG_INLINE bool all(const Twin<M>& m) noexcept { return all(mask_and(m.lo, m.hi)); }
/// lo's bits, then hi's above them.
template <class M>
EIGEN_STRONG_INLINE std::uint32_t movemask(const Twin<M>& m) noexcept
{
    return movemask(m.lo) | movemask(m.hi) << mask_lanes<M>;
}
template <class P>
EIGEN_STRONG_INLINE void store_codes(void* out, const Twin<P>& x) noexcept
{
    store_codes(out, x.lo);
    store_codes(static_cast<std::uint8_t*>(out) + lanes<P>, x.hi);
}

// ---------------------------------------------------------------------------------------------
// Rows of four: W records' four consecutive scalars each, in lanes and back
// ---------------------------------------------------------------------------------------------

/// Rows to lanes: out[k] holds row[l][k] in lane l, for the lanes<P> rows `row[l]` of four
/// consecutive scalars each (a 2D body's velocity, spin and inverse mass). A transpose where the
/// rung has one (SSE2 and AVX, float and double), lane by lane elsewhere; the same values either way.
template <class P>
struct Rows4 {
    using S = Scalar<P>;
    static EIGEN_STRONG_INLINE void gather(const S* const* row, P (&out)[4]) noexcept
    {
        S lane[4][lanes<P>];
        for (int l = 0; l < lanes<P>; ++l)
            for (int k = 0; k < 4; ++k) lane[k][l] = row[l][k];
        for (int k = 0; k < 4; ++k) out[k] = Access<P>::load(lane[k]);
    }
    /// Lanes to rows: row[l][k] = in[k] lane l for the lanes whose bit is set in `write`.
    static EIGEN_STRONG_INLINE void scatter(S* const* row, const P (&in)[4], std::uint32_t write) noexcept
    {
        S lane[4][lanes<P>];
        for (int k = 0; k < 4; ++k) Access<P>::store(lane[k], in[k]);
        for (int l = 0; l < lanes<P>; ++l)
            if (write >> l & 1u)
                for (int k = 0; k < 4; ++k) row[l][k] = lane[k][l];
    }
};
#if defined(IMPULSE_SIMD_SSE2)
template <>
struct Rows4<__m128> {
    static EIGEN_STRONG_INLINE void gather(const float* const* row, __m128 (&out)[4]) noexcept
    {
        __m128 r0 = _mm_loadu_ps(row[0]), r1 = _mm_loadu_ps(row[1]), r2 = _mm_loadu_ps(row[2]), r3 = _mm_loadu_ps(row[3]);
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        out[0] = r0;
        out[1] = r1;
        out[2] = r2;
        out[3] = r3;
    }
    static EIGEN_STRONG_INLINE void scatter(float* const* row, const __m128 (&in)[4], std::uint32_t write) noexcept
    {
        __m128 r0 = in[0], r1 = in[1], r2 = in[2], r3 = in[3];
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        if (write & 1u) _mm_storeu_ps(row[0], r0);
        if (write & 2u) _mm_storeu_ps(row[1], r1);
        if (write & 4u) _mm_storeu_ps(row[2], r2);
        if (write & 8u) _mm_storeu_ps(row[3], r3);
    }
};
template <>
struct Rows4<__m128d> {
    static EIGEN_STRONG_INLINE void gather(const double* const* row, __m128d (&out)[4]) noexcept
    {
        const __m128d a0 = _mm_loadu_pd(row[0]), a1 = _mm_loadu_pd(row[0] + 2);
        const __m128d b0 = _mm_loadu_pd(row[1]), b1 = _mm_loadu_pd(row[1] + 2);
        out[0] = _mm_unpacklo_pd(a0, b0);
        out[1] = _mm_unpackhi_pd(a0, b0);
        out[2] = _mm_unpacklo_pd(a1, b1);
        out[3] = _mm_unpackhi_pd(a1, b1);
    }
    static EIGEN_STRONG_INLINE void scatter(double* const* row, const __m128d (&in)[4], std::uint32_t write) noexcept
    {
        if (write & 1u) {
            _mm_storeu_pd(row[0], _mm_unpacklo_pd(in[0], in[1]));
            _mm_storeu_pd(row[0] + 2, _mm_unpacklo_pd(in[2], in[3]));
        }
        if (write & 2u) {
            _mm_storeu_pd(row[1], _mm_unpackhi_pd(in[0], in[1]));
            _mm_storeu_pd(row[1] + 2, _mm_unpackhi_pd(in[2], in[3]));
        }
    }
};
#endif
#if defined(IMPULSE_SIMD_AVX)
template <>
struct Rows4<__m256> {
    // Rows l and l + 4 side by side in one register; a 4x4 transpose in each half.
    static EIGEN_STRONG_INLINE void transpose(__m256 (&m)[4]) noexcept
    {
        const __m256 t0 = _mm256_unpacklo_ps(m[0], m[1]), t1 = _mm256_unpackhi_ps(m[0], m[1]);
        const __m256 t2 = _mm256_unpacklo_ps(m[2], m[3]), t3 = _mm256_unpackhi_ps(m[2], m[3]);
        m[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
        m[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
        m[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
        m[3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    }
    static EIGEN_STRONG_INLINE void gather(const float* const* row, __m256 (&out)[4]) noexcept
    {
        for (int l = 0; l < 4; ++l)
            out[l] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(row[l])), _mm_loadu_ps(row[l + 4]), 1);
        transpose(out);
    }
    static EIGEN_STRONG_INLINE void scatter(float* const* row, const __m256 (&in)[4], std::uint32_t write) noexcept
    {
        __m256 m[4] = {in[0], in[1], in[2], in[3]};
        transpose(m);
        for (int l = 0; l < 4; ++l) {
            if (write >> l & 1u) _mm_storeu_ps(row[l], _mm256_castps256_ps128(m[l]));
            if (write >> (l + 4) & 1u) _mm_storeu_ps(row[l + 4], _mm256_extractf128_ps(m[l], 1));
        }
    }
};
template <>
struct Rows4<__m256d> {
    static EIGEN_STRONG_INLINE void transpose(__m256d (&m)[4]) noexcept
    {
        const __m256d t0 = _mm256_unpacklo_pd(m[0], m[1]), t1 = _mm256_unpackhi_pd(m[0], m[1]);
        const __m256d t2 = _mm256_unpacklo_pd(m[2], m[3]), t3 = _mm256_unpackhi_pd(m[2], m[3]);
        m[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
        m[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
        m[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
        m[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
    }
    static EIGEN_STRONG_INLINE void gather(const double* const* row, __m256d (&out)[4]) noexcept
    {
        for (int l = 0; l < 4; ++l) out[l] = _mm256_loadu_pd(row[l]);
        transpose(out);
    }
    static EIGEN_STRONG_INLINE void scatter(double* const* row, const __m256d (&in)[4], std::uint32_t write) noexcept
    {
        __m256d m[4] = {in[0], in[1], in[2], in[3]};
        transpose(m);
        for (int l = 0; l < 4; ++l)
            if (write >> l & 1u) _mm256_storeu_pd(row[l], m[l]);
    }
};
#endif

}  // namespace impulse::detail::simd

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
