// Mean-field variational inference for TVClust (the model of Khashabi,
// Wieting, Liu & Liang 2015, Section 3; the collapsed sampler is
// tvclust_gibbs.h). The Dirichlet process is truncated at T sticks
// (Blei & Jordan 2006): v_k ~ Beta(1, alpha) for k < T, v_T = 1,
// pi_k = v_k prod_{l<k} (1 - v_l). The factors are
//   q(z_i) = Categorical(r_i)        one per point, over the T components
//   q(theta_k)                       conjugate (vb_families.h)
//   q(v_k) = Beta(g1_k, g2_k)
//   q(alpha) = Gamma, q(p), q(q) = Beta   when they have priors.
// The side information's likelihood is linear in H_ij = [z_i = z_j], whose
// expectation is r_i . r_j, so the pair (i, j) of weight w adds
//   w r_i . r_j (E log a1 - E log a0)   (a1, a0: its probabilities given
// same / different clusters: p, 1 - q for a must-link, 1 - p, q for a
// cannot-link) to the bound. The bound is then linear in each r_i given the
// others, and the optimal r_i is
//   log r_ik = E log pi_k + E log f(x_i | theta_k) + sum_j w_ij c_ij r_jk + const,
// which depends on the neighbours' current responsibilities: points are
// updated one after the other (a sweep costs O(pairs T + n T p^2)). Every
// update (a point, the components, the sticks, alpha, p and q) maximizes the
// evidence lower bound (ELBO) over its factor, so the bound never decreases
// (up to the negligible responsibilities set to zero, kNegligible). After
// convergence, split and delete moves (split_delete_moves() in
// tvclust_vb_runs.h) open and close clusters, kept only when they end with a
// larger ELBO.
// Partial labels act as must-links (same label) and cannot-links (different
// labels) of weight 1, counted through per-label tallies of r, never expanded.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "common/run_hooks.h"
#include "common/seeding.h"
#include "common/side_graph.h"
#include "tvclust/points.h"
#include "tvclust/vb_families.h"

