// LCVQE's result (pairwise/lcvqe.h) and the step that ends a run: empty
// clusters dropped and the final L over the centres kept.
#pragma once

#include <Eigen/Dense>

#include <vector>

#include "common/run_hooks.h"
#include "common/side_graph.h"
#include "engine/distance_records.h"
#include "pairwise/kept_clusters.h"
#include "pairwise/lcvqe_costs.h"
#include "pairwise/pair_sweeps.h"

namespace sideclust {

struct LcvqeResult {
  std::vector<int> cluster;      // 0 .. k - 1, consecutive
  Eigen::MatrixXd centres;       // p x k
  int k = 0;
  std::vector<double> objective;  // L after every iteration
  double within = 0.0, penalty = 0.0;
  int iterations = 0;
  bool converged = false;
};

namespace lcvqe_detail {

// L's parts at the last refresh of a run
struct LastParts {
  double within = 0.0, penalty = 0.0;
};

// Drop empty clusters (numbering the others consecutively, in order) and
// compute the final L over the centres kept. With none dropped that is the
// L of the last iteration (`last`, at the same centres and assignment, by
// the same sums), which spares a pass over all points and the records'
// memory.
inline void finish_result(const Eigen::Ref<const Eigen::MatrixXd>& x, const PairGraph& pairs,
                          bool use_avx, int threads, std::vector<int>& z, const Eigen::MatrixXd& m,
                          const BrokenPairs& status, const LastParts& last, LcvqeResult& res,
                          RunHooks& hooks) {
  const int k = static_cast<int>(m.cols());
  const int kept = drop_empty_clusters(z, m, res.centres);
  res.cluster = z;
  res.k = kept;
  if (kept == k && !res.objective.empty()) {
    res.within = last.within;
    res.penalty = last.penalty;
    return;
  }
  DistanceRecords cd;
  cd.refresh(x, res.centres, hooks, res.cluster, use_avx, threads);
  std::vector<int> broken;  // renumbering keeps every pair's status
  status.list(broken);
  objective_parts(pairs, res.cluster, cd, broken, res.within, res.penalty);
  if (!res.objective.empty()) res.objective.back() = res.within + res.penalty;
}

}  // namespace lcvqe_detail
}  // namespace sideclust
