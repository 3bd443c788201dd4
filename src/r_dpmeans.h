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
  par.xi_must = xi[0];
  par.xi_cannot = xi[1];
  par.xi_rate = o.get<double>("xi_rate");
  par.xi_max_must = xi_max[0];
  par.xi_max_cannot = xi_max[1];
  par.patience = o.get<int>("patience");
  par.max_iter = o.get<int>("max_iter");
  par.random_order = o.get<bool>("random_order");
}

// The kept and broken side-information weight of a fit, as R's named vector.
inline Rcpp::NumericVector agreement_to_r(const SideAgreement& a) {
  return Rcpp::NumericVector::create(
      Rcpp::_["must_satisfied"] = a.must_satisfied, Rcpp::_["must_violated"] = a.must_violated,
      Rcpp::_["cannot_satisfied"] = a.cannot_satisfied,
      Rcpp::_["cannot_violated"] = a.cannot_violated);
}

}  // namespace sideclust
