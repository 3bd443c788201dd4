// Runs two of the package's cores outside R, as ARCHITECTURE.md promises:
// sequential IB on planted counts and CEC-IB on planted Gaussians, with a
// SplitMix64 generator standing in for R's; and checks the two-thread chunk
// pipeline of the sweeps and the block copies of points from R's layout. Checks what must hold whatever
// the seed (the objective traces move the right way, the planted groups are
// found, a repeated seed repeats the run) and exits non-zero otherwise.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cec/cec.h"
#include "engine/chunk_pipeline.h"
#include "common/column_major_points.h"
#include "info/sib.h"

namespace {

class DriverHooks : public sideclust::RunHooks {
 public:
  explicit DriverHooks(std::uint64_t seed) : rng_(seed) {}
  double uniform() override { return rng_.uniform(); }

 private:
  sideclust::SplitMix64 rng_;
};

int failures = 0;

void expect(bool ok, const char* what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok) ++failures;
}

// Rows 0..n-1 in k planted groups: row group g puts its mass on columns of
// block g, plus a little everywhere.
sideclust::JointCsr planted_counts(int n, int k, int block) {
  std::vector<int> ptr{0}, idx;
  std::vector<double> val;
  for (int x = 0; x < n; ++x) {
    for (int y = 0; y < k * block; ++y) {
      idx.push_back(y);
      val.push_back(y / block == x % k ? 9.0 + (x * 7 + y) % 3 : 1.0);
    }
    ptr.push_back(static_cast<int>(val.size()));
  }
  return sideclust::make_joint(n, k * block, ptr, idx, val);
}

// Share of points whose cluster is the one most of their planted group
// (x % k) is in, when those clusters are distinct; 0 when two groups share one.
double agreement(const std::vector<int>& cluster, int k) {
  std::vector<std::vector<int>> count(k);
  for (std::size_t x = 0; x < cluster.size(); ++x) {
    auto& c = count[x % k];
    if (static_cast<int>(c.size()) <= cluster[x]) c.resize(cluster[x] + 1, 0);
    ++c[cluster[x]];
  }
  std::vector<int> name(k);
  int hits = 0;
  for (int g = 0; g < k; ++g) {
    name[g] = static_cast<int>(std::max_element(count[g].begin(), count[g].end()) - count[g].begin());
    hits += count[g][name[g]];
    for (int h = 0; h < g; ++h)
      if (name[h] == name[g]) return 0.0;
  }
  return static_cast<double>(hits) / static_cast<double>(cluster.size());
}

void run_sib() {
  const sideclust::JointCsr p = planted_counts(60, 3, 4);
  sideclust::SibParams par;
  par.k = 3;
  par.restarts = 3;
  DriverHooks hooks(42);
  const sideclust::SibResult r = sideclust::sib_fit(p, par, hooks);
  bool rising = true;
  for (std::size_t i = 1; i < r.trace.size(); ++i) rising = rising && r.trace[i] >= r.trace[i - 1] - 1e-12;
  expect(rising, "sib: I(C;Y) never falls between passes");
  expect(r.converged, "sib: converged");
  expect(agreement(r.cluster, 3) == 1.0, "sib: the planted row groups are found");
  DriverHooks again(42);
  expect(sideclust::sib_fit(p, par, again).cluster == r.cluster, "sib: the same seed repeats the run");
}

void run_cec_ib() {
  const int n = 1500, k = 3;
  DriverHooks noise(7);
  Eigen::MatrixXd x(2, n);
  sideclust::PartialLabels labels;
  labels.label.assign(n, -1);
  labels.n_levels = k;
  for (int i = 0; i < n; ++i) {
    x(0, i) = 6.0 * (i % k) + noise.normal();
    x(1, i) = noise.normal();
    if (i % 5 == 0) labels.label[i] = i % k;  // a fifth of the points labelled
  }
  sideclust::CecParams par;
  par.k = 2 * k;
  par.beta = 1.0;
  par.restarts = 10;
  DriverHooks hooks(11);
  const sideclust::CecResult r = sideclust::cec_fit(x, labels, par, hooks);
  bool falling = true;
  for (std::size_t i = 1; i < r.objective.size(); ++i) {
    falling = falling && r.objective[i] <= r.objective[i - 1] + 1e-9;
  }
  expect(falling, "cec_ib: cost (10) never rises between passes");
  expect(std::fabs(r.cost - (r.entropy + r.cross_entropy + r.labels)) < 1e-9,
         "cec_ib: the cost is the sum of its three parts");
  expect(r.k == k && agreement(r.cluster, k) > 0.99,
         "cec_ib: started at 2k, ends with the 3 planted groups (> 99% of points)");
}

