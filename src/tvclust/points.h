// How the TVClust cores read their points, dense or sparse: point(x, i) is
// point i (an Eigen column of the p x n dense data, or a SparseRow of sparse
// counts, common/sparse_rows.h) and dimension(x) is p. The cluster families
// overload their per-point operations on both; only the multinomial family
// has sparse ones (its likelihood depends on a count vector through its
// non-zeros), so only it is instantiated with SparseRows.
#pragma once

#include <Eigen/Dense>
#include <cstddef>

#include "common/sparse_rows.h"

namespace sideclust {

using DensePoints = Eigen::Ref<const Eigen::MatrixXd>;

inline auto point(const DensePoints& x, int i) { return x.col(i); }
inline SparseRow point(const SparseRows& x, int i) { return x.row(i); }
inline Eigen::Index dimension(const DensePoints& x) { return x.rows(); }
inline Eigen::Index dimension(const SparseRows& x) { return x.p(); }
// Work per cluster of evaluating point i (for the interrupt polls' pacing).
inline std::size_t point_cost(const DensePoints& x, int) {
  return static_cast<std::size_t>(x.rows()) * x.rows();
}
inline std::size_t point_cost(const SparseRows& x, int i) { return x.row(i).nnz + 1; }
inline int point_count(const DensePoints& x) { return static_cast<int>(x.cols()); }
inline int point_count(const SparseRows& x) { return x.n(); }

}  // namespace sideclust
