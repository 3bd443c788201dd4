// The pieces of k-partite clustering (Long et al.'s relation summary network)
// that look at one relation at a time: the relation matrix A between two
// vertex types, the divergence, the block statistics of A under the current
// clusterings, the cluster-level weights B (TR-09-12 eq. 63: block means) and
// the distance (61) between A and F_a B F_b^T. Plain C++17, no R headers.
//
// Zeros of a sparse A are real zero weights: a block with N vertex pairs and
// `count` stored entries holds N - count zeros, each costing d(0, b).
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

namespace sideclust {

enum class KpDivergence { euclidean, idivergence };

// d(a, b) for one entry.
inline double kp_divergence(KpDivergence div, double a, double b) {
  if (div == KpDivergence::euclidean) return (a - b) * (a - b);
  // generalized I-divergence a log(a / b) - a + b, with 0 log 0 = 0.
  if (a == 0.0) return b;
  if (b <= 0.0) return std::numeric_limits<double>::infinity();
  return a * std::log(a / b) - a + b;
}

// A relation between the vertices of two types, row-compressed (rows are the
// vertices of `row_type`, columns those of `col_type`; 0-based types).
struct KpRelation {
  int row_type = 0, col_type = 1;
  int n_rows = 0, n_cols = 0;
  std::vector<int> ptr, idx;
  std::vector<double> val;
  double mean = 0.0;  // over all n_rows * n_cols cells, zeros included
};

// Build from CSR arrays (0-based column indices), checking their shape.
inline KpRelation make_kp_relation(int row_type, int col_type, int n_rows, int n_cols,
                                   std::vector<int> ptr, std::vector<int> idx,
                                   std::vector<double> val) {
  if (n_rows < 1 || n_cols < 1 || static_cast<int>(ptr.size()) != n_rows + 1 ||
      idx.size() != val.size() || ptr.back() != static_cast<int>(val.size())) {
    throw std::invalid_argument("inconsistent CSR arrays of a relation");
  }
  KpRelation a;
  a.row_type = row_type;
  a.col_type = col_type;
  a.n_rows = n_rows;
  a.n_cols = n_cols;
  double total = 0.0;
  for (std::size_t e = 0; e < val.size(); ++e) {
    if (idx[e] < 0 || idx[e] >= n_cols) throw std::invalid_argument("relation column out of range");
    if (!std::isfinite(val[e])) throw std::invalid_argument("relation weight not finite");
    total += val[e];
  }
  a.mean = total / (static_cast<double>(n_rows) * n_cols);
  a.ptr = std::move(ptr);
  a.idx = std::move(idx);
  a.val = std::move(val);
  return a;
}

// Block sums T_pq of one relation (kr x kc, row-major) under row clusters
// `fr` and column clusters `fc`: T = F_a^T A F_b, in O(nnz).
inline std::vector<double> kp_block_sums(const KpRelation& a, const std::vector<int>& fr,
                                         int kr, const std::vector<int>& fc, int kc) {
  std::vector<double> sum(static_cast<std::size_t>(kr) * kc, 0.0);
  for (int h = 0; h < a.n_rows; ++h) {
    const std::size_t row = static_cast<std::size_t>(fr[h]) * kc;
    for (int e = a.ptr[h]; e < a.ptr[h + 1]; ++e) sum[row + fc[a.idx[e]]] += a.val[e];
  }
  return sum;
}

// Eq. (63): B = (F_a^T F_a)^-1 F_a^T A F_b (F_b^T F_b)^-1, the block means,
// which minimize the block's divergence for every Bregman divergence. A block
// with no vertex pair (an empty cluster) keeps its previous weight.
inline void kp_update_summary(const std::vector<double>& sum, const std::vector<double>& size_r,
                              const std::vector<double>& size_c, std::vector<double>& summary) {
  const std::size_t kc = size_c.size();
  for (std::size_t p = 0; p < size_r.size(); ++p) {
    for (std::size_t q = 0; q < kc; ++q) {
      const double n_pairs = size_r[p] * size_c[q];
      if (n_pairs > 0.0) summary[p * kc + q] = sum[p * kc + q] / n_pairs;
    }
  }
}

// The relation's term of (61), sum over cells of d(A_hl, B_{f(h) f(l)}),
// summed entry by entry (no cancellation): O(nnz + kr kc).
inline double kp_relation_distance(const KpRelation& a, KpDivergence div,
                                   const std::vector<int>& fr, const std::vector<int>& fc,
                                   const std::vector<double>& size_r,
                                   const std::vector<double>& size_c, int kc,
                                   const std::vector<double>& summary) {
  double total = 0.0;
  std::vector<double> stored(summary.size(), 0.0);
  for (int h = 0; h < a.n_rows; ++h) {
    const std::size_t row = static_cast<std::size_t>(fr[h]) * kc;
    for (int e = a.ptr[h]; e < a.ptr[h + 1]; ++e) {
      const std::size_t pq = row + fc[a.idx[e]];
      total += kp_divergence(div, a.val[e], summary[pq]);
      stored[pq] += 1.0;
    }
  }
  const int kr = static_cast<int>(size_r.size());
  for (int p = 0; p < kr; ++p) {
    for (int q = 0; q < kc; ++q) {
      const std::size_t pq = static_cast<std::size_t>(p) * kc + q;
      const double zeros = size_r[p] * size_c[q] - stored[pq];
      if (zeros > 0.0) total += zeros * kp_divergence(div, 0.0, summary[pq]);
    }
  }
  return total;
}

// Moving a vertex of one type between clusters, with B fixed, changes the
// objective by the change of sum_q [S_q g(B_pq)] + sum_q n_q psi(B_pq), where
// S_q is the vertex's total weight to the other type's cluster q and n_q that
// cluster's size (the Bregman expansion d(a, b) = phi(a) - phi(b) -
// phi'(b)(a - b) summed over a block, dropping the vertex's constant
// sum phi(a)): squared Euclidean g = -2b, psi = b^2; I-divergence g = -log b,
// psi = b. A zero S_q contributes nothing (also where g is infinite).
inline double kp_weight_coef(KpDivergence div, double b) {
  if (div == KpDivergence::euclidean) return -2.0 * b;
  return b > 0.0 ? -std::log(b) : std::numeric_limits<double>::infinity();
}
inline double kp_size_coef(KpDivergence div, double b) {
  return div == KpDivergence::euclidean ? b * b : b;
}

}  // namespace sideclust
