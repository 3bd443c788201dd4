// Glue for COP-k-means (hard must-link / cannot-link constraints): maps R
// objects to the core and back. No algorithm here.
#include <RcppEigen.h>

#include <string>

#include "pairwise/cop_kmeans.h"
#include "r_glue.h"
#include "r_kernels.h"
#include "r_prototype.h"

namespace {

sideclust::CopKmeansParams cop_kmeans_params(const sideclust::Options& o) {
  sideclust::CopKmeansParams par;
  par.init = sideclust::seed_init(o.get<std::string>("init"));
  sideclust::read_prototype_params(o, par, par.init == sideclust::SeedInit::start);
  par.random_order = o.get<std::string>("order") == "random";
  par.nearest = o.get<std::string>("infeasible") == "nearest";
  par.use_avx = sideclust::avx_allowed(o);
  return par;
}

const char* status_name(sideclust::CopStatus s) {
  switch (s) {
    case sideclust::CopStatus::linked_conflict: return "linked_conflict";
    case sideclust::CopStatus::no_feasible: return "no_feasible";
    default: return "ok";
  }
}

}  // namespace

// xt: p x n data; side: the validated pairs (labels are expanded in R) or
// NULL; options: k, restarts, max_iter, init, start (p x k prototypes),
// order, infeasible, verbose and use_avx (TRUE when absent; FALSE: the
// portable distances, for tests). Pair indices come back 1-based (rows of side).
// [[Rcpp::export(.cop_kmeans_cpp)]]
Rcpp::List cop_kmeans_cpp(Eigen::Map<Eigen::MatrixXd> xt, SEXP side, Rcpp::List options) {
  const sideclust::Options o(options);
  const sideclust::CopKmeansParams par = cop_kmeans_params(o);
  // the pair list alone: the core reads the pairs in their order (the
  // must-link chain of an error builds its own adjacency)
  const sideclust::SideInfo s =
      sideclust::side_from_r(side, static_cast<int>(xt.cols()), nullptr, sideclust::PairForm::list);
  sideclust::RHooks hooks(o.get<bool>("verbose"), "iteration");
  const sideclust::CopKmeansResult r = sideclust::cop_kmeans_fit(xt, s.pairs, par, hooks);

  return Rcpp::List::create(
      Rcpp::_["status"] = status_name(r.status), Rcpp::_["cluster"] = sideclust::one_based(r.cluster),
      Rcpp::_["centers"] = Rcpp::wrap(r.centres), Rcpp::_["k"] = r.k,
      Rcpp::_["objective"] = r.objective, Rcpp::_["within"] = r.within,
      Rcpp::_["broken"] = sideclust::one_based(r.broken), Rcpp::_["iterations"] = r.iterations,
      Rcpp::_["converged"] = r.converged, Rcpp::_["failed_runs"] = r.failed_runs,
      Rcpp::_["conflict"] = r.conflict + 1, Rcpp::_["path"] = sideclust::one_based(r.path),
      Rcpp::_["blocked_points"] = sideclust::one_based(r.blocked_points),
      Rcpp::_["blocking"] = sideclust::one_based(r.blocking));
}
