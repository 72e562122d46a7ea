// SPDX-License-Identifier: MIT
/// \file batch.hpp
/// Many independent point-mass contacts at once: the SIMD form of contact.hpp's `resolve`.
///
/// Particle systems (debris, sparks, rain, grains against static ground) produce contacts that
/// share no body, so each can be resolved on its own, and many side by side in the lanes of a
/// SIMD register. `resolve_batch` does that over structure-of-arrays views of the caller's own
/// arrays (no copy, no allocation), in 2D and 3D, float and double, with the semantics, regimes
/// and results of `resolve(vA, wA, vB, wB, n, k)`:
///   both immovable (wA + wB == 0)  -> immovable, nothing changes
///   vn >= 0                        -> separating, nothing changes
///   otherwise                      -> the normal impulse (restitution, threshold), applied; then
///                                     Coulomb friction from the velocity after it, applied:
///                                     sticking or sliding; an immovable body is never touched.
/// Every decision (approach, immovable pairs, the restitution threshold, the Coulomb clamp,
/// sticking or sliding) is a per-lane select, not a branch. The arithmetic is the scalar path's,
/// operation for operation, in the same order.
///
/// **Equal bits, or a stated tolerance.** Where the compiler fuses no multiply-add into an FMA
/// (targets without FMA, such as plain x86-64 builds, or `-ffp-contract=off`) every output has the
/// scalar path's bits, NaN payloads aside. With FMA contraction (`-march=native`, `-mfma`, AArch64)
/// the compiler may fuse an operation on one path and not on the other: every velocity then agrees
/// with the scalar path's to 16 epsilon of `1 + max|vA_i| + max|vB_i|` and every impulse to 16
/// epsilon of four times that over `wA + wB` (measured: under 3 on a million random contacts,
/// GCC 12 and Clang 14), and a regime can differ only for a contact that close to a decision's
/// boundary (approach, threshold, stick or slide, no tangential speed).
///
/// **Lanes.** A block is one register of Eigen's packet math for the target (4 floats or 2
/// doubles on SSE2 and NEON, 8 or 4 on AVX) or, with AVX-512, two registers side by side (32
/// floats, 16 doubles): `batch_width<S>`. The last `count % batch_width<S>` contacts go through
/// narrower registers while they fill one, and the very last few through a padded block. For the
/// best speed build with the target's instruction set (`-march=native`, or `-mavx2 -mfma`): the
/// default x86-64 target has only SSE2. Scalars other than float and double (long double,
/// AutoDiffScalar) run the scalar `resolve` contact by contact, with the same interface.
///
/// Like the scalar path's branches, the lanes compute quantities a contact ends up not using
/// (e.g. `0/0` for the slide direction of a contact at rest): the IEEE flags (inexact, division by
/// zero, invalid) may be raised; no result depends on them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <type_traits>
#include <utility>

#include "axis.hpp"
#include "config.hpp"
#include "contact.hpp"
#include "material.hpp"

// Eigen's packet types carry attributes (__m256 and friends) that GCC reports dropping when they
// are used as template arguments; they are dropped on purpose, everywhere Eigen does the same.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
#endif

namespace impulse {

/// One per-contact input of a batch: `data[i]` for contact i, or, when `data` is null, the same
/// `value` for every contact (a static floor's velocity, one restitution for the whole batch).
/// Converts implicitly from a pointer (per contact) and from a number (one value for all).
template <class S>
struct Column {
    const S* data{nullptr};  ///< per-contact values (not owned; at least `count` of them), or null
    S value{0};              ///< the value of every contact when `data` is null

    constexpr Column() noexcept = default;  ///< every contact 0
    /// Per-contact values: contact i reads `per_contact[i]`.
    constexpr Column(const S* per_contact) noexcept : data(per_contact) {}  // NOLINT: implicit
    /// One value for every contact (any arithmetic type: `0`, `0.5` and `S(0.5)` all work).
    template <class T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
    constexpr Column(T all) noexcept : value(S(all))  // NOLINT: implicit on purpose
    {
    }

    /// The value of contact i.
    constexpr S operator[](std::size_t i) const noexcept { return data ? data[i] : value; }

    /// The column from contact `first` on: the array advanced by `first`; a single value stays.
    constexpr Column from(std::size_t first) const noexcept { return data ? Column(data + first) : *this; }
};

/// A batch of independent point-mass contacts as structure-of-arrays: `resolve_batch` reads
/// contact i from element i of each input column and writes element i of each output array.
///
/// Inputs (see `Column`: an array, or one value for all contacts):
///   - `vA[d]`, `vB[d]`: the velocity components of body A and body B,
///   - `wA`, `wB`: inverse masses (0: immovable),
///   - `n[d]`: the unit contact normal from A to B,
///   - `restitution`, `mu_s`, `mu_k`, `threshold`: the pair's `Coefficients`.
///
/// Outputs (null: not wanted, nothing written):
///   - `vA_out[d]`, `vB_out[d]`: the velocities after the contact. Point them at the input arrays
///     to update in place (the only overlap allowed between inputs and outputs); leave them null
///     for a body whose velocity is not kept (a static floor).
///   - `jn`, `Jt[d]`, `jt`, `regime`: what `resolve` returns in `Result`.
template <class S, int D>
struct BatchView {
    static_assert(D == 2 || D == 3, "impulse works in 2D and 3D");

    Column<S> vA[D];        ///< velocity of A, per component
    Column<S> vB[D];        ///< velocity of B, per component
    Column<S> inv_mass_a;           ///< inverse mass of A (0: immovable)
    Column<S> inv_mass_b;           ///< inverse mass of B (0: immovable)
    Column<S> n[D];         ///< unit contact normal from A to B, per component
    Column<S> restitution;  ///< e in [0, 1]
    Column<S> mu_s;         ///< static friction coefficient (sticking while |Jt_want| <= mu_s*jn)
    Column<S> mu_k;         ///< kinetic friction coefficient (|Jt| = mu_k*jn while sliding)
    Column<S> threshold;    ///< approach speeds at or below this do not bounce

    S* vA_out[D] = {};          ///< A's velocity after the contact (may be vA's own arrays)
    S* vB_out[D] = {};          ///< B's velocity after the contact (may be vB's own arrays)
    S* jn = nullptr;            ///< normal impulse (>= 0), on B along +n
    S* friction_impulse[D] = {};              ///< friction impulse on B, per component (A receives -Jt)
    S* jt = nullptr;            ///< 2D: Jt along t = (-ny, nx); 3D: |Jt|
    Regime* regime = nullptr;   ///< what each contact did

