// Glue for kernel RDP-means: maps the R description of a kernel to a kernel
// source of src/dpmeans/kernel_sources.h, runs the core, and returns plain R
// data. No algorithm here.
#include <Rcpp.h>

#include <string>
#include <vector>

#include "dpmeans/kernel_rdp_means.h"
#include "r_dpmeans.h"
#include "r_glue.h"

namespace {

// The kernel as R describes it: list(type = , x = p x n data, sigma = ) for
// "linear" / "rbf", list(type = "dense", matrix = n x n) or
// list(type = "sparse", p = , i = , x = , n = ) (a dgCMatrix's slots).
// Calls f(kernel source).
template <class F>
auto with_kernel(const Rcpp::List& kernel, F&& f) {
  const std::string type = Rcpp::as<std::string>(kernel["type"]);
  if (type == "linear" || type == "rbf") {
    const Rcpp::NumericMatrix xt = kernel["x"];
    if (type == "linear") {
      sideclust::LinearKernel k(xt.begin(), xt.ncol(), xt.nrow());
      return f(k);
    }
    sideclust::RbfKernel k(xt.begin(), xt.ncol(), xt.nrow(), Rcpp::as<double>(kernel["sigma"]));
    return f(k);
  }
  if (type == "dense") {
    const Rcpp::NumericMatrix m = kernel["matrix"];
    sideclust::DenseKernel k(m.begin(), m.ncol());
    return f(k);
  }
  if (type == "sparse") {
    const Rcpp::IntegerVector p = kernel["p"], i = kernel["i"];
    const Rcpp::NumericVector x = kernel["x"];
    sideclust::SparseKernel k(p.begin(), i.begin(), x.begin(), Rcpp::as<int>(kernel["n"]));
    return f(k);
  }
  Rcpp::stop("internal: unknown kernel type '%s'", type);
}

sideclust::KernelRdpParams kernel_rdp_params(const sideclust::Options& o) {
  sideclust::KernelRdpParams par;
  par.lambda = o.get<double>("lambda");
  sideclust::read_xi_schedule(o, par);
  par.merge_moves = o.get<bool>("merge_moves");
  return par;
}

}  // namespace

// kernel: see with_kernel(); side: validated side information or NULL;
// start: 1-based starting partition; options: lambda, xi, xi_rate, xi_max,
// patience, max_iter, random_order, merge_moves, verbose.
// [[Rcpp::export(.kernel_rdp_means_cpp)]]
Rcpp::List kernel_rdp_means_cpp(Rcpp::List kernel, SEXP side, Rcpp::IntegerVector start,
                                Rcpp::List options) {
  const sideclust::Options o(options);
  const sideclust::KernelRdpParams par = kernel_rdp_params(o);
  sideclust::RHooks hooks(o.get<bool>("verbose"));
  const std::vector<int> z0 = sideclust::zero_based(start);
  const sideclust::SideInfo s = sideclust::side_from_r(side, static_cast<int>(z0.size()));
  const sideclust::KernelRdpResult r = with_kernel(kernel, [&](auto& kern) {
    return sideclust::kernel_rdp_means(kern, s, z0, par, hooks);
  });
  return Rcpp::List::create(
      Rcpp::_["cluster"] = sideclust::one_based(r.cluster), Rcpp::_["k"] = r.k,
      Rcpp::_["within"] = r.within, Rcpp::_["size"] = r.size,
      Rcpp::_["objective"] = r.objective, Rcpp::_["data_term"] = r.data_term,
      Rcpp::_["k_trace"] = r.k_trace, Rcpp::_["changes"] = r.changes,
      Rcpp::_["iterations"] = r.iterations, Rcpp::_["converged"] = r.converged,
      Rcpp::_["xi"] = Rcpp::NumericVector::create(r.xi_must, r.xi_cannot),
      Rcpp::_["agreement"] = sideclust::agreement_to_r(r.agreement));
}

// Per-cluster kernel sums S_c and sizes of a 1-based partition (for the
// objective of a given partition, e.g. in the tests).
// [[Rcpp::export(.kernel_cluster_stats_cpp)]]
Rcpp::List kernel_cluster_stats_cpp(Rcpp::List kernel, Rcpp::IntegerVector cluster, int k) {
  sideclust::RHooks hooks(false);
  const std::vector<int> z = sideclust::zero_based(cluster);
  std::vector<double> S, D;
  std::vector<int> size;
  with_kernel(kernel, [&](auto& kern) {
    sideclust::kernel_cluster_stats(kern, z, k, S, D, size, hooks);
    return 0;
  });
  return Rcpp::List::create(Rcpp::_["within"] = S, Rcpp::_["diag"] = D, Rcpp::_["size"] = size);
}

// [[Rcpp::export(.kernel_lambda_cpp)]]
double kernel_lambda_cpp(Rcpp::List kernel, int k) {
  sideclust::RHooks hooks(false);
  return with_kernel(kernel, [&](auto& kern) {
    return sideclust::kernel_farthest_first_lambda(kern, k, hooks);
  });
}

// K V with the RBF kernel on the fly (V: n x m).
// [[Rcpp::export(.rbf_product_cpp)]]
Rcpp::NumericMatrix rbf_product_cpp(Rcpp::NumericMatrix xt, double sigma, Rcpp::NumericMatrix v) {
  const sideclust::RbfKernel kern(xt.begin(), xt.ncol(), xt.nrow(), sigma);
  Rcpp::NumericMatrix out(v.nrow(), v.ncol());
  sideclust::rbf_product(kern, v.begin(), v.ncol(), out.begin());
  return out;
}

// For new points (columns of yt): sum of the RBF kernel to the training
// points (columns of xt) of every cluster; m x k.
// [[Rcpp::export(.rbf_cluster_sums_cpp)]]
Rcpp::NumericMatrix rbf_cluster_sums_cpp(Rcpp::NumericMatrix xt, double sigma,
                                         Rcpp::IntegerVector cluster, int k,
                                         Rcpp::NumericMatrix yt) {
  const sideclust::RbfKernel kern(xt.begin(), xt.ncol(), xt.nrow(), sigma);
  const std::vector<double> s =
      sideclust::rbf_cluster_sums(kern, yt.begin(), yt.ncol(), sideclust::zero_based(cluster), k);
  Rcpp::NumericMatrix out(yt.ncol(), k);
  std::copy(s.begin(), s.end(), out.begin());
  return out;
}
