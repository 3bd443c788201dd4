// A cache hint shared by the sweeps whose reads jump around memory.
#pragma once

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

}  // namespace sideclust