    /// The same batch from contact `first` on: contact i of the result is contact `first + i` of
    /// this view. Every per-contact array and every wanted output is advanced by `first`; single
    /// values and null outputs stay as they are. Contacts share no body, so disjoint ranges can be
    /// resolved by separate calls, on separate threads if you like:
    /// `resolve_batch(v.from(first), count)` resolves contacts [first, first + count) of `v`.
    BatchView from(std::size_t first) const noexcept
    {
        BatchView r = *this;
        auto advance = [first](auto*& out) {
            if (out) out += first;
        };
        for (int d = 0; d < D; ++d) {
            r.vA[d] = vA[d].from(first);
            r.vB[d] = vB[d].from(first);
            r.n[d] = n[d].from(first);
            advance(r.vA_out[d]);
            advance(r.vB_out[d]);
            advance(r.friction_impulse[d]);
        }
        for (Column<S>* c : {&r.inv_mass_a, &r.inv_mass_b, &r.restitution, &r.mu_s, &r.mu_k, &r.threshold}) *c = c->from(first);
        advance(r.jn);
        advance(r.jt);
        advance(r.regime);
        return r;
    }
};

/// One contact between two point masses as a struct, for `resolve_batch`'s array-of-structures
/// form: the arguments of `resolve(vA, wA, vB, wB, n, k)` side by side. The velocities are updated
/// in place.
template <class S, int D>
struct PointPair {
    Vec<S, D> vA = Vec<S, D>::Zero();  ///< velocity of A (updated)
    S inv_mass_a{0};                           ///< inverse mass of A (0: immovable)
    Vec<S, D> vB = Vec<S, D>::Zero();  ///< velocity of B (updated)
    S inv_mass_b{0};                           ///< inverse mass of B (0: immovable)
    Vec<S, D> n = Vec<S, D>::UnitX();  ///< unit contact normal from A to B
    Coefficients<S> coefficients;                 ///< restitution, friction, threshold
};

namespace detail::batch {

namespace ei = Eigen::internal;

#if defined(__GNUC__) || defined(__clang__)
/// Unrolls the loop after it (over the D components of a block) whatever the optimisation level:
/// at -O2 GCC would keep the packets of an unrollable loop in memory. Internal: undefined again
/// at the end of batch.hpp.
#define IMPULSE_BATCH_UNROLL _Pragma("GCC unroll 4")
#else
/// Unrolls the loop after it where the compiler has an unroll pragma (here: nothing). Internal.
#define IMPULSE_BATCH_UNROLL
#endif

/// True for the scalars the SIMD kernel handles; others take the scalar path.
template <class S>
constexpr bool simd = std::is_same<S, float>::value || std::is_same<S, double>::value;

/// Two packets resolved side by side as one block.
template <class P>
struct Pair {
    P lo, hi;
};

/// Packets per block. With AVX-512's 32 vector registers two packets side by side, whose
/// independent chains of operations keep more units busy, ran 5 to 10% faster (GCC 12, AMD
/// EPYC with AVX-512); with the 16 registers of SSE and AVX the spills cancelled the gain.
#if defined(EIGEN_VECTORIZE_AVX512)
constexpr int packets_per_block = 2;
#else
constexpr int packets_per_block = 1;
#endif

/// Whether the two halves of a block (normal impulse, then friction; see normal_half) each run over
/// a whole chunk of blocks before the other, or block by block. Over a chunk each half holds fewer
/// values in registers than the whole block (with 16 vector registers, no spills), keeps more of
/// its arrays' addresses in general registers, and has a chain of dependent operations half as
/// long, with one division: with AVX2, 2D float in cache, 1.45 ns per contact against 1.95 for one
/// pass per block (GCC 12, AMD EPYC). With AVX-512's two-packet blocks the split ran slower out of
/// cache (2D float: 4.3 against 3.0 ns per contact), so there the halves go block by block.
constexpr bool split_halves = packets_per_block == 1;

template <class S, bool = simd<S>>
struct Traits {
    using Packet = S;
    using Lanes = S;
    static constexpr int width = 1;
};
template <class S>
struct Traits<S, true> {
    using Packet = typename ei::packet_traits<S>::type;                                  ///< one register
    using Lanes = std::conditional_t<packets_per_block == 2, Pair<Packet>, Packet>;  ///< one block
    static constexpr int packet = ei::unpacket_traits<Packet>::size;
    static constexpr int width = packets_per_block * packet;
};

/// The columns of a view, numbered: inputs, then the scalar outputs.
template <int D>
struct Layout {
    static constexpr int vA = 0, vB = D, inv_mass_a = 2 * D, inv_mass_b = 2 * D + 1, n = 2 * D + 2, e = 3 * D + 2,
                         mu_s = 3 * D + 3, mu_k = 3 * D + 4, threshold = 3 * D + 5, inputs = 3 * D + 6;
    static constexpr int out_vA = 0, out_vB = D, out_jn = 2 * D, out_Jt = 2 * D + 1, out_jt = 3 * D + 1,
                         outputs = 3 * D + 2;
};

/// Unsigned integer of a scalar's size: regime codes travel in the low byte of a lane.
template <class S>
using Bits = std::conditional_t<sizeof(S) == 4, std::uint32_t, std::uint64_t>;

/// A lane whose bits are the integer `code` (moved by selects only, never computed with).
template <class S>
S code_lane(Regime r) noexcept
{
    const Bits<S> u = static_cast<Bits<S>>(r);
    S s;
    std::memcpy(&s, &u, sizeof s);
    return s;
}

/// The packet operations the kernel uses, under short names.
template <class P>
EIGEN_STRONG_INLINE P lt(const P& a, const P& b) noexcept { return ei::pcmp_lt(a, b); }  // a < b
template <class P>
EIGEN_STRONG_INLINE P le(const P& a, const P& b) noexcept { return ei::pcmp_le(a, b); }  // a <= b
template <class P>
EIGEN_STRONG_INLINE P eq(const P& a, const P& b) noexcept { return ei::pcmp_eq(a, b); }  // a == b
/// m ? a : b, lane by lane (m from the comparisons above: all bits set or none).
template <class M, class P>
EIGEN_STRONG_INLINE P sel(const M& m, const P& a, const P& b) noexcept { return ei::pselect(m, a, b); }
#if defined(EIGEN_VECTORIZE_AVX) && !defined(EIGEN_VECTORIZE_AVX2)
// AVX without AVX2: GCC turns the blend instruction into a comparison of the mask it can only do
// lane by lane (there are no 256-bit integer comparisons), with a branch per lane; the same
// select as bitwise operations stays in the registers.
EIGEN_STRONG_INLINE __m256 sel(const __m256& m, const __m256& a, const __m256& b) noexcept
{
    return _mm256_or_ps(_mm256_and_ps(m, a), _mm256_andnot_ps(m, b));
}
EIGEN_STRONG_INLINE __m256d sel(const __m256d& m, const __m256d& a, const __m256d& b) noexcept
{
    return _mm256_or_pd(_mm256_and_pd(m, a), _mm256_andnot_pd(m, b));
}
#endif
/// -x, flipping the sign bit as the scalar minus does (Eigen's AVX `pnegate` computes 0 - x,
/// which makes -(+0) = +0).
template <class P>
EIGEN_STRONG_INLINE P neg(const P& x) noexcept
{
    using S = typename ei::unpacket_traits<P>::type;
    return ei::pxor(x, ei::pset1<P>(-S(0)));
}
/// m ? a : +0 (a plain AND: +0 has no bit set).
template <class M, class P>
EIGEN_STRONG_INLINE P keep(const M& m, const P& a) noexcept { return ei::pand(m, a); }
/// a && !b
template <class P>
EIGEN_STRONG_INLINE P and_not(const P& a, const P& b) noexcept { return ei::pandnot(a, b); }
#if defined(EIGEN_VECTORIZE_AVX512)
// AVX-512 compares into its mask registers and selects with them. (Eigen's comparisons widen each
// mask to a packet, and its selects narrow it again: two instructions per comparison.) The same
// predicates as Eigen's: ordered and quiet, false where a lane is NaN.
EIGEN_STRONG_INLINE __mmask16 lt(const __m512& a, const __m512& b) noexcept { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
EIGEN_STRONG_INLINE __mmask16 le(const __m512& a, const __m512& b) noexcept { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ); }
EIGEN_STRONG_INLINE __mmask16 eq(const __m512& a, const __m512& b) noexcept { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
EIGEN_STRONG_INLINE __mmask8 lt(const __m512d& a, const __m512d& b) noexcept { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
EIGEN_STRONG_INLINE __mmask8 le(const __m512d& a, const __m512d& b) noexcept { return _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ); }
EIGEN_STRONG_INLINE __mmask8 eq(const __m512d& a, const __m512d& b) noexcept { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
EIGEN_STRONG_INLINE __m512 sel(__mmask16 m, const __m512& a, const __m512& b) noexcept { return _mm512_mask_blend_ps(m, b, a); }
EIGEN_STRONG_INLINE __m512d sel(__mmask8 m, const __m512d& a, const __m512d& b) noexcept { return _mm512_mask_blend_pd(m, b, a); }
EIGEN_STRONG_INLINE __m512 keep(__mmask16 m, const __m512& a) noexcept { return _mm512_maskz_mov_ps(m, a); }
EIGEN_STRONG_INLINE __m512d keep(__mmask8 m, const __m512d& a) noexcept { return _mm512_maskz_mov_pd(m, a); }
EIGEN_STRONG_INLINE __mmask16 vand(__mmask16 a, __mmask16 b) noexcept { return static_cast<__mmask16>(a & b); }
EIGEN_STRONG_INLINE __mmask8 vand(__mmask8 a, __mmask8 b) noexcept { return static_cast<__mmask8>(a & b); }
EIGEN_STRONG_INLINE __mmask16 vor(__mmask16 a, __mmask16 b) noexcept { return static_cast<__mmask16>(a | b); }
EIGEN_STRONG_INLINE __mmask8 vor(__mmask8 a, __mmask8 b) noexcept { return static_cast<__mmask8>(a | b); }
EIGEN_STRONG_INLINE __mmask16 and_not(__mmask16 a, __mmask16 b) noexcept { return static_cast<__mmask16>(a & ~b); }
EIGEN_STRONG_INLINE __mmask8 and_not(__mmask8 a, __mmask8 b) noexcept { return static_cast<__mmask8>(a & ~b); }
#endif

/// Correctly rounded square roots, lane by lane: the scalar path's `std::sqrt`. (Eigen's `psqrt`
/// for float packets is an approximation under EIGEN_FAST_MATH, its default.) The SSE, AVX and
/// AVX-512 instructions where Eigen uses those; elsewhere std::sqrt on each lane.
template <class P>
EIGEN_STRONG_INLINE P root(const P& x) noexcept
{
    using S = typename ei::unpacket_traits<P>::type;
    constexpr int W = ei::unpacket_traits<P>::size;
    S lanes[W];
    ei::pstoreu(lanes, x);
    for (S& l : lanes) l = std::sqrt(l);
    return ei::ploadu<P>(lanes);
}
#if defined(EIGEN_VECTORIZE_SSE2)
EIGEN_STRONG_INLINE __m128 root(const __m128& x) noexcept { return _mm_sqrt_ps(x); }
EIGEN_STRONG_INLINE __m128d root(const __m128d& x) noexcept { return _mm_sqrt_pd(x); }
#endif
#if defined(EIGEN_VECTORIZE_AVX)
EIGEN_STRONG_INLINE __m256 root(const __m256& x) noexcept { return _mm256_sqrt_ps(x); }
EIGEN_STRONG_INLINE __m256d root(const __m256d& x) noexcept { return _mm256_sqrt_pd(x); }
#endif
#if defined(EIGEN_VECTORIZE_AVX512)
// (the masked forms, all lanes selected: GCC 12 warns about the undefined source of the plain ones)
EIGEN_STRONG_INLINE __m512 root(const __m512& x) noexcept { return _mm512_mask_sqrt_ps(x, 0xFFFF, x); }
EIGEN_STRONG_INLINE __m512d root(const __m512d& x) noexcept { return _mm512_mask_sqrt_pd(x, 0xFF, x); }
#endif

/// Whether any lane of a comparison's mask is set (the instruction where Eigen's packets are the
/// SSE, AVX or AVX-512 registers; elsewhere lane by lane).
template <class P>
EIGEN_STRONG_INLINE bool any(const P& m) noexcept
{
    using S = typename ei::unpacket_traits<P>::type;
    constexpr int W = ei::unpacket_traits<P>::size;
    S stored[W];
    Bits<S> lanes[W];
    ei::pstoreu(stored, m);
    std::memcpy(lanes, stored, sizeof lanes);
    Bits<S> all = 0;
    for (const Bits<S> l : lanes) all |= l;
    return all != 0;
}
#if defined(EIGEN_VECTORIZE_SSE2)
EIGEN_STRONG_INLINE bool any(const __m128& m) noexcept { return _mm_movemask_ps(m) != 0; }
EIGEN_STRONG_INLINE bool any(const __m128d& m) noexcept { return _mm_movemask_pd(m) != 0; }
#endif
#if defined(EIGEN_VECTORIZE_AVX)
EIGEN_STRONG_INLINE bool any(const __m256& m) noexcept { return _mm256_movemask_ps(m) != 0; }
EIGEN_STRONG_INLINE bool any(const __m256d& m) noexcept { return _mm256_movemask_pd(m) != 0; }
#endif
#if defined(EIGEN_VECTORIZE_AVX512)
EIGEN_STRONG_INLINE bool any(__mmask16 m) noexcept { return m != 0; }
EIGEN_STRONG_INLINE bool any(__mmask8 m) noexcept { return m != 0; }
#endif

/// Stores the regime codes held in the low bytes of a packet's lanes as `width` bytes (packing
/// instructions where Eigen's packets are SSE, AVX or AVX-512 registers; elsewhere lane by lane).
template <class P>
EIGEN_STRONG_INLINE void store_codes(Regime* out, const P& code) noexcept
{
    using S = typename ei::unpacket_traits<P>::type;
    constexpr int W = ei::unpacket_traits<P>::size;
    S stored[W];
    Bits<S> lanes[W];
    std::uint8_t bytes[W];
    ei::pstoreu(stored, code);
    std::memcpy(lanes, stored, sizeof lanes);
    for (int l = 0; l < W; ++l) bytes[l] = static_cast<std::uint8_t>(lanes[l]);
    std::memcpy(out, bytes, W);
}
#if defined(EIGEN_VECTORIZE_SSE2)
/// Packs 32-bit lanes (codes 0..3) to bytes: the first 4 bytes of the result.
EIGEN_STRONG_INLINE __m128i pack_bytes(const __m128i& lo, const __m128i& hi) noexcept
{
    const __m128i w = _mm_packs_epi32(lo, hi);  // 8 x 16 bits
    return _mm_packus_epi16(w, w);              // 16 x 8 bits
}
EIGEN_STRONG_INLINE void store_codes(Regime* out, const __m128& code) noexcept
{
    const __m128i i = _mm_castps_si128(code);
    const int b = _mm_cvtsi128_si32(pack_bytes(i, i));
    std::memcpy(out, &b, 4);
}
EIGEN_STRONG_INLINE void store_codes(Regime* out, const __m128d& code) noexcept
{
    // 64-bit lanes read as 32-bit ones: c0 0 c1 0; packing twice keeps c0 c1
    const __m128i i = _mm_castpd_si128(code);
    const __m128i w = _mm_packs_epi32(i, i);
    const int b = _mm_cvtsi128_si32(pack_bytes(w, w));
    std::memcpy(out, &b, 2);
}
#endif
#if defined(EIGEN_VECTORIZE_AVX)
EIGEN_STRONG_INLINE void store_codes(Regime* out, const __m256& code) noexcept
{
    const __m128i lo = _mm_castps_si128(_mm256_castps256_ps128(code));
    const __m128i hi = _mm_castps_si128(_mm256_extractf128_ps(code, 1));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out), pack_bytes(lo, hi));
}
EIGEN_STRONG_INLINE void store_codes(Regime* out, const __m256d& code) noexcept
{
    const __m128i lo = _mm_castpd_si128(_mm256_castpd256_pd128(code));
    const __m128i hi = _mm_castpd_si128(_mm256_extractf128_pd(code, 1));
    const __m128i w = _mm_packs_epi32(lo, hi);  // c0 0 c1 0 c2 0 c3 0 as 16 bits = c0 c1 c2 c3 as 32
    const int b = _mm_cvtsi128_si32(pack_bytes(w, w));
    std::memcpy(out, &b, 4);
}
#endif
#if defined(EIGEN_VECTORIZE_AVX512)
// (masked forms with a zero source, as for root: GCC 12 warns about the plain ones)
EIGEN_STRONG_INLINE void store_codes(Regime* out, const __m512& code) noexcept
{
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm512_mask_cvtepi32_epi8(_mm_setzero_si128(), 0xFFFF, _mm512_castps_si512(code)));
}
EIGEN_STRONG_INLINE void store_codes(Regime* out, const __m512d& code) noexcept
{
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm512_mask_cvtepi64_epi8(_mm_setzero_si128(), 0xFF, _mm512_castpd_si512(code)));
}
#endif

