// Glue: data from R in the layout the cores read (one object's values
// contiguous): a sparse Matrix's column-compressed slots as row-compressed
// arrays, and a dense matrix transposed, written straight into R vectors;
// the data checks' one pass over a dense matrix (the range of its values),
// fused with the transpose where the method needs one.
#include <Rcpp.h>

#include <vector>

#include "common/csr_transpose.h"
#include "engine/huge_pages.h"
#include "common/transpose.h"
#include "engine/value_range.h"

// [[Rcpp::export(.csr_of_csc_cpp)]]
Rcpp::List csr_of_csc_cpp(Rcpp::IntegerVector p, Rcpp::IntegerVector i, Rcpp::NumericVector x,
                          int n_rows, int n_cols) {
  if (p.size() != n_cols + 1 || i.size() != x.size() || p[n_cols] != x.size()) {
    Rcpp::stop("inconsistent column-compressed slots (is the Matrix object valid?)");
  }
  // Every value is written by the transpose (ptr zeroed there); the cores
  // (sib()'s pass) read the rows at random places, which the engine is told
  // before the first write.
  const R_xlen_t nnz = x.size();
  Rcpp::IntegerVector ptr(Rcpp::no_init(n_rows + 1)), idx(Rcpp::no_init(nnz));
  Rcpp::NumericVector val(Rcpp::no_init(nnz));
  sideclust::advise_random_reads(ptr.begin(), sizeof(int) * static_cast<std::size_t>(n_rows + 1));
  sideclust::advise_random_reads(idx.begin(), sizeof(int) * static_cast<std::size_t>(nnz));
  sideclust::advise_random_reads(val.begin(), sizeof(double) * static_cast<std::size_t>(nnz));
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
  sideclust::advise_random_reads(REAL(out), static_cast<std::size_t>(rows) * cols * sizeof(double));
  sideclust::transpose_dense(REAL(x), static_cast<std::size_t>(rows), static_cast<std::size_t>(cols), REAL(out));
  UNPROTECT(1);
  return out;
}

// The data checks of a double matrix in one pass: list(lo, hi, finite) of its
// values (lo and hi skip NaN and NA), plus xt = t(x) when `transpose`
// (written in the same pass; dimnames set here, as setting them in R on a
// list element would copy it), else NULL.
// [[Rcpp::export(.scan_points_cpp)]]
SEXP scan_points_cpp(SEXP x, bool transpose) {
  // without transpose any double vector or array will do (check_tensor())
  if (TYPEOF(x) != REALSXP || (transpose && !Rf_isMatrix(x))) {
    Rcpp::stop("internal: .scan_points_cpp() takes a double matrix");
  }
  const int rows = transpose ? Rf_nrows(x) : 0, cols = transpose ? Rf_ncols(x) : 0;
  const std::size_t size = transpose ? static_cast<std::size_t>(rows) * cols
                                     : static_cast<std::size_t>(XLENGTH(x));
  sideclust::ValueRange range;
  SEXP xt = R_NilValue;
  if (transpose) {
    xt = PROTECT(Rf_allocMatrix(REALSXP, cols, rows));  // every value is written
    sideclust::advise_random_reads(REAL(xt), size * sizeof(double));
    range = sideclust::transpose_dense_range(REAL(x), rows, cols, REAL(xt));
    SEXP dn = Rf_getAttrib(x, R_DimNamesSymbol);
    if (!Rf_isNull(dn)) {  // rev(dimnames(x)), names of the dimnames included
      SEXP rev = PROTECT(Rf_allocVector(VECSXP, 2));
      SET_VECTOR_ELT(rev, 0, VECTOR_ELT(dn, 1));
      SET_VECTOR_ELT(rev, 1, VECTOR_ELT(dn, 0));
      SEXP names = Rf_getAttrib(dn, R_NamesSymbol);
      if (!Rf_isNull(names)) {
        SEXP rev_names = PROTECT(Rf_allocVector(STRSXP, 2));
        SET_STRING_ELT(rev_names, 0, STRING_ELT(names, 1));
        SET_STRING_ELT(rev_names, 1, STRING_ELT(names, 0));
        Rf_setAttrib(rev, R_NamesSymbol, rev_names);
        UNPROTECT(1);
      }
      Rf_setAttrib(xt, R_DimNamesSymbol, rev);
      UNPROTECT(1);
    }
  } else {
    PROTECT(xt);
    range.add(REAL(x), size);
  }
  SEXP out = PROTECT(Rcpp::List::create(Rcpp::_["lo"] = range.lo, Rcpp::_["hi"] = range.hi,
                                        Rcpp::_["finite"] = range.finite(), Rcpp::_["xt"] = xt));
  UNPROTECT(2);
  return out;
}
