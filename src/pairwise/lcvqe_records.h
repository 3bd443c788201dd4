// LCVQE's distance records (pairwise/lcvqe.h): every point's squared
// distances to every centre, with its nearest centre, the distances to it
// and to the second nearest, and its cluster, in one record per point. A
// constraint reads its partner's whole record, which for k <= 5 is one
// aligned cache line (records padded to 8 doubles), so that a sweep over
// randomly placed pairs costs one memory access per partner instead of one
// per array (at n = 1e6 the partners' data is far outside the cache; the
// cluster in the record spares a second access to the cluster vector).
// Computed once per centre update, O(n k p), which at p = 10, k = 5 is
// bound by the processor, not by memory: the search for the two nearest
// centres uses min / max instructions instead of branches (GCC compiled
// std::min / std::max there as branches, mispredicted about half the time:
// 33 -> 19 ns a point at n = 1e6 with the next change), and where the
// processor has AVX (checked at run time, the package being built for
// plain x86-64) four centres share an instruction instead of two, in the
// same operations lane by lane, so the values are bitwise those of
// sq_distance(). At scale two threads can share the refresh, each writing
// its half of the records, with the same values.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>
#include <vector>

#include "engine/avx_lanes.h"
#include "engine/chain_runner.h"
#include "engine/force_inline.h"
#include "engine/huge_pages.h"
#include "engine/prefetch.h"
#include "common/run_hooks.h"
#include "engine/sq_distance.h"
#include "engine/sq_distance_quad.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sideclust {
namespace lcvqe_detail {

// std::min(a, b) and std::max(a, b) for numbers that are not NaN, as one
// instruction each where SSE2 has them: GCC compiled the std:: forms in the
// refresh's search for the two nearest centres as a branch, mispredicted
// about as often as not.
SIDECLUST_FORCE_INLINE double min_of(double a, double b) {
#if defined(__SSE2__)
  return _mm_cvtsd_f64(_mm_min_sd(_mm_set_sd(b), _mm_set_sd(a)));  // b < a ? b : a
#else
  return std::min(a, b);
#endif
}
SIDECLUST_FORCE_INLINE double max_of(double a, double b) {
#if defined(__SSE2__)
  return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(b), _mm_set_sd(a)));  // b > a ? b : a
#else
  return std::max(a, b);
#endif
}

class CentreDistances {
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
    // the centres two by two (and four by four), for two (four) distances
    // per instruction
    paired_.resize(static_cast<std::size_t>(p) * k_);
    interleave_pairs(m.data(), p, k_, paired_.data());
    bool quads = false;
#if defined(SIDECLUST_AVX)
    quads = k_ >= 4 && use_avx && cpu_has_avx();
    if (quads) {
      quads_.resize(static_cast<std::size_t>(p) * k_);
      interleave_columns<4>(m.data(), p, k_, quads_.data());  // for sq_distances_quads()
    }
#endif
    if (threads < 2 || n < kSplitFrom) {
      assigned_sum_ = rows(quads, x, m, hooks, z, 0, n, nullptr);
      return;
    }
    const std::size_t half = n / 2;
    tail_.resize(n - half);
    double sum = 0.0;
    run_alongside([&](RunHooks& own) { rows(quads, x, m, own, z, half, n, tail_.data()); },
                  [&](RunHooks& here) { sum = rows(quads, x, m, here, z, 0, half, nullptr); }, hooks);
    for (std::size_t i = half; i < n; ++i) {
      if (z[i] >= 0) sum += tail_[i - half];
    }
    assigned_sum_ = sum;
  }

  // sum_i dist(i, z_i) for the z given to the last refresh().
  double assigned_sum() const { return assigned_sum_; }

  SIDECLUST_FORCE_INLINE const double* record(int i) const { return base_ + static_cast<std::size_t>(i) * stride_; }
  // Start loading point i's record: one cache line up to k = 5; beyond, a
  // record spans two or three, and its last double (the cluster, which every
  // partner's cost reads first) is not in the first.
  SIDECLUST_FORCE_INLINE void prefetch_record(int i) const {
    if (stride_ == 8) {
      prefetch(record(i));
    } else {
      prefetch_range(record(i), stride_ * sizeof(double));
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
  double rows(bool quads, const Eigen::Ref<const Eigen::MatrixXd>& x, const Eigen::MatrixXd& m,
              RunHooks& hooks, const std::vector<int>& z, std::size_t from, std::size_t to,
              double* own) {
#if defined(SIDECLUST_AVX)
    if (quads) return rows_avx(x, m, hooks, z, from, to, own);
#else
    (void)quads;
#endif
    return refresh_rows<false>(x, m, hooks, z, from, to, own);
  }

#if defined(SIDECLUST_AVX)
  __attribute__((target("avx"))) double rows_avx(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                                 const Eigen::MatrixXd& m, RunHooks& hooks,
                                                 const std::vector<int>& z, std::size_t from,
                                                 std::size_t to, double* own) {
    return refresh_rows<true>(x, m, hooks, z, from, to, own);
  }
#endif

  // rows() for a kernel: Quads, groups of four centres by
  // sq_distances_quads() (AVX callers only).
  template <bool Quads>
  SIDECLUST_FORCE_INLINE double refresh_rows(const Eigen::Ref<const Eigen::MatrixXd>& x, const Eigen::MatrixXd& m,
                                             RunHooks& hooks, const std::vector<int>& z, std::size_t from,
                                             std::size_t to, double* own) {
    double sum = 0.0;
    const int p = static_cast<int>(x.rows());
    // A record of one cache line is built in `line` and streamed to the
    // table (see stream_line()); longer ones are written in place.
    const bool streamed = stride_ == 8;
    alignas(64) double line[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const double* pairs = paired_.data();
    const int k = k_;
    for (std::size_t i = from; i < to; ++i) {
      hooks.poll_interrupt(static_cast<std::size_t>(k) * p);
      double* r = streamed ? line : base_ + i * stride_;
      const double* xi = x.col(static_cast<Eigen::Index>(i)).data();
#if defined(SIDECLUST_AVX)
      if constexpr (Quads) {
        sq_distances_quads(xi, m.data(), quads_.data(), pairs, p, k, r);
      } else {
        sq_distances_pairs(xi, m.data(), pairs, p, k, r);
      }
#else
      sq_distances_pairs(xi, m.data(), pairs, p, k, r);
#endif
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
  std::vector<double> paired_, quads_;  // the centres interleaved, see refresh()
  std::vector<double> tail_;             // the helper's points' own distances, see refresh()
};

}  // namespace lcvqe_detail
}  // namespace sideclust
