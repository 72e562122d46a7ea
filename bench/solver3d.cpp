// SPDX-License-Identifier: MIT
// The solver phase on the 3D pyramid of cubes, impulse beside Bullet 3 (Debian's libbullet-dev),
// with the quality of rest of each, measured with one yardstick.
//
//   solver3d [--bases=10] [--walls=100] [--pits=5000] [--settle=600] [--steps=120] [--seed=1]
//
// Scenes (examples/common/scenes/scenes3d.hpp), unit cubes (density 1, friction 0.6, e = 0) on the
// floor y = 0:
//   pyramid B  build_cube_pyramid: square layers, each cube on four below; base 10 is 385 cubes;
//   wall B     build_cube_wall, Box3D's large_pyramid: Box2D's brick-pattern pyramid of cubes in one
//              plane, B on the bottom row; base 100 is 5050 cubes (on the floor plane, where Box3D
//              has a static box);
//   pit N      build_cube_pit: N cubes on a lattice, turned at random, dropped into a pit whose
//              width grows with N (20 m for 5000: the pile about 12 m deep), four walls round it.
//              --seed picks the cubes' turns (the placement): a pour's settling depends on where its
//              avalanches leave it, so compare settling over several seeds.
// Both engines: gravity 9.81, 1/60 s steps, float, sleeping off. impulse: Solver at its
// defaults (4 substeps, soft contacts, relax, warm starting; the contacts in the order given, one
// at a time), then coloured (settings.colouring, one contact at a time) and coloured in wide rows
// (settings.colouring and settings.wide: W contacts at once), and in the order given with one pass
// over each manifold's points per solve (settings.manifold_iterations = 1, what the default's
// repeated passes cost and give), each on its own copy of the scene,
// contacts from collide3d.hpp over the scenes' grid. Bullet: btSequentialImpulseConstraintSolver at its defaults (10 iterations, split
// impulse on), its own collision pipeline (bench/bullet/bullet.cpp).
//
// What is timed is the solver phase: impulse's Solver::step (gravity, warm start, solve, integrate,
// relax, restitution, store); Bullet's predictUnconstraintMotion + solveConstraints +
// integrateTransforms. The contacts are found outside it in both. After --settle untimed steps,
// the engines step in turn for --steps steps, one step each, so a load from elsewhere falls on both
// alike; the median step is reported. Rest quality, the same code for both: over the timed steps,
// the rms speed of the cubes' centres and the fastest cube; at the end, the deepest overlap of two
// cubes or a cube and the floor (collide3d.hpp on the engines' poses, with no skin). Then, for each of
// impulse's runs, where its solver phase went (Solver::profile, on in every run: a clock reading per
// stage), mean over the timed steps.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine3d.hpp"
#include "profile.hpp"
#include "scenes/scenes3d.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using S = float;

/// impulse over the examples' world.
class Impulse final : public bench3d::Engine {
public:
    /// `passes`: settings.manifold_iterations (0: the default).
    template <class Build>
    Impulse(Build&& build, bool colouring, bool wide, int passes = 0)
    {
        build(w_);
        w_.solver.settings.colouring = colouring;
        w_.solver.settings.wide = wide;
        if (passes > 0) w_.solver.settings.manifold_iterations = passes;
        w_.solver.settings.profile = true;  // a clock reading per stage: a few microseconds a step
    }

    double step() override
    {
        w_.find_contacts();
        const auto t0 = Clock::now();
        w_.solver.step(w_.view(), w_.contacts().data(), w_.contacts().size(), w_.dt);
        return std::chrono::duration<double>(Clock::now() - t0).count();
    }

    void state(std::vector<bench3d::BodyState>& out) const override
    {
        const std::size_t first = w_.first_ball(), n = w_.ball_count();
        out.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            bench3d::BodyState& s = out[i];
            for (int k = 0; k < 3; ++k) {
                s.x[k] = double(w_.x[first + i][k]);
                s.v[k] = double(w_.v[first + i][k]);
                s.q[k] = double(w_.q[first + i].coeffs()[k]);
            }
            s.q[3] = double(w_.q[first + i].w());
        }
    }

    /// The last step's parts (Solver::profile), in the order of `bench::part_names`.
    void parts(double (&out)[bench::part_count]) const { bench::profile_parts(w_.solver.profile(), out); }

    const scenes::World<S, 3>& world() const { return w_; }
    std::size_t points() const
    {
        std::size_t p = 0;
        for (const auto& m : w_.contacts()) p += std::size_t(m.count);
        return p;
    }

