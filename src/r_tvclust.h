// Glue shared by r_tvclust.cpp, r_tvclust_vb.cpp and r_testing.cpp: the
// collapsed and the variational cluster families, the model settings and
// the points of TVClust from R's objects. No algorithm here.
#pragma once

#include <RcppEigen.h>

#include <functional>
#include <string>

#include "r_glue.h"
#include "tvclust/conjugate_simple.h"
#include "tvclust/niw.h"
#include "tvclust/tvclust_gibbs.h"
#include "tvclust/vb_families.h"

namespace sideclust {

// Calls f(points) with xt as a TVClust core reads it: a view of R's p x n
// matrix (no copy), or of its sparse points, which only the count families
// (SparseOk: Gibbs' Dirichlet-multinomial, the variational multinomial) read;
// R densifies sparse data for the other families.
template <bool SparseOk, class F>
void with_points(SEXP xt, F&& f) {
  if (is_sparse_points(xt)) {
    if constexpr (SparseOk) {
      f(sparse_rows_from_r(xt));
      return;
    } else {
      Rcpp::stop("internal: sparse data reach TVClust's multinomial family only");
    }
  }
  const Rcpp::NumericMatrix m(xt);
  const Eigen::Map<const Eigen::MatrixXd> map(m.begin(), m.nrow(), m.ncol());
  f(DensePoints(map));
}

// Calls f(factory) with a factory of empty clusters of the named family.
template <class F>
inline Rcpp::List with_family(const std::string& family, const Rcpp::List& prior, F&& f) {
  if (family == "gaussian") {
    const NiwPrior pr{Rcpp::as<Eigen::VectorXd>(prior["m0"]),
                                 Rcpp::as<double>(prior["kappa0"]),
                                 Rcpp::as<double>(prior["nu0"]),
                                 Rcpp::as<Eigen::MatrixXd>(prior["S0"])};
    return f(std::function<NiwCluster()>(
        [&pr]() { return NiwCluster(pr); }));
  }
  if (family == "diagonal") {
    const NormalGammaPrior pr{Rcpp::as<Eigen::VectorXd>(prior["m0"]),
                                         Rcpp::as<double>(prior["kappa0"]),
                                         Rcpp::as<double>(prior["a0"]),
                                         Rcpp::as<Eigen::VectorXd>(prior["b0"])};
    return f(std::function<NormalGammaCluster()>(
        [&pr]() { return NormalGammaCluster(pr); }));
  }
  if (family == "multinomial") {
    const Eigen::VectorXd a = Rcpp::as<Eigen::VectorXd>(prior["alpha"]);
    return f(std::function<DirichletMultinomialCluster()>(
        [&a]() { return DirichletMultinomialCluster(a); }));
  }
  Rcpp::stop("unknown family '%s'", family);
}

// Calls f(empty) with an empty variational factor of the named family.
template <class F>
inline Rcpp::List with_vb_family(const std::string& family, const Rcpp::List& prior, F&& f) {
  if (family == "gaussian") {
    const NiwPrior pr{Rcpp::as<Eigen::VectorXd>(prior["m0"]), Rcpp::as<double>(prior["kappa0"]),
                      Rcpp::as<double>(prior["nu0"]), Rcpp::as<Eigen::MatrixXd>(prior["S0"])};
    return f(VbGaussian(pr));
  }
  if (family == "diagonal") {
    const NormalGammaPrior pr{Rcpp::as<Eigen::VectorXd>(prior["m0"]),
                              Rcpp::as<double>(prior["kappa0"]), Rcpp::as<double>(prior["a0"]),
                              Rcpp::as<Eigen::VectorXd>(prior["b0"])};
    return f(VbDiagonal(pr));
  }
  if (family == "multinomial") {
    const Eigen::VectorXd a = Rcpp::as<Eigen::VectorXd>(prior["alpha"]);
    return f(VbMultinomial(a));
  }
  Rcpp::stop("unknown family '%s'", family);
}

inline TvclustParams params_from_r(const Rcpp::List& s) {
  TvclustParams par;
  par.alpha = Rcpp::as<double>(s["alpha"]);
  par.p = Rcpp::as<double>(s["p"]);
  par.q = Rcpp::as<double>(s["q"]);
  const Rcpp::NumericVector pq_prior = s["pq_prior"];
  if (pq_prior.size() == 4) {  // Beta(p_a, p_b), Beta(q_a, q_b): sample p and q
    par.sample_pq = true;
    par.p_a = pq_prior[0];
    par.p_b = pq_prior[1];
    par.q_a = pq_prior[2];
    par.q_b = pq_prior[3];
  }
  const Rcpp::NumericVector alpha_prior = s["alpha_prior"];
  if (alpha_prior.size() == 2) {  // Gamma(shape, rate): sample alpha
    par.sample_alpha = true;
    par.alpha_a = alpha_prior[0];
    par.alpha_b = alpha_prior[1];
  }
  par.chunklet_moves = Rcpp::as<bool>(s["chunklet_moves"]);
  par.split_merge = Rcpp::as<int>(s["split_merge"]);
  par.point_scan = Rcpp::as<bool>(s["point_scan"]);
  return par;
}

}  // namespace sideclust
