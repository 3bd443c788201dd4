// Kernel RDP-means: objective (20) of Khashabi et al. (2015) with the squared
// distance measured in the feature space of a kernel K,
//
//   sum_c [ sum_{i in c} K_ii - S_c / n_c ]  - xi1 (kept must-link weight)
//     + xi2 (broken cannot-link weight) + lambda k,       S_c = sum_{i,j in c} K_ij,
//
// the bracket being sum_{i in c} |phi(x_i) - mean_c|^2. Points move one at a
// time with exact updates (Hartigan-style, as in weighted kernel k-means of
// Dhillon, Guan & Kulis 2004 but with the means moving after every move):
// moving i from a to b changes the data term by
//   n_b / (n_b + 1) d(i, b)  -  m / (m + 1) d(i, a \ i),   m = n_a - 1,
// with d(i, c) = K_ii - 2 r_c / n_c + S_c / n_c^2 and r_c = sum_{j in c} K_ij,
// plus the side terms of ClusterLinks and lambda for a cluster opened or
// emptied. A point moves only when that lowers the objective, so at fixed
// weights the objective never increases, and a sweep without a move is a
// local optimum under single moves (to another cluster or a new one). This
// holds for any symmetric K, positive semi-definite or not.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "common/cluster_links.h"
#include "common/run_hooks.h"
#include "common/side_graph.h"
#include "dpmeans/kernel_sources.h"
#include "dpmeans/xi_schedule.h"

