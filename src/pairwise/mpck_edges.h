// MPCK-means' records of its constraints, one per adjacency entry, built
// once per fit and read by every sweep (mpck_means.h): the partner, the
// kind and weight (or, for metric "none", the whole charge), and with
// learned metrics the pair's coordinate difference from a cache. Plain
// C++17 + Eigen. Points are the rows of R's n x p layout (ColumnMajorPoints).
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "common/column_major_points.h"
#include "engine/huge_pages.h"
#include "engine/lookahead.h"
#include "common/run_hooks.h"
#include "common/side_graph.h"
#include "pairwise/pair_sweeps.h"
#include "engine/sq_distance.h"

namespace sideclust {

class MpckEdges {
 public:
  // PackedEdge::tag: the kind in the low bits, the cache slot above them
  static constexpr int kSkip = 0, kMust = 1, kCannot = 2, kKindMask = 3, kSlotShift = 2;

  const PackedEdge* data() const { return edges_.data(); }
  // metric "none": each pair's penalty when broken, in the pairs' order
  const std::vector<double>& pair_charge() const { return pair_charge_; }
  bool has_diffs() const { return diff_ != nullptr; }

  // x_i - x_j (or x_j - x_i) for the pair of the adjacency entry pe of
  // point i, as the sweeps use it: every use is a squared norm, for which
  // the two are the same (negation is exact, so each coordinate's square is
  // the same double), hence one difference per pair serves both of its
  // entries. With `squares` (the diagonal metric, whose norms need only
  // them) the coordinates' squares (x_i - x_j)^2 instead. In place: the
  // cache's slot, or diff filled from the data.
  const double* cached_diff(const PackedEdge& pe) const {
    return diff_ + static_cast<std::size_t>(pe.tag >> kSlotShift) * p_;
  }
  const double* pair_diff_at(const ColumnMajorPoints& x, int i, const PackedEdge& pe,
                             Eigen::VectorXd& diff) const {
    if (diff_ != nullptr) return cached_diff(pe);
    pair_vector(x, i, pe.nbr, diff.data());
    return diff.data();
  }

  // The cached difference (or squares) of pair l, after index_pairs(); null
  // without a cache.
  const double* pair_cached(int l) const {
    return diff_ == nullptr ? nullptr : diff_ + static_cast<std::size_t>(pair_slot_[l]) * p_;
  }
  // Pair l (points a and b) as the sweeps use it, x_a - x_b up to its sign
  // or its squares (pair_diff_at()): from the cache, or made from x in
  // `scratch` (p numbers).
  const double* pair_values(const ColumnMajorPoints& x, int l, int a, int b, double* scratch) const {
    if (diff_ != nullptr) return pair_cached(l);
    pair_vector(x, a, b, scratch);
    return scratch;
  }
  // Each pair's cache slot, from edge_pair (the pair of every entry), for
  // pair_cached(): the metric update reads its broken pairs there instead
  // of both points' p cache lines.
  void index_pairs(const std::vector<int>& edge_pair, std::size_t n_pairs) {
    if (diff_ == nullptr) return;
    pair_slot_.assign(n_pairs, 0);
    for (std::size_t e = 0; e < edges_.size(); ++e) {
      if ((edges_[e].tag & kKindMask) != kSkip) pair_slot_[edge_pair[e]] = edges_[e].tag >> kSlotShift;
    }
  }

  // The plain difference (metric "full"; not with `squares`).
  void pair_diff(const ColumnMajorPoints& x, int i, const PackedEdge& pe, Eigen::VectorXd& diff) const {
    if (diff_ != nullptr) {
      diff = Eigen::Map<const Eigen::VectorXd>(cached_diff(pe), p_);
    } else {
      pair_vector(x, i, pe.nbr, diff.data());  // not squares_: "full"
    }
  }

