// Two-lane sums over clusters for the Bregman divergences (common/bregman.h):
// a point's terms against clusters laid out by dimension, two clusters per
// lane pair, each cluster's sum over the dimensions in order, so the values
// do not depend on the grouping.
#pragma once

#include <cstddef>
#include <cstring>

#include "engine/force_inline.h"

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

// acc[0 .. 2 Q) += sum over d of term(x_d, col_d) for Q pairs of clusters
// whose cache starts at col (row d at col + d * stride): Q independent sums,
// each over d in order, as in eval().
template <int Q, class Term>
SIDECLUST_FORCE_INLINE void accumulate_group(const double* x, int p, const double* col,
                                             std::size_t stride, double* acc, Term& term) {
  static_assert(Q >= 1 && Q <= 6, "1 to 6 pairs of clusters");
  Pair a0{0.0, 0.0}, a1{0.0, 0.0}, a2{0.0, 0.0}, a3{0.0, 0.0}, a4{0.0, 0.0}, a5{0.0, 0.0};
  for (int d = 0; d < p; ++d, col += stride) {
    const Pair xd{x[d], x[d]};
    a0 += term(xd, load_pair(col));
    if (Q > 1) a1 += term(xd, load_pair(col + 2));
    if (Q > 2) a2 += term(xd, load_pair(col + 4));
    if (Q > 3) a3 += term(xd, load_pair(col + 6));
    if (Q > 4) a4 += term(xd, load_pair(col + 8));
    if (Q > 5) a5 += term(xd, load_pair(col + 10));
  }
  const Pair* sums[6] = {&a0, &a1, &a2, &a3, &a4, &a5};
  for (int q = 0; q < Q; ++q) {
    acc[2 * q] += (*sums[q])[0];
    acc[2 * q + 1] += (*sums[q])[1];
  }
}

// acc[c] += sum over d of term(x_d, cache_dc) for clusters c < k_even, with
// the cache laid out by dimension (row d at by_dim + d * stride). Clusters go
// two per Pair, eight at a time and the last 2 to 12 in one pass, so that
// independent sums keep the CPU busy (separate passes for the last pairs
// each waited for another chain of p dependent additions); each
// cluster's sum still runs over d in order, as in eval(), so the values do
// not depend on the grouping.
template <class Term>
void accumulate_pairs(const double* x, int p, const double* by_dim,
                      std::size_t stride, int k_even, double* acc, Term term) {
  int c = 0;
  for (; k_even - c > 12; c += 8) accumulate_group<4>(x, p, by_dim + c, stride, acc + c, term);
  const double* col = by_dim + c;
  double* out = acc + c;
  switch ((k_even - c) / 2) {
    case 1: accumulate_group<1>(x, p, col, stride, out, term); break;
    case 2: accumulate_group<2>(x, p, col, stride, out, term); break;
    case 3: accumulate_group<3>(x, p, col, stride, out, term); break;
    case 4: accumulate_group<4>(x, p, col, stride, out, term); break;
    case 5: accumulate_group<5>(x, p, col, stride, out, term); break;
    case 6: accumulate_group<6>(x, p, col, stride, out, term); break;
    default: break;
  }
}

}  // namespace sideclust
