// SPDX-License-Identifier: MIT
// collide3d.hpp against Bullet 3.24's narrow phase, on random overlapping pairs (a few hundred of
// each kind): box-box (Bullet's box-box detector, the ODE one its simulations use), box-sphere,
// capsule-capsule and box-capsule (Bullet's convex-convex algorithm: GJK/EPA, and its analytic
// capsule-capsule special case). The shapes are placed in float (Bullet's default precision) and
// the same float numbers are handed to impulse in double, so both see the same geometry.
//
// What is compared, and how closely (Bullet computes in float: 1e-4 m is a few hundred float
// roundings at these sizes; its EPA stops at a relative accuracy of 1e-4):
//   same axis   (normals within 1e-3 rad) the deepest penetration, -min(separation), within
//               1e-4 m (box-box, capsule-capsule) or 1e-3 m (GJK/EPA pairs)
//   tied axes   box-box and box-capsule may choose different axes where two nearly tie: impulse
//               takes an edge pair over a face only when it is better by 10 % + 2.5 mm (B's face
//               over A's by 2 % + 2.5 mm); Bullet's box-box takes an edge pair when it is better by
//               5 %, its EPA the best axis. There the separation along impulse's normal may fall
//               short of the one along Bullet's by at most 0.1 |s| + 2.5 mm, and the depths differ
//               by at most as much
//   points      box-box, same axis: impulse's points are midpoints of Bullet's (Bullet reports one
//               point on B and one on A); where the clipped face has at most 4 points both sets are
//               equal; where it has more, impulse's 4 are among them and hold the deepest.
//               box-sphere with the centre outside the box: the single points within 1e-3 m
// Margins: Bullet rounds a box's edges and corners with its collision margin (0.04 by default)
// wherever GJK/EPA is used (box-sphere, box-capsule): its box is then the box shrunk by the
// margin, grown by a sphere of that radius. Faces stay where they were; an edge is cut back by
// up to 0.04 (sqrt2 - 1) = 0.0166, a corner by 0.04 (sqrt3 - 1) = 0.0293. The comparisons set the
// boxes' margin to 0 (exact boxes); one more run with the default margin checks that the depths
// then differ by no more than that rounding. Capsules and spheres are their margins (a segment or
// point grown by the radius), so they are exact. The box-box detector ignores margins.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <btBulletCollisionCommon.h>
#include <BulletCollision/CollisionDispatch/btBoxBoxDetector.h>

#include <impulse/collide3d.hpp>

#include "catch.hpp"

// The ODE box-box routine behind btBoxBoxDetector, exported by libBulletCollision: called with
// room for 8 points it returns the whole clipped face, before Bullet's reduction to 4.
struct dContactGeom;
int dBoxBox2(const btVector3& p1, const btScalar* R1, const btVector3& side1, const btVector3& p2, const btScalar* R2,
             const btVector3& side2, btVector3& normal, btScalar* depth, int* return_code, int maxc,
             dContactGeom* contact, int skip, btDiscreteCollisionDetectorInterface::Result& output);

namespace {

using V = impulse::Vec<double, 3>;
using Pose = impulse::Pose<double, 3>;
using Manifold = impulse::Manifold<double, 3>;

btVector3 bt(const impulse::Vec<float, 3>& v)
{
    return btVector3(btScalar(v.x()), btScalar(v.y()), btScalar(v.z()));
}
V to_v(const btVector3& v)
{
    return V(double(v.x()), double(v.y()), double(v.z()));
}

// One placement, drawn in float: Bullet's transform, impulse's pose from the same numbers.
struct Placement {
    btTransform t;
    Pose pose;
};

struct Draw {
    std::mt19937 gen;
    explicit Draw(unsigned seed) : gen(seed) {}
    float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen); }
    impulse::Vec<float, 3> vec(float lo, float hi) { return {uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)}; }
    Placement place(const impulse::Vec<float, 3>& p)
    {
        std::normal_distribution<float> g(0.0f, 1.0f);
        Eigen::Quaternionf q(g(gen), g(gen), g(gen), g(gen));
        q.normalize();
        Placement out;
        out.t.setIdentity();
        out.t.setOrigin(bt(p));
        out.t.setRotation(btQuaternion(btScalar(q.x()), btScalar(q.y()), btScalar(q.z()), btScalar(q.w())));
        out.pose.p = p.cast<double>();
        out.pose.q = q.cast<double>();
        out.pose.q.normalize();
        return out;
    }
};

