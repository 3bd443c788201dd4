// Squared Euclidean distances for the prototype methods that take dense or
// sparse points (common/sparse_rows.h): from a point to a dense p-vector (a
// prototype), and between two points (the shape common/seeding.h reads).
// Dense points are summed from differences, bitwise as Eigen's
// (a - b).squaredNorm(); sparse points (offset 0) as |x|^2 - 2 x.v + |v|^2
// with every |x|^2 cached, so a distance costs O(nnz) and nothing is dense.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "common/column_major_points.h"
#include "common/seeding.h"
#include "common/sparse_rows.h"
#include "engine/sq_distance.h"

namespace sideclust {

// Prototypes (the columns of m) as to_all() reads them: vector_term() of
// each and, for sparse points, a copy laid out by dimension (row d holds
// the k prototypes' coordinate d).
struct PreparedPrototypes {
  const Eigen::MatrixXd* m;
  int k;
  std::vector<double> term;
  std::vector<double> by_dim;
};

template <class Rows>
class RowDistances;

template <>
class RowDistances<DenseRows> {
 public:
  explicit RowDistances(const DenseRows& rows) : rows_(rows) {}
  int n() const { return rows_.n(); }
  std::size_t pass_work() const { return static_cast<std::size_t>(rows_.n()) * rows_.p(); }
  // What to() needs of v besides v itself (nothing for dense points).
  double vector_term(const double*) const { return 0.0; }
  double to(int i, const double* v, double) const { return sq_distance(rows_.row(i), v, rows_.p()); }
  auto from(int c) const {
    return [this, c](int i) { return sq_distance(rows_.row(i), rows_.row(c), rows_.p()); };
  }
  void densify_point(int i, double* out) const {
    std::copy(rows_.row(i), rows_.row(i) + rows_.p(), out);
  }
  // out[j] = the squared distance from point i to prototype j of m.
  void to_all(int i, const PreparedPrototypes& m, double* out) const {
    for (int j = 0; j < m.k; ++j) out[j] = sq_distance(rows_.row(i), m.m->col(j).data(), rows_.p());
  }
  PreparedPrototypes prepare(const Eigen::MatrixXd& m) const {
    return PreparedPrototypes{&m, static_cast<int>(m.cols()), std::vector<double>(m.cols(), 0.0), {}};
  }

 private:
  DenseRows rows_;
};

template <>
class RowDistances<SparseRows> {
 public:
  explicit RowDistances(const SparseRows& rows)
      : rows_(rows), norm2_(rows.n()), dense_(rows.p(), 0.0) {
    for (int i = 0; i < rows.n(); ++i) {
      const SparseRow r = rows.row(i);
      double acc = 0.0;
      for (int j = 0; j < r.nnz; ++j) acc += r.val[j] * r.val[j];
      norm2_[i] = r.scale * r.scale * acc;
    }
  }
  int n() const { return rows_.n(); }
  std::size_t pass_work() const {
    return rows_.n() > 0 ? static_cast<std::size_t>(rows_.row(rows_.n() - 1).idx - rows_.row(0).idx) + rows_.n()
                         : 0;
  }
  double vector_term(const double* v) const {
    double acc = 0.0;
    for (int d = 0; d < rows_.p(); ++d) acc += v[d] * v[d];
    return acc;
  }
  // v_term: vector_term(v), computed once per prototype.
  double to(int i, const double* v, double v_term) const {
    const SparseRow r = rows_.row(i);
    double dot = 0.0;
    for (int j = 0; j < r.nnz; ++j) dot += r.val[j] * v[r.idx[j]];
    return std::max(0.0, norm2_[i] - 2.0 * r.scale * dot + v_term);
  }
  // Point c is spread into a dense buffer once; the function then reads it,
  // so it is valid until the next call of from().
  auto from(int c) {
    std::fill(dense_.begin(), dense_.end(), 0.0);
    densify_point(c, dense_.data());
    return [this, c](int i) { return to(i, dense_.data(), norm2_[c]); };
  }
  void densify_point(int i, double* out) const { densify(rows_.row(i), rows_.p(), out); }
  // out[j] = the squared distance from point i to prototype j: each stored
  // coordinate reads one run of k numbers of the dimension-major copy.
  void to_all(int i, const PreparedPrototypes& m, double* out) const {
    const SparseRow r = rows_.row(i);
    std::fill(out, out + m.k, 0.0);
    for (int e = 0; e < r.nnz; ++e) {
      const double v = r.val[e];
      const double* by_dim = m.by_dim.data() + static_cast<std::size_t>(r.idx[e]) * m.k;
      for (int j = 0; j < m.k; ++j) out[j] += v * by_dim[j];
    }
    for (int j = 0; j < m.k; ++j) out[j] = std::max(0.0, norm2_[i] - 2.0 * r.scale * out[j] + m.term[j]);
  }
  PreparedPrototypes prepare(const Eigen::MatrixXd& m) const {
    const int k = static_cast<int>(m.cols());
    PreparedPrototypes out{&m, k, std::vector<double>(k), std::vector<double>(m.size())};
    for (int j = 0; j < k; ++j) {
      out.term[j] = vector_term(m.col(j).data());
      for (Eigen::Index d = 0; d < m.rows(); ++d) out.by_dim[static_cast<std::size_t>(d) * k + j] = m(d, j);
    }
    return out;
  }

 private:
  SparseRows rows_;
  std::vector<double> norm2_;
  std::vector<double> dense_;
};

// Points as the rows of R's n x p layout (the shape the seeding reads
// only): each distance copies its two points into contiguous vectors and
// takes Eigen's squaredNorm() of their difference, the values of
// ColumnDistances on the transposed points. from(c)'s function is valid
// until the next call of from().
template <>
class RowDistances<ColumnMajorPoints> {
 public:
  explicit RowDistances(const ColumnMajorPoints& rows) : rows_(rows), c_(rows.p()), i_(rows.p()) {}
  int n() const { return rows_.n(); }
  std::size_t pass_work() const { return static_cast<std::size_t>(rows_.n()) * rows_.p(); }
  auto from(int c) {
    rows_.copy(c, c_.data());
    return [this](int i) {
      rows_.copy(i, i_.data());
      return (i_ - c_).squaredNorm();
    };
  }
  void densify_point(int i, double* out) const { rows_.copy(i, out); }

 private:
  ColumnMajorPoints rows_;
  Eigen::VectorXd c_, i_;
};

// k seed prototypes (p x k) among the points, drawn by k-means++ or
// uniformly (common/seeding.h).
template <class Rows>
Eigen::MatrixXd draw_prototypes(RowDistances<Rows>& dist, int p, int k, SeedInit init,
                                RunHooks& hooks) {
  const std::vector<int> seeds =
      init == SeedInit::random ? random_seeds(dist, k, hooks) : kmeanspp_seeds(dist, k, hooks);
  Eigen::MatrixXd m(p, static_cast<Eigen::Index>(seeds.size()));
  for (std::size_t j = 0; j < seeds.size(); ++j) dist.densify_point(seeds[j], m.col(j).data());
  return m;
}

}  // namespace sideclust
