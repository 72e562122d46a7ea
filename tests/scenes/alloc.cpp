// SPDX-License-Identifier: MIT
// A solver step allocates nothing after warm-up. Its own program: it replaces the global operator
// new and delete with versions that count, which must hold for the whole program.
//
// On a settled ball pit (2D double and 3D float), two ways to warm up:
//   - Solver::reserve for the sizes the scene needs, then every step allocates nothing;
//   - no reserve: one step on a set of contacts, then the same step again allocates nothing.
// Exit status 0 when no counted step allocated; the counts are printed.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "scenes/scenes.hpp"

namespace {
std::atomic<long> allocations{0};
std::atomic<bool> counting{false};

void* allocate(std::size_t size, std::size_t align)
{
    if (counting.load()) ++allocations;
    if (size == 0) size = 1;
    void* p = align > alignof(std::max_align_t) ? std::aligned_alloc(align, (size + align - 1) / align * align)
                                                : std::malloc(size);
    if (!p) throw std::bad_alloc();
    return p;
}
}  // namespace

void* operator new(std::size_t n) { return allocate(n, alignof(std::max_align_t)); }
void* operator new[](std::size_t n) { return allocate(n, alignof(std::max_align_t)); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate(n, std::size_t(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate(n, std::size_t(a)); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace {

/// One step of the world, with only the solver's part counted.
template <class S, int D>
long counted_step(scenes::World<S, D>& w)
{
    w.find_contacts();
    const long before = allocations.load();
    counting = true;
    w.solver.step(w.view(), w.contacts().data(), w.contacts().size(), w.dt);
    counting = false;
    return allocations.load() - before;
}

/// A settled pit of `count` balls.
template <class S, int D>
scenes::World<S, D> pit(std::size_t count, S width)
{
    scenes::PitSpec<S> p;
    p.count = count;
    p.width = width;
    p.height = S(10);
    scenes::World<S, D> w;
    scenes::build_box(w, p);
    scenes::run_pit(w, p, 120, 1, [](int, const scenes::World<S, D>&) {});
    return w;
}

template <class S, int D>
bool check(const char* name, std::size_t count, S width)
{
    bool ok = true;
    {
        // Reserved for twice the contacts the settled pit has: no step allocates.
        scenes::World<S, D> w = pit<S, D>(count, width);
        w.find_contacts();
        const std::size_t m = 2 * w.contacts().size();
        w.solver.reserve(w.body_count(), m, m);
        long total = 0;
        for (int i = 0; i < 120; ++i) total += counted_step(w);
        std::printf("%s, reserved: %ld allocations in 120 steps\n", name, total);
        ok = ok && total == 0;
    }
    {
        // No reserve: a fresh solver's first step sizes its storage; the same step again (same
        // bodies, same contacts) allocates nothing.
        scenes::World<S, D> w = pit<S, D>(count, width);
        w.find_contacts();
        impulse::Solver<S, D> fresh;
        fresh.settings = w.solver.settings;
        const auto x = w.x;
        const auto q = w.q;
        const auto v = w.v;
        const auto omega = w.omega;
        auto step = [&] {
            w.x = x;
            w.q = q;
            w.v = v;
            w.omega = omega;
            const long before = allocations.load();
            counting = true;
            fresh.step(w.view(), w.contacts().data(), w.contacts().size(), w.dt);
            counting = false;
            return allocations.load() - before;
        };
        const long first = step();
        long again = 0;
        for (int i = 0; i < 10; ++i) again += step();
        std::printf("%s, warm-up step: %ld allocations; the same step 10 times more: %ld\n", name, first, again);
        ok = ok && first > 0 && again == 0;  // the first step does size its storage: the counter works
    }
    return ok;
}

}  // namespace

int main()
{
    bool ok = check<double, 2>("2D double, 300 circles", 300, 8.0);
    ok = check<float, 3>("3D float, 300 spheres", 300, 3.0f) && ok;
    std::printf("%s\n", ok ? "ok: no allocation inside a step after warm-up" : "FAILED");
    return ok ? 0 : 1;
}
