// Bregman divergences D(x, mu) for the small-variance clustering algorithms.
// Each divergence splits its evaluation into a per-point term (computed once),
// a per-centre cache (recomputed when a centre moves) and an O(p) part, so
// that one point-to-centre evaluation costs a single pass over p numbers.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace sideclust {

// Gaussian family: squared Euclidean distance. Evaluated from differences
// (not |x|^2 - 2 x.mu + |mu|^2) to stay exact for data far from the origin.
struct SquaredEuclidean {
  static double point_term(const double*, int) { return 0.0; }
  static void centre_cache(const double* mu, double* cache, int p) {
    std::copy(mu, mu + p, cache);
  }
  static double centre_term(const double*, int) { return 0.0; }
  static double eval(const double* x, double, const double* mu, double, int p) {
    // Four partial sums let the CPU overlap the additions.
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
    int d = 0;
    for (; d + 4 <= p; d += 4) {
      const double e0 = x[d] - mu[d], e1 = x[d + 1] - mu[d + 1];
      const double e2 = x[d + 2] - mu[d + 2], e3 = x[d + 3] - mu[d + 3];
      a0 += e0 * e0;
      a1 += e1 * e1;
      a2 += e2 * e2;
      a3 += e3 * e3;
    }
    for (; d < p; ++d) {
      const double e = x[d] - mu[d];
      a0 += e * e;
    }
    return (a0 + a1) + (a2 + a3);
  }
};

// sum_d x_d log(mu_d), skipping x_d = 0 (0 log 0 = 0); -inf when x_d > 0 and
// mu_d = 0, which makes the divergence +inf as it should be.
inline double weighted_log_sum(const double* x, const double* log_mu, int p) {
  double acc = 0.0;
  for (int d = 0; d < p; ++d) {
    if (x[d] > 0.0) acc += x[d] * log_mu[d];
  }
  return acc;
}

inline double x_log_x(double v) { return v > 0.0 ? v * std::log(v) : 0.0; }

// Multinomial family: KL divergence between probability vectors (points are
// normalized, and smoothed, before they reach the core).
struct KullbackLeibler {
  static double point_term(const double* x, int p) {
    double acc = 0.0;
    for (int d = 0; d < p; ++d) acc += x_log_x(x[d]);
    return acc;
  }
  static void centre_cache(const double* mu, double* cache, int p) {
    for (int d = 0; d < p; ++d) {
      cache[d] = mu[d] > 0.0 ? std::log(mu[d])
                             : -std::numeric_limits<double>::infinity();
    }
  }
  static double centre_term(const double*, int) { return 0.0; }
  static double eval(const double* x, double pt, const double* log_mu, double,
                     int p) {
    return std::max(0.0, pt - weighted_log_sum(x, log_mu, p));
  }
};

// Poisson family: generalized I-divergence sum x log(x / mu) - x + mu.
struct IDivergence {
  static double point_term(const double* x, int p) {
    double acc = 0.0;
    for (int d = 0; d < p; ++d) acc += x_log_x(x[d]) - x[d];
    return acc;
  }
  static void centre_cache(const double* mu, double* cache, int p) {
    KullbackLeibler::centre_cache(mu, cache, p);
  }
  static double centre_term(const double* mu, int p) {
    double acc = 0.0;
    for (int d = 0; d < p; ++d) acc += mu[d];
    return acc;
  }
  static double eval(const double* x, double pt, const double* log_mu,
                     double ct, int p) {
    return std::max(0.0, pt + ct - weighted_log_sum(x, log_mu, p));
  }
};

// Evaluates D(x, mu) for one-off pairs (lambda heuristics, prediction).
template <class Div>
double divergence(const double* x, const double* mu, int p, double* scratch) {
  Div::centre_cache(mu, scratch, p);
  return Div::eval(x, Div::point_term(x, p), scratch, Div::centre_term(mu, p),
                   p);
}

}  // namespace sideclust
