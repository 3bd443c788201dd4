// Split mode of CEC / CEC-IB (in the spirit of the split mode of the CEC
// package of Tabor & Spurek): after a run from k clusters, every cluster is
// tried split in two by a local two-cluster CEC run on its own points; the
// splits that lower the cost are made, the Hartigan passes run on the whole
// data, and rounds repeat until no split pays or max_k clusters exist.
//
// The cost is a sum over clusters, and a cluster of m of the n points with
// local cost C (cost (10) of its points alone, as if they were all the data)
// contributes (m / n) (C - log(m / n)) to the total; so a split lowers the
// total by (m / n) (C_one - C_two), decided on the cluster's points alone,
// and splits of different clusters do not interact. A local run removes a
// part below the global size rule (eps * n or p + 2 points), so the parts
// of an accepted split survive the first refit of the whole data.
// Plain C++17 + Eigen.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "cec/cec.h"
#include "common/run_hooks.h"
#include "common/side_graph.h"

namespace sideclust {

// Forwards random numbers and interrupts to the host but keeps the local
// runs' passes out of its progress report.
class QuietHooks : public RunHooks {
 public:
  explicit QuietHooks(RunHooks& host) : host_(host) {}
  double uniform() override { return host_.uniform(); }
  void check_interrupt() override { host_.check_interrupt(); }

 private:
  RunHooks& host_;
};

class CecSplitter {
 public:
  enum Event { start_event = 0, split_event = 1, passes_event = 2 };

  CecSplitter(const Eigen::Ref<const Eigen::MatrixXd>& x, const PartialLabels& labels,
              const CecParams& par)
      : x_(x), labels_(labels), par_(par), n_(static_cast<int>(x.cols())),
        p_(static_cast<int>(x.rows())) {
    fams_ = par_.families;
    if (fams_.empty()) {
      CecFamily f;
      f.type = par_.type;
      fams_.assign(std::max(1, par_.k), f);
    }
    min_size_ = cec_min_size(par_.eps, n_, p_, par_.small_sample);
  }

  // The run from `start` (0-based, clusters 0..k-1 with families 0..k-1),
  // then rounds of splits. The result's origin gives the family (initial
  // cluster) each final cluster descends from.
  CecResult run(const std::vector<int>& start, RunHooks& hooks) {
    std::vector<int> root(fams_.size());
    for (std::size_t a = 0; a < root.size(); ++a) root[a] = static_cast<int>(a);
    CecResult res = whole(start, root, hooks);
    record(res, res.k, res.cost, start_event);
    std::unordered_set<std::uint64_t> unsplittable;  // clusters (by members) tried in vain
    std::unordered_map<std::uint64_t, Split> splits;  // the best split found of a cluster
    while (par_.max_k <= 0 || res.k < par_.max_k) {
      // try every cluster not known to be unsplittable
      std::vector<std::vector<int>> members(res.k);
      for (int i = 0; i < n_; ++i) members[res.cluster[i]].push_back(i);
      std::vector<Split> found;
      for (int a = 0; a < res.k; ++a) {
        const std::uint64_t key = members_key(members[a]);
        if (unsplittable.count(key)) continue;
        auto known = splits.find(key);
        if (known != splits.end()) {
          found.push_back(known->second);
          found.back().a = a;
          continue;
        }
        Split s{0.0, a, {}};
        const double penalty =
            par_.split_penalty.empty() ? 0.0 : par_.split_penalty[res.origin[a]];
        if (try_split(members[a], fams_[res.origin[a]], penalty, hooks, s.part, s.gain)) {
          splits.emplace(key, s);
          found.push_back(std::move(s));
        } else {
          unsplittable.insert(key);
        }
      }
      if (found.empty()) break;
      std::stable_sort(found.begin(), found.end(),
                       [](const Split& u, const Split& v) { return u.gain > v.gain; });
      // All the splits (largest gain first); should the passes that follow
      // end above the cost right after the splits (a cluster that became too
      // small was removed), only the best one; should that fail too, its
      // cluster counts as unsplittable and the round starts over.
      std::size_t take = found.size();
      for (;;) {
        if (round(res, members, found, take, hooks)) break;
        if (take > 1) {
          take = 1;
          continue;
        }
        unsplittable.insert(members_key(members[found[0].a]));
        break;
      }
    }
    return res;
  }

