// LCVQE (Pelleg & Baras (2007), "K-means with large and noisy constraint
// sets"): k-means with soft must-links and cannot-links whose penalties are
// distances from points to centres, so that both steps lower one objective
//   L = 1/2 sum_i ||x_i - c_zi||^2
//     + sum_{broken must-link (a, b)} w/2 (||x_a - c_zb||^2 + ||x_b - c_za||^2)
//     + sum_{cannot-link (a, b) in cluster u} w/2 min_{r in {a, b}, j != u} ||x_r - c_j||^2
// (a broken cannot-link charges its cheapest alternative assignment; Pelleg
// & Baras charge the point farther from the shared centre). The assignment
// step moves single points, then whole must-link components (Pelleg & Baras
// assign a violated pair jointly instead). Points are the
// columns of a p x n matrix, centres the columns of a p x k matrix. Plain
// C++17 + Eigen; randomness and interrupts come from RunHooks.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "common/force_inline.h"
#include "common/huge_pages.h"
#include "common/prefetch.h"
#include "common/run_hooks.h"
#include "common/seeding.h"
#include "common/side_graph.h"
#include "common/union_find.h"
#include "kmeans/pair_sweeps.h"
#include "kmeans/sq_distance.h"
#include "kmeans/visit_order.h"

namespace sideclust {

struct LcvqeParams {
  int k = 2;
  int max_iter = 100;
  int restarts = 10;
  SeedInit init = SeedInit::kmeanspp;
  Eigen::MatrixXd start;         // p x k initial centres for SeedInit::start
  bool random_order = true;      // visit the points in a fresh random order every sweep
  bool group_moves = true;       // after each point sweep, whole must-link components move too
  double tol = 1e-12;            // centres moving at most tol * scale are unchanged
};

struct LcvqeResult {
  std::vector<int> cluster;      // 0 .. k - 1, consecutive
  Eigen::MatrixXd centres;       // p x k
  int k = 0;
  std::vector<double> objective;  // L after every iteration
  double within = 0.0, penalty = 0.0;
  int iterations = 0;
  bool converged = false;
};

namespace lcvqe_detail {

// Squared distances of every point to every centre, with each point's
// nearest centre and the distances to it and to the second nearest, and the
// point's cluster, in one record per point: a constraint reads its
// partner's whole record, which for k <= 5 is one aligned cache line
// (records padded to 8 doubles), so that a sweep over randomly placed pairs
// costs one memory access per partner instead of one per array (at n = 1e6
// the partners' data is far outside the cache; the cluster in the record
// spares a second access to the cluster vector). Computed once per centre
// update, O(n k p). The same pass sums every point's distance to its own
// centre (in the order of the points, as objective_parts() would), sparing
// the objective a second pass over the records.
class CentreDistances {
 public:
  // z: the clusters (-1: unassigned), copied into the records; a sweep that
  // moves a point updates its record with set_cluster().
  void refresh(const Eigen::Ref<const Eigen::MatrixXd>& x, const Eigen::MatrixXd& m, RunHooks& hooks,
               const std::vector<int>& z) {
    assigned_sum_ = 0.0;
    k_ = static_cast<int>(m.cols());
    stride_ = k_ + 3 <= 8 ? 8 : k_ + 3;
    const std::size_t n = static_cast<std::size_t>(x.cols());
    base_ = table_.reserve(stride_ * n);  // reused across iterations
    const int p = static_cast<int>(x.rows());
    // A record of one cache line is built in `line` and streamed to the
    // table (see stream_line()); longer ones are written in place.
    const bool streamed = stride_ == 8;
    alignas(64) double line[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    // the centres two by two, for two distances per instruction
    std::vector<double> paired(static_cast<std::size_t>(p) * k_);
    interleave_pairs(m.data(), p, k_, paired.data());
    const double* pairs = paired.data();
    for (std::size_t i = 0; i < n; ++i) {
      hooks.poll_interrupt(static_cast<std::size_t>(k_) * p);
      double* r = streamed ? line : base_ + i * stride_;
      const double* xi = x.col(i).data();
      for (int j = 0; j + 1 < k_; j += 2) sq_distance_pair(xi, pairs + j * p, p, r[j], r[j + 1]);
      if (k_ % 2 == 1) r[k_ - 1] = sq_distance(xi, m.col(k_ - 1).data(), p);
      // the nearest (first on ties) and the second smallest distance,
      // without branches (their outcome is random from point to point)
      double b1 = r[0], b2 = std::numeric_limits<double>::infinity();
      int b = 0;
      for (int j = 1; j < k_; ++j) {
        const double v = r[j];
        b2 = std::min(b2, std::max(v, b1));
        b = v < b1 ? j : b;
        b1 = std::min(v, b1);
      }
      r[k_] = b1;
      r[k_ + 1] = k_ > 1 ? b2 : 0.0;
      const int zi = z[i];
      set_slot(r, b, zi);
      if (zi >= 0) assigned_sum_ += r[zi];
      if (streamed) stream_line(base_ + i * stride_, line);
    }
    if (streamed) stream_fence();
  }

  // sum_i dist(i, z_i) for the z given to the last refresh().
  double assigned_sum() const { return assigned_sum_; }

  SIDECLUST_FORCE_INLINE const double* record(int i) const { return base_ + static_cast<std::size_t>(i) * stride_; }
  SIDECLUST_FORCE_INLINE double dist(int i, int j) const { return record(i)[j]; }
  // The cluster of point i (-1: unassigned), as the records hold it.
  SIDECLUST_FORCE_INLINE int cluster(int i) const { return slot(record(i), 1); }
  void set_cluster(int i, int c) {
    double* r = base_ + static_cast<std::size_t>(i) * stride_;
    set_slot(r, slot(r, 0), c);
  }
  // The squared distance of point i to the centre j != u nearest to it (0
  // when k = 1).
  SIDECLUST_FORCE_INLINE double alternative_dist(int i, int u) const {
    const double* r = record(i);
    return slot(r, 0) == u ? r[k_ + 1] : r[k_];
  }
  // That centre: the first of the nearest on ties (-1 when k = 1).
  int alternative(int i, int u) const {
    const double* r = record(i);
    int j = -1;
    for (int t = 0; t < k_; ++t) {
      if (t != u && (j < 0 || r[t] < r[j])) j = t;
    }
    return j;
  }

 private:
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
};

// The alternative (r, j) a broken cannot-link (a, b) in cluster u is charged:
// the pair's point closest to another centre, first point on ties.
struct Alternative {
  int r, j;
  double d;
};
inline Alternative cannot_alternative(const CentreDistances& cd, int a, int b, int u) {
  const double da = cd.alternative_dist(a, u), db = cd.alternative_dist(b, u);
  if (da <= db) return {a, cd.alternative(a, u), da};
  return {b, cd.alternative(b, u), db};
}

// The penalty part of L, with cd refreshed at the centres and `broken` the
// broken pairs under z.
inline double penalty_part(const PairGraph& g, const std::vector<int>& z, const CentreDistances& cd,
                           const std::vector<int>& broken) {
  double penalty = 0.0;
  auto fetch = [&](int a, int b) {
    prefetch(cd.record(a));
    prefetch(cd.record(b));
    prefetch(&z[a]);
    prefetch(&z[b]);
  };
  for_each_pair_ahead(broken, g, fetch, [&](int l) {
    const int a = g.first[l], b = g.second[l], u = z[a], v = z[b];
    const double w = g.magnitude(l);
    if (g.must(l)) {
      penalty += 0.5 * w * (cd.dist(a, v) + cd.dist(b, u));
    } else {
      penalty += 0.5 * w * cannot_alternative(cd, a, b, u).d;
    }
  });
  return penalty;
}

// L as its two parts (see penalty_part()).
inline void objective_parts(const PairGraph& g, const std::vector<int>& z, const CentreDistances& cd,
                            const std::vector<int>& broken, double& within, double& penalty) {
  within = 0.0;
  const int n = static_cast<int>(z.size());
  for (int i = 0; i < n; ++i) within += cd.dist(i, z[i]);
  within *= 0.5;
  penalty = penalty_part(g, z, cd, broken);
}

}  // namespace lcvqe_detail

// One run from given centres.
class LcvqeRun {
 public:
  LcvqeRun(const Eigen::Ref<const Eigen::MatrixXd>& x, const PairGraph& pairs,
           const LcvqeParams& par, RunHooks& hooks)
      : x_(x), pairs_(pairs), par_(par), n_(static_cast<int>(x.cols())) {
    if (!pairs.empty() && pairs.n != n_) throw std::invalid_argument("pairs are over another number of points");
    scale_ = 1.0 + (x.size() > 0 ? x.cwiseAbs().maxCoeff() : 0.0);
    if (par.group_moves) must_link_components();  // only component moves use them
    edge_pair_ = edge_pairs(pairs, hooks);
    // tag: the partner's must-link component (-1: none), read by move_components()
    edges_ = pack_edges(pairs, [&](int e) {
      return PackedEdge{pairs.nbr[e], comp_.empty() ? -1 : comp_[pairs.nbr[e]], pairs.weight[e]};
    });
  }

