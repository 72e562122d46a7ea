// SPDX-License-Identifier: MIT
// The scenes' small world, what a game engine has around impulse:
//   - bodies stored the engine's way, one array per quantity (structure of arrays), which the
//     solver reads and writes in place through an impulse::BodyView of strided fields;
//   - shapes: balls (circles in 2D, spheres in 3D), convex polygons (2D: boxes, ramps), boxes and
//     capsules (3D) and walls (planes); static bodies (walls, static polygons and boxes) come before
//     the movable ones;
//   - a narrow phase: the collide_ functions (collide.hpp, collide2d.hpp, collide3d.hpp: their feature
//     ids let the solver warm-start each point) over a uniform grid of bounding circles (spheres), with
//     speculative points out to 2 cm plus what the pair can close within a step (so a fast body
//     stops at the surface it is about to hit instead of sinking into it);
//   - contact recycling (impulse/recycle.hpp): a pair that has moved less than a tolerance since its
//     manifold was made keeps that manifold, refreshed, instead of being collided again;
//   - impulse::Solver for the response (it integrates the poses too).
// Not part of the library: an engine has its own version of all of this.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <impulse/impulse.hpp>

#include "grid.hpp"

namespace scenes {

template <class S>
constexpr S pi = S(3.14159265358979323846);

/// Penetration over a set of contacts.
template <class S>
struct Overlap {
    S max{0};              ///< deepest overlap
    S mean{0};             ///< mean overlap of the overlapping points
    std::size_t count{0};  ///< overlapping points
};

/// Balls, polygons (2D), boxes and capsules (3D) and walls, stepped with impulse::Solver (see the top
/// of this file).
template <class S, int D>
class World {
public:
    using V = impulse::Vec<S, D>;
    using A = impulse::Angular<S, D>;
    using Q = impulse::Orientation_t<S, D>;
    using I = impulse::Vec<S, D == 2 ? 1 : 3>;  // inverse inertia: 2D 1/I, 3D principal 1/Ix, 1/Iy, 1/Iz
    using Contact = impulse::Manifold<S, D>;

    S dt = S(1) / S(60);
    impulse::Coefficients<S> coefficients;  // of every pair (one material everywhere)
    S rolling_resistance{0};                // of every pair, m (Manifold::rolling_resistance)
    /// Surfaces body by body: when set, a pair's coefficients are impulse::mix(material[a],
    /// material[b], coefficients.threshold) instead of `coefficients` (so a bouncy ball on a dead
    /// floor, or boxes of different friction on one ramp, can share a world).
    bool mix_materials{false};
    impulse::Solver<S, D> solver;
    V lo = V::Zero(), hi = V::Ones();  // the box the grid covers (balls outside it still collide)
    /// Speculative points: reported out to `speculative` plus, when `speculative_speed`, the distance
    /// the pair closes within a step at its current approach speed.
    S speculative = impulse::speculative_distance<S>;
    bool speculative_speed = true;
    /// Contact recycling (impulse/recycle.hpp): a pair that had a manifold last step and has moved
    /// less than `recycle_tolerance` since that manifold was made keeps it, refreshed at the current
    /// poses, instead of being collided again.
    /// On by default: the stacks of 20 boxes (2D) and cubes (3D) stand only with it, and no scene
    /// measures worse (docs/performance.md, "Quality of the scenes").
    bool recycle = true;
    impulse::RecycleTolerance<S> recycle_tolerance;  ///< 2 mm, 0.004 rad, normal and anchors kept in world axes

    // Bodies, the engine's way: one array per quantity, indexed by body. The walls come first
    // (static: inverse mass and inertia 0), then the balls.
    std::vector<V> x;              // centre of mass
    std::vector<Q> q;              // orientation
    std::vector<V> v;              // velocity
    std::vector<A> omega;          // angular velocity
    std::vector<S> inv_mass;       // 1/m
    std::vector<I> inv_inertia;    // 1/I
    std::vector<S> radius;         // balls: radius; polygons: the bounding circle's; walls: 0
    std::vector<S> inertia;        // moment of inertia (2D; 3D balls are isotropic; 3D boxes and capsules: 0, see inv_inertia)
    std::vector<int> polygon;      // index into polygons, or -1: a ball (or a wall)
    std::vector<impulse::Material<S>> material;  // surface (used when mix_materials)
    /// Surface velocity (world axes): how the body's surface moves relative to the body, a conveyor
    /// belt's. A pair's tangent velocity is the tangential part of surface[a] - surface[b].
    std::vector<V> surface;
    std::vector<int> box;          // 3D: index into boxes, or -1
    std::vector<int> capsule;      // 3D: index into capsules, or -1
    std::vector<impulse::Plane<S, D>> walls;
    std::vector<impulse::Polygon<S>> polygons;  // 2D shapes, in body coordinates
    std::vector<impulse::Box<S>> boxes;         // 3D boxes, centred on their bodies
    std::vector<impulse::Capsule<S>> capsules;  // 3D capsules, their segments centred on their bodies

