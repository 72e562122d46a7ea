// SPDX-License-Identifier: MIT
// batch.hpp: resolve_batch against the single-contact resolve, contact by contact, and hand-derived
// batches of floor contacts. Where the compiler cannot fuse multiply-adds (no FMA on the target:
// the project's default builds) the batch must give the scalar path's bits; with FMA the two paths
// may fuse different operations, so values are compared to 16 epsilon of their scale, the tolerance
// batch.hpp states.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <impulse/batch.hpp>

#include "catch.hpp"
#include "common.hpp"

using impulse::Regime;

namespace {

using test::exact_bits;  // common.hpp: bit for bit unless the compiler may fuse multiply-adds

/// One contact: the arguments of resolve(vA, inv_mass_a, vB, inv_mass_b, n, coefficients).
template <class S, int D>
struct Contact {
    impulse::Vec<S, D> vA, vB, n;
    S inv_mass_a{0}, inv_mass_b{0};
    impulse::Coefficients<S> coefficients;
};

/// Contacts as structure-of-arrays, at an offset of `shift` elements into each array (to give
/// the kernel pointers that are not aligned to a packet), with sentinels after the last contact.
template <class S, int D>
struct Soa {
    static constexpr S sentinel = S(-12345);
    std::size_t count, shift;
    std::vector<S> vA[D], vB[D], n[D], inv_mass_a, inv_mass_b, e, mu_s, mu_k, threshold;
    std::vector<S> vA_out[D], vB_out[D], friction_impulse[D], jn, jt;
    std::vector<Regime> regime;

    Soa(const std::vector<Contact<S, D>>& cs, std::size_t offset) : count(cs.size()), shift(offset)
    {
        const std::size_t size = shift + count + 8;  // room for sentinels after the last contact
        auto make = [size](std::vector<S>& v) { v.assign(size, sentinel); };
        for (int d = 0; d < D; ++d) {
            for (auto* v : {&vA[d], &vB[d], &n[d], &vA_out[d], &vB_out[d], &friction_impulse[d]}) make(*v);
        }
        for (auto* v : {&inv_mass_a, &inv_mass_b, &e, &mu_s, &mu_k, &threshold, &jn, &jt}) make(*v);
        regime.assign(size, Regime(0x7f));
        for (std::size_t i = 0; i < count; ++i) {
            const Contact<S, D>& c = cs[i];
            const std::size_t j = shift + i;
            for (int d = 0; d < D; ++d) {
                vA[d][j] = c.vA[d];
                vB[d][j] = c.vB[d];
                n[d][j] = c.n[d];
            }
            inv_mass_a[j] = c.inv_mass_a;
            inv_mass_b[j] = c.inv_mass_b;
            e[j] = c.coefficients.restitution;
            mu_s[j] = c.coefficients.friction.mu_s;
            mu_k[j] = c.coefficients.friction.mu_k;
            threshold[j] = c.coefficients.threshold;
        }
    }

    /// Every input a per-contact array; every output wanted, in arrays of its own.
    impulse::BatchView<S, D> view()
    {
        impulse::BatchView<S, D> v;
        for (int d = 0; d < D; ++d) {
            v.vA[d] = vA[d].data() + shift;
            v.vB[d] = vB[d].data() + shift;
            v.n[d] = n[d].data() + shift;
            v.vA_out[d] = vA_out[d].data() + shift;
            v.vB_out[d] = vB_out[d].data() + shift;
            v.friction_impulse[d] = friction_impulse[d].data() + shift;
        }
        v.inv_mass_a = inv_mass_a.data() + shift;
        v.inv_mass_b = inv_mass_b.data() + shift;
        v.restitution = e.data() + shift;
        v.mu_s = mu_s.data() + shift;
        v.mu_k = mu_k.data() + shift;
        v.threshold = threshold.data() + shift;
        v.jn = jn.data() + shift;
        v.jt = jt.data() + shift;
        v.regime = regime.data() + shift;
        return v;
    }

    /// Contact i's outputs as resolve reports them (velocities through the references).
    impulse::Result<S, D> result(std::size_t i, impulse::Vec<S, D>& a, impulse::Vec<S, D>& b) const
    {
        const std::size_t j = shift + i;
        impulse::Result<S, D> r;
        for (int d = 0; d < D; ++d) {
            a[d] = vA_out[d][j];
            b[d] = vB_out[d][j];
            r.friction_impulse[d] = friction_impulse[d][j];
        }
        r.jn = jn[j];
        r.jt = jt[j];
        r.regime = regime[j];
        return r;
    }

