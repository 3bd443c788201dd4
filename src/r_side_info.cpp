// Rcpp glue for the side-information helpers: maps R vectors to the core in
// union_find.h and back. No algorithm here.
#include <Rcpp.h>

#include <vector>

#include "common/union_find.h"

// Must-link components. `from`, `to` are 0-based point indices (validated in
// R); returns 1-based component ids numbered by first appearance.
// [[Rcpp::export(rng = false)]]
Rcpp::IntegerVector side_components_cpp(int n, const Rcpp::IntegerVector& from,
                                        const Rcpp::IntegerVector& to) {
  if (n < 0) Rcpp::stop("`n` must be non-negative");
  std::vector<int> f(from.begin(), from.end());
  std::vector<int> t(to.begin(), to.end());
  std::vector<int> id = sideclust::connected_components(
      static_cast<std::size_t>(n), f, t);
  Rcpp::IntegerVector out(id.size());
  for (std::size_t k = 0; k < id.size(); ++k) out[k] = id[k] + 1;
  return out;
}