    /// The solver's view of the arrays above.
    impulse::BodyView<S, D> view()
    {
        impulse::BodyView<S, D> b;
        b.count = x.size();
        if (b.count == 0) return b;
        b.position = {x[0].data(), std::ptrdiff_t(sizeof(V))};
        if constexpr (D == 2) b.rotation = {&q[0].c, std::ptrdiff_t(sizeof(Q))};
        else b.rotation = {q[0].coeffs().data(), std::ptrdiff_t(sizeof(Q))};
        b.velocity = {v[0].data(), std::ptrdiff_t(sizeof(V))};
        if constexpr (D == 2) b.angular_velocity = {&omega[0], std::ptrdiff_t(sizeof(A))};
        else b.angular_velocity = {omega[0].data(), std::ptrdiff_t(sizeof(A))};
        b.inv_mass = {&inv_mass[0], std::ptrdiff_t(sizeof(S))};
        b.inv_inertia = {inv_inertia[0].data(), std::ptrdiff_t(sizeof(I))};
        return b;
    }

    /// Adds a static wall (the plane normal.x = offset, solid behind it); walls come before every ball.
    std::uint32_t add_wall(const V& normal, S offset)
    {
        impulse::Plane<S, D> p;
        p.normal = normal;
        p.offset = offset;
        walls.push_back(p);
        return add_body(V::Zero(), S(0), I::Zero(), S(0), S(0));
    }

    /// Adds a static convex polygon (2D) placed at `pos`, turned by `angle`; static bodies come
    /// before every movable one.
    std::uint32_t add_static_polygon(const impulse::Polygon<S>& shape, const V& pos, S angle = S(0))
    {
        static_assert(D == 2, "polygons are 2D");
        const std::uint32_t i = add_body(pos, S(0), I::Zero(), bound(shape), S(0));
        q[i] = impulse::Rot2<S>::from_angle(angle);
        polygon[i] = int(polygons.size());
        polygons.push_back(shape);
        ++statics_;
        return i;
    }

    /// Adds a movable convex polygon (2D) of density rho, its centroid at `pos`, turned by `angle`.
    /// The shape is moved so that its centroid is the body's origin (its centre of mass).
    std::uint32_t add_polygon(impulse::Polygon<S> shape, const V& pos, S rho, S angle = S(0), const V& vel = V::Zero())
    {
        static_assert(D == 2, "polygons are 2D");
        const impulse::PolygonMass<S> mp = impulse::mass_properties(shape, rho);
        for (int k = 0; k < shape.count; ++k) shape.vertices[k] -= mp.centroid;
        shape.centroid.setZero();
        const std::uint32_t i = add_body(pos, S(1) / mp.mass, I::Constant(S(1) / mp.inertia), bound(shape), mp.inertia);
        q[i] = impulse::Rot2<S>::from_angle(angle);
        v[i] = vel;
        polygon[i] = int(polygons.size());
        polygons.push_back(shape);
        return i;
    }

    /// Adds a static box (3D) centred at `pos`, turned by `turn`; static bodies come before every
    /// movable one.
    std::uint32_t add_static_box(const impulse::Vec<S, 3>& half, const V& pos, const Q& turn = identity())
    {
        static_assert(D == 3, "boxes are 3D");
        const std::uint32_t i = add_body(pos, S(0), I::Zero(), half.norm(), S(0));
        q[i] = turn;
        box[i] = int(boxes.size());
        boxes.push_back(impulse::Box<S>{half});
        ++statics_;
        return i;
    }

