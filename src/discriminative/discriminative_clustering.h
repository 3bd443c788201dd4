// Discriminative clustering (Sinkkonen & Kaski; Kaski et al.), Section 8 of
// TR-09-12: prototypes m_c in the data space with Gaussian soft
// memberships W_c(x) = exp(-|x - m_c|^2 / (2 sigma^2)) / Z(x), chosen to
// maximize the log Bayes factor (60) of the clusters x classes table of soft
// counts n_cy = sum_{i: y_i = y} W_c(x_i) (see table_bayes_factor.h).
// Points are the columns of a p x n matrix, prototypes the columns of a p x k
// matrix. Plain C++17 + Eigen; randomness and interrupts come from RunHooks.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "discriminative/lbfgs_ascent.h"
#include "common/run_hooks.h"
#include "common/side_graph.h"
#include "common/seeding.h"
#include "discriminative/table_bayes_factor.h"

namespace sideclust {

struct DiscriminativeParams {
  int k = 2;
  double sigma = 1.0;
  double n0 = 1.0;          // Dirichlet parameter of every p(y | c)
  int restarts = 10;
  int max_iter = 200;
  double tol = 1e-6;        // on sigma * max |gradient| / (number of labelled points)
  double rel_tol = 1e-8;    // relative gain per iteration, averaged over 10 iterations
  SeedInit init = SeedInit::kmeanspp;
  Eigen::MatrixXd start;    // p x k initial prototypes for SeedInit::start
};

struct DiscriminativeResult {
  Eigen::MatrixXd centres;      // p x k
  Eigen::MatrixXd counts;       // k x M soft counts n_cy
  std::vector<double> objective;  // log BF at the start and after every iteration
  int iterations = 0;
  AscentStop stop = AscentStop::max_iter;
  double grad_max = 0.0;        // max |d log BF / d m| at the end
};

// Soft memberships (n x k) of the columns of x for prototypes m and width
// sigma. Only the differences of the exponents matter, so |x|^2 drops out.
inline Eigen::MatrixXd soft_memberships(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                        const Eigen::MatrixXd& m, double sigma) {
  const double inv_var = 1.0 / (sigma * sigma);
  Eigen::MatrixXd w = x.transpose() * m;  // n x k
  const Eigen::RowVectorXd half_norm = 0.5 * m.colwise().squaredNorm();
  w.rowwise() -= half_norm;
  w *= inv_var;
  const Eigen::VectorXd top = w.rowwise().maxCoeff();
  w.colwise() -= top;
  w = w.array().exp();
  const Eigen::VectorXd z = w.rowwise().sum();
  w.array().colwise() /= z.array();
  return w;
}

// The same for any data: both x and m are shifted by the mean of x first,
// which leaves the memberships unchanged and keeps x'm free of cancellation.
inline Eigen::MatrixXd soft_memberships_centred(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                                const Eigen::MatrixXd& m, double sigma) {
  const Eigen::VectorXd shift = x.rowwise().mean();
  const Eigen::MatrixXd xc = x.colwise() - shift;
  return soft_memberships(xc, m.colwise() - shift, sigma);
}

// The cluster of largest membership of every row of w (n x k), 0-based; ties
// go to the lowest index.
inline std::vector<int> hard_clusters(const Eigen::MatrixXd& w) {
  std::vector<int> z(w.rows(), 0);
  for (Eigen::Index i = 0; i < w.rows(); ++i) {
    for (Eigen::Index c = 1; c < w.cols(); ++c) {
      if (w(i, c) > w(i, z[i])) z[i] = static_cast<int>(c);
    }
  }
  return z;
}

// The objective over the labelled points only (unlabelled points do not enter
// n_cy). The data are centred inside (the objective is translation
// invariant), which keeps x'm free of cancellation.
class DiscriminativeObjective {
 public:
  // x: p x n data; label: 0 .. n_classes - 1 or -1 (unlabelled).
  DiscriminativeObjective(const Eigen::Ref<const Eigen::MatrixXd>& x, const std::vector<int>& label,
                          int n_classes, int k, double sigma, double n0)
      : k_(k), n_classes_(n_classes), sigma_(sigma), n0_(n0) {
    if (static_cast<Eigen::Index>(label.size()) != x.cols()) {
      throw std::invalid_argument("labels and data differ in length");
    }
    if (!(sigma > 0.0) || !(n0 > 0.0)) throw std::invalid_argument("sigma and n0 must be positive");
    shift_ = x.rowwise().mean();
    for (std::size_t i = 0; i < label.size(); ++i) {
      if (label[i] >= n_classes) throw std::invalid_argument("label out of range");
      if (label[i] >= 0) {
        labelled_.push_back(static_cast<int>(i));
        label_.push_back(label[i]);
      }
    }
    xl_.resize(x.rows(), static_cast<Eigen::Index>(labelled_.size()));
    for (std::size_t j = 0; j < labelled_.size(); ++j) {
      xl_.col(j) = x.col(labelled_[j]) - shift_;
    }
  }

