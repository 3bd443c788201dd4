// Glue for the multivariate information bottleneck: parallel_ib(),
// symmetric_ib(), each sequential (hard) or iterative (soft).
#include <Rcpp.h>

#include <vector>

#include "info/iterative_parallel_ib.h"
#include "info/iterative_symmetric_ib.h"
#include "info/parallel_ib.h"
#include "r_glue.h"
#include "r_joint.h"
#include "info/symmetric_ib.h"

// k: clusters per clustering; start: 1-based n x m column-major or empty.
// [[Rcpp::export(.parallel_ib_cpp)]]
Rcpp::List parallel_ib_cpp(Rcpp::List csr,
                           Rcpp::List options) {
  const sideclust::Options o(options);
  std::vector<int> k = o.get<std::vector<int>>("k");
  double inv_beta = o.get<double>("inv_beta");
  int max_iter = o.get<int>("max_iter");
  int restarts = o.get<int>("restarts");
  std::vector<int> start = sideclust::zero_based(o.get<Rcpp::IntegerVector>("start"));
  bool greedy = o.get<bool>("greedy");
  bool verbose = o.get<bool>("verbose");
  const sideclust::JointCsr p = sideclust::joint_from_r(csr);
  sideclust::ParallelIbParams par;
  par.k = std::move(k);
  par.inv_beta = inv_beta;
  par.max_iter = max_iter;
  par.restarts = restarts;
  par.start = std::move(start);
  par.greedy = greedy;
  sideclust::RHooks hooks(verbose, "pass");
  const sideclust::ParallelIbResult r = sideclust::parallel_ib_fit(p, par, hooks);
  Rcpp::IntegerVector cluster = sideclust::one_based(r.cluster);
  cluster.attr("dim") = Rcpp::Dimension(p.n_rows, static_cast<int>(par.k.size()));
  return Rcpp::List::create(
      Rcpp::_["cluster"] = cluster, Rcpp::_["objective"] = r.objective,
      Rcpp::_["info_y"] = r.info_y, Rcpp::_["info_x"] = r.info_x,
      Rcpp::_["info_y_each"] = r.info_y_each, Rcpp::_["info_xy"] = sideclust::mutual_information(p),
      Rcpp::_["trace"] = r.trace, Rcpp::_["restart_objective"] = r.restart_objective,
      Rcpp::_["iterations"] = r.iterations, Rcpp::_["init_passes"] = r.init_passes,
      Rcpp::_["converged"] = r.converged, Rcpp::_["moves"] = static_cast<double>(r.moves),
      Rcpp::_["pass_seconds"] = r.pass_seconds);
}

// [[Rcpp::export(.symmetric_ib_cpp)]]
Rcpp::List symmetric_ib_cpp(Rcpp::List csr,
                            Rcpp::List options) {
  const sideclust::Options o(options);
  int k_rows = o.get<int>("k_rows");
  int k_cols = o.get<int>("k_cols");
  double inv_beta = o.get<double>("inv_beta");
  int max_iter = o.get<int>("max_iter");
  int restarts = o.get<int>("restarts");
  std::vector<int> start_rows = sideclust::zero_based(o.get<Rcpp::IntegerVector>("start_rows"));
  std::vector<int> start_cols = sideclust::zero_based(o.get<Rcpp::IntegerVector>("start_cols"));
  bool verbose = o.get<bool>("verbose");
  const sideclust::JointCsr p = sideclust::joint_from_r(csr);
  sideclust::SymmetricIbParams par;
  par.k_rows = k_rows;
  par.k_cols = k_cols;
  par.inv_beta = inv_beta;
  par.max_iter = max_iter;
  par.restarts = restarts;
  par.start_rows = std::move(start_rows);
  par.start_cols = std::move(start_cols);
  sideclust::RHooks hooks(verbose, "pass");
  const sideclust::SymmetricIbResult r = sideclust::symmetric_ib_fit(p, par, hooks);
  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(r.rows),
      Rcpp::_["col_cluster"] = sideclust::one_based(r.cols), Rcpp::_["objective"] = r.objective,
      Rcpp::_["info_clusters"] = r.info_clusters, Rcpp::_["info_rows"] = r.info_rows,
      Rcpp::_["info_cols"] = r.info_cols, Rcpp::_["info_xy"] = sideclust::mutual_information(p),
      Rcpp::_["joint"] = sideclust::row_major(r.joint, k_rows, k_cols),
      Rcpp::_["trace"] = r.trace, Rcpp::_["restart_objective"] = r.restart_objective,
      Rcpp::_["iterations"] = r.iterations, Rcpp::_["converged"] = r.converged,
      Rcpp::_["moves"] = static_cast<double>(r.moves), Rcpp::_["pass_seconds"] = r.pass_seconds);
}

