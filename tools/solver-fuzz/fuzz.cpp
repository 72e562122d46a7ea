// SPDX-License-Identifier: MIT
// libFuzzer target for Solver::step: the fuzz bytes make a step's input (2D or 3D, float or double;
// up to 8 bodies, up to 10 manifolds, 1 to 3 steps, sometimes changed settings and time step), with
// values mostly ordinary and sometimes extreme (1e30, the largest and smallest numbers) or not finite
// (NaN, +-inf), and sometimes outside the contract (out-of-range indices and point counts, negative
// coefficients, non-unit normals). Besides the sanitizers, it checks:
//   - validate() and the step's own checks agree: IMPULSE_ASSERT is routed into a counter here, so
//     that every input, valid or not, is stepped (the library's promise is that a step stays
//     memory-safe outside its contract); a step whose input validate() accepts fires nothing, and
//     one whose input it rejects fires first with the very message validate() returned;
//   - an immovable body (inverse mass and inertia exactly 0) never has its velocity written, and one
//     at rest is not written at all;
//   - non-finite state stays where it came from: after the steps, every body that is not finite is
//     a seed or is joined to one by contacts between movable bodies; seeds are bodies given a
//     non-finite or extreme (|x| >= 1e15) value, bodies of a manifold given one, and the bodies
//     touching an immovable body that moves at a non-finite or extreme velocity (extreme values are
//     seeds because their products may overflow legitimately: a position of 3e38 m moving on; so are
//     tiny values, whose inverses overflow). This is checked where the input breaks no rule of the
//     contract but finiteness (the generator knows when it broke one on purpose), and there
//     nonfinite() must list exactly the bodies that are not finite;
//   - the same input gives the same bits: everything is built and stepped twice.
//
//   cmake --preset fuzz && cmake --build build/fuzz --target impulse-solver-fuzz
//   build/fuzz/tools/solver-fuzz/impulse-solver-fuzz -max_total_time=60 build/fuzz/solver-corpus
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

namespace fuzz {
int fired = 0;                    // checks that failed in the current step
const char* first = nullptr;      // the first one's message
inline void record(const char* msg)
{
    if (fired++ == 0) first = msg;
}
}  // namespace fuzz

// Counted, not aborting: see the top of this file.
#define IMPULSE_ASSERT(cond, msg) ((cond) ? (void)0 : ::fuzz::record(msg))

#include <impulse/impulse.hpp>

namespace {

[[noreturn]] void broken(const char* what)
{
    std::fprintf(stderr, "impulse-solver-fuzz: %s\n", what);
    std::abort();
}

/// The fuzz bytes as a stream of small decisions; zeros once they run out.
struct Bytes {
    const std::uint8_t* data;
    std::size_t size, at{0};
    std::uint8_t next() { return at < size ? data[at++] : 0; }
    std::uint16_t next16() { return std::uint16_t(next() | (next() << 8)); }
};

/// One input: what the generator made, with what it knows about it.
template <class S, int D>
struct Input {
    static constexpr int A = D == 2 ? 1 : 3, Q = D == 2 ? 2 : 4;
    std::size_t n{0};
    std::vector<S> p, q, v, w, im, ii;    // structure of arrays: position, rotation, velocity, omega, 1/m, 1/I
    std::vector<unsigned char> seed;      // per body: given a non-finite or extreme value
    std::vector<impulse::Manifold<S, D>> m;
    std::vector<unsigned char> m_seed;    // per manifold: given a non-finite or extreme value
    impulse::SolverSettings<S, D> settings;
    S dt{S(1) / S(60)};
    int steps{1};
    bool only_finiteness{true};  // every rule kept but finiteness (the twin with ordinary values is valid)

