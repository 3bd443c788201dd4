// Side information in the one form every algorithm reads: a symmetric sparse
// graph of weighted pairs and/or a partial labelling. Plain C++17, no R API.
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

namespace sideclust {

// Pairwise side information as compressed adjacency lists. The neighbours of
// point i are nbr[start[i] .. start[i + 1]); weight > 0 is a may-link of that
// confidence, weight < 0 a may-not link of confidence -weight. Each pair is
// stored in both directions so a point's links cost O(degree) to visit;
// mirror[e] is the position of entry e's reverse (j -> i for i -> j).
// The pairs are also kept once each in their given order (first, second,
// signed_weight): CVQE's penalties tell the two points of a pair apart, and
// the constrained mixtures build their own graph over chunklets from them.
struct PairGraph {
  int n = 0;
  std::vector<int> start;
  std::vector<int> nbr;
  std::vector<double> weight;
  std::vector<int> mirror;
  std::vector<int> first, second;
  std::vector<double> signed_weight;

  bool empty() const { return first.empty(); }
  // False for a bare pair list from make_pair_list().
  bool has_adjacency() const { return start.size() == static_cast<std::size_t>(n) + 1; }
  std::size_t n_pairs() const { return first.size(); }
  // Pair e of the given order: its type is the sign bit of its weight, so a
  // pair of weight zero (a penalty of 0) keeps its type.
  bool must(std::size_t e) const { return !std::signbit(signed_weight[e]); }
  double magnitude(std::size_t e) const { return std::abs(signed_weight[e]); }
};

// The pairs alone (each unordered pair once, 0-based), without the
// adjacency: enough for a caller that relabels the points first and builds
// the adjacency of the relabelled pairs only (build_adjacency()).
inline PairGraph make_pair_list(int n, std::vector<int> i, std::vector<int> j,
                                std::vector<double> signed_weight) {
  const std::size_t m = i.size();
  if (j.size() != m || signed_weight.size() != m) {
    throw std::invalid_argument("pair arrays differ in length");
  }
  for (std::size_t e = 0; e < m; ++e) {
    if (i[e] < 0 || i[e] >= n || j[e] < 0 || j[e] >= n || i[e] == j[e]) {
      throw std::invalid_argument("pair index out of range or self-pair");
    }
  }
  PairGraph g;
  g.n = n;
  g.first = std::move(i);
  g.second = std::move(j);
  g.signed_weight = std::move(signed_weight);
  return g;
}

// Fill start / nbr / weight / mirror from the pair list. Counting sort:
// O(n + m) time and memory.
inline void build_adjacency(PairGraph& g) {
  const std::size_t m = g.first.size();
  const int n = g.n;
  const std::vector<int>& i = g.first;
  const std::vector<int>& j = g.second;
  g.start.assign(static_cast<std::size_t>(n) + 1, 0);
  for (std::size_t e = 0; e < m; ++e) {
    ++g.start[i[e] + 1];
    ++g.start[j[e] + 1];
  }
  for (int v = 0; v < n; ++v) g.start[v + 1] += g.start[v];
  g.nbr.resize(2 * m);
  g.weight.resize(2 * m);
  g.mirror.resize(2 * m);
  std::vector<int> fill(g.start.begin(), g.start.end() - 1);
  for (std::size_t e = 0; e < m; ++e) {
    const int a = fill[i[e]]++, b = fill[j[e]]++;
    const double w = g.signed_weight[e];
    g.nbr[a] = j[e];
    g.weight[a] = w;
    g.mirror[a] = b;
    g.nbr[b] = i[e];
    g.weight[b] = w;
    g.mirror[b] = a;
  }
}

// The adjacency from an edge list holding each unordered pair once (0-based).
inline PairGraph make_pair_graph(int n, std::vector<int> i, std::vector<int> j,
                                 std::vector<double> signed_weight) {
  PairGraph g = make_pair_list(n, std::move(i), std::move(j), std::move(signed_weight));
  build_adjacency(g);
  return g;
}

// Partition-level side information: label[i] in 0 .. n_levels - 1, or -1 for
// an unlabelled point. Two labelled points with the same label act as a
// may-link of weight 1, with different labels as a may-not link of weight 1,
// but the pairs are never expanded: counts come from per-cluster tallies.
struct PartialLabels {
  std::vector<int> label;
  int n_levels = 0;

  bool empty() const { return n_levels == 0; }
};

struct SideInfo {
  PairGraph pairs;
  PartialLabels labels;

  bool empty() const { return pairs.empty() && labels.empty(); }
};

}  // namespace sideclust
