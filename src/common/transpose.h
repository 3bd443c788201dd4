// The transpose of a dense column-major matrix: R holds points as the rows of
// an n x p matrix, the cores read them as the columns of a p x n one. R's t()
// walks the output in order and the input with a stride of n doubles, one
// cache miss per value at n = 1e6; here both sides move through tiles small
// enough for the cache, so each line of either matrix is loaded once. Plain
// C++; the values are copied, not computed, so the result equals t()'s.
#pragma once

#include <algorithm>
#include <cstddef>

namespace sideclust {

// out (cols x rows, column-major) = the transpose of in (rows x cols,
// column-major). in and out must not overlap.
inline void transpose_dense(const double* in, std::size_t rows, std::size_t cols, double* out) {
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
      }
    }
  }
}

}  // namespace sideclust
