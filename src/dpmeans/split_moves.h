// Split moves for RDP-means on counts: a cluster that holds both points of a
// cannot-link is split in two, its points going to the nearer of the two
// points' must-link chunklet means, and the sweeps run again from there; the
// split is kept when the objective (20) is lower. One-point moves cannot
// split a cluster whose points are all far from one another (sparse counts),
// however many cannot-links it breaks.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "common/run_hooks.h"
#include "common/side_graph.h"
#include "dpmeans/centres.h"
#include "dpmeans/side_seeded_start.h"

namespace sideclust {

// best: a finished run (cluster labels 0 .. k - 1); run_from(start) runs the
// sweeps from a starting partition; better(a, b): whether run a is lower.
// Rounds draw up to `per_round` broken cannot-links at random (hooks) and
// keep the first split that lowers the objective; at most `max_tries` runs.
template <class Div, class Rows, class Result, class RunFrom, class Better>
Result split_cannot_linked(const Rows& x, const PairGraph& g, Result best, RunFrom run_from,
                           Better better, RunHooks& hooks, int max_tries, int per_round) {
  if (g.empty() || !g.has_adjacency()) return best;
  const int n = x.n(), p = x.p();
  const std::vector<std::size_t> root = detail::must_link_roots(g);
  int tries = 0;
  std::vector<double> d(8);
  while (tries < max_tries) {
    std::vector<std::pair<int, int>> broken;
    for (int i = 0; i < n; ++i) {
      for (int e = g.start[i]; e < g.start[i + 1]; ++e) {
        const int j = g.nbr[e];
        if (g.weight[e] < 0.0 && j > i && best.cluster[i] == best.cluster[j] &&
            root[i] != root[j]) {
          broken.emplace_back(i, j);
        }
      }
    }
    bool improved = false;
    for (int c = 0; c < per_round && !broken.empty() && tries < max_tries; ++c) {
      const std::size_t pick = static_cast<std::size_t>(hooks.unif_index(broken.size()));
      const std::pair<int, int> ab = broken[pick];
      broken[pick] = broken.back();
      broken.pop_back();
      // the means of the two chunklets (label 2: every other point)
      std::vector<int> lab(n, 2);
      bool rest = false;
      for (int i = 0; i < n; ++i) {
        if (root[i] == root[ab.first]) {
          lab[i] = 0;
        } else if (root[i] == root[ab.second]) {
          lab[i] = 1;
        } else {
          rest = true;
        }
      }
      Centres<Div> centres(p);
      centres.recompute(x, lab, rest ? 3 : 2);
      const int from = best.cluster[ab.first];
      std::vector<int> start(best.cluster);
      int moved = 0, stayed = 0;
      for (int i = 0; i < n; ++i) {
        if (start[i] != from) continue;
        const auto row = x.row(i);
        centres.distances(row, Div::point_term(row, p), d.data());
        if (d[1] < d[0]) {
          start[i] = best.k;
          ++moved;
        } else {
          ++stayed;
        }
      }
      if (moved == 0 || stayed == 0) continue;
      ++tries;
      Result alt = run_from(start);
      if (better(alt, best)) {
        best = std::move(alt);
        improved = true;
        break;
      }
    }
    if (!improved) break;
  }
  return best;
}

}  // namespace sideclust