private:
    scenes::World<S, 3> w_;
};

/// The deepest overlap among unit-cube poses and the floor: collide3d.hpp with no speculative reach.
double deepest_overlap(const std::vector<bench3d::BodyState>& b)
{
    using V = impulse::Vec<double, 3>;
    impulse::Box<double> cube;
    cube.half_extents = V::Constant(0.5);
    auto pose = [](const bench3d::BodyState& s) {
        impulse::Pose<double, 3> p;
        p.p = V(s.x[0], s.x[1], s.x[2]);
        p.q = Eigen::Quaterniond(s.q[3], s.q[0], s.q[1], s.q[2]).normalized();
        return p;
    };
    double deepest = 0;
    auto take = [&](const impulse::Manifold<double, 3>& m) {
        for (int k = 0; k < m.count; ++k) deepest = std::max(deepest, -m.points[k].separation);
    };
    for (std::size_t i = 0; i < b.size(); ++i) {
        take(impulse::collide_plane_box(impulse::Plane<double, 3>(), impulse::Pose<double, 3>(), cube, pose(b[i]), 0.0));
        for (std::size_t j = i + 1; j < b.size(); ++j) {
            const double dx = b[i].x[0] - b[j].x[0], dy = b[i].x[1] - b[j].x[1], dz = b[i].x[2] - b[j].x[2];
            if (dx * dx + dy * dy + dz * dz > 3.0) continue;  // farther than the two bounding spheres (sqrt 3)
            take(impulse::collide_boxes(cube, pose(b[i]), cube, pose(b[j]), 0.0));
        }
    }
    return deepest;
}

/// The pit's width for n cubes: 20 m for 5000 (a pile about 12 m deep), growing with sqrt(n).
S pit_width(int n) { return S(std::max(4.0, std::round(20.0 * std::sqrt(double(n) / 5000.0)))); }

struct Measured {
    double median{0}, rms{0}, fastest{0}, overlap{0};
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

/// "10,20" -> {10, 20}; "0" or "" -> none (as bench/solver.cpp reads its lists).
std::vector<int> parse_list(const char* s)
{
    std::vector<int> out;
    if (!std::strcmp(s, "0")) return out;
    while (*s) {
        out.push_back(std::atoi(s));
        while (*s && *s != ',') ++s;
        if (*s == ',') ++s;
    }
    return out;
}

}  // namespace

