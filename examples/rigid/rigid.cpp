// SPDX-License-Identifier: MIT
// Rotation matters: a disk thrown with backspin skids, then rolls; a box thrown spinning tumbles
// across the floor and comes to rest on a face. Both are stepped with impulse's rigid-body contact
// response (the disk with `resolve`, the box's corners with the `Solver`), and drawn to
//   rigid.png       trajectories: the disk's centre and a spoke, the box's outline
//   rigid-spin.png  the disk's speed v and rim speed -omega*r over time, meeting when it rolls
//   rigid.txt       the disk's final speed against the analytic rolling speed
//   rigid.html      a page showing them
// The disk's rolling speed is known exactly: about the contact line the friction and normal
// impulses (at the contact) and gravity (through it) exert no moment, so L = -m r v + I omega is
// kept while it skids, and rolling (omega = -v/r) gives v = (m r v0 - I omega0) / (m r + I/r).
// The program fails (exit 1) if the simulation misses that by more than rounding.
//   usage: rigid [output-folder]
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <impulse/impulse.hpp>

#include "page.hpp"
#include "png.hpp"

namespace fs = std::filesystem;
using impulse::Vec2d;

namespace {

constexpr double g = 9.8;
constexpr double dt = 1.0 / 240.0;
constexpr int steps = 4 * 240;  // four seconds

// World (metres) to picture (pixels): 512 x 256 covering x in [0, 16], y in [0, 8].
struct View {
    int w = 512, h = 256;
    double scale = 32.0;
    int px(double x) const { return int(std::lround(x * scale)); }
    int py(double y) const { return h - 1 - int(std::lround(y * scale)); }
};

/// A box, as the solver's bodies (floor, box): pose, velocity and mass in an impulse::Body.
struct Box {
    impulse::Body<double, 2> bodies[2];  // 0: the floor (all zero: immovable), 1: the box
    double hw{0}, hh{0};                 // half extents
    impulse::Body<double, 2>& body() { return bodies[1]; }
    Vec2d corner(int i) const
    {
        const Vec2d local((i == 0 || i == 3) ? -hw : hw, i < 2 ? -hh : hh);
        return bodies[1].pose.apply(local);
    }
};

}  // namespace

