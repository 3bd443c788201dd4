// Entry points that exist only for the tests, so that they can reach one
// core piece directly: the conjugate cluster families (add / remove / query
// against closed forms), one TVClust chain with every sweep (against exact
// posteriors), TVClust's variational bound against the collapsed marginal
// likelihood, sequential IB's O(nnz) merge costs and discriminative
// clustering's objective and gradient, the k-means++ seeds (plain and
// greedy) against a reference in R, and RDP-means' visiting orders. Nothing
// in R/ calls them. No algorithm here.
#include <RcppEigen.h>

#include <algorithm>

#include <string>
#include <vector>

#include "common/seeding.h"
#include "discriminative/discriminative_clustering.h"
#include "info/sib.h"
#include "engine/visit_order.h"
#include "r_glue.h"
#include "r_joint.h"
#include "r_tvclust.h"
#include "tvclust/conjugate_simple.h"
#include "tvclust/niw.h"

// The conjugate cluster families: add the columns of `add`, remove those of
// `remove`, then report the posterior predictive at the columns of `query`
// and the log marginal likelihood.
namespace {

// Runs the add / remove / query protocol on any cluster family.
template <class Cluster>
Rcpp::List check_family(Cluster& cluster, const Eigen::MatrixXd& add,
                        const Eigen::MatrixXd& remove, const Eigen::MatrixXd& query) {
  for (Eigen::Index j = 0; j < add.cols(); ++j) cluster.add(add.col(j));
  for (Eigen::Index j = 0; j < remove.cols(); ++j) cluster.remove(remove.col(j));
  Eigen::VectorXd pred(query.cols());
  for (Eigen::Index j = 0; j < query.cols(); ++j) pred(j) = cluster.log_predictive(query.col(j));
  return Rcpp::List::create(Rcpp::_["log_predictive"] = pred,
                            Rcpp::_["log_marginal"] = cluster.log_marginal(),
                            Rcpp::_["n"] = cluster.size());
}

}  // namespace

// [[Rcpp::export(.niw_check_cpp)]]
Rcpp::List niw_check_cpp(const Eigen::MatrixXd& add, const Eigen::MatrixXd& remove,
                         const Eigen::MatrixXd& query, const Eigen::VectorXd& m0,
                         double kappa0, double nu0, const Eigen::MatrixXd& S0) {
  sideclust::NiwPrior prior{m0, kappa0, nu0, S0};
  sideclust::NiwCluster cluster(prior);
  Rcpp::List out = check_family(cluster, add, remove, query);
  out["mean"] = cluster.mean();
  return out;
}


// [[Rcpp::export(.normal_gamma_check_cpp)]]
Rcpp::List normal_gamma_check_cpp(const Eigen::MatrixXd& add, const Eigen::MatrixXd& remove,
                                  const Eigen::MatrixXd& query, const Eigen::VectorXd& m0,
                                  double kappa0, double a0, const Eigen::VectorXd& b0) {
  sideclust::NormalGammaPrior prior{m0, kappa0, a0, b0};
  sideclust::NormalGammaCluster cluster(prior);
  return check_family(cluster, add, remove, query);
}

// [[Rcpp::export(.dirichlet_multinomial_check_cpp)]]
Rcpp::List dirichlet_multinomial_check_cpp(const Eigen::MatrixXd& add,
                                           const Eigen::MatrixXd& remove,
                                           const Eigen::MatrixXd& query,
                                           const Eigen::VectorXd& alpha) {
  sideclust::DirichletMultinomialCluster cluster(alpha);
  return check_family(cluster, add, remove, query);
}

