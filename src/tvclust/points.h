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
inline std::size_t point_cost(const SparseRows& x, int i) { return x.work(i); }
inline int point_count(const DensePoints& x) { return static_cast<int>(x.cols()); }
inline int point_count(const SparseRows& x) { return x.n(); }

// Squared Euclidean distance between points i and j (k-means++ starts).
// Sparse rows hold their indices in increasing order (as Matrix's classes
// do), so one merge of the two rows gives the distance.
inline double squared_distance(const DensePoints& x, int i, int j) {
  return (x.col(i) - x.col(j)).squaredNorm();
}
inline double squared_distance(const SparseRows& x, int i, int j) {
  const SparseRow a = x.row(i), b = x.row(j);
  double out = 0.0;
  int s = 0, t = 0;
  while (s < a.nnz || t < b.nnz) {
    double e;
    if (t == b.nnz || (s < a.nnz && a.idx[s] < b.idx[t])) {
      e = a.val[s++];
    } else if (s == a.nnz || b.idx[t] < a.idx[s]) {
      e = b.val[t++];
    } else {
      e = a.val[s++] - b.val[t++];
    }
    out += e * e;
  }
  return out;
}

}  // namespace sideclust
