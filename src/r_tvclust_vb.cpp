// Glue for TVClust's variational fit (tvclust/tvclust_vb.h): the model
// settings and the options from R (the variational family through
// with_vb_family(), r_tvclust.h), and plain R data back. No algorithm here.
#include <RcppEigen.h>

#include <string>
#include <type_traits>
#include <vector>

#include "r_glue.h"
#include "r_tvclust.h"
#include "tvclust/tvclust_predict.h"
#include "tvclust/tvclust_vb_runs.h"

namespace {

sideclust::TvclustVbParams vb_params_from(const Rcpp::List& settings, const sideclust::Options& o) {
  const sideclust::TvclustParams model = sideclust::params_from_r(settings);
  sideclust::TvclustVbParams par;
  par.alpha = model.alpha;
  par.learn_alpha = model.sample_alpha;
  par.alpha_a = model.alpha_a;
  par.alpha_b = model.alpha_b;
  par.p = model.p;
  par.q = model.q;
  par.learn_pq = model.sample_pq;
  par.p_a = model.p_a;
  par.p_b = model.p_b;
  par.q_a = model.q_a;
  par.q_b = model.q_b;
  par.truncation = o.get<int>("truncation");
  par.max_iter = o.get<int>("max_iter");
  par.tol = o.get<double>("tol");
  par.check_each_update = o.get<bool>("check_each_update");
  par.delete_moves = o.get<bool>("delete_moves");
  return par;
}

sideclust::VbStart vb_start_from(const std::string& init) {
  if (init == "kmeans++") return sideclust::VbStart::kmeanspp;
  if (init == "random") return sideclust::VbStart::random;
  if (init == "given") return sideclust::VbStart::given;
  Rcpp::stop("internal: unknown init '%s'", init);
}

// The variational fit reads sparse points with the multinomial factor only.
template <class Family>
constexpr bool sparse_ok = std::is_same_v<Family, sideclust::VbMultinomial>;

int vb_points_n(SEXP xt) {
  return sideclust::is_sparse_points(xt) ? sideclust::sparse_rows_from_r(xt).n()
                                         : Rcpp::NumericMatrix(xt).ncol();
}

}  // namespace

// Runs `restarts` variational fits and returns the one of largest ELBO.
// settings: the model (as for .tvclust_chains_cpp()); options: truncation,
// max_iter, tol, restarts, k, init ("kmeans++", "random" or "given"),
// starts (a list of 1-based partitions, for "given"), verbose,
// check_each_update, delete_moves.
// [[Rcpp::export(.tvclust_vb_cpp)]]
Rcpp::List tvclust_vb_cpp(SEXP xt, SEXP side, std::string family, Rcpp::List prior,
                          Rcpp::List settings, Rcpp::List options) {
  const int n = vb_points_n(xt);
  const sideclust::Options o(options);
  const sideclust::SideInfo s = sideclust::side_from_r(side, n);
  const sideclust::TvclustVbParams par = vb_params_from(settings, o);
  const Rcpp::List starts = o.get<Rcpp::List>("starts");
  std::vector<std::vector<int>> given;
  for (R_xlen_t t = 0; t < starts.size(); ++t) given.push_back(sideclust::zero_based(starts[t]));
  sideclust::RHooks hooks(o.get<bool>("verbose"), "tvclust variational sweep");
  return sideclust::with_vb_family(family, prior, [&](const auto& empty) {
    using Family = std::decay_t<decltype(empty)>;
    sideclust::TvclustVbRestarts fit;
    sideclust::with_points<sparse_ok<Family>>(xt, [&](const auto& x) {
      fit = sideclust::run_tvclust_vb(x, s, empty, par, o.get<int>("restarts"), o.get<int>("k"),
                                      vb_start_from(o.get<std::string>("init")), given, hooks);
    });
    const sideclust::TvclustVbResult& best = fit.best;
    return Rcpp::List::create(
        Rcpp::_["responsibility"] = Eigen::MatrixXd(best.r.transpose()),
        Rcpp::_["elbo"] = Rcpp::wrap(best.elbo), Rcpp::_["delete_at"] = Rcpp::wrap(best.delete_at),
        Rcpp::_["final_elbo"] = Rcpp::wrap(fit.final_elbo),
        Rcpp::_["best_restart"] = fit.best_restart + 1, Rcpp::_["iterations"] = best.iterations,
        Rcpp::_["sweeps"] = best.sweeps,
        Rcpp::_["converged"] = best.converged, Rcpp::_["p"] = best.p, Rcpp::_["q"] = best.q,
        Rcpp::_["alpha"] = best.alpha, Rcpp::_["log_weight"] = Rcpp::wrap(best.log_weight),
        Rcpp::_["worst_drop"] = best.worst_drop, Rcpp::_["updates_checked"] = best.updates_checked);
  });
}

// E log f(x | theta_k) of every column of `newt` under the factors refitted
// from the training data `xt` and the weights `membership`, and under the
// prior (tvclust_vb_expected_loglik(), tvclust/tvclust_predict.h).
// [[Rcpp::export(.tvclust_vb_predict_cpp)]]
Rcpp::NumericMatrix tvclust_vb_predict_cpp(SEXP xt, const Eigen::MatrixXd& membership,
                                           std::string family, Rcpp::List prior, SEXP newt) {
  const int k = static_cast<int>(membership.cols());
  const int m = vb_points_n(newt);
  Rcpp::NumericMatrix out(m, k + 1);
  sideclust::with_vb_family(family, prior, [&](const auto& empty) {
    using Family = std::decay_t<decltype(empty)>;
    sideclust::with_points<sparse_ok<Family>>(xt, [&](const auto& x) {
      sideclust::with_points<sparse_ok<Family>>(newt, [&](const auto& nx) {
        sideclust::tvclust_vb_expected_loglik(x, membership, empty, nx, out.begin());
      });
    });
    return Rcpp::List();
  });
  return out;
}
