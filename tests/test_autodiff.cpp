// SPDX-License-Identifier: MIT
// Every public function works with Eigen's AutoDiffScalar, and its derivatives are right:
//   - on random contacts away from the branch switches (approach, stick/slide, zero slide), the
//     AutoDiff gradient of every output equals a central finite difference in double, and the
//     AutoDiff values equal the double results (to the ulps a vectorised dot product may change);
//   - known closed forms: d(vn')/de = -vn, d(jn)/de = -vn/(wA+wB), and while sliding d|Jt|/dmu = jn.
#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include <cmath>
#include <vector>

#include "catch.hpp"
#include "common.hpp"

using AD = Eigen::AutoDiffScalar<Eigen::VectorXd>;
using impulse::Regime;

namespace {

// The inputs of one contact are a flat list, so one function serves double and AutoDiff.
// Point masses: vA, vB, wA, wB, normal angles, e, mu_s, mu_k. Rigid bodies add omegaA, omegaB,
// inverse inertias (diagonal in 3D), rA, rB. The normal is built from angles so it stays unit.

template <class T, int D>
impulse::Vec<T, D> normal_from(const T* a)
{
    using std::cos;
    using std::sin;
    if constexpr (D == 2) return impulse::Vec<T, 2>(cos(a[0]), sin(a[0]));
    else return impulse::Vec<T, 3>(sin(a[0]) * cos(a[1]), sin(a[0]) * sin(a[1]), cos(a[0]));
}

/// Runs one contact (sequential or coupled, point or rigid) and returns every output in a list:
/// jn, Jt, vA', vB' (and omegaA', omegaB' for rigid bodies), plus the regime.
template <class T, int D>
std::vector<T> run(const std::vector<T>& x, bool rigid, bool coupled, Regime* regime)
{
    const T* p = x.data();
    auto vec = [&p] {
        impulse::Vec<T, D> v;
        for (int i = 0; i < D; ++i) v[i] = *p++;
        return v;
    };
    impulse::RigidBody<T, D> A, B;
    A.v = vec();
    B.v = vec();
    A.inv_mass = *p++;
    B.inv_mass = *p++;
    const impulse::Vec<T, D> n = normal_from<T, D>(p);
    p += D - 1;
    impulse::Coefficients<T> coefficients;
    coefficients.restitution = *p++;
    coefficients.friction.mu_s = *p++;
    coefficients.friction.mu_k = *p++;
    std::vector<T> out;
    impulse::Result<T, D> r;
    if (!rigid) {
        impulse::Vec<T, D> va = A.v, vb = B.v;
        r = impulse::resolve(va, A.inv_mass, vb, B.inv_mass, n, coefficients);
        A.v = va;
        B.v = vb;
    } else {
        if constexpr (D == 2) {
            A.omega = *p++;
            B.omega = *p++;
            A.inv_inertia = *p++;
            B.inv_inertia = *p++;
        } else {
            A.omega = vec();
            B.omega = vec();
            A.inv_inertia = vec().asDiagonal();
            B.inv_inertia = vec().asDiagonal();
        }
        const impulse::Vec<T, D> rA = vec(), rB = vec();
        r = coupled ? impulse::resolve_coupled(A, rA, B, rB, n, coefficients) : impulse::resolve(A, rA, B, rB, n, coefficients);
        if constexpr (D == 2) {
            out.push_back(A.omega);
            out.push_back(B.omega);
        } else {
            for (int i = 0; i < 3; ++i) out.push_back(A.omega[i]);
            for (int i = 0; i < 3; ++i) out.push_back(B.omega[i]);
        }
    }
    *regime = r.regime;
    out.push_back(r.jn);
    for (int i = 0; i < D; ++i) out.push_back(r.friction_impulse[i]);
    for (int i = 0; i < D; ++i) out.push_back(A.v[i]);
    for (int i = 0; i < D; ++i) out.push_back(B.v[i]);
    return out;
}

/// A random contact well away from every branch switch: clearly approaching, clearly sliding or
/// clearly sticking (the wanted impulse at least 5% inside or outside the static cone), and with a
/// clear tangential speed. Returns false for a draw too close to a switch.
template <int D>
bool draw(test::Random<double, D>& rnd, bool rigid, bool coupled, std::vector<double>& x)
{
    x.clear();
    for (int i = 0; i < 2 * D; ++i) x.push_back(rnd.uniform(-4, 4));
    x.push_back(rnd.uniform(0.2, 2));  // wA
    x.push_back(rnd.uniform(0.2, 2));  // wB
    for (int i = 0; i < D - 1; ++i) x.push_back(rnd.uniform(0.3, 2.8));
    x.push_back(rnd.uniform(0.05, 0.95));  // e
    const double mu_s = rnd.uniform(0.05, 1.5);
    x.push_back(mu_s);
    x.push_back(rnd.uniform(0.02, mu_s));
    if (rigid) {
        const int ang = D == 2 ? 1 : 3;
        for (int i = 0; i < 2 * ang; ++i) x.push_back(rnd.uniform(-2, 2));      // omega
        for (int i = 0; i < 2 * ang; ++i) x.push_back(rnd.uniform(0.2, 3));     // inverse inertia
        for (int i = 0; i < 2 * D; ++i) x.push_back(rnd.uniform(-1, 1));        // rA, rB
    }
    // Distance from the switches, measured with the double code path itself.
    Regime regime;
    std::vector<double> y = run<double, D>(x, rigid, coupled, &regime);
    if (regime != Regime::sticking && regime != Regime::sliding) return false;
    const std::size_t at = rigid ? std::size_t(D == 2 ? 2 : 6) : 0;
    const double jn = y[at];
    double jt = 0;
    for (int i = 0; i < D; ++i) jt += y[at + 1 + std::size_t(i)] * y[at + 1 + std::size_t(i)];
    jt = std::sqrt(jt);
    // Nudge mu_s both ways by 5%: the regime must not change (away from the stick/slide switch).
    for (double f : {0.95, 1.05}) {
        std::vector<double> z = x;
        z[std::size_t(2 * D + 2 + D - 1 + 1)] *= f;
        z[std::size_t(2 * D + 2 + D - 1 + 2)] = std::min(z[std::size_t(2 * D + 2 + D - 1 + 2)], z[std::size_t(2 * D + 2 + D - 1 + 1)]);
        Regime other;
        run<double, D>(z, rigid, coupled, &other);
        if (other != regime) return false;
    }
    return jn > 0.05 && (regime == Regime::sticking ? jt > 1e-3 : true);
}

template <int D>
void check_gradients(bool rigid, bool coupled, unsigned seed)
{
    test::Random<double, D> rnd(seed);
    int checked = 0;
    std::vector<double> x;
    for (int attempt = 0; attempt < 4000 && checked < 200; ++attempt) {
        if (!draw<D>(rnd, rigid, coupled, x)) continue;
        const int N = int(x.size());
        std::vector<AD> xa;
        for (int i = 0; i < N; ++i) xa.push_back(AD(x[std::size_t(i)], N, i));
        Regime ra, rd;
        const std::vector<AD> ya = run<AD, D>(xa, rigid, coupled, &ra);
        const std::vector<double> yd = run<double, D>(x, rigid, coupled, &rd);
        REQUIRE(ra == rd);
        for (std::size_t o = 0; o < yd.size(); ++o) {
            CAPTURE(attempt, o);
            // The same operations in the same order, except that Eigen may vectorise double dot
            // products (another summation order) where AutoDiff scalars are summed one by one:
            // equal to a few ulps.
            CHECK(std::abs(ya[o].value() - yd[o]) <= 1e-14 * (1 + std::abs(yd[o])));
        }
        for (int i = 0; i < N; ++i) {
            // Central difference: error h^2 |f'''|/6 + eps |f|/h; h = 1e-5 balances both near 1e-10.
            const double h = 1e-5 * std::max(1.0, std::abs(x[std::size_t(i)]));
            std::vector<double> up = x, down = x;
            up[std::size_t(i)] += h;
            down[std::size_t(i)] -= h;
            Regime r1, r2;
            const std::vector<double> yu = run<double, D>(up, rigid, coupled, &r1);
            const std::vector<double> yl = run<double, D>(down, rigid, coupled, &r2);
            if (r1 != rd || r2 != rd) continue;  // the nudge crossed a switch: no derivative to compare
            for (std::size_t o = 0; o < yd.size(); ++o) {
                const double fd = (yu[o] - yl[o]) / (2 * h);
                const double grad = ya[o].derivatives().size() ? ya[o].derivatives()[i] : 0.0;
                CAPTURE(attempt, i, o, fd, grad);
                // Relative tolerance 1e-5 of the gradient's size (plus 1e-6 absolute for zeros).
                CHECK(std::abs(grad - fd) <= 1e-5 * std::abs(fd) + 1e-6);
            }
        }
        ++checked;
    }
    CHECK(checked >= 100);
}

}  // namespace

