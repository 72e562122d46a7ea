// SPDX-License-Identifier: MIT
// Engine integration: impulse working on a game engine's own data, in place, with no copies.
//
// The "engine" below keeps its bodies the way engines do: arrays of its own plain vector structs
// (`Vec2 {float x, y}`, `Vec3 {float x, y, z}`), no Eigen in sight, and its narrow phase has
// produced a batch of contacts. impulse resolves the batch in place: its point-mass `resolve`
// also takes pointers to D consecutive scalars, `&velocity[i].x`, and reads and writes them
// through `Eigen::Map`s, so the state is never copied into Eigen vectors and back. Positions are
// corrected the same way, through a Map view of the engine's vector.
//
// Every expected number checked at the end is derived by hand in the comment beside it; the
// checks run in release builds too (they are not `assert`s), and the program exits non-zero when
// one fails.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

#include <impulse/impulse.hpp>

// ---------------------------------------------------------------------------------------------
// The engine's side: its own types, nothing from impulse or Eigen.
// ---------------------------------------------------------------------------------------------
namespace engine {

struct Vec2 {
    float x, y;
};
struct Vec3 {
    float x, y, z;
};

enum class Surface : std::uint8_t { ground, wood, ice, rubber };

/// Structure-of-arrays body storage, as engines keep it.
template <class V>
struct World {
    std::vector<V> position;
    std::vector<V> velocity;
    std::vector<float> inv_mass;  // 0: static
    std::vector<Surface> surface;

    std::size_t add(V p, V v, float inverse_mass, Surface s)
    {
        position.push_back(p);
        velocity.push_back(v);
        inv_mass.push_back(inverse_mass);
        surface.push_back(s);
        return position.size() - 1;
    }
};

/// What the engine's narrow phase reports: body indices, the normal from a to b, the depth.
template <class V>
struct Contact {
    std::size_t a, b;
    V normal;
    float depth;
};

}  // namespace engine

// ---------------------------------------------------------------------------------------------
// The bridge: the engine's floats seen as impulse vectors.
// ---------------------------------------------------------------------------------------------

// A Map reads D consecutive floats from &v.x: the structs must hold exactly D floats, unpadded.
static_assert(std::is_standard_layout_v<engine::Vec2> && sizeof(engine::Vec2) == 2 * sizeof(float),
              "engine::Vec2 must be two packed floats to be mapped");
static_assert(std::is_standard_layout_v<engine::Vec3> && sizeof(engine::Vec3) == 3 * sizeof(float),
              "engine::Vec3 must be three packed floats to be mapped");

template <class EV>
constexpr int dim_of = std::is_same_v<EV, engine::Vec2> ? 2 : 3;

template <int D>
using Vec = impulse::Vec<float, D>;

/// The engine's vector as an impulse vector, in place (a view: no copy).
inline Eigen::Map<Vec<2>> view(engine::Vec2& v) { return Eigen::Map<Vec<2>>(&v.x); }
inline Eigen::Map<Vec<3>> view(engine::Vec3& v) { return Eigen::Map<Vec<3>>(&v.x); }
inline Eigen::Map<const Vec<2>> view(const engine::Vec2& v) { return Eigen::Map<const Vec<2>>(&v.x); }
inline Eigen::Map<const Vec<3>> view(const engine::Vec3& v) { return Eigen::Map<const Vec<3>>(&v.x); }

/// The engine's surfaces as impulse materials.
inline impulse::Material<float> material(engine::Surface s)
{
    impulse::Material<float> m;
    switch (s) {
    case engine::Surface::ground:
    case engine::Surface::wood:
        m.restitution = 0.0f;
        m.static_friction = m.dynamic_friction = 0.5f;
        break;
    case engine::Surface::ice:
        m.restitution = 1.0f;
        m.static_friction = m.dynamic_friction = 0.0f;
        break;
    case engine::Surface::rubber:
        m.restitution = 0.5f;
        m.restitution_combine = impulse::Combine::max;  // a bouncy ball bounces off a dead floor
        m.static_friction = m.dynamic_friction = 0.5f;
        break;
    }
    return m;
}

/// Resolves a batch of contacts in place, one after the other (later contacts see the earlier
/// ones' results), then pushes overlapping bodies apart. Returns what each contact did.
template <class EV>
std::vector<impulse::Result<float, dim_of<EV>>> resolve_batch(engine::World<EV>& w,
                                                               const std::vector<engine::Contact<EV>>& batch)
{
    constexpr int D = dim_of<EV>;
    std::vector<impulse::Result<float, D>> results;
    results.reserve(batch.size());
    for (const engine::Contact<EV>& c : batch) {
        const float inv_mass_a = w.inv_mass[c.a], inv_mass_b = w.inv_mass[c.b];
        const impulse::Coefficients<float> coefficients =
            impulse::mix(material(w.surface[c.a]), material(w.surface[c.b]));
        // The normal is an input only: it is read into a register-sized Vec at the call.
        const Vec<D> n = view(c.normal);
        // The velocities are resolved where they are: the engine's floats at &velocity[i].x.
        results.push_back(impulse::resolve(&w.velocity[c.a].x, inv_mass_a, &w.velocity[c.b].x, inv_mass_b, n, coefficients));

        const impulse::Correction<float, D> fix = impulse::positional_correction(inv_mass_a, inv_mass_b, n, c.depth);
        view(w.position[c.a]) += fix.dA;
        view(w.position[c.b]) += fix.dB;
    }
    return results;
}

