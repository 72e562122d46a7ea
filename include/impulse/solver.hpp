// SPDX-License-Identifier: MIT
/// \file solver.hpp
/// Sequential impulses over many contacts (Catto, "Iterative Dynamics with Temporal Coherence",
/// GDC 2005; box2d-lite's Arbiter): solve contacts one at a time, many times per step, clamping
/// the *accumulated* impulse of each point so a later contact cannot leave an earlier one pulling,
/// and start each step from the last step's impulses (warm starting).
///
/// The contact math is not repeated here: each point is a `RigidContact` (rigid.hpp) over the
/// caller's bodies, and every axis is solved with axis.hpp's `accumulate`.
///
/// One step, given bodies whose velocities already include the step's external forces:
///   1. prepare    effective masses along n and the tangents; the restitution target -e*vn from
///                 the approach speed *before* solving (dropped at or below `threshold`)
///   2. warm start apply last step's matched impulses (matched by bodies and feature id)
///   3. iterate    for each point: friction (accumulated, within +-mu*Pn, or the disc of radius
///                 mu*Pn in 3D), then the normal (accumulated, >= 0)
///   4. position   positional error: split impulse (default) or Baumgarte bias
///   5. store      the accumulated impulses, for the next step's warm start
/// Then the caller integrates positions with `position_velocity` (velocity plus the split
/// impulse's pseudo velocity, which is discarded after the step).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "axis.hpp"
#include "config.hpp"
#include "contact.hpp"
#include "material.hpp"
#include "rigid.hpp"

namespace impulse {

/// One point of a contact, as the engine's narrow phase reports it.
template <class S, int D>
struct ManifoldPoint {
    Vec<S, D> rA = Vec<S, D>::Zero();  ///< contact point minus A's centre of mass
    Vec<S, D> rB = Vec<S, D>::Zero();  ///< contact point minus B's centre of mass
    S penetration{0};                  ///< overlap depth along n (> 0 overlapping)
    std::uint32_t feature{0};          ///< stable id of the point within its pair, for warm starting
};

/// A contact between bodies `a` and `b` (indices into the solver's body array): one normal, one
/// pair of coefficients, up to `max_points` points (2 in 2D, 4 in 3D).
template <class S, int D>
struct Manifold {
    static constexpr int max_points = D == 2 ? 2 : 4;  ///< capacity: 2 points in 2D, 4 in 3D
    std::uint32_t a{0};                ///< index of body A
    std::uint32_t b{0};                ///< index of body B
    Vec<S, D> n = Vec<S, D>::UnitX();  ///< unit normal from A to B
    Coefficients<S> k;                 ///< the pair's restitution, friction and threshold
    int count{0};                      ///< points in use
    ManifoldPoint<S, D> points[max_points];  ///< the points; the first `count` are used
};

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
/// gives bitwise the same output (no threads, no hashing; contacts are solved in the given order).
template <class S, int D>
class Solver {
public:
    using Body = RigidBody<S, D>;  ///< the body type the solver works on

    /// Accumulated impulses of one point at the end of a step (for inspection and tests).
    struct PointImpulse {
        S normal{0};                             ///< accumulated normal impulse Pn >= 0
        Vec<S, D - 1> tangent = Vec<S, D - 1>::Zero();  ///< accumulated friction along the tangent basis
    };

    SolverSettings<S> settings;  ///< iterations, position correction, warm starting

    /// Solves one step of length `dt` for `manifold_count` contacts over `body_count` bodies
    /// (velocities updated in place). Call `position_velocity` to integrate positions afterwards.
    void step(Body* bodies, std::size_t body_count, const Manifold<S, D>* manifolds, std::size_t manifold_count,
              S dt) noexcept
    {
        IMPULSE_ASSERT(dt > S(0), "the time step must be positive");
        body_count_ = body_count;
        prepare(bodies, manifolds, manifold_count, dt);
        if (settings.warm_start) warm_start(bodies);
        for (int it = 0; it < settings.velocity_iterations; ++it) solve_velocities(bodies);
        solve_positions(bodies, body_count, dt);
        store(manifolds);
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
        const Point& q = points_[first_[m] + std::size_t(p)];
        return {q.Pn, q.Pt};
    }

