// SPDX-License-Identifier: MIT
// Drawing the scenes: filled discs on the examples' canvas (common/png.hpp), a world-to-pixel
// view, colour ramps, panels side by side, and a 2D world's bodies as outlines.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "png.hpp"
#include "scenes/world.hpp"

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

/// The region of the world a panel shows, metres.
struct Region {
    double x0, y0, x1, y1;
};

/// The line between two points in metres, the part inside region r, through a view (Liang and
/// Barsky's clipping: the parameter range of a + t (b - a) inside each of the four half-planes).
inline void segment(gfx::Canvas& c, const View& v, const Region& r, double xa, double ya, double xb, double yb, gfx::Rgb col)
{
    const double dx = xb - xa, dy = yb - ya;
    double t0 = 0, t1 = 1;
    const double p[4] = {-dx, dx, -dy, dy}, q[4] = {xa - r.x0, r.x1 - xa, ya - r.y0, r.y1 - ya};
    for (int k = 0; k < 4; ++k) {
        if (p[k] == 0) {
            if (q[k] < 0) return;  // parallel to this edge and outside it
            continue;
        }
        const double t = q[k] / p[k];
        if (p[k] < 0) t0 = std::max(t0, t);
        else t1 = std::min(t1, t);
        if (t0 > t1) return;
    }
    c.line(int(std::lround(v.px(xa + t0 * dx))), int(std::lround(v.py(ya + t0 * dy))), int(std::lround(v.px(xa + t1 * dx))),
           int(std::lround(v.py(ya + t1 * dy))), col);
}

/// Panels side by side, one per region, all at `scale` pixels per metre, `gap` pixels around each:
/// the canvas and the view of each panel.
struct Layout {
    gfx::Canvas canvas;
    std::vector<View> views;
};

inline Layout layout(const std::vector<Region>& regions, double scale, gfx::Rgb background, int gap = 16)
{
    int width = gap, height = 0;
    for (const Region& r : regions) {
        width += int(std::ceil((r.x1 - r.x0) * scale)) + gap;
        height = std::max(height, int(std::ceil((r.y1 - r.y0) * scale)) + 2 * gap);
    }
    Layout out{gfx::Canvas(width, height, background), {}};
    int left = gap;
    for (const Region& r : regions) {
        View v;
        v.x0 = r.x0;
        v.y0 = r.y0;
        v.scale = scale;
        v.left = left;
        v.height = height - gap;
        out.views.push_back(v);
        left += int(std::ceil((r.x1 - r.x0) * scale)) + gap;
    }
    return out;
}

/// The bodies of a 2D world in the panel of region r: walls (planes) as lines and static polygons
/// as outlines, two pixels thick, in `fixed`; each movable polygon as its outline and each ball as a
/// circle, in colour(i) for body i. Everything is clipped to the region.
template <class S, class Colour>
void bodies(gfx::Canvas& c, const View& v, const Region& r, const scenes::World<S, 2>& w, gfx::Rgb fixed, Colour&& colour)
{
    const double pixel = 1 / v.scale;
    for (std::size_t i = 0; i < w.body_count(); ++i) {
        const bool movable = i >= w.first_ball();
        const gfx::Rgb col = movable ? colour(i) : fixed;
        if (w.polygon[i] >= 0) {
            const impulse::Polygon<S>& p = w.polygons[std::size_t(w.polygon[i])];
            for (int k = 0; k < p.count; ++k) {
                const impulse::Vec<S, 2> a = w.x[i] + w.q[i].rotate(p.vertices[k]);
                const impulse::Vec<S, 2> b = w.x[i] + w.q[i].rotate(p.vertices[k + 1 < p.count ? k + 1 : 0]);
                for (int t = 0; t < (movable ? 1 : 2); ++t)
                    segment(c, v, r, double(a.x()), double(a.y()) - t * pixel, double(b.x()), double(b.y()) - t * pixel, col);
            }
        } else if (i < w.walls.size()) {
            const impulse::Plane<S, 2>& p = w.walls[i];
            const double nx = double(p.normal.x()), ny = double(p.normal.y()), d = double(p.offset);
            const double reach = 1000;  // metres along the plane each way: across any panel (then clipped)
            for (int t = 0; t < 2; ++t) {
                const double o = d - t * pixel;  // the second line behind the first, in the solid
                segment(c, v, r, nx * o + ny * reach, ny * o - nx * reach, nx * o - ny * reach, ny * o + nx * reach, col);
            }
        } else if (movable) {
            ring(c, v.px(double(w.x[i].x())), v.py(double(w.x[i].y())), double(w.radius[i]) * v.scale, col);
        }
    }
}

inline constexpr gfx::Rgb paper{250, 248, 242};  ///< background
inline constexpr gfx::Rgb ghost{190, 200, 215};  ///< where bodies started (outlines)
inline constexpr gfx::Rgb ink{40, 50, 80};       ///< a body at rest (outlines)
inline constexpr gfx::Rgb wall{90, 90, 96};      ///< walls and floors
inline constexpr gfx::Rgb rest{150, 150, 160};   ///< a ball at rest
inline constexpr gfx::Rgb hot{220, 60, 40};      ///< a ball at full speed

/// A scene of the suite in one panel: `start` as pale outlines, then `now`, each movable body in
/// `hot` if any of its points moves faster than `moving` m/s (|v| + |omega| r), else in `ink`.
template <class S>
void scene(gfx::Canvas& c, const View& v, const Region& r, const scenes::World<S, 2>& start, const scenes::World<S, 2>& now,
           double moving = 0.01)
{
    bodies(c, v, r, start, ghost, [](std::size_t) { return ghost; });
    bodies(c, v, r, now, wall, [&](std::size_t i) {
        const double speed = double(now.v[i].norm() + std::abs(now.omega[i]) * now.radius[i]);
        return speed > moving ? hot : ink;
    });
}

}  // namespace scenes::draw
