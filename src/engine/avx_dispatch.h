// The one run-time AVX dispatch. An algorithm writes its hot step once, as
// a generic callable taking a kernels tag (PortableKernels or AvxKernels),
// and hands it to run_with_kernels(): the step then runs either as plain
// x86-64 code or through a trampoline compiled with
// __attribute__((target("avx"), flatten)), which inlines the whole step
// (and every kernel it calls) into code built for AVX. Either way the step
// is flattened: the callables it hands to engine loops (engine/lookahead.h)
// are inlined into one loop, as a hand-written loop would be; run_inlined()
// does the same for a step without an AVX form. The package itself
// is built for plain x86-64 (engine/avx_lanes.h): the AVX form runs only
// where the processor has it. The kernels of both tags compute the same
// operations lane by lane, so both forms give bitwise the same values.
#pragma once

#include <utility>

#include "engine/avx_lanes.h"

namespace sideclust {

// Kernel tags: which form of the engine's kernels a step is instantiated
// with. Kernel functions take the tag as their first argument (overloads),
// or a step asks `Kernels::avx`.
struct PortableKernels {
  static constexpr bool avx = false;
};
// Only ever instantiated through run_with_kernels() (AVX code); where AVX
// code cannot be built it is never chosen.
struct AvxKernels {
  static constexpr bool avx = true;
};

// Whether run_with_kernels(use_avx, ...) takes the AVX form.
inline bool avx_chosen(bool use_avx) {
#if defined(SIDECLUST_AVX)
  return use_avx && cpu_has_avx();
#else
  (void)use_avx;
  return false;
#endif
}

#if defined(__GNUC__) || defined(__clang__)
#define SIDECLUST_FLATTEN __attribute__((flatten))
#else
#define SIDECLUST_FLATTEN
#endif

namespace avx_detail {
template <class Step>
SIDECLUST_FLATTEN decltype(auto) run_portable(Step& step) {
  return step(PortableKernels{});
}
#if defined(SIDECLUST_AVX)
// flatten: every call inside, the step's own operator() first, is inlined,
// so the step's loops are compiled for AVX, not called in their plain form.
template <class Step>
__attribute__((target("avx"), flatten)) decltype(auto) run_avx(Step& step) {
  return step(AvxKernels{});
}
#endif
}  // namespace avx_detail

// step(AvxKernels{}) compiled for AVX when use_avx and the processor has
// AVX, else step(PortableKernels{}); returns what the step returns.
template <class Step>
decltype(auto) run_with_kernels(bool use_avx, Step&& step) {
#if defined(SIDECLUST_AVX)
  if (avx_chosen(use_avx)) return avx_detail::run_avx(step);
#else
  (void)use_avx;
#endif
  return avx_detail::run_portable(step);
}

// step() with every call inside inlined (flatten): a hot loop whose body
// and look-ahead stages are callables compiles as one loop.
template <class Step>
SIDECLUST_FLATTEN decltype(auto) run_inlined(Step&& step) {
  return step();
}

}  // namespace sideclust
