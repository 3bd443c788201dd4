// SIDECLUST_FORCE_INLINE: asks the compiler to inline a small function on
// the innermost path of a sweep. At -O2 GCC kept sq_distance(), the sweeps'
// look-ahead step and the per-cluster distance dispatch as calls, several
// per point and cluster, a large share of a sweep (bench/NOTES.md). Plain
// `inline` elsewhere.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define SIDECLUST_FORCE_INLINE inline __attribute__((always_inline))
#else
#define SIDECLUST_FORCE_INLINE inline
#endif
