// Discriminative clustering by stochastic approximation (Sinkkonen & Kaski
// 2002), steps 1-3 of Section 8 of TR-09-12: minimizes the distortion
// E_KL of (55) over the prototypes m_c and the softmax parameters gamma_cy of
// p(y | c) (58), one labelled point at a time. Points are the columns of a
// p x n matrix. Plain C++17 + Eigen; randomness and interrupts come from
// RunHooks.
#pragma once

#include <Eigen/Dense>

#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "discriminative/discriminative_clustering.h"
#include "common/run_hooks.h"
#include "common/seeding.h"

namespace sideclust {

struct StochasticParams {
  int k = 2;
  double sigma = 1.0;
  double n0 = 1.0;          // prior count of the initial p(y | c)
  int restarts = 10;
  int epochs = 50;          // passes of n_labelled steps each
  double step = 0.5;        // gain at the first step; it falls linearly to 0
  SeedInit init = SeedInit::kmeanspp;
  Eigen::MatrixXd start;    // p x k initial prototypes for SeedInit::start
};

struct StochasticResult {
  Eigen::MatrixXd centres;        // p x k
  Eigen::MatrixXd gamma;          // k x M, each row sums to 0
  std::vector<double> objective;  // mean_i sum_c W_c(x_i) log p(y_i | c), start and every epoch
  int epochs = 0;
  Eigen::MatrixXd counts;         // k x M soft counts n_cy at the end
  double log_bayes_factor = 0.0;  // (60) at the end, for comparison with the other method
};

namespace stochastic_detail {

// log p(y | c) from gamma (k x M): the log-softmax of each row, (58).
inline Eigen::MatrixXd log_class_probs(const Eigen::MatrixXd& gamma) {
  Eigen::MatrixXd out = gamma;
  for (Eigen::Index c = 0; c < gamma.rows(); ++c) {
    const double top = gamma.row(c).maxCoeff();
    const double lse = top + std::log((gamma.row(c).array() - top).exp().sum());
    out.row(c).array() -= lse;
  }
  return out;
}

// -E_KL up to its constant, (56) with the empirical distribution of the
// labelled points: mean_i sum_c W_c(x_i) log p(y_i | c).
inline double mean_log_likelihood(const Eigen::MatrixXd& xl, const std::vector<int>& y,
                                  const Eigen::MatrixXd& m, const Eigen::MatrixXd& gamma,
                                  double sigma) {
  if (y.empty()) return 0.0;
  const Eigen::MatrixXd w = soft_memberships(xl, m, sigma);
  const Eigen::MatrixXd lp = log_class_probs(gamma);
  double total = 0.0;
  for (std::size_t i = 0; i < y.size(); ++i) total += w.row(i).dot(lp.col(y[i]).transpose());
  return total / static_cast<double>(y.size());
}

// A cluster drawn from the memberships w (summing to 1) by inversion.
inline int draw_cluster(const Eigen::VectorXd& w, RunHooks& hooks) {
  double u = hooks.uniform();
  const int k = static_cast<int>(w.size());
  for (int c = 0; c < k - 1; ++c) {
    u -= w[c];
    if (u < 0.0) return c;
  }
  return k - 1;
}

}  // namespace stochastic_detail

// One run from prototypes m0 (p x k) over the labelled points xl (p x n_l,
// centred) with classes y (0 .. M - 1). Step t of T = epochs * n_l, with gain
// a = step * (1 - t / T):
//   1. draw a labelled point i uniformly; y = y_i;
//   2. draw clusters c, c' independently from the memberships W(x_i);
//   3. with L = log p(y | c') - log p(y | c) and the Gaussian
//      df/dm_c = (x - m_c) / sigma^2 (sigma^2 folded into the gain):
//        m_c  -= a (x - m_c) L,   gamma_cs  -= a (p(s | c)  - [s = y]),
//        m_c' += a (x - m_c') L,  gamma_c's -= a (p(s | c') - [s = y]),
//      both gamma updates computed from the gamma before the step.
// TR-09-12 skips the step when c = c'. For the prototypes that step is 0
// anyway (L = 0); for gamma it is not, and skipping it would scale gamma's
// expected step by (1 - W_c), freezing p(y | c) as the memberships harden.
// So gamma is updated at every step: the expected step of every parameter is
// then 2 a times the negative gradient of E_KL for that point.
inline StochasticResult stochastic_run(const Eigen::MatrixXd& xl, const std::vector<int>& y,
                                       int n_classes, Eigen::MatrixXd m,
                                       const StochasticParams& par, RunHooks& hooks) {
  const int k = static_cast<int>(m.cols()), n = static_cast<int>(y.size());
  // p(y | c) starts at the posterior mean given the initial soft counts.
  const Eigen::MatrixXd w0 = soft_memberships(xl, m, par.sigma);
  Eigen::MatrixXd gamma = Eigen::MatrixXd::Constant(k, n_classes, par.n0);
  for (int i = 0; i < n; ++i) gamma.col(y[i]) += w0.row(i).transpose();
  gamma = gamma.array().log().matrix();
  for (int c = 0; c < k; ++c) gamma.row(c).array() -= gamma.row(c).mean();

  StochasticResult res;
  res.objective.push_back(stochastic_detail::mean_log_likelihood(xl, y, m, gamma, par.sigma));
  const double total_steps = static_cast<double>(par.epochs) * n;
  const double inv_var = 1.0 / (par.sigma * par.sigma);
  Eigen::VectorXd w(k), prob_c(n_classes), prob_d(n_classes);
  Eigen::MatrixXd pair(2, n_classes);  // the gamma rows of c and c'
  double t = 0.0;
  for (int epoch = 1; epoch <= par.epochs && n > 0; ++epoch) {
    for (int s = 0; s < n; ++s, t += 1.0) {
      const int i = uniform_index(n, hooks);
      const int label = y[i];
      const auto x = xl.col(i);
      for (int c = 0; c < k; ++c) w[c] = -0.5 * (x - m.col(c)).squaredNorm() * inv_var;
      w = (w.array() - w.maxCoeff()).exp();
      w /= w.sum();
      const int c = stochastic_detail::draw_cluster(w, hooks);
      const int d = stochastic_detail::draw_cluster(w, hooks);
      const double gain = par.step * (1.0 - t / total_steps);
      pair.row(0) = gamma.row(c);
      pair.row(1) = gamma.row(d);
      const Eigen::MatrixXd lp = stochastic_detail::log_class_probs(pair);
      if (c != d) {
        const double ratio = lp(1, label) - lp(0, label);
        m.col(c) -= gain * ratio * (x - m.col(c));
        m.col(d) += gain * ratio * (x - m.col(d));
      }
      prob_c = lp.row(0).array().exp().transpose();
      prob_d = lp.row(1).array().exp().transpose();
      prob_c[label] -= 1.0;
      prob_d[label] -= 1.0;
      gamma.row(c) -= gain * prob_c.transpose();
      gamma.row(d) -= gain * prob_d.transpose();
    }
    res.objective.push_back(stochastic_detail::mean_log_likelihood(xl, y, m, gamma, par.sigma));
    res.epochs = epoch;
    hooks.check_interrupt();
    hooks.on_sweep(epoch, k, res.objective.back());
  }
  res.centres = std::move(m);
  res.gamma = std::move(gamma);
  return res;
}

// The best (highest final mean log-likelihood; the first of ties) of
// par.restarts runs, or one run from par.start. Centres in data coordinates.
inline StochasticResult discriminative_stochastic(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                                  const PartialLabels& labels,
                                                  const StochasticParams& par, RunHooks& hooks) {
  const std::vector<int>& label = labels.label;
  const int n_classes = std::max(labels.n_levels, 1);  // no labelled class: one class
  if (par.k < 1 || par.k > x.cols()) throw std::invalid_argument("k out of range");
  if (!(par.sigma > 0.0) || !(par.n0 > 0.0) || !(par.step > 0.0) || par.epochs < 1) {
    throw std::invalid_argument("sigma, n0, step and epochs must be positive");
  }
  if (static_cast<Eigen::Index>(label.size()) != x.cols()) {
    throw std::invalid_argument("labels and data differ in length");
  }
  const Eigen::VectorXd shift = x.rowwise().mean();
  std::vector<int> y;
  std::vector<Eigen::Index> rows;
  for (std::size_t i = 0; i < label.size(); ++i) {
    if (label[i] >= n_classes) throw std::invalid_argument("label out of range");
    if (label[i] >= 0) {
      y.push_back(label[i]);
      rows.push_back(static_cast<Eigen::Index>(i));
    }
  }
  Eigen::MatrixXd xl(x.rows(), static_cast<Eigen::Index>(rows.size()));
  for (std::size_t j = 0; j < rows.size(); ++j) xl.col(j) = x.col(rows[j]) - shift;
  const int runs = par.init == SeedInit::start ? 1 : std::max(1, par.restarts);
  StochasticResult best;
  for (int r = 0; r < runs; ++r) {
    Eigen::MatrixXd m0 =
        par.init == SeedInit::start ? par.start : draw_prototypes(x, par.k, par.init, hooks);
    if (m0.rows() != x.rows() || m0.cols() != par.k) {
      throw std::invalid_argument("start has the wrong size");
    }
    m0.colwise() -= shift;
    StochasticResult res = stochastic_run(xl, y, n_classes, std::move(m0), par, hooks);
    if (r == 0 || res.objective.back() > best.objective.back()) best = std::move(res);
  }
  const DiscriminativeObjective bf(x, label, n_classes, par.k, par.sigma, par.n0);
  const Eigen::MatrixXd m_centred = best.centres.colwise() + (shift - bf.shift());
  Eigen::MatrixXd unused;
  best.log_bayes_factor = bf.value_gradient(m_centred, unused);
  best.counts = bf.counts(m_centred);
  best.centres.colwise() += shift;
  return best;
}

}  // namespace sideclust