    /// Forgets the warm-start cache (e.g. after teleporting bodies).
    void reset() noexcept { cache_.clear(); }

private:
    // Per-point solver state.
    struct Point {
        std::uint32_t a, b;
        Vec<S, D> rA, rB, n;
        Eigen::Matrix<S, D, D - 1> t;  // tangent basis: t = (-ny, nx) in 2D, contact_basis in 3D
        S mass_n{0};                   // 1/k(n)
        Vec<S, D - 1> mass_t = Vec<S, D - 1>::Zero();  // 1/k(t_i)
        S target{0};                   // normal velocity wanted: -e*vn (restitution) or the bias
        S bias_pos{0};                 // split impulse: separation speed wanted from penetration
        S Pn{0}, Pn_pos{0};            // accumulated normal impulses (velocity, position passes)
        Vec<S, D - 1> Pt = Vec<S, D - 1>::Zero();  // accumulated friction along t
        S mu_s{0}, mu_k{0};
        bool sticking{true};           // the static coefficient caps friction (sticking last step)
        std::uint64_t key{0};
        std::uint32_t feature{0};
    };
    struct Cached {
        std::uint64_t key;
        std::uint32_t feature;
        S Pn;
        Vec<S, D - 1> Pt;
        bool sticking;
        bool operator<(const Cached& o) const noexcept { return key != o.key ? key < o.key : feature < o.feature; }
    };

    static std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) noexcept
    {
        return (std::uint64_t(a) << 32) | std::uint64_t(b);
    }

    RigidContact<S, D> contact(Body* bodies, const Point& q) const noexcept
    {
        return RigidContact<S, D>(bodies[q.a], q.rA, bodies[q.b], q.rB);
    }

    void prepare(Body* bodies, const Manifold<S, D>* manifolds, std::size_t count, S dt) noexcept
    {
        points_.clear();
        first_.clear();
        for (std::size_t m = 0; m < count; ++m) {
            const Manifold<S, D>& c = manifolds[m];
            IMPULSE_ASSERT(c.a < body_count_ && c.b < body_count_, "manifold body index out of range");
            IMPULSE_ASSERT(is_unit(c.n), "the contact normal must be a unit vector");
            IMPULSE_ASSERT((c.count >= 0 && c.count <= Manifold<S, D>::max_points), "manifold point count out of range");
            first_.push_back(points_.size());
            const Eigen::Matrix<S, D, D> basis = contact_basis(c.n);
            for (int i = 0; i < c.count; ++i) {
                const ManifoldPoint<S, D>& mp = c.points[i];
                Point q;
                q.a = c.a;
                q.b = c.b;
                q.rA = mp.rA;
                q.rB = mp.rB;
                q.n = c.n;
                q.t = basis.template rightCols<D - 1>();
                q.key = pair_key(c.a, c.b);
                q.feature = mp.feature;
                q.mu_s = c.k.friction.mu_s;
                q.mu_k = c.k.friction.mu_k;
                const RigidContact<S, D> rc = contact(bodies, q);
                const S kn = rc.inverse_mass(c.n);
                q.mass_n = kn > S(0) ? S(1) / kn : S(0);
                for (int j = 0; j < D - 1; ++j) {
                    const S kt = rc.inverse_mass(Vec<S, D>(q.t.col(j)));
                    q.mass_t[j] = kt > S(0) ? S(1) / kt : S(0);
                }
                // Restitution from the approach speed before solving: vn' = -e*vn.
                const S vn = rc.relative_velocity().dot(c.n);
                const S e = effective_restitution(c.k.restitution, vn, c.k.threshold);
                q.target = vn < S(0) ? -e * vn : S(0);
                const S excess = mp.penetration - settings.slop;
                const S push = excess > S(0) ? settings.percent * excess / dt : S(0);
                if (settings.correction == PositionCorrection::baumgarte) {
                    if (push > q.target) q.target = push;
                } else if (settings.correction == PositionCorrection::split_impulse) {
                    q.bias_pos = push;
                }
                points_.push_back(q);
            }
        }
    }

