// SPDX-License-Identifier: MIT
// material.hpp: combine rules, their priority, and the pair coefficients mixed from two materials.
#include "catch.hpp"
#include "common.hpp"

using impulse::Combine;

TEST_CASE("geometric mean, not average: mu 0.9 and 0.1 mix to 0.3", "[material]")
{
    // sqrt(0.9 * 0.1) = sqrt(0.09) = 0.3; the average would be 0.5.
    CHECK(impulse::combine(0.9, 0.1, Combine::geometric_mean) == Approx(0.3));
    CHECK(impulse::combine(0.9, 0.1, Combine::average) == Approx(0.5));
    CHECK(impulse::combine(0.9f, 0.1f, Combine::geometric_mean) == Approx(0.3f));
}

TEST_CASE("ice stays frictionless under the default rule", "[material]")
{
    // sqrt(0 * mu) = 0 for any mu: a surface painted as ice never grips.
    for (double mu : {0.0, 0.1, 0.9, 5.0}) CHECK(impulse::combine(0.0, mu, Combine::geometric_mean) == 0.0);
    impulse::Material<double> ice, rubber;
    ice.static_friction = ice.dynamic_friction = 0.0;
    rubber.static_friction = 1.0;
    rubber.dynamic_friction = 0.8;
    const auto coefficients = impulse::mix(ice, rubber);
    CHECK(coefficients.friction.mu_s == 0.0);
    CHECK(coefficients.friction.mu_k == 0.0);
}

TEST_CASE("every combine rule computes its formula", "[material]")
{
    // a = 0.25, b = 0.75: average 0.5, min 0.25, multiply 0.1875, max 0.75, sqrt(0.1875).
    CHECK(impulse::combine(0.25, 0.75, Combine::average) == 0.5);
    CHECK(impulse::combine(0.25, 0.75, Combine::min) == 0.25);
    CHECK(impulse::combine(0.25, 0.75, Combine::multiply) == 0.1875);
    CHECK(impulse::combine(0.25, 0.75, Combine::max) == 0.75);
    CHECK(impulse::combine(0.25, 0.75, Combine::geometric_mean) == Approx(std::sqrt(0.1875)));
    // Every rule is symmetric in its two arguments.
    for (Combine r : {Combine::geometric_mean, Combine::average, Combine::min, Combine::multiply, Combine::max})
        CHECK(impulse::combine(0.25, 0.75, r) == impulse::combine(0.75, 0.25, r));
}

TEST_CASE("when two materials ask for different rules the higher priority wins", "[material]")
{
    // PhysX's order average < min < multiply < max, with the default geometric mean lowest.
    const Combine order[] = {Combine::geometric_mean, Combine::average, Combine::min, Combine::multiply,
                             Combine::max};
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j) {
            const Combine want = order[i > j ? i : j];
            CHECK(impulse::combine_rule(order[i], order[j]) == want);
        }
    impulse::Material<double> a, b;
    a.static_friction = 0.2;
    b.static_friction = 0.8;
    a.friction_combine = Combine::max;  // b keeps the default geometric mean
    a.restitution = 0.1;
    b.restitution = 0.9;
    b.restitution_combine = Combine::average;  // min (a's default) outranks average
    const auto coefficients = impulse::mix(a, b);
    CHECK(coefficients.friction.mu_s == 0.8);      // max(0.2, 0.8)
    CHECK(coefficients.friction.mu_k == 0.4);      // max(0.4, 0.4), both default dynamic friction
    CHECK(coefficients.restitution == 0.1);        // min(0.1, 0.9)
}

TEST_CASE("default materials mix to the seed's coefficients", "[material]")
{
    // Seed lesson defaults: static 0.6, dynamic 0.4; sqrt(0.6*0.6) = 0.6, sqrt(0.4*0.4) = 0.4;
    // restitution min(0, 0) = 0. The threshold passes through unchanged.
    const impulse::Material<float> m;
    const auto coefficients = impulse::mix(m, m, 0.5f);
    CHECK(coefficients.friction.mu_s == Approx(0.6f));
    CHECK(coefficients.friction.mu_k == Approx(0.4f));
    CHECK(coefficients.restitution == 0.0f);
    CHECK(coefficients.threshold == 0.5f);
}

TEST_CASE("one friction coefficient means static and kinetic alike", "[material]")
{
    const impulse::Friction<double> f = 0.35;
    CHECK(f.mu_s == 0.35);
    CHECK(f.mu_k == 0.35);
    const impulse::Friction<double> g(0.6, 0.4);
    CHECK(g.mu_s == 0.6);
    CHECK(g.mu_k == 0.4);
}
