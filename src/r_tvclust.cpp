// Glue for the TVClust collapsed Gibbs sampler: builds the cluster family
// from R's prior list, runs the chains (interrupts and progress polled on
// R's thread) and returns plain R data. No algorithm here.
#include <RcppEigen.h>
#include <R_ext/Utils.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "tvclust/partition_estimate.h"
#include "tvclust/partition_search.h"
#include "r_glue.h"
#include "r_tvclust.h"
#include "tvclust/tvclust_chains.h"
#include "tvclust/tvclust_gibbs.h"
#include "tvclust/tvclust_predict.h"

namespace {

void check_interrupt_fn(void*) { R_CheckUserInterrupt(); }

// True when the user pressed Ctrl-C (checked without a long jump).
bool interrupt_pending() { return R_ToplevelExec(check_interrupt_fn, nullptr) == FALSE; }

// A 64-bit seed from R's generator, so set.seed() fixes every chain.
std::uint64_t seed_from_r() {
  const std::uint64_t hi = static_cast<std::uint64_t>(R::unif_rand() * 4294967296.0);
  const std::uint64_t lo = static_cast<std::uint64_t>(R::unif_rand() * 4294967296.0);
  return (hi << 32) ^ lo;
}

Rcpp::NumericMatrix trace_matrix(const std::vector<sideclust::ChainRecord>& rec,
                                 std::vector<double> sideclust::ChainRecord::*field) {
  const int chains = static_cast<int>(rec.size());
  const int iter = static_cast<int>((rec[0].*field).size());
  Rcpp::NumericMatrix out(iter, chains);
  for (int c = 0; c < chains; ++c) {
    for (int t = 0; t < iter; ++t) out(t, c) = (rec[c].*field)[t];
  }
  return out;
}

// The number of points of xt: a p x n matrix or sparse points (r_glue.h).
int points_n(SEXP xt) {
  return sideclust::is_sparse_points(xt) ? sideclust::sparse_rows_from_r(xt).n()
                                         : Rcpp::NumericMatrix(xt).ncol();
}

// Gibbs reads sparse points with the Dirichlet-multinomial family only.
template <class Family>
constexpr bool sparse_ok = std::is_same_v<Family, sideclust::DirichletMultinomialCluster>;

}  // namespace

sideclust::ChainSchedule schedule_from(const sideclust::Options& o) {
  sideclust::ChainSchedule schedule;
  schedule.iter = o.get<int>("iter");
  schedule.burn_in = o.get<int>("burn_in");
  schedule.thin = o.get<int>("thin");
  const Rcpp::LogicalVector store = o.get<Rcpp::LogicalVector>("store");
  schedule.store.assign(store.begin(), store.end());
  if (static_cast<int>(schedule.store.size()) != schedule.kept()) {
    Rcpp::stop("internal: `store` must have one entry per kept sweep");
  }
  return schedule;
}

// Runs `length(init)` chains and returns their traces and stored draws (the
// point estimate comes from .tvclust_summary_cpp(), which also serves pooled
// fits). settings: the model (see params_from_r()); options: iter, burn_in,
// thin, store (one flag per kept sweep), threads, verbose, and optionally
// seeds.
// [[Rcpp::export(.tvclust_chains_cpp)]]
Rcpp::List tvclust_chains_cpp(SEXP xt, SEXP side, std::string family,
                              Rcpp::List prior, Rcpp::List settings, Rcpp::List init,
                              Rcpp::List options) {
  const int n = points_n(xt);
  const int chains = init.size();
  const sideclust::Options o(options);
  const sideclust::SideInfo s = sideclust::side_from_r(side, n);
  const sideclust::TvclustParams par = sideclust::params_from_r(settings);
  const sideclust::ChainSchedule schedule = schedule_from(o);
  const int threads = o.get<int>("threads");
  const bool verbose = o.get<bool>("verbose");
  std::vector<std::vector<int>> start;
  std::vector<std::uint64_t> seeds;
  // options$seeds: two 32-bit halves per chain drawn in R (tvclust_seeds()),
  // so that chains split over future workers keep the seeds they would have
  // had in one call; without it, the same halves are drawn here.
  const bool given = o.has("seeds");
  const Rcpp::NumericVector halves = given ? o.get<Rcpp::NumericVector>("seeds")
                                           : Rcpp::NumericVector(0);
  if (given && halves.size() != 2 * chains) {
    Rcpp::stop("internal: `seeds` must hold two halves per chain");
  }
  for (int c = 0; c < chains; ++c) {
    start.push_back(sideclust::zero_based(init[c]));
    seeds.push_back(given ? (static_cast<std::uint64_t>(halves[2 * c]) << 32) ^
                                static_cast<std::uint64_t>(halves[2 * c + 1])
                          : seed_from_r());
  }
  std::vector<std::atomic<int>> progress(chains);
  for (auto& v : progress) v = 0;
  const double total = static_cast<double>(schedule.iter) * chains;
  // An R function of the sweeps done so far (a progressr progressor), or NULL.
  const Rcpp::RObject report = o.get<Rcpp::RObject>("progress");
  int polls = 0;
  auto poll = [&]() {  // called on R's thread while the chains run
    if (interrupt_pending()) return false;
    if (++polls % 20 == 0) {  // about every 2 s
      double done = 0;
      for (auto& v : progress) done += v.load(std::memory_order_relaxed);
      if (verbose) {
        char line[120];
        std::snprintf(line, sizeof line, "tvclust: %.0f of %.0f sweeps (%.0f%%)", done, total,
                      100.0 * done / total);
        sideclust::r_message(line);
      }
      if (!report.isNULL()) {
        try {
          Rcpp::Function handler(static_cast<SEXP>(report));
          handler(done);
        } catch (...) {  // a failing progress handler must not stop the chains
        }
      }
    }
    return true;
  };
  return sideclust::with_family(family, prior, [&](auto make) {
    using Family = std::decay_t<decltype(make())>;
    std::vector<sideclust::ChainRecord> rec;
    try {
      sideclust::with_points<sparse_ok<Family>>(xt, [&](const auto& x) {
        rec = sideclust::run_tvclust_chains<Family>(x, s, make, par, start, schedule, seeds,
                                                    threads, progress, poll);
      });
    } catch (const sideclust::ChainStopped&) {
      throw Rcpp::internal::InterruptedException();
    }
    const sideclust::PooledDraws pooled = sideclust::pool_draws(rec, n);
    const sideclust::DrawSet& all = pooled.draws;
    const int stored = all.count();
    Rcpp::IntegerMatrix draws(stored, n);
    for (int t = 0; t < stored; ++t) {
      const int* z = all.draw(t);
      for (int i = 0; i < n; ++i) draws(t, i) = z[i] + 1;
    }
    return Rcpp::List::create(
        Rcpp::_["draws"] = draws, Rcpp::_["draw_chain"] = sideclust::one_based(pooled.chain),
        Rcpp::_["draw_kept"] = sideclust::one_based(pooled.kept),
        Rcpp::_["log_joint"] = trace_matrix(rec, &sideclust::ChainRecord::log_joint),
        Rcpp::_["k"] = trace_matrix(rec, &sideclust::ChainRecord::k),
        Rcpp::_["p"] = trace_matrix(rec, &sideclust::ChainRecord::p),
        Rcpp::_["q"] = trace_matrix(rec, &sideclust::ChainRecord::q),
        Rcpp::_["alpha"] = trace_matrix(rec, &sideclust::ChainRecord::alpha));
  });
}