  LcvqeResult run(Eigen::MatrixXd m, RunHooks& hooks) const {
    const int k = static_cast<int>(m.cols());
    LcvqeResult res;
    std::vector<int> z(n_, -1), order(n_);
    lcvqe_detail::CentreDistances cd;  // its buffer and `broken` are reused by every iteration
    BrokenPairs status(pairs_, edge_pair_);
    std::vector<int> broken;
    LastParts last;  // L's parts at the last refresh: the z and centres run() ends with
    SweepSums sums;  // kept up to date as points move, see assign()
    sums.reset(m.rows(), k);
    cd.refresh(x_, m, hooks, z);
    for (int iter = 1; iter <= par_.max_iter; ++iter) {
      if (par_.random_order) {
        blocked_random_order(order, n_, hooks);
      } else {
        for (int i = 0; i < n_; ++i) order[i] = i;
      }
      int changed = assign(m, cd, order, z, status, sums, hooks);
      if (par_.group_moves) changed += move_components(m, cd, z, status, sums, hooks);
      status.list(broken);
      const double moved = update_centres(z, cd, broken, sums, m);
      cd.refresh(x_, m, hooks, z);
      const double within = 0.5 * cd.assigned_sum();
      const double penalty = lcvqe_detail::penalty_part(pairs_, z, cd, broken);
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
    finish(z, m, status, last, res, hooks);
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
  int assign(const Eigen::MatrixXd& m, lcvqe_detail::CentreDistances& cd,
             const std::vector<int>& order, std::vector<int>& z, BrokenPairs& status,
             SweepSums& sums, RunHooks& hooks) const {
    const int k = static_cast<int>(m.cols());
    const bool has_pairs = !pairs_.empty();
    std::vector<double> cost(k);
    int changed = 0;
    const std::size_t n = order.size();
    const PackedEdge* edges = edges_.data();
    const SweepLookahead ahead(order, pairs_.start, edges);
    for (std::size_t t = 0; t < n; ++t) {
      ahead.step(
          t,
          [&](int f) { prefetch(cd.record(f)); },
          [&](int o, int) { prefetch(cd.record(o)); });  // the records hold the clusters
      const int i = order[t];
      const int first = has_pairs ? pairs_.start[i] : 0, last = has_pairs ? pairs_.start[i + 1] : 0;
      hooks.poll_interrupt(static_cast<std::size_t>(k) * (x_.rows() + last - first));
      const double* own = cd.record(i);
      for (int j = 0; j < k; ++j) cost[j] = 0.5 * own[j];
      for (int e = first; e < last; ++e) {
        const int o = edges[e].nbr, zo = cd.cluster(o);
        if (zo < 0) continue;
        const double w = edges[e].value;
        const double half = 0.5 * std::abs(w);
        if (!std::signbit(w)) {
          // broken unless i joins zo: i pays its distance to c_zo, o its
          // distance to i's centre
          // (adding 0 to cost[zo] keeps the loop free of branches)
          const double* other = cd.record(o);
          const double mine = own[zo];
          for (int u = 0; u < k; ++u) cost[u] += u != zo ? half * (mine + other[u]) : 0.0;
        } else {
          cost[zo] += half * std::min(cd.alternative_dist(i, zo), cd.alternative_dist(o, zo));
        }
      }
      int best = 0;
      double best_cost = cost[0];  // in a register: no load chained on `best`
      for (int j = 1; j < k; ++j) {
        if (cost[j] < best_cost) {
          best_cost = cost[j];
          best = j;
        }
      }
      const int zi = cd.cluster(i);
      if (zi < 0 || cost[best] < cost[zi]) {
        if (zi < 0) {
          sums.add(best, x_.col(i).data());
        } else {
          sums.move(zi, best, x_.col(i).data());
        }
        z[i] = best;
        cd.set_cluster(i, best);
        ++changed;
        for (int e = first; e < last; ++e) status.update(e, best, cd.cluster(edges[e].nbr));
      }
    }
    return changed;
  }

  // The must-link components of two or more points (union-find over the
  // must-links), as lists of points.
  void must_link_components() {
    if (pairs_.empty()) return;
    UnionFind sets(static_cast<std::size_t>(n_));
    for (std::size_t l = 0; l < pairs_.n_pairs(); ++l) {
      if (pairs_.must(l)) sets.unite(pairs_.first[l], pairs_.second[l]);
    }
    comp_.assign(n_, -1);
    std::vector<int> id(n_, -1);
    int count = 0;
    for (int i = 0; i < n_; ++i) {
      const std::size_t r = sets.find(i);
      if (sets.set_size(r) < 2) continue;
      if (id[r] < 0) id[r] = count++;
      comp_[i] = id[r];
    }
    comp_start_.assign(count + 1, 0);
    for (int i = 0; i < n_; ++i) {
      if (comp_[i] >= 0) ++comp_start_[comp_[i] + 1];
    }
    for (int g = 0; g < count; ++g) comp_start_[g + 1] += comp_start_[g];
    comp_members_.resize(comp_start_[count]);
    std::vector<int> fill(comp_start_.begin(), comp_start_.end() - 1);
    for (int i = 0; i < n_; ++i) {
      if (comp_[i] >= 0) comp_members_[fill[comp_[i]]++] = i;
    }
  }

  // Whole must-link components in turn move to the cluster u minimizing L
  // (centres and all other points fixed) when that is strictly cheaper: a
  // single-point move breaks must-links and rarely pays, so without these
  // moves a component split by the seeds stays split. The terms that change
  // are the members' own, the must-links inside (all kept in u) and the
  // cannot-links touching the component. Returns the points moved.
  int move_components(const Eigen::MatrixXd& m, lcvqe_detail::CentreDistances& cd,
                      std::vector<int>& z, BrokenPairs& status, SweepSums& sums,
                      RunHooks& hooks) const {
    if (comp_start_.empty()) return 0;
    const int k = static_cast<int>(m.cols());
    const int count = static_cast<int>(comp_start_.size()) - 1;
    std::vector<double> cost(k);
    int moved = 0;
    // The members of all components in turn, as one sequence for the
    // look-ahead (they lie scattered through memory).
    const PackedEdge* edges = edges_.data();
    const SweepLookahead ahead(comp_members_, pairs_.start, edges);
    auto own_ahead = [&](int f) {
      prefetch(cd.record(f));
      prefetch(&z[f]);
    };
    auto partner_ahead = [&](int o, int) {
      prefetch(cd.record(o));
      prefetch(&z[o]);
    };
    for (int g = 0; g < count; ++g) {
      double current = 0.0;
      std::fill(cost.begin(), cost.end(), 0.0);
      for (int t = comp_start_[g]; t < comp_start_[g + 1]; ++t) {
        ahead.step(static_cast<std::size_t>(t), own_ahead, partner_ahead);
        const int i = comp_members_[t];
        hooks.poll_interrupt(static_cast<std::size_t>(k) * (1 + pairs_.start[i + 1] - pairs_.start[i]));
        current += 0.5 * cd.dist(i, z[i]);
        for (int u = 0; u < k; ++u) cost[u] += 0.5 * cd.dist(i, u);
        for (int e = pairs_.start[i]; e < pairs_.start[i + 1]; ++e) {
          const int o = edges[e].nbr;
          const bool inside = edges[e].tag == g;  // comp_[o], packed
          if (inside && o < i) continue;  // each inside pair once
          const double w = edges[e].value;
          const double half = 0.5 * std::abs(w);
          if (!std::signbit(w)) {  // must-links never leave a component
            if (z[i] != z[o]) current += half * (cd.dist(i, z[o]) + cd.dist(o, z[i]));
            continue;
          }
          if (z[i] == z[o]) {
            current += half * std::min(cd.alternative_dist(i, z[i]), cd.alternative_dist(o, z[i]));
          }
          for (int u = 0; u < k; ++u) {
            if (inside || u == z[o]) {
              cost[u] += half * std::min(cd.alternative_dist(i, u), cd.alternative_dist(o, u));
            }
          }
        }
      }
      int best = 0;
      for (int u = 1; u < k; ++u) {
        if (cost[u] < cost[best]) best = u;
      }
      if (!(cost[best] < current - 1e-12 * (1.0 + current))) continue;
      for (int t = comp_start_[g]; t < comp_start_[g + 1]; ++t) {
        const int i = comp_members_[t];
        if (z[i] != best) {
          sums.move(z[i], best, x_.col(i).data());
          z[i] = best;
          cd.set_cluster(i, best);
          ++moved;
          status.update_point(i, z);
        }
      }
    }
    return moved;
  }

  // The exact minimizer of L in the centres with z and, for every broken
  // cannot-link, its alternative (r, j) at the current centres fixed:
  // c_j = (sum_{z_i = j} x_i + pulls w x) / (n_j + pull weights), the
  // clusters' sums and sizes from `sums`. A cluster of zero weight keeps its
  // centre. Returns the largest coordinate move.
  double update_centres(const std::vector<int>& z, const lcvqe_detail::CentreDistances& cd,
                        const std::vector<int>& broken, const SweepSums& sums, Eigen::MatrixXd& m) const {
    const int k = static_cast<int>(m.cols());
    Eigen::MatrixXd sum = sums.sum;
    std::vector<double> weight = sums.count;
    const Eigen::Index p = x_.rows();
    auto fetch = [&](int a, int b) {
      for (const int i : {a, b}) {
        prefetch(&z[i]);
        prefetch(cd.record(i));
        prefetch(x_.col(i).data());
        prefetch(x_.col(i).data() + (p - 1));
      }
    };
    for_each_pair_ahead(broken, pairs_, fetch, [&](int l) {
      const int a = pairs_.first[l], b = pairs_.second[l], u = z[a], v = z[b];
      const double w = pairs_.magnitude(l);
      if (pairs_.must(l)) {
        sum.col(v) += w * x_.col(a);  // w/2 ||x_a - c_zb||^2
        weight[v] += w;
        sum.col(u) += w * x_.col(b);
        weight[u] += w;
      } else if (k > 1) {
        const lcvqe_detail::Alternative alt = lcvqe_detail::cannot_alternative(cd, a, b, u);
        sum.col(alt.j) += w * x_.col(alt.r);
        weight[alt.j] += w;
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

  struct LastParts {
    double within = 0.0, penalty = 0.0;
  };

  // Drop empty clusters (numbering the others consecutively, in order) and
  // compute the final L over the centres kept. With none dropped that is the
  // L of the last iteration (`last`, at the same centres and assignment, by
  // the same sums), which spares a pass over all points and the records'
  // memory.
  void finish(std::vector<int>& z, const Eigen::MatrixXd& m, const BrokenPairs& status,
              const LastParts& last, LcvqeResult& res, RunHooks& hooks) const {
    const int k = static_cast<int>(m.cols());
    std::vector<int> map(k, -1);
    for (int v : z) map[v] = 0;
    int kept = 0;
    for (int j = 0; j < k; ++j) {
      if (map[j] == 0) map[j] = kept++;
    }
    res.centres.resize(m.rows(), kept);
    for (int j = 0; j < k; ++j) {
      if (map[j] >= 0) res.centres.col(map[j]) = m.col(j);
    }
    for (int& v : z) v = map[v];
    res.cluster = z;
    res.k = kept;
    if (kept == k && !res.objective.empty()) {
      res.within = last.within;
      res.penalty = last.penalty;
      return;
    }
    lcvqe_detail::CentreDistances cd;
    cd.refresh(x_, res.centres, hooks, res.cluster);
    std::vector<int> broken;  // renumbering keeps every pair's status
    status.list(broken);
    lcvqe_detail::objective_parts(pairs_, res.cluster, cd, broken, res.within, res.penalty);
    if (!res.objective.empty()) res.objective.back() = res.within + res.penalty;
  }

  const Eigen::Ref<const Eigen::MatrixXd> x_;
  const PairGraph& pairs_;
  const LcvqeParams& par_;
  int n_;
  double scale_ = 1.0;
  std::vector<int> comp_, comp_start_, comp_members_;  // must-link components (comp_ -1: none)
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
