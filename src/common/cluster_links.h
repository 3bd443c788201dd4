// For a point i and every cluster k: the must-link weight f[k] and cannot-link
// weight s[k] between i and the other members of k (TVClust's friends and
// strangers). Pairs cost O(degree of i); labels cost O(1) per cluster through
// per-cluster label tallies, so labelled pairs are never expanded.
//
// Every adjacency entry keeps the current cluster of its neighbour, refreshed
// (through the graph's mirror index) when that neighbour moves. Reading a
// point's links is then a sequential scan instead of one random read of the
// assignment per neighbour, which dominated a sweep on large graphs; the
// random writes happen only for points that move.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "common/side_graph.h"

namespace sideclust {

// v when keep, else +0.0, without a branch.
inline double masked(double v, bool keep) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  bits &= -static_cast<std::uint64_t>(keep);
  std::memcpy(&v, &bits, sizeof bits);
  return v;
}

class ClusterLinks {
 public:
  explicit ClusterLinks(const SideInfo& side)
      : side_(side), n_levels_(side.labels.n_levels) {}

  // Rebuild everything for assignment z (values 0 .. k - 1).
  void reset(const std::vector<int>& z, int k) {
    const PairGraph& g = side_.pairs;
    if (k == 1) {  // every point in cluster 0 (the usual start): no reads of z
      nbr_cluster_.assign(g.nbr.size(), 0);
    } else {
      nbr_cluster_.resize(g.nbr.size());
      for (std::size_t e = 0; e < g.nbr.size(); ++e) nbr_cluster_[e] = z[g.nbr[e]];
    }
    resize(k);
    rebuild_tallies(z);
  }

  // After clusters were renumbered by map (old -> new, -1 for removed empty
  // clusters) into z with k clusters.
  void renumber(const std::vector<int>& map, const std::vector<int>& z, int k) {
    for (int& c : nbr_cluster_) c = map[c];
    resize(k);
    rebuild_tallies(z);
  }

  // Append an empty cluster (index = previous number of clusters).
  void add_cluster() {
    f_.push_back(0.0);
    s_.push_back(0.0);
    seen_.push_back(0);
    touched_.push_back(0);
    count_.resize(count_.size() + n_levels_, 0);
    total_.push_back(0);
  }

  // Keep the tallies and the neighbours' view in step when point i moves.
  void move(int i, int from, int to) {
    if (from == to) return;
    const PairGraph& g = side_.pairs;
    if (!g.empty()) {
      for (int e = g.start[i]; e < g.start[i + 1]; ++e) nbr_cluster_[g.mirror[e]] = to;
    }
    if (n_levels_ == 0) return;
    tally(i, from, -1);
    tally(i, to, +1);
  }

  // Collect the pairwise weights of point i under assignment z. Afterwards
  // must(k) and cannot(k) hold for every cluster k, until the next gather().
  // Branch-free: which cluster a neighbour is in and the sign of its weight
  // are unpredictable, so branches on them are mispredicted (a small gain on
  // RDP-means' sweeps, bench/NOTES.md). A cluster's id is written to
  // touched_ at every entry but kept (the count advances) only the first
  // time; f_ and s_ add the weight or +0.0, which leaves them bitwise as the
  // branching form did (they start at +0.0 and never hold -0.0).
  void gather(int i, const std::vector<int>& z) {
    for (int t = 0; t < n_touched_; ++t) {
      const int k = touched_[t];
      f_[k] = 0.0;
      s_[k] = 0.0;
      seen_[k] = 0;
    }
    n_touched_ = 0;
    point_ = i;
    point_cluster_ = z[i];
    point_label_ = n_levels_ > 0 ? side_.labels.label[i] : -1;
    const PairGraph& g = side_.pairs;
    if (g.empty()) return;
    int* touched = touched_.data();
    int count = 0;
    for (int e = g.start[i]; e < g.start[i + 1]; ++e) {
      const int k = nbr_cluster_[e];
      touched[count] = k;
      count += 1 - seen_[k];
      seen_[k] = 1;
      const double w = g.weight[e];
      const bool must_link = w > 0.0;
      f_[k] += masked(w, must_link);
      s_[k] -= masked(w, !must_link);
    }
    n_touched_ = count;
  }

  // d[c] += -xi_must * must(c) + xi_cannot * cannot(c) for every cluster c,
  // touching only the clusters the point has pairs into (O(degree)) plus,
  // for a labelled point, O(1) per cluster from the tallies.
  void add_side_terms(double* d, int k, double xi_must, double xi_cannot) const {
    for (int t = 0; t < n_touched_; ++t) {
      const int c = touched_[t];
      d[c] += -xi_must * f_[c] + xi_cannot * s_[c];
    }
    if (point_label_ < 0) return;
    const int* count = &count_[point_label_];
    for (int c = 0; c < k; ++c) {
      const int same = count[static_cast<std::size_t>(c) * n_levels_];
      d[c] += -xi_must * (same - (point_cluster_ == c ? 1 : 0)) +
              xi_cannot * (total_[c] - same);
    }
  }

  // After gather(i, z): true when larger weights cannot make point i prefer
  // another cluster, or a new one, to its own z[i] (only the weights still
  // growing count): no cluster holds more of its must-link weight than its own
  // cluster, and its own cluster holds none of its cannot-link weight. Then
  // d[c] - d[z[i]] never decreases as those weights grow.
  bool prefers_own(int k, bool must_growing, bool cannot_growing) const {
    const int own = point_cluster_;
    if (cannot_growing && cannot(own) > 0.0) return false;
    if (!must_growing) return true;
    const double f_own = must(own);
    if (point_label_ < 0) {  // only clusters the point has pairs into hold weight
      for (int t = 0; t < n_touched_; ++t) {
        const int c = touched_[t];
        if (c != own && f_[c] > f_own) return false;
      }
      return true;
    }
    for (int c = 0; c < k; ++c) {
      if (c != own && must(c) > f_own) return false;
    }
    return true;
  }

