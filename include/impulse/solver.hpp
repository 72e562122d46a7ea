// SPDX-License-Identifier: MIT
/// \file solver.hpp
/// Sequential impulses over many contacts (Catto, "Iterative Dynamics with Temporal Coherence",
/// GDC 2005; box2d-lite's Arbiter): solve contacts one at a time, many times per step, clamping
/// the *accumulated* impulse of each point so a later contact cannot leave an earlier one pulling,
/// and start each step from the last step's impulses (warm starting).
///
/// The contact math is not repeated here: each point is a `RigidContact` (rigid.hpp) over the
/// caller's bodies, turned once per step into `ContactAxis` rows (rigid.hpp: the same velocity and
/// impulse formulas with the parts that stay fixed during the step precomputed), and every axis is
/// solved with axis.hpp's `accumulate`.
///
/// One step, given bodies whose velocities already include the step's external forces:
///   1. prepare    effective masses along n and the tangents; the restitution target -e*vn from
///                 the approach speed *before* solving (dropped at or below `threshold`)
///   2. warm start apply last step's matched impulses (matched by bodies and feature id)
///   3. iterate    for each point: friction (accumulated, within +-mu*jn, or the disc of radius
///                 mu*jn in 3D), then the normal (accumulated, >= 0)
///   4. position   positional error: split impulse (default: pseudo velocities that remove a part of
///                 the overlap the solved velocities would leave) or Baumgarte bias
///   5. store      the accumulated impulses, for the next step's warm start
/// Then the caller integrates positions with `position_velocity` (velocity plus the split
/// impulse's pseudo velocity, which is discarded after the step).
///
/// Speed: during the iterations the solver works on a compact copy of the bodies' motion
/// (`Motion`: velocity, angular velocity, inverse mass) and on per-point rows holding only what a
/// pass reads; the velocities are written back to the bodies at the end of the step. Like Box2D's
/// solver it has no branch on immovable bodies inside the iterations: their inverse mass and
/// inertia are 0, so they receive exactly +-0. That keeps them unchanged for every finite impulse;
/// finite input gives finite impulses unless the velocities themselves are near overflow.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "axis.hpp"
#include "config.hpp"
#include "contact.hpp"
#include "manifold.hpp"
#include "material.hpp"
#include "rigid.hpp"

namespace impulse {

/// How the solver removes penetration.
enum class PositionCorrection : std::uint8_t {
    split_impulse,  ///< pseudo velocities that move positions but are never kept: no bounce
    baumgarte,      ///< a velocity bias percent/dt * max(pen - slop, 0) in the normal target
    none,           ///< leave penetration alone
};

/// Settings of a step.
template <class S>
struct SolverSettings {
    int velocity_iterations{8};  ///< passes over every point per step
    int position_iterations{3};  ///< passes of the split impulse (split_impulse only)
    PositionCorrection correction{PositionCorrection::split_impulse};  ///< how penetration is removed
    S percent{S(0.2)};  ///< fraction of the overlap beyond `slop` removed per step
    S slop{S(0.005)};   ///< overlap left alone, so resting contacts stay touching
    bool warm_start{true};  ///< start each step from the last step's matched impulses
};

/// The sequential-impulse solver. Keeps the previous step's impulses and scratch storage between
/// steps; after the largest step so far, a step allocates nothing. Deterministic: the same input
/// gives bitwise the same output (no threads, no hashing; the solve order, `interleave_runs`, follows from
/// the order the contacts are given in).
///
/// `step` is the whole step. An engine that wants to time the phases or interleave its own
/// constraints with the contacts calls them itself, exactly as `step` does:
///
///     solver.prepare(bodies, body_count, manifolds, manifold_count, dt);  // 1, 2
///     for (int i = 0; i < solver.settings.velocity_iterations; ++i)
///         solver.solve_velocities();                                        // 3
///     solver.finish();                                                      // 4, 5
template <class S, int D>
class Solver {
public:
    using Body = RigidBody<S, D>;  ///< the body type the solver works on

    /// Accumulated impulses of one point at the end of a step (for inspection and tests).
    struct PointImpulse {
        S jn{0};                                    ///< accumulated normal impulse, >= 0
        Vec<S, D - 1> jt = Vec<S, D - 1>::Zero();  ///< accumulated friction along each tangent axis
    };

