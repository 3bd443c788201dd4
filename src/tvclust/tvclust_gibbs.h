// Collapsed Gibbs sampler for TVClust (Khashabi et al., Section 3.3): a
// Dirichlet-process mixture with the cluster parameters integrated out
// (Neal 2000, Algorithm 3) and the side information modelled as a noisy
// random graph. Point i joins cluster k with weight
//   n_{-i,k} * pred_k(x_i) * (p / (1 - q))^{f_k} * ((1 - p) / q)^{s_k}
// (f_k, s_k: must-link / cannot-link weight between i and cluster k; equation (8)
// with its typo fixed), or a new cluster with weight alpha * pred_0(x_i).
// Confidences act as exponents on the per-pair likelihoods.
//
// Family is a conjugate cluster type (niw.h, conjugate_simple.h): add(x),
// remove(x), log_predictive(x), log_marginal(), size(). Points is
// DensePoints or, for the multinomial family, SparseRows (tvclust/points.h).
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "common/chunklet_moves.h"
#include "common/cluster_links.h"
#include "common/run_hooks.h"
#include "common/side_graph.h"
#include "tvclust/conjugate_simple.h"
#include "tvclust/points.h"

namespace sideclust {

struct TvclustParams {
  double alpha = 1.0;
  double p = 0.9;  // P(must-link | same cluster)
  double q = 0.9;  // P(cannot-link | different clusters)
  // With sample_pq, p ~ Beta(p_a, p_b) and q ~ Beta(q_a, q_b) are redrawn
  // from their conditional posteriors after every sweep (Section 3.2).
  bool sample_pq = false;
  double p_a = 1.0, p_b = 1.0, q_a = 1.0, q_b = 1.0;
  // With sample_alpha, alpha ~ Gamma(shape alpha_a, rate alpha_b) is redrawn
  // after every sweep by Escobar & West's (1995) auxiliary-variable step.
  bool sample_alpha = false;
  double alpha_a = 1.0, alpha_b = 1.0;
  // After every scan, also move whole must-link chunklets (pairwise side
  // information only) so the chain leaves dense must-link cliques.
  bool chunklet_moves = false;
  // Split-merge proposals (Jain & Neal 2004) per sweep, each with
  // `launch_scans` restricted Gibbs scans to build its launch state.
  int split_merge = 0;
  int launch_scans = 3;
  bool point_scan = true;  // the single-point Gibbs scan (off only to test other moves)
};

template <class Family, class Points = DensePoints>
class TvclustGibbs {
 public:
  using Factory = std::function<Family()>;

  // x: p x n, points as columns (or sparse rows). z: initial clusters 0 .. k - 1.
  TvclustGibbs(const Points& x, const SideInfo& side,
               Factory make_cluster, const TvclustParams& par, std::vector<int> z)
      : x_(x), side_(side), make_(std::move(make_cluster)), par_(par),
        z_(std::move(z)), links_(side) {
    int k = 0;
    for (int v : z_) k = std::max(k, v + 1);
    for (int c = 0; c < k; ++c) clusters_.push_back(make_());
    for (int i = 0; i < n(); ++i) clusters_[z_[i]].add(point(x_, i));
    links_.reset(z_, k);
    if (par_.chunklet_moves) {
      if (!side.labels.empty()) {
        throw std::invalid_argument("chunklet moves need pairwise side information");
      }
      chunklets_ = must_link_chunklets(side.pairs);
    }
  }

  int n() const { return static_cast<int>(z_.size()); }
  const std::vector<int>& assignment() const { return z_; }
  double p() const { return par_.p; }
  double q() const { return par_.q; }
  double alpha() const { return par_.alpha; }

  int clusters() const {
    int k = 0;
    for (const Family& c : clusters_) k += c.size() > 0;
    return k;
  }

  // Escobar & West: eta ~ Beta(alpha + 1, n), then alpha from a two-part
  // mixture of Gammas with rate alpha_b - log(eta).
  void sample_alpha(RunHooks& hooks) {
    const double k = clusters(), nn = n();
    const double eta = hooks.beta(par_.alpha + 1.0, nn);
    const double rate = par_.alpha_b - std::log(eta);
    const double odds = (par_.alpha_a + k - 1.0) / (nn * rate);
    const bool first = hooks.uniform() < odds / (1.0 + odds);
    const double shape = par_.alpha_a + k - (first ? 0.0 : 1.0);
    par_.alpha = hooks.gamma(shape) / rate;
  }

