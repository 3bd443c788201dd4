// Cluster centres for the Bregman-divergence algorithms, with each
// divergence's per-centre cache kept twice: by cluster (one centre's numbers
// together, for single evaluations) and by dimension (one dimension of every
// centre together), so that the distances from a point to all k centres take
// one vectorizable pass. Points may be dense or sparse (common/sparse_rows.h);
// for sparse ones each centre also keeps Div::sparse_centre_term.
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "common/bregman.h"
#include "common/sparse_rows.h"
#include "engine/sq_distance_by_dim.h"

namespace sideclust {

template <class Div>
class Centres {
 public:
  explicit Centres(int p) : p_(p) {}

  int size() const { return static_cast<int>(term_.size()); }
  const double* cache(int k) const { return &cache_[static_cast<std::size_t>(k) * p_]; }
  double term(int k) const { return term_[k]; }
  const std::vector<double>& means() const { return mean_; }  // p x k

  double distance(const double* x, double point_term, int k) const {
    return Div::eval(x, point_term, cache(k), term_[k], p_);
  }
  double distance(const SparseRow& x, double point_term, int k) const {
    const double* c = cache(k);
    double acc = 0.0;
    for (int j = 0; j < x.nnz; ++j) {
      if (x.val[j] != 0.0) acc += x.val[j] * c[x.idx[j]];
    }
    return Div::finish_sparse(acc, point_term, term_[k], sparse_term_[k], x);
  }

  // Divergences from x to every centre, into out[0 .. size()); out needs
  // room for size() + 1 values (the distances go in pairs of centres). The
  // raw form spares a sweep the vector's bookkeeping at every point.
  // With copy, the same values also go to copy[0 .. size()), from the
  // registers (a copy by the caller would wait for the stores to out).
  void distances(const double* x, double point_term, double* out,
                 double* copy = nullptr) const {
    const int k = size();
    const int k_even = k + (k & 1);
    for (int c = 0; c < k_even; ++c) out[c] = 0.0;
    Div::accumulate(x, p_, by_dim_.data(), stride_, k_even, out);
    if (copy == nullptr) {
      for (int c = 0; c < k; ++c) out[c] = Div::finish(out[c], point_term, term_[c]);
    } else {
      for (int c = 0; c < k; ++c) copy[c] = out[c] = Div::finish(out[c], point_term, term_[c]);
    }
  }
  void distances(const SparseRow& x, double point_term, double* out,
                 double* copy = nullptr) const {
    const int k = size();
    const int k_even = k + (k & 1);
    for (int c = 0; c < k_even; ++c) out[c] = 0.0;
    accumulate_sparse(x, by_dim_.data(), stride_, k_even, out);
    for (int c = 0; c < k; ++c) {
      out[c] = Div::finish_sparse(out[c], point_term, term_[c], sparse_term_[c], x);
    }
    if (copy != nullptr) std::copy(out, out + k, copy);
  }
  // Squared Euclidean distances from a dense x to every centre in the form
  // of the kernels tag (engine/sq_distance_by_dim.h; AvxKernels only, four
  // centres per instruction): the values of distances(), into out[0 .. size()
  // rounded up to a multiple of 4) (the last ones are padding), and the same
  // into copy.
  template <class Kernels>
  void distances_quads(Kernels kernels, const double* x, double* out, double* copy) const {
    static_assert(std::is_same<Div, SquaredEuclidean>::value, "squared Euclidean only");
    sq_distances_by_dim(kernels, x, p_, by_dim_.data(), stride_, (size() + 3) & ~3, out, copy);
  }
  template <class Row>
  void distances(const Row& x, double point_term, std::vector<double>& out) const {
    out.resize(size() + 1);
    distances(x, point_term, out.data());
    out.resize(size());
  }

  // Append a centre at mu.
  void push(const double* mu) {
    mean_.insert(mean_.end(), mu, mu + p_);
    cache_.resize(mean_.size());
    term_.push_back(0.0);
    sparse_term_.push_back(0.0);
    if (static_cast<std::size_t>(size()) > stride_) relayout(2 * stride_ + 4);
    refresh(size() - 1);
  }
  void push(const SparseRow& x) {
    std::vector<double> mu(p_);
    densify(x, p_, mu.data());
    push(mu.data());
  }

