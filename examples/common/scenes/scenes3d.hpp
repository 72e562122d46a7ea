// SPDX-License-Identifier: MIT
// The 3D scenes of boxes and capsules, shared by the example programs (which draw them) and the
// scene tests (which check their physics, some at a smaller size):
//   - a vertical stack of unit cubes on the floor
//   - a pyramid of unit cubes, square layers each on the one below (base n x n: n(n+1)(2n+1)/6 cubes)
//   - a heavy cube (100 times denser) resting on four small ones
//   - dominoes: a row of thin boxes, the first pushed over
//   - a capsule rolling down a ramp onto the flat, stopped by rolling resistance
//   - the T-handle: a free body spun about its intermediate axis (the gyroscopic term)
// Every scene runs at 60 Hz with the solver's default settings; its criteria are in tests/scenes/.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <impulse/impulse.hpp>

#include "world.hpp"

namespace scenes {

/// The angle (radians) between body i's y axis and the world's: 0 for a box standing level.
template <class S>
S tilt(const World<S, 3>& w, std::size_t i)
{
    const impulse::Vec<S, 3> up = w.q[i] * impulse::Vec<S, 3>::UnitY();
    return std::acos(std::clamp(up.y(), S(-1), S(1)));
}

/// The material of the box scenes: friction mu, no bounce (e = 0; threshold 1 m/s as Box2D's).
template <class S>
void box_material(World<S, 3>& w, S mu)
{
    w.coefficients = impulse::Coefficients<S>{};
    w.coefficients.friction = mu;
    w.coefficients.threshold = S(1);
    w.solver.settings.gravity = impulse::Vec<S, 3>(S(0), S(-9.81), S(0));
}

// ---------------------------------------------------------------------------------------------
// The stack

/// `count` unit cubes (side 1 m, density 1) in a column on the floor y = 0, each exactly touching
/// the one below (centres at y = 0.5 + k), friction 0.6.
template <class S>
void build_cube_stack(World<S, 3>& w, int count, S mu = S(0.6))
{
    using V = impulse::Vec<S, 3>;
    box_material(w, mu);
    w.add_wall(V::UnitY(), S(0));
    w.lo = V(-2, 0, -2);
    w.hi = V(2, S(count) + 1, 2);
    w.reserve(std::size_t(count));
    for (int k = 0; k < count; ++k) w.add_box(V::Constant(S(0.5)), V(0, S(0.5) + S(k), 0), S(1));
}

// ---------------------------------------------------------------------------------------------
// The pyramid

/// Cubes needed for a pyramid of base n: n^2 + (n-1)^2 + ... + 1 = n(n+1)(2n+1)/6 (385 for 10).
inline int pyramid_cubes(int base) { return base * (base + 1) * (2 * base + 1) / 6; }

/// A pyramid of unit cubes (density 1) on the floor y = 0: layer k (k = 0 at the bottom) is a square
/// of (base - k)^2 cubes, shifted by half a cube in x and z from the layer below, so each cube rests
/// on the four beneath it (a quarter of each one's top face), every layer exactly touching the one
/// below. Friction mu (0.6), e = 0.
template <class S>
void build_cube_pyramid(World<S, 3>& w, int base, S mu = S(0.6))
{
    using V = impulse::Vec<S, 3>;
    box_material(w, mu);
    w.add_wall(V::UnitY(), S(0));
    const S half = S(base) / S(2);
    w.lo = V(-half - 1, 0, -half - 1);
    w.hi = V(half + 1, S(base) + 1, half + 1);
    w.reserve(std::size_t(pyramid_cubes(base)));
    for (int k = 0; k < base; ++k) {
        const int n = base - k;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                const S x = -S(n) / S(2) + S(0.5) + S(i), z = -S(n) / S(2) + S(0.5) + S(j);
                w.add_box(V::Constant(S(0.5)), V(x, S(0.5) + S(k), z), S(1));
            }
    }
}

