// The smallest and largest value of a block of doubles and whether any is
// NaN, in one pass: what R's data checks need (finite values, their range
// for the scale limits) without the three passes of sum(), min() and max().
// Plain C++ (SSE2 lanes where the compiler has them, the same results
// otherwise): min and max are exact, so the range equals R's.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sideclust {

struct ValueRange {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  bool nan = false;  // a NaN (R's NA included) was seen; lo and hi skip it

  // Every value seen is finite (an infinity shows up in lo or hi).
  bool finite() const { return !nan && std::isfinite(lo) && std::isfinite(hi); }

  void add(const double* v, std::size_t len) {
    std::size_t i = 0;
#if defined(__SSE2__)
    if (len >= 4) {
      // two lanes, two registers each: independent chains for the pipeline
      __m128d lo0 = _mm_set1_pd(lo), lo1 = lo0, hi0 = _mm_set1_pd(hi), hi1 = hi0;
      __m128d bad = _mm_setzero_pd();
      for (; i + 4 <= len; i += 4) {
        const __m128d a = _mm_loadu_pd(v + i), b = _mm_loadu_pd(v + i + 2);
        // MINPD returns its second operand when either is NaN: a NaN in the
        // data never reaches lo or hi
        lo0 = _mm_min_pd(a, lo0);
        lo1 = _mm_min_pd(b, lo1);
        hi0 = _mm_max_pd(a, hi0);
        hi1 = _mm_max_pd(b, hi1);
        bad = _mm_or_pd(bad, _mm_cmpunord_pd(a, b));
      }
      alignas(16) double l[2], h[2];
      _mm_store_pd(l, _mm_min_pd(lo0, lo1));
      _mm_store_pd(h, _mm_max_pd(hi0, hi1));
      lo = l[0] < l[1] ? l[0] : l[1];
      hi = h[0] > h[1] ? h[0] : h[1];
      nan = nan || _mm_movemask_pd(bad) != 0;
    }
#endif
    for (; i < len; ++i) {
      const double x = v[i];
      if (x < lo) lo = x;
      if (x > hi) hi = x;
      if (x != x) nan = true;
    }
  }

  void merge(const ValueRange& other) {
    if (other.lo < lo) lo = other.lo;
    if (other.hi > hi) hi = other.hi;
    nan = nan || other.nan;
  }
};

}  // namespace sideclust