  // Replace all centres by the means of the clusters of z (all non-empty);
  // x holds the points as columns. With `gap`, also *gap = sum over the new
  // clusters c of |c| D(mean_c, old centre old_of[c]) (see anchor_gap()).
  void recompute(const double* x, const std::vector<int>& z, int k,
                 const std::vector<int>* old_of = nullptr, double* gap = nullptr) {
    mean_.assign(static_cast<std::size_t>(k) * p_, 0.0);
    std::vector<double> count(k, 0.0);
    for (std::size_t i = 0; i < z.size(); ++i) {
      double* m = &mean_[static_cast<std::size_t>(z[i]) * p_];
      const double* xi = x + i * p_;
      for (int d = 0; d < p_; ++d) m[d] += xi[d];
      count[z[i]] += 1.0;
    }
    for (int c = 0; c < k; ++c) {
      for (int d = 0; d < p_; ++d) mean_[static_cast<std::size_t>(c) * p_ + d] /= count[c];
    }
    if (gap != nullptr) *gap = anchor_gap(*old_of, count);
    finish_recompute(k);
  }
  void recompute(const DenseRows& rows, const std::vector<int>& z, int k,
                 const std::vector<int>* old_of = nullptr, double* gap = nullptr) {
    recompute(rows.data(), z, k, old_of, gap);
  }
  // Sparse points: O(nnz + k p).
  void recompute(const SparseRows& rows, const std::vector<int>& z, int k,
                 const std::vector<int>* old_of = nullptr, double* gap = nullptr) {
    mean_.assign(static_cast<std::size_t>(k) * p_, 0.0);
    std::vector<double> count(k, 0.0), shift(k, 0.0);
    for (std::size_t i = 0; i < z.size(); ++i) {
      add_row(rows.row(static_cast<int>(i)), p_, &mean_[static_cast<std::size_t>(z[i]) * p_],
              shift[z[i]]);
      count[z[i]] += 1.0;
    }
    for (int c = 0; c < k; ++c) {
      for (int d = 0; d < p_; ++d) {
        double& m = mean_[static_cast<std::size_t>(c) * p_ + d];
        m = (m + shift[c]) / count[c];
      }
    }
    if (gap != nullptr) *gap = anchor_gap(*old_of, count);
    finish_recompute(k);
  }

 private:
  // Between the new means (mean_) and the refresh of the caches, which
  // still describe the old centres: sum over c of count[c] D(mean_c, old
  // centre old_of[c]). For any Bregman divergence, sum over the members i of
  // D(x_i, a) = sum of D(x_i, mean) + |c| D(mean, a) (Banerjee et al. 2005),
  // so a sweep that summed D(x_i, a) at its visits gets the objective at the
  // new means without another pass over the points.
  double anchor_gap(const std::vector<int>& old_of, const std::vector<double>& count) const {
    double gap = 0.0;
    for (std::size_t c = 0; c < count.size(); ++c) {
      const double* m = &mean_[c * p_];
      gap += count[c] * distance(m, Div::point_term(m, p_), old_of[c]);
    }
    return gap;
  }

  void finish_recompute(int k) {
    cache_.resize(mean_.size());
    term_.assign(k, 0.0);
    sparse_term_.assign(k, 0.0);
    relayout(static_cast<std::size_t>((k + 3) & ~3));
    for (int c = 0; c < k; ++c) refresh(c);
  }

  void refresh(int k) {
    const std::size_t at = static_cast<std::size_t>(k) * p_;
    Div::centre_cache(&mean_[at], &cache_[at], p_);
    term_[k] = Div::centre_term(&mean_[at], p_);
    sparse_term_[k] = Div::sparse_centre_term(&mean_[at], &cache_[at], p_);
    for (int d = 0; d < p_; ++d) by_dim_[d * stride_ + k] = cache_[at + d];
  }

  // Room for `capacity` centres (a multiple of 4, for distances_quads())
  // per dimension row; padding is 0.
  void relayout(std::size_t capacity) {
    std::vector<double> grown(static_cast<std::size_t>(p_) * capacity, 0.0);
    const std::size_t keep = std::min(stride_, capacity);
    for (int d = 0; d < p_; ++d) {
      for (std::size_t c = 0; c < keep; ++c) grown[d * capacity + c] = by_dim_[d * stride_ + c];
    }
    by_dim_.swap(grown);
    stride_ = capacity;
  }

  int p_;
  std::size_t stride_ = 0;
  std::vector<double> mean_, cache_, term_, sparse_term_, by_dim_;
};

}  // namespace sideclust
