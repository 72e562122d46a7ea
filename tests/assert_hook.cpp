// SPDX-License-Identifier: MIT
// IMPULSE_ASSERT can be routed into an engine's own handler, and the contract checks fire on the
// violations they name. Built as its own executable: it defines IMPULSE_ASSERT differently from
// the other test files, and one program must not see two definitions of the same inline function.
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
