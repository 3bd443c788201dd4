// The assignment sweep of MPCK-means / PCK-means (Bilenko, Basu & Mooney
// 2004): iterated conditional modes with the centres and metrics fixed, on
// one thread or, at scale, on two (engine/chunk_pipeline.h) with the same
// results. Points are the rows of R's n x p layout (ColumnMajorPoints),
// copied a block of visits at a time into contiguous p-vectors. Plain
// C++17 + Eigen.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/avx_lanes.h"
#include "engine/chunk_pipeline.h"
#include "common/column_major_points.h"
#include "engine/force_inline.h"
#include "engine/isolated_buffer.h"
#include "engine/prefetch.h"
#include "common/run_hooks.h"
#include "common/side_graph.h"
#include "pairwise/mpck_edges.h"
#include "pairwise/mpck_metrics.h"
#include "pairwise/pair_sweeps.h"
#include "engine/sq_distance_quad.h"
#include "engine/sq_distance.h"

namespace sideclust {

// How a sweep runs; none of it changes the results.
struct MpckSweepSettings {
  bool use_avx = true;  // four distances per AVX instruction where available
  int threads = 1;      // 2: the points' own costs and sums on a helper thread
  int chunk = 1024;     // points per hand-over between the two threads
  bool skip_unread = true;  // "diagonal": settle points without reading their pairs where that decides (stays_unread())
};

// What a sweep adds up as it settles each point, for the steps after it:
// the cluster sums (the centres), for metric "none" each cluster's sum of
// squared distances to the centre the sweep used (the within part of J,
// shifted to the new centres), for "diagonal" each cluster's per-coordinate
// sums of squares about that centre (the scatter of the metric update).
// This spares each of those steps a pass over all n points.
struct MpckSweepSums {
  SweepSums sums;
  Eigen::VectorXd near;    // k ("none")
  Eigen::MatrixXd moment;  // p x k ("diagonal")
  void reset(int p, int k, bool diagonal) {
    sums.reset(p, k);
    near.setZero(k);
    if (diagonal) moment.setZero(p, k);
  }
};

class MpckSweep {
 public:
  // edges: the adjacency entries of `pairs` (MpckEdges).
  MpckSweep(const ColumnMajorPoints& x, const PairGraph& pairs, const MpckEdges& edges,
            MpckMetric metric, const MpckSweepSettings& settings)
      : x_(x), pairs_(pairs), edges_(edges), metric_(metric), settings_(settings), p_(x.p()) {
    settings_.chunk = std::max(1, settings_.chunk);
  }

