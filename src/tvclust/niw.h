// Normal-inverse-Wishart conjugate family for Gaussian clusters with full
// covariance, for collapsed samplers: the cluster parameters are integrated
// out and a cluster is its sufficient statistics. Adding or removing a point
// and evaluating the posterior predictive density each cost O(p^2), through a
// cached Cholesky factor of the posterior scale matrix.
//
// Prior: mu | Sigma ~ N(m0, Sigma / kappa0), Sigma ~ IW(nu0, S0), nu0 > p - 1.
// After n points: kappa = kappa0 + n, nu = nu0 + n,
//   m = (kappa0 m0 + sum x) / kappa,
//   S = S0 + scatter + kappa0 n / kappa (xbar - m0)(xbar - m0)^T,
// and adding x changes S by kappa / (kappa + 1) (x - m)(x - m)^T (with the
// old kappa and m), which is a rank-one Cholesky update.
#pragma once

#include <Eigen/Dense>
#include <cmath>

#include "tvclust/cholesky_update.h"

namespace sideclust {

constexpr double kPi = 3.14159265358979323846;

struct NiwPrior {
  Eigen::VectorXd m0;
  double kappa0 = 1.0;
  double nu0 = 1.0;
  Eigen::MatrixXd S0;
};

// log of the multivariate gamma function Gamma_p(a).
inline double log_multigamma(double a, int p) {
  const double log_pi = std::log(kPi);
  double out = p * (p - 1) / 4.0 * log_pi;
  for (int j = 0; j < p; ++j) out += std::lgamma(a - j / 2.0);
  return out;
}

class NiwCluster {
 public:
  explicit NiwCluster(const NiwPrior& prior)
      : prior_(&prior), n_(0), kappa_(prior.kappa0), nu_(prior.nu0), m_(prior.m0),
        L_(prior.S0.llt().matrixL()) {
    prior_log_det_ = log_det();
  }

  int size() const { return n_; }
  const Eigen::VectorXd& mean() const { return m_; }

  void add(const Eigen::Ref<const Eigen::VectorXd>& x) {
    const Eigen::VectorXd diff = x - m_;
    cholesky_update(L_, std::sqrt(kappa_ / (kappa_ + 1.0)) * diff);
    m_ += diff / (kappa_ + 1.0);
    kappa_ += 1.0;
    nu_ += 1.0;
    ++n_;
  }

  // x must be one of the points added before.
  void remove(const Eigen::Ref<const Eigen::VectorXd>& x) {
    const Eigen::VectorXd m_before = (kappa_ * m_ - x) / (kappa_ - 1.0);
    kappa_ -= 1.0;
    nu_ -= 1.0;
    --n_;
    cholesky_downdate(L_, std::sqrt(kappa_ / (kappa_ + 1.0)) * (x - m_before));
    m_ = m_before;
  }

  // log of the posterior predictive density at x: a multivariate t with
  // nu - p + 1 degrees of freedom, location m and scale
  // S (kappa + 1) / (kappa (nu - p + 1)).
  double log_predictive(const Eigen::Ref<const Eigen::VectorXd>& x) const {
    const double p = static_cast<double>(m_.size());
    const double df = nu_ - p + 1.0;
    const double scale = (kappa_ + 1.0) / (kappa_ * df);
    // Mahalanobis term with S = L L^T: |L^{-1} (x - m)|^2 / scale.
    const Eigen::VectorXd z = L_.triangularView<Eigen::Lower>().solve(x - m_);
    const double maha = z.squaredNorm() / scale;
    const double log_det_scale = log_det() + p * std::log(scale);
    return std::lgamma((df + p) / 2.0) - std::lgamma(df / 2.0) -
           p / 2.0 * std::log(df * kPi) - 0.5 * log_det_scale -
           (df + p) / 2.0 * std::log1p(maha / df);
  }

  // log of the marginal likelihood of the cluster's points under the prior.
  double log_marginal() const {
    const double p = static_cast<double>(m_.size());
    const int pi = static_cast<int>(m_.size());
    return -n_ * p / 2.0 * std::log(kPi) + log_multigamma(nu_ / 2.0, pi) -
           log_multigamma(prior_->nu0 / 2.0, pi) + prior_->nu0 / 2.0 * prior_log_det_ -
           nu_ / 2.0 * log_det() + p / 2.0 * (std::log(prior_->kappa0) - std::log(kappa_));
  }

 private:
  double log_det() const { return 2.0 * L_.diagonal().array().log().sum(); }

  const NiwPrior* prior_;
  int n_;
  double kappa_, nu_;
  Eigen::VectorXd m_;
  Eigen::MatrixXd L_;  // lower Cholesky factor of the posterior scale S
  double prior_log_det_ = 0.0;
};

}  // namespace sideclust
