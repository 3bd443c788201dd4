// Reports which kernels the AVX dispatch takes now (for the tests and for
// bug reports): "avx" where the processor has AVX and the portable kernels
// are not forced (src/r_kernels.h), else "portable".
#include <Rcpp.h>

#include <string>

#include "engine/avx_dispatch.h"
#include "r_kernels.h"

// [[Rcpp::export(.kernel_path_cpp)]]
std::string kernel_path_cpp() {
  return sideclust::avx_chosen(!sideclust::portable_kernels_forced()) ? "avx" : "portable";
}
