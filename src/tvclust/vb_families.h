// Mean-field factors q(theta_k) of TVClust's cluster parameters for the
// variational fit (tvclust_vb.h): the same conjugate priors as the collapsed
// sampler (niw.h, conjugate_simple.h), updated from responsibility-weighted
// sufficient statistics (Blei & Jordan 2006; Bishop 2006, Section 10.2).
//
// Each family offers
//   fit(x, w)              q(theta) = prior x prod_i f(x_i | theta)^{w_i}: O(n p^2)
//   expected_log_lik(x, o) o_i = E_q[log f(x_i | theta)] without point_constant()
//   kl_to_prior()          KL(q(theta) || prior)
//   point_constant(x)      the part of log f(x | theta) free of theta (static)
// so that, for one-hot weights, sum_i (E log f + point constant) - KL equals
// the collapsed cluster's log_marginal() (the tests check this identity).
// Data enter centred at the prior mean, which keeps the weighted scatter
// well conditioned.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "common/column_blocks.h"
#include "common/digamma.h"
#include "tvclust/conjugate_simple.h"
#include "tvclust/niw.h"
#include "tvclust/points.h"

namespace sideclust {

// KL(Beta(a, b) || Beta(a0, b0)).
inline double kl_beta(double a, double b, double a0, double b0) {
  const double lbeta = std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b);
  const double lbeta0 = std::lgamma(a0) + std::lgamma(b0) - std::lgamma(a0 + b0);
  return lbeta0 - lbeta + (a - a0) * digamma(a) + (b - b0) * digamma(b) +
         (a0 - a + b0 - b) * digamma(a + b);
}

// KL(Gamma(a, rate b) || Gamma(a0, rate b0)).
inline double kl_gamma(double a, double b, double a0, double b0) {
  return (a - a0) * digamma(a) - std::lgamma(a) + std::lgamma(a0) + a0 * (std::log(b) - std::log(b0)) +
         a * (b0 - b) / b;
}

// Full covariance: q(mu, Sigma) = NIW(m, kappa, nu, S).
class VbGaussian {
 public:
  explicit VbGaussian(const NiwPrior& prior) : prior_(&prior) {
    const Eigen::Index p = prior.m0.size();
    L0_ = prior.S0.llt().matrixL();
    log_det0_ = 2.0 * L0_.diagonal().array().log().sum();
    fit(Eigen::MatrixXd(p, 0), Eigen::VectorXd(0));
  }

  void fit(const Eigen::Ref<const Eigen::MatrixXd>& x, const Eigen::Ref<const Eigen::VectorXd>& w) {
    const NiwPrior& pr = *prior_;
    const Eigen::Index p = pr.m0.size();
    const double total = w.sum();
    Eigen::VectorXd s = Eigen::VectorXd::Zero(p);
    Eigen::MatrixXd scatter = Eigen::MatrixXd::Zero(p, p), y, ys;
    // sum_i w_i y_i y_i^T as rank updates of the lower half, block by block
    for_column_blocks(x.cols(), [&](Eigen::Index j, Eigen::Index m) {
      y = x.middleCols(j, m).colwise() - pr.m0;
      s.noalias() += y * w.segment(j, m);
      ys = y.array().rowwise() * w.segment(j, m).transpose().array().max(0.0).sqrt();
      scatter.selfadjointView<Eigen::Lower>().rankUpdate(ys);
    });
    scatter = scatter.selfadjointView<Eigen::Lower>();
    kappa_ = pr.kappa0 + total;
    nu_ = pr.nu0 + total;
    m_ = pr.m0 + s / kappa_;
    const Eigen::MatrixXd S = pr.S0 + scatter - s * s.transpose() / kappa_;
    Eigen::LLT<Eigen::MatrixXd> llt(S);
    L_ = llt.info() == Eigen::Success ? Eigen::MatrixXd(llt.matrixL()) : L0_;
    log_det_ = 2.0 * L_.diagonal().array().log().sum();
    double e_log_det = p * std::log(2.0) - log_det_;  // E log |Sigma^{-1}|
    for (Eigen::Index d = 0; d < p; ++d) e_log_det += digamma((nu_ - d) / 2.0);
    constant_ = 0.5 * e_log_det - 0.5 * p * std::log(2.0 * kPi) - 0.5 * p / kappa_;
  }

