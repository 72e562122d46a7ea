// SPDX-License-Identifier: MIT
/// \file solver.hpp
/// The soft-step solver: many contacts at once, in 2D and 3D, over the engine's own arrays
/// (Catto, "Solver2D", 2024; the method of Box2D v3 and Box3D). docs/solver.md explains it.
///
/// One step of length dt, with n = `substeps` substeps of length h = dt / n:
///
///     colour              contacts coloured so that those of one colour share no movable body
///     prepare             anchors, effective masses, softness, restitution's approach speeds,
///                         last step's impulses found by key (once per step)
///     n times:
///       integrate v       v += h (g + F/m),  omega += h I^-1 tau        (movable bodies)
///                         3D: the gyroscopic term omega x I omega, implicit (below)
///       warm start        apply the accumulated impulses
///       solve             each contact with a soft bias: overlap pushed apart as a mass-spring-damper
///                         (contact_hertz, contact_damping_ratio, at most push_out_speed), a gap closed
///                         no faster than it can within the substep (speculative points), friction
///                         within +-mu jn (a manifold of several points passed over again while its
///                         last pass changed a speed: manifold_iterations), rolling resistance
///       shock             heavy on light: each contact under a body `shock_mass_ratio` times heavier
///                         than the one below it (along gravity) once more, bottom up, with the lower
///                         body held still (below)
///       integrate x       p += h v,  q turned by h omega                 (the pose change since prepare)
///       relax             each contact again without the bias: the push leaves no speed behind
///       shock             the same without the bias
///     restitution         bounce e * (approach speed at prepare), for approaches above the threshold
///     store               the impulses, for the next step's warm start; poses and velocities written
///
/// A point's separation is updated every substep from the bodies' pose change since prepare:
///     s = s0 + n.(dpB - dpA + (qB rB - rB) - (qA rA - rA))        (anchors rotate with the bodies)
/// so contacts are found once per step, not per substep. (3D: n.(q r) taken as (q^-1 n).r, the
/// normal turned back once per contact rather than each anchor turned at each point.)
///
/// 3D rotation: the orientation is a unit quaternion, turned by q += h/2 (0, omega) q and
/// normalised every substep. The inverse inertia is given along the body's principal axes; its world
/// tensor I^-1 = R diag(1/Ix, 1/Iy, 1/Iz) R^T is made at prepare for the contacts (their anchors and
/// effective masses are fixed for the step too) and again every substep, from the orientation of that
/// substep, for the body's own free motion (torque and the gyroscopic term). Euler's equation in body
/// axes, I dw/dt + w x I w = tau, has a term explicit integration makes unstable (a spinning slender
/// body gains energy); with `gyroscopic` on it is integrated implicitly, by one Newton step on backward
/// Euler (Catto, "Physics for Game Programmers: Numerical Methods", GDC 2015):
///     f(w) = I (w - w1) + h w x I w = 0,   J = df/dw = I + h (skew(w) I - skew(I w))
///     w2 = w1 - J(w1)^-1 f(w1) = w1 - J(w1)^-1 (h w1 x I w1)
/// Backward Euler itself never adds energy: w2.(f(w2) = 0) gives w2.I w2 = w2.I w1, so by
/// Cauchy-Schwarz in the I inner product |w2|_I <= |w1|_I.
///
/// Heavy on light (shock propagation, Guendelman et al. 2003, here in the soft step): Gauss-Seidel
/// moves a light body's load to a heavy body above it by the light body's effective mass per pass,
/// so a 400:1 stack needs hundreds of passes, and the soft contact between them is a spring of the
/// light body's stiffness, which sinks by the heavy load over it. A contact whose normal is within 45
/// degrees of gravity and whose upper body is at least `shock_mass_ratio` times heavier (inverse
/// masses; a body of inverse mass 0 that turns, a rotor on a fixed axle, is never the heavy one: it
/// carries no weight) is solved in the order given like any other, and then, after the soft pass and after the
/// relaxing passes of each substep, once more in a pass over such contacts from the lowest lower
/// body up, with the lower body held (its centre moving on, its spin not counted: a held body's turn
/// would drive the upper one through the lever of the held body's arm, feeding it energy at every
/// substep), so the upper one rests on it as on the ground (the lower
/// bodies' contacts with immovable bodies are in that pass too, first). The extra pass's impulses are
/// not kept for the warm start and reach only the upper body; the lower body feels the load through
/// the ordinary passes, as far as they carry it (docs/solver.md: the share measured). Such contacts,
/// and the lower bodies' contacts with immovable bodies, are also stiffened by the load they carried
/// last step: a spring of frequency f carrying F on effective mass m sinks F / (m (2 pi f)^2); f is
/// raised by sqrt(F / (m g)) so that it sinks g / (2 pi f)^2, as a contact carrying only its own body
/// would. They are solved serially (with the contacts no colour took), never in wide rows.
///
/// The contacts are solved colour by colour, and the contacts of one colour (which share no movable
/// body) in the order given; with an engine's `TaskSystem` (tasks.hpp) the blocks of each stage are
/// shared between its threads, with the same result for any number of them.
///
/// Every contact is built from axis.hpp's pieces: `ContactAxis` (speed along a direction, apply an
/// impulse), `soft_normal` and `make_softness` (the soft normal impulse), `accumulate` (friction and
/// rolling within their bounds).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <Eigen/LU>

#include "axis.hpp"
#include "config.hpp"
#include "detail/wide_axis.hpp"
#include "kinematics.hpp"
#include "manifold.hpp"
#include "material.hpp"
#include "rigid.hpp"
#include "tasks.hpp"

namespace impulse {

// ---------------------------------------------------------------------------------------------
// The engine's storage

/// Element i of a strided array: the `T` at `data` advanced by `i * stride` bytes. A view, like a
/// pointer: it owns nothing. `stride` is `sizeof` the caller's struct for an array of structs, or
/// `sizeof(T)` times the number of values per element for a plain array.
template <class T>
struct Strided {
    T* data{nullptr};         ///< the first element (null: the field is absent)
    std::ptrdiff_t stride{0};  ///< bytes from one element to the next

    /// The first of the values of element i.
    T* operator[](std::size_t i) const noexcept
    {
        using Byte = std::conditional_t<std::is_const<T>::value, const unsigned char, unsigned char>;
        return reinterpret_cast<T*>(reinterpret_cast<Byte*>(data) + std::ptrdiff_t(i) * stride);
    }
    /// True when the field is present.
    explicit operator bool() const noexcept { return data != nullptr; }
};

/// A strided view over an array of structs: `field` points at the first element's first value and
/// `Struct` is the element type, e.g. `strided<EngineBody>(&bodies[0].x)`.
template <class Struct, class T>
Strided<T> strided(T* field) noexcept
{
    return Strided<T>{field, std::ptrdiff_t(sizeof(Struct))};
}

/// The bodies as the engine stores them: one strided field per quantity, so the solver reads and
/// writes the engine's own arrays (an array of structs, structure of arrays, or a mix) with no copy
/// in or out. Body i's values are `field[i][0 ..]`, consecutive scalars:
///
/// | field              | 2D                               | 3D                                    |
/// |--------------------|----------------------------------|---------------------------------------|
/// | `position`         | x, y of the centre of mass       | x, y, z                               |
/// | `rotation`         | cos a, sin a (or use `angle`)    | quaternion x, y, z, w (Eigen's order) |
/// | `angle`            | a, radians (instead of rotation) | (not used)                            |
/// | `velocity`         | vx, vy                           | vx, vy, vz                            |
/// | `angular_velocity` | omega (counter-clockwise)        | omega x, y, z (world)                 |
/// | `inv_mass`         | 1/m (0: immovable)               | 1/m                                   |
/// | `inv_inertia`      | 1/I about the centre of mass     | 1/Ix, 1/Iy, 1/Iz about the body's own principal axes |
/// | `force`, `torque`  | optional: applied during the step (null: none)                           ||
/// | `id`               | optional: a persistent id per body, for warm-start keys (below)          ||
///
/// Positions, rotations, velocities and angular velocities are updated in place by `Solver::step`
/// (velocities only for movable bodies: a body whose inverse mass and inverse inertia are all 0 is
/// never written, but it is moved by its own velocity, so a kinematic platform works).
/// \tparam S  float or double (or another Eigen scalar)
/// \tparam D  2 or 3
template <class S, int D>
struct BodyView {
    static_assert(D == 2 || D == 3, "impulse works in 2D and 3D");
    std::size_t count{0};                    ///< number of bodies
    Strided<S> position;                     ///< D values: the centre of mass, world
    Strided<S> rotation;                     ///< 2D: (cos, sin); 3D: quaternion (x, y, z, w)
    Strided<S> angle;                        ///< 2D only, instead of `rotation`: radians
    Strided<S> velocity;                     ///< D values
    Strided<S> angular_velocity;             ///< 2D: 1 value; 3D: 3 (world axes)
    Strided<S> inv_mass;                     ///< 1 value, >= 0
    Strided<S> inv_inertia;                  ///< 2D: 1 value; 3D: 3 (principal, body axes), >= 0
    Strided<S> force;                        ///< optional: D values, world
    Strided<S> torque;                       ///< optional: 2D 1 value, 3D 3 values, world
    Strided<const std::uint64_t> id;         ///< optional: persistent ids (see Manifold::key)
};

/// A body as the solver's own ready-made storage, for programs that have none: pose, velocity and
/// mass properties. `view(bodies, count)` makes the BodyView over an array of them.
template <class S, int D>
struct Body {
    Pose<S, D> pose;                                        ///< centre of mass and orientation
    Vec<S, D> v = Vec<S, D>::Zero();                        ///< linear velocity
    Angular<S, D> omega = Rotation<S, D>::zero_angular();   ///< angular velocity (world)
    S inv_mass{0};                                          ///< 1/m; 0: immovable
    /// 1/I: 2D about the centre of mass; 3D the principal moments' inverses along the body's axes.
    Vec<S, D == 2 ? 1 : 3> inv_inertia = Vec<S, D == 2 ? 1 : 3>::Zero();
};

/// The BodyView over an array of `Body`.
template <class S, int D>
BodyView<S, D> view(Body<S, D>* bodies, std::size_t count) noexcept
{
    BodyView<S, D> v;
    v.count = count;
    if (count == 0) return v;
    const std::ptrdiff_t stride = sizeof(Body<S, D>);
    v.position = {bodies[0].pose.p.data(), stride};
    if constexpr (D == 2) v.rotation = {&bodies[0].pose.q.c, stride};
    else v.rotation = {bodies[0].pose.q.coeffs().data(), stride};
    v.velocity = {bodies[0].v.data(), stride};
    if constexpr (D == 2) v.angular_velocity = {&bodies[0].omega, stride};
    else v.angular_velocity = {bodies[0].omega.data(), stride};
    v.inv_mass = {&bodies[0].inv_mass, stride};
    v.inv_inertia = {bodies[0].inv_inertia.data(), stride};
    return v;
}

// ---------------------------------------------------------------------------------------------
// Settings

/// What a step does, with the defaults of Box2D v3 where it has one (docs/solver.md).
/// \tparam S  the scalar type
/// \tparam D  2 or 3
template <class S, int D>
struct SolverSettings {
    Vec<S, D> gravity = Vec<S, D>::Zero();  ///< m/s^2, applied to every body with inv_mass > 0
    int substeps{4};                        ///< substeps per step, >= 1
    /// Stiffness of a contact as a spring, Hz. Capped at a quarter of the substep rate (60 Hz at
    /// 60 Hz x 4 substeps), above which the implicit spring cannot follow.
    S contact_hertz{30};
    S contact_damping_ratio{10};  ///< damping ratio of the contact spring (10: heavily overdamped)
    /// A contact with an immovable body is this many times stiffer (a pile must not sink into the
    /// ground under its own weight).
    S static_hertz_scale{2};
    /// A contact between movable bodies under load made stiffer, up to this many times
    /// contact_hertz (and never above the cap above): a spring of frequency f carrying F (last
    /// step's impulse) on effective mass m sinks F / (m (2 pi f)^2), and f raised by
    /// sqrt(F / (L m g)), L = `load_hertz_from`, makes that L g / (2 pi f)^2, the sag of a contact
    /// carrying L of its own weights. So the deep contacts of a pile sink less, at 1.5 down to
    /// 1 / 1.5^2 = 0.44 of their sag. >= 1; 1 (the default): off. No effect without gravity. Not on
    /// by default (docs/solver.md: at 1.5 it halves the deepest overlap of a pit of balls, and a
    /// pit of 50,000 balls rests nearly three times less quietly).
    S load_hertz_scale{1};
    /// With `load_hertz_scale`: the load from which a contact is stiffened, in multiples of its own
    /// weight (F / (m g) above). >= 1. 64 (the default) stiffens only the deep contacts of a pile:
    /// at 1.5 the scene suite keeps every criterion on both paths and the deepest overlap of the
    /// 10,000-ball pit falls from 48.2 to 25.8 mm. 1 stiffens every contact under load, which drops
    /// the card house, the overlap recovery and a box pyramid's rest when the contacts are
    /// coloured (a box pyramid's loads shift from step to step, and its stiffness with them).
    S load_hertz_from{64};
    S push_out_speed{3};  ///< m/s: the fastest overlap is pushed apart
    S max_linear_speed{400};  ///< m/s: no body moves faster (a guard against tunnelling and blow-up)
    bool warm_start{true};  ///< start each step from the impulses of the last
    /// Heavy on light (see the top of the file): a contact whose normal is within 45 degrees of
    /// gravity and whose upper body is at least `shock_mass_ratio` times heavier than the lower one
    /// is solved once more after the soft and the relaxing passes with the lower body held still,
    /// and stiffened by its load. The price: the ordinary impulses under the light body carry only
    /// part of the weight above it (docs/solver.md, measured). Off: such stacks sink by the soft
    /// contact's sag, and chains of them through the light bodies. No effect without gravity.
    bool shock_propagation{true};
    /// The mass ratio (>= 1) from which a contact is treated as heavy on light. 4: above the mass
    /// ratios of a pile of balls of radii 0.2 to 0.3 m (2.25 in 2D, 3.4 in 3D), which Gauss-Seidel
    /// carries well; below the 10:1 per level of the stacks that need it.
    S shock_mass_ratio{4};
    /// 3D: integrate the gyroscopic term w x I w implicitly (one Newton step, see the top of the
    /// file), so a spinning body keeps its energy and a T-handle flips. Off: w is not turned by it
    /// at all (as if every body were a sphere). Bodies with a zero principal inverse inertia (an axis
    /// that cannot turn) are skipped. No effect in 2D.
    bool gyroscopic{true};
    int relax_iterations{1};  ///< passes without bias per substep (>= 0)
    /// Passes over one manifold's own points within each soft and relaxing pass, for manifolds of
    /// two or more points (>= 1): its normal impulses, then its friction, again while the last of
    /// them changed the speed at one of its points by more than `manifold_tolerance`. One pass
    /// leaves a landing box turning: its points are solved one after the other, and the friction
    /// solved after them tips it with nothing left in the pass to level it; the manifold solved to
    /// its own end in the pass lands it flat (docs/solver.md, measured). A one-point manifold gets
    /// one pass: it has no second point to share the load with (a ball's friction does not change
    /// its normal speed at all). 1: one pass, as Box2D v3 does. Six passes land a cube flat in 3D,
    /// where four points share the load (three leave it lifting off at 7 cm/s).
    int manifold_iterations{6};
    /// m/s: a manifold's pass that changes no point's speed (normal or friction) by more than this
    /// is its last (`manifold_iterations`). Resting contacts, warm started, stop after one pass, so
    /// the repeated passes cost little beyond impacts and changes (>= 0; 0: every pass that changes
    /// anything is followed by another, up to `manifold_iterations`).
    S manifold_tolerance{S(0.01)};
    /// Solve the contacts colour by colour (Solver::colour), so that a task system's threads can
    /// share every pass over them, instead of in the order given, on one thread. The order changes
    /// the results (Gauss-Seidel converges differently), within the solver's tolerances but not bit
    /// for bit: docs/solver.md says which scenes notice. Either way, the result is the same for every
    /// number of workers.
    bool colouring{false};
    /// With `colouring`: the contacts of a colour that have the same number of points are solved W
    /// at a time (the warm start, the soft and relaxing passes), W the lanes of the target's widest
    /// register for S of at most 256 bits (`Solver::wide_lanes`: SSE2 4 floats or 2 doubles, AVX and
    /// AVX-512 8 or 4; docs/performance.md says why not 16 or 8 on AVX-512). The contacts of a colour
    /// share no movable body, so this is the same arithmetic in another order of independent work:
    /// bit for bit the result of solving them one at a time (off), in builds that do not contract a
    /// multiply and an add into one instruction (the default on x86-64; -mfma builds may round the
    /// two paths differently). No effect without colouring.
    bool wide{true};
    /// Steps with fewer manifolds than this run on the calling thread alone even with a task
    /// system: waking a worker costs more than it saves there (docs/performance.md). The result is
    /// the same either way.
    std::size_t parallel_min_manifolds{4096};
    /// Time each part of a step (`Solver::profile`): one clock reading per stage, a few hundred a
    /// step. Off by default.
    bool profile{false};
};

/// Where the last step's time went (`SolverSettings::profile`), in seconds of
/// std::chrono::steady_clock. A part's time is that of its stages, each from the close of the stage
/// before to the close of its own last block, on whichever thread closed it: on several workers,
/// wall-clock time with all of them at work. The parts sum to `total`.
struct SolverProfile {
    double bodies{0};       ///< reading the bodies in, integrating velocities and poses, writing them back
    double colour{0};       ///< colouring and ordering the contacts (and finding heavy-on-light ones)
    double prepare{0};      ///< the contacts' constraints, warm-start lookup, packing the wide rows
    double warm_start{0};   ///< applying last step's impulses, every substep
    double solve{0};        ///< the soft passes, every substep (the shock pass's soft part included)
    double relax{0};        ///< the relaxing passes, every substep (the shock pass's rigid part included)
    double restitution{0};  ///< the restitution pass
    double store{0};        ///< keeping the impulses for the next step
    double total{0};        ///< the whole step
};

// ---------------------------------------------------------------------------------------------
// The contract

/// The first rule a step's input breaks, as `validate` finds it (empty: none).
struct Violation {
    static constexpr std::size_t none = std::size_t(-1);  ///< no index
    const char* message{nullptr};  ///< what is wrong (a static string); null: nothing
    std::size_t manifold{none};    ///< the manifold it is in, or `none`
    int point{-1};                 ///< the point of that manifold, or -1 (the manifold as a whole)
    std::size_t body{none};        ///< the body it is about, or `none`
    /// True when a rule is broken.
    explicit operator bool() const noexcept { return message != nullptr; }
};

namespace detail {
template <class S>
bool finite_at_least(S x, S lo) noexcept  // lo <= x < inf (false for NaN)
{
    return x >= lo && x <= std::numeric_limits<S>::max();
}
template <class S>
bool all_finite(const S* x, int n) noexcept
{
    for (int i = 0; i < n; ++i)
        if (!(std::abs(x[i]) <= std::numeric_limits<S>::max())) return false;
    return true;
}
/// A flag the blocks of a stage may raise at once, read after the stage (the runner's hand-over
/// orders the writes before it). Copied or assigned, it starts lowered: it holds nothing across steps.
class Flag {
public:
    Flag() = default;
    Flag(const Flag&) noexcept {}
    Flag& operator=(const Flag&) noexcept
    {
        clear();
        return *this;
    }
    void set() noexcept { raised_.store(true, std::memory_order_relaxed); }
    void clear() noexcept { raised_.store(false, std::memory_order_relaxed); }
    bool get() const noexcept { return raised_.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> raised_{false};
};
/// Asks for the two cache lines from `p` on to be loaded (a hint: no effect where the compiler has none).
inline void prefetch_lines(const void* p) noexcept
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p);
    __builtin_prefetch(static_cast<const char*>(p) + 64);
#else
    (void)p;
#endif
}
/// Asks for the cache lines of [p, p + bytes) to be loaded for writing (a hint).
inline void prefetch_for_write(const void* p, std::size_t bytes) noexcept
{
#if defined(__GNUC__) || defined(__clang__)
    const char* c = static_cast<const char*>(p);
    const char* end = c + bytes;
    for (c = reinterpret_cast<const char*>(reinterpret_cast<std::uintptr_t>(c) & ~std::uintptr_t(63)); c < end; c += 64)
        __builtin_prefetch(c, 1);
#else
    (void)p;
    (void)bytes;
#endif
}
/// The index of the lowest set bit of x != 0.
inline int lowest_bit(std::uint32_t x) noexcept
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);
#else
    int i = 0;
    while (!(x & 1u)) {
        x >>= 1;
        ++i;
    }
    return i;
