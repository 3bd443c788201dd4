// LCVQE (Pelleg & Baras (2007), "K-means with large and noisy constraint
// sets"): k-means with soft must-links and cannot-links whose penalties are
// distances from points to centres, so that both steps lower one objective
//   L = 1/2 sum_i ||x_i - c_zi||^2
//     + sum_{broken must-link (a, b)} w/2 (||x_a - c_zb||^2 + ||x_b - c_za||^2)
//     + sum_{cannot-link (a, b) in cluster u} w/2 min_{r in {a, b}, j != u} ||x_r - c_j||^2
// (a broken cannot-link charges its cheapest alternative assignment; Pelleg
// & Baras charge the point farther from the shared centre). The assignment
// step moves single points, then whole must-link components (Pelleg & Baras
// assign a violated pair jointly instead). Points are the columns of a
// p x n matrix, centres the columns of a p x k matrix. Plain C++17 + Eigen;
// randomness and interrupts come from RunHooks; the hot loops run in the
// engine (src/engine/).
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/prototype_params.h"
#include "common/run_hooks.h"
#include "common/seeding.h"
#include "common/side_graph.h"
#include "engine/avx_dispatch.h"
#include "engine/distance_records.h"
#include "engine/lookahead.h"
#include "engine/one_hot_costs.h"
#include "engine/visit_order.h"
#include "pairwise/lcvqe_costs.h"
#include "pairwise/lcvqe_moves.h"
#include "pairwise/lcvqe_result.h"
#include "pairwise/pair_sweeps.h"

namespace sideclust {

struct LcvqeParams : PrototypeParams {
  SeedInit init = SeedInit::kmeanspp;  // SeedInit::start: from `start`
  bool random_order = true;      // visit the points in a fresh random order every sweep
  bool group_moves = true;       // after each point sweep, whole must-link components move too
  double tol = 1e-12;            // centres moving at most tol * scale are unchanged
  bool use_avx = true;           // four distances per instruction where the processor has AVX (same values)
  int threads = 1;               // 2: the distance records refreshed on two threads at scale (same values)
};

// One run from given centres.
class LcvqeRun {
 public:
  LcvqeRun(const Eigen::Ref<const Eigen::MatrixXd>& x, const PairGraph& pairs,
           const LcvqeParams& par, RunHooks& hooks)
      : x_(x), pairs_(pairs), par_(par), n_(static_cast<int>(x.cols())) {
    if (!pairs.empty() && pairs.n != n_) throw std::invalid_argument("pairs are over another number of points");
    scale_ = 1.0 + (x.size() > 0 ? x.cwiseAbs().maxCoeff() : 0.0);
    if (par.group_moves) comp_ = lcvqe_detail::MustLinkComponents(pairs, n_);  // only component moves use them
    edge_pair_ = edge_pairs(pairs, hooks);
    // tag: the partner's must-link component (-1: none), read by move_components()
    edges_ = pack_edges(pairs, [&](int e) {
      return PackedEdge{pairs.nbr[e], comp_.id.empty() ? -1 : comp_.id[pairs.nbr[e]], pairs.weight[e]};
    });
    if (!pairs.empty()) edges_.resize(edges_.size() + 4, PackedEdge{0, -1, 0.0});
  }

  LcvqeResult run(Eigen::MatrixXd m, RunHooks& hooks) const {
    const int k = static_cast<int>(m.cols());
    LcvqeResult res;
    std::vector<int> z(n_, -1);
    // storage order, or a fresh random order each sweep in blocks of
    // consecutive points at scale (VisitOrder)
    VisitOrder visit(n_, par_.random_order ? VisitKind::random : VisitKind::fixed, hooks);
    DistanceRecords cd;  // its buffer and `broken` are reused by every iteration
    BrokenPairs status(pairs_, edge_pair_);
    std::vector<int> broken;
    lcvqe_detail::LastParts last;  // the z and centres run() ends with
    SweepSums sums;  // kept up to date as points move, see assign()
    sums.reset(m.rows(), k);
    cd.refresh(x_, m, hooks, z, par_.use_avx, par_.threads);
    for (int iter = 1; iter <= par_.max_iter; ++iter) {
      visit.next_sweep(hooks);
      int changed = assign(m, cd, visit.order(), z, status, sums, hooks, iter == 1);
      if (par_.group_moves) {
        changed += lcvqe_detail::move_components(comp_, x_, pairs_, edges_.data(), k, cd, z, status, sums, hooks);
      }
      status.list(broken);
      const double moved = update_centres(cd, broken, sums, m);
      cd.refresh(x_, m, hooks, z, par_.use_avx, par_.threads);
      const double within = 0.5 * cd.assigned_sum();
      const double penalty = lcvqe_detail::penalty_part(pairs_, cd, broken);
      last = {within, penalty};
      res.objective.push_back(within + penalty);
      res.iterations = iter;
      hooks.check_interrupt();
      hooks.on_sweep(iter, k, within + penalty);
      if (changed == 0 && moved <= par_.tol * scale_) {
        res.converged = true;
        break;
      }
    }
    lcvqe_detail::finish_result(x_, pairs_, par_.use_avx, par_.threads, z, m, status, last, res, hooks);
    return res;
  }

