// Lanes2: two doubles operated on lane by lane (GCC / Clang vector
// extension: one SSE2 register on x86-64, NEON on arm64); each lane rounds
// exactly as the scalar operation would, so code written with it gives the
// bitwise results of its scalar form. SIDECLUST_HAS_LANES2 says whether the
// compiler has it; callers keep a scalar path for the others.
#pragma once

#include <cstddef>
#include <cstring>

#include "engine/force_inline.h"

namespace sideclust {

#if defined(__GNUC__) || defined(__clang__)
typedef double Lanes2 __attribute__((vector_size(16)));
#define SIDECLUST_HAS_LANES2 1

SIDECLUST_FORCE_INLINE Lanes2 load_lanes2(const double* p) {
  Lanes2 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
SIDECLUST_FORCE_INLINE void store_lanes2(double* p, Lanes2 v) { std::memcpy(p, &v, sizeof v); }
#endif

// Column arithmetic of the sweeps and E-steps, two entries per instruction
// where the lanes exist; each entry gets the same one operation as in the
// scalar loop (which, one load-operate-store per entry, was a noticeable
// share of a k-means sweep for the sums), so the same values.

// to[k] += x[k] for k < n.
SIDECLUST_FORCE_INLINE void add_into(double* to, const double* x, std::ptrdiff_t n) {
  std::ptrdiff_t k = 0;
#if defined(SIDECLUST_HAS_LANES2)
  for (; k + 1 < n; k += 2) store_lanes2(to + k, load_lanes2(to + k) + load_lanes2(x + k));
#endif
  for (; k < n; ++k) to[k] += x[k];
}

// to[k] *= x[k] for k < n.
SIDECLUST_FORCE_INLINE void multiply_into(double* to, const double* x, std::ptrdiff_t n) {
  std::ptrdiff_t k = 0;
#if defined(SIDECLUST_HAS_LANES2)
  for (; k + 1 < n; k += 2) store_lanes2(to + k, load_lanes2(to + k) * load_lanes2(x + k));
#endif
  for (; k < n; ++k) to[k] *= x[k];
}

// to[k] += c * x[k] for k < n.
SIDECLUST_FORCE_INLINE void add_scaled_into(double* to, double c, const double* x,
                                            std::ptrdiff_t n) {
  std::ptrdiff_t k = 0;
#if defined(SIDECLUST_HAS_LANES2)
  const Lanes2 cc = {c, c};
  for (; k + 1 < n; k += 2) store_lanes2(to + k, load_lanes2(to + k) + cc * load_lanes2(x + k));
#endif
  for (; k < n; ++k) to[k] += c * x[k];
}

}  // namespace sideclust
