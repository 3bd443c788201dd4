// MPCK-means: k-means with soft pairwise constraints and one learned metric
// per cluster (Bilenko, Basu & Mooney 2004); with the metric fixed to the
// identity it is PCK-means (Basu, Banerjee & Mooney 2004) with
// distance-scaled penalties. Points are the rows of R's n x p layout, read in
// place (ColumnMajorPoints): the fit holds no transposed copy of the data.
// Plain C++17 + Eigen; randomness and interrupts come from RunHooks.
//
// Objective (A_h the metric of cluster h, ||v||^2_A = v'Av, w_l >= 0):
//   J = sum_i (||x_i - mu_zi||^2_A_zi - log det A_zi)
//     + sum_{broken must-link} w (||x_a - x_b||^2_A_za + ||x_a - x_b||^2_A_zb) / 2
//     + sum_{broken cannot-link in h} w (D_h - ||x_a - x_b||^2_A_h)
//     + ridge * s2 * sum_h tr(A_h)                     (learned metrics only)
// D_h = c * sum_d A_h[d,d] r_d^2, r the column ranges of x, c = 1 ("none",
// "diagonal") or p ("full"): an upper bound of the largest squared distance
// under A_h that is linear in A_h (Bilenko et al. use the farthest pair of
// points, O(n^2)), so each block step below is an exact minimization and J
// never increases. s2 is the mean column variance of x (1 if it is 0).
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "common/column_major_points.h"
#include "common/run_hooks.h"
#include "common/side_graph.h"
#include "pairwise/kept_clusters.h"
#include "pairwise/mpck_edges.h"
#include "pairwise/mpck_metric_update.h"
#include "pairwise/mpck_result.h"
#include "pairwise/mpck_metrics.h"
#include "pairwise/mpck_sweep.h"
#include "pairwise/pair_sweeps.h"
#include "engine/sq_distance.h"
#include "engine/visit_order.h"

namespace sideclust {

// One run from given centres; the data-wide constants live here so that
// restarts share them.
class MpckRun {
 public:
  MpckRun(const ColumnMajorPoints& x, const PairGraph& pairs, const MpckParams& par, RunHooks& hooks)
      : x_(x), pairs_(pairs), par_(par), n_(x.n()), p_(x.p()),
        sweep_(x, pairs, edges_, par.metric, MpckSweepSettings{par.use_avx, par.threads, par.chunk, par.skip_unread}) {
    if (!pairs.empty() && pairs.n != n_) throw std::invalid_argument("pairs are over another number of points");
    const bool charged = par.metric == MpckMetric::none;
    // the ranges, the scale and each entry's pair; then the entries'
    // records, whose charges ("none") need the first and last of those
    auto statistics = [&](RunHooks& h) {
      mpck_column_statistics(x_, par_.metric, range2_, s2_);
      edge_pair_ = edge_pairs(pairs_, h);
    };
    const std::vector<int> unread;  // for learned metrics, whose records need no pairs' numbers
    auto records = [&](RunHooks& h) {
      edges_.build(x_, pairs_, charged ? edge_pair_ : unread, charged,
                   charged ? mpck_detail::Metrics(par.metric, p_, 1, range2_).bound[0] : 0.0,
                   par.metric == MpckMetric::diagonal, par.pair_cache, h);
    };
    // learned metrics: the records read neither, so at scale the two run
    // side by side (the same values)
    run_side_by_side(!charged && par.threads > 1 && n_ >= kSetupAlongside, statistics, records, hooks);
    edges_.index_pairs(edge_pair_, pairs_.n_pairs());
  }

  double s2() const { return s2_; }  // 1 for metric "none", which does not use it