// The point estimate of a set of stored draws (rows of `draws`, 1-based
// clusters): the candidate draw of least expected loss (the core's
// summarize_draws()) and, with options$search, the local search from it
// (partition_search.h). options: loss ("binder" or "vi"), max_candidates,
// search.
// [[Rcpp::export(.tvclust_summary_cpp)]]
Rcpp::List tvclust_summary_cpp(Rcpp::IntegerMatrix draws, Rcpp::List options) {
  const sideclust::Options o(options);
  const sideclust::PartitionLoss loss = o.get<std::string>("loss") == "vi"
                                            ? sideclust::PartitionLoss::vi
                                            : sideclust::PartitionLoss::binder;
  const int n = draws.ncol();
  const int stored = draws.nrow();
  sideclust::DrawSet set;
  set.n = n;
  set.label.resize(static_cast<std::size_t>(stored) * n);
  std::vector<int> map;
  for (int t = 0; t < stored; ++t) {
    int* z = set.label.data() + static_cast<std::size_t>(t) * n;
    for (int i = 0; i < n; ++i) z[i] = draws(t, i) - 1;
    set.k.push_back(sideclust::canonicalize(z, n, map));
  }
  const sideclust::DrawSummary summary = sideclust::estimate_partition(
      set, loss, o.get<int>("max_candidates"), o.get<bool>("search"));
  const bool any = stored > 0;
  return Rcpp::List::create(
      Rcpp::_["estimate"] = any ? sideclust::one_based(summary.estimate) : Rcpp::IntegerVector(n),
      Rcpp::_["confidence"] = any ? Rcpp::wrap(summary.confidence) : Rcpp::wrap(Rcpp::NumericVector(n)),
      Rcpp::_["expected_loss"] = any ? summary.expected_loss : NA_REAL,
      Rcpp::_["candidate_draw"] = sideclust::one_based(summary.candidates),
      Rcpp::_["candidate_loss"] = Rcpp::wrap(summary.candidate_loss),
      Rcpp::_["search_moves"] = summary.search_moves);
}

// Posterior similarity: the share of draws (rows of `draws`) that put points
// i and j together.
// [[Rcpp::export(.psm_cpp)]]
Rcpp::NumericMatrix psm_cpp(Rcpp::IntegerMatrix draws) {
  const int n = draws.ncol();
  Rcpp::NumericMatrix out(n, n);
  sideclust::similarity_matrix(draws.begin(), draws.nrow(), n, out.begin());
  return out;
}

// The collapsed sampler's predictive weights of every column of `newt`
// (tvclust_predictive_weights(), tvclust/tvclust_predict.h) for the
// partition `cluster` (1-based) of the training points `xt`.
// [[Rcpp::export(.tvclust_predict_cpp)]]
Rcpp::NumericMatrix tvclust_predict_cpp(SEXP xt, Rcpp::IntegerVector cluster,
                                        std::string family, Rcpp::List prior, SEXP newt) {
  Rcpp::NumericMatrix out;
  int k = 0;
  for (int v : cluster) k = std::max(k, v);
  const std::vector<int> z = sideclust::zero_based(cluster);
  sideclust::with_family(family, prior, [&](auto make) {
    using Family = std::decay_t<decltype(make())>;
    sideclust::with_points<sparse_ok<Family>>(xt, [&](const auto& x) {
      sideclust::with_points<sparse_ok<Family>>(newt, [&](const auto& nx) {
        out = Rcpp::NumericMatrix(sideclust::point_count(nx), k + 1);
        sideclust::tvclust_predictive_weights(x, z, k, make(), nx, out.begin());
      });
    });
    return Rcpp::List();
  });
  return out;
}
