// The one home of the package's run-time AVX paths: whether this compiler
// and target can build them, the four-double lane type they compute with,
// and the run-time check that picks them. The package itself is built for
// plain x86-64; a sweep compiled a second time with
// __attribute__((target("avx"))) runs only where cpu_has_avx() says so.
// Not on Windows, where GCC does not align the stack for AVX registers
// spilled there (GCC bug 54412).
#pragma once

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(_WIN32)
#define SIDECLUST_AVX 1
#endif

namespace sideclust {

#if defined(SIDECLUST_AVX)
// Four doubles operated on lane by lane (one AVX register in AVX code);
// each lane rounds as the scalar operation. Only ever a local of
// force-inlined code: no function takes or returns one by value (kernels
// and sums hand theirs over through references and pointers, as
// sum_of_terms() in engine/sq_distance.h), so no calling convention depends
// on the target and compilers have no ABI change to warn about (-Wpsabi;
// make warnings checks it).
typedef double Lanes4 __attribute__((vector_size(32)));
#endif

inline bool cpu_has_avx() {
#if defined(SIDECLUST_AVX)
  return __builtin_cpu_supports("avx");
#else
  return false;
#endif
}

}  // namespace sideclust
