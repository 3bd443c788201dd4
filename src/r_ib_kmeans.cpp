// Glue for k-means as an information bottleneck: maps R objects to the core
// and back.
#include <RcppEigen.h>

#include <string>

#include "info/ib_kmeans.h"
#include "r_glue.h"

// xt: p x n data; start: p x k initial prototypes, or a 0-column matrix.
// [[Rcpp::export(.ib_kmeans_cpp)]]
Rcpp::List ib_kmeans_cpp(Eigen::Map<Eigen::MatrixXd> xt,
                         Rcpp::List options) {
  const sideclust::Options o(options);
  int k = o.get<int>("k");
  double beta = o.get<double>("beta");
  double s = o.get<double>("s");
  bool normalize_over_data = o.get<bool>("normalize_over_data");
  int restarts = o.get<int>("restarts");
  int max_iter = o.get<int>("max_iter");
  double tol = o.get<double>("tol");
  std::string init = o.get<std::string>("init");
  Eigen::MatrixXd start = o.get<Eigen::MatrixXd>("start");
  bool verbose = o.get<bool>("verbose");
  sideclust::IbKmeansParams par;
  par.k = k;
  par.beta = beta;
  par.s = s;
  par.normalize_over_data = normalize_over_data;
  par.restarts = restarts;
  par.max_iter = max_iter;
  par.tol = tol;
  par.init = sideclust::seed_init(init);
  if (par.init == sideclust::SeedInit::start) par.start = start;
  sideclust::RHooks hooks(verbose, "iteration");
  const sideclust::IbKmeansResult r = sideclust::ib_kmeans_fit(xt, par, hooks);
  return Rcpp::List::create(
      Rcpp::_["membership"] = Rcpp::wrap(r.membership), Rcpp::_["centers"] = Rcpp::wrap(r.centres),
      Rcpp::_["pc"] = Rcpp::wrap(r.pc), Rcpp::_["log_z"] = Rcpp::wrap(r.log_z),
      Rcpp::_["objective"] = r.objective, Rcpp::_["info_x"] = r.info_x,
      Rcpp::_["distortion"] = r.distortion, Rcpp::_["iterations"] = r.iterations,
      Rcpp::_["converged"] = r.converged);
}

// Memberships p(c|x) of the columns of xt under a fit's p(c), prototypes
// (p x k) and log Z(c, s).
// [[Rcpp::export(.ib_kmeans_memberships_cpp)]]
Eigen::MatrixXd ib_kmeans_memberships_cpp(Eigen::Map<Eigen::MatrixXd> xt,
                                          Eigen::Map<Eigen::MatrixXd> centers,
                                          Eigen::Map<Eigen::VectorXd> pc,
                                          Eigen::Map<Eigen::VectorXd> log_z, double beta,
                                          double s) {
  return sideclust::ib_kmeans_memberships(xt, centers, pc, log_z, beta, s);
}
