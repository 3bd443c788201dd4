// Glue for TVClust's variational fit (tvclust/tvclust_vb.h): the variational
// cluster family from R's prior list, the model settings and the options,
// and plain R data back. No algorithm here.
#include <RcppEigen.h>

#include <string>
#include <type_traits>
#include <vector>

#include "r_glue.h"
#include "r_tvclust.h"
#include "tvclust/tvclust_vb_runs.h"
#include "tvclust/vb_families.h"

namespace {

// Calls f(empty) with an empty variational factor of the named family.
template <class F>
Rcpp::List with_vb_family(const std::string& family, const Rcpp::List& prior, F&& f) {
  if (family == "gaussian") {
    const sideclust::NiwPrior pr{Rcpp::as<Eigen::VectorXd>(prior["m0"]), Rcpp::as<double>(prior["kappa0"]),
                                 Rcpp::as<double>(prior["nu0"]), Rcpp::as<Eigen::MatrixXd>(prior["S0"])};
    return f(sideclust::VbGaussian(pr));
  }
  if (family == "diagonal") {
    const sideclust::NormalGammaPrior pr{Rcpp::as<Eigen::VectorXd>(prior["m0"]),
                                         Rcpp::as<double>(prior["kappa0"]), Rcpp::as<double>(prior["a0"]),
                                         Rcpp::as<Eigen::VectorXd>(prior["b0"])};
    return f(sideclust::VbDiagonal(pr));
  }
  if (family == "multinomial") {
    const Eigen::VectorXd a = Rcpp::as<Eigen::VectorXd>(prior["alpha"]);
    return f(sideclust::VbMultinomial(a));
  }
  Rcpp::stop("unknown family '%s'", family);
}

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
  return with_vb_family(family, prior, [&](const auto& empty) {
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
        Rcpp::_["converged"] = best.converged, Rcpp::_["p"] = best.p, Rcpp::_["q"] = best.q,
        Rcpp::_["alpha"] = best.alpha, Rcpp::_["log_weight"] = Rcpp::wrap(best.log_weight),
        Rcpp::_["worst_drop"] = best.worst_drop, Rcpp::_["updates_checked"] = best.updates_checked);
  });
}

// E log f(x | theta_k) of every column of `newt` under the factor q(theta_k)
// refitted from the training data `xt` with the weights of each column of
// `membership`, and a last column under the prior (an unused component).
// [[Rcpp::export(.tvclust_vb_predict_cpp)]]
Rcpp::NumericMatrix tvclust_vb_predict_cpp(SEXP xt, const Eigen::MatrixXd& membership,
                                           std::string family, Rcpp::List prior, SEXP newt) {
  const int k = static_cast<int>(membership.cols());
  const int m = vb_points_n(newt);
  Rcpp::NumericMatrix out(m, k + 1);
  with_vb_family(family, prior, [&](const auto& empty) {
    using Family = std::decay_t<decltype(empty)>;
    Eigen::VectorXd e(m);
    for (int c = 0; c <= k; ++c) {
      auto factor = empty;
      if (c < k) sideclust::with_points<sparse_ok<Family>>(xt, [&](const auto& x) { factor.fit(x, membership.col(c)); });
      sideclust::with_points<sparse_ok<Family>>(newt, [&](const auto& x) { factor.expected_log_lik(x, e); });
      for (int j = 0; j < m; ++j) out(j, c) = e(j);
    }
    return Rcpp::List();
  });
  return out;
}

// For the tests: per cluster of the partition `cluster` (1-based), the
// variational bound of its data with one-hot weights and the optimal
// q(theta) (sum of E log f + point constants - KL) and the collapsed
// log marginal likelihood; the two agree when the family's formulas do.
// [[Rcpp::export(.tvclust_vb_identity_cpp)]]
Rcpp::NumericMatrix tvclust_vb_identity_cpp(const Eigen::MatrixXd& xt, Rcpp::IntegerVector cluster,
                                            std::string family, Rcpp::List prior) {
  const int n = static_cast<int>(xt.cols());
  int k = 0;
  for (int v : cluster) k = std::max(k, v);
  Rcpp::NumericMatrix out(k, 2);
  with_vb_family(family, prior, [&](const auto& empty) {
    Eigen::VectorXd e(n);
    for (int c = 0; c < k; ++c) {
      Eigen::VectorXd w = Eigen::VectorXd::Zero(n);
      double constant = 0.0;
      for (int i = 0; i < n; ++i) {
        if (cluster[i] == c + 1) {
          w(i) = 1.0;
          constant += empty.point_constant(xt.col(i));
        }
      }
      auto factor = empty;
      factor.fit(xt, w);
      factor.expected_log_lik(xt, e);
      out(c, 0) = w.dot(e) + constant - factor.kl_to_prior();
    }
    return Rcpp::List();
  });
  sideclust::with_family(family, prior, [&](auto make) {
    for (int c = 0; c < k; ++c) {
      auto cl = make();
      for (int i = 0; i < n; ++i) {
        if (cluster[i] == c + 1) cl.add(xt.col(i));
      }
      out(c, 1) = cl.log_marginal();
    }
    return Rcpp::List();
  });
  return out;
}
