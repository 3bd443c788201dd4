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
#include "common/run_hooks.h"
#include "mixture/sampled_chunklets.h"

namespace sideclust {

enum class Inference { chunklet, icm, gibbs, mean_field, sampled_chunklet, exact };

struct EStepOptions {
  Inference inference = Inference::mean_field;
  double max_labelings = 1e6;  // exact / chunklet enumeration limit per component
  int inner_sweeps = 50;       // mean-field and ICM sweeps per E-step
  double inner_tol = 1e-6;     // mean-field convergence
  int burn_in = 5;             // Gibbs, first E-step only (the chain continues)
  int sweeps = 10;             // Gibbs, recorded
  int samples = 20;            // sampled chunklets
};

// What persists between E-steps: the unit graph and the state of the
// iterative methods (warm starts).
struct EStepState {
  bool ready = false;
  UnitGraph graph;
  Eigen::MatrixXd q;       // mean field: unit probabilities (sampled chunklets: point ones)
  std::vector<int> y;      // ICM / Gibbs: unit labels
  int dropped = 0;         // chunklet: cannot-links inside chunklets, ignored
  int mean_field_components = 0;  // chunklet / sampled: components left to mean field
  double ess = 0.0;        // sampled chunklets: effective number of samples
};

// One E-step: posterior label probabilities (K x n) from the unaries
// a(k, i) = log w_k + log p(x_i | k).
// `a` is taken by value so that EM can hand it over: without chunklets the
// units are the points and `a` becomes the unit unaries without a copy.
inline Eigen::MatrixXd e_step(Eigen::MatrixXd a, const PairGraph& pairs,
                              const EStepOptions& opt, EStepState& st, RunHooks& hooks) {
  const int n = static_cast<int>(a.cols());
  if (opt.inference == Inference::sampled_chunklet) {
    SampledChunkletStats stats;
    Eigen::MatrixXd z = sampled_chunklet_posterior(a, pairs, opt.samples, opt.max_labelings,
                                                   opt.inner_sweeps, opt.inner_tol, hooks, &stats,
                                                   st.ready ? &st.q : nullptr);
    st.mean_field_components = stats.mean_field;
    st.ess = stats.ess;
    st.q = z;  // the next E-step's warm start
    st.ready = true;
    return z;
  }
  if (!st.ready) {
    st.graph = build_unit_graph(n, pairs, opt.inference == Inference::chunklet, &st.dropped);
  }
  const UnitGraph& g = st.graph;
  const Eigen::MatrixXd b = g.n_units == n ? std::move(a) : unit_unary(a, g);
  a = Eigen::MatrixXd();
  Eigen::MatrixXd q;
  switch (opt.inference) {
    case Inference::chunklet:
    case Inference::exact: {
      const bool fallback = opt.inference == Inference::chunklet;
      int n_mf = 0;
      Eigen::MatrixXd post =
          exact_posterior(b, g, opt.max_labelings, fallback, opt.inner_sweeps, opt.inner_tol,
                          &n_mf, st.ready && fallback ? &st.q : nullptr);
      st.mean_field_components = n_mf;
      st.q = std::move(post);
      st.ready = true;
      return expand_units(st.q, g);  // st.q stays as the next warm start
    }
    case Inference::mean_field: {
      if (!st.ready) {
        st.q = b;
        softmax_cols(st.q);
      }
      mean_field(b, g, st.q, opt.inner_sweeps, opt.inner_tol, {}, &hooks);
      st.ready = true;
      return expand_units(st.q, g);
    }
    case Inference::icm: {
      if (!st.ready) st.y = argmax_cols(b);
      icm(b, g, st.y, opt.inner_sweeps, &hooks);
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
      q = gibbs(b, g, st.y, burn_in, opt.sweeps, hooks);
      break;
    }
    default:
      break;
  }
  st.ready = true;
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

// EM from the soft start z0 (K x n): M-step, unaries, E-step, until the
// mixture log-likelihood changes by less than tol * (1 + |loglik|). The first
// E-step (no change known yet) uses loose_inner_tol.
inline EmResult constrained_em(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::MatrixXd z0,
                               const PairGraph& pairs, const EmOptions& opt, RunHooks& hooks) {
  EmResult r;
  r.z = std::move(z0);
  const int K = static_cast<int>(r.z.rows());
  EStepOptions eopt = opt.estep;
  double rel_change = std::numeric_limits<double>::infinity();
  for (int it = 1; it <= opt.max_iter; ++it) {
    hooks.check_interrupt();
    r.params = m_step(x, r.z, opt.mstep, it == 1 ? nullptr : &r.params);
    Eigen::MatrixXd a = log_unary(x, r.params, opt.mstep.type);
    const double ll = log_sum_exp_cols(a).sum();
    if (it > 1) {
      const double prev = r.loglik.back();
      rel_change = std::abs(ll - prev) / (1.0 + std::abs(ll));
    }
    eopt.inner_tol = std::max(opt.estep.inner_tol, std::min(opt.loose_inner_tol, rel_change));
    r.loglik.push_back(ll);
    r.z = Eigen::MatrixXd();  // not needed past the M-step: free it before the E-step
    r.z = e_step(std::move(a), pairs, eopt, r.state, hooks);
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
