// Parallel multivariate information bottleneck (Friedman, Mosenzon, Slonim &
// Tishby 2001), hard sequential optimizer. m clusterings C_1..C_m of the rows
// X (Gin: X -> C_j) that together keep information about the columns Y
// (Gout: C_1..C_m -> Y). The functional maximized is TR-09-12's (23),
//   L_max = I(C_1..C_m; Y) - beta^-1 sum_j I(C_j; X),
// and for hard clusterings I(C_j; X) = H(C_j).
//
// The clusterings jointly put each row in a cell t = (c_1, ..., c_m) of the
// product partition (mixed radix: t = sum_j c_j stride_j). Drawing row x out
// of clustering j (a singleton cluster of its own) and merging it into cluster
// c lowers L_max by TR-09-12's merge cost (25)-(26) with one singleton:
//   d_j(x, c) = JS loss of I(T;Y) when x joins cell t(c) = t_x + (c - c_j(x)) stride_j
//             - beta^-1 [G(p_x + P_jc) - G(p_x) - G(P_jc)],  G(a) = a log a,
// where P_jc is the mass of cluster c of clustering j: for hard clusters the
// expectation over the other clusterings in (26) keeps only x's own cell, and
// JS_Pi[p(x|{x}), p(x|c)] = H(Pi). The I(T;Y) loss is sib's O(nnz(x)) formula
// on the cell joints q(y, t), so a pass costs O(nnz sum_j k_j).
//
// Cells are stored densely (n_cols x prod k_j doubles, twice), which the R
// front door bounds.
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

struct ParallelIbParams {
  std::vector<int> k;      // clusters of each clustering
  double inv_beta = 0.0;   // beta^-1; 0 is the hard limit beta = Inf
  int max_iter = 100;
  int restarts = 1;
  std::vector<int> start;  // 0-based, n x m column-major; first restart when given
  bool greedy = true;      // start the clusterings one at a time (else all random)
};

struct ParallelIbResult {
  std::vector<int> cluster;          // n x m column-major, 0-based
  double objective = 0.0;            // L_max
  double info_y = 0.0;               // I(C_1..C_m; Y)
  std::vector<double> info_x;        // I(C_j; X) = H(C_j)
  std::vector<double> info_y_each;   // I(C_j; Y)
  std::vector<double> trace;         // L_max after each pass of the best run
  std::vector<double> restart_objective;
  std::vector<double> pass_seconds;
  int iterations = 0;        // passes in all, greedy start included
  int init_passes = 0;       // passes of the greedy start
  bool converged = false;    // the last pass over all clusterings moved nothing
  long long moves = 0;
};

// The cells t = (c_1, ..., c_m) of the product of clusterings with k_j
// clusters each are numbered so that c_j = (t / stride[j]) % k[j]. Fills
// the strides and returns the number of cells.
inline int product_strides(const std::vector<int>& k, std::vector<int>& stride) {
  stride.assign(k.size(), 1);
  int cells = 1;
  for (std::size_t j = 0; j < k.size(); ++j) {
    stride[j] = cells;
    cells *= k[j];
  }
  return cells;
}

// q(c_j, y) (k_j x n_cols, row-major) of clustering j with `stride` and k_j
// clusters, summing q(y, t) (n_cols x cells, y-major) over the other
// clusterings.
inline std::vector<double> clustering_joint(const std::vector<double>& q, int n_cols, int cells,
                                            int stride, int k) {
  std::vector<double> qj(static_cast<std::size_t>(k) * n_cols, 0.0);
  for (int y = 0; y < n_cols; ++y) {
    const std::size_t row = static_cast<std::size_t>(y) * cells;
    for (int t = 0; t < cells; ++t) {
      const int c = (t / stride) % k;
      qj[static_cast<std::size_t>(c) * n_cols + y] += q[row + t];
    }
  }
  return qj;
}

class ParallelIbState {
 public:
  ParallelIbState(const JointCsr& p, const std::vector<int>& k, double inv_beta)
      : p_(p), k_(k), m_(static_cast<int>(k.size())), inv_beta_(inv_beta) {
    cells_ = product_strides(k_, stride_);
  }

