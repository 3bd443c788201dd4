// Costs of placing new rows into the clusters of a fitted information-
// bottleneck or co-clustering model, the fit held fixed (the predict()
// methods). Cluster tables are column-major (y-major): the value of cluster c
// at column y is at [y * k + c], so a row's non-zero entry reads k adjacent
// values (this is also R's layout of a k x m matrix). Results are n x k
// column-major, one column per cluster.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "common/info_sparse.h"

namespace sideclust {

// Sequential-IB merge cost of every new row x into every cluster c:
//   d(x, c) = max(0, sum_y [G(a_y) + G(b_y) - G(a_y + b_y)] + g) - inv_beta g,
//   g = G(w + P_c) - G(w) - G(P_c),  G(a) = a log a,
// with a_y = `scale` p(x, y) the new row's mass on the fitted scale (rows are
// normalized over all new rows; scale = their total / the fitted total),
// w = sum_y a_y, b_y = p(c, y) (`joint`, y-major) and P_c = sum_y b_y. Columns where
// a_y = 0 add nothing, so a row costs O(nnz(x) k). The bracket is a weighted
// JS divergence, >= 0 but for rounding.
inline std::vector<double> merge_costs(const JointCsr& rows, double scale,
                                       const std::vector<double>& joint, int k,
                                       double inv_beta) {
  const std::vector<double>& b = joint;
  std::vector<double> blogb(b.size()), mass(k, 0.0);
  for (std::size_t i = 0; i < b.size(); ++i) {
    blogb[i] = xlogx(b[i]);
    mass[i % k] += b[i];
  }
  std::vector<double> out(static_cast<std::size_t>(rows.n_rows) * k), d(k);
  for (int x = 0; x < rows.n_rows; ++x) {
    std::fill(d.begin(), d.end(), 0.0);
    double w = 0.0;
    for (int e = rows.ptr[x]; e < rows.ptr[x + 1]; ++e) {
      const double a = scale * rows.val[e];
      w += a;
      const double alog = xlogx(a);
      const std::size_t base = static_cast<std::size_t>(rows.idx[e]) * k;
      for (int c = 0; c < k; ++c) d[c] += alog + blogb[base + c] - xlogx(a + b[base + c]);
    }
    for (int c = 0; c < k; ++c) {
      const double g = xlogx(w + mass[c]) - xlogx(w) - xlogx(mass[c]);
      out[static_cast<std::size_t>(c) * rows.n_rows + x] = std::max(d[c] + g, 0.0) - inv_beta * g;
    }
  }
  return out;
}

// KL[p(.|x) || q'(.|c)] of every new row to every cluster's conditional:
// with scale = 0, q' = q (y-major, each cluster's values summing to 1), and a
// cluster that gives probability 0 to a column where the row has mass is
// +Inf away. With scale > 0, q' is the cluster's distribution once the row
// has joined it, q'_c = (w p(.|x) + P_c q_c) / (w + P_c), with w = scale
// p(x) the row's weight on the fitted scale and P_c = pc[c]: always finite,
// and q as w -> 0. Columns that every cluster gives probability 0 (never
// seen by the fit) say nothing about the clusters and are left out (the row
// is normalized over the others); a row with mass only there, or none at
// all, gets NaN.
inline std::vector<double> kl_costs(const JointCsr& rows, const std::vector<double>& q, int k,
                                    double scale = 0.0,
                                    const std::vector<double>& pc = std::vector<double>()) {
  const int m = rows.n_cols;
  std::vector<char> seen(m, 0);
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (q[i] > 0.0) seen[i / k] = 1;
  }
  std::vector<double> out(static_cast<std::size_t>(rows.n_rows) * k), d(k);
  for (int x = 0; x < rows.n_rows; ++x) {
    double mass = 0.0;
    for (int e = rows.ptr[x]; e < rows.ptr[x + 1]; ++e) {
      if (seen[rows.idx[e]]) mass += rows.val[e];
    }
    std::fill(d.begin(), d.end(), mass > 0.0 ? 0.0 : std::numeric_limits<double>::quiet_NaN());
    const double w = scale * mass;
    for (int e = rows.ptr[x]; e < rows.ptr[x + 1] && mass > 0.0; ++e) {
      if (!seen[rows.idx[e]]) continue;
      const double p = rows.val[e] / mass;
      const std::size_t base = static_cast<std::size_t>(rows.idx[e]) * k;
      for (int c = 0; c < k; ++c) {
        const double qc = w > 0.0 ? (w * p + pc[c] * q[base + c]) / (w + pc[c]) : q[base + c];
        d[c] += qc > 0.0 ? p * std::log(p / qc) : std::numeric_limits<double>::infinity();
      }
    }
    for (int c = 0; c < k; ++c) {
      out[static_cast<std::size_t>(c) * rows.n_rows + x] = std::isnan(d[c]) ? d[c] : std::max(d[c], 0.0);
    }
  }
  return out;
}

}  // namespace sideclust
