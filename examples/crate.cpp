// SPDX-License-Identifier: MIT
// The seed lesson's worked friction trace, computed by the library and printed.
//
// A crate (mass 2, body B) lands on a static floor (body A, inverse mass 0) with n = (0, 1), so the
// tangent is t = (-1, 0). After the normal impulse (jn = 4) the crate moves at (3, 0). Both surfaces
// have mu = 0.5. The lesson's answer: vt = -3, jt_want = 6 > cap = 2, so it slides with jt = +2 and
// ends at (2, 0): its sliding speed falls from 3 to 2 but not to 0.
#include <cstdio>

#include <impulse/impulse.hpp>

int main()
{
    using impulse::Vec2d;
    Vec2d floor_v(0.0, 0.0);
    Vec2d crate_v(3.0, 0.0);
    const double w_floor = 0.0;
    const double w_crate = 1.0 / 2.0;
    const Vec2d n(0.0, 1.0);
    const double jn = 4.0;
    const double mu = impulse::combine(0.5, 0.5, impulse::Combine::geometric_mean);

    const Vec2d t = impulse::tangent(n);
    const double vt = (crate_v - floor_v).dot(t);
    const auto f = impulse::friction_impulse(floor_v, w_floor, crate_v, w_crate, n, jn, mu);
    impulse::apply_impulse(floor_v, w_floor, crate_v, w_crate, f.J);

    std::printf("crate trace (seed: Coulomb friction lesson)\n");
    std::printf("  n = (%g, %g), t = (%g, %g)\n", n.x(), n.y(), t.x(), t.y());
    std::printf("  vt = %g, jt_want = %g, cap = mu*jn = %g\n", vt, -vt / (w_floor + w_crate), mu * jn);
    std::printf("  jt = %+g (%s), friction impulse on the crate = (%g, %g)\n", f.jt,
                impulse::to_string(f.regime), f.J.x(), f.J.y());
    std::printf("  crate velocity after friction = (%g, %g)   [lesson: (2, 0), sliding]\n",
                crate_v.x(), crate_v.y());
    return 0;
}