// Small samples: 3 groups of 40 points in 4-D started at k = 6; the paper's
// cost keeps extra clusters here, the small-sample cost the 3 groups.
void run_cec_small_sample() {
  const int n = 120, k = 3, p = 4;
  DriverHooks noise(5);
  Eigen::MatrixXd x(p, n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < p; ++j) x(j, i) = noise.normal();
    x(i % k, i) += 6.0;
  }
  sideclust::CecParams par;
  par.k = 2 * k;
  par.restarts = 10;
  par.small_sample = true;
  DriverHooks hooks(3);
  const sideclust::CecResult r = sideclust::cec_fit(x, sideclust::PartialLabels{}, par, hooks);
  bool falling = true;
  for (std::size_t i = 1; i < r.objective.size(); ++i) {
    falling = falling && r.objective[i] <= r.objective[i - 1] + 1e-9;
  }
  expect(falling, "cec small_sample: the cost never rises between passes");
  expect(r.k == k && agreement(r.cluster, k) == 1.0,
         "cec small_sample: 40 points per group in 4-D, started at 2k, ends with the 3 groups");
}

// The two-thread chunk pipeline: each stage sees the chunks in order (so
// its sums are those of the serial loop), and a failure on either thread
// comes out of the call after the helper has stopped.
void run_chunk_pipeline_checks() {
  const int chunks = 200;
  auto run = [&](bool threaded, int fail_process, int fail_prepare) {
    std::vector<int> seen;
    std::vector<double> value(chunks, 0.0);
    double sum = 0.0;
    auto prepare = [&](int c) {
      if (c == fail_prepare) throw std::runtime_error("prepare");
      value[c] = std::sqrt(c + 0.5);
    };
    auto process = [&](int c) {
      if (c == fail_process) throw std::runtime_error("process");
      value[c] *= 1.0 + 1.0 / (c + 1.0);
    };
    auto finish = [&](int c) {
      sum += value[c];
      seen.push_back(c);
    };
    if (threaded) {
      sideclust::run_chunk_pipeline(chunks, prepare, process, finish);
    } else {
      sideclust::run_chunks_serially(chunks, prepare, process, finish);
    }
    bool in_order = static_cast<int>(seen.size()) == chunks;
    for (int c = 0; in_order && c < chunks; ++c) in_order = seen[c] == c;
    return std::make_pair(in_order, sum);
  };
  const auto serial = run(false, -1, -1), threaded = run(true, -1, -1);
  expect(threaded.first && threaded.second == serial.second,
         "chunk pipeline: finishes every chunk in order, the serial loop's sum exactly");
  for (const bool on_helper : {false, true}) {
    bool thrown = false;
    try {
      run(true, on_helper ? -1 : 57, on_helper ? 57 : -1);
    } catch (const std::runtime_error& e) {
      thrown = std::string(e.what()) == (on_helper ? "prepare" : "process");
    }
    expect(thrown, on_helper ? "chunk pipeline: a failure on the helper reaches the caller"
                             : "chunk pipeline: a failure on the caller stops the helper and leaves");
  }
}

// ColumnMajorPoints::copy_points(): whatever the mix of runs (longer and
// shorter than a tile, at the ends of the data) and lone points, and
// whatever p, each copied point holds the numbers at(i, d) gives.
void run_copy_points_checks() {
  DriverHooks hooks(11);
  for (const int p : {1, 3, 10, 70}) {
    const int n = 3000;
    std::vector<double> data(static_cast<std::size_t>(n) * p);
    for (double& v : data) v = hooks.uniform();
    const sideclust::ColumnMajorPoints x(data.data(), n, p);
    std::vector<int> idx;
    while (idx.size() < 2000) {
      const int start = static_cast<int>(hooks.uniform() * n);
      const int len = hooks.uniform() < 0.5 ? 1 : 1 + static_cast<int>(hooks.uniform() * 100);
      for (int i = start; i < std::min(n, start + len); ++i) idx.push_back(i);
    }
    for (int i = n - 40; i < n; ++i) idx.push_back(i);  // a run to the last point
    std::vector<double> out(idx.size() * p);
    x.copy_points(idx.data(), static_cast<int>(idx.size()), out.data());
    bool same = true;
    for (std::size_t r = 0; r < idx.size(); ++r) {
      for (int d = 0; d < p; ++d) same = same && out[r * p + d] == x.at(idx[r], d);
    }
    expect(same, ("copy_points: every point's numbers, p = " + std::to_string(p)).c_str());
  }
}

}  // namespace

int main() {
  run_chunk_pipeline_checks();
  run_copy_points_checks();
  run_sib();
  run_cec_ib();
  run_cec_small_sample();
  std::printf("%s: %d failure(s)\n", failures ? "core driver FAILED" : "core driver passed", failures);
  return failures ? 1 : 0;
}
