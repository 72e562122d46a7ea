// SPDX-License-Identifier: MIT
// The solver phase on the field's benchmark scenes, impulse beside Box2D 2.4 (Debian's
// libbox2d-dev) and, where it was built in, Box2D v3, with the quality of rest of each, in one run.
//
//   solver [--pits=10000,50000] [--pyramids=100] [--settle=600] [--steps=60] [--threads=2,3,...]
//          [--seed=1]
//          [Google Benchmark flags]
//
// Scenes (bench::Scene, the same for every engine):
//   pit N      the settled 2D ball pit of examples/scenes: N balls (radius 0.2-0.3 m, density 1,
//              friction 0.4, restitution 0.2 above 1 m/s, rolling resistance 1 mm where the engine
//              has it) in a box whose width grows with N so the pile is about 15 m deep, placed in
//              layers and left to settle for --settle steps; --seed draws the radii and the jitter
//              of the placement (the pile's packing, and with it its deepest overlap, changes
//              with it: docs/performance.md);
//   pyramid B  Box2D's benchmark pyramid: B unit boxes on the bottom row in the brick pattern on a
//              static ground box (density 1, friction 0.6), settled the same way.
// Every engine: gravity 9.81, 1/60 s steps, sleeping and continuous collision off. Box2D 2.4: 8
// velocity and 3 position iterations; Box2D v3 and impulse: 4 substeps, their default contact
// softness.
//
// What is timed is the solver phase, everything from the contacts found to the new velocities and
// poses: impulse's Solver::step; Box2D 2.4's solveInit + solveVelocity + solvePosition; Box2D v3's
// solverSetup + constraints + transforms (b2Profile). The engines step in turn, one step each, so a
// load from elsewhere falls on all alike; each repetition reports the median over its steps. Each
// run also measures every engine's state with the same yardstick: the deepest overlap of touching
// shapes (with each engine's own collision skin), the rms speed and the fastest body. The program
// exits 1 if impulse rests clearly worse than Box2D 2.4 on a scene.
//
// Wide rows and threads: impulse float also runs with its contacts coloured (SolverSettings::colouring)
// one at a time ("coloured", SolverSettings::wide off) and W at a time ("wide"), on the calling
// thread alone (no task system), and wide for each worker count of --threads (default: 2 up to the
// machine's hardware threads) through the examples' thread pool (examples/common/thread_pool.hpp, an
// impulse::TaskSystem). The tables give the wide run's speed-up over the coloured one and each worker
// count's over the wide one-thread run, in the same repetitions; Box2D v3, where built in, runs on the
// same worker counts (its own scheduler), for what the machine gives a solver built for threads.
// All of impulse's coloured and wide runs compute the same bodies bit for bit
// (tests/scenes/test_golden.cpp, test_threads.cpp); their quality rows show what the colour order
// changes against the order given. On the pyramid impulse float also runs with one
// pass over each manifold's points per solve ("one pass", SolverSettings::manifold_iterations = 1):
// what the default's repeated passes over a manifold cost and what they give.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>

#include "engine.hpp"
#include "scenes/scenes.hpp"
#include "thread_pool.hpp"

