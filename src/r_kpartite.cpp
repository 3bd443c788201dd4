// Glue for kpartite_clustering(): relation CSRs prepared by R to the core.
#include <Rcpp.h>

#include <string>
#include <vector>

#include "kpartite.h"
#include "r_glue.h"
#include "r_joint.h"

namespace {

// csr: list(ptr, idx, val, n_rows, n_cols) with 0-based indices; types 0-based.
sideclust::KpRelation relation_from_r(const Rcpp::List& csr, int row_type, int col_type) {
  sideclust::KpRelation a;
  a.row_type = row_type;
  a.col_type = col_type;
  a.n_rows = Rcpp::as<int>(csr["n_rows"]);
  a.n_cols = Rcpp::as<int>(csr["n_cols"]);
  a.ptr = Rcpp::as<std::vector<int>>(csr["ptr"]);
  a.idx = Rcpp::as<std::vector<int>>(csr["idx"]);
  a.val = Rcpp::as<std::vector<double>>(csr["val"]);
  double total = 0.0;
  for (double v : a.val) total += v;
  a.mean = total / (static_cast<double>(a.n_rows) * a.n_cols);
  return a;
}

}  // namespace

// [[Rcpp::export(.kpartite_cpp)]]
Rcpp::List kpartite_cpp(Rcpp::List relations, std::vector<int> row_type,
                        std::vector<int> col_type, std::vector<int> n_vertices,
                        std::vector<int> k, std::string divergence, int max_iter, int restarts,
                        double tol, Rcpp::List start, bool verbose) {
  std::vector<sideclust::KpRelation> rel;
  for (R_xlen_t r = 0; r < relations.size(); ++r) {
    rel.push_back(relation_from_r(relations[r], row_type[r], col_type[r]));
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
    par.start.push_back(Rcpp::as<std::vector<int>>(start[t]));
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
