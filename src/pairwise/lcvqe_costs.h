// The costs an LCVQE assignment step weighs for one point (pairwise/lcvqe.h):
// for every cluster u, half the point's squared distance to c_u plus what
// its constraints would charge if it joined u, given its partners' clusters.
// For a small number of clusters K (2 .. 6) two clusters share each
// instruction (SSE2 lanes, engine/lanes2.h), and which clusters a
// constraint charges is decided by multiplying by 1 or 0 rather than by a
// branch on the partner's cluster (random from one constraint to the next):
// every cost is the sum of the same terms in the same order as one cluster
// at a time would give, plus exact zeros, so the values are bitwise the
// same.
#pragma once

#include <cmath>
#include <cstring>

#include "engine/force_inline.h"
#include "pairwise/lcvqe_records.h"
#include "pairwise/pair_sweeps.h"
#include "engine/sq_distance.h"

namespace sideclust {
namespace lcvqe_detail {

#if defined(SIDECLUST_HAS_LANES2)
template <int K>
class LaneCosts {
  static constexpr int kLanes = K > 0 ? (K + 1) / 2 : 1;

 public:
  LaneCosts() {
    for (int zo = 0; zo < (K > 0 ? K : 1); ++zo) {
      for (int h = 0; h < kLanes; ++h) {
        const double a = 2 * h == zo, b = 2 * h + 1 == zo;
        other_[zo][h] = Lanes2{1.0 - a, 1.0 - b};
        only_[zo][h] = Lanes2{a, b};
      }
    }
  }

  // cost[0 .. K] (K: a padding lane, not a cost) for the point with record
  // own and constraints edges[first .. last): 0.5 own[u], plus for each
  // constraint to an assigned partner o in cluster zo, a must-link's
  // w/2 (own[zo] + o's distance to c_u) for u != zo, a cannot-link's w/2
  // min(alternatives of both) for u = zo.
  SIDECLUST_FORCE_INLINE void costs(const CentreDistances& cd, const double* own, const PackedEdge* edges,
                                    int first, int last, double* cost) const {
    Lanes2 c[kLanes];
    for (int h = 0; h < kLanes; ++h) c[h] = Lanes2{0.5, 0.5} * load(own + 2 * h);
    for (int e = first; e < last; ++e) {
      const double* other = cd.record(edges[e].nbr);
      const int zo = cd.cluster_in(other);
      if (zo < 0) continue;
      const double w = edges[e].value;
      const double half = 0.5 * std::abs(w);
      // Both kinds at once, one of them with weight 0 (the kind is random
      // from one constraint to the next, so a branch on it is often
      // mispredicted). A must-link is broken unless the point joins zo: it
      // pays its distance to c_zo, o its distance to the point's centre
      // (the lanes other than zo). A cannot-link is broken if the point
      // joins zo: the cheaper alternative (lane zo).
      const double as_must = half * static_cast<double>(!std::signbit(w));  // half or 0
      const double charge = (half - as_must) * min_of(cd.alternative_in(own, zo), cd.alternative_in(other, zo));
      const Lanes2 hw{as_must, as_must}, mine{own[zo], own[zo]}, v{charge, charge};
      for (int h = 0; h < kLanes; ++h) {
        c[h] += (hw * (mine + load(other + 2 * h))) * other_[zo][h] + v * only_[zo][h];
      }
    }
    std::memcpy(cost, c, sizeof c);
  }

 private:
  static SIDECLUST_FORCE_INLINE Lanes2 load(const double* p) {
    Lanes2 v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }

  Lanes2 other_[K > 0 ? K : 1][kLanes];  // lane u: 1 if u != zo, else 0
  Lanes2 only_[K > 0 ? K : 1][kLanes];   // lane u: 1 if u == zo, else 0
};
#endif

}  // namespace lcvqe_detail
}  // namespace sideclust