    impulse::BodyView<S, D> view()
    {
        impulse::BodyView<S, D> b;
        b.count = n;
        b.position = {p.data(), std::ptrdiff_t(sizeof(S) * D)};
        b.rotation = {q.data(), std::ptrdiff_t(sizeof(S) * Q)};
        b.velocity = {v.data(), std::ptrdiff_t(sizeof(S) * D)};
        b.angular_velocity = {w.data(), std::ptrdiff_t(sizeof(S) * A)};
        b.inv_mass = {im.data(), std::ptrdiff_t(sizeof(S))};
        b.inv_inertia = {ii.data(), std::ptrdiff_t(sizeof(S) * A)};
        return b;
    }
};

/// Draws the scalars: `ordinary` as given, or (as the bytes say) a non-finite, extreme or tiny
/// value; `seed` is set when it is not ordinary (a tiny inverse mass is a mass beyond the largest
/// number, and its impulses are not representable either).
template <class S>
struct Draw {
    Bytes& bytes;
    bool seed{false};
    S operator()(S ordinary)
    {
        const std::uint8_t b = bytes.next();
        const S big = std::numeric_limits<S>::max();
        switch (b % 32) {
        case 0: seed = true; return std::numeric_limits<S>::quiet_NaN();
        case 1: seed = true; return std::numeric_limits<S>::infinity();
        case 2: seed = true; return -std::numeric_limits<S>::infinity();
        case 3: seed = true; return (b & 32) ? big : -big;
        case 4: seed = true; return S((b & 32) ? 1e30 : -1e30);
        case 5: seed = true; return S((b & 32) ? 1e15 : -1e15);
        case 6: seed = true; return std::numeric_limits<S>::denorm_min();
        case 7: seed = true; return std::numeric_limits<S>::min();
        default: return ordinary;
        }
    }
};

template <class S>
S uniform(Bytes& bytes, double lo, double hi)
{
    return S(lo + (hi - lo) * double(bytes.next16()) / 65535.0);
}

template <class S, int D>
Input<S, D> make(Bytes& bytes)
{
    using V = impulse::Vec<S, D>;
    constexpr int A = Input<S, D>::A, Q = Input<S, D>::Q;
    Input<S, D> in;
    in.n = 1 + bytes.next() % 8;
    in.p.resize(in.n * D);
    in.q.resize(in.n * Q);
    in.v.resize(in.n * D);
    in.w.resize(in.n * A);
    in.im.resize(in.n);
    in.ii.resize(in.n * A);
    in.seed.assign(in.n, 0);
    for (std::size_t i = 0; i < in.n; ++i) {
        Draw<S> draw{bytes};
        const bool immovable = bytes.next() % 3 == 0;
        for (int k = 0; k < D; ++k) in.p[i * D + k] = draw(uniform<S>(bytes, -3, 3));
        // A unit rotation from an angle (2D) or a normalised random quaternion (3D).
        if constexpr (D == 2) {
            const double a = uniform<double>(bytes, -4, 4);
            in.q[i * 2] = draw(S(std::cos(a)));
            in.q[i * 2 + 1] = S(std::sin(a));
        } else {
            impulse::Vec<S, 4> r;
            for (int k = 0; k < 4; ++k) r[k] = uniform<S>(bytes, -1, 1);
            if (!(r.norm() > S(0.1))) r = impulse::Vec<S, 4>(0, 0, 0, 1);
            r.normalize();
            for (int k = 0; k < 4; ++k) in.q[i * 4 + std::size_t(k)] = r[k];
            in.q[i * 4] = draw(in.q[i * 4]);
        }
        for (int k = 0; k < D; ++k) in.v[i * D + k] = draw(uniform<S>(bytes, -5, 5));
        for (int k = 0; k < A; ++k) in.w[i * A + k] = draw(uniform<S>(bytes, -5, 5));
        in.im[i] = immovable ? S(0) : draw(uniform<S>(bytes, 0.01, 2));
        for (int k = 0; k < A; ++k) in.ii[i * A + k] = immovable ? S(0) : draw(uniform<S>(bytes, 0, 20));
        in.seed[i] = draw.seed;
    }
    const std::size_t manifolds = bytes.next() % 11;
    in.m_seed.assign(manifolds, 0);
    for (std::size_t j = 0; j < manifolds; ++j) {
        Draw<S> draw{bytes};
        impulse::Manifold<S, D> m;
        const std::uint8_t pick = bytes.next();
        m.a = std::uint32_t(bytes.next() % (in.n + (pick == 1 ? 2 : 0)));  // sometimes out of range
        m.b = std::uint32_t(bytes.next() % (in.n + (pick == 2 ? 2 : 0)));
        if (m.a == m.b && pick != 3) m.b = std::uint32_t((m.a + 1) % in.n);  // sometimes a == b
        m.key = j + 1;  // distinct keys: the key rules are the assert tests' (tests/assert_hook.cpp)
        m.count = int(bytes.next() % (impulse::Manifold<S, D>::max_points + 1));
        if (pick == 4) m.count = impulse::Manifold<S, D>::max_points + 1;
        V n;
        for (int k = 0; k < D; ++k) n[k] = uniform<S>(bytes, -1, 1);
        if (!(n.norm() > S(0.1))) n = V::UnitY();
        m.n = n.normalized();
        if (pick == 5) m.n *= S(2);
        m.n[0] = draw(m.n[0]);
        m.coefficients.restitution = pick == 6 ? S(2) : draw(uniform<S>(bytes, 0, 1));
        m.coefficients.threshold = draw(uniform<S>(bytes, 0, 2));
        const S mu = uniform<S>(bytes, 0, 1);
        m.coefficients.friction = impulse::Friction<S>(draw(mu), pick == 7 ? S(-0.5) : mu * S(0.8));
        m.rolling_resistance = bytes.next() % 4 == 0 ? draw(uniform<S>(bytes, 0, 0.1)) : S(0);
        if (bytes.next() % 4 == 0)
            for (int k = 0; k < D; ++k) m.tangent_velocity[k] = draw(uniform<S>(bytes, -2, 2));
        for (int i = 0; i < impulse::Manifold<S, D>::max_points; ++i) {
            auto& pt = m.points[i];
            for (int k = 0; k < D; ++k) pt.rA[k] = draw(uniform<S>(bytes, -1, 1));
            for (int k = 0; k < D; ++k) pt.rB[k] = draw(uniform<S>(bytes, -1, 1));
            pt.separation = draw(uniform<S>(bytes, -0.3, 0.05));
            pt.feature = pick == 8 ? 0u : std::uint32_t(i);  // sometimes all the same
        }
        in.m_seed[j] = draw.seed;
        in.m.push_back(m);
        if (pick >= 1 && pick <= 8) in.only_finiteness = false;
    }
    const std::uint8_t s = bytes.next();
    if (s % 8 == 0) {
        in.settings.substeps = int(bytes.next() % 10);  // 0 breaks the contract
        in.settings.contact_hertz = uniform<S>(bytes, -5, 120);
        in.settings.contact_damping_ratio = uniform<S>(bytes, -1, 20);
        in.settings.relax_iterations = int(bytes.next() % 4);
        in.settings.warm_start = bytes.next() % 2 == 0;
        in.only_finiteness = false;  // may break the contract without a non-finite value
    }
    for (int k = 0; k < D; ++k) in.settings.gravity[k] = uniform<S>(bytes, -10, 10);
    if (s % 8 == 1) {
        Draw<S> draw{bytes};
        in.dt = draw(uniform<S>(bytes, -0.01, 0.1));
        in.only_finiteness = false;
    }
    in.steps = 1 + bytes.next() % 3;
    return in;
}

template <class S>
bool finite(const std::vector<S>& x, std::size_t first, std::size_t count)
{
    for (std::size_t k = first; k < first + count; ++k)
        if (!std::isfinite(x[k])) return false;
    return true;
}

template <class S>
bool large(S x)
{
    return !(std::abs(x) < S(1e15));
}

template <class S, int D>
void run(const std::uint8_t* data, std::size_t size)
{
    constexpr int A = Input<S, D>::A;
    Bytes b1{data, size}, b2{data, size};
    Input<S, D> in = make<S, D>(b1), twin = make<S, D>(b2);
    const Input<S, D> start = in;
    impulse::Solver<S, D> s1, s2;
    s1.settings = in.settings;
    s2.settings = twin.settings;
    const auto view = in.view(), view2 = twin.view();
    for (int step = 0; step < in.steps; ++step) {
        const impulse::Violation verdict = s1.validate(view, in.m.data(), in.m.size(), in.dt);
        fuzz::fired = 0;
        fuzz::first = nullptr;
        s1.step(view, in.m.data(), in.m.size(), in.dt);
        if (!verdict && fuzz::fired != 0) broken("validate() accepted the input, the step's checks did not");
        if (verdict && (fuzz::fired == 0 || fuzz::first != verdict.message))
            broken("validate() rejected the input, the step's first check did not say the same");
        s2.step(view2, twin.m.data(), twin.m.size(), twin.dt);
    }

    // The same input, the same bits.
    if (std::memcmp(in.p.data(), twin.p.data(), sizeof(S) * in.p.size()) != 0 ||
        std::memcmp(in.q.data(), twin.q.data(), sizeof(S) * in.q.size()) != 0 ||
        std::memcmp(in.v.data(), twin.v.data(), sizeof(S) * in.v.size()) != 0 ||
        std::memcmp(in.w.data(), twin.w.data(), sizeof(S) * in.w.size()) != 0)
        broken("the same input gave different bits");

    // Immovable bodies: velocity never written; at rest, nothing written.
    for (std::size_t i = 0; i < in.n; ++i) {
        bool immovable = start.im[i] == S(0);
        for (int k = 0; k < A; ++k) immovable = immovable && start.ii[i * A + k] == S(0);
        if (!immovable) continue;
        if (std::memcmp(&in.v[i * D], &start.v[i * D], sizeof(S) * D) != 0 ||
            std::memcmp(&in.w[i * A], &start.w[i * A], sizeof(S) * A) != 0)
            broken("an immovable body's velocity was written");
        bool rest = true;
        for (int k = 0; k < D; ++k) rest = rest && start.v[i * D + k] == S(0);
        for (int k = 0; k < A; ++k) rest = rest && start.w[i * A + k] == S(0);
        if (rest && (std::memcmp(&in.p[i * D], &start.p[i * D], sizeof(S) * D) != 0 ||
                     std::memcmp(&in.q[i * Input<S, D>::Q], &start.q[i * Input<S, D>::Q], sizeof(S) * Input<S, D>::Q) != 0))
            broken("an immovable body at rest was written");
    }

    // Non-finite state stays with its seeds and what they touch through movable bodies.
    if (!in.only_finiteness) return;
    const std::size_t n = in.n;
    std::vector<unsigned char> tainted(start.seed), movable(n);
    for (std::size_t i = 0; i < n; ++i) {
        bool moves = start.im[i] != S(0);
        for (int k = 0; k < A; ++k) moves = moves || start.ii[i * A + k] != S(0);
        movable[i] = moves;
    }
    for (std::size_t j = 0; j < in.m.size(); ++j) {
        const auto& m = in.m[j];
        if (m.count == 0) continue;
        if (start.m_seed[j]) tainted[m.a] = tainted[m.b] = 1;
        // An immovable body moving at a non-finite or extreme speed: its neighbours are seeds.
        for (std::uint32_t x : {m.a, m.b}) {
            const std::uint32_t other = x == m.a ? m.b : m.a;
            if (movable[x]) continue;
            bool bad = false;
            for (int k = 0; k < D; ++k) bad = bad || large(start.v[x * D + std::size_t(k)]);
            for (int k = 0; k < A; ++k) bad = bad || large(start.w[x * A + std::size_t(k)]);
            if (bad) tainted[other] = 1;
        }
    }
    for (bool grew = true; grew;) {  // spread over contacts between movable bodies
        grew = false;
        for (const auto& m : in.m) {
            if (m.count == 0 || !movable[m.a] || !movable[m.b] || tainted[m.a] == tainted[m.b]) continue;
            tainted[m.a] = tainted[m.b] = 1;
            grew = true;
        }
    }
    std::vector<unsigned char> listed(n, 0);
    for (std::uint32_t i : s1.nonfinite()) listed[i] = 1;
    for (std::size_t i = 0; i < n; ++i) {
        const bool ok = finite(in.p, i * D, D) && finite(in.q, i * Input<S, D>::Q, Input<S, D>::Q) &&
                        finite(in.v, i * D, D) && finite(in.w, i * A, A);
        if (!ok && !tainted[i]) broken("a body went non-finite without touching a non-finite one");
        if (ok == bool(listed[i])) broken("nonfinite() does not list exactly the non-finite bodies");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0) return 0;
    switch (data[0] % 4) {
    case 0: run<float, 2>(data + 1, size - 1); break;
    case 1: run<double, 2>(data + 1, size - 1); break;
    case 2: run<float, 3>(data + 1, size - 1); break;
    default: run<double, 3>(data + 1, size - 1); break;
    }
    return 0;
}