namespace sideclust {

struct TvclustVbParams {
  int truncation = 20;  // T, the number of sticks
  double alpha = 1.0;   // DP concentration (its start when learned)
  bool learn_alpha = false;
  double alpha_a = 1.0, alpha_b = 1.0;  // Gamma(shape, rate) prior of alpha
  double p = 0.9, q = 0.9;              // fixed, or starts when learned
  bool learn_pq = false;
  double p_a = 1.0, p_b = 1.0, q_a = 1.0, q_b = 1.0;  // Beta priors
  int max_iter = 500;  // sweeps of a run in all: full sweeps and the moves' trial sweeps
  double tol = 1e-8;  // stop when the ELBO gains less than tol * |ELBO| in a sweep
  // For the tests: evaluate the ELBO after every block update and every
  // point update, and record the largest decrease (O(n) bounds per sweep).
  bool check_each_update = false;
  bool delete_moves = true;  // split and delete moves (tvclust_vb_runs.h)
};

struct TvclustVbResult {
  Eigen::MatrixXd r;          // T x n responsibilities
  std::vector<double> elbo;   // after each sweep
  std::vector<int> delete_at;  // sweeps (1-based) that started after an accepted split or deletion
  int iterations = 0;  // full sweeps kept in the trace
  int sweeps = 0;      // every sweep run, the moves' trial sweeps included
  bool converged = false;
  double p = 0.0, q = 0.0, alpha = 0.0;  // posterior means (or the fixed values)
  Eigen::VectorXd log_weight;            // E log pi_k
  double worst_drop = 0.0;               // with check_each_update
  int updates_checked = 0;
};

// kmeanspp_indices() (common/seeding.h) over the points `members` of x (all
// of them when empty), returning positions in `members`; the same draws and
// arithmetic, on dense or sparse points without copying them.
template <class Points>
std::vector<int> kmeanspp_points(const Points& x, const std::vector<int>& members, int k,
                                 RunHooks& hooks) {
  const bool all = members.empty();
  const int n = all ? point_count(x) : static_cast<int>(members.size());
  auto at = [&](int t) { return all ? t : members[t]; };
  std::vector<int> seeds;
  seeds.reserve(k);
  Eigen::VectorXd d2 = Eigen::VectorXd::Constant(n, std::numeric_limits<double>::infinity());
  for (int j = 0; j < k; ++j) {
    const double total = j == 0 ? 0.0 : d2.sum();
    const int pick = total > 0.0 ? proportional_index(d2.data(), n, total, hooks)
                                 : uniform_index(n, hooks);
    seeds.push_back(pick);
    hooks.poll_interrupt(static_cast<std::size_t>(n) * dimension(x));  // a pass over the points
    for (int i = 0; i < n; ++i) d2[i] = std::min(d2[i], squared_distance(x, at(i), at(pick)));
  }
  return seeds;
}

// Responsibilities below this share of a point's largest are set to zero.
constexpr double kNegligible = 1e-12;

// A delete move refits the emptied component and at most this many of the
// components that received its points.
constexpr int kMoveRefits = 3;

template <class Family, class Points = DensePoints>
class TvclustVb {
 public:
  // x: p x n, points as columns. start: a partition into at most T clusters
  // (0-based), the responsibilities start one-hot on it.
  TvclustVb(const Points& x, const SideInfo& side, const Family& empty,
            const TvclustVbParams& par, const std::vector<int>& start)
      : x_(x), side_(side), par_(par), T_(par.truncation), n_(point_count(x)),
        empty_(empty) {
    if (T_ < 1) throw std::invalid_argument("the truncation must be at least 1");
    if (static_cast<int>(start.size()) != n_) throw std::invalid_argument("start has the wrong length");
    r_ = Eigen::MatrixXd::Zero(T_, n_);
    for (int i = 0; i < n_; ++i) {
      if (start[i] < 0 || start[i] >= T_) {
        throw std::invalid_argument("the start has more clusters than the truncation");
      }
      r_(start[i], i) = 1.0;
    }
    comp_.assign(T_, empty);
    kl_.assign(T_, 0.0);
    ell_.resize(T_, n_);
    point_const_ = 0.0;
    for (int i = 0; i < n_; ++i) point_const_ += Family::point_constant(point(x_, i));
    e_alpha_ = par_.alpha;
    e_log_alpha_ = std::log(par_.alpha);
    alpha_shape_ = par_.alpha_a + (T_ - 1);
    alpha_rate_ = par_.alpha_b;
    set_pq_logs(par_.p, par_.q);
    p_a_ = par_.p_a;  // q(p) and q(q) start at their priors; update_globals() refits them
    p_b_ = par_.p_b;
    q_a_ = par_.q_a;
    q_b_ = par_.q_b;
    g1_.setOnes(std::max(T_ - 1, 0));
    g2_.setConstant(std::max(T_ - 1, 0), par_.alpha);
    refresh_log_pi();
    count_label_tallies();
    update_globals();
  }

  // Sweeps until the ELBO gains less than tol * |ELBO| or max_iter sweeps;
  // appends to `out`'s trace and sets its state fields.
  void run(RunHooks& hooks, int max_iter, TvclustVbResult& out) {
    double previous = elbo();
    last_ = previous;
    out.converged = false;
    for (int it = 1; it <= max_iter; ++it) {
      update_points(hooks);
      update_globals();
      const double now = elbo();
      out.elbo.push_back(now);
      ++out.iterations;
      ++out.sweeps;
      hooks.on_sweep(out.iterations, occupied(), now);
      hooks.check_interrupt();
      if (std::abs(now - previous) <= par_.tol * std::max(1.0, std::abs(now))) {
        out.converged = true;
        break;
      }
      previous = now;
    }
    out.r = r_;
    out.p = p_mean_;
    out.q = q_mean_;
    out.alpha = e_alpha_;
    out.log_weight = e_log_pi_;
    out.worst_drop = std::max(out.worst_drop, worst_drop_);
    out.updates_checked += checked_;
  }

