// Sufficient statistics of one CEC / CEC-IB cluster under one of the seven
// Gaussian families of cross-entropy clustering (Tabor & Spurek 2014), with
// O(p^2) add / remove (O(p^3) for "eigenvalues", which keeps the scatter's
// eigen-decomposition) and O(p^2) evaluation of a candidate move (O(p) for
// the diagonal and spherical families; for "eigenvalues" the spectrum of the
// moved scatter from the secular equation, rank_one_eigen.h), plus O(1)
// label-entropy updates.
// Plain C++17 + Eigen.
//
// A cluster of n points keeps its mean m and scatter S = Psi + sum (x - m)(x - m)^T,
// where Psi is a fixed regularization matrix (zero by default), so that its
// model covariance is S / n and stays positive definite when Psi is.
// Adding x (d = x - m):    S' = S + n / (n + 1) d d^T
// Removing x (d = x - m):  S' = S - n / (n - 1) d d^T
// For the full model, log det S' = log det S + log(1 + c d^T S^-1 d) by the
// matrix determinant lemma, with d^T S^-1 d = |L^-1 d|^2 from the cached
// Cholesky factor L of S, which is itself updated by a rank-one (down)date.
//
// The cross-entropy H of a cluster with ML mean mu and covariance Sigma = S / n
// under each family (natural logarithms; derived by minimizing the
// cross-entropy over the family's free parameters):
//   full             (p/2) log(2 pi e) + 1/2 log det Sigma
//   diagonal         the same with diag(Sigma)
//   spherical        the same with (tr Sigma / p) I
//   fixed_covariance (p/2) log(2 pi) + 1/2 log det G + 1/2 tr(G^-1 Sigma), G given
//   fixed_spherical  (p/2) log(2 pi r) + tr(Sigma) / (2 r): G = r I, r a variance
//   eigenvalues      (p/2) log(2 pi) + 1/2 sum log l_j + 1/2 sum s_j / l_j, with
//                    s the eigenvalues of Sigma and l the given ones, both in
//                    decreasing order (von Neumann's trace inequality: the
//                    best rotation pairs the largest with the largest)
//   fixed_mean       (p/2) log(2 pi e) + 1/2 log det (Sigma + (mu - m)(mu - m)^T),
//                    m given: the second moment about m, T = sum (x - m)(x - m)^T,
//                    which a point changes by +-(x - m)(x - m)^T.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <vector>

#include "cec/rank_one_eigen.h"

namespace sideclust {

enum class CecType {
  full = 0, diagonal = 1, spherical = 2, fixed_covariance = 3, fixed_spherical = 4,
  eigenvalues = 5, fixed_mean = 6
};

// One cluster's family and what it fixes: the covariance G (fixed_covariance),
// the variance r (fixed_spherical), the eigenvalues (eigenvalues) or the mean
// (fixed_mean). prepare() caches what the costs need.
struct CecFamily {
  CecType type = CecType::full;
  Eigen::MatrixXd cov;     // fixed_covariance: G (p x p, positive definite)
  double radius = 1.0;     // fixed_spherical: r > 0
  Eigen::VectorXd vec;     // eigenvalues (any order, > 0) or fixed_mean's mean

  // Derived by prepare():
  Eigen::LLT<Eigen::MatrixXd> g_chol;  // of G
  double log_det_fixed = 0.0;          // log det G, p log r or sum log l
  Eigen::VectorXd inv_eigen;           // 1 / l in decreasing order of l

  void prepare(int p) {
    if (type == CecType::fixed_covariance) {
      g_chol.compute(cov);
      log_det_fixed = 2.0 * g_chol.matrixLLT().diagonal().array().log().sum();
    } else if (type == CecType::fixed_spherical) {
      log_det_fixed = p * std::log(radius);
    } else if (type == CecType::eigenvalues) {
      std::vector<double> l(vec.data(), vec.data() + vec.size());
      std::sort(l.begin(), l.end(), std::greater<double>());
      inv_eigen.resize(p);
      log_det_fixed = 0.0;
      for (int j = 0; j < p; ++j) {
        inv_eigen[j] = 1.0 / l[j];
        log_det_fixed += std::log(l[j]);
      }
    }
  }
  // Whether the family keeps the full scatter matrix (with its Cholesky factor).
  bool uses_scatter() const {
    return type == CecType::full || type == CecType::fixed_mean || type == CecType::eigenvalues;
  }
};

// Label tallies of a cluster: counts per label, the number of labelled points
// and T = sum_j c_j log c_j, so that H(Z | Y) = log L - T / L in O(1).
struct LabelTally {
  std::vector<int> count;
  int labelled = 0;
  double t = 0.0;

