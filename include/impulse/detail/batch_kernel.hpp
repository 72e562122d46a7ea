// SPDX-License-Identifier: MIT
/// \file batch_kernel.hpp
/// The kernel behind batch.hpp's `resolve_batch`: blocks of independent point-mass contacts in
/// the lanes of the wide values of detail/simd.hpp, written with that layer's operations only.
///
/// A block is `width<S>` contacts: one register of the rung, or on AVX-512 a Twin of two.
/// Each block mirrors the scalar `resolve(vA, inv_mass_a, vB, inv_mass_b, n, coefficients)`
/// operation for operation, in the same order, with a select where the scalar path branches; the
/// scalar code each step mirrors is in the comments. The work splits in two halves, the normal
/// impulse and then friction, which either run block by block or each over a chunk of blocks
/// (split_halves). The last contacts of a view, fewer than a block, go through narrower registers
/// and a padded block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "../axis.hpp"
#include "../config.hpp"
#include "../contact.hpp"
#include "../material.hpp"
#include "simd.hpp"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"  // as in simd.hpp
#endif

namespace impulse {

// The public types of batch.hpp, which includes this header before defining them.
template <class S>
struct Column;
template <class S, int D>
struct BatchView;
template <class S, int D>
struct PointPair;

namespace detail::batch {

// The kernel's arithmetic is the SIMD layer's, called by its short names.
using namespace simd;

/// True for the scalars the kernel handles; the others take the scalar path, contact by contact.
template <class S>
constexpr bool wide_scalar = std::is_same<S, float>::value || std::is_same<S, double>::value;

/// Registers per block. With AVX-512's 32 vector registers two side by side (a Twin), whose
/// independent chains of operations keep more units busy, run faster than one; with the 16
/// registers of SSE and AVX the spills cancel the gain.
inline constexpr int packets_per_block = isa == Isa::avx512 ? 2 : 1;

/// Whether the two halves of a block (normal impulse, then friction; see normal_half) each run over
/// a whole chunk of blocks before the other, or block by block. Over a chunk each half holds fewer
/// values in registers than the whole block (with 16 vector registers, no spills), keeps more of
/// its arrays' addresses in general registers, and has a chain of dependent operations half as
/// long, with one division: faster with one register per block. With AVX-512's Twin blocks the
/// split ran slower out of cache, so there the halves go block by block.
inline constexpr bool split_halves = packets_per_block == 1;

/// The lanes of one block for scalar S, and their number (1 where S takes the scalar path).
template <class S, bool = wide_scalar<S>>
struct Block {
    using Lanes = S;
    static constexpr int width = 1;
};
template <class S>
struct Block<S, true> {
    using Lanes = std::conditional_t<packets_per_block == 2, Twin<Wide<S>>, Wide<S>>;
    static constexpr int width = lanes<Lanes>;
};

/// Contacts per block for scalar S: `batch_width<S>`.
template <class S>
constexpr int width = Block<S>::width;

/// The columns of a view, numbered: inputs, then the scalar outputs.
template <int D>
struct Layout {
    static constexpr int vA = 0, vB = D, inv_mass_a = 2 * D, inv_mass_b = 2 * D + 1, n = 2 * D + 2,
                         restitution = 3 * D + 2, mu_s = 3 * D + 3, mu_k = 3 * D + 4, threshold = 3 * D + 5,
                         inputs = 3 * D + 6;
    static constexpr int out_vA = 0, out_vB = D, out_jn = 2 * D, out_friction_impulse = 2 * D + 1,
                         out_jt = 3 * D + 1, outputs = 3 * D + 2;
};

/// Whether Eigen sums the scalar path's 3-vector dot products (and squared norms) as
/// (x0 + x1) + x2 rather than x0 + (x1 + x2). The kernel must add in the scalar path's order to
/// give its bits, and that order is Eigen's choice: it depends on whether Eigen vectorizes the sum
/// of a 3-vector of S (two lanes, then the third: the left order; no packet: halves, the right
/// order), which differs between scalars, targets and Eigen versions and is no interface of
/// Eigen's. So Eigen is asked, once per process (the answer is fixed for a build), by a sum the
/// two orders round differently: (1 + h) + h = 1 but 1 + (h + h) = 1 + eps, for h = eps/2.
template <class S>
bool sums_left_first() noexcept
{
    static const bool left = [] {
        const S h = std::numeric_limits<S>::epsilon() / S(2);
        const Vec<S, 3> x(S(1), h, h), ones = Vec<S, 3>::Ones();
        return x.dot(ones) == S(1);
    }();
    return left;
}

/// a.b in the order Eigen sums the scalar path's `dot` and `squaredNorm`: 2D x0 + x1; 3D
/// (x0 + x1) + x2 when `Left`, else x0 + (x1 + x2).
template <bool Left, int D, class P>
EIGEN_STRONG_INLINE P dot(const P (&a)[D], const P (&b)[D]) noexcept
{
    if constexpr (D == 2) return add(mul(a[0], b[0]), mul(a[1], b[1]));
    else if constexpr (Left) return add(add(mul(a[0], b[0]), mul(a[1], b[1])), mul(a[2], b[2]));
    else return add(mul(a[0], b[0]), add(mul(a[1], b[1]), mul(a[2], b[2])));
}

/// detail::safe_norm lane by lane: sqrt(v.v) where v.v is a normal number (or v is zero);
/// otherwise m |v/m| with m the largest |component|, computed only when some lane needs it.
template <class S, bool Left, class P, class M>
EIGEN_STRONG_INLINE P safe_norm(const P (&v)[3], const M& live) noexcept
{
    const P zero = simd::zero<P>();
    const P n2 = dot<Left, 3>(v, v);
    const P fast = sqrt(n2);
    const M ok = mask_and(le(broadcast<P>(std::numeric_limits<S>::min()), n2),
                          le(n2, broadcast<P>(std::numeric_limits<S>::max())));
    const M zero_vector = mask_and(eq(v[0], zero), mask_and(eq(v[1], zero), eq(v[2], zero)));
    const M slow = mask_andnot(mask_andnot(live, ok), zero_vector);
    if (!any(slow)) return fast;  // the usual case: every squared norm in range
    // m = max |v_i| (as `if (abs(v[i]) > m) m = abs(v[i])`); |v| = m * sqrt((v/m).(v/m))
    P m = zero;
    IMPULSE_SIMD_UNROLL
    for (int i = 0; i < 3; ++i) m = max(m, abs(v[i]));
    const P u[3] = {div(v[0], m), div(v[1], m), div(v[2], m)};
    const P scaled = keep(lt(zero, m), mul(m, sqrt(dot<Left, 3>(u, u))));
    return select(slow, scaled, fast);
}

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
        IMPULSE_SIMD_UNROLL
        for (int d = 0; d < D; ++d) {
            store(vA[d] + at, a.vA[d]);
            store(vB[d] + at, a.vB[d]);
        }
        store(jn + at, a.jn);
    }
    /// The AfterNormal kept at contact `at`.
    template <class P>
    EIGEN_ALWAYS_INLINE AfterNormal<P, D> get(std::size_t at) const noexcept
    {
        AfterNormal<P, D> a;
        IMPULSE_SIMD_UNROLL
        for (int d = 0; d < D; ++d) {
            a.vA[d] = load<P>(vA[d] + at);
            a.vB[d] = load<P>(vB[d] + at);
        }
        a.jn = load<P>(jn + at);
        return a;
    }
};

