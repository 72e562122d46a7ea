// SPDX-License-Identifier: MIT
// rigid.hpp: contact response with rotation. Expected values come from hand derivations (in the
// comments), conservation laws, and the point-mass results of contact.hpp.
#include <cmath>

#include <Eigen/Geometry>
#include <Eigen/QR>

#include "catch.hpp"
#include "common.hpp"

using impulse::Regime;

namespace {

template <class S>
Eigen::Matrix<S, 3, 3> random_rotation(std::mt19937& gen)
{
    std::normal_distribution<S> g(S(0), S(1));
    S c[4];  // drawn in order: a call's arguments are evaluated in an unspecified order
    for (S& x : c) x = g(gen);
    Eigen::Quaternion<S> q(c[0], c[1], c[2], c[3]);
    q.normalize();
    return q.toRotationMatrix();
}

// Kinetic energy and momenta of a rigid body at position x (centre of mass).
template <class S>
S kinetic(const impulse::RigidBody<S, 2>& b)
{
    S e = S(0);
    if (b.inv_mass > S(0)) e += b.v.squaredNorm() / (S(2) * b.inv_mass);
    if (b.inv_inertia > S(0)) e += b.omega * b.omega / (S(2) * b.inv_inertia);
    return e;
}
template <class S>
S kinetic(const impulse::RigidBody<S, 3>& b)
{
    S e = S(0);
    if (b.inv_mass > S(0)) e += b.v.squaredNorm() / (S(2) * b.inv_mass);
    // The pseudo-inverse: a zero inverse moment (an axis the body cannot spin about) adds nothing.
    if (!b.inv_inertia.isZero(S(0)))
        e += b.omega.dot(b.inv_inertia.completeOrthogonalDecomposition().pseudoInverse() * b.omega) / S(2);
    return e;
}
// Angular momentum about the origin: x cross m v + I omega (2D: the z component).
template <class S>
S angular_momentum(const impulse::RigidBody<S, 2>& b, const impulse::Vec<S, 2>& x)
{
    return impulse::cross(x, impulse::Vec<S, 2>(b.v / b.inv_mass)) + b.omega / b.inv_inertia;
}
template <class S>
impulse::Vec<S, 3> angular_momentum(const impulse::RigidBody<S, 3>& b, const impulse::Vec<S, 3>& x)
{
    return x.cross(b.v / b.inv_mass) + b.inv_inertia.inverse() * b.omega;
}

}  // namespace

TEST_CASE("inertia of common shapes", "[rigid][inertia]")
{
    // Textbook moments: disk m r^2/2, ring m r^2, rectangle m (w^2+h^2)/12, spheres 2/5 and 2/3 m r^2,
    // box m (b^2+c^2)/12 per axis: m = 12, sides (1,2,3) -> (4+9, 1+9, 1+4) = (13, 10, 5).
    CHECK(impulse::inertia_disk(2.0, 3.0) == 9.0);
    CHECK(impulse::inertia_ring(2.0, 3.0) == 18.0);
    CHECK(impulse::inertia_rectangle(12.0, 1.0, 2.0) == 5.0);
    CHECK(impulse::inertia_solid_sphere(5.0, 1.0) == impulse::Vec3d::Constant(2.0));
    CHECK(impulse::inertia_hollow_sphere(3.0, 1.0) == impulse::Vec3d::Constant(2.0));
    CHECK(impulse::inertia_box(12.0, impulse::Vec3d(1, 2, 3)) == impulse::Vec3d(13, 10, 5));
    // Cylinder m = 12, r = 1, h = 2: axis 12/2 = 6; sides 12 (3 + 4)/12 = 7.
    CHECK(impulse::inertia_cylinder(12.0, 1.0, 2.0) == impulse::Vec3d(7, 7, 6));
    // Capsule limits: no straight part is a solid sphere (2/5 m r^2 = 0.4 for m = r = 1); a vanishing
    // radius is a thin rod about its middle (m h^2/12 across, 0 along).
    const impulse::Vec3d ball = impulse::inertia_capsule(1.0, 1.0, 0.0);
    CHECK(ball.x() == Approx(0.4));
    CHECK(ball.z() == Approx(0.4));
    const impulse::Vec3d rod = impulse::inertia_capsule(1.0, 1e-9, 2.0);
    CHECK(rod.x() == Approx(4.0 / 12));
    CHECK(rod.z() == Approx(0.0).margin(1e-15));
    // A capsule is between the cylinder of its straight part and that cylinder with the caps'
    // mass on the axis ends: its axial moment is below the cylinder's of the same mass.
    CHECK(impulse::inertia_capsule(1.0, 1.0, 2.0).z() < impulse::inertia_cylinder(1.0, 1.0, 2.0).z());
}

