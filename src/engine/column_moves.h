// A posterior column's update written in place, with how far it moved: the
// mean fields' step on the lanes of engine/lanes2.h.
#pragma once

#include <Eigen/Core>

#include "engine/force_inline.h"
#include "engine/lanes2.h"

namespace sideclust {

// Writes q_u(k) = s[k] * inv over the old q_u and returns the largest
// |new - old| / max(1 - max(new, old), 1e-300) over k: the bound the mean
// fields use for a neighbour's factor 1 - q_u(k) (certain cannot-links);
// *largest_change, when given, gets the largest |new - old|. The ratios are
// divided out in two lanes with a running maximum each: a comparison by
// products (one division at the end) made each k wait on the one before. A maximum is exact, so the results do not
// depend on the grouping.
SIDECLUST_FORCE_INLINE double store_and_largest_move(double* qu, const double* s, double inv,
                                                     Eigen::Index K,
                                                     double* largest_change = nullptr) {
  Eigen::Index k = 0;
  double m = 0.0, c = 0.0;
#if defined(SIDECLUST_HAS_LANES2)
  const Lanes2 scale = {inv, inv}, one = {1.0, 1.0}, floor = {1e-300, 1e-300};
  Lanes2 m2 = {0.0, 0.0}, c2 = {0.0, 0.0};
  for (; k + 1 < K; k += 2) {
    const Lanes2 v = load_lanes2(s + k) * scale, old = load_lanes2(qu + k);
    const Lanes2 d = v > old ? v - old : old - v;
    Lanes2 r = one - (v > old ? v : old);
    r = r > floor ? r : floor;
    const Lanes2 ratio = d / r;
    m2 = ratio > m2 ? ratio : m2;
    c2 = d > c2 ? d : c2;
    store_lanes2(qu + k, v);
  }
  m = m2[0] > m2[1] ? m2[0] : m2[1];
  c = c2[0] > c2[1] ? c2[0] : c2[1];
#endif
  for (; k < K; ++k) {
    const double v = s[k] * inv, old = qu[k];
    const double d = v > old ? v - old : old - v;
    double r = 1.0 - (v > old ? v : old);
    r = r > 1e-300 ? r : 1e-300;
    const double ratio = d / r;
    m = ratio > m ? ratio : m;
    c = d > c ? d : c;
    qu[k] = v;
  }
  if (largest_change != nullptr) *largest_change = c;
  return m;
}

}  // namespace sideclust