  // Rebuild all statistics from the clusterings (n x m column-major).
  void reset(const std::vector<int>& cl) {
    cl_ = cl;
    const int n = p_.n_rows;
    cell_.assign(n, 0);
    for (int j = 0; j < m_; ++j) {
      for (int x = 0; x < n; ++x) cell_[x] += cl_[at(x, j)] * stride_[j];
    }
    q_.assign(static_cast<std::size_t>(p_.n_cols) * cells_, 0.0);
    cell_mass_.assign(cells_, 0.0);
    mass_.assign(m_, std::vector<double>());
    for (int j = 0; j < m_; ++j) mass_[j].assign(k_[j], 0.0);
    for (int x = 0; x < n; ++x) {
      cell_mass_[cell_[x]] += p_.px[x];
      for (int j = 0; j < m_; ++j) mass_[j][cl_[at(x, j)]] += p_.px[x];
      for (int e = p_.ptr[x]; e < p_.ptr[x + 1]; ++e) {
        q_[static_cast<std::size_t>(p_.idx[e]) * cells_ + cell_[x]] += p_.val[e];
      }
    }
    qlogq_.resize(q_.size());
    for (std::size_t i = 0; i < q_.size(); ++i) qlogq_[i] = xlogx(q_[i]);
  }

  // Costs d_j(x, c) of row x, already drawn out of clustering j.
  void costs(int x, int j, std::vector<double>& d) const {
    const int k = k_[j];
    const std::size_t stride = stride_[j];
    const std::size_t base = cell_[x] - static_cast<std::size_t>(cl_[at(x, j)]) * stride;
    d.assign(k, 0.0);
    double rlogr = 0.0;
    for (int e = p_.ptr[x]; e < p_.ptr[x + 1]; ++e) {
      const double r = p_.val[e];
      rlogr += xlogx(r);
      const std::size_t row = static_cast<std::size_t>(p_.idx[e]) * cells_ + base;
      for (int c = 0; c < k; ++c) {
        const std::size_t t = row + c * stride;
        const double s = r + q_[t];
        d[c] += qlogq_[t] - s * std::log(s);
      }
    }
    const double px = p_.px[x];
    for (int c = 0; c < k; ++c) {
      const double cm = cell_mass_[base + c * stride];
      d[c] += rlogr + xlogx(px + cm) - xlogx(px) - xlogx(cm);
      if (inv_beta_ > 0.0) {
        const double pm = mass_[j][c];
        d[c] -= inv_beta_ * (xlogx(px + pm) - xlogx(px) - xlogx(pm));
      }
    }
  }

  // Add (sign 1) or remove (sign -1) row x to cluster c of clustering j.
  void move(int x, int j, int c, double sign) {
    const int t = cell_[x] + (c - cl_[at(x, j)]) * stride_[j];
    const double px = p_.px[x];
    cell_mass_[t] = std::max(0.0, cell_mass_[t] + sign * px);
    mass_[j][c] = std::max(0.0, mass_[j][c] + sign * px);
    for (int e = p_.ptr[x]; e < p_.ptr[x + 1]; ++e) {
      const std::size_t i = static_cast<std::size_t>(p_.idx[e]) * cells_ + t;
      const double v = std::max(0.0, q_[i] + sign * p_.val[e]);
      q_[i] = v;
      qlogq_[i] = xlogx(v);
    }
  }

  // One pass: every row in the given order is drawn out of and put back
  // into each clustering j_from <= j < j_to in turn (the others stay fixed).
  // Returns the number of moves.
  long long pass(const std::vector<int>& order, int j_from, int j_to, RunHooks& hooks) {
    std::vector<double> d;
    long long moved = 0;
    for (int x : order) {
      hooks.poll_interrupt(static_cast<std::size_t>(p_.ptr[x + 1] - p_.ptr[x] + 1) * cells_);
      for (int j = j_from; j < j_to; ++j) {
        const int from = cl_[at(x, j)];
        move(x, j, from, -1.0);
        costs(x, j, d);
        const int best = best_cluster(d, k_[j], from, p_.px[x]);
        move(x, j, best, 1.0);
        if (best != from) {
          cell_[x] += (best - from) * stride_[j];
          cl_[at(x, j)] = best;
          ++moved;
        }
      }
    }
    return moved;
  }

  // I(T;Y) of the product partition (summed cell by cell, as sib does, so
  // that one clustering reproduces sib to the last bit).
  double info_y() const {
    double s = 0.0;
    for (int t = 0; t < cells_; ++t) {
      if (!(cell_mass_[t] > 0.0)) continue;
      for (int y = 0; y < p_.n_cols; ++y) {
        const double v = q_[static_cast<std::size_t>(y) * cells_ + t];
        if (v > 0.0) s += v * std::log(v / (cell_mass_[t] * p_.py[y]));
      }
    }
    return s;
  }
  double info_x(int j) const { return entropy(mass_[j]); }
  double objective() const {
    double h = 0.0;
    if (inv_beta_ > 0.0) {
      for (int j = 0; j < m_; ++j) h += info_x(j);
    }
    return info_y() - inv_beta_ * h;
  }
  // I(C_j; Y), summing the cells over the other clusterings.
  double info_y_of(int j) const {
    return cluster_information(clustering_joint(q_, p_.n_cols, cells_, stride_[j], k_[j]),
                               mass_[j], p_.py);
  }
  const std::vector<int>& cluster() const { return cl_; }
  int cells() const { return cells_; }

