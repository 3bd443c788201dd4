// LCVQE's component moves (pairwise/lcvqe.h): after each sweep of single
// points, whole must-link components move to the cluster minimizing L
// (Pelleg & Baras (2007) assign a violated pair jointly; moving the whole
// component generalizes that). A single-point move breaks must-links and
// rarely pays, so without these moves a component split by the seeds stays
// split.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/run_hooks.h"
#include "common/side_graph.h"
#include "common/union_find.h"
#include "engine/avx_dispatch.h"
#include "engine/distance_records.h"
#include "engine/lookahead.h"
#include "pairwise/pair_sweeps.h"

namespace sideclust {
namespace lcvqe_detail {

// The must-link components of two or more points (union-find over the
// must-links), as lists of points; id[i] = -1 for a point in none.
struct MustLinkComponents {
  std::vector<int> id, start, members;  // members of g: members[start[g] .. start[g + 1])

  MustLinkComponents() = default;
  MustLinkComponents(const PairGraph& pairs, int n) {
    if (pairs.empty()) return;
    UnionFind sets(static_cast<std::size_t>(n));
    for (std::size_t l = 0; l < pairs.n_pairs(); ++l) {
      if (pairs.must(l)) sets.unite(pairs.first[l], pairs.second[l]);
    }
    id.assign(n, -1);
    std::vector<int> root_id(n, -1);
    int count = 0;
    for (int i = 0; i < n; ++i) {
      const std::size_t r = sets.find(i);
      if (sets.set_size(r) < 2) continue;
      if (root_id[r] < 0) root_id[r] = count++;
      id[i] = root_id[r];
    }
    start.assign(count + 1, 0);
    for (int i = 0; i < n; ++i) {
      if (id[i] >= 0) ++start[id[i] + 1];
    }
    for (int g = 0; g < count; ++g) start[g + 1] += start[g];
    members.resize(start[count]);
    std::vector<int> fill(start.begin(), start.end() - 1);
    for (int i = 0; i < n; ++i) {
      if (id[i] >= 0) members[fill[id[i]]++] = i;
    }
  }
  int count() const { return start.empty() ? 0 : static_cast<int>(start.size()) - 1; }
};

// move_components()'s sweep, with its look-ahead stages and body inlined
// by move_components().
inline int move_sweep(const MustLinkComponents& comp, const Eigen::Ref<const Eigen::MatrixXd>& x,
                      const PairGraph& pairs, const PackedEdge* edges, int k, DistanceRecords& cd,
                      std::vector<int>& z, BrokenPairs& status, SweepSums& sums, RunHooks& hooks) {
  std::vector<double> cost(k);
  int moved = 0;
  // The members of all components in turn are one sequence for the reads
  // ahead (they lie scattered through memory): a member's record and
  // cluster, its adjacency entries, then its partners' records and clusters.
  const std::vector<int>& members = comp.members;
  const int total = static_cast<int>(members.size());
  auto own_reads = [&](int t, const Upcoming& r) {
    const int f = members[t];
    cd.read_ahead(f, r);
    r.line(&z[f]);
    r.line(&pairs.start[f]);
  };
  auto entry_reads = [&](int t, const Upcoming& r) {
    const int f = members[t];
    if (pairs.start[f + 1] > pairs.start[f]) r.span(edges + pairs.start[f], pairs.start[f + 1] - pairs.start[f]);
  };
  auto partner_reads = [&](int t, const Upcoming& r) {
    const int f = members[t];
    for (int e = pairs.start[f]; e < pairs.start[f + 1]; ++e) {
      cd.read_ahead(edges[e].nbr, r);
      r.line(&z[edges[e].nbr]);
    }
  };
  for (int g = 0; g < comp.count(); ++g) {
    double current = 0.0;
    std::fill(cost.begin(), cost.end(), 0.0);
    for_range_ahead(comp.start[g], comp.start[g + 1], total, [&](int t) {
      const int i = members[t];
      hooks.poll_interrupt(static_cast<std::size_t>(k) * (1 + pairs.start[i + 1] - pairs.start[i]));
      current += 0.5 * cd.dist(i, z[i]);
      for (int u = 0; u < k; ++u) cost[u] += 0.5 * cd.dist(i, u);
      for (int e = pairs.start[i]; e < pairs.start[i + 1]; ++e) {
        const int o = edges[e].nbr;
        const bool inside = edges[e].tag == g;  // comp.id[o], packed
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
    }, ahead<48>(own_reads), ahead<32>(entry_reads), ahead<16>(partner_reads));
    int best = 0;
    for (int u = 1; u < k; ++u) {
      if (cost[u] < cost[best]) best = u;
    }
    if (!(cost[best] < current - 1e-12 * (1.0 + current))) continue;
    for (int t = comp.start[g]; t < comp.start[g + 1]; ++t) {
      const int i = members[t];
      if (z[i] != best) {
        sums.move(z[i], best, x.col(i).data());
        z[i] = best;
        cd.set_cluster(i, best);
        ++moved;
        status.update_point(i, z);
      }
    }
  }
  return moved;
}

// Every component in turn moves to the cluster u minimizing L (centres and
// all other points fixed) when that is strictly cheaper. The terms that
// change are the members' own, the must-links inside (all kept in u) and
// the cannot-links touching the component. edges: the pairs' adjacency
// packed with the partner's component as tag. Returns the points moved.
inline int move_components(const MustLinkComponents& comp, const Eigen::Ref<const Eigen::MatrixXd>& x,
                           const PairGraph& pairs, const PackedEdge* edges, int k, DistanceRecords& cd,
                           std::vector<int>& z, BrokenPairs& status, SweepSums& sums, RunHooks& hooks) {
  return run_inlined([&] { return move_sweep(comp, x, pairs, edges, k, cd, z, status, sums, hooks); });
}

}  // namespace lcvqe_detail
}  // namespace sideclust