  // 0.5 E log|Lambda| - p/2 log(2 pi) - p / (2 kappa) - nu/2 |L^{-1} (x - m)|^2.
  void expected_log_lik(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::VectorXd> out) const {
    Eigen::MatrixXd z;
    for_column_blocks(x.cols(), [&](Eigen::Index j, Eigen::Index m) {
      z = x.middleCols(j, m).colwise() - m_;
      L_.triangularView<Eigen::Lower>().solveInPlace(z);
      out.segment(j, m) = (constant_ - 0.5 * nu_ * z.colwise().squaredNorm().array()).matrix().transpose();
    });
  }

  // KL of the Wishart factor on Sigma^{-1} plus the expected KL of the mean.
  double kl_to_prior() const {
    const NiwPrior& pr = *prior_;
    const int p = static_cast<int>(pr.m0.size());
    double psi_p = 0.0;
    for (int d = 0; d < p; ++d) psi_p += digamma((nu_ - d) / 2.0);
    const Eigen::MatrixXd a = L_.triangularView<Eigen::Lower>().solve(L0_);
    const double trace = a.squaredNorm();  // tr(S0 S^{-1})
    const double wishart = (nu_ - pr.nu0) / 2.0 * psi_p + log_multigamma(pr.nu0 / 2.0, p) -
                           log_multigamma(nu_ / 2.0, p) + pr.nu0 / 2.0 * (log_det_ - log_det0_) +
                           nu_ / 2.0 * (trace - p);
    const Eigen::VectorXd gap = L_.triangularView<Eigen::Lower>().solve(m_ - pr.m0);
    const double mean = 0.5 * (p * pr.kappa0 / kappa_ + pr.kappa0 * nu_ * gap.squaredNorm() - p +
                               p * std::log(kappa_ / pr.kappa0));
    return wishart + mean;
  }

  static double point_constant(const Eigen::Ref<const Eigen::VectorXd>&) { return 0.0; }

  const Eigen::VectorXd& mean() const { return m_; }

 private:
  const NiwPrior* prior_;
  Eigen::MatrixXd L0_, L_;  // Cholesky factors of S0 and S
  double log_det0_ = 0.0, log_det_ = 0.0;
  double kappa_ = 0.0, nu_ = 0.0, constant_ = 0.0;
  Eigen::VectorXd m_;
};

// Independent coordinates: q(mu_d, tau_d) = N(m_d, 1 / (kappa tau_d)) Gamma(a, b_d).
class VbDiagonal {
 public:
  explicit VbDiagonal(const NormalGammaPrior& prior) : prior_(&prior) {
    fit(Eigen::MatrixXd(prior.m0.size(), 0), Eigen::VectorXd(0));
  }

  void fit(const Eigen::Ref<const Eigen::MatrixXd>& x, const Eigen::Ref<const Eigen::VectorXd>& w) {
    const NormalGammaPrior& pr = *prior_;
    const double total = w.sum();
    const Eigen::Index dims = pr.m0.size();
    Eigen::VectorXd s = Eigen::VectorXd::Zero(dims), sq = Eigen::VectorXd::Zero(dims);
    Eigen::MatrixXd y;
    for_column_blocks(x.cols(), [&](Eigen::Index j, Eigen::Index m) {
      y = x.middleCols(j, m).colwise() - pr.m0;
      s.noalias() += y * w.segment(j, m);
      sq.noalias() += y.array().square().matrix() * w.segment(j, m);
    });
    kappa_ = pr.kappa0 + total;
    a_ = pr.a0 + total / 2.0;
    m_ = pr.m0 + s / kappa_;
    b_ = (pr.b0.array() + 0.5 * (sq.array() - s.array().square() / kappa_)).max(pr.b0.array());
    precision_ = a_ / b_.array();
    const double p = static_cast<double>(pr.m0.size());
    constant_ = 0.5 * (p * digamma(a_) - b_.array().log().sum()) - 0.5 * p * std::log(2.0 * kPi) -
                0.5 * p / kappa_;
  }

