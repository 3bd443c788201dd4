// Distance records: every point's squared distances to every centre, with
// its nearest centre, the distances to it and to the second nearest, and
// its cluster, in one record per point. A sweep over randomly placed pairs
// reads a partner's whole record, which for k <= 5 is one aligned cache
// line (records padded to 8 doubles): one memory access per partner instead
// of one per array, and the cluster in the record spares a second access.
// Used by LCVQE (pairwise/lcvqe.h). Refreshed once per centre update,
// O(n k p) and bound by the processor: the search for the two nearest
// centres selects without branches (engine/branch_free.h), the distances
// take the AVX kernels where the processor has them (engine/avx_dispatch.h,
// the same values as sq_distance()), one-line records are streamed to the
// table, and at scale two threads can share the pass, each writing its half
// of the records, with the same values.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>
#include <vector>

#include "common/run_hooks.h"
#include "engine/avx_dispatch.h"
#include "engine/branch_free.h"
#include "engine/chain_runner.h"
#include "engine/force_inline.h"
#include "engine/huge_pages.h"
#include "engine/interleaved_centres.h"
#include "engine/lookahead.h"
#include "engine/prefetch.h"

namespace sideclust {

class DistanceRecords {
 public:
  // z: the clusters (-1: unassigned), copied into the records; a sweep that
  // moves a point updates its record with set_cluster(). The same pass sums
  // every point's distance to its own centre (in the order of the points),
  // sparing the objective a pass over the records. threads: 2 to share the
  // pass with a helper thread from kSplitFrom points (more are used as 2);
  // the helper's points' distances are then added after the calling
  // thread's, in order, so the sum is the same as on one thread.
  void refresh(const Eigen::Ref<const Eigen::MatrixXd>& x, const Eigen::MatrixXd& m, RunHooks& hooks,
               const std::vector<int>& z, bool use_avx = true, int threads = 1) {
    k_ = static_cast<int>(m.cols());
    stride_ = k_ + 3 <= 8 ? 8 : k_ + 3;
    const std::size_t n = static_cast<std::size_t>(x.cols());
    base_ = table_.reserve(stride_ * n);  // reused across iterations
    const int p = static_cast<int>(x.rows());
    // the centres two by two (and four by four for the AVX kernels)
    quads_ = k_ >= 4 && avx_chosen(use_avx);
    centres_.set(m.data(), p, k_, quads_);
    if (threads < 2 || n < kSplitFrom) {
      assigned_sum_ = rows(x, hooks, z, 0, n, nullptr);
      return;
    }
    const std::size_t half = n / 2;
    tail_.resize(n - half);
    double sum = 0.0;
    run_alongside([&](RunHooks& own) { rows(x, own, z, half, n, tail_.data()); },
                  [&](RunHooks& here) { sum = rows(x, here, z, 0, half, nullptr); }, hooks);
    for (std::size_t i = half; i < n; ++i) {
      if (z[i] >= 0) sum += tail_[i - half];
    }
    assigned_sum_ = sum;
  }

  // sum_i dist(i, z_i) for the z given to the last refresh().
  double assigned_sum() const { return assigned_sum_; }

  SIDECLUST_FORCE_INLINE const double* record(int i) const { return base_ + static_cast<std::size_t>(i) * stride_; }
  // Names point i's record as an upcoming read (engine/lookahead.h): one
  // cache line up to k = 5; beyond, a record spans two or three, and its
  // last double (the cluster, which every partner's cost reads first) is
  // not in the first.
  SIDECLUST_FORCE_INLINE void read_ahead(int i, const Upcoming& r) const {
    if (stride_ == 8) {
      r.line(record(i));
    } else {
      r.span(record(i), stride_);
    }
  }
  SIDECLUST_FORCE_INLINE double dist(int i, int j) const { return record(i)[j]; }
  // The cluster of point i (-1: unassigned), as the records hold it.
  SIDECLUST_FORCE_INLINE int cluster(int i) const { return slot(record(i), 1); }
  // The same from a record already at hand.
  SIDECLUST_FORCE_INLINE int cluster_in(const double* r) const { return slot(r, 1); }
  void set_cluster(int i, int c) {
    double* r = base_ + static_cast<std::size_t>(i) * stride_;
    set_slot(r, slot(r, 0), c);
  }
  // The squared distance of point i to the centre j != u nearest to it (0
  // when k = 1).
  SIDECLUST_FORCE_INLINE double alternative_dist(int i, int u) const { return alternative_in(record(i), u); }
  // The same from a record already at hand.
  SIDECLUST_FORCE_INLINE double alternative_in(const double* r, int u) const {
    return r[k_ + (slot(r, 0) == u)];  // an index, not a branch: u is random
  }
  // That centre: the first of the nearest on ties (-1 when k = 1). Without
  // branches on the distances (random from point to point).
  SIDECLUST_FORCE_INLINE int alternative(int i, int u) const {
    const double* r = record(i);
    int j = -1;
    double best = std::numeric_limits<double>::infinity();
    for (int t = 0; t < k_; ++t) {
      const bool better = t != u && (j < 0 || r[t] < best);
      j = better ? t : j;
      best = better ? r[t] : best;
    }
    return j;
  }

