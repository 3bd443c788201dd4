// A joint distribution p(x, y) stored row-compressed (CSR: rows x are the
// objects, columns y the auxiliary variable), normalized to sum 1, with its
// marginals, and the entropy helpers shared by the information-bottleneck and
// co-clustering cores. Plain C++17, no R headers.
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

#include "common/csr_transpose.h"

namespace sideclust {

// x log x with 0 log 0 = 0.
inline double xlogx(double x) { return x > 0.0 ? x * std::log(x) : 0.0; }

// A read-only array that borrows memory it does not own (R's vectors, so a
// joint given from R is not copied) or owns its own; reads may be scaled by a
// constant (a borrowed joint of counts reads as probabilities).
template <class T>
class CsrArray {
 public:
  CsrArray() = default;
  CsrArray(const CsrArray& o) : own_(o.own_), data_(o.data_), n_(o.n_), scale_(o.scale_) {
    if (!own_.empty()) data_ = own_.data();
  }
  CsrArray(CsrArray&&) noexcept = default;  // a moved vector keeps its buffer
  CsrArray& operator=(CsrArray o) noexcept {
    own_.swap(o.own_);
    std::swap(data_, o.data_);
    std::swap(n_, o.n_);
    std::swap(scale_, o.scale_);
    return *this;
  }
  CsrArray& operator=(std::vector<T> v) {
    own_ = std::move(v);
    data_ = own_.data();
    n_ = own_.size();
    scale_ = T(1);
    return *this;
  }
  void borrow(const T* data, std::size_t n, T scale = T(1)) {
    own_.clear();
    data_ = data;
    n_ = n;
    scale_ = scale;
  }
  T operator[](std::size_t i) const { return data_[i] * scale_; }
  const T* address(std::size_t i) const { return data_ + i; }  // for cache hints
  std::size_t size() const { return n_; }
  T back() const { return (*this)[n_ - 1]; }

 private:
  std::vector<T> own_;
  const T* data_ = nullptr;
  std::size_t n_ = 0;
  T scale_ = T(1);
};

struct JointCsr {
  int n_rows = 0, n_cols = 0;
  CsrArray<int> ptr;     // n_rows + 1 offsets into idx / val
  CsrArray<int> idx;     // column of each non-zero, increasing within a row
  CsrArray<double> val;  // p(x, y), sums to 1
  std::vector<double> px, py;