  // The cluster of the neighbour of every adjacency entry (parallel to the
  // graph's nbr), in step with the assignment last given to reset(),
  // renumber() and move(); nullptr without pairs.
  const int* neighbour_clusters() const {
    return nbr_cluster_.empty() ? nullptr : nbr_cluster_.data();
  }

  double must(int k) const {
    double v = f_[k];
    if (point_label_ >= 0) {
      v += count_[static_cast<std::size_t>(k) * n_levels_ + point_label_] -
           (point_cluster_ == k ? 1 : 0);
    }
    return v;
  }

  double cannot(int k) const {
    double v = s_[k];
    if (point_label_ >= 0) {
      v += total_[k] -
           count_[static_cast<std::size_t>(k) * n_levels_ + point_label_];
    }
    return v;
  }

 private:
  void resize(int k) {
    f_.assign(k, 0.0);
    s_.assign(k, 0.0);
    seen_.assign(k, 0);
    touched_.assign(k + 1, 0);  // distinct clusters plus one slot written ahead
    n_touched_ = 0;
    count_.assign(static_cast<std::size_t>(k) * n_levels_, 0);
    total_.assign(k, 0);
  }

  void rebuild_tallies(const std::vector<int>& z) {
    if (n_levels_ == 0) return;
    for (std::size_t i = 0; i < z.size(); ++i) tally(static_cast<int>(i), z[i], +1);
  }

  void tally(int i, int k, int delta) {
    const int l = side_.labels.label[i];
    if (l < 0 || k < 0) return;
    count_[static_cast<std::size_t>(k) * n_levels_ + l] += delta;
    total_[k] += delta;
  }

  const SideInfo& side_;
  const int n_levels_;
  std::vector<double> f_, s_;
  std::vector<int> seen_;     // 0 / 1 per cluster, while gathering a point
  std::vector<int> touched_;  // clusters with pairs to the point: [0, n_touched_)
  int n_touched_ = 0;
  std::vector<int> count_;  // cluster x label tallies, row-major by cluster
  std::vector<int> total_;  // labelled points per cluster
  std::vector<int> nbr_cluster_;  // cluster of the neighbour of each adjacency entry
  int point_ = -1, point_cluster_ = -1, point_label_ = -1;
};

// Weight of must-links kept together and of cannot-links put together by
// assignment z, each pair counted once. nbr_cluster, when given, holds
// z[nbr[e]] for every adjacency entry e (ClusterLinks::neighbour_clusters()):
// the scan then reads memory in order instead of z at random. With k = 1
// every pair is inside the one cluster and z is not read at all.
struct SideAgreement {
  double must_satisfied = 0.0, must_violated = 0.0;
  double cannot_satisfied = 0.0, cannot_violated = 0.0;
};

inline SideAgreement side_agreement(const SideInfo& side,
                                    const std::vector<int>& z, int k,
                                    const int* nbr_cluster = nullptr) {
  SideAgreement a;
  const PairGraph& g = side.pairs;
  // Branch-free (which sum a pair feeds is unpredictable): every entry adds
  // to each sum its weight or +0.0 (masked bits, so infinite weights stay
  // safe); adding a zero leaves a sum exactly as skipping the entry did, so
  // the sums equal the branching form's.
  double ms = 0.0, mv = 0.0, nv = 0.0, ns = 0.0;
  for (int i = 0; i < g.n && !g.empty(); ++i) {
    const int zi = k == 1 ? 0 : z[i];
    for (int e = g.start[i]; e < g.start[i + 1]; ++e) {
      const int j = g.nbr[e];
      const bool same = k == 1 || zi == (nbr_cluster != nullptr ? nbr_cluster[e] : z[j]);
      const double w = g.weight[e];
      // each pair once, from its first point (no && : it would branch)
      const bool counted = j > i, must = w > 0.0;
      const bool cm = counted & must, cn = counted & !must;
      ms += masked(w, cm & same);
      mv += masked(w, cm & !same);
      nv += masked(-w, cn & same);
      ns += masked(-w, cn & !same);
    }
  }
  a.must_satisfied = ms;
  a.must_violated = mv;
  a.cannot_violated = nv;
  a.cannot_satisfied = ns;
  const int L = side.labels.n_levels;
  if (L == 0) return a;
  // From the cluster x label table: same-label pairs inside a cluster are kept
  // must-links; other labelled pairs inside a cluster are violated cannot-links.
  std::vector<double> cell(static_cast<std::size_t>(k) * L, 0.0), per_label(L, 0.0),
      per_cluster(k, 0.0);
  double labelled = 0.0;
  for (std::size_t i = 0; i < z.size(); ++i) {
    const int l = side.labels.label[i];
    if (l < 0) continue;
    cell[static_cast<std::size_t>(z[i]) * L + l] += 1.0;
    per_label[l] += 1.0;
    per_cluster[z[i]] += 1.0;
    labelled += 1.0;
  }
  auto pairs = [](double m) { return m * (m - 1.0) / 2.0; };
  double same_cell = 0.0, same_label = 0.0, same_cluster = 0.0;
  for (double c : cell) same_cell += pairs(c);
  for (double c : per_label) same_label += pairs(c);
  for (double c : per_cluster) same_cluster += pairs(c);
  a.must_satisfied += same_cell;
  a.must_violated += same_label - same_cell;
  a.cannot_violated += same_cluster - same_cell;
  a.cannot_satisfied += pairs(labelled) - same_label - (same_cluster - same_cell);
  return a;
}

}  // namespace sideclust