    /// No output element outside [shift, shift + count) was written.
    bool sentinels_intact() const
    {
        auto intact = [this](const std::vector<S>& v) {
            for (std::size_t j = 0; j < v.size(); ++j)
                if ((j < shift || j >= shift + count) && !(v[j] == sentinel)) return false;
            return true;
        };
        for (int d = 0; d < D; ++d)
            if (!intact(vA_out[d]) || !intact(vB_out[d]) || !intact(friction_impulse[d])) return false;
        for (std::size_t j = 0; j < regime.size(); ++j)
            if ((j < shift || j >= shift + count) && regime[j] != Regime(0x7f)) return false;
        return intact(jn) && intact(jt);
    }
};

template <class S>
bool same_bits(S a, S b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

/// x and y agree: the same bits where the paths fuse nothing, else within 16 epsilons of `scale`,
/// the tolerance batch.hpp states.
template <class S>
bool agree(S x, S y, S scale)
{
    if (exact_bits) return same_bits(x, y);
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    return std::abs(x - y) <= test::tol(scale, S(16));
}

/// Compares contact i of a batch with the scalar resolve on the same contact; describes the
/// first difference in `why`.
template <class S, int D>
bool matches_scalar(const Contact<S, D>& c, const impulse::Result<S, D>& got, const impulse::Vec<S, D>& a,
                    const impulse::Vec<S, D>& b, std::string& why)
{
    impulse::Vec<S, D> ra = c.vA, rb = c.vB;
    const impulse::Result<S, D> want = impulse::resolve(ra, c.inv_mass_a, rb, c.inv_mass_b, c.n, c.coefficients);
    using std::abs;
    // Scales for the tolerance: speeds, and impulses up to 2 speed / k.
    const S speed = S(1) + c.vA.cwiseAbs().maxCoeff() + c.vB.cwiseAbs().maxCoeff();
    const S k = c.inv_mass_a + c.inv_mass_b;
    const S impulse = k > S(0) ? S(4) * speed / k : S(1);
    bool ok = got.regime == want.regime && agree(got.jn, want.jn, impulse) && agree(got.jt, want.jt, impulse);
    for (int d = 0; d < D; ++d)
        ok = ok && agree(got.friction_impulse[d], want.friction_impulse[d], impulse) && agree(a[d], ra[d], speed) && agree(b[d], rb[d], speed);
    if (!ok) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "regime %s/%s jn %.9g/%.9g jt %.9g/%.9g vB0 %.9g/%.9g (batch/scalar)",
                      impulse::to_string(got.regime), impulse::to_string(want.regime), double(got.jn),
                      double(want.jn), double(got.jt), double(want.jt), double(b[0]), double(rb[0]));
        why = buf;
    }
    return ok;
}

/// Random contacts with every regime and the edge cases mixed in: separating and resting
/// contacts, immovable pairs and static bodies, no tangential speed, mu = 0, mu_k > mu_s,
/// thresholds near the approach speed, e at 0 and 1.
template <class S, int D>
std::vector<Contact<S, D>> random_contacts(std::size_t count, unsigned seed)
{
    test::Random<S, D> rnd(seed);
    std::vector<Contact<S, D>> cs(count);
    for (Contact<S, D>& c : cs) {
        c.vA = rnd.vec(S(-2), S(2));
        c.vB = rnd.vec(S(-2), S(2));
        c.n = rnd.unit();
        c.inv_mass_a = rnd.inverse_mass(true);
        c.inv_mass_b = rnd.inverse_mass(true);
        c.coefficients.restitution = rnd.chance(0.2) ? S(rnd.chance(0.5) ? 0 : 1) : rnd.uniform(S(0), S(1));
        const S mu = rnd.chance(0.15) ? S(0) : rnd.uniform(S(0), S(1.2));
        c.coefficients.friction = impulse::Friction<S>(mu, rnd.chance(0.2) ? mu * S(1.5) : mu * rnd.uniform(S(0.5), S(1)));
        c.coefficients.threshold = rnd.chance(0.5) ? S(0) : rnd.uniform(S(0), S(1));
        switch (int(rnd.uniform(S(0), S(6)))) {
        case 0: c.vB = c.vA; break;  // resting: vn = 0, no slide
        case 1:                      // along the normal only: no tangential speed
            c.n = impulse::Vec<S, D>::UnitY();
            c.vA = impulse::Vec<S, D>::Zero();
            c.vB = -rnd.uniform(S(0.1), S(2)) * impulse::Vec<S, D>::UnitY();
            break;
        case 2: c.inv_mass_a = c.inv_mass_b = S(0); break;  // immovable pair
        default: break;
        }
    }
    return cs;
}

