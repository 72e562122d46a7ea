// SPDX-License-Identifier: MIT
// IMPULSE_ASSERT can be routed into an engine's own handler, and the contract checks fire on the
// violations they name. Built as its own executable: it defines IMPULSE_ASSERT differently from
// the other test files, and one program must not see two definitions of the same inline function.
#include <cmath>
#include <string>
#include <vector>

namespace hook {
std::vector<std::string> fired;  // messages of the checks that failed, in order
inline void record(const char* msg) { fired.emplace_back(msg); }
}  // namespace hook

// An engine-style handler: log and carry on (no abort, no exception: the library is noexcept).
#define IMPULSE_ASSERT(cond, msg) ((cond) ? (void)0 : ::hook::record(msg))

#include <impulse/impulse.hpp>

#include "catch.hpp"

namespace {
bool fired_with(const char* needle)
{
    for (const std::string& m : hook::fired)
        if (m.find(needle) != std::string::npos) return true;
    return false;
}
}  // namespace

TEST_CASE("a valid contact passes every check", "[assert]")
{
    hook::fired.clear();
    impulse::Vec2d a(1, 0), b(-1, 0);
    impulse::Coefficients<double> coefficients;
    coefficients.restitution = 0.5;
    coefficients.friction = impulse::Friction<double>(0.6, 0.4);
    impulse::resolve(a, 1.0, b, 1.0, impulse::Vec2d(1, 0), coefficients);
    impulse::positional_correction(1.0, 1.0, impulse::Vec2d(1, 0), 0.2);
    impulse::collide_spheres(impulse::Vec2d(0, 0), 1.0, impulse::Vec2d(1, 0), 1.0);
    CHECK(hook::fired.empty());
}

TEST_CASE("contract violations reach the overridden handler", "[assert]")
{
    impulse::Vec2d a(1, 0), b(-1, 0);
    impulse::Coefficients<double> coefficients;

    hook::fired.clear();
    impulse::resolve(a, 1.0, b, 1.0, impulse::Vec2d(2, 0), coefficients);  // not a unit normal
    CHECK(fired_with("unit vector"));

    hook::fired.clear();
    a = impulse::Vec2d(1, 0), b = impulse::Vec2d(-1, 0);
    impulse::resolve(a, -1.0, b, 1.0, impulse::Vec2d(1, 0), coefficients);  // negative inverse mass
    CHECK(fired_with("inverse mass"));

    hook::fired.clear();
    a = impulse::Vec2d(1, 0), b = impulse::Vec2d(-1, 0);
    coefficients.restitution = 1.5;  // e outside [0, 1]
    impulse::resolve(a, 1.0, b, 1.0, impulse::Vec2d(1, 0), coefficients);
    CHECK(fired_with("restitution"));

    hook::fired.clear();
    a = impulse::Vec2d(1, 1), b = impulse::Vec2d(-1, 0);
    coefficients.restitution = 0.0;
    coefficients.friction = -0.5;  // negative mu
    impulse::resolve(a, 1.0, b, 1.0, impulse::Vec2d(1, 0), coefficients);
    CHECK(fired_with("friction"));

    hook::fired.clear();
    impulse::Material<double> m;
    m.static_friction = -1.0;
    impulse::mix(m, m);
    CHECK(fired_with("friction"));

    hook::fired.clear();
    impulse::collide_spheres(impulse::Vec2d(0, 0), -1.0, impulse::Vec2d(1, 0), 1.0);  // negative radius
    CHECK(fired_with("radi"));
}

TEST_CASE("a hull of points on one line is a contract violation, and without asserts a finite segment",
          "[assert]")
{
    using V = impulse::Vec2d;
    hook::fired.clear();
    const V square[4] = {V(0, 0), V(1, 0), V(1, 1), V(0, 1)};
    impulse::make_polygon(square, 4);
    CHECK(hook::fired.empty());

    // Three points on the x axis: the hull has 2 points; the handler returns, and the result is the
    // segment between the extremes (0, 0) and (2, 0).
    const V line[3] = {V(0, 0), V(2, 0), V(1, 0)};
    const auto seg = impulse::make_polygon(line, 3);
    CHECK(fired_with("not on one line"));
    REQUIRE(seg.count == 2);
    CHECK(seg.vertices[0] == V(0, 0));
    CHECK(seg.vertices[1] == V(2, 0));

    // All points coincident: a segment of length 0, whose normals fall back to -y and +y.
    hook::fired.clear();
    const V same[2] = {V(1, 1), V(1, 1)};
    const auto dot = impulse::make_polygon(same, 2);
    CHECK(fired_with("not on one line"));
    REQUIRE(dot.count == 2);
    CHECK(dot.normals[0] == V(0, -1));
    CHECK(dot.normals[1] == V(0, 1));

    // Either of them against a box, anywhere near it: finite manifolds.
    const auto box = impulse::make_box(0.5, 0.5);
    for (const auto* shape : {&seg, &dot}) {
        for (int i = 0; i < 25; ++i) {
            impulse::Pose<double, 2> pa, pb;
            pb.p = V(-2 + (i % 5), -2 + (i / 5));
            for (const auto& m : {impulse::collide_polygons(box, pa, *shape, pb),
                                  impulse::collide_polygons(*shape, pb, box, pa)}) {
                CHECK(std::isfinite(m.n.x()));
                CHECK(std::isfinite(m.n.y()));
                for (int k = 0; k < m.count; ++k) {
                    CHECK(std::isfinite(m.points[k].separation));
                    CHECK(std::isfinite(m.points[k].rA.norm()));
                }
            }
        }
    }
}
