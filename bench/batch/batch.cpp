// SPDX-License-Identifier: MIT
// The batch kernel (impulse/batch.hpp) against a plain scalar loop and against memory bandwidth.
// For N = 1000 contacts (in cache) and N = 1000000 (out of cache), 2D and 3D, float and double:
//   scalar     a loop calling the single-contact impulse::resolve on each contact (the baseline)
//   batch      impulse::resolve_batch over the same arrays
//   bandwidth  a loop that only reads every input byte and writes every output byte of the batch
//              (what the kernel cannot beat once the arrays do not fit in the caches)
// All three read the same structure-of-arrays inputs (both velocities, both inverse masses, the
// normal, restitution, mu_s, mu_k, threshold: one array each) and write the same outputs (both
// velocities, jn, jt, the regime byte) to arrays of their own, so every pass sees the same
// contacts. After the runs a table gives the ratios: batch / scalar as a speed-up, batch /
// bandwidth as a slowdown over the floor.
//
//   batch [--sizes=1000,1000000] [Google Benchmark flags, e.g. --benchmark_repetitions=5
//          --benchmark_report_aggregates_only=true --benchmark_filter=2D/float]
//
// Before timing anything it checks the batch against the scalar path on every batch it will time
// (all four spaces, every size) and exits with status 1 if they disagree: equal bits where the
// target has no FMA; with FMA (the compiler may fuse a multiply-add on one path and not the other)
// every number within 16 epsilon of its scale (velocities: 1 + max|vA| + max|vB|; impulses: 4 times
// that over wA + wB), and the same regime except for a contact within that tolerance of a decision
// boundary (approach, threshold, stick/slide, no tangential speed). In CI, a run of a few seconds:
//
//   batch --sizes=1000 --benchmark_min_time=0.01
//
// The contacts are random with a fixed seed: velocities in [-1, 1]^D, a random unit normal, A
// static (wA = 0) in a quarter of them, masses in [0.5, 2], e in [0, 1], mu_s in [0, 1],
// mu_k in [0.5, 1] mu_s, threshold 0.05. About half approach; the regimes are printed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <benchmark/benchmark.h>

#include <impulse/batch.hpp>

#ifndef IMPULSE_BENCH_FLAGS
#define IMPULSE_BENCH_FLAGS "(not recorded)"
#endif

namespace {

using impulse::Regime;

/// One batch of contacts as structure-of-arrays, with output arrays for every kind of pass.
template <class S, int D>
struct Batch {
    static constexpr int inputs = 3 * D + 6;  // vA[D], vB[D], wA, wB, n[D], e, mu_s, mu_k, threshold
    std::size_t count;
    std::vector<S> in[inputs];
    std::vector<S> vA_out[D], vB_out[D], jn, jt;
    std::vector<Regime> regime;

    const S* vA(int d) const { return in[d].data(); }
    const S* vB(int d) const { return in[D + d].data(); }
    const S* inv_mass_a() const { return in[2 * D].data(); }
    const S* inv_mass_b() const { return in[2 * D + 1].data(); }
    const S* n(int d) const { return in[2 * D + 2 + d].data(); }
    const S* e() const { return in[3 * D + 2].data(); }
    const S* mu_s() const { return in[3 * D + 3].data(); }
    const S* mu_k() const { return in[3 * D + 4].data(); }
    const S* threshold() const { return in[3 * D + 5].data(); }

