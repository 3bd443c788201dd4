// CVQE's objective pieces (pairwise/cvqe.h; Davidson & Ravi, TR-09-12):
// the geometry of the prototypes (their squared distances and each one's
// nearest other), the penalty of one constraint, the constraints an
// assignment breaks as the prototype update uses them, and L' as its two
// parts.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common/row_distances.h"
#include "common/side_graph.h"
#include "common/sparse_rows.h"

namespace sideclust {

namespace cvqe_detail {

// Squared distances between the prototypes, and for each prototype u the
// other prototype h(u) closest to it (first of ties) with that distance.
// With k = 1 there is no other prototype: h = -1 and the distance is 0.
struct Geometry {
  Eigen::MatrixXd d;             // k x k
  std::vector<int> h;
  std::vector<double> h_dist;

  explicit Geometry(const Eigen::MatrixXd& m) {
    const int k = static_cast<int>(m.cols());
    d.resize(k, k);
    for (int u = 0; u < k; ++u) {
      d(u, u) = 0.0;
      for (int v = u + 1; v < k; ++v) d(u, v) = d(v, u) = (m.col(u) - m.col(v)).squaredNorm();
    }
    h.assign(k, -1);
    h_dist.assign(k, 0.0);
    for (int u = 0; u < k; ++u) {
      double best = std::numeric_limits<double>::infinity();
      for (int v = 0; v < k; ++v) {
        if (v != u && d(u, v) < best) {
          best = d(u, v);
          h[u] = v;
        }
      }
      if (h[u] >= 0) h_dist[u] = best;
    }
  }

  // Penalty of one constraint (before its weight) with its points in u, v.
  double penalty(bool must, int u, int v) const {
    if (must) return u != v ? d(u, v) : 0.0;
    return u == v ? h_dist[u] : 0.0;
  }
};

// L' = 1/2 (sum_i ||x_i - m_zi||^2 + sum_l |w_l| penalty_l) as its two parts.
// Pair l in its given order: first[l] is the point whose cluster is g1(l),
// second[l] the one of g2(l); signed_weight > 0 a must-link, < 0 a
// cannot-link, |signed_weight| its confidence.
template <class Rows>
double within_part(const RowDistances<Rows>& dist, const std::vector<int>& z,
                   const Eigen::MatrixXd& m) {
  std::vector<double> m_term(m.cols());
  for (Eigen::Index j = 0; j < m.cols(); ++j) m_term[j] = dist.vector_term(m.col(j).data());
  double within = 0.0;
  for (int i = 0; i < dist.n(); ++i) within += dist.to(i, m.col(z[i]).data(), m_term[z[i]]);
  return 0.5 * within;
}

// The constraints an assignment breaks, as the prototype update uses them:
// each broken must-link pulls m_to towards m_from with weight w; cannot[j]
// sums the weights of the broken cannot-links in cluster j.
struct BrokenPairs {
  struct Pull {
    int to, from;
    double w;
  };
  std::vector<Pull> must;
  Eigen::VectorXd cannot;

  // The penalty part of L' at prototypes m, without another pass over the
  // pairs (at large n a pass over them reads the clusters at random).
  double penalty(const Eigen::MatrixXd& m) const {
    if (must.empty() && !(cannot.array() > 0).any()) return 0.0;
    const Geometry geo(m);
    double out = 0.0;
    for (const Pull& pl : must) out += pl.w * geo.d(pl.to, pl.from);
    for (Eigen::Index j = 0; j < cannot.size(); ++j) {
      if (cannot[j] > 0) out += cannot[j] * geo.h_dist[j];
    }
    return 0.5 * out;
  }
};

template <class Rows>
void objective_parts(const RowDistances<Rows>& dist, const PairGraph& pairs,
                     const std::vector<int>& z, const Eigen::MatrixXd& m,
                     double& within, double& penalty) {
  within = within_part(dist, z, m);
  penalty = 0.0;
  if (pairs.first.empty()) return;
  const Geometry geo(m);
  for (std::size_t l = 0; l < pairs.first.size(); ++l) {
    const double w = pairs.signed_weight[l];
    penalty += std::abs(w) * geo.penalty(w > 0, z[pairs.first[l]], z[pairs.second[l]]);
  }
  penalty *= 0.5;
}

}  // namespace cvqe_detail

// The largest absolute coordinate of the points (sparse: of the stored
// ones; the others are 0).
inline double max_abs_coordinate(const DenseRows& rows) {
  double out = 0.0;
  const std::size_t size = static_cast<std::size_t>(rows.n()) * rows.p();
  for (std::size_t e = 0; e < size; ++e) out = std::max(out, std::abs(rows.data()[e]));
  return out;
}
inline double max_abs_coordinate(const SparseRows& rows) {
  double out = 0.0;
  for (int i = 0; i < rows.n(); ++i) {
    const SparseRow r = rows.row(i);
    for (int j = 0; j < r.nnz; ++j) out = std::max(out, std::abs(r.scale * r.val[j]));
  }
  return out;
}

}  // namespace sideclust