 private:
  // Iterated conditional modes with the centres fixed: every point in turn
  // moves to the cluster minimizing L given the others' clusters, when that
  // is strictly cheaper than its own (partners not yet assigned, in the first
  // step, are ignored). O(k (p + d)) for a point with d constraints. A point
  // that moves carries its coordinates from one cluster sum of `sums` to the
  // other, so the centre update needs no pass over all points (only movers'
  // coordinates are read: the sweep itself reads the distance records).
  // Returns the number of points that changed cluster.
  int assign(const Eigen::MatrixXd& m, DistanceRecords& cd,
             const std::vector<int>& order, std::vector<int>& z, BrokenPairs& status,
             SweepSums& sums, RunHooks& hooks, bool first_sweep) const {
    // one loop per K, its look-ahead stages and body inlined (run_inlined())
    return run_inlined([&] {
      switch (m.cols()) {
        case 2: return assign_k<2>(m, cd, order, z, status, sums, hooks, first_sweep);
        case 3: return assign_k<3>(m, cd, order, z, status, sums, hooks, first_sweep);
        case 4: return assign_k<4>(m, cd, order, z, status, sums, hooks, first_sweep);
        case 5: return assign_k<5>(m, cd, order, z, status, sums, hooks, first_sweep);
        case 6: return assign_k<6>(m, cd, order, z, status, sums, hooks, first_sweep);
        default: return assign_k<0>(m, cd, order, z, status, sums, hooks, first_sweep);
      }
    });
  }

  template <int K>
  int assign_k(const Eigen::MatrixXd& m, DistanceRecords& cd, const std::vector<int>& order,
               std::vector<int>& z, BrokenPairs& status, SweepSums& sums, RunHooks& hooks,
               bool first_sweep) const {
    const int k = K > 0 ? K : static_cast<int>(m.cols());
    const bool has_pairs = !pairs_.empty();
    // K (2 .. 6, else 0: any k) known when compiled: the costs two clusters
    // at a time, with room for a padding lane (OneHotCosts)
    double cost_fixed[K > 0 ? K + 1 : 1];
    std::vector<double> cost_dyn(K > 0 ? 0 : k + 1);
    double* cost = K > 0 ? cost_fixed : cost_dyn.data();
    const OneHotCosts<K> one_hot(k);
    int changed = 0;
    const PackedEdge* edges = edges_.data();
    const int p = static_cast<int>(x_.rows());
    // Reads requested ahead in three stages, with a fixed number of
    // partners per point (the first 4 entries from its own, read past its
    // end into the next point's or the padding): branches on each point's
    // number of constraints were mispredicted about once a point.
    auto own_reads = [&](int f, const Upcoming& r) {
      cd.read_ahead(f, r);
      if (has_pairs) r.line(&pairs_.start[f]);
      if (first_sweep) r.ends(x_.col(f).data(), p);  // every point moves, reading its coordinates
    };
    auto entry_reads = [&](int f, const Upcoming& r) {
      if (!has_pairs) return;
      const PackedEdge* a = edges + pairs_.start[f];
      r.line(a);
      r.line(a + 3);
    };
    auto partner_reads = [&](int f, const Upcoming& r) {
      if (!has_pairs) return;
      const PackedEdge* a = edges + pairs_.start[f];
      for (int q = 0; q < 4; ++q) cd.read_ahead(a[q].nbr, r);
    };
    for_each_id_ahead(order, order.size(), [&](int i) {
      const int first = has_pairs ? pairs_.start[i] : 0, last = has_pairs ? pairs_.start[i + 1] : 0;
      hooks.poll_interrupt(static_cast<std::size_t>(k) * (p + last - first));
      const double* own = cd.record(i);
      lcvqe_detail::point_costs(one_hot, cd, own, edges, first, last, cost);
      const int zi = cd.cluster_in(own);
      const int best = cheapest_or_stay(cost, k, zi);
      if (best == zi) return;
      if (zi < 0) {
        sums.add(best, x_.col(i).data());
      } else {
        sums.move(zi, best, x_.col(i).data());
      }
      z[i] = best;
      cd.set_cluster(i, best);
      ++changed;
      for (int e = first; e < last; ++e) status.update(e, edges[e].value, best, cd.cluster(edges[e].nbr));
    }, ahead<48>(own_reads), ahead<32>(entry_reads), ahead<16>(partner_reads));
    return changed;
  }

