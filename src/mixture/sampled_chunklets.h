// The sampled chunklet E-step (Nelson & Cohen, Section 4): for each of S
// samples, keep each must-link with probability P = 1 - exp(-W), build the
// chunklets, give the sample the weight omega_s = prod (1 - P) over the
// cannot-links that fell inside a chunklet (the probability that none of
// them is drawn, so the sample stays feasible), draw the other cannot-links
// with probability P as certain ones, and compute the chunklet model's
// posterior (exact on trees and small components, otherwise mean field).
// The posteriors are averaged with weights omega_s (equation 11). Cost per
// sample O(n K + pairs + exact components), n the points in pairs. Plain C++17 + Eigen, no R API.
#pragma once

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "mixture/exact_components.h"
#include "mixture/mrf_graph.h"
#include "common/run_hooks.h"
#include "common/union_find.h"

namespace sideclust {

struct SampledChunkletStats {
  int samples_used = 0;     // samples with omega_s > 0
  int mean_field = 0;       // components left to mean field, over samples
  double ess = 0.0;         // effective sample size of the weights
};

inline double keep_probability(double w) {
  return std::isinf(w) ? 1.0 : -std::expm1(-w);
}

// Points in no pair are their own chunklet in every sample, with the exact
// posterior softmax(a): they are set once, and the samples run on the
// points in pairs only (renumbered in their order, so each sample's
// chunklets and posteriors are those of the whole problem), at a cost per
// sample proportional to the constrained part.
inline Eigen::MatrixXd sampled_chunklet_posterior(const Eigen::MatrixXd& a, const PairGraph& pairs,
                                                  int samples, double max_labelings,
                                                  int mf_sweeps, double mf_tol,
                                                  RunHooks& hooks,
                                                  SampledChunkletStats* stats = nullptr,
                                                  const Eigen::MatrixXd* z_start = nullptr) {
  const int n_all = static_cast<int>(a.cols());
  const Eigen::Index K = a.rows();
  std::vector<int> local(static_cast<std::size_t>(n_all), -1);
  std::vector<int> touched;  // the points in pairs, in order
  for (std::size_t e = 0; e < pairs.n_pairs(); ++e) {
    local[pairs.first[e]] = 0;
    local[pairs.second[e]] = 0;
  }
  for (int i = 0; i < n_all; ++i) {
    if (local[i] == 0) {
      local[i] = static_cast<int>(touched.size());
      touched.push_back(i);
    }
  }
  const int n = static_cast<int>(touched.size());
  std::vector<int> first(pairs.n_pairs()), second(pairs.n_pairs());
  for (std::size_t e = 0; e < pairs.n_pairs(); ++e) {
    first[e] = local[pairs.first[e]];
    second[e] = local[pairs.second[e]];
  }
  Eigen::MatrixXd out(K, n_all);
  for (int i = 0; i < n_all; ++i) {
    if (local[i] < 0) set_softmax_col(out, i, a.col(i));
  }
  if (n == 0) {  // no pairs: every sample is the unconstrained posterior
    if (stats != nullptr) {
      stats->samples_used = samples;
      stats->mean_field = 0;
      stats->ess = samples;
    }
    return out;
  }
  Eigen::MatrixXd a_t(K, n), z_t;
  for (int t = 0; t < n; ++t) a_t.col(t) = a.col(touched[t]);
  if (z_start != nullptr) {
    z_t.resize(K, n);
    for (int t = 0; t < n; ++t) z_t.col(t) = z_start->col(touched[t]);
  }
  Eigen::MatrixXd acc = Eigen::MatrixXd::Zero(K, n);
  double log_scale = -std::numeric_limits<double>::infinity();  // acc is in units exp(log_scale)
  double sum_w = 0.0, sum_w2 = 0.0;
  SampledChunkletStats st;
  std::vector<char> keep(pairs.n_pairs());
  for (int s = 0; s < samples; ++s) {
    UnionFind sets(static_cast<std::size_t>(n));
    for (std::size_t e = 0; e < pairs.n_pairs(); ++e) {
      keep[e] = 0;
      if (pairs.must(e) && hooks.uniform() < keep_probability(pairs.magnitude(e))) {
        keep[e] = 1;
        sets.unite(static_cast<std::size_t>(first[e]), static_cast<std::size_t>(second[e]));
      }
    }
    double log_omega = 0.0;
    for (std::size_t e = 0; e < pairs.n_pairs(); ++e) {
      if (pairs.must(e)) continue;
      const double pk = keep_probability(pairs.magnitude(e));
      if (sets.find(static_cast<std::size_t>(first[e])) ==
          sets.find(static_cast<std::size_t>(second[e]))) {
        log_omega += std::log1p(-pk);  // -Inf for a certain cannot-link
      } else if (hooks.uniform() < pk) {
        keep[e] = 1;
      }
    }
    if (!std::isfinite(log_omega)) continue;
    UnitGraph g;
    g.unit_of = unit_ids(sets, n, &g.n_units);
    g.size.assign(static_cast<std::size_t>(g.n_units), 0);
    for (int k = 0; k < n; ++k) ++g.size[g.unit_of[k]];
    std::vector<UnitEdge> edges;
    for (std::size_t e = 0; e < pairs.n_pairs(); ++e) {
      if (!keep[e] || pairs.must(e)) continue;
      edges.push_back({g.unit_of[first[e]], g.unit_of[second[e]], 0.0, true});
    }
    finish_unit_graph(g, edges);
    const Eigen::MatrixXd b = unit_unary(a_t, g);
    // mean field starts from the previous E-step's answer (a unit takes one
    // of its points'), when there is one
    Eigen::MatrixXd q0;
    if (z_start != nullptr) {
      q0.resize(K, g.n_units);
      for (int i = 0; i < n; ++i) q0.col(g.unit_of[i]) = z_t.col(i);
    }
    int n_mf = 0;
    // trees and small components exact; no cutset conditioning (its cost,
    // paid for every sample, would dominate): mean field for the rest
    const Eigen::MatrixXd q = exact_posterior(b, g, max_labelings, true, mf_sweeps, mf_tol, &n_mf,
                                              z_start != nullptr ? &q0 : nullptr, false);
    st.mean_field += n_mf;
    ++st.samples_used;
    if (log_omega > log_scale) {
      if (std::isfinite(log_scale)) {
        const double f = std::exp(log_scale - log_omega);
        acc *= f;
        sum_w *= f;
        sum_w2 *= f * f;
      }
      log_scale = log_omega;
    }
    const double w = std::exp(log_omega - log_scale);
    for (int i = 0; i < n; ++i) acc.col(i) += w * q.col(g.unit_of[i]);
    sum_w += w;
    sum_w2 += w * w;
  }
  if (st.samples_used == 0) {
    throw std::invalid_argument(
        "sampled chunklets: every sample put a certain cannot-link inside a chunklet");
  }
  st.ess = sum_w * sum_w / sum_w2;
  if (stats != nullptr) *stats = st;
  for (int t = 0; t < n; ++t) out.col(touched[t]) = acc.col(t) / sum_w;
  return out;
}

}  // namespace sideclust