/// Arithmetic and bitwise operations on packets, under names that also take Pairs (below).
template <class P>
EIGEN_STRONG_INLINE P vadd(const P& a, const P& b) noexcept { return ei::padd(a, b); }
template <class P>
EIGEN_STRONG_INLINE P vsub(const P& a, const P& b) noexcept { return ei::psub(a, b); }
template <class P>
EIGEN_STRONG_INLINE P vmul(const P& a, const P& b) noexcept { return ei::pmul(a, b); }
template <class P>
EIGEN_STRONG_INLINE P vdiv(const P& a, const P& b) noexcept { return ei::pdiv(a, b); }
template <class P>
EIGEN_STRONG_INLINE P vabs(const P& a) noexcept { return ei::pabs(a); }
template <class P>
EIGEN_STRONG_INLINE P vand(const P& a, const P& b) noexcept { return ei::pand(a, b); }
template <class P>
EIGEN_STRONG_INLINE P vor(const P& a, const P& b) noexcept { return ei::por(a, b); }

/// Every operation on a Pair is the operation on each of its packets (or masks).
template <class A, class B, class F>
EIGEN_STRONG_INLINE auto each(const Pair<A>& a, const Pair<B>& b, F f) noexcept -> Pair<decltype(f(a.lo, b.lo))>
{
    return {f(a.lo, b.lo), f(a.hi, b.hi)};
}
/// Defines binary operation `op` on Pairs as `op` on each packet. Internal: undefined again below.
#define IMPULSE_BATCH_PAIR2(op)                                                                    \
    template <class A>                                                                             \
    EIGEN_STRONG_INLINE auto op(const Pair<A>& a, const Pair<A>& b) noexcept                       \
    {                                                                                              \
        return each(a, b, [](const A& x, const A& y) { return op(x, y); });                        \
    }