// ---------------------------------------------------------------------------------------------
// Checks (active in release builds too).
// ---------------------------------------------------------------------------------------------
namespace {

int failures = 0;

void check(bool ok, const char* what)
{
    if (!ok) {
        std::fprintf(stderr, "engine example: FAILED: %s\n", what);
        ++failures;
    }
}

bool near(float a, float b) { return std::fabs(a - b) <= 1e-5f * (1.0f + std::fabs(b)); }
bool near(const engine::Vec2& v, float x, float y) { return near(v.x, x) && near(v.y, y); }
bool near(const engine::Vec3& v, float x, float y, float z)
{
    return near(v.x, x) && near(v.y, y) && near(v.z, z);
}

void print(const char* name, const engine::Vec2& v)
{
    std::printf("    %-10s (%g, %g)\n", name, double(v.x), double(v.y));
}
void print(const char* name, const engine::Vec3& v)
{
    std::printf("    %-10s (%g, %g, %g)\n", name, double(v.x), double(v.y), double(v.z));
}

template <int D>
void print(const char* name, const impulse::Result<float, D>& r)
{
    std::printf("    %-10s jn = %g, jt = %g (%s)\n", name, double(r.jn), double(r.jt),
                impulse::to_string(r.regime));
}

}  // namespace

int main()
{
    using engine::Surface;

    // -- 2D --------------------------------------------------------------------------------------
    engine::World<engine::Vec2> w2;
    const std::size_t ground = w2.add({0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f, Surface::ground);
    const std::size_t crate = w2.add({0.0f, 0.49f}, {1.5f, -4.0f}, 0.5f, Surface::wood);  // 2 kg
    const std::size_t puck1 = w2.add({-1.0f, 2.0f}, {3.0f, 1.0f}, 1.0f, Surface::ice);     // 1 kg
    const std::size_t puck2 = w2.add({0.0f, 2.0f}, {-1.0f, 0.0f}, 1.0f, Surface::ice);     // 1 kg
    const std::size_t ball = w2.add({3.0f, 0.5f}, {1.0f, 2.0f}, 1.0f, Surface::rubber);    // 1 kg
    const std::vector<engine::Contact<engine::Vec2>> batch2 = {
        {ground, crate, {0.0f, 1.0f}, 0.05f},
        {puck1, puck2, {1.0f, 0.0f}, 0.0f},
        {ground, ball, {0.0f, 1.0f}, 0.005f},
    };

    // The Map is the engine's memory, not a copy of it.
    check(view(w2.velocity[crate]).data() == &w2.velocity[crate].x, "a Map views the engine's own floats");

    const auto r2 = resolve_batch(w2, batch2);

    std::printf("2D batch (engine::Vec2 arrays, resolved in place)\n");
    print("crate", r2[0]);
    print("pucks", r2[1]);
    print("ball", r2[2]);
    print("crate v", w2.velocity[crate]);
    print("puck1 v", w2.velocity[puck1]);
    print("puck2 v", w2.velocity[puck2]);
    print("ball v", w2.velocity[ball]);
    print("crate p", w2.position[crate]);

    // Crate on the ground: wood on ground mixes to e = min(0, 0) = 0, mu = sqrt(0.5*0.5) = 0.5.
    // rv = (1.5, -4), vn = -4, k = 0 + 0.5: jn = -(1 + 0)(-4)/0.5 = 8; crate -> (1.5, 0).
    // t = (-ny, nx) = (-1, 0): vt = -1.5, Jt_want = 1.5/0.5 = 3 <= mu*jn = 4: it sticks, jt = 3,
    // Jt = (-3, 0); crate -> (1.5, 0) + 0.5*(-3, 0) = (0, 0): it stops dead.
    check(r2[0].regime == impulse::Regime::sticking, "the crate sticks");
    check(near(r2[0].jn, 8.0f) && near(r2[0].jt, 3.0f), "crate: jn = 8, jt = 3");
    check(near(w2.velocity[crate], 0.0f, 0.0f), "the crate's velocity in the engine array is (0, 0)");
    check(near(w2.velocity[ground], 0.0f, 0.0f), "the ground (static) is not touched");
    // Positional correction: 0.4 * (0.05 - 0.01) / (0 + 0.5) = 0.032 along n, the crate moves by
    // wB * 0.032 = 0.016: y 0.49 -> 0.506; the ground does not move.
    check(near(w2.position[crate], 0.0f, 0.506f), "the crate is pushed out of the ground to y = 0.506");
    check(near(w2.position[ground], 0.0f, 0.0f), "the ground does not move");

    // Two ice pucks head-on: e = min(1, 1) = 1, mu = sqrt(0*0) = 0 (ice stays frictionless).
    // rv = (-1, 0) - (3, 1) = (-4, -1), vn = -4, jn = -(1 + 1)(-4)/(1 + 1) = 4:
    // puck1 -> (3, 1) - 4*(1, 0) = (-1, 1), puck2 -> (-1, 0) + 4*(1, 0) = (3, 0). Equal masses
    // in an elastic, frictionless collision swap their normal velocities and keep the tangential
    // ones. The leftover slide (vt = -1) meets a cap of 0: sliding, jt = 0.
    check(near(r2[1].jn, 4.0f) && r2[1].jt == 0.0f && r2[1].regime == impulse::Regime::sliding,
          "pucks: jn = 4, no friction");
    check(near(w2.velocity[puck1], -1.0f, 1.0f), "puck 1 leaves at (-1, 1)");
    check(near(w2.velocity[puck2], 3.0f, 0.0f), "puck 2 leaves at (3, 0)");

    // The ball already moves away from the ground (vn = +2): separating, nothing changes, and its
    // depth 0.005 is within the slop 0.01: no correction either.
    check(r2[2].regime == impulse::Regime::separating, "the ball is separating");
    check(near(w2.velocity[ball], 1.0f, 2.0f) && near(w2.position[ball], 3.0f, 0.5f),
          "the ball is untouched");

    // -- 3D --------------------------------------------------------------------------------------
    engine::World<engine::Vec3> w3;
    const std::size_t ground3 = w3.add({0, 0, 0}, {0, 0, 0}, 0.0f, Surface::ground);
    const std::size_t bouncer = w3.add({0, 0, 0.5f}, {3, 4, -2}, 1.0f, Surface::rubber);  // 1 kg
    const std::size_t lower = w3.add({5, 0, 0.5f}, {0, 1, 2}, 1.0f, Surface::wood);      // 1 kg
    const std::size_t upper = w3.add({5, 0, 1.5f}, {0, 0, -2}, 1.0f, Surface::wood);     // 1 kg
    const std::vector<engine::Contact<engine::Vec3>> batch3 = {
        {ground3, bouncer, {0, 0, 1}, 0.0f},
        {lower, upper, {0, 0, 1}, 0.0f},
    };
    const auto r3 = resolve_batch(w3, batch3);

    std::printf("3D batch (engine::Vec3 arrays, resolved in place)\n");
    print("bouncer", r3[0]);
    print("blocks", r3[1]);
    print("bouncer v", w3.velocity[bouncer]);
    print("lower v", w3.velocity[lower]);
    print("upper v", w3.velocity[upper]);

    // Rubber ball on the floor: the ball asks for restitution rule max, which outranks min:
    // e = max(0.5, 0) = 0.5; mu = sqrt(0.5*0.5) = 0.5. vn = -2, jn = -(1.5)(-2)/1 = 3: v -> (3, 4, 1).
    // vt = (3, 4, 0), |vt| = 5: stopping it takes 5 > mu*jn = 1.5, so it slides with |Jt| = 1.5
    // against the slide: Jt = -1.5*(0.6, 0.8, 0) = (-0.9, -1.2, 0); v -> (2.1, 2.8, 1).
    check(r3[0].regime == impulse::Regime::sliding, "the bouncer slides");
    check(near(r3[0].jn, 3.0f) && near(r3[0].jt, 1.5f), "bouncer: jn = 3, |Jt| = 1.5");
    check(near(w3.velocity[bouncer], 2.1f, 2.8f, 1.0f), "the bouncer leaves at (2.1, 2.8, 1)");

    // Two 1 kg wood blocks, the upper one landing on the lower one (n = +z from lower to upper):
    // e = 0, mu = 0.5. rv = (0, 0, -2) - (0, 1, 2) = (0, -1, -4), jn = 4/2 = 2:
    // lower -> (0, 1, 0), upper -> (0, 0, 0). vt = (0, -1, 0): stopping it takes |vt|/(1 + 1) = 0.5
    // <= mu*jn = 1, so they stick: both end at (0, 0.5, 0), the momentum (0, 1, 0) they started
    // with shared between two equal masses.
    check(r3[1].regime == impulse::Regime::sticking, "the blocks stick");
    check(near(r3[1].jn, 2.0f) && near(r3[1].jt, 0.5f), "blocks: jn = 2, |Jt| = 0.5");
    check(near(w3.velocity[lower], 0.0f, 0.5f, 0.0f), "the lower block ends at (0, 0.5, 0)");
    check(near(w3.velocity[upper], 0.0f, 0.5f, 0.0f), "the upper block ends at (0, 0.5, 0)");
    check(near(w3.velocity[ground3], 0.0f, 0.0f, 0.0f), "the floor (static) is not touched");

    if (failures != 0) {
        std::fprintf(stderr, "engine example: %d check(s) failed\n", failures);
        return 1;
    }
    std::printf("engine example: all checks passed\n");
    return 0;
}