#endif
}
}  // namespace detail

/// Checks the input of `Solver::step(bodies, manifolds, count, dt)` with `settings` against the
/// solver's contract and returns the first rule broken, with where (docs/solver.md lists the rules):
///   - the step: dt > 0 and finite (and dt / substeps and its inverse too); substeps >= 1, relax_iterations >= 0,
///     manifold_iterations >= 1, manifold_tolerance >= 0 (may be infinite), gravity finite,
///     contact_hertz > 0, contact_damping_ratio >= 0, static_hertz_scale > 0, load_hertz_scale >= 1,
///     load_hertz_from >= 1 (all finite),
///     push_out_speed >= 0, max_linear_speed > 0 (either may be infinite);
///   - every body: the required fields present; inverse mass and inverse inertia finite and >= 0;
///     position, velocity, angular velocity (and force, torque when given) finite; the rotation a
///     unit (cos, sin) or quaternion (or a finite angle);
///   - every manifold: a and b valid indices, a != b, 0 <= count <= max_points; when it has points:
///     a finite unit normal, restitution in [0, 1], a finite threshold >= 0, friction coefficients
///     and rolling resistance finite and >= 0, a finite tangent velocity; each point's anchors and
///     separation finite, and its feature id not used by an earlier point of the manifold.
/// `Solver::step` makes the same checks through `IMPULSE_ASSERT` (debug builds); an engine calls
/// this in release builds on data it does not trust (a replay, a level file). Not checked here: the
/// warm-start keys across steps (the solver's cache holds them; see `Solver`). Allocates nothing.
template <class S, int D>
Violation validate(const BodyView<S, D>& bodies, const Manifold<S, D>* manifolds, std::size_t count, S dt,
                   const SolverSettings<S, D>& settings) noexcept
{
    using detail::all_finite;
    using detail::finite_at_least;
    constexpr int A = D == 2 ? 1 : 3;  // values of an angular quantity
    const S inf = std::numeric_limits<S>::infinity();
    Violation v;
    auto fail = [&v](const char* message, std::size_t manifold, int point, std::size_t body) {
        v.message = message;
        v.manifold = manifold;
        v.point = point;
        v.body = body;
        return v;
    };
    constexpr std::size_t none = Violation::none;

    // The step.
    if (!(dt > S(0)) || !(dt < inf)) return fail("the time step must be positive and finite", none, -1, none);
    if (settings.substeps < 1) return fail("settings.substeps must be at least 1", none, -1, none);
    if (!(dt / S(settings.substeps) > S(0)) || !(S(settings.substeps) / dt < inf))
        return fail("the time step is too short for the scalar: dt / substeps and its inverse must be finite and positive",
                    none, -1, none);
    if (settings.relax_iterations < 0) return fail("settings.relax_iterations must be >= 0", none, -1, none);
    if (!(settings.shock_mass_ratio >= S(1))) return fail("settings.shock_mass_ratio must be >= 1", none, -1, none);
    if (settings.manifold_iterations < 1 || !(settings.manifold_tolerance >= S(0)))
        return fail("settings: manifold_iterations must be at least 1 and manifold_tolerance >= 0", none, -1, none);
    if (!all_finite(settings.gravity.data(), D)) return fail("settings.gravity must be finite", none, -1, none);
    if (!(settings.contact_hertz > S(0)) || !(settings.contact_hertz < inf) ||
        !finite_at_least(settings.contact_damping_ratio, S(0)) || !(settings.static_hertz_scale > S(0)) ||
        !(settings.static_hertz_scale < inf))
        return fail("settings: contact_hertz and static_hertz_scale must be positive, contact_damping_ratio >= 0, "
                    "all finite",
                    none, -1, none);
    if (!finite_at_least(settings.load_hertz_scale, S(1)))
        return fail("settings.load_hertz_scale must be finite and >= 1", none, -1, none);
    if (!finite_at_least(settings.load_hertz_from, S(1)))
        return fail("settings.load_hertz_from must be finite and >= 1", none, -1, none);
    if (!(settings.push_out_speed >= S(0)) || !(settings.max_linear_speed > S(0)))
        return fail("settings: push_out_speed must be >= 0 and max_linear_speed > 0", none, -1, none);

    // The bodies.
    if (bodies.count > 0 &&
        (!bodies.position || !(bodies.rotation || (D == 2 && bodies.angle)) || !bodies.velocity ||
         !bodies.angular_velocity || !bodies.inv_mass || !bodies.inv_inertia))
        return fail("a required BodyView field is missing", none, -1, none);
    for (std::size_t i = 0; i < bodies.count; ++i) {
        const S* inv_mass = bodies.inv_mass[i];
        const S* inv_inertia = bodies.inv_inertia[i];
        if (!finite_at_least(*inv_mass, S(0))) return fail("an inverse mass must be finite and >= 0", none, -1, i);
        for (int k = 0; k < A; ++k)
            if (!finite_at_least(inv_inertia[k], S(0)))
                return fail("an inverse inertia must be finite and >= 0", none, -1, i);
        if (!all_finite(bodies.position[i], D)) return fail("a body's position is not finite", none, -1, i);
        if (D == 2 && bodies.angle) {
            if (!all_finite(bodies.angle[i], 1)) return fail("a body's angle is not finite", none, -1, i);
        } else {
            constexpr int Q = D == 2 ? 2 : 4;
            const S* q = bodies.rotation[i];
            S q2(0);
            for (int k = 0; k < Q; ++k) q2 += q[k] * q[k];
            if (!all_finite(q, Q) || !(std::abs(q2 - S(1)) <= S(1e-4)))
                return fail("a body's rotation must be a unit (cos, sin) or quaternion", none, -1, i);
        }
        if (!all_finite(bodies.velocity[i], D) || !all_finite(bodies.angular_velocity[i], A))
            return fail("a body's velocity or angular velocity is not finite", none, -1, i);
        if ((bodies.force && !all_finite(bodies.force[i], D)) || (bodies.torque && !all_finite(bodies.torque[i], A)))
            return fail("a body's force or torque is not finite", none, -1, i);
    }

    // The manifolds.
    for (std::size_t m = 0; m < count; ++m) {
        const Manifold<S, D>& mf = manifolds[m];
        if (!(mf.a < bodies.count) || !(mf.b < bodies.count)) return fail("manifold body index out of range", m, -1, none);
        if (mf.a == mf.b) return fail("a body cannot touch itself", m, -1, mf.a);
        if (mf.count < 0 || mf.count > Manifold<S, D>::max_points)
            return fail("manifold point count out of range", m, -1, none);
        if (mf.count == 0) continue;  // not touching: the rest is not read
        if (!all_finite(mf.n.data(), D) || !is_unit(mf.n)) return fail("the contact normal must be a unit vector", m, -1, none);
        const Coefficients<S>& c = mf.coefficients;
        if (!(c.restitution >= S(0)) || !(c.restitution <= S(1))) return fail("restitution must lie in [0, 1]", m, -1, none);
        if (!finite_at_least(c.threshold, S(0)))
            return fail("the restitution threshold must be finite and >= 0", m, -1, none);
        if (!finite_at_least(c.friction.mu_s, S(0)) || !finite_at_least(c.friction.mu_k, S(0)))
            return fail("friction coefficients must be finite and non-negative", m, -1, none);
        if (!finite_at_least(mf.rolling_resistance, S(0)))
            return fail("rolling resistance must be finite and >= 0", m, -1, none);
        if (!all_finite(mf.tangent_velocity.data(), D)) return fail("the tangent velocity must be finite", m, -1, none);
        for (int i = 0; i < mf.count; ++i) {
            const ManifoldPoint<S, D>& p = mf.points[i];
            if (!all_finite(p.rA.data(), D) || !all_finite(p.rB.data(), D) || !all_finite(&p.separation, 1))
                return fail("a contact point's anchors and separation must be finite", m, i, none);
            for (int k = 0; k < i; ++k)
                if (mf.points[k].feature == p.feature)
                    return fail("two points of a manifold share a feature id", m, i, none);
        }
    }
    return v;
}

// ---------------------------------------------------------------------------------------------
// The solver

/// The soft-step solver (see the top of this file). Keeps the last step's impulses, keyed by
/// `Manifold::key` and `ManifoldPoint::feature`, and its scratch storage between steps: after
/// `reserve` (or the largest step so far) a step allocates nothing. Deterministic: the same input
/// gives bitwise the same output (no threads, no hashing; contacts are solved in the order given).
///
/// **Warm-start keys.** A manifold's `key` names the pair, and each point's `feature` names the point
/// within it. Rules: a pair keeps its key from step to step; no two manifolds of a step share a key
/// (checked in debug builds, as are two points of a manifold with one feature); a key's pair must not
/// change bodies (checked in debug builds, by the bodies' inverse masses). Key 0 asks the solver to
/// make one from the two bodies: from their `BodyView::id`s when given, else from their indices,
/// whichever body is A. Index-made keys are right only while the body array keeps its order: after
/// reordering or compacting it, call `reset()`, or give ids. Reading a pair as (B, A) instead of
/// (A, B) is the same contact: the key does not change and feature ids are read with their halves
/// swapped (manifold.hpp), so the impulses carry over.
/// \tparam S  float or double
/// \tparam D  2 or 3
template <class S, int D>
class Solver {
public:
    static_assert(D == 2 || D == 3, "impulse works in 2D and 3D");
    using Manifold_t = Manifold<S, D>;  ///< the contacts it takes

    /// The impulses of one point in the last step.
    struct PointImpulse {
        S jn{0};  ///< normal impulse of one substep at the end of the step (warm-starts the next)
        Vec<S, D - 1> jt = Vec<S, D - 1>::Zero();  ///< friction of one substep, along each tangent axis
        /// Normal impulse over the whole step (restitution included). On a heavy-on-light contact it
        /// includes the shock pass's, which acts on the upper body only (`shock_propagation`): the
        /// impulse the upper body took, more than the lower body gave.
        S total{0};
    };

    SolverSettings<S, D> settings;  ///< used by the next step

    /// One step of length `dt` over the bodies of `bodies` and the contacts `manifolds[0, count)`:
    /// poses and velocities are updated in place.
    ///
    /// The input must keep the contract `validate` checks; debug builds check it here, through
    /// `IMPULSE_ASSERT`. Without the checks, a step whose dt / substeps is not positive and finite
    /// (or its inverse not finite) does nothing, a
    /// manifold whose indices or point count are out of range is skipped, and a body whose state is
    /// not finite affects only the bodies it touches through chains of contacts between movable
    /// bodies (see `nonfinite()`).
    void step(const BodyView<S, D>& bodies, const Manifold<S, D>* manifolds, std::size_t count, S dt) noexcept
    {
        // Reports the first violation through IMPULSE_ASSERT and is true: where assertions are
        // compiled out, the outer one does not even call validate.
        IMPULSE_ASSERT(report(impulse::validate(bodies, manifolds, count, dt, settings)), "");
        profile_ = SolverProfile{};
        const int n = settings.substeps < 1 ? 1 : settings.substeps;
        const S h = dt / S(n), inv_h = S(n) / dt;
        if (!(h > S(0)) || !(dt <= std::numeric_limits<S>::max()) || !(inv_h <= std::numeric_limits<S>::max())) return;
        wide_ = settings.colouring && settings.wide;
        workers_ = tasks && tasks->workers() > 1 && count >= settings.parallel_min_manifolds ? tasks->workers() : 1u;
        resize_bodies(bodies.count, count);
        plan(bodies.count, n);
        StepContext context{this, &bodies, manifolds, count, h, inv_h};
        const bool timed = settings.profile;
        const auto start = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
        detail::StageRunner<StepContext> runner(stages_, context, timed);
        if (workers_ > 1) runner.parallel(*tasks);
        else runner.serial();
        if (timed) tally(start);
    }

    /// Where the last step's time went, with `settings.profile` on (all zero after a step without
    /// it, or one that did nothing).
    const SolverProfile& profile() const noexcept { return profile_; }

    /// The engine's task system, or null (the default) to run every step on the calling thread.
    /// The result of a step does not depend on it, nor on its number of workers: the same input
    /// gives the same output, bit for bit (tasks.hpp).
    TaskSystem* tasks{nullptr};

    /// With `settings.colouring`, contacts of one colour share no movable body; the solver takes them
    /// in colour order, and the contacts of a colour in the order given (see colour()).
    static constexpr int colour_count = 24;

    /// Contacts a wide row solves at once (`SolverSettings::wide`): the lanes of the target's widest
    /// register for S of at most 256 bits (1 where there is none).
    static constexpr int wide_lanes = detail::simd::lanes<detail::simd::Wide256<S>>;

    /// The colour of manifold `m` in the last step: 0 .. colour_count - 1, or colour_count for a
    /// contact solved in the serial overflow (without `settings.colouring` all of them, in the order
    /// given; with it those whose bodies had taken every colour), or -1 if it was skipped.
    int colour(std::size_t m) const noexcept
    {
        const std::uint32_t c = m < constraint_of_.size() ? constraint_of_[m] : none;
        if (c == none) return -1;
        int k = 0;
        while (colour_start_[std::size_t(k) + 1] <= c) ++k;
        return k;
    }

    /// The contacts the last step solved in wide rows (`SolverSettings::wide`), a multiple of
    /// `wide_lanes`; the others were solved one at a time.
    std::size_t wide_contacts() const noexcept { return packets_.size() * std::size_t(W); }

    /// Impulses of point `p` of manifold `m` (as given to the last step).
    PointImpulse impulse(std::size_t m, int p) const noexcept
    {
        PointImpulse r;
        const std::uint32_t c = constraint_of_[m];
        if (c == none || p >= constraints_[c].count) return r;
        const Point& pt = points_[constraints_[c].first + std::size_t(p)];
        r.jn = pt.jn;
        r.jt = pt.jt;
        r.total = pt.total;
        return r;
    }

    /// The bodies whose state (position, rotation, velocity or angular velocity) is not finite after
    /// the last step, in increasing order, for an engine to remove or reset. A body is here because
    /// its own input was not finite, or because it touched such a body through a chain of contacts
    /// between movable bodies; never through an immovable one, whose state the solver never writes.
    /// Filled by every step (a pass over the bodies it writes anyway); empty when all is well.
    const std::vector<std::uint32_t>& nonfinite() const noexcept { return nonfinite_; }

    /// `validate(bodies, manifolds, count, dt, settings)` with this solver's settings.
    Violation validate(const BodyView<S, D>& bodies, const Manifold<S, D>* manifolds, std::size_t count,
                       S dt) const noexcept
    {
        return impulse::validate(bodies, manifolds, count, dt, settings);
    }

    /// Forgets the warm-start cache (after teleporting bodies or reordering them under index keys).
    void reset() noexcept { cache_.clear(); }