// [[Rcpp::export(.iterative_symmetric_ib_cpp)]]
Rcpp::List iterative_symmetric_ib_cpp(Rcpp::List csr,
                                      Rcpp::List options) {
  const sideclust::Options o(options);
  int k_rows = o.get<int>("k_rows");
  int k_cols = o.get<int>("k_cols");
  double beta = o.get<double>("beta");
  int max_iter = o.get<int>("max_iter");
  int restarts = o.get<int>("restarts");
  double tol = o.get<double>("tol");
  std::vector<int> start_rows = sideclust::zero_based(o.get<Rcpp::IntegerVector>("start_rows"));
  std::vector<int> start_cols = sideclust::zero_based(o.get<Rcpp::IntegerVector>("start_cols"));
  bool verbose = o.get<bool>("verbose");
  const sideclust::JointCsr p = sideclust::joint_from_r(csr);
  sideclust::IterativeSymmetricIbParams par;
  par.k_rows = k_rows;
  par.k_cols = k_cols;
  par.beta = beta;
  par.max_iter = max_iter;
  par.restarts = restarts;
  par.tol = tol;
  par.start_rows = std::move(start_rows);
  par.start_cols = std::move(start_cols);
  sideclust::RHooks hooks(verbose, "iteration");
  const sideclust::IterativeSymmetricIbResult r =
      sideclust::iterative_symmetric_ib_fit(p, par, hooks);
  return Rcpp::List::create(
      Rcpp::_["membership"] = sideclust::row_major(r.rows, p.n_rows, k_rows),
      Rcpp::_["col_membership"] = sideclust::row_major(r.cols, p.n_cols, k_cols),
      Rcpp::_["joint"] = sideclust::row_major(r.joint, k_rows, k_cols),
      Rcpp::_["objective"] = r.objective, Rcpp::_["info_clusters"] = r.info_clusters,
      Rcpp::_["info_rows"] = r.info_rows, Rcpp::_["info_cols"] = r.info_cols,
      Rcpp::_["info_xy"] = sideclust::mutual_information(p), Rcpp::_["trace"] = r.trace,
      Rcpp::_["restart_objective"] = r.restart_objective, Rcpp::_["iterations"] = r.iterations,
      Rcpp::_["converged"] = r.converged);
}

// [[Rcpp::export(.iterative_parallel_ib_cpp)]]
Rcpp::List iterative_parallel_ib_cpp(Rcpp::List csr,
                                     Rcpp::List options) {
  const sideclust::Options o(options);
  std::vector<int> k = o.get<std::vector<int>>("k");
  double beta = o.get<double>("beta");
  int max_iter = o.get<int>("max_iter");
  int restarts = o.get<int>("restarts");
  double tol = o.get<double>("tol");
  std::vector<int> start = sideclust::zero_based(o.get<Rcpp::IntegerVector>("start"));
  bool verbose = o.get<bool>("verbose");
  const sideclust::JointCsr p = sideclust::joint_from_r(csr);
  sideclust::IterativeParallelIbParams par;
  par.k = std::move(k);
  par.beta = beta;
  par.max_iter = max_iter;
  par.restarts = restarts;
  par.tol = tol;
  par.start = std::move(start);
  sideclust::RHooks hooks(verbose, "iteration");
  const sideclust::IterativeParallelIbResult r =
      sideclust::iterative_parallel_ib_fit(p, par, hooks);
  Rcpp::List membership(par.k.size());
  for (std::size_t j = 0; j < par.k.size(); ++j) {
    membership[j] = sideclust::row_major(r.pcx[j], p.n_rows, par.k[j]);
  }
  return Rcpp::List::create(
      Rcpp::_["membership"] = membership, Rcpp::_["objective"] = r.objective,
      Rcpp::_["info_y"] = r.info_y, Rcpp::_["info_x"] = r.info_x,
      Rcpp::_["info_y_each"] = r.info_y_each, Rcpp::_["info_xy"] = sideclust::mutual_information(p),
      Rcpp::_["trace"] = r.trace, Rcpp::_["restart_objective"] = r.restart_objective,
      Rcpp::_["iterations"] = r.iterations, Rcpp::_["converged"] = r.converged);
}
