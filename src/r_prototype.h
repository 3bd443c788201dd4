// Glue shared by the prototype methods (r_cvqe.cpp, r_lcvqe.cpp,
// r_cop_kmeans.cpp, r_mpck_means.cpp): their common settings from the options.
#pragma once

#include <RcppEigen.h>

#include "common/prototype_params.h"
#include "r_glue.h"

namespace sideclust {

// Options k, restarts and max_iter, and the p x k start when the method's
// `init` takes it (given_start).
inline void read_prototype_params(const Options& o, PrototypeParams& par, bool given_start) {
  par.k = o.get<int>("k");
  par.restarts = o.get<int>("restarts");
  par.max_iter = o.get<int>("max_iter");
  if (given_start) par.start = o.get<Eigen::MatrixXd>("start");
}

}  // namespace sideclust