  // The points in the given order each move to the cluster minimizing J
  // with all else fixed (partners not yet assigned, in the first sweep, are
  // ignored); a point stays unless another cluster is strictly cheaper.
  // `zp` holds the same clusters as z (or is z), read for the partners.
  // Marks the points that changed cluster in `moved` and returns their
  // number; `acc` gets the sums (MpckSweepSums).
  // Where its time goes (bench/mpck-sweep-harness.cpp with BALANCED=1:
  // n = 1e6, p = 10, k = 5, 1e6 pairs, half of them must-links, as in the R
  // bench), on one thread: about 100 ns a point for "diagonal" and 76 ns
  // for "none", against 20 ns for a plain Lloyd iteration; 33 ns are the
  // point's own part (no pairs), and the rest is spread out: skipping the
  // must-links' norms (wrong fits, to measure) saved 6%, every cache read
  // landing in one small region 6%, the same for the partners' labels
  // nothing. Hence the two-thread form: the helper computes the own costs
  // and adds the sums while this thread handles the pairs, 0.082-0.09 s a
  // sweep in the harness against 0.100-0.11 on one thread (less than the
  // own part's share, as on one thread its arithmetic overlapped the
  // waits on memory), with runs on this machine's interfering cores as
  // slow as one thread's.
  // Helped: the SweepLookahead (twice as slow without), VisitOrder's
  // 1024-point blocks in storage order (0.12 -> 0.10 s a sweep against
  // 64-point blocks shuffled inside), choosing the cluster without branches
  // (cheapest_or_stay()) and caching the pairs' squares (a few per cent
  // each). No difference: compiling it for AVX, -O3, not prefetching the
  // point's own data, entries' charges held in registers for k = 5, the
  // lookahead's stage at 8 or 32 visits, a point's sums and squares added
  // in one four-lane loop (3% in the harness, none in the R bench). Slower
  // (seconds a sweep, against the form kept): no pair cache (~15% more, for
  // ~40% less set-up); on one thread, the points' costs of a block of 64
  // before their constraints (0.166 / 0.129); for "diagonal" each pair's k
  // norms cached once per sweep (0.155-0.20 / 0.12-0.16); no prefetch of
  // the cache slots read in runs (0.11 / 0.10) or of the partners' labels
  // (0.110 / 0.100); every entry's k norms and charge chosen by selects
  // instead of a branch on its kind (0.112 / 0.100); eight clusters a lane
  // group in AVX-512 (0.117 / 0.110).
  // The points come from R's n x p layout a block of visits at a time
  // (ColumnMajorPoints::copy_points(), the next block prefetched), which
  // spares the fit a transposed copy of the data: in a profile of one
  // thread the copies take about 5 ms of a sweep of about 90; in the R
  // bench at n = 1e6 an iteration is as fast as from a transposed copy on
  // two threads (the helper makes the copies) and 10-15% slower on one
  // (0.132 against 0.120 s, medians of six runs). Slower forms
  // of it: each point gathered on its own when visited (0.14 / 0.11), the
  // blocks copied without that prefetch or in one pass per column instead
  // of tiles (20-30% more than from the transposed copy).
  // With the diagonal metric, a point whose constraints all hold in its
  // cluster and whose own costs favour it stays without reading its pairs
  // (stays_unread(): 80% of the points after the first sweeps), 0.123 ->
  // 0.103-0.113 s an iteration in the harness on one thread, 0.093 ->
  // 0.074-0.081 on two. Slower (one thread / two, against 0.105 / 0.075):
  // fetching the cache slots of only the points likely to read them, told
  // from their partners' labels read one stage ahead (0.13 / 0.12), or
  // from counts of each point's broken constraints kept as points move,
  // with or without the own costs (0.117-0.13 / 0.08-0.10): the points it
  // missed waited on memory, and the counts' updates at random partners
  // cost more than the loads they spared.
  template <class Label>
  int assign(const Eigen::MatrixXd& m, const mpck_detail::Metrics& met,
             const std::vector<int>& order, std::vector<int>& z, std::vector<Label>& zp,
             std::vector<std::uint8_t>& moved, MpckSweepSums& acc, RunHooks& hooks) const {
    const bool staged = settings_.threads > 1 && order.size() >= 8 * static_cast<std::size_t>(settings_.chunk);
#if defined(SIDECLUST_AVX)
    if (metric_ != MpckMetric::full && m.cols() >= 4 && settings_.use_avx && cpu_has_avx()) {
      const Frame f(m, met, metric_, p_, true);
      return staged ? assign_staged<true>(f, order, z, zp, moved, acc, hooks)
                    : assign_avx(f, order, z, zp, moved, acc, hooks);
    }
#endif
    const Frame f(m, met, metric_, p_, false);
    return staged ? assign_staged<false>(f, order, z, zp, moved, acc, hooks)
                  : assign_body<false>(f, order, z, zp, moved, acc, hooks);
  }

