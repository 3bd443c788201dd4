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
#include <limits>
#include <stdexcept>
#include <vector>

#include "common/run_hooks.h"
#include "common/seeding.h"
#include "common/side_graph.h"
#include "common/union_find.h"
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

// Squared distances of the constrained points to every centre, with each
// point's nearest and second nearest centre: what the penalties read, at
// O(constrained points * k * p) per refresh instead of O(k p) per pair.
class PairDistances {
 public:
  PairDistances(const PairGraph& g, int n) : slot_(n, -1) {
    if (g.empty()) return;
    for (int i = 0; i < n; ++i) {
      if (g.start[i + 1] > g.start[i]) {
        slot_[i] = static_cast<int>(points_.size());
        points_.push_back(i);
      }
    }
  }

  void refresh(const Eigen::Ref<const Eigen::MatrixXd>& x, const Eigen::MatrixXd& m, RunHooks& hooks) {
    const int k = static_cast<int>(m.cols()), nc = static_cast<int>(points_.size());
    d_.resize(k, nc);
    best_.assign(nc, 0);
    second_.assign(nc, -1);
    for (int s = 0; s < nc; ++s) {
      hooks.poll_interrupt(static_cast<std::size_t>(k) * x.rows());
      for (int j = 0; j < k; ++j) d_(j, s) = (x.col(points_[s]) - m.col(j)).squaredNorm();
      int b = 0, c = -1;
      for (int j = 1; j < k; ++j) {
        if (d_(j, s) < d_(b, s)) {
          c = b;
          b = j;
        } else if (c < 0 || d_(j, s) < d_(c, s)) {
          c = j;
        }
      }
      best_[s] = b;
      second_[s] = c;
    }
  }

  int slot(int i) const { return slot_[i]; }
  double dist(int s, int j) const { return d_(j, s); }
  const double* column(int s) const { return d_.data() + static_cast<Eigen::Index>(s) * d_.rows(); }
  // The centre j != u nearest to constrained point s (-1 when k = 1).
  int alternative(int s, int u) const { return best_[s] == u ? second_[s] : best_[s]; }
  double alternative_dist(int s, int u) const {
    const int j = alternative(s, u);
    return j < 0 ? 0.0 : d_(j, s);
  }

 private:
  std::vector<int> slot_, points_;
  Eigen::MatrixXd d_;
  std::vector<int> best_, second_;
};

// The alternative (r, j) a broken cannot-link (a, b) in cluster u is charged:
// the pair's point closest to another centre, first point on ties.
struct Alternative {
  int r, j;
  double d;
};
inline Alternative cannot_alternative(const PairDistances& pd, int a, int b, int u) {
  const int sa = pd.slot(a), sb = pd.slot(b);
  const double da = pd.alternative_dist(sa, u), db = pd.alternative_dist(sb, u);
  if (da <= db) return {a, pd.alternative(sa, u), da};
  return {b, pd.alternative(sb, u), db};
}

// L as its two parts, with pd refreshed at m.
inline void objective_parts(const Eigen::Ref<const Eigen::MatrixXd>& x, const PairGraph& g,
                            const std::vector<int>& z, const Eigen::MatrixXd& m,
                            const PairDistances& pd, double& within, double& penalty) {
  within = 0.0;
  for (Eigen::Index i = 0; i < x.cols(); ++i) within += (x.col(i) - m.col(z[i])).squaredNorm();
  within *= 0.5;
  penalty = 0.0;
  for (std::size_t l = 0; l < g.n_pairs(); ++l) {
    const int a = g.first[l], b = g.second[l], u = z[a], v = z[b];
    const double w = g.magnitude(l);
    if (g.must(l)) {
      if (u != v) penalty += 0.5 * w * (pd.dist(pd.slot(a), v) + pd.dist(pd.slot(b), u));
    } else if (u == v) {
      penalty += 0.5 * w * cannot_alternative(pd, a, b, u).d;
    }
  }
}

}  // namespace lcvqe_detail

// One run from given centres.
class LcvqeRun {
 public:
  LcvqeRun(const Eigen::Ref<const Eigen::MatrixXd>& x, const PairGraph& pairs,
           const LcvqeParams& par)
      : x_(x), pairs_(pairs), par_(par), n_(static_cast<int>(x.cols())) {
    if (!pairs.empty() && pairs.n != n_) throw std::invalid_argument("pairs are over another number of points");
    scale_ = 1.0 + (x.size() > 0 ? x.cwiseAbs().maxCoeff() : 0.0);
    must_link_components();
  }

