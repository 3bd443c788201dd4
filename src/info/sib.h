// Sequential information bottleneck (Slonim, Friedman & Tishby 2002), hard
// version (beta = infinity): draw a point out of its cluster and put it back
// where the merge cost is least, until no point moves.
//
// Merge cost of point x (row r(y) = p(x, y), mass p_x) into cluster c (joint
// column q_c(y) = sum_{x' in c} p(x', y), mass P_c): the loss of I(C;Y),
//   d(x, c) = (p_x + P_c) JS_pi(p(y|x), p(y|c))
//           = G(r) + G(q_c) - G(r + q_c),  G(q) = sum_y q log q - P log P,
// because I(C;Y) = sum_c G(q_c) - sum_y p(y) log p(y). Terms with r(y) = 0
// cancel, so only the non-zero columns of x remain:
//   d(x, c) = sum_{y: r(y) > 0} [r log r + q_c log q_c - (r + q_c) log(r + q_c)]
//             + (p_x + P_c) log(p_x + P_c) - p_x log p_x - P_c log P_c.
// With q_c(y) log q_c(y) cached per (y, c), one evaluation costs O(nnz(x))
// with one log per term, and a pass O(nnz * k).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "info/ib_runs.h"
#include "engine/huge_pages.h"
#include "common/info_sparse.h"
#include "engine/lookahead.h"
#include "common/run_hooks.h"

namespace sideclust {

struct SibParams {
  int k = 2;
  int max_iter = 100;
  int restarts = 1;
  std::vector<int> start;  // 0-based; used for the first restart when given
};

struct SibResult {
  std::vector<int> cluster;
  double info_y = 0.0;       // I(C;Y)
  double info_x = 0.0;       // I(C;X) = H(C) for a hard partition
  std::vector<double> trace; // I(C;Y) after each pass of the best run
  std::vector<double> restart_info;
  std::vector<double> pass_seconds;  // wall time of each pass of the best run
  int iterations = 0;
  bool converged = false;
  long long moves = 0;
};

class SibState {
 public:
  SibState(const JointCsr& p, int k) : p_(p), k_(k) {}

  // Rebuild all cluster statistics from the assignment.
  void reset(const std::vector<int>& cl) {
    cl_ = cl;
    const std::size_t m = p_.n_cols, row = 2 * static_cast<std::size_t>(k_);
    table_ = tables_.reserve(m * row);
    std::fill(table_, table_ + m * row, 0.0);
    mass_.assign(k_, 0.0);
    for (int x = 0; x < p_.n_rows; ++x) {
      mass_[cl_[x]] += p_.px[x];
      for (int e = p_.ptr[x]; e < p_.ptr[x + 1]; ++e) {
        table_[static_cast<std::size_t>(p_.idx[e]) * row + cl_[x]] += p_.val[e];
      }
    }
    for (std::size_t y = 0; y < m; ++y) {
      double* q = table_ + y * row;
      for (int c = 0; c < k_; ++c) q[k_ + c] = xlogx(q[c]);
    }
  }

  // Merge costs of row x (currently out of every cluster) into each cluster.
  void costs(int x, std::vector<double>& d) const {
    d.assign(k_, 0.0);
    double rlogr = 0.0;
    for (int e = p_.ptr[x]; e < p_.ptr[x + 1]; ++e) {
      const double r = p_.val[e];
      rlogr += xlogx(r);
      const double* q = word_row(p_.idx[e]);
      const double* ql = q + k_;
      for (int c = 0; c < k_; ++c) {
        const double s = r + q[c];
        d[c] += ql[c] - s * std::log(s);
      }
    }
    const double px = p_.px[x];
    for (int c = 0; c < k_; ++c) {
      d[c] += rlogr + xlogx(px + mass_[c]) - xlogx(px) - xlogx(mass_[c]);
    }
  }

  void move(int x, int c, double sign) {
    mass_[c] += sign * p_.px[x];
    if (mass_[c] < 0.0) mass_[c] = 0.0;
    for (int e = p_.ptr[x]; e < p_.ptr[x + 1]; ++e) {
      double* q = word_row(p_.idx[e]);
      double v = q[c] + sign * p_.val[e];
      if (v < 0.0) v = 0.0;
      q[c] = v;
      q[k_ + c] = xlogx(v);
    }
  }

