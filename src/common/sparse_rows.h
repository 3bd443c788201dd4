// Row access to the points of a point-clustering core, dense or sparse, so
// that one algorithm serves both (templated on the Rows type):
//   rows.n(), rows.p()        number of points and coordinates
//   rows.row(i)               point i: `const double*` (dense) or SparseRow
//   add_row(row, p, sum, shift), densify(row, p, out)   see below
// Dense points are the columns of a p x n column-major array. Sparse points
// are row-compressed (CSR: for a document-term matrix, each row's non-zero
// counts), read in place from R's arrays without a copy. A sparse point may
// carry a per-row scale and a constant offset shared by all rows,
//   x_i = scale_i * (v_i + offset),
// which is how smoothed and normalized counts (the KL divergence's input) stay
// sparse: the dense offset is never stored, and the divergences of
// common/bregman.h account for it through per-centre sums.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace sideclust {

// One sparse point: nnz stored coordinates idx[0 .. nnz) (0-based, any
// order) with values val; the point is scale * (v + offset), v = 0 elsewhere.
struct SparseRow {
  const int* idx;
  const double* val;
  int nnz;
  double scale;
  double offset;
};

// Points as the columns of a p x n column-major array.
class DenseRows {
 public:
  DenseRows(const double* x, int n, int p) : x_(x), n_(n), p_(p) {}
  int n() const { return n_; }
  int p() const { return p_; }
  const double* row(int i) const { return x_ + static_cast<std::size_t>(i) * p_; }
  const double* data() const { return x_; }
  // The numbers point i holds: what a pass over it reads (interrupt polling).
  std::size_t work(int) const { return static_cast<std::size_t>(p_); }

 private:
  const double* x_;
  int n_, p_;
};

// Points as the rows of an n x p CSR matrix: row i has entries ptr[i] ..
// ptr[i + 1] - 1 of idx / val. scale (n numbers) may be null (all 1).
class SparseRows {
 public:
  SparseRows(const int* ptr, const int* idx, const double* val, int n, int p,
             const double* scale = nullptr, double offset = 0.0)
      : ptr_(ptr), idx_(idx), val_(val), scale_(scale), offset_(offset), n_(n), p_(p) {}
  int n() const { return n_; }
  int p() const { return p_; }
  double offset() const { return offset_; }
  SparseRow row(int i) const {
    return SparseRow{idx_ + ptr_[i], val_ + ptr_[i], ptr_[i + 1] - ptr_[i],
                     scale_ ? scale_[i] : 1.0, offset_};
  }
  std::size_t work(int i) const { return static_cast<std::size_t>(ptr_[i + 1] - ptr_[i]) + 1; }

 private:
  const int* ptr_;
  const int* idx_;
  const double* val_;
  const double* scale_;
  double offset_;
  int n_, p_;
};

// sum += the point, except that a sparse point's constant part scale * offset
// goes to `shift` (to be added to every coordinate once, at the end): O(nnz).
inline void add_row(const double* x, int p, double* sum, double&) {
  for (int d = 0; d < p; ++d) sum[d] += x[d];
}
inline void add_row(const SparseRow& r, int, double* sum, double& shift) {
  for (int j = 0; j < r.nnz; ++j) sum[r.idx[j]] += r.scale * r.val[j];
  shift += r.scale * r.offset;
}

// The point as p dense numbers (for a centre opened at a point).
inline void densify(const SparseRow& r, int p, double* out) {
  for (int d = 0; d < p; ++d) out[d] = r.scale * r.offset;
  for (int j = 0; j < r.nnz; ++j) out[r.idx[j]] = r.scale * (r.val[j] + r.offset);
}


}  // namespace sideclust