  // The sweeps read, for every constraint of a point, its partner, type and
  // weight, and the difference to its partner: a random access to the
  // partner's coordinates, which at 1e6 pairs over 1e6 points costs more than
  // the rest of the sweep. None of it changes between iterations, so it is
  // computed once per fit, in one pass in the order of the adjacency lists:
  // one PackedEdge per entry (tag: kSkip for weight 0, kMust or kCannot in
  // its low bits) whose value is, for metric "none", the whole charge
  // (must-link: w ||x_i - x_j||^2, added to every other cluster; cannot-link:
  // w (D - ||x_i - x_j||^2) with w < 0, subtracted from the partner's
  // cluster; D is fixed without metric learning), otherwise the signed
  // weight. With learned metrics the pairs' differences are cached too
  // (unless they would exceed kMaxEdgeCacheBytes), one per pair of nonzero
  // weight (see cached_diff()), in 2 MiB pages: slot s of the cache holds
  // x_i - x_j for the s-th entry (in adjacency order) whose partner j comes
  // after i, and the tag of both entries of the pair carries s. A sweep over
  // points in blocks of consecutive indices so reads the slots of half its
  // entries in runs; the other half are random reads, as the partner's
  // coordinates would be, and the cache holds one copy of the data at one
  // pair per point instead of two. The points are read in order: a pair's
  // slot gets its first point's coordinates at its first entry and becomes
  // their difference (or its squares) at its second, so the only random
  // accesses are the pair's entry and slot, where reading the partner would
  // cost p cache lines in R's layout. Metric "none" needs the difference's
  // norm at once: each pair's is computed at its first entry from the
  // partner's coordinates, all requested kSetupAhead points ahead, and
  // serves the second.
  // charged: metric "none", whose charges use the fixed bound D = `bound`;
  // squares: the diagonal metric (see pair_diff_at()); allow_cache: false
  // computes every difference from x as the sweeps go (for the tests).
  void build(const ColumnMajorPoints& x, const PairGraph& pairs, const std::vector<int>& edge_pair,
             bool charged, double bound, bool squares, bool allow_cache, RunHooks& hooks) {
    p_ = x.p();
    squares_ = squares && !charged;
    const int n = x.n();
    if (pairs.empty()) return;
    const std::size_t entries = pairs.nbr.size();
    edges_.resize(entries);
    if (charged) pair_charge_.assign(pairs.n_pairs(), 0.0);
    std::vector<double> pair_d2(charged ? pairs.n_pairs() : 0);  // at the first entry, for the second
    const std::size_t slots = pairs.n_pairs();
    const bool cache = allow_cache && !charged &&
                       slots * static_cast<std::size_t>(p_) * sizeof(double) <= kMaxEdgeCacheBytes;
    double* out = cache ? diff_table_.reserve(std::max<std::size_t>(1, slots * p_)) : nullptr;
    Eigen::VectorXd xi(p_), xj(p_);
    int next = 0;  // the next free slot
    auto upper = [&](int i, int e) {
      const int j = pairs.nbr[e];
      return j > i || (j == i && e < pairs.mirror[e]);
    };
    // what entry e of point f reads at random places: the partner's
    // coordinates or its pair's distance ("none"), or the first entry's
    // record (the cache); then the cache slots of its second entries
    auto partners = [&](int f, const Upcoming& r) {
      if (!charged && !cache) return;
      for (int e = pairs.start[f]; e < pairs.start[f + 1]; ++e) {
        if (charged && upper(f, e)) {
          x.request_point(pairs.nbr[e], r);
        } else if (charged) {
          r.line(&pair_d2[edge_pair[e]]);
        } else if (!upper(f, e)) {
          r.line(&edges_[pairs.mirror[e]]);
        }
      }
    };
    auto slots_of = [&](int f, const Upcoming& r) {
      if (!cache) return;
      for (int e = pairs.start[f]; e < pairs.start[f + 1]; ++e) {
        if (upper(f, e)) continue;
        r.span(out + static_cast<std::size_t>(edges_[pairs.mirror[e]].tag >> kSlotShift) * p_, p_);
      }
    };
    for_each_ahead(n, [&](int i) {
      hooks.poll_interrupt(static_cast<std::size_t>(pairs.start[i + 1] - pairs.start[i]) * p_);
      if (pairs.start[i + 1] > pairs.start[i]) x.copy(i, xi.data());
      for (int e = pairs.start[i]; e < pairs.start[i + 1]; ++e) {
        const double w = pairs.weight[e];
        PackedEdge& pe = edges_[e];
        pe.nbr = pairs.nbr[e];
        pe.tag = w == 0.0 ? kSkip : (w > 0 ? kMust : kCannot);
        pe.value = w;
        if (pe.tag == kSkip) continue;
        if (charged) {
          const int l = edge_pair[e];
          if (upper(i, e)) {  // = (x_i - x_j).squaredNorm(), the same from either end
            x.copy(pe.nbr, xj.data());
            pair_d2[l] = sq_distance(xi.data(), xj.data(), p_);
          }
          const double d2 = pair_d2[l];
          pe.value = pe.tag == kMust ? 0.5 * w * (d2 + d2) : w * (bound - d2);
          pair_charge_[l] = pe.tag == kMust ? pe.value : -pe.value;  // what a broken pair adds to J
        } else if (cache) {
          int slot;
          if (upper(i, e)) {  // x_i, for now
            slot = next++;
            std::copy(xi.data(), xi.data() + p_, out + static_cast<std::size_t>(slot) * p_);
          } else {  // (the first point) - x_i: what pair_vector() gives
            slot = edges_[pairs.mirror[e]].tag >> kSlotShift;
            double* to = out + static_cast<std::size_t>(slot) * p_;
            pair_vector(to, xi.data(), to);
          }
          pe.tag |= slot << kSlotShift;
        }
      }
    }, ahead<kSetupAhead>(partners), ahead<kSetupAhead / 2>(slots_of));
    if (cache) diff_ = out;
  }

 private:
  // a - b, or its coordinates' squares with squares_ (a loop: Eigen's
  // assignment was a call per pair)
  void pair_vector(const double* a, const double* b, double* to) const {
    for (int d = 0; d < p_; ++d) {
      const double t = a[d] - b[d];
      to[d] = squares_ ? t * t : t;
    }
  }
  // The same for points i and j of x, read in place.
  void pair_vector(const ColumnMajorPoints& x, int i, int j, double* to) const {
    for (int d = 0; d < p_; ++d) {
      const double t = x.at(i, d) - x.at(j, d);
      to[d] = squares_ ? t * t : t;
    }
  }

  int p_ = 0;
  bool squares_ = false;
  std::vector<PackedEdge> edges_;
  std::vector<double> pair_charge_;
  std::vector<int> pair_slot_;     // index_pairs()
  RandomAccessTable diff_table_;   // learned metrics: the pairs' differences (or squares), see build()
  const double* diff_ = nullptr;   // their first slot, or null without a cache
  static constexpr std::size_t kMaxEdgeCacheBytes = std::size_t(1) << 29;  // 512 MiB
  static constexpr int kSetupAhead = 16;  // build() requests its reads this many points ahead
};

}  // namespace sideclust