// Bullet's points in impulse's terms: the normal from A to B, per point the midpoint between its
// points on A and B and the signed distance.
struct BulletContact {
    V n = V::Zero();
    std::vector<V> mid;
    std::vector<double> dist;
    double depth() const
    {
        double d = -1e30;
        for (double x : dist) d = std::max(d, -x);
        return d;
    }
};

// Bullet's Result: normalOnB points out of B towards A; pointInWorld lies on B, and the point on A
// is pointInWorld + normalOnB * distance.
struct DetectorResult : btDiscreteCollisionDetectorInterface::Result {
    BulletContact c;
    void setShapeIdentifiersA(int, int) override {}
    void setShapeIdentifiersB(int, int) override {}
    void addContactPoint(const btVector3& normal_on_b, const btVector3& point, btScalar distance) override
    {
        c.n = -to_v(normal_on_b);
        c.mid.push_back(to_v(point + normal_on_b * (distance / btScalar(2))));
        c.dist.push_back(double(distance));
    }
};

// contactPairTest's callback; the pair may come back in either order.
struct PairResult : btCollisionWorld::ContactResultCallback {
    const btCollisionObject* a = nullptr;
    BulletContact c;
    btScalar addSingleResult(btManifoldPoint& cp, const btCollisionObjectWrapper* w0, int, int,
                             const btCollisionObjectWrapper*, int, int) override
    {
        const bool a_first = w0->getCollisionObject() == a;
        c.n = a_first ? V(-to_v(cp.m_normalWorldOnB)) : to_v(cp.m_normalWorldOnB);
        c.mid.push_back((to_v(cp.getPositionWorldOnA()) + to_v(cp.getPositionWorldOnB())) / 2);
        c.dist.push_back(double(cp.getDistance()));
        return 0;
    }
};

struct World {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btCollisionWorld world{&dispatcher, &broadphase, &config};

    BulletContact pair(btCollisionShape* sa, const btTransform& ta, btCollisionShape* sb, const btTransform& tb)
    {
        btCollisionObject oa, ob;
        oa.setCollisionShape(sa);
        oa.setWorldTransform(ta);
        ob.setCollisionShape(sb);
        ob.setWorldTransform(tb);
        PairResult r;
        r.a = &oa;
        world.contactPairTest(&oa, &ob, r);
        return r.c;
    }
};

double deepest(const Manifold& m)
{
    double d = -1e30;
    for (int i = 0; i < m.count; ++i) d = std::max(d, -m.points[i].separation);
    return d;
}

double angle(const V& a, const V& b)
{
    return std::atan2(a.cross(b).norm(), a.dot(b));
}

// Tallies of one kind of pair, printed at the end of its test.
struct Tally {
    const char* name;
    int pairs = 0, same_axis = 0, other_axis = 0, sets = 0, sets_full = 0;
    double max_depth = 0, max_angle = 0, max_other_depth = 0, max_point = 0;
    void print() const
    {
        std::printf("%-16s %4d pairs: %4d same axis (depth within %.2g m, normal within %.2g rad), "
                    "%3d nearly tied axes (depths within %.2g m)",
                    name, pairs, same_axis, max_depth, max_angle, other_axis, max_other_depth);
        if (sets > 0)
            std::printf("; point sets %d compared (%d whole faces), points within %.2g m", sets, sets_full,
                        max_point);
        std::printf("\n");
    }
};

// The separation of two convex shapes along a unit axis u: the distance between their centres
// along u less each one's half extent along u (a box: sum h_i |u.R e_i|; a capsule: r + |u.d|/2
// with d its segment). Negative: the overlap along u.
double box_reach(const impulse::Box<double>& b, const Pose& p, const V& u)
{
    const Eigen::Matrix3d R = p.q.toRotationMatrix();
    return b.half_extents.dot(V(R.transpose() * u).cwiseAbs());
}
double capsule_reach(const impulse::Capsule<double>& c, const Pose& p, const V& u)
{
    return c.radius + std::abs(u.dot(p.rotate(V(c.center2 - c.center1)))) / 2;
}

