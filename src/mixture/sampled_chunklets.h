// The sampled chunklet E-step (Nelson & Cohen, Section 4, after Shental et
// al.'s chunklet model): S constraint sets are sampled, each must-link kept
// with probability P = 1 - exp(-W), chunklets built from the kept ones; the
// sample's weight omega_s = prod (1 - P) over the cannot-links that fell
// inside a chunklet (the probability that none of them is drawn, so the
// sample stays feasible); every other cannot-link is kept with probability
// P as certain. The posterior is the omega-weighted average of the samples'
// chunklet posteriors (equation 11).
//
// The samples depend on the constraints and their confidences only, not on
// the mixture's parameters, so they are drawn once per fit (common random
// numbers across EM iterations: the E-steps average the same constraint
// sets, and the likelihood path is not jittered by fresh draws). A sample
// keeps only its chunklet graph over the points in pairs
// (cannot_link_field.h): points in no pair are their own chunklet in every
// sample and get the exact posterior softmax(a) once. Per E-step a sample
// costs a product of its points' weights per chunklet (the exponentials are
// taken once per point, not per sample) and its cannot-link part: message
// passing on trees, enumeration of small components with cycles, mean field
// for the rest. Plain C++17 + Eigen, no R API.
#pragma once

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "mixture/cannot_link_field.h"
#include "mixture/mrf_graph.h"
#include "common/run_hooks.h"
#include "common/union_find.h"

