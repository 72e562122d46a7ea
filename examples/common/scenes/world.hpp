// SPDX-License-Identifier: MIT
// The scenes' small world: balls (circles in 2D, spheres in 3D) between walls (planes), with
//   - contacts from impulse::collide_spheres / impulse::collide_sphere_plane over a uniform grid,
//   - impulse::Solver for the response,
//   - symplectic Euler: v += g dt before the solve, x += dt * (solved velocity + split-impulse
//     pseudo velocity) after it.
// Every wall is a static body of its own (inverse mass and inertia 0), so a wall contact is an
// ordinary contact between two bodies. Each ball pair touches at one point, feature 0.
// Not part of the library: a game engine has its own version of all of this.
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

/// A plane wall: the points with normal.x = offset; solid on the side opposite `normal`.
template <class S, int D>
struct Wall {
    impulse::Vec<S, D> normal;
    S offset;
};

/// Penetration over a set of contacts.
template <class S>
struct Overlap {
    S max{0};            ///< deepest overlap
    S mean{0};           ///< mean overlap of the touching pairs
    std::size_t count{0};  ///< touching pairs (one point each)
};

/// Balls and walls, stepped with impulse::Solver (see the top of this file).
template <class S, int D>
class World {
public:
    using V = impulse::Vec<S, D>;
    using Body = impulse::RigidBody<S, D>;
    using Contact = impulse::Manifold<S, D>;

    V gravity = V::Zero();
    S dt = S(1) / S(60);
    impulse::Coefficients<S> coefficients;     // of every pair (one material everywhere)
    impulse::Solver<S, D> solver;
    V lo = V::Zero(), hi = V::Ones();  // the box the grid covers (balls outside it still collide)

    // Bodies: the walls first (static), then the balls. x, radius, angle and inertia are indexed
    // like bodies (walls: position 0, radius 0).
    std::vector<Body> bodies;
    std::vector<V> x;
    std::vector<S> radius;
    std::vector<S> angle;    // 2D orientation, for the pictures (3D: unused)
    std::vector<S> inertia;  // moment of inertia (balls are isotropic in 3D)
    std::vector<Wall<S, D>> walls;

    /// Adds a static wall; walls come before every ball.
    std::uint32_t add_wall(const V& normal, S offset)
    {
        walls.push_back({normal, offset});
        return add_body(Body(), V::Zero(), S(0), S(0));
    }

    /// Adds a ball of radius r and density rho (mass per area in 2D, per volume in 3D).
    std::uint32_t add_ball(const V& pos, S r, S rho, const V& vel = V::Zero())
    {
        Body b;
        S m, I;
        if constexpr (D == 2) {
            m = rho * pi<S> * r * r;
            I = impulse::inertia_disk(m, r);  // m r^2 / 2
            b.inv_inertia = S(1) / I;
        } else {
            m = rho * S(4) / S(3) * pi<S> * r * r * r;
            const V moments = impulse::inertia_solid_sphere(m, r);  // 2/5 m r^2
            I = moments.x();
            b.inv_inertia = impulse::world_inverse_inertia<S>(moments, Eigen::Matrix<S, 3, 3>::Identity());
        }
        b.inv_mass = S(1) / m;
        b.v = vel;
        return add_body(b, pos, r, I);
    }

    std::uint32_t first_ball() const { return std::uint32_t(walls.size()); }
    std::size_t ball_count() const { return bodies.size() - walls.size(); }
    const std::vector<Contact>& contacts() const { return contacts_; }

    /// Reserves room for `balls` balls (and their contacts), so a scene does not reallocate.
    void reserve(std::size_t balls)
    {
        const std::size_t n = walls.size() + balls;
        bodies.reserve(n);
        x.reserve(n);
        radius.reserve(n);
        angle.reserve(n);
        inertia.reserve(n);
        contacts_.reserve(4 * n);
    }

    /// One step: gravity, contacts, the solver, positions.
    void step()
    {
        step([](impulse::Solver<S, D>& s) {
            for (int i = 0; i < s.settings.velocity_iterations; ++i) s.solve_velocities();
        });
    }

    /// One step with the velocity iterations done by `iterate(solver)` (the benchmark times them).
    template <class Iterate>
    void step(Iterate&& iterate)
    {
        const std::size_t n = bodies.size();
        for (std::size_t i = first_ball(); i < n; ++i) bodies[i].v += gravity * dt;
        find_contacts();
        solver.prepare(bodies.data(), n, contacts_.data(), contacts_.size(), dt);
        iterate(solver);
        solver.finish();
        for (std::size_t i = first_ball(); i < n; ++i) {
            x[i] += dt * solver.position_velocity(bodies.data(), i);
            if constexpr (D == 2) angle[i] += dt * solver.position_angular_velocity(bodies.data(), i);
        }
    }