IMPULSE_BATCH_PAIR2(vadd)
IMPULSE_BATCH_PAIR2(vsub)
IMPULSE_BATCH_PAIR2(vmul)
IMPULSE_BATCH_PAIR2(vdiv)
IMPULSE_BATCH_PAIR2(vand)
IMPULSE_BATCH_PAIR2(vor)
IMPULSE_BATCH_PAIR2(lt)
IMPULSE_BATCH_PAIR2(le)
IMPULSE_BATCH_PAIR2(eq)
IMPULSE_BATCH_PAIR2(and_not)
#undef IMPULSE_BATCH_PAIR2
template <class P>
EIGEN_STRONG_INLINE Pair<P> vabs(const Pair<P>& a) noexcept { return {vabs(a.lo), vabs(a.hi)}; }
template <class P>
EIGEN_STRONG_INLINE Pair<P> neg(const Pair<P>& a) noexcept { return {neg(a.lo), neg(a.hi)}; }
template <class P>
EIGEN_STRONG_INLINE Pair<P> root(const Pair<P>& a) noexcept { return {root(a.lo), root(a.hi)}; }
template <class M, class P>
EIGEN_STRONG_INLINE Pair<P> keep(const Pair<M>& m, const Pair<P>& a) noexcept
{
    return {keep(m.lo, a.lo), keep(m.hi, a.hi)};
}
template <class M, class P>
EIGEN_STRONG_INLINE Pair<P> sel(const Pair<M>& m, const Pair<P>& a, const Pair<P>& b) noexcept
{
    return {sel(m.lo, a.lo, b.lo), sel(m.hi, a.hi, b.hi)};
}
template <class M>
EIGEN_STRONG_INLINE bool any(const Pair<M>& m) noexcept { return any(vor(m.lo, m.hi)); }

/// What the comparisons of lanes P return: a packet of the same type, or AVX-512's mask registers.
template <class P>
using MaskOf = decltype(lt(std::declval<P>(), std::declval<P>()));

/// Loading, storing and broadcasting a block's lanes, a packet or a Pair.
template <class L>
struct Io {
    template <class S>
    static EIGEN_STRONG_INLINE L splat(S x) noexcept { return ei::pset1<L>(x); }
    template <class S>
    static EIGEN_STRONG_INLINE L load(const S* p) noexcept { return ei::ploadu<L>(p); }
    template <class S>
    static EIGEN_STRONG_INLINE void store(S* p, const L& x) noexcept { ei::pstoreu(p, x); }
    static EIGEN_STRONG_INLINE void codes(Regime* r, const L& x) noexcept { store_codes(r, x); }
};
template <class P>
struct Io<Pair<P>> {
    static constexpr int W = ei::unpacket_traits<P>::size;
    template <class S>
    static EIGEN_STRONG_INLINE Pair<P> splat(S x) noexcept { return {ei::pset1<P>(x), ei::pset1<P>(x)}; }
    template <class S>
    static EIGEN_STRONG_INLINE Pair<P> load(const S* p) noexcept { return {ei::ploadu<P>(p), ei::ploadu<P>(p + W)}; }
    template <class S>
    static EIGEN_STRONG_INLINE void store(S* p, const Pair<P>& x) noexcept
    {
        ei::pstoreu(p, x.lo);
        ei::pstoreu(p + W, x.hi);
    }
    static EIGEN_STRONG_INLINE void codes(Regime* r, const Pair<P>& x) noexcept
    {
        store_codes(r, x.lo);
        store_codes(r + W, x.hi);
    }
};