 private:
  // A sweep's constants: the centres and metrics, also laid out two by two
  // for point_costs_paired() and four by four for the AVX form.
  struct Frame {
    const Eigen::MatrixXd& m;
    const mpck_detail::Metrics& met;
    int k;
    std::size_t unit;  // work units of a norm, for interrupt polling
    bool none, diagonal, charged;
    std::vector<double> mu2, diag2, quads, diag4;
    // "diagonal": whether a cannot-link's charge in cluster h, |w| (D_h -
    // norm), is certainly >= 0 as computed: D_h at least the norm of the
    // squared ranges summed as the pairs' norms are, which bounds every
    // pair's norm term by term (see stays_unread())
    std::vector<std::uint8_t> cannot_nonneg;
    Frame(const Eigen::MatrixXd& m_, const mpck_detail::Metrics& met_, MpckMetric metric, int p,
          bool with_quads)
        : m(m_), met(met_), k(static_cast<int>(m_.cols())), unit(met_.cost_units(p)),
          none(metric == MpckMetric::none), diagonal(metric == MpckMetric::diagonal),
          charged(none),  // the entries hold the charges
          mu2(static_cast<std::size_t>(p) * k), diag2(diagonal ? mu2.size() : 0),
          quads(with_quads ? mu2.size() : 0), diag4(with_quads && diagonal ? mu2.size() : 0) {
      interleave_pairs(m.data(), p, k, mu2.data());
      if (diagonal) interleave_pairs(met.diag.data(), p, k, diag2.data());
      if (with_quads) interleave_columns<4>(m.data(), p, k, quads.data());
      if (with_quads && diagonal) interleave_columns<4>(met.diag.data(), p, k, diag4.data());
      if (diagonal) {
        cannot_nonneg.resize(k);
        for (int h = 0; h < k; ++h) {
          cannot_nonneg[h] =
              met.bound[h] >= weighted_norm_from_squares(met.range2.data(), met.diag.col(h).data(), p);
        }
      }
    }
  };

  // Scratch vectors of one thread's pair costs.
  struct Scratch {
    Eigen::VectorXd q, diff, sq;
    Scratch(int k, int p) : q(k), diff(p), sq(p) {}
  };

#if defined(SIDECLUST_AVX)
  // The sweep's parts compiled for AVX: the point costs (and with the
  // diagonal metric a must-link's k norms) four clusters per instruction,
  // the values of sq_distance() / sq_distance<true>().
  template <class Label>
  __attribute__((target("avx"))) int assign_avx(const Frame& f, const std::vector<int>& order,
                                                std::vector<int>& z, std::vector<Label>& zp,
                                                std::vector<std::uint8_t>& moved, MpckSweepSums& acc,
                                                RunHooks& hooks) const {
    return assign_body<true>(f, order, z, zp, moved, acc, hooks);
  }
  __attribute__((target("avx"))) void prepare_avx(const std::vector<int>& order, std::size_t from,
                                                  std::size_t to, const Frame& f, double* own,
                                                  double* points) const {
    prepare<true>(order, from, to, f, own, points);
  }
  template <class Label>
  __attribute__((target("avx"))) int settle_avx(const Frame& f, const SweepLookahead& ahead,
                                                const std::vector<int>& order, std::size_t from,
                                                std::size_t to, const double* own,
                                                std::vector<int>& z, std::vector<Label>& zp,
                                                std::vector<std::uint8_t>& moved, RunHooks& hooks) const {
    return settle<true>(f, ahead, order, from, to, own, z, zp, moved, hooks);
  }
#endif

  // The one-thread sweep: each point's own costs, its pairs, its choice
  // and its sums in turn.
  template <bool Quads, class Label>
  SIDECLUST_FORCE_INLINE int assign_body(const Frame& f, const std::vector<int>& order,
                                         std::vector<int>& z, std::vector<Label>& zp,
                                         std::vector<std::uint8_t>& moved, MpckSweepSums& acc,
                                         RunHooks& hooks) const {
    const SweepLookahead ahead(order, pairs_.start, edges_.data());
    Scratch s(f.k, p_);
    Eigen::VectorXd cost(f.k), own(f.k);
    const std::size_t n = order.size(), block = point_block();
    Eigen::VectorXd points(static_cast<Eigen::Index>(block) * p_);
    int changed = 0;
    for (std::size_t t = 0; t < n; ++t) {
      prefetch_ahead(ahead, t, z, zp);
      const int i = order[t];
      if (t % block == 0) x_.copy_points(order.data() + t, static_cast<int>(std::min(block, n - t)), points.data());
      prefetch_next_block(order, t, block);
      const double* xi = points.data() + (t % block) * p_;
      own_costs<Quads>(f, xi, cost.data());
      if (f.none) own = cost;  // the squared distances (log det is 0)
      changed += settle_point<Quads>(f, i, cost.data(), s.q.data(), z, zp, moved, s, hooks);
      const int h = z[i];
      add_point(f, acc.sums.sum.col(h).data(), acc.sums.count[h], acc.near[h],
                f.diagonal ? acc.moment.col(h).data() : nullptr, h, xi, own.data());
    }
    return changed;
  }

