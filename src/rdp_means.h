// DP-means (Kulis & Jordan 2012) and relational DP-means, the small-variance
// limit of TVClust (Khashabi et al., Algorithm 1). Points are the columns of a
// p x n column-major array. Side information enters through ClusterLinks, so
// a sweep costs O(n K p + number of pairs + n) whatever its form.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "bregman.h"
#include "chunklet_moves.h"
#include "cluster_links.h"
#include "run_hooks.h"
#include "side_graph.h"

namespace sideclust {

struct RdpParams {
  double lambda = 1.0;
  double xi_may = 0.0, xi_may_not = 0.0;  // weights of the first sweep
  double xi_rate = 1.0;                    // multiplied in after every sweep
  double xi_max_may = 0.0, xi_max_may_not = 0.0;
  int patience = 20;   // sweeps without a change that end the run
  int max_iter = 1000;
  bool random_order = true;
  bool chunklet_moves = false;  // also move whole may-link chunklets
};

struct RdpResult {
  std::vector<int> cluster;    // 0 .. k - 1
  std::vector<double> centres;  // p x k, column-major
  int k = 0;
  std::vector<double> objective;  // objective (20) after every sweep
  std::vector<int> k_trace;
  std::vector<int> changes;      // points that moved in every sweep
  int iterations = 0;
  bool converged = false;
  double xi_may = 0.0, xi_may_not = 0.0;  // weights of the last sweep
  SideAgreement agreement;                // at the final state
};

namespace detail {

// Cluster centres with each divergence's per-centre cache.
template <class Div>
class Centres {
 public:
  explicit Centres(int p) : p_(p) {}

  int size() const { return static_cast<int>(term_.size()); }
  const double* cache(int k) const { return &cache_[static_cast<std::size_t>(k) * p_]; }
  double term(int k) const { return term_[k]; }

  // Append a centre at mu.
  void push(const double* mu) {
    mean_.insert(mean_.end(), mu, mu + p_);
    cache_.resize(mean_.size());
    term_.push_back(0.0);
    refresh(size() - 1);
  }

  // Replace all centres by the means of the clusters of z (all non-empty).
  void recompute(const double* x, const std::vector<int>& z, int k) {
    mean_.assign(static_cast<std::size_t>(k) * p_, 0.0);
    std::vector<double> count(k, 0.0);
    for (std::size_t i = 0; i < z.size(); ++i) {
      double* m = &mean_[static_cast<std::size_t>(z[i]) * p_];
      const double* xi = x + i * p_;
      for (int d = 0; d < p_; ++d) m[d] += xi[d];
      count[z[i]] += 1.0;
    }
    for (int c = 0; c < k; ++c) {
      for (int d = 0; d < p_; ++d) mean_[static_cast<std::size_t>(c) * p_ + d] /= count[c];
    }
    cache_.resize(mean_.size());
    term_.assign(k, 0.0);
    for (int c = 0; c < k; ++c) refresh(c);
  }

  const std::vector<double>& means() const { return mean_; }

 private:
  void refresh(int k) {
    const double* mu = &mean_[static_cast<std::size_t>(k) * p_];
    Div::centre_cache(mu, &cache_[static_cast<std::size_t>(k) * p_], p_);
    term_[k] = Div::centre_term(mu, p_);
  }

