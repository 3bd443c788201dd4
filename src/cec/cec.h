// CEC and CEC-IB (Smieja & Geiger 2017, cost (10)) minimized by the
// Hartigan algorithm of their Section 3.4: greedy k-means++ seeding (or
// plain k-means++, a random partition, the paper's Algorithm 1, or random
// seed points), every point moved to the cluster with the largest cost
// decrease, clusters removed when they fall below eps * n points, below
// p + 2 points (p + 3 with small_sample) or become singular, and
// restarts keeping the lowest cost. Every cluster has its own Gaussian
// family (Tabor & Spurek 2014; see cec_cluster.h). Plain C++17 + Eigen; no R
// headers.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "cec/cec_cluster.h"
#include "common/run_hooks.h"
#include "common/seeding.h"
#include "common/side_graph.h"

namespace sideclust {

// How a run's initial partition is drawn when no start is given.
enum class CecInit { kmeanspp = 0, random_points = 1, random_partition = 2, greedy_kmeanspp = 3 };

// The fewest points a cluster may keep: eps * n (a cluster with fewer is
// removed; the 1e-9 absorbs the rounding of an eps given as count / n) and
// p + 2. CEC's card.min allows p + 1, the fewest with a non-singular
// covariance, but no point can leave such a cluster (the p left would be
// singular), and the cost draws it towards p + 1 points on a hyperplane, a
// covariance singular up to rounding. With small_sample p + 3, since its
// term is finite only above p + 2 points.
inline double cec_min_size(double eps, int n, int p, bool small_sample) {
  return std::max(std::ceil(eps * n - 1e-9), static_cast<double>(p + (small_sample ? 3 : 2)));
}

struct CecParams {
  int k = 1;
  CecInit init = CecInit::greedy_kmeanspp;
  CecType type = CecType::full;  // the family of every cluster when `families` is empty
  std::vector<CecFamily> families;  // one per initial cluster (size k), or empty
  double beta = 0.0;
  double eps = 0.05;
  int max_iter = 100;
  int restarts = 1;
  std::vector<int> start;  // 0-based initial clusters, or empty to draw by `init`
  Eigen::MatrixXd prior;   // p x p matrix added to every cluster's scatter, or empty
  bool small_sample = false;  // expected cross-entropy of an unseen point (see optimism())
  // Split mode (cec_split.h): after the run from k, clusters are split in two
  // while the cost falls, up to max_k clusters (0: no limit), each split
  // tried from split_tries local starts.
  bool split = false;
  int max_k = 0;
  int split_tries = 5;
  // Split mode: per family (initial cluster), the fall of the total cost a
  // split of one of its clusters must exceed, and the price of each cluster
  // when restarts are compared (the BIC penalty of a cluster's parameters
  // over 2n; see cec_split.h). Empty: 0, CEC's rule.
  std::vector<double> split_penalty;
};

// The penalty of the clusters of a result (split mode): the sum over its
// clusters of their family's split_penalty.
inline double cec_split_penalty(const CecParams& par, const std::vector<int>& origin) {
  double s = 0.0;
  if (par.split_penalty.empty()) return s;
  for (int o : origin) s += par.split_penalty[o];
  return s;
}

struct CecResult {
  std::vector<int> cluster;  // 0-based, numbered in order of first point
  int k = 0;
  double cost = 0.0, entropy = 0.0, cross_entropy = 0.0, labels = 0.0;
  std::vector<double> objective;
  std::vector<int> k_trace;
  int iterations = 0;
  bool converged = false;
  Eigen::MatrixXd means;            // p x k model means (fixed_mean: the fixed mean)
  std::vector<int> origin;          // the initial cluster (0-based) of each final one
  std::vector<Eigen::MatrixXd> covariances;
  std::vector<int> sizes;
  // Split mode: k and cost at the start, after every accepted split and
  // after the passes that follow each round of splits (event 0, 1, 2).
  std::vector<int> history_k, history_event;
  std::vector<double> history_cost;
};

// One run of the Hartigan algorithm on the points x (p x n, one per column)
// with partial labels (label -1 unlabelled; empty when there are none).
class CecRun {
 public:
  CecRun(const Eigen::Ref<const Eigen::MatrixXd>& x, const PartialLabels& labels,
         const CecParams& par)
      : x_(x), label_(labels.label), n_levels_(labels.n_levels), par_(par),
        n_(static_cast<int>(x.cols())), p_(static_cast<int>(x.rows())) {
    min_size_ = cec_min_size(par_.eps, n_, p_, par_.small_sample);
    fams_ = par_.families;
    if (fams_.empty()) {
      CecFamily f;
      f.type = par_.type;
      fams_.assign(std::max(1, par_.k), f);
    }
    for (CecFamily& f : fams_) f.prepare(p_);
  }

