// Glue for constrained_mixture() and constraint_posterior(): R objects to the
// core (constrained_mixture.h) and back. No algorithm here.
#include <RcppEigen.h>

#include <string>
#include <vector>

#include "mixture/constrained_mixture.h"
#include "r_glue.h"

namespace {

sideclust::Inference inference_from(const std::string& s) {
  using sideclust::Inference;
  if (s == "chunklet") return Inference::chunklet;
  if (s == "icm") return Inference::icm;
  if (s == "gibbs") return Inference::gibbs;
  if (s == "mean_field") return Inference::mean_field;
  if (s == "sampled_chunklet") return Inference::sampled_chunklet;
  if (s == "exact") return Inference::exact;
  Rcpp::stop("unknown inference '%s'", s);
}

sideclust::CovType cov_from(const std::string& s) {
  using sideclust::CovType;
  if (s == "full") return CovType::full;
  if (s == "diagonal") return CovType::diagonal;
  if (s == "spherical") return CovType::spherical;
  if (s == "unit") return CovType::unit;
  Rcpp::stop("unknown covariance '%s'", s);
}

// The validated pairs with the penalties W (may be Inf) as their weights,
// as a list only: the mixtures build their own graph over units from it and
// never read the point adjacency.
sideclust::PairGraph pairs_from(SEXP side, int n, const Rcpp::NumericVector& penalty) {
  const std::vector<double> w(penalty.begin(), penalty.end());
  return sideclust::side_from_r(side, n, &w, sideclust::PairForm::list).pairs;
}

sideclust::EStepOptions estep_from(const std::string& inference, const Rcpp::List& o) {
  sideclust::EStepOptions e;
  e.inference = inference_from(inference);
  e.max_labelings = Rcpp::as<double>(o["max_labelings"]);
  e.inner_sweeps = Rcpp::as<int>(o["inner_sweeps"]);
  e.inner_tol = Rcpp::as<double>(o["inner_tol"]);
  e.burn_in = Rcpp::as<int>(o["burn_in"]);
  e.sweeps = Rcpp::as<int>(o["sweeps"]);
  e.samples = Rcpp::as<int>(o["samples"]);
  e.threads = Rcpp::as<int>(o["threads"]);
  return e;
}

// Rethrow core argument errors as R errors with their message.
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::invalid_argument& e) {
    Rcpp::stop(e.what());
  } catch (const std::runtime_error& e) {
    Rcpp::stop(e.what());
  }
}

// The start as K x n probabilities: from cluster numbers 1..K (one-hot) or
// from an n x K matrix of probabilities.
Eigen::MatrixXd start_from(SEXP start, int n, int K) {
  if (Rf_isMatrix(start)) {
    return Eigen::Map<const Eigen::MatrixXd>(REAL(start), n, K).transpose();
  }
  const int* cl = INTEGER(start);
  Eigen::MatrixXd z0 = Eigen::MatrixXd::Zero(K, n);
  for (int i = 0; i < n; ++i) z0(cl[i] - 1, i) = 1.0;
  return z0;
}

}  // namespace

// x: n x p data, read in place; start: cluster numbers 1..k or an n x k
// probability matrix; side: the validated pairs or NULL, with one penalty W
// per pair; options: see R's cm_options(). Returns z as n x K with columns
// named 1..K, written once after the core's own copies are freed.
// [[Rcpp::export(.constrained_mixture_cpp)]]
Rcpp::List constrained_mixture_cpp(Eigen::Map<Eigen::MatrixXd> x, SEXP start, int k, SEXP side,
                                   Rcpp::NumericVector penalty, std::string inference,
                                   std::string covariance, Rcpp::List options) {
  sideclust::EmOptions opt;
  opt.mstep.type = cov_from(covariance);
  opt.mstep.ridge = Rcpp::as<double>(options["ridge"]);
  opt.mstep.equal_weights = Rcpp::as<bool>(options["equal_weights"]);
  opt.estep = estep_from(inference, options);
  opt.max_iter = Rcpp::as<int>(options["max_iter"]);
  opt.tol = Rcpp::as<double>(options["tol"]);
  const int n = static_cast<int>(x.rows()), p = static_cast<int>(x.cols());
  sideclust::PairGraph pl = pairs_from(side, n, penalty);
  sideclust::RHooks hooks(Rcpp::as<bool>(options["verbose"]), "iteration");
  sideclust::EmResult r = guarded(
      [&]() { return sideclust::constrained_em(x, start_from(start, n, k), pl, opt, hooks); });
  pl = sideclust::PairGraph();  // the pairs go before z is written
  const int K = static_cast<int>(r.z.rows());
  const int n_units = r.state.graph.n_units, dropped = r.state.dropped;
  const int mf_components = r.state.mean_field_components;
  const double ess = r.state.ess;
  r.state = sideclust::EStepState();  // the E-step's state goes before z is written
  Rcpp::NumericVector cov(Rcpp::Dimension(p, p, K));
  for (int j = 0; j < K; ++j) {
    std::copy(r.params.cov[j].data(), r.params.cov[j].data() + p * p,
              cov.begin() + static_cast<R_xlen_t>(j) * p * p);
  }
  Rcpp::NumericMatrix z(n, K);
  Eigen::Map<Eigen::MatrixXd>(z.begin(), n, K) = r.z.transpose();
  r.z = Eigen::MatrixXd();
  Rcpp::IntegerVector names = Rcpp::seq_len(K);
  z.attr("dimnames") = Rcpp::List::create(R_NilValue, Rcpp::as<Rcpp::CharacterVector>(names));
  return Rcpp::List::create(
      Rcpp::_["z"] = z,
      Rcpp::_["means"] = Rcpp::wrap(Eigen::MatrixXd(r.params.means.transpose())),
      Rcpp::_["covariances"] = cov,
      Rcpp::_["weights"] = Rcpp::wrap(Eigen::VectorXd(r.params.weights)),
      Rcpp::_["loglik"] = r.loglik, Rcpp::_["iterations"] = r.iterations,
      Rcpp::_["converged"] = r.converged, Rcpp::_["n_units"] = n_units,
      Rcpp::_["dropped"] = dropped, Rcpp::_["mean_field_components"] = mf_components,
      Rcpp::_["ess"] = ess);
}

// One E-step from given log unaries (K x n).
// [[Rcpp::export(.constraint_posterior_cpp)]]
Rcpp::List constraint_posterior_cpp(Eigen::Map<Eigen::MatrixXd> log_unary, SEXP side,
                                    Rcpp::NumericVector penalty, std::string inference,
                                    Rcpp::List options) {
  const sideclust::EStepOptions e = estep_from(inference, options);
  const sideclust::PairGraph pl = pairs_from(side, static_cast<int>(log_unary.cols()), penalty);
  sideclust::RHooks hooks(false);
  sideclust::EStepState st;
  const Eigen::MatrixXd z = guarded(
      [&]() { return sideclust::e_step(Eigen::MatrixXd(log_unary), pl, e, st, hooks); });
  return Rcpp::List::create(Rcpp::_["z"] = Rcpp::wrap(Eigen::MatrixXd(z.transpose())),
                            Rcpp::_["dropped"] = st.dropped,
                            Rcpp::_["mean_field_components"] = st.mean_field_components,
                            Rcpp::_["ess"] = st.ess);
}
