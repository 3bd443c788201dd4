// Glue for kpartite_clustering(): relation CSRs prepared by R (0-based
// list(ptr, idx, val, n_rows, n_cols), 1-based types) to the core.
#include <Rcpp.h>

#include <string>
#include <vector>

#include "coclust/kpartite.h"
#include "r_glue.h"
#include "r_joint.h"

// [[Rcpp::export(.kpartite_cpp)]]
Rcpp::List kpartite_cpp(Rcpp::List relations,
                        Rcpp::List options) {
  const sideclust::Options o(options);
  std::vector<int> row_type = sideclust::zero_based(o.get<Rcpp::IntegerVector>("row_type"));
  std::vector<int> col_type = sideclust::zero_based(o.get<Rcpp::IntegerVector>("col_type"));
  std::vector<int> n_vertices = o.get<std::vector<int>>("n_vertices");
  std::vector<int> k = o.get<std::vector<int>>("k");
  std::string divergence = o.get<std::string>("divergence");
  int max_iter = o.get<int>("max_iter");
  int restarts = o.get<int>("restarts");
  double tol = o.get<double>("tol");
  Rcpp::List start = o.get<Rcpp::List>("start");
  bool verbose = o.get<bool>("verbose");
  if (static_cast<R_xlen_t>(row_type.size()) != relations.size() ||
      static_cast<R_xlen_t>(col_type.size()) != relations.size()) {
    Rcpp::stop("one row and one column type per relation");
  }
  std::vector<sideclust::KpRelation> rel;
  for (R_xlen_t r = 0; r < relations.size(); ++r) {
    const Rcpp::List csr = relations[r];
    rel.push_back(sideclust::make_kp_relation(
        row_type[r], col_type[r], Rcpp::as<int>(csr["n_rows"]), Rcpp::as<int>(csr["n_cols"]),
        Rcpp::as<std::vector<int>>(csr["ptr"]), Rcpp::as<std::vector<int>>(csr["idx"]),
        Rcpp::as<std::vector<double>>(csr["val"])));
  }
  sideclust::KpartiteParams par;
  par.k = k;
  if (divergence == "euclidean") {
    par.divergence = sideclust::KpDivergence::euclidean;
  } else if (divergence == "idivergence") {
    par.divergence = sideclust::KpDivergence::idivergence;
  } else {
    Rcpp::stop("unknown divergence '%s'", divergence);
  }
  par.max_iter = max_iter;
  par.restarts = restarts;
  par.tol = tol;
  for (R_xlen_t t = 0; t < start.size(); ++t) {
    par.start.push_back(sideclust::zero_based(start[t]));
  }
  sideclust::RHooks hooks(verbose, "iteration");
  const sideclust::KpartiteResult res = sideclust::kpartite_fit(rel, n_vertices, par, hooks);
  Rcpp::List clusters(res.clusters.size()), summary(res.summary.size());
  for (std::size_t t = 0; t < res.clusters.size(); ++t) {
    clusters[t] = sideclust::one_based(res.clusters[t]);
  }
  for (std::size_t r = 0; r < res.summary.size(); ++r) {
    summary[r] = sideclust::row_major(res.summary[r], k[row_type[r]], k[col_type[r]]);
  }
  return Rcpp::List::create(
      Rcpp::_["clusters"] = clusters, Rcpp::_["summary"] = summary,
      Rcpp::_["relation_objective"] = res.relation_objective,
      Rcpp::_["objective"] = res.objective, Rcpp::_["restart_objective"] = res.restart_objective,
      Rcpp::_["iterations"] = res.iterations, Rcpp::_["converged"] = res.converged);
}
