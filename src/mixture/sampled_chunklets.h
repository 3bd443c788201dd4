// The sampled chunklet E-step (Nelson & Cohen, Section 4, after Shental et
// al.'s chunklet model): S constraint sets are sampled, each must-link kept
// with probability P = 1 - exp(-W), chunklets built from the kept ones; the
// sample's weight omega_s = prod (1 - P) over the cannot-links that fell
// inside a chunklet (the probability that none of them is drawn, so the
// sample stays feasible); every other cannot-link is kept with probability
// P as certain. The posterior is the omega-weighted average of the samples'
// chunklet posteriors (equation 11).
//
// The samples depend on the constraints and their confidences only, not on
// the mixture's parameters, so they are drawn once per fit (common random
// numbers across EM iterations: the E-steps average the same constraint
// sets, and the likelihood path is not jittered by fresh draws). A sample
// keeps only its chunklet graph over the points in pairs
// (cannot_link_field.h): points in no pair are their own chunklet in every
// sample and get the exact posterior softmax(a) once, and components of the
// constraint graph whose pairs are all certain (or void) are the same in
// every sample: they are one sample of weight 1, computed once per E-step. Per E-step a sample
// costs a product of its points' weights per chunklet (the exponentials are
// taken once per point, not per sample) and its cannot-link part: message
// passing on trees, enumeration of small components with cycles, mean field
// for the rest. Components solved exactly recur across samples and are
// solved once per E-step (shared_components.h). Plain C++17 + Eigen, no R
// API.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "mixture/cannot_link_field.h"
#include "mixture/mrf_graph.h"
#include "mixture/shared_components.h"
#include "engine/chain_runner.h"
#include "common/group_by_id.h"
#include "engine/lanes2.h"
#include "common/run_hooks.h"
#include "common/union_find.h"