  MpckResult run(Eigen::MatrixXd m, RunHooks& hooks) const {
    const int k = static_cast<int>(m.cols());
    const bool diagonal = par_.metric == MpckMetric::diagonal;
    mpck_detail::Metrics met(par_.metric, p_, k, range2_);
    MpckResult res;
    std::vector<int> z(n_, -1), broken;
    // a fresh random order each sweep, in blocks of consecutive points at
    // scale (VisitOrder): blocks in storage order were faster than small
    // shuffled ones (bench/NOTES.md)
    VisitOrder visit(n_, VisitKind::random, hooks);
    // The sweeps read the partners' clusters at random places: from a copy
    // of z in bytes (a quarter of the memory, so more of it stays cached)
    // when the labels fit.
    const bool small_labels = k <= 127;
    std::vector<std::int8_t> z8(small_labels ? n_ : 0, -1);
    BrokenPairs status(pairs_, edge_pair_);
    std::vector<std::uint8_t> moved(pairs_.empty() ? 0 : n_, 0);  // by the last sweep
    MpckSweepSums acc;
    Eigen::MatrixXd used(p_, k), scatter;
    for (int iter = 1; iter <= par_.max_iter; ++iter) {
      visit.next_sweep(hooks);
      const std::vector<int>& order = visit.order();
      acc.reset(p_, k, diagonal);
      const int changed = small_labels ? sweep_.assign(m, met, order, z, z8, moved, acc, hooks)
                                       : sweep_.assign(m, met, order, z, z, moved, acc, hooks);
      if (!pairs_.empty()) {  // the status of the pairs of the points that moved
        if (small_labels) {
          status.update_moved(moved, z8);
        } else {
          status.update_moved(moved, z);
        }
      }
      used = m;  // the centres the sweep measured from
      for (int h = 0; h < k; ++h) {  // means; an empty cluster keeps its centre
        if (acc.sums.count[h] > 0) m.col(h) = acc.sums.sum.col(h) / acc.sums.count[h];
      }
      double j = 0.0;
      if (par_.metric == MpckMetric::none) {
        j = objective_from_sweep(m, used, acc, status, res);
      } else {
        status.list(broken);
        if (diagonal) {
          // the scatter about the new centres from the moments about those
          // the sweep used: sum (x - a)^2 - n (mean - a)^2
          scatter = acc.moment;
          for (int h = 0; h < k; ++h) {
            for (int d = 0; d < p_; ++d) {
              const double shift = m(d, h) - used(d, h);
              scatter(d, h) = std::max(0.0, scatter(d, h) - acc.sums.count[h] * shift * shift);
            }
          }
          j = update_mpck_metrics(metric_data(), z, m, &scatter, &acc.sums.count, broken, met, &res);
        } else {
          update_mpck_metrics(metric_data(), z, m, nullptr, nullptr, broken, met, nullptr);
          j = objective(z, m, met, broken, res);
        }
      }
      res.objective.push_back(j);
      res.iterations = iter;
      hooks.check_interrupt();
      hooks.on_sweep(iter, k, j);
      // No point moved: the centres and metrics, functions of the
      // assignment, are those the sweep used (up to the rounding of sums
      // taken in another order), so the state is a fixed point.
      if (changed == 0) {
        res.converged = true;
        break;
      }
    }
    if (par_.metric == MpckMetric::none) status.list(broken);
    finish(z, m, met, broken, res);
    return res;
  }

  // J for metric "none" after the centre update: the within part from the
  // sweep's sums, sum_h (sum_{i in h} ||x_i - a_h||^2 - n_h ||mu_h - a_h||^2)
  // with a_h the centre the sweep used, and the penalty from the pairs'
  // fixed charges; parts stored in res.
  double objective_from_sweep(const Eigen::MatrixXd& m, const Eigen::MatrixXd& used,
                              const MpckSweepSums& acc, const BrokenPairs& status,
                              MpckResult& res) const {
    double within = 0.0;
    for (int h = 0; h < static_cast<int>(m.cols()); ++h) {
      if (acc.sums.count[h] == 0) continue;
      within += acc.near[h] - acc.sums.count[h] * sq_distance(m.col(h).data(), used.col(h).data(), p_);
    }
    within = std::max(0.0, within);
    const double penalty = pairs_.empty() ? 0.0 : status.sum(edges_.pair_charge());
    res.within = within;
    res.logdet = 0.0;
    res.penalty = penalty;
    res.regularization = 0.0;
    return within + penalty;
  }

