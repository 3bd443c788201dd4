// Glue for DP-means / RDP-means: maps R objects to the core and back.
#include <Rcpp.h>

#include <string>
#include <vector>

#include "kmeans/dp_lambda.h"
#include "r_glue.h"
#include "kmeans/rdp_means.h"

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

}  // namespace

// [[Rcpp::export(.rdp_means_cpp)]]
Rcpp::List rdp_means_cpp(Rcpp::NumericMatrix xt, Rcpp::List side, double lambda,
                         Rcpp::NumericVector xi, double xi_rate,
                         Rcpp::NumericVector xi_max, int patience, int max_iter,
                         bool random_order, bool chunklet_moves, std::string divergence,
                         bool verbose) {
  const int p = xt.nrow(), n = xt.ncol();
  const sideclust::SideInfo s = sideclust::side_from_r(side, n);
  sideclust::RdpParams par;
  par.lambda = lambda;
  par.xi_may = xi[0];
  par.xi_may_not = xi[1];
  par.xi_rate = xi_rate;
  par.xi_max_may = xi_max[0];
  par.xi_max_may_not = xi_max[1];
  par.patience = patience;
  par.max_iter = max_iter;
  par.random_order = random_order;
  par.chunklet_moves = chunklet_moves;
  sideclust::RHooks hooks(verbose);
  const sideclust::RdpResult r = with_divergence(divergence, [&](auto div) {
    return sideclust::rdp_means<decltype(div)>(xt.begin(), n, p, s, par, hooks);
  });

  Rcpp::IntegerVector cluster(r.cluster.begin(), r.cluster.end());
  cluster = cluster + 1;
  Rcpp::NumericMatrix centres(p, r.k);
  std::copy(r.centres.begin(), r.centres.end(), centres.begin());
  return Rcpp::List::create(
      Rcpp::_["cluster"] = cluster, Rcpp::_["centres"] = centres,
      Rcpp::_["k"] = r.k, Rcpp::_["objective"] = r.objective,
      Rcpp::_["k_trace"] = r.k_trace, Rcpp::_["changes"] = r.changes,
      Rcpp::_["iterations"] = r.iterations, Rcpp::_["converged"] = r.converged,
      Rcpp::_["xi"] = Rcpp::NumericVector::create(r.xi_may, r.xi_may_not),
      Rcpp::_["agreement"] = Rcpp::NumericVector::create(
          Rcpp::_["may_satisfied"] = r.agreement.may_satisfied,
          Rcpp::_["may_violated"] = r.agreement.may_violated,
          Rcpp::_["may_not_satisfied"] = r.agreement.may_not_satisfied,
          Rcpp::_["may_not_violated"] = r.agreement.may_not_violated));
}

// [[Rcpp::export(.dp_lambda_cpp)]]
double dp_lambda_cpp(Rcpp::NumericMatrix xt, int k, std::string method,
                     std::string divergence) {
  const int p = xt.nrow(), n = xt.ncol();
  return with_divergence(divergence, [&](auto div) {
    using Div = decltype(div);
    return method == "farthest_first"
               ? sideclust::farthest_first_lambda<Div>(xt.begin(), n, p, k)
               : sideclust::kth_distance_lambda<Div>(xt.begin(), n, p, k);
  });
}

// [[Rcpp::export(.nearest_centre_cpp)]]
Rcpp::List nearest_centre_cpp(Rcpp::NumericMatrix xt, Rcpp::NumericMatrix centres,
                              std::string divergence) {
  const int p = xt.nrow(), n = xt.ncol(), k = centres.ncol();
  std::vector<double> dist;
  const std::vector<int> idx = with_divergence(divergence, [&](auto div) {
    return sideclust::nearest_centre<decltype(div)>(xt.begin(), n, p, centres.begin(), k, dist);
  });
  Rcpp::IntegerVector cluster(idx.begin(), idx.end());
  cluster = cluster + 1;
  return Rcpp::List::create(Rcpp::_["cluster"] = cluster,
                            Rcpp::_["divergence"] = Rcpp::wrap(dist));
}
