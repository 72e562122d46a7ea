// SPDX-License-Identifier: MIT
// recycle.hpp: keeping a manifold and refreshing it from the bodies' poses while the pair has moved
// less than a tolerance. The manifolds are written by hand (a unit box B resting on a box A), so
// every expected number below follows from that picture, not from a collide_ function.
#include <cmath>
#include <limits>
#include <random>

#include "catch.hpp"
#include "common.hpp"

namespace {

/// Box A's top face at height 0.5 above A's centre (A at the origin), box B's centre at height
/// 1 - overlap above it: two points under B's bottom corners x = -0.5 and x = +0.5, each midway
/// between the faces, at height 0.5 - overlap/2; n = +y (from A up to B); separation -overlap.
/// In 3D the same picture in the x-y plane (z = 0 for the points).
template <class S, int D>
impulse::Manifold<S, D> resting(S overlap, impulse::Pose<S, D>& pa, impulse::Pose<S, D>& pb)
{
    using V = impulse::Vec<S, D>;
    pa = impulse::Pose<S, D>();
    pb = impulse::Pose<S, D>();
    pb.p = V::Zero();
    pb.p.y() = S(1) - overlap;
    impulse::Manifold<S, D> m;
    m.a = 3;
    m.b = 7;
    m.key = 42;
    m.n = V::UnitY();
    m.count = 2;
    for (int i = 0; i < 2; ++i) {
        V x = V::Zero();
        x.x() = i == 0 ? S(-0.5) : S(0.5);
        x.y() = S(0.5) - overlap / S(2);
        m.points[i].rA = x - pa.p;
        m.points[i].rB = x - pb.p;
        m.points[i].separation = -overlap;
        m.points[i].feature = impulse::make_feature(std::uint32_t(i), std::uint32_t(2 + i));
    }
    return m;
}

/// An orientation turned by `angle` about the axis out of the x-y plane (z in 3D).
template <class S, int D>
impulse::Orientation_t<S, D> turned(S angle)
{
    if constexpr (D == 2) return impulse::Rot2<S>::from_angle(angle);
    else return impulse::Orientation_t<S, D>(Eigen::AngleAxis<S>(angle, impulse::Vec<S, 3>::UnitZ()));
}

template <class S, int D>
void check_same(const impulse::Manifold<S, D>& got, const impulse::Manifold<S, D>& want)
{
    CHECK(got.a == want.a);
    CHECK(got.b == want.b);
    CHECK(got.key == want.key);
    CHECK(got.n == want.n);
    REQUIRE(got.count == want.count);
    for (int i = 0; i < want.count; ++i) {
        CHECK(got.points[i].rA == want.points[i].rA);
        CHECK(got.points[i].rB == want.points[i].rB);
        CHECK(got.points[i].separation == want.points[i].separation);
        CHECK(got.points[i].feature == want.points[i].feature);
    }
}

}  // namespace

TEMPLATE_TEST_CASE("a pair that has not moved gets back the identical manifold", "[recycle]", test::F2, test::F3,
                   test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    impulse::Pose<S, D> pa, pb;
    impulse::Manifold<S, D> m = resting<S, D>(S(0.01), pa, pb);
    // Turned and moved away from the origin, so that the body-frame round trip (R^T then R) is not
    // trivially exact: the result must still be the manifold as kept, bit for bit, in both frames.
    const auto q = turned<S, D>(S(0.3));
    impulse::Pose<S, D> ta, tb;
    ta.p = pa.p + impulse::Vec<S, D>::Constant(S(1.7));
    ta.q = q;
    tb.p = ta.apply(pb.p);
    tb.q = q;
    m.n = ta.rotate(m.n);
    for (int i = 0; i < m.count; ++i) {
        m.points[i].rA = ta.rotate(m.points[i].rA);
        m.points[i].rB = tb.rotate(m.points[i].rB);
    }
    const impulse::KeptManifold<S, D> k = impulse::keep(m, ta, tb);
    for (const impulse::KeepFrame frame : {impulse::KeepFrame::world, impulse::KeepFrame::body_a}) {
        impulse::RecycleTolerance<S> tol;
        tol.frame = frame;
        impulse::Manifold<S, D> out;
        REQUIRE(impulse::recycle(k, ta, tb, out, tol));
        check_same(out, m);
    }
}

