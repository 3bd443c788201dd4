// The digamma function psi(x) = d log Gamma(x) / dx for x > 0, shared by the
// variational TVClust bounds and the Bayes-factor gradient of discriminative
// clustering. Plain C++17.
#pragma once

#include <cmath>
#include <stdexcept>

namespace sideclust {

// The recurrence psi(x) = psi(x + 1) - 1 / x up to x >= 6, then the asymptotic
// series (absolute error below 1e-13 there). Callers that can reach x <= 0 or
// a non-finite x check first and say what the user can change.
inline double digamma(double x) {
  if (!(x > 0.0) || !std::isfinite(x)) {
    throw std::domain_error("digamma() of a non-positive or non-finite number");
  }
  double shift = 0.0;
  while (x < 6.0) {
    shift -= 1.0 / x;
    x += 1.0;
  }
  const double r = 1.0 / x, r2 = r * r;
  const double series =
      r2 * (1.0 / 12 - r2 * (1.0 / 120 - r2 * (1.0 / 252 - r2 * (1.0 / 240 - r2 * (1.0 / 132)))));
  return shift + std::log(x) - 0.5 * r - series;
}

}  // namespace sideclust