  static double xlogx(int c) { return c > 0 ? c * std::log(static_cast<double>(c)) : 0.0; }
  void reset(int n_levels) {
    count.assign(n_levels, 0);
    labelled = 0;
    t = 0.0;
  }
  // Conditional label entropy with `delta` (+1 / -1) points of label j
  // (j < 0: no change).
  double entropy_after(int j, int delta) const {
    int l = labelled;
    double tt = t;
    if (j >= 0) {
      l += delta;
      tt += xlogx(count[j] + delta) - xlogx(count[j]);
    }
    if (l <= 0) return 0.0;
    const double h = std::log(static_cast<double>(l)) - tt / l;
    return h > 0.0 ? h : 0.0;  // rounding guard: H >= 0
  }
  double entropy() const { return entropy_after(-1, 0); }
  void change(int j, int delta) {
    if (j < 0) return;
    t += xlogx(count[j] + delta) - xlogx(count[j]);
    count[j] += delta;
    labelled += delta;
  }
};

// A removal that shrinks det S (or, for the diagonal model, one variance) by
// a factor of at most kSingularRatio leaves a numerically singular cluster:
// in exact arithmetic the factor is 0 when the point alone spans a direction,
// but rounding leaves +-1e-16 relative, which would look like a huge gain.
constexpr double kSingularRatio = 1e-8;

class CecCluster {
 public:
  // family: the cluster's family, prepared, owned by the caller and outliving
  // the cluster. prior: p x p matrix added to the scatter of the cluster (the
  // covariance regularization Psi, see below), or an empty matrix for none;
  // it applies only to the families with a log-determinant (full, diagonal,
  // spherical, fixed_mean): the others are never singular.
  CecCluster(int p, const CecFamily* family, int n_levels,
             const Eigen::MatrixXd& prior = Eigen::MatrixXd())
      : p_(p), type_(family->type), fam_(family) {
    mean_ = Eigen::VectorXd::Zero(p);
    const bool regularized = type_ == CecType::full || type_ == CecType::diagonal ||
                             type_ == CecType::spherical || type_ == CecType::fixed_mean;
    prior_ = prior.size() == 0 || !regularized ? Eigen::MatrixXd::Zero(p, p) : prior;
    if (fam_->uses_scatter()) scatter_ = Eigen::MatrixXd::Zero(p, p);
    diag_ = Eigen::VectorXd::Zero(p);
    inv_diag_ = Eigen::VectorXd::Zero(p);
    scratch_ = Eigen::VectorXd::Zero(p);
    if (type_ == CecType::eigenvalues) {
      evals_ = Eigen::VectorXd::Zero(p);
      evecs_ = Eigen::MatrixXd::Identity(p, p);
      scratch_z_ = Eigen::VectorXd::Zero(p);
      scratch_mu_ = Eigen::VectorXd::Zero(p);
      scratch_a_ = Eigen::VectorXd::Zero(p);
      scratch_b_ = Eigen::VectorXd::Zero(p);
    }
    // A default-constructed LLT or eigensolver (or Eigen's preallocating
    // one) leaves its status flag unset, and copies of this cluster
    // (std::vector fills from one prototype, or grows) would read it (UBSan:
    // not a valid ComputationInfo). Computing them once here sets it (and
    // sizes the eigensolver of the eigenvalues family); every use computes
    // the solver afresh.
    chol_.compute(Eigen::MatrixXd::Identity(p, p));
    eig_.compute(Eigen::MatrixXd::Identity(type_ == CecType::eigenvalues ? p : 1,
                                           type_ == CecType::eigenvalues ? p : 1),
                 Eigen::EigenvaluesOnly);
    tally_.reset(n_levels);
  }

  int size() const { return n_; }
  CecType type() const { return type_; }
  const LabelTally& tally() const { return tally_; }
  const Eigen::VectorXd& mean() const { return mean_; }

