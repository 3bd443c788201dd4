// MPCK-means' settings and result (mpck_means.h). Plain C++17 + Eigen.
#pragma once

#include <Eigen/Dense>

#include <vector>

#include "common/prototype_params.h"
#include "pairwise/mpck_metrics.h"

namespace sideclust {

enum class MpckInit { neighbourhoods, kmeanspp, random, start };

struct MpckParams : PrototypeParams {
  MpckMetric metric = MpckMetric::diagonal;
  MpckInit init = MpckInit::neighbourhoods;  // MpckInit::start: from `start`
  double ridge = 1e-6;
  bool use_avx = true;  // metric "none": four distances per AVX instruction where available (same values)
  bool pair_cache = true;  // learned metrics: cache the pairs' differences (same values; false for the tests)
  int threads = 1;         // 2: each sweep on two threads at scale (same values; MpckSweepSettings)
  int chunk = 1024;        // points per hand-over between them (smaller for the tests)
  bool skip_unread = true; // see MpckSweepSettings (same values; false for the tests)
};

struct MpckResult {
  std::vector<int> cluster;            // 0 .. k - 1, consecutive
  Eigen::MatrixXd centres;             // p x k
  Eigen::MatrixXd diag;                // p x k metric diagonals ("diagonal", "none")
  std::vector<Eigen::MatrixXd> full;   // k p x p metrics ("full")
  std::vector<double> objective;       // J after every iteration
  double within = 0.0, logdet = 0.0, penalty = 0.0, regularization = 0.0;
  int k = 0;
  int iterations = 0;
  bool converged = false;
};

}  // namespace sideclust
