// Points as the rows of an n x p column-major array: R's own layout of a
// data matrix, read in place so that a method holds no transposed copy of
// the data. Coordinate d of point i is data[i + d n]: a point is p numbers
// n apart, so a method reading points one at a time copies each into a
// contiguous p-vector (copy()) and runs its contiguous kernels on that, and
// names its p values (request_point()) for a loop that reads points at
// random places and looks ahead (engine/lookahead.h). Plain C++17.
#pragma once

#include <algorithm>
#include <cstddef>

#include "engine/lookahead.h"

namespace sideclust {

class ColumnMajorPoints {
 public:
  ColumnMajorPoints(const double* data, int n, int p) : data_(data), n_(n), p_(p) {}
  int n() const { return n_; }
  int p() const { return p_; }
  double at(int i, int d) const {
    return data_[static_cast<std::size_t>(i) + static_cast<std::size_t>(d) * n_];
  }
  // Point i into out[0 .. p).
  void copy(int i, double* out) const {
    const double* at_i = data_ + i;
    for (int d = 0; d < p_; ++d, at_i += n_) out[d] = *at_i;
  }
  // The cache lines point i is read from (one per coordinate).
  void request_point(int i, const Upcoming& r) const {
    const double* at_i = data_ + i;
    for (int d = 0; d < p_; ++d, at_i += n_) r.line(at_i);
  }
  // The points idx[0 .. count) into out, p numbers each. A run of
  // consecutive indices (a sweep's blocks of rows) is read column by
  // column, p streams the processor fetches ahead by itself; other points
  // are asked for `kAhead` points ahead.
  void copy_points(const int* idx, int count, double* out) const {
    for (int a = 0; a < count;) {
      int b = a + 1;
      while (b < count && idx[b] == idx[b - 1] + 1) ++b;
      if (b - a >= kMinRun) {  // in tiles of kTile rows, whose copies stay in the L1 cache
        for (int r0 = a; r0 < b; r0 += kTile) {
          const int r1 = std::min(b, r0 + kTile);
          const double* col = data_ + idx[r0];
          for (int d = 0; d < p_; ++d, col += n_) {
            double* to = out + static_cast<std::size_t>(r0) * p_ + d;
            for (int r = 0; r < r1 - r0; ++r, to += p_) *to = col[r];
          }
        }
      } else {
        for_range_ahead(
            a, b, count, [&](int r) { copy(idx[r], out + static_cast<std::size_t>(r) * p_); },
            ahead<kAhead>([&](int r, const Upcoming& up) { request_point(idx[r], up); }));
      }
      a = b;
    }
  }
  // Column d: the n values of coordinate d, contiguous.
  const double* column(int d) const { return data_ + static_cast<std::size_t>(d) * n_; }

 private:
  const double* data_;
  int n_, p_;
  static constexpr int kMinRun = 8, kAhead = 8, kTile = 32;
};

}  // namespace sideclust
