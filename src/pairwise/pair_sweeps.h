// What the sweeps of the soft-constraint k-means methods over randomly placed
// pairs share. First, which pairwise constraints the current assignment
// breaks (a must-link across clusters, a cannot-link inside one), kept up to
// date as points move.
// The penalties and the centre or metric updates of the soft-constraint
// k-means methods need only the broken pairs; finding them by a pass over
// all pairs reads the clusters of both points of every pair, two random
// memory accesses per pair, which at 1e6 pairs cost more than a Lloyd
// iteration. A sweep that moves point i reads its partners' clusters anyway,
// so it updates the status of i's pairs there, and the broken pairs come out
// of one pass over a byte per pair, in the pairs' given order.
// Then the per-cluster sums a sweep keeps as it settles points. How a sweep
// reads a point's constraints (packed entries, loads staged ahead) is the
// engine's (engine/staged_sweep.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <Eigen/Dense>

#include "engine/lanes2.h"
#include "engine/staged_sweep.h"
#include "common/run_hooks.h"
#include "common/side_graph.h"

namespace sideclust {

// The pair (given order) of every adjacency entry of g, by replaying the
// counting sort of make_pair_graph(), checked against the graph. Built once
// per fit and shared by its runs; polls for interrupts (two random writes a
// pair, counted as 8 units of work each).
inline std::vector<int> edge_pairs(const PairGraph& g, RunHooks& hooks) {
  std::vector<int> out(g.nbr.size());
  if (g.empty()) return out;
  std::vector<int> fill(g.start.begin(), g.start.end() - 1);
  for (std::size_t l = 0; l < g.n_pairs(); ++l) {
    hooks.poll_interrupt(16);
    const int a = fill[g.first[l]]++, b = fill[g.second[l]]++;
    if (g.nbr[a] != g.second[l] || g.nbr[b] != g.first[l] || g.mirror[a] != b) {
      throw std::logic_error("edge_pairs: the pair graph was not built by make_pair_graph()");
    }
    out[a] = out[b] = static_cast<int>(l);
  }
  return out;
}

// The entries of g in its adjacency order (entry e at position e), filled by
// fill(e) -> PackedEdge (engine/staged_sweep.h).
template <class Fill>
std::vector<PackedEdge> pack_edges(const PairGraph& g, Fill&& fill) {
  std::vector<PackedEdge> out(g.nbr.size());
  for (std::size_t e = 0; e < out.size(); ++e) out[e] = fill(static_cast<int>(e));
  return out;
}

class BrokenPairs {
 public:
  // edge_pair: edge_pairs(g), which must outlive this object. Starts with
  // no point assigned: a must-link with an unassigned point counts as
  // broken, a cannot-link not, until that point is assigned and updates it.
  BrokenPairs(const PairGraph& g, const std::vector<int>& edge_pair)
      : g_(g), edge_pair_(edge_pair), broken_(g.n_pairs()) {
    for (std::size_t l = 0; l < g.n_pairs(); ++l) broken_[l] = g.must(l);
  }

  // Point i has just moved to cluster zi: the status of its pair through
  // adjacency entry e, whose other point is in cluster zo (-1: unassigned).
  void update(int e, int zi, int zo) { update(e, g_.weight[e], zi, zo); }
  // The same with the entry's signed weight at hand (a sweep reading packed
  // entries spares the graph's weight array a visit).
  void update(int e, double weight, int zi, int zo) {
    broken_[edge_pair_[e]] = !std::signbit(weight) == (zi != zo);
  }

  // Point i has just moved: the status of all its pairs.
  void update_point(int i, const std::vector<int>& z) {
    for (int e = g_.start[i]; e < g_.start[i + 1]; ++e) update(e, z[i], z[g_.nbr[e]]);
  }

  // After a sweep that marked the points it moved in `moved` (cleared here),
  // z their clusters: the status of every pair with a moved point. The same
  // as update_point() at each move, as a pair's status depends only on the
  // clusters of its points and each point moves at most once a sweep, but
  // in index order, so that the adjacency and pair arrays are read in runs
  // instead of at the random places of the moves.
  template <class Label>
  void update_moved(std::vector<std::uint8_t>& moved, const std::vector<Label>& z) {
    const std::size_t n = moved.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (i + 8 <= n) {  // eight points nothing moved at a time
        std::uint64_t eight;
        std::memcpy(&eight, &moved[i], sizeof eight);
        if (eight == 0) {
          i += 7;
          continue;
        }
      }
      if (!moved[i]) continue;
      moved[i] = 0;
      for (int e = g_.start[i]; e < g_.start[i + 1]; ++e) update(e, z[i], z[g_.nbr[e]]);
    }
  }

  // sum of per_pair[l] over the broken pairs l, in the given order.
  double sum(const std::vector<double>& per_pair) const {
    double out = 0.0;
    for (std::size_t l = 0; l < broken_.size(); ++l) {
      if (broken_[l]) out += per_pair[l];
    }
    return out;
  }

  // The broken pairs in the given order, into out.
  void list(std::vector<int>& out) const {
    out.clear();
    for (std::size_t l = 0; l < broken_.size(); ++l) {
      if (broken_[l]) out.push_back(static_cast<int>(l));
    }
  }

 private:
  const PairGraph& g_;
  const std::vector<int>& edge_pair_;
  std::vector<std::uint8_t> broken_;
};

// The per-cluster sums and counts of the points, kept by the sweeps so that
// the centre update needs no pass of its own over all n points (at n = 1e6,
// p = 10 a sizeable part of a Lloyd iteration): either added afresh as a
// sweep settles each point (a point's cluster is final for the sweep once it
// is visited), or carried along as points move (a sweep that does not read
// the coordinates otherwise). Either way the centres differ from sums taken
// in index order by rounding only.
struct SweepSums {
  Eigen::MatrixXd sum;        // p x k
  std::vector<double> count;  // k

  void reset(Eigen::Index p, int k) {
    sum.setZero(p, k);
    count.assign(k, 0.0);
  }
  void add(int h, const double* x) {
    add_into(sum.col(h).data(), x, sum.rows());
    count[h] += 1.0;
  }
  // A point already added to cluster `from` moves to `to` (a later step of
  // the same iteration, such as a whole component's move).
  void move(int from, int to, const double* x) {
    double* a = sum.col(from).data();
    double* b = sum.col(to).data();
    for (Eigen::Index d = 0; d < sum.rows(); ++d) {
      a[d] -= x[d];
      b[d] += x[d];
    }
    count[from] -= 1.0;
    count[to] += 1.0;
  }
};

}  // namespace sideclust
