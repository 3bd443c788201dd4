// A starting partition for RDP-means built from the side information (used
// for the count divergences, next to Algorithm 1's single cluster; see
// rdp_means_rows()). Seeds are groups of points that the side information
// puts in different clusters: the classes of partial labels, or the must-link
// chunklets of the constrained points (a point without must-links is a
// chunklet of one), taken largest first and kept when cannot-links join them
// to every seed kept before (a greedy clique of the cannot-link graph between
// chunklets). Every point then starts in the cluster of the nearest seed mean.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <unordered_set>
#include <vector>

#include "common/must_link_sets.h"
#include "common/side_graph.h"
#include "common/union_find.h"
#include "dpmeans/centres.h"

namespace sideclust {

namespace detail {

// The must-link chunklet of every point, as the root of its set (the graph
// needs its adjacency).
inline std::vector<std::size_t> must_link_roots(const PairGraph& g) {
  const int n = g.n;
  UnionFind sets = must_link_sets(g);
  std::vector<std::size_t> root(n);
  for (int i = 0; i < n; ++i) root[i] = sets.find(i);
  return root;
}

// Seed of every point (-1: none) and the number of seeds, from the pairs.
inline int pair_seeds(const PairGraph& g, std::vector<int>& seed_of) {
  const int n = g.n;
  seed_of.assign(n, -1);
  if (!g.has_adjacency()) return 0;
  const std::vector<std::size_t> root = must_link_roots(g);
  std::vector<int> size(n, 0);
  std::vector<int> candidates;  // constrained roots, each once
  for (int i = 0; i < n; ++i) {
    if (g.start[i + 1] > g.start[i] && size[root[i]]++ == 0) {
      candidates.push_back(static_cast<int>(root[i]));
    }
  }
  // Cannot-links between chunklets, as (smaller root, larger root) keys.
  std::unordered_set<std::uint64_t> apart;
  auto key = [](std::size_t a, std::size_t b) {
    if (a > b) std::swap(a, b);
    return (static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint64_t>(b);
  };
  for (int i = 0; i < n; ++i) {
    for (int e = g.start[i]; e < g.start[i + 1]; ++e) {
      if (g.weight[e] < 0.0 && g.nbr[e] > i) apart.insert(key(root[i], root[g.nbr[e]]));
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&size](int a, int b) { return size[a] > size[b]; });
  std::vector<int> kept;
  for (int c : candidates) {
    bool all = true;
    for (int s : kept) {
      if (apart.count(key(c, s)) == 0) {
        all = false;
        break;
      }
    }
    if (all) kept.push_back(c);
  }
  std::vector<int> seed_of_root(n, -1);
  for (std::size_t s = 0; s < kept.size(); ++s) seed_of_root[kept[s]] = static_cast<int>(s);
  for (int i = 0; i < n; ++i) seed_of[i] = seed_of_root[root[i]];
  return static_cast<int>(kept.size());
}

// Seed of every point from partial labels: one seed per label in use.
inline int label_seeds(const PartialLabels& labels, std::vector<int>& seed_of) {
  const int n = static_cast<int>(labels.label.size());
  std::vector<int> seed_of_label(labels.n_levels, -1);
  int k = 0;
  seed_of.assign(n, -1);
  for (int i = 0; i < n; ++i) {
    const int l = labels.label[i];
    if (l < 0 || l >= labels.n_levels) continue;
    if (seed_of_label[l] < 0) seed_of_label[l] = k++;
    seed_of[i] = seed_of_label[l];
  }
  return k;
}

}  // namespace detail

// The starting partition (labels 0 .. k - 1, every one used), or an empty
// vector when the side information gives fewer than two seeds.
template <class Div, class Rows>
std::vector<int> side_seeded_start(const Rows& x, const SideInfo& side) {
  const int n = x.n(), p = x.p();
  std::vector<int> seed_of;
  const int k = side.labels.empty() ? detail::pair_seeds(side.pairs, seed_of)
                                    : detail::label_seeds(side.labels, seed_of);
  if (k < 2) return {};
  // The seeds' means: the points of no seed form one more cluster, k, whose
  // centre is computed but never compared with.
  std::vector<int> z(seed_of);
  bool rest = false;
  for (int& v : z) {
    if (v < 0) {
      v = k;
      rest = true;
    }
  }
  Centres<Div> centres(p);
  centres.recompute(x, z, k + (rest ? 1 : 0));
  std::vector<double> d(static_cast<std::size_t>(k) + 4);
  std::vector<int> start(n);
  for (int i = 0; i < n; ++i) {
    const auto row = x.row(i);
    centres.distances(row, Div::point_term(row, p), d.data());
    start[i] = static_cast<int>(std::min_element(d.begin(), d.begin() + k) - d.begin());
  }
  // Seeds no point is nearest to are dropped (labels stay 0 .. k' - 1).
  std::vector<int> used(k, -1);
  int next = 0;
  for (int& v : start) {
    if (used[v] < 0) used[v] = next++;
    v = used[v];
  }
  if (next < 2) return {};
  return start;
}

}  // namespace sideclust