  int row_nnz(int x) const { return ptr[x + 1] - ptr[x]; }
  std::size_t nnz() const { return val.size(); }
};

namespace joint_detail {
inline void check_csr(int n_rows, int n_cols, const int* ptr, const int* idx,
                      const double* val, std::size_t nnz) {
  if (n_rows < 0 || n_cols < 0 || ptr[0] != 0 ||
      static_cast<std::size_t>(ptr[n_rows]) != nnz) {
    throw std::invalid_argument("inconsistent CSR arrays");
  }
  for (int x = 0; x < n_rows; ++x) {
    if (ptr[x + 1] < ptr[x]) throw std::invalid_argument("inconsistent CSR arrays");
  }
  for (std::size_t e = 0; e < nnz; ++e) {
    if (idx[e] < 0 || idx[e] >= n_cols) throw std::invalid_argument("column out of range");
    if (!(val[e] >= 0.0)) throw std::invalid_argument("negative or NA entry");
  }
}

// Normalizes the (already checked) values in place through their read scale
// and fills the marginals.
inline void finish_joint(JointCsr& p, const double* raw) {
  double total = 0.0;
  for (std::size_t e = 0; e < p.idx.size(); ++e) total += raw[e];
  if (!(total > 0.0)) throw std::invalid_argument("the matrix sums to zero");
  p.val.borrow(raw, p.idx.size(), 1.0 / total);
  p.px.assign(p.n_rows, 0.0);
  p.py.assign(p.n_cols, 0.0);
  for (int x = 0; x < p.n_rows; ++x) {
    for (int e = p.ptr[x]; e < p.ptr[x + 1]; ++e) {
      const double v = p.val[e];
      p.px[x] += v;
      p.py[p.idx[e]] += v;
    }
  }
}
}  // namespace joint_detail

// A joint over CSR arrays of non-negative counts (any scale) that stay where
// they are: the arrays must outlive the joint. Reads are normalized.
inline JointCsr borrow_joint(int n_rows, int n_cols, const int* ptr, const int* idx,
                             const double* val, std::size_t nnz) {
  joint_detail::check_csr(n_rows, n_cols, ptr, idx, val, nnz);
  JointCsr p;
  p.n_rows = n_rows;
  p.n_cols = n_cols;
  p.ptr.borrow(ptr, static_cast<std::size_t>(n_rows) + 1);
  p.idx.borrow(idx, nnz);
  joint_detail::finish_joint(p, val);
  return p;
}

// Build from CSR arrays of non-negative counts (any scale), owning them.
inline JointCsr make_joint(int n_rows, int n_cols, std::vector<int> ptr,
                           std::vector<int> idx, std::vector<double> val) {
  if (static_cast<int>(ptr.size()) != n_rows + 1 || idx.size() != val.size() ||
      ptr.back() != static_cast<int>(val.size())) {
    throw std::invalid_argument("inconsistent CSR arrays");
  }
  joint_detail::check_csr(n_rows, n_cols, ptr.data(), idx.data(), val.data(), val.size());
  double total = 0.0;
  for (double v : val) total += v;
  if (!(total > 0.0)) throw std::invalid_argument("the matrix sums to zero");
  for (double& v : val) v /= total;
  JointCsr p;
  p.n_rows = n_rows;
  p.n_cols = n_cols;
  p.ptr = std::move(ptr);
  p.idx = std::move(idx);
  p.val = std::move(val);
  p.px.assign(n_rows, 0.0);
  p.py.assign(n_cols, 0.0);
  for (int x = 0; x < n_rows; ++x) {
    for (int e = p.ptr[x]; e < p.ptr[x + 1]; ++e) {
      p.px[x] += p.val[e];
      p.py[p.idx[e]] += p.val[e];
    }
  }
  return p;
}

// The transpose (columns become rows), with the same normalization.
inline JointCsr transpose(const JointCsr& p) {
  JointCsr t;
  t.n_rows = p.n_cols;
  t.n_cols = p.n_rows;
  std::vector<int> ptr(t.n_rows + 1), idx(p.nnz()), next(t.n_rows);
  std::vector<double> val(p.nnz());
  transpose_compressed(p.n_rows, p.n_cols, p.ptr, p.idx, p.val, ptr.data(), idx.data(),
                       val.data(), next.data());
  t.ptr = std::move(ptr);
  t.idx = std::move(idx);
  t.val = std::move(val);
  t.px = p.py;
  t.py = p.px;
  return t;
}

// q(c, y): the joint summed over the rows of each cluster (cl[x] in 0..k-1),
// a k x n_cols matrix stored column-major (R's layout).
inline std::vector<double> cluster_joint(const JointCsr& p, const std::vector<int>& cl, int k) {
  std::vector<double> q(static_cast<std::size_t>(k) * p.n_cols, 0.0);
  for (int x = 0; x < p.n_rows; ++x) {
    const int c = cl[x];
    if (c < 0 || c >= k) throw std::invalid_argument("cluster out of range");
    for (int e = p.ptr[x]; e < p.ptr[x + 1]; ++e) {
      q[static_cast<std::size_t>(p.idx[e]) * k + c] += p.val[e];
    }
  }
  return q;
}

// Entropy (nats) of a distribution given by non-negative weights summing to 1.
inline double entropy(const std::vector<double>& w) {
  double h = 0.0;
  for (double v : w) h -= xlogx(v);
  return h;
}

// I(X;Y) of the joint distribution itself.
inline double mutual_information(const JointCsr& p) {
  double s = 0.0;
  for (int x = 0; x < p.n_rows; ++x) {
    for (int e = p.ptr[x]; e < p.ptr[x + 1]; ++e) {
      const double v = p.val[e];
      if (v > 0.0) s += v * std::log(v / (p.px[x] * p.py[p.idx[e]]));
    }
  }
  return s;
}

// I(C;Y) from a dense k x m cluster joint q(c, y) (row-major, c-th row at
// c * m) with cluster masses pc and column marginal py.
inline double cluster_information(const std::vector<double>& q, const std::vector<double>& pc,
                                  const std::vector<double>& py) {
  const std::size_t m = py.size();
  double s = 0.0;
  for (std::size_t c = 0; c < pc.size(); ++c) {
    if (!(pc[c] > 0.0)) continue;
    for (std::size_t y = 0; y < m; ++y) {
      const double v = q[c * m + y];
      if (v > 0.0) s += v * std::log(v / (pc[c] * py[y]));
    }
  }
  return s;
}

// Random hard partition of n points into k non-empty clusters (n >= k): a
// random permutation gives each cluster one point, the rest go uniformly.
template <class Uniform>
std::vector<int> random_partition(int n, int k, Uniform&& uniform) {
  std::vector<int> cl(n);
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  for (int i = n; i > 1; --i) {
    int j = static_cast<int>(uniform() * i);
    if (j >= i) j = i - 1;
    std::swap(order[i - 1], order[j]);
  }
  for (int i = 0; i < n; ++i) {
    if (i < k) {
      cl[order[i]] = i;
    } else {
      int c = static_cast<int>(uniform() * k);
      cl[order[i]] = c >= k ? k - 1 : c;
    }
  }
  return cl;
}

}  // namespace sideclust