    /// Makes room for steps of up to `bodies` bodies, `manifolds` manifolds and `points` points, so
    /// that no step up to that size allocates. The only call that may throw (std::bad_alloc).
    void reserve(std::size_t bodies, std::size_t manifolds, std::size_t points)
    {
        state_.reserve(bodies);
        used_.reserve(bodies);
        colour_of_.reserve(manifolds);
        points_of_.reserve(manifolds);
        cache_first_.reserve(manifolds);
        colour_first_.reserve(manifolds);
        stages_.reserve(stage_count(settings.substeps < 1 ? 1 : settings.substeps));
        nonfinite_.reserve(bodies);
        if constexpr (D == 3) deltas_.reserve(bodies);
        inertia_.reserve(bodies);
        movable_.reserve(bodies);
        if constexpr (D == 3) {
            start_.reserve(bodies);
            principal_.reserve(bodies);
        }
        constraints_.reserve(manifolds);
        constraint_of_.reserve(manifolds);
        packets_.reserve(manifolds / std::size_t(W) + 1);
        rows_.reserve(points / std::size_t(W) + 1);
        singles_.reserve(manifolds);
        points_.reserve(points);
        axes_.reserve(points);
        cache_.reserve(points);
        next_cache_.reserve(points);
    }

private:
    using A_t = Angular<S, D>;
    using Q = Orientation_t<S, D>;
    static constexpr std::uint32_t none = 0xffffffffu;

    // A body's pose change since prepare. In 3D a defined scalar between the shift and the turn, so
    // that the record is eight scalars, read by the wide passes as two rows of four.
    struct Delta2 {
        Vec<S, 2> dp = Vec<S, 2>::Zero();
        Q dq = identity();
    };
    struct Delta3 {
        Vec<S, 3> dp = Vec<S, 3>::Zero();
        S unused{0};
        Q dq = identity();
    };
    using Delta = std::conditional_t<D == 2, Delta2, Delta3>;

    // A body during the step. In 2D its velocities and its pose change side by side, so that the
    // soft and relaxing passes, which need both, read one record per body (float: 32 bytes, aligned
    // so that none straddles two cache lines); in 3D the velocities alone, the pose changes in their
    // own array (delta(i)): one record per body measured no faster there (docs/performance.md, "A
    // 2D body's velocities and pose change in one record").
    struct alignas(sizeof(Motion<S, D>) + sizeof(Delta) <= 32 ? 32 : 64) Merged {
        Motion<S, D> motion;
        Delta delta;
    };
    struct Apart {
        Motion<S, D> motion;
    };
    using State = std::conditional_t<D == 2, Merged, Apart>;
    static_assert(std::is_standard_layout<Merged>::value && offsetof(Merged, motion) == 0 &&
                      offsetof(Merged, delta) % sizeof(S) == 0 && sizeof(Apart) == sizeof(Motion<S, D>),
                  "a State is rows of scalars, its motion first");
    static_assert(D != 2 || sizeof(Merged) == alignof(Merged), "a 2D State fills its 32 or 64 bytes");
    // Where a 2D State's pose change starts, in scalars (the wide gathers read it as a row).
    static constexpr std::size_t delta_at = offsetof(Merged, delta) / sizeof(S);
    Delta& delta(std::size_t i) noexcept
    {
        if constexpr (D == 2) return state_[i].delta;
        else return deltas_[i];
    }
    const Delta& delta(std::size_t i) const noexcept
    {
        if constexpr (D == 2) return state_[i].delta;
        else return deltas_[i];
    }

    // One point of a constraint.
    // A point's state: what every path reads and writes (pack gathers rA ... mu into lanes, unpack
    // and store read the impulses back). Its axes are kept apart (PointAxes) so that, where they
    // are not used (a packet's points, whose axes pack builds in lanes), the points' state lies
    // together in memory rather than one small piece per line.
    struct Point {
        Vec<S, D> rA, rB;               // anchors (world, fixed for the step)
        S base{0};                      // separation - n.(rB - rA): s = base + n.(dpB - dpA + qB rB - qA rA)
        S jn{0};                        // accumulated normal impulse (per substep)
        Vec<S, D - 1> jt = Vec<S, D - 1>::Zero();  // accumulated friction along t (per substep)
        S total{0};                     // normal impulse applied over the step
        S approach{0};                  // vn at prepare (restitution's approach speed)
        S mu{0};                        // friction coefficient in force (mu_s while sticking, else mu_k)
        std::uint32_t feature{0};       // as given
    };
    // A point's axes, at the point's index in axes_; set by build only for the points solved one
    // contact at a time (and by restitution where it needs them).
    struct PointAxes {
        ContactAxis<S, D> n;            // the normal axis
        ContactAxis<S, D> t[D - 1];     // the tangent axes
    };

    // One manifold.
    struct Constraint {
        std::uint32_t a{0}, b{0};   // body indices
        bool write_a{false}, write_b{false};  // movable: written back
        bool swapped{false};        // A is the body of the higher id (warm-start canonical order)
        std::uint8_t shock{0};      // heavy on light: 1, A is the lower body (held in the shock pass); 2, B
        bool in_rows{false};        // in a packet: its points' axes are left unset (pack builds them in lanes)
        bool bounces{false};        // some point approached faster than the threshold, with restitution > 0
        int count{0};
        std::size_t first{0};       // first point in points_
        Vec<S, D> normal = Vec<S, D>::UnitX();
        Softness<S> soft;
        S restitution{0}, threshold{0};
        S rolling_resistance{0};
        ContactAxis<S, D> roll[D - 1];  // rolling axes (angular: spin only)
        Vec<S, D - 1> jr = Vec<S, D - 1>::Zero();  // accumulated rolling impulse
        Vec<S, D - 1> tangent_speed = Vec<S, D - 1>::Zero();
        Vec<S, D> tangent[D - 1];   // the tangent directions (contact_basis), every point's
        std::uint64_t key{0};
        S fingerprint_a{0}, fingerprint_b{0};  // inverse masses in canonical order (stale-key check)
    };

    // The runs of scalars pack moves through transposes: one after another.
    static_assert(std::is_standard_layout<Point>::value && std::is_standard_layout<Constraint>::value,
                  "offsetof below");
    static_assert(offsetof(Point, rB) == offsetof(Point, rA) + D * sizeof(S) &&
                      offsetof(Point, base) == offsetof(Point, rA) + 2 * D * sizeof(S) &&
                      offsetof(Point, jn) == offsetof(Point, base) + sizeof(S) &&
                      offsetof(Point, jt) == offsetof(Point, base) + 2 * sizeof(S) &&
                      offsetof(Point, total) == offsetof(Point, base) + (D + 1) * sizeof(S) &&
                      offsetof(Point, approach) == offsetof(Point, total) + sizeof(S) &&
                      offsetof(Point, mu) == offsetof(Point, total) + 2 * sizeof(S),
                  "a point's rA ... mu are consecutive scalars");
    static_assert(offsetof(Constraint, soft) == offsetof(Constraint, normal) + D * sizeof(S) &&
                      offsetof(Softness<S>, bias_rate) == 0 && offsetof(Softness<S>, mass_scale) == sizeof(S) &&
                      offsetof(Softness<S>, impulse_scale) == 2 * sizeof(S) &&
                      offsetof(Constraint, restitution) == offsetof(Constraint, normal) + (D + 3) * sizeof(S) &&
                      offsetof(Constraint, threshold) == offsetof(Constraint, normal) + (D + 4) * sizeof(S) &&
                      offsetof(Constraint, rolling_resistance) == offsetof(Constraint, normal) + (D + 5) * sizeof(S),
                  "a constraint's normal ... rolling_resistance are consecutive scalars");

    // A point's impulses kept for the next step, in canonical order (A the lower id).
    struct Cached {
        std::uint64_t key{0};
        std::uint32_t feature{0};
        S jn{0};
        Vec<S, D> jt = Vec<S, D>::Zero();  // friction impulse on canonical B, world
        Vec<S, D> jr = Vec<S, D>::Zero();  // rolling angular impulse on canonical B, world
        bool sticking{true};
        S fingerprint_a{0}, fingerprint_b{0};
        bool operator<(const Cached& o) const noexcept { return key != o.key ? key < o.key : feature < o.feature; }
        bool same_point(const Cached& o) const noexcept { return key == o.key && feature == o.feature; }
    };

    static bool report(const Violation& v) noexcept
    {
        IMPULSE_ASSERT(!v, v.message);
        (void)v;
        return true;
    }

    static Q identity() noexcept
    {
        if constexpr (D == 2) return Rot2<S>();
        else return Eigen::Quaternion<S>::Identity();
    }

    // ---- bodies ------------------------------------------------------------------------------

    void resize_bodies(std::size_t n, std::size_t manifolds) noexcept
    {
        nonfinite_.clear();
        if (nonfinite_.capacity() < n) nonfinite_.reserve(n);  // every body may be listed: no growth later
        state_.resize(n);
        if constexpr (D == 3) deltas_.resize(n);
        inertia_.resize(n);
        movable_.resize(n);
        used_.resize(n);
        lower_.resize(n);
        if constexpr (D == 3) {
            start_.resize(n);
            principal_.resize(n);
        }
        constraint_of_.resize(manifolds);
        colour_of_.resize(manifolds);
        points_of_.resize(manifolds);
        shock_of_.resize(manifolds);
        height_.resize(manifolds);
        cache_first_.resize(manifolds);
        colour_first_.resize(manifolds);
    }

    void load_bodies(const BodyView<S, D>& bodies, std::size_t begin, std::size_t end) noexcept
    {
        for (std::size_t i = begin; i < end; ++i) {
            Motion<S, D>& m = state_[i].motion;
            m.v = Eigen::Map<const Vec<S, D>>(bodies.velocity[i]);
            if constexpr (D == 2) m.omega = *bodies.angular_velocity[i];
            else m.omega = Eigen::Map<const Vec<S, 3>>(bodies.angular_velocity[i]);
            m.inv_mass = *bodies.inv_mass[i];
            delta(i) = Delta();
            if constexpr (D == 2) {
                inertia_[i] = *bodies.inv_inertia[i];
                movable_[i] = m.inv_mass != S(0) || inertia_[i] != S(0);
            } else {
                start_[i] = orientation(bodies, i);
                principal_[i] = Eigen::Map<const Vec<S, 3>>(bodies.inv_inertia[i]);
                const Eigen::Matrix<S, 3, 3> R = start_[i].toRotationMatrix();
                inertia_[i] = R * principal_[i].asDiagonal() * R.transpose();
                movable_[i] = m.inv_mass != S(0) || !principal_[i].isZero(S(0));
            }
            used_[i] = 0;
        }
    }

    static Q orientation(const BodyView<S, D>& bodies, std::size_t i) noexcept
    {
        if constexpr (D == 2) {
            if (bodies.angle) return Rot2<S>::from_angle(*bodies.angle[i]);
            const S* q = bodies.rotation[i];
            return Rot2<S>(q[0], q[1]);
        } else {
            const S* q = bodies.rotation[i];
            return Eigen::Quaternion<S>(q[3], q[0], q[1], q[2]);  // (w, x, y, z)
        }
    }

    void integrate_velocities(const BodyView<S, D>& bodies, S h, std::size_t begin, std::size_t end) noexcept
    {
        for (std::size_t i = begin; i < end; ++i) {
            if (!movable_[i]) continue;
            Motion<S, D>& m = state_[i].motion;
            // v += h (g + F/m): gravity for bodies with mass; the caller's force and torque.
            if (m.inv_mass > S(0)) m.v += h * settings.gravity;
            if (bodies.force) m.v += (h * m.inv_mass) * Eigen::Map<const Vec<S, D>>(bodies.force[i]);
            if constexpr (D == 2) {
                if (bodies.torque) m.omega += h * inertia_[i] * *bodies.torque[i];
            } else {
                // The gyroscopic term w x I w vanishes for equal principal moments (a sphere, a cube)
                // and is skipped where a moment is infinite (an axis that cannot turn).
                const Vec<S, 3>& inv = principal_[i];
                const bool torque = bool(bodies.torque);
                const bool spins = settings.gyroscopic && m.omega != Vec<S, 3>::Zero() && (inv.array() > S(0)).all() &&
                                   !(inv.x() == inv.y() && inv.y() == inv.z());
                if (!torque && !spins) continue;
                // This substep's orientation: the pose change since prepare applied to the start.
                const Eigen::Matrix<S, 3, 3> R = (delta(i).dq * start_[i]).toRotationMatrix();
                Vec<S, 3> w = R.transpose() * m.omega;  // body axes
                if (torque) w += h * inv.cwiseProduct(R.transpose() * Eigen::Map<const Vec<S, 3>>(bodies.torque[i]));
                if (spins) w = gyroscopic_step(w, inv.cwiseInverse(), h);
                m.omega = R * w;
            }
        }
    }

    // One Newton step on backward Euler for I dw/dt + w x I w = 0 in body axes (I diagonal, the
    // principal moments), from w1: w2 = w1 - J^-1 (h w1 x I w1), J = I + h (skew(w1) I - skew(I w1)).
    static Vec<S, 3> gyroscopic_step(const Vec<S, 3>& w1, const Vec<S, 3>& moments, S h) noexcept
    {
        // The moments scaled by a power of two that brings the largest near 1: every product below
        // scales by that power exactly, so the step is the same bits as with the moments themselves
        // wherever those stay in range, and J's determinant and cofactors (cubes and squares of the
        // moments) cannot overflow where the moments alone would not.
        int e = 0;
        (void)std::frexp(moments.maxCoeff(), &e);
        const Vec<S, 3> I(std::ldexp(moments.x(), -e), std::ldexp(moments.y(), -e), std::ldexp(moments.z(), -e));
        const Vec<S, 3> L = I.cwiseProduct(w1);  // angular momentum, body axes (scaled)
        const Vec<S, 3> f = h * w1.cross(L);
        auto skew = [](const Vec<S, 3>& a) {
            Eigen::Matrix<S, 3, 3> k;
            k << S(0), -a.z(), a.y(), a.z(), S(0), -a.x(), -a.y(), a.x(), S(0);
            return k;
        };
        const Eigen::Matrix<S, 3, 3> J =
            Eigen::Matrix<S, 3, 3>(I.asDiagonal()) + h * (skew(w1) * I.asDiagonal() - skew(L));
        // J is I plus terms of order h |w| I (J = I for a sphere): it can lose rank only when the
        // body turns by about a radian per substep; then w1 is kept rather than divided by ~0.
        const S det = J.determinant();
        if (!(std::abs(det) > S(1e-3) * I.prod())) return w1;
        // A spin so fast that h w x I w, or J's determinant, is not finite: no Newton step from it.
        if (!(std::abs(det) <= std::numeric_limits<S>::max()) || !f.allFinite()) return w1;
        return w1 - J.inverse() * f;
    }

    void integrate_positions(S h, std::size_t begin, std::size_t end) noexcept
    {
        const S max2 = settings.max_linear_speed * settings.max_linear_speed;
        for (std::size_t i = begin; i < end; ++i) {
            Motion<S, D>& m = state_[i].motion;
            if (movable_[i]) {
                // |v| without overflow in the square: a float body at 1e20 m/s is slowed to the
                // limit, not stopped (400 / inf = 0).
                if (m.v.squaredNorm() > max2) m.v *= settings.max_linear_speed / detail::safe_norm(m.v);
            }
            Delta& d = delta(i);
            d.dp += h * m.v;
            d.dq = turn(d.dq, h, m.omega);
        }
    }

    // q turned by the angle h omega, normalised (2D: q + h omega perp(q); 3D: q + h/2 (0, omega) q).
    static Q turn(const Q& q, S h, const A_t& omega) noexcept
    {
        // Normalised with safe_norm: a spin so fast that the squares overflow still gives a unit
        // rotation, not 0 (which the next substep would turn into 0 / 0).
        if constexpr (D == 2) {
            const S a = h * omega;
            const S c = q.c - a * q.s, s = q.s + a * q.c;
            const S len = detail::safe_norm(Vec<S, 2>(c, s));
            return Rot2<S>(c / len, s / len);
        } else {
            const Vec<S, 3> w = (S(0.5) * h) * omega;
            Eigen::Quaternion<S> r;
            r.w() = q.w() - w.dot(q.vec());
            r.vec() = q.vec() + q.w() * w + w.cross(q.vec());
            r.coeffs() /= detail::safe_norm(Vec<S, 4>(r.coeffs()));
            return r;
        }
    }

    // Writes bodies [begin, end) back; used_ keeps whether each is finite for collect_nonfinite.
    void write_bodies(const BodyView<S, D>& bodies, std::size_t begin, std::size_t end) noexcept
    {
        for (std::size_t i = begin; i < end; ++i) {
            write_body(bodies, i);
            used_[i] = finite_state(bodies, i) ? 0u : 1u;
        }
    }

    void collect_nonfinite() noexcept
    {
        const std::size_t n = used_.size();
        for (std::size_t i = 0; i < n; ++i)
            if (used_[i]) nonfinite_.push_back(std::uint32_t(i));
    }

    // Position, rotation (or angle), velocity and angular velocity of body i all finite.
    static bool finite_state(const BodyView<S, D>& bodies, std::size_t i) noexcept
    {
        constexpr int A = D == 2 ? 1 : 3, Qn = D == 2 ? 2 : 4;
        const bool rotation = D == 2 && bodies.angle ? detail::all_finite(bodies.angle[i], 1)
                                                     : detail::all_finite(bodies.rotation[i], Qn);
        return rotation && detail::all_finite(bodies.position[i], D) && detail::all_finite(bodies.velocity[i], D) &&
               detail::all_finite(bodies.angular_velocity[i], A);
    }