TEST_CASE("world inverse inertia rotates the principal axes", "[rigid][inertia]")
{
    // A box with principal moments (1, 2, 4) turned a quarter turn about z: its x axis now points
    // along world y, so the world inverse inertia is diag(1/2, 1/1, 1/4).
    const Eigen::Matrix3d R = Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    const Eigen::Matrix3d Iinv = impulse::world_inverse_inertia(impulse::Vec3d(1, 2, 4), R);
    CHECK(Iinv(0, 0) == Approx(0.5));
    CHECK(Iinv(1, 1) == Approx(1.0));
    CHECK(Iinv(2, 2) == Approx(0.25));
    CHECK(std::abs(Iinv(0, 1)) < 1e-15);
    // A zero moment means no rotation about that axis (inverse 0), not a division by zero.
    CHECK(impulse::world_inverse_inertia(impulse::Vec3d(0, 2, 4), Eigen::Matrix3d::Identity())(0, 0) == 0.0);
}

TEST_CASE("a 2D rod struck at its end: hand-derived velocities, energy kept at e = 1", "[rigid]")
{
    // Ball A: m = 1 (point mass), moving at (1, 0). Rod B: M = 2, length 2 along y, at rest,
    // I = M L^2/12 = 2/3. Struck at its top end: rB = (0, 1), n = (1, 0) from ball to rod.
    //   rB x n = 0*0 - 1*1 = -1, so k = 1/1 + 1/2 + (-1)^2 * 3/2 = 3; vn = 0 - 1 = -1.
    //   e = 1: jn = 2*1/3 = 2/3.  Ball: 1 - 2/3 = 1/3.  Rod: V = (2/3)/2 = 1/3,
    //   omega = I^-1 (rB x J) = 3/2 * (0*0 - 1*(2/3)) = -1 (clockwise).
    //   KE: before 1/2; after 1/18 + 2/18 + (1/2)(2/3)(1) = 1/2.
    impulse::RigidBody<double, 2> ball, rod;
    ball.v = impulse::Vec2d(1, 0);
    ball.inv_mass = 1.0;
    rod.inv_mass = 0.5;
    rod.inv_inertia = 1.0 / impulse::inertia_rectangle(2.0, 0.0, 2.0);
    impulse::Coefficients<double> coefficients;
    coefficients.restitution = 1.0;
    const double ke0 = kinetic(ball) + kinetic(rod);
    const auto r = impulse::resolve(ball, impulse::Vec2d(0, 0), rod, impulse::Vec2d(0, 1), impulse::Vec2d(1, 0), coefficients);
    CHECK(r.jn == Approx(2.0 / 3));
    CHECK(ball.v.x() == Approx(1.0 / 3));
    CHECK(rod.v.x() == Approx(1.0 / 3));
    CHECK(rod.v.y() == 0.0);
    CHECK(rod.omega == Approx(-1.0));
    CHECK(kinetic(ball) + kinetic(rod) == Approx(ke0));
    CHECK(ke0 == Approx(0.5));
}