    /// Adds a movable box (3D) of half extents `half` and density rho, centred at `pos`, turned by
    /// `turn`: mass rho 8 hx hy hz, the inverse inertia principal along the box's own axes.
    std::uint32_t add_box(const impulse::Vec<S, 3>& half, const V& pos, S rho, const Q& turn = identity(),
                          const V& vel = V::Zero())
    {
        static_assert(D == 3, "boxes are 3D");
        const impulse::Box<S> shape{half};
        const S m = rho * impulse::volume(shape);
        const std::uint32_t i =
            add_body(pos, S(1) / m, impulse::principal_inertia(shape, m).cwiseInverse(), half.norm(), S(0));
        q[i] = turn;
        v[i] = vel;
        box[i] = int(boxes.size());
        boxes.push_back(shape);
        return i;
    }

    /// Adds a movable capsule (3D): radius r around a segment of length `length` along the body's
    /// x axis, centred at `pos`, turned by `turn`, density rho.
    std::uint32_t add_capsule(S length, S r, const V& pos, S rho, const Q& turn = identity(), const V& vel = V::Zero())
    {
        static_assert(D == 3, "capsules are 3D");
        impulse::Capsule<S> shape;
        shape.center1 = impulse::Vec<S, 3>(-length / S(2), S(0), S(0));
        shape.center2 = impulse::Vec<S, 3>(length / S(2), S(0), S(0));
        shape.radius = r;
        const S m = rho * impulse::volume(shape);
        const std::uint32_t i =
            add_body(pos, S(1) / m, impulse::principal_inertia(shape, m).cwiseInverse(), length / S(2) + r, S(0));
        q[i] = turn;
        v[i] = vel;
        capsule[i] = int(capsules.size());
        capsules.push_back(shape);
        return i;
    }

    /// Adds a ball of radius r and density rho (mass per area in 2D, per volume in 3D).
    std::uint32_t add_ball(const V& pos, S r, S rho, const V& vel = V::Zero())
    {
        S m, moment;
        if constexpr (D == 2) {
            m = rho * pi<S> * r * r;
            moment = impulse::inertia_disk(m, r);  // m r^2 / 2
        } else {
            m = rho * S(4) / S(3) * pi<S> * r * r * r;
            moment = impulse::inertia_solid_sphere(m, r).x();  // 2/5 m r^2
        }
        const std::uint32_t i = add_body(pos, S(1) / m, I::Constant(S(1) / moment), r, moment);
        v[i] = vel;
        return i;
    }

    /// The first movable body: walls and static polygons come before it.
    std::uint32_t first_ball() const { return std::uint32_t(walls.size() + statics_); }
    /// Movable bodies.
    std::size_t ball_count() const { return x.size() - first_ball(); }
    std::size_t body_count() const { return x.size(); }
    const std::vector<Contact>& contacts() const { return contacts_; }
    /// Manifolds of the last find_contacts() that were recycled rather than collided.
    std::size_t recycled() const { return recycled_; }

    /// Reserves room for `balls` balls (and their contacts), so a scene does not reallocate.
    void reserve(std::size_t balls)
    {
        const std::size_t n = walls.size() + balls;
        for (auto* a : {&x, &v}) a->reserve(n);
        q.reserve(n);
        omega.reserve(n);
        polygon.reserve(n);
        material.reserve(n);
        surface.reserve(n);
        box.reserve(n);
        capsule.reserve(n);
        inv_mass.reserve(n);
        inv_inertia.reserve(n);
        radius.reserve(n);
        inertia.reserve(n);
        contacts_.reserve(4 * n);
        kept_.reserve(4 * n);
        kept_last_.reserve(4 * n);
    }

    /// One step: contacts at the current poses, then the solver (gravity, contacts, poses).
    void step()
    {
        find_contacts();
        solver.step(view(), contacts_.data(), contacts_.size(), dt);
    }