namespace sideclust {

struct KernelRdpParams : XiScheduleParams {
  double lambda = 1.0;
  bool merge_moves = true;  // try merging whole clusters when no point moves
};

struct KernelRdpResult {
  std::vector<int> cluster;  // 0 .. k - 1, numbered by first point
  int k = 0;
  std::vector<double> within;  // S_c: kernel sum over the pairs of cluster c
  std::vector<int> size;
  std::vector<double> objective, data_term;  // after every sweep
  std::vector<int> k_trace, changes;
  int iterations = 0;
  bool converged = false;
  double xi_must = 0.0, xi_cannot = 0.0;
  SideAgreement agreement;
};

namespace detail {

// Renumber z (values 0 .. k - 1, possibly with empty clusters) by first
// appearance; returns the map old -> new (-1 for clusters without points).
inline std::vector<int> renumber_by_first(std::vector<int>& z, int k, int& k_new) {
  std::vector<int> map(k, -1);
  int next = 0;
  for (int& v : z) {
    if (map[v] < 0) map[v] = next++;
    v = map[v];
  }
  k_new = next;
  return map;
}

// Renumbers the clusters of z by first point, dropping the empty ones with
// their sums S_c, D_c and sizes, and resets the kernel source to the new
// numbering. Returns the old -> new map (-1 for a dropped cluster).
template <class Kernel>
std::vector<int> drop_empty_clusters(Kernel& kern, std::vector<int>& z, int& k,
                                     std::vector<double>& S, std::vector<double>& D,
                                     std::vector<int>& size) {
  int k_new = 0;
  std::vector<int> map = renumber_by_first(z, k, k_new);
  std::vector<double> S2(k_new), D2(k_new);
  std::vector<int> size2(k_new);
  for (int c = 0; c < k; ++c) {
    if (map[c] < 0) continue;
    S2[map[c]] = S[c];
    D2[map[c]] = D[c];
    size2[map[c]] = size[c];
  }
  S.swap(S2);
  D.swap(D2);
  size.swap(size2);
  k = k_new;
  kern.reset(z, k);
  return map;
}

}  // namespace detail

// Per-cluster sums S_c, diagonal sums D_c and sizes of partition z, exactly.
// Leaves a stateful kernel source set up for z.
template <class Kern>
void kernel_cluster_stats(Kern& kern, const std::vector<int>& z, int k,
                          std::vector<double>& S, std::vector<double>& D,
                          std::vector<int>& size, RunHooks& hooks) {
  const int n = kern.n();
  kern.reset(z, k);
  S.assign(k, 0.0);
  D.assign(k, 0.0);
  size.assign(k, 0);
  std::vector<double> r(k);
  for (int i = 0; i < n; ++i) {
    kern.cluster_sums(i, z, k, r.data());
    S[z[i]] += r[z[i]];
    D[z[i]] += kern.diag(i);
    ++size[z[i]];
    hooks.poll_interrupt(static_cast<std::size_t>(n));
  }
}

// The data term sum_c (D_c - S_c / n_c) over non-empty clusters.
inline double kernel_data_term(const std::vector<double>& S, const std::vector<double>& D,
                               const std::vector<int>& size) {
  double t = 0.0;
  for (std::size_t c = 0; c < S.size(); ++c) {
    if (size[c] > 0) t += D[c] - S[c] / size[c];
  }
  return t;
}

// Greedy merges of whole clusters: single moves cannot join two halves of a
// cluster (each point is better off with its own half), merges can. From one
// pass over the points (the cross sums C_ab = sum_{i in a, j in b} K_ij) and
// the side weights between clusters, merge the pair that lowers the objective
// most,
//   S_a/n_a + S_b/n_b - (S_a + S_b + 2 C_ab)/(n_a + n_b) - lambda
//     - xi1 (must-link weight between a and b) + xi2 (cannot-link weight between them),
// while any pair does. Returns the number of merges; z, S, D, size and k are
// updated (clusters renumbered by first point when anything merged).
template <class Kern>
int merge_kernel_clusters(Kern& kern, const SideInfo& side, std::vector<int>& z, int& k,
                          std::vector<double>& S, std::vector<double>& D, std::vector<int>& size,
                          double lambda, double xi1, double xi2, double eps, RunHooks& hooks) {
  const int n = kern.n();
  if (k < 2 || k > 2000) return 0;  // k x k tables; beyond that, moves alone
  const std::size_t kk = static_cast<std::size_t>(k) * k;
  std::vector<double> C(kk, 0.0), F(kk, 0.0), G(kk, 0.0);
  std::vector<double> r(k);
  kern.reset(z, k);
  for (int i = 0; i < n; ++i) {
    kern.cluster_sums(i, z, k, r.data());
    double* row = &C[static_cast<std::size_t>(z[i]) * k];
    for (int c = 0; c < k; ++c) row[c] += r[c];
    hooks.poll_interrupt(static_cast<std::size_t>(n) + k);
  }
  const PairGraph& g = side.pairs;
  for (int i = 0; i < g.n && !g.empty(); ++i) {
    for (int e = g.start[i]; e < g.start[i + 1]; ++e) {
      const std::size_t at = static_cast<std::size_t>(z[i]) * k + z[g.nbr[e]];
      if (g.weight[e] > 0.0) F[at] += g.weight[e]; else G[at] -= g.weight[e];
    }
  }
  if (!side.labels.empty()) {
    const int L = side.labels.n_levels;
    std::vector<double> count(static_cast<std::size_t>(k) * L, 0.0), total(k, 0.0);
    for (int i = 0; i < n; ++i) {
      const int l = side.labels.label[i];
      if (l < 0) continue;
      count[static_cast<std::size_t>(z[i]) * L + l] += 1.0;
      total[z[i]] += 1.0;
    }
    for (int a = 0; a < k; ++a) {
      for (int b = 0; b < k; ++b) {
        double same = 0.0;
        for (int l = 0; l < L; ++l) {
          same += count[static_cast<std::size_t>(a) * L + l] * count[static_cast<std::size_t>(b) * L + l];
        }
        F[static_cast<std::size_t>(a) * k + b] += same;
        G[static_cast<std::size_t>(a) * k + b] += total[a] * total[b] - same;
      }
    }
  }
  std::vector<char> alive(k, 1);
  std::vector<int> into(k);
  for (int c = 0; c < k; ++c) into[c] = c;
  int merges = 0;
  for (;;) {
    double best = -eps;
    int ba = -1, bb = -1;
    for (int a = 0; a < k; ++a) {
      if (!alive[a]) continue;
      for (int b = a + 1; b < k; ++b) {
        if (!alive[b]) continue;
        const std::size_t ab = static_cast<std::size_t>(a) * k + b;
        const double na = size[a], nb = size[b];
        const double delta = S[a] / na + S[b] / nb - (S[a] + S[b] + 2.0 * C[ab]) / (na + nb) -
                             lambda - xi1 * F[ab] + xi2 * G[ab];
        if (delta < best) {
          best = delta;
          ba = a;
          bb = b;
        }
      }
    }
    if (ba < 0) break;
    // b into a: the tables' row and column of a absorb those of b.
    S[ba] += S[bb] + 2.0 * C[static_cast<std::size_t>(ba) * k + bb];
    D[ba] += D[bb];
    size[ba] += size[bb];
    for (int c = 0; c < k; ++c) {
      for (std::vector<double>* t : {&C, &F, &G}) {
        (*t)[static_cast<std::size_t>(ba) * k + c] += (*t)[static_cast<std::size_t>(bb) * k + c];
      }
    }
    for (int c = 0; c < k; ++c) {
      for (std::vector<double>* t : {&C, &F, &G}) {
        (*t)[static_cast<std::size_t>(c) * k + ba] = (*t)[static_cast<std::size_t>(ba) * k + c];
      }
    }
    alive[bb] = 0;
    into[bb] = ba;
    ++merges;
  }
  if (merges == 0) return 0;
  for (int c = 0; c < k; ++c) {
    int t = c;
    while (into[t] != t) t = into[t];
    into[c] = t;
  }
  for (int& v : z) v = into[v];
  detail::drop_empty_clusters(kern, z, k, S, D, size);  // the merged-away ones
  return merges;
}

// Kernel RDP-means from the partition z0 (values 0 .. k0 - 1, every cluster
// non-empty). The kernel source is stateful (see kernel_sources.h).
template <class Kern>
KernelRdpResult kernel_rdp_means(Kern& kern, const SideInfo& side, std::vector<int> z,
                                 const KernelRdpParams& par, RunHooks& hooks) {
  const int n = kern.n();
  int k = 0;
  detail::renumber_by_first(z, *std::max_element(z.begin(), z.end()) + 1, k);
  std::vector<double> S, D;
  std::vector<int> size;
  kernel_cluster_stats(kern, z, k, S, D, size, hooks);
  ClusterLinks links(side);
  links.reset(z, k);
  SideAgreement agree = side_agreement(side, z, k);

  KernelRdpResult res;
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::vector<double> r;
  XiSchedule xi(par);
  // Moves must gain more than rounding can fake, or two equal-cost clusters
  // could trade a point forever.
  double scale = 0.0;
  for (int i = 0; i < n; ++i) scale = std::max(scale, std::abs(kern.diag(i)));
  const double eps = 1e-10 * (1.0 + scale + par.lambda);

  for (int iter = 0; iter < par.max_iter; ++iter) {
    if (par.random_order) shuffle(order, hooks);
    int changed = 0;
    const double xi1 = xi.must(), xi2 = xi.cannot();
    for (int idx = 0; idx < n; ++idx) {
      const int i = order[idx];
      const int a = z[i];
      const double kii = kern.diag(i);
      r.resize(k);
      kern.cluster_sums(i, z, k, r.data());
      r[a] -= kii;  // the other members of i's own cluster only
      links.gather(i, z);
      hooks.poll_interrupt(static_cast<std::size_t>(n) + k);

      // Change of the objective when i leaves a (cluster a \ i has m points).
      const int m = size[a] - 1;
      double leave;
      if (m == 0) {
        leave = -par.lambda;
      } else {
        const double s_rest = S[a] - 2.0 * r[a] - kii;
        const double d_rest = kii - 2.0 * r[a] / m + s_rest / (static_cast<double>(m) * m);
        leave = -static_cast<double>(m) / (m + 1) * d_rest;
      }
      leave -= -xi1 * links.must(a) + xi2 * links.cannot(a);

      // Best destination: an existing cluster, or a new one (cost lambda).
      int best = -1;
      double best_delta = m == 0 ? 0.0 : leave + par.lambda;  // staying put costs 0
      for (int c = 0; c < k; ++c) {
        if (c == a || size[c] == 0) continue;
        const double nc = size[c];
        const double d_c = kii - 2.0 * r[c] / nc + S[c] / (nc * nc);
        const double delta = leave + nc / (nc + 1.0) * d_c - xi1 * links.must(c) + xi2 * links.cannot(c);
        if (delta < best_delta) {
          best_delta = delta;
          best = c;
        }
      }
      if (best < 0 && m > 0) best = k;  // a new cluster is the only candidate left
      if (best < 0 || !(best_delta < -eps)) continue;
      if (!std::isfinite(best_delta)) {
        throw std::domain_error(
            "kernel RDP-means met a kernel value that is not finite; check the kernel matrix");
      }

      if (best == k) {  // open a cluster holding i alone
        S.push_back(0.0);
        D.push_back(0.0);
        size.push_back(0);
        r.push_back(0.0);
        kern.add_cluster();
        links.add_cluster();
        ++k;
      }
      agree.must_satisfied += links.must(best) - links.must(a);
      agree.cannot_violated += links.cannot(best) - links.cannot(a);
      S[a] -= 2.0 * r[a] + kii;
      D[a] -= kii;
      --size[a];
      S[best] += 2.0 * r[best] + kii;
      D[best] += kii;
      ++size[best];
      kern.move(i, a, best);
      links.move(i, a, best);
      z[i] = best;
      ++changed;
    }

    // Drop the clusters this sweep emptied.
    if (std::find(size.begin(), size.end(), 0) != size.end()) {
      const std::vector<int> map = detail::drop_empty_clusters(kern, z, k, S, D, size);
      links.renumber(map, z, k);
    }
    if (par.merge_moves && changed == 0) {
      const int merged = merge_kernel_clusters(kern, side, z, k, S, D, size, par.lambda, xi1,
                                               xi2, eps, hooks);
      if (merged > 0) {
        links.reset(z, k);
        agree = side_agreement(side, z, k);
        changed += merged;
      }
    }

    const double data = kernel_data_term(S, D, size);
    const double obj = data + par.lambda * k - xi1 * agree.must_satisfied + xi2 * agree.cannot_violated;
    res.objective.push_back(obj);
    res.data_term.push_back(data);
    res.k_trace.push_back(k);
    res.changes.push_back(changed);
    res.iterations = iter + 1;
    res.xi_must = xi1;
    res.xi_cannot = xi2;
    hooks.check_interrupt();
    hooks.on_sweep(iter + 1, k, obj);

    if (xi.finish_sweep(changed)) {
      res.converged = true;
      break;
    }
  }

  // Number clusters by their first point and report exact sums.
  int k_new = 0;
  detail::renumber_by_first(z, k, k_new);
  k = k_new;
  kernel_cluster_stats(kern, z, k, S, D, size, hooks);
  res.agreement = side_agreement(side, z, k);
  if (!res.objective.empty()) {
    const double data = kernel_data_term(S, D, size);
    res.objective.back() = data + par.lambda * k - res.xi_must * res.agreement.must_satisfied +
                           res.xi_cannot * res.agreement.cannot_violated;
    res.data_term.back() = data;
  }
  res.cluster = z;
  res.k = k;
  res.within = S;
  res.size = size;
  return res;
}

// Kulis & Jordan's farthest-first choice of lambda, in feature space: start
// from the global mean, add k times the point farthest from the set chosen so
// far; lambda is that distance in round k. O(n) kernel columns of work for
// the mean plus k columns.
template <class Kern>
double kernel_farthest_first_lambda(Kern& kern, int k, RunHooks& hooks) {
  const int n = kern.n();
  const std::vector<int> one(n, 0);
  kern.reset(one, 1);
  std::vector<double> row(n);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    double s = 0.0;
    kern.cluster_sums(i, one, 1, &s);
    row[i] = s;
    total += s;
    hooks.poll_interrupt(static_cast<std::size_t>(n));
  }
  std::vector<double> dist(n), col(n);
  for (int i = 0; i < n; ++i) {
    dist[i] = std::max(0.0, kern.diag(i) - 2.0 * row[i] / n + total / (static_cast<double>(n) * n));
  }
  double lambda = 0.0;
  for (int round = 0; round < k; ++round) {
    const int far = static_cast<int>(std::max_element(dist.begin(), dist.end()) - dist.begin());
    lambda = dist[far];
    kern.column(far, col.data());
    const double kff = kern.diag(far);
    for (int i = 0; i < n; ++i) {
      dist[i] = std::min(dist[i], std::max(0.0, kern.diag(i) - 2.0 * col[i] + kff));
    }
    hooks.check_interrupt();
  }
  return lambda;
}

}  // namespace sideclust
