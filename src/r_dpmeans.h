// Glue shared by r_rdp_means.cpp and r_kernel_rdp_means.cpp: the xi
// schedule from the options and the side-information agreement back to R.
#pragma once

#include <Rcpp.h>

#include "common/cluster_links.h"
#include "dpmeans/xi_schedule.h"
#include "r_glue.h"

namespace sideclust {

// The xi schedule of RDP-means and kernel RDP-means from their options: xi
// and xi_max (must, cannot), xi_rate, patience, max_iter, random_order.
inline void read_xi_schedule(const Options& o, XiScheduleParams& par) {
  const Rcpp::NumericVector xi = o.get<Rcpp::NumericVector>("xi");
  const Rcpp::NumericVector xi_max = o.get<Rcpp::NumericVector>("xi_max");
  par.xi_may = xi[0];
  par.xi_may_not = xi[1];
  par.xi_rate = o.get<double>("xi_rate");
  par.xi_max_may = xi_max[0];
  par.xi_max_may_not = xi_max[1];
  par.patience = o.get<int>("patience");
  par.max_iter = o.get<int>("max_iter");
  par.random_order = o.get<bool>("random_order");
}

// The kept and broken side-information weight of a fit, as R's named vector.
inline Rcpp::NumericVector agreement_to_r(const SideAgreement& a) {
  return Rcpp::NumericVector::create(
      Rcpp::_["must_satisfied"] = a.may_satisfied, Rcpp::_["must_violated"] = a.may_violated,
      Rcpp::_["cannot_satisfied"] = a.may_not_satisfied,
      Rcpp::_["cannot_violated"] = a.may_not_violated);
}

}  // namespace sideclust
