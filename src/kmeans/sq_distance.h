// Squared Euclidean distances (optionally weighted per coordinate) between
// two contiguous p-vectors, summed in the order Eigen's vectorized reduction
// uses for a dynamic-size expression with SSE2 packets of two doubles: two
// packet accumulators over blocks of four coordinates, one more packet,
// the horizontal add, then the odd coordinate. Written out so that a sweep
// computing a point's k distances inlines them (Eigen's squaredNorm() of a
// dynamic expression is a function call each) while every value stays
// bitwise what `(a - b).squaredNorm()` and `(a - b).cwiseAbs2().dot(w)`
// give in the default build, so fits do not change with the rewrite.
#pragma once

#include "common/force_inline.h"

namespace sideclust {

// sum_d (a_d - b_d)^2, times w_d when Weighted.
template <bool Weighted>
SIDECLUST_FORCE_INLINE double sq_distance(const double* a, const double* b, const double* w, int p) {
  auto term = [&](int d) {
    const double diff = a[d] - b[d];
    return Weighted ? (diff * diff) * w[d] : diff * diff;
  };
  if (p < 2) return p == 1 ? term(0) : 0.0;
  const int end4 = (p / 4) * 4, end2 = (p / 2) * 2;
  double s0 = term(0), s1 = term(1);
  if (end2 > 2) {
    double t0 = term(2), t1 = term(3);
    for (int d = 4; d < end4; d += 4) {
      s0 += term(d);
      s1 += term(d + 1);
      t0 += term(d + 2);
      t1 += term(d + 3);
    }
    s0 += t0;
    s1 += t1;
    if (end2 > end4) {
      s0 += term(end4);
      s1 += term(end4 + 1);
    }
  }
  double out = s0 + s1;
  if (end2 < p) out += term(p - 1);
  return out;
}

SIDECLUST_FORCE_INLINE double sq_distance(const double* a, const double* b, int p) {
  return sq_distance<false>(a, b, nullptr, p);
}

}  // namespace sideclust