  // Given the partition, p and q have Beta posteriors: must-links kept inside
  // clusters count for p, cannot-links across clusters for q.
  void sample_pq(RunHooks& hooks) {
    const SideAgreement a = side_agreement(side_, z_, static_cast<int>(clusters_.size()));
    par_.p = hooks.beta(par_.p_a + a.must_satisfied, par_.p_b + a.cannot_violated);
    par_.q = hooks.beta(par_.q_a + a.cannot_satisfied, par_.q_b + a.must_violated);
  }

  // One Gibbs scan over the points in index order.
  void sweep(RunHooks& hooks) {
    const double bonus_must = std::log(par_.p) - std::log1p(-par_.q);
    const double bonus_not = std::log1p(-par_.p) - std::log(par_.q);
    const double log_alpha = std::log(par_.alpha);
    for (int i = 0; i < (par_.point_scan ? n() : 0); ++i) {
      const int from = z_[i];
      clusters_[from].remove(point(x_, i));
      links_.gather(i, z_);
      const int k = static_cast<int>(clusters_.size());
      hooks.poll_interrupt(static_cast<std::size_t>(k + 1) * point_cost(x_, i));
      weight_.assign(k + 1, -std::numeric_limits<double>::infinity());
      double top = -std::numeric_limits<double>::infinity();
      for (int c = 0; c < k; ++c) {
        const int size = clusters_[c].size();
        if (size == 0) continue;
        weight_[c] = std::log(static_cast<double>(size)) +
                     clusters_[c].log_predictive(point(x_, i)) +
                     links_.must(c) * bonus_must + links_.cannot(c) * bonus_not;
        top = std::max(top, weight_[c]);
      }
      weight_[k] = log_alpha + prior_cluster().log_predictive(point(x_, i));
      top = std::max(top, weight_[k]);
      const int chosen = draw(top, hooks);
      const int to = chosen < k ? chosen : open_cluster();
      clusters_[to].add(point(x_, i));
      links_.move(i, from, to);
      z_[i] = to;
    }
    for (int t = 0; t < par_.split_merge; ++t) split_merge(hooks);
    if (par_.chunklet_moves) move_chunklets(hooks);
    if (par_.sample_pq) sample_pq(hooks);
    if (par_.sample_alpha) sample_alpha(hooks);
    hooks.check_interrupt();
  }

  // log p(z, x, E) up to a constant: Chinese-restaurant prior, marginal
  // likelihoods of the clusters, and the side information's likelihood.
  double log_joint() const {
    double out = std::lgamma(par_.alpha) - std::lgamma(par_.alpha + n());
    for (const Family& c : clusters_) {
      if (c.size() == 0) continue;
      out += std::log(par_.alpha) + std::lgamma(static_cast<double>(c.size())) + c.log_marginal();
    }
    const SideAgreement a = side_agreement(side_, z_, static_cast<int>(clusters_.size()));
    out += a.must_satisfied * std::log(par_.p) + a.must_violated * std::log1p(-par_.q) +
           a.cannot_violated * std::log1p(-par_.p) + a.cannot_satisfied * std::log(par_.q);
    return out;
  }

