// COP-k-means (Wagstaff, Cardie, Rogers & Schroedl (2001)): k-means whose
// must-links and cannot-links are hard. Points joined by must-links (the
// components of union-find) move together; a component may only enter a
// cluster that holds none of the components it is cannot-linked to.
// Confidences are ignored. The pairs are read in their given order (a
// PairGraph with or without its adjacency). Points are the columns of a
// p x n matrix, prototypes the columns of a p x k matrix. Plain C++17 +
// Eigen; randomness and interrupts come from RunHooks.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "engine/avx_lanes.h"
#include "engine/force_inline.h"
#include "engine/prefetch.h"
#include "common/prototype_params.h"
#include "common/run_hooks.h"
#include "common/seeding.h"
#include "common/side_graph.h"
#include "common/union_find.h"
#include "pairwise/pair_sweeps.h"
#include "engine/sq_distance.h"
#include "engine/sq_distance_quad.h"
#include "engine/visit_order.h"

namespace sideclust {

struct CopKmeansParams : PrototypeParams {
  SeedInit init = SeedInit::kmeanspp;  // SeedInit::start: from `start`
  bool random_order = true;      // visit the components in a fresh random order every sweep
  bool nearest = false;          // no feasible cluster: break the fewest cannot-links (else fail)
  bool use_avx = true;           // four distances per instruction where the processor has AVX (same values)
};

// ok: a fit. linked_conflict: a cannot-link joins two points of one
// must-link component (no run made; only when not in "nearest" mode). no_feasible: every run met a component
// with no feasible cluster.
enum class CopStatus { ok, linked_conflict, no_feasible };

struct CopKmeansResult {
  CopStatus status = CopStatus::ok;
  std::vector<int> cluster;      // 0 .. k - 1, consecutive
  Eigen::MatrixXd centres;       // p x k
  int k = 0;
  std::vector<double> objective;  // within-cluster sum of squares after every iteration
  double within = 0.0;
  std::vector<int> broken;       // cannot-links (pair indices, given order) inside one cluster
  int iterations = 0;
  bool converged = false;
  int failed_runs = 0;           // runs that met a component with no feasible cluster
  // linked_conflict: the cannot-link and a chain of must-linked points from
  // its first point to its second.
  int conflict = -1;
  std::vector<int> path;
  // no_feasible (first failed run): the component's points and the
  // cannot-links (pair indices) that block every cluster.
  std::vector<int> blocked_points, blocking;
};

namespace cop_detail {

// Must-link components with their sums, sizes and means, and the
// cannot-links between components as compressed adjacency lists.
struct Components {
  int count = 0;
  std::vector<int> id;                     // component of every point
  std::vector<int> member_start, members;  // points of component g: members[member_start[g] ..)
  // Where the sum of component g is: a single point's sum (and mean) is
  // its coordinates, read from x (src[g] = the point), so that only the
  // components of two or more points (src[g] = -1 - t) keep theirs, column
  // t of multi_sum (p x their count), their means made from it when needed.
  // With few must-links nearly every component is a single point, and
  // tables over all components held two more copies of the data.
  std::vector<int> src;
  Eigen::MatrixXd multi_sum;
  std::vector<double> size;
  std::vector<int> cl_start, cl_other, cl_pair;  // cannot-links of g: other component, pair index
  int conflict = -1;                       // a cannot-link inside one component, or -1

