// k-partite clustering by relation summary networks (Long, Wu, Zhang & Yu
// 2006), as TR-09-12's Section 9 states it: n vertex types, relation
// matrices A between pairs of types, clusterings F_1..F_n and cluster-level
// weights B minimizing (61), L = sum_r D(A_r, F_a B_r F_b^T). An iteration
// (steps 2-4) reassigns every vertex, type by type, to the cluster with the
// lowest L given B and the other types' current clusters, then sets every B
// to its block means (63). Both steps never increase L. Plain C++17.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

#include "coclust/kpartite_blocks.h"
#include "common/run_hooks.h"
#include "common/seeding.h"

namespace sideclust {

struct KpartiteParams {
  std::vector<int> k;  // clusters per type
  KpDivergence divergence = KpDivergence::euclidean;
  int max_iter = 100;
  int restarts = 1;
  double tol = 1e-10;
  std::vector<std::vector<int>> start;  // 0-based per type, first run only; empty: random
};

struct KpartiteResult {
  std::vector<std::vector<int>> clusters;   // 0-based, per type
  std::vector<std::vector<double>> summary; // per relation, k_row x k_col row-major
  std::vector<double> relation_objective;   // final term of each relation
  std::vector<double> objective;            // L at the start and after each iteration
  std::vector<double> restart_objective;    // final L of every run
  int iterations = 0;
  bool converged = false;
};

class KpartiteRun {
 public:
  KpartiteRun(const std::vector<KpRelation>& rel, const std::vector<int>& n_vertices,
              const KpartiteParams& par)
      : rel_(rel), m_(n_vertices), k_(par.k), div_(par.divergence) {}

  // Start from clusterings f (0-based). B starts at the block means; a block
  // of an empty cluster starts at the relation's overall mean.
  void reset(std::vector<std::vector<int>> f) {
    f_ = std::move(f);
    size_.assign(m_.size(), {});
    for (std::size_t t = 0; t < m_.size(); ++t) recount(static_cast<int>(t));
    summary_.clear();
    for (const KpRelation& a : rel_) {
      summary_.emplace_back(static_cast<std::size_t>(k_[a.row_type]) * k_[a.col_type], a.mean);
    }
    update_summaries();
  }

  // Steps 3 and 1/4: B from (63), and L from (61).
  void update_summaries() {
    for (std::size_t r = 0; r < rel_.size(); ++r) {
      const KpRelation& a = rel_[r];
      const std::vector<double> sum = kp_block_sums(a, f_[a.row_type], k_[a.row_type],
                                                    f_[a.col_type], k_[a.col_type]);
      kp_update_summary(sum, size_[a.row_type], size_[a.col_type], summary_[r]);
    }
  }
  double objective() {
    relation_objective_.assign(rel_.size(), 0.0);
    double total = 0.0;
    for (std::size_t r = 0; r < rel_.size(); ++r) {
      const KpRelation& a = rel_[r];
      relation_objective_[r] = kp_relation_distance(a, div_, f_[a.row_type], f_[a.col_type],
                                                    size_[a.row_type], size_[a.col_type],
                                                    k_[a.col_type], summary_[r]);
      total += relation_objective_[r];
    }
    return total;
  }

  // Step 2 for type t: each vertex to its best cluster (ties keep the current
  // one, then the lowest number). With B fixed a vertex's cost does not
  // depend on the other vertices of its own type. Returns the number of moves.
  int reassign(int t) {
    const int kt = k_[t], mt = m_[t];
    cost_.assign(static_cast<std::size_t>(mt) * kt, 0.0);
    for (std::size_t r = 0; r < rel_.size(); ++r) {
      if (rel_[r].row_type == t) add_costs(r, t, rel_[r].col_type, true);
      if (rel_[r].col_type == t) add_costs(r, t, rel_[r].row_type, false);
    }
    int moves = 0;
    for (int h = 0; h < mt; ++h) {
      const double* c = &cost_[static_cast<std::size_t>(h) * kt];
      const int cur = f_[t][h];
      int best = cur;
      for (int p = 0; p < kt; ++p) {
        if (c[p] < c[best]) best = p;
      }
      if (best != cur) {
        f_[t][h] = best;
        size_[t][cur] -= 1.0;
        size_[t][best] += 1.0;
        ++moves;
      }
    }
    return moves;
  }

  const std::vector<std::vector<int>>& clusters() const { return f_; }
  const std::vector<std::vector<double>>& summaries() const { return summary_; }
  const std::vector<double>& relation_objective() const { return relation_objective_; }

 private:
  void recount(int t) {
    size_[t].assign(k_[t], 0.0);
    for (int c : f_[t]) size_[t][c] += 1.0;
  }