TEST_CASE("a 3D rod struck at its end matches the 2D derivation", "[rigid]")
{
    // The same rod as a box of sides (0, 2, 0): moments (M L^2/12, 0, M L^2/12) = (2/3, 0, 2/3); the
    // zero moment about its own axis means it cannot spin about y. Same numbers as in 2D, with the
    // rod's spin about z: omega = (0, 0, -1).
    impulse::RigidBody<double, 3> ball, rod;
    ball.v = impulse::Vec3d(1, 0, 0);
    ball.inv_mass = 1.0;
    rod.inv_mass = 0.5;
    rod.inv_inertia =
        impulse::world_inverse_inertia(impulse::inertia_box(2.0, impulse::Vec3d(0, 2, 0)), Eigen::Matrix3d::Identity());
    impulse::Coefficients<double> coefficients;
    coefficients.restitution = 1.0;
    const auto r = impulse::resolve(ball, impulse::Vec3d::Zero(), rod, impulse::Vec3d(0, 1, 0), impulse::Vec3d(1, 0, 0), coefficients);
    CHECK(r.jn == Approx(2.0 / 3));
    CHECK(ball.v.x() == Approx(1.0 / 3));
    CHECK(rod.v.x() == Approx(1.0 / 3));
    CHECK(rod.omega.z() == Approx(-1.0));
    CHECK(rod.omega.x() == 0.0);
    CHECK(rod.omega.y() == 0.0);
    CHECK(kinetic(ball) + kinetic(rod) == Approx(0.5));
}

TEMPLATE_TEST_CASE("a skidding disk ends rolling at 2/3 of its speed", "[rigid][rolling]", float, double)
{
    using S = TestType;
    using V = impulse::Vec<S, 2>;
    // Uniform disk m = 2, R = 0.5 (I = m R^2/2 = 0.25) slides at v0 = 3 without spin on a static
    // floor, g = 9.8, dt = 1/240, mu = 0.3, stepped with this library's contact response.
    // About the contact line, gravity (through the contact point's vertical), the normal impulse
    // and friction (both at the contact point) exert no moment, so L = -m R v + I omega is kept
    // every step; rolling (omega = -v/R) then gives -v (m R + I/R) = -m R v0, v = v0 / (1 + 1/2)
    // = 2/3 v0. Nothing in the scheme depends on dt except when rolling starts, so the tolerance
    // is rounding: 480 steps x ~16 operations x epsilon, relative.
    const S m = 2, R = S(0.5), v0 = 3, g = S(9.8), dt = S(1) / S(240);
    impulse::RigidBody<S, 2> floor, disk;
    disk.inv_mass = S(1) / m;
    disk.inv_inertia = S(1) / impulse::inertia_disk(m, R);
    disk.v = V(v0, 0);
    impulse::Coefficients<S> coefficients;
    coefficients.friction = S(0.3);
    const S tol = S(480 * 16) * std::numeric_limits<S>::epsilon();
    const S L0 = -m * R * v0;
    int slid = 0;
    for (int step = 0; step < 480; ++step) {
        disk.v.y() -= g * dt;
        const auto r = impulse::resolve(floor, V(0, 0), disk, V(0, -R), V(0, 1), coefficients);
        slid += r.regime == Regime::sliding;
        const S L = -m * R * disk.v.x() + disk.omega / disk.inv_inertia;
        REQUIRE(std::abs(L - L0) <= tol * std::abs(L0));
    }
    CHECK(slid > 10);  // it really skidded first (about v0/(3 mu g) = 0.34 s = 82 steps)
    CHECK(std::abs(disk.v.x() - S(2) / S(3) * v0) <= tol * v0);
    CHECK(std::abs(disk.omega * R + disk.v.x()) <= tol * v0);  // rolling: contact point at rest
}

