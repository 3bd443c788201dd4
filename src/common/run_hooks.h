// What an algorithm needs from its host: uniform random numbers, a chance to
// stop on user interrupt, and a place to report progress. The R glue supplies
// R's generator and Rcpp::checkUserInterrupt(); a C++ test driver can supply
// its own, so the cores compile and run outside R.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace sideclust {

class RunHooks {
 public:
  virtual ~RunHooks() = default;
  // A uniform draw on [0, 1).
  virtual double uniform() = 0;
  // A uniform draw on (0, 1): uniform() redrawn while 0 (R's runif() rule).
  double uniform_open() {
    double u;
    do u = uniform(); while (u <= 0.0 || u >= 1.0);
    return u;
  }
  // A uniform integer in 0 .. dn - 1 (as a double). The R host uses R's own
  // rule (R_unif_index(), as sample.int() does), so draws match R's.
  virtual double unif_index(double dn) { return std::floor(dn * uniform()); }
  // A standard normal draw (Box-Muller from uniform() unless overridden).
  virtual double normal() {
    double u = uniform();
    while (u <= 0.0) u = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * uniform());
  }
  // A Gamma(shape, 1) draw (Marsaglia & Tsang unless overridden).
  virtual double gamma(double shape) {
    if (shape < 1.0) {
      double u = uniform();
      while (u <= 0.0) u = uniform();
      return gamma(shape + 1.0) * std::pow(u, 1.0 / shape);
    }
    const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
      double z = normal(), v = 1.0 + c * z;
      if (v <= 0.0) continue;
      v = v * v * v;
      const double u = uniform();
      if (u > 0.0 && std::log(u) < 0.5 * z * z + d - d * v + d * std::log(v)) return d * v;
    }
  }
  double beta(double a, double b) {
    const double x = gamma(a);
    return x / (x + gamma(b));
  }
  // Called once per sweep on the calling thread; may throw to stop the run.
  virtual void check_interrupt() {}
  // Called inside long sweeps with the work just done (e.g. k * p for one
  // point's distances): forwards to check_interrupt() once about every
  // kPollWork units, so a sweep over millions of points, or one that opens
  // thousands of clusters, still answers Ctrl-C within a fraction of a
  // second at a negligible cost. Calling thread only.
  static constexpr std::size_t kPollWork = std::size_t(1) << 20;
  void poll_interrupt(std::size_t work) {
    work_since_poll_ += work;
    if (work_since_poll_ >= kPollWork) {
      work_since_poll_ = 0;
      ++polls_;
      check_interrupt();
    }
  }
  // How often poll_interrupt() reached check_interrupt() (for the tests).
  std::size_t polls() const { return polls_; }
  // Called once per sweep after the sweep's bookkeeping is done.
  virtual void on_sweep(int /*iteration*/, int /*k*/, double /*objective*/) {}

 private:
  std::size_t work_since_poll_ = 0;
  std::size_t polls_ = 0;
};

// Fisher-Yates shuffle driven by any source of uniform draws on [0, 1).
template <class Uniform>
void shuffle_with(std::vector<int>& v, Uniform&& uniform) {
  for (std::size_t i = v.size(); i > 1; --i) {
    std::size_t j = static_cast<std::size_t>(uniform() * static_cast<double>(i));
    if (j >= i) j = i - 1;  // guard against a draw of exactly 1
    std::swap(v[i - 1], v[j]);
  }
}

inline void shuffle(std::vector<int>& v, RunHooks& hooks) {
  shuffle_with(v, [&hooks]() { return hooks.uniform(); });
}

// SplitMix64 (Steele, Lea & Flood 2014): a small, fast generator for bulk
// draws whose seed comes from the host's generator, so runs stay
// reproducible from set.seed() at a fraction of the cost per draw.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  explicit SplitMix64(RunHooks& hooks)
      : state_(static_cast<std::uint64_t>(hooks.uniform() * 9007199254740992.0)) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

}  // namespace sideclust
