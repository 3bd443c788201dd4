// The assignment sweep of MPCK-means / PCK-means (Bilenko, Basu & Mooney
// 2004): iterated conditional modes with the centres and metrics fixed.
// Each point in the visit order moves to the cluster minimizing J with all
// else fixed: its own cost ||x_i - mu_h||^2 under A_h - log det A_h, plus
// the penalties of its constraints to its partners' current clusters.
// The engine runs the visits (engine/staged_sweep.h: staged look-ahead,
// blocks of points copied from R's n x p layout, the two-thread form) and
// the AVX form (engine/avx_dispatch.h); this file states the costs and the
// decision (mpck_decision.h). Plain C++17 + Eigen.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/column_major_points.h"
#include "common/run_hooks.h"
#include "common/side_graph.h"
#include "engine/avx_dispatch.h"
#include "engine/staged_sweep.h"
#include "pairwise/mpck_decision.h"
#include "pairwise/mpck_edges.h"
#include "pairwise/mpck_metrics.h"
#include "pairwise/mpck_sweep_sums.h"

namespace sideclust {

// How a sweep runs; none of it changes the results.
struct MpckSweepSettings {
  bool use_avx = true;  // four distances per AVX instruction where available
  int threads = 1;      // 2: the points' own costs and sums on a helper thread
  int chunk = 1024;     // points per hand-over between the two threads
  bool skip_unread = true;  // "diagonal": settle points without reading their pairs where that decides (stays_unread())
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
  template <class Label>
  int assign(const Eigen::MatrixXd& m, const mpck_detail::Metrics& met, const std::vector<int>& order,
             std::vector<int>& z, std::vector<Label>& zp, std::vector<std::uint8_t>& moved,
             MpckSweepSums& acc, RunHooks& hooks) const {
    const bool avx = metric_ != MpckMetric::full && m.cols() >= 4 && settings_.use_avx;
    const MpckFrame f(m, met, metric_, p_, avx_chosen(avx));
    const SweepLookahead ahead(order, pairs_.start, edges_.data());
    auto reads = visit_reads(
        [&z](int i, const Upcoming& r) { r.line(&z[i]); },
        [this, &zp, charged = f.charged, diffs = edges_.has_diffs()](int j, int e, const Upcoming& r) {
          r.line(&zp[j]);
          if (charged) return;  // the charges are in the entries
          // the pair's difference, or the partner's coordinates to make it
          if (!diffs) return x_.request_point(j, r);
          r.ends(edges_.cached_diff(edges_.data()[e]), static_cast<std::size_t>(p_));
        },
        [this](int i, const Upcoming& r) { x_.request_point(i, r); });
    const MpckDecision<Label> decision(x_, pairs_, edges_, f, settings_.skip_unread, z, zp, moved, hooks);
    const std::size_t chunk = static_cast<std::size_t>(settings_.chunk);
    if (sweep_on_two_threads(settings_.threads, order.size(), chunk)) {
      const MpckFlatSums sums{p_, f.k};
      int changed = 0;
      run_chunked_sweep(
          ChunkedSweepShape{order.size(), chunk, static_cast<std::size_t>(f.k), static_cast<std::size_t>(p_),
                            sums.size(), 2 * static_cast<std::size_t>(f.k)},
          // helper: the own costs of a chunk's points, copied at once
          [&](std::size_t from, std::size_t to, double* own, double* points) {
            x_.copy_points(order.data() + from, static_cast<int>(to - from), points);
            run_with_kernels(avx, [&](auto kernels) {
              run_chunk_visits(order, from, to, reads.row, [&](std::size_t t) {
                f.own_costs(kernels, points + (t - from) * p_, own + (t - from) * f.k);
              });
            });
          },
          // this thread: each point's constraints and choice, in order
          [&](std::size_t from, std::size_t to, const double* own, double* scratch) {
            changed += run_with_kernels(avx, [&](auto kernels) {
              MpckScratch s(f.k, p_);
              int moves = 0;
              run_staged_sweep(ahead, from, to, reads, [&](std::size_t t, int i) {
                std::copy(own + (t - from) * f.k, own + (t - from + 1) * f.k, scratch);
                moves += decision.settle(kernels, i, scratch, scratch + f.k, s);
              });
              return moves;
            });
          },
          // helper: the sums of the settled points (read again, cached)
          [&](std::size_t from, std::size_t to, const double* own, double* points, double* totals) {
            x_.copy_points(order.data() + from, static_cast<int>(to - from), points);
            for (std::size_t t = from; t < to; ++t, own += f.k, points += p_) {
              const int h = z[order[t]];
              sums.add(totals, f.none, f.diagonal, h, points, f.m.col(h).data(), own);
            }
          },
          [&](const double* totals) { sums.collect(totals, f.diagonal, acc); });
      return changed;
    }
    return run_with_kernels(avx, [&](auto kernels) {
      MpckScratch s(f.k, p_);
      Eigen::VectorXd cost(f.k), own(f.k);
      const std::size_t block = point_block();
      Eigen::VectorXd points(static_cast<Eigen::Index>(block) * p_);
      int changed = 0;
      run_blocked_sweep(
          ahead, block, reads,
          [&](std::size_t t, std::size_t count) {
            x_.copy_points(order.data() + t, static_cast<int>(count), points.data());
          },
          [&](std::size_t, int i, std::size_t at) {
            const double* xi = points.data() + at * p_;
            f.own_costs(kernels, xi, cost.data());
            if (f.none) own = cost;  // the squared distances (log det is 0)
            changed += decision.settle(kernels, i, cost.data(), s.q.data(), s);
            const int h = z[i];
            add_settled_point(f.none, f.diagonal, acc.sums.sum.col(h).data(), acc.sums.count[h], acc.near[h],
                              f.diagonal ? acc.moment.col(h).data() : nullptr, h, xi, f.m.col(h).data(),
                              own.data(), p_);
          });
      return changed;
    });
  }

 private:
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
