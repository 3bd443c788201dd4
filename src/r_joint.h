// Glue: the row-compressed matrix prepared by R's as_joint_csr() to the core's
// joint-distribution and binary-matrix types.
#pragma once

#include <Rcpp.h>

#include <vector>

#include "coclust/cross_associations.h"
#include "common/info_sparse.h"
#include "r_glue.h"

namespace sideclust {

// csr: list(ptr, idx, val, n_rows, n_cols) with 0-based indices. When the
// arrays are already integer / double (as as_joint_csr() makes them) the joint
// reads R's vectors in place, without a copy of the non-zeros, so `csr` must
// stay alive and unchanged while the joint is used; other types are copied.
inline JointCsr joint_from_r(const Rcpp::List& csr) {
  const SEXP ptr = csr["ptr"], idx = csr["idx"], val = csr["val"];
  const int n_rows = Rcpp::as<int>(csr["n_rows"]), n_cols = Rcpp::as<int>(csr["n_cols"]);
  if (TYPEOF(ptr) != INTSXP || TYPEOF(idx) != INTSXP || TYPEOF(val) != REALSXP) {
    return make_joint(n_rows, n_cols, Rcpp::as<std::vector<int>>(ptr),
                      Rcpp::as<std::vector<int>>(idx), Rcpp::as<std::vector<double>>(val));
  }
  if (Rf_xlength(ptr) != n_rows + 1 || Rf_xlength(idx) != Rf_xlength(val)) {
    throw std::invalid_argument("inconsistent CSR arrays");
  }
  return borrow_joint(n_rows, n_cols, INTEGER(ptr), INTEGER(idx), REAL(val),
                      static_cast<std::size_t>(Rf_xlength(val)));
}

inline BinaryCsr binary_from_r(const Rcpp::List& csr) {
  BinaryCsr b;
  b.n_rows = Rcpp::as<int>(csr["n_rows"]);
  b.n_cols = Rcpp::as<int>(csr["n_cols"]);
  b.ptr = Rcpp::as<std::vector<int>>(csr["ptr"]);
  b.idx = Rcpp::as<std::vector<int>>(csr["idx"]);
  return b;
}

// A row-major k x m vector as an R matrix.
inline Rcpp::NumericMatrix row_major(const std::vector<double>& v, int rows, int cols) {
  Rcpp::NumericMatrix out(rows, cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) out(r, c) = v[static_cast<std::size_t>(r) * cols + c];
  }
  return out;
}

}  // namespace sideclust
