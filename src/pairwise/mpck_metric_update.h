// MPCK-means' metric step (Bilenko, Basu & Mooney 2004): with the
// assignments and centres fixed, each cluster's metric A_h minimizing J
// exactly. Plain C++17 + Eigen.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/column_major_points.h"
#include "common/side_graph.h"
#include "engine/lookahead.h"
#include "engine/staged_sweep.h"
#include "pairwise/mpck_edges.h"
#include "pairwise/mpck_metrics.h"
#include "pairwise/mpck_result.h"

namespace sideclust {

// What the metric step reads of a fit: the points, the pairs and their
// records, the squared column ranges, the scale s2 and the settings.
struct MpckMetricData {
  const ColumnMajorPoints& x;
  const PairGraph& pairs;
  const MpckEdges& edges;
  const Eigen::VectorXd& range2;
  double s2;
  MpckMetric metric;
  double ridge;
  int n, p;
};

// The exact minimizer of J over each metric: A_h = n_h (S_h + ridge s2 I)^-1
// (its diagonal analogue for "diagonal"), S_h the scatter of cluster h plus
// w/2 (x_a - x_b)(x_a - x_b)' for each broken must-link with an end in h
// and w (R - (x_a - x_b)(x_a - x_b)') for each broken cannot-link in h,
// R = c diag(r^2): PSD, so S_h is. An empty cluster keeps its metric.
// For "diagonal", `scatter` (p x k) and `counts` are the clusters'
// per-coordinate scatters and sizes from the sweep, and the return value
// is J: its within part is sum_h A_h . scatter_h and its penalty
// sum_h A_h . (the pairs' part of S_h), as ||v||^2_A = A . v^2 and
// D_h = A_h . r^2 (parts stored in *parts). For "full" (scatter and
// counts null) the points' scatter takes a pass over them, and the return
// value is 0 (J from objective()).
inline double update_mpck_metrics(const MpckMetricData& data, const std::vector<int>& z, const Eigen::MatrixXd& m,
                                  const Eigen::MatrixXd* scatter, const std::vector<double>* counts,
                                  const std::vector<int>& broken, mpck_detail::Metrics& met,
                                  MpckResult* parts) {
  const int k = static_cast<int>(m.cols());
  const bool full = data.metric == MpckMetric::full;
  const double c = full ? data.p : 1.0;
  std::vector<double> size(k, 0.0);
  Eigen::MatrixXd sd = Eigen::MatrixXd::Zero(data.p, k);  // the pairs' part of the diagonal S_h
  std::vector<Eigen::MatrixXd> sf(full ? k : 0, Eigen::MatrixXd::Zero(data.p, data.p));
  Eigen::VectorXd diff(data.p);
  if (full) {
    for (int i = 0; i < data.n; ++i) {
      const int h = z[i];
      size[h] += 1.0;
      for (int d = 0; d < data.p; ++d) diff[d] = data.x.at(i, d) - m(d, h);
      sf[h].selfadjointView<Eigen::Lower>().rankUpdate(diff, 1.0);
    }
  } else {
    size = *counts;
  }
  // what pair l reads: its points' clusters, and its cached values or
  // else the points themselves
  auto reads = [&](int l, const Upcoming& r) {
    const double* cached = data.edges.pair_cached(l);
    for (const int i : {data.pairs.first[l], data.pairs.second[l]}) {
      r.line(&z[i]);
      if (cached == nullptr) data.x.request_point(i, r);
    }
    if (cached != nullptr) r.span(cached, data.p);
  };
  for_each_id_ahead(broken, broken.size(), [&](int l) {
    const double w = data.pairs.magnitude(l);
    if (w == 0.0) return;
    const int u = z[data.pairs.first[l]], v = z[data.pairs.second[l]];
    const bool must = data.pairs.must(l);
    // x_a - x_b up to its sign ("full": the same rank-one update) or its
    // squares ("diagonal")
    const Eigen::Map<const Eigen::VectorXd> pv(
        data.edges.pair_values(data.x, l, data.pairs.first[l], data.pairs.second[l], diff.data()), data.p);
    if (must) {
      for (int h : {u, v}) {
        if (full) {
          sf[h].selfadjointView<Eigen::Lower>().rankUpdate(pv, 0.5 * w);
        } else {
          sd.col(h) += 0.5 * w * pv;
        }
      }
    } else if (full) {
      sf[u].selfadjointView<Eigen::Lower>().rankUpdate(pv, -w);
      sf[u].diagonal() += w * c * data.range2;
    } else {
      sd.col(u) += w * (data.range2 - pv);
    }
  }, ahead<16>(reads));
  const double ridge = data.ridge * data.s2;
  for (int h = 0; h < k; ++h) {
    if (size[h] == 0) continue;
    const double nh = size[h];
    if (full) {
      Eigen::MatrixXd mh = sf[h].selfadjointView<Eigen::Lower>();
      mh.diagonal().array() += ridge;
      Eigen::LLT<Eigen::MatrixXd> llt(mh);
      if (llt.info() != Eigen::Success) {
        throw std::runtime_error("a cluster's metric became singular; raise `ridge`");
      }
      met.full[h] = nh * llt.solve(Eigen::MatrixXd::Identity(data.p, data.p));
      met.full[h] = 0.5 * (met.full[h] + met.full[h].transpose()).eval();
      const double logdet_m = 2.0 * llt.matrixLLT().diagonal().array().log().sum();
      met.logdet[h] = data.p * std::log(nh) - logdet_m;
      met.diag.col(h) = met.full[h].diagonal();
    } else {
      const Eigen::ArrayXd mh = scatter->col(h).array() + sd.col(h).array() + ridge;
      if (!(mh > 0.0).all()) throw std::runtime_error("a cluster's metric became singular; raise `ridge`");
      met.diag.col(h) = (nh / mh).matrix();
      met.logdet[h] = (nh / mh).log().sum();
    }
    met.trace[h] = met.diag.col(h).sum();
    met.bound[h] = c * met.diag.col(h).dot(data.range2);
  }
  if (full) return 0.0;
  double within = 0.0, logdet = 0.0, penalty = 0.0;
  for (int h = 0; h < k; ++h) {
    if (size[h] == 0) continue;
    within += met.diag.col(h).dot(scatter->col(h));
    penalty += met.diag.col(h).dot(sd.col(h));
    logdet += size[h] * met.logdet[h];
  }
  parts->within = within;
  parts->logdet = logdet;
  parts->penalty = penalty;
  parts->regularization = data.ridge * data.s2 * met.trace.sum();
  return within - logdet + penalty + parts->regularization;
}

// The squared column ranges of x (range2, the metrics' bounds) and, for
// learned metrics, the mean column variance s2 that scales the ridge (1 when
// it is 0 or not finite, and for metric "none", which does not use it).
inline void mpck_column_statistics(const ColumnMajorPoints& x, MpckMetric metric,
                                   Eigen::VectorXd& range2, double& s2) {
  const int n = x.n(), p = x.p();
  range2 = Eigen::VectorXd::Zero(p);
  for (int d = 0; d < p && n > 0; ++d) {
    const double* col = x.column(d);
    double hi = col[0], lo = col[0];
    for (int i = 1; i < n; ++i) {
      hi = std::max(hi, col[i]);
      lo = std::min(lo, col[i]);
    }
    range2[d] = (hi - lo) * (hi - lo);
  }
  s2 = 0.0;
  if (n > 1 && metric != MpckMetric::none) {
    for (int d = 0; d < p; ++d) {
      const Eigen::Map<const Eigen::ArrayXd> col(x.column(d), n);
      s2 += (col - col.mean()).square().sum();
    }
    s2 /= static_cast<double>(n - 1) * p;
  }
  if (!(s2 > 0.0) || !std::isfinite(s2)) s2 = 1.0;
}

}  // namespace sideclust
