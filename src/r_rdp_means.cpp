// Glue for DP-means / RDP-means: maps R objects to the core and back. No
// algorithm here.
#include <Rcpp.h>

#include <string>
#include <vector>

#include "dpmeans/dp_lambda.h"
#include "r_dpmeans.h"
#include "r_glue.h"
#include "r_kernels.h"
#include "dpmeans/rdp_means.h"

using sideclust::IDivergence;
using sideclust::KullbackLeibler;
using sideclust::SquaredEuclidean;

namespace {

// Calls f.template operator()<Div>() for the divergence named by `name`.
template <class F>
auto with_divergence(const std::string& name, F&& f) {
  if (name == "sqeuclidean") return f(SquaredEuclidean{});
  if (name == "kl") return f(KullbackLeibler{});
  if (name == "idiv") return f(IDivergence{});
  Rcpp::stop("unknown divergence '%s'", name);
}

sideclust::RdpParams rdp_params(const sideclust::Options& o) {
  sideclust::RdpParams par;
  par.lambda = o.get<double>("lambda");
  sideclust::read_xi_schedule(o, par);
  par.uniform_order = o.has("uniform_order") && o.get<bool>("uniform_order");
  par.chunklet_moves = o.get<bool>("chunklet_moves");
  if (o.has("max_clusters")) par.max_clusters = o.get<int>("max_clusters");
  par.use_avx = sideclust::avx_allowed(o);
  if (o.has("xi_unit")) par.xi_unit = o.get<double>("xi_unit");
  if (o.has("side_start")) par.side_start = o.get<bool>("side_start");
  if (o.has("split_tries")) par.split_tries = o.get<int>("split_tries");
  if (o.has("start")) par.start = sideclust::zero_based(o.get<Rcpp::IntegerVector>("start"));
  return par;
}

}  // namespace

// xt: p x n data, or sparse points (see with_rows() in r_glue.h); side: the
// validated side information or NULL; options: lambda, xi (must, cannot),
// xi_rate, xi_max, patience, max_iter, random_order, chunklet_moves,
// divergence, verbose; optional uniform_order (FALSE when absent),
// max_clusters, use_avx (TRUE when absent; FALSE: the portable sweeps,
// for the tests) and xi_unit (1 when absent; see count_divergence_params()).
// [[Rcpp::export(.rdp_means_cpp)]]
Rcpp::List rdp_means_cpp(SEXP xt, SEXP side, Rcpp::List options) {
  int n = 0, p = 0;
  sideclust::with_rows(xt, [&](const auto& rows) {
    n = rows.n();
    p = rows.p();
    return 0;
  });
  const sideclust::Options o(options);
  const sideclust::RdpParams par = rdp_params(o);
  // The sweeps read the pairs through their adjacency only: no pair list.
  const sideclust::SideInfo s =
      sideclust::side_from_r(side, n, nullptr, sideclust::PairForm::adjacency);
  const std::string divergence = o.get<std::string>("divergence");
  sideclust::RHooks hooks(o.get<bool>("verbose"));
  const sideclust::RdpResult r = with_divergence(divergence, [&](auto div) {
    return sideclust::with_rows(xt, [&](const auto& rows) {
      return sideclust::rdp_means_rows<decltype(div)>(rows, s, par, hooks);
    });
  });

  Rcpp::NumericMatrix centres(p, r.k);
  std::copy(r.centres.begin(), r.centres.end(), centres.begin());
  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(r.cluster), Rcpp::_["centers"] = centres,
      Rcpp::_["k"] = r.k, Rcpp::_["objective"] = r.objective,
      Rcpp::_["k_trace"] = r.k_trace, Rcpp::_["changes"] = r.changes,
      Rcpp::_["iterations"] = r.iterations, Rcpp::_["converged"] = r.converged,
      Rcpp::_["interrupt_polls"] = static_cast<double>(hooks.polls()),
      Rcpp::_["xi"] = Rcpp::NumericVector::create(r.xi_must, r.xi_cannot),
      Rcpp::_["agreement"] = sideclust::agreement_to_r(r.agreement));
}

// [[Rcpp::export(.dp_lambda_cpp)]]
double dp_lambda_cpp(SEXP xt, int k, std::string method, std::string divergence) {
  return with_divergence(divergence, [&](auto div) {
    using Div = decltype(div);
    return sideclust::with_rows(xt, [&](const auto& rows) {
      return method == "farthest_first" ? sideclust::farthest_first_lambda<Div>(rows, k)
                                        : sideclust::kth_distance_lambda<Div>(rows, k);
    });
  });
}

// [[Rcpp::export(.center_divergences_cpp)]]
Rcpp::NumericMatrix center_divergences_cpp(SEXP xt, Rcpp::NumericMatrix centers,
                                           std::string divergence) {
  const int k = centers.ncol();
  int n = 0;
  const std::vector<double> d = with_divergence(divergence, [&](auto div) {
    return sideclust::with_rows(xt, [&](const auto& rows) {
      n = rows.n();
      return sideclust::centre_divergences<decltype(div)>(rows, centers.begin(), k);
    });
  });
  Rcpp::NumericMatrix out(n, k);
  std::copy(d.begin(), d.end(), out.begin());
  return out;
}
