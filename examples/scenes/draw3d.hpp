// SPDX-License-Identifier: MIT
// Drawing the 3D scenes: an orthographic camera, boxes as shaded faces, capsules as swept discs, a
// floor, painted back to front on the examples' canvas (common/png.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Geometry>

#include "draw.hpp"
#include "png.hpp"
#include "scenes/world.hpp"

namespace scenes::draw {

/// An orthographic camera: world points to pixels along the picture's right and up axes, and a
/// depth that grows towards the viewer.
struct Camera {
    Eigen::Vector3d right = Eigen::Vector3d::UnitX(), up = Eigen::Vector3d::UnitY(), toward = Eigen::Vector3d::UnitZ();
    Eigen::Vector3d centre = Eigen::Vector3d::Zero();  ///< the world point at pixel (cx, cy)
    double scale{20}, cx{0}, cy{0};                    ///< pixels per metre; where `centre` is drawn

    /// Looking from the direction (yaw about y, then pitch above the horizon), radians.
    static Camera looking(double yaw, double pitch, double scale, const Eigen::Vector3d& centre, double cx, double cy)
    {
        Camera c;
        c.toward = Eigen::Vector3d(std::sin(yaw) * std::cos(pitch), std::sin(pitch), std::cos(yaw) * std::cos(pitch));
        c.right = Eigen::Vector3d::UnitY().cross(c.toward).normalized();
        c.up = c.toward.cross(c.right);
        c.scale = scale;
        c.centre = centre;
        c.cx = cx;
        c.cy = cy;
        return c;
    }
    double px(const Eigen::Vector3d& p) const { return cx + (p - centre).dot(right) * scale; }
    double py(const Eigen::Vector3d& p) const { return cy - (p - centre).dot(up) * scale; }
    double depth(const Eigen::Vector3d& p) const { return (p - centre).dot(toward); }
};

/// A filled convex polygon of n pixel-space vertices (scanlines between its lowest and highest y).
inline void fill_convex(gfx::Canvas& c, const double* xs, const double* ys, int n, gfx::Rgb col)
{
    double lo = ys[0], hi = ys[0];
    for (int i = 1; i < n; ++i) lo = std::min(lo, ys[i]), hi = std::max(hi, ys[i]);
    for (int y = int(std::floor(lo)); y <= int(std::ceil(hi)); ++y) {
        const double yc = y + 0.5;
        double x0 = 1e30, x1 = -1e30;
        for (int i = 0; i < n; ++i) {
            const int j = (i + 1) % n;
            const double ya = ys[i], yb = ys[j];
            if ((yc < std::min(ya, yb)) || (yc > std::max(ya, yb)) || ya == yb) continue;
            const double x = xs[i] + (xs[j] - xs[i]) * (yc - ya) / (yb - ya);
            x0 = std::min(x0, x);
            x1 = std::max(x1, x);
        }
        for (int x = int(std::lround(x0)); x <= int(std::lround(x1)) - 1; ++x) c.set(x, y, col);
    }
}

/// Shapes painted back to front: quads (faces) and discs (capsules), each with a depth.
class Painter {
public:
    explicit Painter(const Camera& cam) : cam_(cam) {}
    const Camera& camera() const { return cam_; }

    /// A face with corners p[0..3] (in order round it) and outward normal n, of colour `col` shaded by
    /// the light; faces turned away from the viewer are skipped. A `ground` face is painted before
    /// everything else (floors and ramps: whatever stands on them is drawn over them).
    void face(const Eigen::Vector3d* p, const Eigen::Vector3d& n, gfx::Rgb col, bool edges = true, bool ground = false)
    {
        if (n.dot(cam_.toward) <= 0) return;
        Item it;
        it.kind = 0;
        for (int k = 0; k < 4; ++k) {
            it.x[k] = cam_.px(p[k]);
            it.y[k] = cam_.py(p[k]);
        }
        it.depth = cam_.depth(0.25 * (p[0] + p[1] + p[2] + p[3])) - (ground ? 1e9 : 0.0);
        it.col = shade(col, n);
        it.edges = edges;
        items_.push_back(it);
    }

