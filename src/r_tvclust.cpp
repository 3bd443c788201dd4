// Glue for the TVClust collapsed Gibbs sampler: builds the cluster family
// from R's prior list and returns the partition draws. No algorithm here.
#include <RcppEigen.h>

#include <string>
#include <vector>

#include "conjugate_simple.h"
#include "niw.h"
#include "r_glue.h"
#include "tvclust_gibbs.h"

namespace {

template <class Family>
Rcpp::List run_gibbs(const Eigen::MatrixXd& xt, const sideclust::SideInfo& side,
                     std::function<Family()> make, const sideclust::TvclustParams& par,
                     std::vector<int> init, int sweeps, bool verbose) {
  sideclust::TvclustGibbs<Family> sampler(xt, side, std::move(make), par, std::move(init));
  sideclust::RHooks hooks(verbose);
  const int n = sampler.n();
  Rcpp::IntegerMatrix draws(sweeps, n);
  Rcpp::NumericVector log_joint(sweeps), p(sweeps), q(sweeps), alpha(sweeps);
  for (int s = 0; s < sweeps; ++s) {
    sampler.sweep(hooks);
    const std::vector<int>& z = sampler.assignment();
    for (int i = 0; i < n; ++i) draws(s, i) = z[i] + 1;
    log_joint[s] = sampler.log_joint();
    p[s] = sampler.p();
    q[s] = sampler.q();
    alpha[s] = sampler.alpha();
  }
  return Rcpp::List::create(Rcpp::_["draws"] = draws, Rcpp::_["log_joint"] = log_joint,
                            Rcpp::_["p"] = p, Rcpp::_["q"] = q, Rcpp::_["alpha"] = alpha);
}

}  // namespace

// [[Rcpp::export(.tvclust_gibbs_cpp)]]
Rcpp::List tvclust_gibbs_cpp(const Eigen::MatrixXd& xt, Rcpp::List side, std::string family,
                             Rcpp::List prior, double alpha, double p, double q,
                             Rcpp::IntegerVector init, int sweeps, bool verbose,
                             Rcpp::NumericVector pq_prior, Rcpp::NumericVector alpha_prior,
                             bool chunklet_moves, int split_merge = 0,
                             bool point_scan = true) {
  const int n = static_cast<int>(xt.cols());
  const sideclust::SideInfo s = sideclust::side_from_r(side, n);
  sideclust::TvclustParams par;
  par.alpha = alpha;
  par.p = p;
  par.q = q;
  if (pq_prior.size() == 4) {  // Beta(p_a, p_b), Beta(q_a, q_b): sample p and q
    par.sample_pq = true;
    par.p_a = pq_prior[0];
    par.p_b = pq_prior[1];
    par.q_a = pq_prior[2];
    par.q_b = pq_prior[3];
  }
  par.chunklet_moves = chunklet_moves;
  par.split_merge = split_merge;
  par.point_scan = point_scan;
  if (alpha_prior.size() == 2) {  // Gamma(shape, rate): sample alpha
    par.sample_alpha = true;
    par.alpha_a = alpha_prior[0];
    par.alpha_b = alpha_prior[1];
  }
  std::vector<int> z(init.begin(), init.end());
  for (int& v : z) v -= 1;
  if (family == "gaussian") {
    const sideclust::NiwPrior pr{Rcpp::as<Eigen::VectorXd>(prior["m0"]),
                                 Rcpp::as<double>(prior["kappa0"]),
                                 Rcpp::as<double>(prior["nu0"]),
                                 Rcpp::as<Eigen::MatrixXd>(prior["S0"])};
    return run_gibbs<sideclust::NiwCluster>(
        xt, s, [&pr]() { return sideclust::NiwCluster(pr); }, par, z, sweeps, verbose);
  }
  if (family == "diagonal") {
    const sideclust::NormalGammaPrior pr{Rcpp::as<Eigen::VectorXd>(prior["m0"]),
                                         Rcpp::as<double>(prior["kappa0"]),
                                         Rcpp::as<double>(prior["a0"]),
                                         Rcpp::as<Eigen::VectorXd>(prior["b0"])};
    return run_gibbs<sideclust::NormalGammaCluster>(
        xt, s, [&pr]() { return sideclust::NormalGammaCluster(pr); }, par, z, sweeps, verbose);
  }
  if (family == "multinomial") {
    const Eigen::VectorXd a = Rcpp::as<Eigen::VectorXd>(prior["alpha"]);
    return run_gibbs<sideclust::DirichletMultinomialCluster>(
        xt, s, [&a]() { return sideclust::DirichletMultinomialCluster(a); }, par, z, sweeps,
        verbose);
  }
  Rcpp::stop("unknown family '%s'", family);
}