    void warm_start(Body* bodies) noexcept
    {
        for (Point& q : points_) {
            const Cached probe{q.key, q.feature, S(0), Vec<S, D - 1>::Zero(), true};
            const auto it = std::lower_bound(cache_.begin(), cache_.end(), probe);
            if (it == cache_.end() || it->key != q.key || it->feature != q.feature) continue;
            q.Pn = it->Pn;
            q.Pt = it->Pt;
            q.sticking = it->sticking;
            contact(bodies, q).apply(Vec<S, D>(q.Pn * q.n + q.t * q.Pt));
        }
    }

    void solve_velocities(Body* bodies) noexcept
    {
        for (Point& q : points_) {
            const RigidContact<S, D> rc = contact(bodies, q);
            // Friction first, within the cone of the current normal impulse (the normal is solved
            // last: non-penetration matters more than friction).
            const S cap = (q.sticking ? q.mu_s : q.mu_k) * q.Pn;
            const Vec<S, D> rv = rc.relative_velocity();
            if constexpr (D == 2) {
                const S lambda = -q.mass_t[0] * rv.dot(q.t.col(0));
                const S d = accumulate(q.Pt[0], lambda, -cap, cap);
                rc.apply(Vec<S, D>(d * q.t.col(0)));
            } else {
                // Both tangents at once, then clamp the accumulated vector to the disc |Pt| <= cap.
                const Vec<S, D - 1> old = q.Pt;
                Vec<S, D - 1> next = old;
                for (int j = 0; j < D - 1; ++j) next[j] -= q.mass_t[j] * rv.dot(q.t.col(j));
                const S size = next.norm();
                if (size > cap) next *= size > S(0) ? cap / size : S(0);
                q.Pt = next;
                rc.apply(Vec<S, D>(q.t * (next - old)));
            }
            // Normal: reach the target normal speed, keeping the accumulated impulse >= 0.
            const S vn = rc.relative_velocity().dot(q.n);
            const S dn = accumulate(q.Pn, q.mass_n * (q.target - vn), S(0), std::numeric_limits<S>::max());
            rc.apply(Vec<S, D>(dn * q.n));
        }
    }

    void solve_positions(Body* bodies, std::size_t body_count, S dt) noexcept
    {
        (void)dt;
        use_pseudo_ = settings.correction == PositionCorrection::split_impulse;
        if (!use_pseudo_) return;
        // Pseudo bodies: the same masses, velocities starting at zero. Impulses here move
        // positions only; real velocities never see them, so recovering penetration adds no energy.
        pseudo_.resize(body_count);
        for (std::size_t i = 0; i < body_count; ++i) {
            pseudo_[i] = bodies[i];
            pseudo_[i].v.setZero();
            pseudo_[i].omega = Rotation<S, D>::zero_angular();
        }
        for (int it = 0; it < settings.position_iterations; ++it) {
            for (Point& q : points_) {
                if (!(q.bias_pos > S(0)) && !(q.Pn_pos > S(0))) continue;
                const RigidContact<S, D> rc(pseudo_[q.a], q.rA, pseudo_[q.b], q.rB);
                const S vn = rc.relative_velocity().dot(q.n);
                const S d = accumulate(q.Pn_pos, q.mass_n * (q.bias_pos - vn), S(0), std::numeric_limits<S>::max());
                rc.apply(Vec<S, D>(d * q.n));
            }
        }
    }

    void store(const Manifold<S, D>* manifolds) noexcept
    {
        (void)manifolds;
        cache_.clear();
        for (Point& q : points_) {
            // Sticking at the end of the step: the friction clamp was not active.
            const S cap = (q.sticking ? q.mu_s : q.mu_k) * q.Pn;
            q.sticking = q.Pt.norm() < cap;
            cache_.push_back(Cached{q.key, q.feature, q.Pn, q.Pt, q.sticking});
        }
        std::sort(cache_.begin(), cache_.end());
    }

    std::size_t body_count_{0};
    bool use_pseudo_{false};
    std::vector<Point> points_;
    std::vector<std::size_t> first_;
    std::vector<Cached> cache_;
    std::vector<Body> pseudo_;
};

}  // namespace impulse
