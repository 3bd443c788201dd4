// COP-k-means' must-link components (pairwise/cop_kmeans.h): the
// components of union-find over the must-links with their sums and sizes,
// the cannot-links between components as compressed adjacency lists, and a
// chain of must-links explaining a cannot-link inside one component. The
// passes over pairs and members at random places ask for their reads ahead
// (engine/lookahead.h).
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/side_graph.h"
#include "common/union_find.h"
#include "engine/lookahead.h"

namespace sideclust {

namespace cop_detail {

// Must-link components with their sums, sizes and means, and the
// cannot-links between components as compressed adjacency lists.
struct Components {
  int count = 0;
  std::vector<int> id;                     // component of every point
  std::vector<int> member_start, members;  // points of component g: members[member_start[g] ..)
  // Where the sum of component g is: a single point's sum (and mean) is
  // its coordinates, read from x (src[g] = the point), so that only the
  // components of two or more points (src[g] = -1 - t) keep theirs, column
  // t of multi_sum (p x their count), their means made from it when needed.
  // With few must-links nearly every component is a single point, and
  // tables over all components held two more copies of the data.
  std::vector<int> src;
  Eigen::MatrixXd multi_sum;
  std::vector<double> size;
  std::vector<int> cl_start, cl_other, cl_pair;  // cannot-links of g: other component, pair index
  int conflict = -1;                       // a cannot-link inside one component, or -1

