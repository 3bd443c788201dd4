// Exact posterior marginals of a component with cycles by cutset
// conditioning: choose a set C of units whose removal leaves a forest (peel
// leaves, take the unit of largest degree left in the 2-core, repeat),
// enumerate the K^|C| labelings of C, and for each run sum-product on the
// trees of the rest (tree_components.h) with the cutset's couplings folded
// into their unaries; marginals are the labelings' averages weighted by
// their partition functions. Gives up (returns false) when K^|C| times the
// number of units s exceeds max_labelings (the work of the enumeration). Plain C++17 + Eigen, no R API.
#pragma once

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "mixture/mrf_graph.h"
#include "mixture/tree_components.h"

namespace sideclust {

// A cycle cutset of component `comp` as local indices, or a set one larger
// than max_size when none that small was found.
inline std::vector<int> cycle_cutset(const UnitGraph& g, const std::vector<int>& comp,
                                     std::vector<int>& local, int max_size) {
  const int s = static_cast<int>(comp.size());
  for (int a = 0; a < s; ++a) local[comp[a]] = a;
  std::vector<char> removed(static_cast<std::size_t>(s), 0);
  std::vector<int> cut;
  while (static_cast<int>(cut.size()) <= max_size) {
    std::vector<int> deg(static_cast<std::size_t>(s), 0);
    std::vector<char> peeled(static_cast<std::size_t>(s), 0);
    std::vector<int> stack;
    for (int a = 0; a < s; ++a) {
      if (removed[a]) continue;
      const int u = comp[a];
      for (int e = g.start[u]; e < g.start[u + 1]; ++e) deg[a] += !removed[local[g.nbr[e]]];
      if (deg[a] <= 1) stack.push_back(a);
    }
    while (!stack.empty()) {
      const int a = stack.back();
      stack.pop_back();
      if (peeled[a]) continue;
      peeled[a] = 1;
      const int u = comp[a];
      for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
        const int c = local[g.nbr[e]];
        if (!removed[c] && !peeled[c] && --deg[c] <= 1) stack.push_back(c);
      }
    }
    int best = -1;
    for (int a = 0; a < s; ++a) {
      if (!removed[a] && !peeled[a] && (best < 0 || deg[a] > deg[best])) best = a;
    }
    if (best < 0) break;
    cut.push_back(best);
    removed[best] = 1;
  }
  for (int a = 0; a < s; ++a) local[comp[a]] = -1;
  return cut;
}

inline bool cutset_component(const Eigen::MatrixXd& b, const UnitGraph& g,
                             const std::vector<int>& comp, Eigen::MatrixXd& q,
                             std::vector<int>& local, double max_labelings) {
  const int K = static_cast<int>(b.rows());
  const int s = static_cast<int>(comp.size());
  // work budget: K^|C| labelings times s units at most max_labelings
  const double budget = max_labelings / static_cast<double>(s);
  if (budget < K) return false;
  const int max_size = static_cast<int>(std::floor(std::log(budget) / std::log(K) + 1e-9));
  const std::vector<int> cut = cycle_cutset(g, comp, local, max_size);
  const int c = static_cast<int>(cut.size());
  if (c > max_size) return false;
  // the component as a local graph; the rest graph drops edges at cut units
  for (int a = 0; a < s; ++a) local[comp[a]] = a;
  std::vector<char> is_cut(static_cast<std::size_t>(s), 0);
  std::vector<int> cut_pos(static_cast<std::size_t>(s), -1);
  for (int t = 0; t < c; ++t) {
    is_cut[cut[t]] = 1;
    cut_pos[cut[t]] = t;
  }
  struct Link { int from, to; double j; bool hard; };  // from: cut position
  std::vector<Link> to_rest, within_cut;
  std::vector<UnitEdge> rest_edges;
  for (int a = 0; a < s; ++a) {
    const int u = comp[a];
    for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
      const int v = local[g.nbr[e]];
      const bool hard = g.hard[e] != 0;
      if (is_cut[a] && is_cut[v]) {
        if (a < v) within_cut.push_back({cut_pos[a], cut_pos[v], g.coupling[e], hard});
      } else if (is_cut[a]) {
        to_rest.push_back({cut_pos[a], v, g.coupling[e], hard});
      } else if (!is_cut[v] && a < v) {
        rest_edges.push_back({a, v, g.coupling[e], hard});
      }
    }
  }
  Eigen::MatrixXd b0(K, s);
  for (int a = 0; a < s; ++a) {
    b0.col(a) = b.col(comp[a]);
    local[comp[a]] = -1;
  }
  UnitGraph rest;
  rest.n_units = s;
  finish_unit_graph(rest, rest_edges);
  std::vector<std::vector<int>> trees;
  const UnitComponents parts = unit_components(rest);
  for (int t = 0; t < parts.count(); ++t) {
    const int* first = parts.begin(t);
    if (!(parts.size(t) == 1 && is_cut[first[0]])) trees.emplace_back(first, first + parts.size(t));
  }
  std::vector<int> work(static_cast<std::size_t>(s), -1);
  std::vector<int> y(static_cast<std::size_t>(c), 0);
  Eigen::MatrixXd acc = Eigen::MatrixXd::Zero(K, s), bl(K, s), qt(K, s);
  double scale = -std::numeric_limits<double>::infinity(), total = 0.0;
  const double neg_inf = -std::numeric_limits<double>::infinity();
  for (;;) {
    double lw = 0.0;
    for (int t = 0; t < c; ++t) lw += b0(y[t], cut[t]);
    for (const auto& l : within_cut) {
      if (y[l.from] == y[l.to]) lw += l.hard ? neg_inf : l.j;
    }
    bool ok = std::isfinite(lw);
    if (ok) {
      bl = b0;
      for (const auto& l : to_rest) {
        double& cell = bl(y[l.from], l.to);
        cell = l.hard ? neg_inf : cell + l.j;
      }
      for (const auto& tree : trees) {
        double lz = 0.0;
        if (!tree_component(bl, rest, tree, qt, work, &lz)) {
          ok = false;
          break;
        }
        lw += lz;
      }
    }
    if (ok) {
      if (lw > scale) {
        const double f = std::isfinite(scale) ? std::exp(scale - lw) : 0.0;
        acc *= f;
        total *= f;
        scale = lw;
      }
      const double w = std::exp(lw - scale);
      total += w;
      for (const auto& tree : trees) {
        for (int a : tree) acc.col(a) += w * qt.col(a);
      }
      for (int t = 0; t < c; ++t) acc(y[t], cut[t]) += w;
    }
    int t = 0;  // odometer over the cutset's labelings
    for (; t < c; ++t) {
      if (++y[t] < K) break;
      y[t] = 0;
    }
    if (t == c) break;
  }
  if (!(total > 0.0)) {
    throw std::invalid_argument(
        "a component of " + std::to_string(s) +
        " chunklets has no labeling that keeps its certain cannot-links (more "
        "mutually cannot-linked chunklets than clusters `k`)");
  }
  for (int a = 0; a < s; ++a) q.col(comp[a]) = acc.col(a) / total;
  return true;
}

}  // namespace sideclust