namespace sideclust {

inline double keep_probability(double w) {
  return std::isinf(w) ? 1.0 : -std::expm1(-w);
}

// The samples of one fit and the warm start of their mean field.
struct SampledChunklets {
  bool drawn = false;
  std::vector<int> points;              // the points in pairs, in order
  std::vector<CannotLinkGraph> samples; // the samples with omega_s > 0
  std::vector<double> weight;           // their omega_s, summing to 1
  double ess = 0.0;                     // effective number of samples
  int max_units = 0;
};

// Draws the samples (R's generator through hooks, in the order of the
// earlier per-E-step draws: per sample the must-links, then the cannot-links
// between different chunklets) and builds their graphs.
inline void draw_chunklet_samples(SampledChunklets& sc, int n_all, const PairGraph& pairs,
                                  int samples, int K, double max_labelings, RunHooks& hooks) {
  sc = SampledChunklets();
  sc.drawn = true;
  std::vector<int> local(static_cast<std::size_t>(n_all), -1);
  for (std::size_t e = 0; e < pairs.n_pairs(); ++e) {
    local[pairs.first[e]] = 0;
    local[pairs.second[e]] = 0;
  }
  for (int i = 0; i < n_all; ++i) {
    if (local[i] == 0) {
      local[i] = static_cast<int>(sc.points.size());
      sc.points.push_back(i);
    }
  }
  const int n = static_cast<int>(sc.points.size());
  if (n == 0) {  // no pairs: every sample is the unconstrained posterior
    sc.ess = samples;
    return;
  }
  std::vector<int> first(pairs.n_pairs()), second(pairs.n_pairs());
  for (std::size_t e = 0; e < pairs.n_pairs(); ++e) {
    first[e] = local[pairs.first[e]];
    second[e] = local[pairs.second[e]];
  }
  std::vector<double> log_omega;
  std::vector<std::pair<int, int>> edges;
  for (int s = 0; s < samples; ++s) {
    hooks.check_interrupt();
    UnionFind sets(static_cast<std::size_t>(n));
    for (std::size_t e = 0; e < pairs.n_pairs(); ++e) {
      if (pairs.must(e) && hooks.uniform() < keep_probability(pairs.magnitude(e))) {
        sets.unite(static_cast<std::size_t>(first[e]), static_cast<std::size_t>(second[e]));
      }
    }
    double lo = 0.0;
    edges.clear();
    for (std::size_t e = 0; e < pairs.n_pairs(); ++e) {
      if (pairs.must(e)) continue;
      const double pk = keep_probability(pairs.magnitude(e));
      if (sets.find(static_cast<std::size_t>(first[e])) ==
          sets.find(static_cast<std::size_t>(second[e]))) {
        lo += std::log1p(-pk);  // -Inf for a certain cannot-link
      } else if (hooks.uniform() < pk) {
        edges.emplace_back(first[e], second[e]);
      }
    }
    if (!std::isfinite(lo)) continue;
    CannotLinkGraph g;
    g.unit_of = unit_ids(sets, n, &g.n_units);
    for (auto& e : edges) e = {g.unit_of[e.first], g.unit_of[e.second]};
    classify_cannot_links(g, edges, K, max_labelings);
    sc.max_units = std::max(sc.max_units, g.n_units);
    sc.samples.push_back(std::move(g));
    log_omega.push_back(lo);
  }
  if (sc.samples.empty()) {
    throw std::invalid_argument(
        "sampled chunklets: every sample put a certain cannot-link inside a chunklet");
  }
  double m = -std::numeric_limits<double>::infinity();
  for (double lo : log_omega) m = std::max(m, lo);
  double sum_w = 0.0, sum_w2 = 0.0;
  for (double lo : log_omega) {
    const double w = std::exp(lo - m);
    sc.weight.push_back(w);
    sum_w += w;
    sum_w2 += w * w;
  }
  for (double& w : sc.weight) w /= sum_w;
  sc.ess = sum_w * sum_w / sum_w2;
}

// One E-step from the unaries a (K x n), in place: a becomes the posterior.
// *n_mean_field counts the components left to mean field over the samples.
inline void sampled_chunklet_estep(Eigen::MatrixXd& a, SampledChunklets& sc, int mf_sweeps,
                                   double mf_tol, RunHooks& hooks, int* n_mean_field = nullptr) {
  const Eigen::Index K = a.rows();
  const int n = static_cast<int>(sc.points.size());
  // the constrained points' weights exp(a - max), once for all samples
  Eigen::MatrixXd e(K, n);
  for (int t = 0; t < n; ++t) {
    const auto at = a.col(sc.points[t]);
    const double m = at.maxCoeff();
    for (Eigen::Index k = 0; k < K; ++k) {
      e(k, t) = std::isfinite(m) ? flushed_exp(at(k) - m) : 1.0;
    }
  }
  // every other point: its exact posterior, in place
  {
    std::size_t next = 0;
    for (Eigen::Index i = 0; i < a.cols(); ++i) {
      if (next < sc.points.size() && sc.points[next] == i) {
        ++next;
        continue;
      }
      set_softmax_col(a, i, a.col(i));
    }
  }
  if (n == 0) return;
  CannotLinkWork work;
  work.reserve(K, sc.max_units);
  Eigen::MatrixXd acc = Eigen::MatrixXd::Zero(K, n);
  int n_mf = 0;
  std::vector<int> mf;
  for (std::size_t s = 0; s < sc.samples.size(); ++s) {
    hooks.check_interrupt();
    const CannotLinkGraph& g = sc.samples[s];
    const int U = g.n_units;
    // unit weights: products of their points' weights, scaled to a maximum
    // of 1; a product that underflows is taken again from the logarithms
    auto w = work.w.leftCols(U);
    w.setOnes();
    for (int t = 0; t < n; ++t) w.col(g.unit_of[t]).array() *= e.col(t).array();
    bool any_small = false;
    for (int u = 0; u < U; ++u) {
      const double m = w.col(u).maxCoeff();
      if (m > 1e-200) {
        if (m != 1.0) w.col(u) *= 1.0 / m;
      } else {
        w(0, u) = -1.0;  // marks a redo
        any_small = true;
      }
    }
    if (any_small) {
      Eigen::MatrixXd lw = Eigen::MatrixXd::Zero(K, U);
      for (int t = 0; t < n; ++t) {
        const int u = g.unit_of[t];
        if (w(0, u) != -1.0) continue;
        const auto at = a.col(sc.points[t]);  // a's constrained columns are still unaries
        lw.col(u) += (at.array() - at.maxCoeff()).matrix();
      }
      for (int t = 0; t < n; ++t) {
        const int u = g.unit_of[t];
        if (w(0, u) != -1.0 || lw.col(u).isZero(0.0)) continue;
        const double m = lw.col(u).maxCoeff();
        for (Eigen::Index k = 0; k < K; ++k) {
          w(k, u) = std::isfinite(m) ? flushed_exp(lw(k, u) - m) : 1.0;
        }
        lw.col(u).setZero();
      }
    }
    // a unit alone has its exact posterior, its normalized weights; trees
    // and enumerated components overwrite theirs, mean field starts from them
    // (a warm start from the last E-step saves no updates when EM moves the
    // unaries, and would cost memory per sample)
    for (int u = 0; u < U; ++u) work.q.col(u) = w.col(u) * (1.0 / w.col(u).sum());
    work.extra.clear();
    cannot_link_trees(g, work);
    cannot_link_enumerate(g, work);
    for (int u : work.extra) work.q.col(u) = w.col(u) * (1.0 / w.col(u).sum());
    n_mf += g.n_mf_components;
    if (work.extra.empty()) {
      cannot_link_mean_field(g, g.mf_units, work.w, work.q, work.mf, mf_sweeps, mf_tol, &hooks);
    } else {
      ++n_mf;
      mf = g.mf_units;
      mf.insert(mf.end(), work.extra.begin(), work.extra.end());
      cannot_link_mean_field(g, mf, work.w, work.q, work.mf, mf_sweeps, mf_tol, &hooks);
    }
    const double ws = sc.weight[s];
    for (int t = 0; t < n; ++t) acc.col(t) += ws * work.q.col(g.unit_of[t]);
  }
  for (int t = 0; t < n; ++t) a.col(sc.points[t]) = acc.col(t);
  if (n_mean_field != nullptr) *n_mean_field = n_mf;
}

}  // namespace sideclust