namespace {

using Clock = std::chrono::steady_clock;
int settle_steps = 600;  // 10 s: from the placed bodies to rest
int timed_steps = 60;    // steps per repetition (1 s)
std::vector<int> thread_counts;  // impulse float also runs on these many workers
unsigned pit_seed = 1;           // the pit's radii and placement (scenes::PitSpec::seed)

// ---------------------------------------------------------------------------------------------
// The scenes

/// The pit for n balls: the scene's 2000 balls fill a 32 m box about 15 m deep; the box grows in
/// width with n so that the pile has that depth at every size.
bench::Scene pit(std::size_t n)
{
    scenes::PitSpec<double> p;
    p.count = n;
    p.width = std::max(4.0, std::round(32.0 * double(n) / 2000.0));
    p.height = 20;
    p.seed = pit_seed;
    bench::Scene s;
    s.width = p.width;
    s.friction = p.friction;
    s.restitution = p.restitution;
    s.threshold = p.threshold;
    s.rolling_resistance = p.rolling_resistance;
    for (const auto& b : scenes::stacked_layers<double, 2>(p)) s.balls.push_back({b.x.x(), b.x.y(), b.r});
    return s;
}

/// Box2D's benchmark pyramid with `base` boxes on the bottom row (scenes::build_box_pyramid).
bench::Scene pyramid(int base)
{
    bench::Scene s;
    s.pit = false;
    s.friction = 0.6;
    s.restitution = 0;
    s.rolling_resistance = 0;
    const double a = 0.5;
    for (int i = 0; i < base; ++i)
        for (int j = i; j < base; ++j) s.boxes.push_back({(i + 1.0) * a + 2.0 * (j - i) * a - a * base, (2.0 * i + 1.0) * a, a});
    return s;
}

/// A world holding the scene's shapes (balls, boxes rounded by `skin`), for the yardstick.
template <class S>
void build(scenes::World<S, 2>& w, const bench::Scene& s, S skin)
{
    using V = impulse::Vec<S, 2>;
    w.solver.settings.gravity = V(S(0), S(-s.gravity));
    w.coefficients.friction = S(s.friction);
    w.coefficients.restitution = S(s.restitution);
    w.coefficients.threshold = S(s.threshold);
    w.rolling_resistance = S(s.rolling_resistance);
    if (s.pit) {
        w.add_wall(V::UnitY(), S(0));
        w.add_wall(V::UnitX(), S(0));
        w.add_wall(-V::UnitX(), -S(s.width));
        w.lo = V::Zero();
        w.hi = V(S(s.width), S(20));
    } else {
        impulse::Polygon<S> ground = impulse::make_box(S(100), S(1));
        ground.radius = skin;
        w.add_static_polygon(ground, V(S(0), S(-1)));
        double top = 0, half = 0;
        for (const auto& b : s.boxes) {
            top = std::max(top, b.y);
            half = std::max(half, std::abs(b.x) + b.half);
        }
        w.lo = V(S(-half - 1), S(-1));
        w.hi = V(S(half + 1), S(top + 1));
    }
    w.reserve(s.balls.size() + s.boxes.size());
    for (const auto& b : s.balls) w.add_ball(V(S(b.x), S(b.y)), S(b.r), S(s.density));
    for (const auto& b : s.boxes) {
        impulse::Polygon<S> box = impulse::make_box(S(b.half), S(b.half));
        box.radius = skin;
        w.add_polygon(box, V(S(b.x), S(b.y)), S(s.density));
    }
}

// ---------------------------------------------------------------------------------------------
// impulse

template <class S>
class Impulse final : public bench::Engine {
public:
    /// `passes`: settings.manifold_iterations (0: the default).
    explicit Impulse(const bench::Scene& s, bool colouring = false, bool wide = false, unsigned workers = 0, int passes = 0)
        : pool_(workers > 1 ? workers : 1)
    {
        build(w_, s, S(0));
        w_.solver.settings.colouring = colouring;
        w_.solver.settings.wide = wide;
        if (passes > 0) w_.solver.settings.manifold_iterations = passes;
        w_.solver.settings.profile = true;  // a clock reading per stage: a few microseconds a step
        if (workers > 1) w_.solver.tasks = &pool_;
    }

    void settle(int steps) override
    {
        for (int i = 0; i < steps; ++i) w_.step();
    }

    bench::StepTime step() override
    {
        w_.find_contacts();  // the narrow phase: not part of the solver phase
        bench::StepTime t;
        const auto t0 = Clock::now();
        w_.solver.step(w_.view(), w_.contacts().data(), w_.contacts().size(), w_.dt);
        t.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        for (const auto& c : w_.contacts()) t.points += std::size_t(c.count);
        bench::profile_parts(w_.solver.profile(), t.parts);
        t.parts_known = true;
        return t;
    }