 private:
  struct Split {
    double gain;  // fall of the total cost
    int a;        // the cluster split
    std::vector<int> part;  // 0 / 1 per member of a
  };

  // Makes the first `take` splits as new clusters k, k + 1, ... (up to
  // max_k), runs the passes on the whole data and keeps the result if its
  // cost is no higher than right after the splits; else leaves res as it was.
  bool round(CecResult& res, const std::vector<std::vector<int>>& members,
             const std::vector<Split>& found, std::size_t take, RunHooks& hooks) {
    std::vector<int> assign = res.cluster;
    std::vector<int> slot_root(res.origin);
    int k = res.k;
    double cost = res.cost;
    const std::size_t rows = res.history_k.size();
    for (std::size_t t = 0; t < take; ++t) {
      if (par_.max_k > 0 && k >= par_.max_k) break;
      const Split& s = found[t];
      const std::vector<int>& m = members[s.a];
      for (std::size_t j = 0; j < m.size(); ++j) if (s.part[j] == 1) assign[m[j]] = k;
      slot_root.push_back(slot_root[s.a]);
      ++k;
      cost -= s.gain;
      record(res, k, cost, split_event);
    }
    CecResult next;
    bool ok = true;
    try {
      next = whole(assign, slot_root, hooks);
    } catch (const std::runtime_error&) {  // a cluster became singular
      ok = false;
    }
    if (!ok || next.cost > cost + 1e-12 * std::max(1.0, std::abs(cost))) {
      truncate(res, rows);
      return false;
    }
    append(next, res);
    record(next, next.k, next.cost, passes_event);
    res = std::move(next);
    return true;
  }

  // The Hartigan passes on the whole data from `assign` (clusters 0..k-1,
  // cluster a of family fams_[root[a]]); the result's origin is mapped to
  // the roots.
  CecResult whole(const std::vector<int>& assign, const std::vector<int>& root, RunHooks& hooks) {
    CecParams g = par_;
    g.k = static_cast<int>(root.size());
    g.families.clear();
    for (int r : root) g.families.push_back(fams_[r]);
    g.start.clear();
    CecRun runner(x_, labels_, g);
    CecResult res = runner.run(assign, hooks);
    for (int& o : res.origin) o = root[o];
    return res;
  }

  // A local two-cluster CEC of the cluster with the given members (sorted
  // point indices) and family; on success part holds 0 / 1 per member and
  // gain the fall of the total cost.
  bool try_split(const std::vector<int>& members, const CecFamily& fam, double penalty,
                 RunHooks& hooks, std::vector<int>& part, double& gain) {
    const int m = static_cast<int>(members.size());
    if (m < 2.0 * min_size_) return false;
    Eigen::MatrixXd xs(p_, m);
    for (int j = 0; j < m; ++j) xs.col(j) = x_.col(members[j]);
    PartialLabels loc;
    loc.n_levels = labels_.n_levels;
    if (!labels_.label.empty()) {
      loc.label.resize(m);
      for (int j = 0; j < m; ++j) loc.label[j] = labels_.label[members[j]];
    }
    CecParams lp = par_;
    lp.split = false;
    lp.restarts = 1;
    lp.start.clear();
    lp.eps = par_.eps * n_ / m;  // the same absolute minimum size
    lp.families.assign(1, fam);
    lp.k = 1;
    QuietHooks quiet(hooks);
    CecRun one(xs, loc, lp);
    const double c_one = one.run(std::vector<int>(m, 0), quiet).cost;
    lp.k = 2;
    lp.families.assign(2, fam);
    CecRun two(xs, loc, lp);
    // the local costs are per point of the cluster: a fall of the total cost
    // by more than `penalty` is a local fall by more than penalty n / m
    double best = c_one - std::max(1e-10 * std::max(1.0, std::abs(c_one)),
                                   penalty * n_ / static_cast<double>(m));
    bool ok = false;
    std::vector<std::vector<int>> starts;
    if (!loc.label.empty()) {
      std::vector<int> s = label_start(xs, loc);
      if (!s.empty()) starts.push_back(std::move(s));
    }
    const int tries = std::max(1, par_.split_tries);
    for (int t = 0; t < tries + static_cast<int>(starts.size()); ++t) {
      const std::vector<int> s = t < static_cast<int>(starts.size()) ? starts[t]
                                                                    : draw_start(xs, lp, quiet);
      CecResult r;
      try {
        r = two.run(s, quiet);
      } catch (const std::runtime_error&) {  // both parts singular: no split from this start
        continue;
      }
      if (r.k == 2 && r.cost < best) {
        best = r.cost;
        part = r.cluster;
        ok = true;
      }
    }
    if (ok) gain = static_cast<double>(m) / n_ * (c_one - best);
    return ok;
  }