    explicit Batch(std::size_t n_contacts) : count(n_contacts)
    {
        std::mt19937 gen(20240607u + unsigned(D) * 7u + unsigned(sizeof(S)));
        auto uniform = [&gen](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen); };
        for (auto& c : in) c.resize(count);
        for (int d = 0; d < D; ++d) {
            vA_out[d].resize(count);
            vB_out[d].resize(count);
        }
        jn.resize(count);
        jt.resize(count);
        regime.resize(count);
        for (std::size_t i = 0; i < count; ++i) {
            double nn[D], len2 = 0;
            do {
                len2 = 0;
                for (double& x : nn) {
                    x = uniform(-1, 1);
                    len2 += x * x;
                }
            } while (len2 < 0.01 || len2 > 1);
            for (int d = 0; d < D; ++d) {
                in[d][i] = S(uniform(-1, 1));
                in[D + d][i] = S(uniform(-1, 1));
                in[2 * D + 2 + d][i] = S(nn[d] / std::sqrt(len2));
            }
            in[2 * D][i] = uniform(0, 1) < 0.25 ? S(0) : S(1 / uniform(0.5, 2));
            in[2 * D + 1][i] = S(1 / uniform(0.5, 2));
            in[3 * D + 2][i] = S(uniform(0, 1));
            const double mu = uniform(0, 1);
            in[3 * D + 3][i] = S(mu);
            in[3 * D + 4][i] = S(mu * uniform(0.5, 1));
            in[3 * D + 5][i] = S(0.05);
        }
    }

    /// The view resolve_batch reads and writes.
    impulse::BatchView<S, D> view()
    {
        impulse::BatchView<S, D> v;
        for (int d = 0; d < D; ++d) {
            v.vA[d] = vA(d);
            v.vB[d] = vB(d);
            v.n[d] = n(d);
            v.vA_out[d] = vA_out[d].data();
            v.vB_out[d] = vB_out[d].data();
        }
        v.inv_mass_a = inv_mass_a();
        v.inv_mass_b = inv_mass_b();
        v.restitution = e();
        v.mu_s = mu_s();
        v.mu_k = mu_k();
        v.threshold = threshold();
        v.jn = jn.data();
        v.jt = jt.data();
        v.regime = regime.data();
        return v;
    }

    /// Bytes one pass reads and writes per contact.
    static constexpr std::size_t bytes_per_contact = (inputs + 2 * D + 2) * sizeof(S) + sizeof(Regime);
};

/// The batches, made once per (scalar, dimension, size) and shared by the three passes.
template <class S, int D>
Batch<S, D>& batch(std::size_t n)
{
    static std::map<std::size_t, std::unique_ptr<Batch<S, D>>> made;
    auto& b = made[n];
    if (!b) b = std::make_unique<Batch<S, D>>(n);
    return *b;
}

/// (1) The baseline: the single-contact resolve in a plain loop.
template <class S, int D>
void scalar_pass(Batch<S, D>& b)
{
    for (std::size_t i = 0; i < b.count; ++i) {
        impulse::Vec<S, D> a, v, n;
        for (int d = 0; d < D; ++d) {
            a[d] = b.vA(d)[i];
            v[d] = b.vB(d)[i];
            n[d] = b.n(d)[i];
        }
        impulse::Coefficients<S> coefficients;
        coefficients.restitution = b.e()[i];
        coefficients.friction = impulse::Friction<S>(b.mu_s()[i], b.mu_k()[i]);
        coefficients.threshold = b.threshold()[i];
        const impulse::Result<S, D> r = impulse::resolve(a, b.inv_mass_a()[i], v, b.inv_mass_b()[i], n, coefficients);
        for (int d = 0; d < D; ++d) {
            b.vA_out[d][i] = a[d];
            b.vB_out[d][i] = v[d];
        }
        b.jn[i] = r.jn;
        b.jt[i] = r.jt;
        b.regime[i] = r.regime;
    }
}

