// The centres and the per-cluster diagonal weights of a p x k weighted
// metric laid out for the distance kernels (the weighted companion of
// engine/interleaved_centres.h): two by two, and four by four for the AVX
// kernels. Each function takes a kernels tag (engine/avx_dispatch.h) and
// gives bitwise the values of sq_distance<true>() / weighted_norm_from_squares()
// to each column, in the form of that tag.
#pragma once

#include <cstddef>
#include <cstring>
#include <vector>

#include "engine/avx_dispatch.h"
#include "engine/force_inline.h"
#include "engine/lanes2.h"
#include "engine/sq_distance.h"
#include "engine/sq_distance_quad.h"

namespace sideclust {

class WeightedCentres {
 public:
  // m, w: p x k column-major (kept by the caller while the layout is used);
  // quads: also four by four, for AvxKernels.
  void set(const double* m, const double* w, int p, int k, bool quads) {
    m_ = m;
    w_ = w;
    p_ = p;
    k_ = k;
    const std::size_t size = static_cast<std::size_t>(p) * k;
    m2_.resize(size);
    w2_.resize(size);
    interleave_pairs(m, p, k, m2_.data());
    interleave_pairs(w, p, k, w2_.data());
    if (quads) {
      m4_.resize(size);
      w4_.resize(size);
      interleave_columns<4>(m, p, k, m4_.data());
      interleave_columns<4>(w, p, k, w4_.data());
    }
  }

  // out[0 .. k): the weighted squared distances of a to the k centres.
  SIDECLUST_FORCE_INLINE void sq_distances(PortableKernels, const double* a, double* out) const {
    int j = 0;
    for (; j + 1 < k_; j += 2) {
      sq_distance_pair<true>(a, m2_.data() + j * p_, w2_.data() + j * p_, p_, out[j], out[j + 1]);
    }
    if (j < k_) out[j] = sq_distance<true>(a, m_ + j * p_, w_ + j * p_, p_);
  }
  // out[0 .. k): a vector's weighted squared norms from its squares sq.
  SIDECLUST_FORCE_INLINE void norms_from_squares(PortableKernels, const double* sq, double* out) const {
    weighted_norms_pairs(sq, w_, w2_.data(), p_, k_, out);
  }
#if defined(SIDECLUST_AVX)
  SIDECLUST_FORCE_INLINE void sq_distances(AvxKernels, const double* a, double* out) const {
    weighted_sq_distances_quads(a, m_, w_, m4_.data(), w4_.data(), m2_.data(), w2_.data(), p_, k_, out);
  }
  SIDECLUST_FORCE_INLINE void norms_from_squares(AvxKernels, const double* sq, double* out) const {
    weighted_norms_quads(sq, w_, w4_.data(), w2_.data(), p_, k_, out);
  }
#endif

 private:
  const double* m_ = nullptr;
  const double* w_ = nullptr;
  int p_ = 0, k_ = 0;
  std::vector<double> m2_, w2_, m4_, w4_;
};

// to[d] += (x[d] - a[d])^2 for d < p (a weighted metric's scatter about a
// centre), two coordinates per instruction where the compiler has the
// vector extension: the same operations on each coordinate, so the same sums.
SIDECLUST_FORCE_INLINE void add_squared_differences(double* to, const double* x, const double* a, int p) {
  int d = 0;
#if defined(SIDECLUST_HAS_LANES2)
  for (; d + 1 < p; d += 2) {
    Lanes2 s, u, v;
    std::memcpy(&s, to + d, sizeof s);
    std::memcpy(&u, x + d, sizeof u);
    std::memcpy(&v, a + d, sizeof v);
    const Lanes2 t = u - v;
    s += t * t;
    std::memcpy(to + d, &s, sizeof s);
  }
#endif
  for (; d < p; ++d) {
    const double t = x[d] - a[d];
    to[d] += t * t;
  }
}

}  // namespace sideclust