  // The start that separates the two most frequent labels of a cluster:
  // their points on either side, every other point with the nearer of the
  // two labels' means; empty when the cluster holds fewer than two labels.
  static std::vector<int> label_start(const Eigen::MatrixXd& xs, const PartialLabels& loc) {
    std::vector<int> count(loc.n_levels, 0);
    for (int l : loc.label) if (l >= 0) ++count[l];
    int l1 = -1, l2 = -1;
    for (int l = 0; l < loc.n_levels; ++l) {
      if (count[l] == 0) continue;
      if (l1 < 0 || count[l] > count[l1]) {
        l2 = l1;
        l1 = l;
      } else if (l2 < 0 || count[l] > count[l2]) {
        l2 = l;
      }
    }
    if (l2 < 0) return {};
    const int p = static_cast<int>(xs.rows()), m = static_cast<int>(xs.cols());
    Eigen::VectorXd c1 = Eigen::VectorXd::Zero(p), c2 = Eigen::VectorXd::Zero(p);
    for (int j = 0; j < m; ++j) {
      if (loc.label[j] == l1) c1 += xs.col(j);
      if (loc.label[j] == l2) c2 += xs.col(j);
    }
    c1 /= count[l1];
    c2 /= count[l2];
    std::vector<int> s(m);
    for (int j = 0; j < m; ++j) {
      if (loc.label[j] == l1) s[j] = 0;
      else if (loc.label[j] == l2) s[j] = 1;
      else s[j] = (xs.col(j) - c1).squaredNorm() <= (xs.col(j) - c2).squaredNorm() ? 0 : 1;
    }
    return s;
  }

  // An order-free fingerprint of a set of points (sum of mixed indices).
  static std::uint64_t members_key(const std::vector<int>& members) {
    std::uint64_t key = members.size();
    for (int i : members) key += SplitMix64(static_cast<std::uint64_t>(i) + 1).next();
    return key;
  }

  static void record(CecResult& res, int k, double cost, Event e) {
    res.history_k.push_back(k);
    res.history_cost.push_back(cost);
    res.history_event.push_back(e);
  }
  static void truncate(CecResult& res, std::size_t rows) {
    res.history_k.resize(rows);
    res.history_cost.resize(rows);
    res.history_event.resize(rows);
  }
  // Carries the history and the passes of the earlier runs into `next`.
  static void append(CecResult& next, const CecResult& prev) {
    next.history_k = prev.history_k;
    next.history_cost = prev.history_cost;
    next.history_event = prev.history_event;
    std::vector<double> obj = prev.objective;
    obj.insert(obj.end(), next.objective.begin(), next.objective.end());
    next.objective = std::move(obj);
    std::vector<int> kt = prev.k_trace;
    kt.insert(kt.end(), next.k_trace.begin(), next.k_trace.end());
    next.k_trace = std::move(kt);
    next.iterations += prev.iterations;
  }

  Eigen::Ref<const Eigen::MatrixXd> x_;
  const PartialLabels& labels_;
  const CecParams& par_;
  int n_, p_;
  double min_size_;
  std::vector<CecFamily> fams_;  // one per initial cluster
};

// Best of par.restarts runs (one from par.start when it is given); in split
// mode each run is followed by its rounds of splits.
inline CecResult cec_search(const Eigen::Ref<const Eigen::MatrixXd>& x, const PartialLabels& labels,
                         const CecParams& par, RunHooks& hooks) {
  if (!par.split) return cec_fit(x, labels, par, hooks);
  CecSplitter splitter(x, labels, par);
  CecResult best;
  bool have = false;
  const int runs = par.start.empty() ? std::max(1, par.restarts) : 1;
  for (int r = 0; r < runs; ++r) {
    const std::vector<int> start = par.start.empty() ? draw_start(x, par, hooks) : par.start;
    CecResult res = splitter.run(start, hooks);
    if (!have || res.cost + cec_split_penalty(par, res.origin) <
                     best.cost + cec_split_penalty(par, best.origin)) {
      best = std::move(res);
      have = true;
    }
  }
  return best;
}

}  // namespace sideclust
