// Iterative (soft) information bottleneck (Tishby, Pereira & Bialek 1999):
// the self-consistent equations (10)-(12) of TR-09-12 iterated from random
// memberships,
//   p(c|x) = p(c) exp(-beta KL[p(y|x) || p(y|c)]) / Z(x, beta),
//   p(c) = sum_x p(x) p(c|x),  p(y|c) = sum_x p(x, y) p(c|x) / p(c),
// until p(c|x) stops changing; the start with the lowest
// L = I(C;X) - beta I(C;Y) is kept. KL needs only the non-zero columns of x,
// so an iteration costs O(nnz * k + m * k).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common/info_sparse.h"
#include "common/run_hooks.h"
#include "info/ib_runs.h"

namespace sideclust {

struct IbParams {
  int k = 2;
  double beta = 1.0;
  int max_iter = 500;
  int restarts = 1;
  double tol = 1e-8;
};

struct IbResult {
  std::vector<double> pcx;    // n x k, row-major: p(c|x)
  std::vector<double> pc;     // p(c)
  std::vector<double> qyc;    // k x m, row-major: p(y|c)
  double info_x = 0.0, info_y = 0.0, objective = 0.0;
  std::vector<double> trace;  // L after each iteration of the best start
  std::vector<double> restart_objective;
  int iterations = 0;
  bool converged = false;
};

namespace ib_detail {

// Cluster masses and the joint p(c, y) (m x k, y-major) from p(c|x).
inline void cluster_stats(const JointCsr& p, const std::vector<double>& pcx, int k,
                          std::vector<double>& pc, std::vector<double>& qyc) {
  pc.assign(k, 0.0);
  qyc.assign(static_cast<std::size_t>(p.n_cols) * k, 0.0);
  for (int x = 0; x < p.n_rows; ++x) {
    const double* w = &pcx[static_cast<std::size_t>(x) * k];
    for (int c = 0; c < k; ++c) pc[c] += p.px[x] * w[c];
    for (int e = p.ptr[x]; e < p.ptr[x + 1]; ++e) {
      double* q = &qyc[static_cast<std::size_t>(p.idx[e]) * k];
      for (int c = 0; c < k; ++c) q[c] += p.val[e] * w[c];
    }
  }
}

// (I(C;X), I(C;Y)) of soft memberships.
inline std::pair<double, double> informations(const JointCsr& p, const std::vector<double>& pcx,
                                              int k, const std::vector<double>& pc,
                                              const std::vector<double>& qyc) {
  double iy = 0.0;
  for (int y = 0; y < p.n_cols; ++y) {
    for (int c = 0; c < k; ++c) {
      const double v = qyc[static_cast<std::size_t>(y) * k + c];
      if (v > 0.0) iy += v * std::log(v / (pc[c] * p.py[y]));
    }
  }
  return {membership_information(p.px, pcx, k, pc), std::max(0.0, iy)};
}

}  // namespace ib_detail

inline IbResult ib_fit(const JointCsr& p, const IbParams& par, RunHooks& hooks) {
  const int n = p.n_rows, m = p.n_cols, k = par.k;
  const double inf = std::numeric_limits<double>::infinity();
  IbResult best;
  best.objective = inf;
  std::vector<double> pcx(static_cast<std::size_t>(n) * k), next(pcx.size());
  std::vector<double> pc, qyc, logq(static_cast<std::size_t>(m) * k), kl(k), logit(k);
  const std::vector<double> self = row_self_information(p);
  for (int run = 0; run < par.restarts; ++run) {
    for (int x = 0; x < n; ++x) uniform_start_row(&pcx[static_cast<std::size_t>(x) * k], k, hooks);
    auto sweep = [&]() {
      ib_detail::cluster_stats(p, pcx, k, pc, qyc);
      for (std::size_t i = 0; i < logq.size(); ++i) {
        const double mass = pc[i % k];
        logq[i] = (qyc[i] > 0.0 && mass > 0.0) ? std::log(qyc[i] / mass) : -inf;
      }
      double change = 0.0;
      for (int x = 0; x < n; ++x) {
        std::fill(kl.begin(), kl.end(), self[x]);
        for (int e = p.ptr[x]; e < p.ptr[x + 1]; ++e) {
          const double r = p.val[e] / p.px[x];
          const double* lq = &logq[static_cast<std::size_t>(p.idx[e]) * k];
          for (int c = 0; c < k; ++c) kl[c] -= r * lq[c];
        }
        const std::size_t at = static_cast<std::size_t>(x) * k;
        change = std::max(change, update_membership_row(pc, kl, par.beta, logit, &pcx[at],
                                                        &next[at]));
      }
      pcx.swap(next);
      return change;
    };
    auto objective = [&]() {
      ib_detail::cluster_stats(p, pcx, k, pc, qyc);
      const auto info = ib_detail::informations(p, pcx, k, pc, qyc);
      return info.first - par.beta * info.second;
    };
    const SoftRun run_log = iterate_memberships(par.max_iter, par.tol, k, hooks, sweep, objective);
    ib_detail::cluster_stats(p, pcx, k, pc, qyc);
    const auto info = ib_detail::informations(p, pcx, k, pc, qyc);
    const double obj = info.first - par.beta * info.second;
    best.restart_objective.push_back(obj);
    if (obj < best.objective) {
      best.objective = obj;
      best.info_x = info.first;
      best.info_y = info.second;
      best.pcx = pcx;
      best.pc = pc;
      best.qyc.assign(static_cast<std::size_t>(k) * m, 0.0);
      for (int y = 0; y < m; ++y) {
        for (int c = 0; c < k; ++c) {
          if (pc[c] > 0.0) best.qyc[static_cast<std::size_t>(c) * m + y] = qyc[static_cast<std::size_t>(y) * k + c] / pc[c];
        }
      }
      best.trace = run_log.trace;
      best.iterations = run_log.iterations;
      best.converged = run_log.converged;
    }
  }
  return best;
}

}  // namespace sideclust