// The depth and normal checks common to every kind. Where the two chose different axes, the
// separation along impulse's normal (`along(n)`, exact for the pair) may fall short of the one
// along Bullet's by no more than impulse's preference for faces allows: relative_band |s| + 2.5 mm
// with s the separation along impulse's normal; the deepest points then differ by no more than
// relative_band (deepest) + 2.5 mm either.
template <class Along>
void compare_depth_and_normal(Tally& t, const Manifold& m, const BulletContact& b, double depth_tol,
                              double relative_band, Along along, bool* same_axis = nullptr)
{
    ++t.pairs;
    REQUIRE(m.count > 0);
    const double dm = deepest(m), db = b.depth();
    const double a = angle(m.n, b.n);
    const bool same = a <= 1e-3;
    if (same_axis) *same_axis = same;
    if (same) {
        ++t.same_axis;
        t.max_depth = std::max(t.max_depth, std::abs(dm - db));
        t.max_angle = std::max(t.max_angle, a);
        CHECK(dm == Approx(db).margin(depth_tol));
    } else {
        // Nearly tied axes: each side may keep its preferred axis, deeper than the other's by at
        // most the margins described at the top.
        ++t.other_axis;
        t.max_other_depth = std::max(t.max_other_depth, std::abs(dm - db));
        const double band = relative_band * std::max(dm, db) + 0.0025 + depth_tol;
        CHECK(std::abs(dm - db) <= band);
        const double s_ours = along(m.n), s_bullet = along(b.n);
        CHECK(s_ours >= s_bullet - (relative_band * std::abs(s_ours) + 0.0025 + depth_tol));
    }
}

}  // namespace

TEST_CASE("box-box: depth, normal and clipped points agree with Bullet's box-box detector", "[bullet]")
{
    Draw draw(1);
    Tally t{"box-box"};
    int accepted = 0;
    for (int tries = 0; accepted < 400 && tries < 100000; ++tries) {
        const impulse::Vec<float, 3> ha = draw.vec(0.1f, 1.0f), hb = draw.vec(0.1f, 1.0f);
        const float reach = ha.norm() + hb.norm();
        const Placement pa = draw.place(impulse::Vec<float, 3>::Zero()), pb = draw.place(draw.vec(-reach, reach));
        btBoxShape sa(bt(ha)), sb(bt(hb));
        btBoxBoxDetector detector(&sa, &sb);
        btDiscreteCollisionDetectorInterface::ClosestPointInput input;
        input.m_transformA = pa.t;
        input.m_transformB = pb.t;
        DetectorResult bullet;
        detector.getClosestPoints(input, bullet, nullptr);
        if (bullet.c.dist.empty()) continue;  // not overlapping
        ++accepted;

        impulse::Box<double> a, b;
        a.half_extents = ha.cast<double>();
        b.half_extents = hb.cast<double>();
        // Bullet reports overlapping points only: no speculative distance here.
        const Manifold m = impulse::collide_boxes(a, pa.pose, b, pb.pose, 0.0);
        bool same = false;
        const auto along = [&](const V& u) {
            return std::abs(u.dot(pb.pose.p - pa.pose.p)) - box_reach(a, pa.pose, u) - box_reach(b, pb.pose, u);
        };
        compare_depth_and_normal(t, m, bullet.c, 1e-4, 0.1, along, &same);
        if (!same) continue;

        // The whole clipped face from the ODE routine (room for 8 points), in the layout it takes:
        // R[4 j + i] = the rotation's row j, column i.
        btScalar R1[12], R2[12];
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 3; ++i) {
                R1[4 * j + i] = pa.t.getBasis()[j][i];
                R2[4 * j + i] = pb.t.getBasis()[j][i];
                R1[4 * j + 3] = R2[4 * j + 3] = 0;
            }
        DetectorResult full;
        btVector3 normal;
        btScalar depth;
        int code = 0;
        dBoxBox2(pa.t.getOrigin(), R1, btScalar(2) * bt(ha), pb.t.getOrigin(), R2, btScalar(2) * bt(hb), normal,
                 &depth, &code, 8, nullptr, 0, full);
        ++t.sets;
        const auto near = [&](const V& x) {
            double best = 1e30;
            for (const V& y : full.c.mid) best = std::min(best, (x - y).norm());
            return best;
        };
        // every impulse point is one of the clipped face's points
        for (int i = 0; i < m.count; ++i) {
            const double d = near(pa.pose.p + m.points[i].rA);
            t.max_point = std::max(t.max_point, d);
            CHECK(d <= 1e-4);
        }
        if (full.c.mid.size() <= 4) {
            ++t.sets_full;
            CHECK(std::size_t(m.count) == full.c.mid.size());
        } else {
            CHECK(m.count == 4);
        }
        CHECK(deepest(m) == Approx(full.c.depth()).margin(1e-4));
    }
    CHECK(accepted == 400);
    t.print();
}

