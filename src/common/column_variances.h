// Sample variances of the columns of a column-major n x p matrix, computed
// in place as R's var() computes one column (a long double mean refined by a
// second pass, then the centred sum of squares over n - 1), so the values are
// the same as var(x[, j]) without the n x p garbage of taking columns out in R.
// Plain C++.
#pragma once

#include <cstddef>
#include <cmath>

namespace sideclust {

// out[j] = the variance of column j (NaN when n < 2, as in R).
inline void column_variances(const double* x, std::size_t n, std::size_t p, double* out) {
  for (std::size_t j = 0; j < p; ++j) {
    const double* col = x + j * n;
    if (n < 2) {
      out[j] = std::nan("");
      continue;
    }
    long double sum = 0.0L;
    for (std::size_t i = 0; i < n; ++i) sum += col[i];
    long double mean = sum / static_cast<long double>(n);
    if (std::isfinite(static_cast<double>(mean))) {
      sum = 0.0L;
      for (std::size_t i = 0; i < n; ++i) sum += col[i] - mean;
      mean += sum / static_cast<long double>(n);
    }
    // R keeps the mean as a double, then centres in long double
    const long double centre = static_cast<double>(mean);
    long double squares = 0.0L;
    for (std::size_t i = 0; i < n; ++i) squares += (col[i] - centre) * (col[i] - centre);
    out[j] = static_cast<double>(squares / static_cast<long double>(n - 1));
  }
}

}  // namespace sideclust
