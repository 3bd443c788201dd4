// Information-theoretic co-clustering (Dhillon, Mallela & Modha 2003):
// alternate row and column reassignments that never increase the loss
// I(X;Y) - I(X^;Y^). With q(x, y) = p(x^, y^) p(x|x^) p(y|y^), the row step
// sends x to argmin_{x^} KL[p(Y|x) || q(Y|x^)]; since
// q(y|x^) = p(y)/p(y^) * p(x^, y^)/p(x^), that is
//   argmax_{x^} sum_{y^} p(x, y^) log(p(x^, y^) / p(x^)),
// where p(x, y^) sums row x over each column cluster: O(nnz(x) + kx * ky) per
// row. The column step is the same on the transpose.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common/info_sparse.h"
#include "common/run_hooks.h"

namespace sideclust {

struct ItccParams {
  int k_rows = 2, k_cols = 2;
  int max_iter = 100;
  int restarts = 1;
  double tol = 1e-10;
  std::vector<int> start_rows, start_cols;  // 0-based, first restart only
};

struct ItccResult {
  std::vector<int> rows, cols;
  std::vector<double> loss_trace;  // loss at the start and after each half-step
  std::vector<double> restart_loss;
  double loss = 0.0, info_xy = 0.0, info_clusters = 0.0;
  std::vector<double> joint;  // k_rows x k_cols, row-major: p(x^, y^)
  int iterations = 0;
  bool converged = false;
};

namespace itcc_detail {

// p(x^, y^) (kx x ky row-major) from the row-compressed joint.
inline std::vector<double> cluster_joint(const JointCsr& p, const std::vector<int>& rx,
                                         const std::vector<int>& cy, int kx, int ky) {
  std::vector<double> j(static_cast<std::size_t>(kx) * ky, 0.0);
  for (int x = 0; x < p.n_rows; ++x) {
    for (int e = p.ptr[x]; e < p.ptr[x + 1]; ++e) {
      j[static_cast<std::size_t>(rx[x]) * ky + cy[p.idx[e]]] += p.val[e];
    }
  }
  return j;
}

// I(X^;Y^) of a kx x ky joint.
inline double joint_information(const std::vector<double>& j, int kx, int ky) {
  std::vector<double> a(kx, 0.0), b(ky, 0.0);
  for (int r = 0; r < kx; ++r) {
    for (int c = 0; c < ky; ++c) {
      a[r] += j[static_cast<std::size_t>(r) * ky + c];
      b[c] += j[static_cast<std::size_t>(r) * ky + c];
    }
  }
  double s = 0.0;
  for (int r = 0; r < kx; ++r) {
    for (int c = 0; c < ky; ++c) {
      const double v = j[static_cast<std::size_t>(r) * ky + c];
      if (v > 0.0) s += v * std::log(v / (a[r] * b[c]));
    }
  }
  return s;
}

// One reassignment of the rows of p (row clusters rx, column clusters cy),
// given the cluster joint jt (kx x ky). Returns the number of rows moved.
inline long long reassign(const JointCsr& p, std::vector<int>& rx, const std::vector<int>& cy,
                          const std::vector<double>& jt, int kx, int ky, RunHooks& hooks) {
  const double ninf = -std::numeric_limits<double>::infinity();
  std::vector<double> mass(kx, 0.0), logq(static_cast<std::size_t>(kx) * ky), u(ky);
  for (int r = 0; r < kx; ++r) {
    for (int c = 0; c < ky; ++c) mass[r] += jt[static_cast<std::size_t>(r) * ky + c];
  }
  for (int r = 0; r < kx; ++r) {
    for (int c = 0; c < ky; ++c) {
      const double v = jt[static_cast<std::size_t>(r) * ky + c];
      logq[static_cast<std::size_t>(r) * ky + c] = v > 0.0 ? std::log(v / mass[r]) : ninf;
    }
  }
  long long moved = 0;
  const std::size_t work = static_cast<std::size_t>(kx) * ky;
  for (int x = 0; x < p.n_rows; ++x) {
    hooks.poll_interrupt(work + (p.ptr[x + 1] - p.ptr[x]));
    std::fill(u.begin(), u.end(), 0.0);
    for (int e = p.ptr[x]; e < p.ptr[x + 1]; ++e) u[cy[p.idx[e]]] += p.val[e];
    auto score = [&](int r) {
      if (!(mass[r] > 0.0)) return ninf;
      double s = 0.0;
      for (int c = 0; c < ky; ++c) {
        if (u[c] > 0.0) s += u[c] * logq[static_cast<std::size_t>(r) * ky + c];
      }
      return s;
    };
    int best = rx[x];
    double best_s = score(best);
    for (int r = 0; r < kx; ++r) {
      const double s = score(r);
      // A move needs a gain beyond rounding, relative to the row's mass.
      if (s > best_s + 1e-12 * p.px[x]) {
        best_s = s;
        best = r;
      }
    }
    if (best != rx[x]) {
      rx[x] = best;
      ++moved;
    }
  }
  return moved;
}

inline std::vector<double> transpose_joint(const std::vector<double>& j, int kx, int ky) {
  std::vector<double> t(j.size());
  for (int r = 0; r < kx; ++r) {
    for (int c = 0; c < ky; ++c) t[static_cast<std::size_t>(c) * kx + r] = j[static_cast<std::size_t>(r) * ky + c];
  }
  return t;
}

}  // namespace itcc_detail

inline ItccResult itcc_fit(const JointCsr& p, const ItccParams& par, RunHooks& hooks) {
  const int kx = par.k_rows, ky = par.k_cols;
  if (kx < 1 || kx > p.n_rows || ky < 1 || ky > p.n_cols) {
    throw std::invalid_argument("numbers of clusters out of range");
  }
  const JointCsr pt = transpose(p);
  ItccResult best;
  best.info_xy = mutual_information(p);
  best.loss = std::numeric_limits<double>::infinity();
  auto uniform = [&hooks]() { return hooks.uniform(); };
  for (int run = 0; run < par.restarts; ++run) {
    std::vector<int> rx = (run == 0 && !par.start_rows.empty()) ? par.start_rows
                                                                 : random_partition(p.n_rows, kx, uniform);
    std::vector<int> cy = (run == 0 && !par.start_cols.empty()) ? par.start_cols
                                                                : random_partition(p.n_cols, ky, uniform);
    std::vector<double> jt = itcc_detail::cluster_joint(p, rx, cy, kx, ky);
    std::vector<double> trace{best.info_xy - itcc_detail::joint_information(jt, kx, ky)};
    int it = 0;
    bool converged = false;
    while (it < par.max_iter) {
      const long long mr = itcc_detail::reassign(p, rx, cy, jt, kx, ky, hooks);
      jt = itcc_detail::cluster_joint(p, rx, cy, kx, ky);
      trace.push_back(best.info_xy - itcc_detail::joint_information(jt, kx, ky));
      const std::vector<double> jtt = itcc_detail::transpose_joint(jt, kx, ky);
      const long long mc = itcc_detail::reassign(pt, cy, rx, jtt, ky, kx, hooks);
      jt = itcc_detail::cluster_joint(p, rx, cy, kx, ky);
      trace.push_back(best.info_xy - itcc_detail::joint_information(jt, kx, ky));
      ++it;
      hooks.check_interrupt();
      hooks.on_sweep(it, kx, trace.back());
      const double drop = trace[trace.size() - 3] - trace.back();
      if (mr + mc == 0 || drop <= par.tol * std::max(best.info_xy, 1e-300)) {
        converged = true;
        break;
      }
    }
    const double loss = trace.back();
    best.restart_loss.push_back(loss);
    if (loss < best.loss) {
      best.loss = loss;
      best.rows = rx;
      best.cols = cy;
      best.loss_trace = trace;
      best.joint = jt;
      best.info_clusters = best.info_xy - loss;
      best.iterations = it;
      best.converged = converged;
    }
  }
  return best;
}

}  // namespace sideclust
