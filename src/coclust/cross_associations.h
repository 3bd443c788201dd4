// Cross-associations (Chakrabarti, Papadimitriou, Modha & Faloutsos, KDD
// 2004): parameter-free grouping of the rows and columns of a binary matrix
// by minimum description length. The total cost, in bits, of k row groups
// of sizes a_i and l column groups of sizes b_j is
//   log*(k) + log*(l)                                      numbers of groups
//   + sum_{i<k} ceil(log2 abar_i) + sum_{j<l} ceil(log2 bbar_j)  group sizes
//   + sum_{ij} ceil(log2(a_i b_j + 1))                     ones per block
//   + sum_{ij} n_ij H(p_ij)                                data given blocks
//   [+ log2(m! / prod a_i!) + log2(n! / prod b_j!)]        which row in which group
// with a sorted decreasingly and abar_i = sum_{t >= i} a_t - k + i. The
// paper charges the row and column permutations as a constant instead of
// the last (optional, default on) term; without it the assignments are free
// and a thorough search over-splits planted blocks (every extra split of a
// homogeneous group buys a few tens of bits of fitted noise).
// For fixed (k, l) rows and then columns are moved to the group whose block
// densities encode them in fewest bits; a half-step is kept only when it
// lowers the total, so the total never increases. The search starts from
// (1, 1) and alternately tries to add a row group (splitting the group with
// the highest entropy per row: a row moves to the new group when leaving
// lowers that group's entropy per row) and a column group, keeping a split
// only when the total falls, until neither helps. When splitting the
// highest-entropy group does not pay, the next groups by entropy are tried
// (up to split_tries; 1 is the paper's search), and when no single split
// pays, a row split followed by a column split (joint_splits); each split
// chosen by the paper's rule is refined by 2-means on the full rows
// (refine_splits), falling back to the unrefined split when the refined one
// does not pay.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/run_hooks.h"

