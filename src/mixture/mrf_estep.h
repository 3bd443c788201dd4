// Approximate E-steps on the constraint field over units (mrf_graph.h):
// mean field (Lange et al.; Nelson & Cohen equation 9), iterated conditional
// modes (Basu et al.) and Gibbs sampling (Lu & Leen's PPC). Each update of a
// unit reads only its neighbours in the CSR graph: O(K + degree) for ICM and
// Gibbs, O(K * degree) for mean field. B holds the unit unaries (K x U).
// Plain C++17 + Eigen, no R API.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "mixture/gaussian_mixture.h"
#include "mixture/mrf_graph.h"
#include "engine/bits.h"
#include "engine/column_moves.h"
#include "engine/huge_pages.h"
#include "engine/lanes2.h"
#include "engine/lookahead.h"
#include "common/run_hooks.h"

namespace sideclust {

// Penalty standing for log 0 in ICM and Gibbs scores: a certain cannot-link
// removes a label unless every label is removed, when the least violating
// labels remain.
constexpr double kHardPenalty = 1e10;

// Score of each label for unit u given its neighbours' labels.
inline void label_scores(const Eigen::MatrixXd& b, const UnitGraph& g, const std::vector<int>& y,
                         int u, Eigen::VectorXd& s) {
  s = b.col(u);
  for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
    s(y[g.nbr[e]]) += g.hard[e] ? -kHardPenalty : g.coupling[e];
  }
}

inline int argmax(const Eigen::VectorXd& s) {
  Eigen::Index k;
  s.maxCoeff(&k);
  return static_cast<int>(k);
}

inline std::vector<int> argmax_cols(const Eigen::MatrixXd& b) {
  std::vector<int> y(static_cast<std::size_t>(b.cols()));
  for (Eigen::Index u = 0; u < b.cols(); ++u) y[u] = argmax(b.col(u));
  return y;
}

// exp(d) for d <= 0, with 0 below e^-700 (under 1e-304): a probability
// relative to a largest term of 1 that small is negligible, and subnormal
// numbers (below ~e^-708) make every later multiplication far slower.
inline double flushed_exp(double d) { return d < -700.0 ? 0.0 : std::exp(d); }

// The same for K values in place, d[k] <= 0 becoming exp(d[k]), 0 below -cut
// (at most 700): Eigen's vectorized exponential, cheaper than one std::exp
// per value (the E-steps take K of them per unit).
// The default cut's floor is computed once (mean field calls this per update).
inline void flushed_exp_inplace(double* d, Eigen::Index K, double cut = 700.0) {
  Eigen::Map<Eigen::ArrayXd> v(d, K);
  static const double floor_700 = std::exp(-700.0) * (1.0 + 1e-9);
  // a clamped value, up to rounding
  const double floor = cut == 700.0 ? floor_700 : std::exp(-cut) * (1.0 + 1e-9);
  v = v.max(-cut).exp();
  for (Eigen::Index k = 0; k < K; ++k) {
    if (d[k] <= floor) d[k] = 0.0;
  }
}

// Sum of p[0 .. K-1] in two interleaved halves: half the dependent chain of
// additions (the running total otherwise dominates a Gibbs draw).
inline double sum_of(const double* p, Eigen::Index K) {
  double t0 = 0.0, t1 = 0.0;
  Eigen::Index k = 0;
  for (; k + 1 < K; k += 2) {
    t0 += p[k];
    t1 += p[k + 1];
  }
  if (k < K) t0 += p[k];
  return t0 + t1;
}

// A set of positions 0..n-1, initially all (or none), visited in increasing
// order by next(): one bit per position, so that finding the next member
// skips 64 settled positions per word.
class OrderedWorkSet {
 public:
  explicit OrderedWorkSet(std::size_t n, bool full = true)
      : n_(n), bits_((n + 63) / 64, full ? ~std::uint64_t{0} : std::uint64_t{0}) {
    if (!full) return;
    if (n % 64 != 0 && !bits_.empty()) bits_.back() = (std::uint64_t{1} << (n % 64)) - 1;
    count_ = n;
  }
  bool empty() const { return count_ == 0; }
  void insert(std::size_t i) {
    std::uint64_t& w = bits_[i >> 6];
    const std::uint64_t bit = std::uint64_t{1} << (i & 63);
    count_ += (w & bit) == 0;
    w |= bit;
  }
  void erase(std::size_t i) {
    std::uint64_t& w = bits_[i >> 6];
    const std::uint64_t bit = std::uint64_t{1} << (i & 63);
    count_ -= (w & bit) != 0;
    w &= ~bit;
  }
  // the smallest member >= i, or n when none
  std::size_t next(std::size_t i) const {
    if (i >= n_) return n_;
    std::size_t word = i >> 6;
    std::uint64_t w = bits_[word] & (~std::uint64_t{0} << (i & 63));
    while (w == 0) {
      if (++word == bits_.size()) return n_;
      w = bits_[word];
    }
    return (word << 6) + static_cast<std::size_t>(lowest_set_bit(w));
  }

