// Shared glue: R objects to core types, and the R host for RunHooks.
#pragma once

#include <Rcpp.h>

#include <cstdio>
#include <string>
#include <vector>

#include "common/run_hooks.h"
#include "common/seeding.h"
#include "common/side_graph.h"
#include "common/sparse_rows.h"

namespace sideclust {

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

// What side_from_r() builds from a pair list: the adjacency and the pair
// list (what most cores read), the list alone (for a core that builds its
// own graph), or the adjacency alone (for a core that reads the pairs only
// through it, such as RDP-means: three arrays of m fewer).
enum class PairForm { both, list, adjacency };

namespace detail {
// R's pairs read in place for fill_pair_graph(): 1-based i, j (NA, INT_MIN,
// wraps to a point out of range and is refused there), must, and the
// magnitudes (confidence or given weights).
struct RPairSource {
  const int *i, *j, *must;
  const double* magnitude;
  int first(std::size_t e) const { return static_cast<int>(static_cast<unsigned>(i[e]) - 1u); }
  int second(std::size_t e) const { return static_cast<int>(static_cast<unsigned>(j[e]) - 1u); }
  double weight(std::size_t e) const { return must[e] ? magnitude[e] : -magnitude[e]; }
};
}  // namespace detail

// The side information as an R front door validated it: NULL, a
// "sideclust_constraints" object (1-based i < j, must, confidence) or a
// "sideclust_labels" object (1-based labels with NA, levels); the one place
// where it crosses into the core. Pairs get weight +confidence (must-link) or
// -confidence (cannot-link), unless pair_weight (one per pair) gives other
// magnitudes (the mixtures' penalties); labels become 0-based with -1 for
// unlabelled. `form` says what the pairs become (PairForm). R's vectors are
// read in place: the adjacency is built straight from them in two passes
// (fill_pair_graph()).
inline SideInfo side_from_r(SEXP side, int n, const Rcpp::NumericVector* pair_weight = nullptr,
                            PairForm form = PairForm::both) {
  SideInfo s;
  s.pairs.n = n;
  if (Rf_isNull(side)) return s;
  const Rcpp::List obj(side);
  if (obj.inherits("sideclust_labels")) {
    const Rcpp::IntegerVector labels = obj["labels"];
    if (labels.size() != n) Rcpp::stop("internal: labels describe %d points, not %d", labels.size(), n);
    s.labels.label = zero_based(labels);
    s.labels.n_levels = Rcpp::CharacterVector(obj["levels"]).size();
    return s;
  }
  if (!obj.inherits("sideclust_constraints")) Rcpp::stop("internal: unknown side information");
  const Rcpp::IntegerVector i = obj["i"], j = obj["j"];
  const Rcpp::LogicalVector must = obj["must"];
  const Rcpp::NumericVector confidence = obj["confidence"];
  const std::size_t m = static_cast<std::size_t>(i.size());
  if (static_cast<std::size_t>(j.size()) != m || static_cast<std::size_t>(must.size()) != m ||
      static_cast<std::size_t>(confidence.size()) != m) {
    Rcpp::stop("internal: the pair vectors differ in length");
  }
  if (pair_weight != nullptr && static_cast<std::size_t>(pair_weight->size()) != m) {
    Rcpp::stop("internal: %d pair weights for %d pairs", static_cast<int>(pair_weight->size()),
               static_cast<int>(m));
  }
  if (m == 0) return s;
  const detail::RPairSource src{i.begin(), j.begin(), must.begin(),
                                pair_weight != nullptr ? pair_weight->begin() : confidence.begin()};
  if (form == PairForm::list) {
    std::vector<int> a(m), b(m);
    std::vector<double> w(m);
    for (std::size_t e = 0; e < m; ++e) {
      a[e] = src.first(e);
      b[e] = src.second(e);
      w[e] = src.weight(e);
    }
    s.pairs = make_pair_list(n, std::move(a), std::move(b), std::move(w));
  } else {
    fill_pair_graph(s.pairs, n, m, src, form == PairForm::both);
  }
  return s;
}

// Sparse points from R: the list made by sparse_points() (R/validate-data.R),
// row-compressed with 0-based ptr / idx, val, n, p, scale (NULL or n numbers)
// and offset. A view of R's arrays, valid while the list is alive.
inline bool is_sparse_points(SEXP x) { return Rf_inherits(x, "sideclust_sparse_points"); }

inline SparseRows sparse_rows_from_r(SEXP x) {
  const Rcpp::List l(x);
  const Rcpp::IntegerVector ptr = l["ptr"], idx = l["idx"];
  const Rcpp::NumericVector val = l["val"];
  const SEXP scale = l["scale"];
  return SparseRows(ptr.begin(), idx.begin(), val.begin(), Rcpp::as<int>(l["n"]),
                    Rcpp::as<int>(l["p"]), Rf_isNull(scale) ? nullptr : REAL(scale),
                    Rcpp::as<double>(l["offset"]));
}

// Calls f(rows) with the points of x: a p x n numeric matrix (points as
// columns) or sparse points (see sparse_rows_from_r()).
template <class F>
auto with_rows(SEXP x, F&& f) {
  if (is_sparse_points(x)) return f(sparse_rows_from_r(x));
  const Rcpp::NumericMatrix m(x);
  return f(DenseRows(m.begin(), m.ncol(), m.nrow()));
}

// The `init` argument of the prototype methods.
inline SeedInit seed_init(const std::string& init) {
  if (init == "kmeans++") return SeedInit::kmeanspp;
  if (init == "random") return SeedInit::random;
  if (init == "start") return SeedInit::start;
  Rcpp::stop("unknown init '%s'", init);
}

// A line of progress through R's message(), so that suppressMessages() and
// sinks of the message stream silence it.
inline void r_message(const std::string& text) {
  static const Rcpp::Function message("message", R_BaseNamespace);
  message(text);
}

// The R host of RunHooks: R's generator (so set.seed() reproduces runs),
// Ctrl-C and progress lines.
class RHooks : public RunHooks {
 public:
  explicit RHooks(bool verbose, std::string what = "sweep")
      : verbose_(verbose), what_(std::move(what)) {}
  double uniform() override { return R::unif_rand(); }
  double unif_index(double dn) override { return R_unif_index(dn); }
  double normal() override { return R::norm_rand(); }
  double gamma(double shape) override { return R::rgamma(shape, 1.0); }
  void check_interrupt() override { Rcpp::checkUserInterrupt(); }
  void on_sweep(int iteration, int k, double objective) override {
    if (verbose_) {
      char line[160];
      std::snprintf(line, sizeof line, "%s %5d: k = %4d, objective = %.6g", what_.c_str(),
                    iteration, k, objective);
      r_message(line);
    }
  }

 private:
  bool verbose_;
  std::string what_;
};

}  // namespace sideclust