namespace sideclust {

struct BinaryCsr {
  int n_rows = 0, n_cols = 0;
  std::vector<int> ptr, idx;  // column indices of the ones of each row
};

inline BinaryCsr transpose(const BinaryCsr& b) {
  BinaryCsr t;
  t.n_rows = b.n_cols;
  t.n_cols = b.n_rows;
  t.ptr.assign(t.n_rows + 1, 0);
  for (int c : b.idx) ++t.ptr[c + 1];
  for (int y = 0; y < t.n_rows; ++y) t.ptr[y + 1] += t.ptr[y];
  t.idx.resize(b.idx.size());
  std::vector<int> next(t.ptr.begin(), t.ptr.end() - 1);
  for (int x = 0; x < b.n_rows; ++x) {
    for (int e = b.ptr[x]; e < b.ptr[x + 1]; ++e) t.idx[next[b.idx[e]]++] = x;
  }
  return t;
}

struct CaParams {
  int max_groups = 1000000;  // cap on k and on l
  int max_inner = 50;
  int split_tries = 1;       // groups tried for a split, by decreasing entropy
  bool assignment_cost = true;  // charge log2 multinomial for the groupings
  bool joint_splits = true;     // when no single split pays, try a row and a column split
  bool refine_splits = true;    // 2-means on the full rows after the paper's split rule
};

struct CaResult {
  std::vector<int> rows, cols;
  int k = 1, l = 1;
  double cost = 0.0;
  std::vector<double> trace;  // total cost at the start and after each accepted split
  std::vector<int> k_trace, l_trace;
  int splits_tried = 0;
  int regroups = 0;  // accepted regrouping half-steps
};

namespace ca_detail {

// Universal code length for a positive integer (Rissanen), bits.
inline double log_star(double x) {
  double s = std::log2(2.865064), v = x;
  while (v > 1.0) {
    v = std::log2(v);
    if (v > 0.0) s += v;
  }
  return s;
}

inline double bits_h(double ones, double total) {
  if (total <= 0.0 || ones <= 0.0 || ones >= total) return 0.0;
  const double p = ones / total;
  return -ones * std::log2(p) - (total - ones) * std::log2(1.0 - p);
}

inline double size_cost(std::vector<double> a) {
  std::sort(a.begin(), a.end(), std::greater<double>());
  const double k = static_cast<double>(a.size());
  double tail = 0.0, s = 0.0;
  for (double v : a) tail += v;
  for (std::size_t i = 0; i + 1 < a.size(); ++i) {
    const double abar = tail - k + static_cast<double>(i + 1);
    if (abar > 1.0) s += std::ceil(std::log2(abar));
    tail -= a[i];
  }
  return s;
}

struct Blocks {
  int k, l;
  std::vector<double> ones, a, b;  // ones is k x l row-major
};

inline Blocks blocks(const BinaryCsr& m, const std::vector<int>& rg, int k,
                     const std::vector<int>& cg, int l, RunHooks& hooks) {
  Blocks bl{k, l, std::vector<double>(static_cast<std::size_t>(k) * l, 0.0),
            std::vector<double>(k, 0.0), std::vector<double>(l, 0.0)};
  for (int x = 0; x < m.n_rows; ++x) {
    bl.a[rg[x]] += 1.0;
    for (int e = m.ptr[x]; e < m.ptr[x + 1]; ++e) bl.ones[static_cast<std::size_t>(rg[x]) * l + cg[m.idx[e]]] += 1.0;
    hooks.poll_interrupt(static_cast<std::size_t>(m.ptr[x + 1] - m.ptr[x]) + 1);
  }
  for (int y = 0; y < m.n_cols; ++y) bl.b[cg[y]] += 1.0;
  return bl;
}

// log2 of the multinomial coefficient n! / prod a_i!: which group each row
// is in, given the group sizes.
inline double assignment_bits(const std::vector<double>& a) {
  double n = 0.0, s = 0.0;
  for (double v : a) {
    n += v;
    s -= std::lgamma(v + 1.0);
  }
  return (s + std::lgamma(n + 1.0)) / std::log(2.0);
}

inline double total_cost(const Blocks& bl, bool assignments) {
  double s = log_star(bl.k) + log_star(bl.l) + size_cost(bl.a) + size_cost(bl.b);
  if (assignments) s += assignment_bits(bl.a) + assignment_bits(bl.b);
  for (int i = 0; i < bl.k; ++i) {
    for (int j = 0; j < bl.l; ++j) {
      const double n = bl.a[i] * bl.b[j];
      s += std::ceil(std::log2(n + 1.0)) + bits_h(bl.ones[static_cast<std::size_t>(i) * bl.l + j], n);
    }
  }
  return s;
}

// Renumber groups 0.. in order of first use, dropping empty ones.
inline int compact(std::vector<int>& g, int k) {
  std::vector<int> map(k, -1);
  int next = 0;
  for (int& v : g) {
    if (map[v] < 0) map[v] = next++;
    v = map[v];
  }
  return next;
}

// Move every row of m to the row group that codes it in fewest bits given
// the current block densities (smoothed so no choice is infinitely bad).
// `ones` is k x l with column-group sizes b.
inline void regroup(const BinaryCsr& m, std::vector<int>& rg, int k, const std::vector<int>& cg,
                    int l, const std::vector<double>& ones, const std::vector<double>& a,
                    const std::vector<double>& b, RunHooks& hooks) {
  std::vector<double> l1(static_cast<std::size_t>(k) * l), l0(l1.size()), o(l);
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < l; ++j) {
      const std::size_t at = static_cast<std::size_t>(i) * l + j;
      const double p = (ones[at] + 0.5) / (a[i] * b[j] + 1.0);
      l1[at] = -std::log2(p);
      l0[at] = -std::log2(1.0 - p);
    }
  }
  for (int x = 0; x < m.n_rows; ++x) {
    std::fill(o.begin(), o.end(), 0.0);
    for (int e = m.ptr[x]; e < m.ptr[x + 1]; ++e) o[cg[m.idx[e]]] += 1.0;
    auto bits = [&](int i) {
      double s = 0.0;
      for (int j = 0; j < l; ++j) {
        const std::size_t at = static_cast<std::size_t>(i) * l + j;
        s += o[j] * l1[at] + (b[j] - o[j]) * l0[at];
      }
      return s;
    };
    int best = rg[x];
    double best_s = bits(best) - 1e-9;
    for (int i = 0; i < k; ++i) {
      if (a[i] <= 0.0) continue;
      const double s = bits(i);
      if (s < best_s) {
        best_s = s;
        best = i;
      }
    }
    rg[x] = best;
    hooks.poll_interrupt(static_cast<std::size_t>(m.ptr[x + 1] - m.ptr[x]) +
                         static_cast<std::size_t>(k) * l);
  }
}

