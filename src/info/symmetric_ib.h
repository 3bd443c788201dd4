// Symmetric multivariate information bottleneck (Friedman, Mosenzon, Slonim &
// Tishby 2001; Slonim, Friedman & Tishby 2002), hard sequential optimizer.
// C_X compresses the rows X and C_Y the columns Y (Gin: X -> C_X, Y -> C_Y);
// each keeps information about the other (Gout: C_X -> C_Y). The functional
// maximized is TR-09-12's (23),
//   L_max = I(C_X; C_Y) - beta^-1 [I(C_X; X) + I(C_Y; Y)],
// with I(C_X; X) = H(C_X) and I(C_Y; Y) = H(C_Y) for hard clusterings.
//
// With the column clusters fixed, TR-09-12's merge cost (26) of a singleton
// row x into row cluster c keeps two terms: JS_Pi[p(c_Y|x), p(c_Y|c)] (C_X
// is the parent of C_Y in Gout) and -beta^-1 JS_Pi[p(x|{x}), p(x|c)] = H(Pi).
// Weighted by p_x + P_c, that is sib's cost on the row compressed over the
// column clusters, r(l) = sum_{y in l} p(x, y), against the cluster joint
// Q(c, l) = p(c_X = c, c_Y = l):
//   d(x, c) = sum_{l: r(l) > 0} [G(r) + G(Q) - G(r + Q)]
//           + (1 - beta^-1) [G(p_x + P_c) - G(p_x) - G(P_c)],  G(a) = a log a.
// Columns move the same way on the transpose with the row clusters fixed. A
// half-pass costs O(nnz + n_rows min(nnz per row, k_cols) k_rows) plus a
// rebuild of Q, O(nnz).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

#include "info/ib_runs.h"
#include "common/info_sparse.h"
#include "common/run_hooks.h"

namespace sideclust {

// Sequential moves of the rows of p among k clusters while its columns stay
// grouped by fixed labels 0..n_labels-1.
class GroupedSibSide {
 public:
  GroupedSibSide(const JointCsr& p, int k, int n_labels, double inv_beta)
      : p_(p), k_(k), n_labels_(n_labels), inv_beta_(inv_beta),
        acc_(n_labels, 0.0), seen_(n_labels, 0) {}

  void reset(const std::vector<int>& cl, const std::vector<int>& labels) {
    cl_ = cl;
    labels_ = labels;
    q_.assign(static_cast<std::size_t>(n_labels_) * k_, 0.0);
    mass_.assign(k_, 0.0);
    label_mass_.assign(n_labels_, 0.0);
    for (int y = 0; y < p_.n_cols; ++y) label_mass_[labels_[y]] += p_.py[y];
    for (int x = 0; x < p_.n_rows; ++x) {
      mass_[cl_[x]] += p_.px[x];
      for (int e = p_.ptr[x]; e < p_.ptr[x + 1]; ++e) {
        q_[static_cast<std::size_t>(labels_[p_.idx[e]]) * k_ + cl_[x]] += p_.val[e];
      }
    }
    qlogq_.resize(q_.size());
    for (std::size_t i = 0; i < q_.size(); ++i) qlogq_[i] = xlogx(q_[i]);
  }

  // One pass over the rows in the given order; returns the number of moves.
  long long pass(const std::vector<int>& order, RunHooks& hooks) {
    std::vector<double> d;
    long long moved = 0;
    for (int x : order) {
      hooks.poll_interrupt(static_cast<std::size_t>(p_.ptr[x + 1] - p_.ptr[x] + 1) * k_);
      compress(x);
      const int from = cl_[x];
      move(x, from, -1.0);
      costs(x, d);
      const int best = best_cluster(d, k_, from, p_.px[x]);
      move(x, best, 1.0);
      if (best != from) {
        cl_[x] = best;
        ++moved;
      }
      for (int l : touched_) {
        acc_[l] = 0.0;
        seen_[l] = 0;
      }
    }
    return moved;
  }

  // I(C; L) of the cluster joint.
  double info() const {
    double s = 0.0;
    for (int l = 0; l < n_labels_; ++l) {
      for (int c = 0; c < k_; ++c) {
        const double v = q_[static_cast<std::size_t>(l) * k_ + c];
        if (v > 0.0) s += v * std::log(v / (mass_[c] * label_mass_[l]));
      }
    }
    return s;
  }
  double cluster_entropy() const { return entropy(mass_); }
  double label_entropy() const { return entropy(label_mass_); }
  const std::vector<int>& cluster() const { return cl_; }
  // p(c, l) as a k x n_labels row-major vector.
  std::vector<double> joint() const {
    std::vector<double> out(q_.size());
    for (int l = 0; l < n_labels_; ++l) {
      for (int c = 0; c < k_; ++c) {
        out[static_cast<std::size_t>(c) * n_labels_ + l] = q_[static_cast<std::size_t>(l) * k_ + c];
      }
    }
    return out;
  }

 private:
  // Row x summed over the column labels, into acc_ at the labels in touched_.
  void compress(int x) {
    touched_.clear();
    for (int e = p_.ptr[x]; e < p_.ptr[x + 1]; ++e) {
      const int l = labels_[p_.idx[e]];
      if (!seen_[l]) {
        seen_[l] = 1;
        touched_.push_back(l);
      }
      acc_[l] += p_.val[e];
    }
  }

