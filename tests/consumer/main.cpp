// SPDX-License-Identifier: MIT
// The one source of the three consumer projects (find_package, add_subdirectory, FetchContent):
// if this builds and exits 0, a user's project can use impulse::impulse that way.
#include <impulse/impulse.hpp>

#include <cmath>
#include <cstdio>

int main()
{
    using V = impulse::Vec<double, 2>;
    // Head-on: A moves right at 3 (inverse mass 0.5), B left at 1 (inverse mass 1), n from A
    // to B along +x, e = 1. vn = (vB - vA).n = -4, so jn = -(1 + e) vn / (wA + wB) = 8 / 1.5.
    const double jn = impulse::normal_impulse(V(3.0, 0.0), 0.5, V(-1.0, 0.0), 1.0, V(1.0, 0.0), 1.0);
    const double expected = 16.0 / 3.0;
    if (std::abs(jn - expected) > 1e-12) {
        std::printf("impulse consumer: jn = %.17g, expected %.17g\n", jn, expected);
        return 1;
    }
    std::printf("impulse consumer: jn = %.17g (ok)\n", jn);
    return 0;
}
