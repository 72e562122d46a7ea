// SPDX-License-Identifier: MIT
/// \file tasks.hpp
/// The hook through which the solver runs on an engine's own worker threads: `TaskSystem`, an
/// interface an engine implements once over its job system (the shape of Box2D v3's
/// `enqueueTask`/`finishTask` and Jolt's `JobSystem`). The library starts no thread of its own.
///
/// How a step uses it: the solver cuts a step into stages (load the bodies, colour the contacts,
/// prepare them, then per substep integrate, warm start and solve colour by colour, ...). Each stage
/// is a list of independent blocks. The calling thread and `workers() - 1` helper tasks, enqueued
/// once per step, take blocks of the current stage: worker i starts at its own share of the blocks
/// (the i-th of `workers()` equal parts) and goes on to the next blocks until it meets one another
/// worker took, then back from its start the same way, each block claimed by an atomic bit (the way
/// Box2D v3's stages hand out blocks). So block k of every stage tends to run on the same thread, and
/// the bodies and contacts it touches stay in that core's cache from stage to stage. Whoever
/// finishes the last block of a stage opens the next one. No thread waits on another to start: the
/// calling thread alone can finish the whole step, so a task system that runs the helpers late, one
/// after another, or inline inside `enqueue` is still correct (only slower). A thread with no block
/// to take spins briefly, then yields. Which thread runs a block never changes what it computes, so the result is
/// the same, bit for bit, for every number of workers.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

#if defined(_MSC_VER)
#include <intrin.h>  // _mm_pause, __yield
#endif

namespace impulse {

/// An engine's job system, as the solver uses it. Implement `workers`, `enqueue` and `finish`.
class TaskSystem {
public:
    /// A task: run items [begin, end) of the work `context` describes. `worker` is the index
    /// (0 .. workers()-1) of the thread running it, for per-thread scratch; the solver does not use it.
    using Task = void (*)(std::size_t begin, std::size_t end, unsigned worker, void* context);

    virtual ~TaskSystem() = default;

    /// The threads that may run the solver's work at once, the calling thread included (1: serial).
    virtual unsigned workers() const noexcept = 0;

    /// Runs `task` over the items [0, count), split into ranges of at least `min_range` items, on
    /// the engine's threads, and returns a handle for `finish`. The ranges may run in any order, at
    /// any time before `finish` returns, and on any thread; an implementation may also run them
    /// before it returns (then it may return nullptr).
    virtual void* enqueue(Task task, std::size_t count, std::size_t min_range, void* context) noexcept = 0;

