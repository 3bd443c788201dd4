// Cache hints shared by the sweeps whose reads jump around memory and the
// passes that write tables too large for the cache.
#pragma once

#include <cstddef>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sideclust {

// Ask the processor to start loading p into the cache (a no-op where the
// compiler has no such builtin). Sweeps over randomly placed pairs issue it
// for a point's partners a few visits ahead, so that the loads overlap
// instead of each waiting for memory.
// The empty volatile asm marks the function as having an effect: GCC 12
// counts __builtin_prefetch as none, so a function (or lambda) doing only
// prefetches and not inlined early was judged pure and its calls deleted.
inline void prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
  __asm__ volatile("");
#else
  (void)p;
#endif
}

// prefetch() for every cache line of the bytes [p, p + bytes), bytes > 0:
// one every 64 bytes from p, and the last byte, whose line that stride
// skips when p is not at the start of its line.
inline void prefetch_range(const void* p, std::size_t bytes) {
  const char* a = static_cast<const char*>(p);
  for (std::size_t b = 0; b < bytes; b += 64) prefetch(a + b);
  prefetch(a + bytes - 1);
}

// Write the 8 doubles of src to dst (64-byte aligned: one cache line)
// without first reading dst's line into the cache: a pass writing a table
// far larger than the cache then moves half the memory traffic (an ordinary
// store loads the line before overwriting it). Call stream_fence() after
// the last, before the table is read. Plain copies where SSE2 is missing.
inline void stream_line(double* dst, const double* src) {
#if defined(__SSE2__)
  for (int t = 0; t < 8; t += 2) _mm_stream_pd(dst + t, _mm_loadu_pd(src + t));
#else
  std::memcpy(dst, src, 8 * sizeof(double));
#endif
}

inline void stream_fence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace sideclust
