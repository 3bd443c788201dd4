// Glue for discriminative clustering: maps R objects to the core and back.
// No algorithm here.
#include <RcppEigen.h>

#include <string>
#include <vector>

#include "discriminative/discriminative_clustering.h"
#include "discriminative/discriminative_stochastic.h"
#include "r_glue.h"

namespace {

template <class Params>
Params prototype_params(const sideclust::Options& o) {
  Params par;
  par.k = o.get<int>("k");
  par.sigma = o.get<double>("sigma");
  par.n0 = o.get<double>("n0");
  par.restarts = o.get<int>("restarts");
  par.init = sideclust::seed_init(o.get<std::string>("init"));
  if (par.init == sideclust::SeedInit::start) par.start = o.get<Eigen::MatrixXd>("start");
  return par;
}

sideclust::DiscriminativeParams discriminative_params(const sideclust::Options& o) {
  auto par = prototype_params<sideclust::DiscriminativeParams>(o);
  par.max_iter = o.get<int>("max_iter");
  par.tol = o.get<double>("tol");
  par.rel_tol = o.get<double>("rel_tol");
  return par;
}

sideclust::StochasticParams stochastic_params(const sideclust::Options& o) {
  auto par = prototype_params<sideclust::StochasticParams>(o);
  par.epochs = o.get<int>("epochs");
  par.step = o.get<double>("step");
  return par;
}

}  // namespace

// xt: p x n data; labels: the validated partial labels; options: k, sigma,
// n0, restarts, init, start (p x k prototypes, used when init is "start"),
// verbose, and max_iter, tol, rel_tol (Bayes factor) or epochs, step
// (stochastic).
// [[Rcpp::export(.discriminative_clustering_cpp)]]
Rcpp::List discriminative_clustering_cpp(Eigen::Map<Eigen::MatrixXd> xt, SEXP labels,
                                         Rcpp::List options) {
  const sideclust::Options o(options);
  const sideclust::DiscriminativeParams par = discriminative_params(o);
  const sideclust::SideInfo side = sideclust::side_from_r(labels, static_cast<int>(xt.cols()));
  sideclust::RHooks hooks(o.get<bool>("verbose"), "iteration");
  const sideclust::DiscriminativeResult r =
      sideclust::discriminative_clustering(xt, side.labels, par, hooks);
  const Eigen::MatrixXd w = sideclust::soft_memberships_centred(xt, r.centres, par.sigma);
  const char* stop_names[] = {"gradient", "objective", "max_iter", "no_ascent"};
  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(sideclust::hard_clusters(w)),
      Rcpp::_["membership"] = Rcpp::wrap(w), Rcpp::_["centers"] = Rcpp::wrap(r.centres),
      Rcpp::_["counts"] = Rcpp::wrap(r.counts), Rcpp::_["objective"] = r.objective,
      Rcpp::_["iterations"] = r.iterations,
      Rcpp::_["stop"] = stop_names[static_cast<int>(r.stop)], Rcpp::_["grad_max"] = r.grad_max);
}

// The stochastic approximation of Sinkkonen & Kaski; arguments as above.
// [[Rcpp::export(.discriminative_stochastic_cpp)]]
Rcpp::List discriminative_stochastic_cpp(Eigen::Map<Eigen::MatrixXd> xt, SEXP labels,
                                         Rcpp::List options) {
  const sideclust::Options o(options);
  const sideclust::StochasticParams par = stochastic_params(o);
  const sideclust::SideInfo side = sideclust::side_from_r(labels, static_cast<int>(xt.cols()));
  sideclust::RHooks hooks(o.get<bool>("verbose"), "epoch");
  const sideclust::StochasticResult r =
      sideclust::discriminative_stochastic(xt, side.labels, par, hooks);
  const Eigen::MatrixXd w = sideclust::soft_memberships_centred(xt, r.centres, par.sigma);
  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(sideclust::hard_clusters(w)),
      Rcpp::_["membership"] = Rcpp::wrap(w), Rcpp::_["centers"] = Rcpp::wrap(r.centres),
      Rcpp::_["gamma"] = Rcpp::wrap(r.gamma), Rcpp::_["counts"] = Rcpp::wrap(r.counts),
      Rcpp::_["objective"] = r.objective, Rcpp::_["epochs"] = r.epochs,
      Rcpp::_["log_bayes_factor"] = r.log_bayes_factor);
}

// Soft memberships (n x k) and hard clusters of the columns of xt.
// [[Rcpp::export(.soft_memberships_cpp)]]
Rcpp::List soft_memberships_cpp(Eigen::Map<Eigen::MatrixXd> xt, Eigen::Map<Eigen::MatrixXd> centers,
                                double sigma) {
  const Eigen::MatrixXd w = sideclust::soft_memberships_centred(xt, centers, sigma);
  return Rcpp::List::create(Rcpp::_["cluster"] = sideclust::one_based(sideclust::hard_clusters(w)),
                            Rcpp::_["membership"] = Rcpp::wrap(w));
}
