// SPDX-License-Identifier: MIT
/// \file recycle.hpp
/// Contact recycling: a narrow phase keeps a pair's manifold and, while the pair has moved less
/// than a tolerance since the manifold was made, refreshes it from the bodies' current poses
/// instead of colliding the shapes again (Box2D v3's contact recycling, as an idea).
///
///   KeptManifold       a manifold with the poses it was made at and its points fixed in the bodies
///   keep               makes one from a manifold and the two poses
///   RecycleTolerance   how far the pair may move (linear and angular) before it must be collided
///   within_tolerance   whether the pair has moved less than that since the manifold was made
///   refreshed          the kept manifold at the current poses
///   recycle            both: true and the refreshed manifold, or false (collide the pair again)
///
/// Why: a manifold found anew each step follows every small turn of the faces, and a tall column of
/// soft contacts fed such normals and anchors buckles (docs/solver.md, "Tall stacks"). A recycled
/// manifold holds its geometry while the pair is nearly at rest; only the separations follow the
/// bodies, as the solver's substeps already do within a step.
///
/// The geometry of a refreshed manifold depends on `KeepFrame`:
///   world   the normal and the anchors stay what they were, in world axes (Box2D v3's choice);
///           the tolerance then also bounds each body's own turn, so the kept normal stays close to
///           the faces' one
///   body_a  the normal turns with body A; each anchor is its body's material point (the point of
///           the body that was at the contact when the manifold was made) at the current pose
/// In both, the separation of point i is recomputed along the refreshed normal n:
///   s = s0 + n.(xB - xA) - n0.(xB0 - xA0),   xA = pA + RA lA,  xB = pB + RB lB
/// with lA, lB the point in each body's coordinates when the manifold was made (xA0 = xB0 for the
/// collide_ functions, whose anchors name one world point), s0 and n0 the separation and normal then.
/// A translation of B by d n0 (A's turn and B's turn nil) changes every separation by exactly d.
/// The pair (bodies, key, coefficients, surface motion), the point count and the feature ids are
/// kept as they are.
#pragma once

#include <cmath>

#include "config.hpp"
#include "kinematics.hpp"
#include "manifold.hpp"

namespace impulse {

/// Where a refreshed manifold keeps its normal and anchors (see the file's comment).
enum class KeepFrame {
    world,   ///< normal and anchors fixed in world axes (Box2D v3's choice)
    body_a,  ///< the normal turns with A; the anchors are the bodies' material points
};

/// How far a pair may move, relative to each other, before its manifold is made again.
/// \tparam S scalar type
template <class S>
struct RecycleTolerance {
    /// Largest change of B's centre seen from A (in A's axes), m. Default 2 mm: a tenth of the
    /// speculative distance (2 cm), so a point the kept manifold lacks cannot come unnoticed from
    /// beyond the speculative reach; measured on the scenes' stack of 20 unit boxes (docs/solver.md,
    /// "Tall stacks"): 2 mm and 5 mm both hold the column within 0.4 mm of its line (with one pass per
    /// manifold, `SolverSettings::manifold_iterations` = 1, 2 mm held it within 6 mm and 5 mm let it
    /// sway at 1.1 cm/s). (Box2D v3 allows 5 cm with its extent-weighted turn.)
    S distance = S(0.002);
    /// Largest turn, rad, of B relative to A (and, in `KeepFrame::world`, of either body in the
    /// world). Default 0.004 rad: a point 0.5 m from the centre (a 1 m box's face) moves 2 mm, the
    /// linear tolerance.
    S angle = S(0.004);
    /// Where the refreshed manifold keeps its normal and anchors.
    KeepFrame frame = KeepFrame::world;
};

/// A manifold kept for recycling: as it was made, with the poses it was made at and each point's
/// place in each body's coordinates.
/// \tparam S scalar type (float or double)
/// \tparam D dimension (2 or 3)
template <class S, int D>
struct KeptManifold {
    Manifold<S, D> manifold;  ///< as made (count 0: nothing to recycle)
    Pose<S, D> pose_a;        ///< A's pose when it was made
    Pose<S, D> pose_b;        ///< B's pose when it was made
    Vec<S, D> normal = Vec<S, D>::UnitX();  ///< the normal in A's axes
    Vec<S, D> local_a[Manifold<S, D>::max_points];  ///< point i in A's coordinates (RA^T rA)
    Vec<S, D> local_b[Manifold<S, D>::max_points];  ///< point i in B's coordinates (RB^T rB)