TEST_CASE("box-sphere: depth, normal and point agree with Bullet (GJK/EPA, box margin 0)", "[bullet]")
{
    Draw draw(2);
    World w;
    Tally t{"box-sphere"};
    int accepted = 0;
    for (int tries = 0; accepted < 400 && tries < 100000; ++tries) {
        const impulse::Vec<float, 3> ha = draw.vec(0.1f, 1.0f);
        const float r = draw.uniform(0.05f, 0.8f);
        const float reach = ha.norm() + r;
        const Placement pa = draw.place(impulse::Vec<float, 3>::Zero()), pb = draw.place(draw.vec(-reach, reach));
        btBoxShape sa(bt(ha));
        sa.setMargin(0);
        btSphereShape sb{btScalar(r)};
        const BulletContact bullet = w.pair(&sa, pa.t, &sb, pb.t);
        if (bullet.dist.empty() || !(bullet.depth() > 0)) continue;
        ++accepted;
        impulse::Box<double> a;
        a.half_extents = ha.cast<double>();
        impulse::Sphere<double, 3> b;
        b.radius = double(r);
        const Manifold m = impulse::collide_box_sphere(a, pa.pose, b, pb.pose, 0.0);
        bool same = false;
        compare_depth_and_normal(t, m, bullet, 1e-3, 0.0, [](const V&) { return 0.0; }, &same);
        CHECK(same);
        // The point: where the centre lies outside the box (GJK's closest points). With the centre
        // inside, EPA's witness points drift along the face by millimetres while its depth and
        // normal stay within 1e-4; the point is then c - n (r + s/2), on the face normal through
        // the centre, by construction, and is not compared.
        const V c = pa.pose.inverse_apply(pb.pose.p);
        const bool inside = (c.cwiseAbs() - a.half_extents).maxCoeff() <= 0;
        if (same && !inside) {
            const double d = (pa.pose.p + m.points[0].rA - bullet.mid[0]).norm();
            t.max_point = std::max(t.max_point, d);
            CHECK(d <= 1e-3);
            ++t.sets;
        }
    }
    CHECK(accepted == 400);
    t.print();
}

TEST_CASE("box-sphere with Bullet's default box margin: depths differ by at most the corner rounding", "[bullet]")
{
    Draw draw(3);
    World w;
    int accepted = 0;
    double worst = 0;
    const double rounding = 0.04 * (std::sqrt(3.0) - 1);  // a corner cut back by the 0.04 margin
    for (int tries = 0; accepted < 400 && tries < 100000; ++tries) {
        const impulse::Vec<float, 3> ha = draw.vec(0.1f, 1.0f);
        const float r = draw.uniform(0.05f, 0.8f);
        const float reach = ha.norm() + r;
        const Placement pa = draw.place(impulse::Vec<float, 3>::Zero()), pb = draw.place(draw.vec(-reach, reach));
        btBoxShape sa(bt(ha));  // margin 0.04, inside the half extents
        btSphereShape sb{btScalar(r)};
        const BulletContact bullet = w.pair(&sa, pa.t, &sb, pb.t);
        if (bullet.dist.empty() || !(bullet.depth() > 0)) continue;
        ++accepted;
        impulse::Box<double> a;
        a.half_extents = ha.cast<double>();
        impulse::Sphere<double, 3> b;
        b.radius = double(r);
        const Manifold m = impulse::collide_box_sphere(a, pa.pose, b, pb.pose, 0.0);
        REQUIRE(m.count == 1);
        // the rounded box lies inside the exact one: never deeper than impulse, at most 0.0293 less
        const double diff = deepest(m) - bullet.depth();
        worst = std::max(worst, std::abs(diff));
        CHECK(diff >= -1e-3);
        CHECK(diff <= rounding + 1e-3);
    }
    CHECK(accepted == 400);
    std::printf("box-sphere, margin 0.04: %d pairs, depths differ by up to %.3g m (bound %.3g m)\n", accepted, worst,
                rounding);
}