  int n_labelled() const { return static_cast<int>(labelled_.size()); }
  const Eigen::VectorXd& shift() const { return shift_; }

  // Soft counts n_cy (k x M) for prototypes m (p x k, centred coordinates).
  Eigen::MatrixXd counts(const Eigen::MatrixXd& m) const {
    const Eigen::MatrixXd w = soft_memberships(xl_, m, sigma_);
    return counts_from(w);
  }

  // log BF at prototypes m (centred coordinates) and its gradient (p x k):
  // with a_cy = d log BF / d n_cy and b_i = sum_c W_ic a_{c y_i},
  //   d log BF / d m_c = sum_i W_ic (a_{c y_i} - b_i) (x_i - m_c) / sigma^2.
  double value_gradient(const Eigen::MatrixXd& m, Eigen::MatrixXd& grad) const {
    const Eigen::MatrixXd w = soft_memberships(xl_, m, sigma_);
    Eigen::MatrixXd dcounts;
    const double value = table_log_bayes_factor(counts_from(w), n0_, &dcounts);
    Eigen::MatrixXd r(w.rows(), k_);  // n_labelled x k
    for (Eigen::Index i = 0; i < w.rows(); ++i) {
      const auto a = dcounts.col(label_[i]);
      const double mean_a = a.dot(w.row(i).transpose());
      for (int c = 0; c < k_; ++c) r(i, c) = w(i, c) * (a[c] - mean_a);
    }
    r /= sigma_ * sigma_;
    grad = xl_ * r;
    grad -= m * r.colwise().sum().asDiagonal();
    return value;
  }

 private:
  Eigen::MatrixXd counts_from(const Eigen::MatrixXd& w) const {
    Eigen::MatrixXd n = Eigen::MatrixXd::Zero(k_, n_classes_);
    for (Eigen::Index i = 0; i < w.rows(); ++i) n.col(label_[i]) += w.row(i).transpose();
    return n;
  }

  int k_, n_classes_;
  double sigma_, n0_;
  Eigen::VectorXd shift_;
  std::vector<int> labelled_, label_;
  Eigen::MatrixXd xl_;  // p x n_labelled, centred
};

// One run of L-BFGS ascent from prototypes m0 (p x k, data coordinates).
inline DiscriminativeResult discriminative_run(const DiscriminativeObjective& obj,
                                               const Eigen::MatrixXd& m0,
                                               const DiscriminativeParams& par,
                                               RunHooks& hooks) {
  const Eigen::Index p = m0.rows(), k = m0.cols();
  Eigen::VectorXd theta(p * k);
  Eigen::Map<Eigen::MatrixXd>(theta.data(), p, k) = m0.colwise() - obj.shift();
  auto f = [&](const Eigen::VectorXd& t, Eigen::VectorXd& g) {
    const Eigen::Map<const Eigen::MatrixXd> m(t.data(), p, k);
    Eigen::MatrixXd grad;
    const double v = obj.value_gradient(m, grad);
    g = Eigen::Map<const Eigen::VectorXd>(grad.data(), p * k);
    return v;
  };
  AscentParams ap;
  ap.max_iter = par.max_iter;
  ap.grad_tol = par.tol * std::max(1, obj.n_labelled()) / par.sigma;
  ap.rel_tol = par.rel_tol;
  ap.first_step = par.sigma;  // a first steepest step moves no prototype more than sigma
  ap.report_k = par.k;
  const AscentResult a = lbfgs_ascent(f, theta, ap, hooks);

  DiscriminativeResult res;
  const Eigen::Map<const Eigen::MatrixXd> m(theta.data(), p, k);
  res.counts = obj.counts(m);
  res.centres = m.colwise() + obj.shift();
  res.objective = a.trace;
  res.iterations = a.iterations;
  res.stop = a.stop;
  res.grad_max = a.grad_max;
  return res;
}

// The best (highest final log BF; the first of ties) of par.restarts runs,
// or one run from par.start.
// Without any labelled class the objective is 0 everywhere (one class).
inline DiscriminativeResult discriminative_clustering(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                                      const PartialLabels& labels,
                                                      const DiscriminativeParams& par,
                                                      RunHooks& hooks) {
  if (par.k < 1 || par.k > x.cols()) throw std::invalid_argument("k out of range");
  const DiscriminativeObjective obj(x, labels.label, std::max(labels.n_levels, 1), par.k,
                                    par.sigma, par.n0);
  const int runs = par.init == SeedInit::start ? 1 : std::max(1, par.restarts);
  DiscriminativeResult best;
  for (int r = 0; r < runs; ++r) {
    hooks.check_interrupt();
    const Eigen::MatrixXd m0 =
        par.init == SeedInit::start ? par.start : draw_prototypes(x, par.k, par.init, hooks);
    if (m0.rows() != x.rows() || m0.cols() != par.k) {
      throw std::invalid_argument("start has the wrong size");
    }
    DiscriminativeResult res = discriminative_run(obj, m0, par, hooks);
    if (r == 0 || res.objective.back() > best.objective.back()) best = std::move(res);
  }
  return best;
}

}  // namespace sideclust
