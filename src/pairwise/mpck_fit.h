// MPCK-means' fit: the initial centres of each run (neighbourhoods from
// the must-links, k-means++, random points or the user's) and the best of
// the restarts, each an MpckRun (mpck_means.h). Plain C++17 + Eigen.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "common/column_major_points.h"
#include "common/row_distances.h"
#include "common/run_hooks.h"
#include "common/seeding.h"
#include "common/side_graph.h"
#include "pairwise/mpck_means.h"
#include "pairwise/mpck_seeding.h"

namespace sideclust {

// The initial centres (p x k) of one run.
inline Eigen::MatrixXd mpck_seeds(const ColumnMajorPoints& x, const PairGraph& pairs,
                                  const MpckParams& par, RunHooks& hooks) {
  RowDistances<ColumnMajorPoints> dist(x);
  switch (par.init) {
    case MpckInit::start: return par.start;
    case MpckInit::random: return draw_prototypes(dist, x.p(), par.k, SeedInit::random, hooks);
    case MpckInit::kmeanspp: return draw_prototypes(dist, x.p(), par.k, SeedInit::kmeanspp, hooks);
    default: return mpck_detail::neighbourhood_seeds(x, pairs, par.k, hooks);
  }
}

// The best (lowest final J) of par.restarts runs, or one run from par.start.
// x: the points as the rows of R's n x p layout.
inline MpckResult mpck_fit(const ColumnMajorPoints& x, const PairGraph& pairs, const MpckParams& par,
                           RunHooks& hooks) {
  if (par.k < 1 || par.k > x.n()) throw std::invalid_argument("k out of range");
  if (!(par.ridge >= 0.0)) throw std::invalid_argument("ridge must be non-negative");
  const MpckRun runner(x, pairs, par, hooks);
  const int runs = par.init == MpckInit::start ? 1 : std::max(1, par.restarts);
  MpckResult best;
  for (int r = 0; r < runs; ++r) {
    Eigen::MatrixXd m = mpck_seeds(x, pairs, par, hooks);
    if (m.rows() != x.p() || m.cols() != par.k) throw std::invalid_argument("start has the wrong size");
    MpckResult res = runner.run(std::move(m), hooks);
    if (r == 0 || res.objective.back() < best.objective.back()) best = std::move(res);
  }
  return best;
}

}  // namespace sideclust
