// Glue for CEC / CEC-IB: maps R objects to the core and back.
#include <RcppEigen.h>

#include <string>
#include <vector>

#include "cec/cec_split.h"
#include "r_glue.h"

namespace {

// The families, one per initial cluster: `types` holds R's 0-based codes
// (the order of sideclust::CecType), `param_cov` the p x p fixed covariances
// side by side (p x pk), `param_vec` the eigenvalues or fixed means (p x k),
// `radius` the fixed variances (k); unused entries are ignored.
std::vector<sideclust::CecFamily> cec_families(const sideclust::Options& o) {
  const Rcpp::IntegerVector types = o.get<Rcpp::IntegerVector>("types");
  const Eigen::MatrixXd cov = o.get<Eigen::MatrixXd>("param_cov");
  const Eigen::MatrixXd vec = o.get<Eigen::MatrixXd>("param_vec");
  const Rcpp::NumericVector radius = o.get<Rcpp::NumericVector>("radius");
  const int p = static_cast<int>(vec.rows());
  std::vector<sideclust::CecFamily> fams(types.size());
  for (R_xlen_t a = 0; a < types.size(); ++a) {
    if (types[a] < 0 || types[a] > 6) Rcpp::stop("internal: unknown CEC family code %d", types[a]);
    sideclust::CecFamily& f = fams[a];
    f.type = static_cast<sideclust::CecType>(types[a]);
    f.cov = cov.middleCols(a * p, p);
    f.vec = vec.col(a);
    f.radius = radius[a];
  }
  return fams;
}

sideclust::CecInit cec_init(const std::string& init) {
  if (init == "greedy") return sideclust::CecInit::greedy_kmeanspp;
  if (init == "kmeans++") return sideclust::CecInit::kmeanspp;
  if (init == "random") return sideclust::CecInit::random_points;
  if (init == "partition") return sideclust::CecInit::random_partition;
  Rcpp::stop("unknown init '%s'", init);
}

sideclust::CecParams cec_params(const sideclust::Options& o) {
  sideclust::CecParams par;
  par.k = o.get<int>("k");
  par.families = cec_families(o);
  par.beta = o.get<double>("beta");
  par.eps = o.get<double>("eps");
  par.max_iter = o.get<int>("max_iter");
  par.restarts = o.get<int>("restarts");
  par.init = cec_init(o.get<std::string>("init"));
  par.start = sideclust::zero_based(o.get<Rcpp::IntegerVector>("start"));
  par.prior = o.get<Eigen::MatrixXd>("prior");
  par.small_sample = o.get<bool>("small_sample");
  par.split = o.get<bool>("split");
  par.max_k = o.get<int>("max_k");
  par.split_tries = o.get<int>("split_tries");
  if (o.has("split_penalty")) {
    par.split_penalty = o.get<std::vector<double>>("split_penalty");
  }
  return par;
}

}  // namespace

// xt: p x n data; labels: the validated partial labels or NULL; options: k,
// types, param_cov, param_vec, radius (the families, see cec_families()), beta, eps, max_iter, restarts, init, start (1-based initial clusters
// or length 0), prior (p x p matrix added to every cluster's scatter: cov_reg
// times the data covariance, zeros for none), small_sample (expected instead
// of in-sample cross-entropy), split, max_k (0: no limit), split_tries and
// optionally split_penalty (one per family; split mode, see cec_split.h),
// verbose.
// [[Rcpp::export(.cec_cpp)]]
Rcpp::List cec_cpp(Eigen::Map<Eigen::MatrixXd> xt, SEXP labels, Rcpp::List options) {
  const sideclust::Options o(options);
  const sideclust::CecParams par = cec_params(o);
  const sideclust::SideInfo side = sideclust::side_from_r(labels, static_cast<int>(xt.cols()));
  sideclust::RHooks hooks(o.get<bool>("verbose"), "pass");
  const sideclust::CecResult r = sideclust::cec_search(xt, side.labels, par, hooks);

  const int p = static_cast<int>(xt.rows());
  Rcpp::NumericMatrix means(p, r.k);
  std::copy(r.means.data(), r.means.data() + p * r.k, means.begin());
  Rcpp::NumericVector cov(Rcpp::Dimension(p, p, r.k));
  for (int a = 0; a < r.k; ++a) {
    std::copy(r.covariances[a].data(), r.covariances[a].data() + p * p,
              cov.begin() + static_cast<R_xlen_t>(a) * p * p);
  }
  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(r.cluster), Rcpp::_["k"] = r.k,
      Rcpp::_["cost"] = r.cost,
      Rcpp::_["cost_parts"] = Rcpp::NumericVector::create(
          Rcpp::_["entropy"] = r.entropy, Rcpp::_["cross_entropy"] = r.cross_entropy,
          Rcpp::_["labels"] = r.labels),
      Rcpp::_["objective"] = r.objective, Rcpp::_["k_trace"] = r.k_trace,
      Rcpp::_["iterations"] = r.iterations, Rcpp::_["converged"] = r.converged,
      Rcpp::_["centers"] = means, Rcpp::_["covariances"] = cov,
      Rcpp::_["sizes"] = r.sizes, Rcpp::_["origin"] = sideclust::one_based(r.origin),
      Rcpp::_["history_k"] = r.history_k, Rcpp::_["history_cost"] = r.history_cost,
      Rcpp::_["history_event"] = r.history_event);
}
