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
#include <stdexcept>
#include <vector>

#include "common/prototype_params.h"
#include "common/run_hooks.h"
#include "common/seeding.h"
#include "common/side_graph.h"
#include "engine/avx_dispatch.h"
#include "engine/interleaved_centres.h"
#include "engine/lookahead.h"
#include "engine/sq_distance.h"
#include "engine/visit_order.h"
#include "pairwise/cop_components.h"
#include "pairwise/cop_result.h"

namespace sideclust {

struct CopKmeansParams : PrototypeParams {
  SeedInit init = SeedInit::kmeanspp;  // SeedInit::start: from `start`
  bool random_order = true;      // visit the components in a fresh random order every sweep
  bool nearest = false;          // no feasible cluster: break the fewest cannot-links (else fail)
  bool use_avx = true;           // four distances per instruction where the processor has AVX (same values)
};

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
    cop_detail::finish_result(x_, pairs_, comp_, par_.nearest, z, m, res);
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
    // the centres laid out for two (AVX: four) distances per instruction,
    // the same values as one at a time (engine/avx_dispatch.h)
    const bool quads = k >= 4 && avx_chosen(par_.use_avx);
    InterleavedCentres centres;
    centres.set(m.data(), p, k, quads);
    return run_with_kernels(quads, [&](auto kernels) { return assign_sweep(kernels, centres.view(), order, z, hooks, res); });
  }

  // assign()'s sweep. `count` (cannot-linked components per cluster) is all
  // zeros between components: a component without cannot-links (most of
  // them) never touches it.
  template <class Kernels>
  int assign_sweep(Kernels kernels, const InterleavedCentres::View centres, const std::vector<int>& order,
                   std::vector<int>& z, RunHooks& hooks, CopKmeansResult& res) const {
    const int k = par_.k, p = static_cast<int>(x_.rows());
    std::vector<double> dist(k), buf(p);
    std::vector<int> count(k, 0);
    int changed = 0;
    bool failed = false;
    // the component ahead and the clusters of its cannot-linked ones
    auto reads = [&](int f, const Upcoming& r) {
      r.ends(comp_.sum(x_, f), p);
      for (int e = comp_.cl_start[f]; e < comp_.cl_start[f + 1]; ++e) r.line(&z[comp_.cl_other[e]]);
    };
    for_each_id_ahead(order, order.size(), [&](int g) {
      if (failed) return;
      const int first = comp_.cl_start[g], last = comp_.cl_start[g + 1];
      hooks.poll_interrupt(static_cast<std::size_t>(k) * p + (last - first));
      // sum over the members of ||x_i - m_j||^2 = size * ||mean - m_j||^2 + const
      centres.sq_distances(kernels, comp_.mean(x_, g, buf.data()), dist.data());
      const double size = comp_.size[g];
      for (int j = 0; j < k; ++j) dist[j] *= size;
      int best = -1;
      if (first == last) {  // no cannot-links: the nearest centre
        best = 0;
        for (int j = 1; j < k; ++j) {
          if (dist[j] < dist[best]) best = j;
        }
        if (z[g] < 0 || dist[best] < dist[z[g]]) {
          z[g] = best;
          ++changed;
        }
        return;
      }
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
        failed = true;
        return;
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
    }, ahead<16>(reads));
    return failed ? -1 : changed;
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

  const Eigen::Ref<const Eigen::MatrixXd> x_;
  const PairGraph& pairs_;
  const cop_detail::Components& comp_;
  const CopKmeansParams& par_;
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
  // its passes' look-ahead stages and bodies inlined (run_inlined())
  const cop_detail::Components comp = run_inlined([&] { return cop_detail::components(x, pairs); });
  // In "nearest" mode a cannot-link inside a component is broken whatever
  // the assignment; finish_result() reports it with the others.
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
