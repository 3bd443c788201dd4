// Transpose of a compressed sparse matrix by counting sort: the column-
// compressed arrays of an n_rows x n_cols matrix become its row-compressed
// arrays (or the other way round), in two passes over the non-zeros, with
// indices increasing within each output row. Plain C++17, no R headers.
#pragma once

#include <cstddef>

namespace sideclust {

// in_ptr (n_major + 1 offsets), in_idx / in_val (the minor index and value of
// each entry): anything indexable. out_ptr must hold n_minor + 1 ints, out_idx
// and out_val as many entries as the input; out_next is scratch of n_minor ints.
template <class InPtr, class InIdx, class InVal>
void transpose_compressed(int n_major, int n_minor, const InPtr& in_ptr, const InIdx& in_idx,
                          const InVal& in_val, int* out_ptr, int* out_idx, double* out_val,
                          int* out_next) {
  const std::size_t nnz = static_cast<std::size_t>(in_ptr[n_major]);
  for (int c = 0; c <= n_minor; ++c) out_ptr[c] = 0;
  for (std::size_t e = 0; e < nnz; ++e) ++out_ptr[in_idx[e] + 1];
  for (int c = 0; c < n_minor; ++c) {
    out_ptr[c + 1] += out_ptr[c];
    out_next[c] = out_ptr[c];
  }
  for (int r = 0; r < n_major; ++r) {
    for (int e = in_ptr[r]; e < in_ptr[r + 1]; ++e) {
      const int at = out_next[in_idx[e]]++;
      out_idx[at] = r;
      out_val[at] = in_val[e];
    }
  }
}

}  // namespace sideclust