int main(int argc, char** argv)
{
    const fs::path dir = page::output_folder(argc, argv);

    const View view;
    gfx::Canvas picture(view.w, view.h), spin(view.w, view.h);
    const gfx::Rgb floor_colour{120, 120, 120}, disk_colour{255, 200, 80}, spoke_colour{255, 120, 40},
        box_colour{120, 200, 255}, v_colour{120, 255, 140}, rim_colour{255, 110, 200};
    picture.line(0, view.py(0), view.w - 1, view.py(0), floor_colour);
    // The speed plot spans -5 .. +7 m/s over the picture's height, with a grey line at 0.
    auto speed_px = [&](double s) { return int(std::lround((7.0 - s) / 12.0 * (view.h - 1))); };
    spin.line(0, speed_px(0.0), view.w - 1, speed_px(0.0), floor_colour);

    impulse::RigidBody<double, 2> floor;  // immovable: inverse mass and inertia 0

    // The disk: m = 1, r = 0.5, thrown at 6 m/s with backspin 8 rad/s (counter-clockwise).
    const double m = 1.0, r = 0.5, v0 = 6.0, omega0 = 8.0;
    const double I = impulse::inertia_disk(m, r);
    impulse::RigidBody<double, 2> disk;
    disk.inv_mass = 1.0 / m;
    disk.inv_inertia = 1.0 / I;
    disk.v = Vec2d(v0, 0);
    disk.omega = omega0;
    Vec2d disk_x(1.0, r);
    double disk_angle = 0.0;
    impulse::Coefficients<double> disk_floor;
    disk_floor.friction = 0.3;
    int skid_steps = 0;

    // The box: 1.2 x 0.6, m = 2, thrown from 3 m up at 4 m/s, spinning clockwise.
    Box box;
    box.hw = 0.6;
    box.hh = 0.3;
    box.body().inv_mass = 0.5;
    box.body().inv_inertia[0] = 1.0 / impulse::inertia_rectangle(2.0, 2 * box.hw, 2 * box.hh);
    box.body().v = Vec2d(4.0, 0.0);
    box.body().omega = -5.0;
    box.body().pose.p = Vec2d(1.0, 4.0);
    box.body().pose.q = impulse::Rot2<double>::from_angle(0.3);
    impulse::Coefficients<double> box_floor;
    box_floor.restitution = 0.3;
    box_floor.friction = impulse::Friction<double>(0.6, 0.5);
    box_floor.threshold = 1.0;  // resting corners must not keep bouncing
    impulse::Solver<double, 2> solver;  // the soft step: 4 substeps, gravity applied by the solver
    solver.settings.gravity = Vec2d(0, -g);

    for (int step = 0; step <= steps; ++step) {
        // Draw first, so the starting state is in the picture.
        if (step % 4 == 0) picture.set(view.px(disk_x.x()), view.py(disk_x.y()), disk_colour);
        if (step % 24 == 0) {
            const Vec2d tip = disk_x + r * Vec2d(std::cos(disk_angle), std::sin(disk_angle));
            picture.line(view.px(disk_x.x()), view.py(disk_x.y()), view.px(tip.x()), view.py(tip.y()), spoke_colour);
            for (int i = 0; i < 4; ++i) {
                const Vec2d a = box.corner(i), b = box.corner((i + 1) % 4);
                picture.line(view.px(a.x()), view.py(a.y()), view.px(b.x()), view.py(b.y()), box_colour);
            }
        }
        const int t_px = step * (view.w - 1) / steps;
        spin.set(t_px, speed_px(disk.v.x()), v_colour);
        spin.set(t_px, speed_px(-disk.omega * r), rim_colour);
        if (step == steps) break;

        // Disk: gravity, then the contact with the floor 0.5 below its centre.
        disk.v.y() -= g * dt;
        const auto res = impulse::resolve(floor, Vec2d(disk_x.x(), 0.0), disk, Vec2d(0, -r), Vec2d(0, 1), disk_floor);
        skid_steps += res.regime == impulse::Regime::sliding;
        disk_x += disk.v * dt;
        disk_angle += disk.omega * dt;

        // Box: every corner below the floor or within 2 cm above it is a point of one manifold (the
        // narrow phase); the solver adds gravity, solves the contact and moves the box.
        impulse::Manifold<double, 2> contact;
        contact.a = 0;
        contact.b = 1;
        contact.n = Vec2d(0, 1);
        contact.coefficients = box_floor;
        for (int i = 0; i < 4 && contact.count < impulse::Manifold<double, 2>::max_points; ++i) {
            const Vec2d c = box.corner(i);
            if (c.y() > impulse::speculative_distance<double>) continue;
            auto& p = contact.points[contact.count++];
            const Vec2d mid(c.x(), c.y() / 2);  // midway between the corner and the floor
            p.rA = mid;
            p.rB = mid - box.body().pose.p;
            p.separation = c.y();
            p.feature = impulse::make_feature(0, std::uint32_t(i));
        }
        solver.step(impulse::view(box.bodies, 2), &contact, contact.count > 0 ? 1 : 0, dt);
    }

    // The disk's rolling speed from the kept angular momentum about the contact line.
    const double v_roll = (m * r * v0 - I * omega0) / (m * r + I / r);
    const double miss = std::abs(disk.v.x() - v_roll);
    const bool rolling = std::abs(disk.v.x() + disk.omega * r) <= 1e-9 * v0;
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "disk_v0=%.6f\ndisk_omega0=%.6f\ndisk_skid_steps=%d\ndisk_v_final=%.9f\n"
                  "disk_v_rolling_analytic=%.9f\ndisk_rim_speed_final=%.9f\nbox_x_final=%.6f,%.6f\n"
                  "box_speed_final=%.6f\n",
                  v0, omega0, skid_steps, disk.v.x(), v_roll, -disk.omega * r, box.body().pose.p.x(),
                  box.body().pose.p.y(), box.body().v.norm());
    const std::string summary = buf;
    std::string err;
    bool ok = gfx::write_png(picture, (dir / "rigid.png").string(), err);
    if (ok) ok = gfx::write_png(spin, (dir / "rigid-spin.png").string(), err);
    if (!ok) std::fprintf(stderr, "rigid: %s\n", err.c_str());
    ok = ok && page::write_text(dir / "rigid.txt", summary);
    const std::string html = page::html(
        "Rotation: a skidding disk and a tumbling box",
        "<p>rigid.png: the disk (yellow dots, orange spokes every 0.1 s) is thrown at 6 m/s with backspin; "
        "friction first fights the spin, then it rolls on at a constant speed. The box (blue outlines) "
        "lands on a corner, tumbles and settles on a face.</p>\n"
        "<img src=\"rigid.png\" alt=\"trajectories\" width=\"1024\" height=\"512\">\n"
        "<p>rigid-spin.png: the disk's speed v (green) and rim speed -&omega;r (pink) against time (-5 to 7 m/s, "
        "grey line at 0); they meet when the disk rolls without slipping, at the speed the angular "
        "momentum about the contact line predicts.</p>\n"
        "<img src=\"rigid-spin.png\" alt=\"speed and rim speed\" width=\"1024\" height=\"512\">\n"
        "<pre>" + summary + "</pre>\n");
    ok = ok && page::write_text(dir / "rigid.html", html);

    std::printf("rigid: disk skidded %d steps, rolls at %.6f m/s (analytic %.6f); box at rest at x = %.3f\n",
                skid_steps, disk.v.x(), v_roll, box.body().pose.p.x());
    std::printf("rigid: wrote rigid.png, rigid-spin.png, rigid.txt, rigid.html in %s\n", dir.string().c_str());
    if (!ok) return 1;
    if (!rolling || miss > 1e-9 * v0) {
        std::fprintf(stderr, "rigid: the disk should roll at %.9f but moves at %.9f (rim %.9f)\n", v_roll,
                     disk.v.x(), -disk.omega * r);
        return 1;
    }
    return 0;
}
