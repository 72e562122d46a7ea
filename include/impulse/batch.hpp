// SPDX-License-Identifier: MIT
/// \file batch.hpp
/// Many independent point-mass contacts at once: the SIMD form of contact.hpp's `resolve`.
///
/// Particle systems (debris, sparks, rain, grains against static ground) produce contacts that
/// share no body, so each can be resolved on its own, and many side by side in the lanes of a
/// SIMD register. `resolve_batch` does that over structure-of-arrays views of the caller's own
/// arrays (no copy, no allocation), in 2D and 3D, float and double, with the semantics, regimes
/// and results of `resolve(vA, inv_mass_a, vB, inv_mass_b, n, coefficients)`:
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
/// epsilon of four times that over `wA + wB`, and a regime can differ only for a contact that
/// close to a decision's boundary (approach, threshold, stick or slide, no tangential speed).
///
/// **Lanes.** A block is one SIMD register for the target (4 floats or 2 doubles on SSE2 and
/// NEON, 8 or 4 on AVX) or, with AVX-512, two registers side by side (32 floats, 16 doubles):
/// `batch_width<S>`. The last `count % batch_width<S>` contacts go through narrower registers
/// while they fill one, and the very last few through a padded block. For the best speed build
/// with the target's instruction set (`-march=native`, or `-mavx2 -mfma`): the default x86-64
/// target has only SSE2. Targets without one of these instruction sets, and scalars other than
/// float and double (long double, AutoDiffScalar), resolve contact by contact, with the same
/// interface (the latter through the scalar `resolve`).
///
/// Like the scalar path's branches, the lanes compute quantities a contact ends up not using
/// (e.g. `0/0` for the slide direction of a contact at rest): the IEEE flags (inexact, division by
/// zero, invalid) may be raised; no result depends on them.
///
/// The kernel is in detail/batch_kernel.hpp, on the SIMD layer of detail/simd.hpp.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <type_traits>

#include "axis.hpp"
#include "config.hpp"
#include "contact.hpp"
#include "detail/batch_kernel.hpp"
#include "material.hpp"

namespace impulse {

/// One per-contact input of a batch: `data[i]` for contact i, or, when `data` is null, the same
/// `value` for every contact (a static floor's velocity, one restitution for the whole batch).
/// Converts implicitly from a pointer (per contact) and from a number (one value for all).
/// \tparam S the scalar (float, double, or another Eigen scalar)
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
///   - `inv_mass_a`, `inv_mass_b`: inverse masses (0: immovable),
///   - `n[d]`: the unit contact normal from A to B,
///   - `restitution`, `mu_s`, `mu_k`, `threshold`: the pair's `Coefficients`.
///
/// Outputs (null: not wanted, nothing written):
///   - `vA_out[d]`, `vB_out[d]`: the velocities after the contact. Point them at the input arrays
///     to update in place (the only overlap allowed between inputs and outputs); leave them null
///     for a body whose velocity is not kept (a static floor).
///   - `jn`, `friction_impulse[d]`, `jt`, `regime`: what `resolve` returns in `Result`.
/// \tparam S the scalar (float and double take the SIMD kernel; others resolve one by one)
/// \tparam D the dimension, 2 or 3
template <class S, int D>
struct BatchView {
    static_assert(D == 2 || D == 3, "impulse works in 2D and 3D");

    Column<S> vA[D];        ///< velocity of A, per component
    Column<S> vB[D];        ///< velocity of B, per component
    Column<S> inv_mass_a;   ///< inverse mass of A (0: immovable)
    Column<S> inv_mass_b;   ///< inverse mass of B (0: immovable)
    Column<S> n[D];         ///< unit contact normal from A to B, per component
    Column<S> restitution;  ///< e in [0, 1]
    Column<S> mu_s;         ///< static friction coefficient (sticking while |Jt_want| <= mu_s jn)
    Column<S> mu_k;         ///< kinetic friction coefficient (|Jt| = mu_k jn while sliding)
    Column<S> threshold;    ///< approach speeds at or below this do not bounce

    S* vA_out[D] = {};            ///< A's velocity after the contact (may be vA's own arrays)
    S* vB_out[D] = {};            ///< B's velocity after the contact (may be vB's own arrays)
    S* jn = nullptr;              ///< normal impulse (>= 0), on B along +n
    S* friction_impulse[D] = {};  ///< friction impulse Jt on B, per component (A receives -Jt)
    S* jt = nullptr;              ///< 2D: Jt along t = (-ny, nx); 3D: |Jt|
    Regime* regime = nullptr;     ///< what each contact did

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
        for (Column<S>* c : {&r.inv_mass_a, &r.inv_mass_b, &r.restitution, &r.mu_s, &r.mu_k, &r.threshold})
            *c = c->from(first);
        advance(r.jn);
        advance(r.jt);
        advance(r.regime);
        return r;
    }
};

/// One contact between two point masses as a struct, for `resolve_batch`'s array-of-structures
/// form: the arguments of `resolve(vA, inv_mass_a, vB, inv_mass_b, n, coefficients)` side by side.
/// The velocities are updated in place.
/// \tparam S the scalar
/// \tparam D the dimension, 2 or 3
template <class S, int D>
struct PointPair {
    Vec<S, D> vA = Vec<S, D>::Zero();  ///< velocity of A (updated)
    S inv_mass_a{0};                   ///< inverse mass of A (0: immovable)
    Vec<S, D> vB = Vec<S, D>::Zero();  ///< velocity of B (updated)
    S inv_mass_b{0};                   ///< inverse mass of B (0: immovable)
    Vec<S, D> n = Vec<S, D>::UnitX();  ///< unit contact normal from A to B
    Coefficients<S> coefficients;      ///< restitution, friction, threshold
};

/// Contacts the batch kernel resolves at once for scalar S on this target (1 where S is resolved
/// contact by contact).
/// \tparam S the scalar
template <class S>
constexpr int batch_width = detail::batch::width<S>;

/// Resolves `count` independent point-mass contacts described by `v` (see BatchView): for every
/// contact i the results of `resolve(vA, inv_mass_a, vB, inv_mass_b, n, coefficients)`, written
/// to the view's outputs. No allocation; the caller's arrays are read and written in place, in
/// blocks of `batch_width<S>` contacts. Working space is on the stack: at most about 24 KB (3D
/// double with SSE or AVX2; 2D float about 9 KB), so a thread or fiber that calls it wants a stack
/// of at least 32 KB.
/// \tparam S the scalar
/// \tparam D the dimension, 2 or 3
template <class S, int D>
void resolve_batch(const BatchView<S, D>& v, std::size_t count) noexcept
{
    detail::batch::resolve_view(v, count);
}

/// Array-of-structures form: resolves `count` independent contacts stored as PointPair structs,
/// updating their velocities in place and, when `results` is not null, writing what each did to
/// `results[i]` (as `resolve` returns it). The structs pass through the SIMD kernel a block at a
/// time, so the results are those of the structure-of-arrays form.
/// \tparam S the scalar
/// \tparam D the dimension, 2 or 3
template <class S, int D>
void resolve_batch(PointPair<S, D>* pairs, std::size_t count, Result<S, D>* results = nullptr) noexcept
{
    detail::batch::resolve_pairs(pairs, count, results);
}

}  // namespace impulse
