// What an algorithm needs from its host: uniform random numbers, a chance to
// stop on user interrupt, and a place to report progress. The R glue supplies
// R's generator and Rcpp::checkUserInterrupt(); a C++ test driver can supply
// its own, so the cores compile and run outside R.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace sideclust {

class RunHooks {
 public:
  virtual ~RunHooks() = default;
  // A uniform draw on [0, 1).
  virtual double uniform() = 0;
  // Called once per sweep on the calling thread; may throw to stop the run.
  virtual void check_interrupt() {}
  // Called once per sweep after the sweep's bookkeeping is done.
  virtual void on_sweep(int /*iteration*/, int /*k*/, double /*objective*/) {}
};

// Fisher-Yates shuffle driven by the host's generator.
inline void shuffle(std::vector<int>& v, RunHooks& hooks) {
  for (std::size_t i = v.size(); i > 1; --i) {
    std::size_t j = static_cast<std::size_t>(hooks.uniform() * static_cast<double>(i));
    if (j >= i) j = i - 1;  // guard against a draw of exactly 1
    std::swap(v[i - 1], v[j]);
  }
}

}  // namespace sideclust