    /// Every pair within reach at the current positions: wall contacts first (wall by wall, bodies in
    /// index order), then static polygons against movable bodies, then pairs of movable bodies sorted
    /// by (i, j). The order is the same from step to step, so the solver's warm start finds last
    /// step's impulses in one forward sweep, and a pair's kept manifold (when `recycle`) is found the
    /// same way. A kept pair within the tolerance is reported refreshed instead of collided; its place
    /// in the order does not change.
    void find_contacts()
    {
        contacts_.clear();
        // Last step's kept manifolds, sorted by pair as the pairs come below: looked up in one sweep.
        kept_last_.swap(kept_);
        kept_.clear();
        if (!recycle) kept_last_.clear();
        cursor_ = 0;
        recycled_ = 0;
        const std::size_t n = x.size();
        const std::uint32_t first = first_ball();
        S rmax = S(0), vmax = S(0);
        for (std::size_t i = first; i < n; ++i) {
            rmax = std::max(rmax, radius[i]);
            vmax = std::max(vmax, v[i].norm());
        }
        const impulse::Pose<S, D> origin;
        for (std::uint32_t w = 0; w < walls.size(); ++w) {
            for (std::size_t i = first; i < n; ++i) {
                const S approach = std::max(S(0), -v[i].dot(walls[w].normal));
                const S reach_i = reach(approach);
                if (walls[w].normal.dot(x[i]) - walls[w].offset > radius[i] + reach_i) continue;
                if (reuse(w, std::uint32_t(i))) continue;
                if constexpr (D == 2) {
                    if (polygon[i] >= 0) {
                        push(w, std::uint32_t(i),
                             impulse::collide_plane_polygon(walls[w], origin, polygons[std::size_t(polygon[i])], pose(i),
                                                            reach_i));
                        continue;
                    }
                } else {
                    if (box[i] >= 0) {
                        push(w, std::uint32_t(i),
                             impulse::collide_plane_box(walls[w], origin, boxes[std::size_t(box[i])], pose(i), reach_i));
                        continue;
                    }
                    if (capsule[i] >= 0) {
                        push(w, std::uint32_t(i),
                             impulse::collide_plane_capsule(walls[w], origin, capsules[std::size_t(capsule[i])], pose(i),
                                                            reach_i));
                        continue;
                    }
                }
                push(w, std::uint32_t(i), impulse::collide_plane_sphere(walls[w], origin, ball(i), pose(i), reach_i));
            }
        }
        for (std::uint32_t s_ = std::uint32_t(walls.size()); s_ < first; ++s_)
            for (std::size_t i = first; i < n; ++i) pair(s_, std::uint32_t(i));
        if (!(rmax > S(0))) return;
        // Cells of the largest bounding diameter plus the farthest speculative reach: every pair
        // within reach is in the same or neighbouring cells.
        grid_.build(x.data() + first, n - first, lo, hi, S(2) * rmax + reach(S(2) * vmax));
        for (std::size_t i = 0; i < n - first; ++i) {
            const std::size_t a = first + i;
            grid_.near(i, x.data() + first, [&](std::size_t j) { pair(std::uint32_t(a), std::uint32_t(first + j)); });
        }
    }

    /// Overlap of the contacts found last (call find_contacts() first to measure the present).
    Overlap<S> overlap() const
    {
        Overlap<S> o;
        S sum = S(0);
        for (const Contact& c : contacts_) {
            for (int k = 0; k < c.count; ++k) {
                const S p = -c.points[k].separation;
                if (!(p > S(0))) continue;
                o.max = std::max(o.max, p);
                sum += p;
                ++o.count;
            }
        }
        o.mean = o.count ? sum / S(o.count) : S(0);
        return o;
    }

    S kinetic_energy() const
    {
        // KE = sum 1/2 m v^2 + 1/2 I w^2 (spheres: I w.w)
        S e = S(0);
        for (std::size_t i = first_ball(); i < x.size(); ++i) {
            e += v[i].squaredNorm() / (S(2) * inv_mass[i]);
            if constexpr (D == 2) {
                e += inertia[i] * omega[i] * omega[i] / S(2);
            } else if (box[i] >= 0 || capsule[i] >= 0) {
                const V w = q[i].conjugate() * omega[i];  // body axes: 1/2 sum I_k w_k^2
                e += w.cwiseProduct(w).cwiseQuotient(inv_inertia[i]).sum() / S(2);
            } else {
                e += inertia[i] * omega[i].squaredNorm() / S(2);
            }
        }
        return e;
    }

    S potential_energy() const
    {
        // PE = sum -m g.x (zero at the origin)
        S e = S(0);
        for (std::size_t i = first_ball(); i < x.size(); ++i) e -= solver.settings.gravity.dot(x[i]) / inv_mass[i];
        return e;
    }