/// Whether Eigen sums a fixed-size 3-vector's dot product (and squared norm) as (x0 + x1) + x2
/// rather than x0 + (x1 + x2): it depends on the scalar and on whether Eigen vectorises the sum
/// for this target. Read off Eigen itself, from a sum the two orders round differently:
/// (1 + h) + h = 1 but 1 + (h + h) = 1 + eps, for h = eps/2.
template <class S>
bool sums_left_first() noexcept
{
    const S h = std::numeric_limits<S>::epsilon() / S(2);
    const Vec<S, 3> x(S(1), h, h), ones = Vec<S, 3>::Ones();
    return x.dot(ones) == S(1);
}

/// a.b in the order Eigen sums the scalar path's `dot` and `squaredNorm`: 2D x0 + x1; 3D
/// (x0 + x1) + x2 when `Left`, else x0 + (x1 + x2).
template <bool Left, int D, class P>
EIGEN_STRONG_INLINE P dot(const P (&a)[D], const P (&b)[D]) noexcept
{
    if constexpr (D == 2) return vadd(vmul(a[0], b[0]), vmul(a[1], b[1]));
    else if constexpr (Left) return vadd(vadd(vmul(a[0], b[0]), vmul(a[1], b[1])), vmul(a[2], b[2]));
    else return vadd(vmul(a[0], b[0]), vadd(vmul(a[1], b[1]), vmul(a[2], b[2])));
}

/// detail::safe_norm lane by lane: sqrt(v.v) where v.v is a normal number (or v is zero);
/// otherwise m |v/m| with m the largest |component|, computed only when some lane needs it.
template <class S, bool Left, class P, class M>
EIGEN_STRONG_INLINE P safe_norm(const P (&v)[3], const M& live) noexcept
{
    const P zero = Io<P>::splat(S(0));
    const P n2 = dot<Left, 3>(v, v);
    const P fast = root(n2);
    const M ok = vand(le(Io<P>::splat(std::numeric_limits<S>::min()), n2),
                      le(n2, Io<P>::splat(std::numeric_limits<S>::max())));
    const M zero_vector = vand(eq(v[0], zero), vand(eq(v[1], zero), eq(v[2], zero)));
    const M slow = and_not(and_not(live, ok), zero_vector);
    if (!any(slow)) return fast;  // the usual case: every squared norm in range
    // m = max |v_i| (as `if (abs(v[i]) > m) m = abs(v[i])`); |v| = m * sqrt((v/m).(v/m))
    P m = zero;
    IMPULSE_BATCH_UNROLL
    for (int i = 0; i < 3; ++i) m = sel(lt(m, vabs(v[i])), vabs(v[i]), m);
    const P u[3] = {vdiv(v[0], m), vdiv(v[1], m), vdiv(v[2], m)};
    const P scaled = keep(lt(zero, m), vmul(m, root(dot<Left, 3>(u, u))));
    return sel(slow, scaled, fast);
}

/// Lanes in a block of P: a packet's size, or twice that for a Pair.
template <class P>
struct LanesOf {
    static constexpr int value = ei::unpacket_traits<P>::size;
};
template <class P>
struct LanesOf<Pair<P>> {
    static constexpr int value = 2 * ei::unpacket_traits<P>::size;
};

/// What the first half of a block (the normal impulse) hands to the second (friction), in lanes P.
template <class P, int D>
struct AfterNormal {
    P vA[D];  ///< A's velocity after the normal impulse
    P vB[D];  ///< B's velocity after the normal impulse
    P jn;     ///< the normal impulse
};

/// AfterNormal for a chunk of N contacts in memory: where the halves meet when each runs over the
/// whole chunk before the other (split_halves).
template <class S, int D, std::size_t N>
struct Mid {
    S vA[D][N];  ///< A's velocity after the normal impulse
    S vB[D][N];  ///< B's velocity after the normal impulse
    S jn[N];     ///< the normal impulse

    /// Keeps a block's AfterNormal at contact `at`.
    template <class P>
    EIGEN_ALWAYS_INLINE void put(std::size_t at, const AfterNormal<P, D>& a) noexcept
    {
        IMPULSE_BATCH_UNROLL
        for (int d = 0; d < D; ++d) {
            Io<P>::store(vA[d] + at, a.vA[d]);
            Io<P>::store(vB[d] + at, a.vB[d]);
        }
        Io<P>::store(jn + at, a.jn);
    }
    /// The AfterNormal kept at contact `at`.
    template <class P>
    EIGEN_ALWAYS_INLINE AfterNormal<P, D> get(std::size_t at) const noexcept
    {
        AfterNormal<P, D> a;
        IMPULSE_BATCH_UNROLL
        for (int d = 0; d < D; ++d) {
            a.vA[d] = Io<P>::load(vA[d] + at);
            a.vB[d] = Io<P>::load(vB[d] + at);
        }
        a.jn = Io<P>::load(jn + at);
        return a;
    }
};

/// The first half of a block of `width` contacts: loads them at offset `at` from the bases of the
/// input columns `in_base` (Layout order), computes and applies the normal impulse. Mirrors
/// resolve(PointContact) operation for operation up to the friction; the scalar code each step
/// mirrors is in the comments.
template <class S, int D, bool Left, class P>
EIGEN_ALWAYS_INLINE AfterNormal<P, D> normal_half(const S* const* in_base, std::size_t at) noexcept
{
    using L = Layout<D>;
    using M = MaskOf<P>;
    const P zero = Io<P>::splat(S(0)), one = Io<P>::splat(S(1));
    auto load = [in_base, at](int c) { return Io<P>::load(in_base[c] + at); };

    P vA[D], vB[D], n[D], rv[D];
    IMPULSE_BATCH_UNROLL
    for (int d = 0; d < D; ++d) {
        vA[d] = load(L::vA + d);
        vB[d] = load(L::vB + d);
        n[d] = load(L::n + d);
        rv[d] = vsub(vB[d], vA[d]);  // rv = vB - vA
    }
    const P inv_mass_a = load(L::inv_mass_a), inv_mass_b = load(L::inv_mass_b), e = load(L::e), threshold = load(L::threshold);

    // The normal impulse (resolve, normal_impulse, effective_restitution, bounce_impulse).
    const P k = vadd(inv_mass_a, inv_mass_b);                        // k = wA + wB
    const M movable = lt(zero, k);                   // !(k > 0): immovable, nothing changes
    const P vn = dot<Left, D>(rv, n);                // vn = rv.n
    const P speed_in = neg(vn);                      // -vn
    const P e_used = keep(lt(threshold, speed_in), e);  // -vn > threshold ? e : 0
    const M approach = vand(lt(vn, zero), movable);  // vn < 0 and k > 0
    // jn = -(1 + e) * vn / k, as (1 + e) * (-vn) / k: the same bits (negation is exact)
    const P jn = keep(approach, vdiv(vmul(vadd(one, e_used), speed_in), k));
    const M acts = lt(zero, jn);  // !(jn > 0): separating or resting, untouched

    // apply(jn n): vA -= wA J where wA != 0, vB += wB J where wB != 0; only contacts that act.
    const M moveA = and_not(acts, eq(inv_mass_a, zero)), moveB = and_not(acts, eq(inv_mass_b, zero));
    AfterNormal<P, D> after;
    IMPULSE_BATCH_UNROLL
    for (int d = 0; d < D; ++d) {
        const P J = vmul(jn, n[d]);
        after.vA[d] = sel(moveA, vsub(vA[d], vmul(inv_mass_a, J)), vA[d]);
        after.vB[d] = sel(moveB, vadd(vB[d], vmul(inv_mass_b, J)), vB[d]);
    }
    after.jn = jn;
    return after;
}

