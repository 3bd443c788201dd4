// LCVQE's objective terms (pairwise/lcvqe.h): what a broken cannot-link is
// charged (the cheapest alternative assignment of either point), the cost
// of every cluster for one point in an assignment step, and the penalty
// part of L over the broken pairs. All read the distance records
// (engine/distance_records.h), which hold every point's distances to every
// centre, its two nearest and its cluster.
#pragma once

#include <cmath>
#include <vector>

#include "common/side_graph.h"
#include "engine/avx_dispatch.h"
#include "engine/branch_free.h"
#include "engine/distance_records.h"
#include "engine/lookahead.h"
#include "engine/one_hot_costs.h"
#include "pairwise/pair_sweeps.h"

namespace sideclust {

namespace lcvqe_detail {

// The alternative (r, j) a broken cannot-link (a, b) in cluster u is charged:
// the pair's point closest to another centre, first point on ties.
struct Alternative {
  int r, j;
  double d;
};
inline Alternative cannot_alternative(const DistanceRecords& cd, int a, int b, int u) {
  const double da = cd.alternative_dist(a, u), db = cd.alternative_dist(b, u);
  if (da <= db) return {a, cd.alternative(a, u), da};
  return {b, cd.alternative(b, u), db};
}

// cannot_alternative()'s point r and distance d alone (no search for j).
inline int cannot_charged(const DistanceRecords& cd, int a, int b, int u) {
  return cd.alternative_dist(a, u) <= cd.alternative_dist(b, u) ? a : b;
}
inline double cannot_charge(const DistanceRecords& cd, int a, int b, int u) {
  const double da = cd.alternative_dist(a, u), db = cd.alternative_dist(b, u);
  return da <= db ? da : db;
}

// Runs body(l) for every l in `broken` (pairs of g), with the records of
// both points of a pair read 32 pairs ahead and, 16 pairs ahead, whatever
// else reads(l, a, b, upcoming) names once the records are cached (the
// records hold the clusters, which decide what the body reads).
template <class Reads, class Body>
void for_each_broken_pair(const std::vector<int>& broken, const PairGraph& g, const DistanceRecords& cd,
                          Reads&& reads, Body&& body) {
  run_inlined([&] {
    for_each_id_ahead(broken, broken.size(), body, ahead<32>([&](int l, const Upcoming& r) {
                        cd.read_ahead(g.first[l], r);
                        cd.read_ahead(g.second[l], r);
                      }),
                      ahead<16>([&](int l, const Upcoming& r) { reads(l, g.first[l], g.second[l], r); }));
  });
}

// The penalty part of L, with cd refreshed at the centres (its records
// holding the clusters) and `broken` the broken pairs.
inline double penalty_part(const PairGraph& g, const DistanceRecords& cd, const std::vector<int>& broken) {
  double penalty = 0.0;
  for_each_broken_pair(broken, g, cd, [](int, int, int, const Upcoming&) {}, [&](int l) {
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
inline void objective_parts(const PairGraph& g, const std::vector<int>& z, const DistanceRecords& cd,
                            const std::vector<int>& broken, double& within, double& penalty) {
  within = 0.0;
  const int n = static_cast<int>(z.size());
  for (int i = 0; i < n; ++i) within += cd.dist(i, z[i]);
  within *= 0.5;
  penalty = penalty_part(g, cd, broken);
}


// The costs an assignment step weighs for the point with record own and
// constraints edges[first .. last): for every cluster u, half its distance
// to c_u plus what its constraints to assigned partners o (in cluster zo)
// would charge if it joined u: a must-link is broken unless it joins zo, so
// for u != zo it pays w/2 (own[zo] + o's distance to c_u); a cannot-link is
// broken if it joins zo, charging w/2 the cheaper alternative. Both kinds
// are added at once, one with weight 0 (OneHotCosts: the same values as
// the branching form). cost needs room for k + 1 doubles.
template <int K>
void point_costs(const OneHotCosts<K>& one_hot, const DistanceRecords& cd, const double* own,
                 const PackedEdge* edges, int first, int last, double* cost) {
  one_hot.costs(0.5, own, [&](auto&& add) {
    for (int e = first; e < last; ++e) {
      const double* other = cd.record(edges[e].nbr);
      const int zo = cd.cluster_in(other);
      if (zo < 0) continue;
      const double w = edges[e].value;
      const double half = 0.5 * std::abs(w);
      const double as_must = half * static_cast<double>(!std::signbit(w));  // half or 0
      const double charge = (half - as_must) * min_of(cd.alternative_in(own, zo), cd.alternative_in(other, zo));
      add(zo, as_must, own[zo], other, charge);
    }
  }, cost);
}

}  // namespace lcvqe_detail

}  // namespace sideclust
