#ifndef SIDECLUST_MUST_LINK_SETS_H
#define SIDECLUST_MUST_LINK_SETS_H

// The must-link chunklets of a pair graph as disjoint sets: every pair of
// positive weight joins its two points' sets.

#include "common/side_graph.h"
#include "common/union_find.h"

namespace sideclust {

inline UnionFind must_link_sets(const PairGraph& g) {
  UnionFind sets(g.n);
  for (int i = 0; i < g.n; ++i) {
    for (int e = g.start[i]; e < g.start[i + 1]; ++e) {
      if (g.weight[e] > 0.0 && g.nbr[e] > i) sets.unite(i, g.nbr[e]);
    }
  }
  return sets;
}

}  // namespace sideclust

#endif
