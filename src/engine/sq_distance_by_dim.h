// Squared Euclidean distances from a point to many centres laid out by
// dimension (row d of the centres at by_dim + d * stride, as dpmeans/centres.h
// keeps them), four centres per AVX instruction: the AVX form of
// SquaredEuclidean::accumulate() (common/bregman.h). Each lane does one
// centre's operations in the order of SquaredEuclidean::eval(), so the values
// are bitwise the same. Called with the AvxKernels tag, from a step run by
// run_with_kernels() (engine/avx_dispatch.h) only.
#pragma once

#include <cstddef>
#include <cstring>

#include "engine/avx_dispatch.h"
#include "engine/avx_lanes.h"
#include "engine/force_inline.h"

namespace sideclust {

#if defined(SIDECLUST_AVX)
// out[0 .. 4 Q) = sum over d of (x_d - m_dc)^2 for Q groups of four clusters
// whose coordinates start at col (row d at col + d * stride), each sum
// from 0 over d in order; the same into copy[0 .. 4 Q) (stored from the
// registers: a caller's copy would wait for the stores to out). Call from
// AVX code only.
template <int Q>
SIDECLUST_FORCE_INLINE void sq_quad_group(const double* x, int p, const double* col,
                                          std::size_t stride, double* out, double* copy) {
  static_assert(Q >= 1 && Q <= 4, "1 to 4 groups of four clusters");
  Lanes4 a0{0.0, 0.0, 0.0, 0.0}, a1 = a0, a2 = a0, a3 = a0;
  for (int d = 0; d < p; ++d, col += stride) {
    const Lanes4 xd{x[d], x[d], x[d], x[d]};
    Lanes4 m, e;
    std::memcpy(&m, col, sizeof m);
    e = xd - m;
    a0 += e * e;
    if (Q > 1) {
      std::memcpy(&m, col + 4, sizeof m);
      e = xd - m;
      a1 += e * e;
    }
    if (Q > 2) {
      std::memcpy(&m, col + 8, sizeof m);
      e = xd - m;
      a2 += e * e;
    }
    if (Q > 3) {
      std::memcpy(&m, col + 12, sizeof m);
      e = xd - m;
      a3 += e * e;
    }
  }
  for (double* o : {out, copy}) {
    std::memcpy(o, &a0, sizeof a0);
    if (Q > 1) std::memcpy(o + 4, &a1, sizeof a1);
    if (Q > 2) std::memcpy(o + 8, &a2, sizeof a2);
    if (Q > 3) std::memcpy(o + 12, &a3, sizeof a3);
  }
}

// out[c] = the distance to cluster c for c < k4 (k4 a multiple of 4; the
// layout of accumulate() with a stride that is one too): sixteen clusters
// at a time, the last 4 to 16 in one pass (independent sums, as in
// accumulate_pairs()). The same values as SquaredEuclidean::accumulate()
// into zeros (0 + a sum of squares is that sum) and finish().
// Also into copy (see sq_quad_group()).
SIDECLUST_FORCE_INLINE void sq_distances_by_dim(AvxKernels, const double* x, int p, const double* by_dim,
                                                std::size_t stride, int k4, double* out, double* copy) {
  int c = 0;
  for (; k4 - c > 16; c += 16) sq_quad_group<4>(x, p, by_dim + c, stride, out + c, copy + c);
  const double* col = by_dim + c;
  switch ((k4 - c) / 4) {
    case 1: sq_quad_group<1>(x, p, col, stride, out + c, copy + c); break;
    case 2: sq_quad_group<2>(x, p, col, stride, out + c, copy + c); break;
    case 3: sq_quad_group<3>(x, p, col, stride, out + c, copy + c); break;
    case 4: sq_quad_group<4>(x, p, col, stride, out + c, copy + c); break;
    default: break;
  }
}
#endif

}  // namespace sideclust
