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

#include <cstring>

#include "engine/force_inline.h"
#include "engine/lanes2.h"

namespace sideclust {

// sum_d term(d) for d < p in the order described above, into out; T is
// double or, for two or four sums at once, Lanes2 or Lanes4. A term writes
// its value through its second argument and the sum leaves through out:
// no function takes or returns lanes by value (engine/avx_lanes.h), and the
// operations and their order are those of `s0 += term(d)`.
template <class T, class Term>
SIDECLUST_FORCE_INLINE void sum_of_terms(const Term& term, int p, T& out) {
  if (p < 2) {
    if (p == 1) {
      term(0, out);
    } else {
      out = T{};
    }
    return;
  }
  const int end4 = (p / 4) * 4, end2 = (p / 2) * 2;
  T s0, s1, v;
  term(0, s0);
  term(1, s1);
  if (end2 > 2) {
    T t0, t1;
    term(2, t0);
    term(3, t1);
    for (int d = 4; d < end4; d += 4) {
      term(d, v);
      s0 += v;
      term(d + 1, v);
      s1 += v;
      term(d + 2, v);
      t0 += v;
      term(d + 3, v);
      t1 += v;
    }
    s0 += t0;
    s1 += t1;
    if (end2 > end4) {
      term(end4, v);
      s0 += v;
      term(end4 + 1, v);
      s1 += v;
    }
  }
  out = s0 + s1;
  if (end2 < p) {
    term(p - 1, v);
    out += v;
  }
}

// The terms as function objects whose call is forced inline (a lambda's
// call may not be, which costs a sweep at scale: bench/NOTES.md).
template <bool Weighted>
struct SqTerm {
  const double *a, *b, *w;
  SIDECLUST_FORCE_INLINE void operator()(int d, double& t) const {
    const double diff = a[d] - b[d];
    t = Weighted ? (diff * diff) * w[d] : diff * diff;
  }
};

// sum_d (a_d - b_d)^2, times w_d when Weighted.
template <bool Weighted>
SIDECLUST_FORCE_INLINE double sq_distance(const double* a, const double* b, const double* w, int p) {
  double s;
  sum_of_terms(SqTerm<Weighted>{a, b, w}, p, s);
  return s;
}

SIDECLUST_FORCE_INLINE double sq_distance(const double* a, const double* b, int p) {
  return sq_distance<false>(a, b, nullptr, p);
}

#if defined(SIDECLUST_HAS_LANES2)
// A term of two sums at once: a against bc (and w) interleaved.
template <bool Weighted>
struct SqTermPair {
  const double *a, *bc, *w;
  SIDECLUST_FORCE_INLINE void operator()(int d, Lanes2& t) const {
    Lanes2 v;
    std::memcpy(&v, bc + 2 * d, sizeof v);
    const Lanes2 diff = Lanes2{a[d], a[d]} - v;
    if (!Weighted) {
      t = diff * diff;
      return;
    }
    Lanes2 wd;
    std::memcpy(&wd, w + 2 * d, sizeof wd);
    t = (diff * diff) * wd;
  }
};
#endif

// The squared distances of a to two points b and c at once, given
// interleaved in bc (bc[2d] = b_d, bc[2d + 1] = c_d), weighted when Weighted
// by w interleaved alike: the same operations in the same order as
// sq_distance() in each lane, so bitwise the same values for about half the
// instructions (a sweep computing a point's distances to every centre is
// bound by them).
template <bool Weighted>
SIDECLUST_FORCE_INLINE void sq_distance_pair(const double* a, const double* bc, const double* w, int p,
                                             double& to_b, double& to_c) {
#if defined(SIDECLUST_HAS_LANES2)
  Lanes2 out;
  sum_of_terms(SqTermPair<Weighted>{a, bc, w}, p, out);
  to_b = out[0];
  to_c = out[1];
#else
  sum_of_terms(
      [&](int d, double& t) {
        const double diff = a[d] - bc[2 * d];
        t = Weighted ? (diff * diff) * w[2 * d] : diff * diff;
      },
      p, to_b);
  sum_of_terms(
      [&](int d, double& t) {
        const double diff = a[d] - bc[2 * d + 1];
        t = Weighted ? (diff * diff) * w[2 * d + 1] : diff * diff;
      },
      p, to_c);
#endif
}

SIDECLUST_FORCE_INLINE void sq_distance_pair(const double* a, const double* bc, int p, double& to_b,
                                             double& to_c) {
  sq_distance_pair<false>(a, bc, nullptr, p, to_b, to_c);
}

// Terms of weighted squared norms from the squares sq of a vector: sq[d]
// times the weights of one column (T = double) or of two or four columns
// interleaved (Lanes2, Lanes4). (v_d * v_d) * w is the term of
// sq_distance<true>(v, 0, w) (v_d - 0 is v_d), so sums of these terms are
// bitwise those norms.
template <class T>
struct SqNormTerm {
  const double *sq, *w;
  SIDECLUST_FORCE_INLINE void operator()(int d, T& t) const {
    T wv;
    std::memcpy(&wv, w + (sizeof(T) / sizeof(double)) * d, sizeof wv);
    t = wv * sq[d];  // sq[d] in every lane
  }
};

// sum_d sq[d] w[d]: the value of sq_distance<true>(v, 0, w) from the
// squares sq of v.
SIDECLUST_FORCE_INLINE double weighted_norm_from_squares(const double* sq, const double* w, int p) {
  double s;
  sum_of_terms(SqNormTerm<double>{sq, w}, p, s);
  return s;
}

// The weighted squared norms of a vector under the k weight columns of w
// (p x k, column-major) into out[0 .. k), from its squares sq: two at a
// time from wpairs (interleave_pairs() of w), the last one alone.
SIDECLUST_FORCE_INLINE void weighted_norms_pairs(const double* sq, const double* w, const double* wpairs,
                                                 int p, int k, double* out) {
  int j = 0;
#if defined(SIDECLUST_HAS_LANES2)
  for (; j + 1 < k; j += 2) {
    Lanes2 s;
    sum_of_terms(SqNormTerm<Lanes2>{sq, wpairs + j * p}, p, s);
    out[j] = s[0];
    out[j + 1] = s[1];
  }
#endif
  for (; j < k; ++j) out[j] = weighted_norm_from_squares(sq, w + j * p, p);
}

// The columns of the p x k matrix m (column-major) in groups of Width,
// interleaved for the distance kernels that take Width centres at once:
// group (j .. j + Width - 1) at out + j * p, coordinate d of column j + l at
// Width * d + l. A last group of fewer than Width columns is left out.
template <int Width>
inline void interleave_columns(const double* m, int p, int k, double* out) {
  for (int j = 0; j + Width - 1 < k; j += Width) {
    for (int d = 0; d < p; ++d) {
      for (int l = 0; l < Width; ++l) out[j * p + Width * d + l] = m[(j + l) * p + d];
    }
  }
}

// Pairs for sq_distance_pair(): pair j / 2 of columns (j, j + 1) at out + j * p.
inline void interleave_pairs(const double* m, int p, int k, double* out) {
  interleave_columns<2>(m, p, k, out);
}

}  // namespace sideclust