/// Runs resolve_batch on the contacts (pointers `shift` elements into the arrays) and checks
/// every contact against the scalar path, and that nothing outside the batch was written.
template <class S, int D>
void check_against_scalar(const std::vector<Contact<S, D>>& cs, std::size_t shift)
{
    Soa<S, D> soa(cs, shift);
    impulse::resolve_batch(soa.view(), cs.size());
    std::size_t bad = 0;
    std::string why;
    for (std::size_t i = 0; i < cs.size(); ++i) {
        impulse::Vec<S, D> a, b;
        const impulse::Result<S, D> got = soa.result(i, a, b);
        std::string w;
        if (!matches_scalar(cs[i], got, a, b, w)) {
            if (bad == 0) why = "contact " + std::to_string(i) + ": " + w;
            ++bad;
        }
    }
    INFO(why);
    CHECK(bad == 0);
    CHECK(soa.sentinels_intact());
}

}  // namespace

TEMPLATE_TEST_CASE("the batch gives the scalar resolve's results, contact by contact", "[batch]", test::F2,
                   test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    constexpr std::size_t W = std::size_t(impulse::batch_width<S>);
    // Every count up to two blocks and one (each way the last contacts split into narrower blocks
    // and a padded one), and large batches.
    std::vector<std::size_t> sizes;
    for (std::size_t count = 1; count <= 2 * W + 1; ++count) sizes.push_back(count);
    sizes.insert(sizes.end(), {1000, 1003});
    unsigned seed = 7;
    for (const std::size_t count : sizes) {
        for (const std::size_t shift : {std::size_t(0), std::size_t(1), std::size_t(3)}) {
            INFO("count " << count << ", arrays shifted by " << shift << " elements, lanes " << W);
            check_against_scalar(random_contacts<S, D>(count, seed++), shift);
        }
    }
}

TEMPLATE_TEST_CASE("tiny and huge slides match the scalar path (norms without underflow or overflow)",
                   "[batch]", test::F3, test::D3)
{
    using S = typename TestType::S;
    // Velocities scaled so that |vt|^2 underflows below the smallest normal number, or overflows:
    // the kernel's rescaled norm must give what safe_norm gives.
    for (const S scale : {S(std::sqrt(std::numeric_limits<S>::min())) * S(0.01), S(1e-3),
                          S(std::sqrt(std::numeric_limits<S>::max())) * S(4)}) {
        auto cs = random_contacts<S, 3>(200, 99);
        for (auto& c : cs) {
            c.vA *= scale;
            c.vB *= scale;
            if (c.inv_mass_a == S(0) && c.inv_mass_b == S(0)) c.inv_mass_b = S(1);  // keep impulses finite
            c.inv_mass_a = c.inv_mass_a > S(0) ? S(1) : S(0);
            c.inv_mass_b = c.inv_mass_b > S(0) ? S(1) : S(0);
        }
        INFO("velocity scale " << scale);
        check_against_scalar(cs, 1);
    }
}