/// The first half of a block of contacts in lanes P: loads them at offset `at` from the bases of
/// the input columns `in_base` (Layout order), computes and applies the normal impulse. Mirrors
/// resolve(PointContact) operation for operation up to the friction.
template <class S, int D, bool Left, class P>
EIGEN_ALWAYS_INLINE AfterNormal<P, D> normal_half(const S* const* in_base, std::size_t at) noexcept
{
    using L = Layout<D>;
    using M = Mask<P>;
    const P zero = simd::zero<P>(), one = broadcast<P>(S(1));
    auto in = [in_base, at](int c) { return load<P>(in_base[c] + at); };

    P vA[D], vB[D], n[D], rv[D];
    IMPULSE_SIMD_UNROLL
    for (int d = 0; d < D; ++d) {
        vA[d] = in(L::vA + d);
        vB[d] = in(L::vB + d);
        n[d] = in(L::n + d);
        rv[d] = sub(vB[d], vA[d]);  // rv = vB - vA
    }
    const P inv_mass_a = in(L::inv_mass_a), inv_mass_b = in(L::inv_mass_b);
    const P restitution = in(L::restitution), threshold = in(L::threshold);

    // The normal impulse (resolve, normal_impulse, effective_restitution, bounce_impulse).
    const P k = add(inv_mass_a, inv_mass_b);  // k = wA + wB
    const M movable = lt(zero, k);            // !(k > 0): immovable, nothing changes
    const P vn = dot<Left, D>(rv, n);         // vn = rv.n
    const P speed_in = neg(vn);               // -vn
    const P e = keep(lt(threshold, speed_in), restitution);  // e = -vn > threshold ? restitution : 0
    const M approach = mask_and(lt(vn, zero), movable);      // vn < 0 and k > 0
    // jn = -(1 + e) vn / k, as (1 + e) (-vn) / k: the same bits (negation is exact)
    const P jn = keep(approach, div(mul(add(one, e), speed_in), k));
    const M acts = lt(zero, jn);  // !(jn > 0): separating or resting, untouched

    // apply(jn n): vA -= wA J where wA != 0, vB += wB J where wB != 0; only contacts that act.
    const M moveA = mask_andnot(acts, eq(inv_mass_a, zero)), moveB = mask_andnot(acts, eq(inv_mass_b, zero));
    AfterNormal<P, D> after;
    IMPULSE_SIMD_UNROLL
    for (int d = 0; d < D; ++d) {
        const P J = mul(jn, n[d]);
        after.vA[d] = select(moveA, sub(vA[d], mul(inv_mass_a, J)), vA[d]);
        after.vB[d] = select(moveB, add(vB[d], mul(inv_mass_b, J)), vB[d]);
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
    using M = Mask<P>;
    const P zero = simd::zero<P>();
    auto in = [in_base, at](int c) { return load<P>(in_base[c] + at); };
    auto out = [out_base, at](int c, const P& x) { store(out_base[c] + at, x); };

    P vA[D], vB[D], n[D], rv[D];
    IMPULSE_SIMD_UNROLL
    for (int d = 0; d < D; ++d) {
        vA[d] = after.vA[d];
        vB[d] = after.vB[d];
        n[d] = in(L::n + d);
        rv[d] = sub(vB[d], vA[d]);  // rv = vB - vA, after the normal impulse
    }
    const P jn = after.jn;
    const P inv_mass_a = in(L::inv_mass_a), inv_mass_b = in(L::inv_mass_b), mu_s = in(L::mu_s), mu_k = in(L::mu_k);
    // k and the masks again, as normal_half made them: a few operations on values already loaded,
    // where the chunk buffer would take a store and a load each (block by block, in registers, the
    // compiler can merge the two).
    const P k = add(inv_mass_a, inv_mass_b);
    const M acts = lt(zero, jn);
    const M moveA = mask_andnot(acts, eq(inv_mass_a, zero)), moveB = mask_andnot(acts, eq(inv_mass_b, zero));

    // Friction from the velocity after the normal impulse, capped by jn (friction_impulse).
    P Jt[D], jt;
    M sticks;
    if constexpr (D == 2) {
        // t = (-ny, nx); vt = rv.t = rv0 (-ny) + rv1 nx, as rv1 nx - rv0 ny (the same bits)
        const P vt = sub(mul(rv[1], n[0]), mul(rv[0], n[1]));
        const P want = div(neg(vt), k);  // Jt_want = -vt / k
        // coulomb: |want| <= mu_s jn sticks; otherwise sign(want) min(mu_k jn, |want|)
        const P size = abs(want);
        const M stick = le(size, mul(mu_s, jn));
        const P cap = min(mul(mu_k, jn), size);  // cap = mu_k jn; if (cap > size) cap = size
        const P j = select(stick, want, select(lt(want, zero), neg(cap), cap));
        const M slides = mask_andnot(acts, eq(vt, zero));  // vt == 0: nothing slides, no impulse
        jt = keep(slides, j);
        Jt[0] = keep(slides, neg(mul(j, n[1])));  // Jt = j t = (j (-ny), j nx)
        Jt[1] = keep(slides, mul(j, n[0]));
        sticks = mask_or(stick, eq(vt, zero));
    } else {
        // vt = rv - (rv.n) n; the impulse that stops it, -vt / k, sticks if |.| <= mu_s jn;
        // otherwise the slide gets min(mu_k jn, |stick|, speed / k) against vt.
        const P vdn = dot<Left, 3>(rv, n);
        P vt[3], stop[3], dir[3];
        IMPULSE_SIMD_UNROLL
        for (int d = 0; d < 3; ++d) vt[d] = sub(rv[d], mul(vdn, n[d]));
        const P speed = safe_norm<S, Left>(vt, acts);
        IMPULSE_SIMD_UNROLL
        for (int d = 0; d < 3; ++d) {
            dir[d] = div(vt[d], speed);       // dir = vt / speed
            stop[d] = div(neg(vt[d]), k);     // stick impulse = -vt / (wA + wB)
        }
        const P stop_size = safe_norm<S, Left>(stop, acts);
        const M stick = le(stop_size, mul(mu_s, jn));
        const P cap = min(mul(mu_k, jn), stop_size);                    // if (cap > size) cap = size
        const P size = select(lt(speed, mul(cap, k)), div(speed, k), cap);  // size k > speed
        const M slides = mask_andnot(acts, eq(speed, zero));  // speed == 0: nothing slides
        const P minus_size = neg(size);
        IMPULSE_SIMD_UNROLL
        for (int d = 0; d < 3; ++d) Jt[d] = keep(slides, select(stick, stop[d], mul(minus_size, dir[d])));
        jt = keep(slides, select(stick, stop_size, size));
        sticks = mask_or(stick, eq(speed, zero));
    }

    // apply(Jt), then store.
    IMPULSE_SIMD_UNROLL
    for (int d = 0; d < D; ++d) {
        out(L::out_vA + d, select(moveA, sub(vA[d], mul(inv_mass_a, Jt[d])), vA[d]));
        out(L::out_vB + d, select(moveB, add(vB[d], mul(inv_mass_b, Jt[d])), vB[d]));
        out(L::out_friction_impulse + d, Jt[d]);
    }
    out(L::out_jn, jn);
    out(L::out_jt, jt);

    if (regime) {
        // immovable / separating / sticking / sliding, as integer codes in the lanes
        auto code = [](Regime r) { return broadcast_code<P>(static_cast<std::uint8_t>(r)); };
        const P codes = select(lt(zero, k),
                               select(acts, select(sticks, code(Regime::sticking), code(Regime::sliding)),
                                      code(Regime::separating)),
                               code(Regime::immovable));
        store_codes(regime, codes);
    }
}

/// Resolves one block of contacts in lanes P, both halves in registers: loads them at offset `at`
/// from the bases of the input columns `in_base` (Layout order), stores the results at `at`
/// through `out_base` and, when `regime` is not null, the regimes there.
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
    static constexpr int W = lanes<P>;
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
    c[L::restitution] = &v.restitution;
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
        q[L::out_friction_impulse + d] = v.friction_impulse[d];
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

/// Contact i of a view as scalar-path arguments (the fallback for scalars without wide values).
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
        const Result<S, D> r = impulse::resolve(a, v.inv_mass_a[i], b, v.inv_mass_b[i], n, coefficients);
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
/// caller's arrays while they fill one, then blocks of the narrower registers (the same
/// operations lane by lane, so the same results), and the last few, fewer than the narrowest
/// block, staged in a padded one (the other lanes immovable).
template <class S, int D, bool Left, class P>
void finish(const Tail<S, D>& t, std::size_t j, std::size_t rest) noexcept
{
    using L = Layout<D>;
    constexpr std::size_t w = std::size_t(lanes<P>);
    if (rest >= w) {  // at most once: fewer than twice w are left
        block<S, D, Left, P>(t.in, t.out, j, t.regime ? t.regime + j : nullptr);
        j += w;
        rest -= w;
    }
    if (rest == 0) return;
    using H = Narrower<P>;
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

/// The structure-of-arrays form on the kernel, summing 3-vectors in the order `Left`.
template <class S, int D, bool Left>
void run_view(const BatchView<S, D>& v, std::size_t count) noexcept
{
    using L = Layout<D>;
    using Lanes = typename Block<S>::Lanes;
    constexpr int W = width<S>;
    // The blocks go a chunk of `run` contacts at a time. Within a chunk every column is read at the
    // same offset from a base: a per-contact column's own array, or a chunk-long run of copies of
    // the single value. Unwanted outputs go to a chunk-long scratch run. With split halves the
    // chunk is long enough that setting up the bases costs little (128 contacts ran faster than
    // 64 and 32); block by block four blocks are enough.
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
    finish<S, D, Left, Lanes>(tail, 0, count - i);
}

/// The array-of-structures form on the kernel: each block of structs staged in and out.
template <class S, int D, bool Left>
void run_pairs(PointPair<S, D>* pairs, std::size_t count, Result<S, D>* results) noexcept
{
    using L = Layout<D>;
    constexpr std::size_t W = std::size_t(width<S>);
    for (std::size_t i = 0; i < count; i += W) {
        const std::size_t used = count - i < W ? count - i : W;
        Staging<S, D, typename Block<S>::Lanes> st;
        for (std::size_t l = 0; l < used; ++l) {
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
            st.in[L::restitution][l] = p.coefficients.restitution;
            st.in[L::mu_s][l] = p.coefficients.friction.mu_s;
            st.in[L::mu_k][l] = p.coefficients.friction.mu_k;
            st.in[L::threshold][l] = p.coefficients.threshold;
        }
        st.template run<Left>(results != nullptr);
        for (std::size_t l = 0; l < used; ++l) {
            PointPair<S, D>& p = pairs[i + l];
            for (int d = 0; d < D; ++d) {
                p.vA[d] = st.out[L::out_vA + d][l];
                p.vB[d] = st.out[L::out_vB + d][l];
            }
            if (!results) continue;
            Result<S, D>& r = results[i + l];
            r.jn = st.out[L::out_jn][l];
            for (int d = 0; d < D; ++d) r.friction_impulse[d] = st.out[L::out_friction_impulse + d][l];
            r.jt = st.out[L::out_jt][l];
            r.regime = st.regime[l];
        }
    }
}

/// resolve_batch over a view: contracts checked, then the kernel (float, double) or the scalar
/// path (other scalars). Only 3D sums depend on the summation order (a 2D sum has one).
template <class S, int D>
void resolve_view(const BatchView<S, D>& v, std::size_t count) noexcept
{
    check(v, count);
    if constexpr (!wide_scalar<S>) scalar_path(v, count);
    else if (D == 3 && sums_left_first<S>()) run_view<S, D, true>(v, count);
    else run_view<S, D, false>(v, count);
}

/// resolve_batch over PointPair structs.
template <class S, int D>
void resolve_pairs(PointPair<S, D>* pairs, std::size_t count, Result<S, D>* results) noexcept
{
    if constexpr (!wide_scalar<S>) {
        for (std::size_t i = 0; i < count; ++i) {
            PointPair<S, D>& p = pairs[i];
            const Result<S, D> r = impulse::resolve(p.vA, p.inv_mass_a, p.vB, p.inv_mass_b, p.n, p.coefficients);
            if (results) results[i] = r;
        }
    } else if (D == 3 && sums_left_first<S>()) {
        run_pairs<S, D, true>(pairs, count, results);
    } else {
        run_pairs<S, D, false>(pairs, count, results);
    }
}

}  // namespace detail::batch
}  // namespace impulse

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
