// Kernels for kernel RDP-means: what a sweep needs from a kernel matrix K is,
// for one point i, the sums r[c] = sum_{j in cluster c} K_ij over every
// cluster, and the diagonal. Four sources, none of which forms an n x n
// matrix that the caller did not pass:
//
//   LinearKernel   K = X'X, sums from per-cluster feature sums: O(k p) a point.
//   RbfKernel      exp(-|x_i - x_j|^2 / (2 sigma^2)) on the fly: O(n p) a point.
//   DenseKernel    a user's n x n matrix (column-major): O(n) a point.
//   SparseKernel   a user's sparse symmetric matrix (compressed columns, e.g. a
//                  k-NN graph): O(nonzeros of column i) a point.
//
// Stateful sources (the linear one) hear about every move through reset(),
// add_cluster() and move(); the others ignore them.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace sideclust {

class LinearKernel {
 public:
  // x: p x n, column-major (points are columns).
  LinearKernel(const double* x, int n, int p) : x_(x), n_(n), p_(p), diag_(n) {
    for (int i = 0; i < n; ++i) diag_[i] = dot(point(i), point(i));
  }
  int n() const { return n_; }
  double diag(int i) const { return diag_[i]; }
  void column(int j, double* out) const {
    for (int i = 0; i < n_; ++i) out[i] = dot(point(i), point(j));
  }
  void reset(const std::vector<int>& z, int k) {
    sum_.assign(static_cast<std::size_t>(k) * p_, 0.0);
    for (int i = 0; i < n_; ++i) add(z[i], i, 1.0);
  }
  void add_cluster() { sum_.resize(sum_.size() + p_, 0.0); }
  void move(int i, int from, int to) {
    add(from, i, -1.0);
    add(to, i, 1.0);
  }
  void cluster_sums(int i, const std::vector<int>& /*z*/, int k, double* out) const {
    for (int c = 0; c < k; ++c) out[c] = dot(point(i), &sum_[static_cast<std::size_t>(c) * p_]);
  }

 private:
  const double* point(int i) const { return x_ + static_cast<std::size_t>(i) * p_; }
  double dot(const double* a, const double* b) const {
    double s = 0.0;
    for (int d = 0; d < p_; ++d) s += a[d] * b[d];
    return s;
  }
  void add(int c, int i, double sign) {
    double* s = &sum_[static_cast<std::size_t>(c) * p_];
    const double* xi = point(i);
    for (int d = 0; d < p_; ++d) s[d] += sign * xi[d];
  }
  const double* x_;
  int n_, p_;
  std::vector<double> diag_, sum_;
};

// Gaussian (RBF) kernel evaluated on the fly; squared norms are cached so an
// entry costs one dot product.
class RbfKernel {
 public:
  RbfKernel(const double* x, int n, int p, double sigma)
      : x_(x), n_(n), p_(p), gamma_(1.0 / (2.0 * sigma * sigma)), norm_(n) {
    for (int i = 0; i < n; ++i) norm_[i] = dot(point(i), point(i));
  }
  int n() const { return n_; }
  double diag(int /*i*/) const { return 1.0; }
  // K(y, x_j) for an outside point y with squared norm ny.
  double to_point(const double* y, double ny, int j) const {
    const double d2 = std::max(0.0, ny + norm_[j] - 2.0 * dot(y, point(j)));
    return std::exp(-gamma_ * d2);
  }
  void column(int j, double* out) const {
    for (int i = 0; i < n_; ++i) out[i] = to_point(point(j), norm_[j], i);
  }
  void reset(const std::vector<int>&, int) {}
  void add_cluster() {}
  void move(int, int, int) {}
  void cluster_sums(int i, const std::vector<int>& z, int k, double* out) const {
    std::fill(out, out + k, 0.0);
    for (int j = 0; j < n_; ++j) out[z[j]] += to_point(point(i), norm_[i], j);
  }
  int dim() const { return p_; }

 private:
  const double* point(int i) const { return x_ + static_cast<std::size_t>(i) * p_; }
  double dot(const double* a, const double* b) const {
    double s = 0.0;
    for (int d = 0; d < p_; ++d) s += a[d] * b[d];
    return s;
  }
  const double* x_;
  int n_, p_;
  double gamma_;
  std::vector<double> norm_;
};