  void expected_log_lik(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::VectorXd> out) const {
    Eigen::ArrayXXd d;
    for_column_blocks(x.cols(), [&](Eigen::Index j, Eigen::Index m) {
      d = (x.middleCols(j, m).colwise() - m_).array().square();
      out.segment(j, m) = (constant_ - 0.5 * (d.colwise() * precision_.array()).colwise().sum()).matrix().transpose();
    });
  }

  double kl_to_prior() const {
    const NormalGammaPrior& pr = *prior_;
    double out = 0.0;
    for (Eigen::Index d = 0; d < m_.size(); ++d) {
      const double gap = m_(d) - pr.m0(d);
      out += kl_gamma(a_, b_(d), pr.a0, pr.b0(d)) +
             0.5 * (pr.kappa0 / kappa_ + pr.kappa0 * precision_(d) * gap * gap - 1.0 +
                    std::log(kappa_ / pr.kappa0));
    }
    return out;
  }

  static double point_constant(const Eigen::Ref<const Eigen::VectorXd>&) { return 0.0; }

  const Eigen::VectorXd& mean() const { return m_; }

 private:
  const NormalGammaPrior* prior_;
  double kappa_ = 0.0, a_ = 0.0, constant_ = 0.0;
  Eigen::VectorXd m_, b_, precision_;
};

// Counts: q(phi) = Dirichlet(alpha0 + sum_i w_i x_i).
class VbMultinomial {
 public:
  explicit VbMultinomial(const Eigen::VectorXd& alpha) : alpha0_(&alpha) {
    fit(Eigen::MatrixXd(alpha.size(), 0), Eigen::VectorXd(0));
  }

  void fit(const Eigen::Ref<const Eigen::MatrixXd>& x, const Eigen::Ref<const Eigen::VectorXd>& w) {
    a_ = *alpha0_ + x * w;
    const double total = digamma(a_.sum());
    e_log_phi_ = a_.unaryExpr([](double v) { return digamma(v); }).array() - total;
  }

  void expected_log_lik(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::VectorXd> out) const {
    out.noalias() = x.transpose() * e_log_phi_;
  }

  double kl_to_prior() const {
    const Eigen::VectorXd& a0 = *alpha0_;
    double out = std::lgamma(a_.sum()) - std::lgamma(a0.sum());
    for (Eigen::Index d = 0; d < a_.size(); ++d) {
      out += std::lgamma(a0(d)) - std::lgamma(a_(d)) + (a_(d) - a0(d)) * e_log_phi_(d);
    }
    return out;
  }

  // The multinomial coefficient.
  static double point_constant(const Eigen::Ref<const Eigen::VectorXd>& x) {
    double out = std::lgamma(x.sum() + 1.0);
    for (Eigen::Index d = 0; d < x.size(); ++d) out -= std::lgamma(x(d) + 1.0);
    return out;
  }

  // Sparse counts (tvclust/points.h): the same over the non-zeros, O(nnz).
  void fit(const SparseRows& x, const Eigen::Ref<const Eigen::VectorXd>& w) {
    a_ = *alpha0_;
    for (int i = 0; i < x.n(); ++i) {
      if (w(i) == 0.0) continue;
      const SparseRow r = x.row(i);
      for (int j = 0; j < r.nnz; ++j) a_(r.idx[j]) += w(i) * r.val[j];
    }
    const double total = digamma(a_.sum());
    e_log_phi_ = a_.unaryExpr([](double v) { return digamma(v); }).array() - total;
  }
  void expected_log_lik(const SparseRows& x, Eigen::Ref<Eigen::VectorXd> out) const {
    for (int i = 0; i < x.n(); ++i) {
      const SparseRow r = x.row(i);
      double acc = 0.0;
      for (int j = 0; j < r.nnz; ++j) acc += r.val[j] * e_log_phi_(r.idx[j]);
      out(i) = acc;
    }
  }
  static double point_constant(const SparseRow& x) {
    double total = 0.0, out = 0.0;
    for (int j = 0; j < x.nnz; ++j) {
      total += x.val[j];
      out -= std::lgamma(x.val[j] + 1.0);
    }
    return out + std::lgamma(total + 1.0);
  }

  Eigen::VectorXd mean() const { return a_ / a_.sum(); }

 private:
  const Eigen::VectorXd* alpha0_;
  Eigen::VectorXd a_, e_log_phi_;
};

}  // namespace sideclust
