// How the information-bottleneck cores run, shared by sib(), ib(),
// parallel_ib() and symmetric_ib(): the sequential (hard) passes that draw
// each point out and put it back where it costs least, and the fixed-point
// iteration of soft memberships w(x, c) = p(c|x) (kept n x k row-major).
// Plain C++17, no R headers.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "common/info_sparse.h"
#include "common/run_hooks.h"

namespace sideclust {

// ---- sequential (hard) passes ----------------------------------------------

// Where a sequential pass puts a point back after drawing it out of cluster
// `from`: the cluster of lowest cost d[c] (first of ties), but only if it
// beats `from` by more than 1e-10 times the point's mass, a gain beyond
// rounding; otherwise `from`.
inline int best_cluster(const std::vector<double>& d, int k, int from, double mass) {
  int best = from;
  double best_d = d[from] - 1e-10 * mass;
  for (int c = 0; c < k; ++c) {
    if (d[c] < best_d) {
      best_d = d[c];
      best = c;
    }
  }
  return best;
}

// The passes of a run: the objective after each, the wall time of each
// (pass and objective), how many passes and moves in all.
struct PassLog {
  std::vector<double> trace, seconds;
  int passes = 0;
  long long moves = 0;
};

// Passes until one moves nothing (returns true) or max_iter passes (false),
// appended to `log`. Before each pass `shuffle_order()` draws the visiting
// order (not timed); `pass()` makes the pass and returns its number of moves;
// `objective()` scores the new state. Checks for an interrupt once per pass;
// `report_k` is what the progress line shows as the number of clusters.
template <class Shuffle, class Pass, class Objective>
bool sequential_passes(int max_iter, int report_k, PassLog& log, RunHooks& hooks,
                       Shuffle&& shuffle_order, Pass&& pass, Objective&& objective) {
  for (int it = 0; it < max_iter; ++it) {
    shuffle_order();
    const auto t0 = std::chrono::steady_clock::now();
    const long long moved = pass();
    log.moves += moved;
    ++log.passes;
    log.trace.push_back(objective());
    log.seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    hooks.check_interrupt();
    hooks.on_sweep(log.passes, report_k, log.trace.back());
    if (moved == 0) return true;
  }
  return false;
}

// Keeps a run's record in the result of the best run so far (any result
// type with these fields: sib, symmetric and parallel IB).
template <class Result>
void keep_passes(Result& best, const PassLog& log, bool converged) {
  best.trace = log.trace;
  best.pass_seconds = log.seconds;
  best.iterations = log.passes;
  best.converged = converged;
  best.moves = log.moves;
}

// ---- soft memberships -------------------------------------------------------

// sum_y p(y|x) log p(y|x) for every row x: the part of KL[p(y|x) || .] that
// does not depend on the cluster.
inline std::vector<double> row_self_information(const JointCsr& p) {
  std::vector<double> self(p.n_rows, 0.0);
  for (int x = 0; x < p.n_rows; ++x) {
    for (int e = p.ptr[x]; e < p.ptr[x + 1]; ++e) self[x] += xlogx(p.val[e] / p.px[x]);
  }
  return self;
}

// A random start for one row, as ib() has always drawn it: 0.5 + U per
// cluster, normalized (every cluster clearly alive, not far from uniform).
inline void uniform_start_row(double* wx, int k, RunHooks& hooks) {
  double s = 0.0;
  for (int c = 0; c < k; ++c) s += (wx[c] = 0.5 + hooks.uniform());
  for (int c = 0; c < k; ++c) wx[c] /= s;
}

// The stationary update of one row:
//   p(c|x) = p(c) exp(-beta kl[c]) / Z(x, beta),
// a cluster of mass 0 getting 0 (beta = 0 ignores kl, which may be infinite).
// Reads the old row `old_row` and writes `new_row` (they may be the same
// array); `logit` is scratch of size k. Returns the largest change.
inline double update_membership_row(const std::vector<double>& pc, const std::vector<double>& kl,
                                    double beta, std::vector<double>& logit,
                                    const double* old_row, double* new_row) {
  const double inf = std::numeric_limits<double>::infinity();
  const int k = static_cast<int>(pc.size());
  double top = -inf;
  for (int c = 0; c < k; ++c) {
    const double penalty = beta > 0.0 ? beta * kl[c] : 0.0;
    logit[c] = pc[c] > 0.0 ? std::log(pc[c]) - penalty : -inf;
    top = std::max(top, logit[c]);
  }
  double z = 0.0;
  for (int c = 0; c < k; ++c) z += (logit[c] = std::exp(logit[c] - top));
  double change = 0.0;
  for (int c = 0; c < k; ++c) {
    const double next = logit[c] / z;
    change = std::max(change, std::fabs(next - old_row[c]));
    new_row[c] = next;
  }
  return change;
}

// Cluster masses p(c) = sum_x p(x) w(x, c).
inline std::vector<double> membership_mass(const std::vector<double>& px,
                                           const std::vector<double>& w, int k) {
  std::vector<double> pc(k, 0.0);
  for (std::size_t x = 0; x < px.size(); ++x) {
    for (int c = 0; c < k; ++c) pc[c] += px[x] * w[x * k + c];
  }
  return pc;
}

// I(C;X) = sum_x p(x) sum_c w log(w / p(c)) of soft memberships with masses
// pc (rounding can make it slightly negative: clamped at 0).
inline double membership_information(const std::vector<double>& px, const std::vector<double>& w,
                                     int k, const std::vector<double>& pc) {
  double s = 0.0;
  for (std::size_t x = 0; x < px.size(); ++x) {
    for (int c = 0; c < k; ++c) {
      const double a = w[x * k + c];
      if (a > 0.0 && pc[c] > 0.0) s += px[x] * a * std::log(a / pc[c]);
    }
  }
  return std::max(0.0, s);
}

inline double membership_information(const std::vector<double>& px, const std::vector<double>& w,
                                     int k) {
  return membership_information(px, w, k, membership_mass(px, w, k));
}

// One run of a fixed-point iteration: `sweep()` updates the memberships and
// returns the largest change; `objective()` scores the new state for the
// trace. Stops when a sweep changes nothing by tol or more, or after max_iter
// sweeps; checks for an interrupt once per sweep. `report_k` is what the
// progress line shows as the number of clusters.
struct SoftRun {
  std::vector<double> trace;
  int iterations = 0;
  bool converged = false;
};

template <class Sweep, class Objective>
SoftRun iterate_memberships(int max_iter, double tol, int report_k, RunHooks& hooks,
                            Sweep&& sweep, Objective&& objective) {
  SoftRun run;
  while (run.iterations < max_iter) {
    const double change = sweep();
    ++run.iterations;
    run.trace.push_back(objective());
    hooks.check_interrupt();
    hooks.on_sweep(run.iterations, report_k, run.trace.back());
    if (change < tol) {
      run.converged = true;
      break;
    }
  }
  return run;
}

}  // namespace sideclust