 private:
  std::size_t n_, count_ = 0;
  std::vector<std::uint64_t> bits_;
};

// Units without neighbours get their exact posterior, softmax of b, in q;
// returns the active units that have neighbours, in order.
template <class Active>
std::vector<int> settle_isolated(const Eigen::MatrixXd& b, const UnitGraph& g, Eigen::MatrixXd& q,
                                 Active&& is_active) {
  std::vector<int> linked;
  for (int u = 0; u < g.n_units; ++u) {
    if (!is_active(u)) continue;
    if (g.degree(u) == 0) {
      set_softmax_col(q, u, b.col(u));
    } else {
      linked.push_back(u);
    }
  }
  return linked;
}

// Mean field: q_u(k) propto exp(B(k, u) + sum_v J_uv q_v(k)) times, for a
// certain cannot-link, the probability (1 - q_v(k)) that v avoids k.
// Sequential sweeps over the units with `active[u]` (all when empty), at
// most max_sweeps. Units without neighbours are set once. Returns the
// number of sweeps.
//
// Residual schedule: the first sweep updates every unit; after it a unit is
// updated again only when its field may have moved by more than tol since
// its own last update. Each update adds to every neighbour's `debt` a bound
// on how far it moved that neighbour's field (|J| times the largest change
// of q for a coupling; for a certain cannot-link, whose field term is
// log(1 - q), the largest |a - b| / min(1 - a, 1 - b) over labels for a
// change of q from a to b), and a unit whose debt is at most tol is
// skipped: its update would move q by at most tol / 2 (a softmax moves at
// most half as far as its inputs). The run stops when no unit owes an
// update. So the result is a sequential sweep's fixed point to within tol,
// at a cost that follows the units still moving rather than all units in
// every sweep. The factors (1 - q_v(k)) of certain cannot-links multiply
// the exponentials of the rest of the field (no logarithms, no cached
// log(1 - q)); when they leave no label (every label held for certain by a
// neighbour) the update is redone in log form with 1 - q floored at 1e-300.
inline int mean_field(const Eigen::MatrixXd& b, const UnitGraph& g, Eigen::MatrixXd& q,
                      int max_sweeps, double tol, const std::vector<char>& active = {},
                      RunHooks* hooks = nullptr) {
  const Eigen::Index K = b.rows();
  auto is_active = [&](int u) { return active.empty() || active[u]; };
  const std::vector<int> linked = settle_isolated(b, g, q, is_active);
  if (linked.empty()) return 0;
  std::vector<char> has_hard(static_cast<std::size_t>(g.n_units), 0);
  for (int u : linked) {
    for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
      if (g.hard[e]) has_hard[u] = 1;
    }
  }
  RandomAccessTable debt_memory;  // read at the neighbours' random places, as q
  double* const debt = debt_memory.reserve(static_cast<std::size_t>(g.n_units));
  std::fill(debt, debt + g.n_units, 0.0);
  for (int u : linked) debt[u] = std::numeric_limits<double>::infinity();
  // the linked units that owe an update: a sweep visits them in order (the
  // same updates, in the same order, as a scan of every unit that skips
  // those whose debt is at most tol, without touching the settled ones)
  const std::size_t n_units = static_cast<std::size_t>(g.n_units);
  OrderedWorkSet owing(n_units, false);
  for (int u : linked) owing.insert(static_cast<std::size_t>(u));
  const bool all_active = active.empty();
  std::vector<double> s(static_cast<std::size_t>(K));
  const double* bd = b.data();
  double* qd = q.data();
  // The units about to be updated are named two stages ahead (the engine
  // asks for their memory): Far ahead a unit's own column of b and q and its
  // row of the graph, Near ahead its neighbours' columns of q and debts,
  // whose addresses come from that row. Units put into the work set after
  // they were passed over are visited without look-ahead.
  const std::size_t col_len = static_cast<std::size_t>(K);
  auto own_reads = [&](std::size_t w, const Upcoming& r) {
    r.span(bd + static_cast<std::ptrdiff_t>(w) * K, col_len);
    r.span(qd + static_cast<std::ptrdiff_t>(w) * K, col_len);
    r.line(&g.nbr[g.start[w]]);
    r.line(&g.coupling[g.start[w]]);
  };
  auto neighbour_reads = [&](std::size_t w, const Upcoming& r) {
    for (int e = g.start[w]; e < g.start[w + 1]; ++e) {
      r.span(qd + static_cast<std::ptrdiff_t>(g.nbr[e]) * K, col_len);
      r.line(&debt[g.nbr[e]]);
    }
  };
  int sweep = 0;
  while (sweep < max_sweeps && !owing.empty()) {
    if (hooks) hooks->check_interrupt();  // an E-step may run many sweeps
    ++sweep;
    auto update = [&](std::size_t at) {
      owing.erase(at);
      const int u = static_cast<int>(at);
      if (!(debt[u] > tol)) return;  // a NaN debt, as the scan skipped it
      debt[u] = 0.0;
      const double* bu = bd + static_cast<std::ptrdiff_t>(u) * K;
      for (Eigen::Index k = 0; k < K; ++k) s[k] = bu[k];
      for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
        if (g.hard[e]) continue;
        const double* qv = qd + static_cast<std::ptrdiff_t>(g.nbr[e]) * K;
        const double j = g.coupling[e];
        for (Eigen::Index k = 0; k < K; ++k) s[k] += j * qv[k];
      }
      double m = s[0];
      for (Eigen::Index k = 1; k < K; ++k) m = std::max(m, s[k]);
      for (Eigen::Index k = 0; k < K; ++k) s[k] -= m;
      flushed_exp_inplace(s.data(), K);
      if (has_hard[u]) {
        for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
          if (!g.hard[e]) continue;
          const double* qv = qd + static_cast<std::ptrdiff_t>(g.nbr[e]) * K;
          for (Eigen::Index k = 0; k < K; ++k) s[k] *= 1.0 - qv[k];
        }
      }
      double total = sum_of(s.data(), K);
      if (!(total > 1e-250)) {  // no label left in product form: log form
        for (Eigen::Index k = 0; k < K; ++k) s[k] = bu[k];
        for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
          const double* qv = qd + static_cast<std::ptrdiff_t>(g.nbr[e]) * K;
          const double j = g.coupling[e];
          for (Eigen::Index k = 0; k < K; ++k) {
            s[k] += g.hard[e] ? std::log(std::max(1.0 - qv[k], 1e-300)) : j * qv[k];
          }
        }
        m = s[0];
        for (Eigen::Index k = 1; k < K; ++k) m = std::max(m, s[k]);
        for (Eigen::Index k = 0; k < K; ++k) s[k] = flushed_exp(s[k] - m);
        total = sum_of(s.data(), K);
      }
      const double inv = 1.0 / total;
      double* qu = qd + static_cast<std::ptrdiff_t>(u) * K;
      double change = 0.0, log_change = 0.0;
      if (has_hard[u]) {  // the bound for certain cannot-links is read only then
        log_change = store_and_largest_move(qu, s.data(), inv, K, &change);
      } else {
        for (Eigen::Index k = 0; k < K; ++k) {
          const double v = s[k] * inv;
          change = std::max(change, std::abs(v - qu[k]));
          qu[k] = v;
        }
      }
      if (change == 0.0) return;
      for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
        const int v = g.nbr[e];
        debt[v] += g.hard[e] ? log_change : std::abs(g.coupling[e]) * change;
        // v has a neighbour: it is linked when active
        if (debt[v] > tol && (all_active || active[v])) owing.insert(static_cast<std::size_t>(v));
      }
    };
    for_each_member_ahead(
        n_units, [&](std::size_t i) { return owing.next(i); }, update,
        ahead<3>(neighbour_reads), ahead<6>(own_reads));
  }
  return sweep;
}

