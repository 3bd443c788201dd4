// Choosing DP-means' lambda from a rough number of clusters k.
#pragma once

#include <algorithm>
#include <functional>
#include <vector>

#include "common/bregman.h"

namespace sideclust {

inline std::vector<double> column_mean(const double* x, int n, int p) {
  std::vector<double> mean(p, 0.0);
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < p; ++d) mean[d] += x[static_cast<std::size_t>(i) * p + d];
  }
  for (double& m : mean) m /= n;
  return mean;
}

// Divergence of every point (column of x) from the global mean.
template <class Div>
std::vector<double> distances_to_mean(const double* x, int n, int p) {
  const std::vector<double> mean = column_mean(x, n, p);
  std::vector<double> scratch(p), dist(n);
  for (int i = 0; i < n; ++i) {
    dist[i] = divergence<Div>(x + static_cast<std::size_t>(i) * p, mean.data(), p, scratch.data());
  }
  return dist;
}

// Kulis & Jordan's farthest-first heuristic: start from the global mean, add
// k times the point farthest (by Div) from the set chosen so far; lambda is
// that largest distance in round k. O(n k p).
template <class Div>
double farthest_first_lambda(const double* x, int n, int p, int k) {
  std::vector<double> dist = distances_to_mean<Div>(x, n, p);
  std::vector<double> scratch(p);
  double lambda = 0.0;
  for (int round = 0; round < k; ++round) {
    const int far = static_cast<int>(std::max_element(dist.begin(), dist.end()) - dist.begin());
    lambda = dist[far];
    const double* chosen = x + static_cast<std::size_t>(far) * p;
    Div::centre_cache(chosen, scratch.data(), p);
    const double term = Div::centre_term(chosen, p);
    for (int i = 0; i < n; ++i) {
      const double* xi = x + static_cast<std::size_t>(i) * p;
      dist[i] = std::min(dist[i], Div::eval(xi, Div::point_term(xi, p), scratch.data(), term, p));
    }
  }
  return lambda;
}

// The TVClust authors' variant: the k-th largest distance to the global mean.
template <class Div>
double kth_distance_lambda(const double* x, int n, int p, int k) {
  std::vector<double> dist = distances_to_mean<Div>(x, n, p);
  std::nth_element(dist.begin(), dist.begin() + (k - 1), dist.end(), std::greater<double>());
  return dist[k - 1];
}

}  // namespace sideclust