    void state(std::vector<double>& x, std::vector<double>& y, std::vector<double>& angle, std::vector<double>& vx,
               std::vector<double>& vy) const override
    {
        for (std::size_t i = w_.first_ball(); i < w_.body_count(); ++i) {
            x.push_back(double(w_.x[i].x()));
            y.push_back(double(w_.x[i].y()));
            angle.push_back(double(w_.angle(i)));
            vx.push_back(double(w_.v[i].x()));
            vy.push_back(double(w_.v[i].y()));
        }
    }

private:
    examples::ThreadPool pool_;
    scenes::World<S, 2> w_;
};

// ---------------------------------------------------------------------------------------------
// The runs and the table

/// How well a scene stays at rest over the timed steps, measured the same way for every engine.
struct Quality {
    double pen_max{0};  // deepest overlap of touching shapes in any step (m)
    double rms{0};      // root-mean-square speed of the bodies over the steps (m/s)
    double fastest{0};  // the fastest body in any step (m/s)
    double top_drop{0}; // the highest body's drop from its placed height at the end (m)
};

struct Engine {
    std::string name;
    std::unique_ptr<bench::Engine> engine;
    double skin{0};  // the engine's collision skin on polygons (Box2D 2.4: b2_polygonRadius)
    scenes::World<double, 2> yard;
};

struct Case {
    std::string scene;
    bench::Scene spec;
    std::vector<Engine> engines;
};

std::map<std::string, Case>& cases()
{
    static std::map<std::string, Case> c;
    return c;
}

/// The engines for a scene, built and settled on first use and kept for every repetition.
Case& prepare(const std::string& name, const bench::Scene& s)
{
    Case& c = cases()[name];
    if (!c.engines.empty()) return c;
    c.scene = name;
    c.spec = s;
    auto add = [&](const char* n, std::unique_ptr<bench::Engine> e, double skin) {
        if (!e) return;
        Engine x{n, std::move(e), skin, {}};
        build(x.yard, s, skin);
        c.engines.push_back(std::move(x));
    };
    add("impulse float", std::make_unique<Impulse<float>>(s), 0);
    // Where manifolds have several points (boxes): the same with one pass over each manifold's points
    // per solve, what the default's repeated passes cost and give (a ball's manifold has one point).
    if (!s.boxes.empty()) add("impulse float, one pass", std::make_unique<Impulse<float>>(s, false, false, 0u, 1), 0);
    add("impulse float coloured", std::make_unique<Impulse<float>>(s, true, false), 0);
    add("impulse float wide", std::make_unique<Impulse<float>>(s, true, true), 0);
    for (int t : thread_counts) {
        const std::string name = "impulse float wide x" + std::to_string(t);
        add(name.c_str(), std::make_unique<Impulse<float>>(s, true, true, unsigned(t)), 0);
    }
    add("impulse double", std::make_unique<Impulse<double>>(s), 0);
    add("Box2D 2.4", bench::make_box2d24(s), s.boxes.empty() ? 0.0 : 0.01);  // b2_polygonRadius
    add("Box2D v3", bench::make_box2d3(s), 0);
    for (int t : thread_counts) {
        const std::string name = "Box2D v3 x" + std::to_string(t);
        add(name.c_str(), bench::make_box2d3(s, t), 0);
    }
    for (Engine& e : c.engines) e.engine->settle(settle_steps);
    return c;
}

double median(std::vector<double> v)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/// What the table shows for one engine on one scene.
struct Result {
    std::vector<double> ms;  // per repetition: median over its steps of the solver phase, ms
    std::size_t points{0};
    Quality q;
    double rms2{0};
    std::size_t steps{0};
    double parts[bench::StepTime::part_count]{};  // summed over the timed steps, seconds
    double timed{0};                              // the solver phase summed over the same steps
    std::size_t part_steps{0};                    // steps that reported their parts
};
std::map<std::string, std::map<std::string, Result>>& results()
{
    static std::map<std::string, std::map<std::string, Result>> r;
    return r;
}

/// Measures an engine's state in its yardstick world (outside the timed part).
void measure(Engine& e, const bench::Scene& s, Result& r)
{
    std::vector<double> x, y, angle, vx, vy;
    e.engine->state(x, y, angle, vx, vy);
    scenes::World<double, 2>& w = e.yard;
    const std::size_t first = w.first_ball();
    double top = -1e300, top0 = -1e300, fastest = 0, sum2 = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        w.x[first + i] = impulse::Vec2d(x[i], y[i]);
        w.q[first + i] = impulse::Rot2<double>::from_angle(angle[i]);
        w.v[first + i] = impulse::Vec2d(vx[i], vy[i]);
        const double v2 = vx[i] * vx[i] + vy[i] * vy[i];
        sum2 += v2;
        fastest = std::max(fastest, std::sqrt(v2));
        top = std::max(top, y[i]);
    }
    for (const auto& b : s.boxes) top0 = std::max(top0, b.y);
    for (const auto& b : s.balls) top0 = std::max(top0, b.y);
    w.find_contacts();
    r.q.pen_max = std::max(r.q.pen_max, w.overlap().max);
    r.q.fastest = std::max(r.q.fastest, fastest);
    r.rms2 += x.empty() ? 0 : sum2 / double(x.size());
    r.q.top_drop = top0 - top;
    ++r.steps;
}

