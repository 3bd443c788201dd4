// Glue exposing the conjugate cluster families to R's tests: add the columns
// of `add`, remove those of `remove`, then report the posterior predictive at
// the columns of `query` and the log marginal likelihood.
#include <RcppEigen.h>

#include "tvclust/conjugate_simple.h"
#include "tvclust/niw.h"

namespace {

// Runs the add / remove / query protocol on any cluster family.
template <class Cluster>
Rcpp::List check_family(Cluster& cluster, const Eigen::MatrixXd& add,
                        const Eigen::MatrixXd& remove, const Eigen::MatrixXd& query) {
  for (Eigen::Index j = 0; j < add.cols(); ++j) cluster.add(add.col(j));
  for (Eigen::Index j = 0; j < remove.cols(); ++j) cluster.remove(remove.col(j));
  Eigen::VectorXd pred(query.cols());
  for (Eigen::Index j = 0; j < query.cols(); ++j) pred(j) = cluster.log_predictive(query.col(j));
  return Rcpp::List::create(Rcpp::_["log_predictive"] = pred,
                            Rcpp::_["log_marginal"] = cluster.log_marginal(),
                            Rcpp::_["n"] = cluster.size());
}

}  // namespace

// [[Rcpp::export(.niw_check_cpp)]]
Rcpp::List niw_check_cpp(const Eigen::MatrixXd& add, const Eigen::MatrixXd& remove,
                         const Eigen::MatrixXd& query, const Eigen::VectorXd& m0,
                         double kappa0, double nu0, const Eigen::MatrixXd& S0) {
  sideclust::NiwPrior prior{m0, kappa0, nu0, S0};
  sideclust::NiwCluster cluster(prior);
  Rcpp::List out = check_family(cluster, add, remove, query);
  out["mean"] = cluster.mean();
  return out;
}


// [[Rcpp::export(.normal_gamma_check_cpp)]]
Rcpp::List normal_gamma_check_cpp(const Eigen::MatrixXd& add, const Eigen::MatrixXd& remove,
                                  const Eigen::MatrixXd& query, const Eigen::VectorXd& m0,
                                  double kappa0, double a0, const Eigen::VectorXd& b0) {
  sideclust::NormalGammaPrior prior{m0, kappa0, a0, b0};
  sideclust::NormalGammaCluster cluster(prior);
  return check_family(cluster, add, remove, query);
}

// [[Rcpp::export(.dirichlet_multinomial_check_cpp)]]
Rcpp::List dirichlet_multinomial_check_cpp(const Eigen::MatrixXd& add,
                                           const Eigen::MatrixXd& remove,
                                           const Eigen::MatrixXd& query,
                                           const Eigen::VectorXd& alpha) {
  sideclust::DirichletMultinomialCluster cluster(alpha);
  return check_family(cluster, add, remove, query);
}
