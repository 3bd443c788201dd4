// Minimum and maximum as one instruction each (SSE2 minsd / maxsd) instead
// of a branch: GCC compiled std::min / std::max in data-dependent searches
// (the two nearest centres of a point) as branches, mispredicted about as
// often as not. For numbers that are not NaN; the values of std::min /
// std::max.
#pragma once

#include <algorithm>

#include "engine/force_inline.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sideclust {

// std::min(a, b)
SIDECLUST_FORCE_INLINE double min_of(double a, double b) {
#if defined(__SSE2__)
  return _mm_cvtsd_f64(_mm_min_sd(_mm_set_sd(b), _mm_set_sd(a)));  // b < a ? b : a
#else
  return std::min(a, b);
#endif
}

// std::max(a, b)
SIDECLUST_FORCE_INLINE double max_of(double a, double b) {
#if defined(__SSE2__)
  return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(b), _mm_set_sd(a)));  // b > a ? b : a
#else
  return std::max(a, b);
#endif
}

}  // namespace sideclust
