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

#include "engine/force_inline.h"
#include "engine/huge_pages.h"
#include "engine/prefetch.h"
#include "common/prototype_params.h"
#include "common/run_hooks.h"
#include "common/seeding.h"
#include "common/side_graph.h"
#include "common/union_find.h"
#include "pairwise/lcvqe_costs.h"
#include "pairwise/lcvqe_records.h"
#include "pairwise/pair_sweeps.h"
#include "engine/sq_distance.h"
#include "engine/visit_order.h"

namespace sideclust {

struct LcvqeParams : PrototypeParams {
  SeedInit init = SeedInit::kmeanspp;  // SeedInit::start: from `start`
  bool random_order = true;      // visit the points in a fresh random order every sweep
  bool group_moves = true;       // after each point sweep, whole must-link components move too
  double tol = 1e-12;            // centres moving at most tol * scale are unchanged
  bool use_avx = true;           // four distances per instruction where the processor has AVX (same values)
  int threads = 1;               // 2: the distance records refreshed on two threads at scale (same values)
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

// The alternative (r, j) a broken cannot-link (a, b) in cluster u is charged:
// the pair's point closest to another centre, first point on ties.
struct Alternative {
  int r, j;
  double d;
};
SIDECLUST_FORCE_INLINE Alternative cannot_alternative(const CentreDistances& cd, int a, int b, int u) {
  const double da = cd.alternative_dist(a, u), db = cd.alternative_dist(b, u);
  if (da <= db) return {a, cd.alternative(a, u), da};
  return {b, cd.alternative(b, u), db};
}

// cannot_alternative()'s point r and distance d alone (no search for j).
SIDECLUST_FORCE_INLINE int cannot_charged(const CentreDistances& cd, int a, int b, int u) {
  return cd.alternative_dist(a, u) <= cd.alternative_dist(b, u) ? a : b;
}
SIDECLUST_FORCE_INLINE double cannot_charge(const CentreDistances& cd, int a, int b, int u) {
  const double da = cd.alternative_dist(a, u), db = cd.alternative_dist(b, u);
  return da <= db ? da : db;
}

// Runs body(l) for every l in `broken` (pairs of g), with the records of
// both points of a pair prefetched 2 kAhead pairs ahead and, kAhead pairs
// ahead, whatever else fetch(a, b) asks for once the records are cached
// (the records hold the clusters, which decide what the body reads).
template <class Fetch, class Body>
void for_each_broken_pair(const std::vector<int>& broken, const PairGraph& g, const CentreDistances& cd,
                          Fetch&& fetch, Body&& body) {
  constexpr std::size_t kAhead = 16;
  const std::size_t count = broken.size();
  for (std::size_t t = 0; t < count; ++t) {
    if (t + 2 * kAhead < count) {
      const int l = broken[t + 2 * kAhead];
      cd.prefetch_record(g.first[l]);
      cd.prefetch_record(g.second[l]);
    }
    if (t + kAhead < count) {
      const int l = broken[t + kAhead];
      fetch(l, g.first[l], g.second[l]);
    }
    body(broken[t]);
  }
}

// The penalty part of L, with cd refreshed at the centres (its records
// holding the clusters) and `broken` the broken pairs.
inline double penalty_part(const PairGraph& g, const CentreDistances& cd, const std::vector<int>& broken) {
  double penalty = 0.0;
  for_each_broken_pair(broken, g, cd, [](int, int, int) {}, [&](int l) {
    const int a = g.first[l], b = g.second[l], u = cd.cluster(a), v = cd.cluster(b);
    const double w = g.magnitude(l);
    if (g.must(l)) {
      penalty += 0.5 * w * (cd.dist(a, v) + cd.dist(b, u));
    } else {
      penalty += 0.5 * w * cannot_charge(cd, a, b, u);
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
  penalty = penalty_part(g, cd, broken);
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
    if (!pairs.empty()) edges_.resize(edges_.size() + 4, PackedEdge{0, -1, 0.0});
  }

  LcvqeResult run(Eigen::MatrixXd m, RunHooks& hooks) const {
    const int k = static_cast<int>(m.cols());
    LcvqeResult res;
    std::vector<int> z(n_, -1);
    // storage order, or a fresh random order each sweep in blocks of
    // consecutive points at scale (VisitOrder)
    VisitOrder visit(n_, par_.random_order ? VisitKind::random : VisitKind::fixed, hooks);
    lcvqe_detail::CentreDistances cd;  // its buffer and `broken` are reused by every iteration
    BrokenPairs status(pairs_, edge_pair_);
    std::vector<int> broken;
    LastParts last;  // L's parts at the last refresh: the z and centres run() ends with
    SweepSums sums;  // kept up to date as points move, see assign()
    sums.reset(m.rows(), k);
    cd.refresh(x_, m, hooks, z, par_.use_avx, par_.threads);
    for (int iter = 1; iter <= par_.max_iter; ++iter) {
      visit.next_sweep(hooks);
      int changed = assign(m, cd, visit.order(), z, status, sums, hooks, iter == 1);
      if (par_.group_moves) changed += move_components(m, cd, z, status, sums, hooks);
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
             SweepSums& sums, RunHooks& hooks, bool first_sweep) const {
    switch (m.cols()) {
      case 2: return assign_k<2>(m, cd, order, z, status, sums, hooks, first_sweep);
      case 3: return assign_k<3>(m, cd, order, z, status, sums, hooks, first_sweep);
      case 4: return assign_k<4>(m, cd, order, z, status, sums, hooks, first_sweep);
      case 5: return assign_k<5>(m, cd, order, z, status, sums, hooks, first_sweep);
      case 6: return assign_k<6>(m, cd, order, z, status, sums, hooks, first_sweep);
      default: return assign_k<0>(m, cd, order, z, status, sums, hooks, first_sweep);
    }
  }

  template <int K>
  int assign_k(const Eigen::MatrixXd& m, lcvqe_detail::CentreDistances& cd,
               const std::vector<int>& order, std::vector<int>& z, BrokenPairs& status,
               SweepSums& sums, RunHooks& hooks, bool first_sweep) const {
    const int k = K > 0 ? K : static_cast<int>(m.cols());
    const bool has_pairs = !pairs_.empty();
    // K (2 .. 6, else 0: any k, one cluster at a time) known when compiled:
    // the costs two clusters at a time (LaneCosts), with room for a padding
    // lane
    double cost_fixed[K > 0 ? K + 1 : 1];
    std::vector<double> cost_dyn(K > 0 ? 0 : k);
    double* cost = K > 0 ? cost_fixed : cost_dyn.data();
#if defined(SIDECLUST_HAS_LANES2)
    const lcvqe_detail::LaneCosts<K> lanes;
#endif
    int changed = 0;
    const std::size_t n = order.size();
    const PackedEdge* edges = edges_.data();
    constexpr std::size_t kStage = SweepLookahead::kStage;
    for (std::size_t t = 0; t < n; ++t) {
      // Loads issued ahead in three stages (as SweepLookahead does), with
      // a fixed number of partners per point (the first 4 entries from its
      // own, read past its end into the next point's or the padding):
      // branches on each point's number of constraints were mispredicted
      // about once a point. A point with more partners waits for the rest.
      if (t + 3 * kStage < n) {
        const int f = order[t + 3 * kStage];
        cd.prefetch_record(f);
        if (has_pairs) prefetch(&pairs_.start[f]);
        if (first_sweep) {  // every point moves, reading its coordinates
          prefetch(x_.col(f).data());
          prefetch(x_.col(f).data() + (x_.rows() - 1));
        }
      }
      if (has_pairs) {
        if (t + 2 * kStage < n) {
          const PackedEdge* a = edges + pairs_.start[order[t + 2 * kStage]];
          prefetch(a);
          prefetch(a + 3);
        }
        if (t + kStage < n) {
          const PackedEdge* a = edges + pairs_.start[order[t + kStage]];
          for (int q = 0; q < 4; ++q) cd.prefetch_record(a[q].nbr);
        }
      }
      const int i = order[t];
      const int first = has_pairs ? pairs_.start[i] : 0, last = has_pairs ? pairs_.start[i + 1] : 0;
      hooks.poll_interrupt(static_cast<std::size_t>(k) * (x_.rows() + last - first));
      const double* own = cd.record(i);
#if defined(SIDECLUST_HAS_LANES2)
      if (K > 1) {
        lanes.costs(cd, own, edges, first, last, cost);
      } else
#endif
      {
        for (int j = 0; j < k; ++j) cost[j] = 0.5 * own[j];
        for (int e = first; e < last; ++e) {
          const double* other = cd.record(edges[e].nbr);
          const int zo = cd.cluster_in(other);
          if (zo < 0) continue;
          // A must-link is broken unless i joins zo: i pays its distance to
          // c_zo, o its distance to i's centre; a cannot-link is broken if i
          // joins zo, charging the cheaper alternative. Without branches (the
          // kind of constraint and its partner's cluster are random from one
          // to the next): each term is multiplied by 1 or 0, so every cost
          // gets the sums of the branching form plus exact zeros.
          const double w = edges[e].value;
          const double half = 0.5 * std::abs(w);
          const double as_must = half * static_cast<double>(!std::signbit(w));  // half or 0
          const double as_cannot =
              (half - as_must) * lcvqe_detail::min_of(cd.alternative_in(own, zo), cd.alternative_in(other, zo));
          const double mine = own[zo];
          for (int u = 0; u < k; ++u) {
            const double at_zo = static_cast<double>(u == zo);
            cost[u] += (as_must * (mine + other[u])) * (1.0 - at_zo) + as_cannot * at_zo;
          }
        }
      }
      const int zi = cd.cluster_in(own);
      const int best = cheapest_or_stay(cost, k, zi);
      if (best != zi) {
        if (zi < 0) {
          sums.add(best, x_.col(i).data());
        } else {
          sums.move(zi, best, x_.col(i).data());
        }
        z[i] = best;
        cd.set_cluster(i, best);
        ++changed;
        for (int e = first; e < last; ++e) status.update(e, edges[e].value, best, cd.cluster(edges[e].nbr));
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
      cd.prefetch_record(f);
      prefetch(&z[f]);
    };
    auto partner_ahead = [&](int o, int) {
      cd.prefetch_record(o);
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
  double update_centres(const lcvqe_detail::CentreDistances& cd, const std::vector<int>& broken,
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
    auto fetch_point = [&](int i) {
      prefetch(x_.col(i).data());
      prefetch(x_.col(i).data() + (p - 1));
    };
    // the coordinates the body will read: both points' of a must-link, the
    // charged point's of a cannot-link
    auto fetch = [&](int l, int a, int b) {
      if (pairs_.must(l)) {
        fetch_point(a);
        fetch_point(b);
      } else if (k > 1) {
        fetch_point(lcvqe_detail::cannot_charged(cd, a, b, cd.cluster(a)));
      }
    };
    lcvqe_detail::for_each_broken_pair(broken, pairs_, cd, fetch, [&](int l) {
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
    cd.refresh(x_, res.centres, hooks, res.cluster, par_.use_avx, par_.threads);
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
