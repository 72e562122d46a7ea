// SPDX-License-Identifier: MIT
// The scenes, shared by the example programs (which draw them), the scene tests (which check their
// physics, some at a smaller size) and the benchmark (which times the settled ball pit):
//   - Newton's cradle: five equal balls in a row, e = 1
//   - the ball pit: balls poured into a box (circles in 2D, spheres in 3D) and left to settle
//   - a pyramid of circles between two walls
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <impulse/impulse.hpp>

#include "world.hpp"

namespace scenes {

// ---------------------------------------------------------------------------------------------
// Newton's cradle

/// Five equal balls (m = 1, r = 0.5) in a row on a frictionless line, no gravity, e = 1; the
/// first, `approach` away from the second, moves at v0 towards the other four, which hang `gap`
/// apart from each other.
///
/// Why the gap. A real cradle's balls barely touch, and what happens in it is a chain of two-body
/// collisions: ball 1 hits ball 2, and before ball 2 has moved noticeably it hits ball 3, and so
/// on. With equal masses and e = 1 each two-body collision swaps the velocities
/// (jn = -(1+e) vn / (wA+wB) = 2 v / 2 = v: the striker stops, the struck ball leaves at v), so v
/// ends in the last ball and the others are at rest. A solver that sees all four contacts at once
/// (gap 0) solves a different problem: restitution targets from the velocities before the step ask
/// contact 1-2 to separate at v and the resting contacts 2-3, 3-4, 4-5 to separate at 0, and the
/// answer that satisfies all of them with the least pushing is balls 2-5 moving on together at
/// 2v/5 while ball 1 bounces back at -3v/5 (momentum 4 * 2/5 - 3/5 = 1 and energy
/// (4 * 4/25 + 9/25)/2 = 1/2 are both conserved, yet it is not what a cradle does). So the
/// balls get a gap of 1 mm, below v0*dt: every step the wave moves on by one ball, and each step
/// solves exactly one two-body collision, exactly. cradle_touching() builds the gap-0 version.
template <class S>
void build_cradle(World<S, 2>& w, S gap, S v0 = S(1), S approach = S(0.5))
{
    using V = impulse::Vec<S, 2>;
    const S r = S(0.5);
    const S rho = S(1) / (pi<S> * r * r);  // m = 1
    w.solver.settings.gravity = V::Zero();
    w.coefficients = impulse::Coefficients<S>{};
    w.coefficients.restitution = S(1);
    w.coefficients.friction = S(0);
    w.coefficients.threshold = S(0);  // a perfectly elastic cradle bounces at every speed
    // Contacts only where balls touch: a speculative point would let the solver see the next
    // ball's contact in the same step as the strike, which is the touching cradle again.
    w.speculative = S(0);
    w.speculative_speed = false;
    S x = S(0);
    w.add_ball(V(x, S(0)), r, rho, V(v0, S(0)));
    x += S(2) * r + approach;
    for (int i = 1; i < 5; ++i, x += S(2) * r + gap) w.add_ball(V(x, S(0)), r, rho);
    w.lo = V(-r - S(1), -S(2) * r);
    w.hi = V(x + S(1), S(2) * r);
}

// ---------------------------------------------------------------------------------------------
// The ball pit

/// A box of balls: circles in 2D, spheres in 3D.
template <class S>
struct PitSpec {
    std::size_t count{2000};  ///< balls
    S width{32};              ///< inner width of the box (3D: along x and z)
    S height{20};             ///< how high the grid reaches (the walls themselves are unbounded)
    S rmin{S(0.2)}, rmax{S(0.3)};  ///< radii, uniformly distributed
    S density{1};             ///< per area in 2D, per volume in 3D
    S restitution{S(0.2)};
    S friction{S(0.4)};
    S threshold{1};           ///< no bounce below 1 m/s (Box2D's default restitution threshold)
    /// Rolling resistance, m: 1 mm, a rolling-resistance coefficient c/r of 0.003-0.005 for these
    /// radii (hard balls on a hard floor). Without it a ball in a gap of the bottom row, touching only
    /// the floor, rolls on at whatever speed settling left it with until it meets a neighbour.
    S rolling_resistance{S(0.001)};
    S gravity{S(9.81)};
    unsigned seed{1};
};

/// Box walls: the floor y = 0 and the sides x = 0, x = width (3D also z = 0, z = width); planes,
/// so nothing gets out by going round them.
template <class S, int D>
void build_box(World<S, D>& w, const PitSpec<S>& p)
{
    using V = impulse::Vec<S, D>;
    w.solver.settings.gravity = -p.gravity * V::UnitY();
    w.coefficients = impulse::Coefficients<S>{};
    w.coefficients.restitution = p.restitution;
    w.coefficients.friction = p.friction;
    w.coefficients.threshold = p.threshold;
    w.rolling_resistance = p.rolling_resistance;
    w.add_wall(V::UnitY(), S(0));
    w.add_wall(V::UnitX(), S(0));
    w.add_wall(-V::UnitX(), -p.width);
    if constexpr (D == 3) {
        w.add_wall(V::UnitZ(), S(0));
        w.add_wall(-V::UnitZ(), -p.width);
    }
    w.lo = V::Zero();
    w.hi = V::Constant(p.width);
    w.hi.y() = p.height;
    w.reserve(p.count);
}

/// One ball as a scene places it.
template <class S, int D>
struct Ball {
    impulse::Vec<S, D> x;
    S r;
};

/// Where a layer of balls goes: a square lattice of spacing 2*rmax + 6 cm across the box (a row
/// in 2D, a grid in 3D) at height y, each ball jittered by up to 3 cm, odd layers shifted by half a
/// spacing along x (with one ball less per row). Radii uniform in [rmin, rmax].
template <class S, int D>
class Layers {
public:
    explicit Layers(const PitSpec<S>& p) : p_(p), gen_(p.seed) {}

