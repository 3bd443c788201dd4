// EM for a Gaussian mixture whose label prior is the hidden Markov random
// field of pairwise constraints (Nelson & Cohen 2007, equations 4-7), with the
// E-step chosen among chunklets, ICM, Gibbs, mean field, sampled chunklets
// and exact enumeration. Plain C++17 + Eigen, no R API.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "mixture/exact_components.h"
#include "mixture/gaussian_mixture.h"
#include "mixture/mrf_estep.h"
#include "mixture/mrf_graph.h"
#include "engine/huge_pages.h"
#include "common/run_hooks.h"
#include "mixture/sampled_chunklets.h"

namespace sideclust {

enum class Inference { chunklet, icm, gibbs, mean_field, sampled_chunklet, exact };

struct EStepOptions {
  Inference inference = Inference::mean_field;
  double max_labelings = 1e6;  // exact / chunklet enumeration limit per component
  int inner_iter = 50;       // mean-field and ICM sweeps per E-step
  double inner_tol = 1e-6;     // mean-field convergence
  int burn_in = 5;             // Gibbs, first E-step only (the chain continues)
  int sweeps = 10;             // Gibbs, recorded
  int samples = 20;            // sampled chunklets
  int threads = 1;             // sampled chunklets: threads for the samples
};

// What persists between E-steps: the unit graph and the state of the
// iterative methods (warm starts).
struct EStepState {
  bool ready = false;
  UnitGraph graph;
  UnitComponents components;  // chunklet / exact: the graph's components
  Eigen::MatrixXd q;       // mean field: unit probabilities
  std::vector<int> y;      // ICM / Gibbs: unit labels
  std::vector<double> gibbs_factors;  // Gibbs: exp(J) per edge, made once
  int dropped = 0;         // chunklet: cannot-links inside chunklets, ignored
  int mean_field_components = 0;  // chunklet / sampled: components left to mean field
  double ess = 0.0;        // sampled chunklets: effective number of samples
  bool q_in_z = false;     // mean field: q was returned as z (units = points)
  bool graph_built = false;
  SampledChunklets sampled;  // sampled chunklets: the fit's samples
};

// What the E-steps of a fit share, made once: the unit graph, or the
// samples of sampled chunklets (drawn from hooks; they depend on the
// constraints only). EM calls it before its first M-step, so that the
// temporaries of the construction are gone before any K x n matrix of
// unaries exists; e_step() calls it too (a no-op when done).
inline void prepare_e_step(int n, int K, const PairGraph& pairs, const EStepOptions& opt,
                           EStepState& st, RunHooks& hooks) {
  if (opt.inference == Inference::sampled_chunklet) {
    if (!st.sampled.drawn) {
      draw_chunklet_samples(st.sampled, n, pairs, opt.samples, K, opt.max_labelings, hooks);
    }
  } else if (!st.graph_built) {
    st.graph = build_unit_graph(n, pairs, opt.inference == Inference::chunklet, &st.dropped);
    st.graph_built = true;
  }
}

// One E-step: posterior label probabilities (K x n) from the unaries
// a(k, i) = log w_k + log p(x_i | k).
// `a` is taken by value so that EM can hand it over: without chunklets the
// units are the points and `a` becomes the unit unaries without a copy.
// `prev_z`, when given, is the previous E-step's result, handed over too:
// mean field over the points themselves keeps its state in it (the state
// and the result are one matrix, not two); otherwise it is freed first.
inline Eigen::MatrixXd e_step(Eigen::MatrixXd a, const PairGraph& pairs,
                              const EStepOptions& opt, EStepState& st, RunHooks& hooks,
                              Eigen::MatrixXd* prev_z = nullptr) {
  const int n = static_cast<int>(a.cols());
  Eigen::MatrixXd z_prev;
  if (prev_z != nullptr) z_prev.swap(*prev_z);
  if (!(opt.inference == Inference::mean_field && st.q_in_z)) z_prev = Eigen::MatrixXd();
  if (opt.inference == Inference::sampled_chunklet) {
    prepare_e_step(n, static_cast<int>(a.rows()), pairs, opt, st, hooks);
    int n_mf = 0;
    sampled_chunklet_estep(a, st.sampled, opt.inner_iter, opt.inner_tol, opt.threads, hooks,
                           &n_mf);
    st.mean_field_components = n_mf;
    st.ess = st.sampled.ess;
    st.ready = true;
    return a;  // the posterior, computed in place
  }
  prepare_e_step(n, static_cast<int>(a.rows()), pairs, opt, st, hooks);
  const UnitGraph& g = st.graph;
  // b is freed before the expansion to points, so that at most two K x n
  // matrices exist at once (b and q, or q and z)
  Eigen::MatrixXd b = std::move(a);
  if (g.n_units != n) merge_into_units(b, g);
  Eigen::MatrixXd q;
  switch (opt.inference) {
    case Inference::chunklet:
    case Inference::exact: {
      const bool fallback = opt.inference == Inference::chunklet;
      // the graph's components, found in the first E-step and kept
      if (st.components.units.size() != static_cast<std::size_t>(g.n_units)) {
        st.components = unit_components(g);
      }
      int n_mf = 0;
      Eigen::MatrixXd post =
          exact_posterior(b, g, st.components, opt.max_labelings, fallback, opt.inner_iter,
                          opt.inner_tol, &n_mf, st.ready && fallback ? &st.q : nullptr);
      st.mean_field_components = n_mf;
      st.q = std::move(post);
      st.ready = true;
      b = Eigen::MatrixXd();
      return expand_units(st.q, g);  // st.q stays as the next warm start
    }
    case Inference::mean_field: {
      if (st.q_in_z) st.q.swap(z_prev);  // the state came back as the last result
      if (st.q.cols() != g.n_units) {
        // read at the graph's random places: marked so before the copy
        // first touches the memory (the engine's page advice)
        resize_for_random_reads(st.q, b.rows(), b.cols());
        st.q = b;
        softmax_cols(st.q);
      }
      mean_field(b, g, st.q, opt.inner_iter, opt.inner_tol, {}, &hooks);
      st.ready = true;
      // units are points: the state is the result (handed back next time)
      st.q_in_z = g.n_units == n && prev_z != nullptr;
      if (st.q_in_z) return std::move(st.q);
      b = Eigen::MatrixXd();
      return expand_units(st.q, g);
    }
    case Inference::icm: {
      if (!st.ready) st.y = argmax_cols(b);
      icm(b, g, st.y, opt.inner_iter, &hooks);
      // each unit's label distribution given its neighbours' ICM labels
      q.resize(b.rows(), g.n_units);
      Eigen::VectorXd s;
      for (int u = 0; u < g.n_units; ++u) {
        label_scores(b, g, st.y, u, s);
        set_softmax_col(q, u, s);
      }
      break;
    }
    case Inference::gibbs: {
      // the chain continues from the last E-step's state: burn-in only once
      const int burn_in = st.ready ? 0 : opt.burn_in;
      if (!st.ready) st.y = argmax_cols(b);
      q = gibbs(b, g, st.y, burn_in, opt.sweeps, hooks, &st.gibbs_factors);
      break;
    }
    default:
      break;
  }
  st.ready = true;
  b = Eigen::MatrixXd();
  if (g.n_units == n) return q;  // units are the points: q is the result
  return expand_units(q, g);
}

struct EmOptions {
  MStepOptions mstep;
  EStepOptions estep;
  int max_iter = 100;
  double tol = 1e-6;  // relative change of the log-likelihood
  // While EM is far from converged its E-steps need not be: the mean field
  // of iteration t stops at the tolerance max(inner_tol, min(loose_inner_tol,
  // relative change of the log-likelihood at t)), so early E-steps stop
  // loosely and the last ones at inner_tol. 0 keeps inner_tol throughout.
  // Gibbs likewise records half its sweeps (rounded up) while that change
  // exceeds loose_inner_tol: a Monte Carlo error sqrt(2) times larger matters little
  // when the next M-step moves the parameters by more, and the chain keeps
  // running across iterations either way.
  double loose_inner_tol = 1e-2;
};

struct EmResult {
  Gaussians params;
  Eigen::MatrixXd z;            // K x n
  std::vector<double> loglik;   // mixture log-likelihood after each M-step
  int iterations = 0;
  bool converged = false;
  EStepState state;
};

// EM on the data x (n x p, points as rows) from the soft start z0 (K x n):
// M-step, unaries, E-step, until the
// mixture log-likelihood changes by less than tol * (1 + |loglik|). The first
// E-step (no change known yet) uses loose_inner_tol.
inline EmResult constrained_em(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::MatrixXd z0,
                               const PairGraph& pairs, const EmOptions& opt, RunHooks& hooks) {
  EmResult r;
  r.z = std::move(z0);
  const int K = static_cast<int>(r.z.rows());
  EStepOptions eopt = opt.estep;
  prepare_e_step(static_cast<int>(x.rows()), K, pairs, opt.estep, r.state, hooks);
  double rel_change = std::numeric_limits<double>::infinity();
  for (int it = 1; it <= opt.max_iter; ++it) {
    hooks.check_interrupt();
    r.params = m_step(x, r.z, opt.mstep, it == 1 ? nullptr : &r.params);
    // z is not needed past the M-step unless it holds mean field's state:
    // freed before the unaries exist
    if (!r.state.q_in_z) r.z = Eigen::MatrixXd();
    Eigen::MatrixXd a = log_unary(x, r.params, opt.mstep.type);
    const double ll = log_sum_exp_cols(a).sum();
    if (it > 1) {
      const double prev = r.loglik.back();
      rel_change = std::abs(ll - prev) / (1.0 + std::abs(ll));
    }
    eopt.inner_tol = std::max(opt.estep.inner_tol, std::min(opt.loose_inner_tol, rel_change));
    const bool far = opt.loose_inner_tol > 0.0 && rel_change > opt.loose_inner_tol;
    eopt.sweeps = far ? (opt.estep.sweeps + 1) / 2 : opt.estep.sweeps;
    r.loglik.push_back(ll);
    Eigen::MatrixXd z = e_step(std::move(a), pairs, eopt, r.state, hooks, &r.z);
    r.z.swap(z);
    r.iterations = it;
    hooks.on_sweep(it, K, ll);
    if (it > 1) {
      const double prev = r.loglik[r.loglik.size() - 2];
      if (std::abs(ll - prev) <= opt.tol * (1.0 + std::abs(ll))) {
        r.converged = true;
        break;
      }
    }
  }
  return r;
}

}  // namespace sideclust
