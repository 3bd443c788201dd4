// Bregman divergences D(x, mu) for the small-variance clustering algorithms.
// Each divergence splits its evaluation into a per-point term (computed once),
// a per-centre cache (recomputed when a centre moves) and an O(p) part, so
// that one point-to-centre evaluation costs a single pass over p numbers.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

namespace sideclust {

// Two doubles handled as one value: a two-lane vector with GCC and Clang
// (SSE2 on x86-64, NEON on arm64; plain pairs elsewhere). The distance
// kernels use it to compute two clusters at once in registers.
#if defined(__GNUC__) || defined(__clang__)
typedef double Pair __attribute__((vector_size(16)));
inline Pair load_pair(const double* v) {
  Pair out;
  std::memcpy(&out, v, sizeof out);
  return out;
}
#else
struct Pair {
  double v[2];
  double operator[](int i) const { return v[i]; }
  Pair operator-(const Pair& o) const { return Pair{{v[0] - o.v[0], v[1] - o.v[1]}}; }
  Pair operator*(const Pair& o) const { return Pair{{v[0] * o.v[0], v[1] * o.v[1]}}; }
  Pair& operator+=(const Pair& o) { v[0] += o.v[0]; v[1] += o.v[1]; return *this; }
};
inline Pair load_pair(const double* v) { return Pair{{v[0], v[1]}}; }
#endif

// acc[c] += sum over d of term(x_d, cache_dc) for clusters c < k_even, with
// the cache laid out by dimension (row d at by_dim + d * stride). Clusters go
// two per Pair and eight at a time, so that four independent sums keep the
// CPU busy; each cluster's sum still runs over d in order, as in eval().
template <class Term>
void accumulate_pairs(const double* x, int p, const double* by_dim,
                      std::size_t stride, int k_even, double* acc, Term term) {
  int c = 0;
  for (; c + 8 <= k_even; c += 8) {
    Pair a0{0.0, 0.0}, a1{0.0, 0.0}, a2{0.0, 0.0}, a3{0.0, 0.0};
    const double* col = by_dim + c;
    for (int d = 0; d < p; ++d, col += stride) {
      const Pair xd{x[d], x[d]};
      a0 += term(xd, load_pair(col));
      a1 += term(xd, load_pair(col + 2));
      a2 += term(xd, load_pair(col + 4));
      a3 += term(xd, load_pair(col + 6));
    }
    const Pair* sums[4] = {&a0, &a1, &a2, &a3};
    for (int q = 0; q < 4; ++q) {
      acc[c + 2 * q] += (*sums[q])[0];
      acc[c + 2 * q + 1] += (*sums[q])[1];
    }
  }
  for (; c < k_even; c += 2) {
    Pair a{0.0, 0.0};
    const double* col = by_dim + c;
    for (int d = 0; d < p; ++d, col += stride) a += term(Pair{x[d], x[d]}, load_pair(col));
    acc[c] += a[0];
    acc[c + 1] += a[1];
  }
}

// Gaussian family: squared Euclidean distance. Evaluated from differences
// (not |x|^2 - 2 x.mu + |mu|^2) to stay exact for data far from the origin.
struct SquaredEuclidean {
  static double point_term(const double*, int) { return 0.0; }
  static void centre_cache(const double* mu, double* cache, int p) {
    std::copy(mu, mu + p, cache);
  }
  static double centre_term(const double*, int) { return 0.0; }
  static double eval(const double* x, double, const double* mu, double, int p) {
    double acc = 0.0;
    for (int d = 0; d < p; ++d) {
      const double e = x[d] - mu[d];
      acc += e * e;
    }
    return acc;
  }
  // Adds (x_d - mu_dc)^2 over d to acc[c] for clusters c < k_even, from the
  // cache laid out by dimension (row d at by_dim + d * stride). Clusters go in
  // pairs so that compilers emit two-lane vector code at -O2.
  static void accumulate(const double* x, int p, const double* by_dim,
                         std::size_t stride, int k_even, double* acc) {
    accumulate_pairs(x, p, by_dim, stride, k_even, acc, [](Pair xd, Pair m) {
      const Pair e = xd - m;
      return e * e;
    });
  }
  static double finish(double acc, double, double) { return acc; }
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

// Adds x_d * cache_dc over d with x_d > 0 (so 0 log 0 = 0) to acc[c], as
// SquaredEuclidean::accumulate does for its terms.
inline void accumulate_weighted_logs(const double* x, int p, const double* by_dim,
                                     std::size_t stride, int k_even, double* acc) {
  // 0 log 0 = 0: a zero coordinate contributes nothing, even where log mu = -inf.
  accumulate_pairs(x, p, by_dim, stride, k_even, acc, [](Pair xd, Pair log_mu) {
    return xd[0] > 0.0 ? xd * log_mu : Pair{0.0, 0.0};
  });
}

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
    return finish(weighted_log_sum(x, log_mu, p), pt, 0.0);
  }
  static void accumulate(const double* x, int p, const double* by_dim,
                         std::size_t stride, int k_even, double* acc) {
    accumulate_weighted_logs(x, p, by_dim, stride, k_even, acc);
  }
  static double finish(double acc, double pt, double) { return std::max(0.0, pt - acc); }
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
    return finish(weighted_log_sum(x, log_mu, p), pt, ct);
  }
  static void accumulate(const double* x, int p, const double* by_dim,
                         std::size_t stride, int k_even, double* acc) {
    accumulate_weighted_logs(x, p, by_dim, stride, k_even, acc);
  }
  static double finish(double acc, double pt, double ct) {
    return std::max(0.0, pt + ct - acc);
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
