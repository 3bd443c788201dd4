// SIDECLUST_FORCE_INLINE: asks the compiler to inline a small function on
// the innermost path of a sweep. At -O2 GCC kept sq_distance(), the sweeps'
// look-ahead step and the per-cluster distance dispatch as calls: at
// n = 1e6, k = 5 that is several million calls per sweep, about a fifth of
// a PCK-means iteration in a profile. Plain `inline` elsewhere.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define SIDECLUST_FORCE_INLINE inline __attribute__((always_inline))
#else
#define SIDECLUST_FORCE_INLINE inline
#endif
