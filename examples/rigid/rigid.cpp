// SPDX-License-Identifier: MIT
// Rotation matters: a disk thrown with backspin skids, then rolls; a box thrown spinning tumbles
// across the floor and comes to rest on a face. Both are stepped with impulse's rigid-body contact
// response (the disk with `resolve`, the box's corners with the `Solver`), and drawn to
//   rigid.png         trajectories: the disk's centre and a spoke, the box's outline
//   rigid.svg         the same picture framed by axes in metres
//   rigid-spin.svg    the disk's speed v and rim speed -omega*r over time, meeting when it rolls
//   rigid-energy.svg  the disk's and the box's energy over time
//   rigid.txt         the disk's final speed against the analytic rolling speed
//   rigid.html        a page showing them
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
#include "plot.hpp"
#include "png.hpp"

namespace fs = std::filesystem;
using impulse::Vec2d;
using page::fixed;

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
    gfx::Canvas picture(view.w, view.h);
    const gfx::Rgb floor_colour{120, 120, 120}, disk_colour{255, 200, 80}, spoke_colour{255, 120, 40},
        box_colour{120, 200, 255};
    picture.line(0, view.py(0), view.w - 1, view.py(0), floor_colour);
    std::vector<double> time, disk_speed, rim_speed, disk_energy, box_energy;  // one entry per step

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
        // Energy: kinetic m v^2/2 + I omega^2/2, and potential m g y above the floor.
        const impulse::Body<double, 2>& bb = box.bodies[1];
        time.push_back(step * dt);
        disk_speed.push_back(disk.v.x());
        rim_speed.push_back(-disk.omega * r);
        disk_energy.push_back(0.5 * m * disk.v.squaredNorm() + 0.5 * I * disk.omega * disk.omega + m * g * disk_x.y());
        box_energy.push_back(0.5 * bb.v.squaredNorm() / bb.inv_mass + 0.5 * bb.omega * bb.omega / bb.inv_inertia[0] +
                             g * bb.pose.p.y() / bb.inv_mass);
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
    // The plots.
    std::string err;
    bool ok = gfx::write_png(picture, (dir / "rigid.png").string(), err);
    // The picture framed by axes: pixel (i, j) is centred on x = i/32 m, y = (255 - j)/32 m.
    plot::Figure frame(1040, 0);
    frame.x_axis("x (m)").y_axis("height y (m)").tick_target(8, 4).equal_aspect();
    frame.x_range(0, 16).y_range(0, 8).image((dir / "rigid.png").string(), -0.5 / view.scale,
                                             (view.w - 0.5) / view.scale, -0.5 / view.scale,
                                             (view.h - 0.5) / view.scale);
    if (ok) ok = frame.write((dir / "rigid.svg").string(), err);

    const double t_roll = skid_steps * dt;
    plot::Figure sp;
    sp.x_axis("time t (s)").y_axis("speed (m/s)").x_range(0, 4).y_range(-4, 8).tick_target(4, 6);
    sp.line("disk's speed v", time, disk_speed, plot::palette[2]);
    sp.line("rim speed \u2212\u03c9 r", time, rim_speed, plot::palette[3]);
    sp.hline(v_roll, "rolling speed from angular momentum: " + fixed(v_roll, 3, "m/s"));
    sp.vline(t_roll, "");
    sp.note(t_roll, v_roll, "rolls from t = " + fixed(t_roll, 2, "s"));
    sp.legend_at(plot::Corner::bottom_right);
    if (ok) ok = sp.write((dir / "rigid-spin.svg").string(), err);

    plot::Figure en(640, 320);
    en.x_axis("time t (s)").y_axis("energy: kinetic + m g y (J)").x_range(0, 4);
    en.line("box (2 kg)", time, box_energy, plot::palette[0]);
    en.line("disk (1 kg)", time, disk_energy, plot::palette[1]);
    if (ok) ok = en.write((dir / "rigid-energy.svg").string(), err);
    if (!ok) std::fprintf(stderr, "rigid: %s\n", err.c_str());
    ok = ok && page::write_text(dir / "rigid.txt", summary);

    page::Table tab({"quantity", "value", "expected"});
    tab.row({"disk: time skidding", std::to_string(skid_steps) + " steps, " + fixed(t_roll, 3, "s"), "until v = &minus;&omega;r"})
        .row({"disk: final speed v", fixed(disk.v.x(), 9, "m/s"),
              "(m r v&#8320; &minus; I &omega;&#8320;) / (m r + I/r) = " + fixed(v_roll, 9, "m/s")})
        .row({"disk: rim speed &minus;&omega;r", fixed(-disk.omega * r, 9, "m/s"), "equal to v: rolling"})
        .row({"box: final speed", fixed(box.body().v.norm(), 6, "m/s"), "0: at rest on a face"});
    page::Document doc("Rotation: a skidding disk and a tumbling box",
                       "Contacts that turn bodies: a disk thrown with backspin skids, then rolls; a box thrown spinning "
                       "lands on a corner, tumbles and settles on a face. The disk's contact is answered by "
                       "<code>impulse::resolve</code> for rigid bodies, the box's corners by <code>impulse::Solver</code>; "
                       "the disk's rolling speed is checked against the value angular momentum predicts.",
                       "A disk skids until it rolls at the speed angular momentum predicts; a box tumbles to rest.");
    doc.section("Paths")
        .figure("rigid.svg",
                "The disk (yellow dots every 1/60 s, orange spokes every 0.1 s) thrown at 6 m/s with backspin 8 rad/s, "
                "and the box (1.2 m &times; 0.6 m, blue outlines every 0.1 s) thrown from 4 m at 4 m/s, spinning. "
                "Look for the spokes turning backwards while the disk skids, then forwards as it rolls on; and the "
                "box settling flat on a face, not on a corner.",
                "paths of the disk and the box", 0, true)
        .section("The disk: from skidding to rolling")
        .figure("rigid-spin.svg",
                "The disk's speed v and its rim speed &minus;&omega;r over time. Friction slows the disk and undoes "
                "the backspin until the two meet; look for them meeting at the dashed line, the speed angular "
                "momentum about the contact line predicts, and staying together: rolling, no more friction.",
                "speed and rim speed of the disk over time")
        .figure("rigid-energy.svg",
                "Each body's energy (kinetic, linear and rotational, plus m g y above the floor) over time. Look for "
                "the disk's falling while it skids and flat once it rolls (friction does no work on a rolling disk), and the "
                "box's dropping at every impact, then flat at rest: contacts only ever take energy.",
                "energy of the disk and the box over time")
        .table(tab)
        .text_result("rigid.txt", summary);
    ok = ok && doc.write(dir / "rigid.html");

    std::printf("rigid: disk skidded %d steps, rolls at %.6f m/s (analytic %.6f); box at rest at x = %.3f\n",
                skid_steps, disk.v.x(), v_roll, box.body().pose.p.x());
    std::printf("rigid: wrote rigid.png, rigid.svg, rigid-spin.svg, rigid-energy.svg, rigid.txt, rigid.html in %s\n", dir.string().c_str());
    if (!ok) return 1;
    if (!rolling || miss > 1e-9 * v0) {
        std::fprintf(stderr, "rigid: the disk should roll at %.9f but moves at %.9f (rim %.9f)\n", v_roll,
                     disk.v.x(), -disk.omega * r);
        return 1;
    }
    return 0;
}