  // The mean of component g, p contiguous doubles: the point's coordinates,
  // or its sum divided by its size into buf (p doubles); x the data the
  // components were made from.
  template <class X>
  const double* mean(const X& x, int g, double* buf) const {
    if (src[g] >= 0) return x.col(src[g]).data();
    const double* s = multi_sum.col(-1 - src[g]).data();
    for (Eigen::Index d = 0; d < x.rows(); ++d) buf[d] = s[d] / size[g];
    return buf;
  }
  // The sum of component g, p contiguous doubles.
  template <class X>
  const double* sum(const X& x, int g) const {
    return src[g] >= 0 ? x.col(src[g]).data() : multi_sum.col(-1 - src[g]).data();
  }
};

// A chain of must-linked points from a to b (breadth-first search over the
// must-links only), a and b included; empty if none. Builds the adjacency
// when g holds the pair list alone.
inline std::vector<int> must_link_path(const PairGraph& pairs, int a, int b) {
  PairGraph with_adjacency;
  if (!pairs.has_adjacency()) {
    with_adjacency = pairs;
    build_adjacency(with_adjacency);
  }
  const PairGraph& g = pairs.has_adjacency() ? pairs : with_adjacency;
  std::vector<int> parent(g.n, -2), queue{a};
  parent[a] = -1;
  for (std::size_t q = 0; q < queue.size() && parent[b] == -2; ++q) {
    const int v = queue[q];
    for (int e = g.start[v]; e < g.start[v + 1]; ++e) {
      if (std::signbit(g.weight[e]) || parent[g.nbr[e]] != -2) continue;
      parent[g.nbr[e]] = v;
      queue.push_back(g.nbr[e]);
    }
  }
  std::vector<int> path;
  if (parent[b] == -2) return path;
  for (int v = b; v >= 0; v = parent[v]) path.push_back(v);
  std::reverse(path.begin(), path.end());
  return path;
}

inline Components components(const Eigen::Ref<const Eigen::MatrixXd>& x, const PairGraph& g) {
  const int n = static_cast<int>(x.cols());
  Components c;
  // The must-links alone first, so that the entries of the union-find
  // (at random places) can be asked for some pairs ahead.
  std::vector<int> must_a, must_b;
  for (std::size_t l = 0; l < g.n_pairs(); ++l) {
    if (!g.must(l)) continue;
    must_a.push_back(g.first[l]);
    must_b.push_back(g.second[l]);
  }
  UnionFind sets(static_cast<std::size_t>(n));
  constexpr std::size_t kUniteAhead = 16;
  for (std::size_t l = 0; l < must_a.size(); ++l) {
    if (l + kUniteAhead < must_a.size()) {
      sets.prefetch_entry(must_a[l + kUniteAhead]);
      sets.prefetch_entry(must_b[l + kUniteAhead]);
    }
    sets.unite(must_a[l], must_b[l]);
  }
  // Numbered by first appearance, so that the "data" order visits the
  // components by their first point; a root's number is kept in id[root]
  // until the root's own turn (its number again).
  c.id.assign(n, -1);
  for (int i = 0; i < n; ++i) {
    const std::size_t r = sets.find(i);
    if (c.id[r] < 0) c.id[r] = c.count++;
    c.id[i] = c.id[r];
  }
  c.member_start.assign(c.count + 1, 0);
  for (int i = 0; i < n; ++i) ++c.member_start[c.id[i] + 1];
  for (int h = 0; h < c.count; ++h) c.member_start[h + 1] += c.member_start[h];
  c.members.resize(n);
  std::vector<int> fill(c.member_start.begin(), c.member_start.end() - 1);
  for (int i = 0; i < n; ++i) c.members[fill[c.id[i]]++] = i;
  c.size.assign(c.count, 0.0);
  c.src.resize(c.count);
  int multi = 0;
  for (int h = 0; h < c.count; ++h) {
    c.size[h] = c.member_start[h + 1] - c.member_start[h];
    c.src[h] = c.size[h] > 1 ? -1 - multi++ : c.members[c.member_start[h]];
  }
  // sums over the members in the order of the points, as 0 + x_i + ... (a
  // single point's sum, 0 + x_i, and mean, x_i / 1, are x_i itself); the
  // members' coordinates, at random places, are asked for ahead
  c.multi_sum = Eigen::MatrixXd::Zero(x.rows(), multi);
  const Eigen::Index p = x.rows();
  constexpr int kSumAhead = 16;
  for (int h = 0; h < c.count; ++h) {
    if (c.src[h] >= 0) continue;
    double* sum = c.multi_sum.col(-1 - c.src[h]).data();
    for (int t = c.member_start[h]; t < c.member_start[h + 1]; ++t) {
      if (t + kSumAhead < n) {
        const double* ahead = x.col(c.members[t + kSumAhead]).data();
        prefetch(ahead);
        prefetch(ahead + (p - 1));
      }
      const double* xi = x.col(c.members[t]).data();
      for (Eigen::Index d = 0; d < p; ++d) sum[d] += xi[d];
    }
  }

  // The cannot-links as compressed adjacency lists of the components: the
  // components at both ends of every cannot-link first (-1: none), then a
  // counting pass and a scatter pass over those. Each pass reads or writes
  // at random places and asks for them kAhead pairs ahead; reading id twice
  // (in the counting and the scatter pass) took a tenth of the set-up at
  // n = 1e6.
  const std::size_t m = g.n_pairs();
  constexpr std::size_t kAhead = 16;
  std::vector<int> ends(2 * m);
  for (std::size_t l = 0; l < m; ++l) {
    if (l + kAhead < m) {
      prefetch(&c.id[g.first[l + kAhead]]);
      prefetch(&c.id[g.second[l + kAhead]]);
    }
    int a = -1, b = -1;
    if (!g.must(l)) {
      a = c.id[g.first[l]];
      b = c.id[g.second[l]];
      if (a == b) {
        if (c.conflict < 0) c.conflict = static_cast<int>(l);
        a = b = -1;
      }
    }
    ends[2 * l] = a;
    ends[2 * l + 1] = b;
  }
  c.cl_start.assign(c.count + 1, 0);
  for (std::size_t l = 0; l < m; ++l) {
    if (l + kAhead < m && ends[2 * (l + kAhead)] >= 0) {
      prefetch(&c.cl_start[ends[2 * (l + kAhead)] + 1]);
      prefetch(&c.cl_start[ends[2 * (l + kAhead) + 1] + 1]);
    }
    const int a = ends[2 * l], b = ends[2 * l + 1];
    if (a < 0) continue;
    ++c.cl_start[a + 1];
    ++c.cl_start[b + 1];
  }
  for (int h = 0; h < c.count; ++h) c.cl_start[h + 1] += c.cl_start[h];
  c.cl_other.resize(c.cl_start[c.count]);
  c.cl_pair.resize(c.cl_start[c.count]);
  fill.assign(c.cl_start.begin(), c.cl_start.end() - 1);
  for (std::size_t l = 0; l < m; ++l) {
    if (l + kAhead < m && ends[2 * (l + kAhead)] >= 0) {
      prefetch(&fill[ends[2 * (l + kAhead)]]);
      prefetch(&fill[ends[2 * (l + kAhead) + 1]]);
    }
    const int a = ends[2 * l], b = ends[2 * l + 1];
    if (a < 0) continue;
    c.cl_other[fill[a]] = b;
    c.cl_pair[fill[a]++] = static_cast<int>(l);
    c.cl_other[fill[b]] = a;
    c.cl_pair[fill[b]++] = static_cast<int>(l);
  }
  return c;
}

}  // namespace cop_detail

// One run from given prototypes over precomputed components.
class CopKmeansRun {
 public:
  CopKmeansRun(const Eigen::Ref<const Eigen::MatrixXd>& x, const PairGraph& pairs,
               const cop_detail::Components& comp, const CopKmeansParams& par)
      : x_(x), pairs_(pairs), comp_(comp), par_(par) {}

