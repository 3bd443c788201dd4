// Which kernels the AVX dispatch (engine/avx_dispatch.h) may choose, from R:
// the option sideclust.portable_kernels (TRUE forces the portable kernels;
// R/kernel-path.R sets it at load from the environment variable
// SIDECLUST_PORTABLE). Every glue file of a core with an AVX form sets the
// core's use_avx from avx_allowed(), read on each call, so the option is
// honoured from the next fit on.
#pragma once

#include <Rcpp.h>

#include "r_glue.h"

namespace sideclust {

// The option sideclust.portable_kernels: FALSE when unset, else TRUE or FALSE.
inline bool portable_kernels_forced() {
  SEXP v = Rf_GetOption1(Rf_install("sideclust.portable_kernels"));
  if (Rf_isNull(v)) return false;
  if (!Rf_isLogical(v) || Rf_xlength(v) != 1 || LOGICAL(v)[0] == NA_LOGICAL) {
    Rcpp::stop("options(sideclust.portable_kernels) must be TRUE or FALSE");
  }
  return LOGICAL(v)[0] != 0;
}

// Whether a core may take its AVX form: the glue option use_avx (TRUE when
// absent; the tests set FALSE to compare the forms) unless the package option
// forces the portable kernels. The processor is asked later (avx_chosen()).
inline bool avx_allowed(const Options& o) {
  const bool wanted = !o.has("use_avx") || o.get<bool>("use_avx");
  return wanted && !portable_kernels_forced();
}

}  // namespace sideclust
