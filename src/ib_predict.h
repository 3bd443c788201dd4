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

#include "info_sparse.h"

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

// KL[p(.|x) || q(.|c)] of every new row to every cluster's conditional `q`
// (y-major, each cluster's values summing to 1); +Inf where the row has mass
// on a column that q_c gives probability 0. Columns that every cluster gives
// probability 0 (never seen by the fit) say nothing about the clusters: the
// row is normalized over the other columns, and a row with mass only there
// (or none at all) gets NaN.
inline std::vector<double> kl_costs(const JointCsr& rows, const std::vector<double>& q, int k) {
  const int m = rows.n_cols;
  std::vector<double> logq(q.size());
  std::vector<char> seen(m, 0);
  for (std::size_t i = 0; i < q.size(); ++i) {
    logq[i] = q[i] > 0.0 ? std::log(q[i]) : -std::numeric_limits<double>::infinity();
    if (q[i] > 0.0) seen[i / k] = 1;
  }
  std::vector<double> out(static_cast<std::size_t>(rows.n_rows) * k), d(k);
  for (int x = 0; x < rows.n_rows; ++x) {
    double mass = 0.0;
    for (int e = rows.ptr[x]; e < rows.ptr[x + 1]; ++e) {
      if (seen[rows.idx[e]]) mass += rows.val[e];
    }
    std::fill(d.begin(), d.end(), mass > 0.0 ? 0.0 : std::numeric_limits<double>::quiet_NaN());
    for (int e = rows.ptr[x]; e < rows.ptr[x + 1] && mass > 0.0; ++e) {
      if (!seen[rows.idx[e]]) continue;
      const double p = rows.val[e] / mass;
      const std::size_t base = static_cast<std::size_t>(rows.idx[e]) * k;
      for (int c = 0; c < k; ++c) d[c] += p * (std::log(p) - logq[base + c]);
    }
    for (int c = 0; c < k; ++c) {
      out[static_cast<std::size_t>(c) * rows.n_rows + x] = std::isnan(d[c]) ? d[c] : std::max(d[c], 0.0);
    }
  }
  return out;
}

}  // namespace sideclust