    void write_body(const BodyView<S, D>& bodies, std::size_t i) noexcept
    {
        // An immovable body at rest is not written at all (not even its rotation renormalised).
        const Motion<S, D>& m = state_[i].motion;
        if (!movable_[i] && m.v == Vec<S, D>::Zero() && m.omega == Rotation<S, D>::zero_angular()) return;
        const Delta& d = delta(i);
        Eigen::Map<Vec<S, D>> p(bodies.position[i]);
        p += d.dp;
        if constexpr (D == 2) {
            if (bodies.angle) {
                *bodies.angle[i] += std::atan2(d.dq.s, d.dq.c);
            } else {
                S* q = bodies.rotation[i];
                const Rot2<S> r = d.dq * Rot2<S>(q[0], q[1]);
                const S len = std::sqrt(r.c * r.c + r.s * r.s);
                q[0] = r.c / len;
                q[1] = r.s / len;
            }
        } else {
            S* q = bodies.rotation[i];
            Eigen::Quaternion<S> r = d.dq * Eigen::Quaternion<S>(q[3], q[0], q[1], q[2]);
            r.normalize();
            q[0] = r.x();
            q[1] = r.y();
            q[2] = r.z();
            q[3] = r.w();
        }
        if (!movable_[i]) return;
        Eigen::Map<Vec<S, D>>(bodies.velocity[i]) = m.v;
        if constexpr (D == 2) *bodies.angular_velocity[i] = m.omega;
        else Eigen::Map<Vec<S, 3>>(bodies.angular_velocity[i]) = m.omega;
    }

    // ---- contacts ----------------------------------------------------------------------------

    std::uint64_t id_of(const BodyView<S, D>& bodies, std::uint32_t i) const noexcept
    {
        return bodies.id ? *bodies.id[i] : std::uint64_t(i);
    }

    // Colours the contacts (serial, in the order given) and lays them out in colour order.
    //
    // The rule: a contact with an immovable body takes the lowest colour its movable body has not
    // taken yet; a contact between two movable bodies takes the lowest colour from
    // static_colours up that neither body has taken. So the contacts with the ground come first
    // (each body has only a few), as a narrow phase that reports the ground's contacts first would
    // order them, and the contacts within a pile fill the colours after them. A contact whose bodies
    // have taken every colour it may take goes to the overflow, solved serially after the colours.
    // The colours depend on the order of the manifolds alone, never on the number of workers.
    static constexpr int static_colours = 4;
    static_assert(static_colours < colour_count && colour_count < 32, "a body's colours are the bits of a 32-bit word");

    // Within the contract's ranges (validate): a manifold outside them is skipped rather than read
    // out of bounds.
    static bool in_range(const BodyView<S, D>& bodies, const Manifold<S, D>& mf) noexcept
    {
        return mf.count > 0 && mf.count <= Manifold<S, D>::max_points && mf.a < bodies.count && mf.b < bodies.count &&
               mf.a != mf.b;
    }

    // Heavy on light: shock_of_[m] for each manifold (0: an ordinary contact; 1: A is the lower
    // body; 2: B is), and height_[m], the height of its lower body along -gravity (the lowest for a
    // contact with an immovable body). First the contacts between movable bodies whose normal is
    // within 45 degrees of gravity and whose upper body is shock_mass_ratio times heavier; then
    // the contacts of their lower bodies with immovable ones. Returns whether there is any.
    bool find_shock(const BodyView<S, D>& bodies, const Manifold<S, D>* manifolds, std::size_t count) noexcept
    {
        const S weight = settings.gravity.norm();
        if (!settings.shock_propagation || !(weight > S(0)) || !(weight <= std::numeric_limits<S>::max())) return false;
        const Vec<S, D> up = -settings.gravity / weight;
        const S vertical = S(0.70710678118654752);  // cos 45 degrees
        const S ratio = settings.shock_mass_ratio;
        // No pair is heavy on light when the movable bodies' inverse masses all lie within the
        // ratio of each other (a NaN one makes no pair either, and is passed over here too).
        S least = std::numeric_limits<S>::infinity(), most = S(0);
        for (std::size_t i = 0; i < state_.size(); ++i) {
            if (!movable_[i]) continue;
            const S x = state_[i].motion.inv_mass;
            if (x < least) least = x;
            if (x > most) most = x;
        }
        if (!(most >= ratio * least)) return false;
        std::fill(shock_of_.begin(), shock_of_.begin() + std::ptrdiff_t(count), std::uint8_t(0));
        std::fill(lower_.begin(), lower_.end(), 0);
        bool any = false;
        for (std::size_t m = 0; m < count; ++m) {
            const Manifold<S, D>& mf = manifolds[m];
            if (!in_range(bodies, mf) || !movable_[mf.a] || !movable_[mf.b]) continue;
            const S cosine = mf.n.dot(up);
            const S ia = state_[mf.a].motion.inv_mass, ib = state_[mf.b].motion.inv_mass;
            std::uint8_t kind = 0;
            // The heavy body has mass: one movable through its inertia alone (inverse mass 0, a
            // rotor on a fixed axle) carries no weight, and held against the light one it could
            // answer only by turning, by 1 / its arm.
            if (cosine >= vertical && ia >= ratio * ib && ib > S(0)) kind = 1;  // B on top of A
            else if (cosine <= -vertical && ib >= ratio * ia && ia > S(0)) kind = 2;
            if (kind == 0) continue;
            const std::uint32_t low = kind == 1 ? mf.a : mf.b;
            shock_of_[m] = kind;
            lower_[low] = 1;
            const S height = Eigen::Map<const Vec<S, D>>(bodies.position[low]).dot(up);
            height_[m] = height == height ? height : std::numeric_limits<S>::infinity();  // NaN: last (a strict order)
            any = true;
        }
        if (!any) return false;
        for (std::size_t m = 0; m < count; ++m) {
            const Manifold<S, D>& mf = manifolds[m];
            if (!in_range(bodies, mf) || movable_[mf.a] == movable_[mf.b] || !lower_[movable_[mf.a] ? mf.a : mf.b])
                continue;
            shock_of_[m] = movable_[mf.a] ? 2 : 1;  // the immovable one is held
            height_[m] = -std::numeric_limits<S>::infinity();
        }
        return true;
    }

    void colour_contacts(const BodyView<S, D>& bodies, const Manifold<S, D>* manifolds, std::size_t count) noexcept
    {
        bouncing_.clear();  // build() raises it
        constexpr int most = Manifold<S, D>::max_points;
        // Contacts per colour and point count: within a colour (whose contacts are independent) those
        // of one point count are laid out together, for the wide rows; the overflow keeps the order given.
        std::size_t sizes[colour_count + 1][most + 1] = {};
        std::size_t points = 0;
        const bool shocks = find_shock(bodies, manifolds, count);
        const bool colouring = settings.colouring;
        constexpr std::uint32_t all_colours = (1u << colour_count) - 1u;
        constexpr std::uint32_t movable_colours = all_colours & ~((1u << static_colours) - 1u);
        // The loop is serial and waits on each manifold's pair and point count: ask for the cache
        // lines that hold them (a manifold's first two, for float) a few thousand bytes ahead.
        constexpr std::size_t ahead = std::max<std::size_t>(1, 2048 / sizeof(Manifold<S, D>));
        for (std::size_t m = 0; m < count; ++m) {
            const Manifold<S, D>& mf = manifolds[m];
            if (m + ahead < count) detail::prefetch_lines(&manifolds[m + ahead]);
            constraint_of_[m] = none;
            colour_of_[m] = 0xff;
            if (!in_range(bodies, mf)) continue;
            const bool wa = movable_[mf.a], wb = movable_[mf.b];
            if (!wa && !wb) continue;  // nothing can move
            int k = colour_count;  // the overflow: all of them without colouring, and heavy on light
            const std::uint32_t taken = (wa ? used_[mf.a] : 0u) | (wb ? used_[mf.b] : 0u);
            if (colouring && !(shocks && shock_of_[m])) {
                // The colours it may take (from static_colours up between movable bodies) not taken.
                const std::uint32_t free = ~taken & (wa && wb ? movable_colours : all_colours);
                if (free) k = detail::lowest_bit(free);
            }
            if (k < colour_count) {
                if (wa) used_[mf.a] |= 1u << k;
                if (wb) used_[mf.b] |= 1u << k;
            }
            colour_of_[m] = std::uint8_t(k);
            points_of_[m] = std::uint8_t(mf.count);
            ++sizes[k][mf.count];
            cache_first_[m] = points;
            points += std::size_t(mf.count);
        }
        // Where each run of a colour and point count starts, in constraints (at) and in points
        // (point_at); the overflow is one run in the order given, whatever its point counts.
        std::size_t at[colour_count + 1][most + 1], point_at[colour_count + 1][most + 1];
        colour_start_[0] = 0;
        std::size_t p = 0;
        for (int k = 0; k <= colour_count; ++k) {
            std::size_t next = colour_start_[std::size_t(k)];
            for (int n = 1; n <= most; ++n) {
                at[k][n] = k == colour_count ? colour_start_[std::size_t(k)] : next;
                point_at[k][n] = p;
                next += sizes[k][n];
                if (k < colour_count) p += sizes[k][n] * std::size_t(n);
            }
            colour_start_[std::size_t(k) + 1] = next;
        }
        const std::size_t total = colour_start_[colour_count + 1];
        constraints_.resize(total);
        points_.resize(points);
        axes_.resize(points);
        next_cache_.resize(points);
        for (std::size_t m = 0; m < count; ++m) {
            if (colour_of_[m] == 0xff) continue;
            const int k = colour_of_[m];
            const int run = k == colour_count ? 1 : points_of_[m];
            constraint_of_[m] = std::uint32_t(at[k][run]++);
            // The points in colour order too, so that a pass reads them in order.
            colour_first_[m] = point_at[k][run];
            point_at[k][run] += points_of_[m];
        }
        // The shock pass's order: the lowest lower body first (the ground's contacts before all),
        // ties in the order given.
        shock_.clear();
        if (shocks) {
            for (std::size_t m = 0; m < count; ++m)
                if (colour_of_[m] != 0xff && shock_of_[m]) shock_.push_back(std::uint32_t(m));
            std::sort(shock_.begin(), shock_.end(), [this](std::uint32_t x, std::uint32_t y) {
                return height_[x] != height_[y] ? height_[x] < height_[y] : x < y;
            });
            for (std::uint32_t& m : shock_) m = constraint_of_[m];
        }
        plan_rows(sizes);
        // Each colour's sizes are known now: cut its stages into blocks.
        for (detail::Stage& st : stages_) {
            if (st.arg == no_colour) continue;
            const bool rows = wide_ && st.arg < colour_count && st.kind != restitute;
            st.items = rows ? (first_packet(st.arg + 1) - first_packet(st.arg)) +
                                  (single_start_[st.arg + 1] - single_start_[st.arg])
                            : colour_start_[st.arg + 1] - colour_start_[st.arg];
            st.blocks = blocks_for(st.items, st.arg == colour_count ? 0 : rows ? row_block : contact_block);
        }
    }

    // The wide rows of each colour: its contacts of one point count, W at a time, as packets; the
    // rest (fewer than W of a count) as single contacts. Without wide rows every contact is single.
    // Only the runs of packets (a colour's contacts of one point count) are laid out here, each
    // packet's place in them is set by pack, in parallel: setting it here cost a cache miss per packet
    // on the step's serial path.
    template <std::size_t Most>
    void plan_rows(const std::size_t (&sizes)[colour_count + 1][Most]) noexcept
    {
        static_assert(Most == std::size_t(Manifold<S, D>::max_points) + 1, "a run per colour and point count");
        singles_.clear();
        std::size_t packets = 0, wide_points = 0;
        RowRun* run = runs_;
        for (int k = 0; k < colour_count; ++k) {
            single_start_[std::size_t(k)] = singles_.size();
            std::size_t c = colour_start_[std::size_t(k)];
            for (std::size_t n = 1; n < Most; ++n, ++run) {
                const std::size_t full = wide_ ? sizes[k][n] / W * W : 0;
                *run = RowRun{packets, c, wide_points, int(n)};
                packets += full / W;
                wide_points += full / W * n;
                if (wide_)
                    for (std::size_t i = full; i < sizes[k][n]; ++i) singles_.push_back(std::uint32_t(c + i));
                c += sizes[k][n];
            }
        }
        *run = RowRun{packets, 0, wide_points, 0};
        single_start_[colour_count] = singles_.size();
        packets_.resize(packets);
        rows_.resize(wide_points);
    }

    // Builds the constraints of manifolds [begin, end), each into its place in colour order. Read in
    // the order given, the manifolds, last step's impulses (cache_) and, for a narrow phase that
    // reports pairs sorted, the bodies are met in memory order; only the writes are scattered.
    void build(const BodyView<S, D>& bodies, const Manifold<S, D>* manifolds, S h, std::size_t begin,
               std::size_t end) noexcept
    {
        const S hertz = std::min(settings.contact_hertz, S(0.25) / h);
        const Softness<S> soft = make_softness(hertz, settings.contact_damping_ratio, h);
        const Softness<S> stiff = make_softness(settings.static_hertz_scale * hertz, settings.contact_damping_ratio, h);
        const S scale = cache_h_ > S(0) ? h / cache_h_ : S(1);  // impulses per substep: rescale to this h
        // The writes land in colour order, a stream per colour and point count: each constraint and
        // its points are asked for (for writing) six manifolds ahead, so that their lines are on
        // their way while the manifolds before them are built.
        constexpr std::size_t ahead = 6;
        for (std::size_t m = begin; m < end; ++m) {
            if (m + ahead < end) {
                const std::uint32_t next = constraint_of_[m + ahead];
                if (next != none) {
                    const int n = points_of_[m + ahead];
                    const std::size_t point = colour_first_[m + ahead];
                    detail::prefetch_for_write(&constraints_[next], sizeof(Constraint));
                    detail::prefetch_for_write(&points_[point], sizeof(Point) * std::size_t(n));
                    if (!in_packet(next, colour_of_[m + ahead], n))
                        detail::prefetch_for_write(&axes_[point], sizeof(PointAxes) * std::size_t(n));
                }
            }
            const std::uint32_t ci = constraint_of_[m];
            if (ci == none) continue;  // skipped (colour_contacts)
            const Manifold<S, D>& mf = manifolds[m];
            Constraint& c = constraints_[ci];  // in place, as the points below
            c.a = mf.a;
            c.b = mf.b;
            c.write_a = movable_[mf.a];
            c.write_b = movable_[mf.b];
            c.count = mf.count;
            c.first = colour_first_[m];
            c.normal = mf.n;
            c.soft = c.write_a && c.write_b ? soft : stiff;
            c.restitution = mf.coefficients.restitution;
            c.threshold = mf.coefficients.threshold;
            c.rolling_resistance = mf.rolling_resistance;
            const std::uint64_t ia = id_of(bodies, mf.a), ib = id_of(bodies, mf.b);
            c.swapped = ia > ib;
            c.key = mf.key != 0 ? mf.key : (std::min(ia, ib) << 32) ^ std::max(ia, ib);
            c.fingerprint_a = c.swapped ? state_[mf.b].motion.inv_mass : state_[mf.a].motion.inv_mass;
            c.fingerprint_b = c.swapped ? state_[mf.a].motion.inv_mass : state_[mf.b].motion.inv_mass;
            const Eigen::Matrix<S, D, D> basis = contact_basis(mf.n);
            for (int k = 0; k < D - 1; ++k) {
                c.tangent[k] = basis.col(k + 1);
                c.tangent_speed[k] = mf.tangent_velocity.dot(c.tangent[k]);
            }
            const Mass body_a{state_[mf.a].motion.inv_mass, inertia_[mf.a]}, body_b{state_[mf.b].motion.inv_mass, inertia_[mf.b]};
            // Rolling: an angular impulse about the tangent axes (2D: about the plane's normal).
            if constexpr (D == 2) {
                c.roll[0] = spin_axis(body_a, body_b, S(1));
            } else {
                for (int k = 0; k < 2; ++k) c.roll[k] = spin_axis(body_a, body_b, Vec<S, 3>(basis.col(k + 1)));
            }
            c.jr.setZero();
            c.shock = 0;
            c.bounces = false;
            // A packet's axes are built in its lanes from the anchors (pack).
            c.in_rows = in_packet(ci, colour_of_[m], mf.count);
            for (int i = 0; i < mf.count; ++i) {
                const ManifoldPoint<S, D>& mp = mf.points[i];
                // Written field by field in place: a whole Point built aside and copied cost more
                // than its arithmetic (its parts stored one way and reloaded another).
                Point& p = points_[c.first + std::size_t(i)];
                p.rA = mp.rA;
                p.rB = mp.rB;
                if (c.in_rows) {  // the normal's arms here only for the approach speed
                    ContactAxis<S, D> n;
                    set_arms(n, mp.rA, mp.rB, mf.n);
                    p.approach = n.speed(state_[mf.a].motion, state_[mf.b].motion);
                } else {
                    const RigidPair pair{body_a, mp.rA, body_b, mp.rB};
                    PointAxes& ax = axes_[c.first + std::size_t(i)];
                    ax.n = axis(pair, mf.n);
                    for (int k = 0; k < D - 1; ++k) ax.t[k] = axis(pair, c.tangent[k]);
                    p.approach = ax.n.speed(state_[mf.a].motion, state_[mf.b].motion);
                }
                p.base = mp.separation - mf.n.dot(mp.rB - mp.rA);
                p.jn = S(0);
                p.jt.setZero();
                p.total = S(0);
                p.mu = mf.coefficients.friction.mu_s;
                p.feature = mp.feature;
                if (p.approach < -c.threshold) c.bounces = true;
            }
            c.bounces = c.bounces && c.restitution > S(0);
            if (c.bounces) bouncing_.set();
            if (settings.warm_start) find_warm_start(c, mf, scale, cache_first_[m]);
            if (!shock_.empty() && ci >= colour_start_[colour_count]) {
                c.shock = shock_of_[m];
                if (c.shock) stiffen(c, h, c.write_a && c.write_b ? hertz : settings.static_hertz_scale * hertz);
            }
            if (settings.load_hertz_scale > S(1) && !c.shock && c.write_a && c.write_b)
                stiffen_by_load(c, body_a, body_b, h, hertz);
        }
    }

