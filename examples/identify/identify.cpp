// SPDX-License-Identifier: MIT
// System identification through contacts: recover a ball's friction coefficient and restitution
// from a recorded bounce-and-slide trajectory, by gradient descent on the trajectory error, with
// the gradient computed by running the simulation on Eigen's AutoDiffScalar (impulse is generic
// over the scalar, so the contact response differentiates like any other code).
//
// The "recording" is the same simulation run in double with the true values (mu = 0.25, e = 0.6),
// noise-free; the fit starts from mu = 0.45, e = 0.35 and must land within 1% of both (the program
// exits 1 otherwise). It writes
//   identify.txt        true, initial and recovered values, iterations, final loss
//   identify-loss.png   log10 of the loss against the iteration
//   identify-fit.png    the recorded trajectory (white), the initial guess (red), the fit (green)
//   identify.html       a page showing them
//   usage: identify [output-folder]
#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <impulse/impulse.hpp>

#include "page.hpp"
#include "png.hpp"

namespace fs = std::filesystem;

namespace {

using AD = Eigen::AutoDiffScalar<Eigen::Vector2d>;  // derivatives with respect to (mu, e)

constexpr int steps = 360;  // 1.5 s at 240 Hz
constexpr double dt = 1.0 / 240.0;
constexpr double g = 9.8;

/// The ball's positions over time for friction mu and restitution e: thrown from (0, 1) at
/// (3, -1), gravity, and on touching the floor (y < 0) the position is reflected and the velocity
/// answered by impulse::resolve against the immovable floor (inverse mass 0, n = (0, 1)).
template <class T>
std::vector<impulse::Vec<T, 2>> simulate(const T& mu, const T& e)
{
    using V = impulse::Vec<T, 2>;
    V x(T(0.0), T(1.0)), v(T(3.0), T(-1.0)), floor(T(0.0), T(0.0));
    const V n(T(0.0), T(1.0));
    impulse::Coefficients<T> coefficients;
    coefficients.restitution = e;
    coefficients.friction = mu;
    std::vector<V> path;
    path.reserve(steps + 1);
    path.push_back(x);
    for (int i = 0; i < steps; ++i) {
        v.y() -= T(g * dt);
        x += v * T(dt);
        if (x.y() < T(0.0)) {
            x.y() = -x.y();
            impulse::resolve(floor, T(0.0), v, T(1.0), n, coefficients);
        }
        path.push_back(x);
    }
    return path;
}

/// Mean squared distance between a simulated and the recorded trajectory.
template <class T>
T loss(const std::vector<impulse::Vec<T, 2>>& path, const std::vector<impulse::Vec2d>& recorded)
{
    T sum(0.0);
    for (std::size_t i = 0; i < path.size(); ++i) {
        const T dx = path[i].x() - recorded[i].x(), dy = path[i].y() - recorded[i].y();
        sum += dx * dx + dy * dy;
    }
    return sum / T(double(path.size()));
}

/// Loss and its gradient with respect to (mu, e), from one AutoDiff run.
AD loss_and_gradient(const Eigen::Vector2d& p, const std::vector<impulse::Vec2d>& recorded)
{
    const AD mu(p[0], 2, 0), e(p[1], 2, 1);
    return loss(simulate(mu, e), recorded);
}

}  // namespace

