// Glue: a sparse Matrix's column-compressed slots to the row-compressed
// arrays the cores read (rows = objects), written straight into R vectors.
#include <Rcpp.h>

#include <vector>

#include "common/csr_transpose.h"

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
