// Glue for MPCK-means / PCK-means: maps R objects to the core and back. No
// algorithm here.
#include <RcppEigen.h>

#include <string>

#include "pairwise/mpck_fit.h"
#include "r_glue.h"
#include "r_kernels.h"
#include "r_prototype.h"

namespace {

sideclust::MpckMetric mpck_metric(const std::string& metric) {
  if (metric == "none") return sideclust::MpckMetric::none;
  if (metric == "diagonal") return sideclust::MpckMetric::diagonal;
  if (metric == "full") return sideclust::MpckMetric::full;
  Rcpp::stop("unknown metric '%s'", metric);
}

sideclust::MpckInit mpck_init(const std::string& init) {
  if (init == "neighbourhoods") return sideclust::MpckInit::neighbourhoods;
  if (init == "kmeans++") return sideclust::MpckInit::kmeanspp;
  if (init == "random") return sideclust::MpckInit::random;
  if (init == "start") return sideclust::MpckInit::start;
  Rcpp::stop("unknown init '%s'", init);
}

sideclust::MpckParams mpck_params(const sideclust::Options& o) {
  sideclust::MpckParams par;
  par.metric = mpck_metric(o.get<std::string>("metric"));
  par.init = mpck_init(o.get<std::string>("init"));
  sideclust::read_prototype_params(o, par, par.init == sideclust::MpckInit::start);
  par.ridge = o.get<double>("ridge");
  par.use_avx = sideclust::avx_allowed(o);
  if (o.has("pair_cache")) par.pair_cache = o.get<bool>("pair_cache");
  if (o.has("threads")) par.threads = o.get<int>("threads");
  if (o.has("chunk")) par.chunk = o.get<int>("chunk");
  if (o.has("skip_unread")) par.skip_unread = o.get<bool>("skip_unread");
  return par;
}

}  // namespace

// x: the n x p data, read in place (no transposed copy); side: the validated pairs (labels are expanded in R) or
// NULL; options: k, restarts, max_iter, metric, init, start (p x k centres),
// ridge, verbose, use_avx (TRUE when absent; FALSE: the portable sweep, for
// the tests), pair_cache (TRUE when absent; FALSE: no cache of the pairs'
// differences, for the tests), threads (1 when absent), chunk (1024 when
// absent; smaller to run small tests on two threads), skip_unread (TRUE
// when absent; FALSE: every point reads its pairs, for the tests). metrics: NULL ("none"), the p x k diagonals ("diagonal")
// or a list of k p x p matrices ("full").
// [[Rcpp::export(.mpck_means_cpp)]]
Rcpp::List mpck_means_cpp(Eigen::Map<Eigen::MatrixXd> x, SEXP side, Rcpp::List options) {
  const sideclust::Options o(options);
  const sideclust::MpckParams par = mpck_params(o);
  const int n = static_cast<int>(x.rows());
  const sideclust::SideInfo s = sideclust::side_from_r(side, n);
  sideclust::RHooks hooks(o.get<bool>("verbose"), "iteration");
  const sideclust::ColumnMajorPoints points(x.data(), n, static_cast<int>(x.cols()));
  const sideclust::MpckResult r = sideclust::mpck_fit(points, s.pairs, par, hooks);

  SEXP metrics = R_NilValue;
  if (par.metric == sideclust::MpckMetric::diagonal) {
    metrics = Rcpp::wrap(r.diag);
  } else if (par.metric == sideclust::MpckMetric::full) {
    Rcpp::List full(r.full.size());
    for (std::size_t h = 0; h < r.full.size(); ++h) full[h] = Rcpp::wrap(r.full[h]);
    metrics = full;
  }
  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(r.cluster), Rcpp::_["centers"] = Rcpp::wrap(r.centres),
      Rcpp::_["metrics"] = metrics, Rcpp::_["k"] = r.k, Rcpp::_["objective"] = r.objective,
      Rcpp::_["within"] = r.within, Rcpp::_["logdet"] = r.logdet, Rcpp::_["penalty"] = r.penalty,
      Rcpp::_["regularization"] = r.regularization, Rcpp::_["iterations"] = r.iterations,
      Rcpp::_["converged"] = r.converged);
}