  // The mean of component g, p contiguous doubles: the point's coordinates,
  // or its sum divided by its size into buf (p doubles); x the data the
  // components were made from.
  template <class X>
  const double* mean(const X& x, int g, double* buf) const {
    if (src[g] >= 0) return x.col(src[g]).data();
    const double* s = multi_sum.col(-1 - src[g]).data();
    for (Eigen::Index d = 0; d < x.rows(); ++d) buf[d] = s[d] / size[g];
    return buf;
  }
  // The sum of component g, p contiguous doubles.
  template <class X>
  const double* sum(const X& x, int g) const {
    return src[g] >= 0 ? x.col(src[g]).data() : multi_sum.col(-1 - src[g]).data();
  }
};

// A chain of must-linked points from a to b (breadth-first search over the
// must-links only), a and b included; empty if none. Builds the adjacency
// when g holds the pair list alone.
inline std::vector<int> must_link_path(const PairGraph& pairs, int a, int b) {
  PairGraph with_adjacency;
  if (!pairs.has_adjacency()) {
    with_adjacency = pairs;
    build_adjacency(with_adjacency);
  }
  const PairGraph& g = pairs.has_adjacency() ? pairs : with_adjacency;
  std::vector<int> parent(g.n, -2), queue{a};
  parent[a] = -1;
  for (std::size_t q = 0; q < queue.size() && parent[b] == -2; ++q) {
    const int v = queue[q];
    for (int e = g.start[v]; e < g.start[v + 1]; ++e) {
      if (std::signbit(g.weight[e]) || parent[g.nbr[e]] != -2) continue;
      parent[g.nbr[e]] = v;
      queue.push_back(g.nbr[e]);
    }
  }
  std::vector<int> path;
  if (parent[b] == -2) return path;
  for (int v = b; v >= 0; v = parent[v]) path.push_back(v);
  std::reverse(path.begin(), path.end());
  return path;
}

inline Components components(const Eigen::Ref<const Eigen::MatrixXd>& x, const PairGraph& g) {
  const int n = static_cast<int>(x.cols());
  Components c;
  // The must-links alone first, so that the entries of the union-find
  // (at random places) can be asked for some pairs ahead (engine/lookahead.h).
  std::vector<int> must_a, must_b;
  for (std::size_t l = 0; l < g.n_pairs(); ++l) {
    if (!g.must(l)) continue;
    must_a.push_back(g.first[l]);
    must_b.push_back(g.second[l]);
  }
  UnionFind sets(static_cast<std::size_t>(n));
  for_each_ahead(
      must_a.size(), [&](std::size_t l) { sets.unite(must_a[l], must_b[l]); },
      ahead<16>([&](std::size_t l, const Upcoming& r) {
        sets.request_entry(must_a[l], r);
        sets.request_entry(must_b[l], r);
      }));
  // Numbered by first appearance, so that the "data" order visits the
  // components by their first point; a root's number is kept in id[root]
  // until the root's own turn (its number again).
  c.id.assign(n, -1);
  for (int i = 0; i < n; ++i) {
    const std::size_t r = sets.find(i);
    if (c.id[r] < 0) c.id[r] = c.count++;
    c.id[i] = c.id[r];
  }
  c.member_start.assign(c.count + 1, 0);
  for (int i = 0; i < n; ++i) ++c.member_start[c.id[i] + 1];
  for (int h = 0; h < c.count; ++h) c.member_start[h + 1] += c.member_start[h];
  c.members.resize(n);
  std::vector<int> fill(c.member_start.begin(), c.member_start.end() - 1);
  for (int i = 0; i < n; ++i) c.members[fill[c.id[i]]++] = i;
  c.size.assign(c.count, 0.0);
  c.src.resize(c.count);
  int multi = 0;
  for (int h = 0; h < c.count; ++h) {
    c.size[h] = c.member_start[h + 1] - c.member_start[h];
    c.src[h] = c.size[h] > 1 ? -1 - multi++ : c.members[c.member_start[h]];
  }
  // sums over the members in the order of the points, as 0 + x_i + ... (a
  // single point's sum, 0 + x_i, and mean, x_i / 1, are x_i itself); the
  // members' coordinates, at random places, are asked for ahead
  c.multi_sum = Eigen::MatrixXd::Zero(x.rows(), multi);
  const Eigen::Index p = x.rows();
  for (int h = 0; h < c.count; ++h) {
    if (c.src[h] >= 0) continue;
    double* sum = c.multi_sum.col(-1 - c.src[h]).data();
    for_range_ahead(
        c.member_start[h], c.member_start[h + 1], n,
        [&](int t) {
          const double* xi = x.col(c.members[t]).data();
          for (Eigen::Index d = 0; d < p; ++d) sum[d] += xi[d];
        },
        ahead<16>([&](int t, const Upcoming& r) { r.ends(x.col(c.members[t]).data(), p); }));
  }
  // The cannot-links as compressed adjacency lists of the components: the
  // components at both ends of every cannot-link first (-1: none), then a
  // counting pass and a scatter pass over those. Each pass reads or writes
  // at random places and asks for them 16 pairs ahead; the ends are stored
  // once so that id is not read at random twice.
  const std::size_t m = g.n_pairs();
  std::vector<int> ends(2 * m);
  for_each_ahead(
      m,
      [&](std::size_t l) {
        int a = -1, b = -1;
        if (!g.must(l)) {
          a = c.id[g.first[l]];
          b = c.id[g.second[l]];
          if (a == b) {
            if (c.conflict < 0) c.conflict = static_cast<int>(l);
            a = b = -1;
          }
        }
        ends[2 * l] = a;
        ends[2 * l + 1] = b;
      },
      ahead<16>([&](std::size_t l, const Upcoming& r) {
        r.line(&c.id[g.first[l]]);
        r.line(&c.id[g.second[l]]);
      }));
  // the slots of both ends of cannot-link l in `slots` (count or fill)
  auto ends_of = [&](const std::vector<int>& slots, int shift) {
    const int* at = slots.data() + shift;
    return ahead<16>([&ends, at](std::size_t l, const Upcoming& r) {
      if (ends[2 * l] < 0) return;
      r.line(at + ends[2 * l]);
      r.line(at + ends[2 * l + 1]);
    });
  };
  c.cl_start.assign(c.count + 1, 0);
  for_each_ahead(
      m,
      [&](std::size_t l) {
        const int a = ends[2 * l], b = ends[2 * l + 1];
        if (a < 0) return;
        ++c.cl_start[a + 1];
        ++c.cl_start[b + 1];
      },
      ends_of(c.cl_start, 1));
  for (int h = 0; h < c.count; ++h) c.cl_start[h + 1] += c.cl_start[h];
  c.cl_other.resize(c.cl_start[c.count]);
  c.cl_pair.resize(c.cl_start[c.count]);
  fill.assign(c.cl_start.begin(), c.cl_start.end() - 1);
  for_each_ahead(
      m,
      [&](std::size_t l) {
        const int a = ends[2 * l], b = ends[2 * l + 1];
        if (a < 0) return;
        c.cl_other[fill[a]] = b;
        c.cl_pair[fill[a]++] = static_cast<int>(l);
        c.cl_other[fill[b]] = a;
        c.cl_pair[fill[b]++] = static_cast<int>(l);
      },
      ends_of(fill, 0));
  return c;
}

}  // namespace cop_detail

}  // namespace sideclust
