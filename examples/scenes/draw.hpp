// SPDX-License-Identifier: MIT
// Drawing the scenes: filled discs on the examples' canvas (common/png.hpp), a world-to-pixel
// view, colour ramps, and panels side by side.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "png.hpp"

namespace scenes::draw {

/// Maps world coordinates (metres, y up) to pixels (y down): `scale` pixels per metre, the world
/// point (x0, y0) at the panel's bottom-left corner, the panel starting at pixel column `left`.
struct View {
    double x0{0}, y0{0}, scale{20};
    int left{0}, height{100};

    double px(double x) const { return double(left) + (x - x0) * scale; }
    double py(double y) const { return double(height) - (y - y0) * scale; }
};

/// Blends two colours: t = 0 gives a, t = 1 gives b.
inline gfx::Rgb mix(gfx::Rgb a, gfx::Rgb b, double t)
{
    t = std::clamp(t, 0.0, 1.0);
    auto c = [t](std::uint8_t p, std::uint8_t q) { return std::uint8_t(std::lround(p + (q - p) * t)); };
    return {c(a.r, b.r), c(a.g, b.g), c(a.b, b.b)};
}

/// A ramp from deep blue through teal and green to yellow, t in [0, 1].
inline gfx::Rgb ramp(double t)
{
    static const gfx::Rgb stops[] = {{48, 18, 120}, {33, 110, 150}, {40, 170, 120}, {160, 210, 60}, {250, 230, 40}};
    t = std::clamp(t, 0.0, 1.0) * 4.0;
    const int i = std::min(3, int(t));
    return mix(stops[i], stops[i + 1], t - i);
}

/// A filled disc of radius r pixels centred at (cx, cy), with a one-pixel darker rim.
inline void disc(gfx::Canvas& c, double cx, double cy, double r, gfx::Rgb fill)
{
    const gfx::Rgb rim = mix(fill, gfx::black, 0.55);
    const int y0 = int(std::floor(cy - r)), y1 = int(std::ceil(cy + r));
    for (int y = y0; y <= y1; ++y) {
        const double dy = y + 0.5 - cy;
        if (dy * dy > r * r) continue;
        const double half = std::sqrt(r * r - dy * dy);
        const int x0 = int(std::floor(cx - half)), x1 = int(std::ceil(cx + half));
        for (int x = x0; x <= x1; ++x) {
            const double dx = x + 0.5 - cx;
            const double d2 = dx * dx + dy * dy;
            if (d2 > r * r) continue;
            c.set(x, y, d2 > (r - 1.2) * (r - 1.2) ? rim : fill);
        }
    }
}

/// A one-pixel circle outline.
inline void ring(gfx::Canvas& c, double cx, double cy, double r, gfx::Rgb col)
{
    const int steps = std::max(16, int(8 * r));
    for (int i = 0; i < steps; ++i) {
        const double a = 2 * 3.14159265358979 * i / steps;
        c.set(int(std::floor(cx + r * std::cos(a))), int(std::floor(cy + r * std::sin(a))), col);
    }
}

/// A filled rectangle, pixel corners included.
inline void rect(gfx::Canvas& c, int x0, int y0, int x1, int y1, gfx::Rgb col)
{
    for (int y = std::min(y0, y1); y <= std::max(y0, y1); ++y)
        for (int x = std::min(x0, x1); x <= std::max(x0, x1); ++x) c.set(x, y, col);
}

inline constexpr gfx::Rgb paper{250, 248, 242};  ///< background
inline constexpr gfx::Rgb wall{90, 90, 96};      ///< walls and floors
inline constexpr gfx::Rgb rest{150, 150, 160};   ///< a ball at rest
inline constexpr gfx::Rgb hot{220, 60, 40};      ///< a ball at full speed

}  // namespace scenes::draw
