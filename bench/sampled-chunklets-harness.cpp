// C++ timing harness for the sampled chunklet E-step outside R: the draw of
// the samples (draw_chunklet_samples(), once per fit) and repeated E-steps
// (sampled_chunklet_estep()) from the same unaries, in wall-clock seconds,
// with a hash of the posterior so that two builds of the headers can be
// checked to give the same doubles. Data in the shape of
// bench/constrained-mixture-speed.R: n points of K = 10 Gaussian blobs in
// p = 5 (centres drawn with sd 3), n pairs as Nelson & Cohen (2007) draw
// them (half must-links within a class, half cannot-links across classes,
// 10% of each flipped, confidence P ~ Beta(5, 1) when right and Beta(1, 5)
// when wrong, penalty W = -log(1 - P)). The unaries are log densities under
// the generating blobs (unit covariances, equal weights): a late EM state,
// not the R bench's random start, and std::mt19937_64 draws everything, so
// the numbers are not the R bench's.
//
//   eigen=$(Rscript -e 'cat(system.file("include", package = "RcppEigen"))')
//   g++ -std=c++17 -O2 -DEIGEN_NO_DEBUG -DEIGEN_DONT_PARALLELIZE -isystem "$eigen"
//     -pthread -I src bench/sampled-chunklets-harness.cpp -o /tmp/sc-harness
//   /tmp/sc-harness 100000 1e-2 3     # n, mean-field tolerance, E-steps
//   SAMPLES=40 THREADS=2 /tmp/sc-harness 100000 1e-6
//   MF_SWEEPS=0 /tmp/sc-harness 100000      # no mean-field sweep at all
//
// MF_SWEEPS caps each mean field's sweeps (default 50, as in R). With 0 the
// samples' chunklets keep their normalized weights: what is left is the
// E-step's floor (products of the points' weights, the shared components,
// the weighted sum of the samples), whatever their mean fields cost.
// A tolerance of 1e-2 is what EM's early iterations use (their relative
// change of the log-likelihood, at most loose_inner_tol); late ones use
// down to inner_tol = 1e-6.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "mixture/sampled_chunklets.h"

using namespace sideclust;

namespace {

class Hooks : public RunHooks {
 public:
  explicit Hooks(std::uint64_t seed) : gen_(seed) {}
  double uniform() override { return std::uniform_real_distribution<double>(0.0, 1.0)(gen_); }

 private:
  std::mt19937_64 gen_;
};

double seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : fallback;
}

double beta(std::mt19937_64& gen, double a, double b) {
  std::gamma_distribution<double> ga(a, 1.0), gb(b, 1.0);
  const double x = ga(gen);
  return x / (x + gb(gen));
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 100000;
  const double tol = argc > 2 ? std::atof(argv[2]) : 1e-2;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 3;
  const int samples = env_int("SAMPLES", 20), threads = env_int("THREADS", 1);
  const int mf_sweeps = env_int("MF_SWEEPS", 50);
  const int K = 10, p = 5;
  std::mt19937_64 gen(1);
  std::normal_distribution<double> normal(0.0, 1.0);
  // blobs and the unaries under them
  Eigen::MatrixXd centre(p, K);
  for (int k = 0; k < K; ++k) {
    for (int d = 0; d < p; ++d) centre(d, k) = 3.0 * normal(gen);
  }
  std::vector<int> y(static_cast<std::size_t>(n));
  Eigen::MatrixXd a(K, n);
  Eigen::VectorXd x(p);
  for (int i = 0; i < n; ++i) {
    y[i] = static_cast<int>(static_cast<long long>(i) * K / n);
    for (int d = 0; d < p; ++d) x(d) = centre(d, y[i]) + normal(gen);
    for (int k = 0; k < K; ++k) a(k, i) = std::log(1.0 / K) - 0.5 * (x - centre.col(k)).squaredNorm();
  }
  // Nelson & Cohen's pairs: half must-links, half cannot-links, 10% flipped
  std::vector<int> by_class_start(K + 1, 0);
  for (int i = 0; i < n; ++i) ++by_class_start[y[i] + 1];
  for (int k = 0; k < K; ++k) by_class_start[k + 1] += by_class_start[k];
  std::uniform_int_distribution<int> any_class(0, K - 1);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto member = [&](int k) {
    std::uniform_int_distribution<int> pick(by_class_start[k], by_class_start[k + 1] - 1);
    return pick(gen);
  };
  std::vector<int> first, second;
  std::vector<double> signed_w;
  for (int e = 0; e < n; ++e) {
    const bool must = e % 2 == 0;
    int i, j;
    if (must) {
      const int k = any_class(gen);
      do {
        i = member(k);
        j = member(k);
      } while (i == j);
    } else {
      const int k = any_class(gen);
      int l;
      do l = any_class(gen); while (l == k);
      i = member(k);
      j = member(l);
    }
    const bool wrong = unit(gen) < 0.1;
    const double conf = wrong ? beta(gen, 1.0, 5.0) : beta(gen, 5.0, 1.0);
    const double w = -std::log1p(-conf);
    first.push_back(i);
    second.push_back(j);
    signed_w.push_back((must != wrong) ? w : -w);
  }
  const PairGraph pairs = make_pair_list(n, first, second, signed_w);
  Hooks hooks(42);
  SampledChunklets sc;
  const double t0 = seconds();
  draw_chunklet_samples(sc, n, pairs, samples, K, 1e6, hooks);
  const double t1 = seconds();
  std::size_t mf_units = 0, mf_points = 0;
  for (std::size_t s = 0; s < sc.drawn_part.samples.size(); ++s) {
    mf_units += sc.drawn_part.samples[s].mf_units.size();
    mf_points += sc.drawn_part.mf_points[s].size();
  }
  const double S = static_cast<double>(sc.drawn_part.samples.size());
  std::printf("n %d, %d samples (ess %.1f), tol %g, at most %d sweeps, %d thread(s)\n", n, samples,
              sc.ess, tol, mf_sweeps, threads);
  std::printf("draw %.4f s; per sample %.0f mean-field units over %.0f points; %d shared units\n",
              t1 - t0, mf_units / S, mf_points / S, sc.drawn_part.shared.graph.n_units);
  for (int r = 0; r < repeats; ++r) {
    Eigen::MatrixXd post = a;
    const double s0 = seconds();
    sampled_chunklet_estep(post, sc, mf_sweeps, tol, threads, hooks);
    const double s1 = seconds();
    std::uint64_t h = 1469598103934665603ULL;
    for (Eigen::Index t = 0; t < post.size(); ++t) {
      std::uint64_t bits;
      std::memcpy(&bits, post.data() + t, sizeof bits);
      h = (h ^ bits) * 1099511628211ULL;
    }
    std::printf("E-step %.4f s, posterior hash %016llx\n", s1 - s0,
                static_cast<unsigned long long>(h));
  }
  return 0;
}