  // Exact refit from the member points (columns of x); recomputes the
  // Cholesky factor. Returns false when the covariance is singular.
  bool refit(const Eigen::Ref<const Eigen::MatrixXd>& x, const std::vector<int>& members,
             const std::vector<int>& label) {
    n_ = static_cast<int>(members.size());
    tally_.reset(static_cast<int>(tally_.count.size()));
    mean_.setZero();
    for (int i : members) {
      mean_ += x.col(i);
      if (!label.empty()) tally_.change(label[i], +1);
    }
    if (n_ > 0) mean_ /= n_;
    const Eigen::VectorXd& centre = type_ == CecType::fixed_mean ? fam_->vec : mean_;
    if (fam_->uses_scatter()) {
      scatter_ = prior_;
      for (int i : members) {
        const Eigen::VectorXd d = x.col(i) - centre;
        scatter_.selfadjointView<Eigen::Lower>().rankUpdate(d);
      }
      scatter_ = scatter_.selfadjointView<Eigen::Lower>();
      if (type_ == CecType::eigenvalues) decompose();
      else refactor();
    } else if (type_ == CecType::fixed_covariance) {
      q_ = 0.0;
      for (int i : members) q_ += fam_->g_chol.matrixL().solve(x.col(i) - mean_).squaredNorm();
    } else {
      diag_ = prior_.diagonal();
      for (int i : members) diag_ += (x.col(i) - mean_).array().square().matrix();
      diag_changed();
    }
    h_ = type_ == CecType::eigenvalues ? eigen_h(n_, evals_)
                                       : cross_entropy_of(n_, logdet_, trace_, q_, scatter_);
    return std::isfinite(h_);
  }

  // Cross-entropy H of the cluster's points under its family (the Gaussian
  // term of the cost, without the small-sample term); +inf when singular.
  double cross_entropy() const { return h_; }

  // H after adding (sign = +1) or removing (sign = -1) point x; +inf if the
  // cluster would be singular.
  double cross_entropy_after(const Eigen::Ref<const Eigen::VectorXd>& x, int sign) const {
    const double inf = std::numeric_limits<double>::infinity();
    const int m = n_ + sign;
    if (m <= 0) return inf;
    // Evaluated for every point and cluster of a pass: no allocation here,
    // only the scratch buffers (d = scratch_).
    const double c = step(x, sign, scratch_);
    Eigen::VectorXd& d = scratch_;
    switch (type_) {
      case CecType::full:
      case CecType::fixed_mean: {
        chol_.matrixL().solveInPlace(d);
        const double f = 1.0 + c * d.squaredNorm();
        if (!(f > kSingularRatio)) return inf;
        return cross_entropy_of(m, logdet_ + std::log(f), 0.0, 0.0, scatter_);
      }
      case CecType::diagonal: {
        // log det changes by sum_j log(1 + c d_j^2 / S_jj): the product of
        // the factors, one logarithm per block of 16 (no under- or overflow)
        double ld = logdet_, prod = 1.0;
        for (int j = 0; j < p_; ++j) {
          const double f = 1.0 + c * d[j] * d[j] * inv_diag_[j];
          if (!(f > kSingularRatio)) return inf;
          prod *= f;
          if ((j & 15) == 15) {
            ld += std::log(prod);
            prod = 1.0;
          }
        }
        return cross_entropy_of(m, ld + std::log(prod), 0.0, 0.0, scatter_);
      }
      case CecType::spherical:
      case CecType::fixed_spherical: {
        const double tr = trace_ + c * d.squaredNorm();
        return cross_entropy_of(m, logdet_of_diag(tr, diag_), tr, 0.0, scatter_);
      }
      case CecType::fixed_covariance: {
        fam_->g_chol.matrixL().solveInPlace(d);
        return cross_entropy_of(m, 0.0, 0.0, q_ + c * d.squaredNorm(), scatter_);
      }
      case CecType::eigenvalues: {
        // the scatter S + c d d^T = V (diag(s) + c z z^T) V^T with z = V^T d
        scratch_z_.noalias() = evecs_.transpose() * d;
        rank_one_eigenvalues(evals_, scratch_z_, c, scratch_mu_, work_, scratch_a_, scratch_b_);
        return eigen_h(m, scratch_mu_);
      }
    }
    return inf;
  }

