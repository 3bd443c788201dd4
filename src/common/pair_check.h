// One pass over a pair list in R's layout (1-based i < j, sorted by i then
// j, must as 0/1, confidence in (0, 1]): the check behind validate_side() in
// R/side-info.R, without the full-length temporaries vectorised R would
// allocate. Plain C++17, no R API: R's NA integers and logicals are INT_MIN
// and fail the range tests, NA confidences are NaN and fail theirs.
#pragma once

#include <cstddef>

namespace sideclust {

// Which of the contract's clauses a pair list breaks, the earliest clause
// first (0 = none, 1 = range / NA / orientation, 2 = confidence, 3 = order).
inline int pair_list_problem(const int* i, const int* j, const int* must,
                             const double* confidence, std::size_t m, int n) {
  bool range = true, conf = true, order = true;
  for (std::size_t e = 0; e < m; ++e) {
    range = range && i[e] >= 1 && j[e] <= n && i[e] < j[e] && (must[e] == 0 || must[e] == 1);
    conf = conf && confidence[e] > 0.0 && confidence[e] <= 1.0;
    order = order && (e == 0 || i[e - 1] < i[e] || (i[e - 1] == i[e] && j[e - 1] < j[e]));
  }
  return !range ? 1 : !conf ? 2 : !order ? 3 : 0;
}

}  // namespace sideclust
