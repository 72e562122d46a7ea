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
//               box-sphere with the centre over 1 cm outside the box: the points within 1e-3 m
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
#include <memory>
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
    impulse::Vec<float, 3> vec(float lo, float hi)
    {
        const float x = uniform(lo, hi), y = uniform(lo, hi), z = uniform(lo, hi);
        return {x, y, z};
    }
    Placement place(const impulse::Vec<float, 3>& p)
    {
        // one draw per statement: the order of arguments' evaluation differs between compilers
        std::normal_distribution<float> g(0.0f, 1.0f);
        const float w = g(gen), x = g(gen), y = g(gen), z = g(gen);
        Eigen::Quaternionf q(w, x, y, z);
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

// The shapes of one pair: Bullet's and impulse's, and how far apart their centres may be drawn.
template <class A, class B>
struct Shapes {
    std::unique_ptr<btCollisionShape> bt_a, bt_b;
    A a;
    B b;
    float reach = 0;
};

// Draws pairs (shapes from `make(draw)`, A at the origin, B's centre within `reach` on each axis,
// both turned at random) until Bullet's narrow phase finds 400 of them overlapping, and hands each
// of those to `check` with impulse's shapes, the poses and Bullet's contact. Returns how many.
template <class Make, class Check>
int overlapping_pairs(unsigned seed, Make make, Check check)
{
    Draw draw(seed);
    World w;
    int accepted = 0;
    for (int tries = 0; accepted < 400 && tries < 100000; ++tries) {
        const auto shapes = make(draw);
        const Placement pa = draw.place(impulse::Vec<float, 3>::Zero());
        const Placement pb = draw.place(draw.vec(-shapes.reach, shapes.reach));
        const BulletContact bullet = w.pair(shapes.bt_a.get(), pa.t, shapes.bt_b.get(), pb.t);
        if (bullet.dist.empty() || !(bullet.depth() > 0)) continue;
        ++accepted;
        check(shapes.a, pa.pose, shapes.b, pb.pose, bullet);
    }
    return accepted;
}

impulse::Capsule<double> z_capsule(float r, float length)  // Bullet's btCapsuleShapeZ(r, length)
{
    impulse::Capsule<double> c;
    c.center1 = V(0, 0, -double(length) / 2);
    c.center2 = V(0, 0, double(length) / 2);
    c.radius = double(r);
    return c;
}

// A box (half extents 0.1 .. 1; Bullet's margin set to `margin`, or left at its default 0.04 when
// negative) and a sphere (radius 0.05 .. 0.8).
auto box_and_sphere(float margin)
{
    return [margin](Draw& draw) {
        Shapes<impulse::Box<double>, impulse::Sphere<double, 3>> s;
        const impulse::Vec<float, 3> h = draw.vec(0.1f, 1.0f);
        const float r = draw.uniform(0.05f, 0.8f);
        auto box = std::make_unique<btBoxShape>(bt(h));  // the default margin lies inside h
        if (margin >= 0) box->setMargin(btScalar(margin));
        s.bt_a = std::move(box);
        s.bt_b = std::make_unique<btSphereShape>(btScalar(r));
        s.a.half_extents = h.cast<double>();
        s.b.radius = double(r);
        s.reach = h.norm() + r;
        return s;
    };
}

TEST_CASE("box-sphere: depth, normal and point agree with Bullet (GJK/EPA, box margin 0)", "[bullet]")
{
    Tally t{"box-sphere"};
    const int pairs = overlapping_pairs(2, box_and_sphere(0.0f), [&t](const impulse::Box<double>& a, const Pose& pa,
                                                                       const impulse::Sphere<double, 3>& b,
                                                                       const Pose& pb, const BulletContact& bullet) {
        const Manifold m = impulse::collide_box_sphere(a, pa, b, pb, 0.0);
        bool same = false;
        compare_depth_and_normal(t, m, bullet, 1e-3, 0.0, [](const V&) { return 0.0; }, &same);
        CHECK(same);
        // The point: where the centre lies more than 1 cm outside the box, so that Bullet takes
        // GJK's closest points of the centre and the box. Closer (its GJK then degenerates and it
        // falls back to EPA, or to a second GJK) or inside, Bullet's witness points drift along
        // the face by millimetres to centimetres while its depth and normal stay within 1e-4;
        // impulse's point is c - n (r + s/2) on the normal through the centre by construction.
        const V c = pa.inverse_apply(pb.p);
        const V q = c.cwiseMax(-a.half_extents).cwiseMin(a.half_extents);
        if (same && (c - q).norm() > 0.01) {
            const double d = (pa.p + m.points[0].rA - bullet.mid[0]).norm();
            t.max_point = std::max(t.max_point, d);
            CHECK(d <= 1e-3);
            ++t.sets;
        }
    });
    CHECK(pairs == 400);
    t.print();
}

TEST_CASE("box-sphere with Bullet's default box margin: depths differ by at most the corner rounding", "[bullet]")
{
    double worst = 0;
    const double rounding = 0.04 * (std::sqrt(3.0) - 1);  // a corner cut back by the 0.04 margin
    const int pairs = overlapping_pairs(3, box_and_sphere(-1.0f), [&](const impulse::Box<double>& a, const Pose& pa,
                                                                      const impulse::Sphere<double, 3>& b,
                                                                      const Pose& pb, const BulletContact& bullet) {
        const Manifold m = impulse::collide_box_sphere(a, pa, b, pb, 0.0);
        REQUIRE(m.count == 1);
        // the rounded box lies inside the exact one: never deeper than impulse, at most 0.0293 less
        const double diff = deepest(m) - bullet.depth();
        worst = std::max(worst, std::abs(diff));
        CHECK(diff >= -1e-3);
        CHECK(diff <= rounding + 1e-3);
    });
    CHECK(pairs == 400);
    std::printf("box-sphere, margin 0.04: %d pairs, depths differ by up to %.3g m (bound %.3g m)\n", pairs, worst,
                rounding);
}

TEST_CASE("capsule-capsule: depth and normal agree with Bullet's capsule-capsule distance", "[bullet]")
{
    Tally t{"capsule-capsule"};
    // radii 0.05 .. 0.6, segments 0 .. 2 long along each body's z (Bullet's btCapsuleShapeZ)
    const auto make = [](Draw& draw) {
        Shapes<impulse::Capsule<double>, impulse::Capsule<double>> s;
        const float ra = draw.uniform(0.05f, 0.6f), rb = draw.uniform(0.05f, 0.6f);
        const float la = draw.uniform(0.0f, 2.0f), lb = draw.uniform(0.0f, 2.0f);
        s.bt_a = std::make_unique<btCapsuleShapeZ>(btScalar(ra), btScalar(la));
        s.bt_b = std::make_unique<btCapsuleShapeZ>(btScalar(rb), btScalar(lb));
        s.a = z_capsule(ra, la);
        s.b = z_capsule(rb, lb);
        s.reach = ra + rb + (la + lb) / 2;
        return s;
    };
    const int pairs = overlapping_pairs(4, make, [&t](const impulse::Capsule<double>& a, const Pose& pa,
                                                      const impulse::Capsule<double>& b, const Pose& pb,
                                                      const BulletContact& bullet) {
        const Manifold m = impulse::collide_capsules(a, pa, b, pb, 0.0);
        bool same = false;
        compare_depth_and_normal(t, m, bullet, 1e-4, 0.0, [](const V&) { return 0.0; }, &same);
        CHECK(same);
    });
    CHECK(pairs == 400);
    t.print();
}

TEST_CASE("box-capsule: depth and normal agree with Bullet (GJK/EPA, box margin 0)", "[bullet]")
{
    Tally t{"box-capsule"};
    // a box of half extents 0.1 .. 1 (margin 0), a capsule of radius 0.05 .. 0.6, 0 .. 2 long
    const auto make = [](Draw& draw) {
        Shapes<impulse::Box<double>, impulse::Capsule<double>> s;
        const impulse::Vec<float, 3> h = draw.vec(0.1f, 1.0f);
        const float r = draw.uniform(0.05f, 0.6f), l = draw.uniform(0.0f, 2.0f);
        auto box = std::make_unique<btBoxShape>(bt(h));
        box->setMargin(0);
        s.bt_a = std::move(box);
        s.bt_b = std::make_unique<btCapsuleShapeZ>(btScalar(r), btScalar(l));
        s.a.half_extents = h.cast<double>();
        s.b = z_capsule(r, l);
        s.reach = h.norm() + r + l / 2;
        return s;
    };
    const int pairs = overlapping_pairs(5, make, [&t](const impulse::Box<double>& a, const Pose& pa,
                                                      const impulse::Capsule<double>& b, const Pose& pb,
                                                      const BulletContact& bullet) {
        const auto along = [&](const V& u) {
            const V mid = pb.apply(V((b.center1 + b.center2) / 2));
            return std::abs(u.dot(mid - pa.p)) - box_reach(a, pa, u) - capsule_reach(b, pb, u);
        };
        const Manifold m = impulse::collide_box_capsule(a, pa, b, pb, 0.0);
        compare_depth_and_normal(t, m, bullet, 1e-3, 0.1, along);
    });
    CHECK(pairs == 400);
    t.print();
}