  // The exact minimizer of L in the centres with z and, for every broken
  // cannot-link, its alternative (r, j) at the current centres fixed:
  // c_j = (sum_{z_i = j} x_i + pulls w x) / (n_j + pull weights), the
  // clusters' sums and sizes from `sums`. A cluster of zero weight keeps its
  // centre. Returns the largest coordinate move.
  double update_centres(const DistanceRecords& cd, const std::vector<int>& broken,
                        const SweepSums& sums, Eigen::MatrixXd& m) const {
    const int k = static_cast<int>(m.cols());
    Eigen::MatrixXd sum = sums.sum;
    std::vector<double> weight = sums.count;
    const int p = static_cast<int>(x_.rows());
    // sum_j += w x_i, coordinate by coordinate (as Eigen's sum.col(j) +=
    // w * x.col(i), the same values)
    auto pull = [&](int j, int i, double w) {
      double* to = sum.col(j).data();
      const double* xi = x_.col(i).data();
      for (int d = 0; d < p; ++d) to[d] += w * xi[d];
      weight[j] += w;
    };
    // the coordinates the body will read: both points' of a must-link, the
    // charged point's of a cannot-link
    auto reads = [&](int l, int a, int b, const Upcoming& r) {
      if (pairs_.must(l)) {
        r.ends(x_.col(a).data(), p);
        r.ends(x_.col(b).data(), p);
      } else if (k > 1) {
        r.ends(x_.col(lcvqe_detail::cannot_charged(cd, a, b, cd.cluster(a))).data(), p);
      }
    };
    lcvqe_detail::for_each_broken_pair(broken, pairs_, cd, reads, [&](int l) {
      const int a = pairs_.first[l], b = pairs_.second[l], u = cd.cluster(a), v = cd.cluster(b);
      const double w = pairs_.magnitude(l);
      if (pairs_.must(l)) {
        pull(v, a, w);  // w/2 ||x_a - c_zb||^2
        pull(u, b, w);
      } else if (k > 1) {
        const lcvqe_detail::Alternative alt = lcvqe_detail::cannot_alternative(cd, a, b, u);
        pull(alt.j, alt.r, w);
      }
    });
    double moved = 0.0;
    for (int j = 0; j < k; ++j) {
      if (!(weight[j] > 0)) continue;
      const Eigen::VectorXd next = sum.col(j) / weight[j];
      moved = std::max(moved, (next - m.col(j)).cwiseAbs().maxCoeff());
      m.col(j) = next;
    }
    return moved;
  }

  const Eigen::Ref<const Eigen::MatrixXd> x_;
  const PairGraph& pairs_;
  const LcvqeParams& par_;
  int n_;
  double scale_ = 1.0;
  lcvqe_detail::MustLinkComponents comp_;              // for the component moves
  std::vector<int> edge_pair_;                         // edge_pairs(pairs_)
  std::vector<PackedEdge> edges_;                      // partner and signed weight per adjacency entry
};

// The best (lowest final L) of par.restarts runs, or one run from par.start.
inline LcvqeResult lcvqe_fit(const Eigen::Ref<const Eigen::MatrixXd>& x, const PairGraph& pairs,
                             const LcvqeParams& par, RunHooks& hooks) {
  if (par.k < 1 || par.k > x.cols()) throw std::invalid_argument("k out of range");
  const LcvqeRun runner(x, pairs, par, hooks);
  const int runs = par.init == SeedInit::start ? 1 : std::max(1, par.restarts);
  LcvqeResult best;
  for (int r = 0; r < runs; ++r) {
    Eigen::MatrixXd m =
        par.init == SeedInit::start ? par.start : draw_prototypes(x, par.k, par.init, hooks);
    if (m.rows() != x.rows() || m.cols() != par.k) throw std::invalid_argument("start has the wrong size");
    LcvqeResult res = runner.run(std::move(m), hooks);
    if (r == 0 || res.objective.back() < best.objective.back()) best = std::move(res);
  }
  return best;
}

}  // namespace sideclust
