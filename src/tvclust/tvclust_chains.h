// Several TVClust Gibbs chains run side by side (engine/chain_runner.h), each with
// burn-in and thinning, recording traces of every sweep and the kept
// partitions the host asked to store.
#pragma once

#include <Eigen/Dense>
#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/chain_runner.h"
#include "tvclust/partition_estimate.h"
#include "common/side_graph.h"
#include "tvclust/tvclust_gibbs.h"

namespace sideclust {

struct ChainSchedule {
  int iter = 1000;    // sweeps per chain, burn-in included
  int burn_in = 500;  // sweeps discarded at the start
  int thin = 1;       // keep every thin-th sweep after the burn-in
  // store[t]: keep the partition of the t-th kept sweep (the host may keep
  // only a subset, for memory).
  std::vector<char> store;

  int kept() const { return iter > burn_in ? (iter - burn_in) / thin : 0; }
};

struct ChainRecord {
  std::vector<double> log_joint, k, p, q, alpha;  // one entry per sweep
  DrawSet draws;                                  // stored partitions, canonical labels
  std::vector<int> kept_index;                    // their index among the kept sweeps
};

// progress[c] counts the sweeps chain c has finished (read by the host's poll).
template <class Family, class Points = DensePoints>
std::vector<ChainRecord> run_tvclust_chains(const Points& x,
                                            const SideInfo& side,
                                            const std::function<Family()>& make,
                                            const TvclustParams& par,
                                            const std::vector<std::vector<int>>& init,
                                            const ChainSchedule& schedule,
                                            const std::vector<std::uint64_t>& seeds, int threads,
                                            std::vector<std::atomic<int>>& progress,
                                            const std::function<bool()>& poll) {
  const int chains = static_cast<int>(seeds.size());
  std::vector<ChainRecord> record(chains);
  auto run_chain = [&](int c, ChainHooks& hooks) {
    TvclustGibbs<Family, Points> sampler(x, side, make, par, init[c]);
    ChainRecord& out = record[c];
    const int n = sampler.n();
    out.draws.n = n;
    std::vector<int> map;
    for (int sweep = 1; sweep <= schedule.iter; ++sweep) {
      sampler.sweep(hooks);
      out.log_joint.push_back(sampler.log_joint());
      out.k.push_back(sampler.clusters());
      out.p.push_back(sampler.p());
      out.q.push_back(sampler.q());
      out.alpha.push_back(sampler.alpha());
      const int after = sweep - schedule.burn_in;
      if (after > 0 && after % schedule.thin == 0) {
        const int t = after / schedule.thin - 1;
        if (schedule.store[t]) {
          const std::vector<int>& z = sampler.assignment();
          out.draws.label.insert(out.draws.label.end(), z.begin(), z.end());
          int* stored = out.draws.label.data() + out.draws.label.size() - n;
          out.draws.k.push_back(canonicalize(stored, n, map));
          out.kept_index.push_back(t);
        }
      }
      progress[c].store(sweep, std::memory_order_relaxed);
    }
  };
  run_chains(seeds, threads, run_chain, poll);
  return record;
}

// Every chain's stored draws pooled chain after chain, with each draw's
// chain and kept-sweep index (0-based); the chains' own copies are freed as
// they are pooled, so the draws are held once.
struct PooledDraws {
  DrawSet draws;
  std::vector<int> chain, kept;
};

inline PooledDraws pool_draws(std::vector<ChainRecord>& record, int n) {
  PooledDraws out;
  out.draws.n = n;
  for (std::size_t c = 0; c < record.size(); ++c) {
    const DrawSet& d = record[c].draws;
    out.draws.label.insert(out.draws.label.end(), d.label.begin(), d.label.end());
    out.draws.k.insert(out.draws.k.end(), d.k.begin(), d.k.end());
    for (int t : record[c].kept_index) {
      out.chain.push_back(static_cast<int>(c));
      out.kept.push_back(t);
    }
    std::vector<int>().swap(record[c].draws.label);
  }
  return out;
}

}  // namespace sideclust