TEMPLATE_TEST_CASE("floor contacts in a batch stick and slide as Coulomb's law says", "[batch][friction]",
                   test::F2, test::D2)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // A static floor (one value for all: vA = 0, wA = 0), n = (0, 1), balls of w = 1 landing at
    // vy = -2 with e = 0: jn = -(1 + 0)(-2)/1 = 2. mu_s = 0.5 sticks while |want| <= 1, mu_k = 0.25
    // slides with 0.5. t = (-1, 0), vt = -vx, want = -vt/k = vx. (The same derivation as
    // test_contact.cpp's, all numbers exact in binary.)
    const S vx[] = {S(0.75), S(1.5), S(-1.5), S(0), S(0.5), S(-1)};
    const S vy[] = {S(-2), S(-2), S(-2), S(-2), S(1), S(-2)};  // the fifth one separates
    std::vector<S> bx(std::begin(vx), std::end(vx)), by(std::begin(vy), std::end(vy));
    std::vector<S> jn(6), jt(6);
    std::vector<Regime> regime(6);
    impulse::BatchView<S, 2> v;
    v.vA[0] = 0;
    v.vA[1] = 0;
    v.inv_mass_a = 0;
    v.vB[0] = bx.data();
    v.vB[1] = by.data();
    v.vB_out[0] = bx.data();  // in place
    v.vB_out[1] = by.data();
    v.inv_mass_b = 1;
    v.n[0] = 0;
    v.n[1] = 1;
    v.mu_s = S(0.5);
    v.mu_k = S(0.25);
    v.jn = jn.data();
    v.jt = jt.data();
    v.regime = regime.data();
    impulse::resolve_batch(v, 6);
    // vx = 0.75: want 0.75 <= 1, sticking: the slide stops, jt = 0.75.
    CHECK(regime[0] == Regime::sticking);
    CHECK(jn[0] == S(2));
    CHECK(jt[0] == S(0.75));
    CHECK(V(bx[0], by[0]) == V::Zero());
    // vx = 1.5: want 1.5 > 1, sliding with mu_k jn = 0.5: vx = 1.5 - 0.5 = 1.
    CHECK(regime[1] == Regime::sliding);
    CHECK(jt[1] == S(0.5));
    CHECK(V(bx[1], by[1]) == V(S(1), S(0)));
    // The slide to the left: friction flips sign with it.
    CHECK(regime[2] == Regime::sliding);
    CHECK(jt[2] == S(-0.5));
    CHECK(V(bx[2], by[2]) == V(S(-1), S(0)));
    // No tangential speed: sticking with no friction impulse.
    CHECK(regime[3] == Regime::sticking);
    CHECK(jt[3] == S(0));
    CHECK(V(bx[3], by[3]) == V::Zero());
    // Moving away (vn = +1): untouched.
    CHECK(regime[4] == Regime::separating);
    CHECK(jn[4] == S(0));
    CHECK(V(bx[4], by[4]) == V(S(0.5), S(1)));
    // vx = -1: |want| = 1 = mu_s jn, on the boundary: static friction still holds (<=).
    CHECK(regime[5] == Regime::sticking);
    CHECK(jt[5] == S(-1));
    CHECK(V(bx[5], by[5]) == V::Zero());
}

TEMPLATE_TEST_CASE("3D friction in a batch opposes the slide and is capped by its magnitude", "[batch][friction]",
                   test::F3, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    // Static floor, n = +z, balls of w = 1 landing at vz = -2, e = 0: jn = 2; mu = 0.25: cap 0.5.
    // Slide (0.18, 0.24, .): |want| = |vt| / 1 = 0.3 <= 0.5, sticks: the slide stops, jt = 0.3.
    // Slide (1.2, 1.6, .): |want| = 2 > 0.5, slides with 0.5 against it: v = (1.2, 1.6)(1 - 0.5/2)
    // = (0.9, 1.2), jt = 0.5.
    const Contact<S, 3> stick{V::Zero(), V(S(0.18), S(0.24), S(-2)), V::UnitZ(), S(0), S(1), {}};
    Contact<S, 3> slide = stick;
    slide.vB = V(S(1.2), S(1.6), S(-2));
    std::vector<Contact<S, 3>> cs = {stick, slide};
    for (auto& c : cs) c.coefficients.friction = S(0.25);
    Soa<S, 3> soa(cs, 0);
    impulse::resolve_batch(soa.view(), 2);
    V a, b;
    auto r = soa.result(0, a, b);
    CHECK(r.regime == Regime::sticking);
    CHECK(r.jn == S(2));
    CHECK_THAT(double(r.jt), WithinAbs(0.3, double(test::tol(S(1)))));
    CHECK(b.norm() <= test::tol(S(1)));
    CHECK(a == V::Zero());  // the floor is not touched
    r = soa.result(1, a, b);
    CHECK(r.regime == Regime::sliding);
    CHECK(r.jt == S(0.5));
    CHECK((b - V(S(0.9), S(1.2), S(0))).norm() <= test::tol(S(2)));
    CHECK(r.friction_impulse.dot(V(S(1.2), S(1.6), S(0))) < S(0));  // against the slide
}

