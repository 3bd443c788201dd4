// Sufficient statistics of one CEC / CEC-IB cluster with O(p^2) add / remove
// and O(p^2) evaluation of a candidate move (O(p) for diagonal and spherical
// models), plus O(1) label-entropy updates. Plain C++17 + Eigen.
//
// A cluster of n points keeps its mean m and scatter S = Psi + sum (x - m)(x - m)^T,
// where Psi is a fixed regularization matrix (zero by default), so that its
// model covariance is S / n and stays positive definite when Psi is.
// Adding x (d = x - m):    S' = S + n / (n + 1) d d^T
// Removing x (d = x - m):  S' = S - n / (n - 1) d d^T
// For the full model, log det S' = log det S + log(1 + c d^T S^-1 d) by the
// matrix determinant lemma, with d^T S^-1 d = |L^-1 d|^2 from the cached
// Cholesky factor L of S, which is itself updated by a rank-one (down)date.
#pragma once

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <vector>

namespace sideclust {

enum class CecType { full = 0, diagonal = 1, spherical = 2 };

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
  // prior: p x p matrix added to the scatter of the cluster (the covariance
  // regularization Psi, see below), or an empty matrix for none.
  CecCluster(int p, CecType type, int n_levels, const Eigen::MatrixXd& prior = Eigen::MatrixXd())
      : p_(p), type_(type) {
    mean_ = Eigen::VectorXd::Zero(p);
    prior_ = prior.size() == 0 ? Eigen::MatrixXd::Zero(p, p) : prior;
    if (type_ == CecType::full) scatter_ = Eigen::MatrixXd::Zero(p, p);
    else diag_ = Eigen::VectorXd::Zero(p);
    // A default-constructed LLT leaves its status flag unset, and copies of
    // this cluster (std::vector fills from one prototype) would read it.
    chol_.compute(Eigen::MatrixXd::Identity(p, p));
    tally_.reset(n_levels);
  }

  int size() const { return n_; }
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
    if (type_ == CecType::full) {
      scatter_ = prior_;
      for (int i : members) {
        const Eigen::VectorXd d = x.col(i) - mean_;
        scatter_.selfadjointView<Eigen::Lower>().rankUpdate(d);
      }
      scatter_ = scatter_.selfadjointView<Eigen::Lower>();
      return refactor();
    }
    diag_ = prior_.diagonal();
    for (int i : members) diag_ += (x.col(i) - mean_).array().square().matrix();
    logdet_ = logdet_of_diag(diag_.sum(), diag_);
    return std::isfinite(logdet_);
  }

  // log det of the model covariance (S / n, restricted to the type) after
  // adding (sign = +1) or removing (sign = -1) point x; -inf if singular.
  double logdet_cov_after(const Eigen::Ref<const Eigen::VectorXd>& x, int sign) const {
    const int m = n_ + sign;
    if (m <= 0) return -std::numeric_limits<double>::infinity();
    const double c = sign > 0 ? static_cast<double>(n_) / (n_ + 1)
                              : -static_cast<double>(n_) / (n_ - 1);
    const Eigen::VectorXd d = x - mean_;
    double ld;
    if (type_ == CecType::full) {
      const double q = chol_.matrixL().solve(d).squaredNorm();
      const double f = 1.0 + c * q;
      ld = f > kSingularRatio ? logdet_ + std::log(f) : -std::numeric_limits<double>::infinity();
    } else if (type_ == CecType::diagonal) {
      const Eigen::VectorXd nd = diag_ + c * d.array().square().matrix();
      if (sign < 0 && (nd.array() <= kSingularRatio * diag_.array()).any()) {
        return -std::numeric_limits<double>::infinity();
      }
      ld = logdet_of_diag(0.0, nd);
    } else {
      ld = logdet_of_diag(diag_.sum() + c * d.squaredNorm(), diag_);
    }
    return ld - scale_term(m);
  }
  double logdet_cov() const { return logdet_ - scale_term(n_); }

  void add(const Eigen::Ref<const Eigen::VectorXd>& x, int label) { update(x, label, +1); }
  void remove(const Eigen::Ref<const Eigen::VectorXd>& x, int label) { update(x, label, -1); }

  // Model covariance (p x p) for reporting.
  Eigen::MatrixXd covariance() const {
    if (type_ == CecType::full) return scatter_ / n_;
    if (type_ == CecType::diagonal) return Eigen::MatrixXd((diag_ / n_).asDiagonal());
    return Eigen::MatrixXd::Identity(p_, p_) * (diag_.sum() / (static_cast<double>(n_) * p_));
  }

 private:
  // full and diagonal: log det S; spherical: p log(tr S / p). The model's
  // log det covariance is this minus p log n.
  double logdet_of_diag(double trace, const Eigen::VectorXd& d) const {
    if (type_ == CecType::spherical) {
      return trace > 0.0 ? p_ * std::log(trace / p_) : -std::numeric_limits<double>::infinity();
    }
    double s = 0.0;
    for (int j = 0; j < p_; ++j) {
      if (!(d[j] > 0.0)) return -std::numeric_limits<double>::infinity();
      s += std::log(d[j]);
    }
    return s;
  }
  double scale_term(int m) const { return p_ * std::log(static_cast<double>(m)); }

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
      return;
    }
    const double c = sign > 0 ? static_cast<double>(n_) / (n_ + 1)
                              : -static_cast<double>(n_) / (n_ - 1);
    const Eigen::VectorXd d = x - mean_;
    mean_ += (sign > 0 ? 1.0 : -1.0) * d / m;
    n_ = m;
    if (type_ == CecType::full) {
      scatter_.noalias() += c * d * d.transpose();
      const double q = chol_.matrixL().solve(d).squaredNorm();
      const double f = 1.0 + c * q;
      chol_.rankUpdate(d, c);
      if (f > 0.0 && chol_.info() == Eigen::Success) logdet_ += std::log(f);
      else refactor();
    } else {
      diag_ += c * d.array().square().matrix();
      logdet_ = logdet_of_diag(diag_.sum(), diag_);
    }
  }

  int p_;
  CecType type_;
  Eigen::MatrixXd prior_;    // Psi, added to the scatter (zero: ML covariance)
  int n_ = 0;
  Eigen::VectorXd mean_;
  Eigen::MatrixXd scatter_;  // full
  Eigen::VectorXd diag_;     // diagonal / spherical: diagonal of the scatter
  Eigen::LLT<Eigen::MatrixXd> chol_;
  double logdet_ = -std::numeric_limits<double>::infinity();
  LabelTally tally_;
};

}  // namespace sideclust
