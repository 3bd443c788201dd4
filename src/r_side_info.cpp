// Rcpp glue for the side-information helpers: maps R vectors to the cores in
// union_find.h and pair_check.h and back. No algorithm here.
#include <Rcpp.h>

#include <vector>

#include "common/pair_check.h"
#include "common/union_find.h"
#include "r_glue.h"

// Must-link components. `from`, `to` are R's 1-based point indices
// (validated in R); returns 1-based component ids numbered by first
// appearance.
// [[Rcpp::export(rng = false)]]
Rcpp::IntegerVector side_components_cpp(int n, const Rcpp::IntegerVector& from,
                                        const Rcpp::IntegerVector& to) {
  if (n < 0) Rcpp::stop("`n` must be non-negative");
  const std::vector<int> id = sideclust::connected_components(
      static_cast<std::size_t>(n), sideclust::zero_based(from), sideclust::zero_based(to));
  return sideclust::one_based(id);
}

// Which clause of the pair contract the vectors break (0 = none); see
// pair_list_problem(). Lengths and types are checked in R first.
// [[Rcpp::export(rng = false)]]
int side_pairs_problem_cpp(const Rcpp::IntegerVector& i, const Rcpp::IntegerVector& j,
                           const Rcpp::LogicalVector& must,
                           const Rcpp::NumericVector& confidence, int n) {
  return sideclust::pair_list_problem(i.begin(), j.begin(), must.begin(), confidence.begin(),
                                      static_cast<std::size_t>(i.size()), n);
}
