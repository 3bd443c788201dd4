// Bregman divergences D(x, mu) for the small-variance clustering algorithms.
// Each divergence splits its evaluation into a per-point term (computed once),
// a per-centre cache (recomputed when a centre moves) and an O(p) part, so
// that one point-to-centre evaluation costs a single pass over p numbers.
// A sparse point (common/sparse_rows.h) costs a pass over its non-zeros: the
// sparse_* members below add what depends on the centre only (a per-centre
// sum, kept by dpmeans/centres.h) for the coordinates the point does not store.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "engine/accumulate_pairs.h"
#include "common/sparse_rows.h"

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
  // Sparse points (offset 0): |x|^2 - 2 x.mu + |mu|^2, with acc = v.mu.
  static double point_term(const SparseRow& r, int) {
    double acc = 0.0;
    for (int j = 0; j < r.nnz; ++j) acc += r.val[j] * r.val[j];
    return r.scale * r.scale * acc;
  }
  static double sparse_centre_term(const double* mu, const double*, int p) {
    double acc = 0.0;
    for (int d = 0; d < p; ++d) acc += mu[d] * mu[d];
    return acc;
  }
  static double finish_sparse(double acc, double pt, double, double st, const SparseRow& r) {
    return std::max(0.0, pt - 2.0 * r.scale * acc + st);
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

// Adds x_d * cache_dc over d with x_d > 0 (so 0 log 0 = 0) to acc[c], as
// SquaredEuclidean::accumulate does for its terms.
inline void accumulate_weighted_logs(const double* x, int p, const double* by_dim,
                                     std::size_t stride, int k_even, double* acc) {
  // 0 log 0 = 0: a zero coordinate contributes nothing, even where log mu = -inf.
  accumulate_pairs(x, p, by_dim, stride, k_even, acc, [](Pair xd, Pair log_mu) {
    return xd[0] > 0.0 ? xd * log_mu : Pair{0.0, 0.0};
  });
}

// sum over the stored coordinates of a sparse point of v_d * cache_dc, into
// acc[c] for clusters c < k_even (cache laid out by dimension as above):
// O(nnz k). Stored zeros are skipped (0 log 0 = 0 where log mu = -inf).
inline void accumulate_sparse(const SparseRow& r, const double* by_dim, std::size_t stride,
                              int k_even, double* acc) {
  for (int j = 0; j < r.nnz; ++j) {
    const double v = r.val[j];
    if (v == 0.0) continue;
    const double* row = by_dim + static_cast<std::size_t>(r.idx[j]) * stride;
    for (int c = 0; c < k_even; ++c) acc[c] += v * row[c];
  }
}

// sum_d x_d log(mu_d) for the sparse point x = scale (v + offset), given acc =
// sum over its non-zeros of v_d log mu_d and log_mu_sum = sum_d log mu_d.
inline double sparse_weighted_log_sum(double acc, double log_mu_sum, const SparseRow& r) {
  return r.scale * (r.offset > 0.0 ? acc + r.offset * log_mu_sum : acc);
}

// sum_d f(x_d) over every coordinate of a sparse point: the stored ones plus
// (p - nnz) times f at the constant part.
template <class F>
double sparse_coordinate_sum(const SparseRow& r, int p, F f) {
  double acc = 0.0;
  for (int j = 0; j < r.nnz; ++j) acc += f(r.scale * (r.val[j] + r.offset));
  return acc + (p - r.nnz) * f(r.scale * r.offset);
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
  static double point_term(const SparseRow& r, int p) {
    return sparse_coordinate_sum(r, p, x_log_x);
  }
  // sum_d log mu_d, for the offset part of smoothed sparse points.
  static double sparse_centre_term(const double*, const double* log_mu, int p) {
    double acc = 0.0;
    for (int d = 0; d < p; ++d) acc += log_mu[d];
    return acc;
  }
  static double finish_sparse(double acc, double pt, double, double st, const SparseRow& r) {
    return std::max(0.0, pt - sparse_weighted_log_sum(acc, st, r));
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
    return finish(weighted_log_sum(x, log_mu, p), pt, ct);
  }
  static void accumulate(const double* x, int p, const double* by_dim,
                         std::size_t stride, int k_even, double* acc) {
    accumulate_weighted_logs(x, p, by_dim, stride, k_even, acc);
  }
  static double finish(double acc, double pt, double ct) {
    return std::max(0.0, pt + ct - acc);
  }
  static double point_term(const SparseRow& r, int p) {
    return sparse_coordinate_sum(r, p, [](double v) { return x_log_x(v) - v; });
  }
  static double sparse_centre_term(const double* mu, const double* log_mu, int p) {
    return KullbackLeibler::sparse_centre_term(mu, log_mu, p);
  }
  static double finish_sparse(double acc, double pt, double ct, double st, const SparseRow& r) {
    return std::max(0.0, pt + ct - sparse_weighted_log_sum(acc, st, r));
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
