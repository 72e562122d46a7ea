// SPDX-License-Identifier: MIT
// Compiled with -fno-exceptions -fno-rtti (target impulse_noexcept_check, built with `all`):
// engines that turn both off must be able to use the whole library. Templates are only checked
// when instantiated, so every public entry point is instantiated for both scalars and dimensions.
#include <impulse/impulse.hpp>

namespace {

template <class S, int D>
S use_everything() noexcept
{
    using V = impulse::Vec<S, D>;
    const V n = V::UnitX();
    V a = V::UnitX(), b = V::Zero();
    const impulse::Material<S> m;
    const impulse::Coefficients<S> coefficients = impulse::mix(m, m);
    S sum = impulse::normal_impulse(a, S(1), b, S(1), n, S(0.5));
    sum += impulse::friction_impulse(a, S(1), b, S(1), n, S(1), coefficients.friction).jt;
    sum += impulse::resolve(a, S(1), b, S(1), n, coefficients).jn;
    impulse::apply_impulse(a, S(1), b, S(1), n);
    sum += impulse::positional_correction(S(1), S(1), n, S(0.5)).dB.sum();
    if (const auto c = impulse::collide_spheres(a, S(1), b, S(1))) sum += c->penetration;
    if (const auto c = impulse::collide_sphere_plane(a, S(1), n, S(0))) sum += c->penetration;
    S total = S(0);
    sum += impulse::accumulate(total, S(1), S(0), S(2));
    return sum;
}

// The library is documented as noexcept; keep it so.
template <class S, int D>
struct AllNoexcept {
    using V = impulse::Vec<S, D>;
    static V& v;
    static const impulse::Coefficients<S>& coefficients;
    static constexpr bool value = noexcept(impulse::normal_impulse(v, S(1), v, S(1), v, S(0.5))) &&
           noexcept(impulse::friction_impulse(v, S(1), v, S(1), v, S(1), coefficients.friction)) &&
           noexcept(impulse::resolve(v, S(1), v, S(1), v, coefficients)) &&
           noexcept(impulse::positional_correction(S(1), S(1), v, S(0.5))) &&
           noexcept(impulse::collide_spheres(v, S(1), v, S(1)));
};
static_assert(AllNoexcept<float, 2>::value && AllNoexcept<double, 3>::value, "impulse's API must be noexcept");

}  // namespace

// Referenced from outside the TU so nothing above is discarded before it is compiled.
double impulse_noexcept_check() noexcept
{
    return double(use_everything<float, 2>() + use_everything<float, 3>()) + use_everything<double, 2>() +
           use_everything<double, 3>();
}
