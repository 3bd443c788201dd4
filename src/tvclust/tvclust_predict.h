// TVClust's rules for new points, the side information left out (a new
// point has no pairs): the collapsed sampler's predictive weights and the
// variational fit's expected log-likelihoods. The front doors turn them
// into probabilities (adding log alpha or the stick weights). Plain C++17.
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <vector>

#include "tvclust/points.h"

namespace sideclust {

// Collapsed sampler: out(j, c) = log n_c + log p(x_j | points of cluster c)
// for the k clusters of `cluster` (0-based, one per point of x), and
// out(j, k) = log p(x_j) under the prior alone (a new cluster; the caller
// adds log alpha). `empty` is an empty cluster of the family; `out` holds
// point_count(newx) x (k + 1) numbers, column-major.
template <class Family, class Points, class NewPoints>
void tvclust_predictive_weights(const Points& x, const std::vector<int>& cluster, int k,
                                const Family& empty, const NewPoints& newx, double* out) {
  std::vector<Family> clusters(k, empty);
  for (int i = 0; i < point_count(x); ++i) clusters[cluster[i]].add(point(x, i));
  const int m = point_count(newx);
  Eigen::Map<Eigen::MatrixXd> o(out, m, k + 1);
  for (int j = 0; j < m; ++j) {
    for (int c = 0; c < k; ++c) {
      o(j, c) = std::log(static_cast<double>(clusters[c].size())) +
                clusters[c].log_predictive(point(newx, j));
    }
    o(j, k) = empty.log_predictive(point(newx, j));
  }
}

// Variational fit: out(j, c) = E log f(x_j | theta_c) under the factor
// q(theta_c) refitted from x with the weights of column c of `membership`
// (n x k), and a last column under the prior factor `empty` (an unused
// component). `out` holds point_count(newx) x (k + 1) numbers, column-major.
template <class Factor, class Points, class NewPoints>
void tvclust_vb_expected_loglik(const Points& x, const Eigen::MatrixXd& membership,
                                const Factor& empty, const NewPoints& newx, double* out) {
  const int k = static_cast<int>(membership.cols());
  const int m = point_count(newx);
  Eigen::VectorXd e(m);
  for (int c = 0; c <= k; ++c) {
    Factor factor = empty;
    if (c < k) factor.fit(x, membership.col(c));
    factor.expected_log_lik(newx, e);
    for (int j = 0; j < m; ++j) out[static_cast<std::size_t>(c) * m + j] = e(j);
  }
}

}  // namespace sideclust
