// Exact posterior marginals of the constraint field over units (Nelson &
// Cohen, equation 8), per connected component: by sum-product message
// passing on trees (any size), by enumerating the K^s labelings of a small
// component of s units, and otherwise by cutset conditioning (enumerating
// the labelings of a cycle cutset, message passing on the rest) when the
// cutset has at most max_labelings labelings.
// A component whose labelings exceed `max_labelings`, or that no labeling
// can satisfy, is either refused (an exception) or, for the chunklet model,
// left to mean field.
// Plain C++17 + Eigen, no R API.
#pragma once

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "mixture/cannot_link_field.h"
#include "mixture/mrf_estep.h"
#include "mixture/cutset_components.h"
#include "mixture/mrf_graph.h"
#include "mixture/tree_components.h"
#include "engine/huge_pages.h"
#include "common/union_find.h"

namespace sideclust {

// Exact marginals of one component (units `comp`) into q. `local` is a
// workspace of n_units entries equal to -1, left so on return (one shared
// array keeps the cost linear in the number of units over all components).
inline void exact_component(const Eigen::MatrixXd& b, const UnitGraph& g,
                            const std::vector<int>& comp, Eigen::MatrixXd& q,
                            std::vector<int>& local) {
  const int K = static_cast<int>(b.rows());
  const int s = static_cast<int>(comp.size());
  if (s == 1) {
    set_softmax_col(q, comp[0], b.col(comp[0]));
    return;
  }
  // local indices and edges (each once: local a < local b)
  for (int a = 0; a < s; ++a) local[comp[a]] = a;
  struct E { int a, b; double j; bool hard; };
  std::vector<E> edges;
  for (int a = 0; a < s; ++a) {
    const int u = comp[a];
    for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
      const int lb = local[g.nbr[e]];
      if (lb > a) edges.push_back({a, lb, g.coupling[e], g.hard[e] != 0});
    }
  }
  for (int a = 0; a < s; ++a) local[comp[a]] = -1;
  std::vector<int> y(static_cast<std::size_t>(s), 0);
  auto log_weight = [&]() {
    double lw = 0.0;
    for (int a = 0; a < s; ++a) lw += b(y[a], comp[a]);
    for (const auto& e : edges) {
      if (y[e.a] == y[e.b]) {
        if (e.hard) return -std::numeric_limits<double>::infinity();
        lw += e.j;
      }
    }
    return lw;
  };
  auto next = [&]() {  // odometer; false after the last labeling
    for (int a = 0; a < s; ++a) {
      if (++y[a] < K) return true;
      y[a] = 0;
    }
    return false;
  };
  std::vector<double> lw;
  lw.reserve(static_cast<std::size_t>(std::pow(static_cast<double>(K), s)));
  do lw.push_back(log_weight()); while (next());
  double m = -std::numeric_limits<double>::infinity();
  for (double v : lw) m = std::max(m, v);
  if (!std::isfinite(m)) {
    throw std::invalid_argument(
        "a component of " + std::to_string(s) +
        " chunklets has no labeling that keeps its certain cannot-links (more "
        "mutually cannot-linked chunklets than clusters `k`)");
  }
  Eigen::MatrixXd acc = Eigen::MatrixXd::Zero(K, s);
  std::fill(y.begin(), y.end(), 0);
  std::size_t t = 0;
  double total = 0.0;
  do {
    const double w = std::exp(lw[t++] - m);
    if (w > 0.0) {
      total += w;
      for (int a = 0; a < s; ++a) acc(y[a], a) += w;
    }
  } while (next());
  for (int a = 0; a < s; ++a) q.col(comp[a]) = acc.col(a) / total;
}

inline double n_labelings(int K, std::size_t s) {
  return std::pow(static_cast<double>(K), static_cast<double>(s));
}

