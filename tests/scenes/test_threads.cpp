// SPDX-License-Identifier: MIT
// The solver on threads (tasks.hpp, examples/common/thread_pool.hpp): a step gives the same result,
// bit for bit, whatever the number of workers. The expected value of every comparison is the serial
// step's own result: the claim is equality, not a number. The scenes are small (a few hundred bodies)
// but large enough that every stage is cut into several blocks (256 bodies, 64 contacts a block) and
// so is really shared between the threads; on a machine with fewer cores than workers the threads
// take turns, which changes the timing of every block and still may not change the result.
#include <cstring>
#include <vector>

#include "catch.hpp"
#include "scenes/scenes.hpp"
#include "scenes/scenes3d.hpp"
#include "thread_pool.hpp"

namespace {

/// Every pose and velocity of w, bit for bit, as bytes.
template <class S, int D>
std::vector<unsigned char> state(const scenes::World<S, D>& w)
{
    std::vector<unsigned char> out;
    auto put = [&out](const void* p, std::size_t n) {
        const auto* b = static_cast<const unsigned char*>(p);
        out.insert(out.end(), b, b + n);
    };
    for (std::size_t i = 0; i < w.x.size(); ++i) {
        put(w.x[i].data(), sizeof(S) * D);
        put(w.v[i].data(), sizeof(S) * D);
        if constexpr (D == 2) {
            put(&w.omega[i], sizeof(S));
            put(&w.q[i].c, sizeof(S));
            put(&w.q[i].s, sizeof(S));
        } else {
            put(w.omega[i].data(), sizeof(S) * 3);
            put(w.q[i].coeffs().data(), sizeof(S) * 4);
        }
    }
    return out;
}

/// Runs `build` then `steps` steps with `workers` threads (0: no task system at all).
template <class S, int D, class Build>
std::vector<unsigned char> run(Build&& build, int steps, unsigned workers, bool colouring)
{
    scenes::World<S, D> w;
    build(w);
    w.solver.settings.colouring = colouring;
    w.solver.settings.parallel_min_manifolds = 0;  // small scenes, shared all the same
    examples::ThreadPool pool(workers < 1 ? 1 : workers);
    if (workers > 0) w.solver.tasks = &pool;
    for (int i = 0; i < steps; ++i) w.step();
    return state(w);
}

template <class S, int D, class Build>
void same_for_every_thread_count(Build&& build, int steps)
{
    // Coloured, every pass over the contacts is shared; not coloured, only the passes over bodies
    // and the preparation and storing of contacts are.
    for (bool colouring : {true, false}) {
        const std::vector<unsigned char> serial = run<S, D>(build, steps, 0, colouring);
        for (unsigned workers : {1u, 2u, 3u, 4u, 7u}) {
            INFO(workers << " workers, colouring " << colouring);
            CHECK(run<S, D>(build, steps, workers, colouring) == serial);
        }
    }
}

}  // namespace

TEST_CASE("a 2D pit of 600 balls falling into a pile steps the same for 1, 2, 3, 4 and 7 threads",
          "[scenes][threads]")
{
    // 600 balls stacked in layers and dropped: one second (60 steps) of a pile forming, with every
    // contact kind of the pit (floor, walls, ball on ball, restitution and rolling resistance).
    auto build = [](scenes::World<float, 2>& w) {
        scenes::PitSpec<float> p;
        p.count = 600;
        p.width = 12;
        scenes::build_box<float, 2>(w, p);
        for (const auto& b : scenes::stacked_layers<float, 2>(p)) w.add_ball(b.x, b.r, p.density);
    };
    same_for_every_thread_count<float, 2>(build, 60);
}

TEST_CASE("a 2D box pyramid of base 20 steps the same for 1, 2, 3, 4 and 7 threads", "[scenes][threads]")
{
    // 210 boxes, two-point manifolds and friction, double precision.
    auto build = [](scenes::World<double, 2>& w) { scenes::build_box_pyramid(w, 20); };
    same_for_every_thread_count<double, 2>(build, 30);
}

TEST_CASE("a 3D pile of 300 cubes dropped into a pit steps the same for 1, 2, 3, 4 and 7 threads",
          "[scenes][threads]")
{
    // Four-point box manifolds, rotation about three axes and the gyroscopic step, float.
    auto build = [](scenes::World<float, 3>& w) { scenes::build_cube_pit(w, 300, 6.0f); };
    same_for_every_thread_count<float, 3>(build, 60);
}
