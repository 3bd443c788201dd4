// The components that sampled chunklets (sampled_chunklets.h) solve exactly
// -- a chunklet alone, a tree of chunklets, a small component enumerated --
// recur across the samples: the same chunklets joined by the same kept
// cannot-links (most such points are in a component already met in an
// earlier sample: bench/NOTES.md). Their
// posterior depends on their own points' weights only, so each distinct
// component is solved once per E-step and enters the average with the summed
// weight omega of the samples that hold it; a sample keeps only its
// mean-field components. Exact: the same terms, summed in another order.
// Plain C++17 + Eigen, no R API.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mixture/cannot_link_field.h"
#include "common/group_by_id.h"

namespace sideclust {

// The distinct exactly solved components of a part's samples, as one graph
// whose units may share points (each distinct component has units of its
// own): unit u holds the points unit_points[unit_start[u] .. unit_start[u +
// 1]) (local ids) and weighs unit_weight[u] in the average.
struct SharedComponents {
  CannotLinkGraph graph;  // unit_of unused: a point may be in several units
  std::vector<int> unit_start{0}, unit_points;
  std::vector<double> unit_weight;
};

namespace detail {
struct IntsHash {
  std::size_t operator()(const std::vector<int>& v) const {
    std::uint64_t h = 0x9E3779B97F4A7C15ULL ^ v.size();
    for (int x : v) {
      h ^= static_cast<std::uint64_t>(static_cast<std::uint32_t>(x)) + 0x9E3779B97F4A7C15ULL +
           (h << 6) + (h >> 2);
    }
    return static_cast<std::size_t>(h);
  }
};
}  // namespace detail

// Strips a sample to its mean-field components: its units renumbered 0 ..
// M - 1 in their order (the sweeps visit them in the same order, each unit's
// neighbours in the same order, so the same products; their columns are
// adjacent in the workspaces, which need M columns instead of one per
// chunklet), and unit[i] the new unit of points[i]. The point -> unit map
// and the lists of the shared components are freed.
inline void keep_mean_field_units(CannotLinkGraph& g, const std::vector<int>& points,
                                  std::vector<int>& unit) {
  const int M = static_cast<int>(g.mf_units.size());
  std::vector<int> id(static_cast<std::size_t>(g.n_units), -1);
  for (int i = 0; i < M; ++i) id[g.mf_units[i]] = i;
  std::vector<int> start(static_cast<std::size_t>(M) + 1, 0), nbr;
  for (int i = 0; i < M; ++i) {
    const int u = g.mf_units[i];
    for (int e = g.start[u]; e < g.start[u + 1]; ++e) nbr.push_back(id[g.nbr[e]]);
    start[i + 1] = static_cast<int>(nbr.size());
  }
  unit.resize(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) unit[i] = id[g.unit_of[points[i]]];
  g.start.swap(start);
  g.nbr.swap(nbr);
  g.n_units = M;
  for (int i = 0; i < M; ++i) g.mf_units[i] = i;
  g.unit_of = std::vector<int>();
  g.tree_order = std::vector<int>();
  g.tree_parent = std::vector<int>();
  g.enum_units = std::vector<int>();
  g.enum_start.assign(1, 0);
}

// Moves the exactly solved components of `samples` (weights `weight`, over
// n local points) into `shared`, deduplicated, and lists per sample the
// points of its mean-field components (ascending) in mf_points and their
// units in mf_unit. The samples' tree and enumeration lists are dropped:
// only their mean field is left (keep_mean_field_units()).
inline void share_exact_components(std::vector<CannotLinkGraph>& samples,
                                   const std::vector<double>& weight, int n, int K,
                                   double max_labelings, SharedComponents& shared,
                                   std::vector<std::vector<int>>& mf_points,
                                   std::vector<std::vector<int>>& mf_unit) {
  shared = SharedComponents();
  mf_points.assign(samples.size(), std::vector<int>());
  mf_unit.assign(samples.size(), std::vector<int>());
  std::unordered_map<std::vector<int>, int, detail::IntsHash> index;
  std::vector<double> comp_weight;
  std::vector<int> comp_first;  // first shared unit of each distinct component
  std::vector<std::pair<int, int>> edges;
  std::vector<int> key, units, loc, ustart, upts;
  std::vector<std::pair<int, int>> local_edges;
  for (std::size_t s = 0; s < samples.size(); ++s) {
    CannotLinkGraph& g = samples[s];
    const int U = g.n_units;
    // the points of each unit, ascending (counting sort)
    group_by_id(g.unit_of.data(), static_cast<std::size_t>(n), U, ustart, upts);
    std::vector<char> is_mf(static_cast<std::size_t>(U), 0);
    for (int u : g.mf_units) is_mf[u] = 1;
    for (int t = 0; t < n; ++t) {
      if (is_mf[g.unit_of[t]]) mf_points[s].push_back(t);
    }
    loc.assign(static_cast<std::size_t>(U), -1);
    // one component (its units, ascending ids = ascending first points):
    // the key lists its units' points and its edges between them
    auto add_component = [&]() {
      std::sort(units.begin(), units.end());
      for (std::size_t a = 0; a < units.size(); ++a) loc[units[a]] = static_cast<int>(a);
      key.clear();
      key.push_back(static_cast<int>(units.size()));
      for (int u : units) {
        key.push_back(ustart[u + 1] - ustart[u]);
        key.insert(key.end(), upts.begin() + ustart[u], upts.begin() + ustart[u + 1]);
      }
      local_edges.clear();
      for (std::size_t a = 0; a < units.size(); ++a) {
        const int u = units[a];
        for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
          const int b = loc[g.nbr[e]];
          if (b > static_cast<int>(a)) local_edges.emplace_back(static_cast<int>(a), b);
        }
      }
      std::sort(local_edges.begin(), local_edges.end());
      for (const auto& le : local_edges) {
        key.push_back(le.first);
        key.push_back(le.second);
      }
      for (int u : units) loc[u] = -1;
      auto found = index.find(key);
      int c;
      if (found == index.end()) {
        c = static_cast<int>(comp_weight.size());
        index.emplace(key, c);
        comp_weight.push_back(0.0);
        const int base = static_cast<int>(shared.unit_start.size()) - 1;
        comp_first.push_back(base);
        for (int u : units) {
          shared.unit_points.insert(shared.unit_points.end(), upts.begin() + ustart[u],
                                    upts.begin() + ustart[u + 1]);
          shared.unit_start.push_back(static_cast<int>(shared.unit_points.size()));
        }
        for (const auto& le : local_edges) edges.emplace_back(base + le.first, base + le.second);
      } else {
        c = found->second;
      }
      comp_weight[c] += weight[s];
    };
    for (int u = 0; u < U; ++u) {  // chunklets alone
      if (g.start[u + 1] == g.start[u]) {
        units.assign(1, u);
        add_component();
      }
    }
    const int n_tree = static_cast<int>(g.tree_order.size());
    for (int t = 0; t < n_tree;) {  // trees, each from its root
      int end = t + 1;
      while (end < n_tree && g.tree_parent[end] >= 0) ++end;
      units.assign(g.tree_order.begin() + t, g.tree_order.begin() + end);
      add_component();
      t = end;
    }
    for (std::size_t c = 0; c + 1 < g.enum_start.size(); ++c) {  // enumerated
      units.assign(g.enum_units.begin() + g.enum_start[c], g.enum_units.begin() + g.enum_start[c + 1]);
      add_component();
    }
    keep_mean_field_units(g, mf_points[s], mf_unit[s]);
  }
  CannotLinkGraph& sg = shared.graph;
  sg.n_units = static_cast<int>(shared.unit_start.size()) - 1;
  classify_cannot_links(sg, edges, K, max_labelings);
  shared.unit_weight.resize(static_cast<std::size_t>(sg.n_units));
  for (std::size_t c = 0; c < comp_first.size(); ++c) {
    const int end = c + 1 < comp_first.size() ? comp_first[c + 1] : sg.n_units;
    for (int u = comp_first[c]; u < end; ++u) shared.unit_weight[u] = comp_weight[c];
  }
}

}  // namespace sideclust