inline std::vector<double> transpose_kl(const std::vector<double>& v, int k, int l) {
  std::vector<double> t(v.size());
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < l; ++j) t[static_cast<std::size_t>(j) * k + i] = v[static_cast<std::size_t>(i) * l + j];
  }
  return t;
}

class Search {
 public:
  Search(const BinaryCsr& m, const CaParams& par, RunHooks& hooks)
      : m_(m), mt_(transpose(m)), par_(par), hooks_(hooks), rg_(m.n_rows, 0), cg_(m.n_cols, 0) {
    cost_ = total_cost(blocks(m_, rg_, k_, cg_, l_, hooks_), par_.assignment_cost);
  }

  // Alternating regrouping at fixed (k, l); keeps only improving half-steps.
  void inner() {
    for (int it = 0; it < par_.max_inner; ++it) {
      bool improved = false;
      for (int side = 0; side < 2; ++side) {
        Blocks bl = blocks(m_, rg_, k_, cg_, l_, hooks_);
        std::vector<int> rg = rg_, cg = cg_;
        int k = k_, l = l_;
        if (side == 0) {
          regroup(m_, rg, k, cg, l, bl.ones, bl.a, bl.b, hooks_);
          k = compact(rg, k);
        } else {
          regroup(mt_, cg, l, rg, k, transpose_kl(bl.ones, k, l), bl.b, bl.a, hooks_);
          l = compact(cg, l);
        }
        const double c = total_cost(blocks(m_, rg, k, cg, l, hooks_), par_.assignment_cost);
        if (c < cost_ - 1e-9) {
          rg_.swap(rg);
          cg_.swap(cg);
          k_ = k;
          l_ = l;
          cost_ = c;
          improved = true;
          ++regroups_;
        }
      }
      if (!improved) break;
    }
  }

  // Try one more group on rows (side 0) or columns (side 1), regroup, and
  // keep the split if the total falls.
  // side 2: a row split and then a column split, kept only together.
  bool try_split(int side, CaResult& out) {
    const std::vector<int> rg0 = rg_, cg0 = cg_;
    const int k0 = k_, l0 = l_;
    const double c0 = cost_;
    // Splits: the group with the highest entropy per row first, then (an
    // extension, up to par_.split_tries groups) the next ones.
    const int groups = side == 0 ? k_ : l_;
    const int tries = side == 2 ? 1 : std::max(1, std::min(par_.split_tries, groups));
    // With refine_splits, the paper's own split is tried too when the refined
    // one does not pay: 2-means can settle on a split the regrouping undoes.
    const int variants = par_.refine_splits ? 2 : 1;
    for (int rank = 0; rank < tries; ++rank) {
      for (int v = 0; v < variants; ++v) {
        const bool refine = par_.refine_splits && v == 0;
        ++out.splits_tried;
        // A joint split regroups only after both halves: regrouping after the
        // row split alone can undo it before the column split makes it pay.
        const bool changed = side == 2
                                 ? split_once(0, 0, false, refine) && split_once(1, 0, true, refine)
                                 : split_once(side, rank, true, refine);
        if (changed && cost_ < c0 - 1e-9) {
          record(out);
          return true;
        }
        rg_ = rg0;
        cg_ = cg0;
        k_ = k0;
        l_ = l0;
        cost_ = c0;
      }
    }
    return false;
  }

