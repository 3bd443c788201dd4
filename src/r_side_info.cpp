// Rcpp glue for the side-information helpers: maps R vectors to the cores in
// union_find.h, pair_check.h, class_codes.h, sample_pairs.h and
// r_mersenne_twister.h and back. No algorithm here.
#include <Rcpp.h>

#include <vector>

#include "common/class_codes.h"
#include "common/pair_check.h"
#include "common/r_mersenne_twister.h"
#include "common/sample_pairs.h"
#include "common/union_find.h"
#include "r_glue.h"

// Must-link components. `from`, `to` are R's 1-based point indices
// (validated in R); returns 1-based component ids numbered by first
// appearance.
// [[Rcpp::export(.side_components_cpp, rng = false)]]
Rcpp::IntegerVector side_components_cpp(int n, const Rcpp::IntegerVector& from,
                                        const Rcpp::IntegerVector& to) {
  if (n < 0) Rcpp::stop("`n` must be non-negative");
  const std::vector<int> id = sideclust::connected_components(
      static_cast<std::size_t>(n), sideclust::zero_based(from), sideclust::zero_based(to));
  return sideclust::one_based(id);
}

// Which clause of the pair contract the vectors break (0 = none); see
// pair_list_problem(). Lengths and types are checked in R first.
// [[Rcpp::export(.side_pairs_problem_cpp, rng = false)]]
int side_pairs_problem_cpp(const Rcpp::IntegerVector& i, const Rcpp::IntegerVector& j,
                           const Rcpp::LogicalVector& must,
                           const Rcpp::NumericVector& confidence, int n) {
  return sideclust::pair_list_problem(i.begin(), j.begin(), must.begin(), confidence.begin(),
                                      static_cast<std::size_t>(i.size()), n);
}

// check_classes()' integer classes: list(codes, values) as factor() would
// number them, or NULL (NA present, or values too spread out for a table:
// then R's own path decides). See class_range() and class_codes().
// [[Rcpp::export(.integer_class_codes_cpp, rng = false)]]
SEXP integer_class_codes_cpp(const Rcpp::IntegerVector& y) {
  const std::size_t n = static_cast<std::size_t>(y.size());
  int lo = 0, hi = 0;
  if (!sideclust::class_range(y.begin(), n, 10000, lo, hi)) return R_NilValue;
  Rcpp::IntegerVector codes(n);
  std::vector<int> values;
  sideclust::class_codes(y.begin(), n, lo, hi, codes.begin(), values);
  return Rcpp::List::create(Rcpp::_["codes"] = codes,
                            Rcpp::_["values"] = Rcpp::IntegerVector(values.begin(), values.end()));
}

namespace {

// .Random.seed as R's generator left it, when its kinds are those that
// MersenneTwisterR reproduces (Mersenne-Twister, sample.kind "Rejection")
// and its state continues normally; otherwise R_NilValue. GetRNGstate() /
// PutRNGstate() first, so that the variable exists and holds R's state.
SEXP mersenne_twister_seed() {
  GetRNGstate();
  PutRNGstate();
  const SEXP seed = Rf_findVarInFrame(R_GlobalEnv, Rf_install(".Random.seed"));
  if (TYPEOF(seed) != INTSXP || XLENGTH(seed) != 1 + 1 + sideclust::MersenneTwisterR::kWords) {
    return R_NilValue;
  }
  const int kinds = INTEGER(seed)[0];
  const bool mersenne = kinds % 100 == 3, rejection = kinds % 100000 / 10000 == 1;
  if (!mersenne || !rejection || !sideclust::MersenneTwisterR::continues(INTEGER(seed)[1])) {
    return R_NilValue;
  }
  return seed;
}

}  // namespace

// sample_constraints(protocol = "tvclust", pair_count = "authors"): m draws
// with replacement from R's generator (the same draws as sample.int() and
// runif() in that order, and the same state afterwards). Under R's default
// kinds the generator runs inlined on a copy of .Random.seed, which is then
// replaced (R's internal state reloaded from it); otherwise every draw is a
// call into R. code: the class of every point, in 1 .. n_classes (validated
// in R).
// Returns 1-based i < j sorted, must and correct.
// [[Rcpp::export(.sample_pairs_cpp, rng = false)]]
Rcpp::List sample_pairs_cpp(const Rcpp::IntegerVector& code, int n_classes, double m,
                            double noise) {
  const int n = static_cast<int>(code.size());
  const std::size_t draws = static_cast<std::size_t>(m);
  sideclust::SampledPairs s;
  const SEXP seed = mersenne_twister_seed();
  if (seed != R_NilValue) {
    sideclust::MersenneTwisterR gen(INTEGER(seed) + 1);
    s = sideclust::sample_pairs_with_replacement(code.begin(), n, n_classes, draws, noise, gen);
    Rcpp::IntegerVector next(Rf_duplicate(seed));
    gen.save(next.begin() + 1);
    Rf_defineVar(Rf_install(".Random.seed"), next, R_GlobalEnv);
    GetRNGstate();
  } else {
    const Rcpp::RNGScope scope;
    sideclust::RHooks hooks(false);
    s = sideclust::sample_pairs_with_replacement(code.begin(), n, n_classes, draws, noise, hooks);
  }
  const R_xlen_t k = static_cast<R_xlen_t>(s.i.size());
  Rcpp::IntegerVector i(k), j(k);
  Rcpp::LogicalVector must(k), correct(k);
  for (R_xlen_t e = 0; e < k; ++e) {
    i[e] = s.i[e] + 1;
    j[e] = s.j[e] + 1;
    must[e] = s.must[e];
    correct[e] = s.correct[e];
  }
  return Rcpp::List::create(Rcpp::_["i"] = i, Rcpp::_["j"] = j, Rcpp::_["must"] = must,
                            Rcpp::_["correct"] = correct);
}
