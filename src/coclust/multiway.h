// Multiway clustering with Bregman divergences (Banerjee, Basu & Merugu
// 2007) in the block multiway clustering (BMC) basis: a tensor Z with cell
// weights w (a probability measure) is approximated by C, constant on the
// blocks of the clusterings rho_1..rho_n of its dimensions, C = E_w[Z | block]
// (the MBI solution for this basis, for every Bregman divergence). The loss
//   B = E_w[d(Z, C)] = I(Z) - I(C)
// never increases under the two steps: each dimension's entities move, with
// C fixed, to the cluster whose block values give the lowest divergence; then
// C is re-estimated as the block means.
//
// Each dimension step lives in multiway_state.h, the tensor walk in
// multiway_tensor.h. Plain C++17 + Eigen, no R headers.
#pragma once

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

#include "common/info_sparse.h"
#include "coclust/multiway_state.h"
#include "coclust/multiway_tensor.h"
#include "common/run_hooks.h"

namespace sideclust {

// How a run starts: each dimension's entities in a uniformly random partition
// (TR-09-12's step 1), or seeded: every dimension sent to the nearest of
// k-means++ seeds among its slices (squared Euclidean distance between the
// unfolded slices), then, dimension by dimension, re-seeded by k-means++ on
// its profiles over the others' blocks (MultiwayState::reseed).
enum class MultiwayInit { random, kmeanspp };

struct MultiwayParams {
  std::vector<int> k;  // clusters per dimension
  MultiwayDivergence divergence = MultiwayDivergence::euclidean;
  MultiwayInit init = MultiwayInit::kmeanspp;
  int max_iter = 100;
  int restarts = 1;
  std::vector<std::vector<int>> start;  // 0-based, first run only; empty = random
};

struct MultiwayResult {
  std::vector<std::vector<int>> clusters;  // 0-based, per dimension
  std::vector<double> block_means;         // prod(k) blocks, first dimension fastest
  std::vector<double> block_weight;        // w summed over each block
  std::vector<double> objective;           // B at the start and after every iteration
  std::vector<double> restart_objective;
  double objective_final = std::numeric_limits<double>::infinity();
  double info_data = 0.0, info_approx = 0.0;  // I(Z), I(C)
  int iterations = 0;
  bool converged = false;
};

inline MultiwayResult multiway_fit(const MultiwayTensor& x, const MultiwayParams& par,
                                   RunHooks& hooks) {
  const std::size_t n_dims = x.dim.size();
  if (n_dims < 2 || par.k.size() != n_dims) throw std::invalid_argument("k needs one value per dimension");
  for (std::size_t l = 0; l < n_dims; ++l) {
    if (par.k[l] < 1 || par.k[l] > x.dim[l]) throw std::invalid_argument("k out of range");
  }
  if (!par.start.empty()) {
    if (par.start.size() != n_dims) throw std::invalid_argument("start needs one partition per dimension");
    for (std::size_t l = 0; l < n_dims; ++l) {
      if (static_cast<int>(par.start[l].size()) != x.dim[l]) throw std::invalid_argument("start has the wrong length");
      for (int c : par.start[l]) {
        if (c < 0 || c >= par.k[l]) throw std::invalid_argument("start out of range");
      }
    }
  }
  const double mean = multiway_mean(x);
  // The Euclidean core works on Z - E[Z]: same divergences, smaller numbers.
  const double shift = par.divergence == MultiwayDivergence::euclidean ? mean : 0.0;
  MultiwayResult best;
  best.info_data = multiway_info(x, par.divergence, mean);
  auto uniform = [&hooks]() { return hooks.uniform(); };
  for (int run = 0; run < par.restarts; ++run) {
    std::vector<std::vector<int>> start(n_dims);
    for (std::size_t l = 0; l < n_dims; ++l) {
      if (run == 0 && !par.start.empty()) {
        start[l] = par.start[l];
      } else if (par.init == MultiwayInit::kmeanspp) {
        start[l] = multiway_detail::seeded_partition(x, static_cast<int>(l), par.k[l], mean, hooks);
      } else {
        start[l] = random_partition(x.dim[l], par.k[l], uniform);
      }
    }
    multiway_detail::MultiwayState state(x, par.k, par.divergence, shift);
    state.reset(std::move(start));
    if (par.init == MultiwayInit::kmeanspp && !(run == 0 && !par.start.empty())) {
      for (std::size_t l = 0; l < n_dims; ++l) state.reseed(static_cast<int>(l), hooks);
    }
    std::vector<double> trace{state.objective()};
    int it = 0;
    bool converged = false;
    while (it < par.max_iter) {
      long long moved = 0;
      for (std::size_t l = 0; l < n_dims; ++l) moved += state.reassign(static_cast<int>(l));
      trace.push_back(state.objective());
      ++it;
      hooks.check_interrupt();
      hooks.on_sweep(it, state.nonempty(0), trace.back());
      if (moved == 0) {
        converged = true;
        break;
      }
    }
    best.restart_objective.push_back(trace.back());
    if (trace.back() < best.objective_final) {
      best.objective_final = trace.back();
      best.objective = trace;
      best.clusters = state.clusters();
      best.block_means = state.block_means();
      best.block_weight = state.block_weight();
      best.info_approx = state.info_approx(mean - shift);
      best.iterations = it;
      best.converged = converged;
    }
  }
  return best;
}


}  // namespace sideclust