  CopKmeansResult run(Eigen::MatrixXd m, RunHooks& hooks) const {
    const int k = static_cast<int>(m.cols());
    CopKmeansResult res;
    std::vector<int> z(comp_.count, -1);
    // storage order, or a fresh random order each sweep in blocks of
    // consecutive components at scale (VisitOrder)
    VisitOrder visit(comp_.count, par_.random_order ? VisitKind::random : VisitKind::fixed, hooks);
    for (int iter = 1; iter <= par_.max_iter; ++iter) {
      visit.next_sweep(hooks);
      const int changed = assign(m, visit.order(), z, hooks, res);
      if (changed < 0) {
        res.status = CopStatus::no_feasible;
        return res;
      }
      update_centres(z, m);
      const double within = within_ss(z, m);
      res.objective.push_back(within);
      res.iterations = iter;
      hooks.check_interrupt();
      hooks.on_sweep(iter, k, within);
      // The first step assigns every component; later a step that moves
      // none leaves the means, and so the next step, unchanged.
      if (iter > 1 && changed == 0) {
        res.converged = true;
        break;
      }
    }
    finish(z, m, res);
    return res;
  }

 private:
  // One assignment step over the components in `order`. Unassigned
  // components (first step) take the nearest feasible cluster given the ones
  // assigned before them; assigned ones move to the nearest feasible cluster
  // only if it is strictly nearer (iterated conditional modes). In "nearest"
  // mode the comparison is lexicographic: broken cannot-links, then
  // distance. Returns the number of components that changed cluster, or -1
  // when one has no feasible cluster (then res holds why).
  int assign(const Eigen::MatrixXd& m, const std::vector<int>& order, std::vector<int>& z,
             RunHooks& hooks, CopKmeansResult& res) const {
    const int k = static_cast<int>(m.cols()), p = static_cast<int>(m.rows());
    // the centres two by two (and four by four), for two (four) distances
    // per instruction; the same values as one at a time
    std::vector<double> pairs(static_cast<std::size_t>(p) * k);
    interleave_pairs(m.data(), p, k, pairs.data());
#if defined(SIDECLUST_AVX)
    if (k >= 4 && par_.use_avx && cpu_has_avx()) {
      std::vector<double> quads(static_cast<std::size_t>(p) * k);
      interleave_columns<4>(m.data(), p, k, quads.data());
      return assign_avx(m, pairs.data(), quads.data(), order, z, hooks, res);
    }
#endif
    return assign_body<false>(m, pairs.data(), nullptr, order, z, hooks, res);
  }

#if defined(SIDECLUST_AVX)
  __attribute__((target("avx"))) int assign_avx(const Eigen::MatrixXd& m, const double* pairs,
                                                const double* quads, const std::vector<int>& order,
                                                std::vector<int>& z, RunHooks& hooks,
                                                CopKmeansResult& res) const {
    return assign_body<true>(m, pairs, quads, order, z, hooks, res);
  }
#endif

