// Side information in the one form every algorithm reads: a symmetric sparse
// graph of weighted pairs and/or a partial labelling. Plain C++17, no R API.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "engine/lookahead.h"

namespace sideclust {

// Pairwise side information as compressed adjacency lists. The neighbours of
// point i are nbr[start[i] .. start[i + 1]); weight > 0 is a must-link of that
// confidence, weight < 0 a cannot-link of confidence -weight. Each pair is
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

  // A graph may also hold its adjacency alone, without the pair list (see
  // side_from_r()'s PairForm in r_glue.h): for the cores that read the pairs
  // through the adjacency only (RDP-means), it spares three arrays of m.
  bool empty() const { return first.empty() && nbr.empty(); }
  bool has_list() const { return !first.empty() || nbr.empty(); }
  // False for a bare pair list from make_pair_list().
  bool has_adjacency() const { return start.size() == static_cast<std::size_t>(n) + 1; }
  std::size_t n_pairs() const { return first.empty() ? nbr.size() / 2 : first.size(); }
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

// The pairs of `src` (src.first(e), src.second(e): 0-based points,
// src.weight(e): signed weight, for e < m) into g's adjacency, in a counting
// pass and a scatter pass over the pairs; with keep_list also into g's pair
// list (first / second / signed_weight) during the counting pass. Each
// point's entries follow the pairs' order, so pairs sorted by (first,
// second) are written forwards in storage order and only their reverse
// entries land at scattered places. The counts live in `start` itself (each
// point's running fill position sits in the slot of the next point and ends
// as that point's start), so no second array of n positions is allocated.
// Throws std::invalid_argument for a point out of range or a self-pair.
constexpr int kFillAhead = 16, kEntryAhead = 8;
template <class Source>
void fill_pair_graph(PairGraph& g, int n, std::size_t m, const Source& src, bool keep_list) {
  if (m > static_cast<std::size_t>(std::numeric_limits<int>::max() / 2)) {
    throw std::length_error("too many pairs for the adjacency's int positions");
  }
  g.n = n;
  if (keep_list) {
    g.first.resize(m);
    g.second.resize(m);
    g.signed_weight.resize(m);
  }
  g.start.assign(static_cast<std::size_t>(n) + 1, 0);
  int* fill = g.start.data() + 1;  // fill[v]: the count, then the next position, of point v
  // a point's count is read at a scattered place: named kFillAhead pairs
  // ahead (only a hint, so a point out of range there never faults)
  auto count_reads = [&](std::size_t e, const Upcoming& r) { r.line(&fill[src.second(e)]); };
  for_each_ahead(
      m,
      [&](std::size_t e) {
        const int a = src.first(e), b = src.second(e);
        if (a < 0 || a >= n || b < 0 || b >= n || a == b) {
          throw std::invalid_argument("pair index out of range or self-pair");
        }
        ++fill[a];
        ++fill[b];
        if (keep_list) {
          g.first[e] = a;
          g.second[e] = b;
          g.signed_weight[e] = src.weight(e);
        }
      },
      ahead<kFillAhead>(count_reads));
  int at = 0;
  for (int v = 0; v < n; ++v) {  // fill[v] = where point v's entries begin
    const int degree = fill[v];
    fill[v] = at;
    at += degree;
  }
  g.nbr.resize(2 * m);
  g.weight.resize(2 * m);
  g.mirror.resize(2 * m);
  int* nbr = g.nbr.data();
  double* weight = g.weight.data();
  int* mirror = g.mirror.data();
  // Reverse entries land at scattered places: the fill position of a pair
  // is named kFillAhead pairs ahead, then (once it is cached) the entry it
  // points to kEntryAhead ahead, so that the misses overlap.
  auto entry_reads = [&](std::size_t e, const Upcoming& r) {
    const int next = fill[src.second(e)];
    r.line(nbr + next);
    r.line(weight + next);
    r.line(mirror + next);
  };
  for_each_ahead(
      m,
      [&](std::size_t e) {
        const int a = src.first(e), b = src.second(e);
        const double w = src.weight(e);
        const int pa = fill[a]++, pb = fill[b]++;
        nbr[pa] = b;
        weight[pa] = w;
        mirror[pa] = pb;
        nbr[pb] = a;
        weight[pb] = w;
        mirror[pb] = pa;
      },
      ahead<kFillAhead>(count_reads), ahead<kEntryAhead>(entry_reads));
  // now fill[v] = start[v + 1]
}

namespace detail {
// fill_pair_graph()'s source for a pair list already in g.
struct ListSource {
  const PairGraph& g;
  int first(std::size_t e) const { return g.first[e]; }
  int second(std::size_t e) const { return g.second[e]; }
  double weight(std::size_t e) const { return g.signed_weight[e]; }
};
}  // namespace detail

// Fill start / nbr / weight / mirror from the pair list. Counting sort:
// O(n + m) time and memory.
inline void build_adjacency(PairGraph& g) {
  fill_pair_graph(g, g.n, g.first.size(), detail::ListSource{g}, false);
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
// must-link of weight 1, with different labels as a cannot-link of weight 1,
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