  void add(const Eigen::Ref<const Eigen::VectorXd>& x, int label) { update(x, label, +1); }
  void remove(const Eigen::Ref<const Eigen::VectorXd>& x, int label) { update(x, label, -1); }

  // Model covariance (p x p) for reporting and prediction: the Gaussian of
  // the family closest to the cluster.
  Eigen::MatrixXd covariance() const {
    switch (type_) {
      case CecType::full:
      case CecType::fixed_mean: return scatter_ / n_;
      case CecType::diagonal: return Eigen::MatrixXd((diag_ / n_).asDiagonal());
      case CecType::spherical:
        return Eigen::MatrixXd::Identity(p_, p_) * (diag_.sum() / (static_cast<double>(n_) * p_));
      case CecType::fixed_covariance: return fam_->cov;
      case CecType::fixed_spherical: return Eigen::MatrixXd::Identity(p_, p_) * fam_->radius;
      case CecType::eigenvalues: {
        // eigenvectors of the scatter (ascending eigenvalues) with the given
        // eigenvalues, the largest on the direction of largest spread
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(scatter_);
        const Eigen::VectorXd l = fam_->inv_eigen.reverse().cwiseInverse();
        return es.eigenvectors() * l.asDiagonal() * es.eigenvectors().transpose();
      }
    }
    return Eigen::MatrixXd();
  }
  // Model mean: the fixed mean of fixed_mean, else the cluster mean.
  Eigen::VectorXd model_mean() const {
    return type_ == CecType::fixed_mean ? Eigen::VectorXd(fam_->vec) : mean_;
  }

 private:
  // The change of the statistics when x joins (sign +1) or leaves (-1): the
  // scatter moves by c d d^T (about the running mean, or about the fixed mean).
  double step(const Eigen::Ref<const Eigen::VectorXd>& x, int sign, Eigen::VectorXd& d) const {
    if (type_ == CecType::fixed_mean) {
      d = x - fam_->vec;
      return sign;
    }
    d = x - mean_;
    return sign > 0 ? static_cast<double>(n_) / (n_ + 1) : -static_cast<double>(n_) / (n_ - 1);
  }

  // H of m points from the family's statistics: ld = log det of the scatter
  // (full, diagonal, fixed_mean) or p log(tr / p) (spherical); tr = trace of
  // the scatter (fixed_spherical); q = tr(G^-1 scatter) (fixed_covariance);
  // s = the scatter (eigenvalues).
  double cross_entropy_of(int m, double ld, double tr, double q, const Eigen::MatrixXd& s) const {
    const double inf = std::numeric_limits<double>::infinity();
    if (m <= 0) return 0.0;
    const double log2pi = 1.8378770664093453;
    const double mm = m;
    switch (type_) {
      case CecType::full:
      case CecType::diagonal:
      case CecType::spherical:
      case CecType::fixed_mean:
        if (!std::isfinite(ld)) return inf;
        return 0.5 * p_ * (log2pi + 1.0) + 0.5 * (ld - p_ * std::log(mm));
      case CecType::fixed_spherical:
        return 0.5 * p_ * log2pi + 0.5 * fam_->log_det_fixed + 0.5 * tr / (fam_->radius * mm);
      case CecType::fixed_covariance:
        return 0.5 * p_ * log2pi + 0.5 * fam_->log_det_fixed + 0.5 * q / mm;
      case CecType::eigenvalues:
        eig_.compute(s, Eigen::EigenvaluesOnly);
        return eigen_h(m, eig_.eigenvalues());
    }
    return inf;
  }

  // full and diagonal: log det S; spherical: p log(tr S / p).
  double logdet_of_diag(double trace, const Eigen::VectorXd& d) const {
    if (type_ == CecType::spherical) {
      return trace > 0.0 ? p_ * std::log(trace / p_) : -std::numeric_limits<double>::infinity();
    }
    if (type_ != CecType::diagonal) return 0.0;
    double s = 0.0;
    for (int j = 0; j < p_; ++j) {
      if (!(d[j] > 0.0)) return -std::numeric_limits<double>::infinity();
      s += std::log(d[j]);
    }
    return s;
  }