  // The two-thread sweep: chunks of `settings_.chunk` visits; the helper
  // computes the points' own costs of the next chunk and adds the sums of
  // the last one while this thread settles the points of the current chunk
  // in order. The same operations in the same order as assign_body().
  template <bool Quads, class Label>
  int assign_staged(const Frame& f, const std::vector<int>& order, std::vector<int>& z,
                    std::vector<Label>& zp, std::vector<std::uint8_t>& moved, MpckSweepSums& acc,
                    RunHooks& hooks) const {
    const SweepLookahead ahead(order, pairs_.start, edges_.data());
    const std::size_t n = order.size(), chunk = static_cast<std::size_t>(settings_.chunk);
    const int chunks = static_cast<int>((n + chunk - 1) / chunk);
    IsolatedBuffer own(kChunkSlots * chunk * f.k);  // written by the helper, like `totals`
    auto range = [&](int c) { return std::make_pair(c * chunk, std::min(n, (c + 1) * chunk)); };
    auto buffer = [&](int c) { return own.data() + (c % kChunkSlots) * chunk * f.k; };
    // the helper's sums, apart from what the calling thread writes
    const std::size_t pk = static_cast<std::size_t>(p_) * f.k;
    IsolatedBuffer totals(2 * pk + 2 * f.k);
    double* sum = totals.data();
    double* moment = sum + pk;
    double* count = moment + pk;
    double* near = count + f.k;
    IsolatedBuffer points(chunk * p_);  // the helper's copy of a chunk's points
    int changed = 0;
    run_chunk_pipeline(
        chunks,
        [&](int c) {
          const auto r = range(c);
#if defined(SIDECLUST_AVX)
          if constexpr (Quads) return prepare_avx(order, r.first, r.second, f, buffer(c), points.data());
#endif
          prepare<false>(order, r.first, r.second, f, buffer(c), points.data());
        },
        [&](int c) {
          const auto r = range(c);
#if defined(SIDECLUST_AVX)
          if constexpr (Quads) {
            changed += settle_avx(f, ahead, order, r.first, r.second, buffer(c), z, zp, moved, hooks);
            return;
          }
#endif
          changed += settle<false>(f, ahead, order, r.first, r.second, buffer(c), z, zp, moved, hooks);
        },
        [&](int c) {
          const auto r = range(c);
          const double* o = buffer(c);
          // read again (cached: read for their costs a few chunks ago)
          x_.copy_points(order.data() + r.first, static_cast<int>(r.second - r.first), points.data());
          const double* xi = points.data();
          for (std::size_t t = r.first; t < r.second; ++t, o += f.k, xi += p_) {
            const int i = order[t], h = z[i];
            const std::size_t at = static_cast<std::size_t>(h) * p_;
            add_point(f, sum + at, count[h], near[h], moment + at, h, xi, o);
          }
        });
    // acc is zero before a sweep, so these are the sums it would have added
    acc.sums.sum = Eigen::Map<const Eigen::MatrixXd>(sum, p_, f.k);
    acc.sums.count.assign(count, count + f.k);
    acc.near = Eigen::Map<const Eigen::VectorXd>(near, f.k);
    if (f.diagonal) acc.moment = Eigen::Map<const Eigen::MatrixXd>(moment, p_, f.k);
    return changed;
  }