/// Box3D's `large_pyramid`: Box2D's benchmark pyramid built of unit cubes (density 1) in one plane
/// (z = 0), `base` cubes on the bottom row in the brick pattern, each row on the one below exactly
/// touching, on the floor y = 0 (a plane here, where Box3D has a static box). base 100: 5050 cubes.
template <class S>
void build_cube_wall(World<S, 3>& w, int base, S mu = S(0.6))
{
    using V = impulse::Vec<S, 3>;
    box_material(w, mu);
    w.add_wall(V::UnitY(), S(0));
    const S a = S(0.5), half_width = a * S(base);
    w.lo = V(-half_width - 1, 0, -1);
    w.hi = V(half_width + 1, S(base) + 1, 1);
    w.reserve(std::size_t(base * (base + 1) / 2));
    for (int i = 0; i < base; ++i)
        for (int j = i; j < base; ++j) {
            const S x = (S(i) + S(1)) * a + S(2) * S(j - i) * a - half_width;
            w.add_box(V::Constant(a), V(x, (S(2) * S(i) + S(1)) * a, 0), S(1));
        }
}

/// A pit of `count` unit cubes (density 1, friction 0.6, e = 0): the floor y = 0 and four walls
/// (planes) round a `width` x `width` square, the cubes placed on a lattice of 1.25 m from 1 m above
/// the floor up, each turned by a random angle (up to 0.3 rad about a random axis), and let fall.
template <class S>
void build_cube_pit(World<S, 3>& w, int count, S width, unsigned seed = 1)
{
    using V = impulse::Vec<S, 3>;
    box_material(w, S(0.6));
    w.add_wall(V::UnitY(), S(0));
    w.add_wall(V::UnitX(), S(0));
    w.add_wall(-V::UnitX(), -width);
    w.add_wall(V::UnitZ(), S(0));
    w.add_wall(-V::UnitZ(), -width);
    const S spacing = S(1.25);
    const int across = int(std::floor(width / spacing));
    const S margin = (width - S(across - 1) * spacing) / S(2);
    const int layers = (count + across * across - 1) / (across * across);
    w.lo = V::Zero();
    w.hi = V(width, S(1) + S(layers) * spacing + S(1), width);
    w.reserve(std::size_t(count));
    std::mt19937 gen(seed);
    std::uniform_real_distribution<S> unit(S(-1), S(1)), angle(S(0), S(0.3));
    for (int k = 0; k < count; ++k) {
        const int layer = k / (across * across), in = k % (across * across);
        const V at(margin + S(in % across) * spacing, S(1) + S(layer) * spacing, margin + S(in / across) * spacing);
        // One draw per statement: the order in which a call's arguments are evaluated is unspecified
        // (GCC and Clang differ), and the scene must be the same whichever compiler builds it.
        V axis;
        for (int i = 0; i < 3; ++i) axis[i] = unit(gen);
        if (!(axis.norm() > S(0.1))) axis = V::UnitX();
        w.add_box(V::Constant(S(0.5)), at, S(1), Eigen::Quaternion<S>(Eigen::AngleAxis<S>(angle(gen), axis.normalized())));
    }
}

// ---------------------------------------------------------------------------------------------
// The mass ratio

/// Four cubes of side `small` (density 1) on the floor, in a square with their inner corners meeting
/// under the centre, and on them, centred, a cube of side `big` and density `ratio` (100): the 3D
/// form of Box2D's high-mass-ratio tests. small = big = 1 m: a heavy cube on the top of a pyramid of
/// base 2, resting on a quarter of each cube below (100 kg on 1 kg each). small = 0.5 m, big = 2 m:
/// the heavy cube covers the four (800 kg on 0.125 kg each, 6400 to 1). Friction 0.6. Returns the
/// heavy cube.
template <class S>
std::uint32_t build_mass_ratio(World<S, 3>& w, S small = S(1), S big = S(1), S ratio = S(100), S mu = S(0.6))
{
    using V = impulse::Vec<S, 3>;
    box_material(w, mu);
    w.add_wall(V::UnitY(), S(0));
    const S s = small / S(2), c = big / S(2) - s;  // half side; centres at +-c: the big cube's edges over their outer faces
    const S at = std::max(c, s);                    // (small cubes never closer than touching)
    w.lo = V(-at - small, 0, -at - small);
    w.hi = V(at + small, small + big + 1, at + small);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) w.add_box(V::Constant(s), V(i ? at : -at, s, j ? at : -at), S(1));
    return w.add_box(V::Constant(big / S(2)), V(0, small + big / S(2), 0), ratio);
}

