// The hidden Markov random field of pairwise constraints (Nelson & Cohen,
// equations 4-7) on "units": points joined by certain must-links are merged
// into one unit (a chunklet), since every labeling that splits them has prior
// probability zero. Between units, the log prior of a labeling is
//   sum over unit pairs (u, v) of J_uv * I{y_u = y_v},
// with J = +2W for a must-link and -2W for a cannot-link of penalty W
// (equation 7: a factor exp(-2W) per violated pair), summed over the pairs
// joining two units; a certain cannot-link (W = Inf) makes the pair `hard`
// (the labeling has probability zero). The point-level pairs arrive as the
// side information's PairGraph whose weights' magnitudes are the penalties W
// in [0, Inf]. Plain C++17, no R API.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "common/group_by_id.h"
#include "common/side_graph.h"
#include "common/union_find.h"

namespace sideclust {

struct UnitGraph {
  int n_units = 0;
  std::vector<int> unit_of;   // point -> unit, numbered by first point
  std::vector<int> size;      // points per unit
  std::vector<int> start;     // CSR over units
  std::vector<int> nbr;
  std::vector<double> coupling;  // J_uv (finite part)
  std::vector<char> hard;        // certain cannot-link between u and v
  int degree(int u) const { return start[u + 1] - start[u]; }
};

// Units numbered by their first point, from a union-find over the points.
inline std::vector<int> unit_ids(UnionFind& sets, int n, int* n_units) {
  std::vector<int> root_id(static_cast<std::size_t>(n), -1), id(static_cast<std::size_t>(n));
  int next = 0;
  for (int k = 0; k < n; ++k) {
    const std::size_t r = sets.find(static_cast<std::size_t>(k));
    if (root_id[r] < 0) root_id[r] = next++;
    id[k] = root_id[r];
  }
  *n_units = next;
  return id;
}

struct UnitEdge {
  int u, v;
  double j;
  bool hard;
};

// CSR graph over units from point-level edges already mapped to units
// (u != v); parallel edges are merged (couplings add, hardness is kept).
inline void finish_unit_graph(UnitGraph& g, std::vector<UnitEdge>& edges) {
  for (auto& e : edges) {
    if (e.u > e.v) std::swap(e.u, e.v);
  }
  std::sort(edges.begin(), edges.end(), [](const UnitEdge& a, const UnitEdge& b) {
    return a.u != b.u ? a.u < b.u : a.v < b.v;
  });
  // parallel edges merged in place (no second edge list)
  std::size_t n_merged = 0;
  for (std::size_t t = 0; t < edges.size(); ++t) {
    const UnitEdge e = edges[t];
    if (n_merged > 0 && edges[n_merged - 1].u == e.u && edges[n_merged - 1].v == e.v) {
      edges[n_merged - 1].j += e.j;
      edges[n_merged - 1].hard = edges[n_merged - 1].hard || e.hard;
    } else {
      edges[n_merged++] = e;
    }
  }
  edges.resize(n_merged);
  const std::vector<UnitEdge>& merged = edges;
  g.start.assign(static_cast<std::size_t>(g.n_units) + 1, 0);
  for (const auto& e : merged) {
    ++g.start[e.u + 1];
    ++g.start[e.v + 1];
  }
  for (int u = 0; u < g.n_units; ++u) g.start[u + 1] += g.start[u];
  g.nbr.resize(2 * merged.size());
  g.coupling.resize(2 * merged.size());
  g.hard.resize(2 * merged.size());
  std::vector<int> fill(g.start.begin(), g.start.end() - 1);
  for (const auto& e : merged) {
    const double j = e.hard ? 0.0 : e.j;
    int a = fill[e.u]++, b = fill[e.v]++;
    g.nbr[a] = e.v; g.coupling[a] = j; g.hard[a] = e.hard;
    g.nbr[b] = e.u; g.coupling[b] = j; g.hard[b] = e.hard;
  }
}

// How constraints become units and couplings.
//  * weighted: must-links with W = Inf merge points; every other pair is a
//    coupling +-2W (hard when a cannot-link has W = Inf);
//  * chunklet: every must-link merges points and every cannot-link is hard
//    (the chunklet model of Shental et al. treats all constraints as certain);
//    cannot-links inside a chunklet are dropped and counted in *dropped.
// A certain cannot-link inside a unit of certain must-links throws.
inline UnitGraph build_unit_graph(int n, const PairGraph& pairs, bool chunklet,
                                  int* dropped = nullptr) {
  UnionFind sets(static_cast<std::size_t>(n));
  for (std::size_t e = 0; e < pairs.n_pairs(); ++e) {
    if (pairs.must(e) && (chunklet || std::isinf(pairs.magnitude(e)))) {
      sets.unite(static_cast<std::size_t>(pairs.first[e]), static_cast<std::size_t>(pairs.second[e]));
    }
  }
  UnitGraph g;
  g.unit_of = unit_ids(sets, n, &g.n_units);
  g.size.assign(static_cast<std::size_t>(g.n_units), 0);
  for (int k = 0; k < n; ++k) ++g.size[g.unit_of[k]];
  std::vector<UnitEdge> edges;
  int n_dropped = 0;
  for (std::size_t e = 0; e < pairs.n_pairs(); ++e) {
    const int u = g.unit_of[pairs.first[e]], v = g.unit_of[pairs.second[e]];
    const bool hard = !pairs.must(e) && (chunklet || std::isinf(pairs.magnitude(e)));
    if (u == v) {
      if (pairs.must(e)) continue;  // satisfied (or constant) inside a unit
      if (hard && !chunklet) {
        throw std::invalid_argument("a certain cannot-link (" + std::to_string(pairs.first[e] + 1) +
                                    ", " + std::to_string(pairs.second[e] + 1) +
                                    ") lies inside a chunklet of certain must-links");
      }
      if (chunklet) ++n_dropped;
      continue;  // a soft cannot-link always violated: a constant factor
    }
    if (chunklet && pairs.must(e)) continue;
    const double j = pairs.must(e) ? 2.0 * pairs.magnitude(e) : -2.0 * pairs.magnitude(e);
    edges.push_back({u, v, hard ? 0.0 : j, hard});
  }
  if (dropped != nullptr) *dropped = n_dropped;
  finish_unit_graph(g, edges);
  return g;
}

// Units grouped by connected component of the unit graph, in one block:
// component c holds units[start[c] .. start[c + 1]) in increasing order, and
// the components are numbered as unit_ids() numbers their sets. Two arrays
// instead of a vector per component: with millions of units most
// components are single units, and a fit needs them in every E-step.
struct UnitComponents {
  std::vector<int> start, units;
  int count() const { return start.empty() ? 0 : static_cast<int>(start.size()) - 1; }
  int size(int c) const { return start[c + 1] - start[c]; }
  const int* begin(int c) const { return units.data() + start[c]; }
};

inline UnitComponents unit_components(const UnitGraph& g) {
  UnionFind sets(static_cast<std::size_t>(g.n_units));
  for (int u = 0; u < g.n_units; ++u) {
    for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
      sets.unite(static_cast<std::size_t>(u), static_cast<std::size_t>(g.nbr[e]));
    }
  }
  int n_comp = 0;
  const std::vector<int> id = unit_ids(sets, g.n_units, &n_comp);
  UnitComponents c;
  group_by_id(id.data(), id.size(), n_comp, c.start, c.units);
  return c;
}

// Unit unaries B(k, u) = sum over the points i of u of A(k, i), in place:
// the columns of A (K x n) become them and A shrinks to K x n_units. Units are numbered by their first point, so unit
// u <= i for every point i of it: column u is written only after point u
// was read, and no point is read after its column was overwritten.
inline void merge_into_units(Eigen::MatrixXd& a, const UnitGraph& g) {
  int next = 0;  // units seen so far
  for (int i = 0; i < static_cast<int>(g.unit_of.size()); ++i) {
    const int u = g.unit_of[i];
    if (u == next) {
      if (u != i) a.col(u) = a.col(i);
      ++next;
    } else {
      a.col(u) += a.col(i);
    }
  }
  a.conservativeResize(Eigen::NoChange, g.n_units);
}

// Point probabilities from unit probabilities.
template <class Mat>
Mat expand_units(const Mat& q, const UnitGraph& g) {
  Mat z(q.rows(), static_cast<Eigen::Index>(g.unit_of.size()));
  for (int i = 0; i < static_cast<int>(g.unit_of.size()); ++i) z.col(i) = q.col(g.unit_of[i]);
  return z;
}

}  // namespace sideclust