    // Heavy on light: a contact spring of frequency f carrying a load F (last step's impulse per
    // substep over h) on effective mass m sinks F / (m (2 pi f)^2); the frequency raised by
    // sqrt(F / (m g)) (never lowered) makes that g / (2 pi f)^2, the sag of a contact carrying its
    // own body. The factor is capped at 1e4 (a contact that stiff is rigid to the soft step: the
    // bias then pushes out all of an overlap in a substep), which keeps the softness finite.
    void stiffen(Constraint& c, S h, S hertz) const noexcept
    {
        const S weight = settings.gravity.norm();
        S ratio{1};
        for (int i = 0; i < c.count; ++i) {
            const std::size_t at = c.first + std::size_t(i);
            const S r = points_[at].jn / (weight * h * axes_[at].n.mass);  // not in rows: axes set
            if (r > ratio) ratio = r;  // false for NaN (a body not finite): not stiffened
        }
        if (ratio > S(1e8)) ratio = S(1e8);
        if (ratio > S(1)) c.soft = make_softness(hertz * std::sqrt(ratio), settings.contact_damping_ratio, h);
    }

    // The mass properties of a body as a ContactAxis needs them.
    struct Mass {
        S inv_mass;
        Inertia<S, D> inv_inertia;
    };
    // A contact between two of them at anchors rA, rB: the model ContactAxis is built from.
    struct RigidPair {
        const Mass& A;
        Vec<S, D> rA;
        const Mass& B;
        Vec<S, D> rB;
        S inverse_mass(const Vec<S, D>& d) const noexcept
        {
            S k = A.inv_mass + B.inv_mass;
            if constexpr (D == 2) {
                const S ra = cross(rA, d), rb = cross(rB, d);
                k += ra * ra * A.inv_inertia + rb * rb * B.inv_inertia;
            } else {
                const Vec<S, 3> ra = rA.cross(d), rb = rB.cross(d);
                k += ra.dot(detail::ordered_product(A.inv_inertia, ra)) +
                     rb.dot(detail::ordered_product(B.inv_inertia, rb));
            }
            return k;
        }
    };

    // A contact under load (settings.load_hertz_scale): its frequency raised as stiffen's, by the
    // load each point carried last step (the warm start's impulse per substep over h, on the point's
    // effective mass along the normal) over load_hertz_from of its weights, up to load_hertz_scale
    // times its own and never above a quarter of the substep rate, the cap of contact_hertz.
    // Computed from the manifold and the bodies alone, so wide rows and one contact at a time agree.
    void stiffen_by_load(Constraint& c, const Mass& A, const Mass& B, S h, S hertz) const noexcept
    {
        const S limit = std::min(settings.load_hertz_scale * hertz, S(0.25) / h);
        const S weight = settings.gravity.norm() * settings.load_hertz_from;
        if (!(hertz < limit) || !(weight > S(0))) return;
        S ratio{1};
        for (int i = 0; i < c.count; ++i) {
            const Point& p = points_[c.first + std::size_t(i)];
            if (!(p.jn > S(0))) continue;
            const RigidPair pair{A, p.rA, B, p.rB};
            const S r = p.jn * pair.inverse_mass(c.normal) / (weight * h);
            if (r > ratio) ratio = r;  // false for NaN (a body not finite): not stiffened
        }
        if (!(ratio > S(1))) return;
        const S f = hertz * std::sqrt(ratio);
        c.soft = make_softness(f < limit ? f : limit, settings.contact_damping_ratio, h);
    }

    // The contact axis of `pair` along unit d: ContactAxis(pair, d), bit for bit. In 3D without its
    // second pass over the arms: pair.inverse_mass(d) computes rA x d and IA^-1 (rA x d) again,
    // which are the axis's arm and spin, so k is summed from those, in inverse_mass's order.
    static ContactAxis<S, D> axis(const RigidPair& pair, const Vec<S, D>& d) noexcept
    {
        if constexpr (D == 2) {
            return ContactAxis<S, D>(pair, d);
        } else {
            IMPULSE_ASSERT(is_unit(d), "the axis direction must be a unit vector");
            ContactAxis<S, D> r;
            r.d = d;
            r.armA = pair.rA.cross(d);
            r.armB = pair.rB.cross(d);
            r.spinA = detail::ordered_product(pair.A.inv_inertia, r.armA);
            r.spinB = detail::ordered_product(pair.B.inv_inertia, r.armB);
            S k = pair.A.inv_mass + pair.B.inv_mass;
            k += detail::row_dot(r.armA, r.spinA) + detail::row_dot(r.armB, r.spinB);
            if (!(k <= std::numeric_limits<S>::max())) {  // as the constructor: a body that cannot be spun
                k = pair.A.inv_mass + pair.B.inv_mass;
                k += ContactAxis<S, D>::representable_spin(r.armA, r.spinA) +
                     ContactAxis<S, D>::representable_spin(r.armB, r.spinB);
            }
            r.mass = k > S(0) ? S(1) / k : S(0);
            return r;
        }
    }

    // An axis along unit d as far as its arms, rA x d and rB x d as axis() makes them (in 3D Eigen's
    // cross product, component by component); the spins and mass are left as they were. For the
    // approach speed of a point in a packet, whose axes pack builds in the lanes (lane_axis).
    static void set_arms(ContactAxis<S, D>& r, const Vec<S, D>& rA, const Vec<S, D>& rB, const Vec<S, D>& d) noexcept
    {
        if constexpr (D == 2) {
            r.d = d;
            r.armA = cross(rA, d);
            r.armB = cross(rB, d);
        } else {
            for (int k = 0; k < 3; ++k) r.d[k] = d[k];
            r.armA[0] = rA[1] * d[2] - rA[2] * d[1];
            r.armA[1] = rA[2] * d[0] - rA[0] * d[2];
            r.armA[2] = rA[0] * d[1] - rA[1] * d[0];
            r.armB[0] = rB[1] * d[2] - rB[2] * d[1];
            r.armB[1] = rB[2] * d[0] - rB[0] * d[2];
            r.armB[2] = rB[0] * d[1] - rB[1] * d[0];
        }
    }

    // Whether constraint ci, of colour k with n points, is solved in a packet (plan_rows: the first
    // whole W of each colour's contacts of one point count).
    bool in_packet(std::size_t ci, int k, int n) const noexcept
    {
        if (!wide_ || k >= colour_count) return false;
        const RowRun* run = &runs_[std::size_t(k) * std::size_t(Manifold<S, D>::max_points) + std::size_t(n - 1)];
        return ci < run->contact + (run[1].packet - run->packet) * std::size_t(W);
    }

    // An axis that only turns: relative angular velocity along `axis`, effective mass
    // 1 / (axis.(IA^-1 + IB^-1) axis). Built as a ContactAxis with d = 0 and the arms set to the axis.
    static ContactAxis<S, D> spin_axis(const Mass& a, const Mass& b, const A_t& axis) noexcept
    {
        ContactAxis<S, D> r;
        r.d = Vec<S, D>::Zero();
        r.armA = axis;
        r.armB = axis;
        r.spinA = detail::inertia_times(a.inv_inertia, axis);
        r.spinB = detail::inertia_times(b.inv_inertia, axis);
        S k = detail::angular_dot(axis, r.spinA) + detail::angular_dot(axis, r.spinB);
        if (!(k <= std::numeric_limits<S>::max()))  // overflow: a body that cannot be spun (axis.hpp)
            k = ContactAxis<S, D>::representable_spin(r.armA, r.spinA) +
                ContactAxis<S, D>::representable_spin(r.armB, r.spinB);
        r.mass = k > S(0) ? S(1) / k : S(0);
        return r;
    }

    // `guess`: where the manifold's first point would be in the cache if the manifolds came in the
    // same order as last step (its first point in the order given).
    void find_warm_start(Constraint& c, const Manifold<S, D>& mf, S scale, std::size_t guess) noexcept
    {
        for (int i = 0; i < c.count; ++i) {
            Point& p = points_[c.first + std::size_t(i)];
            const std::uint32_t feature = c.swapped ? swap_feature(mf.points[i].feature) : mf.points[i].feature;
            Cached probe;
            probe.key = c.key;
            probe.feature = feature;
            const Cached* hit = lookup(probe, guess + std::size_t(i));
            if (!hit) continue;
            IMPULSE_ASSERT(hit->fingerprint_a == c.fingerprint_a && hit->fingerprint_b == c.fingerprint_b,
                           "a warm-start key matched a pair of other bodies: call reset() after reordering the "
                           "bodies, or give them ids (BodyView::id) or the manifolds keys of their own");
            const S sign = c.swapped ? S(-1) : S(1);  // canonical B is this manifold's A when swapped
            p.jn = scale * hit->jn;
            for (int k = 0; k < D - 1; ++k) p.jt[k] = scale * sign * hit->jt.dot(c.tangent[k]);
            p.mu = hit->sticking ? mf.coefficients.friction.mu_s : mf.coefficients.friction.mu_k;
            if (i == 0) {
                for (int k = 0; k < D - 1; ++k) c.jr[k] = scale * sign * roll_component(c, hit->jr, k);
            }
        }
    }

    // The component of a world angular impulse along rolling axis k.
    static S roll_component(const Constraint& c, const Vec<S, D>& w, int k) noexcept
    {
        if constexpr (D == 2) {
            (void)c;
            (void)k;
            return w[0];
        } else {
            return w.dot(Vec<S, 3>(c.roll[k].armA));
        }
    }

    // The cached point with probe's key and feature, or null. The cache is sorted, and in the order
    // the points were given last step (a narrow phase that reports its pairs sorted by key does
    // both): while the contacts stay the same, a point is where `guess` says, its place in the order
    // given this step; otherwise the search gallops from there, forward or back, to it.
    const Cached* lookup(const Cached& probe, std::size_t guess) const noexcept
    {
        const std::size_t n = cache_.size();
        if (n == 0) return nullptr;
        const std::size_t g = guess < n ? guess : n - 1;
        if (cache_[g].same_point(probe)) return &cache_[g];
        // [lo, hi] holds the first entry not below the probe (hi = n: none is).
        std::size_t lo, hi, stride = 1;
        if (cache_[g] < probe) {
            lo = g + 1;
            hi = lo;
            while (hi < n && cache_[hi] < probe) {
                lo = hi + 1;
                hi = lo + stride;
                stride *= 2;
            }
            if (hi > n) hi = n;
        } else {
            hi = g;
            lo = g;
            while (lo > 0 && !(cache_[lo - 1] < probe)) {
                hi = lo - 1;
                lo = hi > stride ? hi - stride : 0;
                stride *= 2;
            }
        }
        const auto end = hi < n ? cache_.begin() + std::ptrdiff_t(hi) + 1 : cache_.end();
        const auto it = std::lower_bound(cache_.begin() + std::ptrdiff_t(lo), end, probe);
        if (it == cache_.end() || !it->same_point(probe)) return nullptr;
        return &*it;
    }

    void warm_start(std::size_t begin, std::size_t end) noexcept
    {
        State* const state = state_.data();
        for (std::size_t ci = begin; ci < end; ++ci) {
            Constraint& c = constraints_[ci];
            Motion<S, D> A = state[c.a].motion, B = state[c.b].motion;
            for (int i = 0; i < c.count; ++i) {
                Point& p = points_[c.first + std::size_t(i)];
                const PointAxes& ax = axes_[c.first + std::size_t(i)];
                ax.n.apply(A, B, p.jn);
                p.total += p.jn;
                for (int k = 0; k < D - 1; ++k) ax.t[k].apply(A, B, p.jt[k]);
            }
            for (int k = 0; k < D - 1; ++k) c.roll[k].apply(A, B, c.jr[k]);
            if (c.write_a) state[c.a].motion = A;
            if (c.write_b) state[c.b].motion = B;
        }
    }

    // What the separations of a contact's points take from its bodies' pose changes since prepare,
    // s = base + n.(dpB - dpA + qB rB - qA rA) (separation). In 2D the pose changes themselves. In
    // 3D the normal turned back by each body's turn and the normal's part of the centres' shift:
    // n.(q r) = (q^-1 n).r for a unit q, so a contact turns its normal twice where each of its
    // points would turn two anchors (a box's four points: two turns in place of eight).
    struct Shift2 {
        const Delta& da;
        const Delta& db;
        const Vec<S, D>& n;
    };
    struct Shift3 {
        Vec<S, 3> na, nb;  // qA^-1 n, qB^-1 n
        S along;           // n.(dpB - dpA)
    };
    using Shift = std::conditional_t<D == 2, Shift2, Shift3>;
    Shift shift(const Constraint& c) const noexcept
    {
        const Delta& da = delta(c.a);
        const Delta& db = delta(c.b);
        if constexpr (D == 2) {
            return Shift{da, db, c.normal};
        } else {
            const Vec<S, 3> ds = db.dp - da.dp;
            return Shift{da.dq.conjugate() * c.normal, db.dq.conjugate() * c.normal, detail::ordered_dot(c.normal, ds)};
        }
    }
    // The separation of point p now: 2D base + n.((dpB - dpA) + (qB rB - qA rA)); 3D base + (n.(dpB -
    // dpA) + ((qB^-1 n).rB - (qA^-1 n).rA)).
    static S separation(const Shift& sh, const Point& p) noexcept
    {
        if constexpr (D == 2) {
            Vec<S, D> ds = sh.db.dp - sh.da.dp;
            ds += sh.db.dq.rotate(p.rB) - sh.da.dq.rotate(p.rA);
            return p.base + detail::ordered_dot(sh.n, ds);
        } else {
            return p.base + (sh.along + (detail::ordered_dot(sh.nb, p.rB) - detail::ordered_dot(sh.na, p.rA)));
        }
    }

    // v scaled back onto the disc |v| <= cap when outside it (an accumulated 3D friction or rolling
    // impulse). Inside by a margin no rounding can cross (relative 1e-4 against the few ulps of the
    // squares), no square root is taken; near the rim, or with squares out of the normal range,
    // safe_norm decides.
    static void clamp_to_disc(Vec<S, 2>& v, S cap) noexcept
    {
        const S cap2 = cap * cap;
        if (v.squaredNorm() < S(0.9999) * cap2 && cap2 >= std::numeric_limits<S>::min()) return;
        const S size = detail::safe_norm(v);
        if (size > cap) v *= cap / size;
    }

    // Friction at a point or the rolling resistance of a contact: the impulse `acc` accumulated along
    // `axes` kept within +-cap (2D: one axis) or on the disc |acc| <= cap (3D: both axes solved,
    // then the vector clamped), driving each axis's speed to `target` (null: 0).
    // Returns whether the impulse along some axis changed its speed by more than `tolerance`
    // (|dj| > tolerance m, m its effective mass).
    EIGEN_ALWAYS_INLINE static bool bounded(const ContactAxis<S, D> (&axes)[D - 1], Vec<S, D - 1>& acc, const Vec<S, D - 1>* target,
                        S cap, Motion<S, D>& A, Motion<S, D>& B, S tolerance) noexcept
    {
        S speed[D - 1];
        for (int k = 0; k < D - 1; ++k) speed[k] = target ? axes[k].speed(A, B) - (*target)[k] : axes[k].speed(A, B);
        if constexpr (D == 2) {
            const S j = accumulate(acc[0], -axes[0].mass * speed[0], -cap, cap);
            axes[0].apply(A, B, j);
            return tolerance * axes[0].mass < std::abs(j);
        } else {
            const Vec<S, 2> old = acc;
            Vec<S, 2> next(old[0] - axes[0].mass * speed[0], old[1] - axes[1].mass * speed[1]);
            clamp_to_disc(next, cap);
            acc = next;
            const S j0 = next[0] - old[0], j1 = next[1] - old[1];
            axes[0].apply(A, B, j0);
            axes[1].apply(A, B, j1);
            return tolerance * axes[0].mass < std::abs(j0) || tolerance * axes[1].mass < std::abs(j1);
        }
    }

    // Axis x with the body `held` (1: A, 2: B) immovable: its spin dropped, the effective mass the
    // other body's alone (inv_mass_free its inverse mass). The held body's own spin is not counted
    // either (shock_pass).
    static ContactAxis<S, D> one_sided(const ContactAxis<S, D>& x, int held, S inv_mass_free) noexcept
    {
        ContactAxis<S, D> r = x;
        S k = inv_mass_free;
        if (held == 1) {
            r.spinA = Rotation<S, D>::zero_angular();
            k += detail::angular_dot(r.armB, r.spinB);
        } else {
            r.spinB = Rotation<S, D>::zero_angular();
            k += detail::angular_dot(r.armA, r.spinA);
        }
        r.mass = k > S(0) && k <= std::numeric_limits<S>::max() ? S(1) / k : S(0);
        return r;
    }

    // The shock pass (see the top of the file), soft with `bias` or rigid without: the heavy-on-light
    // contacts bottom up, normal impulses only, each with its lower body held still. The impulses
    // add to the accumulated ones only for the clamp (their sum stays >= 0) and are not kept for the
    // warm start; they count in the point's impulse over the step (`total`).
    void shock_pass(S inv_h, bool bias) noexcept
    {
        const S push_out = settings.push_out_speed;
        const S tolerance = settings.manifold_tolerance;
        constexpr int most = Manifold<S, D>::max_points;
        for (const std::uint32_t ci : shock_) {
            const Constraint& c = constraints_[ci];
            const int held = c.shock;
            Motion<S, D> A = state_[c.a].motion, B = state_[c.b].motion;
            // The held body as the pass sees it: immovable, its centre moving on, not turning. Its
            // turn, counted, would move the point by (its spin) x (its arm), which the upper body
            // answers through its own arm; the ordinary passes then hand that motion back to the
            // held body through its arm: a loop that multiplied a spin by the ratio of the two arms
            // in every substep (measured, a rotor on a light body: 65 rad/s to infinity in five
            // substeps, arms of 704 m and 0.04 m). The ordinary passes see its turn.
            (held == 1 ? A : B).inv_mass = S(0);
            (held == 1 ? A : B).omega = Rotation<S, D>::zero_angular();
            const S free_inv = (held == 1 ? B : A).inv_mass;
            Point* const points = &points_[c.first];
            const PointAxes* const axes = &axes_[c.first];
            ContactAxis<S, D> n[most];
            S extra[most] = {};
            for (int i = 0; i < c.count; ++i) n[i] = one_sided(axes[i].n, held, free_inv);
            const int passes = c.count > 1 ? settings.manifold_iterations : 1;
            const Shift sh = shift(c);
            for (int pass = 0; pass < passes; ++pass) {
                bool moved = false;
                for (int i = 0; i < c.count; ++i) {
                    const Point& p = points[i];
                    S sum = p.jn + extra[i];
                    const S j = soft_normal(sum, n[i].speed(A, B), separation(sh, p), n[i].mass, inv_h, c.soft,
                                            push_out, bias);
                    extra[i] += j;
                    points[i].total += j;
                    n[i].apply(A, B, j);
                    moved = moved || tolerance * n[i].mass < std::abs(j);
                }
                if (!moved) break;
            }
            Motion<S, D>& free = held == 1 ? state_[c.b].motion : state_[c.a].motion;
            const Motion<S, D>& solved = held == 1 ? B : A;
            if (held == 1 ? c.write_b : c.write_a) {
                free.v = solved.v;
                free.omega = solved.omega;
            }
        }
    }

