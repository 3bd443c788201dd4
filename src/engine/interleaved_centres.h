// The centres of a p x k column-major matrix laid out for the distance
// kernels (engine/sq_distance_quad.h): interleaved two by two, and four by
// four for the AVX kernels, so that one instruction serves two (four)
// centres. view().sq_distances(kernels, a, out) gives a point's squared
// distances to every centre, bitwise those of sq_distance() to each column,
// in the form of the kernels tag it is called with (engine/avx_dispatch.h).
#pragma once

#include <cstddef>
#include <vector>

#include "engine/avx_dispatch.h"
#include "engine/force_inline.h"
#include "engine/sq_distance.h"
#include "engine/sq_distance_quad.h"

namespace sideclust {

class InterleavedCentres {
 public:
  // Lays out m (p x k, kept by the caller while the layout is used); quads:
  // also four by four, for AvxKernels.
  void set(const double* m, int p, int k, bool quads) {
    m_ = m;
    p_ = p;
    k_ = k;
    pairs_.resize(static_cast<std::size_t>(p) * k);
    interleave_pairs(m, p, k, pairs_.data());
    if (quads) {
      quads_.resize(static_cast<std::size_t>(p) * k);
      interleave_columns<4>(m, p, k, quads_.data());
    }
  }

  // The layout as plain values, to be kept in a local of the sweep: its
  // loop then holds them in registers instead of reloading them from the
  // layout after every call it cannot see into.
  struct View {
    const double *m, *pairs, *quads;
    int p, k;
    // out[0 .. k): the squared distances of a to the k centres.
    SIDECLUST_FORCE_INLINE void sq_distances(PortableKernels, const double* a, double* out) const {
      sq_distances_pairs(a, m, pairs, p, k, out);
    }
#if defined(SIDECLUST_AVX)
    SIDECLUST_FORCE_INLINE void sq_distances(AvxKernels, const double* a, double* out) const {
      sq_distances_quads(a, m, quads, pairs, p, k, out);
    }
#endif
  };
  View view() const { return View{m_, pairs_.data(), quads_.data(), p_, k_}; }

 private:
  const double* m_ = nullptr;
  int p_ = 0, k_ = 0;
  std::vector<double> pairs_, quads_;
};

}  // namespace sideclust
