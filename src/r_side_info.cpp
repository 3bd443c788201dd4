// Rcpp glue for the side-information helpers: maps R vectors to the core in
// union_find.h and back. No algorithm here.
#include <Rcpp.h>

#include <vector>

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