  // One pass over the points in the given order; returns the number of moves.
  // The order is random and the table has a row per word, so each point's
  // reads land anywhere in memory: the engine requests them a few points
  // ahead (its row offsets, mass and cluster eight ahead, its row five ahead,
  // its words' table records two ahead) so that they overlap with the
  // logarithms of the points before. One record of 2k doubles per word (three
  // cache lines at k = 10, not four for two tables), in a table marked for
  // random reads.
  long long pass(const std::vector<int>& order, RunHooks& hooks) {
    std::vector<double> d;
    long long moved = 0;
    auto point_reads = [&](int f, const Upcoming& r) {
      r.line(p_.ptr.address(f));
      r.line(&cl_[f]);
      r.line(&p_.px[f]);
    };
    auto row_reads = [&](int f, const Upcoming& r) {
      const int e = p_.ptr[f], last = p_.ptr[f + 1];
      r.line(p_.idx.address(e));
      r.line(p_.val.address(e));
      if (last > e) {
        r.line(p_.idx.address(last - 1));
        r.line(p_.val.address(last - 1));
      }
    };
    auto record_reads = [&](int f, const Upcoming& r) { request_records(f, r); };
    auto visit = [&](int x) {
      hooks.poll_interrupt(static_cast<std::size_t>(p_.ptr[x + 1] - p_.ptr[x] + 1) * k_);
      const int from = cl_[x];
      move(x, from, -1.0);
      costs(x, d);
      const int best = best_cluster(d, k_, from, p_.px[x]);
      move(x, best, 1.0);
      if (best != from) {
        cl_[x] = best;
        ++moved;
      }
    };
    for_each_id_ahead(order, order.size(), visit, ahead<8>(point_reads), ahead<5>(row_reads),
                      ahead<2>(record_reads));
    return moved;
  }

  // The table records of row x's words.
  void request_records(int x, const Upcoming& r) const {
    const std::size_t count = 2 * static_cast<std::size_t>(k_);
    for (int e = p_.ptr[x]; e < p_.ptr[x + 1]; ++e) r.span(word_row(p_.idx[e]), count);
  }

  // I(C;Y) from the table, transposed into a buffer kept across passes (a
  // fresh one would fault its pages in again on every pass).
  double info_y() const {
    qc_.resize(static_cast<std::size_t>(k_) * p_.n_cols);
    for (int y = 0; y < p_.n_cols; ++y) {
      for (int c = 0; c < k_; ++c) qc_[static_cast<std::size_t>(c) * p_.n_cols + y] = word_row(y)[c];
    }
    return cluster_information(qc_, mass_, p_.py);
  }
  double info_x() const { return entropy(mass_); }
  const std::vector<int>& cluster() const { return cl_; }

 private:
  const JointCsr& p_;
  int k_;
  // word y's record: q_c(y) for c < k, then q_c(y) log q_c(y)
  double* word_row(int y) const { return table_ + static_cast<std::size_t>(y) * 2 * k_; }

  std::vector<int> cl_;
  RandomAccessTable tables_;
  double* table_ = nullptr;
  std::vector<double> mass_;
  mutable std::vector<double> qc_;  // info_y()'s buffer
};

inline SibResult sib_fit(const JointCsr& p, const SibParams& par, RunHooks& hooks) {
  if (par.k < 1 || par.k > p.n_rows) throw std::invalid_argument("k out of range");
  SibResult best;
  best.info_y = -std::numeric_limits<double>::infinity();
  SibState st(p, par.k);
  auto uniform = [&hooks]() { return hooks.uniform(); };
  for (int run = 0; run < par.restarts; ++run) {
    std::vector<int> cl = (run == 0 && !par.start.empty())
                              ? par.start
                              : random_partition(p.n_rows, par.k, uniform);
    st.reset(cl);
    std::vector<int> order(p.n_rows);
    for (int i = 0; i < p.n_rows; ++i) order[i] = i;
    PassLog log;
    const bool converged = sequential_passes(
        par.max_iter, par.k, log, hooks, [&]() { shuffle(order, hooks); },
        [&]() {
          const long long moved = st.pass(order, hooks);
          st.reset(st.cluster());  // drop accumulated rounding
          return moved;
        },
        [&]() { return st.info_y(); });
    const double iy = log.trace.empty() ? st.info_y() : log.trace.back();
    best.restart_info.push_back(iy);
    if (iy > best.info_y) {
      best.info_y = iy;
      best.info_x = st.info_x();
      best.cluster = st.cluster();
      keep_passes(best, log, converged);
    }
  }
  return best;
}

}  // namespace sideclust