TEMPLATE_TEST_CASE("a translation along the normal changes every separation by exactly that amount", "[recycle]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    constexpr int D = TestType::D;
    impulse::Pose<S, D> pa, pb;
    // overlap 1/64 and steps of 1/1024 m: binary fractions, so every sum below is exact.
    const S overlap = S(1) / S(64);
    const impulse::Manifold<S, D> m = resting<S, D>(overlap, pa, pb);
    const impulse::KeptManifold<S, D> k = impulse::keep(m, pa, pb);
    for (const impulse::KeepFrame frame : {impulse::KeepFrame::world, impulse::KeepFrame::body_a}) {
        impulse::RecycleTolerance<S> tol;
        tol.frame = frame;
        for (const S d : {S(1) / S(1024), -S(1) / S(1024), S(2) / S(1024)}) {
            // B lifted by d along n = +y: each gap opens by d, s = -overlap + d (no rounding: the
            // poses' change is d, the turns nil); 2/1024 m is within the 2 mm default.
            impulse::Pose<S, D> moved = pb;
            moved.p.y() += d;
            impulse::Manifold<S, D> out;
            REQUIRE(impulse::recycle(k, pa, moved, out, tol));
            CHECK(out.n == V::UnitY());
            for (int i = 0; i < out.count; ++i) {
                CHECK(out.points[i].separation == -overlap + d);
                CHECK(out.points[i].feature == m.points[i].feature);
            }
            // Moving A by -d instead is the same relative motion: the same separations.
            impulse::Pose<S, D> lowered = pa;
            lowered.p.y() -= d;
            REQUIRE(impulse::recycle(k, lowered, pb, out, tol));
            for (int i = 0; i < out.count; ++i) CHECK(out.points[i].separation == -overlap + d);
        }
        // A slide along the face (tangent, x) leaves every separation as it was.
        impulse::Pose<S, D> slid = pb;
        slid.p.x() += S(1) / S(1024);
        impulse::Manifold<S, D> out;
        REQUIRE(impulse::recycle(k, pa, slid, out, tol));
        for (int i = 0; i < out.count; ++i) CHECK(out.points[i].separation == -overlap);
    }
}

TEMPLATE_TEST_CASE("a turn of B moves its corners: the separations follow the body-fixed points", "[recycle]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    constexpr int D = TestType::D;
    impulse::Pose<S, D> pa, pb;
    const S overlap = S(0.01);
    const impulse::Manifold<S, D> m = resting<S, D>(overlap, pa, pb);
    const impulse::KeptManifold<S, D> k = impulse::keep(m, pa, pb);
    // B turned by t (counter-clockwise) about its centre. Point i's material point on B sits at
    // lB = (+-0.5, -0.5 + overlap/2) from B's centre; turned, its height changes by
    // (sin t lx + cos t ly) - ly, which is the change of the separation (A has not moved).
    const S t = S(0.003);  // within the 0.004 rad default
    impulse::Pose<S, D> turned_b = pb;
    turned_b.q = turned<S, D>(t);
    using std::cos;
    using std::sin;
    for (const impulse::KeepFrame frame : {impulse::KeepFrame::world, impulse::KeepFrame::body_a}) {
        impulse::RecycleTolerance<S> tol;
        tol.frame = frame;
        impulse::Manifold<S, D> out;
        REQUIRE(impulse::recycle(k, pa, turned_b, out, tol));
        CHECK(out.n == V::UnitY());  // A has not turned: the normal is n0 in both frames
        for (int i = 0; i < 2; ++i) {
            const S lx = i == 0 ? S(-0.5) : S(0.5), ly = S(-0.5) + overlap / S(2);
            const S want = -overlap + (sin(t) * lx + cos(t) * ly - ly);
            CHECK(out.points[i].separation == Approx(want).margin(test::tol<S>(S(1))));
            // world: the anchors as kept; body_a: B's anchor is the turned material point.
            if (frame == impulse::KeepFrame::world) CHECK(out.points[i].rB == m.points[i].rB);
            else CHECK(out.points[i].rB.y() == Approx(sin(t) * lx + cos(t) * ly).margin(test::tol<S>(S(1))));
        }
    }
}