  // Empty component c: its responsibilities go to the other components in
  // proportion (a point that had all of its mass there goes to its most
  // likely other component). Returns the points that held mass on c; c and
  // the (at most kMoveRefits) components that received the most are refitted
  // with the sticks, the other factors are kept. Not a coordinate update:
  // the caller keeps the result only if it ends with a larger ELBO.
  std::vector<int> delete_component(int c) {
    std::vector<int> moved;
    Eigen::VectorXd received = Eigen::VectorXd::Zero(T_);
    for (int i = 0; i < n_; ++i) {
      const double had = r_(c, i);
      if (had <= 0.0) continue;
      moved.push_back(i);
      r_(c, i) = 0.0;
      const double total = r_.col(i).sum();
      if (total > 1e-300) {
        received += r_.col(i) * (had / total);
        r_.col(i) /= total;
        continue;
      }
      Eigen::VectorXd score = ell_.col(i) + e_log_pi_;
      score(c) = -std::numeric_limits<double>::infinity();
      Eigen::Index best = 0;
      score.maxCoeff(&best);
      r_(best, i) = 1.0;
      received(best) += had;
    }
    move_components_ = {c};
    for (int t = 0; t < kMoveRefits; ++t) {
      Eigen::Index best = 0;
      if (received.maxCoeff(&best) <= 0.0) break;
      move_components_.push_back(static_cast<int>(best));
      received(best) = 0.0;
    }
    last_ = elbo();  // the bound of the moved state, from which the refits only climb
    refit_move_components();
    return moved;
  }

  // Split component c in two: two k-means++ seeds among the points whose
  // most responsible component is c, and the points nearer the second seed
  // hand their responsibility for c to the empty component `target`; then
  // every global factor is refitted. Not a coordinate update (see
  // delete_component()); `moved` receives the points holding mass on c or
  // target, and only those two components are refitted (with the sticks).
  // False when c has fewer than two such points.
  bool split_component(int c, int target, RunHooks& hooks, std::vector<int>* moved) {
    std::vector<int> members;
    for (int i = 0; i < n_; ++i) {
      Eigen::Index best = 0;
      r_.col(i).maxCoeff(&best);
      if (best == c) members.push_back(i);
    }
    if (members.size() < 2) return false;
    std::vector<int> seeds = kmeanspp_points(x_, members, 2, hooks);
    for (int& v : seeds) v = members[v];
    if (squared_distance(x_, seeds[0], seeds[1]) == 0.0) return false;
    for (std::size_t t = 0; t < members.size(); ++t) {
      const double d0 = squared_distance(x_, members[t], seeds[0]);
      const double d1 = squared_distance(x_, members[t], seeds[1]);
      if (d1 < d0) {
        const int i = members[t];
        r_(target, i) += r_(c, i);
        r_(c, i) = 0.0;
      }
    }
    moved->clear();
    for (int i = 0; i < n_; ++i) {
      if (r_(c, i) > 0.0 || r_(target, i) > 0.0) moved->push_back(i);
    }
    move_components_ = {c, target};
    last_ = elbo();
    refit_move_components();
    return true;
  }

  // A trial sweep of a move: the points `moved` each set to their optimum,
  // then the move's components and the sticks refitted. Every step is a
  // coordinate update, so the bound never decreases; it costs
  // O(|moved| T + n p^2 per refitted component), never a full sweep.
  void trial_sweep(const std::vector<int>& moved, RunHooks& hooks) {
    update_points(hooks, &moved);
    refit_move_components();
  }

  // The first component holding less than half a point, or -1.
  int first_empty() const {
    const Eigen::VectorXd mass = r_.rowwise().sum();
    for (int k = 0; k < T_; ++k) {
      if (mass(k) < 0.5) return k;
    }
    return -1;
  }

  // Components holding at least half a point, smallest first.
  std::vector<int> occupied_by_mass() const {
    const Eigen::VectorXd mass = r_.rowwise().sum();
    std::vector<int> out;
    for (int k = 0; k < T_; ++k) {
      if (mass(k) >= 0.5) out.push_back(k);
    }
    std::sort(out.begin(), out.end(), [&](int a, int b) { return mass(a) < mass(b); });
    return out;
  }

