// What MPCK-means' assignment sweep adds up as it settles each point, for
// the steps after it: the cluster sums (the centres), for metric "none"
// each cluster's sum of squared distances to the centre the sweep used
// (the within part of J, shifted to the new centres), for "diagonal" each
// cluster's per-coordinate sums of squares about that centre (the scatter
// of the metric update). This spares each of those steps a pass over all n
// points. Plain C++17 + Eigen.
#pragma once

#include <Eigen/Dense>

#include <cstddef>

#include "engine/lanes2.h"
#include "engine/weighted_centres.h"
#include "pairwise/pair_sweeps.h"

namespace sideclust {

struct MpckSweepSums {
  SweepSums sums;
  Eigen::VectorXd near;    // k ("none")
  Eigen::MatrixXd moment;  // p x k ("diagonal")
  void reset(int p, int k, bool diagonal) {
    sums.reset(p, k);
    near.setZero(k);
    if (diagonal) moment.setZero(p, k);
  }
};

// Adds a point xi settled in cluster h (centre mu_h) to that cluster's sums:
// `sum` and `moment` (p each, moment only for "diagonal") and its count and
// `near` ("none"); own: the point's own costs.
inline void add_settled_point(bool none, bool diagonal, double* sum, double& count, double& near,
                              double* moment, int h, const double* xi, const double* mu_h,
                              const double* own, int p) {
  add_into(sum, xi, p);
  count += 1.0;
  if (none) {
    near += own[h];
  } else if (diagonal) {
    add_squared_differences(moment, xi, mu_h, p);
  }
}

// The same sums in one flat block of doubles (the two-thread sweep's
// helper adds into a block of its own): sum (p x k), moment (p x k), count
// (k), near (k).
struct MpckFlatSums {
  int p, k;
  std::size_t size() const { return 2 * static_cast<std::size_t>(p) * k + 2 * static_cast<std::size_t>(k); }
  void add(double* block, bool none, bool diagonal, int h, const double* xi, const double* mu_h,
           const double* own) const {
    const std::size_t pk = static_cast<std::size_t>(p) * k, at = static_cast<std::size_t>(h) * p;
    double* count = block + 2 * pk;
    add_settled_point(none, diagonal, block + at, count[h], count[k + h], block + pk + at, h, xi, mu_h, own, p);
  }
  // block holds the whole sweep's sums and acc zeros: acc gets them.
  void collect(const double* block, bool diagonal, MpckSweepSums& acc) const {
    const std::size_t pk = static_cast<std::size_t>(p) * k;
    acc.sums.sum = Eigen::Map<const Eigen::MatrixXd>(block, p, k);
    acc.sums.count.assign(block + 2 * pk, block + 2 * pk + k);
    acc.near = Eigen::Map<const Eigen::VectorXd>(block + 2 * pk + k, k);
    if (diagonal) acc.moment = Eigen::Map<const Eigen::MatrixXd>(block + pk, p, k);
  }
};

}  // namespace sideclust