  // J and its parts (stored in res); the ridge term only for learned metrics.
  double objective(const std::vector<int>& z, const Eigen::MatrixXd& m,
                   const mpck_detail::Metrics& met, const std::vector<int>& broken,
                   MpckResult& res) const {
    double within = 0.0, logdet = 0.0, penalty = 0.0;
    Eigen::VectorXd diff(p_), point(p_);
    for (int i = 0; i < n_; ++i) {
      x_.copy(i, point.data());
      within += met.dist2(point.data(), m.col(z[i]).data(), z[i]);
      logdet += met.logdet[z[i]];
    }
    // the pairs as the sweeps hold them (pair_values(): the difference up
    // to its sign, which the norms do not see), but "diagonal" holds their
    // squares, so makes the differences from the points
    const bool squares = par_.metric == MpckMetric::diagonal;
    for (const int l : broken) {  // kept pairs cost 0
      const int a = pairs_.first[l], b = pairs_.second[l];
      if (squares) {
        for (int d = 0; d < p_; ++d) diff[d] = x_.at(a, d) - x_.at(b, d);
      }
      const Eigen::Map<const Eigen::VectorXd> v(squares ? diff.data() : edges_.pair_values(x_, l, a, b, diff.data()), p_);
      penalty += mpck_detail::pair_penalty(met, v, pairs_.must(l), pairs_.magnitude(l), z[a], z[b]);
    }
    res.within = within;
    res.logdet = logdet;
    res.penalty = penalty;
    res.regularization =
        par_.metric == MpckMetric::none ? 0.0 : par_.ridge * s2_ * met.trace.sum();
    return within - logdet + penalty + res.regularization;
  }

 private:
  // Drop empty clusters (numbering the others consecutively, in order) and
  // compute the final objective over the clusters kept.
  void finish(std::vector<int>& z, const Eigen::MatrixXd& m, const mpck_detail::Metrics& met,
              const std::vector<int>& broken, MpckResult& res) const {
    const int k = static_cast<int>(m.cols());
    int kept = 0;
    const std::vector<int> map = kept_cluster_map(z, k, kept);
    mpck_detail::Metrics out(par_.metric, p_, kept, range2_);
    res.centres.resize(p_, kept);
    for (int h = 0; h < k; ++h) {
      const int t = map[h];
      if (t < 0) continue;
      res.centres.col(t) = m.col(h);
      out.diag.col(t) = met.diag.col(h);
      if (par_.metric == MpckMetric::full) out.full[t] = met.full[h];
      out.logdet[t] = met.logdet[h];
      out.bound[t] = met.bound[h];
      out.trace[t] = met.trace[h];
    }
    for (int& v : z) v = map[v];
    res.cluster = z;
    res.k = kept;
    const double j = objective(res.cluster, res.centres, out, broken, res);  // renumbering keeps `broken`
    if (!res.objective.empty()) res.objective.back() = j;
    res.diag = out.diag;
    res.full = std::move(out.full);
  }

  // what update_mpck_metrics() reads
  MpckMetricData metric_data() const {
    return {x_, pairs_, edges_, range2_, s2_, par_.metric, par_.ridge, n_, p_};
  }

  const ColumnMajorPoints x_;
  const PairGraph& pairs_;
  const MpckParams& par_;
  int n_, p_;
  Eigen::VectorXd range2_;
  double s2_ = 1.0;
  std::vector<int> edge_pair_;   // edge_pairs(pairs_)
  MpckEdges edges_;              // per adjacency entry (mpck_edges.h)
  MpckSweep sweep_;              // over x_, pairs_ and edges_
  static constexpr int kSetupAlongside = 65536;  // points from which the set-up takes two threads
};

}  // namespace sideclust
