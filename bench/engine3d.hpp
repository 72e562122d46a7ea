// SPDX-License-Identifier: MIT
// The 3D benchmark's scene as every engine sees it, and the interface each engine implements
// (bench/solver3d.cpp: impulse; bench/bullet/bullet.cpp: Bullet 3, in its own translation unit).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace bench3d {

/// A scene as plain data: a floor (the plane y = 0), optionally four walls (the planes x = 0,
/// x = pit, z = 0, z = pit), and dynamic boxes, all of one material.
struct Scene {
    double gravity{9.81};
    double friction{0.6};
    double density{1.0};
    double pit{0};  ///< walls round the square [0, pit] x [0, pit]; 0: none
    struct Box {
        double x, y, z;     ///< centre
        double hx, hy, hz;  ///< half extents
        double q[4];        ///< orientation at the start, quaternion x, y, z, w
    };
    std::vector<Box> boxes;
};

/// A body's pose and velocity as an engine reports it.
struct BodyState {
    double x[3];     ///< centre
    double q[4];     ///< orientation, quaternion x, y, z, w
    double v[3];     ///< velocity
};

/// One engine running one scene.
class Engine {
public:
    virtual ~Engine() = default;
    /// One step of 1/60 s; returns the seconds its solver phase took.
    virtual double step() = 0;
    /// The boxes' states, in the order of the scene.
    virtual void state(std::vector<BodyState>& out) const = 0;
};

/// Bullet, where it was built in (null otherwise), and its name and version ("" otherwise).
std::unique_ptr<Engine> make_bullet(const Scene& s);
std::string bullet_version();

}  // namespace bench3d