  // assign()'s sweep; Quads: four distances per AVX instruction (AVX callers
  // only). `count` (cannot-linked components per cluster) is all zeros
  // between components: a component without cannot-links (most of them)
  // never touches it.
  template <bool Quads>
  SIDECLUST_FORCE_INLINE int assign_body(const Eigen::MatrixXd& m, const double* pairs,
                                         const double* quads, const std::vector<int>& order,
                                         std::vector<int>& z, RunHooks& hooks,
                                         CopKmeansResult& res) const {
    const int k = static_cast<int>(m.cols()), p = static_cast<int>(x_.rows());
    std::vector<double> dist(k), buf(p);
    std::vector<int> count(k, 0);
    int changed = 0;
    const std::size_t n = order.size();
    for (std::size_t t = 0; t < n; ++t) {
      if (t + kAhead < n) {  // the component this many visits ahead and its cannot-linked ones
        const int f = order[t + kAhead];
        const double* mf = comp_.sum(x_, f);
        prefetch(mf);
        prefetch(mf + (p - 1));
        for (int e = comp_.cl_start[f]; e < comp_.cl_start[f + 1]; ++e) prefetch(&z[comp_.cl_other[e]]);
      }
      const int g = order[t];
      const int first = comp_.cl_start[g], last = comp_.cl_start[g + 1];
      hooks.poll_interrupt(static_cast<std::size_t>(k) * p + (last - first));
      // sum over the members of ||x_i - m_j||^2 = size * ||mean - m_j||^2 + const
      const double* mean = comp_.mean(x_, g, buf.data());
#if defined(SIDECLUST_AVX)
      if constexpr (Quads) {
        sq_distances_quads(mean, m.data(), quads, pairs, p, k, dist.data());
      } else {
        sq_distances_pairs(mean, m.data(), pairs, p, k, dist.data());
      }
#else
      sq_distances_pairs(mean, m.data(), pairs, p, k, dist.data());
#endif
      const double size = comp_.size[g];
      for (int j = 0; j < k; ++j) dist[j] *= size;
      int best = -1;
      if (first == last) {  // no cannot-links: the nearest centre
        best = 0;
        for (int j = 1; j < k; ++j) {
          if (dist[j] < dist[best]) best = j;
        }
      } else {
        for (int e = first; e < last; ++e) {
          const int other = z[comp_.cl_other[e]];
          if (other >= 0) ++count[other];
        }
        auto better = [&](int a, int b) {  // a strictly better than b
          if (count[a] != count[b]) return count[a] < count[b];
          return dist[a] < dist[b];
        };
        for (int j = 0; j < k; ++j) {
          if (!par_.nearest && count[j] > 0) continue;
          if (best < 0 || better(j, best)) best = j;
        }
        if (best < 0) {
          blocked(g, z, res);
          return -1;
        }
        const bool move = z[g] < 0 || better(best, z[g]);
        for (int e = first; e < last; ++e) {
          const int other = z[comp_.cl_other[e]];
          if (other >= 0) count[other] = 0;
        }
        if (move) {
          z[g] = best;
          ++changed;
        }
        continue;
      }
      if (z[g] < 0 || dist[best] < dist[z[g]]) {
        z[g] = best;
        ++changed;
      }
    }
    return changed;
  }