  int p_;
  std::vector<double> mean_, cache_, term_;
};

// Points are visited in random order; asking for a point's coordinates a few
// points ahead hides most of the memory latency of that random access.
constexpr int kPrefetchAhead = 8;
inline void prefetch_point(const double* ptr, int p) {
  for (int d = 0; d < p; d += 8) prefetch_address(ptr + d);
}

// Renumber the non-empty clusters 0 .. k' - 1 in order; returns k'.
inline int drop_empty_clusters(std::vector<int>& z, const std::vector<int>& size) {
  std::vector<int> map(size.size(), -1);
  int next = 0;
  for (std::size_t c = 0; c < size.size(); ++c) {
    if (size[c] > 0) map[c] = next++;
  }
  for (int& v : z) v = map[v];
  return next;
}

}  // namespace detail

template <class Div>
RdpResult rdp_means(const double* x, int n, int p, const SideInfo& side,
                    const RdpParams& par, RunHooks& hooks) {
  RdpResult res;
  std::vector<double> point_term(n);
  for (int i = 0; i < n; ++i) point_term[i] = Div::point_term(x + static_cast<std::size_t>(i) * p, p);

  // Algorithm 1 starts from one cluster holding every point.
  std::vector<int> z(n, 0);
  int k = 1;
  detail::Centres<Div> centres(p);
  centres.recompute(x, z, k);
  std::vector<int> size(1, n);
  ClusterLinks links(side);
  links.reset(z, k);

  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  double xi1 = par.xi_may, xi2 = par.xi_may_not;
  int stable = 0;
  // Kept may-link and broken may-not weight, updated as points move.
  SideAgreement agree = side_agreement(side, z, k);
  std::vector<double> d;
  const Chunklets chunklets =
      par.chunklet_moves ? may_link_chunklets(side.pairs) : Chunklets{};

  for (int iter = 0; iter < par.max_iter; ++iter) {
    if (par.random_order) shuffle(order, hooks);
    int changed = 0;
    for (int idx = 0; idx < n; ++idx) {
      const int i = order[idx];
      if (idx + detail::kPrefetchAhead < n) {
        detail::prefetch_point(x + static_cast<std::size_t>(order[idx + detail::kPrefetchAhead]) * p, p);
      }
      const double* xi = x + static_cast<std::size_t>(i) * p;
      d.resize(k);
      for (int c = 0; c < k; ++c) {
        d[c] = Div::eval(xi, point_term[i], centres.cache(c), centres.term(c), p);
      }
      links.gather(i, z);
      links.add_side_terms(d.data(), k, xi1, xi2);
      int best = -1;
      double best_d = std::numeric_limits<double>::infinity();
      for (int c = 0; c < k; ++c) {
        // A cluster emptied during this sweep is removed at its end.
        if (size[c] > 0 && d[c] < best_d) {
          best_d = d[c];
          best = c;
        }
      }
      if (!(best_d <= par.lambda)) {  // open a new cluster centred at x_i
        centres.push(xi);
        size.push_back(0);
        links.add_cluster();
        best = k++;
      }
      const int from = z[i];
      if (best != from) {
        agree.may_satisfied += links.may(best) - links.may(from);
        agree.may_not_violated += links.may_not(best) - links.may_not(from);
        links.move(i, from, best);
        --size[from];
        ++size[best];
        z[i] = best;
        ++changed;
      }
    }

    // Centre update: cluster means; empty clusters are removed.
    auto update_centres = [&]() {
      k = detail::drop_empty_clusters(z, size);
      centres.recompute(x, z, k);
      size.assign(k, 0);
      for (int v : z) ++size[v];
    };
    update_centres();
    if (chunklets.count() > 0) {
      const int moved = move_chunklets<Div>(x, p, point_term, chunklets, side.pairs,
                                            par.lambda, centres, z, size, k, xi1,
                                            xi2, agree);
      if (moved > 0) update_centres();
      changed += moved;
    }
    links.reset(z, k);

    double obj = par.lambda * k - xi1 * agree.may_satisfied + xi2 * agree.may_not_violated;
    for (int i = 0; i < n; ++i) {
      obj += Div::eval(x + static_cast<std::size_t>(i) * p, point_term[i],
                       centres.cache(z[i]), centres.term(z[i]), p);
    }

    res.objective.push_back(obj);
    res.k_trace.push_back(k);
    res.changes.push_back(changed);
    res.iterations = iter + 1;
    res.xi_may = xi1;
    res.xi_may_not = xi2;
    hooks.check_interrupt();
    hooks.on_sweep(iter + 1, k, obj);

    stable = changed == 0 ? stable + 1 : 0;
    const double next1 = std::min(xi1 * par.xi_rate, par.xi_max_may);
    const double next2 = std::min(xi2 * par.xi_rate, par.xi_max_may_not);
    // With the weights fixed, a sweep without a change is a fixed point:
    // every later sweep would repeat it, so waiting is pointless.
    if (stable >= par.patience || (stable > 0 && next1 == xi1 && next2 == xi2)) {
      res.converged = true;
      break;
    }
    xi1 = next1;
    xi2 = next2;
  }

  res.agreement = side_agreement(side, z, k);  // exact, free of rounding drift
  res.cluster = z;
  res.k = k;
  res.centres = centres.means();
  return res;
}

// Index of the nearest centre (by Div) of every column of x; also returns the
// divergences in dist.
template <class Div>
std::vector<int> nearest_centre(const double* x, int n, int p,
                                const double* centres, int k,
                                std::vector<double>& dist) {
  detail::Centres<Div> c(p);
  for (int j = 0; j < k; ++j) c.push(centres + static_cast<std::size_t>(j) * p);
  std::vector<int> out(n, 0);
  dist.assign(n, std::numeric_limits<double>::infinity());
  for (int i = 0; i < n; ++i) {
    const double* xi = x + static_cast<std::size_t>(i) * p;
    const double pt = Div::point_term(xi, p);
    for (int j = 0; j < k; ++j) {
      const double d = Div::eval(xi, pt, c.cache(j), c.term(j), p);
      if (d < dist[i]) {
        dist[i] = d;
        out[i] = j;
      }
    }
  }
  return out;
}

}  // namespace sideclust
