// Glue for disparate k-means: maps R objects to the core and back.
#include <RcppEigen.h>

#include <string>
#include <vector>

#include "disparate/disparate_kmeans.h"
#include "r_glue.h"

// xt: p x n centred data; start1, start2: p x k1, p x k2 centred prototypes
// (used only when init is "start").
// [[Rcpp::export(.disparate_kmeans_cpp)]]
Rcpp::List disparate_kmeans_cpp(Eigen::Map<Eigen::MatrixXd> xt,
                                Rcpp::List options) {
  const sideclust::Options o(options);
  int k1 = o.get<int>("k1");
  int k2 = o.get<int>("k2");
  double lambda = o.get<double>("lambda");
  int restarts = o.get<int>("restarts");
  int max_iter = o.get<int>("max_iter");
  std::string init = o.get<std::string>("init");
  Eigen::MatrixXd start1 = o.get<Eigen::MatrixXd>("start1");
  Eigen::MatrixXd start2 = o.get<Eigen::MatrixXd>("start2");
  bool verbose = o.get<bool>("verbose");
  sideclust::DisparateParams par;
  par.k1 = k1;
  par.k2 = k2;
  par.lambda = lambda;
  par.restarts = restarts;
  par.max_iter = max_iter;
  par.init = sideclust::seed_init(init);
  if (par.init == sideclust::SeedInit::start) {
    par.start1 = start1;
    par.start2 = start2;
  }
  sideclust::RHooks hooks(verbose, "iteration");
  const sideclust::DisparateResult r = sideclust::disparate_kmeans(xt, par, hooks);
  return Rcpp::List::create(
      Rcpp::_["cluster1"] = sideclust::one_based(r.cluster1), Rcpp::_["cluster2"] = sideclust::one_based(r.cluster2),
      Rcpp::_["centers1"] = Rcpp::wrap(r.centres1), Rcpp::_["centers2"] = Rcpp::wrap(r.centres2),
      Rcpp::_["objective"] = r.objective,
      Rcpp::_["within"] = Rcpp::NumericVector::create(r.within1, r.within2),
      Rcpp::_["penalty"] = r.penalty, Rcpp::_["iterations"] = r.iterations,
      Rcpp::_["converged"] = r.converged, Rcpp::_["inner_rounds"] = r.inner_rounds,
      Rcpp::_["newton_steps"] = r.newton_steps);
}