/// One repetition: `timed_steps` steps of every engine, interleaved step by step (the engine that
/// goes first rotates). The repetition's figure is the median over its steps.
void run(benchmark::State& state, const std::string& name, const bench::Scene& s)
{
    Case& c = prepare(name, s);
    std::vector<std::vector<double>> ms(c.engines.size());
    std::size_t round = 0;
    for (auto _ : state) {
        double first = 0;
        for (std::size_t k = 0; k < c.engines.size(); ++k) {
            const std::size_t i = (k + round) % c.engines.size();
            Engine& e = c.engines[i];
            const bench::StepTime t = e.engine->step();
            ms[i].push_back(t.seconds * 1e3);
            if (i == 0) first = t.seconds;
            Result& r = results()[name][e.name];
            r.points = t.points;
            if (t.parts_known) {
                for (int p = 0; p < bench::StepTime::part_count; ++p) r.parts[p] += t.parts[p];
                r.timed += t.seconds;
                ++r.part_steps;
            }
            measure(e, s, r);
        }
        state.SetIterationTime(first);
        ++round;
    }
    for (std::size_t i = 0; i < c.engines.size(); ++i) {
        const double m = median(ms[i]);
        results()[name][c.engines[i].name].ms.push_back(m);
        std::string key = c.engines[i].name;
        std::replace(key.begin(), key.end(), ' ', '_');
        state.counters[key + "_ms"] = m;
    }
}