  // Cost of every vertex of type t in every cluster from relation r, whose
  // other side is type o; `t_rows`: t indexes the relation's rows.
  void add_costs(std::size_t r, int t, int o, bool t_rows) {
    const KpRelation& a = rel_[r];
    const int kt = k_[t], ko = k_[o];
    // S = A F_o (or A^T F_o): each vertex's total weight to each cluster of o.
    weight_.assign(static_cast<std::size_t>(m_[t]) * ko, 0.0);
    const std::vector<int>& fo = f_[o];
    for (int h = 0; h < a.n_rows; ++h) {
      for (int e = a.ptr[h]; e < a.ptr[h + 1]; ++e) {
        if (t_rows) {
          weight_[static_cast<std::size_t>(h) * ko + fo[a.idx[e]]] += a.val[e];
        } else {
          weight_[static_cast<std::size_t>(a.idx[e]) * ko + fo[h]] += a.val[e];
        }
      }
    }
    // g(B) oriented as kt x ko, and the size term per cluster of t.
    std::vector<double> g(static_cast<std::size_t>(kt) * ko), base(kt, 0.0);
    for (int p = 0; p < kt; ++p) {
      for (int q = 0; q < ko; ++q) {
        const double b = t_rows ? summary_[r][static_cast<std::size_t>(p) * ko + q]
                                : summary_[r][static_cast<std::size_t>(q) * kt + p];
        g[static_cast<std::size_t>(p) * ko + q] = kp_weight_coef(div_, b);
        base[p] += size_[o][q] * kp_size_coef(div_, b);
      }
    }
    for (int h = 0; h < m_[t]; ++h) {
      double* c = &cost_[static_cast<std::size_t>(h) * kt];
      const double* s = &weight_[static_cast<std::size_t>(h) * ko];
      for (int p = 0; p < kt; ++p) c[p] += base[p];
      for (int q = 0; q < ko; ++q) {
        if (s[q] == 0.0) continue;
        for (int p = 0; p < kt; ++p) c[p] += s[q] * g[static_cast<std::size_t>(p) * ko + q];
      }
    }
  }

  const std::vector<KpRelation>& rel_;
  std::vector<int> m_, k_;
  KpDivergence div_;
  std::vector<std::vector<int>> f_;
  std::vector<std::vector<double>> size_, summary_;
  std::vector<double> relation_objective_, cost_, weight_;
};

// A random start: every cluster gets one vertex drawn without replacement,
// the other vertices a uniform cluster (needs m >= k).
inline std::vector<int> kp_random_partition(int m, int k, RunHooks& hooks) {
  std::vector<int> order(m);
  for (int i = 0; i < m; ++i) order[i] = i;
  shuffle(order, hooks);
  std::vector<int> f(m);
  for (int i = 0; i < m; ++i) f[order[i]] = i < k ? i : uniform_index(k, hooks);
  return f;
}

inline KpartiteResult kpartite_fit(const std::vector<KpRelation>& rel,
                                   const std::vector<int>& n_vertices,
                                   const KpartiteParams& par, RunHooks& hooks) {
  const int n_types = static_cast<int>(n_vertices.size());
  if (static_cast<int>(par.k.size()) != n_types) throw std::invalid_argument("k per type");
  for (const KpRelation& a : rel) {
    if (a.row_type < 0 || a.row_type >= n_types || a.col_type < 0 || a.col_type >= n_types) {
      throw std::invalid_argument("relation type out of range");
    }
    if (a.n_rows != n_vertices[a.row_type] || a.n_cols != n_vertices[a.col_type]) {
      throw std::invalid_argument("relation shape does not match its types");
    }
  }
  int k_total = 0;
  for (int t = 0; t < n_types; ++t) {
    if (par.k[t] < 1 || par.k[t] > n_vertices[t]) throw std::invalid_argument("k out of range");
    k_total += par.k[t];
  }
  if (!par.start.empty()) {
    if (static_cast<int>(par.start.size()) != n_types) {
      throw std::invalid_argument("one start partition per type");
    }
    for (int t = 0; t < n_types; ++t) {
      if (static_cast<int>(par.start[t].size()) != n_vertices[t]) {
        throw std::invalid_argument("start partition of the wrong length");
      }
      for (int c : par.start[t]) {
        if (c < 0 || c >= par.k[t]) throw std::invalid_argument("start cluster out of range");
      }
    }
  }
  KpartiteResult best;
  double best_obj = std::numeric_limits<double>::infinity();
  KpartiteRun run(rel, n_vertices, par);
  for (int restart = 0; restart < par.restarts; ++restart) {
    std::vector<std::vector<int>> f(n_types);
    for (int t = 0; t < n_types; ++t) {
      f[t] = restart == 0 && !par.start.empty()
                 ? par.start[t]
                 : kp_random_partition(n_vertices[t], par.k[t], hooks);
    }
    run.reset(std::move(f));
    std::vector<double> trace{run.objective()};
    int it = 0;
    bool converged = false;
    while (it < par.max_iter && !converged) {
      hooks.check_interrupt();
      ++it;
      int moves = 0;
      for (int t = 0; t < n_types; ++t) moves += run.reassign(t);
      run.update_summaries();
      trace.push_back(run.objective());
      hooks.on_sweep(it, k_total, trace.back());
      const double previous = trace[trace.size() - 2];
      // Step 4 stops when L no longer changes; no move means B is unchanged.
      converged = moves == 0 || previous - trace.back() <= par.tol * std::fabs(previous);
    }
    best.restart_objective.push_back(trace.back());
    if (restart == 0 || trace.back() < best_obj) {
      best_obj = trace.back();
      best.clusters = run.clusters();
      best.summary = run.summaries();
      best.relation_objective = run.relation_objective();
      best.objective = trace;
      best.iterations = it;
      best.converged = converged;
    }
  }
  return best;
}

}  // namespace sideclust
