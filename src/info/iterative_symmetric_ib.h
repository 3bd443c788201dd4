// Iterative (soft) symmetric information bottleneck: TR-09-12's stationary
// equations (21)-(22) for Gin: X -> C_X, Y -> C_Y and Gout: C_X -> C_Y.
// For C_X only the second sum of (22) is left (C_X is the parent of C_Y), for
// C_Y only the last term (its parent C_X), so
//   p(c_X|x) = p(c_X) exp(-beta KL[p(c_Y|x) || p(c_Y|c_X)]) / Z(x, beta),
//   p(c_Y|y) = p(c_Y) exp(-beta KL[p(c_X|y) || p(c_X|c_Y)]) / Z(y, beta),
// with p(c_Y|x) = sum_y p(y|x) p(c_Y|y), p(c_X, c_Y) = sum_{x,y} p(x, y)
// p(c_X|x) p(c_Y|y) (the clusterings depend on the data only, as Gin says).
// An iteration updates the rows (column memberships fixed), then the columns,
// each from the distributions of the current memberships, as the iterative
// IB does; it costs O(nnz (k_r + k_c) + (n + m) k_r k_c). Runs stop when no
// membership changes by more than tol; the start with the highest
// L_max = I(C_X;C_Y) - [I(C_X;X) + I(C_Y;Y)] / beta is kept.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "common/info_sparse.h"
#include "common/run_hooks.h"
#include "info/ib_runs.h"

namespace sideclust {

struct IterativeSymmetricIbParams {
  int k_rows = 2, k_cols = 2;
  double beta = 1.0;
  int max_iter = 500;
  int restarts = 1;
  double tol = 1e-8;
  std::vector<int> start_rows, start_cols;  // 0-based hard starts, first restart
};

struct IterativeSymmetricIbResult {
  std::vector<double> rows, cols;  // p(c_X|x) n x k_rows, p(c_Y|y) m x k_cols, row-major
  std::vector<double> joint;       // p(c_X, c_Y), k_rows x k_cols row-major
  double objective = 0.0;          // L_max
  double info_clusters = 0.0, info_rows = 0.0, info_cols = 0.0;
  std::vector<double> trace;       // L_max after each iteration of the best start
  std::vector<double> restart_objective;
  int iterations = 0;
  bool converged = false;
};

namespace soft_mib {

// p(x, l) = sum_y p(x, y) v(y, l): n_rows x n_labels, row-major.
inline void compress_rows(const JointCsr& p, const std::vector<double>& v, int n_labels,
                          std::vector<double>& r) {
  r.assign(static_cast<std::size_t>(p.n_rows) * n_labels, 0.0);
  for (int x = 0; x < p.n_rows; ++x) {
    double* rx = &r[static_cast<std::size_t>(x) * n_labels];
    for (int e = p.ptr[x]; e < p.ptr[x + 1]; ++e) {
      const double* vy = &v[static_cast<std::size_t>(p.idx[e]) * n_labels];
      for (int l = 0; l < n_labels; ++l) rx[l] += p.val[e] * vy[l];
    }
  }
}

// Cluster masses pc (k) and joint q(c, l) (k x n_labels, row-major) of soft
// memberships w (n x k) given the compressed rows r (n x n_labels).
inline void joint_of(const JointCsr& p, const std::vector<double>& w, int k,
                     const std::vector<double>& r, int n_labels, std::vector<double>& pc,
                     std::vector<double>& q) {
  pc.assign(k, 0.0);
  q.assign(static_cast<std::size_t>(k) * n_labels, 0.0);
  for (int x = 0; x < p.n_rows; ++x) {
    const double* wx = &w[static_cast<std::size_t>(x) * k];
    const double* rx = &r[static_cast<std::size_t>(x) * n_labels];
    for (int c = 0; c < k; ++c) {
      pc[c] += p.px[x] * wx[c];
      double* qc = &q[static_cast<std::size_t>(c) * n_labels];
      for (int l = 0; l < n_labels; ++l) qc[l] += wx[c] * rx[l];
    }
  }
}

// One update of the memberships w (n x k) of the rows of p, the columns
// carrying soft labels v (n_cols x n_labels). Returns the largest change.
inline double update_side(const JointCsr& p, int k, int n_labels, double beta,
                          const std::vector<double>& v, std::vector<double>& w) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> r, pc, q;
  compress_rows(p, v, n_labels, r);
  joint_of(p, w, k, r, n_labels, pc, q);
  std::vector<double> logq(q.size());
  for (int c = 0; c < k; ++c) {
    for (int l = 0; l < n_labels; ++l) {
      const std::size_t i = static_cast<std::size_t>(c) * n_labels + l;
      logq[i] = (q[i] > 0.0 && pc[c] > 0.0) ? std::log(q[i] / pc[c]) : -inf;
    }
  }
  std::vector<double> kl(k), logit(k);
  double change = 0.0;
  for (int x = 0; x < p.n_rows; ++x) {
    const double* rx = &r[static_cast<std::size_t>(x) * n_labels];
    for (int c = 0; c < k; ++c) {
      // KL[p(l|x) || p(l|c)]; labels with p(l|x) = 0 add nothing.
      kl[c] = 0.0;
      for (int l = 0; l < n_labels; ++l) {
        const double a = rx[l] / p.px[x];
        if (a > 0.0) kl[c] += a * (std::log(a) - logq[static_cast<std::size_t>(c) * n_labels + l]);
      }
    }
    double* wx = &w[static_cast<std::size_t>(x) * k];
    change = std::max(change, update_membership_row(pc, kl, beta, logit, wx, wx));
  }
  return change;
}

// One-hot memberships of a hard partition.
inline void hard_memberships(const std::vector<int>& cl, int k, std::vector<double>& w) {
  w.assign(cl.size() * k, 0.0);
  for (std::size_t x = 0; x < cl.size(); ++x) w[x * k + cl[x]] = 1.0;
}

// Random memberships, each row Dirichlet(1, ..., 1): spread enough that the
// first updates see differences between the clusters.
inline void random_memberships(int n, int k, RunHooks& hooks, std::vector<double>& w) {
  w.assign(static_cast<std::size_t>(n) * k, 0.0);
  for (int x = 0; x < n; ++x) {
    double s = 0.0;
    for (int c = 0; c < k; ++c) {
      double u = hooks.uniform();
      while (u <= 0.0) u = hooks.uniform();
      s += (w[static_cast<std::size_t>(x) * k + c] = -std::log(u));
    }
    for (int c = 0; c < k; ++c) w[static_cast<std::size_t>(x) * k + c] /= s;
  }
}

}  // namespace soft_mib

