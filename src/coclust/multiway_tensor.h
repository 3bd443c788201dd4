// The data of multiway clustering: a dense tensor in R's layout (first
// dimension fastest) with optional cell weights, the cell divergences, the
// walk over its cells by blocks of the dimensions' clusters, and the seeding
// of a dimension from its unfolded slices. Plain C++17 + Eigen, no R headers.
#pragma once

#include <Eigen/Dense>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "common/info_sparse.h"
#include "common/run_hooks.h"
#include "common/seeding.h"

namespace sideclust {

enum class MultiwayDivergence { euclidean, idivergence };

// The data: N = prod(dim) values, first dimension fastest (R's layout), and
// optional weights (empty: uniform 1 / N), already normalized to sum 1.
struct MultiwayTensor {
  const double* z = nullptr;
  const double* w = nullptr;  // nullptr: uniform
  std::vector<int> dim;
  std::size_t n_cells() const {
    std::size_t n = 1;
    for (int m : dim) n *= static_cast<std::size_t>(m);
    return n;
  }
};

namespace multiway_detail {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// d(z, c) of one cell (c > 0 where z > 0 for the I-divergence, else +inf).
inline double cell_divergence(MultiwayDivergence div, double z, double c) {
  if (div == MultiwayDivergence::euclidean) return (z - c) * (z - c);
  if (z > 0.0) return c > 0.0 ? z * std::log(z / c) - z + c : std::numeric_limits<double>::infinity();
  return c;
}

// Mixed radix of the blocks of all dimensions but `skip` (-1: none), first
// dimension fastest; 0 for `skip`.
inline std::vector<std::size_t> block_radix(const std::vector<int>& k, int skip) {
  std::vector<std::size_t> rad(k.size(), 0);
  std::size_t r = 1;
  for (std::size_t l = 0; l < k.size(); ++l) {
    if (static_cast<int>(l) == skip) continue;
    rad[l] = r;
    r *= static_cast<std::size_t>(k[l]);
  }
  return rad;
}

inline std::size_t product(const std::vector<int>& v) {
  std::size_t p = 1;
  for (int x : v) p *= static_cast<std::size_t>(x);
  return p;
}

// Calls f(e, b, t) for every cell t, with e its index along dimension d and b
// its block among the other dimensions' clusters (block_radix(k, d)). The
// innermost loop runs along the first dimension, so z is read in order.
template <class F>
void visit_cells(const MultiwayTensor& x, const std::vector<std::vector<int>>& cl,
                 const std::vector<int>& k, int d, F&& f) {
  const int n = static_cast<int>(x.dim.size());
  const std::vector<std::size_t> rad = block_radix(k, d);
  const int m0 = x.dim[0];
  const std::size_t fibres = x.n_cells() / static_cast<std::size_t>(m0);
  std::vector<int> idx(n, 0);  // indices of dimensions 1..n-1 of the fibre
  const int* c0 = cl[0].data();
  std::size_t t = 0;
  for (std::size_t fib = 0; fib < fibres; ++fib) {
    std::size_t base = 0;
    for (int l = 1; l < n; ++l) {
      if (l != d) base += static_cast<std::size_t>(cl[l][idx[l]]) * rad[l];
    }
    if (d == 0) {
      for (int x0 = 0; x0 < m0; ++x0, ++t) f(x0, base, t);
    } else {
      const int e = idx[d];
      const std::size_t r0 = rad[0];
      for (int x0 = 0; x0 < m0; ++x0, ++t) f(e, base + static_cast<std::size_t>(c0[x0]) * r0, t);
    }
    for (int l = 1; l < n; ++l) {  // odometer over dimensions 1..n-1
      if (++idx[l] < x.dim[l]) break;
      idx[l] = 0;
    }
  }
}

// Position in the full block tensor (first dimension fastest) of block
// (c, b): cluster c of dimension d, block b of the others.
inline std::vector<std::size_t> block_map(const std::vector<int>& k, int d) {
  const std::size_t total = product(k);
  const std::vector<std::size_t> rad = block_radix(k, d);
  std::vector<std::size_t> map(total);
  std::vector<int> tuple(k.size(), 0);
  for (std::size_t g = 0; g < total; ++g) {
    std::size_t b = 0;
    for (std::size_t l = 0; l < k.size(); ++l) b += static_cast<std::size_t>(tuple[l]) * rad[l];
    map[static_cast<std::size_t>(tuple[d]) + static_cast<std::size_t>(k[d]) * b] = g;
    for (std::size_t l = 0; l < k.size(); ++l) {
      if (++tuple[l] < k[l]) break;
      tuple[l] = 0;
    }
  }
  return map;
}

// The slices of dimension d as the columns of an (N / m_d) x m_d matrix
// (the mode-d unfolding); cells of weight 0 hold `fill`.
inline Eigen::MatrixXd unfold(const MultiwayTensor& x, int d, double fill) {
  std::size_t stride = 1;
  for (int l = 0; l < d; ++l) stride *= static_cast<std::size_t>(x.dim[l]);
  const int m = x.dim[d];
  const std::size_t outer = x.n_cells() / (stride * static_cast<std::size_t>(m));
  Eigen::MatrixXd u(static_cast<Eigen::Index>(stride * outer), m);
  std::size_t t = 0;
  for (std::size_t hi = 0; hi < outer; ++hi) {
    for (int e = 0; e < m; ++e) {
      for (std::size_t lo = 0; lo < stride; ++lo, ++t) {
        const bool kept = x.w == nullptr || x.w[t] > 0.0;
        u(static_cast<Eigen::Index>(lo + stride * hi), e) = kept ? x.z[t] : fill;
      }
    }
  }
  return u;
}

// k-means++ seeds among the slices of dimension d, every slice in the
// cluster of its nearest seed (first of ties), each seed in its own.
inline std::vector<int> seeded_partition(const MultiwayTensor& x, int d, int k, double fill,
                                         RunHooks& hooks) {
  const Eigen::MatrixXd u = unfold(x, d, fill);
  const std::vector<int> seeds = kmeanspp_indices(u, k, hooks);
  const int m = x.dim[d];
  std::vector<int> cl(m, 0);
  Eigen::VectorXd best = Eigen::VectorXd::Constant(m, std::numeric_limits<double>::infinity());
  for (int j = 0; j < k; ++j) {
    const Eigen::VectorXd d2 = (u.colwise() - u.col(seeds[j])).colwise().squaredNorm().transpose();
    for (int e = 0; e < m; ++e) {
      if (d2[e] < best[e]) {
        best[e] = d2[e];
        cl[e] = j;
      }
    }
  }
  for (int j = 0; j < k; ++j) cl[seeds[j]] = j;
  return cl;
}
}  // namespace multiway_detail

// E_w[Z].
inline double multiway_mean(const MultiwayTensor& x) {
  const std::size_t n = x.n_cells();
  double acc = 0.0;
  for (std::size_t t = 0; t < n; ++t) acc += (x.w ? x.w[t] : 1.0 / static_cast<double>(n)) * x.z[t];
  return acc;
}

// I(Z) = E_w[d(Z, E[Z])].
inline double multiway_info(const MultiwayTensor& x, MultiwayDivergence div, double mean) {
  const std::size_t n = x.n_cells();
  double acc = 0.0;
  for (std::size_t t = 0; t < n; ++t) {
    const double w = x.w ? x.w[t] : 1.0 / static_cast<double>(n);
    if (w > 0.0) acc += w * multiway_detail::cell_divergence(div, x.z[t], mean);
  }
  return acc;
}

}  // namespace sideclust
