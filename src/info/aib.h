// Agglomerative information bottleneck (Slonim & Tishby 1999), beta =
// infinity: start from singletons and repeatedly merge the pair of clusters
// whose merge loses least I(C;Y),
//   dL(a, b) = (P_a + P_b) JS_pi(p(y|a), p(y|b))
//            = sum_{y in both supports} [q_a log q_a + q_b log q_b
//                                        - (q_a + q_b) log(q_a + q_b)]
//              + (P_a + P_b) log(P_a + P_b) - P_a log P_a - P_b log P_b,
// (only columns where both clusters are non-zero contribute). The costs live
// in a packed triangle (O(n^2) memory) with a best-partner cache per cluster;
// after a merge only the merged cluster's row is recomputed, and only the
// clusters whose best partner was one of the merged pair are rescanned.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common/info_sparse.h"
#include "common/run_hooks.h"

namespace sideclust {

struct AibResult {
  std::vector<int> merge1, merge2;  // hclust convention: -i singleton, +s step s
  std::vector<double> loss;         // loss of I(C;Y) of each merge
  std::vector<double> info_y;       // I(C;Y) after each merge
  std::vector<double> info_x;       // I(C;X) = H(C) after each merge
  std::vector<int> order;           // leaf order for a dendrogram (1-based)
  double info_xy = 0.0;             // I(X;Y)
};

namespace aib_detail {

struct SparseVec {
  std::vector<int> idx;
  std::vector<double> val;
};

inline SparseVec add(const SparseVec& a, const SparseVec& b) {
  SparseVec s;
  s.idx.reserve(a.idx.size() + b.idx.size());
  s.val.reserve(a.idx.size() + b.idx.size());
  std::size_t i = 0, j = 0;
  while (i < a.idx.size() || j < b.idx.size()) {
    if (j == b.idx.size() || (i < a.idx.size() && a.idx[i] < b.idx[j])) {
      s.idx.push_back(a.idx[i]);
      s.val.push_back(a.val[i++]);
    } else if (i == a.idx.size() || b.idx[j] < a.idx[i]) {
      s.idx.push_back(b.idx[j]);
      s.val.push_back(b.val[j++]);
    } else {
      s.idx.push_back(a.idx[i]);
      s.val.push_back(a.val[i++] + b.val[j++]);
    }
  }
  return s;
}

}  // namespace aib_detail

class AibState {
 public:
  explicit AibState(const JointCsr& p) : n_(p.n_rows), m_(p.n_cols) {
    vec_.resize(n_);
    mass_ = p.px;
    for (int x = 0; x < n_; ++x) {
      for (int e = p.ptr[x]; e < p.ptr[x + 1]; ++e) {
        vec_[x].idx.push_back(p.idx[e]);
        vec_[x].val.push_back(p.val[e]);
      }
    }
    active_.assign(n_, 1);
    dense_.assign(m_, 0.0);
    cost_.assign(static_cast<std::size_t>(n_) * (n_ - 1) / 2, 0.0);
    best_.assign(n_, -1);
    best_d_.assign(n_, std::numeric_limits<double>::infinity());
  }

  double cost(int a, int b) const { return cost_[tri(a, b)]; }

  void init(RunHooks& hooks) {
    for (int a = 0; a < n_; ++a) {
      row_costs(a, a + 1);
      if (a % 64 == 0) hooks.check_interrupt();
    }
    for (int a = 0; a < n_; ++a) rescan(a);
  }

