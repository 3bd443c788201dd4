// Iterative (soft) parallel information bottleneck: TR-09-12's stationary
// equations (21)-(22) for Gin: X -> C_j (j = 1..m) and Gout: C_1..C_m -> Y.
// C_j appears in the parents of the data variable Y only, so (22) keeps its
// first sum, and since the clusterings depend on X alone, p(y | c^-j, x) =
// p(y|x):
//   p(c_j|x) = p(c_j) exp(-beta d(c_j, x)) / Z(x, beta),
//   d(c_j, x) = sum_{c^-j} p(c^-j|x) KL[p(y|x) || p(y | c^-j, c_j)],
// with p(c^-j|x) = prod_{i != j} p(c_i|x) and p(t, y) = sum_x p(x, y)
// prod_j p(c_j|x) over the cells t = (c_1..c_m) of the product partition.
// An iteration updates C_1, ..., C_m in turn, each from the distributions of
// the current memberships, as the iterative IB does; with m = 1 it is
// exactly ib(). It costs O(m (nnz + n m) K) for K = prod_j k_j cells.
// Runs stop when no membership changes by more than tol; the start with the
// highest L_max = I(C_1..C_m; Y) - sum_j I(C_j; X) / beta is kept.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "info/ib_runs.h"
#include "common/info_sparse.h"
#include "info/parallel_ib.h"
#include "common/run_hooks.h"

namespace sideclust {

struct IterativeParallelIbParams {
  std::vector<int> k;
  double beta = 1.0;
  int max_iter = 500;
  int restarts = 1;
  double tol = 1e-8;
  std::vector<int> start;  // 0-based n x m column-major hard start, first restart
};

struct IterativeParallelIbResult {
  std::vector<std::vector<double>> pcx;  // per clustering: p(c_j|x), n x k_j row-major
  double objective = 0.0;                // L_max
  double info_y = 0.0;                   // I(C_1..C_m; Y)
  std::vector<double> info_x, info_y_each;
  std::vector<double> trace;             // L_max after each iteration of the best start
  std::vector<double> restart_objective;
  int iterations = 0;
  bool converged = false;
};

class SoftParallelIb {
 public:
  SoftParallelIb(const JointCsr& p, const std::vector<int>& k, double beta)
      : p_(p), k_(k), m_(static_cast<int>(k.size())), beta_(beta) {
    cells_ = product_strides(k_, stride_);
    self_ = row_self_information(p_);
  }

  std::vector<std::vector<double>>& memberships() { return w_; }

  // Cell masses p(t) and joints q(y, t) (y-major) of the current memberships.
  void stats() {
    pt_.assign(cells_, 0.0);
    q_.assign(static_cast<std::size_t>(p_.n_cols) * cells_, 0.0);
    std::vector<double> cw;
    for (int x = 0; x < p_.n_rows; ++x) {
      cell_weights(x, -1, cw);
      for (int t = 0; t < cells_; ++t) pt_[t] += p_.px[x] * cw[t];
      for (int e = p_.ptr[x]; e < p_.ptr[x + 1]; ++e) {
        double* q = &q_[static_cast<std::size_t>(p_.idx[e]) * cells_];
        for (int t = 0; t < cells_; ++t) q[t] += p_.val[e] * cw[t];
      }
    }
  }

  // Update p(c_j|x) for every x; returns the largest change.
  double update(int j) {
    const double inf = std::numeric_limits<double>::infinity();
    stats();
    std::vector<double> logq(q_.size());
    for (std::size_t i = 0; i < q_.size(); ++i) {
      const double mass = pt_[i % cells_];
      logq[i] = (q_[i] > 0.0 && mass > 0.0) ? std::log(q_[i] / mass) : -inf;
    }
    const int k = k_[j];
    const std::vector<double> pc = membership_mass(p_.px, w_[j], k);
    std::vector<double> cw, a(cells_), kl(k), logit(k), next(w_[j].size());
    double change = 0.0;
    for (int x = 0; x < p_.n_rows; ++x) {
      cell_weights(x, j, cw);  // p(c^-j|x), constant along clustering j
      std::fill(a.begin(), a.end(), 0.0);
      for (int e = p_.ptr[x]; e < p_.ptr[x + 1]; ++e) {
        const double r = p_.val[e] / p_.px[x];
        const double* lq = &logq[static_cast<std::size_t>(p_.idx[e]) * cells_];
        for (int t = 0; t < cells_; ++t) a[t] += r * lq[t];
      }
      std::fill(kl.begin(), kl.end(), 0.0);
      for (int t = 0; t < cells_; ++t) {
        if (cw[t] > 0.0) kl[(t / stride_[j]) % k] += cw[t] * (self_[x] - a[t]);
      }
      const std::size_t at = static_cast<std::size_t>(x) * k;
      change = std::max(change, update_membership_row(pc, kl, beta_, logit, &w_[j][at],
                                                      &next[at]));
    }
    w_[j].swap(next);
    return change;
  }