  // Split one row (side 0) or column (side 1) group and regroup; false when
  // no group can be split.
  bool split_once(int side, int rank, bool regroup_after, bool refine) {
    if ((side == 0 ? k_ : l_) >= std::min(par_.max_groups, side == 0 ? m_.n_rows : m_.n_cols)) {
      return false;
    }
    Blocks bl = blocks(m_, rg_, k_, cg_, l_, hooks_);
    const bool split =
        side == 0 ? split_group(m_, rg_, k_, cg_, l_, bl.ones, bl.a, bl.b, rank, refine, hooks_)
                  : split_group(mt_, cg_, l_, rg_, k_, transpose_kl(bl.ones, k_, l_), bl.b, bl.a, rank,
                                  refine, hooks_);
    if (!split) return false;
    cost_ = total_cost(blocks(m_, rg_, k_, cg_, l_, hooks_), par_.assignment_cost);
    if (regroup_after) inner();
    return true;
  }

  void record(CaResult& out) const {
    out.trace.push_back(cost_);
    out.k_trace.push_back(k_);
    out.l_trace.push_back(l_);
  }

  void finish(CaResult& out) const {
    out.rows = rg_;
    out.cols = cg_;
    out.k = k_;
    out.l = l_;
    out.cost = cost_;
    out.regroups = regroups_;
  }

 private:
  // Split the row group of m with the rank-th highest entropy per row (0:
  // the highest); g and k are the row groups of m, h and l its column
  // groups. False when there is no such group or nothing moved.
  static bool split_group(const BinaryCsr& m, std::vector<int>& g, int& k, const std::vector<int>& h,
                          int l, const std::vector<double>& ones, const std::vector<double>& a,
                          const std::vector<double>& b, int rank, bool refine, RunHooks& hooks) {
    std::vector<std::pair<double, int>> by_entropy;
    for (int i = 0; i < k; ++i) {
      if (a[i] < 2.0) continue;
      double s = 0.0;
      for (int j = 0; j < l; ++j) s += bits_h(ones[static_cast<std::size_t>(i) * l + j], a[i] * b[j]);
      if (s > 0.0) by_entropy.emplace_back(-s / a[i], i);
    }
    if (rank >= static_cast<int>(by_entropy.size())) return false;
    std::sort(by_entropy.begin(), by_entropy.end());
    const int worst = by_entropy[rank].second;
    const double worst_h = -by_entropy[rank].first;
    // Rows of the group as counts of ones per column group.
    std::vector<int> members;
    for (int x = 0; x < m.n_rows; ++x) if (g[x] == worst) members.push_back(x);
    std::vector<double> o(static_cast<std::size_t>(members.size()) * l, 0.0);
    for (std::size_t r = 0; r < members.size(); ++r) {
      const int x = members[r];
      for (int e = m.ptr[x]; e < m.ptr[x + 1]; ++e) o[r * l + h[m.idx[e]]] += 1.0;
    }
    int moved = 0;
    {
      // The paper's rule: a row leaves when that lowers the entropy per row.
      for (std::size_t r = 0; r < members.size(); ++r) {
        double s = 0.0;
        for (int j = 0; j < l; ++j) {
          s += bits_h(ones[static_cast<std::size_t>(worst) * l + j] - o[r * l + j],
                      (a[worst] - 1.0) * b[j]);
        }
        if (s / (a[worst] - 1.0) < worst_h - 1e-12) {
          g[members[r]] = k;
          ++moved;
        }
        hooks.poll_interrupt(static_cast<std::size_t>(l));
      }
    }
    if (refine && members.size() >= 2) moved = refine_split(m, g, worst, k, members, hooks);
    if (moved == 0 || moved == a[worst]) {
      for (int& v : g) if (v == k) v = worst;
      return false;
    }
    ++k;
    return true;
  }

