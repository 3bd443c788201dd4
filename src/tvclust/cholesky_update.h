// Rank-one updates of a Cholesky factor: given lower-triangular L with
// A = L L^T, overwrite L with the factor of A + v v^T (update) or A - v v^T
// (downdate) in O(p^2), instead of refactorizing in O(p^3).
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

namespace sideclust {

// L is lower triangular (only its lower part is read and written); v is
// destroyed. Givens-style sweep down the columns.
inline void cholesky_update(Eigen::MatrixXd& L, Eigen::VectorXd v) {
  const Eigen::Index p = L.rows();
  for (Eigen::Index k = 0; k < p; ++k) {
    const double r = std::hypot(L(k, k), v(k));
    const double c = r / L(k, k), s = v(k) / L(k, k);
    L(k, k) = r;
    for (Eigen::Index i = k + 1; i < p; ++i) {
      L(i, k) = (L(i, k) + s * v(i)) / c;
      v(i) = c * v(i) - s * L(i, k);
    }
  }
}

// Downdate; throws std::domain_error when A - v v^T is not positive definite
// (which, for a scatter matrix, means the point was not in the cluster).
inline void cholesky_downdate(Eigen::MatrixXd& L, Eigen::VectorXd v) {
  const Eigen::Index p = L.rows();
  for (Eigen::Index k = 0; k < p; ++k) {
    const double d = (L(k, k) - v(k)) * (L(k, k) + v(k));
    if (!(d > 0.0)) throw std::domain_error(
        "a cluster's covariance lost positive definiteness when a point left it: `x` is "
        "numerically singular (duplicated points, collinear columns or very different "
        "column scales); scale() `x`, remove collinear columns, or use family = \"diagonal\"");
    const double r = std::sqrt(d);
    const double c = r / L(k, k), s = v(k) / L(k, k);
    L(k, k) = r;
    for (Eigen::Index i = k + 1; i < p; ++i) {
      L(i, k) = (L(i, k) - s * v(i)) / c;
      v(i) = c * v(i) - s * L(i, k);
    }
  }
}

}  // namespace sideclust
