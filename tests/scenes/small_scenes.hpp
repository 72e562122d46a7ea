// SPDX-License-Identifier: MIT
// The small scenes that the threads test and the golden test both step: a pile of balls forming, a
// box pyramid, a pit of cubes (all contact kinds, 2D and 3D, float and double).
#pragma once

#include <vector>

#include "scenes/scenes.hpp"
#include "scenes/scenes3d.hpp"

namespace small_scenes {

/// 600 balls stacked in layers over a 12 m box, dropped: a pile forms in the first second, with
/// every contact kind of the pit (floor, walls, ball on ball, restitution, rolling resistance).
inline void pit(scenes::World<float, 2>& w)
{
    scenes::PitSpec<float> p;
    p.count = 600;
    p.width = 12;
    scenes::build_box<float, 2>(w, p);
    for (const auto& b : scenes::stacked_layers<float, 2>(p)) w.add_ball(b.x, b.r, p.density);
}

/// A box pyramid of base 20 (210 boxes: two-point manifolds and friction), double.
inline void pyramid(scenes::World<double, 2>& w) { scenes::build_box_pyramid(w, 20); }

/// 300 cubes dropped into a 6 m pit: four-point manifolds, rotation about three axes and the
/// gyroscopic step, float.
inline void cubes(scenes::World<float, 3>& w) { scenes::build_cube_pit(w, 300, 6.0f); }

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

}  // namespace small_scenes