    S total_mass() const
    {
        S m = S(0);
        for (std::size_t i = first_ball(); i < x.size(); ++i) m += S(1) / inv_mass[i];
        return m;
    }

    /// Root-mean-square speed of the balls' centres.
    S rms_speed() const
    {
        S s = S(0);
        for (std::size_t i = first_ball(); i < x.size(); ++i) s += v[i].squaredNorm();
        return ball_count() ? std::sqrt(s / S(ball_count())) : S(0);
    }

    /// The fastest ball's speed.
    S max_speed() const
    {
        S s = S(0);
        for (std::size_t i = first_ball(); i < x.size(); ++i) s = std::max(s, v[i].norm());
        return s;
    }

    /// Balls whose centre has gone through a wall (is behind its plane).
    std::size_t escaped() const
    {
        std::size_t out = 0;
        for (std::size_t i = first_ball(); i < x.size(); ++i) {
            for (const impulse::Plane<S, D>& w : walls) {
                if (!(w.normal.dot(x[i]) >= w.offset)) {
                    ++out;
                    break;
                }
            }
        }
        return out;
    }

    /// True when every position and velocity is a finite number.
    bool finite() const
    {
        for (std::size_t i = 0; i < x.size(); ++i) {
            if (!x[i].allFinite() || !v[i].allFinite()) return false;
            if constexpr (D == 2) {
                if (!std::isfinite(omega[i])) return false;
            } else {
                if (!omega[i].allFinite()) return false;
            }
        }
        return true;
    }

    /// The angle of body i (2D), for the pictures.
    S angle(std::size_t i) const
    {
        if constexpr (D == 2) return q[i].angle();
        else return S(0);
    }

private:
    std::uint32_t add_body(const V& pos, S im, const I& ii, S r, S moment)
    {
        polygon.push_back(-1);
        material.push_back(impulse::Material<S>{});
        surface.push_back(V::Zero());
        box.push_back(-1);
        capsule.push_back(-1);
        x.push_back(pos);
        q.push_back(identity());
        v.push_back(V::Zero());
        omega.push_back(impulse::Rotation<S, D>::zero_angular());
        inv_mass.push_back(im);
        inv_inertia.push_back(ii);
        radius.push_back(r);
        inertia.push_back(moment);
        return std::uint32_t(x.size() - 1);
    }

public:
    /// The identity orientation.
    static Q identity()
    {
        if constexpr (D == 2) return impulse::Rot2<S>();
        else return Q::Identity();
    }

private:
    impulse::Sphere<S, D> ball(std::size_t i) const
    {
        impulse::Sphere<S, D> b;
        b.radius = radius[i];
        return b;
    }

public:
    /// Where body i is.
    impulse::Pose<S, D> pose(std::size_t i) const
    {
        impulse::Pose<S, D> p;
        p.p = x[i];
        p.q = q[i];
        return p;
    }

private:
    S reach(S approach) const { return speculative + (speculative_speed ? approach * dt : S(0)); }

    /// The radius of the circle about the body's origin that holds the shape.
    static S bound(const impulse::Polygon<S>& shape)
    {
        S r = S(0);
        for (int k = 0; k < shape.count; ++k) r = std::max(r, shape.vertices[k].norm());
        return r + shape.radius;
    }

    /// The contact of bodies a < b (a may be static), if their bounding circles are within reach.
    void pair(std::uint32_t a, std::uint32_t b)
    {
        const V d = x[b] - x[a];
        const S dist = d.norm();
        const S approach = dist > S(0) ? std::max(S(0), -(v[b] - v[a]).dot(d) / dist) : S(0);
        const S r = reach(approach);
        if (dist > radius[a] + radius[b] + r) return;
        if (reuse(a, b)) return;
        if constexpr (D == 2) {
            const int pa = polygon[a], pb = polygon[b];
            if (pa >= 0 && pb >= 0) {
                push(a, b, impulse::collide_polygons(polygons[std::size_t(pa)], pose(a), polygons[std::size_t(pb)], pose(b), r));
                return;
            }
            if (pa >= 0) {
                push(a, b, impulse::collide_polygon_circle(polygons[std::size_t(pa)], pose(a), ball(b), pose(b), r));
                return;
            }
            if (pb >= 0) {
                push(a, b, impulse::flipped(impulse::collide_polygon_circle(polygons[std::size_t(pb)], pose(b), ball(a), pose(a), r)));
                return;
            }
        } else {
            if (box[a] >= 0 || box[b] >= 0 || capsule[a] >= 0 || capsule[b] >= 0) {
                pair3(a, b, r);
                return;
            }
        }
        push(a, b, impulse::collide_spheres(ball(a), pose(a), ball(b), pose(b), r));
    }

