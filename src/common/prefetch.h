// A cache hint shared by the sweeps whose reads jump around memory.
#pragma once

namespace sideclust {

// Ask the processor to start loading p into the cache (a no-op where the
// compiler has no such builtin). Sweeps over randomly placed pairs issue it
// for a point's partners a few visits ahead, so that the loads overlap
// instead of each waiting for memory.
inline void prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

}  // namespace sideclust
