// Writes the fits of a representative set of cores, run outside R on data
// and random draws made by the program's own generator, to a text file at
// full precision, so that builds for different processors (x86-64 with and
// without its AVX kernels, aarch64 under emulation) can be compared with
// tools/core/compare_fits.cpp. Usage: reference_fits OUT [--portable] [SEED]
// (--portable: use_avx = false in every core that has the switch; SEED, 1
// when absent, shifts every seed of the data and the runs).
//
// The data use exact arithmetic only (sums of uniforms, products by powers
// of two, integer counts, one division per entry), so every build starts
// from bitwise the same numbers; differences in the fits come from the cores
// and the maths library alone. A core that keeps the best of several
// restarts is run restart by restart from one generator (checked to be what
// its own restarts do): each restart is compared, and which one is kept may
// differ between builds only where the objectives tie to rounding.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cec/cec.h"
#include "common/column_major_points.h"
#include "common/column_variances.h"
#include "common/r_mersenne_twister.h"
#include "common/transpose.h"
#include "dpmeans/rdp_means.h"
#include "info/aib.h"
#include "info/ib_kmeans.h"
#include "info/iterative_ib.h"
#include "info/sib.h"
#include "mixture/constrained_mixture.h"
#include "pairwise/cop_kmeans.h"
#include "pairwise/lcvqe.h"
#include "pairwise/mpck_fit.h"
#include "tvclust/niw.h"
#include "tvclust/tvclust_chains.h"
#include "tvclust/tvclust_vb_runs.h"
#include "tvclust/vb_families.h"

namespace {

using sideclust::RunHooks;

// Added to every seed below: SEED - 1 times a large odd number.
std::uint64_t seed_shift = 0;

sideclust::SplitMix64 seeded(std::uint64_t seed) {
  return sideclust::SplitMix64(seed + seed_shift);
}

class SeededHooks : public RunHooks {
 public:
  explicit SeededHooks(std::uint64_t seed) : rng_(seed + seed_shift) {}
  double uniform() override { return rng_.uniform(); }

 private:
  sideclust::SplitMix64 rng_;
};

// One line per field: "<fit> <field> <kind> <count> <values...>", kind part
// (a partition), int (other integers) or num (doubles, %.17g).
class FitWriter {
 public:
  explicit FitWriter(std::FILE* out) : out_(out) {}
  void begin(const std::string& fit) { fit_ = fit; }
  void part(const char* field, const std::vector<int>& v) { ints(field, "part", v); }
  void ints(const char* field, const std::vector<int>& v) { ints(field, "int", v); }
  void count(const char* field, int v) { ints(field, "int", std::vector<int>{v}); }
  void num(const char* field, double v) { nums(field, &v, 1); }
  void nums(const char* field, const std::vector<double>& v) { nums(field, v.data(), v.size()); }
  void nums(const char* field, const Eigen::MatrixXd& m) {
    nums(field, m.data(), static_cast<std::size_t>(m.size()));
  }
  // The restart a core keeps (0-based) and the objective of every restart:
  // two builds may keep different restarts only on a tie of objectives.
  void choice(const char* field, int kept, const std::vector<double>& objectives) {
    std::fprintf(out_, "%s %s choice %zu %d", fit_.c_str(), field, objectives.size() + 1, kept);
    for (double v : objectives) std::fprintf(out_, " %.17g", v);
    std::fputc('\n', out_);
  }
  void nums(const char* field, const double* v, std::size_t n) {
    std::fprintf(out_, "%s %s num %zu", fit_.c_str(), field, n);
    for (std::size_t i = 0; i < n; ++i) std::fprintf(out_, " %.17g", v[i]);
    std::fputc('\n', out_);
  }