  // I(T;Y) of the current statistics (call stats() first).
  double info_y() const {
    double s = 0.0;
    for (int y = 0; y < p_.n_cols; ++y) {
      for (int t = 0; t < cells_; ++t) {
        const double v = q_[static_cast<std::size_t>(y) * cells_ + t];
        if (v > 0.0) s += v * std::log(v / (pt_[t] * p_.py[y]));
      }
    }
    return std::max(0.0, s);
  }
  // I(C_j;Y), summing the cells over the other clusterings (after stats()).
  double info_y_of(int j) const {
    const int k = k_[j];
    std::vector<double> pc(k, 0.0);
    for (int t = 0; t < cells_; ++t) pc[(t / stride_[j]) % k] += pt_[t];
    return std::max(0.0, cluster_information(
                             clustering_joint(q_, p_.n_cols, cells_, stride_[j], k), pc, p_.py));
  }
  double info_x(int j) const { return membership_information(p_.px, w_[j], k_[j]); }
  // L_max of the current memberships (recomputes the statistics).
  double objective() {
    stats();
    double h = 0.0;
    for (int j = 0; j < m_; ++j) h += info_x(j);
    return info_y() - h / beta_;
  }

 private:
  // cw[t] = prod_{i != skip} p(c_i(t)|x) for every cell t.
  void cell_weights(int x, int skip, std::vector<double>& cw) const {
    cw.assign(cells_, 1.0);
    for (int i = 0; i < m_; ++i) {
      if (i == skip) continue;
      const double* wx = &w_[i][static_cast<std::size_t>(x) * k_[i]];
      for (int t = 0; t < cells_; ++t) cw[t] *= wx[(t / stride_[i]) % k_[i]];
    }
  }

  const JointCsr& p_;
  std::vector<int> k_;
  int m_;
  double beta_;
  std::vector<int> stride_;
  int cells_ = 1;
  std::vector<double> self_, pt_, q_;
  std::vector<std::vector<double>> w_;
};

inline IterativeParallelIbResult iterative_parallel_ib_fit(const JointCsr& p,
                                                           const IterativeParallelIbParams& par,
                                                           RunHooks& hooks) {
  if (!(par.beta > 0.0) || !std::isfinite(par.beta)) {
    throw std::invalid_argument("beta must be positive and finite");
  }
  const int m = static_cast<int>(par.k.size());
  const std::size_t n = static_cast<std::size_t>(p.n_rows);
  if (m < 1) throw std::invalid_argument("no clusterings");
  if (!par.start.empty() && par.start.size() != n * m) {
    throw std::invalid_argument("start has the wrong size");
  }
  SoftParallelIb state(p, par.k, par.beta);
  IterativeParallelIbResult best;
  best.objective = -std::numeric_limits<double>::infinity();
  for (int run = 0; run < par.restarts; ++run) {
    auto& w = state.memberships();
    w.assign(m, std::vector<double>());
    for (int j = 0; j < m; ++j) {
      const int k = par.k[j];
      w[j].assign(n * k, 0.0);
      for (std::size_t x = 0; x < n; ++x) {
        double* wx = &w[j][x * k];
        if (run == 0 && !par.start.empty()) {
          wx[par.start[j * n + x]] = 1.0;
        } else {
          uniform_start_row(wx, k, hooks);  // as ib()
        }
      }
    }
    auto sweep = [&]() {
      double change = 0.0;
      for (int j = 0; j < m; ++j) change = std::max(change, state.update(j));
      return change;
    };
    const SoftRun run_log = iterate_memberships(par.max_iter, par.tol, m, hooks, sweep,
                                                [&]() { return state.objective(); });
    const double obj = run_log.trace.back();
    best.restart_objective.push_back(obj);
    if (obj > best.objective) {
      best.objective = obj;
      best.pcx = state.memberships();
      best.info_y = state.info_y();
      best.info_x.assign(m, 0.0);
      best.info_y_each.assign(m, 0.0);
      for (int j = 0; j < m; ++j) {
        best.info_x[j] = state.info_x(j);
        best.info_y_each[j] = state.info_y_of(j);
      }
      best.trace = run_log.trace;
      best.iterations = run_log.iterations;
      best.converged = run_log.converged;
    }
  }
  return best;
}

}  // namespace sideclust
