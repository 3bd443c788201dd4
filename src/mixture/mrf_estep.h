// Approximate E-steps on the constraint field over units (mrf_graph.h):
// mean field (Lange et al.; Nelson & Cohen equation 9), iterated conditional
// modes (Basu et al.) and Gibbs sampling (Lu & Leen's PPC). Each update of a
// unit reads only its neighbours in the CSR graph: O(K + degree) for ICM and
// Gibbs, O(K * degree) for mean field. B holds the unit unaries (K x U).
// Plain C++17 + Eigen, no R API.
#pragma once

#include <Eigen/Dense>

#include <cmath>
#include <vector>

#include "mixture/gaussian_mixture.h"
#include "mixture/mrf_graph.h"
#include "common/run_hooks.h"

namespace sideclust {

// Penalty standing for log 0 in ICM and Gibbs scores: a certain cannot-link
// removes a label unless every label is removed, when the least violating
// labels remain.
constexpr double kHardPenalty = 1e10;

// Score of each label for unit u given its neighbours' labels.
inline void label_scores(const Eigen::MatrixXd& b, const UnitGraph& g, const std::vector<int>& y,
                         int u, Eigen::VectorXd& s) {
  s = b.col(u);
  for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
    s(y[g.nbr[e]]) += g.hard[e] ? -kHardPenalty : g.coupling[e];
  }
}

inline int argmax(const Eigen::VectorXd& s) {
  Eigen::Index k;
  s.maxCoeff(&k);
  return static_cast<int>(k);
}

inline std::vector<int> argmax_cols(const Eigen::MatrixXd& b) {
  std::vector<int> y(static_cast<std::size_t>(b.cols()));
  for (Eigen::Index u = 0; u < b.cols(); ++u) y[u] = argmax(b.col(u));
  return y;
}

// Units without neighbours get their exact posterior, softmax of b, in q;
// returns the active units that have neighbours, in order.
template <class Active>
std::vector<int> settle_isolated(const Eigen::MatrixXd& b, const UnitGraph& g, Eigen::MatrixXd& q,
                                 Active&& is_active) {
  std::vector<int> linked;
  for (int u = 0; u < g.n_units; ++u) {
    if (!is_active(u)) continue;
    if (g.degree(u) == 0) {
      set_softmax_col(q, u, b.col(u));
    } else {
      linked.push_back(u);
    }
  }
  return linked;
}

// Mean field: q_u(k) propto exp(B(k, u) + sum_v J_uv q_v(k)) times, for a
// certain cannot-link, the probability (1 - q_v(k)) that v avoids k.
// Sequential sweeps over the units with `active[u]` (all when empty) until
// the largest change is below tol or after max_sweeps. Units without
// neighbours are set once. Returns the number of sweeps.
inline int mean_field(const Eigen::MatrixXd& b, const UnitGraph& g, Eigen::MatrixXd& q,
                      int max_sweeps, double tol, const std::vector<char>& active = {},
                      RunHooks* hooks = nullptr) {
  const Eigen::Index K = b.rows();
  auto is_active = [&](int u) { return active.empty() || active[u]; };
  const std::vector<int> linked = settle_isolated(b, g, q, is_active);
  std::vector<double> s(static_cast<std::size_t>(K));
  const double* bd = b.data();
  double* qd = q.data();
  int sweep = 0;
  for (; sweep < max_sweeps && !linked.empty(); ++sweep) {
    if (hooks) hooks->check_interrupt();  // an E-step may run many sweeps
    double change = 0.0;
    for (int u : linked) {
      const double* bu = bd + static_cast<std::ptrdiff_t>(u) * K;
      for (Eigen::Index k = 0; k < K; ++k) s[k] = bu[k];
      for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
        const double* qv = qd + static_cast<std::ptrdiff_t>(g.nbr[e]) * K;
        if (g.hard[e]) {
          for (Eigen::Index k = 0; k < K; ++k) s[k] += std::log(std::max(1.0 - qv[k], 1e-300));
        } else {
          const double j = g.coupling[e];
          for (Eigen::Index k = 0; k < K; ++k) s[k] += j * qv[k];
        }
      }
      double m = s[0];
      for (Eigen::Index k = 1; k < K; ++k) m = std::max(m, s[k]);
      double total = 0.0;
      for (Eigen::Index k = 0; k < K; ++k) total += (s[k] = std::exp(s[k] - m));
      double* qu = qd + static_cast<std::ptrdiff_t>(u) * K;
      for (Eigen::Index k = 0; k < K; ++k) {
        const double v = s[k] / total;
        change = std::max(change, std::abs(v - qu[k]));
        qu[k] = v;
      }
    }
    if (change < tol) {
      ++sweep;
      break;
    }
  }
  return sweep;
}

// ICM: each unit in turn takes its best label given its neighbours, until a
// sweep changes nothing (a local maximum of the joint) or max_sweeps.
inline int icm(const Eigen::MatrixXd& b, const UnitGraph& g, std::vector<int>& y,
               int max_sweeps, RunHooks* hooks = nullptr) {
  Eigen::VectorXd s;
  int sweep = 0;
  for (; sweep < max_sweeps; ++sweep) {
    if (hooks) hooks->check_interrupt();
    bool moved = false;
    for (int u = 0; u < g.n_units; ++u) {
      if (g.degree(u) == 0) {
        y[u] = argmax(b.col(u));
        continue;
      }
      label_scores(b, g, y, u, s);
      const int best = argmax(s);
      // keep the current label on ties
      if (best != y[u] && s(best) > s(y[u])) {
        y[u] = best;
        moved = true;
      }
    }
    if (!moved) {
      ++sweep;
      break;
    }
  }
  return sweep;
}

inline Eigen::MatrixXd one_hot(const std::vector<int>& y, Eigen::Index K) {
  Eigen::MatrixXd q = Eigen::MatrixXd::Zero(K, static_cast<Eigen::Index>(y.size()));
  for (std::size_t u = 0; u < y.size(); ++u) q(y[u], static_cast<Eigen::Index>(u)) = 1.0;
  return q;
}

// Gibbs sampling: `burn_in` sweeps, then `sweeps` sweeps whose conditional
// label distributions are averaged (Rao-Blackwellized marginals). Units
// without neighbours get their exact posterior. y holds the chain's state.
inline Eigen::MatrixXd gibbs(const Eigen::MatrixXd& b, const UnitGraph& g, std::vector<int>& y,
                             int burn_in, int sweeps, RunHooks& hooks) {
  const Eigen::Index K = b.rows();
  Eigen::MatrixXd q = Eigen::MatrixXd::Zero(K, g.n_units);
  Eigen::VectorXd s;
  const std::vector<int> linked = settle_isolated(b, g, q, [](int) { return true; });
  if (linked.empty()) return q;
  for (int sweep = 0; sweep < burn_in + sweeps; ++sweep) {
    hooks.check_interrupt();
    for (int u : linked) {
      label_scores(b, g, y, u, s);
      s = (s.array() - s.maxCoeff()).exp();
      const double total = s.sum();
      if (sweep >= burn_in) q.col(u) += s / total;
      double r = hooks.uniform() * total;
      int k = 0;
      while (k < K - 1 && r >= s(k)) r -= s(k++);
      y[u] = k;
    }
  }
  for (int u : linked) q.col(u) /= static_cast<double>(sweeps);
  return q;
}

}  // namespace sideclust