 private:
  void ints(const char* field, const char* kind, const std::vector<int>& v) {
    std::fprintf(out_, "%s %s %s %zu", fit_.c_str(), field, kind, v.size());
    for (int x : v) std::fprintf(out_, " %d", x);
    std::fputc('\n', out_);
  }
  std::FILE* out_;
  std::string fit_;
};

// The restart a core keeps: the first with the largest (or smallest) objective.
int first_best(const std::vector<double>& objective, bool largest) {
  int best = 0;
  for (int r = 1; r < static_cast<int>(objective.size()); ++r) {
    if (largest ? objective[r] > objective[best] : objective[r] < objective[best]) best = r;
  }
  return best;
}

void require(bool ok, const std::string& what) {
  if (!ok) {
    throw std::runtime_error("the core's own restarts differ from the runs one by one: " + what);
  }
}

std::string restart_name(const char* fit, int r) {
  return fit + std::string("_restart") + std::to_string(r + 1);
}

// An approximately standard normal draw from exact operations: the sum of
// 12 uniforms minus 6 (no maths library, so every build draws the same).
double exact_normal(sideclust::SplitMix64& rng) {
  double s = 0.0;
  for (int t = 0; t < 12; ++t) s += rng.uniform();
  return s - 6.0;
}

// k Gaussian groups in p dimensions, point i in group i % k, centre 1.5 * g in
// every coordinate but shifted by 3 in coordinate g % p, noise sd 1; with
// must- and cannot-links between random points of the true groups.
struct Blobs {
  int n, p, k;
  Eigen::MatrixXd xt;  // p x n
  Eigen::MatrixXd x;   // n x p
  std::vector<int> truth;
  std::vector<int> pi, pj;
  std::vector<double> pw;  // +1 must-link, -1 cannot-link
};

Blobs make_blobs(int n, int p, int k, int pairs, std::uint64_t seed) {
  sideclust::SplitMix64 rng = seeded(seed);
  Blobs b{n, p, k, Eigen::MatrixXd(p, n), Eigen::MatrixXd(n, p), {}, {}, {}, {}};
  for (int i = 0; i < n; ++i) {
    const int g = i % k;
    b.truth.push_back(g);
    for (int d = 0; d < p; ++d) {
      const double centre = 1.5 * g + (d == g % p ? 3.0 : 0.0);
      b.xt(d, i) = centre + exact_normal(rng);
      b.x(i, d) = b.xt(d, i);
    }
  }
  while (static_cast<int>(b.pi.size()) < pairs) {
    int i = static_cast<int>(rng.uniform() * n), j = static_cast<int>(rng.uniform() * n);
    if (i == j) continue;
    if (i > j) std::swap(i, j);
    b.pi.push_back(i);
    b.pj.push_back(j);
    b.pw.push_back(b.truth[i] == b.truth[j] ? 1.0 : -1.0);
  }
  return b;
}

sideclust::SideInfo pair_side(const Blobs& b) {
  sideclust::SideInfo s;
  s.pairs = sideclust::make_pair_graph(b.n, b.pi, b.pj, b.pw);
  return s;
}

// Rows of k planted count profiles over p columns, normalized with a
// smoothing of 1/2 (as R's rdp_means() does for KL).
Eigen::MatrixXd count_profiles(int n, int p, int k, std::uint64_t seed) {
  sideclust::SplitMix64 rng = seeded(seed);
  Eigen::MatrixXd xt(p, n);
  for (int i = 0; i < n; ++i) {
    double total = 0.0;
    for (int d = 0; d < p; ++d) {
      const double c = std::floor(rng.uniform() * 5.0) + (d % k == i % k ? 6.0 : 0.0) + 0.5;
      xt(d, i) = c;
      total += c;
    }
    for (int d = 0; d < p; ++d) xt(d, i) /= total;
  }
  return xt;
}

// A joint distribution of n rows in k planted groups over k * block columns,
// random integer counts (so no two rows tie).
sideclust::JointCsr planted_joint(int n, int k, int block, std::uint64_t seed) {
  sideclust::SplitMix64 rng = seeded(seed);
  std::vector<int> ptr{0}, idx;
  std::vector<double> val;
  for (int x = 0; x < n; ++x) {
    for (int y = 0; y < k * block; ++y) {
      idx.push_back(y);
      val.push_back(std::floor(rng.uniform() * 4.0) + 1.0 + (y / block == x % k ? 6.0 : 0.0));
    }
    ptr.push_back(static_cast<int>(val.size()));
  }
  return sideclust::make_joint(n, k * block, ptr, idx, val);
}

void pairwise_fits(FitWriter& w, const Blobs& b, bool use_avx) {
  {
    sideclust::CopKmeansParams par;
    par.k = b.k;
    par.restarts = 5;
    par.use_avx = use_avx;
    const sideclust::PairGraph list = sideclust::make_pair_list(b.n, b.pi, b.pj, b.pw);
    SeededHooks hooks(101);
    const sideclust::CopKmeansResult r = sideclust::cop_kmeans_fit(b.xt, list, par, hooks);
    w.begin("cop_kmeans");
    w.part("cluster", r.cluster);
    w.count("iterations", r.iterations);
    w.nums("objective", r.objective);
    w.nums("centres", r.centres);
  }
  {
    sideclust::LcvqeParams par;
    par.k = b.k;
    par.restarts = 5;
    par.use_avx = use_avx;
    SeededHooks hooks(102);
    const sideclust::LcvqeResult r = sideclust::lcvqe_fit(b.xt, pair_side(b).pairs, par, hooks);
    w.begin("lcvqe");
    w.part("cluster", r.cluster);
    w.count("iterations", r.iterations);
    w.nums("objective", r.objective);
    w.num("penalty", r.penalty);
    w.nums("centres", r.centres);
  }
  const sideclust::ColumnMajorPoints points(b.x.data(), b.n, b.p);
  for (const auto metric : {sideclust::MpckMetric::none, sideclust::MpckMetric::diagonal,
                            sideclust::MpckMetric::full}) {
    sideclust::MpckParams par;
    par.k = b.k;
    par.restarts = 3;
    par.metric = metric;
    par.use_avx = use_avx;
    SeededHooks hooks(103);
    const sideclust::MpckResult r = sideclust::mpck_fit(points, pair_side(b).pairs, par, hooks);
    w.begin(metric == sideclust::MpckMetric::none       ? "pck_means"
            : metric == sideclust::MpckMetric::diagonal ? "mpck_means_diagonal"
                                                        : "mpck_means_full");
    w.part("cluster", r.cluster);
    w.count("iterations", r.iterations);
    w.nums("objective", r.objective);
    w.nums("centres", r.centres);
    if (metric == sideclust::MpckMetric::full) {
      for (const auto& a : r.full) w.nums("metric", a);
    } else {
      w.nums("metric", r.diag);
    }
  }
}

template <class Div>
void rdp_fit(FitWriter& w, const char* name, const Eigen::MatrixXd& xt,
             const sideclust::SideInfo& side, double lambda, bool use_avx, std::uint64_t seed) {
  sideclust::RdpParams par;
  par.lambda = lambda;
  par.xi_must = par.xi_cannot = 0.5;
  par.xi_rate = 1.5;
  par.xi_max_must = par.xi_max_cannot = 50.0;
  par.use_avx = use_avx;
  SeededHooks hooks(seed);
  const sideclust::RdpResult r = sideclust::rdp_means<Div>(
      xt.data(), static_cast<int>(xt.cols()), static_cast<int>(xt.rows()), side, par, hooks);
  w.begin(name);
  w.part("cluster", r.cluster);
  w.count("k", r.k);
  w.ints("k_trace", r.k_trace);
  w.nums("objective", r.objective);
  w.nums("centres", r.centres);
}

void dpmeans_fits(FitWriter& w, const Blobs& b, bool use_avx) {
  sideclust::SideInfo none;
  none.pairs.n = b.n;
  rdp_fit<sideclust::SquaredEuclidean>(w, "dp_means_sqeuclidean", b.xt, none, 20.0, use_avx, 201);
  rdp_fit<sideclust::SquaredEuclidean>(w, "rdp_means_sqeuclidean", b.xt, pair_side(b), 20.0,
                                       use_avx, 202);
  const Eigen::MatrixXd profiles = count_profiles(b.n, 8, b.k, 203);
  rdp_fit<sideclust::KullbackLeibler>(w, "rdp_means_kl", profiles, pair_side(b), 0.3, use_avx,
                                      204);
}

void cec_fits(FitWriter& w, const Blobs& b) {
  sideclust::PartialLabels labels;
  labels.label.assign(b.n, -1);
  labels.n_levels = b.k;
  for (int i = 0; i < b.n; i += 5) labels.label[i] = b.truth[i];
  for (const bool ib : {false, true}) {
    sideclust::CecParams par;
    par.k = 2 * b.k;
    par.beta = ib ? 1.0 : 0.0;
    par.restarts = 5;
    SeededHooks hooks(ib ? 302 : 301);
    const sideclust::CecResult r =
        sideclust::cec_fit(b.xt, ib ? labels : sideclust::PartialLabels{}, par, hooks);
    w.begin(ib ? "cec_ib" : "cec");
    w.part("cluster", r.cluster);
    w.count("k", r.k);
    w.nums("objective", r.objective);
    w.num("cost", r.cost);
    w.nums("means", r.means);
    for (const auto& c : r.covariances) w.nums("covariance", c);
  }
}

void mixture_fit(FitWriter& w, const Blobs& b) {
  sideclust::SplitMix64 rng = seeded(401);
  Eigen::MatrixXd z0 = Eigen::MatrixXd::Zero(b.k, b.n);
  for (int i = 0; i < b.n; ++i) z0(static_cast<int>(rng.uniform() * b.k), i) = 1.0;
  std::vector<double> penalty(b.pw.size());
  for (std::size_t e = 0; e < penalty.size(); ++e) penalty[e] = 2.0 * b.pw[e];
  const sideclust::PairGraph list = sideclust::make_pair_list(b.n, b.pi, b.pj, penalty);
  sideclust::EmOptions opt;
  SeededHooks hooks(402);
  const sideclust::EmResult r = sideclust::constrained_em(b.x, z0, list, opt, hooks);
  std::vector<int> hard(b.n);
  for (int i = 0; i < b.n; ++i) r.z.col(i).maxCoeff(&hard[i]);
  w.begin("constrained_mixture_mean_field");
  w.part("cluster", hard);
  w.count("iterations", r.iterations);
  w.nums("loglik", r.loglik);
  w.nums("z", r.z);
  w.nums("means", r.params.means);
  w.nums("weights", Eigen::MatrixXd(r.params.weights));
  for (const auto& c : r.params.cov) w.nums("covariance", c);
}

sideclust::NiwPrior niw_prior(const Blobs& b) {
  return sideclust::NiwPrior{b.xt.rowwise().mean(), 0.1, b.p + 2.0,
                             Eigen::MatrixXd::Identity(b.p, b.p) * 0.25 * (b.p + 2.0)};
}

void tvclust_fits(FitWriter& w, const Blobs& b) {
  const sideclust::NiwPrior prior = niw_prior(b);
  const sideclust::SideInfo side = pair_side(b);
  const sideclust::DensePoints x(b.xt);
  {
    // restarts one by one from one generator (as run_tvclust_vb() runs them),
    // each compared on its own; which one a build keeps may differ on a tie
    sideclust::TvclustVbParams par;
    par.truncation = 10;
    par.learn_pq = true;
    SeededHooks hooks(501);
    std::vector<double> final_elbo;
    for (int r = 0; r < 3; ++r) {
      const sideclust::TvclustVbRestarts one = sideclust::run_tvclust_vb(
          x, side, sideclust::VbGaussian(prior), par, 1, b.k, sideclust::VbStart::kmeanspp, {},
          hooks);
      std::vector<int> hard(b.n);
      for (int i = 0; i < b.n; ++i) one.best.r.col(i).maxCoeff(&hard[i]);
      w.begin(restart_name("tvclust_vb_gaussian", r));
      w.part("cluster", hard);
      w.count("iterations", one.best.iterations);
      w.nums("elbo", one.best.elbo);
      w.nums("responsibility", one.best.r);
      w.num("p", one.best.p);
      w.num("q", one.best.q);
      final_elbo.push_back(one.final_elbo[0]);
    }
    SeededHooks again(501);
    const sideclust::TvclustVbRestarts all = sideclust::run_tvclust_vb(
        x, side, sideclust::VbGaussian(prior), par, 3, b.k, sideclust::VbStart::kmeanspp, {},
        again);
    require(all.final_elbo == final_elbo && all.best_restart == first_best(final_elbo, true),
            "tvclust_vb");
    w.begin("tvclust_vb_gaussian");
    w.choice("kept_restart", all.best_restart, final_elbo);
  }
  {
    sideclust::TvclustParams par;
    par.sample_pq = true;
    par.sample_alpha = true;
    par.split_merge = 1;
    sideclust::ChainSchedule schedule;
    schedule.iter = 40;
    schedule.burn_in = 20;
    schedule.store.assign(schedule.kept(), 1);
    const std::vector<std::uint64_t> seeds{0x5EED0001ULL + seed_shift, 0x5EED0002ULL + seed_shift};
    const std::vector<std::vector<int>> init(2, std::vector<int>(b.n, 0));
    std::vector<std::atomic<int>> progress(2);
    const std::function<sideclust::NiwCluster()> make = [&prior]() {
      return sideclust::NiwCluster(prior);
    };
    const std::vector<sideclust::ChainRecord> rec =
        sideclust::run_tvclust_chains<sideclust::NiwCluster>(x, side, make, par, init, schedule,
                                                             seeds, 1, progress,
                                                             []() { return true; });
    for (std::size_t c = 0; c < rec.size(); ++c) {
      const sideclust::DrawSet& d = rec[c].draws;
      w.begin("tvclust_gibbs_gaussian_chain" + std::to_string(c + 1));
      w.part("last_draw", std::vector<int>(d.draw(d.count() - 1), d.draw(d.count() - 1) + d.n));
      w.ints("k_of_draws", d.k);
      w.nums("log_joint", rec[c].log_joint);
      w.nums("p", rec[c].p);
      w.nums("q", rec[c].q);
      w.nums("alpha", rec[c].alpha);
    }
  }
}

void info_fits(FitWriter& w, const Blobs& b) {
  const sideclust::JointCsr joint = planted_joint(90, 3, 4, 601);
  {
    sideclust::SibParams par;
    par.k = 3;
    par.restarts = 1;
    SeededHooks hooks(602);
    std::vector<double> info;
    std::vector<std::vector<int>> cluster;
    for (int r = 0; r < 3; ++r) {
      const sideclust::SibResult one = sideclust::sib_fit(joint, par, hooks);
      w.begin(restart_name("sib", r));
      w.part("cluster", one.cluster);
      w.nums("trace", one.trace);
      w.num("info_x", one.info_x);
      info.push_back(one.info_y);
      cluster.push_back(one.cluster);
    }
    par.restarts = 3;
    SeededHooks again(602);
    const sideclust::SibResult all = sideclust::sib_fit(joint, par, again);
    const int kept = first_best(info, true);
    require(all.restart_info == info && all.cluster == cluster[kept], "sib");
    w.begin("sib");
    w.choice("kept_restart", kept, info);
  }
  {
    SeededHooks hooks(603);
    const sideclust::AibResult r = sideclust::aib_fit(joint, hooks);
    w.begin("aib");
    w.ints("merge1", r.merge1);
    w.ints("merge2", r.merge2);
    w.ints("order", r.order);
    w.nums("loss", r.loss);
    w.nums("info_y", r.info_y);
  }
  {
    sideclust::IbParams par;
    par.k = 3;
    par.beta = 20.0;
    par.restarts = 1;
    SeededHooks hooks(604);
    std::vector<double> objective;
    std::vector<std::vector<double>> pcx;
    for (int r = 0; r < 3; ++r) {
      const sideclust::IbResult one = sideclust::ib_fit(joint, par, hooks);
      w.begin(restart_name("iterative_ib", r));
      w.count("iterations", one.iterations);
      w.nums("trace", one.trace);
      w.nums("pcx", one.pcx);
      w.nums("qyc", one.qyc);
      objective.push_back(one.objective);
      pcx.push_back(one.pcx);
    }
    par.restarts = 3;
    SeededHooks again(604);
    const sideclust::IbResult all = sideclust::ib_fit(joint, par, again);
    const int kept = first_best(objective, false);
    require(all.restart_objective == objective && all.pcx == pcx[kept], "iterative_ib");
    w.begin("iterative_ib");
    w.choice("kept_restart", kept, objective);
  }
  {
    sideclust::IbKmeansParams par;
    par.k = b.k;
    par.beta = 5.0;
    par.restarts = 1;
    SeededHooks hooks(605);
    std::vector<double> objective;
    std::vector<Eigen::MatrixXd> centres;
    for (int r = 0; r < 3; ++r) {
      const sideclust::IbKmeansResult one = sideclust::ib_kmeans_fit(b.xt, par, hooks);
      std::vector<int> hard(b.n);
      for (int i = 0; i < b.n; ++i) one.membership.row(i).maxCoeff(&hard[i]);
      w.begin(restart_name("ib_kmeans", r));
      w.part("cluster", hard);
      w.count("iterations", one.iterations);
      w.nums("objective", one.objective);
      w.nums("membership", one.membership);
      w.nums("centres", one.centres);
      objective.push_back(one.objective.back());
      centres.push_back(one.centres);
    }
    par.restarts = 3;
    SeededHooks again(605);
    const sideclust::IbKmeansResult all = sideclust::ib_kmeans_fit(b.xt, par, again);
    const int kept = first_best(objective, true);
    require(all.objective.back() == objective[kept] && all.centres == centres[kept], "ib_kmeans");
    w.begin("ib_kmeans");
    w.choice("kept_restart", kept, objective);
  }
}

// What R's data checks call in C++: the transpose with the values' range
// (SSE2 lanes on x86-64, scalar code elsewhere) and the column variances.
void data_helpers(FitWriter& w, const Blobs& b) {
  Eigen::MatrixXd x = b.x;
  std::vector<double> out(static_cast<std::size_t>(x.size()));
  w.begin("data_checks");
  for (const int poison : {0, 1, 2}) {
    if (poison == 1) x(17, 2) = std::numeric_limits<double>::infinity();
    if (poison == 2) x(5, 1) = std::numeric_limits<double>::quiet_NaN();
    const sideclust::ValueRange r =
        sideclust::transpose_dense_range(x.data(), b.n, b.p, out.data());
    w.nums("range", std::vector<double>{r.lo, r.hi});
    w.ints("nan_finite", std::vector<int>{r.nan, r.finite()});
    if (poison == 0) {
      w.ints("transpose_exact", std::vector<int>{std::equal(out.begin(), out.end(), b.xt.data())});
    }
  }
  std::vector<double> variance(b.p);
  sideclust::column_variances(b.x.data(), b.n, b.p, variance.data());
  w.nums("column_variances", variance);
}

// The core's copy of R's Mersenne-Twister and sample.int() rule, from a
// state filled by SplitMix64 (integer arithmetic: must agree bitwise), and
// the host-independent draws RunHooks derives from a generator.
void generator_draws(FitWriter& w) {
  sideclust::SplitMix64 fill = seeded(701);
  std::vector<int> state(1 + sideclust::MersenneTwisterR::kWords);
  state[0] = sideclust::MersenneTwisterR::kWords;  // twist before the first draw
  for (std::size_t k = 1; k < state.size(); ++k) state[k] = static_cast<int>(fill.next() >> 33);
  sideclust::MersenneTwisterR mt(state.data());
  std::vector<double> u(700);
  for (double& v : u) v = mt.uniform();
  std::vector<int> index;
  for (const double dn : {37.0, 1000003.0, 4294967296.0}) {
    for (int t = 0; t < 200; ++t) index.push_back(static_cast<int>(mt.unif_index(dn) - dn / 2));
  }
  w.begin("r_mersenne_twister");
  w.nums("uniform", u);
  w.ints("unif_index", index);
  SeededHooks hooks(702);
  std::vector<double> normal(200), gamma(200);
  for (double& v : normal) v = hooks.normal();
  for (std::size_t t = 0; t < gamma.size(); ++t) gamma[t] = hooks.gamma(0.3 + 0.1 * t);
  w.begin("run_hooks_draws");
  w.nums("normal", normal);
  w.nums("gamma", gamma);
}

}  // namespace

int main(int argc, char** argv) {
  bool use_avx = true;
  int seed = 1;
  for (int a = 2; a < argc; ++a) {
    if (std::strcmp(argv[a], "--portable") == 0) {
      use_avx = false;
    } else {
      seed = std::atoi(argv[a]);
    }
  }
  if (argc < 2 || seed < 1) {
    std::fprintf(stderr, "usage: reference_fits OUT [--portable] [SEED]\n");
    return 2;
  }
  seed_shift = static_cast<std::uint64_t>(seed - 1) * 0x9E3779B97F4A7C15ULL;
  std::FILE* out = std::fopen(argv[1], "w");
  if (out == nullptr) {
    std::perror(argv[1]);
    return 2;
  }
  try {
    FitWriter w(out);
    const Blobs b = make_blobs(400, 4, 4, 80, 1);
    pairwise_fits(w, b, use_avx);
    dpmeans_fits(w, b, use_avx);
    cec_fits(w, b);
    mixture_fit(w, b);
    tvclust_fits(w, b);
    info_fits(w, b);
    data_helpers(w, b);
    generator_draws(w);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "reference_fits: %s\n", e.what());
    std::fclose(out);
    return 1;
  }
  std::fclose(out);
  return 0;
}
