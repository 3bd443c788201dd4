// Glue for multiway clustering with Bregman divergences: maps R objects to
// the core and back.
#include <RcppEigen.h>

#include <string>
#include <vector>

#include "coclust/multiway.h"
#include "r_glue.h"

// z: the tensor's values (R's layout), dim its extents; w: weights summing to
// 1, or length 0 for uniform; start: list of 1-based partitions (one per
// dimension) for the first run, or an empty list.
// [[Rcpp::export(.multiway_cpp)]]
Rcpp::List multiway_cpp(Rcpp::NumericVector z,
                        std::vector<int> dim,
                        Rcpp::NumericVector w,
                        Rcpp::List options) {
  const sideclust::Options o(options);
  std::vector<int> k = o.get<std::vector<int>>("k");
  std::string divergence = o.get<std::string>("divergence");
  std::string init = o.get<std::string>("init");
  int max_iter = o.get<int>("max_iter");
  int restarts = o.get<int>("restarts");
  Rcpp::List start = o.get<Rcpp::List>("start");
  bool verbose = o.get<bool>("verbose");
  sideclust::MultiwayTensor x;
  x.z = z.begin();
  x.w = w.size() > 0 ? w.begin() : nullptr;
  x.dim = std::move(dim);
  if (static_cast<std::size_t>(z.size()) != x.n_cells() ||
      (w.size() > 0 && w.size() != z.size())) {
    Rcpp::stop("the data, weights and dimensions do not match");
  }
  sideclust::MultiwayParams par;
  par.k = std::move(k);
  if (divergence == "euclidean") {
    par.divergence = sideclust::MultiwayDivergence::euclidean;
  } else if (divergence == "idivergence") {
    par.divergence = sideclust::MultiwayDivergence::idivergence;
  } else {
    Rcpp::stop("unknown divergence '%s'", divergence);
  }
  if (init == "kmeans++") {
    par.init = sideclust::MultiwayInit::kmeanspp;
  } else if (init == "random") {
    par.init = sideclust::MultiwayInit::random;
  } else {
    Rcpp::stop("unknown init '%s'", init);
  }
  par.max_iter = max_iter;
  par.restarts = restarts;
  for (R_xlen_t l = 0; l < start.size(); ++l) par.start.push_back(sideclust::zero_based(start[l]));
  sideclust::RHooks hooks(verbose, "iteration");
  const sideclust::MultiwayResult r = sideclust::multiway_fit(x, par, hooks);

  Rcpp::List clusters(r.clusters.size());
  for (std::size_t l = 0; l < r.clusters.size(); ++l) clusters[l] = sideclust::one_based(r.clusters[l]);
  return Rcpp::List::create(
      Rcpp::_["clusters"] = clusters, Rcpp::_["block_means"] = r.block_means,
      Rcpp::_["block_weight"] = r.block_weight, Rcpp::_["objective"] = r.objective,
      Rcpp::_["restart_objective"] = r.restart_objective, Rcpp::_["info_data"] = r.info_data,
      Rcpp::_["info_approx"] = r.info_approx, Rcpp::_["iterations"] = r.iterations,
      Rcpp::_["converged"] = r.converged);
}
