// Glue for the information-bottleneck family: ib(), aib(), sib(), and the
// placement costs of their predict() methods.
#include <Rcpp.h>

#include <algorithm>
#include <vector>

#include "info/aib.h"
#include "info/ib_predict.h"
#include "info/iterative_ib.h"
#include "r_glue.h"
#include "r_joint.h"
#include "info/sib.h"

// [[Rcpp::export(.sib_cpp)]]
Rcpp::List sib_cpp(Rcpp::List csr,
                   Rcpp::List options) {
  const sideclust::Options o(options);
  int k = o.get<int>("k");
  int max_iter = o.get<int>("max_iter");
  int restarts = o.get<int>("restarts");
  std::vector<int> start = sideclust::zero_based(o.get<Rcpp::IntegerVector>("start"));
  bool verbose = o.get<bool>("verbose");
  const sideclust::JointCsr p = sideclust::joint_from_r(csr);
  sideclust::SibParams par;
  par.k = k;
  par.max_iter = max_iter;
  par.restarts = restarts;
  par.start = std::move(start);
  sideclust::RHooks hooks(verbose, "pass");
  const sideclust::SibResult r = sideclust::sib_fit(p, par, hooks);
  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(r.cluster), Rcpp::_["info_y"] = r.info_y,
      Rcpp::_["info_x"] = r.info_x, Rcpp::_["info_xy"] = sideclust::mutual_information(p),
      Rcpp::_["trace"] = r.trace, Rcpp::_["restart_info"] = r.restart_info,
      Rcpp::_["iterations"] = r.iterations, Rcpp::_["converged"] = r.converged,
      Rcpp::_["moves"] = static_cast<double>(r.moves), Rcpp::_["pass_seconds"] = r.pass_seconds);
}

// The cluster joint q(c, y) of a CSR joint (normalized) for 1-based clusters.
// [[Rcpp::export(.cluster_joint_cpp)]]
Rcpp::NumericMatrix cluster_joint_cpp(Rcpp::List csr, Rcpp::IntegerVector cluster, int k) {
  const sideclust::JointCsr p = sideclust::joint_from_r(csr);
  if (cluster.size() != p.n_rows) throw std::invalid_argument("one cluster per row is needed");
  const std::vector<double> q = sideclust::cluster_joint(p, sideclust::zero_based(cluster), k);
  Rcpp::NumericMatrix out(k, p.n_cols);
  std::copy(q.begin(), q.end(), out.begin());
  return out;
}

// [[Rcpp::export(.aib_cpp)]]
Rcpp::List aib_cpp(Rcpp::List csr) {
  const sideclust::JointCsr p = sideclust::joint_from_r(csr);
  sideclust::RHooks hooks(false);
  const sideclust::AibResult r = sideclust::aib_fit(p, hooks);
  const int steps = static_cast<int>(r.merge1.size());
  Rcpp::IntegerMatrix merge(steps, 2);
  for (int s = 0; s < steps; ++s) {
    merge(s, 0) = r.merge1[s];
    merge(s, 1) = r.merge2[s];
  }
  return Rcpp::List::create(Rcpp::_["merge"] = merge, Rcpp::_["loss"] = r.loss,
                            Rcpp::_["info_y"] = r.info_y, Rcpp::_["info_x"] = r.info_x,
                            Rcpp::_["order"] = r.order, Rcpp::_["info_xy"] = r.info_xy);
}

// [[Rcpp::export(.ib_cpp)]]
Rcpp::List ib_cpp(Rcpp::List csr,
                  Rcpp::List options) {
  const sideclust::Options o(options);
  int k = o.get<int>("k");
  double beta = o.get<double>("beta");
  int max_iter = o.get<int>("max_iter");
  int restarts = o.get<int>("restarts");
  double tol = o.get<double>("tol");
  bool verbose = o.get<bool>("verbose");
  const sideclust::JointCsr p = sideclust::joint_from_r(csr);
  sideclust::IbParams par;
  par.k = k;
  par.beta = beta;
  par.max_iter = max_iter;
  par.restarts = restarts;
  par.tol = tol;
  sideclust::RHooks hooks(verbose, "iteration");
  const sideclust::IbResult r = sideclust::ib_fit(p, par, hooks);
  return Rcpp::List::create(
      Rcpp::_["pcx"] = sideclust::row_major(r.pcx, p.n_rows, k), Rcpp::_["pc"] = r.pc,
      Rcpp::_["pyc"] = sideclust::row_major(r.qyc, k, p.n_cols), Rcpp::_["info_x"] = r.info_x,
      Rcpp::_["info_y"] = r.info_y, Rcpp::_["info_xy"] = sideclust::mutual_information(p),
      Rcpp::_["objective"] = r.objective, Rcpp::_["trace"] = r.trace,
      Rcpp::_["restart_objective"] = r.restart_objective, Rcpp::_["iterations"] = r.iterations,
      Rcpp::_["converged"] = r.converged);
}

// Merge costs of new rows (a CSR list) into the clusters of a fit whose
// cluster joint p(c, y) is the k x m matrix `joint`; the rows' masses are put
// on the fitted scale by their total over `fitted_total`.
// [[Rcpp::export(.ib_merge_costs_cpp)]]
Rcpp::NumericMatrix ib_merge_costs_cpp(Rcpp::List csr, double new_total, double fitted_total,
                                       Rcpp::NumericMatrix joint, double inv_beta) {
  const sideclust::JointCsr rows = sideclust::joint_from_r(csr);
  const int k = joint.nrow();
  const std::vector<double> d = sideclust::merge_costs(
      rows, new_total / fitted_total, Rcpp::as<std::vector<double>>(joint), k, inv_beta);
  Rcpp::NumericMatrix out(rows.n_rows, k);
  std::copy(d.begin(), d.end(), out.begin());
  return out;
}

// KL of new rows (normalized) to the rows of the k x m conditional `q`; with
// fitted_total > 0, to each cluster's distribution once the row has joined
// it (cluster masses pc, the rows' masses put on the fitted scale).
// [[Rcpp::export(.ib_kl_costs_cpp)]]
Rcpp::NumericMatrix ib_kl_costs_cpp(Rcpp::List csr, Rcpp::NumericMatrix q, double new_total,
                                    double fitted_total, std::vector<double> pc) {
  const sideclust::JointCsr rows = sideclust::joint_from_r(csr);
  const int k = q.nrow();
  const double scale = fitted_total > 0.0 ? new_total / fitted_total : 0.0;
  const std::vector<double> d =
      sideclust::kl_costs(rows, Rcpp::as<std::vector<double>>(q), k, scale, pc);
  Rcpp::NumericMatrix out(rows.n_rows, k);
  std::copy(d.begin(), d.end(), out.begin());
  return out;
}