  // The evidence lower bound of the current factors.
  double elbo() const {
    double data = point_const_;
    for (int i = 0; i < n_; ++i) {
      for (int k = 0; k < T_; ++k) {
        const double r = r_(k, i);
        if (r > 0.0) data += r * (ell_(k, i) + e_log_pi_(k) - std::log(r));
      }
    }
    double theta = 0.0;
    for (double v : kl_) theta -= v;
    double sticks = 0.0;
    for (int k = 0; k + 1 < T_; ++k) {
      const double a = g1_(k), b = g2_(k), ab = digamma(a + b);
      const double e_log_rest = digamma(b) - ab;
      const double entropy = std::lgamma(a) + std::lgamma(b) - std::lgamma(a + b) -
                             (a - 1.0) * (digamma(a) - ab) - (b - 1.0) * e_log_rest;
      sticks += e_log_alpha_ + (e_alpha_ - 1.0) * e_log_rest + entropy;
    }
    if (par_.learn_alpha) sticks -= kl_gamma(alpha_shape_, alpha_rate_, par_.alpha_a, par_.alpha_b);
    const SideSums s = side_sums();
    double side = s.must_same * log_p_ + (s.must - s.must_same) * log_1mq_ +
                  s.not_same * log_1mp_ + (s.cannot - s.not_same) * log_q_;
    if (pq_learned()) {
      side -= kl_beta(p_a_, p_b_, par_.p_a, par_.p_b) + kl_beta(q_a_, q_b_, par_.q_a, par_.q_b);
    }
    return data + theta + sticks + side;
  }

  const Eigen::MatrixXd& responsibilities() const { return r_; }
  const Family& component(int k) const { return comp_[k]; }

 private:
  // Weighted side-information totals: must-link / cannot-link weight, and the parts
  // expected inside one cluster.
  struct SideSums {
    double must = 0.0, must_same = 0.0, cannot = 0.0, not_same = 0.0;
  };

  bool pq_learned() const { return par_.learn_pq && !side_.empty(); }

  void set_pq_logs(double p, double q) {
    log_p_ = std::log(p);
    log_1mp_ = std::log1p(-p);
    log_q_ = std::log(q);
    log_1mq_ = std::log1p(-q);
    p_mean_ = p;
    q_mean_ = q;
  }

  void update_globals() {
    update_components();
    check("components");
    update_sticks();
    check("sticks");
    if (par_.learn_alpha) {
      update_alpha();
      check("alpha");
    }
    if (pq_learned()) {
      update_pq();
      check("p, q");
    }
  }

  void update_components() {
    for (int k = 0; k < T_; ++k) update_component(k);
  }

  // The components a move changed, and the sticks, refitted.
  void refit_move_components() {
    for (int k : move_components_) update_component(k);
    check("components");
    update_sticks();
    check("sticks");
  }

  void update_component(int k) {
    {
      const double mass = r_.row(k).sum();
      if (mass == 0.0) {  // an empty component is its prior
        if (prior_ell_.size() == 0) {
          prior_ell_.resize(n_);
          empty_.expected_log_lik(x_, prior_ell_);
        }
        comp_[k] = empty_;
        ell_.row(k) = prior_ell_.transpose();
        kl_[k] = 0.0;
        return;
      }
    }
    work_w_ = r_.row(k).transpose();
    work_e_.resize(n_);
    comp_[k].fit(x_, work_w_);
    comp_[k].expected_log_lik(x_, work_e_);
    ell_.row(k) = work_e_.transpose();
    kl_[k] = comp_[k].kl_to_prior();
  }

  // q(v_k) = Beta(1 + N_k, alpha + sum_{l > k} N_l), N_k = sum_i r_ik.
  void update_sticks() {
    const Eigen::VectorXd mass = r_.rowwise().sum();
    double tail = mass.sum();
    for (int k = 0; k + 1 < T_; ++k) {
      tail -= mass(k);
      g1_(k) = 1.0 + mass(k);
      g2_(k) = e_alpha_ + std::max(tail, 0.0);
    }
    refresh_log_pi();
  }