// Eigen's packet types as template arguments: GCC notes their attributes are dropped (as they are
// inside Eigen).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
#endif
/// (3) The floor: every input read once and every output written once, four packets at a time.
template <class S, int D>
void bandwidth_pass(Batch<S, D>& b)
{
    namespace ei = Eigen::internal;
    using P = typename ei::packet_traits<S>::type;
    constexpr std::size_t W = std::size_t(ei::unpacket_traits<P>::size), U = 4;
    std::size_t i = 0;
    for (; i + U * W <= b.count; i += U * W) {
        P s[U];
        for (std::size_t u = 0; u < U; ++u) s[u] = ei::ploadu<P>(b.in[0].data() + i + u * W);
        for (int c = 1; c < Batch<S, D>::inputs; ++c)
            for (std::size_t u = 0; u < U; ++u) s[u] = ei::padd(s[u], ei::ploadu<P>(b.in[c].data() + i + u * W));
        for (std::size_t u = 0; u < U; ++u) {
            const std::size_t j = i + u * W;
            for (int d = 0; d < D; ++d) {
                ei::pstoreu(b.vA_out[d].data() + j, s[u]);
                ei::pstoreu(b.vB_out[d].data() + j, s[u]);
            }
            ei::pstoreu(b.jn.data() + j, s[u]);
            ei::pstoreu(b.jt.data() + j, s[u]);
        }
        std::memset(b.regime.data() + i, 1, U * W);
    }
    for (; i < b.count; ++i) {
        S s = 0;
        for (const auto& c : b.in) s += c[i];
        for (int d = 0; d < D; ++d) b.vA_out[d][i] = b.vB_out[d][i] = s;
        b.jn[i] = b.jt[i] = s;
        b.regime[i] = Regime::sticking;
    }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// ---------------------------------------------------------------------------------------------
// The check: the batch against the scalar path, contact by contact.

#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
constexpr bool exact_bits = false;  // the compiler may fuse a multiply-add on either path
#else
constexpr bool exact_bits = true;   // same operations, same order, same rounding
#endif
constexpr double tolerance_eps = 16;  // with FMA: allowed difference, in epsilons of the scale

template <class S>
bool same_bits(S a, S b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

/// Whether contact i lies within `tol` (a speed) of one of resolve's decision boundaries, where
/// rounding differences can tip the regime: computed in long double from the inputs.
template <class S, int D>
bool near_boundary(const Batch<S, D>& b, std::size_t i, long double tol)
{
    using L = long double;
    L vA[D], vB[D], n[D], vn = 0;
    for (int d = 0; d < D; ++d) {
        vA[d] = b.vA(d)[i];
        vB[d] = b.vB(d)[i];
        n[d] = b.n(d)[i];
        vn += (vB[d] - vA[d]) * n[d];
    }
    const L inv_mass_a = b.inv_mass_a()[i], inv_mass_b = b.inv_mass_b()[i], k = inv_mass_a + inv_mass_b, threshold = b.threshold()[i];
    if (std::fabs(vn) <= tol || std::fabs(-vn - threshold) <= tol) return true;  // approach, bounce
    if (!(vn < 0) || !(k > 0)) return false;
    const L e = -vn > threshold ? L(b.e()[i]) : L(0);
    const L jn = -(1 + e) * vn / k;
    L rv[D], rvn = 0;
    for (int d = 0; d < D; ++d) {
        rv[d] = (vB[d] + inv_mass_b * jn * n[d]) - (vA[d] - inv_mass_a * jn * n[d]);
        rvn += rv[d] * n[d];
    }
    L speed = 0;  // the tangential speed |vt|
    for (int d = 0; d < D; ++d) speed += (rv[d] - rvn * n[d]) * (rv[d] - rvn * n[d]);
    speed = std::sqrt(speed);
    // stick/slide: |Jt_want| = speed / k against mu_s jn, as a speed (times k)
    return speed <= tol || std::fabs(speed - L(b.mu_s()[i]) * jn * k) <= tol;
}

/// Resolves batch `b` with the scalar path and with the kernel and compares them; prints a line
/// and returns false if they disagree beyond what the target's rounding allows.
template <class S, int D>
bool check(const char* space, std::size_t n)
{
    Batch<S, D>& b = batch<S, D>(n);
    scalar_pass(b);
    std::vector<S> want[2 * D + 2];
    for (int d = 0; d < D; ++d) {
        want[d] = b.vA_out[d];
        want[D + d] = b.vB_out[d];
    }
    want[2 * D] = b.jn;
    want[2 * D + 1] = b.jt;
    const std::vector<Regime> want_regime = b.regime;
    // Every output overwritten with NaN (and an invalid regime) first, so that an output the kernel
    // fails to write cannot pass for the scalar path's.
    const S nan = std::numeric_limits<S>::quiet_NaN();
    for (int d = 0; d < D; ++d) {
        std::fill(b.vA_out[d].begin(), b.vA_out[d].end(), nan);
        std::fill(b.vB_out[d].begin(), b.vB_out[d].end(), nan);
    }
    std::fill(b.jn.begin(), b.jn.end(), nan);
    std::fill(b.jt.begin(), b.jt.end(), nan);
    std::fill(b.regime.begin(), b.regime.end(), static_cast<Regime>(0xFF));
    impulse::resolve_batch(b.view(), n);
    const S eps = std::numeric_limits<S>::epsilon();
    double worst = 0;  // the largest difference seen, in epsilons of its scale
    std::size_t boundary = 0, bad = 0, first_bad = n;
    for (std::size_t i = 0; i < n; ++i) {
        S maxA = 0, maxB = 0;
        for (int d = 0; d < D; ++d) {
            maxA = std::max(maxA, std::abs(b.vA(d)[i]));
            maxB = std::max(maxB, std::abs(b.vB(d)[i]));
        }
        const S speed = S(1) + maxA + maxB;
        const S k = b.inv_mass_a()[i] + b.inv_mass_b()[i];
        const S impulse = k > S(0) ? S(4) * speed / k : S(1);
        if (b.regime[i] != want_regime[i]) {
            if (!exact_bits && near_boundary(b, i, tolerance_eps * eps * speed)) {
                ++boundary;
                continue;
            }
            if (bad++ == 0) first_bad = i;
            continue;
        }
        bool ok = true;
        auto compare = [&](S got, S expected, S scale) {
            if (exact_bits) {
                ok = ok && same_bits(got, expected);
                return;
            }
            const double diff = double(std::abs(got - expected)) / double(eps * scale);
            worst = std::max(worst, diff);
            ok = ok && diff <= tolerance_eps;
        };
        for (int d = 0; d < D; ++d) {
            compare(b.vA_out[d][i], want[d][i], speed);
            compare(b.vB_out[d][i], want[D + d][i], speed);
        }
        compare(b.jn[i], want[2 * D][i], impulse);
        compare(b.jt[i], want[2 * D + 1][i], impulse);
        if (!ok && bad++ == 0) first_bad = i;
    }
    if (exact_bits)
        std::printf("check %-9s N = %-8zu %s\n", space, n, bad ? "DIFFERENT BITS" : "equal bits");
    else
        std::printf("check %-9s N = %-8zu largest difference %.2f eps of the scale (allowed %.0f), %zu regime(s) "
                    "differ at a boundary%s\n",
                    space, n, worst, tolerance_eps, boundary, bad ? ": FAILED" : "");
    if (bad) {
        const std::size_t i = first_bad;
        std::printf("  %zu contact(s) differ; the first, contact %zu: regime %s / %s, jn %.9g / %.9g, jt %.9g / %.9g, "
                    "vB0 %.9g / %.9g (batch / scalar)\n",
                    bad, i, impulse::to_string(b.regime[i]), impulse::to_string(want_regime[i]), double(b.jn[i]),
                    double(want[2 * D][i]), double(b.jt[i]), double(want[2 * D + 1][i]), double(b.vB_out[0][i]),
                    double(want[D][i]));
    }
    return bad == 0;
}

enum class Kind { scalar, batch, bandwidth };
constexpr const char* kind_names[] = {"scalar", "batch", "bandwidth"};

template <class S, int D>
void run(benchmark::State& state, Kind kind)
{
    Batch<S, D>& b = batch<S, D>(std::size_t(state.range(0)));
    const impulse::BatchView<S, D> view = b.view();
    for (auto _ : state) {
        switch (kind) {
        case Kind::scalar: scalar_pass(b); break;
        case Kind::batch: impulse::resolve_batch(view, b.count); break;
        case Kind::bandwidth: bandwidth_pass(b); break;
        }
        benchmark::ClobberMemory();
    }
    const double n = double(b.count);
    // seconds per contact (printed as e.g. 2.1ns), contacts per second, bytes moved per second
    state.counters["time/contact"] =
        benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["contacts/s"] = benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["bytes/s"] = benchmark::Counter(n * double(Batch<S, D>::bytes_per_contact),
                                                   benchmark::Counter::kIsIterationInvariantRate);
}

/// The regimes of a batch, as the scalar path decides them (what the benchmark mixes).
template <class S, int D>
std::string regime_mix(std::size_t n)
{
    Batch<S, D>& b = batch<S, D>(n);
    scalar_pass(b);
    std::size_t c[4] = {0, 0, 0, 0};
    for (const Regime r : b.regime) ++c[int(r)];
    char buf[160];
    std::snprintf(buf, sizeof buf, "separating %.0f%%, sticking %.0f%%, sliding %.0f%%, immovable %.0f%%",
                  100.0 * double(c[0]) / double(n), 100.0 * double(c[1]) / double(n),
                  100.0 * double(c[2]) / double(n), 100.0 * double(c[3]) / double(n));
    return buf;
}

/// A benchmark's case (kind, dimension, scalar, N) from its name "kind/2D/float/N[...]".
struct Case {
    std::string kind, space;
    long n = 0;
};
Case parse(const std::string& name)
{
    Case c;
    const std::size_t a = name.find('/'), b = name.find('/', a + 1), d = name.find('/', b + 1);
    if (a == std::string::npos || b == std::string::npos || d == std::string::npos) return c;
    c.kind = name.substr(0, a);
    c.space = name.substr(a + 1, d - a - 1);
    c.n = std::atol(name.c_str() + d + 1);
    return c;
}

/// The console reporter, remembering each case's median (and min, max) time per contact.
class Reporter : public benchmark::ConsoleReporter {
public:
    struct Times {
        double median = 0, min = 0, max = 0;
        int reps = 0;
    };
    std::map<std::tuple<std::string, long, std::string>, Times> times;  // (space, n, kind)
    std::map<std::tuple<std::string, long, std::string>, std::vector<double>> singles;

    void ReportRuns(const std::vector<Run>& runs) override
    {
        for (const Run& r : runs) {
            if (r.error_occurred) continue;
            const Case c = parse(r.run_name.function_name + "/" + r.run_name.args);
            const auto key = std::make_tuple(c.space, c.n, c.kind);
            const auto it = r.counters.find("time/contact");
            if (it == r.counters.end()) continue;
            const double ns = it->second.value * 1e9;
            if (r.run_type == Run::RT_Iteration) {
                singles[key].push_back(ns);
            } else if (r.aggregate_name == "median") {
                times[key].median = ns;
                times[key].reps = int(r.repetitions);
            } else if (r.aggregate_name == "min") {
                times[key].min = ns;
            } else if (r.aggregate_name == "max") {
                times[key].max = ns;
            }
        }
        ConsoleReporter::ReportRuns(runs);
    }

    /// Medians from the individual runs where no aggregates were reported.
    void settle()
    {
        for (auto& [key, v] : singles) {
            if (times.count(key)) continue;
            std::sort(v.begin(), v.end());
            Times t;
            t.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
            t.min = v.front();
            t.max = v.back();
            t.reps = int(v.size());
            times[key] = t;
        }
    }
};

void print_ratios(Reporter& rep)
{
    rep.settle();
    // The ratios of the medians, and of the minimums: on a machine shared with other work some
    // repetitions run slower (the branchy scalar loop the most), which moves the medians; the
    // fastest repetition of each pass is the closest to the undisturbed speed.
    std::printf("\nns per contact: median over the repetitions [min .. max]; speed-up = scalar / batch;"
                " over floor = batch / bandwidth; of the medians, and (min) of the minimums\n");
    std::printf("%-10s %8s %-27s %-27s %-27s %9s %10s %9s %10s\n", "case", "N", "scalar", "batch", "bandwidth",
                "speed-up", "over floor", "(min)", "(min)");
    std::vector<std::tuple<std::string, long>> cases;
    for (const auto& [key, t] : rep.times) {
        const auto c = std::make_tuple(std::get<0>(key), std::get<1>(key));
        if (std::find(cases.begin(), cases.end(), c) == cases.end()) cases.push_back(c);
    }
    for (const auto& [space, n] : cases) {
        auto get = [&, sp = space, nn = n](const char* kind) {
            const auto it = rep.times.find(std::make_tuple(sp, nn, std::string(kind)));
            return it == rep.times.end() ? Reporter::Times{} : it->second;
        };
        const Reporter::Times s = get("scalar"), b = get("batch"), w = get("bandwidth");
        auto cell = [](const Reporter::Times& t) {
            char buf[64];
            if (t.median <= 0) return std::string("-");
            std::snprintf(buf, sizeof buf, "%.3f [%.3f .. %.3f]", t.median, t.min, t.max);
            return std::string(buf);
        };
        char up[32] = "-", floor[32] = "-", up_min[32] = "-", floor_min[32] = "-";
        if (s.median > 0 && b.median > 0) {
            std::snprintf(up, sizeof up, "%.2fx", s.median / b.median);
            std::snprintf(up_min, sizeof up_min, "%.2fx", s.min / b.min);
        }
        if (w.median > 0 && b.median > 0) {
            std::snprintf(floor, sizeof floor, "%.2f", b.median / w.median);
            std::snprintf(floor_min, sizeof floor_min, "%.2f", b.min / w.min);
        }
        std::printf("%-10s %8ld %-27s %-27s %-27s %9s %10s %9s %10s\n", space.c_str(), n, cell(s).c_str(),
                    cell(b).c_str(), cell(w).c_str(), up, floor, up_min, floor_min);
    }
}

template <class S, int D>
void register_space(const char* space, const std::vector<long>& sizes)
{
    for (const Kind k : {Kind::scalar, Kind::batch, Kind::bandwidth}) {
        const std::string name = std::string(kind_names[int(k)]) + "/" + space;
        auto* bm = benchmark::RegisterBenchmark(name.c_str(), [k](benchmark::State& st) { run<S, D>(st, k); });
        for (const long n : sizes) bm->Arg(n);
        bm->Unit(benchmark::kMicrosecond);
        bm->ComputeStatistics("min", [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); });
        bm->ComputeStatistics("max", [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); });
    }
}

}  // namespace