/// The second half of a block: friction from the velocities after the normal impulse, capped by
/// jn, applied; stores every output at `at` through `out_base` and, when `regime` is not null, the
/// regimes there.
template <class S, int D, bool Left, class P>
EIGEN_ALWAYS_INLINE void friction_half(const S* const* in_base, S* const* out_base, const AfterNormal<P, D>& after,
                                       std::size_t at, Regime* regime) noexcept
{
    using L = Layout<D>;
    using M = MaskOf<P>;
    const P zero = Io<P>::splat(S(0));
    auto load = [in_base, at](int c) { return Io<P>::load(in_base[c] + at); };
    auto store = [out_base, at](int c, const P& x) { Io<P>::store(out_base[c] + at, x); };

    P vA[D], vB[D], n[D], rv[D];
    IMPULSE_BATCH_UNROLL
    for (int d = 0; d < D; ++d) {
        vA[d] = after.vA[d];
        vB[d] = after.vB[d];
        n[d] = load(L::n + d);
        rv[d] = vsub(vB[d], vA[d]);  // rv = vB - vA, after the normal impulse
    }
    const P jn = after.jn;
    const P inv_mass_a = load(L::inv_mass_a), inv_mass_b = load(L::inv_mass_b), mu_s = load(L::mu_s), mu_k = load(L::mu_k);
    // k and the masks again, as normal_half made them: a few operations on values already loaded,
    // where the chunk buffer would take a store and a load each (block by block, in registers, the
    // compiler can merge the two).
    const P k = vadd(inv_mass_a, inv_mass_b);
    const M acts = lt(zero, jn);
    const M moveA = and_not(acts, eq(inv_mass_a, zero)), moveB = and_not(acts, eq(inv_mass_b, zero));

    // Friction from the velocity after the normal impulse, capped by jn (friction_impulse).
    P Jt[D], jt;
    M sticks;
    if constexpr (D == 2) {
        // t = (-ny, nx); vt = rv.t = rv0 (-ny) + rv1 nx, as rv1 nx - rv0 ny (the same bits)
        const P vt = vsub(vmul(rv[1], n[0]), vmul(rv[0], n[1]));
        const P want = vdiv(neg(vt), k);  // Jt_want = -vt / k
        // coulomb: |want| <= mu_s jn sticks; otherwise sign(want) min(mu_k jn, |want|)
        const P size = vabs(want);
        const M stick = le(size, vmul(mu_s, jn));
        const P cap0 = vmul(mu_k, jn);
        const P cap = sel(lt(size, cap0), size, cap0);  // if (cap > size) cap = size
        const P j = sel(stick, want, sel(lt(want, zero), neg(cap), cap));
        const M slides = and_not(acts, eq(vt, zero));  // vt == 0: nothing slides, no impulse
        jt = keep(slides, j);
        Jt[0] = keep(slides, neg(vmul(j, n[1])));  // Jt = j t = (j (-ny), j nx)
        Jt[1] = keep(slides, vmul(j, n[0]));
        sticks = vor(stick, eq(vt, zero));
    } else {
        // vt = rv - (rv.n) n; the impulse that stops it, -vt / k, sticks if |.| <= mu_s jn;
        // otherwise the slide gets min(mu_k jn, |stick|, speed / k) against vt.
        const P vdn = dot<Left, 3>(rv, n);
        P vt[3], stop[3], dir[3];
        IMPULSE_BATCH_UNROLL
        for (int d = 0; d < 3; ++d) vt[d] = vsub(rv[d], vmul(vdn, n[d]));
        const P speed = safe_norm<S, Left>(vt, acts);
        IMPULSE_BATCH_UNROLL
        for (int d = 0; d < 3; ++d) {
            dir[d] = vdiv(vt[d], speed);      // dir = vt / speed
            stop[d] = vdiv(neg(vt[d]), k);    // stick impulse = -vt / (wA + wB)
        }
        const P stop_size = safe_norm<S, Left>(stop, acts);
        const M stick = le(stop_size, vmul(mu_s, jn));
        const P cap0 = vmul(mu_k, jn);
        const P cap = sel(lt(stop_size, cap0), stop_size, cap0);           // if (cap > size) cap = size
        const P size = sel(lt(speed, vmul(cap, k)), vdiv(speed, k), cap);  // size k > speed
        const M slides = and_not(acts, eq(speed, zero));  // speed == 0: nothing slides
        const P minus_size = neg(size);
        IMPULSE_BATCH_UNROLL
        for (int d = 0; d < 3; ++d) Jt[d] = keep(slides, sel(stick, stop[d], vmul(minus_size, dir[d])));
        jt = keep(slides, sel(stick, stop_size, size));
        sticks = vor(stick, eq(speed, zero));
    }

    // apply(Jt), then store.
    IMPULSE_BATCH_UNROLL
    for (int d = 0; d < D; ++d) {
        store(L::out_vA + d, sel(moveA, vsub(vA[d], vmul(inv_mass_a, Jt[d])), vA[d]));
        store(L::out_vB + d, sel(moveB, vadd(vB[d], vmul(inv_mass_b, Jt[d])), vB[d]));
        store(L::out_Jt + d, Jt[d]);
    }
    store(L::out_jn, jn);
    store(L::out_jt, jt);

    if (regime) {
        // immovable / separating / sticking / sliding, as integers in the lanes' low bytes
        const P code = sel(lt(zero, k),
                           sel(acts,
                               sel(sticks, Io<P>::splat(code_lane<S>(Regime::sticking)),
                                   Io<P>::splat(code_lane<S>(Regime::sliding))),
                               Io<P>::splat(code_lane<S>(Regime::separating))),
                           Io<P>::splat(code_lane<S>(Regime::immovable)));
        Io<P>::codes(regime, code);
    }
}

/// Resolves one block of `width` contacts, both halves in registers: loads them at offset `at` from
/// the bases of the input columns `in_base` (Layout order), stores the results at `at` through
/// `out_base` and, when `regime` is not null, the regimes there.
template <class S, int D, bool Left, class P>
EIGEN_ALWAYS_INLINE void block(const S* const* in_base, S* const* out_base, std::size_t at,
                               Regime* regime) noexcept
{
    friction_half<S, D, Left, P>(in_base, out_base, normal_half<S, D, Left, P>(in_base, at), at, regime);
}

/// One block of P's inputs and outputs in local arrays: the last few contacts of a view, padded,
/// and the blocks of the array-of-structures form.
template <class S, int D, class P>
struct Staging {
    static constexpr int W = LanesOf<P>::value;
    S in[Layout<D>::inputs][W];
    S out[Layout<D>::outputs][W];
    Regime regime[W];