int main(int argc, char** argv)
{
    const fs::path dir = page::output_folder(argc, argv);

    const Eigen::Vector2d truth(0.25, 0.6);
    const std::vector<impulse::Vec2d> recorded = simulate(truth[0], truth[1]);

    // Gradient descent with a backtracking line search (Armijo): step along -grad, halve the step
    // until the loss falls by at least a fraction of what the gradient promises.
    const Eigen::Vector2d start(0.45, 0.35);
    Eigen::Vector2d p = start;
    std::vector<double> history;
    double step = 1.0;
    int it = 0;
    for (; it < 500; ++it) {
        const AD L = loss_and_gradient(p, recorded);
        history.push_back(L.value());
        const Eigen::Vector2d grad = L.derivatives();
        if (L.value() < 1e-20 || grad.norm() < 1e-14) break;
        step *= 2.0;  // let the step grow back after it had to shrink
        for (;;) {
            Eigen::Vector2d next = p - step * grad;
            next = next.cwiseMax(0.0);
            next[1] = std::min(next[1], 1.0);  // keep e in [0, 1] and mu >= 0
            const double trial = loss(simulate(next[0], next[1]), recorded);
            if (trial <= L.value() - 1e-4 * grad.dot(p - next) || step < 1e-12) {
                p = next;
                break;
            }
            step *= 0.5;
        }
    }
    const double err_mu = std::abs(p[0] - truth[0]) / truth[0], err_e = std::abs(p[1] - truth[1]) / truth[1];

    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "mu_true=%.6f\ne_true=%.6f\nmu_start=%.6f\ne_start=%.6f\nmu_recovered=%.6f\ne_recovered=%.6f\n"
                  "mu_relative_error=%.3e\ne_relative_error=%.3e\niterations=%d\nloss_start=%.6e\nloss_final=%.6e\n",
                  truth[0], truth[1], start[0], start[1], p[0], p[1], err_mu, err_e, it, history.front(),
                  history.back());
    const std::string summary = buf;
    std::printf("%s", summary.c_str());

    // Loss curve: log10(loss) from its first value down to 1e-20 over the iterations.
    gfx::Canvas curve(512, 256), fit(512, 256);
    const double top = std::log10(history.front()) + 0.5, bottom = -20.0;
    for (std::size_t i = 0; i + 1 < history.size(); ++i) {
        auto y = [&](double L) {
            const double l = std::log10(std::max(L, 1e-20));
            return int(std::lround((top - l) / (top - bottom) * 255.0));
        };
        const int x0 = int(i * 511 / std::max<std::size_t>(history.size() - 1, 1));
        const int x1 = int((i + 1) * 511 / std::max<std::size_t>(history.size() - 1, 1));
        curve.line(x0, y(history[i]), x1, y(history[i + 1]), gfx::Rgb{255, 220, 80});
    }
    // Trajectories: x in [0, 2], y in [0, 1.2].
    auto plot = [&](const std::vector<impulse::Vec2d>& path, gfx::Rgb c) {
        for (const impulse::Vec2d& q : path)
            fit.set(int(std::lround(q.x() / 2.0 * 511)), 255 - int(std::lround(q.y() / 1.2 * 255)), c);
    };
    plot(simulate(start[0], start[1]), gfx::Rgb{255, 90, 90});
    plot(recorded, gfx::white);
    plot(simulate(p[0], p[1]), gfx::Rgb{90, 255, 120});

    std::string err;
    bool ok = gfx::write_png(curve, (dir / "identify-loss.png").string(), err) &&
              gfx::write_png(fit, (dir / "identify-fit.png").string(), err);
    if (!ok) std::fprintf(stderr, "identify: %s\n", err.c_str());
    ok = ok && page::write_text(dir / "identify.txt", summary);
    const std::string html = page::html(
        "Differentiable contacts: identifying friction and restitution",
        "<p>A ball bounces and slides; from its recorded path alone, gradient descent finds the friction "
        "coefficient and the restitution that produced it. The gradient of the trajectory error comes "
        "from running the same simulation on Eigen's AutoDiffScalar.</p>\n"
        "<p>identify-fit.png: the recording (white), the initial guess (red), the fit (green, drawn over "
        "the white where it matches).</p>\n"
        "<img src=\"identify-fit.png\" alt=\"trajectories\" width=\"1024\" height=\"512\">\n"
        "<p>identify-loss.png: log10 of the mean squared trajectory error per iteration.</p>\n"
        "<img src=\"identify-loss.png\" alt=\"loss curve\" width=\"1024\" height=\"512\">\n"
        "<pre>" + summary + "</pre>\n");
    ok = ok && page::write_text(dir / "identify.html", html);
    if (!ok) return 1;
    if (err_mu > 0.01 || err_e > 0.01) {
        std::fprintf(stderr, "identify: not within 1%% (mu %.3e, e %.3e)\n", err_mu, err_e);
        return 1;
    }
    return 0;
}
