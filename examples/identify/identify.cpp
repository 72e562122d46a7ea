// SPDX-License-Identifier: MIT
// System identification through contacts: recover a ball's friction coefficient and restitution
// from a recorded bounce-and-slide trajectory, by gradient descent on the trajectory error, with
// the gradient computed by running the simulation on Eigen's AutoDiffScalar (impulse is generic
// over the scalar, so the contact response differentiates like any other code).
//
// The "recording" is the same simulation run in double with the true values (mu = 0.25, e = 0.6),
// noise-free; the fit starts from mu = 0.45, e = 0.35 and must land within 1% of both (the program
// exits 1 otherwise). It writes
//   identify.txt          true, initial and recovered values, iterations, final loss
//   identify-fit.svg      the recorded trajectory, the initial guess, the fit
//   identify-loss.svg     the loss against the iteration (logarithmic)
//   identify-params.svg   friction and restitution against the iteration, and the true values
//   identify.html         a page showing them
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
#include "plot.hpp"

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
    std::vector<double> history, mus, es;  // loss, mu and e at each iteration
    double step = 1.0;
    int it = 0;
    for (; it < 500; ++it) {
        const AD L = loss_and_gradient(p, recorded);
        history.push_back(L.value());
        mus.push_back(p[0]);
        es.push_back(p[1]);
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

    // The plots: trajectories (x, y in metres), the loss and the parameters per iteration.
    auto xs = [](const std::vector<impulse::Vec2d>& path, int axis) {
        std::vector<double> v;
        for (const impulse::Vec2d& q : path) v.push_back(q[axis]);
        return v;
    };
    const std::vector<impulse::Vec2d> guess = simulate(start[0], start[1]), fitted = simulate(p[0], p[1]);
    plot::Figure fit(720, 300);
    fit.x_axis("x (m)").y_axis("height y (m)").y_range(0, 1.2).tick_target(8, 4);
    fit.line("initial guess: \u03bc = 0.45, e = 0.35", xs(guess, 0), xs(guess, 1), plot::palette[1]);
    fit.line("recording: \u03bc = 0.25, e = 0.6", xs(recorded, 0), xs(recorded, 1), "#bbbbbb", 6);
    fit.dashed("fit", xs(fitted, 0), xs(fitted, 1), plot::palette[0], 2);

    std::vector<double> iteration;
    for (std::size_t i = 0; i < history.size(); ++i) iteration.push_back(double(i));
    plot::Figure curve(640, 320);
    curve.x_axis("iteration").y_axis("mean squared trajectory error (m\u00b2)").log_y();
    curve.line("loss", iteration, history, plot::palette[0]);

    plot::Figure params(640, 300);
    params.x_axis("iteration").y_axis("coefficient").y_range(0, 0.8).legend_at(plot::Corner::bottom_right);
    params.line("friction \u03bc", iteration, mus, plot::palette[1]);
    params.line("restitution e", iteration, es, plot::palette[2]);
    params.hline(truth[0], "true values", "#777777");
    params.hline(truth[1], "", "#777777");

    std::string err;
    bool ok = fit.write((dir / "identify-fit.svg").string(), err) && curve.write((dir / "identify-loss.svg").string(), err) &&
              params.write((dir / "identify-params.svg").string(), err);
    if (!ok) std::fprintf(stderr, "identify: %s\n", err.c_str());
    ok = ok && page::write_text(dir / "identify.txt", summary);

    page::Table tab({"quantity", "recovered", "true", "start"});
    tab.row({"friction &mu;", page::formatted("%.6f", p[0]), "0.25", "0.45"})
        .row({"restitution e", page::formatted("%.6f", p[1]), "0.6", "0.35"})
        .row({"relative error of &mu;, e", page::formatted("%.1e", err_mu) + ", " + page::formatted("%.1e", err_e), "within 1%", ""})
        .row({"iterations, final loss", std::to_string(it) + ", " + page::formatted("%.1e m&sup2;", history.back()), "",
              page::formatted("%.1e m&sup2;", history.front())});
    page::Document doc(
        "Differentiable contacts: identifying friction and restitution",
        "A ball bounces and slides; from its recorded path alone, gradient descent finds the friction coefficient "
        "and the restitution that produced it. The gradient of the trajectory error comes from running the same "
        "simulation on Eigen's <code>AutoDiffScalar</code>: impulse is generic over the scalar, so its contact "
        "response differentiates like any other code.",
        "Gradient descent through the contacts recovers friction and restitution from a trajectory.");
    doc.section("The fit")
        .figure("identify-fit.svg",
                "The ball's path: the recording (wide grey), the simulation from the initial guess (orange), and from "
                "the recovered values (dashed blue). Look for the dashed fit running inside the grey recording from "
                "the throw to the last bounce, where the guess bounces too low and slides too short.",
                "recorded, guessed and fitted trajectories")
        .section("The descent")
        .figure("identify-loss.svg",
                "The mean squared distance between the simulated and the recorded path at each iteration, on a "
                "logarithmic axis. Look for a fall over some twenty decades, down to rounding: the gradient through the "
                "contacts is exact, not estimated.",
                "loss against iteration")
        .figure("identify-params.svg",
                "The friction coefficient and the restitution at each iteration. Look for both settling on their "
                "dashed true values.",
                "parameters against iteration")
        .table(tab)
        .text_result("identify.txt", summary);
    ok = ok && doc.write(dir / "identify.html");
    if (!ok) return 1;
    if (err_mu > 0.01 || err_e > 0.01) {
        std::fprintf(stderr, "identify: not within 1%% (mu %.3e, e %.3e)\n", err_mu, err_e);
        return 1;
    }
    return 0;
}