  void costs(int x, std::vector<double>& d) const {
    d.assign(k_, 0.0);
    double rlogr = 0.0;
    for (int l : touched_) {
      const double r = acc_[l];
      rlogr += xlogx(r);
      const std::size_t base = static_cast<std::size_t>(l) * k_;
      for (int c = 0; c < k_; ++c) {
        const double s = r + q_[base + c];
        d[c] += qlogq_[base + c] - xlogx(s);
      }
    }
    const double px = p_.px[x];
    for (int c = 0; c < k_; ++c) {
      d[c] += rlogr + (1.0 - inv_beta_) * (xlogx(px + mass_[c]) - xlogx(px) - xlogx(mass_[c]));
    }
  }

  void move(int x, int c, double sign) {
    mass_[c] = std::max(0.0, mass_[c] + sign * p_.px[x]);
    for (int l : touched_) {
      const std::size_t i = static_cast<std::size_t>(l) * k_ + c;
      const double v = std::max(0.0, q_[i] + sign * acc_[l]);
      q_[i] = v;
      qlogq_[i] = xlogx(v);
    }
  }

  const JointCsr& p_;
  int k_, n_labels_;
  double inv_beta_;
  std::vector<int> cl_, labels_, touched_;
  std::vector<double> q_, qlogq_, mass_, label_mass_;  // q_: n_labels x k, label-major
  std::vector<double> acc_;
  std::vector<char> seen_;
};

struct SymmetricIbParams {
  int k_rows = 2, k_cols = 2;
  double inv_beta = 0.0;  // beta^-1; 0 is the hard limit beta = Inf
  int max_iter = 100;
  int restarts = 1;
  std::vector<int> start_rows, start_cols;  // 0-based; first restart when given
};

struct SymmetricIbResult {
  std::vector<int> rows, cols;
  double objective = 0.0;      // L_max
  double info_clusters = 0.0;  // I(C_X; C_Y)
  double info_rows = 0.0;      // I(C_X; X) = H(C_X)
  double info_cols = 0.0;      // I(C_Y; Y) = H(C_Y)
  std::vector<double> joint;   // p(c_X, c_Y), k_rows x k_cols row-major
  std::vector<double> trace;   // L_max after each pass (rows then columns)
  std::vector<double> restart_objective;
  std::vector<double> pass_seconds;
  int iterations = 0;
  bool converged = false;
  long long moves = 0;
};

inline SymmetricIbResult symmetric_ib_fit(const JointCsr& p, const SymmetricIbParams& par,
                                          RunHooks& hooks) {
  if (par.k_rows < 1 || par.k_rows > p.n_rows || par.k_cols < 1 || par.k_cols > p.n_cols) {
    throw std::invalid_argument("k out of range");
  }
  const JointCsr pt = transpose(p);
  GroupedSibSide rows_side(p, par.k_rows, par.k_cols, par.inv_beta);
  GroupedSibSide cols_side(pt, par.k_cols, par.k_rows, par.inv_beta);
  auto objective = [&]() {
    return rows_side.info() -
           par.inv_beta * (rows_side.cluster_entropy() + rows_side.label_entropy());
  };
  auto uniform = [&hooks]() { return hooks.uniform(); };
  SymmetricIbResult best;
  best.objective = -std::numeric_limits<double>::infinity();
  std::vector<int> row_order(p.n_rows), col_order(p.n_cols);
  for (int run = 0; run < par.restarts; ++run) {
    const bool given = run == 0;
    std::vector<int> rows = given && !par.start_rows.empty()
                                ? par.start_rows
                                : random_partition(p.n_rows, par.k_rows, uniform);
    std::vector<int> cols = given && !par.start_cols.empty()
                                ? par.start_cols
                                : random_partition(p.n_cols, par.k_cols, uniform);
    for (int i = 0; i < p.n_rows; ++i) row_order[i] = i;
    for (int i = 0; i < p.n_cols; ++i) col_order[i] = i;
    rows_side.reset(rows, cols);
    // A pass is a row half-pass and a column half-pass; both orders are
    // drawn inside it (and timed with it).
    auto pass = [&]() {
      shuffle(row_order, hooks);
      long long moved = rows_side.pass(row_order, hooks);
      rows = rows_side.cluster();
      cols_side.reset(cols, rows);
      shuffle(col_order, hooks);
      moved += cols_side.pass(col_order, hooks);
      cols = cols_side.cluster();
      rows_side.reset(rows, cols);  // also drops accumulated rounding
      return moved;
    };
    PassLog log;
    const bool converged =
        sequential_passes(par.max_iter, par.k_rows, log, hooks, []() {}, pass, objective);
    const double obj = log.trace.empty() ? objective() : log.trace.back();
    best.restart_objective.push_back(obj);
    if (obj > best.objective) {
      best.objective = obj;
      best.rows = rows;
      best.cols = cols;
      best.info_clusters = rows_side.info();
      best.info_rows = rows_side.cluster_entropy();
      best.info_cols = rows_side.label_entropy();
      best.joint = rows_side.joint();
      keep_passes(best, log, converged);
    }
  }
  return best;
}

}  // namespace sideclust
