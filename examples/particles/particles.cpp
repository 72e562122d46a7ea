// SPDX-License-Identifier: MIT
// Particles: 100,000 grains dropped onto a ramp and the ground beside it, with friction and
// restitution, every contact of every step resolved at once by impulse's batch kernel
// (impulse/batch.hpp, resolve_batch). Each grain touches at most one static surface at a time and
// grains do not touch each other, so the contacts are independent: the batch kernel's case. Each
// grain has its own friction and restitution, mixed with the ground's material by impulse::mix,
// so the grains sort themselves out: on a ramp of slope tan(theta) = 0.5 a grain can rest only if
// its static friction mu_s >= 0.5; the slippery ones slide down onto the ground.
//
// It writes, into the output folder:
//   particles-flight.png     the grains 3 s after the drop, coloured by mu_s
//   particles.png            the final heap: grains piled up where they came to rest
//   particles-flight.svg,    the same two pictures framed by axes in metres
//   particles-heap.svg
//   particles-energy.svg     the grains' total energy over time
//   particles-contacts.svg   the contacts in each step's batch over time
//   particles.txt            counts, the physics checks, and the run time per step
//   particles.html           a page showing them
//
// and checks physics, failing (exit 1) on a miss:
//   - every position and velocity stays finite;
//   - no grain sinks into a surface deeper than one step of the fastest fall the grains' energy
//     allows plus the correction's slop: depth <= v_fall dt + slop, v_fall = sqrt(v0^2 + 2 g h0)
//     over the grains at the start (h0: height above the ground);
//   - energy never grows: in each batch no contact ends with more kinetic energy than it began
//     with (the surfaces are static and e <= 1, so resolve can only take energy away), to float
//     rounding; and the total mechanical energy sum(v^2/2 + g y) (each grain of mass 1) never rises
//     above its starting value;
//   - static friction holds only what it can: no grain with mu_s < tan(theta) rests on the ramp.
//
//   usage: particles [output-folder] [--count N] [--steps N]     (defaults: out/, 100000, 1200)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#if defined(__has_include)
#if __has_include(<unistd.h>)
#include <unistd.h>
#define PARTICLES_HAVE_ISATTY 1
#endif
#endif

#include <impulse/impulse.hpp>

#include "page.hpp"
#include "plot.hpp"
#include "png.hpp"

namespace fs = std::filesystem;
using impulse::Vec2f;
using Clock = std::chrono::steady_clock;

namespace {

constexpr float g = 9.81f;
constexpr float dt = 1.0f / 100.0f;
constexpr float radius = 0.05f;
constexpr float width = 32.0f;      // the box: walls at x = 0 and x = 32
constexpr float ramp_top = 8.0f;    // the ramp runs from (0, 8) down to (16, 0)
constexpr float ramp_slope = 0.5f;  // tan(theta)
constexpr float percent = 0.8f;     // positional correction: share of the overlap removed per step
constexpr float slop = 0.005f;      // positional correction: overlap left alone

/// A static surface: the plane n.x = offset (solid on the side opposite n).
struct Plane {
    Vec2f n;
    float offset;
};

/// The ramp (y = 8 - x/2, i.e. (0.5, 1).x = 8 normalised), the ground and the two walls. The
/// space the grains move in is the side of every plane its normal points to.
std::vector<Plane> surfaces()
{
    const Vec2f ramp_n = Vec2f(ramp_slope, 1.0f).normalized();
    return {{ramp_n, ramp_top * ramp_n.y()}, {Vec2f(0, 1), 0.0f}, {Vec2f(1, 0), 0.0f}, {Vec2f(-1, 0), -width}};
}
constexpr unsigned char ramp = 0, none = 255;  // surface numbers: ramp, ground, walls; none

/// The grains, structure-of-arrays.
struct Grains {
    std::vector<float> x, y, vx, vy;   // position, velocity
    std::vector<float> e, mu_s, mu_k;  // the pair coefficients against the ground's material
};

/// The contacts of one step, one per touching grain, in arrays the batch kernel reads and writes.
struct Contacts {
    std::vector<std::size_t> grain;
    std::vector<float> vx, vy, nx, ny, e, mu_s, mu_k, depth, ke;
    std::size_t count = 0;