// ICM: each unit in turn takes its best label given its neighbours, until a
// sweep changes nothing (a local maximum of the joint) or max_sweeps.
// After the first sweep a unit is visited again only when a neighbour has
// moved since its own last visit: otherwise its best label is the one it
// holds (it keeps its label on ties), so skipping it changes nothing. The
// sweeps are those of the plain scan, each at the cost of its visits, so
// that the last sweeps, where a few units still move, do not cost a pass
// over all of them (with more points that tail grows longer).
inline int icm(const Eigen::MatrixXd& b, const UnitGraph& g, std::vector<int>& y,
               int max_sweeps, RunHooks* hooks = nullptr) {
  Eigen::VectorXd s;
  const std::size_t n_units = static_cast<std::size_t>(g.n_units);
  OrderedWorkSet stale(n_units);
  int sweep = 0;
  while (sweep < max_sweeps && !stale.empty()) {
    if (hooks) hooks->check_interrupt();
    ++sweep;
    for (std::size_t at = stale.next(0); at < n_units; at = stale.next(at + 1)) {
      stale.erase(at);
      const int u = static_cast<int>(at);
      if (g.degree(u) == 0) {
        y[u] = argmax(b.col(u));
        continue;
      }
      label_scores(b, g, y, u, s);
      const int best = argmax(s);
      // keep the current label on ties
      if (best != y[u] && s(best) > s(y[u])) {
        y[u] = best;
        for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
          stale.insert(static_cast<std::size_t>(g.nbr[e]));
        }
      }
    }
  }
  return sweep;
}

