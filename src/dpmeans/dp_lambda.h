// Choosing DP-means' lambda from a rough number of clusters k. The points come
// as rows (common/sparse_rows.h), dense or sparse.
#pragma once

#include <algorithm>
#include <functional>
#include <vector>

#include "common/bregman.h"
#include "common/sparse_rows.h"
#include "dpmeans/centres.h"

namespace sideclust {

template <class Rows>
std::vector<double> column_mean(const Rows& rows) {
  const int n = rows.n(), p = rows.p();
  std::vector<double> mean(p, 0.0);
  double shift = 0.0;
  for (int i = 0; i < n; ++i) add_row(rows.row(i), p, mean.data(), shift);
  for (double& m : mean) m = (m + shift) / n;
  return mean;
}

template <class Div, class Rows>
std::vector<double> point_terms(const Rows& rows) {
  std::vector<double> out(rows.n());
  for (int i = 0; i < rows.n(); ++i) out[i] = Div::point_term(rows.row(i), rows.p());
  return out;
}

// Divergence of every point from the global mean.
template <class Div, class Rows>
std::vector<double> distances_to_mean(const Rows& rows, const std::vector<double>& point_term) {
  Centres<Div> mean(rows.p());
  mean.push(column_mean(rows).data());
  std::vector<double> dist(rows.n());
  for (int i = 0; i < rows.n(); ++i) dist[i] = mean.distance(rows.row(i), point_term[i], 0);
  return dist;
}

// Kulis & Jordan's farthest-first heuristic: start from the global mean, add
// k times the point farthest (by Div) from the set chosen so far; lambda is
// that largest distance in round k. O(n k p) (O(k nnz) for sparse points).
template <class Div, class Rows>
double farthest_first_lambda(const Rows& rows, int k) {
  const std::vector<double> point_term = point_terms<Div>(rows);
  std::vector<double> dist = distances_to_mean<Div>(rows, point_term);
  double lambda = 0.0;
  for (int round = 0; round < k; ++round) {
    const int far = static_cast<int>(std::max_element(dist.begin(), dist.end()) - dist.begin());
    lambda = dist[far];
    Centres<Div> chosen(rows.p());
    chosen.push(rows.row(far));
    for (int i = 0; i < rows.n(); ++i) {
      dist[i] = std::min(dist[i], chosen.distance(rows.row(i), point_term[i], 0));
    }
  }
  return lambda;
}

// The TVClust authors' variant: the k-th largest distance to the global mean.
template <class Div, class Rows>
double kth_distance_lambda(const Rows& rows, int k) {
  std::vector<double> dist = distances_to_mean<Div>(rows, point_terms<Div>(rows));
  std::nth_element(dist.begin(), dist.begin() + (k - 1), dist.end(), std::greater<double>());
  return dist[k - 1];
}

}  // namespace sideclust
