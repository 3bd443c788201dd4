// C++ timing harness for the MPCK-means / PCK-means core outside R: the
// set-up (MpckRun's constructor: ranges, scale, edge_pairs(), MpckEdges)
// and the per-iteration time of runs from one start, in wall-clock seconds,
// with a hash of the objective path and the partition, so that two builds
// of the headers can be checked to give the same doubles. Data as in
// bench/constrained-kmeans-speed.R (k = 5 Gaussian clusters in p = 10, n
// random pairs, 5% of the wrong type), drawn with std::mt19937_64 (not R's
// generator: the fits are not those of the R bench), and given to the core
// in R's n x p layout, as the glue does.
//
//   eigen=$(Rscript -e 'cat(system.file("include", package = "RcppEigen"))')
//   g++ -std=c++17 -O2 -DEIGEN_NO_DEBUG -DEIGEN_DONT_PARALLELIZE -isystem "$eigen"
//     -pthread -I src bench/mpck-sweep-harness.cpp -o /tmp/mpck-harness
//   /tmp/mpck-harness 1000000 diagonal 3     # n, metric (none = PCK-means), repeats
//   NPAIRS=0 /tmp/mpck-harness 1000000 none  # another number of pairs
//   BALANCED=1 /tmp/mpck-harness 1000000      # half must-links, as the R bench
//   THREADS=2 /tmp/mpck-harness 1000000       # sweeps on two threads (add -pthread)
//   PAIR_CACHE=0 CHUNK=4096 ...               # no pair cache; 4096 points a hand-over
//
// "lloyd" is a plain C++ Lloyd iteration on the same data (points in
// storage order), about half of what stats::kmeans takes per iteration:
// use it to compare builds, not as the ratio of issue 19 (that is the R
// bench's).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <vector>

#include "pairwise/mpck_means.h"

using namespace sideclust;

namespace {

class Hooks : public RunHooks {
 public:
  explicit Hooks(std::uint64_t seed) : gen_(seed) {}
  double uniform() override { return gen_.uniform(); }
  void on_sweep(int, int, double) override { at_.push_back(cpu()); }
  // wall-clock seconds: with THREADS=2 a sweep runs on two threads
  static double cpu() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  std::vector<double> at_;

 private:
  SplitMix64 gen_;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000000;
  const char* metric = argc > 2 ? argv[2] : "diagonal";
  const int reps = argc > 3 ? std::atoi(argv[3]) : 3;
  const int n_pairs = std::getenv("NPAIRS") ? std::atoi(std::getenv("NPAIRS")) : n;
  const int p = 10, k = 5;
  std::mt19937_64 rng(20261125);
  std::normal_distribution<double> normal;
  Eigen::MatrixXd centres(p, k);
  for (int j = 0; j < k; ++j) {
    for (int d = 0; d < p; ++d) centres(d, j) = 3 * normal(rng);
  }
  std::vector<int> y(n);
  Eigen::MatrixXd x(p, n);
  for (int i = 0; i < n; ++i) {
    y[i] = static_cast<int>(rng() % k);
    for (int d = 0; d < p; ++d) x(d, i) = centres(d, y[i]) + normal(rng);
  }
  // BALANCED=1: half the pairs drawn inside a cluster, as
  // sample_constraints(y, "nelson_cohen") does for the R bench (otherwise
  // uniform pairs, about 1 / k of them inside a cluster)
  const bool balanced = std::getenv("BALANCED") && std::atoi(std::getenv("BALANCED")) == 1;
  std::vector<std::vector<int>> members(k);
  for (int i = 0; i < n; ++i) members[y[i]].push_back(i);
  std::vector<int> a, b;
  std::vector<double> w;
  for (int l = 0; l < n_pairs; ++l) {
    const int u = static_cast<int>(rng() % n);
    int v = static_cast<int>(rng() % n);
    if (balanced && rng() % 2 == 0) {
      const std::vector<int>& same = members[y[u]];
      v = same[rng() % same.size()];
    } else if (balanced) {
      while (y[v] == y[u]) v = static_cast<int>(rng() % n);
    }
    if (u == v) continue;
    bool must = y[u] == y[v];
    if (rng() % 100 < 5) must = !must;
    a.push_back(u);
    b.push_back(v);
    w.push_back(must ? 1.0 : -1.0);
  }
  const PairGraph g = make_pair_graph(n, a, b, w);
  const Eigen::MatrixXd rows = x.transpose();  // R's n x p layout, which the core reads
  const ColumnMajorPoints points(rows.data(), n, p);
  MpckParams par;
  par.k = k;
  par.threads = std::getenv("THREADS") ? std::atoi(std::getenv("THREADS")) : 1;
  if (std::getenv("CHUNK")) par.chunk = std::atoi(std::getenv("CHUNK"));
  if (std::getenv("PAIR_CACHE")) par.pair_cache = std::atoi(std::getenv("PAIR_CACHE")) == 1;
  par.init = MpckInit::start;
  par.start.resize(p, k);
  for (int j = 0; j < k; ++j) par.start.col(j) = x.col(static_cast<int>(rng() % n));
  par.metric = !std::strcmp(metric, "none")   ? MpckMetric::none
               : !std::strcmp(metric, "full") ? MpckMetric::full
                                              : MpckMetric::diagonal;