// A symmetric n x n matrix the user passed, column-major.
class DenseKernel {
 public:
  DenseKernel(const double* k, int n) : k_(k), n_(n) {}
  int n() const { return n_; }
  double diag(int i) const { return k_[static_cast<std::size_t>(i) * n_ + i]; }
  void column(int j, double* out) const {
    std::copy(k_ + static_cast<std::size_t>(j) * n_, k_ + static_cast<std::size_t>(j + 1) * n_, out);
  }
  void reset(const std::vector<int>&, int) {}
  void add_cluster() {}
  void move(int, int, int) {}
  void cluster_sums(int i, const std::vector<int>& z, int k, double* out) const {
    std::fill(out, out + k, 0.0);
    const double* col = k_ + static_cast<std::size_t>(i) * n_;
    for (int j = 0; j < n_; ++j) out[z[j]] += col[j];
  }

 private:
  const double* k_;
  int n_;
};

// A symmetric sparse matrix in compressed-column form (Matrix's dgCMatrix:
// column pointers, row indices, values); absent entries are zero.
class SparseKernel {
 public:
  SparseKernel(const int* colptr, const int* row, const double* value, int n)
      : colptr_(colptr), row_(row), value_(value), n_(n), diag_(n, 0.0) {
    for (int j = 0; j < n; ++j) {
      for (int e = colptr[j]; e < colptr[j + 1]; ++e) {
        if (row[e] == j) diag_[j] += value[e];
      }
    }
  }
  int n() const { return n_; }
  double diag(int i) const { return diag_[i]; }
  void column(int j, double* out) const {
    std::fill(out, out + n_, 0.0);
    for (int e = colptr_[j]; e < colptr_[j + 1]; ++e) out[row_[e]] += value_[e];
  }
  void reset(const std::vector<int>&, int) {}
  void add_cluster() {}
  void move(int, int, int) {}
  void cluster_sums(int i, const std::vector<int>& z, int k, double* out) const {
    std::fill(out, out + k, 0.0);
    for (int e = colptr_[i]; e < colptr_[i + 1]; ++e) out[z[row_[e]]] += value_[e];
  }

 private:
  const int* colptr_;
  const int* row_;
  const double* value_;
  int n_;
  std::vector<double> diag_;
};

// K V for an n x m column-major V with the RBF kernel on the fly, row by row
// (O(n^2 (p + m)) time, O(n) extra memory): the matrix-vector products of a
// Lanczos eigensolver when K itself would not fit.
inline void rbf_product(const RbfKernel& kern, const double* v, int m, double* out) {
  const int n = kern.n();
  std::vector<double> col(n);
  std::fill(out, out + static_cast<std::size_t>(n) * m, 0.0);
  for (int i = 0; i < n; ++i) {
    kern.column(i, col.data());  // symmetric: column i is row i
    for (int c = 0; c < m; ++c) {
      const double* vc = v + static_cast<std::size_t>(c) * n;
      double s = 0.0;
      for (int j = 0; j < n; ++j) s += col[j] * vc[j];
      out[static_cast<std::size_t>(c) * n + i] = s;
    }
  }
}

// For every column y of the p x m matrix y and every cluster c of z (0 .. k - 1):
// sum_{j in c} K(y, x_j), an m x k column-major matrix; O(m n p).
inline std::vector<double> rbf_cluster_sums(const RbfKernel& kern, const double* y, int m,
                                            const std::vector<int>& z, int k) {
  const int p = kern.dim(), n = kern.n();
  std::vector<double> out(static_cast<std::size_t>(m) * k, 0.0);
  for (int a = 0; a < m; ++a) {
    const double* ya = y + static_cast<std::size_t>(a) * p;
    double ny = 0.0;
    for (int d = 0; d < p; ++d) ny += ya[d] * ya[d];
    for (int j = 0; j < n; ++j) out[static_cast<std::size_t>(z[j]) * m + a] += kern.to_point(ya, ny, j);
  }
  return out;
}

}  // namespace sideclust
