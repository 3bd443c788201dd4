// Gaussian mixture pieces shared by the constrained-mixture E-steps: the
// M-step from soft assignments (four covariance types, with a ridge) and the
// per-point log densities log w_k + log N(x_i | mu_k, Sigma_k). Plain C++17 +
// Eigen, no R API. Points are the rows of the n x p data matrix, read in
// place from R (no transposed copy).
#pragma once

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "common/column_blocks.h"

namespace sideclust {

enum class CovType { full, diagonal, spherical, unit };

struct Gaussians {
  Eigen::MatrixXd means;               // p x K
  std::vector<Eigen::MatrixXd> cov;    // K of p x p (model covariances)
  Eigen::VectorXd weights;             // K, sums to 1
};

struct MStepOptions {
  CovType type = CovType::full;
  double ridge = 0.0;          // added to every covariance's diagonal
  bool equal_weights = false;  // keep w_k = 1 / K
};

// Column-wise log-sum-exp of a K x n matrix (entries may be -Inf).
inline Eigen::VectorXd log_sum_exp_cols(const Eigen::MatrixXd& a) {
  Eigen::VectorXd out(a.cols());
  for (Eigen::Index i = 0; i < a.cols(); ++i) {
    const double m = a.col(i).maxCoeff();
    if (!std::isfinite(m)) {
      out(i) = m;
      continue;
    }
    out(i) = m + std::log((a.col(i).array() - m).exp().sum());
  }
  return out;
}

// In place: each column of log weights becomes probabilities (softmax).
inline void softmax_cols(Eigen::MatrixXd& a) {
  for (Eigen::Index i = 0; i < a.cols(); ++i) {
    const double m = a.col(i).maxCoeff();
    if (!std::isfinite(m)) {
      a.col(i).setConstant(1.0 / static_cast<double>(a.rows()));
      continue;
    }
    a.col(i) = (a.col(i).array() - m).exp();
    a.col(i) /= a.col(i).sum();
  }
}

// Column `at` of q becomes the softmax of the log weights `scores`.
// Same arithmetic as softmax_cols, without a temporary (called per unit).
template <class Scores>
void set_softmax_col(Eigen::MatrixXd& q, Eigen::Index at, const Scores& scores) {
  const double m = scores.maxCoeff();
  if (!std::isfinite(m)) {
    q.col(at).setConstant(1.0 / static_cast<double>(q.rows()));
    return;
  }
  q.col(at) = (scores.array() - m).exp();
  q.col(at) /= q.col(at).sum();
}

// Maximum-likelihood parameters from soft assignments z (K x n, columns sum
// to 1). A cluster with (almost) no mass keeps its previous mean and
// covariance (`prev`, when it has them) and gets a tiny weight.
inline Gaussians m_step(const Eigen::Ref<const Eigen::MatrixXd>& x, const Eigen::MatrixXd& z,
                        const MStepOptions& opt, const Gaussians* prev) {
  const Eigen::Index p = x.cols(), n = x.rows(), K = z.rows();
  Gaussians g;
  g.means.resize(p, K);
  g.cov.assign(static_cast<std::size_t>(K), Eigen::MatrixXd::Identity(p, p));
  g.weights.resize(K);
  const Eigen::VectorXd mass = z.rowwise().sum();
  const double tiny = 1e-10 * static_cast<double>(n);
  Eigen::MatrixXd d;
  for (Eigen::Index k = 0; k < K; ++k) {
    const double nk = mass(k);
    if (nk <= tiny) {
      if (prev != nullptr && prev->means.cols() == K) {
        g.means.col(k) = prev->means.col(k);
        g.cov[k] = prev->cov[k];
      } else {
        g.means.col(k) = x.colwise().mean().transpose();
        g.cov[k] = Eigen::MatrixXd::Identity(p, p);
      }
      g.weights(k) = std::max(nk, tiny);
      continue;
    }
    g.weights(k) = nk;
    const Eigen::VectorXd mu = x.transpose() * z.row(k).transpose() / nk;
    g.means.col(k) = mu;
    if (opt.type == CovType::unit) continue;
    Eigen::MatrixXd s = Eigen::MatrixXd::Zero(p, opt.type == CovType::full ? p : 1);
    for (Eigen::Index j = 0; j < n; j += kColumnBlock) {
      const Eigen::Index m = std::min(kColumnBlock, n - j);
      d = x.middleRows(j, m).transpose().colwise() - mu;
      const auto w = z.row(k).segment(j, m).transpose();
      if (opt.type == CovType::full) {
        s.noalias() += (d * w.asDiagonal()) * d.transpose();
      } else {
        s.noalias() += d.array().square().matrix() * w;
      }
    }
    s /= nk;
    if (opt.type == CovType::diagonal) {
      s = Eigen::MatrixXd(s.col(0).asDiagonal());
    } else if (opt.type == CovType::spherical) {
      s = Eigen::MatrixXd::Identity(p, p) * (s.sum() / static_cast<double>(p));
    }
    s.diagonal().array() += opt.ridge;
    g.cov[k] = s;
  }
  if (opt.equal_weights) {
    g.weights.setConstant(1.0 / static_cast<double>(K));
  } else {
    g.weights /= g.weights.sum();
  }
  return g;
}

// K x n matrix of log w_k + log N(x_i | mu_k, Sigma_k): O(n K p^2).
inline Eigen::MatrixXd log_unary(const Eigen::Ref<const Eigen::MatrixXd>& x, const Gaussians& g,
                                 CovType type) {
  const Eigen::Index p = x.cols(), n = x.rows(), K = g.means.cols();
  const double log2pi = std::log(2.0 * 3.141592653589793);
  // per cluster: the Cholesky factor (full) or inverse standard deviations
  std::vector<Eigen::MatrixXd> factor(static_cast<std::size_t>(K));
  Eigen::VectorXd constant(K);
  for (Eigen::Index k = 0; k < K; ++k) {
    double logdet = 0.0;
    if (type == CovType::full) {
      Eigen::LLT<Eigen::MatrixXd> llt(g.cov[k]);
      const Eigen::MatrixXd l = llt.matrixL();
      const double scale = g.cov[k].diagonal().maxCoeff();
      if (llt.info() != Eigen::Success || !(scale > 0.0) ||
          !(l.diagonal().array().square().minCoeff() > 1e-13 * scale)) {
        throw std::runtime_error(
            "a cluster covariance is singular; increase `ridge` or use another covariance");
      }
      logdet = 2.0 * l.diagonal().array().log().sum();
      factor[k] = l;
    } else if (type != CovType::unit) {
      const Eigen::VectorXd v = g.cov[k].diagonal();
      if ((v.array() <= 0.0).any()) {
        throw std::runtime_error(
            "a cluster variance is zero; increase `ridge` or use another covariance");
      }
      logdet = v.array().log().sum();
      factor[k] = v.array().rsqrt().matrix();
    }
    constant(k) = std::log(g.weights(k)) - 0.5 * (static_cast<double>(p) * log2pi + logdet);
  }
  Eigen::MatrixXd a(K, n), d;
  for (Eigen::Index j = 0; j < n; j += kColumnBlock) {
    const Eigen::Index m = std::min(kColumnBlock, n - j);
    for (Eigen::Index k = 0; k < K; ++k) {
      d = x.middleRows(j, m).transpose().colwise() - g.means.col(k);
      if (type == CovType::full) {
        factor[k].triangularView<Eigen::Lower>().solveInPlace(d);
      } else if (type != CovType::unit) {
        d = factor[k].col(0).asDiagonal() * d;
      }
      a.block(k, j, 1, m) = (constant(k) - 0.5 * d.colwise().squaredNorm().array()).matrix();
    }
  }
  return a;
}

}  // namespace sideclust