  // E log pi_k = E log v_k + sum_{l < k} E log(1 - v_l).
  void refresh_log_pi() {
    e_log_pi_.setZero(T_);
    double rest = 0.0;
    for (int k = 0; k + 1 < T_; ++k) {
      const double ab = digamma(g1_(k) + g2_(k));
      e_log_pi_(k) = rest + digamma(g1_(k)) - ab;
      rest += digamma(g2_(k)) - ab;
    }
    e_log_pi_(T_ - 1) = rest;
  }

  void update_alpha() {
    double sum = 0.0;
    for (int k = 0; k + 1 < T_; ++k) sum += digamma(g2_(k)) - digamma(g1_(k) + g2_(k));
    alpha_shape_ = par_.alpha_a + (T_ - 1);
    alpha_rate_ = par_.alpha_b - sum;
    e_alpha_ = alpha_shape_ / alpha_rate_;
    e_log_alpha_ = digamma(alpha_shape_) - std::log(alpha_rate_);
  }

  // q(p) = Beta(p_a + must-links inside, p_b + cannot-links inside),
  // q(q) = Beta(q_a + cannot-links across, q_b + must-links across), in expectation.
  void update_pq() {
    const SideSums s = side_sums();
    p_a_ = par_.p_a + s.must_same;
    p_b_ = par_.p_b + s.not_same;
    q_a_ = par_.q_a + (s.cannot - s.not_same);
    q_b_ = par_.q_b + (s.must - s.must_same);
    const double dp = digamma(p_a_ + p_b_), dq = digamma(q_a_ + q_b_);
    log_p_ = digamma(p_a_) - dp;
    log_1mp_ = digamma(p_b_) - dp;
    log_q_ = digamma(q_a_) - dq;
    log_1mq_ = digamma(q_b_) - dq;
    p_mean_ = p_a_ / (p_a_ + p_b_);
    q_mean_ = q_a_ / (q_a_ + q_b_);
  }

  SideSums side_sums() const {
    SideSums s;
    const PairGraph& g = side_.pairs;
    for (std::size_t e = 0; e < g.n_pairs(); ++e) {
      const double h = r_.col(g.first[e]).dot(r_.col(g.second[e]));
      const double w = g.magnitude(e);
      if (g.must(e)) {
        s.must += w;
        s.must_same += w * h;
      } else {
        s.cannot += w;
        s.not_same += w * h;
      }
    }
    if (!side_.labels.empty()) {
      const int levels = side_.labels.n_levels;
      Eigen::MatrixXd tally = Eigen::MatrixXd::Zero(T_, levels);
      double own = 0.0;  // sum over labelled points of |r_i|^2
      for (int i = 0; i < n_; ++i) {
        const int l = side_.labels.label[i];
        if (l < 0) continue;
        tally.col(l) += r_.col(i);
        own += r_.col(i).squaredNorm();
      }
      const double within = tally.colwise().squaredNorm().sum();
      const double all = tally.rowwise().sum().squaredNorm();
      s.must += must_pairs_;
      s.must_same += 0.5 * (within - own);
      s.cannot += cannot_pairs_;
      s.not_same += 0.5 * (all - within);
    }
    return s;
  }

  void count_label_tallies() {
    if (side_.labels.empty()) return;
    std::vector<double> size(side_.labels.n_levels, 0.0);
    double labelled = 0.0;
    for (int l : side_.labels.label) {
      if (l < 0) continue;
      size[l] += 1.0;
      labelled += 1.0;
    }
    double square = 0.0;
    for (double m : size) {
      must_pairs_ += m * (m - 1.0) / 2.0;
      square += m * m;
    }
    cannot_pairs_ = (labelled * labelled - square) / 2.0;
  }