TEMPLATE_TEST_CASE("a skidding solid sphere ends rolling at 5/7 of its velocity", "[rigid][rolling]", float, double)
{
    using S = TestType;
    using V = impulse::Vec<S, 3>;
    // Solid sphere m = 1, R = 0.25, I = 2/5 m R^2, sliding at v0 = (2, 1, 0) without spin on the
    // static floor z = 0. About the contact point L = m (c x v) + I omega with c = (0, 0, R) is kept
    // (as for the disk), and rolling (v = omega x (0,0,R)) gives v (m R^2 + I) = m R^2 v0:
    // v = v0 / (1 + 2/5) = 5/7 v0, in the same direction. Tolerance: rounding, as for the disk.
    const S m = 1, R = S(0.25), g = S(9.8), dt = S(1) / S(240);
    const V v0(2, 1, 0);
    impulse::RigidBody<S, 3> floor, ball;
    ball.inv_mass = S(1) / m;
    ball.inv_inertia = impulse::world_inverse_inertia(impulse::inertia_solid_sphere(m, R),
                                                      Eigen::Matrix<S, 3, 3>::Identity());
    ball.v = v0;
    impulse::Coefficients<S> coefficients;
    coefficients.friction = S(0.2);
    const S tol = S(720 * 16) * std::numeric_limits<S>::epsilon();
    const V c(0, 0, R);
    const V L0 = m * c.cross(v0);
    int slid = 0;
    for (int step = 0; step < 720; ++step) {
        ball.v.z() -= g * dt;
        const auto r = impulse::resolve(floor, V(0, 0, 0), ball, V(0, 0, -R), V(0, 0, 1), coefficients);
        slid += r.regime == Regime::sliding;
        const V L = m * c.cross(ball.v) + ball.inv_inertia.inverse() * ball.omega;
        REQUIRE((L - L0).norm() <= tol * L0.norm());
    }
    CHECK(slid > 10);
    CHECK((ball.v - S(5) / S(7) * v0).norm() <= tol * v0.norm());
    CHECK((ball.v + ball.omega.cross(V(0, 0, -R))).norm() <= tol * v0.norm());  // contact point at rest
}

TEMPLATE_TEST_CASE("without rotation every rigid function is bit for bit the point-mass one", "[rigid]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    using V = typename TestType::V;
    test::Random<S, D> rnd(99u + unsigned(D));
    for (int i = 0; i < 3000; ++i) {
        const bool zero_inertia = rnd.chance(0.5);  // else zero offsets with real inertia
        impulse::RigidBody<S, D> A, B;
        A.v = rnd.vec(S(-5), S(5));
        B.v = rnd.vec(S(-5), S(5));
        A.inv_mass = rnd.inverse_mass(true);
        B.inv_mass = rnd.inverse_mass(true);
        const V rA = zero_inertia ? rnd.vec(S(-2), S(2)) : V(V::Zero());
        const V rB = zero_inertia ? rnd.vec(S(-2), S(2)) : V(V::Zero());
        if (!zero_inertia) {
            if constexpr (D == 2) {
                A.inv_inertia = rnd.uniform(S(0.1), S(3));
                B.inv_inertia = rnd.uniform(S(0.1), S(3));
            } else {
                A.inv_inertia = impulse::Vec<S, 3>(rnd.vec(S(0.1), S(3))).asDiagonal();
                B.inv_inertia = impulse::Vec<S, 3>(rnd.vec(S(0.1), S(3))).asDiagonal();
            }
        }
        const V n = rnd.unit();
        impulse::Coefficients<S> coefficients;
        coefficients.restitution = rnd.uniform(S(0), S(1));
        coefficients.friction = impulse::Friction<S>(rnd.uniform(S(0), S(1)), rnd.uniform(S(0), S(1)));
        V va = A.v, vb = B.v;
        const auto p = impulse::resolve(va, A.inv_mass, vb, B.inv_mass, n, coefficients);
        const auto q = impulse::resolve(A, rA, B, rB, n, coefficients);
        CAPTURE(i, zero_inertia);
        CHECK(q.regime == p.regime);
        CHECK(q.jn == p.jn);
        CHECK(q.jt == p.jt);
        CHECK(q.friction_impulse == p.friction_impulse);
        CHECK(A.v == va);
        CHECK(B.v == vb);
    }
}