TEMPLATE_TEST_CASE("a batch drops the bounce of approaches at or below the threshold", "[batch][normal]",
                   test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    constexpr int D = TestType::D;
    // B (w = 1) falls onto a static floor, e = 1, threshold 1 (one value for the batch).
    // At 0.5 (<= 1): e counts as 0, jn = 0.5, B stops. At 1 (= threshold): still no bounce, jn = 1.
    // At 2 (> 1): jn = (1 + 1) 2 = 4, B leaves at +2.
    std::vector<Contact<S, D>> cs;
    for (const S fall : {S(0.5), S(1), S(2)}) {
        Contact<S, D> c{V::Zero(), -fall * V::UnitY(), V::UnitY(), S(0), S(1), {}};
        c.coefficients.restitution = S(1);
        c.coefficients.threshold = S(1);
        cs.push_back(c);
    }
    Soa<S, D> soa(cs, 0);
    impulse::resolve_batch(soa.view(), cs.size());
    V a, b;
    CHECK(soa.result(0, a, b).jn == S(0.5));
    CHECK(b == V::Zero());
    CHECK(soa.result(1, a, b).jn == S(1));
    CHECK(b == V::Zero());
    CHECK(soa.result(2, a, b).jn == S(4));
    CHECK(b == S(2) * V::UnitY());
}

TEMPLATE_TEST_CASE("in a batch a kinetic coefficient above the static one never reverses the slide",
                   "[batch][friction]", test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    constexpr int D = TestType::D;
    // B (w = 1) lands at vy = -2 (e = 0: jn = 2) sliding at 1.5 along x. mu_s = 0.25: |want| = 1.5
    // > 0.5, it slides; mu_k = 2 would give 4, more than the 1.5 that stops the slide: friction
    // stops it exactly (vx = 0) and never pushes it back.
    Contact<S, D> c{V::Zero(), S(1.5) * V::UnitX() - S(2) * V::UnitY(), V::UnitY(), S(0), S(1), {}};
    c.coefficients.friction = impulse::Friction<S>(S(0.25), S(2));
    Soa<S, D> soa({c, c, c}, 1);
    impulse::resolve_batch(soa.view(), 3);
    for (std::size_t i = 0; i < 3; ++i) {
        V a, b;
        const auto r = soa.result(i, a, b);
        CHECK(r.regime == Regime::sliding);
        CHECK(b == V::Zero());
        CHECK(std::abs(r.jt) == S(1.5));
    }
}

TEMPLATE_TEST_CASE("an immovable body in a batch is never touched, not even by an infinite impulse",
                   "[batch][normal]", test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    using V = typename TestType::V;
    constexpr int D = TestType::D;
    const S inf = std::numeric_limits<S>::infinity();
    std::vector<Contact<S, D>> cs(3);
    // (0) Both immovable, one velocity infinite: nothing happens, no NaN anywhere.
    cs[0].vA = V::Zero();
    cs[0].vA[0] = inf;
    cs[0].vB = -V::UnitX();
    cs[0].n = V::UnitX();
    cs[0].coefficients.friction = S(0.5);
    // (1) A static floor moving at -0 (a sign a careless update would flip) under a ball that
    //     lands sliding: the floor keeps its bits.
    cs[1].vA = V::Constant(-S(0));
    cs[1].vB = S(0.5) * V::UnitX() - V::UnitY();
    cs[1].n = V::UnitY();
    cs[1].inv_mass_b = S(1);
    cs[1].coefficients.friction = S(0.2);
    // (2) A huge approach on a tiny inverse mass: jn overflows to infinity; the floor, wA = 0, must
    //     not become 0 * inf = NaN.
    cs[2].vA = V::Zero();
    cs[2].vB = -std::numeric_limits<S>::max() * V::UnitY();
    cs[2].n = V::UnitY();
    cs[2].inv_mass_b = std::numeric_limits<S>::min();
    Soa<S, D> soa(cs, 0);
    impulse::resolve_batch(soa.view(), 3);
    V a, b;
    auto r = soa.result(0, a, b);
    CHECK(r.regime == Regime::immovable);
    CHECK(r.jn == S(0));
    CHECK(r.friction_impulse == V::Zero());
    CHECK(a == cs[0].vA);
    CHECK(b == cs[0].vB);
    r = soa.result(1, a, b);
    CHECK(r.jn > S(0));
    for (int d = 0; d < D; ++d) CHECK(std::signbit(a[d]));
    CHECK(a == V::Zero());
    r = soa.result(2, a, b);
    CHECK(r.jn == inf);
    CHECK(a == V::Zero());
    CHECK(test::all_finite(a));
}