int main(int argc, char** argv)
{
    std::vector<int> bases = {10}, walls, pits;
    int settle = 600, steps = 120;
    unsigned seed = 1;
    for (int k = 1; k < argc; ++k) {
        if (!std::strncmp(argv[k], "--bases=", 8)) bases = parse_list(argv[k] + 8);
        else if (!std::strncmp(argv[k], "--walls=", 8)) walls = parse_list(argv[k] + 8);
        else if (!std::strncmp(argv[k], "--pits=", 7)) pits = parse_list(argv[k] + 7);
        else if (!std::strncmp(argv[k], "--settle=", 9)) settle = std::atoi(argv[k] + 9);
        else if (!std::strncmp(argv[k], "--steps=", 8)) steps = std::atoi(argv[k] + 8);
        else if (!std::strncmp(argv[k], "--seed=", 7)) seed = unsigned(std::strtoul(argv[k] + 7, nullptr, 10));
        else {
            std::fprintf(stderr, "usage: %s [--bases=10] [--walls=100] [--pits=5000] [--settle=600] [--steps=120] [--seed=1]\n",
                         argv[0]);
            return 2;
        }
    }
    std::printf("impulse %d.%d.%d (float) beside %s; %d steps to settle, %d timed; pits placed with seed %u\n\n",
                IMPULSE_VERSION_MAJOR, IMPULSE_VERSION_MINOR, IMPULSE_VERSION_PATCH, bench3d::bullet_version().c_str(),
                settle, steps, seed);
    std::printf("| scene | engine | solver phase per step (median) | rms speed at rest | fastest | deepest overlap |\n");
    std::printf("|---|---|---|---|---|---|\n");
    struct Case {
        std::string name;
        int base;
        int kind;  // 0 pyramid, 1 wall, 2 pit
    };
    std::vector<Case> cases;
    for (int b : bases) cases.push_back({"pyramid " + std::to_string(b) + " (" + std::to_string(scenes::pyramid_cubes(b)) + " cubes)", b, 0});
    for (int b : walls) cases.push_back({"wall " + std::to_string(b) + " (" + std::to_string(b * (b + 1) / 2) + " cubes)", b, 1});
    for (int n : pits) cases.push_back({"pit of " + std::to_string(n) + " cubes", n, 2});
    for (const Case& c : cases) {
        auto build = [&](scenes::World<S, 3>& w) {
            if (c.kind == 1) scenes::build_cube_wall(w, c.base);
            else if (c.kind == 2) scenes::build_cube_pit(w, c.base, pit_width(c.base), seed);
            else scenes::build_cube_pyramid(w, c.base);
        };
        Impulse imp(build, false, false), coloured(build, true, false), wide(build, true, true), single(build, false, false, 1);
        bench3d::Scene scene;
        if (c.kind == 2) scene.pit = double(pit_width(c.base));
        const auto& w = imp.world();
        for (std::size_t i = w.first_ball(); i < w.body_count(); ++i) {
            const auto& q = w.q[i];
            scene.boxes.push_back({double(w.x[i].x()), double(w.x[i].y()), double(w.x[i].z()), 0.5, 0.5, 0.5,
                                   {double(q.x()), double(q.y()), double(q.z()), double(q.w())}});
        }
        std::unique_ptr<bench3d::Engine> bullet = bench3d::make_bullet(scene);
        constexpr int count = 5, bullet_at = 4;
        bench3d::Engine* engines[count] = {&imp, &coloured, &wide, &single, bullet.get()};
        const char* names[count] = {"impulse", "impulse coloured", "impulse wide", "impulse, one pass per manifold", "Bullet"};
        for (int s = 0; s < settle; ++s)
            for (bench3d::Engine* e : engines) e->step();
        std::vector<double> times[count];
        double rms2[count] = {};
        Measured m[count];
        std::vector<bench3d::BodyState> st;
        const Impulse* impulses[bullet_at] = {&imp, &coloured, &wide, &single};
        double parts[bullet_at][bench::part_count] = {};
        for (int s = 0; s < steps; ++s) {
            for (int e = 0; e < count; ++e) {
                times[e].push_back(engines[e]->step());
                if (e < bullet_at) {
                    double last[bench::part_count];
                    impulses[e]->parts(last);
                    for (int k = 0; k < bench::part_count; ++k) parts[e][k] += last[k];
                }
                engines[e]->state(st);
                double sum = 0;
                for (const auto& b : st) {
                    const double v2 = b.v[0] * b.v[0] + b.v[1] * b.v[1] + b.v[2] * b.v[2];
                    sum += v2;
                    m[e].fastest = std::max(m[e].fastest, std::sqrt(v2));
                }
                rms2[e] += sum / double(st.size());
            }
        }
        for (int e = 0; e < count; ++e) {
            m[e].median = median(times[e]);
            m[e].rms = std::sqrt(rms2[e] / steps);
            engines[e]->state(st);
            m[e].overlap = deepest_overlap(st);
            std::printf("| %s | %s | %.3f ms | %.2e m/s | %.2e m/s | %.4f m |\n", c.name.c_str(), names[e],
                        1e3 * m[e].median, m[e].rms, m[e].fastest, m[e].overlap);
        }
        for (int e = 0; e < bullet_at; ++e)
            std::printf("| | %s / Bullet | %.2f | %.3g | | |\n", names[e], m[e].median / m[bullet_at].median,
                        m[e].rms / m[bullet_at].rms);
        // The wide rows against the same solver one contact at a time, step by step.
        std::vector<double> ratio(times[1].size());
        for (std::size_t s = 0; s < ratio.size(); ++s) ratio[s] = times[1][s] / times[2][s];
        std::printf("| | coloured / wide, per step | %.2f | | | |\n", median(ratio));
        // Where impulse's solver phase goes: Solver::profile, mean over the timed steps.
        std::printf("\n| %s: impulse, ms per step (mean) |", c.name.c_str());
        for (const char* part : bench::part_names) std::printf(" %s |", part);
        std::printf(" whole step |\n|---|");
        for (int k = 0; k <= bench::part_count; ++k) std::printf("---|");
        std::printf("\n");
        for (int e = 0; e < bullet_at; ++e) {
            double whole = 0;
            for (double t : times[e]) whole += t;
            std::printf("| %s |", names[e]);
            for (int k = 0; k < bench::part_count; ++k) std::printf(" %.3f |", 1e3 * parts[e][k] / steps);
            std::printf(" %.3f |\n", 1e3 * whole / steps);
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    return 0;
}