    // One pass over every contact: the normal impulses (soft with `bias`, rigid without), then
    // friction within +-mu jn of each point, both again for a manifold of several points while they
    // change its speeds (settings.manifold_iterations), then rolling resistance.
    void solve(S inv_h, bool bias, std::size_t begin, std::size_t end) noexcept
    {
        State* const state = state_.data();
        const S push_out = settings.push_out_speed;
        const S tolerance = settings.manifold_tolerance;
        for (std::size_t ci = begin; ci < end; ++ci) {
            Constraint& c = constraints_[ci];
            Motion<S, D> A = state[c.a].motion, B = state[c.b].motion;
            Point* const points = &points_[c.first];
            const PointAxes* const axes = &axes_[c.first];
            const int passes = c.count > 1 ? settings.manifold_iterations : 1;
            const Shift sh = shift(c);
            for (int pass = 0; pass < passes; ++pass) {
                bool moved = false;
                for (int i = 0; i < c.count; ++i) {
                    Point& p = points[i];
                    const ContactAxis<S, D>& n = axes[i].n;
                    const S s = separation(sh, p);
                    const S vn = n.speed(A, B);
                    const S j = soft_normal(p.jn, vn, s, n.mass, inv_h, c.soft, push_out, bias);
                    n.apply(A, B, j);
                    p.total += j;
                    moved = moved || tolerance * n.mass < std::abs(j);
                }
                for (int i = 0; i < c.count; ++i) {
                    Point& p = points[i];
                    moved = bounded(axes[i].t, p.jt, &c.tangent_speed, p.mu * p.jn, A, B, tolerance) || moved;
                }
                if (!moved) break;
            }
            if (c.rolling_resistance > S(0)) {
                S sum_jn{0};
                for (int i = 0; i < c.count; ++i) sum_jn += points[i].jn;
                bounded(c.roll, c.jr, nullptr, c.rolling_resistance * sum_jn, A, B, tolerance);
            }
            if (c.write_a) state[c.a].motion = A;
            if (c.write_b) state[c.b].motion = B;
        }
    }

    // ---- wide rows -----------------------------------------------------------------------------
    //
    // A packet is W contacts of one colour with the same number of points, lane l contact first + l;
    // its rows (one per point) hold their points lane by lane. Each pass gathers the W pairs' motions
    // (and pose changes) into lanes, runs the scalar pass's arithmetic on all lanes at once
    // (detail/wide_axis.hpp) and scatters the motions back to the movable bodies. The lanes share no
    // movable body (one colour), so this is the scalar pass's work in another order, bit for bit.

    using P = detail::simd::Wide256<S>;
    static constexpr int W = detail::simd::lanes<P>;
    using WideMotion_t = detail::WideMotion<P, D>;
    using WideAxis_t = detail::WideAxis<P, D>;

    struct Packet {
        std::uint32_t a[W], b[W];   // body indices per lane
        std::uint32_t write_a{0}, write_b{0};  // lanes whose body is movable (bit l: lane l)
        std::size_t first{0};       // the first of its W constraints (colour order)
        int count{0};               // points per contact
        std::size_t point{0};       // its first row in rows_
        bool rolls{false};          // some lane has rolling resistance
        bool zeroes_arms{false};    // 2D: some row's axes were made by axis() (make_axis)
        P normal[D];
        P bias_rate, mass_scale, impulse_scale;  // the lanes' softness
        P tangent_speed[D - 1];
        P rolling_resistance;
        WideAxis_t roll[D - 1];
        P jr[D - 1];
    };
    // In 2D a row keeps its axes' spins and masses only: their directions (the packet's normal and
    // its tangent) and arms (rA x d, rB x d) are made again in every pass from the row's anchors
    // (row_normal, row_tangents), a few multiplications against reading 8 of a row's 23 lanes: the
    // wide passes over a large pile are bound by reading their rows. In 3D, where an axis's arms are
    // a cross product each, the rows keep the whole axes.
    struct LeanAxis {
        P spinA, spinB, mass;
    };
    using RowAxis = std::conditional_t<D == 2, LeanAxis, WideAxis_t>;
    struct Row {
        RowAxis n;
        RowAxis t[D - 1];
        P rA[D], rB[D];
        P base, jn, total, mu;
        P jt[D - 1];
    };
    struct RowAxes {  // 2D: a row's axes made whole (pack, row_tangents)
        WideAxis_t n;
        WideAxis_t t[D - 1];
    };
    struct RowAxesOf {  // a 3D row's axes, where they are
        const WideAxis_t& n;
        const WideAxis_t (&t)[D - 1];
    };
    // A 2D row's axis along w.d as pack made it, bit for bit: lane_axis's arms, and an arm that is
    // not finite set to 0 as axis() sets it (only in a packet where some row's axes were made by
    // axis(): an overflow, or an input not finite; elsewhere every arm is finite). row_normal and
    // row_tangents give a row's axes along the packet's normal and its tangent (-ny, nx) as pack's
    // are; in 3D the row's own.
    EIGEN_ALWAYS_INLINE static void make_axis(WideAxis_t& w, const Packet& pk, const Row& r, const LeanAxis& lean) noexcept
    {
        using namespace detail::simd;
        w.armA[0] = sub(mul(r.rA[0], w.d[1]), mul(r.rA[1], w.d[0]));
        w.armB[0] = sub(mul(r.rB[0], w.d[1]), mul(r.rB[1], w.d[0]));
        if (pk.zeroes_arms) {
            const P zero = detail::simd::zero<P>(), most = broadcast<P>(std::numeric_limits<S>::max());
            w.armA[0] = select(le(abs(w.armA[0]), most), w.armA[0], zero);
            w.armB[0] = select(le(abs(w.armB[0]), most), w.armB[0], zero);
        }
        w.spinA[0] = lean.spinA;
        w.spinB[0] = lean.spinB;
        w.mass = lean.mass;
    }
    EIGEN_ALWAYS_INLINE static decltype(auto) row_normal(const Packet& pk, const Row& r) noexcept
    {
        if constexpr (D == 2) {
            WideAxis_t w;
            w.d[0] = pk.normal[0];
            w.d[1] = pk.normal[1];
            make_axis(w, pk, r, r.n);
            return w;
        } else {
            (void)pk;
            return static_cast<const WideAxis_t&>(r.n);
        }
    }
    EIGEN_ALWAYS_INLINE static auto row_tangents(const Packet& pk, const Row& r) noexcept
    {
        if constexpr (D == 2) {
            RowAxes x;
            x.t[0].d[0] = detail::simd::neg(pk.normal[1]);
            x.t[0].d[1] = pk.normal[0];
            make_axis(x.t[0], pk, r, r.t[0]);
            return x;
        } else {
            (void)pk;
            return RowAxesOf{r.n, r.t};
        }
    }

    // f(0), ..., f(W - 1), written out (the lanes' record pointers of pack, and rows_of below).
    template <class F>
    static EIGEN_ALWAYS_INLINE void each_lane(F&& f) noexcept
    {
        each_lane(f, std::make_integer_sequence<int, W>{});
    }
    template <class F, int... l>
    static EIGEN_ALWAYS_INLINE void each_lane(F& f, std::integer_sequence<int, l...>) noexcept
    {
        (f(l), ...);
    }

    template <class F>
    static P lanes_of(F&& f) noexcept  // lane l = f(l)
    {
        S v[W];
        for (int l = 0; l < W; ++l) v[l] = f(l);
        return detail::simd::load<P>(v);
    }
    template <class F>
    static void for_lanes(const P& x, F&& f) noexcept  // f(l, lane l of x)
    {
        S v[W];
        detail::simd::store(v, x);
        for (int l = 0; l < W; ++l) f(l, v[l]);
    }

    // A ContactAxis read as its scalars in order (d, armA, armB, spinA, spinB, mass), as WideAxis
    // holds them: D + 4 A + 1 of them, then at most the padding of an aligned Eigen vector.
    static constexpr int axis_scalars = D + 4 * detail::angular_size<D> + 1;
    static_assert(sizeof(ContactAxis<S, D>) >= axis_scalars * sizeof(S) &&
                      sizeof(ContactAxis<S, D>) <= (axis_scalars + 1) * sizeof(S),
                  "a ContactAxis is its scalars (and tail padding)");

    // x[i], lane l = row[l][i] for i < K (K >= 4): K scalars laid out one after another in each
    // lane's record, four at a time through a transpose (the last four overlap the ones before when
    // K is not a multiple of four). Filling lanes one scalar at a time instead stores to memory and
    // reloads as a vector, which the processor cannot forward: a stall per packet and field.
    template <int K>
    static EIGEN_ALWAYS_INLINE void gather_run(P (&x)[K], const S* const (&row)[W]) noexcept
    {
        static_assert(K >= 4, "a run has at least four scalars");
        gather_four<K>(x, row, std::make_integer_sequence<int, (K + 3) / 4>{});
    }
    template <int K, int... k>
    static EIGEN_ALWAYS_INLINE void gather_four(P (&x)[K], const S* const (&row)[W],
                                                std::integer_sequence<int, k...>) noexcept
    {
        (gather_at<K, (4 * k + 4 <= K ? 4 * k : K - 4)>(x, row), ...);
    }
    template <int K, int at>
    static EIGEN_ALWAYS_INLINE void gather_at(P (&x)[K], const S* const (&row)[W]) noexcept
    {
        const S* at_row[W];
        each_lane([&](int l) { at_row[l] = row[l] + at; });
        P four[4];
        detail::simd::Rows4<P>::gather(at_row, four);
        for (int i = 0; i < 4; ++i) x[at + i] = four[i];
    }
    template <class F>
    static void pack_axis(WideAxis_t& w, F&& axis) noexcept  // lane l from the ContactAxis axis(l)
    {
        P x[axis_scalars];
        const S* row[W];
        each_lane([&](int l) { row[l] = reinterpret_cast<const S*>(&axis(l)); });
        gather_run(x, row);
        int at = 0;
        for (int k = 0; k < D; ++k) w.d[k] = x[at++];
        for (P* part : {w.armA, w.armB, w.spinA, w.spinB})
            for (int k = 0; k < detail::angular_size<D>; ++k) part[k] = x[at++];
        w.mass = x[at];
    }

    // A packet's axis along the lanes' unit directions d, at anchors rA and rB, as axis() makes it
    // lane by lane: the arms rA x d and rB x d as set_arms computes them, the spins and the effective
    // mass from the lanes' bodies' inverse inertias (3D: column by column) and the sum of their
    // inverse masses, in the scalar order (2D: ContactAxis's constructor, k = (mA + mB) + (rA x d)^2
    // IA + (rB x d)^2 IB; 3D: axis()). False if some lane's inverse effective mass is not finite:
    // axis() then drops the spins it cannot represent, lane by lane.
    template <int N>
    static EIGEN_ALWAYS_INLINE bool lane_axis(WideAxis_t& w, const P (&d)[D], const P (&rA)[D], const P (&rB)[D],
                                              const P (&IA)[N], const P (&IB)[N], const P& masses) noexcept
    {
        using namespace detail::simd;
        for (int k = 0; k < D; ++k) w.d[k] = d[k];
        P k;
        if constexpr (D == 2) {
            w.armA[0] = sub(mul(rA[0], d[1]), mul(rA[1], d[0]));
            w.armB[0] = sub(mul(rB[0], d[1]), mul(rB[1], d[0]));
            w.spinA[0] = mul(IA[0], w.armA[0]);
            w.spinB[0] = mul(IB[0], w.armB[0]);
            k = add(masses, add(mul(mul(w.armA[0], w.armA[0]), IA[0]), mul(mul(w.armB[0], w.armB[0]), IB[0])));
        } else {
            detail::wide_cross(rA, d, w.armA);
            detail::wide_cross(rB, d, w.armB);
            detail::wide_product(IA, w.armA, w.spinA);
            detail::wide_product(IB, w.armB, w.spinB);
            k = add(masses, add(detail::wide_row_dot(w.armA, w.spinA), detail::wide_row_dot(w.armB, w.spinB)));
        }
        const P zero = detail::simd::zero<P>();
        w.mass = select(lt(zero, k), detail::simd::div(broadcast<P>(S(1)), k), zero);
        return movemask(le(k, broadcast<P>(std::numeric_limits<S>::max()))) == (1u << W) - 1u;
    }

    // The runs of scalars pack moves through transposes: a constraint's normal, softness,
    // restitution, threshold and rolling resistance; a point's rA, rB, base, jn, jt, total, approach
    // and mu.
    static constexpr int constraint_run = D + 6;
    static constexpr int point_run = 3 * D + 4;
    // Packets [begin, end) from their constraints and points (after build).
    void pack(std::size_t begin, std::size_t end) noexcept
    {
        const RowRun* run = runs_;
        for (std::size_t q = begin; q < end; ++q) {
            // The packet's place: its run (plan_rows), then its rank in it.
            while (q >= run[1].packet) ++run;
            Packet& pk = packets_[q];
            pk.first = run->contact + (q - run->packet) * std::size_t(W);
            pk.count = run->count;
            pk.point = run->point + (q - run->packet) * std::size_t(run->count);
            const Constraint* c = &constraints_[pk.first];
            pk.write_a = pk.write_b = 0;
            pk.rolls = false;
            pk.zeroes_arms = false;
            for (int l = 0; l < W; ++l) {
                pk.a[l] = c[l].a;
                pk.b[l] = c[l].b;
                pk.write_a |= std::uint32_t(c[l].write_a) << l;
                pk.write_b |= std::uint32_t(c[l].write_b) << l;
                pk.rolls = pk.rolls || c[l].rolling_resistance > S(0);
            }
            {
                P x[constraint_run];
                const S* row[W];
                each_lane([&](int l) { row[l] = c[l].normal.data(); });
                gather_run(x, row);
                for (int k = 0; k < D; ++k) pk.normal[k] = x[k];
                pk.bias_rate = x[D];
                pk.mass_scale = x[D + 1];
                pk.impulse_scale = x[D + 2];
                pk.rolling_resistance = x[D + 5];
            }
            for (int k = 0; k < D - 1; ++k) {
                pk.tangent_speed[k] = lanes_of([&](int l) { return c[l].tangent_speed[k]; });
                pack_axis(pk.roll[k], [&](int l) -> const ContactAxis<S, D>& { return c[l].roll[k]; });
                pk.jr[k] = lanes_of([&](int l) { return c[l].jr[k]; });
            }
            // The lanes' bodies' inverse inertias and masses and the contacts' tangents, for the axes.
            constexpr int N = D == 2 ? 1 : 9;
            P IA[N], IB[N], t[D - 1][D];
            const P masses = lanes_of([&](int l) { return state_[pk.a[l]].motion.inv_mass + state_[pk.b[l]].motion.inv_mass; });
            if constexpr (D == 2) {
                IA[0] = lanes_of([&](int l) { return inertia_[pk.a[l]]; });
                IB[0] = lanes_of([&](int l) { return inertia_[pk.b[l]]; });
                t[0][0] = detail::simd::neg(pk.normal[1]);  // tangent(n) = (-ny, nx), exactly
                t[0][1] = pk.normal[0];
            } else {
                const S* row[W];
                each_lane([&](int l) { row[l] = inertia_[pk.a[l]].data(); });
                gather_run(IA, row);
                each_lane([&](int l) { row[l] = inertia_[pk.b[l]].data(); });
                gather_run(IB, row);
                P tangents[6];
                each_lane([&](int l) { row[l] = c[l].tangent[0].data(); });  // tangent[0], tangent[1]: six scalars
                gather_run(tangents, row);
                for (int k = 0; k < 2; ++k)
                    for (int j = 0; j < 3; ++j) t[k][j] = tangents[3 * k + j];
            }
            for (int i = 0; i < pk.count; ++i) {
                Row& r = rows_[pk.point + std::size_t(i)];
                auto point = [&](int l) -> const Point& { return points_[c[l].first + std::size_t(i)]; };
                P x[point_run];
                const S* row[W];
                each_lane([&](int l) { row[l] = point(l).rA.data(); });
                gather_run(x, row);
                int at = 0;
                for (int k = 0; k < D; ++k) r.rA[k] = x[at++];
                for (int k = 0; k < D; ++k) r.rB[k] = x[at++];
                r.base = x[at++];
                r.jn = x[at++];
                for (int k = 0; k < D - 1; ++k) r.jt[k] = x[at++];
                r.total = x[at++];
                ++at;  // approach: restitution reads it from the point
                r.mu = x[at];
                RowAxes made;  // 2D: the whole axes, of which the row keeps the spins and masses
                WideAxis_t* an;
                WideAxis_t* ats;
                if constexpr (D == 2) {
                    an = &made.n;
                    ats = made.t;
                } else {
                    an = &r.n;
                    ats = r.t;
                }
                bool complete = lane_axis(*an, pk.normal, r.rA, r.rB, IA, IB, masses);
                for (int k = 0; k < D - 1; ++k) complete = lane_axis(ats[k], t[k], r.rA, r.rB, IA, IB, masses) && complete;
                if (!complete) {  // an overflow in some lane: every axis as axis() makes it, lane by lane
                    pk.zeroes_arms = true;
                    ContactAxis<S, D> n[W], tk[D - 1][W];
                    for (int l = 0; l < W; ++l) {
                        const Point& p = point(l);
                        const Mass body_a{state_[pk.a[l]].motion.inv_mass, inertia_[pk.a[l]]};
                        const Mass body_b{state_[pk.b[l]].motion.inv_mass, inertia_[pk.b[l]]};
                        const RigidPair pair{body_a, p.rA, body_b, p.rB};
                        n[l] = axis(pair, c[l].normal);
                        for (int k = 0; k < D - 1; ++k) tk[k][l] = axis(pair, c[l].tangent[k]);
                    }
                    pack_axis(*an, [&](int l) -> const ContactAxis<S, D>& { return n[l]; });
                    for (int k = 0; k < D - 1; ++k)
                        pack_axis(ats[k], [&](int l) -> const ContactAxis<S, D>& { return tk[k][l]; });
                }
                if constexpr (D == 2) {
                    r.n = LeanAxis{made.n.spinA[0], made.n.spinB[0], made.n.mass};
                    r.t[0] = LeanAxis{made.t[0].spinA[0], made.t[0].spinB[0], made.t[0].mass};
                }
            }
        }
    }