// Exact marginals of every component. With fallback, components too large
// to enumerate go to mean field (from *q_start, which is taken over and left
// empty, or from softmax(B)) and
// *n_mean_field counts them; without, such a component throws.
inline Eigen::MatrixXd exact_posterior(const Eigen::MatrixXd& b, const UnitGraph& g,
                                       const UnitComponents& comps,
                                       double max_labelings, bool fallback,
                                       int mf_sweeps, double mf_tol,
                                       int* n_mean_field = nullptr,
                                       Eigen::MatrixXd* q_start = nullptr,
                                       bool use_cutset = true) {
  const int K = static_cast<int>(b.rows());
  Eigen::MatrixXd q;
  if (q_start != nullptr && q_start->cols() == g.n_units) {
    q.swap(*q_start);  // taken over, not copied
  } else {
    // read at the graph's random places by the mean field: marked so
    // before the copy first touches the memory
    resize_for_random_reads(q, b.rows(), b.cols());
    q = b;
    softmax_cols(q);
  }
  std::vector<char> active;
  std::vector<int> local(static_cast<std::size_t>(g.n_units), -1);
  std::vector<int> comp;
  int n_mf = 0;
  for (int c = 0; c < comps.count(); ++c) {
    const int* first = comps.begin(c);
    if (comps.size(c) == 1) {
      set_softmax_col(q, first[0], b.col(first[0]));
      continue;
    }
    comp.assign(first, first + comps.size(c));
    std::size_t degree_sum = 0;
    for (int u : comp) degree_sum += static_cast<std::size_t>(g.degree(u));
    // a tree: exact by message passing, whatever its size
    if (degree_sum / 2 + 1 == comp.size() && tree_component(b, g, comp, q, local)) continue;
    try {
      if (n_labelings(K, comp.size()) <= max_labelings) {
        exact_component(b, g, comp, q, local);
        continue;
      }
      if (use_cutset && cutset_component(b, g, comp, q, local, max_labelings)) continue;
    } catch (const std::invalid_argument&) {
      // no labeling keeps the certain cannot-links: an error for exact
      // inference; the chunklet model keeps mean field's compromise
      if (!fallback) throw;
    }
    if (!fallback) {
      throw std::invalid_argument(
          "exact inference: a connected component of the constraint graph with cycles has " +
          std::to_string(comp.size()) + " chunklets and no cycle cutset with at most " +
          "`max_labelings` labelings; use another inference or raise `max_labelings`");
    }
    if (active.empty()) active.assign(static_cast<std::size_t>(g.n_units), 0);
    for (int u : comp) active[u] = 1;
    ++n_mf;
  }
  if (n_mf > 0) {
    // only certain cannot-links between these units (the chunklet model):
    // mean field in product form on the weights exp(B - max), with no
    // exponential or logarithm per update (cannot_link_field.h)
    std::vector<int> units;
    bool all_hard = true;
    for (int u = 0; u < g.n_units && all_hard; ++u) {
      if (!active[u]) continue;
      units.push_back(u);
      for (int e = g.start[u]; e < g.start[u + 1]; ++e) all_hard = all_hard && g.hard[e];
    }
    if (all_hard) {
      Eigen::MatrixXd w;  // read at random places in later sweeps
      resize_for_random_reads(w, b.rows(), static_cast<Eigen::Index>(g.n_units));
      for (int u : units) {
        const double m = b.col(u).maxCoeff();
        for (Eigen::Index k = 0; k < b.rows(); ++k) {
          w(k, u) = std::isfinite(m) ? flushed_exp(b(k, u) - m) : 1.0;
        }
      }
      MeanFieldScratch scratch;
      scratch.reserve(g.n_units);
      cannot_link_mean_field(g, units, w, q, scratch, mf_sweeps, mf_tol, nullptr);
    } else {
      mean_field(b, g, q, mf_sweeps, mf_tol, active);
    }
  }
  if (n_mean_field != nullptr) *n_mean_field = n_mf;
  return q;
}

}  // namespace sideclust