/// Prints the comparison; returns false when impulse rests clearly worse than Box2D 2.4.
bool print_table()
{
    bool comparable = true;
    std::printf("\nSolver phase per step (ms, median over the repetitions [lowest-highest]); ratio = impulse's time\n"
                "over Box2D 2.4's in the same repetitions (below 1: impulse is faster); ns per point and pass:\n"
                "impulse's time over points x substeps x 2 (the solve and relax passes). Quality over every timed\n"
                "step, measured the same way for all: deepest overlap, rms and fastest speed, top's drop.\n\n");
    std::printf("%-13s %-26s %8s  %-26s %-22s %9s %9s %11s %11s %9s\n", "scene", "engine", "points", "solver ms",
                "ratio to Box2D 2.4", "ns/pt/pass", "deepest", "rms", "fastest", "top drop");
    for (auto& [scene, rows] : results()) {
        const auto box = rows.find("Box2D 2.4");
        for (auto& [name, r] : rows) r.q.rms = std::sqrt(r.rms2 / double(std::max<std::size_t>(r.steps, 1)));
        for (const auto& [name, r] : rows) {
            char ratio[64] = "", per[32] = "";
            if (box != rows.end() && &r != &box->second) {
                std::vector<double> q;
                for (std::size_t i = 0; i < r.ms.size() && i < box->second.ms.size(); ++i)
                    q.push_back(r.ms[i] / box->second.ms[i]);
                std::snprintf(ratio, sizeof ratio, "%.3f [%.3f-%.3f]", median(q), *std::min_element(q.begin(), q.end()),
                              *std::max_element(q.begin(), q.end()));
            }
            if (name.rfind("impulse", 0) == 0 && r.points > 0)
                std::snprintf(per, sizeof per, "%.2f", median(r.ms) * 1e6 / (double(r.points) * 4 * 2));
            std::printf("%-13s %-26s %8zu  %7.3f [%7.3f-%7.3f]  %-22s %9s %6.1f mm %6.3f mm/s %6.3f mm/s %6.1f mm\n",
                        scene.c_str(), name.c_str(), r.points, median(r.ms), *std::min_element(r.ms.begin(), r.ms.end()),
                        *std::max_element(r.ms.begin(), r.ms.end()), ratio, per, r.q.pen_max * 1e3, r.q.rms * 1e3,
                        r.q.fastest * 1e3, r.q.top_drop * 1e3);
            // Rest at least as well as Box2D 2.4, within what a settled pile shows from one random
            // start to the next: 1.5x its deepest overlap and 2x its rms speed, plus 1 mm and 1 mm/s.
            if (box != rows.end() && &r != &box->second && name.rfind("impulse", 0) == 0) {
                const Quality& b = box->second.q;
                if (!(r.q.pen_max <= 1.5 * b.pen_max + 1e-3 && r.q.rms <= 2.0 * b.rms + 1e-3)) {
                    std::printf("              ^ rests worse than Box2D 2.4\n");
                    comparable = false;
                }
            }
        }
    }
    // Wide rows and threads: speed-ups over a reference in the same repetitions.
    auto speedups = [](const char* reference, const char* prefix, const char* title) {
        bool header = false;
        for (auto& [scene, rows] : results()) {
            const auto ref = rows.find(reference);
            if (ref == rows.end()) continue;
            for (const auto& [name, r] : rows) {
                if (name.rfind(prefix, 0) != 0 || name == reference) continue;
                if (!header) {
                    std::printf("\n%s\n\n%-13s %-28s %s\n", title, "scene", "engine", "speed-up");
                    header = true;
                }
                std::vector<double> q;
                for (std::size_t i = 0; i < r.ms.size() && i < ref->second.ms.size(); ++i) q.push_back(ref->second.ms[i] / r.ms[i]);
                if (q.empty()) continue;
                std::printf("%-13s %-28s %.2f [%.2f-%.2f]\n", scene.c_str(), name.c_str(), median(q),
                            *std::min_element(q.begin(), q.end()), *std::max_element(q.begin(), q.end()));
            }
        }
    };
    // Where the time goes, for the engines that report it.
    bool header = false;
    for (const auto& [scene, rows] : results()) {
        for (const auto& [name, r] : rows) {
            if (r.part_steps == 0) continue;
            if (!header) {
                std::printf("\nWhere the solver phase goes (ms per step, mean over the timed steps; \"other\": the\n"
                            "timed phase less its parts):\n\n%-13s %-26s", "scene", "engine");
                for (const char* part : bench::part_names) std::printf(" %11s", part);
                std::printf(" %11s %11s\n", "other", "timed");
                header = true;
            }
            const double n = double(r.part_steps);
            double sum = 0;
            std::printf("%-13s %-26s", scene.c_str(), name.c_str());
            for (double part : r.parts) {
                std::printf(" %11.3f", part / n * 1e3);
                sum += part;
            }
            std::printf(" %11.3f %11.3f\n", (r.timed - sum) / n * 1e3, r.timed / n * 1e3);
        }
    }
    speedups("impulse float coloured", "impulse float wide",
             "Wide rows: impulse float coloured (one contact at a time) over impulse float wide (W at a time, the\n"
             "same bodies bit for bit) and its worker counts (median over the repetitions [lowest-highest]):");
    speedups("impulse float wide", "impulse float wide x",
             "Threads: impulse float wide on the calling thread alone over its time on N workers (median over the\n"
             "repetitions [lowest-highest]):");
    speedups("Box2D v3", "Box2D v3 x",
             "Threads, Box2D v3 for comparison: on one thread over its time on N workers of its own scheduler (median\n"
             "over the repetitions [lowest-highest]):");
    return comparable;
}

std::vector<int> parse_list(const char* s)
{
    std::vector<int> out;
    while (*s) {
        char* end = nullptr;
        const long v = std::strtol(s, &end, 10);
        if (end == s || v <= 0) return {};
        out.push_back(int(v));
        s = *end == ',' ? end + 1 : end;
    }
    return out;
}

}  // namespace

