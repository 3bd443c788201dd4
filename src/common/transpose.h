// The transpose of a dense column-major matrix: R holds points as the rows of
// an n x p matrix, the cores read them as the columns of a p x n one. R's t()
// walks the output in order and the input with a stride of n doubles, one
// cache miss per value at large n; here both sides move through tiles small
// enough for the cache, so each line of either matrix is loaded once. Plain
// C++; the values are copied, not computed, so the result equals t()'s.
#pragma once

#include <algorithm>
#include <cstddef>

#include "engine/value_range.h"

namespace sideclust {

// out (cols x rows, column-major) = the transpose of in (rows x cols,
// column-major). in and out must not overlap. on_run(from, len) sees every
// value of in once, as runs of a column just copied (still in the cache).
template <class OnRun>
inline void transpose_dense(const double* in, std::size_t rows, std::size_t cols, double* out,
                            OnRun&& on_run) {
  // A tile reads kRows values down each of kCols columns of `in` (kCols
  // sequential streams) and writes kRows runs of kCols values of `out`:
  // 64 x 32 doubles = 16 KiB, within the first-level cache.
  constexpr std::size_t kRows = 64, kCols = 32;
  for (std::size_t c0 = 0; c0 < cols; c0 += kCols) {
    const std::size_t c1 = std::min(cols, c0 + kCols);
    for (std::size_t r0 = 0; r0 < rows; r0 += kRows) {
      const std::size_t r1 = std::min(rows, r0 + kRows);
      for (std::size_t c = c0; c < c1; ++c) {
        const double* from = in + c * rows;
        double* to = out + c;
        for (std::size_t r = r0; r < r1; ++r) to[r * cols] = from[r];
        on_run(from + r0, r1 - r0);
      }
    }
  }
}

inline void transpose_dense(const double* in, std::size_t rows, std::size_t cols, double* out) {
  transpose_dense(in, rows, cols, out, [](const double*, std::size_t) {});
}

// The transpose and the range of the values (the data checks) in one pass
// over in, instead of one for the copy and more for the checks.
inline ValueRange transpose_dense_range(const double* in, std::size_t rows, std::size_t cols,
                                        double* out) {
  ValueRange range;
  transpose_dense(in, rows, cols, out,
                  [&range](const double* from, std::size_t len) { range.add(from, len); });
  return range;
}

}  // namespace sideclust