int main(int argc, char** argv)
{
    std::vector<long> sizes = {1000, 1000000};
    // Our own flag first (Google Benchmark rejects flags it does not know).
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--sizes=", 8) != 0) continue;
        sizes.clear();
        for (const char* p = argv[i] + 8; *p;) {
            char* end = nullptr;
            const long v = std::strtol(p, &end, 10);
            if (end == p || v <= 0) {
                std::fprintf(stderr, "batch: bad --sizes value: %s\n", argv[i]);
                return 2;
            }
            sizes.push_back(v);
            p = *end == ',' ? end + 1 : end;
        }
        for (int j = i; j + 1 < argc; ++j) argv[j] = argv[j + 1];
        --argc;
        --i;
    }

    bool agree = true;
    for (const long n : sizes) {
        agree = check<float, 2>("2D/float", std::size_t(n)) && agree;
        agree = check<double, 2>("2D/double", std::size_t(n)) && agree;
        agree = check<float, 3>("3D/float", std::size_t(n)) && agree;
        agree = check<double, 3>("3D/double", std::size_t(n)) && agree;
    }
    if (!agree) {
        std::fprintf(stderr, "batch: the batch kernel disagrees with the scalar resolve (see above)\n");
        return 1;
    }
    std::fflush(stdout);

    register_space<float, 2>("2D/float", sizes);
    register_space<double, 2>("2D/double", sizes);
    register_space<float, 3>("3D/float", sizes);
    register_space<double, 3>("3D/double", sizes);

    benchmark::AddCustomContext("compiler", __VERSION__);
    benchmark::AddCustomContext("flags", IMPULSE_BENCH_FLAGS);
    benchmark::AddCustomContext("Eigen SIMD", Eigen::SimdInstructionSetsInUse());
    benchmark::AddCustomContext("lanes (float, double)", std::to_string(impulse::batch_width<float>) + ", " +
                                                             std::to_string(impulse::batch_width<double>));
    benchmark::AddCustomContext("mix (2D float, N = 1000)", regime_mix<float, 2>(1000));
    benchmark::AddCustomContext("mix (3D double, N = 1000)", regime_mix<double, 3>(1000));

    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    Reporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    print_ratios(reporter);
    benchmark::Shutdown();
    return 0;
}
