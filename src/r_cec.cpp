// Glue for CEC / CEC-IB: maps R objects to the core and back.
#include <RcppEigen.h>

#include <string>
#include <vector>

#include "cec/cec.h"
#include "r_glue.h"

namespace {

sideclust::CecType cec_type(const std::string& type) {
  if (type == "full") return sideclust::CecType::full;
  if (type == "diagonal") return sideclust::CecType::diagonal;
  if (type == "spherical") return sideclust::CecType::spherical;
  Rcpp::stop("unknown type '%s'", type);
}

sideclust::CecInit cec_init(const std::string& init) {
  if (init == "kmeans++") return sideclust::CecInit::kmeanspp;
  if (init == "random") return sideclust::CecInit::random_points;
  if (init == "partition") return sideclust::CecInit::random_partition;
  Rcpp::stop("unknown init '%s'", init);
}

}  // namespace

// xt: p x n data; labels: 0-based (-1 unlabelled) or length 0; start:
// 0-based initial clusters or length 0; prior: p x p matrix added to every
// cluster's scatter (cov_reg times the data covariance), zeros for none;
// small_sample: expected instead of in-sample cross-entropy.
// [[Rcpp::export(.cec_cpp)]]
Rcpp::List cec_cpp(Eigen::Map<Eigen::MatrixXd> xt, std::vector<int> labels, int n_levels,
                   int k, std::string type, double beta, double eps, int max_iter,
                   int restarts, std::string init, std::vector<int> start,
                   Eigen::Map<Eigen::MatrixXd> prior, bool small_sample, bool verbose) {
  sideclust::CecParams par;
  par.k = k;
  par.type = cec_type(type);
  par.beta = beta;
  par.eps = eps;
  par.max_iter = max_iter;
  par.restarts = restarts;
  par.init = cec_init(init);
  par.start = std::move(start);
  par.prior = prior;
  par.small_sample = small_sample;
  sideclust::RHooks hooks(verbose, "pass");
  const sideclust::CecResult r = sideclust::cec_fit(xt, labels, n_levels, par, hooks);

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
      Rcpp::_["means"] = means, Rcpp::_["covariances"] = cov,
      Rcpp::_["sizes"] = r.sizes);
}