    /// A solid box of half extents h at pose (x, q).
    void box(const Eigen::Vector3d& h, const Eigen::Vector3d& x, const Eigen::Quaterniond& q, gfx::Rgb col)
    {
        const Eigen::Matrix3d R = q.toRotationMatrix();
        for (int axis = 0; axis < 3; ++axis) {
            for (int sign = -1; sign <= 1; sign += 2) {
                const int u = (axis + 1) % 3, v = (axis + 2) % 3;
                Eigen::Vector3d p[4];
                const double su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
                for (int k = 0; k < 4; ++k) {
                    Eigen::Vector3d l = Eigen::Vector3d::Zero();
                    l[axis] = sign * h[axis];
                    l[u] = su[k] * h[u];
                    l[v] = sv[k] * h[v];
                    p[k] = x + R * l;
                }
                face(p, R.col(axis) * sign, col);
            }
        }
    }

    /// A sphere of radius r at c, as a disc.
    void ball(const Eigen::Vector3d& c, double r, gfx::Rgb col)
    {
        Item it;
        it.kind = 1;
        it.x[0] = cam_.px(c);
        it.y[0] = cam_.py(c);
        it.r = r * cam_.scale;
        it.depth = cam_.depth(c);
        it.col = col;
        items_.push_back(it);
    }

    /// A capsule: discs along its segment from c1 to c2, one every pixel or so.
    void capsule(const Eigen::Vector3d& c1, const Eigen::Vector3d& c2, double r, gfx::Rgb col)
    {
        const int n = std::max(2, int((c2 - c1).norm() * cam_.scale / 2));
        for (int k = 0; k <= n; ++k) ball(c1 + (c2 - c1) * (double(k) / n), r, col);
    }

    /// Paints everything, farthest first.
    void paint(gfx::Canvas& c)
    {
        std::stable_sort(items_.begin(), items_.end(), [](const Item& a, const Item& b) { return a.depth < b.depth; });
        for (const Item& it : items_) {
            if (it.kind == 1) {
                disc(c, it.x[0], it.y[0], it.r, it.col);
                continue;
            }
            fill_convex(c, it.x, it.y, 4, it.col);
            if (!it.edges) continue;
            const gfx::Rgb rim = mix(it.col, gfx::black, 0.45);
            for (int k = 0; k < 4; ++k) {
                const int j = (k + 1) % 4;
                c.line(int(std::lround(it.x[k])), int(std::lround(it.y[k])), int(std::lround(it.x[j])),
                       int(std::lround(it.y[j])), rim);
            }
        }
        items_.clear();
    }

private:
    struct Item {
        int kind{0};  // 0 quad, 1 disc
        double x[4]{}, y[4]{};
        double r{0}, depth{0};
        gfx::Rgb col{};
        bool edges{true};
    };

    gfx::Rgb shade(gfx::Rgb col, const Eigen::Vector3d& n) const
    {
        const Eigen::Vector3d light = Eigen::Vector3d(0.4, 1.0, 0.6).normalized();
        const double t = 0.55 + 0.45 * std::max(0.0, n.dot(light));
        return mix(gfx::black, col, t);
    }

    Camera cam_;
    std::vector<Item> items_;
};

/// Every box and capsule of a 3D world into the painter, coloured by `colour(i)`.
template <class S, class Colour>
void bodies(Painter& p, const World<S, 3>& w, Colour&& colour)
{
    for (std::size_t i = 0; i < w.body_count(); ++i) {
        const Eigen::Vector3d x = w.x[i].template cast<double>();
        const Eigen::Quaterniond q = w.q[i].template cast<double>();
        if (w.box[i] >= 0) {
            p.box(w.boxes[std::size_t(w.box[i])].half_extents.template cast<double>(), x, q, colour(i));
        } else if (w.capsule[i] >= 0) {
            const auto& cap = w.capsules[std::size_t(w.capsule[i])];
            p.capsule(x + q * cap.center1.template cast<double>(), x + q * cap.center2.template cast<double>(),
                      double(cap.radius), colour(i));
        } else if (w.radius[i] > S(0)) {
            p.ball(x, double(w.radius[i]), colour(i));
        }
    }
}

/// A floor: the square [x0, x1] x [z0, z1] of the plane y = 0, tiled 1 m by 1 m in two greys.
inline void floor(Painter& p, double x0, double x1, double z0, double z1)
{
    for (double x = x0; x < x1; x += 1)
        for (double z = z0; z < z1; z += 1) {
            const Eigen::Vector3d q[4] = {{x, 0, z}, {x, 0, z + 1}, {x + 1, 0, z + 1}, {x + 1, 0, z}};
            const bool odd = (int(std::floor(x)) + int(std::floor(z))) % 2 != 0;
            p.face(q, Eigen::Vector3d::UnitY(), odd ? gfx::Rgb{214, 210, 200} : gfx::Rgb{226, 222, 212}, false, true);
        }
}

}  // namespace scenes::draw
