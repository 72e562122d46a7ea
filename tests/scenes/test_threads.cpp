// SPDX-License-Identifier: MIT
// The solver on threads (tasks.hpp, examples/common/thread_pool.hpp): a step gives the same result,
// bit for bit, whatever the number of workers. The expected value of every comparison is the serial
// step's own result: the claim is equality, not a number. The scenes are small (a few hundred bodies)
// but large enough that every stage is cut into several blocks (256 bodies, 64 contacts a block) and
// so is really shared between the threads; on a machine with fewer cores than workers the threads
// take turns, which changes the timing of every block and still may not change the result.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <vector>

#include "catch.hpp"
#include "scenes/suite.hpp"
#include "small_scenes.hpp"
#include "thread_pool.hpp"

namespace {

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
    return small_scenes::state(w);
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
    same_for_every_thread_count<float, 2>(small_scenes::pit, 60);  // one second of a pile forming
}

TEST_CASE("a 2D box pyramid of base 20 steps the same for 1, 2, 3, 4 and 7 threads", "[scenes][threads]")
{
    same_for_every_thread_count<double, 2>(small_scenes::pyramid, 30);
}

TEST_CASE("a 3D pile of 300 cubes dropped into a pit steps the same for 1, 2, 3, 4 and 7 threads",
          "[scenes][threads]")
{
    same_for_every_thread_count<float, 3>(small_scenes::cubes, 60);
}

TEST_CASE("pyramids under 100:1 to 300:1 top boxes, dropped, step the same for 1, 2, 3, 4 and 7 threads",
          "[scenes][threads]")
{
    // Heavy on light (SolverSettings::shock_propagation): the heavy boxes land on the pyramids within
    // the steps run (dropped 2 m: 0.64 s), so the shock pass runs on the contacts under them, serially
    // between the shared passes, and the search for those contacts is in the colouring's stage.
    same_for_every_thread_count<double, 2>(
        [](scenes::World<double, 2>& w) { scenes::suite::build_mass_ratio_pyramids(w, true); }, 60);
}

TEST_CASE("the step profile: every part of a coloured pile's step is timed, the parts make the step, "
          "and timing changes no bit",
          "[scenes][threads][profile]")
{
    // What is checked comes from the profile's definition (solver.hpp, SolverProfile): off, nothing
    // is recorded; on, each part is the sum of its stages' times from the close of the stage before,
    // so the parts add up to the whole step (to the rounding of the sum in double), which lies inside
    // the wall-clock time measured around the call. A pile forming has contacts of every kind: each
    // part then has work and takes some time. The clock readings must not change the result.
    for (unsigned workers : {0u, 2u}) {
        INFO(workers << " workers (0: no task system)");
        scenes::World<float, 2> w;
        small_scenes::pit(w);
        w.solver.settings.colouring = true;
        w.solver.settings.parallel_min_manifolds = 0;
        examples::ThreadPool pool(workers < 1 ? 1 : workers);
        if (workers > 0) w.solver.tasks = &pool;
        scenes::World<float, 2> plain = w;
        for (int i = 0; i < 40; ++i) {
            w.step();
            plain.step();
        }
        const impulse::SolverProfile& off = w.solver.profile();
        CHECK(off.total == 0.0);
        CHECK(off.solve == 0.0);

        w.solver.settings.profile = true;
        w.find_contacts();
        plain.find_contacts();
        const auto before = std::chrono::steady_clock::now();
        w.solver.step(w.view(), w.contacts().data(), w.contacts().size(), w.dt);
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
        plain.solver.step(plain.view(), plain.contacts().data(), plain.contacts().size(), plain.dt);

        const impulse::SolverProfile& p = w.solver.profile();
        const double parts[] = {p.bodies, p.colour, p.prepare, p.warm_start, p.solve, p.relax, p.restitution, p.store};
        double sum = 0;
        for (double part : parts) {
            CHECK(part > 0.0);
            sum += part;
        }
        CHECK(p.total > 0.0);
        CHECK(std::abs(sum - p.total) <= 1e-12 + 1e-9 * p.total);
        CHECK(p.total <= wall);
        CHECK(small_scenes::state(w) == small_scenes::state(plain));

        // Off again: the next step records nothing, and the last profile is not left behind.
        w.solver.settings.profile = false;
        w.step();
        CHECK(w.solver.profile().total == 0.0);
        CHECK(w.solver.profile().solve == 0.0);
    }
}

TEST_CASE("the stage runner runs every block of every stage once, each stage after the one before",
          "[threads][tasks]")
{
    // tasks.hpp: worker i starts at its own share of a stage's blocks and claims its neighbours; the
    // claim is a bit per block, so a stage has at most Stage::max_blocks of them (one asking for more
    // is cut into that many). Whatever the workers (70 of them: more than any stage's blocks), each
    // item must run exactly once, and no item of a stage may start before every item of the stage
    // before ran (the order that makes one stage's writes visible to the next). Stages without items
    // are passed over.
    using impulse::detail::Stage;
    const std::size_t items[] = {5000, 0, 7, 1, 640, 3, 0, 2000};
    const std::uint32_t blocks[] = {Stage::max_blocks, 1, 3, 1, 40, 3, 1, 500};  // 500: cut to max_blocks
    constexpr std::size_t n = sizeof items / sizeof items[0];
    std::vector<std::vector<std::atomic<int>>> runs(n);
    std::atomic<int> done[n] = {};
    std::atomic<bool> in_order{true};
    struct Run {
        std::vector<std::vector<std::atomic<int>>>* runs;
        std::atomic<int>* done;
        std::atomic<bool>* in_order;
        void operator()(const Stage& st, std::size_t begin, std::size_t end) const noexcept
        {
            for (std::size_t s = 0; s < st.arg; ++s)  // every earlier stage complete
                if (done[s].load() != int((*runs)[s].size())) in_order->store(false);
            for (std::size_t i = begin; i < end; ++i) {
                (*runs)[st.arg][i].fetch_add(1);
                done[st.arg].fetch_add(1);
            }
        }
    } run{&runs, done, &in_order};
    for (unsigned workers : {2u, 3u, 7u, 70u}) {
        INFO(workers << " workers");
        std::vector<Stage> stages;
        for (std::size_t s = 0; s < n; ++s) {
            runs[s] = std::vector<std::atomic<int>>(items[s]);
            done[s] = 0;
            stages.emplace_back(0u, std::uint32_t(s), items[s], blocks[s]);
        }
        in_order = true;
        examples::ThreadPool pool(workers);
        for (int repeat = 0; repeat < 3; ++repeat) {  // a runner resets the claims it finds
            for (std::size_t s = 0; s < n; ++s) {
                for (auto& r : runs[s]) r = 0;
                done[s] = 0;
            }
            impulse::detail::StageRunner<Run>(stages, run).parallel(pool);
            CHECK(in_order.load());
            for (std::size_t s = 0; s < n; ++s) {
                int once = 0;
                for (const auto& r : runs[s]) once += r.load() == 1;
                CHECK(once == int(items[s]));
            }
        }
    }
}