TEMPLATE_TEST_CASE("a pair turning together: world recollides beyond the angle, body_a turns the normal with A",
                   "[recycle]", test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    impulse::Pose<S, D> pa, pb;
    const impulse::Manifold<S, D> m = resting<S, D>(S(0.01), pa, pb);
    const impulse::KeptManifold<S, D> k = impulse::keep(m, pa, pb);
    // Both bodies turned by 0.1 rad about A's centre as one rigid piece: B seen from A has not moved.
    const S t = S(0.1);
    impulse::Pose<S, D> ta = pa, tb = pb;
    ta.q = turned<S, D>(t);
    tb.q = ta.q;
    tb.p = ta.rotate(pb.p);
    impulse::RecycleTolerance<S> tol;  // 0.004 rad < 0.1 rad
    impulse::Manifold<S, D> out;
    // World axes: the kept normal would be 0.1 rad off the faces: collide again.
    CHECK_FALSE(impulse::within_tolerance(k, ta, tb, tol));
    CHECK_FALSE(impulse::recycle(k, ta, tb, out, tol));
    // A's axes: nothing has moved relative to A; the normal is n0 turned by t, (-sin t, cos t), and
    // every separation stays -0.01 (the gap between the material points is n0 turned by t times 0).
    tol.frame = impulse::KeepFrame::body_a;
    REQUIRE(impulse::recycle(k, ta, tb, out, tol));
    using std::cos;
    using std::sin;
    const S e = test::tol<S>(S(1));
    CHECK(out.n.x() == Approx(-sin(t)).margin(e));
    CHECK(out.n.y() == Approx(cos(t)).margin(e));
    for (int i = 0; i < out.count; ++i) CHECK(out.points[i].separation == Approx(S(-0.01)).margin(e));
}

TEMPLATE_TEST_CASE("a move beyond the tolerance says collide again", "[recycle]", test::F2, test::F3, test::D2,
                   test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    impulse::Pose<S, D> pa, pb;
    const impulse::Manifold<S, D> m = resting<S, D>(S(0.01), pa, pb);
    const impulse::KeptManifold<S, D> k = impulse::keep(m, pa, pb);
    const impulse::RecycleTolerance<S> tol;  // 2 mm, 0.004 rad
    impulse::Manifold<S, D> out;
    out.count = 0;
    // 1.5 mm sideways: within; 2.5 mm: beyond (|d| against 2 mm).
    impulse::Pose<S, D> moved = pb;
    moved.p.x() += S(0.0015);
    CHECK(impulse::within_tolerance(k, pa, moved, tol));
    moved.p.x() = pb.p.x() + S(0.0025);
    CHECK_FALSE(impulse::within_tolerance(k, pa, moved, tol));
    CHECK_FALSE(impulse::recycle(k, pa, moved, out, tol));
    CHECK(out.count == 0);  // left alone
    // 1.5 mm along x and 1.5 mm along y: each within 2 mm, together 2.1 mm, beyond.
    moved.p = pb.p;
    moved.p.x() += S(0.0015);
    moved.p.y() += S(0.0015);
    CHECK_FALSE(impulse::within_tolerance(k, pa, moved, tol));
    // B turned by 0.005 rad relative to A: beyond the 0.004 rad angle; 0.003 rad within.
    moved = pb;
    moved.q = turned<S, D>(S(0.003));
    CHECK(impulse::within_tolerance(k, pa, moved, tol));
    moved.q = turned<S, D>(S(0.005));
    CHECK_FALSE(impulse::within_tolerance(k, pa, moved, tol));
    // Nothing kept (count 0): always collide.
    impulse::KeptManifold<S, D> none = k;
    none.manifold.count = 0;
    CHECK_FALSE(impulse::within_tolerance(none, pa, pb, tol));
}