  CecResult run(std::vector<int> start, RunHooks& hooks) {
    assign_ = std::move(start);
    int k = 0;
    for (int a : assign_) k = std::max(k, a + 1);
    if (k > static_cast<int>(fams_.size())) {
      throw std::invalid_argument("the start has more clusters than families");
    }
    clusters_.clear();
    for (int a = 0; a < k; ++a) clusters_.emplace_back(p_, &fams_[a], n_levels_, par_.prior);
    alive_.assign(k, true);
    cost_.assign(k, 0.0);
    refit_all();
    CecResult res;
    while (res.iterations < par_.max_iter) {
      hooks.check_interrupt();
      const int moves = pass(hooks);
      refit_all();
      ++res.iterations;
      res.objective.push_back(total_cost());
      res.k_trace.push_back(n_alive());
      hooks.on_sweep(res.iterations, res.k_trace.back(), res.objective.back());
      if (moves == 0 && !(par_.small_sample && remove_one_cluster())) {
        res.converged = true;
        break;
      }
    }
    finish(res);
    return res;
  }

 private:
  int label(int i) const { return label_.empty() ? -1 : label_[i]; }
  bool small(int a) const {
    return clusters_[a].size() < min_size_ || !std::isfinite(clusters_[a].cross_entropy());
  }
  int n_alive() const { return static_cast<int>(std::count(alive_.begin(), alive_.end(), true)); }

  // With small_sample, how much the cross-entropy of the m points under their
  // own maximum-likelihood Gaussian underestimates its expectation for a new
  // point from the same Gaussian (nS ~ Wishart(m - 1) and E[S^-1] =
  // m Sigma^-1 / (m - p - 2) for the full model: 1/2 p (p + 3) / (m - p - 2),
  // Bedrick & Tsai's small-sample AIC per point). Sizes below the minimum
  // occur only in a move that removes the cluster; they get the minimum's value.
  // Only the families that estimate a covariance by maximum likelihood get
  // the term; the others (fixed covariance or radius, fixed eigenvalues,
  // fixed mean) have none.
  double optimism(CecType type, int m) const {
    if (!par_.small_sample) return 0.0;
    const double mm = std::max(static_cast<double>(m), static_cast<double>(p_ + 3));
    const double p = p_;
    switch (type) {
      case CecType::full: return 0.5 * p * (p + 3.0) / (mm - p - 2.0);
      case CecType::diagonal: return 2.0 * p / (mm - 3.0);
      case CecType::spherical: return p * (p + 1.0) / (p * (mm - 1.0) - 2.0);
      default: return 0.0;
    }
  }

  // Cost (11) of cluster a with m points, Gaussian cross-entropy h and
  // conditional label entropy h_label.
  double cluster_cost(int a, int m, double h, double h_label) const {
    if (m <= 0) return 0.0;
    const double w = static_cast<double>(m) / n_;
    return w * (-std::log(w) + h + optimism(clusters_[a].type(), m) + par_.beta * h_label);
  }
  double current_cost(int a) const {
    const CecCluster& c = clusters_[a];
    return cluster_cost(a, c.size(), c.cross_entropy(), c.tally().entropy());
  }
  double cost_with(int b, int i) const {
    const CecCluster& c = clusters_[b];
    return cluster_cost(b, c.size() + 1, c.cross_entropy_after(x_.col(i), +1),
                        c.tally().entropy_after(label(i), +1));
  }
  double total_cost() const {
    double s = 0.0;
    for (std::size_t a = 0; a < clusters_.size(); ++a) if (alive_[a]) s += cost_[a];
    return s;
  }

