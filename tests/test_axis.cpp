// SPDX-License-Identifier: MIT
// axis.hpp: the one-axis building blocks shared by every responder and the solver.
#include <string>

#include "catch.hpp"
#include "common.hpp"

using impulse::Regime;

TEST_CASE("bounce impulse along one axis", "[axis]")
{
    // vn = -4, k = 1.5, e = 1: jn = -(2)(-4)/1.5 = 16/3; after: vn + k*jn = -4 + 8 = 4 = -e*vn.
    CHECK(impulse::bounce_impulse(-4.0, 1.5, 1.0) == Approx(16.0 / 3));
    CHECK(-4.0 + 1.5 * impulse::bounce_impulse(-4.0, 1.5, 1.0) == Approx(4.0));
    CHECK(impulse::bounce_impulse(0.0, 1.5, 1.0) == 0.0);   // resting
    CHECK(impulse::bounce_impulse(2.0, 1.5, 1.0) == 0.0);   // separating
    CHECK(impulse::bounce_impulse(-4.0, 0.0, 1.0) == 0.0);  // immovable: no division
}

TEST_CASE("restitution drops to zero at or below the threshold approach speed", "[axis]")
{
    CHECK(impulse::effective_restitution(0.8, -2.0, 1.0) == 0.8);  // approach 2 > 1
    CHECK(impulse::effective_restitution(0.8, -1.0, 1.0) == 0.0);  // approach 1, not above 1
    CHECK(impulse::effective_restitution(0.8, -0.5, 1.0) == 0.0);
    CHECK(impulse::effective_restitution(0.8, -1e-9, 0.0) == 0.8);  // threshold 0: textbook
}

TEST_CASE("Coulomb clamp: stick inside the band, slide at its edge with the wanted sign", "[axis]")
{
    // jn = 4, mu = 0.5: band [-2, 2].
    auto c = impulse::coulomb(1.5, 4.0, impulse::Friction<double>(0.5));
    CHECK(c.regime == Regime::sticking);
    CHECK(c.j == 1.5);
    c = impulse::coulomb(-2.0, 4.0, impulse::Friction<double>(0.5));  // on the edge: still sticks
    CHECK(c.regime == Regime::sticking);
    CHECK(c.j == -2.0);
    c = impulse::coulomb(6.0, 4.0, impulse::Friction<double>(0.5));
    CHECK(c.regime == Regime::sliding);
    CHECK(c.j == 2.0);
    c = impulse::coulomb(-6.0, 4.0, impulse::Friction<double>(0.5));
    CHECK(c.regime == Regime::sliding);
    CHECK(c.j == -2.0);  // the clamp is [-cap, +cap], not [0, cap]
    c = impulse::coulomb(6.0, 0.0, impulse::Friction<double>(0.5));  // no normal impulse, no grip
    CHECK(c.regime == Regime::sliding);
    CHECK(c.j == 0.0);
}

TEST_CASE("accumulated clamping applies only the change of the clamped total", "[axis]")
{
    // box2d-lite: total 3, lambda -5 would make -2; clamped to 0 the applied change is -3.
    double total = 3.0;
    CHECK(impulse::accumulate(total, -5.0, 0.0, 1e300) == -3.0);
    CHECK(total == 0.0);
    // Friction band [-1, 1]: total 0.5 + 2 -> 1, change 0.5; then -0.25 -> 0.75, change -0.25.
    total = 0.5;
    CHECK(impulse::accumulate(total, 2.0, -1.0, 1.0) == 0.5);
    CHECK(impulse::accumulate(total, -0.25, -1.0, 1.0) == -0.25);
    CHECK(total == 0.75);
}

TEST_CASE("regimes have the names the tool prints", "[axis]")
{
    CHECK(std::string(impulse::to_string(Regime::separating)) == "separating");
    CHECK(std::string(impulse::to_string(Regime::sticking)) == "sticking");
    CHECK(std::string(impulse::to_string(Regime::sliding)) == "sliding");
    CHECK(std::string(impulse::to_string(Regime::immovable)) == "immovable");
}