    /// 3D: a pair with a box or a capsule in it. collide3d.hpp takes A before B in the order box <
    /// capsule < sphere; a pair in the other order is collided the other way round and flipped.
    void pair3(std::uint32_t a, std::uint32_t b, S r)
    {
        auto rank = [&](std::uint32_t i) { return box[i] >= 0 ? 0 : capsule[i] >= 0 ? 1 : 2; };
        const bool swap = rank(b) < rank(a);
        const std::uint32_t i = swap ? b : a, j = swap ? a : b;
        impulse::Manifold<S, D> m;
        const impulse::Pose<S, D> pi_ = pose(i), pj = pose(j);
        if (box[i] >= 0) {
            const impulse::Box<S>& bi = boxes[std::size_t(box[i])];
            if (box[j] >= 0) m = impulse::collide_boxes(bi, pi_, boxes[std::size_t(box[j])], pj, r);
            else if (capsule[j] >= 0) m = impulse::collide_box_capsule(bi, pi_, capsules[std::size_t(capsule[j])], pj, r);
            else m = impulse::collide_box_sphere(bi, pi_, ball(j), pj, r);
        } else {
            const impulse::Capsule<S>& ci = capsules[std::size_t(capsule[i])];
            if (capsule[j] >= 0) m = impulse::collide_capsules(ci, pi_, capsules[std::size_t(capsule[j])], pj, r);
            else m = impulse::collide_capsule_sphere(ci, pi_, ball(j), pj, r);
        }
        push(a, b, swap ? impulse::flipped(m) : m);
    }

    /// The key of the pair a < b: sorted as find_contacts() visits the pairs.
    static std::uint64_t pair_key(std::uint32_t a, std::uint32_t b) { return (std::uint64_t(a) << 32) | b; }

    /// Recycling: if the pair a < b kept a manifold last step and has moved less than the tolerance
    /// since it was made, reports it refreshed at the current poses, keeps it again and returns true.
    bool reuse(std::uint32_t a, std::uint32_t b)
    {
        if (!recycle) return false;
        const std::uint64_t key = pair_key(a, b);
        while (cursor_ < kept_last_.size() && kept_last_[cursor_].key < key) ++cursor_;
        if (cursor_ == kept_last_.size() || kept_last_[cursor_].key != key) return false;
        const Kept& k = kept_last_[cursor_];
        Contact m;
        if (!impulse::recycle(k.manifold, pose(a), pose(b), m, recycle_tolerance)) return false;
        kept_.push_back(k);
        ++recycled_;
        emit(a, b, m);
        return true;
    }

    /// A manifold just collided: kept for recycling (when on) and reported.
    void push(std::uint32_t a, std::uint32_t b, impulse::Manifold<S, D> m)
    {
        if (m.count == 0) return;
        if (recycle) kept_.push_back(Kept{pair_key(a, b), impulse::keep(m, pose(a), pose(b))});
        emit(a, b, m);
    }

    void emit(std::uint32_t a, std::uint32_t b, impulse::Manifold<S, D> m)
    {
        m.a = a;
        m.b = b;
        m.coefficients = mix_materials ? impulse::mix(material[a], material[b], coefficients.threshold) : coefficients;
        m.rolling_resistance = rolling_resistance;
        const V u = surface[a] - surface[b];  // B is carried along at A's surface speed
        m.tangent_velocity = u - m.n * m.n.dot(u);
        contacts_.push_back(m);
    }

    struct Kept {
        std::uint64_t key;                      // pair_key(a, b)
        impulse::KeptManifold<S, D> manifold;  // as collided, with the poses it was made at
    };

    Grid<S, D> grid_;
    std::vector<Contact> contacts_;
    std::vector<Kept> kept_, kept_last_;  // this step's kept manifolds, last step's
    std::size_t cursor_{0};               // into kept_last_
    std::size_t recycled_{0};
    std::uint32_t statics_{0};  // static polygons (after the walls)
};

}  // namespace scenes
