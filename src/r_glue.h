// Shared glue: R objects to core types, and the R host for RunHooks.
#pragma once

#include <Rcpp.h>

#include <string>
#include <vector>

#include "common/run_hooks.h"
#include "common/seeding.h"
#include "common/side_graph.h"

namespace sideclust {

// Side information as prepared by R's side_for_core(): 0-based pair indices
// with signed weights (may-link > 0, may-not link < 0) and 0-based labels
// (-1 unlabelled) with their number of levels.
inline SideInfo side_from_r(const Rcpp::List& side, int n) {
  SideInfo s;
  std::vector<int> i = Rcpp::as<std::vector<int>>(side["i"]);
  std::vector<int> j = Rcpp::as<std::vector<int>>(side["j"]);
  std::vector<double> w = Rcpp::as<std::vector<double>>(side["weight"]);
  if (!i.empty()) s.pairs = make_pair_graph(n, i, j, w);
  else s.pairs.n = n;
  s.labels.n_levels = Rcpp::as<int>(side["n_levels"]);
  if (s.labels.n_levels > 0) {
    s.labels.label = Rcpp::as<std::vector<int>>(side["labels"]);
    if (static_cast<int>(s.labels.label.size()) != n) {
      Rcpp::stop("labels have the wrong length");
    }
  }
  return s;
}

// The options of one entry point, passed from R as one named list. get()
// names the missing option instead of failing with Rcpp's "index out of
// bounds", so a mismatch between an R front door and its glue is caught at
// once. Build the core's parameter struct from it in one function per family.
class Options {
 public:
  explicit Options(Rcpp::List list) : list_(std::move(list)) {}
  template <class T>
  T get(const char* name) const {
    if (!list_.containsElementNamed(name)) {
      Rcpp::stop("internal: option '%s' is missing from the glue call", name);
    }
    return Rcpp::as<T>(list_[name]);
  }
  bool has(const char* name) const { return list_.containsElementNamed(name); }

 private:
  Rcpp::List list_;
};

// R's 1-based indices (cluster numbers, starts) as 0-based; NA becomes -1.
inline std::vector<int> zero_based(const Rcpp::IntegerVector& v) {
  std::vector<int> out(v.size());
  for (R_xlen_t a = 0; a < v.size(); ++a) {
    out[a] = v[a] == NA_INTEGER ? -1 : v[a] - 1;
  }
  return out;
}

// 0-based cluster indices as R's 1-based integers.
inline Rcpp::IntegerVector one_based(const std::vector<int>& v) {
  Rcpp::IntegerVector out(v.begin(), v.end());
  return out + 1;
}

// The `init` argument of the prototype methods.
inline SeedInit seed_init(const std::string& init) {
  if (init == "kmeans++") return SeedInit::kmeanspp;
  if (init == "random") return SeedInit::random;
  if (init == "start") return SeedInit::start;
  Rcpp::stop("unknown init '%s'", init);
}

// R's generator (so set.seed() reproduces runs), Ctrl-C and progress lines.
class RHooks : public RunHooks {
 public:
  explicit RHooks(bool verbose, std::string what = "sweep")
      : verbose_(verbose), what_(std::move(what)) {}
  double uniform() override { return R::unif_rand(); }
  double normal() override { return R::norm_rand(); }
  double gamma(double shape) override { return R::rgamma(shape, 1.0); }
  void check_interrupt() override { Rcpp::checkUserInterrupt(); }
  void on_sweep(int iteration, int k, double objective) override {
    if (verbose_) {
      Rprintf("%s %5d: k = %4d, objective = %.6g\n", what_.c_str(), iteration, k, objective);
    }
  }

 private:
  bool verbose_;
  std::string what_;
};

}  // namespace sideclust