// ---------------------------------------------------------------------------------------------
// Dominoes

/// Domino sizes: 0.1 m thick (x), 1 m tall (y), 0.5 m wide (z), 0.5 m apart (centre to centre), density 1.
template <class S>
struct DominoSpec {
    int count{30};
    S thick{S(0.1)}, tall{S(1)}, wide{S(0.5)};
    S spacing{S(0.5)};
    S friction{S(0.6)};
    S push{S(1)};  ///< the first domino's initial angular speed, rad/s, tipping it towards +x
};

/// A row of dominoes standing on the floor along x, the first tipped towards the others: it turns
/// at `push` rad/s about its bottom edge on the +x side (v = omega x r, r from that edge to the centre).
template <class S>
void build_dominoes(World<S, 3>& w, const DominoSpec<S>& d)
{
    using V = impulse::Vec<S, 3>;
    box_material(w, d.friction);
    w.add_wall(V::UnitY(), S(0));
    w.lo = V(-1, 0, -1);
    w.hi = V(S(d.count) * d.spacing + 1, d.tall + 1, 1);
    w.reserve(std::size_t(d.count));
    const V half(d.thick / 2, d.tall / 2, d.wide / 2);
    for (int k = 0; k < d.count; ++k) w.add_box(half, V(S(k) * d.spacing, d.tall / 2, 0), S(1));
    const std::uint32_t first = w.first_ball();
    const V omega(0, 0, -d.push);                       // about -z: the top moves towards +x
    const V r(-d.thick / 2, d.tall / 2, 0);             // from the pivot edge to the centre
    w.omega[first] = omega;
    w.v[first] = omega.cross(r);
}

/// The time a domino first leans past `angle`: when it has toppled. -1 while it has not.
template <class S>
struct Topple {
    std::vector<S> when;  ///< per domino, seconds (-1: not yet)
    void watch(const World<S, 3>& w, S t, S angle)
    {
        const std::size_t n = w.ball_count();
        if (when.size() != n) when.assign(n, S(-1));
        for (std::size_t k = 0; k < n; ++k)
            if (when[k] < S(0) && tilt(w, w.first_ball() + k) > angle) when[k] = t;
    }
};

// ---------------------------------------------------------------------------------------------
// The capsule on a ramp

/// A ramp and a floor as two planes: the floor y = 0 and the slope y = -x tan(a) (rising to the
/// left), meeting at x = 0. A capsule (radius r, segment `length` along z, density 1) lies on the
/// slope across it, at rest, its lowest point `height` above the floor; it rolls down and on along
/// the floor, where rolling resistance (`rolling` metres: the normal force's lever arm) stops it.
template <class S>
struct RampSpec {
    S slope{S(0.2)};       ///< radians (11.5 degrees)
    S height{S(1)};        ///< m, of the capsule's lowest point above the floor at the start
    S radius{S(0.25)}, length{S(1)};
    S friction{S(0.6)};
    S rolling{S(0.005)};   ///< m: a rolling-resistance coefficient c/r = 0.02 (a tyre on concrete)
};