  // The own costs of the points order[from .. to) into `own` (k a point);
  // points: room for their copies.
  // Tried and slower: the helper also computing the norms of the points'
  // must-links (0.107 against 0.084-0.090 s a sweep in the harness), or of
  // all their constraints (0.12): reading the pairs' cache at random places
  // then holds up the helper instead, which waits on it less well than the
  // calling thread, whose arithmetic overlaps those waits. No faster, for
  // 15% more processor time: the helper computing the norms of only the
  // entries whose cache slots lie in runs (partner after the point), which
  // it reads in order (0.083-0.087 against 0.073-0.088).
  template <bool Quads>
  SIDECLUST_FORCE_INLINE void prepare(const std::vector<int>& order, std::size_t from, std::size_t to,
                                      const Frame& f, double* own, double* points) const {
    x_.copy_points(order.data() + from, static_cast<int>(to - from), points);
    for (std::size_t t = from; t < to; ++t, own += f.k, points += p_) {
      prefetch_next_block(order, t, to - from);
      own_costs<Quads>(f, points, own);
    }
  }

  // Asks for the points of the next block of visits while this one is
  // worked on, a point every 4 visits (a cache line holds 8 consecutive
  // rows of a column): copy_points() then finds them cached instead of
  // waiting for p streams to start (20-30% of a sweep at n = 1e6).
  SIDECLUST_FORCE_INLINE void prefetch_next_block(const std::vector<int>& order, std::size_t t,
                                                  std::size_t block) const {
    if ((t & 3) == 0 && t + block < order.size()) x_.prefetch_point(order[t + block]);
  }

  // A must-link's squared norm under every diagonal metric from the
  // squares v2 of its difference, two (AVX: four) at a time.
  template <bool Quads>
  SIDECLUST_FORCE_INLINE void must_norms(const Frame& f, const double* v2, double* q) const {
#if defined(SIDECLUST_AVX)
    if constexpr (Quads) {
      weighted_norms_quads(v2, f.met.diag.data(), f.diag4.data(), f.diag2.data(), p_, f.k, q);
      return;
    }
#endif
    weighted_norms_pairs(v2, f.met.diag.data(), f.diag2.data(), p_, f.k, q);
  }

  // Settles the points order[from .. to) from their own costs (k a point).
  template <bool Quads, class Label>
  SIDECLUST_FORCE_INLINE int settle(const Frame& f, const SweepLookahead& ahead,
                                    const std::vector<int>& order, std::size_t from, std::size_t to,
                                    const double* own, std::vector<int>& z,
                                    std::vector<Label>& zp, std::vector<std::uint8_t>& moved,
                                    RunHooks& hooks) const {
    Scratch s(f.k, p_);
    IsolatedBuffer written(2 * f.k);  // what this thread writes at every point
    double* cost = written.data();
    double* q = cost + f.k;
    int changed = 0;
    for (std::size_t t = from; t < to; ++t, own += f.k) {
      prefetch_ahead(ahead, t, z, zp);
      std::copy(own, own + f.k, cost);
      changed += settle_point<Quads>(f, order[t], cost, q, z, zp, moved, s, hooks);
    }
    return changed;
  }

  // The loads of the points some visits ahead (SweepLookahead); their
  // coordinates come in blocks (ColumnMajorPoints::copy_points()).
  template <class Label>
  SIDECLUST_FORCE_INLINE void prefetch_ahead(const SweepLookahead& ahead, std::size_t t,
                                             const std::vector<int>& z, const std::vector<Label>& zp) const {
    const bool diffs = edges_.has_diffs(), charged = metric_ == MpckMetric::none;
    const PackedEdge* edges = edges_.data();
    ahead.step(
        t,
        [&](int f) { prefetch(&z[f]); },
        [&](int j, int e) {
          prefetch(&zp[j]);
          if (charged) return;  // the charges are in the entries
          // the pair's difference, or the partner's coordinates to make it
          if (!diffs) return x_.prefetch_point(j);
          const double* v = edges_.cached_diff(edges[e]);
          prefetch(v);
          prefetch(v + (p_ - 1));
        });
  }

