// SPDX-License-Identifier: MIT
// The parts of a solver step the benchmarks report, as impulse's SolverProfile names them (Box2D
// v3's b2Profile is mapped onto the same parts in box2d3.cpp): shared by bench/solver.cpp (2D) and
// bench/solver3d.cpp (3D).
#pragma once

#include <impulse/solver.hpp>

namespace bench {

inline constexpr int part_count = 8;
inline constexpr const char* part_names[part_count] = {"bodies", "colour", "prepare",     "warm start",
                                                       "solve",  "relax",  "restitution", "store"};

/// impulse's last step (Solver::profile, seconds) in the parts of `part_names`.
inline void profile_parts(const impulse::SolverProfile& p, double (&out)[part_count])
{
    const double in[part_count] = {p.bodies, p.colour, p.prepare, p.warm_start, p.solve, p.relax, p.restitution, p.store};
    for (int k = 0; k < part_count; ++k) out[k] = in[k];
}

}  // namespace bench
