// Points (the columns of a p x n matrix) visited in blocks, so that a
// per-cluster temporary such as the centred or whitened points never exists
// for all n points at once: O(p x block) scratch instead of a copy of the
// data. Plain C++ with Eigen.
#pragma once

#include <Eigen/Dense>
#include <algorithm>

namespace sideclust {

constexpr Eigen::Index kColumnBlock = 4096;

// f(first, count) for consecutive blocks covering columns 0..n-1.
template <class F>
inline void for_column_blocks(Eigen::Index n, F&& f) {
  for (Eigen::Index j = 0; j < n; j += kColumnBlock) f(j, std::min(kColumnBlock, n - j));
}

}  // namespace sideclust