TEST_CASE("AutoDiff gradients equal finite differences: point masses", "[autodiff]")
{
    check_gradients<2>(false, false, 11u);
    check_gradients<3>(false, false, 12u);
}

TEST_CASE("AutoDiff gradients equal finite differences: rigid bodies, sequential", "[autodiff]")
{
    check_gradients<2>(true, false, 13u);
    check_gradients<3>(true, false, 14u);
}

TEST_CASE("AutoDiff gradients equal finite differences: rigid bodies, coupled", "[autodiff]")
{
    check_gradients<2>(true, true, 15u);
    check_gradients<3>(true, true, 16u);
}

TEST_CASE("closed-form derivatives of the normal impulse", "[autodiff]")
{
    // vn' = -e*vn, so d(vn')/de = -vn; jn = -(1+e)*vn/(wA+wB), so d(jn)/de = -vn/(wA+wB).
    // Here vA = (1, 0), vB = (-2, 0.5), n = (1, 0): vn = -3; wA = 0.5, wB = 1: d(jn)/de = 3/1.5 = 2.
    using V = impulse::Vec<AD, 2>;
    const AD e(0.4, 1, 0);
    V va(AD(1.0), AD(0.0)), vb(AD(-2.0), AD(0.5));
    const V n(AD(1.0), AD(0.0));
    impulse::Coefficients<AD> coefficients;
    coefficients.restitution = e;
    const auto r = impulse::resolve(va, AD(0.5), vb, AD(1.0), n, coefficients);
    const AD vn_after = (vb - va).dot(n);
    CHECK(vn_after.value() == Approx(0.4 * 3.0));
    CHECK(vn_after.derivatives()[0] == Approx(3.0));
    CHECK(r.jn.derivatives()[0] == Approx(2.0));
}