    /// Every touching pair at the current positions: wall contacts first (wall by wall, balls in
    /// index order), then ball pairs sorted by (i, j). The order is the same from step to step, so
    /// the solver's warm start finds last step's impulses in one forward sweep.
    void find_contacts()
    {
        contacts_.clear();
        const std::size_t n = bodies.size();
        const std::uint32_t first = first_ball();
        for (std::uint32_t w = 0; w < first; ++w) {
            for (std::size_t i = first; i < n; ++i) {
                const auto c = impulse::collide_sphere_plane(x[i], radius[i], walls[w].normal, walls[w].offset);
                if (c) push(w, std::uint32_t(i), *c, c->point);  // the wall's "centre" is the origin
            }
        }
        S rmax = S(0);
        for (std::size_t i = first; i < n; ++i) rmax = std::max(rmax, radius[i]);
        if (!(rmax > S(0))) return;
        grid_.build(x.data() + first, n - first, lo, hi, S(2) * rmax);
        for (std::size_t i = 0; i < n - first; ++i) {
            const std::size_t a = first + i;
            grid_.near(i, x.data() + first, [&](std::size_t j) {
                const std::size_t b = first + j;
                const auto c = impulse::collide_spheres(x[a], radius[a], x[b], radius[b]);
                if (c) push(std::uint32_t(a), std::uint32_t(b), *c, V(c->point - x[a]));
            });
        }
    }

    /// Overlap of the contacts found last (call find_contacts() first to measure the present).
    Overlap<S> overlap() const
    {
        Overlap<S> o;
        S sum = S(0);
        for (const Contact& c : contacts_) {
            const S p = -c.points[0].separation;
            if (!(p > S(0))) continue;
            o.max = std::max(o.max, p);
            sum += p;
            ++o.count;
        }
        o.mean = o.count ? sum / S(o.count) : S(0);
        return o;
    }

    S kinetic_energy() const
    {
        // KE = sum 1/2 m v^2 + 1/2 I w^2 (spheres: I w.w)
        S e = S(0);
        for (std::size_t i = first_ball(); i < bodies.size(); ++i) {
            const Body& b = bodies[i];
            e += b.v.squaredNorm() / (S(2) * b.inv_mass);
            if constexpr (D == 2) e += inertia[i] * b.omega * b.omega / S(2);
            else e += inertia[i] * b.omega.squaredNorm() / S(2);
        }
        return e;
    }

    S potential_energy() const
    {
        // PE = sum -m g.x (zero at the origin)
        S e = S(0);
        for (std::size_t i = first_ball(); i < bodies.size(); ++i) e -= gravity.dot(x[i]) / bodies[i].inv_mass;
        return e;
    }

    S total_mass() const
    {
        S m = S(0);
        for (std::size_t i = first_ball(); i < bodies.size(); ++i) m += S(1) / bodies[i].inv_mass;
        return m;
    }

    /// Root-mean-square speed of the balls' centres.
    S rms_speed() const
    {
        S s = S(0);
        for (std::size_t i = first_ball(); i < bodies.size(); ++i) s += bodies[i].v.squaredNorm();
        return ball_count() ? std::sqrt(s / S(ball_count())) : S(0);
    }

    /// Balls whose centre has gone through a wall (is behind its plane).
    std::size_t escaped() const
    {
        std::size_t out = 0;
        for (std::size_t i = first_ball(); i < bodies.size(); ++i) {
            for (const Wall<S, D>& w : walls) {
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
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            if (!x[i].allFinite() || !bodies[i].v.allFinite()) return false;
            if constexpr (D == 2) {
                if (!std::isfinite(bodies[i].omega)) return false;
            } else {
                if (!bodies[i].omega.allFinite()) return false;
            }
        }
        return true;
    }

private:
    std::uint32_t add_body(const Body& b, const V& pos, S r, S I)
    {
        bodies.push_back(b);
        x.push_back(pos);
        radius.push_back(r);
        angle.push_back(S(0));
        inertia.push_back(I);
        return std::uint32_t(bodies.size() - 1);
    }

    void push(std::uint32_t a, std::uint32_t b, const impulse::ContactPoint<S, D>& c, const V& rA)
    {
        Contact m;
        m.a = a;
        m.b = b;
        m.n = c.n;
        m.coefficients = coefficients;
        m.count = 1;
        m.points[0].rA = rA;
        m.points[0].rB = c.point - x[b];
        m.points[0].separation = -c.penetration;
        m.points[0].feature = 0;  // one point per pair
        contacts_.push_back(m);
    }

    Grid<S, D> grid_;
    std::vector<Contact> contacts_;
};

}  // namespace scenes