    SolverSettings<S> settings;  ///< used by the next step

    /// Solves one step of length `dt` for `manifold_count` contacts over `body_count` bodies
    /// (velocities updated in place). Call `position_velocity` to integrate positions afterwards.
    void step(Body* bodies, std::size_t body_count, const Manifold<S, D>* manifolds, std::size_t manifold_count,
              S dt) noexcept
    {
        prepare(bodies, body_count, manifolds, manifold_count, dt);
        for (int it = 0; it < settings.velocity_iterations; ++it) solve_velocities();
        finish();
    }

    /// Phases 1 and 2 of a step: precomputes every point's rows from the bodies as they are now
    /// and warm starts them. `bodies` must stay valid, and untouched, until `finish`.
    void prepare(Body* bodies, std::size_t body_count, const Manifold<S, D>* manifolds, std::size_t manifold_count,
                 S dt) noexcept
    {
        IMPULSE_ASSERT(dt > S(0), "the time step must be positive");
        bodies_ = bodies;
        body_count_ = body_count;
        dt_ = dt;
        motion_.resize(body_count);
        for (std::size_t i = 0; i < body_count; ++i) motion_[i] = Motion<S, D>(bodies[i]);
        rows_.clear();
        aux_.clear();
        push_.clear();
        first_.clear();
        for (std::size_t m = 0; m < manifold_count; ++m) add(manifolds[m], dt);
        if (settings.warm_start) warm_start();
        for (std::size_t i = 0; i < rows_.size(); ++i) rows_[i].mu = aux_[i].sticking ? aux_[i].mu_s : aux_[i].mu_k;
        interleave();
    }

    /// Phase 3: one pass of the velocity iterations over every point (in the solve order: see
    /// `interleave_runs`).
    void solve_velocities() noexcept
    {
        Motion<S, D>* const motion = motion_.data();
        for (Row& r : rows_) {
            Motion<S, D> A = motion[r.a];
            Motion<S, D> B = motion[r.b];
            // Friction first, within the cone of the current normal impulse, then the normal
            // (non-penetration matters more than friction). Both speeds are read before either
            // impulse is applied: the friction impulse changes the normal speed by knt per unit
            // (K's off-diagonal terms n.K.t), so vn after it is vn + knt.dPt: what reading it again
            // after applying friction would give (to rounding), without waiting for that.
            const S cap = r.mu * r.jn;
            S vn = r.n.speed(A, B);
            if constexpr (D == 2) {
                const S dPt = accumulate(r.jt[0], -r.t[0].mass * r.t[0].speed(A, B), -cap, cap);
                r.t[0].apply(A, B, dPt);
                vn += r.knt[0] * dPt;
            } else {
                // Both tangents at once, then clamp the accumulated vector to the disc |Pt| <= cap.
                const Vec<S, 2> old = r.jt;
                Vec<S, 2> next(old[0] - r.t[0].mass * r.t[0].speed(A, B), old[1] - r.t[1].mass * r.t[1].speed(A, B));
                const S size = next.norm();
                if (size > cap) next *= cap / size;  // size > cap >= 0: no division by 0
                r.jt = next;
                const Vec<S, 2> dPt = next - old;
                r.t[0].apply(A, B, dPt[0]);
                r.t[1].apply(A, B, dPt[1]);
                vn += r.knt.dot(dPt);
            }
            // Normal: reach the target normal speed, keeping the accumulated impulse >= 0.
            const S dn = accumulate(r.jn, r.n.mass * (r.target - vn), S(0), std::numeric_limits<S>::max());
            r.n.apply(A, B, dn);
            motion[r.a] = A;
            motion[r.b] = B;
        }
    }

    /// Phases 4 and 5: position correction, the velocities written back into the bodies given to
    /// `prepare` (movable ones only: an immovable body is never written), and the impulses kept
    /// for the next step's warm start.
    void finish() noexcept
    {
        solve_positions();
        for (std::size_t i = 0; i < body_count_; ++i) {
            Body& b = bodies_[i];
            if (!movable(b)) continue;
            b.v = motion_[i].v;
            b.omega = motion_[i].omega;
        }
        store();
    }

