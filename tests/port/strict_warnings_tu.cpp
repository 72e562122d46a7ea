// SPDX-License-Identifier: MIT
// Compiled with -Wconversion -Wshadow -Wdouble-promotion -fno-exceptions -fno-rtti (target
// impulse_strict_warnings_check, built with `all`, Eigen's include directory marked SYSTEM):
// engines that build with these warnings as errors, and without exceptions, must be able to use
// impulse. Templates are only checked when instantiated, so every public function and type is
// used here for float and double, in 2D and 3D. A new public function gets a line here.
#include <impulse/detail/simd.hpp>
#include <impulse/impulse.hpp>

// Register types as template arguments drop their attributes, on purpose (as in simd.hpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wignored-attributes"
#endif

namespace {

// A contact type of a user's own, driven through the generic `resolve`: checks the generic
// paths with a scalar and dimension that come from the contact rather than from vectors.
template <class S, int D>
struct OwnContact : impulse::PointMasses<S, D> {
    impulse::Vec<S, D>& va;
    impulse::Vec<S, D>& vb;
    OwnContact(impulse::Vec<S, D>& a, S inv_a, impulse::Vec<S, D>& b, S inv_b) noexcept
        : impulse::PointMasses<S, D>{inv_a, inv_b}, va(a), vb(b)
    {
    }
    impulse::Vec<S, D> relative_velocity() const noexcept { return vb - va; }
    void apply(const impulse::Vec<S, D>& J) const noexcept
    {
        va -= this->inv_mass_a * J;
        vb += this->inv_mass_b * J;
    }
};

template <class S, int D>
S use_everything() noexcept
{
    using V = impulse::Vec<S, D>;
    const V n = V::UnitX();
    V a = V::UnitX(), b = V::Zero();
    S sum = S(0);

    // config.hpp
    sum += impulse::is_unit(n) ? S(1) : S(0);

    // material.hpp
    impulse::Material<S> m;
    m.restitution = S(0.5);
    const impulse::Coefficients<S> coefficients = impulse::mix(m, m);
    const impulse::Coefficients<S> kt = impulse::mix(m, m, S(0.1));
    const impulse::Combine rule = impulse::combine_rule(impulse::Combine::min, impulse::Combine::max);
    sum += impulse::combine(S(0.2), S(0.8), rule);
    sum += coefficients.friction.mu_s + kt.threshold;
    const impulse::Friction<S> one(S(0.5));
    const impulse::Friction<S> two(S(0.6), S(0.4));
    sum += one.mu_k + two.mu_s;

    // axis.hpp
    sum += impulse::effective_restitution(S(0.5), S(-1), S(0.1));
    sum += impulse::bounce_impulse(S(-1), S(2), S(0.5));
    const impulse::Clamp<S> c = impulse::coulomb(S(1), S(2), two);
    sum += c.j + (c.regime == impulse::Regime::sliding ? S(1) : S(0));
    S total = S(0);
    sum += impulse::accumulate(total, S(1), S(0), S(2));
    sum += impulse::to_string(c.regime)[0] == 's' ? S(1) : S(0);

    // contact.hpp: the point-mass overloads, scalars given as double literals (exact in float, so
    // the call sites themselves stay clean: `S` comes from the vectors, see detail::same_t)
    sum += impulse::normal_impulse(a, 1.0, b, 0.5, n, 0.5);
    sum += impulse::normal_impulse(a, 1.0, b, 0.5, n, 0.5, 0.125);
    const impulse::FrictionImpulse<S, D> f = impulse::friction_impulse(a, 1.0, b, 0.5, n, 1.0, one);
    sum += f.jt + f.J.sum();
    impulse::apply_impulse(a, 1.0, b, 0.5, f.J);
    const impulse::Result<S, D> r = impulse::resolve(a, 1.0, b, 0.5, n, coefficients);
    sum += r.jn + r.jt + r.friction_impulse.sum() + r.impulse(n).sum();
    const impulse::Correction<S, D> pc = impulse::positional_correction(1.0, 0.5, n, 0.25);
    const impulse::Correction<S, D> pc2 = impulse::positional_correction(1.0, 0.5, n, 0.25, 0.75, 0.0078125);
    sum += pc.dA.sum() + pc.dB.sum() + pc2.dB.sum();

    // contact.hpp: the generic overloads over a mass model and a contact type
    const impulse::PointMasses<S, D> pm{S(1), S(0.5)};
    const V rv = b - a;
    sum += impulse::normal_impulse(pm, rv, n, 0.5, 0.125);
    sum += impulse::friction_impulse(pm, rv, n, 1.0, one).jt;
    sum += impulse::resolve(impulse::PointContact<S, D>(a, S(1), b, S(0.5)), n, coefficients).jn;
    sum += impulse::resolve(OwnContact<S, D>(a, S(1), b, S(0.5)), n, coefficients).jn;

    // collide.hpp
    if (const auto s = impulse::collide_spheres(a, 1.0, b, 0.5)) sum += s->penetration + s->point.sum();
    if (const auto p = impulse::collide_sphere_plane(a, 1.0, n, 0.25)) sum += p->penetration + p->n.sum();

    // rigid.hpp
    impulse::RigidBody<S, D> A, B;
    A.inv_mass = S(1);
    B.inv_mass = S(0.5);
    const V rA = -V::UnitX(), rB = V::UnitX();
    sum += impulse::point_velocity(A, rA).sum();
    sum += impulse::angular_inverse_mass(A, rA, n);
    sum += impulse::angular_inverse_mass_matrix(A, rA).sum();
    impulse::apply_at(B, rB, n, S(1));
    const impulse::RigidContact rc(A, rA, B, rB);  // the deduction guide
    sum += rc.inverse_mass(n) + rc.inverse_mass_matrix().sum() + rc.relative_velocity().sum();
    sum += rc.stick_impulse(n, V::Zero()).sum();
    rc.apply(V::Zero());
    sum += impulse::resolve(A, rA, B, rB, n, coefficients).jn;
    sum += impulse::resolve(rc, n, coefficients).jt;
    sum += impulse::resolve_coupled(A, rA, B, rB, n, coefficients).jn;
    sum += impulse::resolve_coupled(rc, n, coefficients).jt;
    sum += impulse::contact_basis(n).sum();
    impulse::Motion<S, D> mA(A), mB(B);
    const impulse::ContactAxis<S, D> axis(rc, n);
    axis.apply(mA, mB, S(0.5));
    sum += axis.speed(mA, mB) + axis.mass;
    sum += impulse::inverse_moment(S(2));

    // solver.hpp, manifold.hpp, kinematics.hpp, collide.hpp
    impulse::Body<S, D> bodies[2];
    bodies[1].inv_mass = S(1);
    bodies[1].pose.p = V::UnitY();
    impulse::Sphere<S, D> ball;
    ball.radius = S(1);
    impulse::Manifold<S, D> m2 = impulse::collide_plane_sphere(impulse::Plane<S, D>(), bodies[0].pose, ball, bodies[1].pose);
    m2.a = 0;
    m2.b = 1;
    m2.coefficients = coefficients;
    m2.rolling_resistance = S(0.01);
    m2 = impulse::flipped(impulse::flipped(m2));
    // recycle.hpp
    {
        const impulse::KeptManifold<S, D> kept = impulse::keep(m2, bodies[0].pose, bodies[1].pose);
        impulse::RecycleTolerance<S> tol;
        tol.frame = impulse::KeepFrame::body_a;
        impulse::Manifold<S, D> again;
        sum += impulse::recycle(kept, bodies[0].pose, bodies[1].pose, again, tol) ? again.points[0].separation : S(0);
        sum += impulse::within_tolerance(kept, bodies[0].pose, bodies[1].pose) ? S(1) : S(0);
        sum += impulse::refreshed(kept, bodies[0].pose, bodies[1].pose).points[0].separation;
    }
    sum += impulse::collide_spheres(ball, bodies[0].pose, ball, bodies[1].pose).points[0].separation;
    impulse::Solver<S, D> solver;
    solver.settings.gravity = -V::UnitY();
    solver.step(impulse::view(bodies, 2), &m2, 1, S(0.015625));
    sum += solver.impulse(0, 0).jn + solver.impulse(0, 0).total + solver.impulse(0, 0).jt.sum();
    solver.reset();
    solver.reserve(2, 1, 1);
    sum += bodies[1].pose.rotate(V::UnitX()).sum() + bodies[1].pose.inverse_apply(V::UnitX()).sum();
    sum += impulse::make_softness(S(30), S(10), S(0.25)).bias_rate;
    S accumulated = S(0);
    sum += impulse::soft_normal(accumulated, S(-1), S(0.5), S(1), S(4), impulse::make_softness(S(30), S(10), S(0.25)), S(3), true);
    sum += S(impulse::swap_feature(impulse::make_feature(1, 2)));

    // batch.hpp: both forms, inputs as arrays and as single values (int, double and S literals)
    S vb[D][3] = {}, jn[3] = {}, jt[3] = {}, Jt[D][3] = {};
    impulse::Regime regime[3] = {};
    impulse::BatchView<S, D> view;
    for (int d = 0; d < D; ++d) {
        view.vA[d] = 0;
        view.vB[d] = vb[d];
        view.vB_out[d] = vb[d];
        view.friction_impulse[d] = Jt[d];
        view.n[d] = d == 0 ? 1 : 0;
    }
    view.inv_mass_a = 0;
    view.inv_mass_b = S(1);
    view.restitution = 0.5;
    view.mu_s = S(0.5);
    view.mu_k = 0.25;
    view.jn = jn;
    view.jt = jt;
    view.regime = regime;
    impulse::resolve_batch(view, 3);
    impulse::PointPair<S, D> pair;
    pair.inv_mass_b = S(1);
    impulse::Result<S, D> pair_result;
    impulse::resolve_batch(&pair, 1, &pair_result);
    sum += jn[0] + jt[1] + Jt[0][2] + pair_result.jn + view.mu_s[0] + S(impulse::batch_width<S>);
    return sum;
}

template <class S>
S rigid_2d() noexcept
{
    using V = impulse::Vec<S, 2>;
    impulse::RigidBody<S, 2> body;
    body.inv_inertia = impulse::inverse_moment(impulse::inertia_disk(S(2), S(0.5)) +
                                               impulse::inertia_ring(S(1), S(0.5)) +
                                               impulse::inertia_rectangle(S(1), S(2), S(0.5)));
    const impulse::Rot2<S> q = impulse::Rot2<S>::from_angle(S(0.5));
    return impulse::cross(V(1, 2), V(3, 4)) + impulse::cross(S(2), V(1, 0)).sum() + body.inv_inertia + q.angle() +
           (q * q.inverse()).rotate(V(1, 0)).sum() + q.inverse_rotate(V(0, 1)).sum() + q.matrix().sum();
}

template <class S>
S rigid_3d() noexcept
{
    using V = impulse::Vec<S, 3>;
    const V I = impulse::inertia_solid_sphere(S(1), S(0.5)) + impulse::inertia_hollow_sphere(S(1), S(0.5)) +
                impulse::inertia_box(S(1), V(1, 2, 3)) + impulse::inertia_cylinder(S(1), S(0.5), S(2)) +
                impulse::inertia_capsule(S(1), S(0.5), S(2));
    impulse::RigidBody<S, 3> body;
    body.inv_inertia = impulse::world_inverse_inertia(I, Eigen::Matrix<S, 3, 3>::Identity());
    return impulse::cross(V(1, 0, 0), V(0, 1, 0)).sum() + body.inv_inertia.sum();
}

template <class S>
S collide_2d() noexcept
{
    using V = impulse::Vec<S, 2>;
    // collide2d.hpp
    const V pts[4] = {V(S(0), S(0)), V(S(1), S(0)), V(S(1), S(1)), V(S(0), S(1))};
    const impulse::Polygon<S> hull = impulse::make_polygon(pts, 4);
    const impulse::Polygon<S> rounded = impulse::make_polygon(pts, 4, 0.125);
    const impulse::Polygon<S> box = impulse::make_box(S(0.5), S(0.25));
    const impulse::Polygon<S> off = impulse::make_offset_box(S(0.5), S(0.25), V(S(1), S(0)), 0.5);
    const impulse::Polygon<S> cap = impulse::make_capsule(V(S(0), S(0)), V(S(1), S(0)), 0.25);
    const impulse::PolygonMass<S> mass = impulse::mass_properties(box, 2.0);
    impulse::Pose<S, 2> pa, pb;
    pb.p = V(S(0.25), S(0.5));
    impulse::Circle<S> ball;
    ball.radius = S(0.5);
    const impulse::Plane<S, 2> floor;
    const impulse::Manifold<S, 2> m1 = impulse::collide_polygons(hull, pa, off, pb);
    const impulse::Manifold<S, 2> m2 = impulse::collide_polygons(rounded, pa, cap, pb, 0.015625);
    const impulse::Manifold<S, 2> m3 = impulse::collide_polygon_circle(box, pa, ball, pb);
    const impulse::Manifold<S, 2> m4 = impulse::collide_plane_polygon(floor, pa, box, pb, S(0.01));
    return mass.mass + mass.inertia + mass.centroid.sum() + S(m1.count + m2.count + m3.count + m4.count) +
           m1.n.sum() + hull.radius + S(cap.count);
}

template <class S>
S collide_3d() noexcept
{
    using V = impulse::Vec<S, 3>;
    impulse::Box<S> box;
    box.half_extents = V(S(1), S(0.5), S(0.25));
    impulse::Capsule<S> capsule;
    capsule.center1 = -V::UnitX();
    capsule.center2 = V::UnitX();
    capsule.radius = S(0.25);
    impulse::Sphere<S, 3> sphere;
    sphere.radius = S(0.5);
    const impulse::Plane<S, 3> plane;
    impulse::Pose<S, 3> pa, pb;
    pb.p = V(S(0.25), S(0.5), S(0.5));
    pb.q = Eigen::Quaternion<S>(Eigen::AngleAxis<S>(S(0.5), V::UnitZ()));
    S sum = impulse::volume(box) + impulse::volume(capsule);
    sum += impulse::principal_inertia(box, S(2)).sum() + impulse::principal_inertia(capsule, 2.0).sum();
    const impulse::Manifold<S, 3> ms[] = {
        impulse::collide_boxes(box, pa, box, pb),
        impulse::collide_box_sphere(box, pa, sphere, pb, 0.0),
        impulse::collide_box_capsule(box, pa, capsule, pb),
        impulse::collide_capsules(capsule, pa, capsule, pb, S(0.01)),
        impulse::collide_capsule_sphere(capsule, pa, sphere, pb),
        impulse::collide_plane_box(plane, pa, box, pb),
        impulse::collide_plane_capsule(plane, pa, capsule, pb),
    };
    for (const impulse::Manifold<S, 3>& m : ms)
        for (int i = 0; i < m.count; ++i) sum += m.points[i].separation + m.n.sum();
    return sum;
}

template <class S>
S tangent_2d() noexcept
{
    return impulse::tangent(impulse::Vec<S, 2>(S(0), S(1))).sum();
}

// detail/simd.hpp, the SIMD layer kernels share: every operation on wide type P (the batch
// kernel instantiates most of them; this covers the rest and any future kernel's).
template <class P>
impulse::detail::simd::Scalar<P> use_simd() noexcept
{
    namespace w = impulse::detail::simd;
    using S = w::Scalar<P>;
    S lanes[2 * w::lanes<P>] = {};
    const int index[w::lanes<P>] = {};
    const P a = w::load<P>(lanes), b = w::broadcast<P>(S(2)), z = w::zero<P>();
    P x = w::add(w::sub(a, b), w::mul(w::div(a, b), w::sqrt(b)));
    x = w::min(w::max(x, w::neg(w::abs(x))), z);
    const auto m = w::mask_andnot(w::mask_or(w::lt(a, b), w::le(a, b)), w::mask_and(w::eq(a, b), w::eq(b, b)));
    x = w::select(m, x, w::keep(m, w::gather<P>(lanes, index)));
    w::scatter(lanes, index, x);
    w::store(lanes + w::lanes<P>, x);
    unsigned char codes[w::lanes<P>];
    w::store_codes(codes, w::select(m, w::broadcast_code<P>(1), w::broadcast_code<P>(2)));
    const bool any_all = w::any(m) || w::all(m);
    return lanes[0] + S(w::movemask(m) + codes[0]) + (any_all ? S(1) : S(0));
}

template <class S>
S simd_layer() noexcept
{
    namespace w = impulse::detail::simd;
    using P = w::Wide<S>;
    return use_simd<S>() + use_simd<P>() + use_simd<w::Narrower<P>>() + use_simd<w::Narrower<w::Narrower<P>>>() +
           use_simd<w::Twin<P>>();
}

}  // namespace

// Referenced from outside the TU so nothing above is discarded before it is compiled.
double impulse_strict_warnings_check() noexcept
{
    return double(use_everything<float, 2>() + use_everything<float, 3>() + tangent_2d<float>() +
                  rigid_2d<float>() + rigid_3d<float>() + collide_2d<float>() + collide_3d<float>() +
                  simd_layer<float>()) +
           use_everything<double, 2>() + use_everything<double, 3>() + tangent_2d<double>() + rigid_2d<double>() +
           rigid_3d<double>() + collide_2d<double>() + collide_3d<double>() + simd_layer<double>();
}
