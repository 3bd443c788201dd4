// Glue: data from R in the layout the cores read (one object's values
// contiguous): a sparse Matrix's column-compressed slots as row-compressed
// arrays, and a dense matrix transposed, written straight into R vectors.
#include <Rcpp.h>

#include <vector>

#include "common/csr_transpose.h"
#include "common/huge_pages.h"
#include "common/transpose.h"

// [[Rcpp::export(.csr_of_csc_cpp)]]
Rcpp::List csr_of_csc_cpp(Rcpp::IntegerVector p, Rcpp::IntegerVector i, Rcpp::NumericVector x,
                          int n_rows, int n_cols) {
  if (p.size() != n_cols + 1 || i.size() != x.size() || p[n_cols] != x.size()) {
    Rcpp::stop("inconsistent column-compressed slots (is the Matrix object valid?)");
  }
  Rcpp::IntegerVector ptr(n_rows + 1), idx(x.size());
  Rcpp::NumericVector val(x.size());
  std::vector<int> next(n_rows);
  sideclust::transpose_compressed(n_cols, n_rows, p.begin(), i.begin(), x.begin(), ptr.begin(),
                                  idx.begin(), val.begin(), next.data());
  return Rcpp::List::create(Rcpp::_["ptr"] = ptr, Rcpp::_["idx"] = idx, Rcpp::_["val"] = val);
}

// t(x) for a double matrix, without dimnames (R sets them): the points as
// columns for the cores.
// [[Rcpp::export(.transpose_cpp)]]
SEXP transpose_cpp(SEXP x) {
  if (!Rf_isMatrix(x) || TYPEOF(x) != REALSXP) Rcpp::stop("internal: .transpose_cpp() takes a double matrix");
  const int rows = Rf_nrows(x), cols = Rf_ncols(x);
  SEXP out = PROTECT(Rf_allocMatrix(REALSXP, cols, rows));  // not zero-filled: every value is written
  // the cores read it for the whole fit, some sweeps out of order
  sideclust::advise_huge_pages(REAL(out), static_cast<std::size_t>(rows) * cols * sizeof(double));
  sideclust::transpose_dense(REAL(x), static_cast<std::size_t>(rows), static_cast<std::size_t>(cols), REAL(out));
  UNPROTECT(1);
  return out;
}