/// Builds the ramp scene; returns the capsule's body index.
template <class S>
std::uint32_t build_ramp(World<S, 3>& w, const RampSpec<S>& p)
{
    using V = impulse::Vec<S, 3>;
    box_material(w, p.friction);
    w.rolling_resistance = p.rolling;
    w.add_wall(V::UnitY(), S(0));
    w.add_wall(V(std::sin(p.slope), std::cos(p.slope), 0), S(0));
    // The centre sits r above the slope along its normal; its lowest point is `height` up.
    const S along = p.height / std::sin(p.slope);  // from the foot up the slope to the touching point
    const V touch(-along * std::cos(p.slope), p.height, 0);
    const V centre = touch + p.radius * V(std::sin(p.slope), std::cos(p.slope), 0);
    w.lo = V(centre.x() - 2, 0, -2);
    w.hi = V(20, centre.y() + 2, 2);
    const Eigen::Quaternion<S> turn(Eigen::AngleAxis<S>(pi<S> / S(2), V::UnitY()));
    return w.add_capsule(p.length, p.radius, centre, S(1), turn);  // the segment along x turned onto z
}

// ---------------------------------------------------------------------------------------------
// The T-handle

/// The T-handle's principal moments (kg m^2): a shaft (1 kg, a thin rod 1 m along z from 0 to 1)
/// and a crossbar (1 kg, a thin rod 1 m along x centred on the shaft's end). Centre of mass at
/// z = 0.75; Ix = 1/12 + 2 (0.25^2), Iy = Ix + 1/12, Iz = 1/12: x is the intermediate axis.
template <class S>
impulse::Vec<S, 3> t_handle_inertia()
{
    const S ix = S(1) / S(12) + S(2) * S(0.0625);
    return impulse::Vec<S, 3>(ix, ix + S(1) / S(12), S(1) / S(12));
}

/// A T-handle alone in space (no gravity, nothing to touch), spun at `spin` rad/s about its
/// intermediate axis x with `nudge` rad/s about z to start the instability. Its shape for the
/// pictures is a thin box standing for the crossbar; the body's inertia is the T-handle's.
template <class S>
std::uint32_t build_t_handle(World<S, 3>& w, S spin = S(6), S nudge = S(0.01))
{
    using V = impulse::Vec<S, 3>;
    w.solver.settings.gravity = V::Zero();
    w.lo = V::Constant(-2);
    w.hi = V::Constant(2);
    const std::uint32_t i = w.add_box(V(S(0.5), S(0.03), S(0.03)), V::Zero(), S(1));
    w.inv_mass[i] = S(0.5);  // 2 kg
    w.inv_inertia[i] = t_handle_inertia<S>().cwiseInverse();
    w.omega[i] = V(spin, 0, nudge);
    return i;
}

/// Euler's equations of a free body in its principal axes, dw/dt = -I^-1 (w x I w), one classic
/// RK4 step of length h: the reference the T-handle is measured against.
template <class S>
impulse::Vec<S, 3> euler_rk4(const impulse::Vec<S, 3>& w, const impulse::Vec<S, 3>& I, S h)
{
    auto f = [&](const impulse::Vec<S, 3>& x) -> impulse::Vec<S, 3> {
        return -(x.cross(I.cwiseProduct(x))).cwiseQuotient(I);
    };
    const impulse::Vec<S, 3> k1 = f(w), k2 = f(w + h / 2 * k1), k3 = f(w + h / 2 * k2), k4 = f(w + h * k3);
    return w + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
}

/// The times at which x(t), sampled every dt from t = 0, changes sign (linear between samples).
template <class S>
std::vector<S> sign_changes(const std::vector<S>& x, S dt)
{
    std::vector<S> t;
    for (std::size_t k = 1; k < x.size(); ++k)
        if ((x[k - 1] > S(0)) != (x[k] > S(0))) t.push_back(dt * (S(k - 1) + x[k - 1] / (x[k - 1] - x[k])));
    return t;
}

/// The mean time between successive sign changes (the time between flips), or 0 with fewer than two.
template <class S>
S mean_interval(const std::vector<S>& t)
{
    return t.size() < 2 ? S(0) : (t.back() - t.front()) / S(t.size() - 1);
}

}  // namespace scenes