    /// The velocity to integrate body i's position with after a step: v plus the split impulse's
    /// pseudo velocity (which is then discarded). 3D callers integrate orientation with
    /// `position_angular_velocity`.
    Vec<S, D> position_velocity(const Body* bodies, std::size_t i) const noexcept
    {
        return i < pseudo_.size() && use_pseudo_ ? Vec<S, D>(bodies[i].v + pseudo_[i].v) : bodies[i].v;
    }

    /// The angular velocity to integrate body i's orientation with after a step.
    Angular<S, D> position_angular_velocity(const Body* bodies, std::size_t i) const noexcept
    {
        if (i < pseudo_.size() && use_pseudo_) return bodies[i].omega + pseudo_[i].omega;
        return bodies[i].omega;
    }

    /// Accumulated impulses of point `p` of manifold `m` in the last step.
    PointImpulse impulse(std::size_t m, int p) const noexcept
    {
        const Row& r = rows_[slot_[first_[m] + std::size_t(p)]];
        return {r.jn, r.jt};
    }

    /// The solve order. The points are swept in `interleave_runs` interleaved runs: points 0, 8, 16, ...
    /// of the given order, then 1, 9, 17, ..., and so on; every pass still solves every point once.
    /// Points that follow each other in a contact list usually share a body (a body's contacts are
    /// listed together), and a point cannot start before the one before it has written that body's
    /// velocity; points 8 apart rarely share one, so the processor overlaps their work (about 30%
    /// faster on the settled ball pit, with the same quality). The order depends only on the input
    /// order, so the solver stays deterministic.
    static constexpr std::size_t interleave_runs = 8;

    /// Points (rows) in the last step: the sum of the manifolds' `count`.
    std::size_t point_count() const noexcept { return rows_.size(); }

    /// Forgets the warm-start cache (e.g. after teleporting bodies).
    void reset() noexcept { cache_.clear(); }

    /// Makes room for steps of up to `bodies` bodies, `manifolds` manifolds and `points` points in
    /// all, so that no step up to that size allocates (without it, the first step of each new
    /// largest size does). The only call that may throw (std::bad_alloc, std::length_error).
    void reserve(std::size_t bodies, std::size_t manifolds, std::size_t points)
    {
        motion_.reserve(bodies);
        pseudo_.reserve(bodies);
        first_.reserve(manifolds);
        rows_.reserve(points);
        row_scratch_.reserve(points);
        push_.reserve(points);
        aux_.reserve(points);
        slot_.reserve(points);
        cache_.reserve(points);
    }

private:
    // What a velocity pass reads and writes for one point (kept small: a pass streams through these).
    struct Row {
        ContactAxis<S, D> n;         // the normal axis
        ContactAxis<S, D> t[D - 1];  // the tangent axes: t = (-ny, nx) in 2D, contact_basis in 3D
        S target{0};                 // normal velocity wanted: -e*vn (restitution) or the bias
        S jn{0};                     // accumulated normal impulse
        Vec<S, D - 1> jt = Vec<S, D - 1>::Zero();  // accumulated friction along t
        Vec<S, D - 1> knt = Vec<S, D - 1>::Zero();  // normal speed change per unit impulse along t: n.K.t
        S mu{0};                     // the friction coefficient in force: mu_s while sticking, else mu_k
        std::uint32_t a{0}, b{0};    // body indices
    };
    // The rest of a point's state, used once per step (in the given order).
    struct Aux {
        std::uint64_t key{0};
        std::uint32_t feature{0};
        S mu_s{0}, mu_k{0};
        bool sticking{true};   // the static coefficient caps friction (sticking last step)
    };
    // The split impulse of a point (in the given order: see solve_positions).
    struct Push {
        ContactAxis<S, D> n;       // the normal axis (a copy of the row's)
        std::uint32_t a{0}, b{0};  // body indices
        S penetration{0};          // overlap at the start of the step
        S bias{0};                 // separation speed wanted from the overlap
        S P{0};                    // accumulated normal impulse of the position passes
    };
    struct Cached {
        std::uint64_t key;
        std::uint32_t feature;
        S jn;
        Vec<S, D - 1> jt;
        bool sticking;
        bool operator<(const Cached& o) const noexcept { return key != o.key ? key < o.key : feature < o.feature; }
    };

    static std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) noexcept
    {
        return (std::uint64_t(a) << 32) | std::uint64_t(b);
    }

    static bool movable(const Body& b) noexcept
    {
        if constexpr (D == 2) return b.inv_mass != S(0) || b.inv_inertia != S(0);
        else return b.inv_mass != S(0) || !b.inv_inertia.isZero(S(0));
    }