  // Refine a split of `members` between groups `stay` and `fresh` by a few
  // 2-means steps on the full rows: each row goes to the side whose
  // per-column densities (all columns of m, smoothed) give it the higher
  // Bernoulli likelihood; O(n_cols + nnz(members)) per step. Sees structure
  // that the current column groups hide. Returns the size of `fresh`.
  static int refine_split(const BinaryCsr& m, std::vector<int>& g, int stay, int fresh,
                          const std::vector<int>& members, RunHooks& hooks) {
    const int n_cols = m.n_cols;
    std::vector<double> cnt(2 * static_cast<std::size_t>(n_cols)), gain(cnt.size());
    int moved = 0;
    for (int x : members) moved += g[x] == fresh;
    if (moved == 0) {
      // No seed from the paper's rule: start from the rows with more ones.
      std::vector<int> ones(members.size());
      for (std::size_t r = 0; r < members.size(); ++r) ones[r] = m.ptr[members[r] + 1] - m.ptr[members[r]];
      std::vector<int> sorted = ones;
      std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
      const int median = sorted[sorted.size() / 2];
      for (std::size_t r = 0; r < members.size(); ++r) {
        if (ones[r] > median) {
          g[members[r]] = fresh;
          ++moved;
        }
      }
    }
    for (int step = 0; step < 10; ++step) {
      const double size[2] = {static_cast<double>(members.size() - moved), static_cast<double>(moved)};
      if (size[0] == 0.0 || size[1] == 0.0) break;
      std::fill(cnt.begin(), cnt.end(), 0.0);
      for (int x : members) {
        const std::size_t side = g[x] == fresh ? 1 : 0;
        for (int e = m.ptr[x]; e < m.ptr[x + 1]; ++e) cnt[side * n_cols + m.idx[e]] += 1.0;
      }
      double base[2] = {0.0, 0.0};
      for (std::size_t side = 0; side < 2; ++side) {
        for (int y = 0; y < n_cols; ++y) {
          const double p = (cnt[side * n_cols + y] + 0.5) / (size[side] + 1.0);
          base[side] += std::log(1.0 - p);
          gain[side * n_cols + y] = std::log(p) - std::log(1.0 - p);
        }
      }
      int changes = 0, now = 0;
      for (int x : members) {
        double sc[2] = {base[0], base[1]};
        for (int e = m.ptr[x]; e < m.ptr[x + 1]; ++e) {
          sc[0] += gain[m.idx[e]];
          sc[1] += gain[static_cast<std::size_t>(n_cols) + m.idx[e]];
        }
        hooks.poll_interrupt(static_cast<std::size_t>(m.ptr[x + 1] - m.ptr[x]) + 1);
        const int to = sc[1] > sc[0] ? fresh : stay;
        changes += to != g[x];
        g[x] = to;
        now += to == fresh;
      }
      moved = now;
      if (changes == 0) break;
    }
    return moved;
  }

  const BinaryCsr& m_;
  BinaryCsr mt_;
  CaParams par_;
  RunHooks& hooks_;  // polled for interrupts inside every pass over the matrix
  std::vector<int> rg_, cg_;
  int k_ = 1, l_ = 1;
  double cost_ = 0.0;
  int regroups_ = 0;
};

}  // namespace ca_detail

inline CaResult cross_associations_fit(const BinaryCsr& m, const CaParams& par, RunHooks& hooks) {
  CaResult out;
  ca_detail::Search s(m, par, hooks);
  s.record(out);
  for (;;) {
    const bool rows = s.try_split(0, out);
    const bool cols = s.try_split(1, out);
    hooks.check_interrupt();
    // Blocks such as a checkerboard show in neither margin: one more row
    // group does not pay until the columns are split too.
    if (!rows && !cols && !(par.joint_splits && s.try_split(2, out))) break;
  }
  s.finish(out);
  return out;
}

}  // namespace sideclust