  // Exact statistics from the members (removes drift of the rank-one
  // updates), then removal of clusters that are too small or singular.
  void refit_all() {
    std::vector<std::vector<int>> members(clusters_.size());
    for (int i = 0; i < n_; ++i) members[assign_[i]].push_back(i);
    for (std::size_t a = 0; a < clusters_.size(); ++a) {
      if (!alive_[a]) continue;
      clusters_[a].refit(x_, members[a], label_);
      cost_[a] = current_cost(static_cast<int>(a));
    }
    for (;;) {
      int worst = -1;
      for (std::size_t a = 0; a < clusters_.size(); ++a) {
        if (alive_[a] && small(static_cast<int>(a)) &&
            (worst < 0 || clusters_[a].size() < clusters_[worst].size())) {
          worst = static_cast<int>(a);
        }
      }
      if (worst < 0) break;
      if (n_alive() == 1) throw std::runtime_error(
            "all points ended in one cluster whose covariance is singular (constant or "
            "collinear columns of `x`); remove those columns, scale() `x`, or use another "
            "`type`");
      remove_cluster(worst);
    }
  }

  // Deletes cluster a and gives each of its points to the cluster whose
  // cost grows least (line 20 of the algorithm).
  void remove_cluster(int a) {
    alive_[a] = false;
    for (int i = 0; i < n_; ++i) {
      if (assign_[i] != a) continue;
      int best = -1;
      double best_inc = std::numeric_limits<double>::infinity();
      for (std::size_t b = 0; b < clusters_.size(); ++b) {
        if (!alive_[b]) continue;
        const double inc = cost_with(static_cast<int>(b), i) - cost_[b];
        if (best < 0 || inc < best_inc) {
          best = static_cast<int>(b);
          best_inc = inc;
        }
      }
      clusters_[best].add(x_.col(i), label(i));
      cost_[best] = current_cost(best);
      assign_[i] = best;
    }
    cost_[a] = 0.0;
  }

  // With small_sample, a cluster that shrinks point by point pays a growing
  // small-sample term, so single moves may never empty a cluster that the
  // cost would rather not have. At a pass without moves, deletes the cluster
  // whose deletion (its points to the clusters whose cost grows least, then
  // exact refits) lowers the cost most; returns whether one was deleted.
  bool remove_one_cluster() {
    if (n_alive() < 2) return false;
    const double before = total_cost();
    const std::vector<int> assign = assign_;
    const std::vector<CecCluster> clusters = clusters_;
    const std::vector<bool> alive = alive_;
    const std::vector<double> cost = cost_;
    int best = -1;
    double best_cost = before - 1e-12;
    for (std::size_t a = 0; a < clusters.size(); ++a) {
      if (!alive[a]) continue;
      remove_cluster(static_cast<int>(a));
      refit_all();
      const double after = total_cost();
      if (after < best_cost) {
        best_cost = after;
        best = static_cast<int>(a);
      }
      assign_ = assign;
      clusters_ = clusters;
      alive_ = alive;
      cost_ = cost;
    }
    if (best < 0) return false;
    remove_cluster(best);
    refit_all();
    return true;
  }

  // One Hartigan pass over the points in row order; returns the moves made.
  int pass(RunHooks& hooks) {
    int moves = 0;
    const double tol = 1e-12;
    const std::size_t work = clusters_.size() * static_cast<std::size_t>(p_) * p_;
    for (int i = 0; i < n_; ++i) {
      hooks.poll_interrupt(work);
      const int a = assign_[i];
      const CecCluster& ca = clusters_[a];
      const double h = ca.cross_entropy_after(x_.col(i), -1);
      if (!std::isfinite(h)) continue;  // leaving would make `a` singular
      const double without =
          cluster_cost(a, ca.size() - 1, h, ca.tally().entropy_after(label(i), -1));
      const double base = cost_[a] - without;  // what leaving `a` saves
      int best = a;
      double best_gain = tol;
      for (std::size_t b = 0; b < clusters_.size(); ++b) {
        if (!alive_[b] || static_cast<int>(b) == a) continue;
        const double gain = base + cost_[b] - cost_with(static_cast<int>(b), i);
        if (gain > best_gain) {
          best_gain = gain;
          best = static_cast<int>(b);
        }
      }
      if (best == a) continue;
      clusters_[a].remove(x_.col(i), label(i));
      clusters_[best].add(x_.col(i), label(i));
      assign_[i] = best;
      cost_[a] = current_cost(a);
      cost_[best] = current_cost(best);
      ++moves;
      if (small(a) && n_alive() > 1) remove_cluster(a);
    }
    return moves;
  }

