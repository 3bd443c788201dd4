// One point's costs for every cluster, built from terms that each add to
// every cluster but one (`at`) or to that one alone. For a number of
// clusters K known when compiled (2 .. 6) two clusters share each
// instruction (engine/lanes2.h); K = 0 takes k at run time, one cluster at
// a time. Which clusters a term reaches is decided by multiplying by 1 or 0
// rather than by a branch on `at` (random from one term to the next): every
// cost is the sum of the same terms in the same order as one cluster at a
// time would give, plus exact zeros, so the values are bitwise the same.
#pragma once

#include <cstring>

#include "engine/force_inline.h"
#include "engine/lanes2.h"

namespace sideclust {

template <int K>
class OneHotCosts {
#if defined(SIDECLUST_HAS_LANES2)
  static constexpr bool kLanes = K > 1;
#else
  static constexpr bool kLanes = false;
#endif
  static constexpr int kHalves = K > 0 ? (K + 1) / 2 : 1;

 public:
  explicit OneHotCosts(int k) : k_(K > 0 ? K : k) {
#if defined(SIDECLUST_HAS_LANES2)
    for (int at = 0; at < (K > 0 ? K : 1); ++at) {
      for (int h = 0; h < kHalves; ++h) {
        const double a = 2 * h == at, b = 2 * h + 1 == at;
        other_[at][h] = Lanes2{1.0 - a, 1.0 - b};
        only_[at][h] = Lanes2{a, b};
      }
    }
#endif
  }

  // out[u] = c * own[u] for every cluster u, then terms(add) with
  // add(at, s, shift, row, v): out[u] += (s * (shift + row[u])) * (u != at)
  // + v * (u == at). out (and own, row) need room for k + 1 doubles (a
  // padding lane, not a cost).
  template <class Terms>
  SIDECLUST_FORCE_INLINE void costs(double c, const double* own, Terms&& terms, double* out) const {
#if defined(SIDECLUST_HAS_LANES2)
    if constexpr (kLanes) {
      Lanes2 acc[kHalves];
      for (int h = 0; h < kHalves; ++h) acc[h] = Lanes2{c, c} * load_lanes2(own + 2 * h);
      terms([&](int at, double s, double shift, const double* row, double v) {
        const Lanes2 sv{s, s}, shiftv{shift, shift}, vv{v, v};
        for (int h = 0; h < kHalves; ++h) {
          acc[h] += (sv * (shiftv + load_lanes2(row + 2 * h))) * other_[at][h] + vv * only_[at][h];
        }
      });
      std::memcpy(out, acc, sizeof acc);
      return;
    }
#endif
    const int k = k_;
    for (int u = 0; u < k; ++u) out[u] = c * own[u];
    terms([&](int at, double s, double shift, const double* row, double v) {
      for (int u = 0; u < k; ++u) {
        const double at_u = static_cast<double>(u == at);
        out[u] += (s * (shift + row[u])) * (1.0 - at_u) + v * at_u;
      }
    });
  }

 private:
  int k_;
#if defined(SIDECLUST_HAS_LANES2)
  Lanes2 other_[K > 0 ? K : 1][kHalves];  // lane u: 1 if u != at, else 0
  Lanes2 only_[K > 0 ? K : 1][kHalves];   // lane u: 1 if u == at, else 0
#endif
};

}  // namespace sideclust