    // The packets' accumulated impulses back into their constraints and points (for restitution,
    // store and impulse()).
    void unpack(std::size_t begin, std::size_t end) noexcept
    {
        for (std::size_t q = begin; q < end; ++q) {
            const Packet& pk = packets_[q];
            Constraint* c = &constraints_[pk.first];
            for (int k = 0; k < D - 1; ++k) for_lanes(pk.jr[k], [&](int l, S x) { c[l].jr[k] = x; });
            for (int i = 0; i < pk.count; ++i) {
                const Row& r = rows_[pk.point + std::size_t(i)];
                auto point = [&](int l) -> Point& { return points_[c[l].first + std::size_t(i)]; };
                for_lanes(r.jn, [&](int l, S x) { point(l).jn = x; });
                for_lanes(r.total, [&](int l, S x) { point(l).total = x; });
                for (int k = 0; k < D - 1; ++k) for_lanes(r.jt[k], [&](int l, S x) { point(l).jt[k] = x; });
            }
        }
    }

    // The motions of the lanes' bodies, and back (movable lanes only): a Motion is 4 scalars in 2D
    // (v, omega, 1/m) and 7 in 3D (v, omega, 1/m), read as rows of four (3D: [0, 4) and [3, 7)).
    static_assert(sizeof(Motion<S, D>) == (D == 2 ? 4 : 7) * sizeof(S), "a Motion is its scalars, unpadded");
    using Rows4 = detail::simd::Rows4<P>;
    // The lanes' records' pointers, written out rather than as a loop of W: GCC -O2 keeps the loop,
    // storing each pointer to the stack and reloading it for the load through it, a store-to-load
    // round trip on the chain from a packet's body index to its bodies' velocities in every pass.
    // Written out, the pointers stay in registers (docs/performance.md, "The lanes' pointers in
    // registers").
    template <class T>
    static void rows_of(T* records, const std::uint32_t (&body)[W], std::size_t offset,
                        std::conditional_t<std::is_const<T>::value, const S*, S*> (&row)[W]) noexcept
    {
        rows_of(records, body, offset, row, std::make_integer_sequence<int, W>{});
    }
    template <class T, int... l>
    static EIGEN_ALWAYS_INLINE void rows_of(T* records, const std::uint32_t (&body)[W], std::size_t offset,
                        std::conditional_t<std::is_const<T>::value, const S*, S*> (&row)[W],
                        std::integer_sequence<int, l...>) noexcept
    {
        using Sp = std::conditional_t<std::is_const<T>::value, const S*, S*>;
        ((row[l] = reinterpret_cast<Sp>(records + body[l]) + offset), ...);
    }
    void gather(const std::uint32_t (&body)[W], WideMotion_t& m) const noexcept
    {
        const S* row[W];
        P x[4];
        rows_of(static_cast<const State*>(state_.data()), body, 0, row);
        Rows4::gather(row, x);
        if constexpr (D == 2) {
            m.v[0] = x[0];
            m.v[1] = x[1];
            m.w[0] = x[2];
            m.inv_mass = x[3];
        } else {
            m.v[0] = x[0];
            m.v[1] = x[1];
            m.v[2] = x[2];
            rows_of(static_cast<const State*>(state_.data()), body, 3, row);
            Rows4::gather(row, x);
            m.w[0] = x[0];
            m.w[1] = x[1];
            m.w[2] = x[2];
            m.inv_mass = x[3];
        }
    }
    void scatter(const std::uint32_t (&body)[W], std::uint32_t movable, const WideMotion_t& m) noexcept
    {
        if (!movable) return;
        S* row[W];
        if constexpr (D == 2) {
            rows_of(state_.data(), body, 0, row);
            Rows4::scatter(row, {m.v[0], m.v[1], m.w[0], m.inv_mass}, movable);
        } else {
            rows_of(state_.data(), body, 3, row);
            Rows4::scatter(row, {m.w[0], m.w[1], m.w[2], m.inv_mass}, movable);
            rows_of(state_.data(), body, 0, row);
            Rows4::scatter(row, {m.v[0], m.v[1], m.v[2], m.w[0]}, movable);
        }
    }

    // A packet's Shift, lane by lane: 2D the lanes' pose changes (4 scalars, dp then (c, s), one
    // row); 3D the normal turned back by each lane's turns and its part of the centres' shift,
    // from the pose changes read as two rows (dp, the unused scalar; the quaternion).
    static_assert(sizeof(Delta) == (D == 2 ? 4 : 8) * sizeof(S) && (D == 2 || offsetof(Delta3, dq) == 4 * sizeof(S)),
                  "a pose change is its scalars: 2D dp, c, s; 3D dp, one unused, x, y, z, w");
    struct WidePose {
        P dp[D];
        P q[D == 2 ? 2 : 4];  // 2D: (c, s); 3D: (x, y, z, w)
    };
    struct WideShift2 {
        WidePose da, db;
    };
    struct WideShift3 {
        P na[3], nb[3], along;
    };
    using WideShift = std::conditional_t<D == 2, WideShift2, WideShift3>;
    void gather(const std::uint32_t (&body)[W], WidePose& d) const noexcept
    {
        const S* row[W];
        if constexpr (D == 2) {
            P x[4];
            rows_of(static_cast<const State*>(state_.data()), body, delta_at, row);
            Rows4::gather(row, x);
            d.dp[0] = x[0];
            d.dp[1] = x[1];
            d.q[0] = x[2];
            d.q[1] = x[3];
        } else {
            P x[8];
            rows_of(deltas_.data(), body, 0, row);
            gather_run(x, row);
            for (int k = 0; k < 3; ++k) d.dp[k] = x[k];
            for (int k = 0; k < 4; ++k) d.q[k] = x[4 + k];
        }
    }
    // r turned by the quaternion (v, w): Eigen's quaternion times vector (uv = 2 (v x r); r + w uv +
    // v x uv), operation for operation.
    static void turn(const P (&v)[3], const P& w, const P (&r)[3], P (&out)[3]) noexcept
    {
        using namespace detail::simd;
        P uv[3], c[3];
        detail::wide_cross(v, r, uv);
        for (int k = 0; k < 3; ++k) uv[k] = add(uv[k], uv[k]);
        detail::wide_cross(v, uv, c);
        for (int k = 0; k < 3; ++k) out[k] = add(add(r[k], mul(w, uv[k])), c[k]);
    }
    WideShift wide_shift(const Packet& pk) const noexcept
    {
        using namespace detail::simd;
        WidePose da, db;
        gather(pk.a, da);
        gather(pk.b, db);
        if constexpr (D == 2) {
            return {da, db};
        } else {
            WideShift sh;
            const P va[3] = {neg(da.q[0]), neg(da.q[1]), neg(da.q[2])};  // the conjugates, as Eigen's
            const P vb[3] = {neg(db.q[0]), neg(db.q[1]), neg(db.q[2])};
            turn(va, da.q[3], pk.normal, sh.na);
            turn(vb, db.q[3], pk.normal, sh.nb);
            P ds[3];
            for (int k = 0; k < 3; ++k) ds[k] = sub(db.dp[k], da.dp[k]);
            sh.along = detail::wide_dot(pk.normal, ds);
            return sh;
        }
    }
    // separation() per lane.
    static EIGEN_ALWAYS_INLINE P separation(const Packet& pk, const Row& r, const WideShift& sh) noexcept
    {
        using namespace detail::simd;
        if constexpr (D == 2) {
            const WidePose &da = sh.da, &db = sh.db;
            P ta[2], tb[2], ds[2];
            ta[0] = sub(mul(da.q[0], r.rA[0]), mul(da.q[1], r.rA[1]));  // Rot2::rotate
            ta[1] = add(mul(da.q[1], r.rA[0]), mul(da.q[0], r.rA[1]));
            tb[0] = sub(mul(db.q[0], r.rB[0]), mul(db.q[1], r.rB[1]));
            tb[1] = add(mul(db.q[1], r.rB[0]), mul(db.q[0], r.rB[1]));
            for (int k = 0; k < 2; ++k) ds[k] = add(sub(db.dp[k], da.dp[k]), sub(tb[k], ta[k]));
            return add(r.base, detail::wide_dot(pk.normal, ds));
        } else {
            return add(r.base, add(sh.along, sub(detail::wide_dot(sh.nb, r.rB), detail::wide_dot(sh.na, r.rA))));
        }
    }

    void wide_warm_start(std::size_t q) noexcept
    {
        using namespace detail::simd;
        Packet& pk = packets_[q];
        WideMotion_t A, B;
        gather(pk.a, A);
        gather(pk.b, B);
        for (int i = 0; i < pk.count; ++i) {
            Row& r = rows_[pk.point + std::size_t(i)];
            row_normal(pk, r).apply(A, B, r.jn);
            r.total = add(r.total, r.jn);
            const auto ax = row_tangents(pk, r);
            for (int k = 0; k < D - 1; ++k) ax.t[k].apply(A, B, r.jt[k]);
        }
        for (int k = 0; k < D - 1; ++k) pk.roll[k].apply(A, B, pk.jr[k]);  // as the scalar pass: every lane
        scatter(pk.a, pk.write_a, A);
        scatter(pk.b, pk.write_b, B);
    }
    template <bool Bias>
    void wide_solve(std::size_t q, S inv_h) noexcept
    {
        using namespace detail::simd;
        Packet& pk = packets_[q];
        WideMotion_t A, B;
        gather(pk.a, A);
        gather(pk.b, B);
        const WideShift sh = wide_shift(pk);
        const P inv_h_w = broadcast<P>(inv_h), neg_push_out = neg(broadcast<P>(settings.push_out_speed));
        const P tolerance = broadcast<P>(settings.manifold_tolerance);
        Row* const rows = &rows_[pk.point];
        // The scalar pass's repeated passes over a manifold, lane by lane: a lane whose last pass
        // moved nothing is done, and a later pass's results are kept only on the lanes still going.
        auto moved = wide_manifold_pass<Bias>(pk, rows, A, B, sh, inv_h_w, neg_push_out, tolerance);
        const int passes = pk.count > 1 ? settings.manifold_iterations : 1;
        for (int pass = 1; pass < passes && any(moved); ++pass) {
            constexpr int most = Manifold<S, D>::max_points;
            const WideMotion_t A0 = A, B0 = B;
            P jn[most], total[most], jt[most][D - 1];
            for (int i = 0; i < pk.count; ++i) {
                jn[i] = rows[i].jn;
                total[i] = rows[i].total;
                for (int k = 0; k < D - 1; ++k) jt[i][k] = rows[i].jt[k];
            }
            const auto again = wide_manifold_pass<Bias>(pk, rows, A, B, sh, inv_h_w, neg_push_out, tolerance);
            select_motion(moved, A, A0);
            select_motion(moved, B, B0);
            for (int i = 0; i < pk.count; ++i) {
                rows[i].jn = select(moved, rows[i].jn, jn[i]);
                rows[i].total = select(moved, rows[i].total, total[i]);
                for (int k = 0; k < D - 1; ++k) rows[i].jt[k] = select(moved, rows[i].jt[k], jt[i][k]);
            }
            moved = mask_and(moved, again);
        }
        if (pk.rolls) {
            // Lanes without rolling resistance are left exactly as the scalar pass leaves them.
            P sum_jn = zero<P>();
            for (int i = 0; i < pk.count; ++i) sum_jn = add(sum_jn, rows[i].jn);
            const auto rolls = lt(zero<P>(), pk.rolling_resistance);
            const WideMotion_t A0 = A, B0 = B;
            wide_bounded(pk.roll, pk.jr, nullptr, mul(pk.rolling_resistance, sum_jn), A, B, rolls, tolerance);
            select_motion(rolls, A, A0);
            select_motion(rolls, B, B0);
        }
        scatter(pk.a, pk.write_a, A);
        scatter(pk.b, pk.write_b, B);
    }

    // One pass over the normal impulses, then the friction of the packet's rows; the lanes where
    // some impulse changed a speed by more than the tolerance.
    template <bool Bias>
    EIGEN_ALWAYS_INLINE static detail::simd::Mask<P> wide_manifold_pass(const Packet& pk, Row* rows, WideMotion_t& A, WideMotion_t& B,
                                                     const WideShift& sh, const P& inv_h,
                                                     const P& neg_push_out, const P& tolerance) noexcept
    {
        using namespace detail::simd;
        auto moved = lt(zero<P>(), zero<P>());  // no lane
        for (int i = 0; i < pk.count; ++i) {
            Row& r = rows[i];
            decltype(auto) n = row_normal(pk, r);
            const P s = separation(pk, r, sh);
            const P vn = n.speed(A, B);
            const P j = detail::wide_soft_normal<Bias>(r.jn, vn, s, n.mass, inv_h, pk.bias_rate, pk.mass_scale,
                                                       pk.impulse_scale, neg_push_out);
            n.apply(A, B, j);
            r.total = add(r.total, j);
            moved = mask_or(moved, lt(mul(tolerance, n.mass), abs(j)));
        }
        for (int i = 0; i < pk.count; ++i) {
            Row& r = rows[i];
            const auto ax = row_tangents(pk, r);
            moved = mask_or(moved, wide_bounded(ax.t, r.jt, pk.tangent_speed, mul(r.mu, r.jn), A, B, nullptr, tolerance));
        }
        return moved;
    }

    // bounded() on every lane; the lanes of acc written are those `keep` selects (nullptr: all).
    // Returns the lanes where an impulse changed a speed by more than `tolerance`.
    template <class Keep>
    EIGEN_ALWAYS_INLINE static detail::simd::Mask<P> wide_bounded(const WideAxis_t (&axes)[D - 1], P (&acc)[D - 1], const P* target, const P& cap,
                             WideMotion_t& A, WideMotion_t& B, const Keep& keep, const P& tolerance) noexcept
    {
        using namespace detail::simd;
        auto write = [&](int k, const P& next) {
            if constexpr (std::is_same_v<Keep, std::nullptr_t>) acc[k] = next;
            else acc[k] = select(keep, next, acc[k]);
        };
        P speed[D - 1];
        for (int k = 0; k < D - 1; ++k) speed[k] = target ? sub(axes[k].speed(A, B), target[k]) : axes[k].speed(A, B);
        if constexpr (D == 2) {
            P next = acc[0];
            const P j = detail::wide_accumulate(next, mul(neg(axes[0].mass), speed[0]), neg(cap), cap);
            axes[0].apply(A, B, j);
            write(0, next);
            return lt(mul(tolerance, axes[0].mass), abs(j));
        } else {
            const P old[2] = {acc[0], acc[1]};
            P next[2];
            for (int k = 0; k < 2; ++k) next[k] = sub(old[k], mul(axes[k].mass, speed[k]));
            clamp_to_disc(next, cap);
            auto moved = lt(zero<P>(), zero<P>());
            for (int k = 0; k < 2; ++k) {
                write(k, next[k]);
                const P j = sub(next[k], old[k]);
                axes[k].apply(A, B, j);
                moved = mask_or(moved, lt(mul(tolerance, axes[k].mass), abs(j)));
            }
            return moved;
        }
    }

    template <class M>
    static void select_motion(const M& keep_new, WideMotion_t& m, const WideMotion_t& old) noexcept
    {
        using detail::simd::select;
        for (int k = 0; k < D; ++k) m.v[k] = select(keep_new, m.v[k], old.v[k]);
        for (int k = 0; k < detail::angular_size<D>; ++k) m.w[k] = select(keep_new, m.w[k], old.w[k]);
    }

    // clamp_to_disc on each lane, the same bits: the lanes well inside their disc are left as they
    // are (as there). The others are clamped in the lanes while each one's |v|^2 is a normal number
    // or v is zero, where safe_norm is sqrt(v.v) (or 0): the usual case, where many points carry no
    // load (cap 0: a pyramid's cubes touching side by side). Otherwise, lane by lane through the
    // scalar clamp.
    static void clamp_to_disc(P (&v)[2], const P& cap) noexcept
    {
        using namespace detail::simd;
        const P cap2 = mul(cap, cap);
        const P n2 = add(mul(v[0], v[0]), mul(v[1], v[1]));
        const auto inside = mask_and(lt(n2, mul(broadcast<P>(S(0.9999)), cap2)),
                                     le(broadcast<P>(std::numeric_limits<S>::min()), cap2));
        if (all(inside)) return;
        const P zero = detail::simd::zero<P>();
        const auto ok = mask_or(mask_and(le(broadcast<P>(std::numeric_limits<S>::min()), n2),
                                         le(n2, broadcast<P>(std::numeric_limits<S>::max()))),
                                mask_and(eq(v[0], zero), eq(v[1], zero)));
        if (all(mask_or(inside, ok))) {
            // size = safe_norm(v); if (size > cap) v *= cap / size
            const P size = detail::simd::sqrt(n2);
            const auto clamp = mask_andnot(lt(cap, size), inside);
            const P scale = div(cap, size);
            for (int k = 0; k < 2; ++k) v[k] = select(clamp, mul(v[k], scale), v[k]);
            return;
        }
        S x[W], y[W], c[W];
        detail::simd::store(x, v[0]);
        detail::simd::store(y, v[1]);
        detail::simd::store(c, cap);
        for (int l = 0; l < W; ++l) {
            Vec<S, 2> u(x[l], y[l]);
            clamp_to_disc(u, c[l]);
            x[l] = u[0];
            y[l] = u[1];
        }
        v[0] = detail::simd::load<P>(x);
        v[1] = detail::simd::load<P>(y);
    }