int main(int argc, char** argv)
{
    std::vector<int> pits{10000, 50000}, pyramids{100};
    std::vector<char*> rest;
    bool threads_given = false;
    for (int i = 0; i < argc; ++i) {
        if (std::strncmp(argv[i], "--pits=", 7) == 0 || std::strncmp(argv[i], "--pyramids=", 11) == 0) {
            const bool is_pit = argv[i][2] == 'p' && argv[i][3] == 'i';
            std::vector<int>& list = is_pit ? pits : pyramids;
            const char* value = std::strchr(argv[i], '=') + 1;
            list = std::strcmp(value, "0") == 0 ? std::vector<int>{} : parse_list(value);
            if (list.empty() && std::strcmp(value, "0") != 0) {
                std::fprintf(stderr, "solver: %s wants a comma-separated list of sizes (or 0 for none)\n", argv[i]);
                return 2;
            }
        } else if (std::strncmp(argv[i], "--settle=", 9) == 0) {
            settle_steps = std::max(0, std::atoi(argv[i] + 9));
        } else if (std::strncmp(argv[i], "--steps=", 8) == 0) {
            timed_steps = std::max(1, std::atoi(argv[i] + 8));
        } else if (std::strncmp(argv[i], "--seed=", 7) == 0) {
            const long v = std::atol(argv[i] + 7);
            if (v <= 0) {
                std::fprintf(stderr, "solver: --seed wants a positive integer\n");
                return 2;
            }
            pit_seed = unsigned(v);
        } else if (std::strncmp(argv[i], "--threads=", 10) == 0) {
            threads_given = true;
            const char* value = argv[i] + 10;
            thread_counts = std::strcmp(value, "0") == 0 ? std::vector<int>{} : parse_list(value);
            if (thread_counts.empty() && std::strcmp(value, "0") != 0) {
                std::fprintf(stderr, "solver: --threads wants a comma-separated list of worker counts (or 0 for none)\n");
                return 2;
            }
        } else {
            rest.push_back(argv[i]);
        }
    }
    if (!threads_given)
        for (unsigned t = 2; t <= std::thread::hardware_concurrency(); ++t) thread_counts.push_back(int(t));
    int rest_count = int(rest.size());
    benchmark::Initialize(&rest_count, rest.data());
    if (benchmark::ReportUnrecognizedArguments(rest_count, rest.data())) return 2;
#ifdef IMPULSE_BENCH_FLAGS
    benchmark::AddCustomContext("impulse built with", IMPULSE_BENCH_FLAGS);
#endif
    benchmark::AddCustomContext("Box2D 2.4", bench::box2d24_version().empty() ? "not built in" : bench::box2d24_version());
    benchmark::AddCustomContext("Box2D v3", bench::box2d3_version().empty() ? "not built in" : bench::box2d3_version());
    benchmark::AddCustomContext("settle steps", std::to_string(settle_steps));
    benchmark::AddCustomContext("pit seed", std::to_string(pit_seed));
    benchmark::AddCustomContext("timed steps per repetition", std::to_string(timed_steps));
    std::string threads = "1";
    for (int t : thread_counts) threads += "," + std::to_string(t);
    benchmark::AddCustomContext("impulse float worker counts", threads);

    for (int n : pits) {
        const std::string name = "pit/" + std::to_string(n);
        benchmark::RegisterBenchmark(name.c_str(), [name, n](benchmark::State& st) { run(st, name, pit(std::size_t(n))); })
            ->UseManualTime()
            ->Iterations(timed_steps)
            ->Unit(benchmark::kMillisecond);
    }
    for (int b : pyramids) {
        const std::string name = "pyramid/" + std::to_string(b);
        benchmark::RegisterBenchmark(name.c_str(), [name, b](benchmark::State& st) { run(st, name, pyramid(b)); })
            ->UseManualTime()
            ->Iterations(timed_steps)
            ->Unit(benchmark::kMillisecond);
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    if (bench::box2d24_version().empty())
        std::printf("\n(Box2D 2.4 was not found when this was built: install libbox2d-dev for the comparison)\n");
    return print_table() ? 0 : 1;
}
