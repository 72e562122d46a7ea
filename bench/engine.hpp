// SPDX-License-Identifier: MIT
// The benchmark's scenes as every engine sees them, and the interface each engine implements. The
// engines live in separate translation units (ballpit.cpp: impulse; box2d24.cpp: Box2D 2.4;
// box2d3.cpp: Box2D v3), because Box2D 2.4 and v3 both install <box2d/box2d.h>.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "profile.hpp"
#include "scenes/scenes.hpp"

namespace bench {

/// A scene as plain data, the same for every engine: static walls and boxes, dynamic balls and boxes.
struct Scene {
    double gravity{9.81};
    double friction{0.4};
    double restitution{0.2};
    double threshold{1.0};             ///< no bounce below this approach speed (m/s)
    double rolling_resistance{0.001};  ///< m (Box2D 2.4 has none)
    double density{1.0};
    double width{32};                  ///< the pit's inner width; walls at x = 0 and x = width, floor y = 0
    bool pit{true};                    ///< walls and floor (a pit); else a floor only
    struct Ball {
        double x, y, r;
    };
    struct Box {
        double x, y, half;  ///< a square box of half extent `half`
    };
    std::vector<Ball> balls;
    std::vector<Box> boxes;
};

/// What an engine reports of a step: the seconds its solver phase took (everything from the
/// contacts found to the new velocities and poses), and the contact points it solved.
struct StepTime {
    double seconds{0};
    std::size_t points{0};
    /// Where the time went, seconds, for the engines that say (impulse's SolverProfile, Box2D v3's
    /// b2Profile; `parts_known` false otherwise): the parts named in `part_names`.
    static constexpr int part_count = bench::part_count;
    bool parts_known{false};
    double parts[part_count]{};
};

/// One engine running one scene.
class Engine {
public:
    virtual ~Engine() = default;
    virtual void settle(int steps) = 0;
    virtual StepTime step() = 0;
    /// The dynamic bodies' positions, orientations and velocities, in the order of the scene
    /// (balls, then boxes), for the common yardstick.
    virtual void state(std::vector<double>& x, std::vector<double>& y, std::vector<double>& angle,
                       std::vector<double>& vx, std::vector<double>& vy) const = 0;
};

/// The other engines, where they were built in (null otherwise).
std::unique_ptr<Engine> make_box2d24(const Scene& s);
/// Box2D v3 on `workers` threads (its own scheduler when more than one).
std::unique_ptr<Engine> make_box2d3(const Scene& s, int workers = 1);
/// Their names and versions, or "" where not built in.
std::string box2d24_version();
std::string box2d3_version();

}  // namespace bench