namespace sideclust {

inline double keep_probability(double w) {
  return std::isinf(w) ? 1.0 : -std::expm1(-w);
}

// The constrained points of one part of the problem and its samples: the
// components of the constraint graph whose pairs are all certain or void
// (keep probability 1 or 0) are the same in every sample, so they form one
// part with a single sample of weight 1; the other components form a part
// with the drawn samples. The posterior of a component depends only on its
// own draws and the weights omega_s factor over components, so the split is
// exact.
struct ChunkletPart {
  std::vector<int> points;              // its points, in order
  std::vector<CannotLinkGraph> samples; // its samples with omega_s > 0
  std::vector<double> weight;           // their omega_s, summing to 1
  // The exactly solved components of all samples, each distinct one once
  // (shared_components.h); per sample the points of its mean-field units
  // and beside them their units.
  SharedComponents shared;
  std::vector<std::vector<int>> mf_points, mf_unit;
};

// The samples of one fit.
struct SampledChunklets {
  bool drawn = false;
  ChunkletPart fixed, drawn_part;
  double ess = 0.0;                     // effective number of samples
  // the largest graphs the E-steps meet: the parts' shared components (and
  // their trees) and one sample's mean field
  int max_shared_units = 0, max_tree_units = 0, max_sample_units = 0;
  CannotLinkWork shared_work;           // the shared components' workspace
  std::vector<CannotLinkWork> work;     // the samples' workspaces, one per thread
};

// One sample of the part over `points` (local ids in first / second of the
// pairs `ids`), its must-links kept when `keep_must` says so and its
// cannot-links between different chunklets when `keep_cannot` does; returns
// log omega_s (-Inf when a certain cannot-link fell inside a chunklet).
template <class KeepMust, class KeepCannot>
double chunklet_sample(CannotLinkGraph& g, int n, const PairGraph& pairs,
                       const std::vector<std::size_t>& ids, const std::vector<int>& first,
                       const std::vector<int>& second, int K, double max_labelings,
                       KeepMust&& keep_must, KeepCannot&& keep_cannot) {
  UnionFind sets(static_cast<std::size_t>(n));
  for (std::size_t t = 0; t < ids.size(); ++t) {
    const std::size_t e = ids[t];
    if (pairs.must(e) && keep_must(keep_probability(pairs.magnitude(e)))) {
      sets.unite(static_cast<std::size_t>(first[t]), static_cast<std::size_t>(second[t]));
    }
  }
  double lo = 0.0;
  std::vector<std::pair<int, int>> edges;
  for (std::size_t t = 0; t < ids.size(); ++t) {
    const std::size_t e = ids[t];
    if (pairs.must(e)) continue;
    const double pk = keep_probability(pairs.magnitude(e));
    if (sets.find(static_cast<std::size_t>(first[t])) ==
        sets.find(static_cast<std::size_t>(second[t]))) {
      lo += std::log1p(-pk);  // -Inf for a certain cannot-link
    } else if (keep_cannot(pk)) {
      edges.emplace_back(first[t], second[t]);
    }
  }
  if (!std::isfinite(lo)) return lo;
  g.unit_of = unit_ids(sets, n, &g.n_units);
  for (auto& e : edges) e = {g.unit_of[e.first], g.unit_of[e.second]};
  classify_cannot_links(g, edges, K, max_labelings);
  return lo;
}

// Draws the samples (R's generator through hooks: per sample the must-links,
// then the cannot-links between different chunklets, of the components with
// uncertain pairs) and builds their graphs.
inline void draw_chunklet_samples(SampledChunklets& sc, int n_all, const PairGraph& pairs,
                                  int samples, int K, double max_labelings, RunHooks& hooks) {
  sc = SampledChunklets();
  sc.drawn = true;
  sc.ess = samples;
  // components of the constraint graph, and which hold an uncertain pair
  UnionFind comps(static_cast<std::size_t>(n_all));
  std::vector<char> in_pair(static_cast<std::size_t>(n_all), 0);
  for (std::size_t e = 0; e < pairs.n_pairs(); ++e) {
    comps.unite(static_cast<std::size_t>(pairs.first[e]), static_cast<std::size_t>(pairs.second[e]));
    in_pair[pairs.first[e]] = in_pair[pairs.second[e]] = 1;
  }
  std::vector<char> uncertain(static_cast<std::size_t>(n_all), 0);
  for (std::size_t e = 0; e < pairs.n_pairs(); ++e) {
    const double pk = keep_probability(pairs.magnitude(e));
    if (pk > 0.0 && pk < 1.0) uncertain[comps.find(static_cast<std::size_t>(pairs.first[e]))] = 1;
  }
  std::vector<int> local(static_cast<std::size_t>(n_all), -1);
  for (int i = 0; i < n_all; ++i) {
    if (!in_pair[i]) continue;
    ChunkletPart& part = uncertain[comps.find(static_cast<std::size_t>(i))] ? sc.drawn_part
                                                                             : sc.fixed;
    local[i] = static_cast<int>(part.points.size());
    part.points.push_back(i);
  }
  std::vector<std::size_t> ids_fixed, ids_drawn;
  std::vector<int> f_fixed, s_fixed, f_drawn, s_drawn;
  for (std::size_t e = 0; e < pairs.n_pairs(); ++e) {
    const bool drawn = uncertain[comps.find(static_cast<std::size_t>(pairs.first[e]))];
    (drawn ? ids_drawn : ids_fixed).push_back(e);
    (drawn ? f_drawn : f_fixed).push_back(local[pairs.first[e]]);
    (drawn ? s_drawn : s_fixed).push_back(local[pairs.second[e]]);
  }
  auto no_infeasible = [&]() {
    throw std::invalid_argument(
        "sampled chunklets: every sample put a certain cannot-link inside a chunklet");
  };
  if (!sc.fixed.points.empty()) {
    CannotLinkGraph g;
    auto certain = [](double pk) { return pk >= 1.0; };
    const double lo = chunklet_sample(g, static_cast<int>(sc.fixed.points.size()), pairs, ids_fixed,
                                      f_fixed, s_fixed, K, max_labelings, certain, certain);
    if (!std::isfinite(lo)) no_infeasible();
    sc.fixed.samples.push_back(std::move(g));
    sc.fixed.weight.push_back(1.0);
  }
  // the exactly solved components once for all samples
  auto finish = [&](ChunkletPart& part) {
    share_exact_components(part.samples, part.weight, static_cast<int>(part.points.size()), K,
                           max_labelings, part.shared, part.mf_points, part.mf_unit);
    for (const CannotLinkGraph& g : part.samples) {
      sc.max_sample_units = std::max(sc.max_sample_units, g.n_units);
    }
    const CannotLinkGraph& sg = part.shared.graph;
    sc.max_shared_units = std::max(sc.max_shared_units, sg.n_units);
    sc.max_tree_units = std::max(sc.max_tree_units, static_cast<int>(sg.tree_order.size()));
  };
  if (!sc.fixed.points.empty()) finish(sc.fixed);
  if (sc.drawn_part.points.empty()) return;
  ChunkletPart& part = sc.drawn_part;
  const int n = static_cast<int>(part.points.size());
  auto draw = [&hooks](double pk) { return hooks.uniform() < pk; };
  std::vector<double> log_omega;
  for (int s = 0; s < samples; ++s) {
    hooks.check_interrupt();
    CannotLinkGraph g;
    const double lo = chunklet_sample(g, n, pairs, ids_drawn, f_drawn, s_drawn, K, max_labelings,
                                      draw, draw);
    if (!std::isfinite(lo)) continue;
    part.samples.push_back(std::move(g));
    log_omega.push_back(lo);
  }
  if (part.samples.empty()) no_infeasible();
  double m = -std::numeric_limits<double>::infinity();
  for (double lo : log_omega) m = std::max(m, lo);
  double sum_w = 0.0, sum_w2 = 0.0;
  for (double lo : log_omega) {
    const double w = std::exp(lo - m);
    part.weight.push_back(w);
    sum_w += w;
    sum_w2 += w * w;
  }
  for (double& w : part.weight) w /= sum_w;
  sc.ess = sum_w * sum_w / sum_w2;
  finish(part);
}

// Scales the weights of `units` to a maximum of 1; a product that underflowed
// is taken again from the logarithms of its points' unaries, which
// for_points(u, f) calls f(local point) on.
template <class ForPoints>
void scale_unit_weights(Eigen::Ref<Eigen::MatrixXd> w, const std::vector<int>& units,
                        const Eigen::MatrixXd& a, const std::vector<int>& points,
                        ForPoints&& for_points) {
  const Eigen::Index K = w.rows();
  Eigen::VectorXd lw(K);
  for (int u : units) {
    const double m = w.col(u).maxCoeff();
    if (m > 1e-200) {
      if (m != 1.0) w.col(u) *= 1.0 / m;
      continue;
    }
    lw.setZero();
    for_points(u, [&](int t) {
      const auto at = a.col(points[t]);  // a's columns are still unaries
      lw += (at.array() - at.maxCoeff()).matrix();
    });
    const double lm = lw.maxCoeff();
    for (Eigen::Index k = 0; k < K; ++k) w(k, u) = std::isfinite(lm) ? flushed_exp(lw(k) - lm) : 1.0;
  }
}

// The posterior of one part's points, the omega-weighted average over its
// samples, written into their columns of a (which hold their unaries): the
// shared exactly solved components once (in `shared_work`), then each
// sample's mean field (in `slots`, one per thread). On several threads the
// shared components are a job like a sample, committed first, so that they
// run beside the first samples.
inline int chunklet_part_posterior(Eigen::MatrixXd& a, const ChunkletPart& part,
                                   CannotLinkWork& shared_work, std::vector<CannotLinkWork>& slots,
                                   int mf_sweeps, double mf_tol, RunHooks& hooks) {
  const Eigen::Index K = a.rows();
  const int n = static_cast<int>(part.points.size());
  if (n == 0) return 0;
  // the points' weights exp(a - max), once for all samples
  Eigen::MatrixXd e(K, n);
  for (int t = 0; t < n; ++t) {
    const auto at = a.col(part.points[t]);
    const double m = at.maxCoeff();
    if (std::isfinite(m)) {
      e.col(t) = at.array() - m;
      flushed_exp_inplace(e.col(t).data(), K);
    } else {
      e.col(t).setOnes();
    }
  }
  // the weighted sum (a single sample, whose every point is in one
  // component, is written directly: its mean-field points' unaries, read
  // when a product underflows, are not among those of the shared part)
  const bool single = part.samples.size() == 1;
  Eigen::MatrixXd acc = single ? Eigen::MatrixXd() : Eigen::MatrixXd::Zero(K, n);
  auto add = [&](int t, double weight, const double* q) {
    double* to = single ? a.col(part.points[t]).data() : acc.col(t).data();
    if (single) {
      std::copy(q, q + K, to);
    } else {
      add_scaled_into(to, weight, q, K);
    }
  };
  // w_u *= e_t, columns of K
  auto times = [K](double* wu, const double* et) { multiply_into(wu, et, K); };
  int n_mf = 0;
  // the distinct exactly solved components: a unit alone has its normalized
  // weights as posterior, trees and enumerated components overwrite theirs,
  // and the rare ones whose exact pass fails go to a cold mean field
  const SharedComponents& sh = part.shared;
  const CannotLinkGraph& sg = sh.graph;
  int shared_mf = 0;
  auto solve_shared = [&](CannotLinkWork& work, RunHooks& h) {
    h.check_interrupt();
    const int U = sg.n_units;
    auto w = work.w.leftCols(U);
    std::vector<int> all(static_cast<std::size_t>(U));
    for (int u = 0; u < U; ++u) {
      all[u] = u;
      w.col(u).setOnes();
      for (int i = sh.unit_start[u]; i < sh.unit_start[u + 1]; ++i) {
        times(w.col(u).data(), e.col(sh.unit_points[i]).data());
      }
    }
    scale_unit_weights(work.w, all, a, part.points, [&](int u, auto&& f) {
      for (int i = sh.unit_start[u]; i < sh.unit_start[u + 1]; ++i) f(sh.unit_points[i]);
    });
    for (int u = 0; u < U; ++u) work.q.col(u) = w.col(u) * (1.0 / w.col(u).sum());
    work.extra.clear();
    cannot_link_trees(sg, work);
    cannot_link_enumerate(sg, work);
    if (!work.extra.empty() || !sg.mf_units.empty()) {
      for (int u : work.extra) work.q.col(u) = w.col(u) * (1.0 / w.col(u).sum());
      std::vector<int> mf = sg.mf_units;
      mf.insert(mf.end(), work.extra.begin(), work.extra.end());
      cannot_link_mean_field(sg, mf, work.w, work.q, work.mf, mf_sweeps, mf_tol, &h);
      shared_mf = sg.n_mf_components + (work.extra.empty() ? 0 : 1);
    }
  };
  auto commit_shared = [&](const CannotLinkWork& work) {
    n_mf += shared_mf;
    for (int u = 0; u < sg.n_units; ++u) {
      for (int i = sh.unit_start[u]; i < sh.unit_start[u + 1]; ++i) {
        add(sh.unit_points[i], sh.unit_weight[u], work.q.col(u).data());
      }
    }
  };
  // each sample's mean-field components (a start from another sample's
  // field saved nothing: no two share one), into a workspace's q
  auto solve = [&](int s, CannotLinkWork& wk, RunHooks& h) {
    const CannotLinkGraph& g = part.samples[s];
    const std::vector<int>& pts = part.mf_points[s];
    if (pts.empty()) return;
    h.check_interrupt();
    auto w = wk.w.leftCols(g.n_units);
    for (int u : g.mf_units) w.col(u).setOnes();
    const std::vector<int>& unit = part.mf_unit[s];
    for (std::size_t i = 0; i < pts.size(); ++i) times(w.col(unit[i]).data(), e.col(pts[i]).data());
    // a unit's points, grouped by one counting sort when a product first
    // underflows (rare; a scan of pts per such unit could be quadratic)
    std::vector<int> unit_start, unit_pts;
    scale_unit_weights(wk.w, g.mf_units, a, part.points, [&](int u, auto&& f) {
      if (unit_start.empty()) {
        group_by_id(unit.data(), unit.size(), g.n_units, unit_start, unit_pts);
        for (int& i : unit_pts) i = pts[i];
      }
      for (int i = unit_start[u]; i < unit_start[u + 1]; ++i) f(unit_pts[i]);
    });
    // mean field from the normalized weights: a warm start from the
    // sample's own last state lengthened whole fits (the field has several
    // fixed points with certain cannot-links, and from the early E-steps'
    // states it also lost accuracy on small noisy problems)
    for (int u : g.mf_units) wk.q.col(u) = w.col(u) * (1.0 / w.col(u).sum());
    cannot_link_mean_field(g, g.mf_units, wk.w, wk.q, wk.mf, mf_sweeps, mf_tol, &h);
  };
  auto commit = [&](int s, const CannotLinkWork& wk) {
    const CannotLinkGraph& g = part.samples[s];
    if (part.mf_points[s].empty()) return;
    n_mf += g.n_mf_components;
    const double ws = part.weight[s];
    const std::vector<int>& pts = part.mf_points[s];
    const std::vector<int>& unit = part.mf_unit[s];
    for (std::size_t i = 0; i < pts.size(); ++i) add(pts[i], ws, wk.q.col(unit[i]).data());
  };
  const int S = static_cast<int>(part.samples.size());
  const int threads = static_cast<int>(slots.size());
  const int first = sg.n_units > 0 ? 1 : 0;  // job 0: the shared components, if any
  // the jobs side by side when there are two samples or more, each sample
  // with a thread's workspace, their posteriors added in job order (the
  // same sums as one thread)
  run_ordered_jobs(
      first + S, S < 2 ? 1 : threads,
      [&](int job, int slot, RunHooks& h) {
        if (job < first) {
          solve_shared(shared_work, h);
        } else {
          solve(job - first, slots[slot], h);
        }
      },
      [&](int job, int slot) {
        if (job < first) {
          commit_shared(shared_work);
        } else {
          commit(job - first, slots[slot]);
        }
      },
      hooks);
  if (!single) {
    for (int t = 0; t < n; ++t) a.col(part.points[t]) = acc.col(t);
  }
  return n_mf;
}

// One E-step from the unaries a (K x n), in place: a becomes the posterior.
// *n_mean_field counts the components left to mean field over the samples.
// The samples' mean fields run on up to `threads` threads; the result does
// not depend on their number.
inline void sampled_chunklet_estep(Eigen::MatrixXd& a, SampledChunklets& sc, int mf_sweeps,
                                   double mf_tol, int threads, RunHooks& hooks,
                                   int* n_mean_field = nullptr) {
  // the workspaces, kept across E-steps: one for the shared components and
  // one per thread for the samples
  const std::size_t S = std::max(sc.fixed.samples.size(), sc.drawn_part.samples.size());
  sc.work.resize(std::max<std::size_t>(1, std::min<std::size_t>(std::max(threads, 1), S)));
  for (CannotLinkWork& wk : sc.work) wk.reserve(a.rows(), sc.max_sample_units, 0);
  sc.shared_work.reserve(a.rows(), sc.max_shared_units, sc.max_tree_units);
  int n_mf = chunklet_part_posterior(a, sc.fixed, sc.shared_work, sc.work, mf_sweeps, mf_tol,
                                     hooks);
  n_mf += chunklet_part_posterior(a, sc.drawn_part, sc.shared_work, sc.work, mf_sweeps, mf_tol,
                                  hooks);
  // every point in no pair: its exact posterior, in place
  std::vector<char> in_pair(static_cast<std::size_t>(a.cols()), 0);
  for (int i : sc.fixed.points) in_pair[i] = 1;
  for (int i : sc.drawn_part.points) in_pair[i] = 1;
  for (Eigen::Index i = 0; i < a.cols(); ++i) {
    if (!in_pair[i]) set_softmax_col(a, i, a.col(i));
  }
  if (n_mean_field != nullptr) *n_mean_field = n_mf;
}

}  // namespace sideclust
