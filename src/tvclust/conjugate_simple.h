// Conjugate cluster families with independent coordinates, for collapsed
// samplers (see niw.h for the full-covariance family). Each keeps sufficient
// statistics so that adding or removing a point and evaluating the posterior
// predictive density cost O(p).
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <vector>

#include "common/sparse_rows.h"
#include "tvclust/niw.h"  // kPi

namespace sideclust {

// "diagonal": per coordinate d, mu_d | tau_d ~ N(m0_d, 1 / (kappa0 tau_d)) and
// tau_d ~ Gamma(a0, rate b0_d) (Normal-Gamma). Coordinates are independent.
struct NormalGammaPrior {
  Eigen::VectorXd m0;
  double kappa0 = 1.0;
  double a0 = 1.0;
  Eigen::VectorXd b0;
};

class NormalGammaCluster {
 public:
  explicit NormalGammaCluster(const NormalGammaPrior& prior)
      : prior_(&prior), sum_(Eigen::VectorXd::Zero(prior.m0.size())),
        sum_sq_(Eigen::VectorXd::Zero(prior.m0.size())) {}

  int size() const { return n_; }
  void add(const Eigen::Ref<const Eigen::VectorXd>& x) {
    ++n_;
    sum_ += x;
    sum_sq_ += x.cwiseProduct(x);
  }
  void remove(const Eigen::Ref<const Eigen::VectorXd>& x) {
    --n_;
    sum_ -= x;
    sum_sq_ -= x.cwiseProduct(x);
  }

  // Product over coordinates of Student t densities with 2a degrees of
  // freedom, location m and squared scale b (kappa + 1) / (a kappa).
  double log_predictive(const Eigen::Ref<const Eigen::VectorXd>& x) const {
    const double kappa = prior_->kappa0 + n_, a = prior_->a0 + n_ / 2.0;
    const double df = 2.0 * a;
    double out = 0.0;
    for (Eigen::Index d = 0; d < x.size(); ++d) {
      const double m = mean(d), b = rate(d);
      const double scale2 = b * (kappa + 1.0) / (a * kappa);
      const double z2 = (x(d) - m) * (x(d) - m) / scale2;
      out += std::lgamma((df + 1.0) / 2.0) - std::lgamma(df / 2.0) -
             0.5 * std::log(df * kPi * scale2) - (df + 1.0) / 2.0 * std::log1p(z2 / df);
    }
    return out;
  }

  double log_marginal() const {
    const double kappa = prior_->kappa0 + n_, a = prior_->a0 + n_ / 2.0;
    double out = 0.0;
    for (Eigen::Index d = 0; d < sum_.size(); ++d) {
      out += std::lgamma(a) - std::lgamma(prior_->a0) + prior_->a0 * std::log(prior_->b0(d)) -
             a * std::log(rate(d)) + 0.5 * (std::log(prior_->kappa0) - std::log(kappa)) -
             n_ / 2.0 * std::log(2.0 * kPi);
    }
    return out;
  }

 private:
  double mean(Eigen::Index d) const {
    return (prior_->kappa0 * prior_->m0(d) + sum_(d)) / (prior_->kappa0 + n_);
  }
  // b_n = b0 + scatter / 2 + kappa0 n (xbar - m0)^2 / (2 kappa), written with
  // sums so that it updates in O(1).
  double rate(Eigen::Index d) const {
    if (n_ == 0) return prior_->b0(d);
    const double xbar = sum_(d) / n_;
    const double scatter = std::max(0.0, sum_sq_(d) - n_ * xbar * xbar);
    const double gap = xbar - prior_->m0(d);
    return prior_->b0(d) + scatter / 2.0 +
           prior_->kappa0 * n_ * gap * gap / (2.0 * (prior_->kappa0 + n_));
  }

  const NormalGammaPrior* prior_;
  int n_ = 0;
  Eigen::VectorXd sum_, sum_sq_;
};

// "multinomial": a point is a vector of counts; the cluster's category
// probabilities have a Dirichlet(alpha) prior.
// The summed counts of a set of sparse points (a chunklet): the categories
// they touch, with totals, and the sum of their multinomial coefficients.
struct SparseCounts {
  std::vector<int> idx;
  std::vector<double> val;
  double total = 0.0, log_coefficients = 0.0;

  void set(const SparseRows& x, const int* members, int m) {
    idx.clear();
    val.clear();
    total = log_coefficients = 0.0;
    if (static_cast<int>(slot_.size()) < x.p()) slot_.assign(x.p(), -1);
    for (int t = 0; t < m; ++t) {
      const SparseRow r = x.row(members[t]);
      double row_total = 0.0;
      for (int j = 0; j < r.nnz; ++j) {
        int& at = slot_[r.idx[j]];
        if (at < 0) {
          at = static_cast<int>(idx.size());
          idx.push_back(r.idx[j]);
          val.push_back(0.0);
        }
        val[at] += r.val[j];
        row_total += r.val[j];
        log_coefficients -= std::lgamma(r.val[j] + 1.0);
      }
      log_coefficients += std::lgamma(row_total + 1.0);
      total += row_total;
    }
    for (int d : idx) slot_[d] = -1;
  }

 private:
  std::vector<int> slot_;  // category -> position in idx, -1 when absent
};

// Sparse count vectors (SparseRow, common/sparse_rows.h; read as raw counts,
// scale 1 and offset 0) cost O(nnz) per add, remove and predictive: the
// coordinates where x is 0 contribute nothing to any of them.
class DirichletMultinomialCluster {
 public:
  explicit DirichletMultinomialCluster(const Eigen::VectorXd& alpha)
      : alpha_(&alpha), counts_(Eigen::VectorXd::Zero(alpha.size())), alpha_sum_(alpha.sum()) {}