  // cost[h] = what point xi costs in cluster h before its constraints:
  // ||xi - mu_h||^2 under A_h minus log det A_h.
  template <bool Quads>
  SIDECLUST_FORCE_INLINE void own_costs(const Frame& f, const double* xi, double* cost) const {
#if defined(SIDECLUST_AVX)
    if constexpr (Quads) {  // minus log det A_h, as point_costs_paired()
      if (f.diagonal) {
        weighted_sq_distances_quads(xi, f.m.data(), f.met.diag.data(), f.quads.data(), f.diag4.data(),
                                    f.mu2.data(), f.diag2.data(), p_, f.k, cost);
      } else {
        sq_distances_quads(xi, f.m.data(), f.quads.data(), f.mu2.data(), p_, f.k, cost);
      }
      for (int h = 0; h < f.k; ++h) cost[h] -= f.met.logdet[h];
      return;
    }
#endif
    f.met.point_costs_paired(xi, f.m, f.mu2.data(), f.diag2.data(), cost);
  }

  // Adds point i's constraints to its own costs in `cost`, moves it to the
  // cheapest cluster (it stays unless another is strictly cheaper) and
  // returns 1 if it moved. qd: room for k norms (the diagonal metric's).
  template <bool Quads, class Label>
  SIDECLUST_FORCE_INLINE int settle_point(const Frame& f, int i, double* cost, double* qd,
                                          std::vector<int>& z,
                                          std::vector<Label>& zp, std::vector<std::uint8_t>& moved,
                                          Scratch& s, RunHooks& hooks) const {
    const int k = f.k;
    const mpck_detail::Metrics& met = f.met;
    const PackedEdge* edges = edges_.data();
    std::size_t work = static_cast<std::size_t>(k) * f.unit;
    const bool has_pairs = !pairs_.empty();
    if (has_pairs && f.diagonal && settings_.skip_unread && stays_unread(f, i, cost, z[i], zp)) {
      hooks.poll_interrupt(work);
      return 0;
    }
    const int first = has_pairs ? pairs_.start[i] : 0, last = has_pairs ? pairs_.start[i + 1] : 0;
    for (int e = first; e < last; ++e) {
      const PackedEdge& pe = edges[e];
      const int g = zp[pe.nbr];
      const int kind = pe.tag & MpckEdges::kKindMask;
      if (g < 0 || kind == MpckEdges::kSkip) continue;
      if (kind == MpckEdges::kMust) {
        // broken when i leaves g: half the distance under each end's
        // metric (adding 0 to cost[g] keeps the loops free of branches)
        work += static_cast<std::size_t>(k) * f.unit;
        if (f.charged) {  // one metric: the same charge for every h != g
          const double c = pe.value;
          for (int h = 0; h < k; ++h) cost[h] += h != g ? c : 0.0;
          continue;
        }
        const double w = pe.value;
        const double* q = s.q.data();
        if (f.diagonal) {  // inline, from the cache without a copy
          must_norms<Quads>(f, edges_.pair_diff_at(x_, i, pe, s.diff), qd);
          q = qd;
        } else {
          edges_.pair_diff(x_, i, pe, s.diff);
          met.norm2_all(s.diff, s.q, s.sq);
        }
        for (int h = 0; h < k; ++h) cost[h] += h != g ? 0.5 * w * (q[h] + q[g]) : 0.0;
      } else {
        if (f.charged) {
          cost[g] -= pe.value;
        } else if (f.diagonal) {
          const double* v2 = edges_.pair_diff_at(x_, i, pe, s.diff);  // squares
          cost[g] -= pe.value * (met.bound[g] - weighted_norm_from_squares(v2, met.diag.col(g).data(), p_));
        } else {
          edges_.pair_diff(x_, i, pe, s.diff);
          cost[g] -= pe.value * (met.bound[g] - met.norm2(s.diff, g));
        }
        work += f.unit;
      }
    }
    hooks.poll_interrupt(work);
    const int best = cheapest_or_stay(cost, k, z[i]);
    if (best == z[i]) return 0;
    z[i] = best;
    zp[i] = static_cast<Label>(best);
    if (has_pairs) moved[i] = 1;
    return 1;
  }