    S spacing() const { return S(2) * p_.rmax + S(0.06); }
    std::size_t per_row() const { return std::size_t(std::floor(p_.width / spacing())); }

    /// Appends up to `max` balls of the next layer at height y.
    void layer(S y, std::size_t max, std::vector<Ball<S, D>>& out)
    {
        std::uniform_real_distribution<S> jitter(S(-0.03), S(0.03)), radius(p_.rmin, p_.rmax);
        const S sp = spacing();
        const std::size_t m = per_row();
        const bool odd = layer_++ % 2 != 0;
        const S margin = (p_.width - S(m) * sp) / S(2) + sp / S(2) + (odd ? sp / S(2) : S(0));
        const std::size_t across = odd ? m - 1 : m;  // shifted layers hold one ball less per row
        for (std::size_t k = 0; k < (D == 2 ? 1 : m); ++k) {
            for (std::size_t i = 0; i < across && max > 0; ++i, --max) {
                Ball<S, D> b;
                b.x = impulse::Vec<S, D>::Zero();
                b.x.x() = margin + S(i) * sp + jitter(gen_);
                b.x.y() = y + jitter(gen_);
                if constexpr (D == 3) b.x.z() = margin + S(k) * sp + jitter(gen_);
                b.r = radius(gen_);
                out.push_back(b);
            }
        }
    }

private:
    PitSpec<S> p_;
    std::mt19937 gen_;
    unsigned layer_{0};
};

/// Pours the balls in, as from a hose held just above the pile: a new layer (Layers) one spacing
/// above the highest ball, falling at v0 = 2 m/s, as soon as the one before has fallen by a
/// spacing, until `count` balls are in. Held low, the hose lets no ball hit the pile faster than
/// a few metres per second (a ball dropped from the top of the box would arrive at nearly 20 m/s,
/// a third of a metre per step, and could pass through the ball it hits).
template <class S, int D>
class Pour {
public:
    explicit Pour(const PitSpec<S>& p) : p_(p), layers_(p)
    {
        // The layer falls v0 t + g t^2 / 2 in time t: wait the first whole step count n with
        // v0 n dt + g (n dt)^2 / 2 >= spacing.
        const S dt = S(1) / S(60);
        const S sp = layers_.spacing();
        while (v0 * S(interval_) * dt + p.gravity * S(interval_ * interval_) * dt * dt / S(2) < sp) ++interval_;
    }