    /// Every lane immovable (wA = wB = 0) and otherwise harmless until filled.
    Staging() noexcept
    {
        for (auto& c : in)
            for (S& x : c) x = S(0);
        for (int l = 0; l < W; ++l) in[Layout<D>::n][l] = S(1);
    }

    /// Runs the kernel on the staged lanes.
    template <bool Left>
    void run(bool want_regime) noexcept
    {
        const S* p[Layout<D>::inputs];
        S* q[Layout<D>::outputs];
        for (int c = 0; c < Layout<D>::inputs; ++c) p[c] = in[c];
        for (int c = 0; c < Layout<D>::outputs; ++c) q[c] = out[c];
        block<S, D, Left, P>(p, q, 0, want_regime ? regime : nullptr);
    }
};

/// The inputs of a view as columns in Layout order.
template <class S, int D>
void columns(const BatchView<S, D>& v, const Column<S>* (&c)[Layout<D>::inputs]) noexcept
{
    using L = Layout<D>;
    for (int d = 0; d < D; ++d) {
        c[L::vA + d] = &v.vA[d];
        c[L::vB + d] = &v.vB[d];
        c[L::n + d] = &v.n[d];
    }
    c[L::inv_mass_a] = &v.inv_mass_a;
    c[L::inv_mass_b] = &v.inv_mass_b;
    c[L::e] = &v.restitution;
    c[L::mu_s] = &v.mu_s;
    c[L::mu_k] = &v.mu_k;
    c[L::threshold] = &v.threshold;
}

/// The scalar outputs of a view in Layout order (null: not wanted).
template <class S, int D>
void outputs(const BatchView<S, D>& v, S* (&q)[Layout<D>::outputs]) noexcept
{
    using L = Layout<D>;
    for (int d = 0; d < D; ++d) {
        q[L::out_vA + d] = v.vA_out[d];
        q[L::out_vB + d] = v.vB_out[d];
        q[L::out_Jt + d] = v.friction_impulse[d];
    }
    q[L::out_jn] = v.jn;
    q[L::out_jt] = v.jt;
}

/// Contact i's normal as a vector.
template <class S, int D>
Vec<S, D> normal(const BatchView<S, D>& v, std::size_t i) noexcept
{
    Vec<S, D> n;
    for (int d = 0; d < D; ++d) n[d] = v.n[d][i];
    return n;
}

/// The callers' contracts, checked contact by contact where IMPULSE_ASSERT is active (the loop is
/// empty, and optimised away, where it is not).
template <class S, int D>
void check(const BatchView<S, D>& v, std::size_t count) noexcept
{
    (void)v;  // unused where IMPULSE_ASSERT compiles away
    for (std::size_t i = 0; i < count; ++i) {
        IMPULSE_ASSERT(!(v.inv_mass_a[i] < S(0)) && !(v.inv_mass_b[i] < S(0)), "inverse masses must be non-negative");
        IMPULSE_ASSERT(!(v.restitution[i] < S(0)) && !(v.restitution[i] > S(1)),
                       "restitution must lie in [0, 1]");
        IMPULSE_ASSERT(!(v.mu_s[i] < S(0)) && !(v.mu_k[i] < S(0)),
                       "friction coefficients must be non-negative");
        IMPULSE_ASSERT(is_unit(normal(v, i)), "the contact normal must be a unit vector");
    }
}

/// Contact i of a view as scalar-path arguments (the fallback for scalars without packets).
template <class S, int D>
void scalar_path(const BatchView<S, D>& v, std::size_t count) noexcept
{
    for (std::size_t i = 0; i < count; ++i) {
        Vec<S, D> a, b, n;
        for (int d = 0; d < D; ++d) {
            a[d] = v.vA[d][i];
            b[d] = v.vB[d][i];
            n[d] = v.n[d][i];
        }
        Coefficients<S> coefficients;
        coefficients.restitution = v.restitution[i];
        coefficients.friction = Friction<S>(v.mu_s[i], v.mu_k[i]);
        coefficients.threshold = v.threshold[i];
        const Result<S, D> r = resolve(a, v.inv_mass_a[i], b, v.inv_mass_b[i], n, coefficients);
        for (int d = 0; d < D; ++d) {
            if (v.vA_out[d]) v.vA_out[d][i] = a[d];
            if (v.vB_out[d]) v.vB_out[d][i] = b[d];
            if (v.friction_impulse[d]) v.friction_impulse[d][i] = r.friction_impulse[d];
        }
        if (v.jn) v.jn[i] = r.jn;
        if (v.jt) v.jt[i] = r.jt;
        if (v.regime) v.regime[i] = r.regime;
    }
}

/// The next narrower lanes after P for the last contacts of a view: a Pair's packet, a packet's half
/// while that is a register of at least 128 bits, else P itself (no narrower one).
template <class P>
struct Narrower {
    using H = typename ei::unpacket_traits<P>::half;
    using type = std::conditional_t<(sizeof(H) >= 16 && !std::is_same<H, P>::value), H, P>;
};
template <class P>
struct Narrower<Pair<P>> {
    using type = P;
};

/// Where the last contacts of a view (fewer than a block) are read and written: the column
/// bases at their first contact, `first`, as in run_view.
template <class S, int D>
struct Tail {
    const Column<S>* const* col;  ///< the input columns (Layout order)
    S* const* wanted;             ///< the outputs wanted (Layout order; null: not wanted)
    const S* const* in;           ///< input bases at contact `first`
    S* const* out;                ///< output bases at contact `first` (scratch for unwanted ones)
    Regime* regime;               ///< regimes at contact `first`, or null
    std::size_t first;            ///< the first contact of the tail
};

/// Resolves the `rest` contacts from `j` past the tail's first: a block of P directly from the
/// caller's arrays while they fill one, then narrower blocks (the same operations lane by lane,
/// so the same results), and the last few, fewer than the narrowest block, staged in a padded
/// one (the other lanes immovable).
template <class S, int D, bool Left, class P>
void finish(const Tail<S, D>& t, std::size_t j, std::size_t rest) noexcept
{
    using L = Layout<D>;
    constexpr std::size_t w = std::size_t(LanesOf<P>::value);
    if (rest >= w) {  // at most once: fewer than twice w are left
        block<S, D, Left, P>(t.in, t.out, j, t.regime ? t.regime + j : nullptr);
        j += w;
        rest -= w;
    }
    if (rest == 0) return;
    using H = typename Narrower<P>::type;
    if constexpr (!std::is_same<H, P>::value) {
        finish<S, D, Left, H>(t, j, rest);
    } else {
        const std::size_t at = t.first + j;
        Staging<S, D, P> st;
        for (int c = 0; c < L::inputs; ++c)
            for (std::size_t l = 0; l < rest; ++l) st.in[c][l] = (*t.col[c])[at + l];
        st.template run<Left>(t.regime != nullptr);
        for (int c = 0; c < L::outputs; ++c)
            if (t.wanted[c])
                for (std::size_t l = 0; l < rest; ++l) t.wanted[c][at + l] = st.out[c][l];
        if (t.regime)
            for (std::size_t l = 0; l < rest; ++l) t.regime[j + l] = st.regime[l];
    }
}