  // "eigenvalues": H of m points whose scatter has the eigenvalues s
  // (ascending), against 1 / l in decreasing l.
  double eigen_h(int m, const Eigen::VectorXd& s) const {
    if (m <= 0) return 0.0;
    const double t = s.reverse().dot(fam_->inv_eigen);
    return 0.5 * p_ * 1.8378770664093453 + 0.5 * fam_->log_det_fixed + 0.5 * t / m;
  }
  // "eigenvalues": the eigen-decomposition of the scatter, for the moves.
  void decompose() {
    eig_.compute(scatter_, Eigen::ComputeEigenvectors);
    evals_ = eig_.eigenvalues();
    evecs_ = eig_.eigenvectors();
  }

  // The cached trace, log-determinant and inverse of the diagonal statistics.
  void diag_changed() {
    trace_ = diag_.sum();
    logdet_ = logdet_of_diag(trace_, diag_);
    if (type_ == CecType::diagonal) inv_diag_ = diag_.cwiseInverse();
  }

  bool refactor() {
    chol_.compute(scatter_);
    if (chol_.info() != Eigen::Success) {
      logdet_ = -std::numeric_limits<double>::infinity();
      return false;
    }
    logdet_ = 2.0 * chol_.matrixLLT().diagonal().array().log().sum();
    return std::isfinite(logdet_);
  }

  void update(const Eigen::Ref<const Eigen::VectorXd>& x, int label, int sign) {
    tally_.change(label, sign);
    const int m = n_ + sign;
    if (m == 0) {
      n_ = 0;
      mean_.setZero();
      if (fam_->uses_scatter()) scatter_ = prior_;
      diag_ = prior_.diagonal();
      diag_changed();
      q_ = 0.0;
      if (type_ == CecType::full || type_ == CecType::fixed_mean) refactor();
      if (type_ == CecType::eigenvalues) decompose();
      h_ = 0.0;
      return;
    }
    Eigen::VectorXd d(p_);
    const double c = step(x, sign, d);
    mean_ += (sign > 0 ? 1.0 : -1.0) * (x - mean_) / m;
    n_ = m;
    switch (type_) {
      case CecType::full:
      case CecType::fixed_mean: {
        scatter_.noalias() += c * d * d.transpose();
        const double f = 1.0 + c * chol_.matrixL().solve(d).squaredNorm();
        chol_.rankUpdate(d, c);
        if (f > 0.0 && chol_.info() == Eigen::Success) logdet_ += std::log(f);
        else refactor();
        break;
      }
      case CecType::eigenvalues:
        scatter_.noalias() += c * d * d.transpose();
        decompose();
        break;
      case CecType::fixed_covariance:
        q_ += c * fam_->g_chol.matrixL().solve(d).squaredNorm();
        break;
      default:
        diag_ += c * d.array().square().matrix();
        diag_changed();
    }
    h_ = type_ == CecType::eigenvalues ? eigen_h(n_, evals_)
                                       : cross_entropy_of(n_, logdet_, trace_, q_, scatter_);
  }

  int p_;
  CecType type_;
  const CecFamily* fam_;
  Eigen::MatrixXd prior_;    // Psi, added to the scatter (zero: ML covariance)
  int n_ = 0;
  Eigen::VectorXd mean_;
  Eigen::MatrixXd scatter_;  // full, eigenvalues; fixed_mean: about the fixed mean
  Eigen::VectorXd diag_;     // diagonal / spherical / fixed_spherical: diagonal of the scatter
  double q_ = 0.0;           // fixed_covariance: tr(G^-1 scatter)
  Eigen::LLT<Eigen::MatrixXd> chol_;  // of the scatter (full, fixed_mean)
  double logdet_ = -std::numeric_limits<double>::infinity();
  double h_ = 0.0;           // cached cross_entropy()
  double trace_ = 0.0;       // diag_.sum()
  Eigen::VectorXd inv_diag_;  // diagonal: 1 / diag_
  LabelTally tally_;
  // Scratch for cross_entropy_after() (sized once, reused by every call).
  mutable Eigen::VectorXd scratch_;
  mutable Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig_;
  // "eigenvalues": the scatter's eigenvalues (ascending) and eigenvectors,
  // and the workspace of the rank-one eigenvalue update
  Eigen::VectorXd evals_;
  Eigen::MatrixXd evecs_;
  mutable Eigen::VectorXd scratch_z_, scratch_mu_, scratch_a_, scratch_b_;
  mutable RankOneEigenWork work_;
};

}  // namespace sideclust
