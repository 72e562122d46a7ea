// SPDX-License-Identifier: MIT
// The same bits everywhere: three scenes stepped with default settings on one thread, their final
// state (every pose and velocity, bit for bit) hashed and compared with a pinned hash. This program
// is compiled with -ffp-contract=off (tests/scenes/CMakeLists.txt), so that no compiler may fuse a
// multiply and an add where another does not; under that flag every build of the project's presets
// (GCC and Clang, Debug, Release, ASan+UBSan, C++17 and C++20, x86-64 from SSE2 up to AVX2 without
// FMA) must compute the same numbers: IEEE 754 arithmetic in the order the source gives, a correctly
// rounded sqrt. Not claimed: builds with FMA instructions (-mfma, or a -march that has them). Eigen
// 3.4 then fuses some multiply-adds itself, whatever -ffp-contract says (its scalar pmadd for float
// and double is an FMA instruction when EIGEN_VECTORIZE_FMA is defined; objdump shows fused
// instructions in the 3D double solver's velocity integration, and once showed them in the narrow
// phase's code even with EIGEN_DONT_VECTORIZE), and GCC 12's vectorizer fuses a complex product
// written as c a - s b (kinematics.hpp's Rot2 avoids that form). Measured with GCC 12, Release,
// -mavx2 -mfma: the three pins below hold (the double pyramid's did not before Rot2 changed its form).
//
// What the pins are: the hashes this code gave when they were pinned (GCC 12 and Clang 14; Debug,
// -O2, -O3 and ASan+UBSan; C++17 and C++20; -mavx2: all equal). They are not a claim that the numbers are right (the other tests
// check the physics); they are the claim that the numbers are the same across compilers, flags and
// machines, and the alarm when a change alters the arithmetic of a step. A change that alters it on
// purpose updates the pins and says so in its commit message. The scenes are those of
// test_threads.cpp (small_scenes.hpp).
//
// With colouring each scene runs twice, with the wide rows (settings.wide, the default) and
// without: the contacts of a colour share no movable body, so solving them W at a time is the same
// arithmetic as one at a time, and both must give the one pinned hash, whatever W the build's
// vector unit has (SSE2 4 floats or 2 doubles, AVX2 8 or 4).
#include <cstdint>
#include <cstdio>

#include "catch.hpp"
#include "small_scenes.hpp"

namespace {

/// FNV-1a, 64 bits, over bytes.
struct Fnv {
    std::uint64_t h{0xcbf29ce484222325ull};
    void put(const void* p, std::size_t n)
    {
        const auto* b = static_cast<const unsigned char*>(p);
        for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
    }
};

/// The hash of every pose and velocity of w, bit for bit.
template <class S, int D>
std::uint64_t state_hash(const scenes::World<S, D>& w)
{
    const std::vector<unsigned char> bytes = small_scenes::state(w);
    Fnv f;
    f.put(bytes.data(), bytes.size());
    return f.h;
}

/// How a scene's contacts are solved.
enum class Mode { given_order, colours, wide_colours };

template <class S, int D, class Build>
std::uint64_t run(Build&& build, int steps, Mode mode)
{
    scenes::World<S, D> w;
    build(w);
    w.solver.settings.colouring = mode != Mode::given_order;
    w.solver.settings.wide = mode == Mode::wide_colours;
    for (int i = 0; i < steps; ++i) w.step();
    const std::uint64_t h = state_hash(w);
    std::printf("state hash %016llx (mode %d, %d lanes)\n", static_cast<unsigned long long>(h), int(mode),
                impulse::Solver<S, D>::wide_lanes);
    return h;
}

}  // namespace

TEST_CASE("golden: a 2D pit of 600 balls after one second has the pinned state hash", "[scenes][golden]")
{
    CHECK(run<float, 2>(small_scenes::pit, 60, Mode::given_order) == 0xbdd95142a7b3a085ull);
    CHECK(run<float, 2>(small_scenes::pit, 60, Mode::colours) == 0x7a85939d61edcb8cull);
    CHECK(run<float, 2>(small_scenes::pit, 60, Mode::wide_colours) == 0x7a85939d61edcb8cull);
}

TEST_CASE("golden: a 2D box pyramid of base 20 after half a second has the pinned state hash", "[scenes][golden]")
{
    CHECK(run<double, 2>(small_scenes::pyramid, 30, Mode::given_order) == 0x25cc57d08dc40584ull);
    CHECK(run<double, 2>(small_scenes::pyramid, 30, Mode::colours) == 0xe2444c9fcd4ce5efull);
    CHECK(run<double, 2>(small_scenes::pyramid, 30, Mode::wide_colours) == 0xe2444c9fcd4ce5efull);
}

TEST_CASE("golden: a 3D pit of 300 cubes after one second has the pinned state hash", "[scenes][golden]")
{
    CHECK(run<float, 3>(small_scenes::cubes, 60, Mode::given_order) == 0x5e5cefc35bbc5ecbull);
    CHECK(run<float, 3>(small_scenes::cubes, 60, Mode::colours) == 0xf741830d5672613bull);
    CHECK(run<float, 3>(small_scenes::cubes, 60, Mode::wide_colours) == 0xf741830d5672613bull);
}