  AibResult run(const JointCsr& p, RunHooks& hooks) {
    AibResult res;
    res.info_xy = mutual_information(p);
    init(hooks);
    std::vector<int> id(n_);
    for (int a = 0; a < n_; ++a) id[a] = -(a + 1);
    std::vector<int> left(n_ - 1), right(n_ - 1);
    double info = res.info_xy, hx = entropy(mass_);
    for (int step = 0; step < n_ - 1; ++step) {
      int a = -1;
      for (int c = 0; c < n_; ++c) {
        if (active_[c] && best_[c] >= 0 && (a < 0 || best_d_[c] < best_d_[a])) a = c;
      }
      int b = best_[a];
      const int i = std::min(a, b), j = std::max(a, b);
      const double loss = std::max(0.0, cost(i, j));
      int m1 = id[i], m2 = id[j];
      if ((m1 > 0 && m2 < 0) || (m1 < 0 && m2 < 0 && m1 < m2) ||
          (m1 > 0 && m2 > 0 && m1 > m2)) {
        std::swap(m1, m2);
      }
      res.merge1.push_back(m1);
      res.merge2.push_back(m2);
      left[step] = id[i];
      right[step] = id[j];
      res.loss.push_back(loss);
      info -= loss;
      res.info_y.push_back(info);
      hx += xlogx(mass_[i]) + xlogx(mass_[j]) - xlogx(mass_[i] + mass_[j]);
      res.info_x.push_back(std::max(0.0, hx));
      // Merge j into i.
      vec_[i] = aib_detail::add(vec_[i], vec_[j]);
      vec_[j] = aib_detail::SparseVec();
      mass_[i] += mass_[j];
      active_[j] = 0;
      best_[j] = -1;
      id[i] = step + 1;
      row_costs(i, 0);
      rescan(i);
      for (int c = 0; c < n_; ++c) {
        if (!active_[c] || c == i) continue;
        if (best_[c] == i || best_[c] == j) {
          rescan(c);
        } else if (cost(c, i) < best_d_[c] || (cost(c, i) == best_d_[c] && i < best_[c])) {
          best_[c] = i;
          best_d_[c] = cost(c, i);
        }
      }
      if (step % 64 == 0) hooks.check_interrupt();
    }
    res.order = leaf_order(left, right);
    return res;
  }

 private:
  std::size_t tri(int a, int b) const {
    if (a > b) std::swap(a, b);
    // Row a of the strict upper triangle starts after sum_{r < a} (n - 1 - r).
    return static_cast<std::size_t>(a) * (2 * static_cast<std::size_t>(n_) - a - 1) / 2 +
           static_cast<std::size_t>(b - a - 1);
  }

  // Costs of cluster a against every active b >= from (b != a).
  void row_costs(int a, int from) {
    const auto& va = vec_[a];
    for (std::size_t t = 0; t < va.idx.size(); ++t) dense_[va.idx[t]] = va.val[t];
    const double pa = mass_[a];
    for (int b = from; b < n_; ++b) {
      if (b == a || !active_[b]) continue;
      const auto& vb = vec_[b];
      double s = 0.0;
      for (std::size_t t = 0; t < vb.idx.size(); ++t) {
        const double qa = dense_[vb.idx[t]];
        if (qa > 0.0) {
          const double qb = vb.val[t];
          s += xlogx(qa) + xlogx(qb) - xlogx(qa + qb);
        }
      }
      const double pb = mass_[b];
      cost_[tri(a, b)] = s + xlogx(pa + pb) - xlogx(pa) - xlogx(pb);
    }
    for (int y : va.idx) dense_[y] = 0.0;
  }

  void rescan(int a) {
    best_[a] = -1;
    best_d_[a] = std::numeric_limits<double>::infinity();
    for (int b = 0; b < n_; ++b) {
      if (b == a || !active_[b]) continue;
      const double d = cost(a, b);
      if (d < best_d_[a]) {
        best_d_[a] = d;
        best_[a] = b;
      }
    }
  }

  // Leaves in dendrogram order: depth-first from the last merge.
  std::vector<int> leaf_order(const std::vector<int>& left, const std::vector<int>& right) const {
    std::vector<int> order;
    if (n_ == 1) return {1};
    std::vector<int> stack{static_cast<int>(left.size())};
    while (!stack.empty()) {
      const int node = stack.back();
      stack.pop_back();
      if (node < 0) {
        order.push_back(-node);
      } else {
        stack.push_back(right[node - 1]);
        stack.push_back(left[node - 1]);
      }
    }
    return order;
  }

  int n_, m_;
  std::vector<aib_detail::SparseVec> vec_;
  std::vector<double> mass_, dense_, cost_, best_d_;
  std::vector<int> best_;
  std::vector<char> active_;
};

inline AibResult aib_fit(const JointCsr& p, RunHooks& hooks) {
  if (p.n_rows < 2) throw std::invalid_argument("aib needs at least 2 rows");
  AibState st(p);
  return st.run(p, hooks);
}

}  // namespace sideclust
