// Bit tricks of the cores' bit sets, in one place: the processor's own
// instruction where the compiler has it.
#pragma once

#include <cstdint>

namespace sideclust {

// The position (0 .. 63) of the lowest set bit of w != 0.
inline int lowest_set_bit(std::uint64_t w) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctzll(w);
#else
  int b = 0;
  while ((w & 1) == 0) {
    w >>= 1;
    ++b;
  }
  return b;
#endif
}

}  // namespace sideclust
