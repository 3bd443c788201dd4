// The runs of variational TVClust (tvclust_vb.h): their starts, the split
// and delete moves that open and close clusters after a run converges, and
// the restarts, of which the one of largest final ELBO is kept. Plain C++17 +
// Eigen; randomness and interrupts come from RunHooks.
#pragma once

#include <algorithm>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "tvclust/tvclust_vb.h"

namespace sideclust {

// How a run starts: a partition into k clusters around k-means++ seeds
// (each point with its nearest seed), a uniformly random partition into k
// clusters, or the partition given.
enum class VbStart { kmeanspp, random, given };

template <class Points>
std::vector<int> vb_start_partition(const Points& x, int k, VbStart kind, RunHooks& hooks) {
  const int n = point_count(x);
  k = std::max(1, std::min(k, n));
  std::vector<int> z(n, 0);
  if (kind == VbStart::random) {
    for (int& v : z) v = uniform_index(k, hooks);
    return z;
  }
  const std::vector<int> seeds = kmeanspp_points(x, std::vector<int>(), k, hooks);
  for (int i = 0; i < n; ++i) {
    double best = std::numeric_limits<double>::infinity();
    for (int c = 0; c < k; ++c) {
      const double d = squared_distance(x, i, seeds[c]);
      if (d < best) {
        best = d;
        z[i] = c;
      }
    }
  }
  return z;
}

struct TvclustVbRestarts {
  TvclustVbResult best;
  std::vector<double> final_elbo;  // of every restart
  int best_restart = 0;
};

// After a run converges, split and delete moves (after the birth / merge /
// delete proposals of Hughes & Sudderth 2013). Mean field cannot open a
// cluster or close one by single updates: a component covering two groups,
// or a singleton around an outlying k-means++ seed, is a local optimum. A
// proposal splits an occupied component in two (split_component(), largest
// first, into the first empty component) or empties one (delete_component(),
// smallest first), then runs at most kTrialSweeps trial sweeps over the
// points it moved and the components it changed (trial_sweep()), O(n p^2)
// each rather than a full sweep. When the ELBO then exceeds the converged
// one, the proposal is kept and the run continues to convergence with full
// sweeps, so the ELBO of the fit only grows. Rounds of splits, then
// deletions, until a round keeps nothing, 2 T proposals of each kind, or the
// run's budget of max_iter sweeps (full and trial sweeps alike) is spent.
constexpr int kTrialSweeps = 3;

template <class Family, class Points = DensePoints>
bool try_proposal(std::unique_ptr<TvclustVb<Family, Points>>& vb,
                  std::unique_ptr<TvclustVb<Family, Points>> trial, const std::vector<int>& moved,
                  const TvclustVbParams& par, TvclustVbResult& res, RunHooks& hooks) {
  const int trials = std::min(kTrialSweeps, par.max_iter - res.sweeps);
  for (int s = 0; s < trials; ++s) {
    trial->trial_sweep(moved, hooks);
    hooks.check_interrupt();
  }
  res.sweeps += trials;
  // kept only with budget left for a full sweep from it, so that the trace,
  // the ELBO and the responsibilities of the fit describe the same state
  if (res.sweeps >= par.max_iter || trial->elbo() <= res.elbo.back()) return false;
  TvclustVbResult attempt;
  trial->run(hooks, par.max_iter - res.sweeps, attempt);
  res.delete_at.push_back(res.iterations + 1);
  res.elbo.insert(res.elbo.end(), attempt.elbo.begin(), attempt.elbo.end());
  res.iterations += attempt.iterations;
  res.sweeps += attempt.sweeps;
  attempt.elbo = res.elbo;
  attempt.iterations = res.iterations;
  attempt.sweeps = res.sweeps;
  attempt.delete_at = res.delete_at;
  attempt.worst_drop = std::max(attempt.worst_drop, res.worst_drop);
  attempt.updates_checked += res.updates_checked;
  res = std::move(attempt);
  vb = std::move(trial);
  return true;
}

template <class Family, class Points = DensePoints>
void split_delete_moves(std::unique_ptr<TvclustVb<Family, Points>>& vb, const TvclustVbParams& par,
                        TvclustVbResult& res, RunHooks& hooks) {
  int splits = 0, deletes = 0;
  const int cap = 2 * par.truncation;
  auto spent = [&] { return res.sweeps >= par.max_iter; };
  std::vector<int> moved;
  for (bool kept = true; kept && !spent();) {
    kept = false;
    std::vector<int> order = vb->occupied_by_mass();
    std::reverse(order.begin(), order.end());  // largest first
    for (int c : order) {
      if (spent() || splits >= cap ||
          static_cast<int>(vb->occupied_by_mass().size()) >= par.truncation) {
        break;
      }
      const int target = vb->first_empty();
      if (target < 0) break;
      auto trial = std::make_unique<TvclustVb<Family, Points>>(*vb);
      if (!trial->split_component(c, target, hooks, &moved)) continue;
      ++splits;
      if (try_proposal(vb, std::move(trial), moved, par, res, hooks)) kept = true;
    }
    for (bool deleted = true; deleted && !spent();) {
      deleted = false;
      const std::vector<int> small = vb->occupied_by_mass();
      if (small.size() < 2) break;
      for (int c : small) {
        if (spent() || deletes >= cap) break;
        ++deletes;
        auto trial = std::make_unique<TvclustVb<Family, Points>>(*vb);
        moved = trial->delete_component(c);
        if (try_proposal(vb, std::move(trial), moved, par, res, hooks)) {
          deleted = kept = true;
          break;
        }
      }
    }
    if (splits >= cap && deletes >= cap) break;
  }
}

// `restarts` runs, each from its own start (the given partitions in turn
// with VbStart::given, otherwise drawn), each followed by the split and
// delete moves,
// keeping the largest final ELBO.
template <class Family, class Points = DensePoints>
TvclustVbRestarts run_tvclust_vb(const Points& x, const SideInfo& side,
                                 const Family& empty, const TvclustVbParams& par, int restarts,
                                 int k, VbStart kind, const std::vector<std::vector<int>>& given,
                                 RunHooks& hooks) {
  TvclustVbRestarts out;
  for (int t = 0; t < restarts; ++t) {
    const std::vector<int> start =
        kind == VbStart::given ? given[t % given.size()] : vb_start_partition(x, k, kind, hooks);
    auto vb = std::make_unique<TvclustVb<Family, Points>>(x, side, empty, par, start);
    TvclustVbResult res;
    vb->run(hooks, par.max_iter, res);
    if (par.delete_moves) split_delete_moves(vb, par, res, hooks);
    const double last = res.elbo.back();
    out.final_elbo.push_back(last);
    if (t == 0 || last > out.final_elbo[out.best_restart]) {
      out.best = std::move(res);
      out.best_restart = t;
    }
  }
  return out;
}

}  // namespace sideclust