 private:
  // One Metropolis-Hastings split-merge proposal (Jain & Neal 2004, conjugate
  // case). Two random points i, j; S = the other points of their cluster(s).
  // Same cluster: propose splitting it, S spread by restricted Gibbs scans
  // between i's and j's side. Different clusters: propose merging them; the
  // reverse split's probability comes from the same scans, forced onto the
  // current split. Accepted with the ratio of the joint densities times the
  // proposal ratio, so the posterior stays invariant.
  void split_merge(RunHooks& hooks) {
    const int nn = n();
    if (nn < 2) return;
    const int i = std::min(nn - 1, static_cast<int>(hooks.uniform() * nn));
    int j = std::min(nn - 2, static_cast<int>(hooks.uniform() * (nn - 1)));
    if (j >= i) ++j;
    const int ci = z_[i], cj = z_[j];
    std::vector<int> set, original;
    for (int k = 0; k < nn; ++k) {
      if (k != i && k != j && (z_[k] == ci || z_[k] == cj)) set.push_back(k);
    }
    for (int k : set) original.push_back(z_[k]);
    const double before = log_joint();
    if (ci == cj) {
      const int side_i = open_cluster();
      move_point(i, ci, side_i);
      launch(set, side_i, ci, hooks);
      const double log_q = restricted_scan(set, side_i, ci, nullptr, hooks);
      const double accept = log_joint() - before - log_q;
      if (std::log(hooks.uniform()) >= accept) {  // reject: merge back
        for (int k : set) move_point(k, z_[k], ci);
        move_point(i, side_i, ci);
      }
    } else {
      launch(set, ci, cj, hooks);
      const double log_q = restricted_scan(set, ci, cj, &original, hooks);
      for (int k : set) {
        if (z_[k] == cj) move_point(k, cj, ci);
      }
      move_point(j, cj, ci);
      const double accept = log_joint() - before + log_q;
      if (std::log(hooks.uniform()) >= accept) {  // reject: restore the split
        move_point(j, ci, cj);
        for (std::size_t t = 0; t < set.size(); ++t) {
          if (original[t] == cj) move_point(set[t], ci, cj);
        }
      }
    }
  }

  // Launch state: S spread uniformly at random over clusters a and b, then
  // `launch_scans` restricted Gibbs scans.
  void launch(const std::vector<int>& set, int a, int b, RunHooks& hooks) {
    for (int k : set) move_point(k, z_[k], hooks.uniform() < 0.5 ? a : b);
    for (int t = 0; t < par_.launch_scans; ++t) restricted_scan(set, a, b, nullptr, hooks);
  }

  // One Gibbs scan of S restricted to clusters a and b; returns the log
  // probability of the assignments made. With `forced`, each point goes to
  // its forced cluster instead of a drawn one (the reverse move's probability).
  double restricted_scan(const std::vector<int>& set, int a, int b,
                         const std::vector<int>* forced, RunHooks& hooks) {
    const double bonus_must = std::log(par_.p) - std::log1p(-par_.q);
    const double bonus_not = std::log1p(-par_.p) - std::log(par_.q);
    double log_q = 0.0;
    for (std::size_t t = 0; t < set.size(); ++t) {
      const int k = set[t], from = z_[k];
      clusters_[from].remove(point(x_, k));
      links_.gather(k, z_);
      auto weight = [&](int c) {
        const int size = clusters_[c].size();
        if (size == 0) return -std::numeric_limits<double>::infinity();
        return std::log(static_cast<double>(size)) + clusters_[c].log_predictive(point(x_, k)) +
               links_.must(c) * bonus_must + links_.cannot(c) * bonus_not;
      };
      const double wa = weight(a), wb = weight(b);
      const double top = std::max(wa, wb);
      const double log_norm = top + std::log(std::exp(wa - top) + std::exp(wb - top));
      int to;
      if (forced) to = (*forced)[t];
      else to = std::log(hooks.uniform()) < wa - log_norm ? a : b;
      log_q += (to == a ? wa : wb) - log_norm;
      clusters_[to].add(point(x_, k));
      links_.move(k, from, to);
      z_[k] = to;
    }
    return log_q;
  }

  void move_point(int k, int from, int to) {
    if (from == to) return;
    clusters_[from].remove(point(x_, k));
    clusters_[to].add(point(x_, k));
    links_.move(k, from, to);
    z_[k] = to;
  }