inline IterativeSymmetricIbResult iterative_symmetric_ib_fit(
    const JointCsr& p, const IterativeSymmetricIbParams& par, RunHooks& hooks) {
  if (!(par.beta > 0.0) || !std::isfinite(par.beta)) {
    throw std::invalid_argument("beta must be positive and finite");
  }
  const JointCsr pt = transpose(p);
  const int kr = par.k_rows, kc = par.k_cols;
  IterativeSymmetricIbResult best;
  best.objective = -std::numeric_limits<double>::infinity();
  std::vector<double> wx, wy, r, pc, q;
  // L_max of the current memberships, with its three informations; fills q.
  auto evaluate = [&](double& icc, double& ix, double& iy) {
    soft_mib::compress_rows(p, wy, kc, r);
    soft_mib::joint_of(p, wx, kr, r, kc, pc, q);
    std::vector<double> col_mass(kc, 0.0);
    for (int c = 0; c < kr; ++c) {
      for (int l = 0; l < kc; ++l) col_mass[l] += q[static_cast<std::size_t>(c) * kc + l];
    }
    icc = 0.0;
    for (int c = 0; c < kr; ++c) {
      for (int l = 0; l < kc; ++l) {
        const double v = q[static_cast<std::size_t>(c) * kc + l];
        if (v > 0.0) icc += v * std::log(v / (pc[c] * col_mass[l]));
      }
    }
    icc = std::max(0.0, icc);
    ix = membership_information(p.px, wx, kr);
    iy = membership_information(p.py, wy, kc);
    return icc - (ix + iy) / par.beta;
  };
  for (int run = 0; run < par.restarts; ++run) {
    if (run == 0 && !par.start_rows.empty()) {
      soft_mib::hard_memberships(par.start_rows, kr, wx);
    } else {
      soft_mib::random_memberships(p.n_rows, kr, hooks, wx);
    }
    if (run == 0 && !par.start_cols.empty()) {
      soft_mib::hard_memberships(par.start_cols, kc, wy);
    } else {
      soft_mib::random_memberships(p.n_cols, kc, hooks, wy);
    }
    double icc = 0.0, ix = 0.0, iy = 0.0;
    auto sweep = [&]() {
      const double change = soft_mib::update_side(p, kr, kc, par.beta, wy, wx);
      return std::max(change, soft_mib::update_side(pt, kc, kr, par.beta, wx, wy));
    };
    const SoftRun run_log = iterate_memberships(par.max_iter, par.tol, kr, hooks, sweep,
                                                [&]() { return evaluate(icc, ix, iy); });
    const double obj = run_log.trace.back();
    best.restart_objective.push_back(obj);
    if (obj > best.objective) {
      best.objective = obj;
      best.rows = wx;
      best.cols = wy;
      best.joint = q;
      best.info_clusters = icc;
      best.info_rows = ix;
      best.info_cols = iy;
      best.trace = run_log.trace;
      best.iterations = run_log.iterations;
      best.converged = run_log.converged;
    }
  }
  return best;
}

}  // namespace sideclust