    bool done() const { return poured_ >= p_.count; }

    /// Call before each step: adds the next layer when it is due. Returns the energy it brought in
    /// (kinetic + potential), so that energy checks can account for it.
    S operator()(World<S, D>& w)
    {
        if (done() || since_++ % interval_ != 0) return S(0);
        S top = S(0);
        for (std::size_t i = w.first_ball(); i < w.x.size(); ++i) top = std::max(top, w.x[i].y() + w.radius[i]);
        batch_.clear();
        layers_.layer(top + layers_.spacing(), p_.count - poured_, batch_);
        const S before = w.kinetic_energy() + w.potential_energy();
        for (const Ball<S, D>& b : batch_) w.add_ball(b.x, b.r, p_.density, -v0 * impulse::Vec<S, D>::UnitY());
        poured_ += batch_.size();
        return w.kinetic_energy() + w.potential_energy() - before;
    }

private:
    static constexpr S v0 = S(2);
    PitSpec<S> p_;
    Layers<S, D> layers_;
    unsigned interval_{1};
    unsigned since_{0};
    std::size_t poured_{0};
    std::vector<Ball<S, D>> batch_;
};

/// All the balls at once, layer above layer from just above the floor (the benchmark's way to a
/// settled pit of 50 000 balls without pouring them one layer at a time). The layers are
/// sqrt(3)/2 of a spacing apart, so that with every other layer shifted by half a spacing the
/// centres of neighbouring layers are a whole spacing apart (before the jitter).
template <class S, int D>
std::vector<Ball<S, D>> stacked_layers(const PitSpec<S>& p)
{
    Layers<S, D> layers(p);
    std::vector<Ball<S, D>> balls;
    balls.reserve(p.count);
    const S dy = layers.spacing() * std::sqrt(S(3)) / S(2);
    for (S y = p.rmax + S(0.03); balls.size() < p.count; y += dy)
        layers.layer(y, p.count - balls.size(), balls);
    return balls;
}

/// What a pit run measured (see run_pit).
template <class S>
struct PitStats {
    bool finite{true};        ///< no NaN or infinity, ever
    std::size_t escaped{0};   ///< most balls outside the box (centre behind a wall) at any step
    Overlap<S> settled;       ///< overlap at the end
    S mean_overlap_max{0};    ///< the largest mean overlap seen after pouring
    S rms{0};                 ///< rms speed over the last `quiet_steps` steps (root of the mean of rms^2)
    S fastest{0};             ///< the fastest ball's speed over the last `quiet_steps` steps
    S rise{0};                ///< largest rise of (energy - energy poured in) above its lowest so far
    S rise_bound{0};          ///< what the overlaps can give back: M g h_c p / (2 rmin), see run_pit
    S gdt{0};                 ///< g*dt, the speed one step of gravity adds
};

/// Pours the pit (Pour), lets it settle for `settle_steps` steps and measures it; `frame(step, w)`
/// is called after every step (for pictures).
///
/// Energy: what is in the box, kinetic + potential, minus everything the pour brought in, can only
/// fall (restitution <= 1, friction, inelastic contacts) except for one effect: the contacts' soft push
/// pushes overlapping balls apart, which lifts them. It only undoes overlap, and overlap lowered
/// the pile first: a pile whose overlaps average p between balls at least 2 rmin across sits lower
/// by at most a fraction p / (2 rmin) of its centre-of-mass height h_c, so the energy can rise by at
/// most M g h_c p / (2 rmin) (largest mean overlap and h_c seen after pouring). `rise` is measured
/// against that bound.
template <class S, int D, class Frame>
PitStats<S> run_pit(World<S, D>& w, const PitSpec<S>& p, int settle_steps, int quiet_steps, Frame&& frame)
{
    PitStats<S> st;
    Pour<S, D> pour(p);
    st.gdt = p.gravity * w.dt;
    S poured_in = S(0), lowest = std::numeric_limits<S>::max(), hc_max = S(0), rms2 = S(0);
    int after = 0, step = 0;
    while (!pour.done() || after < settle_steps) {
        poured_in += pour(w);
        w.step();
        frame(step++, w);
        st.finite = st.finite && w.finite();
        st.escaped = std::max(st.escaped, w.escaped());
        const S e = w.kinetic_energy() + w.potential_energy() - poured_in;
        lowest = std::min(lowest, e);
        st.rise = std::max(st.rise, e - lowest);
        if (pour.done()) {
            ++after;
            const Overlap<S> o = w.overlap();  // of the contacts this step solved
            st.mean_overlap_max = std::max(st.mean_overlap_max, o.mean);
            hc_max = std::max(hc_max, w.potential_energy() / (w.total_mass() * p.gravity));
            if (after > settle_steps - quiet_steps) {
                rms2 += w.rms_speed() * w.rms_speed();
                st.fastest = std::max(st.fastest, w.max_speed());
            }
        }
    }
    w.find_contacts();
    st.settled = w.overlap();
    st.rms = std::sqrt(rms2 / S(std::max(1, quiet_steps)));
    st.rise_bound = w.total_mass() * p.gravity * hc_max * st.mean_overlap_max / (S(2) * p.rmin);
    return st;
}

// ---------------------------------------------------------------------------------------------
// The pyramid

/// A pyramid of `rows` equal circles (r, m = 1) packed in the hexagonal way between two walls that
/// touch the bottom row: row k (from the bottom, k = 0..rows-1) holds rows-k circles at
/// y = r + k sqrt(3) r, each resting in the groove of the two below it. Friction mu, e = 0.
template <class S>
void build_pyramid(World<S, 2>& w, int rows, S mu)
{
    using V = impulse::Vec<S, 2>;
    const S r = S(0.5);
    const S rho = S(1) / (pi<S> * r * r);  // m = 1
    const S width = S(2) * r * S(rows);
    w.solver.settings.gravity = V(S(0), S(-9.81));
    w.coefficients = impulse::Coefficients<S>{};
    w.coefficients.friction = mu;
    w.coefficients.threshold = S(1);
    w.add_wall(V::UnitY(), S(0));
    w.add_wall(V::UnitX(), S(0));
    w.add_wall(-V::UnitX(), -width);
    w.lo = V::Zero();
    w.hi = V(width, S(rows) * S(2) * r);
    w.reserve(std::size_t(rows * (rows + 1) / 2));
    for (int k = 0; k < rows; ++k)
        for (int i = 0; i < rows - k; ++i)
            w.add_ball(V(r + S(k) * r + S(2) * r * S(i), r + S(k) * std::sqrt(S(3)) * r), r, rho);
}

// ---------------------------------------------------------------------------------------------
// The pyramid of boxes

/// Box2D's benchmark pyramid (`large_pyramid`): unit boxes (half extent 0.5, density 1) in the brick
/// pattern, `base` on the bottom row, each row on the one below exactly touching, on a static ground
/// box 200 m x 2 m whose top is y = 0. Friction mu (Box2D's default 0.6), e = 0.
template <class S>
void build_box_pyramid(World<S, 2>& w, int base, S mu = S(0.6))
{
    using V = impulse::Vec<S, 2>;
    const S a = S(0.5);
    w.solver.settings.gravity = V(S(0), S(-9.81));
    w.coefficients = impulse::Coefficients<S>{};
    w.coefficients.friction = mu;
    w.coefficients.threshold = S(1);
    w.add_static_polygon(impulse::make_box(S(100), S(1)), V(S(0), S(-1)));
    const S half_width = a * S(base);
    w.lo = V(-half_width - S(1), S(-1));
    w.hi = V(half_width + S(1), S(2) * a * S(base) + S(1));
    w.reserve(std::size_t(base * (base + 1) / 2));
    const impulse::Polygon<S> box = impulse::make_box(a, a);
    for (int i = 0; i < base; ++i) {
        const S y = (S(2) * S(i) + S(1)) * a;
        for (int j = i; j < base; ++j) {
            const S x = (S(i) + S(1)) * a + S(2) * S(j - i) * a - half_width;
            w.add_polygon(box, V(x, y), S(1));
        }
    }
}

}  // namespace scenes