// The turn test of within_tolerance skips the arc tangent where the answer is plain (recycle.hpp,
// detail::angle_at_most). Its answer must be the arc tangent's in every case: here against the
// definition, |atan2(s, c)| of RA^T RB in 2D and 2 atan2(|v|, |w|) of qA* qB in 3D, for turns spread
// over many scales around each tolerance (down to a few units in the last place of it, where only
// the arc tangent can tell) and far from it, tolerances inside and outside (0, 1) rad, and
// orientations that are not finite.
TEMPLATE_TEST_CASE("the turn test answers as the arc tangent does, at the tolerance and far from it", "[recycle]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    using Q = impulse::Orientation_t<S, D>;
    std::mt19937 gen(7);
    std::uniform_real_distribution<S> unit(S(-1), S(1));
    auto random_orientation = [&]() -> Q {
        if constexpr (D == 2) {
            return impulse::Rot2<S>::from_angle(S(3.14159) * unit(gen));
        } else {
            Q q(unit(gen), unit(gen), unit(gen), unit(gen));
            q.normalize();
            return q;
        }
    };
    auto turned_about = [&](const Q& q, S angle) -> Q {
        if constexpr (D == 2) {
            return q * impulse::Rot2<S>::from_angle(angle);
        } else {
            impulse::Vec<S, 3> axis(unit(gen), unit(gen), unit(gen));
            axis.normalize();
            Q r = q * Q(Eigen::AngleAxis<S>(angle, axis));
            r.normalize();
            return r;
        }
    };
    auto definition = [](const Q& from, const Q& to, S a) {
        using std::abs;
        using std::atan2;
        if constexpr (D == 2) {
            const impulse::Rot2<S> d = from.inverse() * to;
            return abs(atan2(d.s, d.c)) <= a;
        } else {
            const Q d = from.conjugate() * to;
            return S(2) * atan2(d.vec().norm(), abs(d.w())) <= a;
        }
    };
    const S ulp = std::numeric_limits<S>::epsilon();
    int cases = 0, within = 0, mismatches = 0;
    for (const S a : {S(0.004), S(0.1), S(0.7), S(0.999), S(0), S(1), S(2.5), S(-0.1)}) {
        for (int i = 0; i < 4000; ++i) {
            // The turn: a times 1 + x, x of every size from 2^-2 down to a few ulps, either sign;
            // every eighth turn anywhere in [0, pi).
            const int k = i % 8;
            S turn;
            if (k == 7 || a <= S(0)) {
                turn = S(1.5) * (unit(gen) + S(1));
            } else {
                const S scale = k == 0 ? S(0.25) : k == 1 ? S(1e-2) : k == 2 ? S(1e-3) : k == 3 ? S(1e-4)
                              : k == 4 ? S(100) * ulp : k == 5 ? S(10) * ulp : ulp;
                turn = a * (S(1) + scale * unit(gen));
            }
            const Q from = random_orientation(), to = turned_about(from, turn);
            const bool want = definition(from, to, a);
            const bool got = impulse::detail::turned_at_most(from, to, a);
            mismatches += want != got;
            within += want;
            ++cases;
        }
    }
    CHECK(mismatches == 0);
    // Both answers occur often: the cases test each side of the tolerances.
    CHECK(within > cases / 8);
    CHECK(cases - within > cases / 8);
    // Not finite: no answer but "beyond", as the arc tangent of NaN gives.
    Q bad = random_orientation();
    if constexpr (D == 2) bad.c = std::numeric_limits<S>::quiet_NaN();
    else bad.w() = std::numeric_limits<S>::quiet_NaN();
    CHECK_FALSE(impulse::detail::turned_at_most(bad, random_orientation(), S(0.004)));
    CHECK_FALSE(impulse::detail::turned_at_most(random_orientation(), bad, S(0.5)));
}