  LcvqeResult run(Eigen::MatrixXd m, RunHooks& hooks) const {
    const int k = static_cast<int>(m.cols());
    LcvqeResult res;
    std::vector<int> z(n_, -1), order(n_);
    lcvqe_detail::PairDistances pd(pairs_, n_);
    pd.refresh(x_, m, hooks);
    for (int iter = 1; iter <= par_.max_iter; ++iter) {
      if (par_.random_order) {
        blocked_random_order(order, n_, hooks);
      } else {
        for (int i = 0; i < n_; ++i) order[i] = i;
      }
      int changed = assign(m, pd, order, z, hooks);
      if (par_.group_moves) changed += move_components(m, pd, z, hooks);
      const double moved = update_centres(z, pd, m);
      pd.refresh(x_, m, hooks);
      double within, penalty;
      lcvqe_detail::objective_parts(x_, pairs_, z, m, pd, within, penalty);
      res.objective.push_back(within + penalty);
      res.iterations = iter;
      hooks.check_interrupt();
      hooks.on_sweep(iter, k, within + penalty);
      if (changed == 0 && moved <= par_.tol * scale_) {
        res.converged = true;
        break;
      }
    }
    finish(z, m, res, hooks);
    return res;
  }

 private:
  // Iterated conditional modes with the centres fixed: every point in turn
  // moves to the cluster minimizing L given the others' clusters, when that
  // is strictly cheaper than its own (partners not yet assigned, in the first
  // step, are ignored). O(k (p + d)) for a point with d constraints. Returns
  // the number of points that changed cluster.
  int assign(const Eigen::MatrixXd& m, const lcvqe_detail::PairDistances& pd,
             const std::vector<int>& order, std::vector<int>& z, RunHooks& hooks) const {
    const int k = static_cast<int>(m.cols());
    std::vector<double> cost(k), own(k);
    int changed = 0;
    for (const int i : order) {
      const int si = pairs_.empty() ? -1 : pd.slot(i);
      const int deg = si < 0 ? 0 : pairs_.start[i + 1] - pairs_.start[i];
      hooks.poll_interrupt(static_cast<std::size_t>(k) * (x_.rows() + deg));
      if (si >= 0) {
        const double* d = pd.column(si);
        own.assign(d, d + k);
      } else {
        for (int j = 0; j < k; ++j) own[j] = (x_.col(i) - m.col(j)).squaredNorm();
      }
      for (int j = 0; j < k; ++j) cost[j] = 0.5 * own[j];
      for (int e = si < 0 ? 0 : pairs_.start[i]; si >= 0 && e < pairs_.start[i + 1]; ++e) {
        const int o = pairs_.nbr[e], zo = z[o];
        if (zo < 0) continue;
        const double half = 0.5 * std::abs(pairs_.weight[e]);
        if (!std::signbit(pairs_.weight[e])) {
          // broken unless i joins zo: i pays its distance to c_zo, o its
          // distance to i's centre
          const int so = pd.slot(o);
          for (int u = 0; u < k; ++u) {
            if (u != zo) cost[u] += half * (own[zo] + pd.dist(so, u));
          }
        } else {
          cost[zo] += half * std::min(pd.alternative_dist(si, zo), pd.alternative_dist(pd.slot(o), zo));
        }
      }
      int best = 0;
      for (int j = 1; j < k; ++j) {
        if (cost[j] < cost[best]) best = j;
      }
      if (z[i] < 0 || cost[best] < cost[z[i]]) {
        z[i] = best;
        ++changed;
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
  int move_components(const Eigen::MatrixXd& m, const lcvqe_detail::PairDistances& pd,
                      std::vector<int>& z, RunHooks& hooks) const {
    if (comp_start_.empty()) return 0;
    const int k = static_cast<int>(m.cols());
    const int count = static_cast<int>(comp_start_.size()) - 1;
    std::vector<double> cost(k);
    int moved = 0;
    for (int g = 0; g < count; ++g) {
      double current = 0.0;
      std::fill(cost.begin(), cost.end(), 0.0);
      for (int t = comp_start_[g]; t < comp_start_[g + 1]; ++t) {
        const int i = comp_members_[t], si = pd.slot(i);
        hooks.poll_interrupt(static_cast<std::size_t>(k) * (1 + pairs_.start[i + 1] - pairs_.start[i]));
        current += 0.5 * pd.dist(si, z[i]);
        for (int u = 0; u < k; ++u) cost[u] += 0.5 * pd.dist(si, u);
        for (int e = pairs_.start[i]; e < pairs_.start[i + 1]; ++e) {
          const int o = pairs_.nbr[e], so = pd.slot(o);
          const bool inside = comp_[o] == g;
          if (inside && o < i) continue;  // each inside pair once
          const double half = 0.5 * std::abs(pairs_.weight[e]);
          if (!std::signbit(pairs_.weight[e])) {  // must-links never leave a component
            if (z[i] != z[o]) current += half * (pd.dist(si, z[o]) + pd.dist(so, z[i]));
            continue;
          }
          if (z[i] == z[o]) {
            current += half * std::min(pd.alternative_dist(si, z[i]), pd.alternative_dist(so, z[i]));
          }
          for (int u = 0; u < k; ++u) {
            if (inside || u == z[o]) {
              cost[u] += half * std::min(pd.alternative_dist(si, u), pd.alternative_dist(so, u));
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
        int& zi = z[comp_members_[t]];
        if (zi != best) {
          zi = best;
          ++moved;
        }
      }
    }
    return moved;
  }

  // The exact minimizer of L in the centres with z and, for every broken
  // cannot-link, its alternative (r, j) at the current centres fixed:
  // c_j = (sum_{z_i = j} x_i + pulls w x) / (n_j + pull weights). A cluster
  // of zero weight keeps its centre. Returns the largest coordinate move.
  double update_centres(const std::vector<int>& z, const lcvqe_detail::PairDistances& pd,
                        Eigen::MatrixXd& m) const {
    const int k = static_cast<int>(m.cols());
    Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(m.rows(), k);
    std::vector<double> weight(k, 0.0);
    for (int i = 0; i < n_; ++i) {
      sum.col(z[i]) += x_.col(i);
      weight[z[i]] += 1.0;
    }
    for (std::size_t l = 0; l < pairs_.n_pairs(); ++l) {
      const int a = pairs_.first[l], b = pairs_.second[l], u = z[a], v = z[b];
      const double w = pairs_.magnitude(l);
      if (pairs_.must(l)) {
        if (u == v) continue;
        sum.col(v) += w * x_.col(a);  // w/2 ||x_a - c_zb||^2
        weight[v] += w;
        sum.col(u) += w * x_.col(b);
        weight[u] += w;
      } else if (u == v && k > 1) {
        const lcvqe_detail::Alternative alt = lcvqe_detail::cannot_alternative(pd, a, b, u);
        sum.col(alt.j) += w * x_.col(alt.r);
        weight[alt.j] += w;
      }
    }
    double moved = 0.0;
    for (int j = 0; j < k; ++j) {
      if (!(weight[j] > 0)) continue;
      const Eigen::VectorXd next = sum.col(j) / weight[j];
      moved = std::max(moved, (next - m.col(j)).cwiseAbs().maxCoeff());
      m.col(j) = next;
    }
    return moved;
  }

  // Drop empty clusters (numbering the others consecutively, in order) and
  // compute the final L over the centres kept.
  void finish(std::vector<int>& z, const Eigen::MatrixXd& m, LcvqeResult& res, RunHooks& hooks) const {
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
    lcvqe_detail::PairDistances pd(pairs_, n_);
    pd.refresh(x_, res.centres, hooks);
    lcvqe_detail::objective_parts(x_, pairs_, res.cluster, res.centres, pd, res.within, res.penalty);
    if (!res.objective.empty()) res.objective.back() = res.within + res.penalty;
  }

  const Eigen::Ref<const Eigen::MatrixXd> x_;
  const PairGraph& pairs_;
  const LcvqeParams& par_;
  int n_;
  double scale_ = 1.0;
  std::vector<int> comp_, comp_start_, comp_members_;  // must-link components (comp_ -1: none)
};

// The best (lowest final L) of par.restarts runs, or one run from par.start.
inline LcvqeResult lcvqe_fit(const Eigen::Ref<const Eigen::MatrixXd>& x, const PairGraph& pairs,
                             const LcvqeParams& par, RunHooks& hooks) {
  if (par.k < 1 || par.k > x.cols()) throw std::invalid_argument("k out of range");
  const LcvqeRun runner(x, pairs, par);
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
