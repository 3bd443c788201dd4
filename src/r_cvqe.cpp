// Glue for CVQE (constrained k-means with penalties): maps R objects to the
// core and back. No algorithm here.
#include <RcppEigen.h>

#include <string>

#include "pairwise/cvqe.h"
#include "r_glue.h"
#include "r_prototype.h"

namespace {

sideclust::CvqeParams cvqe_params(const sideclust::Options& o) {
  sideclust::CvqeParams par;
  par.init = sideclust::seed_init(o.get<std::string>("init"));
  sideclust::read_prototype_params(o, par, par.init == sideclust::SeedInit::start);
  return par;
}

}  // namespace

// xt: p x n data or sparse points (see with_rows() in r_glue.h); side: the
// validated pairs (labels are expanded in R) or NULL; options: k, restarts,
// max_iter, init, start (p x k prototypes), verbose.
// [[Rcpp::export(.cvqe_cpp)]]
Rcpp::List cvqe_cpp(SEXP xt, SEXP side, Rcpp::List options) {
  const sideclust::Options o(options);
  const sideclust::CvqeParams par = cvqe_params(o);
  sideclust::RHooks hooks(o.get<bool>("verbose"), "iteration");
  const sideclust::CvqeResult r = sideclust::with_rows(xt, [&](const auto& rows) {
    const sideclust::SideInfo s = sideclust::side_from_r(side, rows.n());
    return sideclust::cvqe_fit(rows, s.pairs, par, hooks);
  });

  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(r.cluster), Rcpp::_["centers"] = Rcpp::wrap(r.centres),
      Rcpp::_["k"] = r.k, Rcpp::_["objective"] = r.objective, Rcpp::_["within"] = r.within,
      Rcpp::_["penalty"] = r.penalty, Rcpp::_["iterations"] = r.iterations,
      Rcpp::_["converged"] = r.converged);
}
