// Codes 1 .. K of integer classes in the order of their values, as R's
// factor() numbers them, in two passes over the classes (the range and NA
// check, then the codes through a table over the range) instead of
// factor()'s conversion of every element to a string. Plain C++17, no R API.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sideclust {

// y: n integers, INT_MIN meaning a missing value (R's NA). True, with the
// smallest and largest value in lo and hi, when y holds no missing value and
// its values span at most max(n, min_span) integers (a longer table would
// cost more than sorting).
inline bool class_range(const int* y, std::size_t n, std::size_t min_span, int& lo, int& hi) {
  if (n == 0) return false;
  lo = INT_MAX;
  hi = INT_MIN;
  bool missing = false;
  for (std::size_t i = 0; i < n; ++i) {
    missing |= y[i] == INT_MIN;
    lo = y[i] < lo ? y[i] : lo;
    hi = y[i] > hi ? y[i] : hi;
  }
  if (missing) return false;
  const std::uint64_t span = static_cast<std::uint64_t>(static_cast<std::int64_t>(hi) - lo) + 1;
  return span <= (n > min_span ? n : min_span);
}

// After class_range(): codes (n) and the distinct values, increasing.
inline void class_codes(const int* y, std::size_t n, int lo, int hi, int* codes,
                        std::vector<int>& values) {
  const std::size_t span = static_cast<std::size_t>(static_cast<std::int64_t>(hi) - lo) + 1;
  std::vector<int> rank(span, 0);
  for (std::size_t i = 0; i < n; ++i) rank[static_cast<std::size_t>(y[i] - lo)] = 1;
  values.clear();
  int next = 0;
  for (std::size_t v = 0; v < span; ++v) {
    if (rank[v]) {
      rank[v] = ++next;
      values.push_back(static_cast<int>(lo + static_cast<std::int64_t>(v)));
    }
  }
  for (std::size_t i = 0; i < n; ++i) codes[i] = rank[static_cast<std::size_t>(y[i] - lo)];
}

}  // namespace sideclust