  int size() const { return n_; }
  void add(const Eigen::Ref<const Eigen::VectorXd>& x) {
    ++n_;
    counts_ += x;
    log_coefficients_ += log_coefficient(x);
  }
  void remove(const Eigen::Ref<const Eigen::VectorXd>& x) {
    --n_;
    counts_ -= x;
    log_coefficients_ -= log_coefficient(x);
  }
  void add(const SparseRow& x) {
    ++n_;
    for (int j = 0; j < x.nnz; ++j) counts_(x.idx[j]) += x.val[j];
    total_ += row_total(x);
    log_coefficients_ += log_coefficient(x);
  }
  void remove(const SparseRow& x) {
    --n_;
    for (int j = 0; j < x.nnz; ++j) counts_(x.idx[j]) -= x.val[j];
    total_ -= row_total(x);
    log_coefficients_ -= log_coefficient(x);
  }

  // Dirichlet-multinomial probability of the count vector x given the
  // cluster's counts, including the multinomial coefficient.
  double log_predictive(const Eigen::Ref<const Eigen::VectorXd>& x) const {
    return log_dm(x, *alpha_ + counts_);
  }
  // The same over the non-zeros of x: the cluster's total is tracked (the
  // dense path sums it, so the two agree up to rounding).
  double log_predictive(const SparseRow& x) const {
    const Eigen::VectorXd& a = *alpha_;
    const double total = row_total(x), a_sum = alpha_sum_ + total_;
    double out = std::lgamma(total + 1.0) + std::lgamma(a_sum) - std::lgamma(a_sum + total);
    for (int j = 0; j < x.nnz; ++j) {
      const double v = x.val[j];
      if (v == 0.0) continue;
      const double ad = a(x.idx[j]) + counts_(x.idx[j]);
      out += log_rising(ad, v) - log_factorial(v);
    }
    return out;
  }

  // log_marginal() after adding the points summed in s, minus log_marginal()
  // now: O(categories s touches), for sparse points.
  double log_marginal_gain(const SparseCounts& s) const {
    const Eigen::VectorXd& a = *alpha_;
    const double a_sum = alpha_sum_ + total_;
    double out = s.log_coefficients + std::lgamma(a_sum) - std::lgamma(a_sum + s.total);
    for (std::size_t j = 0; j < s.idx.size(); ++j) {
      const double ad = a(s.idx[j]) + counts_(s.idx[j]);
      out += std::lgamma(ad + s.val[j]) - std::lgamma(ad);
    }
    return out;
  }

  // Sum of the points' multinomial coefficients plus the Dirichlet ratio
  // B(alpha + counts) / B(alpha).
  double log_marginal() const {
    const Eigen::VectorXd& a = *alpha_;
    double out = log_coefficients_ + std::lgamma(a.sum()) - std::lgamma(a.sum() + counts_.sum());
    for (Eigen::Index d = 0; d < a.size(); ++d) {
      out += std::lgamma(a(d) + counts_(d)) - std::lgamma(a(d));
    }
    return out;
  }

 private:
  static double log_coefficient(const Eigen::Ref<const Eigen::VectorXd>& x) {
    double out = std::lgamma(x.sum() + 1.0);
    for (Eigen::Index d = 0; d < x.size(); ++d) out -= std::lgamma(x(d) + 1.0);
    return out;
  }

  // lgamma(a + v) - lgamma(a): for the small whole counts of documents one log
  // of the rising product a (a + 1) ... (a + v - 1) (a > 0 here), a few
  // times cheaper than two lgamma calls and as accurate.
  static double log_rising(double a, double v) {
    if (v == 1.0) return std::log(a);
    if (v == 2.0) return std::log(a * (a + 1.0));
    if (v == 3.0) return std::log(a * (a + 1.0) * (a + 2.0));
    return std::lgamma(a + v) - std::lgamma(a);
  }
  static double log_factorial(double v) {
    if (v == 1.0) return 0.0;
    if (v == 2.0) return 0.6931471805599453;  // log 2
    if (v == 3.0) return 1.791759469228055;   // log 6
    return std::lgamma(v + 1.0);
  }

  static double row_total(const SparseRow& x) {
    double out = 0.0;
    for (int j = 0; j < x.nnz; ++j) out += x.val[j];
    return out;
  }
  static double log_coefficient(const SparseRow& x) {
    double out = std::lgamma(row_total(x) + 1.0);
    for (int j = 0; j < x.nnz; ++j) out -= std::lgamma(x.val[j] + 1.0);
    return out;
  }

  static double log_dm(const Eigen::Ref<const Eigen::VectorXd>& x, const Eigen::VectorXd& a) {
    const double total = x.sum(), a_sum = a.sum();
    double out = std::lgamma(total + 1.0) + std::lgamma(a_sum) - std::lgamma(a_sum + total);
    for (Eigen::Index d = 0; d < x.size(); ++d) {
      out += std::lgamma(a(d) + x(d)) - std::lgamma(a(d)) - std::lgamma(x(d) + 1.0);
    }
    return out;
  }

  const Eigen::VectorXd* alpha_;
  int n_ = 0;
  Eigen::VectorXd counts_;
  double alpha_sum_;
  double total_ = 0.0;  // sum of counts_, kept by the sparse add / remove only
  double log_coefficients_ = 0.0;
};

}  // namespace sideclust