  // For each chunklet whose points share a cluster, redraw that common
  // cluster from its conditional given every other point: weight
  // Gamma(n_k + m) / Gamma(n_k) * p(X_C | X_k) * side factor for existing k,
  // alpha * Gamma(m) * p(X_C) for a new one. A Gibbs step restricted to the
  // states where the chunklet is together, so it keeps the posterior
  // invariant; split chunklets are left to the single-point scan.
  void move_chunklets(RunHooks& hooks) {
    const double bonus_must = std::log(par_.p) - std::log1p(-par_.q);
    const double bonus_not = std::log1p(-par_.p) - std::log(par_.q);
    const PairGraph& g = side_.pairs;
    for (int c = 0; c < chunklets_.count(); ++c) {
      const int first = chunklets_.start[c], last = chunklets_.start[c + 1];
      const int m = last - first, from = z_[chunklets_.member[first]];
      bool together = true;
      for (int t = first; t < last && together; ++t) together = z_[chunklets_.member[t]] == from;
      if (!together) continue;
      for (int t = first; t < last; ++t) clusters_[from].remove(point(x_, chunklets_.member[t]));
      const int k = static_cast<int>(clusters_.size());
      std::vector<double> must(k, 0.0), cannot(k, 0.0);
      for (int t = first; t < last; ++t) {
        const int i = chunklets_.member[t];
        for (int e = g.start[i]; e < g.start[i + 1]; ++e) {
          const int j = g.nbr[e];
          if (chunklets_.of[j] == c) continue;  // inner links do not depend on the move
          if (g.weight[e] > 0.0) must[z_[j]] += g.weight[e]; else cannot[z_[j]] -= g.weight[e];
        }
      }
      weight_.assign(k + 1, -std::numeric_limits<double>::infinity());
      double top = -std::numeric_limits<double>::infinity();
      // log p(X_C | X_q): sparse counts sum the chunklet once and touch only
      // its non-zero categories; otherwise the marginals with and without it.
      if constexpr (std::is_same_v<Points, SparseRows>) chunk_.set(x_, &chunklets_.member[first], m);
      auto gain = [&](const Family& cluster) {
        if constexpr (std::is_same_v<Points, SparseRows>) {
          return cluster.log_marginal_gain(chunk_);
        } else {
          Family joined = cluster;
          for (int t = first; t < last; ++t) joined.add(point(x_, chunklets_.member[t]));
          return joined.log_marginal() - cluster.log_marginal();
        }
      };
      for (int q = 0; q < k; ++q) {
        const int size = clusters_[q].size();
        if (size == 0) continue;
        weight_[q] = std::lgamma(static_cast<double>(size + m)) -
                     std::lgamma(static_cast<double>(size)) + gain(clusters_[q]) +
                     must[q] * bonus_must + cannot[q] * bonus_not;
        top = std::max(top, weight_[q]);
      }
      double alone = 0.0;
      if constexpr (std::is_same_v<Points, SparseRows>) {
        alone = gain(prior_cluster());
      } else {
        Family empty = make_();
        for (int t = first; t < last; ++t) empty.add(point(x_, chunklets_.member[t]));
        alone = empty.log_marginal();
      }
      weight_[k] = std::log(par_.alpha) + std::lgamma(static_cast<double>(m)) + alone;
      top = std::max(top, weight_[k]);
      const int chosen = draw(top, hooks);
      const int to = chosen < k ? chosen : open_cluster();
      for (int t = first; t < last; ++t) {
        const int i = chunklets_.member[t];
        clusters_[to].add(point(x_, i));
        links_.move(i, from, to);
        z_[i] = to;
      }
    }
  }

  const Family& prior_cluster() {
    if (!prior_) prior_ = std::make_unique<Family>(make_());
    return *prior_;
  }

  // Reuse an empty cluster slot, or append one.
  int open_cluster() {
    for (std::size_t c = 0; c < clusters_.size(); ++c) {
      if (clusters_[c].size() == 0) {
        clusters_[c] = make_();
        return static_cast<int>(c);
      }
    }
    clusters_.push_back(make_());
    links_.add_cluster();
    return static_cast<int>(clusters_.size()) - 1;
  }

  // Categorical draw from log-weights (shifted by their maximum).
  int draw(double top, RunHooks& hooks) {
    double total = 0.0;
    for (double& w : weight_) {
      w = std::exp(w - top);
      total += w;
    }
    double u = hooks.uniform() * total;
    for (std::size_t c = 0; c < weight_.size(); ++c) {
      if (weight_[c] == 0.0) continue;
      u -= weight_[c];
      if (u <= 0.0) return static_cast<int>(c);
    }
    for (std::size_t c = weight_.size(); c-- > 0;) {
      if (weight_[c] > 0.0) return static_cast<int>(c);
    }
    return static_cast<int>(weight_.size()) - 1;
  }

  Points x_;
  const SideInfo& side_;
  Factory make_;
  TvclustParams par_;
  std::vector<int> z_;
  ClusterLinks links_;
  std::vector<Family> clusters_;
  std::unique_ptr<Family> prior_;
  std::vector<double> weight_;
  Chunklets chunklets_;
  SparseCounts chunk_;  // a chunklet's summed sparse counts (sparse points only)
};

}  // namespace sideclust
