// The seeding of MPCK-means from the must-link neighbourhoods (Bilenko et
// al. after Basu, Banerjee & Mooney 2002), completed by D^2 sampling.
// Plain C++17 + Eigen; randomness and interrupts come from RunHooks.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common/column_major_points.h"
#include "common/run_hooks.h"
#include "common/seeding.h"
#include "common/side_graph.h"
#include "common/union_find.h"

namespace sideclust {
namespace mpck_detail {

// D^2 sampling (Arthur & Vassilvitskii 2007) of k - m.cols() further points
// given the centres in m (p x m0): each draw has probability proportional to
// the squared distance to the nearest centre so far, the first one uniform
// when there is none; a draw is uniform when every point equals a centre.
inline Eigen::MatrixXd extend_by_d2(const ColumnMajorPoints& x, const Eigen::MatrixXd& m, int k,
                                    RunHooks& hooks) {
  const int n = x.n();
  Eigen::MatrixXd out(x.p(), k);
  Eigen::VectorXd d2 = Eigen::VectorXd::Constant(n, std::numeric_limits<double>::infinity());
  Eigen::VectorXd point(x.p());
  auto to_nearest = [&](const auto& centre) {
    for (int i = 0; i < n; ++i) {
      x.copy(i, point.data());
      d2[i] = std::min(d2[i], (point - centre).squaredNorm());
    }
  };
  const int m0 = static_cast<int>(m.cols());
  for (int j = 0; j < m0; ++j) {
    out.col(j) = m.col(j);
    to_nearest(m.col(j));
  }
  for (int j = m0; j < k; ++j) {
    const double total = j == 0 ? 0.0 : d2.sum();
    const int pick = total > 0.0 && std::isfinite(total)
                         ? proportional_index(d2.data(), n, total, hooks)
                         : uniform_index(n, hooks);
    x.copy(pick, out.col(j).data());
    hooks.poll_interrupt(static_cast<std::size_t>(n) * x.p());
    to_nearest(out.col(j));
  }
  return out;
}

// Bilenko et al.'s (after Basu, Banerjee & Mooney 2002) seeding from the
// neighbourhoods: the connected components of the must-link graph (pairs of
// positive weight) with at least two points. With at least k of them, k
// centroids by weighted farthest-first traversal (weights = sizes, the
// largest first, then the one maximizing size * squared distance to the
// nearest chosen); otherwise all centroids, completed by D^2 sampling.
inline Eigen::MatrixXd neighbourhood_seeds(const ColumnMajorPoints& x, const PairGraph& pairs, int k,
                                           RunHooks& hooks) {
  const int n = x.n();
  const int p = x.p();
  UnionFind sets(static_cast<std::size_t>(n));
  for (std::size_t l = 0; l < pairs.n_pairs(); ++l) {
    if (pairs.signed_weight[l] > 0) sets.unite(pairs.first[l], pairs.second[l]);
  }
  // numbered by first point; the sums, then the centroids, in one p x count
  // matrix allocated once (not a growing one and a copy: at one must-link per
  // ten points they held a fifth of a copy of the data)
  std::vector<int> root_id(n, -1);
  int count = 0;
  for (int i = 0; i < n; ++i) {
    const int root = static_cast<int>(sets.find(i));
    if (sets.set_size(root) >= 2 && root_id[root] < 0) root_id[root] = count++;
  }
  std::vector<double> size(count, 0.0);
  Eigen::MatrixXd centroid = Eigen::MatrixXd::Zero(p, count);
  for (int i = 0; i < n; ++i) {
    const int c = root_id[sets.find(i)];
    if (c < 0) continue;
    for (int d = 0; d < p; ++d) centroid(d, c) += x.at(i, d);
    size[c] += 1.0;
  }
  for (int c = 0; c < count; ++c) centroid.col(c) /= size[c];
  if (count < k) return extend_by_d2(x, centroid, k, hooks);
  Eigen::MatrixXd out(p, k);
  std::vector<double> d2(count, std::numeric_limits<double>::infinity());
  std::vector<bool> chosen(count, false);
  for (int j = 0; j < k; ++j) {
    int best = -1;
    double best_score = -1.0;
    for (int c = 0; c < count; ++c) {
      if (chosen[c]) continue;
      const double score = j == 0 ? size[c] : size[c] * d2[c];
      if (score > best_score) {
        best_score = score;
        best = c;
      }
    }
    chosen[best] = true;
    out.col(j) = centroid.col(best);
    hooks.poll_interrupt(static_cast<std::size_t>(count) * p);  // a pass over the centroids
    for (int c = 0; c < count; ++c) {
      d2[c] = std::min(d2[c], (centroid.col(c) - centroid.col(best)).squaredNorm());
    }
  }
  return out;
}

}  // namespace mpck_detail
}  // namespace sideclust