    void add(const Manifold<S, D>& c, S dt) noexcept
    {
        IMPULSE_ASSERT(c.a < body_count_ && c.b < body_count_, "manifold body index out of range");
        IMPULSE_ASSERT(c.a != c.b, "a body cannot touch itself");
        IMPULSE_ASSERT(is_unit(c.n), "the contact normal must be a unit vector");
        IMPULSE_ASSERT((c.count >= 0 && c.count <= Manifold<S, D>::max_points), "manifold point count out of range");
        first_.push_back(rows_.size());
        const Eigen::Matrix<S, D, D> basis = contact_basis(c.n);
        for (int i = 0; i < c.count; ++i) {
            const ManifoldPoint<S, D>& mp = c.points[i];
            const RigidContact<S, D> rc(bodies_[c.a], mp.rA, bodies_[c.b], mp.rB);
            Row r;
            r.a = c.a;
            r.b = c.b;
            r.n = ContactAxis<S, D>(rc, c.n);
            const Eigen::Matrix<S, D, D> K = rc.inverse_mass_matrix();
            for (int j = 0; j < D - 1; ++j) {
                const Vec<S, D> t = basis.col(j + 1);
                r.t[j] = ContactAxis<S, D>(rc, t);
                r.knt[j] = c.n.dot(K * t);
            }
            // Restitution from the approach speed before solving: vn' = -e*vn.
            const S vn = rc.relative_velocity().dot(c.n);
            const S e = effective_restitution(c.coefficients.restitution, vn, c.coefficients.threshold);
            r.target = vn < S(0) ? -e * vn : S(0);
            Aux x;
            Push push;
            x.key = pair_key(c.a, c.b);
            x.feature = mp.feature;
            x.mu_s = c.coefficients.friction.mu_s;
            x.mu_k = c.coefficients.friction.mu_k;
            if (settings.correction == PositionCorrection::baumgarte) {
                // bias = percent * max(pen - slop, 0) / dt: the separation speed that removes
                // `percent` of the excess overlap in one step, as a real velocity.
                const S excess = -mp.separation - settings.slop;
                const S bias = excess > S(0) ? settings.percent * excess / dt : S(0);
                if (bias > r.target) r.target = bias;
            } else if (settings.correction == PositionCorrection::split_impulse) {
                push.penetration = -mp.separation;  // the bias follows from it after the velocities
            }
            push.n = r.n;
            push.a = c.a;
            push.b = c.b;
            rows_.push_back(r);
            aux_.push_back(x);
            push_.push_back(push);
        }
    }

    // Matches each point with last step's (same bodies, same feature) and applies its impulses.
    // The cache is sorted; points usually arrive in the same order as last step, so the search
    // gallops forward from the previous match (linear time for sorted input), and starts over
    // from the beginning when the order goes back.
    void warm_start() noexcept
    {
        const std::size_t n = cache_.size();
        std::size_t cur = 0;
        for (std::size_t i = 0; i < rows_.size(); ++i) {
            Row& r = rows_[i];
            Aux& x = aux_[i];
            const Cached probe{x.key, x.feature, S(0), Vec<S, D - 1>::Zero(), true};
            if (i > 0 && probe < Cached{aux_[i - 1].key, aux_[i - 1].feature, S(0), Vec<S, D - 1>::Zero(), true})
                cur = 0;  // out of order: every cache entry below `cur` may be a candidate again
            // Invariant: cache_[j] < probe for every j < cur. Find a bracket [lo, hi) by doubling.
            std::size_t lo = cur, hi = cur, stride = 1;
            while (hi < n && cache_[hi] < probe) {
                lo = hi + 1;
                hi = lo + stride;
                stride *= 2;
            }
            if (hi > n) hi = n;
            const auto it = std::lower_bound(cache_.begin() + std::ptrdiff_t(lo), cache_.begin() + std::ptrdiff_t(hi), probe);
            cur = std::size_t(it - cache_.begin());
            if (it == cache_.end() || it->key != x.key || it->feature != x.feature) continue;
            r.jn = it->jn;
            r.jt = it->jt;
            x.sticking = it->sticking;
            Motion<S, D>& A = motion_[r.a];
            Motion<S, D>& B = motion_[r.b];
            r.n.apply(A, B, r.jn);
            for (int j = 0; j < D - 1; ++j) r.t[j].apply(A, B, r.jt[j]);
        }
    }

