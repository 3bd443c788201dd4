// The per-cluster metrics of MPCK-means (Bilenko, Basu & Mooney 2004) with
// what its costs need of them (log det, the diameter bound D_h, squared norms
// under A_h), and the penalty of one constraint. Plain C++17 + Eigen.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

#include "engine/sq_distance.h"

namespace sideclust {

enum class MpckMetric { none, diagonal, full };

namespace mpck_detail {

// The metrics of the k clusters with what the costs need of them: log det
// and the diameter bound D_h.
struct Metrics {
  MpckMetric kind = MpckMetric::none;
  Eigen::MatrixXd diag;               // p x k ("none": ones)
  std::vector<Eigen::MatrixXd> full;  // "full" only
  Eigen::VectorXd logdet, bound, trace;
  Eigen::VectorXd range2;  // the squared column ranges the bounds come from

  Metrics(MpckMetric kind_, int p, int k, const Eigen::VectorXd& range2_)
      : kind(kind_), diag(Eigen::MatrixXd::Ones(p, k)), logdet(Eigen::VectorXd::Zero(k)),
        bound(Eigen::VectorXd::Constant(k, range2_.sum() * (kind_ == MpckMetric::full ? p : 1))),
        trace(Eigen::VectorXd::Constant(k, p)), range2(range2_) {
    if (kind == MpckMetric::full) full.assign(k, Eigen::MatrixXd::Identity(p, p));
  }

  int k() const { return static_cast<int>(logdet.size()); }

  // ||v||^2 under the metric of cluster h.
  template <class V>
  double norm2(const V& v, int h) const {
    switch (kind) {
      case MpckMetric::none: return v.squaredNorm();
      case MpckMetric::diagonal: return v.cwiseAbs2().dot(diag.col(h));
      default: return v.dot(full[h] * v);
    }
  }

  // ||v||^2 under every cluster's metric, into q (length k); sq (length p)
  // holds the squares, which the product would otherwise allocate per call.
  template <class V>
  void norm2_all(const V& v, Eigen::VectorXd& q, Eigen::VectorXd& sq) const {
    switch (kind) {
      case MpckMetric::none: q.setConstant(v.squaredNorm()); break;
      case MpckMetric::diagonal:
        sq = v.cwiseAbs2();
        q.noalias() = diag.transpose() * sq;
        break;
      default:
        for (int h = 0; h < k(); ++h) q[h] = v.dot(full[h] * v);
    }
  }

  // ||x - mu||^2 under the metric of cluster h, x and mu contiguous
  // p-vectors (sq_distance() for "none" and "diagonal": the values of
  // norm2(x - mu, h), inlined).
  double dist2(const double* x, const double* mu, int h) const {
    const int p = static_cast<int>(diag.rows());
    switch (kind) {
      case MpckMetric::none: return sq_distance(x, mu, p);
      case MpckMetric::diagonal: return sq_distance<true>(x, mu, diag.col(h).data(), p);
      default: {
        const Eigen::VectorXd d = Eigen::Map<const Eigen::VectorXd>(x, p) -
                                  Eigen::Map<const Eigen::VectorXd>(mu, p);
        return d.dot(full[h] * d);
      }
    }
  }

  // cost[h] = ||v - mu_h||^2 under metric h - log det A_h for every cluster
  // h: what a point v (p contiguous doubles) costs in each cluster before
  // its constraints.
  void point_costs(const double* v, const Eigen::MatrixXd& mu, double* cost) const {
    for (int h = 0; h < k(); ++h) cost[h] = dist2(v, mu.col(h).data(), h) - logdet[h];
  }

  // Work units of one norm2() for interrupt polling.
  std::size_t cost_units(Eigen::Index p) const {
    return static_cast<std::size_t>(kind == MpckMetric::full ? p * p : p);
  }
};

// The penalty of one constraint (weight w >= 0, must or cannot) with its
// points in clusters u and v; `diff` = x_a - x_b.
template <class V>
double pair_penalty(const Metrics& met, const V& diff, bool must, double w, int u, int v) {
  if (w == 0.0) return 0.0;
  if (must) return u != v ? 0.5 * w * (met.norm2(diff, u) + met.norm2(diff, v)) : 0.0;
  return u == v ? w * (met.bound[u] - met.norm2(diff, u)) : 0.0;
}

}  // namespace mpck_detail
}  // namespace sideclust