TEST_CASE("capsule-capsule: depth and normal agree with Bullet's capsule-capsule distance", "[bullet]")
{
    Draw draw(4);
    World w;
    Tally t{"capsule-capsule"};
    int accepted = 0;
    for (int tries = 0; accepted < 400 && tries < 100000; ++tries) {
        const float ra = draw.uniform(0.05f, 0.6f), rb = draw.uniform(0.05f, 0.6f);
        const float la = draw.uniform(0.0f, 2.0f), lb = draw.uniform(0.0f, 2.0f);  // segment lengths
        const float reach = ra + rb + (la + lb) / 2;
        const Placement pa = draw.place(impulse::Vec<float, 3>::Zero()), pb = draw.place(draw.vec(-reach, reach));
        btCapsuleShapeZ sa{btScalar(ra), btScalar(la)}, sb{btScalar(rb), btScalar(lb)};  // segments along z
        const BulletContact bullet = w.pair(&sa, pa.t, &sb, pb.t);
        if (bullet.dist.empty() || !(bullet.depth() > 0)) continue;
        ++accepted;
        impulse::Capsule<double> a, b;
        a.center1 = V(0, 0, -double(la) / 2);
        a.center2 = V(0, 0, double(la) / 2);
        a.radius = double(ra);
        b.center1 = V(0, 0, -double(lb) / 2);
        b.center2 = V(0, 0, double(lb) / 2);
        b.radius = double(rb);
        const Manifold m = impulse::collide_capsules(a, pa.pose, b, pb.pose, 0.0);
        bool same = false;
        compare_depth_and_normal(t, m, bullet, 1e-4, 0.0, [](const V&) { return 0.0; }, &same);
        CHECK(same);
    }
    CHECK(accepted == 400);
    t.print();
}

TEST_CASE("box-capsule: depth and normal agree with Bullet (GJK/EPA, box margin 0)", "[bullet]")
{
    Draw draw(5);
    World w;
    Tally t{"box-capsule"};
    int accepted = 0;
    for (int tries = 0; accepted < 400 && tries < 100000; ++tries) {
        const impulse::Vec<float, 3> ha = draw.vec(0.1f, 1.0f);
        const float r = draw.uniform(0.05f, 0.6f), l = draw.uniform(0.0f, 2.0f);
        const float reach = ha.norm() + r + l / 2;
        const Placement pa = draw.place(impulse::Vec<float, 3>::Zero()), pb = draw.place(draw.vec(-reach, reach));
        btBoxShape sa(bt(ha));
        sa.setMargin(0);
        btCapsuleShapeZ sb{btScalar(r), btScalar(l)};
        const BulletContact bullet = w.pair(&sa, pa.t, &sb, pb.t);
        if (bullet.dist.empty() || !(bullet.depth() > 0)) continue;
        ++accepted;
        impulse::Box<double> a;
        a.half_extents = ha.cast<double>();
        impulse::Capsule<double> b;
        b.center1 = V(0, 0, -double(l) / 2);
        b.center2 = V(0, 0, double(l) / 2);
        b.radius = double(r);
        const Manifold m = impulse::collide_box_capsule(a, pa.pose, b, pb.pose, 0.0);
        const auto along = [&](const V& u) {
            const V mid = pb.pose.apply(V((b.center1 + b.center2) / 2));
            return std::abs(u.dot(mid - pa.pose.p)) - box_reach(a, pa.pose, u) - capsule_reach(b, pb.pose, u);
        };
        compare_depth_and_normal(t, m, bullet, 1e-3, 0.1, along);
    }
    CHECK(accepted == 400);
    t.print();
}