    /// Returns once every range of the work `handle` stands for has run.
    virtual void finish(void* handle) noexcept = 0;
};

namespace detail {

/// A spinning thread's hint to the processor (x86 `pause`, ARM `yield`): it slows the loop down and
/// leaves the core's shared resources to the thread doing the work.
inline void cpu_pause() noexcept
{
#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    _mm_pause();
#elif defined(_MSC_VER) && (defined(_M_ARM64) || defined(_M_ARM))
    __yield();
#elif defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

/// One stage of a step: `items` items cut into `blocks` blocks (block k holds the items
/// [k items / blocks, (k + 1) items / blocks)), at most `max_blocks` (the runner cuts a stage of more
/// into that many). `kind` and `arg` say what to run.
struct Stage {
    static constexpr std::uint32_t max_blocks = 64;  ///< a bit of `taken` each
    std::uint32_t kind{0};
    std::uint32_t arg{0};
    std::size_t items{0};
    std::uint32_t blocks{1};
    std::atomic<std::uint64_t> taken{0};     // bit k: block k was claimed
    std::atomic<std::uint32_t> finished{0};  // blocks done
    std::chrono::steady_clock::time_point closed{};  // when its last block finished (timed runs only)

    Stage() = default;
    Stage(std::uint32_t k, std::uint32_t a, std::size_t n, std::uint32_t b) noexcept : kind(k), arg(a), items(n), blocks(b) {}
    Stage(const Stage& o) noexcept : kind(o.kind), arg(o.arg), items(o.items), blocks(o.blocks) {}
    Stage& operator=(const Stage& o) noexcept
    {
        kind = o.kind;
        arg = o.arg;
        items = o.items;
        blocks = o.blocks;
        taken.store(0, std::memory_order_relaxed);
        finished.store(0, std::memory_order_relaxed);
        return *this;
    }
    std::size_t begin(std::uint32_t block) const noexcept { return std::size_t(block) * items / blocks; }
    std::size_t end(std::uint32_t block) const noexcept { return std::size_t(block + 1) * items / blocks; }
    /// Claims block k: true for the one caller that gets it.
    bool claim(std::uint32_t k) noexcept
    {
        const std::uint64_t bit = std::uint64_t(1) << k;
        return !(taken.fetch_or(bit, std::memory_order_relaxed) & bit);
    }
};

/// Runs a list of stages in order, each stage's blocks on whichever participating thread takes
/// them. `Run` is called as run(stage, begin, end). See the file comment.
template <class Run>
class StageRunner {
public:
    /// `timed`: each stage with items records when it closed (Stage::closed), read from
    /// std::chrono::steady_clock once per stage.
    StageRunner(std::vector<Stage>& stages, Run& run, bool timed = false) noexcept
        : stages_(stages), run_(run), timed_(timed)
    {
    }

    /// Runs every stage on the calling thread alone.
    void serial() noexcept
    {
        for (Stage& s : stages_) {
            if (s.items == 0) continue;
            run_(s, std::size_t(0), s.items);
            if (timed_) s.closed = std::chrono::steady_clock::now();
        }
    }

    /// Runs every stage on the calling thread and `tasks.workers() - 1` helper tasks; returns when all
    /// stages are done and every helper has returned.
    void parallel(TaskSystem& tasks) noexcept
    {
        for (Stage& s : stages_) {
            s.blocks = s.blocks < 1 ? 1 : s.blocks > Stage::max_blocks ? Stage::max_blocks : s.blocks;
            s.taken.store(0, std::memory_order_relaxed);
            s.finished.store(0, std::memory_order_relaxed);
        }
        std::size_t first = 0;
        while (first < stages_.size() && stages_[first].items == 0) ++first;
        current_.store(first, std::memory_order_release);
        workers_ = tasks.workers() > 1 ? tasks.workers() : 1;
        const unsigned helpers = workers_ - 1;
        void* handle = helpers ? tasks.enqueue(&StageRunner::helper, helpers, 1, this) : nullptr;
        work(0);
        if (helpers) tasks.finish(handle);
    }

private:
    static void helper(std::size_t begin, std::size_t end, unsigned, void* context) noexcept
    {
        for (std::size_t i = begin; i < end; ++i) static_cast<StageRunner*>(context)->work(unsigned(i) + 1);
    }

    // Worker `w` (the caller 0, helper i i + 1) takes blocks of the current stage until every stage
    // is done.
    void work(unsigned w) noexcept
    {
        const std::size_t n = stages_.size();
        std::size_t s = current_.load(std::memory_order_acquire);
        while (s < n) {
            Stage& st = stages_[s];
            // Its own share first, then onwards while no other worker has been there, then back from
            // the start. Every block gets claimed: the block after each worker's last is one some
            // worker claimed, so following the claimed ones round the ring misses none.
            const std::uint32_t blocks = st.blocks, start = std::uint32_t(std::uint64_t(w) * blocks / workers_);
            for (std::uint32_t k = start; st.claim(k);) {
                finish_block(s, k);
                if (++k == blocks) k = 0;
            }
            for (std::uint32_t k = start; st.claim(k = k == 0 ? blocks - 1 : k - 1);) finish_block(s, k);
            s = wait_past(s);
        }
    }

    // Runs block k of stage s; the last block's finisher opens the next stage.
    void finish_block(std::size_t s, std::uint32_t k) noexcept
    {
        Stage& st = stages_[s];
        run_(st, st.begin(k), st.end(k));
        // acq_rel orders every block's writes before the next stage opens.
        if (st.finished.fetch_add(1, std::memory_order_acq_rel) + 1 == st.blocks) {
            if (timed_) st.closed = std::chrono::steady_clock::now();
            std::size_t next = s + 1;  // stages without items (an empty colour) are passed over
            while (next < stages_.size() && stages_[next].items == 0) ++next;
            current_.store(next, std::memory_order_release);
        }
    }

    // Waits until the current stage is no longer s; returns the new one.
    std::size_t wait_past(std::size_t s) noexcept
    {
        for (int spin = 0;; ++spin) {
            const std::size_t now = current_.load(std::memory_order_acquire);
            if (now != s) return now;
            if (spin >= 1024) std::this_thread::yield();
            else cpu_pause();
        }
    }

    std::vector<Stage>& stages_;
    Run& run_;
    bool timed_;
    unsigned workers_{1};
    std::atomic<std::size_t> current_{0};
};

}  // namespace detail
}  // namespace impulse
