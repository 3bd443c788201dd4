// Glue for co-clustering: itcc() and cross_associations().
#include <Rcpp.h>

#include <vector>

#include "coclust/cross_associations.h"
#include "coclust/itcc.h"
#include "r_glue.h"
#include "r_joint.h"

// [[Rcpp::export(.itcc_cpp)]]
Rcpp::List itcc_cpp(Rcpp::List csr,
                    Rcpp::List options) {
  const sideclust::Options o(options);
  int k_rows = o.get<int>("k_rows");
  int k_cols = o.get<int>("k_cols");
  int max_iter = o.get<int>("max_iter");
  int restarts = o.get<int>("restarts");
  double tol = o.get<double>("tol");
  std::vector<int> start_rows = sideclust::zero_based(o.get<Rcpp::IntegerVector>("start_rows"));
  std::vector<int> start_cols = sideclust::zero_based(o.get<Rcpp::IntegerVector>("start_cols"));
  bool verbose = o.get<bool>("verbose");
  const sideclust::JointCsr p = sideclust::joint_from_r(csr);
  sideclust::ItccParams par;
  par.k_rows = k_rows;
  par.k_cols = k_cols;
  par.max_iter = max_iter;
  par.restarts = restarts;
  par.tol = tol;
  par.start_rows = std::move(start_rows);
  par.start_cols = std::move(start_cols);
  sideclust::RHooks hooks(verbose, "iteration");
  const sideclust::ItccResult r = sideclust::itcc_fit(p, par, hooks);
  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(r.rows),
      Rcpp::_["col_cluster"] = sideclust::one_based(r.cols), Rcpp::_["loss"] = r.loss,
      Rcpp::_["loss_trace"] = r.loss_trace, Rcpp::_["restart_loss"] = r.restart_loss,
      Rcpp::_["info_xy"] = r.info_xy, Rcpp::_["info_clusters"] = r.info_clusters,
      Rcpp::_["joint"] = sideclust::row_major(r.joint, k_rows, k_cols),
      Rcpp::_["iterations"] = r.iterations, Rcpp::_["converged"] = r.converged);
}

// [[Rcpp::export(.cross_associations_cpp)]]
Rcpp::List cross_associations_cpp(Rcpp::List csr,
                                  Rcpp::List options) {
  const sideclust::Options o(options);
  int max_groups = o.get<int>("max_groups");
  int split_tries = o.get<int>("split_tries");
  bool assignment_cost = o.get<bool>("assignment_cost");
  bool joint_splits = o.get<bool>("joint_splits");
  bool refine_splits = o.get<bool>("refine_splits");
  const sideclust::BinaryCsr m = sideclust::binary_from_r(csr);
  sideclust::CaParams par;
  par.max_groups = max_groups;
  par.split_tries = split_tries;
  par.assignment_cost = assignment_cost;
  par.joint_splits = joint_splits;
  par.refine_splits = refine_splits;
  sideclust::RHooks hooks(false);
  const sideclust::CaResult r = sideclust::cross_associations_fit(m, par, hooks);
  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(r.rows),
      Rcpp::_["col_cluster"] = sideclust::one_based(r.cols), Rcpp::_["k"] = r.k,
      Rcpp::_["l"] = r.l, Rcpp::_["cost"] = r.cost, Rcpp::_["trace"] = r.trace,
      Rcpp::_["k_trace"] = r.k_trace, Rcpp::_["l_trace"] = r.l_trace,
      Rcpp::_["splits_tried"] = r.splits_tried, Rcpp::_["regroups"] = r.regroups,
      Rcpp::_["interrupt_polls"] = static_cast<double>(hooks.polls()));
}