    KeptManifold() noexcept
    {
        for (int i = 0; i < Manifold<S, D>::max_points; ++i) {
            local_a[i].setZero();
            local_b[i].setZero();
        }
    }
};

/// Keeps manifold `m`, made with A at `pa` and B at `pb`, for recycling.
template <class S, int D>
KeptManifold<S, D> keep(const Manifold<S, D>& m, const Pose<S, D>& pa, const Pose<S, D>& pb) noexcept
{
    KeptManifold<S, D> k;
    k.manifold = m;
    k.pose_a = pa;
    k.pose_b = pb;
    k.normal = pa.inverse_rotate(m.n);
    for (int i = 0; i < m.count; ++i) {
        k.local_a[i] = pa.inverse_rotate(m.points[i].rA);
        k.local_b[i] = pb.inverse_rotate(m.points[i].rB);
    }
    return k;
}

namespace detail {
/// Whether the angle atan2(y, x) (y >= 0) is at most a; `exact()` gives that angle's test as atan2
/// makes it. Most pairs are far inside or far outside a small tolerance, and there the answer needs
/// no arc tangent, which is most of the test's cost:
///   x > 0 and y <= a x (1 - 2^-10): the angle is at most its tangent, y / x, a thousandth below a,
///     more than any rounding of atan2 or of the test: within;
///   y^2 > (a (1 + 2^-10))^2 (x^2 + y^2): the angle is at least its sine, a thousandth above a:
///     beyond.
/// Between those (a pair within a thousandth of the tolerance), for a outside (0, 1) and for
/// input that is not finite, `exact()` decides, so the answer is the one atan2 gives, bit for bit.
template <class S, class Exact>
bool angle_at_most(S y, S x, S a, Exact&& exact) noexcept
{
    if (a > S(0) && a < S(1)) {
        constexpr S below = S(1) - S(1) / S(1024), above = S(1) + S(1) / S(1024);
        if (x > S(0) && y <= a * below * x) return true;
        if (y * y > (a * above) * (a * above) * (x * x + y * y)) return false;
    }
    return exact();
}
/// Whether the rotation that takes orientation `from` to `to` turns by at most `a` rad (2D):
/// |atan2(s, c)| <= a of from^T to.
template <class S>
bool turned_at_most(const Rot2<S>& from, const Rot2<S>& to, S a) noexcept
{
    using std::abs;
    const Rot2<S> d = from.inverse() * to;
    return angle_at_most(abs(d.s), d.c, a, [&] {
        using std::atan2;
        return abs(atan2(d.s, d.c)) <= a;
    });
}
/// The same in 3D: 2 atan2(|v|, |w|) <= a of the unit quaternion from* to (q and -q are one
/// rotation), tested as atan2(|v|, |w|) <= a / 2.
template <class S>
bool turned_at_most(const Eigen::Quaternion<S>& from, const Eigen::Quaternion<S>& to, S a) noexcept
{
    using std::abs;
    const Eigen::Quaternion<S> d = from.conjugate() * to;
    const S v = d.vec().norm(), w = abs(d.w());
    return angle_at_most(v, w, a / S(2), [&] {
        using std::atan2;
        return S(2) * atan2(v, w) <= a;
    });
}
/// B's orientation seen from A: RA^T RB.
template <class S>
Rot2<S> relative(const Rot2<S>& qa, const Rot2<S>& qb) noexcept
{
    return qa.inverse() * qb;
}
template <class S>
Eigen::Quaternion<S> relative(const Eigen::Quaternion<S>& qa, const Eigen::Quaternion<S>& qb) noexcept
{
    return qa.conjugate() * qb;
}
}  // namespace detail

/// Whether the pair, now at `pa` and `pb`, has moved less than `tol` since `k` was made:
///   |RA^T (pB - pA) - RA0^T (pB0 - pA0)| <= tol.distance     (B's centre seen from A)
///   turn(RA0^T RB0 -> RA^T RB) <= tol.angle                  (B's turn relative to A)
/// and, in KeepFrame::world, turn(RA0 -> RA) <= tol.angle and turn(RB0 -> RB) <= tol.angle.
/// False when nothing was kept (count 0).
template <class S, int D>
bool within_tolerance(const KeptManifold<S, D>& k, const Pose<S, D>& pa, const Pose<S, D>& pb,
                      const RecycleTolerance<S>& tol = {}) noexcept
{
    if (k.manifold.count == 0) return false;
    const Vec<S, D> d0 = k.pose_a.inverse_rotate(Vec<S, D>(k.pose_b.p - k.pose_a.p));
    const Vec<S, D> d1 = pa.inverse_rotate(Vec<S, D>(pb.p - pa.p));
    if (!((d1 - d0).norm() <= tol.distance)) return false;
    if (!detail::turned_at_most(detail::relative(k.pose_a.q, k.pose_b.q), detail::relative(pa.q, pb.q), tol.angle))
        return false;
    if (tol.frame == KeepFrame::world) {
        if (!detail::turned_at_most(k.pose_a.q, pa.q, tol.angle)) return false;
        if (!detail::turned_at_most(k.pose_b.q, pb.q, tol.angle)) return false;
    }
    return true;
}

/// The kept manifold at the current poses `pa`, `pb` (see the file's comment for its geometry),
/// whether or not the pair is within a tolerance.
template <class S, int D>
Manifold<S, D> refreshed(const KeptManifold<S, D>& k, const Pose<S, D>& pa, const Pose<S, D>& pb,
                         KeepFrame frame = KeepFrame::world) noexcept
{
    // Every change is formed as (now - then) of the same computation, so that poses equal to the
    // kept ones give back the kept manifold bit for bit:
    //   dA = (pA - pA0) + (RA lA - RA0 lA)   the move of point i's material point on A, likewise dB
    //   n  = n0 + (RA nA - RA0 nA)           (body_a; world: n = n0)
    //   s  = s0 + n.(dB - dA) + (n - n0).(xB0 - xA0)
    Manifold<S, D> m = k.manifold;
    const Vec<S, D> n0 = k.manifold.n;
    if (frame == KeepFrame::body_a) m.n = n0 + (pa.rotate(k.normal) - k.pose_a.rotate(k.normal));
    const Vec<S, D> dn = m.n - n0;
    const Vec<S, D> move_a = pa.p - k.pose_a.p, move_b = pb.p - k.pose_b.p;
    for (int i = 0; i < m.count; ++i) {
        const ManifoldPoint<S, D>& p0 = k.manifold.points[i];
        ManifoldPoint<S, D>& p = m.points[i];
        const Vec<S, D> turn_a = pa.rotate(k.local_a[i]) - k.pose_a.rotate(k.local_a[i]);
        const Vec<S, D> turn_b = pb.rotate(k.local_b[i]) - k.pose_b.rotate(k.local_b[i]);
        const Vec<S, D> da = move_a + turn_a, db = move_b + turn_b;
        const Vec<S, D> gap0 = (k.pose_b.p - k.pose_a.p) + (p0.rB - p0.rA);  // xB0 - xA0 (0 for one point)
        p.separation = p0.separation + m.n.dot(Vec<S, D>(db - da)) + dn.dot(gap0);
        if (frame == KeepFrame::body_a) {
            p.rA = p0.rA + turn_a;  // RA lA
            p.rB = p0.rB + turn_b;  // RB lB
        }
    }
    return m;
}

/// Recycles `k` if the pair, now at `pa` and `pb`, has moved less than `tol` since it was made:
/// then writes the refreshed manifold to `out` and returns true; otherwise returns false and leaves
/// `out` alone (collide the pair again and keep the new manifold).
template <class S, int D>
bool recycle(const KeptManifold<S, D>& k, const Pose<S, D>& pa, const Pose<S, D>& pb, Manifold<S, D>& out,
             const RecycleTolerance<S>& tol = {}) noexcept
{
    if (!within_tolerance(k, pa, pb, tol)) return false;
    out = refreshed(k, pa, pb, tol.frame);
    return true;
}

}  // namespace impulse