TEMPLATE_TEST_CASE("random rigid contacts conserve momentum and never gain energy", "[rigid][properties]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    using V = typename TestType::V;
    test::Random<S, D> rnd(4242u + unsigned(D) + unsigned(sizeof(S)));
    int sequential_done = 0, coupled_done = 0;
    for (int i = 0; i < 4000; ++i) {
        // Two free bodies touching at p; their centres sit at p - rA and p - rB.
        impulse::RigidBody<S, D> A, B;
        A.inv_mass = S(1) / rnd.uniform(S(0.2), S(5));
        B.inv_mass = S(1) / rnd.uniform(S(0.2), S(5));
        if constexpr (D == 2) {
            A.inv_inertia = S(1) / rnd.uniform(S(0.05), S(3));
            B.inv_inertia = S(1) / rnd.uniform(S(0.05), S(3));
            A.omega = rnd.uniform(S(-3), S(3));
            B.omega = rnd.uniform(S(-3), S(3));
        } else {
            A.inv_inertia = impulse::world_inverse_inertia(impulse::Vec<S, 3>(rnd.vec(S(0.05), S(3))),
                                                           random_rotation<S>(rnd.gen));
            B.inv_inertia = impulse::world_inverse_inertia(impulse::Vec<S, 3>(rnd.vec(S(0.05), S(3))),
                                                           random_rotation<S>(rnd.gen));
            A.omega = rnd.vec(S(-3), S(3));
            B.omega = rnd.vec(S(-3), S(3));
        }
        A.v = rnd.vec(S(-5), S(5));
        B.v = rnd.vec(S(-5), S(5));
        const V p = rnd.vec(S(-3), S(3)), rA = rnd.vec(S(-1), S(1)), rB = rnd.vec(S(-1), S(1));
        const V xA = p - rA, xB = p - rB;
        const V n = rnd.unit();
        impulse::Coefficients<S> coefficients;
        coefficients.restitution = rnd.uniform(S(0), S(1));
        const S mu_s = rnd.uniform(S(0), S(1.2));
        coefficients.friction = impulse::Friction<S>(mu_s, rnd.uniform(S(0), mu_s));
        const bool coupled = (i % 2) == 1;

        const impulse::RigidBody<S, D> A0 = A, B0 = B;
        const S vn0 = impulse::RigidContact<S, D>(A, rA, B, rB).relative_velocity().dot(n);
        const auto r = coupled ? impulse::resolve_coupled(A, rA, B, rB, n, coefficients) : impulse::resolve(A, rA, B, rB, n, coefficients);
        CAPTURE(i, coupled);
        if (!(vn0 < S(0))) {
            CHECK(r.regime == Regime::separating);
            continue;
        }
        (coupled ? coupled_done : sequential_done) += 1;
        const S scale = (A0.v.norm() + B0.v.norm() + S(10)) / (A.inv_mass < B.inv_mass ? A.inv_mass : B.inv_mass);

        // Linear momentum.
        const V P0 = A0.v / A0.inv_mass + B0.v / B0.inv_mass, P1 = A.v / A.inv_mass + B.v / B.inv_mass;
        CHECK((P1 - P0).norm() <= test::tol(scale, S(256)));
        // Angular momentum about the origin (the impulses act at one point, equal and opposite).
        // (a named type, not auto: auto would keep an Eigen expression over dead temporaries)
        using Momentum = decltype(angular_momentum(A0, xA));
        const Momentum L0 = angular_momentum(A0, xA) + angular_momentum(B0, xB);
        const Momentum L1 = angular_momentum(A, xA) + angular_momentum(B, xB);
        using std::abs;
        if constexpr (D == 2) CHECK(abs(L1 - L0) <= test::tol(S(20) * scale, S(256)));
        else CHECK((L1 - L0).norm() <= test::tol(S(20) * scale, S(256)));
        // Coulomb cone.
        const S mu = r.regime == Regime::sticking ? coefficients.friction.mu_s : coefficients.friction.mu_k;
        CHECK(r.friction_impulse.norm() <= mu * r.jn * (S(1) + test::tol(S(4))) + test::tol(S(1)));
        // Energy: the sequential method never gains energy for e <= 1.
        if (!coupled) {
            const S ke0 = kinetic(A0) + kinetic(B0), ke1 = kinetic(A) + kinetic(B);
            CHECK(ke1 <= ke0 + test::tol(S(50) * (ke0 + S(1)), S(256)));
        }
        // Coupled: the normal target holds exactly, whatever friction did.
        if (coupled) {
            const S vn1 = impulse::RigidContact<S, D>(A, rA, B, rB).relative_velocity().dot(n);
            const S e = coefficients.restitution;
            CHECK(abs(vn1 + e * vn0) <= test::tol(S(20) * (abs(vn0) + S(10)), S(256)));
        }
    }
    CHECK(sequential_done > 500);
    CHECK(coupled_done > 500);
}

