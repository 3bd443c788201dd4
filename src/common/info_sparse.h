// A joint distribution p(x, y) stored row-compressed (CSR: rows x are the
// objects, columns y the auxiliary variable), normalized to sum 1, with its
// marginals, and the entropy helpers shared by the information-bottleneck and
// co-clustering cores. Plain C++17, no R headers.
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace sideclust {

// x log x with 0 log 0 = 0.
inline double xlogx(double x) { return x > 0.0 ? x * std::log(x) : 0.0; }

struct JointCsr {
  int n_rows = 0, n_cols = 0;
  std::vector<int> ptr;    // n_rows + 1 offsets into idx / val
  std::vector<int> idx;    // column of each non-zero, increasing within a row
  std::vector<double> val; // p(x, y), sums to 1
  std::vector<double> px, py;

  int row_nnz(int x) const { return ptr[x + 1] - ptr[x]; }
  std::size_t nnz() const { return val.size(); }
};

// Build from CSR arrays of non-negative counts (any scale); normalizes.
inline JointCsr make_joint(int n_rows, int n_cols, std::vector<int> ptr,
                           std::vector<int> idx, std::vector<double> val) {
  if (static_cast<int>(ptr.size()) != n_rows + 1 || idx.size() != val.size() ||
      ptr.back() != static_cast<int>(val.size())) {
    throw std::invalid_argument("inconsistent CSR arrays");
  }
  JointCsr p;
  p.n_rows = n_rows;
  p.n_cols = n_cols;
  double total = 0.0;
  for (double v : val) {
    if (!(v >= 0.0)) throw std::invalid_argument("negative or NA entry");
    total += v;
  }
  if (!(total > 0.0)) throw std::invalid_argument("the matrix sums to zero");
  for (double& v : val) v /= total;
  p.px.assign(n_rows, 0.0);
  p.py.assign(n_cols, 0.0);
  for (int x = 0; x < n_rows; ++x) {
    for (int e = ptr[x]; e < ptr[x + 1]; ++e) {
      if (idx[e] < 0 || idx[e] >= n_cols) throw std::invalid_argument("column out of range");
      p.px[x] += val[e];
      p.py[idx[e]] += val[e];
    }
  }
  p.ptr = std::move(ptr);
  p.idx = std::move(idx);
  p.val = std::move(val);
  return p;
}

// The transpose (columns become rows), with the same normalization.
inline JointCsr transpose(const JointCsr& p) {
  JointCsr t;
  t.n_rows = p.n_cols;
  t.n_cols = p.n_rows;
  t.ptr.assign(t.n_rows + 1, 0);
  for (int c : p.idx) ++t.ptr[c + 1];
  for (int y = 0; y < t.n_rows; ++y) t.ptr[y + 1] += t.ptr[y];
  t.idx.resize(p.nnz());
  t.val.resize(p.nnz());
  std::vector<int> next(t.ptr.begin(), t.ptr.end() - 1);
  for (int x = 0; x < p.n_rows; ++x) {
    for (int e = p.ptr[x]; e < p.ptr[x + 1]; ++e) {
      const int at = next[p.idx[e]]++;
      t.idx[at] = x;
      t.val[at] = p.val[e];
    }
  }
  t.px = p.py;
  t.py = p.px;
  return t;
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