  void blocked(int g, const std::vector<int>& z, CopKmeansResult& res) const {
    res.blocked_points.assign(comp_.members.begin() + comp_.member_start[g],
                              comp_.members.begin() + comp_.member_start[g + 1]);
    res.blocking.clear();
    for (int e = comp_.cl_start[g]; e < comp_.cl_start[g + 1]; ++e) {
      if (z[comp_.cl_other[e]] >= 0) res.blocking.push_back(comp_.cl_pair[e]);
    }
  }

  // Cluster means from the component sums; a cluster left empty keeps its
  // centre.
  void update_centres(const std::vector<int>& z, Eigen::MatrixXd& m) const {
    const int k = static_cast<int>(m.cols());
    Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(m.rows(), k);
    std::vector<double> size(k, 0.0);
    for (int g = 0; g < comp_.count; ++g) {
      sum.col(z[g]) += Eigen::Map<const Eigen::VectorXd>(comp_.sum(x_, g), m.rows());
      size[z[g]] += comp_.size[g];
    }
    for (int j = 0; j < k; ++j) {
      if (size[j] > 0) m.col(j) = sum.col(j) / size[j];
    }
  }

  double within_ss(const std::vector<int>& z, const Eigen::MatrixXd& m) const {
    double s = 0.0;
    const int p = static_cast<int>(x_.rows());
    for (Eigen::Index i = 0; i < x_.cols(); ++i) s += sq_distance(x_.col(i).data(), m.col(z[comp_.id[i]]).data(), p);
    return s;
  }