    explicit Contacts(std::size_t n)
        : grain(n), vx(n), vy(n), nx(n), ny(n), e(n), mu_s(n), mu_k(n), depth(n), ke(n)
    {
    }
};

/// World to picture: 1024 x 512 pixels covering x in [-0.5, 32.5], y in [-0.5, 16].
struct View {
    int w = 1024, h = 512;
    float scale = 31.0f;
    int px(float x) const { return int(std::lround((x + 0.5f) * scale)); }
    int py(float y) const { return h - 1 - int(std::lround((y + 0.5f) * scale)); }
};

/// Colour of a grain by its static friction: blue (slippery, 0.2) to orange (grippy, 0.75).
gfx::Rgb friction_colour(float mu)
{
    const float t = std::clamp((mu - 0.2f) / 0.55f, 0.0f, 1.0f);
    return gfx::Rgb{std::uint8_t(60 + 195 * t), std::uint8_t(120 + 40 * t), std::uint8_t(230 - 200 * t)};
}

void draw_surfaces(gfx::Canvas& c, const View& v)
{
    const gfx::Rgb grey{150, 150, 150};
    c.line(v.px(0), v.py(ramp_top), v.px(ramp_top / ramp_slope), v.py(0), grey);  // ramp
    c.line(v.px(0), v.py(0), v.px(width), v.py(0), grey);                            // ground
    c.line(v.px(0), v.py(0), v.px(0), v.py(16), grey);                               // walls
    c.line(v.px(width), v.py(0), v.px(width), v.py(16), grey);
}

/// The grains where they are, one pixel each.
gfx::Canvas snapshot(const Grains& gr)
{
    const View v;
    gfx::Canvas c(v.w, v.h);
    draw_surfaces(c, v);
    for (std::size_t i = 0; i < gr.x.size(); ++i) c.set(v.px(gr.x[i]), v.py(gr.y[i]), friction_colour(gr.mu_s[i]));
    return c;
}

/// The heap: the grains do not touch one another, so they all lie on the surfaces; each one is
/// drawn piled on top of those that came to rest in the same pixel column of its surface (one
/// pixel of height per `per_pixel` grains, stacked along the surface's normal, least friction at
/// the bottom).
gfx::Canvas heap(const Grains& gr, const std::vector<unsigned char>& on, int per_pixel)
{
    const View v;
    gfx::Canvas c(v.w, v.h);
    draw_surfaces(c, v);
    std::vector<std::size_t> order(gr.x.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return gr.mu_s[a] < gr.mu_s[b]; });
    std::vector<int> height(std::size_t(v.w) * 4, 0);  // grains so far per (surface, column)
    const std::vector<Plane> planes = surfaces();
    for (const std::size_t i : order) {
        const int s = on[i];
        if (s >= 4) continue;  // not resting on a surface
        const Vec2f p(gr.x[i], gr.y[i]);
        const Vec2f n = planes[std::size_t(s)].n;
        // Column along the surface: the pixel the grain sits over (walls: its height).
        const int col = std::clamp(s >= 2 ? int(std::lround((gr.y[i] + 0.5f) * v.scale)) : v.px(gr.x[i]), 0, v.w - 1);
        const int k = height[std::size_t(s) * std::size_t(v.w) + std::size_t(col)]++;
        const float up = float(k / per_pixel) / v.scale;  // metres above the surface
        const Vec2f q = p + up * n;
        c.set(v.px(q.x()), v.py(q.y()), friction_colour(gr.mu_s[i]));
    }
    return c;
}

bool interactive()
{
#ifdef PARTICLES_HAVE_ISATTY
    return isatty(fileno(stdout)) != 0;
#else
    return false;
#endif
}

}  // namespace