TEMPLATE_TEST_CASE("coupled and sequential agree for a sphere on a plane", "[rigid][coupled]", float, double)
{
    using S = TestType;
    using V = impulse::Vec<S, 3>;
    // The offset (0,0,-R) is parallel to n, so (r x n) = 0: the normal impulse makes no spin and the
    // contact-space matrix has no normal-tangent coupling. Both methods then solve the same two
    // decoupled problems and agree to rounding, sticking or sliding.
    for (S mu : {S(0.05), S(2)}) {
        impulse::RigidBody<S, 3> f1, f2, b1, b2;
        b1.inv_mass = S(1);
        b1.inv_inertia = impulse::world_inverse_inertia(impulse::inertia_solid_sphere(S(1), S(0.5)),
                                                        Eigen::Matrix<S, 3, 3>::Identity());
        b1.v = V(3, 1, -2);
        b1.omega = V(0.5, -1, 2);
        b2 = b1;
        impulse::Coefficients<S> coefficients;
        coefficients.restitution = S(0.3);
        coefficients.friction = mu;
        const V r(0, 0, S(-0.5)), n(0, 0, 1);
        const auto p = impulse::resolve(f1, V::Zero(), b1, r, n, coefficients);
        const auto q = impulse::resolve_coupled(f2, V::Zero(), b2, r, n, coefficients);
        CAPTURE(mu);
        CHECK(p.regime == q.regime);
        CHECK(q.jn == Approx(p.jn));
        CHECK((b1.v - b2.v).norm() <= test::tol(S(10)));
        CHECK((b1.omega - b2.omega).norm() <= test::tol(S(40)));
    }
}