    // Colour k's warm start or pass over items [begin, end): with wide rows its packets, then its
    // single contacts; otherwise (and in the overflow) its contacts one at a time. single(b, e) takes
    // constraints [b, e), wide(q) packet q.
    template <class Wide, class Single>
    void colour_pass(std::uint32_t k, std::size_t begin, std::size_t end, Wide&& wide, Single&& single) noexcept
    {
        if (!wide_ || k >= colour_count) {
            single(colour_start_[k] + begin, colour_start_[k] + end);
            return;
        }
        const std::size_t p0 = first_packet(k), packets = first_packet(k + 1) - p0;
        for (std::size_t i = begin; i < end; ++i) {
            if (i < packets) wide(p0 + i);
            else {
                const std::size_t c = singles_[single_start_[k] + (i - packets)];
                single(c, c + 1);
            }
        }
    }

    // After the substeps: each point that approached faster than the threshold at prepare and took
    // an impulse leaves at e times that speed: j = -m (vn + e approach), accumulated >= 0. Only the
    // contacts the build marked (`bounces`) have such a point; where none has, as in a pile at
    // rest, the pass reads nothing.
    void restitution(std::size_t begin, std::size_t end) noexcept
    {
        if (!bouncing_.get()) return;
        State* const state = state_.data();
        for (std::size_t ci = begin; ci < end; ++ci) {
            Constraint& c = constraints_[ci];
            if (!c.bounces) continue;
            Motion<S, D> A = state[c.a].motion, B = state[c.b].motion;
            for (int i = 0; i < c.count; ++i) {
                Point& p = points_[c.first + std::size_t(i)];
                if (!(p.approach < -c.threshold) || !(p.total > S(0))) continue;
                ContactAxis<S, D>& n = axes_[c.first + std::size_t(i)].n;
                if (c.in_rows) {  // the axis as the scalar build makes it (its lanes are the same bits)
                    const Mass body_a{state[c.a].motion.inv_mass, inertia_[c.a]}, body_b{state[c.b].motion.inv_mass, inertia_[c.b]};
                    n = axis(RigidPair{body_a, p.rA, body_b, p.rB}, c.normal);
                }
                const S vn = n.speed(A, B);
                const S j = accumulate(p.jn, -n.mass * (vn + c.restitution * p.approach), S(0),
                                       std::numeric_limits<S>::infinity());
                n.apply(A, B, j);
                p.total += j;
            }
            if (c.write_a) state[c.a].motion = A;
            if (c.write_b) state[c.b].motion = B;
        }
    }

    // Keeps the impulses of manifolds [begin, end) for the next step, at their points' places in the
    // order the manifolds were given. Taken in that order, each block writes its own stretch of the
    // cache: taken in colour order, neighbouring manifolds (of different colours, in different
    // blocks) would write the same cache lines from different threads. The constraints are read out
    // of order instead, asked for a few manifolds ahead.
    void store(std::size_t begin, std::size_t end) noexcept
    {
        constexpr std::size_t ahead = 8;
        const Cached* last = nullptr;  // the block's last entry so far
        bool in_order = true;          // the block's entries sorted so far (finish_store checks the seams)
        for (std::size_t m = begin; m < end; ++m) {
            if (m + ahead < end) {
                const std::uint32_t next = constraint_of_[m + ahead];
                if (next != none) {
                    detail::prefetch_lines(&constraints_[next]);
                    detail::prefetch_lines(&points_[colour_first_[m + ahead]]);
                }
            }
            const std::uint32_t ci = constraint_of_[m];
            if (ci == none) continue;  // skipped (colour_contacts)
            const Constraint& c = constraints_[ci];
            const S sign = c.swapped ? S(-1) : S(1);
            Vec<S, D> jr = Vec<S, D>::Zero();
            if constexpr (D == 2) {
                jr[0] = sign * c.jr[0];
            } else {
                for (int k = 0; k < 2; ++k) jr += (sign * c.jr[k]) * Vec<S, 3>(c.roll[k].armA);
            }
            Cached* const slots = &next_cache_[cache_first_[m]];
            for (int i = 0; i < c.count; ++i) {
                const Point& p = points_[c.first + std::size_t(i)];
                Cached e;
                e.key = c.key;
                e.feature = c.swapped ? swap_feature(p.feature) : p.feature;
                e.jn = p.jn;
                for (int k = 0; k < D - 1; ++k) e.jt += (sign * p.jt[k]) * c.tangent[k];
                e.jr = jr;
                e.sticking = detail::safe_norm(p.jt) < p.mu * p.jn;  // friction was not at its bound
                e.fingerprint_a = c.fingerprint_a;
                e.fingerprint_b = c.fingerprint_b;
                // A non-finite impulse is not kept: the engine may reset the body it came from, and
                // the next step must not hand the NaN back to it.
                if (!std::isfinite(e.jn) || !e.jt.allFinite() || !e.jr.allFinite()) {
                    e.jn = S(0);
                    e.jt.setZero();
                    e.jr.setZero();
                }
                slots[i] = e;
            }
            // The manifold's points by feature within its slots: where the manifolds come sorted by
            // key (as a narrow phase that reports its pairs in order gives them), the whole cache is
            // then sorted and finish_store does not sort it. A box's clipped points come in any order.
            std::sort(slots, slots + c.count);
            if (last && slots[0] < *last) in_order = false;
            last = slots + (c.count - 1);
        }
        if (!in_order) cache_unsorted_.set();
    }

    // Whether the cache store() wrote is sorted: each block checked its own entries; here the seams
    // between the blocks of the store stage (a serial step ran it as one range, which the seams of
    // its blocks cut too: checking them there is only redundant).
    bool cache_sorted() const noexcept
    {
        if (cache_unsorted_.get()) return false;
        for (const detail::Stage& st : stages_) {
            if (st.kind != store_stage) continue;
            for (std::uint32_t k = 1; k < st.blocks; ++k) {
                std::size_t m = st.begin(k);
                while (m < st.items && constraint_of_[m] == none) ++m;
                if (m == st.items) break;
                const std::size_t e = cache_first_[m];
                if (e > 0 && next_cache_[e] < next_cache_[e - 1]) return false;
            }
        }
        return true;
    }

    // The kept impulses become the cache, sorted by (key, feature).
    void finish_store(S h) noexcept
    {
        // Both caches hold every point: after the first step of a size the swap below never leaves
        // one of them too small, so later steps of that size allocate nothing.
        if (cache_.capacity() < next_cache_.size()) cache_.reserve(next_cache_.size());
        // Points that arrive sorted by (key, feature) leave the cache sorted: no sort needed.
        if (!cache_sorted()) std::sort(next_cache_.begin(), next_cache_.end());
        cache_unsorted_.clear();
        for (std::size_t i = 1; i < next_cache_.size(); ++i) {
            IMPULSE_ASSERT(next_cache_[i - 1] < next_cache_[i],
                           "two contact points share a warm-start key and feature: manifolds need distinct keys, "
                           "and the points of a manifold distinct feature ids");
        }
        cache_.swap(next_cache_);
        cache_h_ = h;
    }

    // ---- stages ------------------------------------------------------------------------------

    enum Kind : std::uint32_t {
        load,
        colour_stage,
        build_stage,
        pack_stage,
        integrate_v,
        warm,
        solve_biased,
        relax,
        integrate_x,
        shock_stage,
        shock_biased_stage,
        unpack_stage,
        restitute,
        store_stage,
        finish_store_stage,
        write,
        collect
    };
    static constexpr std::uint32_t no_colour = 0xffffffffu;
    static constexpr std::size_t body_block = 256;    // bodies per block of work
    static constexpr std::size_t contact_block = 64;  // contacts per block of work
    static constexpr std::size_t row_block = contact_block / W > 0 ? contact_block / W : 1;  // packets per block

    // Blocks for `items` items of `per` each (0: one block, the work is serial).
    std::uint32_t blocks_for(std::size_t items, std::size_t per) const noexcept
    {
        if (workers_ <= 1 || per == 0 || items <= per) return 1;
        // Four blocks per worker; the runner cuts a stage to Stage::max_blocks.
        return std::uint32_t(std::min(std::size_t(workers_) * 4, (items + per - 1) / per));
    }

    std::size_t stage_count(int substeps) const noexcept
    {
        const std::size_t colours = colour_count + 1;
        const std::size_t relax_passes = std::size_t(settings.relax_iterations > 0 ? settings.relax_iterations : 0);
        return 10 + std::size_t(substeps) * (4 + colours * (2 + relax_passes)) + colours;
    }

    // The stages of one step over `bodies` bodies with n substeps. The colour stages' sizes are set
    // by colour_contacts.
    void plan(std::size_t bodies, int n) noexcept
    {
        stages_.clear();
        auto add = [&](Kind kind, std::uint32_t arg, std::size_t items, std::uint32_t blocks) {
            stages_.emplace_back(kind, arg, items, blocks);
        };
        auto add_colours = [&](Kind kind) {
            for (std::uint32_t k = 0; k <= std::uint32_t(colour_count); ++k) add(kind, k, 0, 1);
        };
        const std::uint32_t per_body = blocks_for(bodies, body_block);
        add(load, no_colour, bodies, per_body);
        add(colour_stage, no_colour, 1, 1);
        add(build_stage, no_colour, 0, 1);  // sized by colour_contacts
        add(pack_stage, no_colour, 0, 1);   // sized by colour_contacts
        for (int i = 0; i < n; ++i) {
            add(integrate_v, no_colour, bodies, per_body);
            if (settings.warm_start) add_colours(warm);
            add_colours(solve_biased);
            add(shock_biased_stage, no_colour, 1, 1);
            add(integrate_x, no_colour, bodies, per_body);
            for (int r = 0; r < settings.relax_iterations; ++r) add_colours(relax);
            add(shock_stage, no_colour, 1, 1);
        }
        add(unpack_stage, no_colour, 0, 1);  // sized by colour_contacts
        add_colours(restitute);
        add(store_stage, no_colour, 0, 1);  // sized by colour_contacts
        add(finish_store_stage, no_colour, 1, 1);
        add(write, no_colour, bodies, per_body);
        add(collect, no_colour, 1, 1);
    }

    // What one step's stages run on.
    struct StepContext {
        Solver* solver;
        const BodyView<S, D>* bodies;
        const Manifold<S, D>* manifolds;
        std::size_t count;
        S h, inv_h;

        void operator()(const detail::Stage& st, std::size_t begin, std::size_t end) const noexcept
        {
            Solver& s = *solver;
            // Colour stages: [begin, end) within the colour.
            const std::size_t base = st.arg == no_colour ? 0 : s.colour_start_[st.arg];
            switch (Kind(st.kind)) {
            case load: s.load_bodies(*bodies, begin, end); break;
            case colour_stage:
                s.colour_contacts(*bodies, manifolds, count);
                for (detail::Stage& t : s.stages_)
                    if (t.kind == build_stage || t.kind == store_stage) {  // both walk the manifolds
                        t.items = count;
                        t.blocks = s.blocks_for(t.items, contact_block);
                    } else if (t.kind == pack_stage || t.kind == unpack_stage) {
                        t.items = s.packets_.size();
                        t.blocks = s.blocks_for(t.items, row_block);
                    }
                break;
            case build_stage: s.build(*bodies, manifolds, h, begin, end); break;
            case integrate_v: s.integrate_velocities(*bodies, h, begin, end); break;
            case pack_stage: s.pack(begin, end); break;
            case unpack_stage: s.unpack(begin, end); break;
            case warm:
                s.colour_pass(
                    st.arg, begin, end, [&](std::size_t q) { s.wide_warm_start(q); },
                    [&](std::size_t b, std::size_t e) { s.warm_start(b, e); });
                break;
            case solve_biased:
                s.colour_pass(
                    st.arg, begin, end, [&](std::size_t q) { s.template wide_solve<true>(q, inv_h); },
                    [&](std::size_t b, std::size_t e) { s.solve(inv_h, true, b, e); });
                break;
            case relax:
                s.colour_pass(
                    st.arg, begin, end, [&](std::size_t q) { s.template wide_solve<false>(q, inv_h); },
                    [&](std::size_t b, std::size_t e) { s.solve(inv_h, false, b, e); });
                break;
            case integrate_x: s.integrate_positions(h, begin, end); break;
            case shock_biased_stage: s.shock_pass(inv_h, true); break;
            case shock_stage: s.shock_pass(inv_h, false); break;
            case restitute: s.restitution(base + begin, base + end); break;
            case store_stage: s.store(begin, end); break;
            case finish_store_stage: s.finish_store(h); break;
            case write: s.write_bodies(*bodies, begin, end); break;
            case collect: s.collect_nonfinite(); break;
            }
        }
    };

    // The stages' times (from the close of the one before) summed into the profile's parts.
    void tally(std::chrono::steady_clock::time_point start) noexcept
    {
        auto last = start;
        for (const detail::Stage& st : stages_) {
            if (st.items == 0) continue;
            const double t = std::chrono::duration<double>(st.closed - last).count();
            last = st.closed;
            double* part = &profile_.bodies;
            switch (Kind(st.kind)) {
            case load: case integrate_v: case integrate_x: case write: case collect: part = &profile_.bodies; break;
            case colour_stage: part = &profile_.colour; break;
            case build_stage: case pack_stage: part = &profile_.prepare; break;
            case warm: part = &profile_.warm_start; break;
            case solve_biased: case shock_biased_stage: part = &profile_.solve; break;
            case relax: case shock_stage: part = &profile_.relax; break;
            case restitute: part = &profile_.restitution; break;
            case unpack_stage: case store_stage: case finish_store_stage: part = &profile_.store; break;
            }
            *part += t;
        }
        profile_.total = std::chrono::duration<double>(last - start).count();
    }

    SolverProfile profile_;
    std::vector<State> state_;          // per body: velocities during the step (2D: and pose change)
    std::vector<Delta> deltas_;         // 3D: per body, pose change since prepare (2D: in state_)
    std::vector<std::uint32_t> nonfinite_;  // bodies not finite after the last step
    std::vector<Inertia<S, D>> inertia_;  // world inverse inertia at prepare
    std::vector<unsigned char> movable_;  // inverse mass or inertia not zero
    std::vector<Q> start_;                // 3D: orientation at prepare
    std::vector<Vec<S, D == 2 ? 1 : 3>> principal_;  // 3D: principal inverse inertia, body axes
    std::vector<Constraint> constraints_;
    std::vector<std::uint8_t> shock_of_;      // manifold -> heavy on light: 0 no, 1 A below, 2 B below
    std::vector<S> height_;                   // manifold -> the height of its lower body (shock pass order)
    std::vector<unsigned char> lower_;        // per body: the lower body of a heavy-on-light contact
    std::vector<std::uint32_t> shock_;        // the shock pass: constraints, bottom up
    std::vector<std::uint32_t> constraint_of_;  // manifold -> constraint (none: skipped)
    std::vector<Point> points_;
    std::vector<PointAxes> axes_;             // points_'s axes, index for index (unset in rows)
    std::vector<Cached> cache_, next_cache_;  // last step's impulses, sorted by (key, feature)
    detail::Flag cache_unsorted_;             // a block of store() met next_cache_'s entries out of order
    detail::Flag bouncing_;                   // a block of build() marked a contact that bounces
    std::vector<std::uint32_t> used_;         // per body: the colours its contacts took (bit k: colour k)
    std::vector<std::uint8_t> colour_of_;     // manifold -> colour (0xff: skipped)
    std::vector<std::uint8_t> points_of_;     // manifold -> its point count (read once, by the colouring)
    std::vector<std::size_t> cache_first_;    // manifold -> its first point in the order given (the cache's order)
    std::vector<std::size_t> colour_first_;   // manifold -> its first point in points_ (colour order)
    std::size_t colour_start_[colour_count + 2] = {};  // colour k's constraints: [start[k], start[k+1])
    std::vector<detail::Stage> stages_;       // the stages of a step
    unsigned workers_{1};                     // threads of this step
    bool wide_{false};                        // this step solves its colours in wide rows
    std::vector<Packet> packets_;             // the wide rows' packets, colour by colour
    std::vector<Row> rows_;                   // their points
    std::vector<std::uint32_t> singles_;      // per colour, the contacts not in a packet
    std::size_t single_start_[colour_count + 1] = {};  // colour k's single contacts
    // The runs of packets, colour by colour and by point count within a colour, and an end mark.
    struct RowRun {
        std::size_t packet;   // its first packet
        std::size_t contact;  // its first constraint (colour order)
        std::size_t point;    // its first row
        int count;            // points per contact
    };
    RowRun runs_[colour_count * Manifold<S, D>::max_points + 1] = {};
    // Colour k's packets are [first_packet(k), first_packet(k + 1)): its first run's first packet
    // (colour_count: the end mark).
    std::size_t first_packet(std::size_t k) const noexcept
    {
        return runs_[k * std::size_t(Manifold<S, D>::max_points)].packet;
    }
    S cache_h_{0};                            // the substep length the cached impulses are for
};

}  // namespace impulse
