// Glue for LCVQE (k-means with soft, linear-time constraint penalties): maps
// R objects to the core and back. No algorithm here.
#include <RcppEigen.h>

#include <string>

#include "pairwise/lcvqe.h"
#include "r_glue.h"
#include "r_kernels.h"
#include "r_prototype.h"

namespace {

sideclust::LcvqeParams lcvqe_params(const sideclust::Options& o) {
  sideclust::LcvqeParams par;
  par.init = sideclust::seed_init(o.get<std::string>("init"));
  sideclust::read_prototype_params(o, par, par.init == sideclust::SeedInit::start);
  par.random_order = o.get<std::string>("order") == "random";
  par.group_moves = o.get<bool>("group_moves");
  par.use_avx = sideclust::avx_allowed(o);
  if (o.has("threads")) par.threads = o.get<int>("threads");
  return par;
}

}  // namespace

// xt: p x n data; side: the validated pairs (labels are expanded in R) or
// NULL; options: k, restarts, max_iter, init, start (p x k centres), order,
// group_moves, verbose, use_avx (TRUE when absent; FALSE: the portable
// distances, for tests) and threads (1 when absent).
// [[Rcpp::export(.lcvqe_cpp)]]
Rcpp::List lcvqe_cpp(Eigen::Map<Eigen::MatrixXd> xt, SEXP side, Rcpp::List options) {
  const sideclust::Options o(options);
  const sideclust::LcvqeParams par = lcvqe_params(o);
  const sideclust::SideInfo s = sideclust::side_from_r(side, static_cast<int>(xt.cols()));
  sideclust::RHooks hooks(o.get<bool>("verbose"), "iteration");
  const sideclust::LcvqeResult r = sideclust::lcvqe_fit(xt, s.pairs, par, hooks);

  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(r.cluster), Rcpp::_["centers"] = Rcpp::wrap(r.centres),
      Rcpp::_["k"] = r.k, Rcpp::_["objective"] = r.objective, Rcpp::_["within"] = r.within,
      Rcpp::_["penalty"] = r.penalty, Rcpp::_["iterations"] = r.iterations,
      Rcpp::_["converged"] = r.converged);
}