int main(int argc, char** argv)
{
    fs::path dir = "out";
    std::size_t count = 100000;
    int steps = 1200;  // 12 s
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--count") == 0 && i + 1 < argc) count = std::size_t(std::atol(argv[++i]));
        else if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc) steps = std::atoi(argv[++i]);
        else if (argv[i][0] != '-') dir = argv[i];
        else {
            std::fprintf(stderr, "usage: particles [output-folder] [--count N] [--steps N]\n");
            return 2;
        }
    }
    if (count == 0 || steps <= 0) {
        std::fprintf(stderr, "particles: --count and --steps must be positive\n");
        return 2;
    }
    std::error_code ec;
    fs::create_directories(dir, ec);

    // The ground's material (ramp, floor and walls alike) and each grain's, mixed into the pair's
    // coefficients once: friction by geometric mean, restitution by the lower of the two.
    impulse::Material<float> ground;
    ground.restitution = 0.6f;
    ground.static_friction = 0.5f;
    ground.dynamic_friction = 0.5f;
    const float threshold = 0.5f;  // approaches slower than 0.5 m/s do not bounce

    Grains gr;
    std::mt19937 gen(2024);
    auto uniform = [&gen](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen); };
    for (std::size_t i = 0; i < count; ++i) {
        // Released together from a cloud over the top half of the ramp.
        gr.x.push_back(uniform(1.0f, 9.0f));
        gr.y.push_back(uniform(9.0f, 17.0f));
        gr.vx.push_back(uniform(-1.0f, 1.0f));
        gr.vy.push_back(0.0f);
        impulse::Material<float> grain;
        grain.restitution = uniform(0.1f, 0.6f);
        grain.static_friction = uniform(0.08f, 1.1f);  // pair mu_s = sqrt(0.5 mu) in 0.2 .. 0.74
        grain.dynamic_friction = 0.7f * grain.static_friction;
        const impulse::Coefficients<float> coefficients = impulse::mix(ground, grain, threshold);
        gr.e.push_back(coefficients.restitution);
        gr.mu_s.push_back(coefficients.friction.mu_s);
        gr.mu_k.push_back(coefficients.friction.mu_k);
    }

    // Mechanical energy (each grain of mass 1) and the depth bound, from the start.
    auto energy = [&gr, count] {
        double E = 0;
        for (std::size_t i = 0; i < count; ++i)
            E += 0.5 * (double(gr.vx[i]) * gr.vx[i] + double(gr.vy[i]) * gr.vy[i]) + double(g) * gr.y[i];
        return E;
    };
    const double E0 = energy();
    double v_fall = 0;  // sqrt(v0^2 + 2 g h0): the speed of the fastest grain reaching the ground
    for (std::size_t i = 0; i < count; ++i)
        v_fall = std::max(v_fall, std::sqrt(double(gr.vx[i]) * gr.vx[i] + double(gr.vy[i]) * gr.vy[i] +
                                            2.0 * double(g) * gr.y[i]));
    const double depth_bound = v_fall * double(dt) + double(slop);

    // The batch: every grain's contact is with a static surface (A: velocity 0, inverse mass 0,
    // given once for all), the grains all of mass 1; the rest per contact. B's velocities are
    // updated in place in the contact arrays.
    const std::vector<Plane> planes = surfaces();
    Contacts ct(count);
    impulse::BatchView<float, 2> view;
    view.vA[0] = 0;
    view.vA[1] = 0;
    view.inv_mass_a = 0;
    view.inv_mass_b = 1;
    view.threshold = threshold;
    view.vB[0] = ct.vx.data();
    view.vB[1] = ct.vy.data();
    view.vB_out[0] = ct.vx.data();
    view.vB_out[1] = ct.vy.data();
    view.n[0] = ct.nx.data();
    view.n[1] = ct.ny.data();
    view.restitution = ct.e.data();
    view.mu_s = ct.mu_s.data();
    view.mu_k = ct.mu_k.data();

    std::vector<unsigned char> on(count, none);  // surface each grain touched last step
    double step_s = 0, batch_s = 0;              // time in the steps, and in resolve_batch alone
    std::size_t contacts_total = 0, gained_energy = 0, not_finite = 0;
    double worst_depth = 0, E_max = E0;
    int worst_depth_step = 0, E_max_step = 0;
    gfx::Canvas flight(1, 1);
    std::vector<double> time{0.0}, energies{E0}, touching{0.0};  // per step, for the plots
    const bool tty = interactive();
    const int flight_step = std::min(steps, 300);  // 3 s
    std::printf("particles: %zu grains, %d steps of %.0f ms (batch width %d floats)\n", count, steps,
                double(dt) * 1000, impulse::batch_width<float>);
    for (int step = 1; step <= steps; ++step) {
        const Clock::time_point t0 = Clock::now();
        // Gravity, then each grain's deepest contact with a surface (at most one per grain).
        ct.count = 0;
        for (std::size_t i = 0; i < count; ++i) {
            gr.vy[i] -= g * dt;
            const Vec2f c(gr.x[i], gr.y[i]);
            float deepest = -1;
            unsigned char which = none;
            Vec2f n(0, 1);
            for (std::size_t s = 0; s < planes.size(); ++s) {
                if (const auto hit = impulse::collide_sphere_plane(c, radius, planes[s].n, planes[s].offset)) {
                    if (hit->penetration > deepest) {
                        deepest = hit->penetration;
                        which = static_cast<unsigned char>(s);
                        n = hit->n;
                    }
                }
            }
            on[i] = which;
            if (which == none) continue;
            const std::size_t k = ct.count++;
            ct.grain[k] = i;
            ct.vx[k] = gr.vx[i];
            ct.vy[k] = gr.vy[i];
            ct.nx[k] = n.x();
            ct.ny[k] = n.y();
            ct.e[k] = gr.e[i];
            ct.mu_s[k] = gr.mu_s[i];
            ct.mu_k[k] = gr.mu_k[i];
            ct.depth[k] = deepest;
        }
        const Clock::time_point t1 = Clock::now();
        // (not timed: the kinetic energy each contact brings, for the check below)
        for (std::size_t k = 0; k < ct.count; ++k) ct.ke[k] = 0.5f * (ct.vx[k] * ct.vx[k] + ct.vy[k] * ct.vy[k]);

        // All of this step's contacts at once.
        const Clock::time_point t2 = Clock::now();
        impulse::resolve_batch(view, ct.count);
        const Clock::time_point t3 = Clock::now();

        // (not timed) No contact gains kinetic energy: at most float rounding, 8 epsilon of it.
        for (std::size_t k = 0; k < ct.count; ++k) {
            const float ke = 0.5f * (ct.vx[k] * ct.vx[k] + ct.vy[k] * ct.vy[k]);
            if (!(ke <= ct.ke[k] * (1 + 8 * std::numeric_limits<float>::epsilon()))) ++gained_energy;
        }

        // Back to the grains; push each out of its surface (positional correction); move.
        const Clock::time_point t4 = Clock::now();
        for (std::size_t k = 0; k < ct.count; ++k) {
            const std::size_t i = ct.grain[k];
            gr.vx[i] = ct.vx[k];
            gr.vy[i] = ct.vy[k];
            const Vec2f n(ct.nx[k], ct.ny[k]);
            const auto fix = impulse::positional_correction(0.0f, 1.0f, n, ct.depth[k], percent, slop);
            gr.x[i] += fix.dB.x();
            gr.y[i] += fix.dB.y();
        }
        for (std::size_t i = 0; i < count; ++i) {
            gr.x[i] += gr.vx[i] * dt;
            gr.y[i] += gr.vy[i] * dt;
        }
        const Clock::time_point t5 = Clock::now();
        step_s += std::chrono::duration<double>((t1 - t0) + (t3 - t2) + (t5 - t4)).count();
        batch_s += std::chrono::duration<double>(t3 - t2).count();
        contacts_total += ct.count;

        // (not timed) Finite, not sunk into a surface, energy not above the start.
        for (std::size_t i = 0; i < count; ++i) {
            if (!std::isfinite(gr.x[i]) || !std::isfinite(gr.y[i]) || !std::isfinite(gr.vx[i]) ||
                !std::isfinite(gr.vy[i])) {
                ++not_finite;
                continue;
            }
            for (const Plane& p : planes) {
                const double depth = double(radius) - (double(p.n.x()) * gr.x[i] + double(p.n.y()) * gr.y[i] - p.offset);
                if (depth > worst_depth) {
                    worst_depth = depth;
                    worst_depth_step = step;
                }
            }
        }
        const double E = energy();
        time.push_back(step * double(dt));
        energies.push_back(E);
        touching.push_back(double(ct.count));
        if (E > E_max) {
            E_max = E;
            E_max_step = step;
        }

        if (step == flight_step) flight = snapshot(gr);
        if (step % (steps / 20 > 0 ? steps / 20 : 1) == 0 || step == steps) {
            std::printf("%sparticles: step %d/%d, %.2f s simulated, %zu grains touching, %.2f ms/step%s",
                        tty ? "\r" : "", step, steps, double(step) * double(dt), ct.count, 1000 * step_s / step,
                        tty ? "" : "\n");
            std::fflush(stdout);
        }
    }
    if (tty) std::printf("\n");
    const double E_end = energy();

    // Where the grains came to rest, and the friction check: on the ramp only grains with mu_s >= 0.5.
    std::size_t on_ramp = 0, on_ground = 0, moving = 0, slippery_on_ramp = 0, slippery_at_rest = 0;
    double mu_ramp = 0, mu_ground = 0, least_mu_on_ramp = 1e9;
    for (std::size_t i = 0; i < count; ++i) {
        const float speed = std::hypot(gr.vx[i], gr.vy[i]);
        if (speed > 0.05f) ++moving;
        if (on[i] == ramp) {
            ++on_ramp;
            mu_ramp += gr.mu_s[i];
            least_mu_on_ramp = std::min(least_mu_on_ramp, double(gr.mu_s[i]));
            if (gr.mu_s[i] < ramp_slope) {
                ++slippery_on_ramp;
                if (speed < 0.01f) ++slippery_at_rest;
            }
        } else if (on[i] != none) {
            ++on_ground;
            mu_ground += gr.mu_s[i];
        }
    }
    const double ms_per_step = 1000 * step_s / steps;
    const double ns_per_contact = contacts_total ? 1e9 * batch_s / double(contacts_total) : 0.0;
    const bool depth_ok = worst_depth <= depth_bound;
    char buf[2048];
    std::snprintf(buf, sizeof buf,
                  "grains=%zu\nsteps=%d\ndt=%.4f\nramp_slope=%.2f\n"
                  "on_ramp=%zu\nmean_mu_s_on_ramp=%.4f\nleast_mu_s_on_ramp=%.4f\n"
                  "on_ground_or_walls=%zu\nmean_mu_s_on_ground=%.4f\nstill_moving=%zu\n"
                  "on_ramp_with_mu_s_below_slope=%zu\nat_rest_on_ramp_with_mu_s_below_slope=%zu\n"
                  "not_finite=%zu\n"
                  "deepest_overlap_m=%.4f\nat_step=%d\noverlap_bound_m=%.4f\n"
                  "energy_start_J=%.1f\nenergy_end_J=%.1f\nenergy_highest_J=%.1f\nat_step=%d\n"
                  "contacts_that_gained_kinetic_energy=%zu\n"
                  "run_time_per_step_ms=%.3f\nbatch_time_per_contact_ns=%.3f\ncontacts_per_step=%.0f\n",
                  count, steps, double(dt), double(ramp_slope), on_ramp, on_ramp ? mu_ramp / double(on_ramp) : 0.0,
                  on_ramp ? least_mu_on_ramp : 0.0, on_ground, on_ground ? mu_ground / double(on_ground) : 0.0,
                  moving, slippery_on_ramp, slippery_at_rest, not_finite, worst_depth, worst_depth_step, depth_bound,
                  E0, E_end, E_max, E_max_step, gained_energy, ms_per_step, ns_per_contact,
                  double(contacts_total) / steps);
    const std::string summary = buf;

    std::string err;
    const int per_pixel = std::max(1, int(count / 20000));
    bool ok = gfx::write_png(flight, (dir / "particles-flight.png").string(), err);
    if (ok) ok = gfx::write_png(heap(gr, on, per_pixel), (dir / "particles.png").string(), err);
    // The pictures framed by axes in metres: pixel (i, j) is centred on x = i/31 - 0.5 m,
    // y = (511 - j)/31 - 0.5 m (View).
    const View v;
    const double half = 0.5 / double(v.scale);
    for (const char* name : {"particles-flight", "particles"}) {
        plot::Figure frame(1040, 0);
        frame.x_axis("x (m)").y_axis("height y (m)").tick_target(8, 4).equal_aspect().x_range(-0.5, 32.5).y_range(-0.5, 16);
        frame.image((dir / (std::string(name) + ".png")).string(), -0.5 - half, v.w / double(v.scale) - 0.5 - half,
                    -0.5 - half, v.h / double(v.scale) - 0.5 - half);
        const std::string svg = std::string(name == std::string("particles") ? "particles-heap" : name) + ".svg";
        if (ok) ok = frame.write((dir / svg).string(), err);
    }
    plot::Figure en(640, 300);
    en.x_axis("time t (s)").y_axis("total energy \u03a3 v\u00b2/2 + g y (MJ)").x_range(0, steps * double(dt));
    std::vector<double> mj;
    for (const double E : energies) mj.push_back(E / 1e6);
    en.line("grains (1 kg each)", time, mj, plot::palette[2]);
    en.hline(E0 / 1e6, "at the start", "#777777");
    if (ok) ok = en.write((dir / "particles-energy.svg").string(), err);
    plot::Figure co(640, 300);
    co.x_axis("time t (s)").y_axis("contacts in the step's batch").x_range(0, steps * double(dt)).legend_at(plot::Corner::bottom_right);
    co.line("grains touching a surface", time, touching, plot::palette[0]);
    co.hline(double(count), "all grains", "#777777");
    if (ok) ok = co.write((dir / "particles-contacts.svg").string(), err);
    if (!ok) std::fprintf(stderr, "particles: %s\n", err.c_str());
    ok = ok && page::write_text(dir / "particles.txt", summary);

    page::Table tab({"quantity", "value", "bound or expected"});
    tab.row({"grains, steps", std::to_string(count) + ", " + std::to_string(steps), page::formatted("dt = %.0f ms", 1000 * double(dt))})
        .row({"resting on the ramp", std::to_string(on_ramp) + page::formatted(", least &mu;<sub>s</sub> %.3f", on_ramp ? least_mu_on_ramp : 0.0),
              "&mu;<sub>s</sub> &ge; tan &theta; = 0.5 to rest there"})
        .row({"slippery grains at rest on the ramp", std::to_string(slippery_at_rest), "0"})
        .row({"on the ground or the walls", std::to_string(on_ground), "&mdash;"})
        .row({"deepest overlap", page::formatted("%.4f m", worst_depth), page::formatted("&le; v<sub>fall</sub> dt + slop = %.4f m", depth_bound)})
        .row({"energy: start, highest, end", page::formatted("%.3f", E0 / 1e6) + page::formatted(", %.3f", E_max / 1e6) + page::formatted(", %.3f MJ", E_end / 1e6),
              "never above the start"})
        .row({"contacts that gained kinetic energy", std::to_string(gained_energy), "0"})
        .row({"run time per step", page::formatted("%.2f ms", ms_per_step), "(this machine, this build)"})
        .row({"batch time per contact", page::formatted("%.2f ns", ns_per_contact), "(resolve_batch alone)"});
    page::Document doc(
        "Particles: grains on a ramp, every contact in one batch",
        std::to_string(count) +
            " grains fall onto a ramp of slope 0.5 and the ground beside it. Each step, every grain's contact with a "
            "surface goes into one batch for <code>impulse::resolve_batch</code>; grains do not touch each other, so "
            "the contacts are independent. Colour is each grain's static friction against the ground: blue slippery "
            "(&mu;<sub>s</sub> 0.2) to orange (0.75). On a ramp of slope tan &theta; = 0.5 a grain can rest only if "
            "&mu;<sub>s</sub> &ge; 0.5: the grains sort themselves by friction.",
        "Grains sort themselves by friction on a ramp: only the grippy ones can rest on it.");
    doc.section("The grains")
        .figure("particles-flight.svg",
                "The grains 3 s after the drop. Look for the grippy (orange) ones stopped where they landed on the "
                "ramp, while the slippery (blue) ones slide down it and out across the ground.",
                "grains in flight", 0, true)
        .figure("particles-heap.svg",
                "The final heap after " + page::formatted("%.0f s", steps * double(dt)) +
                    ". Grains pass through each other, so each is drawn piled on those that came to rest on the same "
                    "spot of the surface (one pixel per " + std::to_string(per_pixel) +
                    " grains, least friction at the bottom). Look for only orange on the ramp "
                    "(&mu;<sub>s</sub> &ge; 0.5) and the blue ones spread out across the ground.",
                "the final heap", 0, true)
        .section("Energy and contacts")
        .figure("particles-energy.svg",
                "The grains' total mechanical energy over time (each of mass 1 kg). Look for it only ever falling: "
                "static surfaces and e &le; 1 can take energy, never give it; it levels off as the grains come to rest.",
                "total energy over time")
        .figure("particles-contacts.svg",
                "How many contacts go into each step's batch. Look for none while the cloud falls, a rise as the "
                "grains land, and most of them touching a surface at the end.",
                "contacts per step over time")
        .section("The checks",
                 "Every number finite; no grain deeper in a surface than one step of the fastest fall plus the slop; "
                 "no contact leaving a batch with more kinetic energy than it brought, and the total energy never "
                 "above its start; no slippery grain at rest on the ramp. The program fails when one is missed.")
        .table(tab)
        .text_result("particles.txt", summary);
    ok = ok && doc.write(dir / "particles.html");

    std::printf("particles: %zu grains on the ramp (least mu_s %.3f), %zu on the ground; %.2f ms per step, "
                "%.2f ns per contact in the batch\n",
                on_ramp, on_ramp ? least_mu_on_ramp : 0.0, on_ground, ms_per_step, ns_per_contact);
    std::printf("particles: deepest overlap %.4f m (bound %.4f); energy %.1f J at the start, at most %.1f, %.1f at "
                "the end; %zu contacts gained kinetic energy\n",
                worst_depth, depth_bound, E0, E_max, E_end, gained_energy);
    std::printf("particles: wrote particles-flight.png, particles.png, their frames and plots (.svg), particles.txt, particles.html in %s\n",
                dir.string().c_str());
    int status = ok ? 0 : 1;
    if (not_finite > 0) {
        std::fprintf(stderr, "particles: %zu times a grain's position or velocity was not finite\n", not_finite);
        status = 1;
    }
    if (!depth_ok) {
        std::fprintf(stderr, "particles: a grain sank %.4f m into a surface (step %d), more than the bound %.4f m\n",
                     worst_depth, worst_depth_step, depth_bound);
        status = 1;
    }
    if (gained_energy > 0) {
        std::fprintf(stderr, "particles: energy grew: %zu contacts left a batch with more kinetic energy than they "
                     "brought\n", gained_energy);
        status = 1;
    }
    if (E_max > E0) {
        std::fprintf(stderr, "particles: energy grew: %.1f J at step %d, above the start's %.1f J\n", E_max,
                     E_max_step, E0);
        status = 1;
    }
    if (slippery_at_rest > 0) {
        std::fprintf(stderr, "particles: %zu grains with mu_s < %.2f rest on the ramp: static friction cannot hold them\n",
                     slippery_at_rest, double(ramp_slope));
        status = 1;
    }
    return status;
}
