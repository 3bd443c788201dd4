// The settings every prototype method (CVQE, LCVQE, COP-k-means, PCK- /
// MPCK-means) shares; each method's parameter struct derives from it and
// adds its own. Plain C++17.
#pragma once

#include <Eigen/Dense>

namespace sideclust {

struct PrototypeParams {
  int k = 2;              // prototypes (clusters)
  int max_iter = 100;     // iterations per run
  int restarts = 10;      // runs from different seeds; the best is kept
  Eigen::MatrixXd start;  // p x k initial prototypes, when the caller gives them
};

}  // namespace sideclust
