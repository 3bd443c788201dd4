// Monotone maximization of a smooth function by limited-memory BFGS with a
// backtracking (Armijo) line search. Every accepted step raises the value, so
// the trace never decreases. Plain C++17 + Eigen; interrupts and progress go
// through RunHooks.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <deque>
#include <vector>

#include "common/run_hooks.h"

namespace sideclust {

struct AscentParams {
  int max_iter = 200;
  int memory = 7;             // (s, y) pairs kept
  double grad_tol = 1e-8;     // stop when max |gradient| <= grad_tol (absolute)
  double rel_tol = 1e-8;      // ... or when the last `window` iterations raised the value
  int window = 10;            //     by at most window * rel_tol * |value| in all
  double armijo = 1e-4;       // sufficient-increase constant
  int max_backtracks = 60;    // step halvings before giving up a direction
  double first_step = 1.0;    // largest coordinate move of a steepest-ascent step
  int report_k = 0;           // the k shown in progress lines
};

// Why a run stopped: small gradient, stalled value, iteration limit, or no
// step along the gradient raised the value.
enum class AscentStop { gradient, objective, max_iter, no_ascent };

struct AscentResult {
  std::vector<double> trace;  // value at the start and after every iteration
  int iterations = 0;
  AscentStop stop = AscentStop::max_iter;
  double grad_max = 0.0;      // max |gradient| at the end
  bool converged() const { return stop == AscentStop::gradient || stop == AscentStop::objective; }
};

// Maximizes f over theta (updated in place). f(theta, grad) returns the value
// and writes the gradient. A direction that fails the line search is retried
// once as steepest ascent with an empty memory; when that fails too, no
// representable step raises f and the run stops.
template <class Objective>
AscentResult lbfgs_ascent(Objective&& f, Eigen::VectorXd& theta, const AscentParams& par,
                          RunHooks& hooks) {
  AscentResult res;
  Eigen::VectorXd grad(theta.size()), next_grad(theta.size()), next(theta.size());
  double value = f(theta, grad);
  res.trace.push_back(value);
  std::deque<Eigen::VectorXd> s_hist, y_hist;  // in the minimization convention
  std::deque<double> rho_hist;

  // Two-loop recursion: an ascent direction from the curvature pairs of -f.
  auto direction = [&](const Eigen::VectorXd& g) {
    Eigen::VectorXd q = g;  // gradient of -f is -g; the result is negated back
    const std::size_t m = s_hist.size();
    std::vector<double> alpha(m);
    for (std::size_t j = m; j-- > 0;) {
      alpha[j] = rho_hist[j] * s_hist[j].dot(q);
      q -= alpha[j] * y_hist[j];
    }
    const double gamma = y_hist.back().dot(s_hist.back()) / y_hist.back().squaredNorm();
    q *= gamma;
    for (std::size_t j = 0; j < m; ++j) {
      const double beta = rho_hist[j] * y_hist[j].dot(q);
      q += (alpha[j] - beta) * s_hist[j];
    }
    return q;
  };

  res.stop = AscentStop::max_iter;
  for (int iter = 1; iter <= par.max_iter; ++iter) {
    if (grad.cwiseAbs().maxCoeff() <= par.grad_tol) {
      res.stop = AscentStop::gradient;
      break;
    }
    const std::size_t t = res.trace.size();
    if (t > static_cast<std::size_t>(par.window) &&
        res.trace[t - 1] - res.trace[t - 1 - par.window] <=
            par.window * par.rel_tol * std::abs(res.trace[t - 1])) {
      res.stop = AscentStop::objective;
      break;
    }
    bool accepted = false;
    for (int attempt = 0; attempt < 2 && !accepted; ++attempt) {
      const bool steepest = s_hist.empty();
      Eigen::VectorXd d = steepest ? grad : direction(grad);
      double slope = grad.dot(d);
      if (!steepest && !(slope > 0.0)) {  // not an ascent direction: retry steepest
        s_hist.clear();
        y_hist.clear();
        rho_hist.clear();
        continue;
      }
      double step = steepest ? par.first_step / d.cwiseAbs().maxCoeff() : 1.0;
      for (int b = 0; b < par.max_backtracks; ++b, step *= 0.5) {
        next = theta + step * d;
        hooks.check_interrupt();  // one evaluation is a pass over every point
        const double next_value = f(next, next_grad);
        if (std::isfinite(next_value) && next_value >= value + par.armijo * step * slope &&
            next_value > value) {
          // curvature pair of -f: s = step, y = -(g_new - g_old)
          Eigen::VectorXd s = next - theta, y = grad - next_grad;
          const double sy = s.dot(y);
          if (sy > 1e-12 * s.norm() * y.norm()) {
            s_hist.push_back(std::move(s));
            y_hist.push_back(std::move(y));
            rho_hist.push_back(1.0 / sy);
            if (static_cast<int>(s_hist.size()) > par.memory) {
              s_hist.pop_front();
              y_hist.pop_front();
              rho_hist.pop_front();
            }
          }
          theta.swap(next);
          grad.swap(next_grad);
          value = next_value;
          accepted = true;
          break;
        }
      }
      if (!accepted) {
        if (steepest) break;
        s_hist.clear();  // the retry is steepest ascent
        y_hist.clear();
        rho_hist.clear();
      }
    }
    if (!accepted) {
      res.stop = AscentStop::no_ascent;
      break;
    }
    res.iterations = iter;
    res.trace.push_back(value);
    hooks.check_interrupt();
    hooks.on_sweep(iter, par.report_k, value);
  }
  res.grad_max = grad.cwiseAbs().maxCoeff();
  if (res.stop == AscentStop::max_iter && res.grad_max <= par.grad_tol) {
    res.stop = AscentStop::gradient;  // the last iteration got there
  }
  return res;
}

}  // namespace sideclust