    // Moves the rows from the given order into the solve order.
    void interleave() noexcept
    {
        const std::size_t n = rows_.size(), q = n / interleave_runs, extra = n % interleave_runs;
        slot_.resize(n);
        row_scratch_.resize(n);
        for (std::size_t k = 0; k < n; ++k) {
            // run l holds q (+1 for the first `extra` runs) points and starts at l*q + min(l, extra)
            const std::size_t run = k % interleave_runs;
            slot_[k] = run * q + std::min(run, extra) + k / interleave_runs;
            row_scratch_[slot_[k]] = rows_[k];
        }
        rows_.swap(row_scratch_);
    }

    void solve_positions() noexcept
    {
        use_pseudo_ = settings.correction == PositionCorrection::split_impulse;
        if (!use_pseudo_) return;
        // Pseudo motions: the same masses, velocities starting at zero. Impulses here move
        // positions only; real velocities never see them, so recovering penetration adds no
        // kinetic energy.
        pseudo_.resize(body_count_);
        for (std::size_t i = 0; i < body_count_; ++i) {
            pseudo_[i] = Motion<S, D>();
            pseudo_[i].inv_mass = motion_[i].inv_mass;
        }
        // The overlap to remove is the one the step's solved velocities would leave, pen - vn*dt
        // (vn > 0 separating): bias = percent * max(pen - vn*dt - slop, 0) / dt. Correcting the
        // overlap as it will be, not as it was, keeps a pile that still sinks a little each step
        // from lagging one step behind.
        for (Push& x : push_) {
            const S excess = x.penetration - x.n.speed(motion_[x.a], motion_[x.b]) * dt_ - settings.slop;
            x.bias = excess > S(0) ? settings.percent * excess / dt_ : S(0);
        }
        // In the given order, not interleaved like the velocity passes: the position passes start
        // from nothing each step (no warm start), and a few passes only carry a push through a
        // pile when they sweep it in the order its contacts were found (in the ball pit, interleaved
        // passes leave the deepest overlap about 1.4 times as deep).
        Motion<S, D>* const pseudo = pseudo_.data();
        for (int it = 0; it < settings.position_iterations; ++it) {
            for (Push& x : push_) {
                if (!(x.bias > S(0)) && !(x.P > S(0))) continue;
                Motion<S, D> A = pseudo[x.a];
                Motion<S, D> B = pseudo[x.b];
                const S vn = x.n.speed(A, B);
                const S d = accumulate(x.P, x.n.mass * (x.bias - vn), S(0), std::numeric_limits<S>::max());
                x.n.apply(A, B, d);
                pseudo[x.a] = A;
                pseudo[x.b] = B;
            }
        }
    }

    void store() noexcept
    {
        cache_.clear();
        for (std::size_t i = 0; i < rows_.size(); ++i) {  // in the given order
            const Row& r = rows_[slot_[i]];
            // Sticking at the end of the step: the friction clamp was not active.
            const bool sticking = r.jt.norm() < r.mu * r.jn;
            aux_[i].sticking = sticking;
            cache_.push_back(Cached{aux_[i].key, aux_[i].feature, r.jn, r.jt, sticking});
        }
        // Points that arrive sorted by (bodies, feature) leave the cache sorted: no sort needed.
        if (!std::is_sorted(cache_.begin(), cache_.end())) std::sort(cache_.begin(), cache_.end());
    }

    Body* bodies_{nullptr};
    std::size_t body_count_{0};
    S dt_{1};
    bool use_pseudo_{false};
    std::vector<Motion<S, D>> motion_;  // the bodies' motion during a step
    std::vector<Motion<S, D>> pseudo_;  // split impulse: position-only velocities
    std::vector<Row> rows_;           // in the solve order
    std::vector<Push> push_;          // in the given order
    std::vector<Aux> aux_;            // in the given order
    std::vector<std::size_t> slot_;   // where each point of the given order is in the solve order
    std::vector<Row> row_scratch_;
    std::vector<std::size_t> first_;  // first point of each manifold, in the given order
    std::vector<Cached> cache_;       // last step's impulses, sorted by (key, feature)
};

}  // namespace impulse
