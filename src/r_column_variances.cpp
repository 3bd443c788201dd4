// Glue: column variances of a dense double matrix, read in place.
#include <Rcpp.h>

#include "common/column_variances.h"

// [[Rcpp::export(.column_variances_cpp)]]
Rcpp::NumericVector column_variances_cpp(SEXP x) {
  if (!Rf_isMatrix(x) || TYPEOF(x) != REALSXP) {
    Rcpp::stop("internal: .column_variances_cpp() takes a double matrix");
  }
  const int rows = Rf_nrows(x), cols = Rf_ncols(x);
  Rcpp::NumericVector out(cols);
  sideclust::column_variances(REAL(x), static_cast<std::size_t>(rows),
                              static_cast<std::size_t>(cols), out.begin());
  return out;
}
