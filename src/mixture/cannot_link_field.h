// The chunklet model of one sampled constraint set (sampled_chunklets.h):
// units (chunklets) joined only by certain cannot-links, its structure built
// once per fit and its posterior computed per E-step in product form. A
// unit's weights W_u(k) are the product of its points' exp(a_i(k) - max a_i)
// (a label's prior mass times its density), so the posterior needs no
// exponential or logarithm per unit: on trees, messages through a certain
// cannot-link are 1 - h(k) for the sender's normalized belief h; small
// components with cycles are enumerated (only the labelings that keep every
// cannot-link); the rest is mean field, q_u(k) propto W_u(k) prod_v
// (1 - q_v(k)) over the unit's cannot-linked neighbours v (Lange et al.),
// which is equation (9) of Nelson & Cohen with the factor (1 - q_v(k)) of a
// certain cannot-link. Plain C++17 + Eigen, no R API.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include "mixture/mrf_estep.h"

namespace sideclust {

// One sample's chunklet graph over the constrained points (local indices).
struct CannotLinkGraph {
  int n_units = 0;
  std::vector<int> unit_of;     // point -> unit, numbered by first point
  std::vector<int> start, nbr;  // CSR of the cannot-links between units (merged)
  std::vector<int> tree_order;  // units of the tree components, each breadth-first
  std::vector<int> tree_parent; // beside tree_order: the parent unit, -1 for a root
  std::vector<int> enum_units, enum_start;  // small components with cycles
  std::vector<int> mf_units;    // the rest (mean field), in unit order
  int n_mf_components = 0;
  std::size_t bytes() const {
    return sizeof(int) * (unit_of.size() + start.size() + nbr.size() + tree_order.size() +
                          tree_parent.size() + enum_units.size() + enum_start.size() +
                          mf_units.size());
  }
};

// The graph of `n_units` units with cannot-link edges (u, v), u != v, and
// its components classified: trees, components of at most max_labelings
// labelings (enumerated), the rest.
inline void classify_cannot_links(CannotLinkGraph& g, std::vector<std::pair<int, int>>& edges,
                                  int K, double max_labelings) {
  for (auto& e : edges) {
    if (e.first > e.second) std::swap(e.first, e.second);
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  const int U = g.n_units;
  g.start.assign(static_cast<std::size_t>(U) + 1, 0);
  for (const auto& e : edges) {
    ++g.start[e.first + 1];
    ++g.start[e.second + 1];
  }
  for (int u = 0; u < U; ++u) g.start[u + 1] += g.start[u];
  g.nbr.resize(2 * edges.size());
  std::vector<int> fill(g.start.begin(), g.start.end() - 1);
  for (const auto& e : edges) {
    g.nbr[fill[e.first]++] = e.second;
    g.nbr[fill[e.second]++] = e.first;
  }
  std::vector<int> seen(static_cast<std::size_t>(U), 0), comp, par;
  for (int r = 0; r < U; ++r) {
    if (seen[r] || g.start[r + 1] == g.start[r]) continue;  // done, or a unit alone
    comp.assign(1, r);
    par.assign(1, -1);
    seen[r] = 1;
    std::size_t degree_sum = 0;
    for (std::size_t t = 0; t < comp.size(); ++t) {
      const int u = comp[t];
      degree_sum += static_cast<std::size_t>(g.start[u + 1] - g.start[u]);
      for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
        if (!seen[g.nbr[e]]) {
          seen[g.nbr[e]] = 1;
          comp.push_back(g.nbr[e]);
          par.push_back(u);
        }
      }
    }
    if (degree_sum / 2 + 1 == comp.size()) {
      g.tree_order.insert(g.tree_order.end(), comp.begin(), comp.end());
      g.tree_parent.insert(g.tree_parent.end(), par.begin(), par.end());
    } else if (std::pow(static_cast<double>(K), static_cast<double>(comp.size())) <=
               max_labelings) {
      g.enum_start.push_back(static_cast<int>(g.enum_units.size()));
      g.enum_units.insert(g.enum_units.end(), comp.begin(), comp.end());
    } else {
      g.mf_units.insert(g.mf_units.end(), comp.begin(), comp.end());
      ++g.n_mf_components;
    }
  }
  g.enum_start.push_back(static_cast<int>(g.enum_units.size()));
  std::sort(g.mf_units.begin(), g.mf_units.end());
}

// Scratch of the product-form mean field: per unit its debt and whether it
// is in a work list, and the lists of this and the next sweep.
struct MeanFieldScratch {
  std::vector<double> debt;
  std::vector<char> queued;
  std::vector<int> cur, nxt;
  void reserve(int units) {
    if (static_cast<int>(debt.size()) < units) {
      debt.resize(static_cast<std::size_t>(units));
      queued.assign(static_cast<std::size_t>(units), 0);
    }
  }
};

// Workspaces of the per-E-step computation, shared by the samples.
struct CannotLinkWork {
  Eigen::MatrixXd w, q;      // K x units: weights, posteriors
  Eigen::MatrixXd up, down;  // K x tree units (by position in tree_order): messages
  std::vector<int> pos;      // unit -> its position in tree_order
  MeanFieldScratch mf;
  std::vector<int> extra;    // units of components whose exact pass failed
  void reserve(Eigen::Index K, int units, int tree_units) {
    if (w.cols() < units) {
      w.resize(K, units);
      q.resize(K, units);
      pos.resize(static_cast<std::size_t>(units));
    }
    if (up.cols() < tree_units) {
      up.resize(K, tree_units);
      down.resize(K, tree_units);
    }
    mf.reserve(units);
  }
};

// Normalizes K entries to sum 1; false when they vanish.
inline bool normalize_to_one(double* v, Eigen::Index K) {
  const double s = sum_of(v, K);
  if (!(s > 0.0) || !std::isfinite(s)) return false;
  const double inv = 1.0 / s;
  for (Eigen::Index k = 0; k < K; ++k) v[k] *= inv;
  return true;
}

// Sum-product on the trees, belief by belief; a tree whose messages vanish
// (no labeling keeps its cannot-links) goes to work.extra (mean field).
inline void cannot_link_trees(const CannotLinkGraph& g, CannotLinkWork& work) {
  const Eigen::Index K = work.w.rows();
  const double* wd = work.w.data();
  double* qd = work.q.data();
  double* ud = work.up.data();
  double* dd = work.down.data();
  auto col = [K](auto* d, int u) { return d + static_cast<std::ptrdiff_t>(u) * K; };
  std::vector<double> h(static_cast<std::size_t>(K));
  const int n_tree = static_cast<int>(g.tree_order.size());
  std::vector<int>& pos = work.pos;
  for (int t = 0; t < n_tree; ++t) pos[g.tree_order[t]] = t;
  int root_at = 0;
  while (root_at < n_tree) {
    int end = root_at + 1;
    while (end < n_tree && g.tree_parent[end] >= 0) ++end;
    bool ok = true;
    // inward beliefs in q: own weights times the children's messages (up)
    for (int t = root_at; t < end; ++t) {
      const int u = g.tree_order[t];
      std::copy(col(wd, u), col(wd, u) + K, col(qd, u));
    }
    for (int t = end - 1; t > root_at && ok; --t) {
      const int u = g.tree_order[t];
      double* qu = col(qd, u);
      double* mu = col(ud, t);
      ok = normalize_to_one(qu, K);
      double* qp = col(qd, g.tree_parent[t]);
      for (Eigen::Index k = 0; k < K; ++k) {
        mu[k] = 1.0 - qu[k];
        qp[k] *= mu[k];
      }
    }
    // outward (down): a child's message from its parent excludes the child's
    // own, divided out of the parent's belief, or, when that message has
    // entries near 0, multiplied from the parent's other inputs
    for (int t = root_at; t < end && ok; ++t) {
      const int u = g.tree_order[t], parent = g.tree_parent[t];
      double* qu = col(qd, u);
      const double* du = col(dd, t);
      if (parent >= 0) {
        for (Eigen::Index k = 0; k < K; ++k) qu[k] *= du[k];
      }
      ok = normalize_to_one(qu, K);  // the marginal of u
      for (int e = g.start[u]; e < g.start[u + 1] && ok; ++e) {
        const int c = g.nbr[e];
        if (c == parent) continue;
        const double* mc = col(ud, pos[c]);
        bool small = false;
        for (Eigen::Index k = 0; k < K; ++k) small = small || mc[k] < 1e-100;
        if (!small) {
          for (Eigen::Index k = 0; k < K; ++k) h[k] = qu[k] / mc[k];
        } else {
          const double* wu = col(wd, u);
          for (Eigen::Index k = 0; k < K; ++k) h[k] = parent >= 0 ? wu[k] * du[k] : wu[k];
          for (int f = g.start[u]; f < g.start[u + 1]; ++f) {
            const int d = g.nbr[f];
            if (d == parent || d == c) continue;
            const double* md = col(ud, pos[d]);
            for (Eigen::Index k = 0; k < K; ++k) h[k] *= md[k];
          }
        }
        ok = normalize_to_one(h.data(), K);
        double* dc = col(dd, pos[c]);
        for (Eigen::Index k = 0; k < K; ++k) dc[k] = 1.0 - h[k];
      }
    }
    if (!ok) {
      for (int t = root_at; t < end; ++t) work.extra.push_back(g.tree_order[t]);
    }
    root_at = end;
  }
}

// Small components with cycles: every labeling that keeps the cannot-links,
// by depth-first search (labels used by an assigned neighbour are skipped),
// weighted by the product of the units' weights. A component without such
// a labeling goes to work.extra.
inline void cannot_link_enumerate(const CannotLinkGraph& g, CannotLinkWork& work) {
  const Eigen::Index K = work.w.rows();
  const int n_comp = static_cast<int>(g.enum_start.size()) - 1;
  std::vector<int> pos(static_cast<std::size_t>(g.n_units), -1), y;
  std::vector<double> partial;
  for (int c = 0; c < n_comp; ++c) {
    const int* units = g.enum_units.data() + g.enum_start[c];
    const int s = g.enum_start[c + 1] - g.enum_start[c];
    for (int a = 0; a < s; ++a) pos[units[a]] = a;
    Eigen::MatrixXd acc = Eigen::MatrixXd::Zero(K, s);
    y.assign(static_cast<std::size_t>(s), -1);
    partial.assign(static_cast<std::size_t>(s) + 1, 1.0);
    int a = 0;
    while (a >= 0) {
      if (++y[a] >= K) {  // labels of unit a exhausted: back up
        y[a] = -1;
        --a;
        continue;
      }
      const int u = units[a];
      const double wk = work.w(y[a], u);
      if (wk == 0.0) continue;
      bool clash = false;
      for (int e = g.start[u]; e < g.start[u + 1] && !clash; ++e) {
        const int b = pos[g.nbr[e]];
        clash = b < a && y[b] == y[a];
      }
      if (clash) continue;
      partial[a + 1] = partial[a] * wk;
      if (a + 1 < s) {
        ++a;
      } else {
        for (int b = 0; b < s; ++b) acc(y[b], b) += partial[s];
      }
    }
    const double total = acc.col(0).sum();
    for (int b = 0; b < s; ++b) {
      pos[units[b]] = -1;
      if (total > 0.0 && std::isfinite(total)) {
        work.q.col(units[b]) = acc.col(b) / total;
      } else {
        work.extra.push_back(units[b]);
      }
    }
  }
}

// Mean field in product form over `units` (whole components), q holding the
// start. Residual schedule as in mean_field() (mrf_estep.h), kept as work
// lists: the first sweep updates every unit, each later sweep only the
// units whose neighbours may have moved their field log q by more than tol
// since their own last update, so a sweep costs its updates
// and a few units still settling do not cost passes over all of them. The
// bound used for a change of q_v from a to b is max_k |a - b| / min(1 - a,
// 1 - b) >= |log(1 - a) - log(1 - b)|. A unit whose product vanishes (every
// label held for certain by a neighbour) is updated in log form with
// log(1 - q) floored at log(1e-300), as mean_field() does. Any graph with
// CSR `start` and `nbr` whose edges are all certain cannot-links (a
// sample's, or the chunklet model's UnitGraph). Returns the number of sweeps.
template <class Graph>
int cannot_link_mean_field(const Graph& g, const std::vector<int>& units,
                           const Eigen::MatrixXd& weights, Eigen::MatrixXd& q,
                           MeanFieldScratch& scratch, int max_sweeps, double tol,
                           RunHooks* hooks) {
  if (units.empty()) return 0;
  const Eigen::Index K = weights.rows();
  const double* wd = weights.data();
  double* qd = q.data();
  auto col = [K](auto* d, int u) { return d + static_cast<std::ptrdiff_t>(u) * K; };
  std::vector<double>& debt = scratch.debt;
  std::vector<char>& queued = scratch.queued;
  std::vector<int>& cur = scratch.cur;
  std::vector<int>& nxt = scratch.nxt;
  cur = units;
  for (int u : units) {
    debt[u] = std::numeric_limits<double>::infinity();
    queued[u] = 1;
  }
  std::vector<double> s(static_cast<std::size_t>(K));
  int sweep = 0;
  while (!cur.empty() && sweep < max_sweeps) {
    if (hooks) hooks->check_interrupt();
    ++sweep;
    nxt.clear();
    const std::size_t n_cur = cur.size();
    auto update = [&](int u) {
      queued[u] = 0;
      if (!(debt[u] > tol)) return;
      debt[u] = 0.0;
      const double* wu = col(wd, u);
      for (Eigen::Index k = 0; k < K; ++k) s[k] = wu[k];
      for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
        const double* qv = col(qd, g.nbr[e]);
        for (Eigen::Index k = 0; k < K; ++k) s[k] *= 1.0 - qv[k];
      }
      double total = sum_of(s.data(), K);
      if (!(total > 1e-250)) {  // in log form
        for (Eigen::Index k = 0; k < K; ++k) {
          s[k] = wu[k] > 0.0 ? std::log(wu[k]) : -std::numeric_limits<double>::infinity();
        }
        for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
          const double* qv = col(qd, g.nbr[e]);
          for (Eigen::Index k = 0; k < K; ++k) s[k] += std::log(std::max(1.0 - qv[k], 1e-300));
        }
        double m = s[0];
        for (Eigen::Index k = 1; k < K; ++k) m = std::max(m, s[k]);
        if (!std::isfinite(m)) {
          for (Eigen::Index k = 0; k < K; ++k) s[k] = 1.0;
        } else {
          for (Eigen::Index k = 0; k < K; ++k) s[k] = flushed_exp(s[k] - m);
        }
        total = sum_of(s.data(), K);
      }
      const double moved = store_and_largest_move(col(qd, u), s.data(), 1.0 / total, K);
      if (moved == 0.0) return;
      for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
        const int v = g.nbr[e];
        debt[v] += moved;
        if (debt[v] > tol && !queued[v]) {
          queued[v] = 1;
          nxt.push_back(v);
        }
      }
    };
    // the updates wait on memory (the units' and their neighbours' columns
    // and debts, scattered): named eight units ahead, a unit's list entries,
    // four ahead its columns and its neighbours' columns and debts (which its
    // update adds to)
    auto list_reads = [&](int w, const Upcoming& r) {
      r.line(&g.start[w]);
      r.line(&debt[w]);
      r.line(&queued[w]);
    };
    auto column_reads = [&](int w, const Upcoming& r) {
      r.ends(col(wd, w), K);
      r.ends(col(qd, w), K);
      for (int e = g.start[w]; e < g.start[w + 1]; ++e) {
        const int v = g.nbr[e];
        r.ends(col(qd, v), K);
        r.line(&debt[v]);
        r.line(&queued[v]);
      }
    };
    for_each_id_ahead(cur, n_cur, update, ahead<8>(list_reads), ahead<4>(column_reads));
    // units queued for this sweep's remainder were updated in it; the rest
    // wait for the next sweep, in the order they were queued (sorting them
    // back into unit order cost more than it saved)
    std::size_t kept = 0;
    for (int v : nxt) {
      if (debt[v] > tol) nxt[kept++] = v;
      else queued[v] = 0;
    }
    nxt.resize(kept);
    cur.swap(nxt);
  }
  for (int u : cur) queued[u] = 0;
  return sweep;
}

}  // namespace sideclust