TEST_CASE("while sliding, d|Jt|/dmu = jn", "[autodiff]")
{
    // Sliding: |Jt| = mu*jn with jn independent of mu, so the derivative is jn.
    // B (w = 1) at (3, -3) onto a static floor, e = 0.5, mu = 0.4 (the seed tangent trace): jn = 4.5.
    using V = impulse::Vec<AD, 3>;
    const AD mu(0.4, 1, 0);
    V va = V::Zero(), vb(AD(3.0), AD(0.0), AD(-3.0));
    const V n(AD(0.0), AD(0.0), AD(1.0));
    impulse::Coefficients<AD> coefficients;
    coefficients.restitution = AD(0.5);
    coefficients.friction = mu;
    for (auto& c : va) c.derivatives() = Eigen::VectorXd::Zero(1);
    const auto r = impulse::resolve(va, AD(0.0), vb, AD(1.0), n, coefficients);
    REQUIRE(r.regime == Regime::sliding);
    CHECK(r.jn.value() == Approx(4.5));
    CHECK(r.jt.derivatives()[0] == Approx(4.5));
}

TEST_CASE("materials, collision and correction run on AutoDiff scalars", "[autodiff]")
{
    using V = impulse::Vec<AD, 2>;
    // combine: d sqrt(a b)/da = b / (2 sqrt(a b)) = 0.1/(2*0.3) for a = 0.9, b = 0.1.
    const AD a(0.9, 1, 0), b(0.1);
    CHECK(impulse::combine(a, b, impulse::Combine::geometric_mean).derivatives()[0] == Approx(0.1 / 0.6));
    impulse::Material<AD> m;
    CHECK(impulse::mix(m, m).friction.mu_s.value() == Approx(0.6));
    // Penetration of two unit circles 1.5 apart: 2 - d, so d(pen)/d(d) = -1.
    const auto c = impulse::collide_spheres(V(AD(0.0), AD(0.0)), AD(1.0), V(AD(1.5, 1, 0), AD(0.0)), AD(1.0));
    REQUIRE(c);
    CHECK(c->penetration.derivatives()[0] == Approx(-1.0));
    // Positional correction: 0.4*(pen - 0.01)/2 per body, so d(dB)/d(pen) = 0.2.
    const auto pc = impulse::positional_correction(AD(1.0), AD(1.0), V(AD(1.0), AD(0.0)), AD(0.2, 1, 0));
    CHECK(pc.dB.x().derivatives()[0] == Approx(0.2));
}
