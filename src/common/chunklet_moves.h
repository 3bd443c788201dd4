// Whole-chunklet moves for the deterministic algorithms. A must-link
// chunklet split across clusters cannot be reunited by single-point moves
// when every point has as many links on each side; moving the whole chunklet
// at once can. Each move is taken only when it lowers the objective
//   sum D(x_i, mu_zi) - xi_must (kept must-link weight) + xi_cannot (broken cannot-link weight)
// at the current centres, so it keeps the descent property of the sweep.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "common/bregman.h"
#include "common/cluster_links.h"
#include "common/must_link_sets.h"
#include "common/side_graph.h"
#include "common/union_find.h"

namespace sideclust {

// Chunklets of two or more points, as compressed member lists, and the
// chunklet of every point (-1 for a point in no such chunklet).
struct Chunklets {
  std::vector<int> start, member, of;
  int count() const { return start.empty() ? 0 : static_cast<int>(start.size()) - 1; }
};

inline Chunklets must_link_chunklets(const PairGraph& g) {
  Chunklets ch;
  ch.start.push_back(0);
  ch.of.assign(g.n, -1);
  if (g.empty()) return ch;
  UnionFind sets = must_link_sets(g);
  std::vector<int> root_chunk(g.n, -1), counts;
  for (int i = 0; i < g.n; ++i) {
    const std::size_t r = sets.find(i);
    if (sets.set_size(r) < 2) continue;
    if (root_chunk[r] < 0) {
      root_chunk[r] = static_cast<int>(counts.size());
      counts.push_back(0);
    }
    ch.of[i] = root_chunk[r];
    ++counts[root_chunk[r]];
  }
  for (int c : counts) ch.start.push_back(ch.start.back() + c);
  ch.member.resize(ch.start.back());
  std::vector<int> fill(ch.start.begin(), ch.start.end() - 1);
  for (int i = 0; i < g.n; ++i) {
    if (ch.of[i] >= 0) ch.member[fill[ch.of[i]]++] = i;
  }
  return ch;
}

// One pass over the chunklets: move each, as a whole, to the cluster that
// lowers the objective most at the given centres, if any does; a new cluster
// centred at the chunklet's mean (cost lambda) is a candidate too, as a new
// singleton is in the point sweep. Updates z, size, k, the centres and the
// agreement; returns the number of points moved.
// Cost O(sum of chunklet sizes * k * p + their degrees).
template <class Div, class Rows, class CentreCache>
int move_chunklets(const Rows& x, const std::vector<double>& point_term,
                   const Chunklets& ch, const PairGraph& g, double lambda,
                   CentreCache& centres, std::vector<int>& z,
                   std::vector<int>& size, int& k, double xi_must,
                   double xi_cannot, SideAgreement& agree) {
  const int p = x.p();
  int moved = 0;
  std::vector<double> data, must, cannot, mean(p);
  for (int c = 0; c < ch.count(); ++c) {
    data.assign(k, 0.0);
    must.assign(k, 0.0);
    cannot.assign(k, 0.0);
    std::fill(mean.begin(), mean.end(), 0.0);
    double data_now = 0.0, must_now = 0.0, cannot_now = 0.0;
    double inner_must = 0.0, inner_cannot = 0.0, shift = 0.0;
    for (int t = ch.start[c]; t < ch.start[c + 1]; ++t) {
      const int i = ch.member[t];
      const auto xi = x.row(i);
      add_row(xi, p, mean.data(), shift);
      for (int q = 0; q < k; ++q) {
        const double d = centres.distance(xi, point_term[i], q);
        data[q] += d;
        if (q == z[i]) data_now += d;
      }
      for (int e = g.start[i]; e < g.start[i + 1]; ++e) {
        const int j = g.nbr[e];
        const double w = g.weight[e];
        const bool same = z[i] == z[j];
        if (ch.of[j] == c) {  // inner pair, seen from both ends: count once
          if (j < i) continue;
          if (w > 0.0) { inner_must += w; if (same) must_now += w; }
          else { inner_cannot -= w; if (same) cannot_now -= w; }
        } else {
          if (w > 0.0) { must[z[j]] += w; if (same) must_now += w; }
          else { cannot[z[j]] -= w; if (same) cannot_now -= w; }
        }
      }
    }
    int best = -1;
    double best_delta = 0.0, best_must = 0.0, best_cannot = 0.0;
    for (int q = 0; q < k; ++q) {
      if (size[q] == 0) continue;
      const double kept = must[q] + inner_must, broken = cannot[q] + inner_cannot;
      const double delta = (data[q] - data_now) - xi_must * (kept - must_now) +
                           xi_cannot * (broken - cannot_now);
      if (delta < best_delta - 1e-12 * (1.0 + std::abs(data_now))) {
        best_delta = delta;
        best = q;
        best_must = kept - must_now;
        best_cannot = broken - cannot_now;
      }
    }
    // A cluster of its own: every inner must-link kept, every outer one broken.
    const int m = ch.start[c + 1] - ch.start[c];
    for (double& v : mean) v = (v + shift) / m;
    CentreCache own(p);
    own.push(mean.data());
    double data_own = lambda;
    for (int t = ch.start[c]; t < ch.start[c + 1]; ++t) {
      const int i = ch.member[t];
      data_own += own.distance(x.row(i), point_term[i], 0);
    }
    const double own_delta = (data_own - data_now) - xi_must * (inner_must - must_now) +
                             xi_cannot * (inner_cannot - cannot_now);
    if (own_delta < best_delta - 1e-12 * (1.0 + std::abs(data_now))) {
      centres.push(mean.data());
      size.push_back(0);
      best = k++;
      best_must = inner_must - must_now;
      best_cannot = inner_cannot - cannot_now;
    }
    if (best < 0) continue;
    for (int t = ch.start[c]; t < ch.start[c + 1]; ++t) {
      const int i = ch.member[t];
      if (z[i] == best) continue;
      --size[z[i]];
      ++size[best];
      z[i] = best;
      ++moved;
    }
    agree.must_satisfied += best_must;
    agree.cannot_violated += best_cannot;
  }
  return moved;
}

}  // namespace sideclust
