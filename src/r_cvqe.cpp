// Glue for CVQE (constrained k-means with penalties): maps R objects to the
// core and back.
#include <RcppEigen.h>

#include <string>
#include <vector>

#include "kmeans/cvqe.h"
#include "r_glue.h"

// xt: p x n data; side: side_for_core() output (0-based pairs, signed
// weights); start: p x k initial prototypes, or a 0-column matrix.
// [[Rcpp::export(.cvqe_cpp)]]
Rcpp::List cvqe_cpp(Eigen::Map<Eigen::MatrixXd> xt, Rcpp::List side, int k, int restarts,
                    int max_iter, std::string init, Eigen::Map<Eigen::MatrixXd> start,
                    bool verbose) {
  sideclust::CvqePairs pairs;
  pairs.first = Rcpp::as<std::vector<int>>(side["i"]);
  pairs.second = Rcpp::as<std::vector<int>>(side["j"]);
  pairs.weight = Rcpp::as<std::vector<double>>(side["weight"]);
  sideclust::CvqeParams par;
  par.k = k;
  par.restarts = restarts;
  par.max_iter = max_iter;
  par.init = sideclust::seed_init(init);
  if (par.init == sideclust::SeedInit::start) par.start = start;
  sideclust::RHooks hooks(verbose, "iteration");
  const sideclust::CvqeResult r = sideclust::cvqe_fit(xt, pairs, par, hooks);

  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(r.cluster), Rcpp::_["centres"] = Rcpp::wrap(r.centres),
      Rcpp::_["k"] = r.k, Rcpp::_["objective"] = r.objective, Rcpp::_["within"] = r.within,
      Rcpp::_["penalty"] = r.penalty, Rcpp::_["iterations"] = r.iterations,
      Rcpp::_["converged"] = r.converged);
}