  // Point clusters with empty clusters dropped (the others numbered
  // consecutively, in order), the final within-cluster sum of squares and the
  // broken cannot-links.
  void finish(const std::vector<int>& z, const Eigen::MatrixXd& m, CopKmeansResult& res) const {
    const int k = static_cast<int>(m.cols());
    std::vector<int> map(k, -1);
    for (int g = 0; g < comp_.count; ++g) map[z[g]] = 0;
    int kept = 0;
    for (int j = 0; j < k; ++j) {
      if (map[j] == 0) map[j] = kept++;
    }
    res.centres.resize(m.rows(), kept);
    for (int j = 0; j < k; ++j) {
      if (map[j] >= 0) res.centres.col(map[j]) = m.col(j);
    }
    const int n = static_cast<int>(x_.cols());
    res.cluster.resize(n);
    for (int i = 0; i < n; ++i) res.cluster[i] = map[z[comp_.id[i]]];
    res.k = kept;
    // With no cluster dropped, the last iteration's within_ss() is this sum
    // (the same centres, clusters and order of terms): no pass over x.
    if (kept == k && !res.objective.empty()) {
      res.within = res.objective.back();
    } else {
      res.within = 0.0;
      const int p = static_cast<int>(x_.rows());
      for (int i = 0; i < n; ++i) res.within += sq_distance(x_.col(i).data(), res.centres.col(res.cluster[i]).data(), p);
      if (!res.objective.empty()) res.objective.back() = res.within;
    }
    res.broken.clear();
    // Without "nearest" every step kept every cannot-link (a component only
    // ever joins a cluster free of its cannot-linked ones), and a
    // cannot-link inside a component stopped the fit before any run: no
    // pass over the pairs at random places.
    if (!par_.nearest) return;
    for (std::size_t l = 0; l < pairs_.n_pairs(); ++l) {
      if (!pairs_.must(l) && res.cluster[pairs_.first[l]] == res.cluster[pairs_.second[l]]) {
        res.broken.push_back(static_cast<int>(l));
      }
    }
  }

  const Eigen::Ref<const Eigen::MatrixXd> x_;
  const PairGraph& pairs_;
  const cop_detail::Components& comp_;
  const CopKmeansParams& par_;
  static constexpr std::size_t kAhead = 16;
};

// The best (fewest broken cannot-links, then lowest within-cluster sum of
// squares) of the runs that found a feasible assignment, of par.restarts
// runs or one run from par.start; a result with status linked_conflict or
// no_feasible when there is none.
inline CopKmeansResult cop_kmeans_fit(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                      const PairGraph& pairs, const CopKmeansParams& par,
                                      RunHooks& hooks) {
  if (par.k < 1 || par.k > x.cols()) throw std::invalid_argument("k out of range");
  if (!pairs.empty() && pairs.n != x.cols()) throw std::invalid_argument("pairs are over another number of points");
  const cop_detail::Components comp = cop_detail::components(x, pairs);
  // In "nearest" mode a cannot-link inside a component is broken whatever
  // the assignment; finish() reports it with the others.
  if (comp.conflict >= 0 && !par.nearest) {
    CopKmeansResult res;
    res.status = CopStatus::linked_conflict;
    res.conflict = comp.conflict;
    res.path = cop_detail::must_link_path(pairs, pairs.first[comp.conflict], pairs.second[comp.conflict]);
    return res;
  }
  const CopKmeansRun runner(x, pairs, comp, par);
  const int runs = par.init == SeedInit::start ? 1 : std::max(1, par.restarts);
  CopKmeansResult best, first_failure;
  bool found = false;
  int failed = 0;
  for (int r = 0; r < runs; ++r) {
    Eigen::MatrixXd m =
        par.init == SeedInit::start ? par.start : draw_prototypes(x, par.k, par.init, hooks);
    if (m.rows() != x.rows() || m.cols() != par.k) throw std::invalid_argument("start has the wrong size");
    CopKmeansResult res = runner.run(std::move(m), hooks);
    if (res.status != CopStatus::ok) {
      if (failed++ == 0) first_failure = std::move(res);
      continue;
    }
    const bool better = !found || res.broken.size() < best.broken.size() ||
                        (res.broken.size() == best.broken.size() && res.within < best.within);
    if (better) best = std::move(res);
    found = true;
  }
  CopKmeansResult& out = found ? best : first_failure;
  out.failed_runs = failed;
  return std::move(out);
}

}  // namespace sideclust