 private:
  std::size_t at(int x, int j) const {
    return static_cast<std::size_t>(j) * p_.n_rows + x;
  }

  const JointCsr& p_;
  std::vector<int> k_;
  int m_;
  double inv_beta_;
  std::vector<int> stride_;
  int cells_ = 1;
  std::vector<int> cl_, cell_;
  std::vector<double> q_, qlogq_, cell_mass_;  // q_ is n_cols x cells, y-major
  std::vector<std::vector<double>> mass_;      // cluster masses per clustering
};

// Passes over clusterings j_from <= j < j_to, either until a pass moves
// nothing or max_iter passes, appended to `log`.
inline bool run_passes(ParallelIbState& st, std::vector<int>& order, int j_from, int j_to,
                       int max_iter, PassLog& log, RunHooks& hooks) {
  return sequential_passes(
      max_iter, st.cells(), log, hooks, [&]() { shuffle(order, hooks); },
      [&]() {
        const long long moved = st.pass(order, j_from, j_to, hooks);
        st.reset(st.cluster());  // drop accumulated rounding
        return moved;
      },
      [&]() { return st.objective(); });
}

inline ParallelIbResult parallel_ib_fit(const JointCsr& p, const ParallelIbParams& par,
                                        RunHooks& hooks) {
  const int m = static_cast<int>(par.k.size());
  if (m < 1) throw std::invalid_argument("no clusterings");
  for (int kj : par.k) {
    if (kj < 1 || kj > p.n_rows) throw std::invalid_argument("k out of range");
  }
  const std::size_t n = static_cast<std::size_t>(p.n_rows);
  if (!par.start.empty() && par.start.size() != n * m) {
    throw std::invalid_argument("start has the wrong size");
  }
  ParallelIbResult best;
  best.objective = -std::numeric_limits<double>::infinity();
  ParallelIbState st(p, par.k, par.inv_beta);
  auto uniform = [&hooks]() { return hooks.uniform(); };
  std::vector<int> order(p.n_rows);
  for (int run = 0; run < par.restarts; ++run) {
    for (int i = 0; i < p.n_rows; ++i) order[i] = i;
    PassLog log;
    bool converged = false;
    int init_passes = 0;
    if ((run == 0 && !par.start.empty()) || !par.greedy || m == 1) {
      std::vector<int> cl;
      if (run == 0 && !par.start.empty()) {
        cl = par.start;
      } else {
        cl.reserve(n * m);
        for (int j = 0; j < m; ++j) {
          const std::vector<int> cj = random_partition(p.n_rows, par.k[j], uniform);
          cl.insert(cl.end(), cj.begin(), cj.end());
        }
      }
      st.reset(cl);
      converged = run_passes(st, order, 0, m, par.max_iter, log, hooks);
    } else {
      // Greedy start: clustering s from a random partition, moved alone with
      // the earlier ones fixed and the later ones still single clusters.
      std::vector<int> cl(n * m, 0);
      for (int s = 0; s < m; ++s) {
        const std::vector<int> cs = random_partition(p.n_rows, par.k[s], uniform);
        std::copy(cs.begin(), cs.end(), cl.begin() + s * n);
        st.reset(cl);
        run_passes(st, order, s, s + 1, par.max_iter, log, hooks);
        cl = st.cluster();
      }
      init_passes = log.passes;
      converged = run_passes(st, order, 0, m, par.max_iter, log, hooks);
    }
    const double obj = log.trace.empty() ? st.objective() : log.trace.back();
    best.restart_objective.push_back(obj);
    if (obj > best.objective) {
      best.objective = obj;
      best.info_y = st.info_y();
      best.info_x.assign(m, 0.0);
      best.info_y_each.assign(m, 0.0);
      for (int j = 0; j < m; ++j) {
        best.info_x[j] = st.info_x(j);
        best.info_y_each[j] = st.info_y_of(j);
      }
      best.cluster = st.cluster();
      keep_passes(best, log, converged);
      best.init_passes = init_passes;
    }
  }
  return best;
}

}  // namespace sideclust
