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

// The validated pairs with their penalties W (options$penalty, one per pair,
// Inf for a certain pair) as weights, read once from R's vectors into a pair
// list: the mixtures build their own graph over units from it and never read
// the point adjacency.
sideclust::PairGraph pairs_from(SEXP side, int n, const sideclust::Options& o) {
  const Rcpp::NumericVector penalty = o.get<Rcpp::NumericVector>("penalty");  // no copy
  return sideclust::side_from_r(side, n, &penalty, sideclust::PairForm::list).pairs;
}

sideclust::EStepOptions estep_from(const sideclust::Options& o) {
  sideclust::EStepOptions e;
  e.inference = inference_from(o.get<std::string>("inference"));
  e.max_labelings = o.get<double>("max_labelings");
  e.inner_iter = o.get<int>("inner_iter");
  e.inner_tol = o.get<double>("inner_tol");
  e.burn_in = o.get<int>("burn_in");
  e.sweeps = o.get<int>("sweeps");
  e.samples = o.get<int>("samples");
  e.threads = o.get<int>("threads");
  return e;
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

// x: n x p data, read in place; side: the validated pairs or NULL; options:
// k, start (cluster numbers 1..k or an n x k probability matrix), penalty
// (one W per pair), inference, covariance and the rest of R's cm_options().
// Returns z as n x K with columns named 1..K, written once after the core's
// own copies are freed.
// [[Rcpp::export(.constrained_mixture_cpp)]]
Rcpp::List constrained_mixture_cpp(Eigen::Map<Eigen::MatrixXd> x, SEXP side, Rcpp::List options) {
  const sideclust::Options o(options);
  sideclust::EmOptions opt;
  opt.mstep.type = cov_from(o.get<std::string>("covariance"));
  opt.mstep.ridge = o.get<double>("ridge");
  opt.mstep.equal_weights = o.get<bool>("equal_weights");
  opt.estep = estep_from(o);
  opt.max_iter = o.get<int>("max_iter");
  opt.tol = o.get<double>("tol");
  const int n = static_cast<int>(x.rows()), p = static_cast<int>(x.cols());
  sideclust::PairGraph pl = pairs_from(side, n, o);
  sideclust::RHooks hooks(o.get<bool>("verbose"), "iteration");
  sideclust::EmResult r = sideclust::constrained_em(
      x, start_from(o.get<SEXP>("start"), n, o.get<int>("k")), pl, opt, hooks);
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
      Rcpp::_["centers"] = Rcpp::wrap(Eigen::MatrixXd(r.params.means.transpose())),
      Rcpp::_["covariances"] = cov,
      Rcpp::_["weights"] = Rcpp::wrap(Eigen::VectorXd(r.params.weights)),
      Rcpp::_["loglik"] = r.loglik, Rcpp::_["iterations"] = r.iterations,
      Rcpp::_["converged"] = r.converged, Rcpp::_["n_units"] = n_units,
      Rcpp::_["dropped"] = dropped, Rcpp::_["mean_field_components"] = mf_components,
      Rcpp::_["ess"] = ess);
}

// One E-step from given log unaries (K x n); side and options as for
// .constrained_mixture_cpp() (penalty, inference and the E-step's options).
// [[Rcpp::export(.constraint_posterior_cpp)]]
Rcpp::List constraint_posterior_cpp(Eigen::Map<Eigen::MatrixXd> log_unary, SEXP side,
                                    Rcpp::List options) {
  const sideclust::Options o(options);
  const sideclust::EStepOptions e = estep_from(o);
  const sideclust::PairGraph pl = pairs_from(side, static_cast<int>(log_unary.cols()), o);
  sideclust::RHooks hooks(false);
  sideclust::EStepState st;
  const Eigen::MatrixXd z = sideclust::e_step(Eigen::MatrixXd(log_unary), pl, e, st, hooks);
  return Rcpp::List::create(Rcpp::_["z"] = Rcpp::wrap(Eigen::MatrixXd(z.transpose())),
                            Rcpp::_["dropped"] = st.dropped,
                            Rcpp::_["mean_field_components"] = st.mean_field_components,
                            Rcpp::_["ess"] = st.ess);
}
