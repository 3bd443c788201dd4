// Glue for discriminative clustering: maps R objects to the core and back.
#include <RcppEigen.h>

#include <string>
#include <vector>

#include "discriminative/discriminative_clustering.h"
#include "discriminative/discriminative_stochastic.h"
#include "r_glue.h"

// xt: p x n data; labels: 0-based classes, -1 unlabelled; start: p x k
// initial prototypes (used only when init is "start").
// [[Rcpp::export(.discriminative_clustering_cpp)]]
Rcpp::List discriminative_clustering_cpp(Eigen::Map<Eigen::MatrixXd> xt, std::vector<int> labels,
                                         int n_classes, int k, double sigma, double n0,
                                         int restarts, int max_iter, double tol, double rel_tol,
                                         std::string init, Eigen::Map<Eigen::MatrixXd> start,
                                         bool verbose) {
  sideclust::DiscriminativeParams par;
  par.k = k;
  par.sigma = sigma;
  par.n0 = n0;
  par.restarts = restarts;
  par.max_iter = max_iter;
  par.tol = tol;
  par.rel_tol = rel_tol;
  par.init = sideclust::seed_init(init);
  if (par.init == sideclust::SeedInit::start) par.start = start;
  sideclust::RHooks hooks(verbose, "iteration");
  const sideclust::DiscriminativeResult r =
      sideclust::discriminative_clustering(xt, labels, n_classes, par, hooks);
  const Eigen::MatrixXd w = sideclust::soft_memberships_centred(xt, r.centres, sigma);
  const char* stop_names[] = {"gradient", "objective", "max_iter", "no_ascent"};
  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(sideclust::hard_clusters(w)),
      Rcpp::_["membership"] = Rcpp::wrap(w), Rcpp::_["centres"] = Rcpp::wrap(r.centres),
      Rcpp::_["counts"] = Rcpp::wrap(r.counts), Rcpp::_["objective"] = r.objective,
      Rcpp::_["iterations"] = r.iterations,
      Rcpp::_["stop"] = stop_names[static_cast<int>(r.stop)], Rcpp::_["grad_max"] = r.grad_max);
}

// The stochastic approximation of Sinkkonen & Kaski; arguments as above.
// [[Rcpp::export(.discriminative_stochastic_cpp)]]
Rcpp::List discriminative_stochastic_cpp(Eigen::Map<Eigen::MatrixXd> xt, std::vector<int> labels,
                                         int n_classes, int k, double sigma, double n0,
                                         int restarts, int epochs, double step, std::string init,
                                         Eigen::Map<Eigen::MatrixXd> start, bool verbose) {
  sideclust::StochasticParams par;
  par.k = k;
  par.sigma = sigma;
  par.n0 = n0;
  par.restarts = restarts;
  par.epochs = epochs;
  par.step = step;
  par.init = sideclust::seed_init(init);
  if (par.init == sideclust::SeedInit::start) par.start = start;
  sideclust::RHooks hooks(verbose, "epoch");
  const sideclust::StochasticResult r =
      sideclust::discriminative_stochastic(xt, labels, n_classes, par, hooks);
  const Eigen::MatrixXd w = sideclust::soft_memberships_centred(xt, r.centres, sigma);
  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(sideclust::hard_clusters(w)),
      Rcpp::_["membership"] = Rcpp::wrap(w), Rcpp::_["centres"] = Rcpp::wrap(r.centres),
      Rcpp::_["gamma"] = Rcpp::wrap(r.gamma), Rcpp::_["counts"] = Rcpp::wrap(r.counts),
      Rcpp::_["objective"] = r.objective, Rcpp::_["epochs"] = r.epochs,
      Rcpp::_["log_bayes_factor"] = r.log_bayes_factor);
}

// The objective (log Bayes factor), its gradient (p x k) and the soft counts
// (k x M) at given prototypes (p x k); for tests.
// [[Rcpp::export(.discriminative_objective_cpp)]]
Rcpp::List discriminative_objective_cpp(Eigen::Map<Eigen::MatrixXd> xt, std::vector<int> labels,
                                        int n_classes, Eigen::Map<Eigen::MatrixXd> centres,
                                        double sigma, double n0) {
  const int k = static_cast<int>(centres.cols());
  const sideclust::DiscriminativeObjective obj(xt, labels, n_classes, k, sigma, n0);
  const Eigen::MatrixXd m = centres.colwise() - obj.shift();
  Eigen::MatrixXd grad;
  const double value = obj.value_gradient(m, grad);
  return Rcpp::List::create(Rcpp::_["objective"] = value, Rcpp::_["gradient"] = Rcpp::wrap(grad),
                            Rcpp::_["counts"] = Rcpp::wrap(obj.counts(m)));
}

// Soft memberships (n x k) and hard clusters of the columns of xt.
// [[Rcpp::export(.soft_memberships_cpp)]]
Rcpp::List soft_memberships_cpp(Eigen::Map<Eigen::MatrixXd> xt, Eigen::Map<Eigen::MatrixXd> centres,
                                double sigma) {
  const Eigen::MatrixXd w = sideclust::soft_memberships_centred(xt, centres, sigma);
  return Rcpp::List::create(Rcpp::_["cluster"] = sideclust::one_based(sideclust::hard_clusters(w)),
                            Rcpp::_["membership"] = Rcpp::wrap(w));
}