  // five Lloyd iterations from the same start
  double lloyd;
  {
    Eigen::MatrixXd m = par.start;
    const double t0 = Hooks::cpu();
    for (int it = 0; it < 5; ++it) {
      Eigen::MatrixXd s = Eigen::MatrixXd::Zero(p, k);
      std::vector<double> count(k, 0.0);
      for (int i = 0; i < n; ++i) {
        int best = 0;
        double best_d = sq_distance(x.col(i).data(), m.col(0).data(), p);
        for (int h = 1; h < k; ++h) {
          const double d = sq_distance(x.col(i).data(), m.col(h).data(), p);
          if (d < best_d) {
            best_d = d;
            best = h;
          }
        }
        s.col(best) += x.col(i);
        count[best] += 1.0;
      }
      for (int h = 0; h < k; ++h) {
        if (count[h] > 0) m.col(h) = s.col(h) / count[h];
      }
    }
    lloyd = (Hooks::cpu() - t0) / 5;
  }

  std::vector<double> setup, call1, call11, cpu1, cpu11;
  unsigned long long hash = 0;
  double last_j = 0.0;
  int iterations = 0;
  std::vector<double> per_iter;
  for (int r = 0; r < reps; ++r) {
    for (int max_iter : {1, 11}) {
      par.max_iter = max_iter;
      Hooks hooks(7 + r);
      const double t0 = Hooks::cpu();
      const std::clock_t c0 = std::clock();
      const MpckRun run(points, g, par, hooks);
      const double t1 = Hooks::cpu();
      const MpckResult res = run.run(par.start, hooks);
      const double t2 = Hooks::cpu();
      (max_iter == 1 ? call1 : call11).push_back(t2 - t0);
      (max_iter == 1 ? cpu1 : cpu11).push_back(static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
      if (max_iter == 1) setup.push_back(t1 - t0);
      if (r == 0 && max_iter == 11) {
        for (double o : res.objective) {
          unsigned long long u;
          std::memcpy(&u, &o, sizeof u);
          hash = hash * 1000003ULL ^ u;
        }
        for (int v : res.cluster) hash = hash * 31 + static_cast<unsigned long long>(v);
        last_j = res.objective.back();
        iterations = res.iterations;
        for (std::size_t q = 1; q < hooks.at_.size(); ++q) per_iter.push_back(hooks.at_[q] - hooks.at_[q - 1]);
      }
    }
  }
  const double steady = (median(call11) - median(call1)) / 10;
  const double cpu_steady = (median(cpu11) - median(cpu1)) / 10;
  std::printf("%s n = %d, %d pairs: set-up %.4f s, 1-iteration call %.4f s, steady %.4f s per iteration "
              "(processor %.4f s; C++ Lloyd %.4f s)\n", metric, n, static_cast<int>(a.size()), median(setup),
              median(call1), steady, cpu_steady, lloyd);
  std::printf("iterations 2..: ");
  for (double t : per_iter) std::printf("%.3f ", t);
  std::printf("\n%d iterations, J %.10g, hash %llx\n", iterations, last_j, hash);
  return 0;
}