TEST_CASE("coupled and sequential differ where rotation couples normal and friction", "[rigid][coupled]")
{
    // A rod (m = 1, length 2, I = 1/3) tilted 45 degrees falls on its lower end onto a static floor,
    // with friction high enough to stop the end sliding. Its end is off the vertical through the
    // centre, so the friction impulse turns the rod and changes the end's normal speed: the
    // sequential method (normal first, then friction) leaves the end's normal speed away from
    // -e*vn, while the coupled solve meets both targets at once (vn' = -e*vn and vt' = 0).
    const double s = std::sqrt(0.5);
    auto make = [&] {
        impulse::RigidBody<double, 2> rod;
        rod.inv_mass = 1.0;
        rod.inv_inertia = 1.0 / impulse::inertia_rectangle(1.0, 0.0, 2.0);
        rod.v = impulse::Vec2d(1.0, -2.0);
        return rod;
    };
    impulse::RigidBody<double, 2> f1, f2, r1 = make(), r2 = make();
    const impulse::Vec2d end(-s, -s), n(0, 1);  // lower end, centre at height s
    impulse::Coefficients<double> coefficients;
    coefficients.restitution = 0.5;
    coefficients.friction = 5.0;
    const auto p = impulse::resolve(f1, impulse::Vec2d(0, 0), r1, end, n, coefficients);
    const auto q = impulse::resolve_coupled(f2, impulse::Vec2d(0, 0), r2, end, n, coefficients);
    const double vn_seq = impulse::point_velocity(r1, end).dot(n);
    const double vn_cpl = impulse::point_velocity(r2, end).dot(n);
    const double vt_cpl = impulse::point_velocity(r2, end).dot(impulse::tangent(n));
    CHECK(q.regime == Regime::sticking);
    CHECK(vn_cpl == Approx(0.5 * 2.0));  // -e*vn with vn = -2 (the rod does not spin yet)
    CHECK(std::abs(vt_cpl) < 1e-12);
    CHECK(std::abs(vn_seq - 1.0) > 0.1);  // the sequential result misses the normal target
    CHECK(p.jn != Approx(q.jn));
}

TEST_CASE("the coupled solve falls back to the sequential one where Kc is singular", "[rigid][coupled]")
{
    // A wheel pinned at its centre (inverse mass 0, inverse inertia 1.5) touches a static wall at
    // rB = (0, -1) with n = (sqrt(1/2), sqrt(1/2)): only a turn can change the contact point's
    // velocity, so Kc has rank 1 and no impulse meets both the normal and the tangential target.
    // The coupled solve must not invert it (inf/NaN, friction silently dropped) but answer as the
    // sequential method does: friction capped at mu*jn.
    const double s = std::sqrt(0.5);
    auto make = [] {
        impulse::RigidBody<double, 2> wheel;
        wheel.inv_inertia = 1.5;
        wheel.omega = -2.0;
        return wheel;
    };
    impulse::RigidBody<double, 2> w1, w2, f1, f2;
    w1 = make();
    w2 = make();
    impulse::Coefficients<double> coefficients;
    coefficients.restitution = 0.5;
    coefficients.friction = 0.3;
    const impulse::Vec2d rB(0, -1), n(s, s);
    const auto seq = impulse::resolve(f1, impulse::Vec2d(0, 0), w1, rB, n, coefficients);
    const auto cpl = impulse::resolve_coupled(f2, impulse::Vec2d(0, 0), w2, rB, n, coefficients);
    REQUIRE(seq.regime == Regime::sliding);
    CHECK(cpl.regime == seq.regime);
    CHECK(cpl.jn == seq.jn);
    CHECK(cpl.jt == seq.jt);
    CHECK(std::abs(cpl.jt) == Approx(0.3 * cpl.jn));
    CHECK(w2.omega == w1.omega);
    // Point masses of inverse mass 1e-200: Kc = 2e-200 * 1, whose determinant underflows unless
    // the solve is scaled. Nothing couples, so the answer is the sequential one:
    // jn = -(1 + 0.5)(-1)/(2e-200), and friction slides at mu*jn (stopping the slide of 1 would take
    // 1/(2e-200) = 5e199 > 0.25 jn).
    impulse::RigidBody<double, 3> a, b;
    a.inv_mass = b.inv_mass = 1e-200;
    b.v = impulse::Vec3d(1, 0, -1);
    coefficients.friction = 0.25;
    const auto r = impulse::resolve_coupled(a, impulse::Vec3d::Zero(), b, impulse::Vec3d::Zero(), impulse::Vec3d::UnitZ(), coefficients);
    CHECK(r.regime == Regime::sliding);
    CHECK(r.jn == Approx(1.5 / 2e-200));
    CHECK(r.jt == Approx(0.25 * r.jn));
}