TEMPLATE_TEST_CASE("a single value for all contacts reads as an array of that value", "[batch][api]", test::F2,
                   test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    // The same contacts twice: once with every input an array, once with the floor's velocity,
    // inverse masses and coefficients given as single values (the arrays hold those values).
    auto cs = random_contacts<S, D>(101, 3);
    for (auto& c : cs) {
        c.vA = impulse::Vec<S, D>::Constant(S(0.25));
        c.inv_mass_a = S(0);
        c.inv_mass_b = S(0.5);
        c.coefficients.restitution = S(0.25);
        c.coefficients.friction = impulse::Friction<S>(S(0.6), S(0.4));
        c.coefficients.threshold = S(0.125);
    }
    Soa<S, D> arrays(cs, 0), values(cs, 0);
    impulse::resolve_batch(arrays.view(), cs.size());
    impulse::BatchView<S, D> v = values.view();
    for (int d = 0; d < D; ++d) v.vA[d] = 0.25;
    v.inv_mass_a = 0;
    v.inv_mass_b = 0.5;
    v.restitution = 0.25f;  // any arithmetic type converts to the view's scalar
    v.mu_s = S(0.6);
    v.mu_k = S(0.4);
    v.threshold = 0.125;
    impulse::resolve_batch(v, cs.size());
    CHECK(arrays.vB_out[0] == values.vB_out[0]);
    CHECK(arrays.vA_out[D - 1] == values.vA_out[D - 1]);
    CHECK(arrays.jn == values.jn);
    CHECK(arrays.jt == values.jt);
    CHECK(arrays.regime == values.regime);
}

TEMPLATE_TEST_CASE("outputs left null are not written, and velocities update in place", "[batch][api]",
                   test::F3, test::D2)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    const auto cs = random_contacts<S, D>(77, 11);
    Soa<S, D> full(cs, 0), in_place(cs, 0);
    impulse::resolve_batch(full.view(), cs.size());
    // Only B's velocity wanted, written over B's input arrays.
    impulse::BatchView<S, D> v = in_place.view();
    for (int d = 0; d < D; ++d) {
        v.vA_out[d] = nullptr;
        v.friction_impulse[d] = nullptr;
        v.vB_out[d] = in_place.vB[d].data();
    }
    v.jn = v.jt = nullptr;
    v.regime = nullptr;
    impulse::resolve_batch(v, cs.size());
    for (int d = 0; d < D; ++d) {
        for (std::size_t i = 0; i < cs.size(); ++i) CHECK(same_bits(in_place.vB[d][i], full.vB_out[d][i]));
        CHECK(in_place.vA_out[d][0] == Soa<S, D>::sentinel);
        CHECK(in_place.friction_impulse[d][0] == Soa<S, D>::sentinel);
    }
    CHECK(in_place.jn[5] == Soa<S, D>::sentinel);
    CHECK(in_place.regime[5] == Regime(0x7f));
}

TEMPLATE_TEST_CASE("a batch resolved in pieces, a thread per piece, gives the results of one call",
                   "[batch][api]", test::F2, test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    constexpr std::size_t W = std::size_t(impulse::batch_width<S>);
    // Contacts share no body, so what a contact gets cannot depend on which call resolves it or
    // where in a block it falls: the pieces must give the one call's bits, wherever they are cut.
    // The cuts fall off block boundaries; the threshold and B's inverse mass are single values,
    // which `from` must leave alone, and one output is null, which must stay null.
    const std::size_t count = 1003;
    const auto cs = random_contacts<S, D>(count, 41);
    Soa<S, D> whole(cs, 1), pieces(cs, 1);
    auto setup = [](impulse::BatchView<S, D> v) {
        v.threshold = S(0.25);
        v.inv_mass_b = S(0.5);
        v.friction_impulse[D - 1] = nullptr;
        return v;
    };
    impulse::resolve_batch(setup(whole.view()), count);

    const impulse::BatchView<S, D> v = setup(pieces.view());
    const std::size_t cuts[] = {0, 1, W + 4, 6 * W + 7, 500, count};
    std::vector<std::thread> threads;
    for (std::size_t p = 0; p + 1 < std::size(cuts); ++p)
        threads.emplace_back([&v, first = cuts[p], last = cuts[p + 1]] { impulse::resolve_batch(v.from(first), last - first); });
    for (std::thread& t : threads) t.join();

    auto same = [](const std::vector<S>& a, const std::vector<S>& b) {
        return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(S)) == 0;
    };
    for (int d = 0; d < D; ++d) {
        CHECK(same(pieces.vA_out[d], whole.vA_out[d]));
        CHECK(same(pieces.vB_out[d], whole.vB_out[d]));
        CHECK(same(pieces.friction_impulse[d], whole.friction_impulse[d]));
    }
    CHECK(same(pieces.jn, whole.jn));
    CHECK(same(pieces.jt, whole.jt));
    CHECK(pieces.regime == whole.regime);
    // The null output was written nowhere, and nothing outside the batch was.
    CHECK(std::count(pieces.friction_impulse[D - 1].begin(), pieces.friction_impulse[D - 1].end(), Soa<S, D>::sentinel) ==
          std::ptrdiff_t(pieces.friction_impulse[D - 1].size()));
    CHECK(pieces.sentinels_intact());
}