/// The structure-of-arrays form on the SIMD kernel, summing 3-vectors in the order `Left`.
template <class S, int D, bool Left>
void run_view(const BatchView<S, D>& v, std::size_t count) noexcept
{
    using L = Layout<D>;
    constexpr int W = Traits<S>::width;
    // The blocks go a chunk of `run` contacts at a time. Within a chunk every column is read at the
    // same offset from a base: a per-contact column's own array, or a chunk-long run of copies of
    // the single value. Unwanted outputs go to a chunk-long scratch run. With split halves the
    // chunk is long enough that setting up the bases costs little (AVX2, 2D float: 128 contacts
    // ran 8% faster than 64 and 13% faster than 32); block by block four blocks are enough.
    constexpr std::size_t run = split_halves ? 128 : 4 * std::size_t(W);
    const Column<S>* col[L::inputs];
    columns(v, col);
    S copies[L::inputs][run];
    const S* in[L::inputs];
    for (int c = 0; c < L::inputs; ++c)
        if (!col[c]->data)
            for (S& x : copies[c]) x = col[c]->value;
    S* wanted[L::outputs];
    outputs(v, wanted);
    S scratch[run];
    S* out[L::outputs];
    using Lanes = typename Traits<S>::Lanes;
    Regime* regime = v.regime;

    std::size_t i = 0;
    while (i + W <= count) {
        for (int c = 0; c < L::inputs; ++c) in[c] = col[c]->data ? col[c]->data + i : copies[c];
        for (int c = 0; c < L::outputs; ++c) out[c] = wanted[c] ? wanted[c] + i : scratch;
        const std::size_t end = count - i < run ? (count - i) / W * W : run;
        if constexpr (split_halves) {
            Mid<S, D, run> mid;
            for (std::size_t j = 0; j < end; j += W) mid.put(j, normal_half<S, D, Left, Lanes>(in, j));
            for (std::size_t j = 0; j < end; j += W)
                friction_half<S, D, Left, Lanes>(in, out, mid.template get<Lanes>(j), j,
                                                 regime ? regime + i + j : nullptr);
        } else {
            for (std::size_t j = 0; j < end; j += W)
                block<S, D, Left, Lanes>(in, out, j, regime ? regime + i + j : nullptr);
        }
        i += end;
    }
    if (i == count) return;

    // The last count % W contacts (fewer than a block, and than a chunk).
    for (int c = 0; c < L::inputs; ++c) in[c] = col[c]->data ? col[c]->data + i : copies[c];
    for (int c = 0; c < L::outputs; ++c) out[c] = wanted[c] ? wanted[c] + i : scratch;
    const Tail<S, D> tail{col, wanted, in, out, regime ? regime + i : nullptr, i};
    finish<S, D, Left, typename Traits<S>::Lanes>(tail, 0, count - i);
}

/// The array-of-structures form on the SIMD kernel: each block of structs staged in and out.
template <class S, int D, bool Left>
void run_pairs(PointPair<S, D>* pairs, std::size_t count, Result<S, D>* results) noexcept
{
    using L = Layout<D>;
    constexpr std::size_t W = std::size_t(Traits<S>::width);
    for (std::size_t i = 0; i < count; i += W) {
        const std::size_t lanes = count - i < W ? count - i : W;
        Staging<S, D, typename Traits<S>::Lanes> st;
        for (std::size_t l = 0; l < lanes; ++l) {
            const PointPair<S, D>& p = pairs[i + l];
            IMPULSE_ASSERT(is_unit(p.n), "the contact normal must be a unit vector");
            IMPULSE_ASSERT(!(p.inv_mass_a < S(0)) && !(p.inv_mass_b < S(0)), "inverse masses must be non-negative");
            IMPULSE_ASSERT(!(p.coefficients.restitution < S(0)) && !(p.coefficients.restitution > S(1)),
                           "restitution must lie in [0, 1]");
            IMPULSE_ASSERT(!(p.coefficients.friction.mu_s < S(0)) && !(p.coefficients.friction.mu_k < S(0)),
                           "friction coefficients must be non-negative");
            for (int d = 0; d < D; ++d) {
                st.in[L::vA + d][l] = p.vA[d];
                st.in[L::vB + d][l] = p.vB[d];
                st.in[L::n + d][l] = p.n[d];
            }
            st.in[L::inv_mass_a][l] = p.inv_mass_a;
            st.in[L::inv_mass_b][l] = p.inv_mass_b;
            st.in[L::e][l] = p.coefficients.restitution;
            st.in[L::mu_s][l] = p.coefficients.friction.mu_s;
            st.in[L::mu_k][l] = p.coefficients.friction.mu_k;
            st.in[L::threshold][l] = p.coefficients.threshold;
        }
        st.template run<Left>(results != nullptr);
        for (std::size_t l = 0; l < lanes; ++l) {
            PointPair<S, D>& p = pairs[i + l];
            for (int d = 0; d < D; ++d) {
                p.vA[d] = st.out[L::out_vA + d][l];
                p.vB[d] = st.out[L::out_vB + d][l];
            }
            if (!results) continue;
            Result<S, D>& r = results[i + l];
            r.jn = st.out[L::out_jn][l];
            for (int d = 0; d < D; ++d) r.friction_impulse[d] = st.out[L::out_Jt + d][l];
            r.jt = st.out[L::out_jt][l];
            r.regime = st.regime[l];
        }
    }
}

}  // namespace detail::batch

/// Lanes the batch kernel resolves at once for scalar S on this target (1 where S has no packets).
template <class S>
constexpr int batch_width = detail::batch::Traits<S>::width;

/// Resolves `count` independent point-mass contacts described by `v` (see BatchView): for every
/// contact i the results of `resolve(vA, wA, vB, wB, n, k)`, written to the view's outputs.
/// No allocation; the caller's arrays are read and written in place, in blocks of
/// `batch_width<S>` contacts. Working space is on the stack: at most about 24 KB (3D double with
/// SSE or AVX2; 2D float about 9 KB), so a thread or fiber that calls it wants a stack of at
/// least 32 KB.
template <class S, int D>
void resolve_batch(const BatchView<S, D>& v, std::size_t count) noexcept
{
    namespace b = detail::batch;
    b::check(v, count);
    if constexpr (!b::simd<S>) b::scalar_path(v, count);
    else if (D == 3 && b::sums_left_first<S>()) b::run_view<S, D, true>(v, count);
    else b::run_view<S, D, false>(v, count);
}

/// Array-of-structures form: resolves `count` independent contacts stored as PointPair structs,
/// updating their velocities in place and, when `results` is not null, writing what each did to
/// `results[i]` (as `resolve` returns it). The structs pass through the SIMD kernel a block at a
/// time, so the results are those of the structure-of-arrays form.
template <class S, int D>
void resolve_batch(PointPair<S, D>* pairs, std::size_t count, Result<S, D>* results = nullptr) noexcept
{
    namespace b = detail::batch;
    if constexpr (!b::simd<S>) {
        for (std::size_t i = 0; i < count; ++i) {
            PointPair<S, D>& p = pairs[i];
            const Result<S, D> r = resolve(p.vA, p.inv_mass_a, p.vB, p.inv_mass_b, p.n, p.coefficients);
            if (results) results[i] = r;
        }
    } else if (D == 3 && b::sums_left_first<S>()) {
        b::run_pairs<S, D, true>(pairs, count, results);
    } else {
        b::run_pairs<S, D, false>(pairs, count, results);
    }
}

}  // namespace impulse

#undef IMPULSE_BATCH_UNROLL

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
