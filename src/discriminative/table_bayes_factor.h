// Log Bayes factor of a clusters x classes contingency table (Kaski et al.'s
// objective, equation (60) of TR-09-12) and its derivative with respect to
// the (possibly fractional) cell counts. Plain C++17 + Eigen.
//
// Dependence model: every cluster c has its own class distribution psi_c ~
// Dirichlet(n0, ..., n0); independence model: one psi shared by all
// clusters. With the cluster sizes given, the log marginal likelihoods give
//   log BF = sum_c [lgamma(M n0) - lgamma(N_c + M n0)
//                   + sum_y (lgamma(n_cy + n0) - lgamma(n0))]
//          - [lgamma(M n0) - lgamma(N + M n0) + sum_y (lgamma(N_y + n0) - lgamma(n0))],
// where N_c = sum_y n_cy, N_y = sum_c n_cy and N = sum_cy n_cy. The second
// line only depends on the class totals, which the clustering cannot change;
// it makes a single cluster (or a single class) score exactly 0.
#pragma once

#include <Eigen/Dense>

#include <cmath>
#include <stdexcept>

#include "common/digamma.h"

namespace sideclust {

// digamma() of a soft count: only non-finite soft counts (memberships that
// over- or underflowed) can be non-positive, and the user can fix that.
inline double count_digamma(double x) {
  if (!(x > 0.0) || !std::isfinite(x)) {
    throw std::domain_error(
        "the soft cluster counts are not finite: `sigma` is too small for the scale of `x` "
        "(or `x` is beyond double precision); scale() `x` or give a larger `sigma`");
  }
  return digamma(x);
}

// log BF of the table `counts` (k x M, nonnegative) and, in `dcounts`, its
// partial derivatives d log BF / d n_cy = digamma(n_cy + n0) - digamma(N_c + M n0).
inline double table_log_bayes_factor(const Eigen::MatrixXd& counts, double n0,
                                     Eigen::MatrixXd* dcounts = nullptr) {
  const Eigen::Index k = counts.rows(), m = counts.cols();
  const double total_prior = static_cast<double>(m) * n0;
  const double lg_n0 = std::lgamma(n0), lg_total_prior = std::lgamma(total_prior);
  if (dcounts != nullptr) dcounts->resize(k, m);
  double value = 0.0;
  for (Eigen::Index c = 0; c < k; ++c) {
    const double size = counts.row(c).sum();
    value += lg_total_prior - std::lgamma(size + total_prior);
    const double dg_size = dcounts != nullptr ? count_digamma(size + total_prior) : 0.0;
    for (Eigen::Index y = 0; y < m; ++y) {
      value += std::lgamma(counts(c, y) + n0) - lg_n0;
      if (dcounts != nullptr) (*dcounts)(c, y) = count_digamma(counts(c, y) + n0) - dg_size;
    }
  }
  const Eigen::RowVectorXd class_total = counts.colwise().sum();
  value -= lg_total_prior - std::lgamma(class_total.sum() + total_prior);
  for (Eigen::Index y = 0; y < m; ++y) value -= std::lgamma(class_total[y] + n0) - lg_n0;
  return value;
}

}  // namespace sideclust