TEMPLATE_TEST_CASE("the array-of-structures form gives the structure-of-arrays results", "[batch][api]", test::F2,
                   test::F3, test::D2, test::D3)
{
    using S = typename TestType::S;
    constexpr int D = TestType::D;
    for (const std::size_t count : {std::size_t(1), std::size_t(37), std::size_t(64)}) {
        const auto cs = random_contacts<S, D>(count, unsigned(count));
        Soa<S, D> soa(cs, 0);
        impulse::resolve_batch(soa.view(), count);
        std::vector<impulse::PointPair<S, D>> pairs(count);
        for (std::size_t i = 0; i < count; ++i)
            pairs[i] = {cs[i].vA, cs[i].inv_mass_a, cs[i].vB, cs[i].inv_mass_b, cs[i].n, cs[i].coefficients};
        std::vector<impulse::Result<S, D>> results(count);
        impulse::resolve_batch(pairs.data(), count, results.data());
        for (std::size_t i = 0; i < count; ++i) {
            impulse::Vec<S, D> a, b;
            const auto r = soa.result(i, a, b);
            INFO("contact " << i << " of " << count);
            CHECK(results[i].regime == r.regime);
            CHECK(same_bits(results[i].jn, r.jn));
            CHECK(same_bits(results[i].jt, r.jt));
            for (int d = 0; d < D; ++d) {
                CHECK(same_bits(results[i].friction_impulse[d], r.friction_impulse[d]));
                CHECK(same_bits(pairs[i].vA[d], a[d]));
                CHECK(same_bits(pairs[i].vB[d], b[d]));
            }
        }
        // Without results only the velocities change.
        std::vector<impulse::PointPair<S, D>> again(count);
        for (std::size_t i = 0; i < count; ++i)
            again[i] = {cs[i].vA, cs[i].inv_mass_a, cs[i].vB, cs[i].inv_mass_b, cs[i].n, cs[i].coefficients};
        impulse::resolve_batch(again.data(), count);
        for (std::size_t i = 0; i < count; ++i) CHECK(again[i].vB == pairs[i].vB);
    }
}

TEST_CASE("scalars without packets take the scalar path, with the same interface", "[batch][api]")
{
    using S = long double;
    using V = impulse::Vec<S, 2>;
    // The floor of the Coulomb test above in long double: vx = 1.5 slides with mu_k jn = 0.5.
    std::vector<S> bx = {1.5L}, by = {-2.0L}, jt(1);
    impulse::BatchView<S, 2> v;
    v.vB[0] = bx.data();
    v.vB[1] = by.data();
    v.vB_out[0] = bx.data();
    v.vB_out[1] = by.data();
    v.inv_mass_b = 1;
    v.n[1] = 1;
    v.mu_s = 0.5L;
    v.mu_k = 0.25L;
    v.jt = jt.data();
    impulse::resolve_batch(v, 1);
    CHECK(V(bx[0], by[0]) == V(1.0L, 0.0L));
    CHECK(jt[0] == 0.5L);
    impulse::PointPair<S, 2> p;
    p.vB = V(1.5L, -2.0L);
    p.inv_mass_b = 1;
    p.n = V(0, 1);
    p.coefficients.friction = impulse::Friction<S>(0.5L, 0.25L);
    impulse::resolve_batch(&p, 1);
    CHECK(p.vB == V(1.0L, 0.0L));
    CHECK(impulse::batch_width<long double> == 1);
}
