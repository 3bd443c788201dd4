// Squared distances from one point to four centres at once in AVX lanes,
// in sum_of_terms()'s order of additions (engine/sq_distance.h) in every
// lane, so the values are bitwise those of sq_distance() and of Eigen's
// `(a - b).squaredNorm()` in the default build. For the sweeps compiled a
// second time for AVX (engine/avx_lanes.h) that take a point's distances to
// every centre: LCVQE's distance records (distance_records.h) and COP-k-means'
// assignment step (cop_kmeans.h). Call from AVX code only.
#pragma once

#include <cstring>

#include "engine/avx_lanes.h"
#include "engine/force_inline.h"
#include "engine/sq_distance.h"

namespace sideclust {

#if defined(SIDECLUST_AVX)
// A term of four sums at once: a against four centres q (and weights w)
// interleaved four by four (q[4d + l] = coordinate d of centre l).
template <bool Weighted>
struct SqTermQuad {
  const double *a, *q, *w;
  SIDECLUST_FORCE_INLINE void operator()(int d, Lanes4& t) const {
    Lanes4 v;
    std::memcpy(&v, q + 4 * d, sizeof v);
    const Lanes4 diff = Lanes4{a[d], a[d], a[d], a[d]} - v;
    if (!Weighted) {
      t = diff * diff;
      return;
    }
    Lanes4 wv;
    std::memcpy(&wv, w + 4 * d, sizeof wv);
    t = (diff * diff) * wv;
  }
};

// The squared distances of a to four centres given interleaved in q, times
// the weights w (interleaved alike) when Weighted, into out[0..3]:
// sum_of_terms()'s order of additions in every lane, so each value is
// bitwise that of sq_distance<Weighted>().
template <bool Weighted = false>
SIDECLUST_FORCE_INLINE void sq_distance_quad(const double* a, const double* q, int p, double* out,
                                             const double* w = nullptr) {
  Lanes4 s;
  sum_of_terms(SqTermQuad<Weighted>{a, q, w}, p, s);
  std::memcpy(out, &s, sizeof s);
}

// The squared distances of a to the k columns of a p x k centre matrix m
// (column-major) into out[0 .. k): groups of four by sq_distance_quad() from
// quads (interleave_columns<4>()), then pairs by sq_distance_pair() from
// pairs (interleave_pairs()), the last one alone; the same values as
// sq_distance() to each column. AVX callers only.
SIDECLUST_FORCE_INLINE void sq_distances_quads(const double* a, const double* m, const double* quads,
                                               const double* pairs, int p, int k, double* out) {
  int j = 0;
  for (; j + 3 < k; j += 4) sq_distance_quad(a, quads + j * p, p, out + j);
  for (; j + 1 < k; j += 2) sq_distance_pair(a, pairs + j * p, p, out[j], out[j + 1]);
  if (j < k) out[j] = sq_distance(a, m + j * p, p);
}

// The weighted squared distances of a to the k columns of m under the k
// weight columns of w (both p x k, column-major) into out[0 .. k): groups
// of four from quads / wquads (interleave_columns<4>()), then pairs from
// pairs / wpairs (interleave_pairs()), the last one alone; the values of
// sq_distance<true>() to each column. AVX callers only.
SIDECLUST_FORCE_INLINE void weighted_sq_distances_quads(const double* a, const double* m,
                                                        const double* w, const double* quads,
                                                        const double* wquads, const double* pairs,
                                                        const double* wpairs, int p, int k,
                                                        double* out) {
  int j = 0;
  for (; j + 3 < k; j += 4) sq_distance_quad<true>(a, quads + j * p, p, out + j, wquads + j * p);
  for (; j + 1 < k; j += 2) {
    sq_distance_pair<true>(a, pairs + j * p, wpairs + j * p, p, out[j], out[j + 1]);
  }
  if (j < k) out[j] = sq_distance<true>(a, m + j * p, w + j * p, p);
}

// The weighted squared norms of a vector under the k weight columns of w
// into out[0 .. k), from its squares sq (SqNormTerm): four at a time from
// wquads (interleave_columns<4>() of w), then as weighted_norms_pairs().
// Bitwise the values of weighted_sq_distances_quads() from the vector to
// the origin. AVX callers only.
SIDECLUST_FORCE_INLINE void weighted_norms_quads(const double* sq, const double* w, const double* wquads,
                                                 const double* wpairs, int p, int k, double* out) {
  int j = 0;
  for (; j + 3 < k; j += 4) {
    Lanes4 s;
    sum_of_terms(SqNormTerm<Lanes4>{sq, wquads + j * p}, p, s);
    std::memcpy(out + j, &s, sizeof s);
  }
  weighted_norms_pairs(sq, w + j * p, wpairs + j * p, p, k - j, out + j);
}
#endif

// The portable form of sq_distances_quads(): pairs, then the last one alone.
SIDECLUST_FORCE_INLINE void sq_distances_pairs(const double* a, const double* m, const double* pairs,
                                               int p, int k, double* out) {
  int j = 0;
  for (; j + 1 < k; j += 2) sq_distance_pair(a, pairs + j * p, p, out[j], out[j + 1]);
  if (j < k) out[j] = sq_distance(a, m + j * p, p);
}

}  // namespace sideclust