 private:
  static constexpr std::size_t kSplitFrom = 65536;  // points from which a refresh may take two threads

  // The refresh's pass over the points [from, to): returns the sum of
  // their distances to their own centres, in order, and when `own` is not
  // null also stores each one's there (own[i - from]; 0 when unassigned).
  double rows(const Eigen::Ref<const Eigen::MatrixXd>& x, RunHooks& hooks, const std::vector<int>& z,
              std::size_t from, std::size_t to, double* own) {
    return run_with_kernels(quads_, [&](auto kernels) { return refresh_rows(kernels, x, hooks, z, from, to, own); });
  }

  // rows() in the form of the kernels tag.
  template <class Kernels>
  SIDECLUST_FORCE_INLINE double refresh_rows(Kernels kernels, const Eigen::Ref<const Eigen::MatrixXd>& x,
                                             RunHooks& hooks, const std::vector<int>& z, std::size_t from,
                                             std::size_t to, double* own) {
    double sum = 0.0;
    const int p = static_cast<int>(x.rows());
    // A record of one cache line is built in `line` and streamed to the
    // table (see stream_line()); longer ones are written in place.
    const bool streamed = stride_ == 8;
    alignas(64) double line[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const int k = k_;
    const InterleavedCentres::View centres = centres_.view();
    for (std::size_t i = from; i < to; ++i) {
      hooks.poll_interrupt(static_cast<std::size_t>(k) * p);
      double* r = streamed ? line : base_ + i * stride_;
      const double* xi = x.col(static_cast<Eigen::Index>(i)).data();
      centres.sq_distances(kernels, xi, r);
      // the nearest (first on ties) and the second smallest distance,
      // without branches (their outcome is random from point to point)
      double b1 = r[0], b2 = std::numeric_limits<double>::infinity();
      int b = 0;
      for (int c = 1; c < k; ++c) {
        const double v = r[c];
        b2 = min_of(b2, max_of(v, b1));
        b = v < b1 ? c : b;
        b1 = min_of(v, b1);
      }
      r[k] = b1;
      r[k + 1] = k > 1 ? b2 : 0.0;
      const int zi = z[i];
      set_slot(r, b, zi);
      if (zi >= 0) sum += r[zi];
      if (own != nullptr) own[i - from] = zi >= 0 ? r[zi] : 0.0;
      if (streamed) stream_line(base_ + i * stride_, line);
    }
    if (streamed) stream_fence();
    return sum;
  }

  // The record's last double holds two ints: the nearest centre (which 0)
  // and the cluster (which 1).
  SIDECLUST_FORCE_INLINE int slot(const double* r, int which) const {
    int v[2];
    std::memcpy(v, r + k_ + 2, sizeof v);
    return v[which];
  }
  SIDECLUST_FORCE_INLINE void set_slot(double* r, int nearest, int c) const {
    const int v[2] = {nearest, c};
    std::memcpy(r + k_ + 2, v, sizeof v);
  }

  int k_ = 0;
  double assigned_sum_ = 0.0;
  std::size_t stride_ = 8;
  RandomAccessTable table_;
  double* base_ = nullptr;
  InterleavedCentres centres_;  // the centres laid out for the kernels, see refresh()
  bool quads_ = false;          // the AVX kernels chosen, see refresh()
  std::vector<double> tail_;             // the helper's points' own distances, see refresh()
};

}  // namespace sideclust