  // Whether point i, in cluster c, stays there whatever its constraints
  // cost, told from its own costs and its partners' clusters alone, so that
  // its pairs' values need not be read ("diagonal" only). It does when its
  // own costs are lowest in c (ties included: a point moves only to a
  // strictly cheaper cluster), every assigned must-link partner is in c and
  // no cannot-link partner is: then settle_point() would add 0 to cost[c]
  // and to the others only terms it computes as >= 0 (a must-link's half
  // norms; a cannot-link's |w| (D_g - norm) where cannot_nonneg[g]), and a
  // floating-point sum never falls below a number it adds a non-negative
  // one to. So this is settle_point()'s own decision, made without the
  // pairs' cache: at n = 1e6, p = 10, k = 5 with 1e6 pairs, 80% of the
  // points after the first two sweeps.
  template <class Label>
  SIDECLUST_FORCE_INLINE bool stays_unread(const Frame& f, int i, const double* own, int c,
                                           const std::vector<Label>& zp) const {
    if (c < 0) return false;
    const PackedEdge* edges = edges_.data();
    for (int e = pairs_.start[i]; e < pairs_.start[i + 1]; ++e) {
      const PackedEdge& pe = edges[e];
      const int g = zp[pe.nbr];
      const int kind = pe.tag & MpckEdges::kKindMask;
      if (g < 0 || kind == MpckEdges::kSkip) continue;
      if (kind == MpckEdges::kMust ? g != c : (g == c || !f.cannot_nonneg[g])) return false;
    }
    const double stay = own[c];
    for (int h = 0; h < f.k; ++h) {
      if (!(own[h] >= stay)) return false;
    }
    return true;
  }

  // Adds a point settled in cluster h to that cluster's sums: `sum` and
  // `moment` (p each, moment only for "diagonal") and its count and `near`
  // ("none"); own: the point's own costs.
  SIDECLUST_FORCE_INLINE void add_point(const Frame& f, double* sum, double& count, double& near, double* moment,
                                        int h, const double* xi, const double* own) const {
    add_into(sum, xi, p_);
    count += 1.0;
    if (f.none) {
      near += own[h];
    } else if (f.diagonal) {
      add_squares(moment, xi, f.m.col(h).data(), p_);
    }
  }

  // to[d] += (x[d] - a[d])^2 for d < p, two coordinates per instruction
  // where the compiler has the vector extension (the same operations on
  // each coordinate, so the same sums).
  static SIDECLUST_FORCE_INLINE void add_squares(double* to, const double* x, const double* a, int p) {
    int d = 0;
#if defined(SIDECLUST_HAS_LANES2)
    for (; d + 1 < p; d += 2) {
      Lanes2 s, u, v;
      std::memcpy(&s, to + d, sizeof s);
      std::memcpy(&u, x + d, sizeof u);
      std::memcpy(&v, a + d, sizeof v);
      const Lanes2 t = u - v;
      s += t * t;
      std::memcpy(to + d, &s, sizeof s);
    }
#endif
    for (; d < p; ++d) {
      const double t = x[d] - a[d];
      to[d] += t * t;
    }
  }

  // Visits whose points one thread copies at a time: 1024, fewer at large
  // p (at most 512 KiB).
  std::size_t point_block() const { return std::max<std::size_t>(16, std::min<std::size_t>(1024, 65536 / p_)); }

  const ColumnMajorPoints x_;
  const PairGraph& pairs_;
  const MpckEdges& edges_;
  MpckMetric metric_;
  MpckSweepSettings settings_;
  int p_;
};

}  // namespace sideclust
