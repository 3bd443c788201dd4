// DP-means (Kulis & Jordan 2012) and relational DP-means, the small-variance
// limit of TVClust (Khashabi et al., Algorithm 1). Points are the columns of a
// p x n column-major array. Side information enters through ClusterLinks, so
// a sweep costs O(n K p + number of pairs + n) whatever its form. Sparse points
// (common/sparse_rows.h) go through the same code: O(nnz K) per sweep.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/bregman.h"
#include "dpmeans/centres.h"
#include "common/chunklet_moves.h"
#include "dpmeans/side_seeded_start.h"
#include "dpmeans/split_moves.h"
#include "common/cluster_links.h"
#include "engine/avx_dispatch.h"
#include "common/run_hooks.h"
#include "common/side_graph.h"
#include "engine/visit_order.h"
#include "dpmeans/xi_schedule.h"

namespace sideclust {

struct RdpParams : XiScheduleParams {
  double lambda = 1.0;
  bool uniform_order = false;   // random order: a uniformly random permutation at any n
  bool chunklet_moves = false;  // also move whole must-link chunklets
  // Allow the AVX form of the sweeps where the processor has it (false: the
  // portable form, for the tests that compare the two).
  bool use_avx = true;
  // Cap on the number of clusters (centres are dense, k x p: on sparse data
  // with many columns a too small lambda would otherwise exhaust memory).
  int max_clusters = std::numeric_limits<int>::max();
  // A point alone in its cluster weighs staying at lambda, the cost of the
  // cluster it would close by leaving (the greedy step on objective (20)),
  // instead of its divergence 0 to itself. Set by count_divergence_params().
  bool singleton_at_lambda = false;
  // The divergence per unit of the weights xi (count divergences only).
  double xi_unit = 1.0;
  // Starting partition (0-based, every label 0 .. max used); empty: Algorithm
  // 1's single cluster holding every point.
  std::vector<int> start;
  // Count divergences with side information: also run from the start the
  // side information seeds (side_seeded_start()) and keep the lower objective.
  bool side_start = true;
  // Then at most this many runs of split moves (split_moves.h); 0: none.
  int split_tries = 40;
};

// The count divergences (KL, I-divergence): a point alone in its cluster
// compares the other clusters with lambda, the cost of the cluster it closes
// by leaving, rather than with its divergence 0 to itself (a cluster opened
// at one sparse count vector is far from every other point, so it would
// never be joined or left). The weights are given on the scale of the
// log-likelihood (nats) and multiplied by `xi_unit`, the divergence per nat
// (1 / the points' mean count for KL on the normalized rows, 1 for the
// I-divergence). The squared Euclidean distance keeps the earlier rule.
template <class Div>
RdpParams count_divergence_params(const RdpParams& par) {
  if constexpr (std::is_same<Div, SquaredEuclidean>::value) {
    return par;
  } else {
    RdpParams out = par;
    static_cast<XiScheduleParams&>(out) = weights_in_units(par, par.xi_unit);
    out.singleton_at_lambda = true;
    return out;
  }
}
struct RdpResult {
  std::vector<int> cluster;    // 0 .. k - 1
  std::vector<double> centres;  // p x k, column-major
  int k = 0;
  std::vector<double> objective;  // objective (20) after every sweep
  std::vector<int> k_trace;
  std::vector<int> changes;      // points that moved in every sweep
  int iterations = 0;
  bool converged = false;
  double xi_must = 0.0, xi_cannot = 0.0;  // weights of the last sweep
  SideAgreement agreement;                // at the final state
};

namespace detail {

// Renumber the non-empty clusters 0 .. k' - 1 in order; sets k = k' and
// returns the map old -> new (-1 for the removed empty clusters). z is only
// rewritten when a cluster is removed.
inline std::vector<int> drop_empty_clusters(std::vector<int>& z,
                                            const std::vector<int>& size, int& k) {
  std::vector<int> map(size.size(), -1);
  int next = 0;
  for (std::size_t c = 0; c < size.size(); ++c) {
    if (size[c] > 0) map[c] = next++;
  }
  if (next != static_cast<int>(size.size())) {
    for (int& v : z) v = map[v];
  }
  k = next;
  return map;
}

// Renumber clusters by their first point in the original order, so that the
// result does not depend on how points were relabelled internally.
inline std::vector<int> cluster_order(const std::vector<int>& z_original, int k) {
  std::vector<int> rank(k, -1);
  int next = 0;
  for (int v : z_original) {
    if (rank[v] < 0) rank[v] = next++;
  }
  return rank;
}

// Whether run a ends at a lower objective (20) than run b, both taken at the
// larger of their final weights (a run that stopped before its weights
// reached the cap would otherwise look better or worse by the weights alone).
// A tie up to rounding (1e-9 relative) keeps b: equal fits stay independent of
// the order of the sums (dense and sparse points).
inline bool better_run(const RdpResult& a, const RdpResult& b) {
  const double w1 = std::max(a.xi_must, b.xi_must), w2 = std::max(a.xi_cannot, b.xi_cannot);
  auto at = [w1, w2](const RdpResult& r) {
    const double side_now =
        -r.xi_must * r.agreement.must_satisfied + r.xi_cannot * r.agreement.cannot_violated;
    const double side_w = -w1 * r.agreement.must_satisfied + w2 * r.agreement.cannot_violated;
    return r.objective.back() - side_now + side_w;
  };
  const double va = at(a), vb = at(b);
  return va < vb - 1e-9 * std::max(std::abs(va), std::abs(vb));
}

}  // namespace detail

template <class Div, class Rows>
RdpResult rdp_means_sweeps(const Rows& rows, const SideInfo& side, VisitOrder& visit,
                           const RdpParams& par, RunHooks& hooks);

// DP-means / RDP-means on the points `rows` (common/sparse_rows.h: the columns
// of a p x n array, or sparse rows), in place: the random order visits blocks
// of consecutive points (see VisitOrder), so neither the data nor the pairs
// are copied or relabelled. The pairs need their adjacency (build_adjacency()).
template <class Div, class Rows>
RdpResult rdp_means_rows(const Rows& rows, const SideInfo& side, const RdpParams& par,
                         RunHooks& hooks) {
  const int n = rows.n(), p = rows.p();
  if (!side.pairs.empty() && !side.pairs.has_adjacency()) {
    throw std::logic_error("internal: rdp_means needs the pairs' adjacency");
  }
  VisitOrder visit(n,
                   !par.random_order ? VisitKind::fixed
                   : par.uniform_order ? VisitKind::uniform
                                       : VisitKind::random,
                   hooks);
  const RdpParams count_par = count_divergence_params<Div>(par);
  RdpResult res = rdp_means_sweeps<Div>(rows, side, visit, count_par, hooks);
  if constexpr (!std::is_same<Div, SquaredEuclidean>::value) {
    if (par.side_start && par.start.empty() && !side.empty()) {
      RdpParams seeded = count_par;
      seeded.start = side_seeded_start<Div>(rows, side);
      if (!seeded.start.empty()) {
        RdpResult alt = rdp_means_sweeps<Div>(rows, side, visit, seeded, hooks);
        if (detail::better_run(alt, res)) res = std::move(alt);
      }
      if (par.split_tries > 0 && side.labels.empty()) {
        // split moves, each re-run with the whole weight schedule (measured
        // better than re-running at the final weights)
        auto run_from = [&](const std::vector<int>& start) {
          RdpParams again = count_par;
          again.start = start;
          return rdp_means_sweeps<Div>(rows, side, visit, again, hooks);
        };
        res = split_cannot_linked<Div>(rows, side.pairs, std::move(res), run_from,
                                       detail::better_run, hooks, par.split_tries, 8);
      }
    }
  }
  const std::vector<int> rank = detail::cluster_order(res.cluster, res.k);
  for (int& v : res.cluster) v = rank[v];
  std::vector<double> centres(res.centres.size());
  for (int c = 0; c < res.k; ++c) {
    std::copy(res.centres.begin() + static_cast<std::size_t>(c) * p,
              res.centres.begin() + static_cast<std::size_t>(c + 1) * p,
              centres.begin() + static_cast<std::size_t>(rank[c]) * p);
  }
  res.centres.swap(centres);
  return res;
}

// DP-means / RDP-means on the points stored as the columns of x (p x n).
template <class Div>
RdpResult rdp_means(const double* x, int n, int p, const SideInfo& side,
                    const RdpParams& par, RunHooks& hooks) {
  return rdp_means_rows<Div>(DenseRows(x, n, p), side, par, hooks);
}

// The sweeps of Algorithm 1 over points in storage order 0 .. n - 1. The
// visits of a sweep run in the engine (engine/avx_dispatch.h); dense points
// under the squared Euclidean distance take the AVX kernels where the
// processor has them (the distances are most of a sweep's arithmetic), with
// the same values.
template <class Div, class Rows>
RdpResult rdp_means_sweeps(const Rows& x, const SideInfo& side, VisitOrder& visit,
                           const RdpParams& par, RunHooks& hooks) {
  const int n = x.n(), p = x.p();
  RdpResult res;
  // Dense points under the squared Euclidean distance have no point term:
  // the sweeps then neither store nor read one (random visits touch one
  // array less).
  constexpr bool no_point_term =
      std::is_same<Div, SquaredEuclidean>::value && std::is_same<Rows, DenseRows>::value;
  constexpr bool kQuadsForm = no_point_term;  // four distances per AVX instruction
  std::vector<double> point_term(no_point_term && !par.chunklet_moves ? 0 : n, 0.0);
  if (!no_point_term) {
    for (int i = 0; i < n; ++i) point_term[i] = Div::point_term(x.row(i), p);
  }
  auto term = [&point_term](int i) { return no_point_term ? 0.0 : point_term[i]; };

  // Algorithm 1 starts from one cluster holding every point (or from the
  // given starting partition).
  std::vector<int> z(n, 0);
  int k = 1;
  if (static_cast<int>(par.start.size()) == n && n > 0) {
    z = par.start;
    k = *std::max_element(z.begin(), z.end()) + 1;
  }
  Centres<Div> centres(p);
  centres.recompute(x, z, k);
  std::vector<int> size(k, 0);
  for (int v : z) ++size[v];
  ClusterLinks links(side);
  links.reset(z, k);

  XiSchedule xi(par);
  // Kept must-link and broken cannot-link weight, updated as points move.
  SideAgreement agree = side_agreement(side, z, k);
  // d: divergences to the centres; cost: d plus the side terms.
  std::vector<double> d, cost;
  const Chunklets chunklets =
      par.chunklet_moves ? must_link_chunklets(side.pairs) : Chunklets{};

  for (int iter = 0; iter < par.max_iter; ++iter) {
    visit.next_sweep(hooks);
    const std::vector<int>& order = visit.order();
    int changed = 0;
    int emptied = 0;  // clusters emptied in this sweep (removed at its end)
    // Sum of D(x_i, centre of its cluster when i was visited): with
    // Centres' anchor gap it gives the sweep's objective (see below).
    double visit_sum = 0.0;
    const double xi1 = xi.must(), xi2 = xi.cannot();
    // Whether the weights still grow after this sweep, and whether (while no
    // point has moved in it) every point keeps preferring its own cluster
    // however far they grow; see the stopping rule below.
    const bool grow1 = xi.must_grows(), grow2 = xi.cannot_grows();
    bool side_settled = par.xi_rate > 1.0 && chunklets.count() == 0 && (grow1 || grow2);
    // The visits, with the distance kernels of the tag (AvxKernels: dense
    // points, squared Euclidean, where the processor has AVX).
    run_with_kernels_if<kQuadsForm>(par.use_avx, [&](auto kernels) {
      for (int idx = 0; idx < n; ++idx) {
        const int i = order[idx];
        const auto xi = x.row(i);
        // Raw buffers with room for three more clusters than k: the padding
        // of the distances to a multiple of 2 (4 for the AVX kernels), a cluster opened
        // at x_i, the scratch slot of add_side_terms().
        if (static_cast<int>(d.size()) < k + 4) {
          d.resize(2 * static_cast<std::size_t>(k) + 4);
          cost.resize(d.size());
        }
        double* dist = d.data();
        double* point_cost = cost.data();
        if constexpr (decltype(kernels)::avx) {
          centres.distances_quads(kernels, xi, dist, point_cost);
        } else {
          centres.distances(xi, term(i), dist, point_cost);
        }
        links.gather(i, z);
        links.add_side_terms(point_cost, k, xi1, xi2);
        if (par.singleton_at_lambda && size[z[i]] == 1) point_cost[z[i]] = par.lambda;
        if (side_settled && changed == 0) side_settled = links.prefers_own(k, grow1, grow2);
        hooks.poll_interrupt(static_cast<std::size_t>(k) * x.work(i));
        int best = -1;
        double best_d = std::numeric_limits<double>::infinity();
        if (emptied == 0) {  // no cluster to skip (nearly always)
          for (int c = 0; c < k; ++c) {
            if (point_cost[c] < best_d) {
              best_d = point_cost[c];
              best = c;
            }
          }
        } else {
          for (int c = 0; c < k; ++c) {
            // A cluster emptied during this sweep is removed at its end.
            if (size[c] > 0 && point_cost[c] < best_d) {
              best_d = point_cost[c];
              best = c;
            }
          }
        }
        if (!(best_d <= par.lambda)) {  // every centre beyond lambda: open a cluster at x_i
          if (k >= par.max_clusters) {
            throw std::length_error(
                "RDP-means opened more clusters than the dense centres may hold (" +
                std::to_string(par.max_clusters) + " centres of " + std::to_string(p) +
                " coordinates, options(sideclust.max_center_bytes)); raise lambda (or give a "
                "smaller k to derive it from)");
          }
          centres.push(xi);
          size.push_back(0);
          links.add_cluster();
          best = k++;
          dist[best] = centres.distance(xi, term(i), best);
        }
        if (best < 0) {  // no finite cost anywhere (lambda infinite): never index at -1
          throw std::domain_error(
              "RDP-means found no finite cost for a point (lambda or the distances are not "
              "finite); scale the data or give a finite lambda");
        }
        visit_sum += dist[best];
        const int from = z[i];
        if (best != from) {
          agree.must_satisfied += links.must(best) - links.must(from);
          agree.cannot_violated += links.cannot(best) - links.cannot(from);
          links.move(i, from, best);
          emptied += --size[from] == 0;
          ++size[best];
          z[i] = best;
          ++changed;
        }
      }
    });

    // Centre update: cluster means; empty clusters are removed. With `gap`,
    // also the anchor gap of the new means to the centres the sweep used.
    auto update_centres = [&](double* gap) {
      const int k_old = k;
      const std::vector<int> map = detail::drop_empty_clusters(z, size, k);
      std::vector<int> old_of(k);
      for (int c = 0; c < k_old; ++c) {
        if (map[c] >= 0) old_of[map[c]] = c;
      }
      centres.recompute(x, z, k, &old_of, gap);
      if (k != k_old) {
        for (int c = 0; c < k; ++c) size[c] = size[old_of[c]];
        size.resize(k);
        links.renumber(map, z, k);
      }
    };
    double gap = 0.0;
    update_centres(&gap);
    // The objective at the new centres: the visits' divergences less the gap
    // (equal up to rounding to a pass over the points), unless chunklet moves
    // changed the clusters afterwards.
    double point_obj = visit_sum - gap;
    if (chunklets.count() > 0) {
      const int moved = move_chunklets<Div>(x, point_term, chunklets, side.pairs,
                                            par.lambda, centres, z, size, k, xi1,
                                            xi2, agree);
      if (moved > 0) {
        links.reset(z, k);
        update_centres(nullptr);
        point_obj = 0.0;
        for (int i = 0; i < n; ++i) {
          point_obj += centres.distance(x.row(i), term(i), z[i]);
        }
      }
      changed += moved;
    }

    const double obj =
        par.lambda * k - xi1 * agree.must_satisfied + xi2 * agree.cannot_violated + point_obj;
    res.objective.push_back(obj);
    res.k_trace.push_back(k);
    res.changes.push_back(changed);
    res.iterations = iter + 1;
    res.xi_must = xi1;
    res.xi_cannot = xi2;
    hooks.check_interrupt();
    hooks.on_sweep(iter + 1, k, obj);

    // A sweep without a change ends the run also while the weights still
    // grow when no point has a broken pair whose growing penalty could pull
    // it elsewhere (side_settled): the remaining sweeps of the schedule would
    // change nothing but the weights.
    if (xi.finish_sweep(changed, side_settled)) {
      res.converged = true;
      break;
    }
  }

  // Exact, free of rounding drift; the links' view of the neighbours'
  // clusters spares a random read of z per pair.
  res.agreement = side_agreement(side, z, k, links.neighbour_clusters());
  res.cluster = z;
  res.k = k;
  res.centres = centres.means();
  return res;
}

// Divergence (by Div) of every point of x to every centre: an n x k
// column-major matrix, for predict() on new points.
template <class Div, class Rows>
std::vector<double> centre_divergences(const Rows& x, const double* centres, int k) {
  const int n = x.n(), p = x.p();
  Centres<Div> c(p);
  for (int j = 0; j < k; ++j) c.push(centres + static_cast<std::size_t>(j) * p);
  std::vector<double> out(static_cast<std::size_t>(n) * k);
  std::vector<double> d;
  for (int i = 0; i < n; ++i) {
    c.distances(x.row(i), Div::point_term(x.row(i), p), d);
    for (int j = 0; j < k; ++j) out[static_cast<std::size_t>(j) * n + i] = d[j];
  }
  return out;
}

}  // namespace sideclust