  // One pass over the points in index order (or over `only`, in its order),
  // each r_i set to its optimum given every other factor (the neighbours'
  // current r_j included).
  void update_points(RunHooks& hooks, const std::vector<int>* only = nullptr) {
    const double bonus_must = log_p_ - log_1mq_;
    const double bonus_not = log_1mp_ - log_q_;
    const PairGraph& g = side_.pairs;
    const bool labels = !side_.labels.empty();
    Eigen::MatrixXd tally;
    Eigen::VectorXd labelled;
    if (labels) {
      tally = Eigen::MatrixXd::Zero(T_, side_.labels.n_levels);
      for (int i = 0; i < n_; ++i) {
        if (side_.labels.label[i] >= 0) tally.col(side_.labels.label[i]) += r_.col(i);
      }
      labelled = tally.rowwise().sum();
    }
    Eigen::VectorXd logw(T_), fresh(T_);
    const bool has_pairs = !g.start.empty();
    const int count = only ? static_cast<int>(only->size()) : n_;
    for (int t = 0; t < count; ++t) {
      const int i = only ? (*only)[t] : t;
      logw = e_log_pi_ + ell_.col(i);
      int degree = 0;
      if (has_pairs) {
        for (int e = g.start[i]; e < g.start[i + 1]; ++e) {
          const double w = g.weight[e];
          logw += (w > 0.0 ? w * bonus_must : -w * bonus_not) * r_.col(g.nbr[e]);
        }
        degree = g.start[i + 1] - g.start[i];
      }
      const int l = labels ? side_.labels.label[i] : -1;
      if (l >= 0) {
        logw += bonus_must * (tally.col(l) - r_.col(i)) + bonus_not * (labelled - tally.col(l));
      }
      const double top = logw.maxCoeff();
      fresh = (logw.array() - top).exp().matrix();
      // Responsibilities below kNegligible of the largest become exact zeros
      // (moving the bound by less than 1e-9 per point), so that components
      // no point needs are exactly empty and keep their prior factor, which
      // update_components() does not refit.
      fresh = (fresh.array() < kNegligible).select(0.0, fresh);
      fresh /= fresh.sum();
      if (l >= 0) {
        tally.col(l) += fresh - r_.col(i);
        labelled += fresh - r_.col(i);
      }
      r_.col(i) = fresh;
      check("a point");
      hooks.poll_interrupt(static_cast<std::size_t>(T_) * (degree + 1));
    }
  }

  int occupied() const {
    const Eigen::VectorXd mass = r_.rowwise().sum();
    return static_cast<int>((mass.array() >= 0.5).count());
  }

  void check(const char*) {
    if (!par_.check_each_update) return;
    const double now = elbo();
    worst_drop_ = std::max(worst_drop_, last_ - now);
    last_ = now;
    ++checked_;
  }

  Points x_;
  const SideInfo& side_;
  TvclustVbParams par_;
  int T_, n_;
  Eigen::MatrixXd r_, ell_;
  std::vector<Family> comp_;
  Family empty_;                // the prior factor
  Eigen::VectorXd prior_ell_;   // E log f(x_i | theta) under the prior, once computed
  Eigen::VectorXd work_w_, work_e_;  // a component's weights and E log f, reused
  std::vector<int> move_components_;  // the components the last move changed
  std::vector<double> kl_;
  double point_const_ = 0.0;
  Eigen::VectorXd g1_, g2_, e_log_pi_;
  double e_alpha_ = 1.0, e_log_alpha_ = 0.0, alpha_shape_ = 1.0, alpha_rate_ = 1.0;
  double log_p_ = 0.0, log_1mp_ = 0.0, log_q_ = 0.0, log_1mq_ = 0.0;
  double p_a_ = 0.0, p_b_ = 0.0, q_a_ = 0.0, q_b_ = 0.0, p_mean_ = 0.0, q_mean_ = 0.0;
  double must_pairs_ = 0.0, cannot_pairs_ = 0.0;
  double last_ = -std::numeric_limits<double>::infinity();
  double worst_drop_ = 0.0;
  int checked_ = 0;
};

}  // namespace sideclust