// One chain, every sweep returned (for the tests against exact posteriors).
// [[Rcpp::export(.tvclust_gibbs_cpp)]]
Rcpp::List tvclust_gibbs_cpp(const Eigen::MatrixXd& xt, SEXP side, std::string family,
                             Rcpp::List prior, double alpha, double p, double q,
                             Rcpp::IntegerVector init, int sweeps, bool verbose,
                             Rcpp::NumericVector pq_prior, Rcpp::NumericVector alpha_prior,
                             bool chunklet_moves, int split_merge = 0,
                             bool point_scan = true) {
  const int n = static_cast<int>(xt.cols());
  const sideclust::SideInfo s = sideclust::side_from_r(side, n);
  const sideclust::TvclustParams par = sideclust::params_from_r(Rcpp::List::create(
      Rcpp::_["alpha"] = alpha, Rcpp::_["p"] = p, Rcpp::_["q"] = q,
      Rcpp::_["pq_prior"] = pq_prior, Rcpp::_["alpha_prior"] = alpha_prior,
      Rcpp::_["chunklet_moves"] = chunklet_moves, Rcpp::_["split_merge"] = split_merge,
      Rcpp::_["point_scan"] = point_scan));
  const std::vector<int> z = sideclust::zero_based(init);
  return sideclust::with_family(family, prior, [&](auto make) {
    using Family = std::decay_t<decltype(make())>;
    sideclust::TvclustGibbs<Family> sampler(xt, s, make, par, z);
    sideclust::RHooks hooks(verbose);
    Rcpp::IntegerMatrix draws(sweeps, n);
    Rcpp::NumericVector log_joint(sweeps), pv(sweeps), qv(sweeps), av(sweeps);
    for (int t = 0; t < sweeps; ++t) {
      sampler.sweep(hooks);
      const std::vector<int>& zz = sampler.assignment();
      for (int i = 0; i < n; ++i) draws(t, i) = zz[i] + 1;
      log_joint[t] = sampler.log_joint();
      pv[t] = sampler.p();
      qv[t] = sampler.q();
      av[t] = sampler.alpha();
    }
    return Rcpp::List::create(Rcpp::_["draws"] = draws, Rcpp::_["log_joint"] = log_joint,
                              Rcpp::_["p"] = pv, Rcpp::_["q"] = qv, Rcpp::_["alpha"] = av);
  });
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
  sideclust::with_vb_family(family, prior, [&](const auto& empty) {
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

// Merge costs d(x, c) of row x (1-based) into every cluster of `cluster`
// (1-based) after drawing x out: exposes the O(nnz(x)) formula to tests.
// [[Rcpp::export(.sib_costs_cpp)]]
std::vector<double> sib_costs_cpp(Rcpp::List csr, std::vector<int> cluster, int k, int x) {
  const sideclust::JointCsr p = sideclust::joint_from_r(csr);
  for (int& c : cluster) --c;
  sideclust::SibState st(p, k);
  st.reset(cluster);
  st.move(x - 1, cluster[x - 1], -1.0);
  std::vector<double> d;
  st.costs(x - 1, d);
  return d;
}

// The objective (log Bayes factor), its gradient (p x k) and the soft counts
// (k x M) at given prototypes (p x k); for tests.
// [[Rcpp::export(.discriminative_objective_cpp)]]
Rcpp::List discriminative_objective_cpp(Eigen::Map<Eigen::MatrixXd> xt, std::vector<int> labels,
                                        int n_classes, Eigen::Map<Eigen::MatrixXd> centers,
                                        double sigma, double n0) {
  const int k = static_cast<int>(centers.cols());
  const sideclust::DiscriminativeObjective obj(xt, labels, n_classes, k, sigma, n0);
  const Eigen::MatrixXd m = centers.colwise() - obj.shift();
  Eigen::MatrixXd grad;
  const double value = obj.value_gradient(m, grad);
  return Rcpp::List::create(Rcpp::_["objective"] = value, Rcpp::_["gradient"] = Rcpp::wrap(grad),
                            Rcpp::_["counts"] = Rcpp::wrap(obj.counts(m)));
}

// k-means++ seeds (greedy with trials > 1) of the columns of xt, 1-based,
// drawn with R's generator.
// [[Rcpp::export(.kmeanspp_seeds_cpp)]]
Rcpp::IntegerVector kmeanspp_seeds_cpp(const Eigen::MatrixXd& xt, int k, int trials) {
  sideclust::RHooks hooks(false);
  return sideclust::one_based(sideclust::kmeanspp_indices(xt, k, hooks, trials));
}

// The visiting orders of `sweeps` sweeps over n points (0-based, one column
// per sweep) for kind "random", "uniform" or "fixed", and the block size.
// [[Rcpp::export(.visit_orders_cpp)]]
Rcpp::List visit_orders_cpp(int n, std::string kind, int sweeps) {
  sideclust::RHooks hooks(false);
  const sideclust::VisitKind k = kind == "random"    ? sideclust::VisitKind::random
                                 : kind == "uniform" ? sideclust::VisitKind::uniform
                                                     : sideclust::VisitKind::fixed;
  sideclust::VisitOrder visit(n, k, hooks);
  Rcpp::IntegerMatrix out(n, sweeps);
  for (int s = 0; s < sweeps; ++s) {
    visit.next_sweep(hooks);
    std::copy(visit.order().begin(), visit.order().end(), out.begin() + static_cast<R_xlen_t>(s) * n);
  }
  return Rcpp::List::create(Rcpp::_["order"] = out, Rcpp::_["block"] = visit.block_size());
}