  void finish(CecResult& res) const {
    std::vector<int> relabel(clusters_.size(), -1);
    res.cluster.resize(n_);
    int k = 0;
    for (int i = 0; i < n_; ++i) {
      int& r = relabel[assign_[i]];
      if (r < 0) r = k++;
      res.cluster[i] = r;
    }
    res.k = k;
    res.means.resize(p_, k);
    res.covariances.assign(k, Eigen::MatrixXd());
    res.origin.assign(k, 0);
    res.sizes.assign(k, 0);
    for (std::size_t a = 0; a < clusters_.size(); ++a) {
      const int r = relabel[a];
      if (r < 0) continue;
      const CecCluster& c = clusters_[a];
      const double w = static_cast<double>(c.size()) / n_;
      res.means.col(r) = c.model_mean();
      res.origin[r] = static_cast<int>(a);
      res.covariances[r] = c.covariance();
      res.sizes[r] = c.size();
      res.entropy -= w * std::log(w);
      res.cross_entropy += w * (c.cross_entropy() + optimism(c.type(), c.size()));
      res.labels += w * par_.beta * c.tally().entropy();
    }
    res.cost = res.entropy + res.cross_entropy + res.labels;
  }

  Eigen::Ref<const Eigen::MatrixXd> x_;
  const std::vector<int>& label_;
  int n_levels_;
  const CecParams& par_;
  int n_, p_;
  double min_size_;
  std::vector<CecFamily> fams_;  // prepared, one per initial cluster
  std::vector<int> assign_;
  std::vector<CecCluster> clusters_;
  std::vector<bool> alive_;
  std::vector<double> cost_;
};

// Every point to its nearest seed (the first of ties): the initial
// partition, 0-based.
inline std::vector<int> nearest_seed_start(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                           const std::vector<int>& seeds) {
  const int n = static_cast<int>(x.cols());
  std::vector<int> assign(n, 0);
  for (int i = 0; i < n; ++i) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < seeds.size(); ++j) {
      const double d = (x.col(i) - x.col(seeds[j])).squaredNorm();
      if (d < best) {
        best = d;
        assign[i] = static_cast<int>(j);
      }
    }
  }
  return assign;
}

// Every point in one of k clusters uniformly at random (line 10 of the
// paper's algorithm); clusters left too small are removed by the first refit.
inline std::vector<int> random_partition_start(int n, int k, RunHooks& hooks) {
  std::vector<int> assign(n);
  for (int i = 0; i < n; ++i) assign[i] = uniform_index(k, hooks);
  return assign;
}

inline std::vector<int> draw_start(const Eigen::Ref<const Eigen::MatrixXd>& x, const CecParams& par,
                                   RunHooks& hooks) {
  switch (par.init) {
    case CecInit::random_points: return nearest_seed_start(x, random_indices(x, par.k, hooks));
    case CecInit::random_partition:
      return random_partition_start(static_cast<int>(x.cols()), par.k, hooks);
    case CecInit::greedy_kmeanspp:
      return nearest_seed_start(x, kmeanspp_indices(x, par.k, hooks,
                                                    greedy_kmeanspp_trials(par.k)));
    default: return nearest_seed_start(x, kmeanspp_indices(x, par.k, hooks));
  }
}

// Best of par.restarts runs (one run from par.start when it is given),
// without split mode (cec_search() in cec_split.h adds it).
inline CecResult cec_fit(const Eigen::Ref<const Eigen::MatrixXd>& x, const PartialLabels& labels,
                         const CecParams& par, RunHooks& hooks) {
  CecRun runner(x, labels, par);
  CecResult best;
  bool have = false;
  const int runs = par.start.empty() ? std::max(1, par.restarts) : 1;
  for (int r = 0; r < runs; ++r) {
    std::vector<int> start =
        par.start.empty() ? draw_start(x, par, hooks) : par.start;
    CecResult res = runner.run(std::move(start), hooks);
    if (!have || res.cost < best.cost) {
      best = std::move(res);
      have = true;
    }
  }
  return best;
}

}  // namespace sideclust