inline Eigen::MatrixXd one_hot(const std::vector<int>& y, Eigen::Index K) {
  Eigen::MatrixXd q = Eigen::MatrixXd::Zero(K, static_cast<Eigen::Index>(y.size()));
  for (std::size_t u = 0; u < y.size(); ++u) q(y[u], static_cast<Eigen::Index>(u)) = 1.0;
  return q;
}

// Largest total |J| of a unit's couplings for which Gibbs weighs its labels
// in product form: the factors stay within e^(+-50), so products neither
// overflow nor vanish, and a label whose unary weight underflowed (more than
// ~745 below the best) stays negligible after them.
constexpr double kProductCoupling = 50.0;
// Log-weights this far below a unit's best (2 * kProductCoupling + 40) are
// negligible in product form: e^-40 is under the rounding of a double.
constexpr double kNegligibleLog = 2.0 * kProductCoupling + 40.0;

// Gibbs sampling: `burn_in` sweeps, then `sweeps` sweeps whose conditional
// label distributions are averaged (Rao-Blackwellized marginals: each unit's
// conditional probabilities rather than its sampled label, so fewer sweeps
// reach a given accuracy). Units without neighbours get their exact
// posterior and are never sampled. y holds the chain's state, so EM runs
// the burn-in only in its first E-step (constrained_mixture.h).
// A unit's conditional weights are exp(B(., u)) times exp(J_uv) for each
// neighbour's label, and 0 for a neighbour's label across a certain
// cannot-link: with exp(B) (scaled to a maximum of 1) and exp(J) computed
// once per E-step, a draw costs O(K + degree) multiplications and no
// exponentials. Units whose soft couplings exceed kProductCoupling, and draws
// whose weights all vanish (every label removed by certain cannot-links),
// take the exponentials of their scores instead. Draws come from a SplitMix64
// stream seeded from the host's generator (one host draw per E-step).
// The weights of a unit in product form without certain cannot-links
// replace its column of b (the caller's scratch): its draws never fall back
// to the scores (its best label keeps a weight of at least e^-50), so b's
// column is not read again, and no further K x units matrix is needed.
// `factors`, when given, keeps the factors exp(J) of the edges between
// calls (they depend on the graph alone): EM computes them in its first
// E-step only. q is written, not zeroed and then added to: the first
// recorded sweep stores each conditional (0 + x is x) and the last divides
// by the number of sweeps as it adds (the same arithmetic as adding and
// dividing after, in two passes fewer over the K x units matrix).
inline Eigen::MatrixXd gibbs(Eigen::MatrixXd& b, const UnitGraph& g, std::vector<int>& y,
                             int burn_in, int sweeps, RunHooks& hooks,
                             std::vector<double>* factors = nullptr) {
  const Eigen::Index K = b.rows();
  Eigen::MatrixXd q(K, g.n_units);  // every column is written below
  const std::vector<int> linked = settle_isolated(b, g, q, [](int) { return true; });
  if (linked.empty() || burn_in + sweeps <= 0) return q;
  // units with a certain cannot-link may need their scores (every label
  // removed), and so does every unit when nothing is recorded: their
  // weights go to a matrix of their own
  std::vector<int> hard_slot(static_cast<std::size_t>(g.n_units), -1);
  int n_hard = 0;
  for (int u : linked) {
    bool keep_scores = sweeps <= 0;
    for (int e = g.start[u]; e < g.start[u + 1] && !keep_scores; ++e) keep_scores = g.hard[e];
    if (keep_scores) hard_slot[u] = n_hard++;
  }
  Eigen::MatrixXd hard_weight(K, n_hard);
  std::vector<const double*> wcol(static_cast<std::size_t>(g.n_units), nullptr);
  std::vector<char> product(static_cast<std::size_t>(g.n_units), 0);
  std::vector<double> own_factors;
  std::vector<double>& factor = factors != nullptr ? *factors : own_factors;
  const bool have_factors = factor.size() == g.nbr.size() && !g.nbr.empty();
  if (!have_factors) factor.assign(g.nbr.size(), 0.0);
  for (int u : linked) {
    double sum_j = 0.0;
    for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
      if (!g.hard[e]) sum_j += std::abs(g.coupling[e]);
    }
    if (!(sum_j <= kProductCoupling)) continue;
    product[u] = 1;
    double* wu = hard_slot[u] >= 0 ? hard_weight.col(hard_slot[u]).data() : b.col(u).data();
    wcol[u] = wu;
    // weights below e^-kNegligibleLog are 0: times factors of at most e^50
    // they stay below e^-kNegligibleLog+100 against at least e^-50 for the
    // best label, under the rounding of the total, and they would otherwise
    // underflow into subnormal numbers, whose arithmetic is far slower
    const double m = b.col(u).maxCoeff();
    for (Eigen::Index k = 0; k < K; ++k) wu[k] = b(k, u) - m;
    flushed_exp_inplace(wu, K, kNegligibleLog);
    if (have_factors) continue;
    for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
      factor[e] = g.hard[e] ? 0.0 : std::exp(g.coupling[e]);
    }
  }
  SplitMix64 rng(hooks);
  Eigen::VectorXd scores;
  std::vector<double> s(static_cast<std::size_t>(K));
  double* sp = s.data();
  // weights from the scores' exponentials into s; returns their total
  auto exp_scores = [&](int u) {
    label_scores(b, g, y, u, scores);
    const double m = scores.maxCoeff();
    for (Eigen::Index k = 0; k < K; ++k) sp[k] = flushed_exp(scores(k) - m);
    return sum_of(sp, K);
  };
  double* qd = q.data();
  int* yd = y.data();
  for (int sweep = 0; sweep < burn_in + sweeps; ++sweep) {
    hooks.check_interrupt();
    const bool record = sweep >= burn_in;
    const bool first = sweep == burn_in, last = sweep == burn_in + sweeps - 1;
    const double n_sweeps = static_cast<double>(sweeps);
    // the neighbours' labels of a unit four ahead: random reads, the cost of a draw
    auto label_reads = [&](int w, const Upcoming& up) {
      for (int e = g.start[w]; e < g.start[w + 1]; ++e) up.line(yd + g.nbr[e]);
    };
    auto draw = [&](int u) {
      double total = 0.0;
      if (product[u]) {
        const double* wu = wcol[u];
        for (Eigen::Index k = 0; k < K; ++k) sp[k] = wu[k];
        for (int e = g.start[u]; e < g.start[u + 1]; ++e) sp[yd[g.nbr[e]]] *= factor[e];
        total = sum_of(sp, K);
      }
      if (!(total > 0.0)) total = exp_scores(u);  // not in product form, or no label left
      if (record) {
        double* qu = qd + static_cast<std::ptrdiff_t>(u) * K;
        const double inv = 1.0 / total;
        if (first && last) {
          for (Eigen::Index k = 0; k < K; ++k) qu[k] = sp[k] * inv / n_sweeps;
        } else if (first) {
          for (Eigen::Index k = 0; k < K; ++k) qu[k] = sp[k] * inv;
        } else if (last) {
          for (Eigen::Index k = 0; k < K; ++k) qu[k] = (qu[k] + sp[k] * inv) / n_sweeps;
        } else {
          for (Eigen::Index k = 0; k < K; ++k) qu[k] += sp[k] * inv;
        }
      }
      double r = rng.uniform() * total;
      int k = 0;
      while (k < K - 1 && r >= sp[k]) r -= sp[k++];
      yd[u] = k;
    };
    for_each_id_ahead(linked, linked.size(), draw, ahead<4>(label_reads));
  }
  if (sweeps <= 0) {  // nothing recorded: the conditionals at the chain's last state
    Eigen::VectorXd sc;
    for (int u : linked) {
      label_scores(b, g, y, u, sc);
      set_softmax_col(q, u, sc);
    }
  }
  return q;
}

}  // namespace sideclust
