// COP-k-means' result (pairwise/cop_kmeans.h): its status and fields, and
// the step that ends a run: empty clusters dropped, point clusters from the
// components' ones, the final within-cluster sum of squares and the broken
// cannot-links.
#pragma once

#include <Eigen/Dense>

#include <vector>

#include "common/side_graph.h"
#include "engine/sq_distance.h"
#include "pairwise/kept_clusters.h"
#include "pairwise/cop_components.h"

namespace sideclust {

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

// Point clusters with empty clusters dropped (the others numbered
// consecutively, in order), the final within-cluster sum of squares and the
// broken cannot-links (z: the components' clusters, m the centres).
inline void finish_result(const Eigen::Ref<const Eigen::MatrixXd>& x, const PairGraph& pairs,
                          const Components& comp, bool nearest, const std::vector<int>& z,
                          const Eigen::MatrixXd& m, CopKmeansResult& res) {
  const int k = static_cast<int>(m.cols());
  int kept = 0;
  const std::vector<int> map = kept_cluster_map(z.data(), static_cast<std::size_t>(comp.count), k, kept);
  res.centres = kept_columns(m, map, kept);
  const int n = static_cast<int>(x.cols());
  res.cluster.resize(n);
  for (int i = 0; i < n; ++i) res.cluster[i] = map[z[comp.id[i]]];
  res.k = kept;
  // With no cluster dropped, the last iteration's within-cluster sum is this
  // (the same centres, clusters and order of terms): no pass over x.
  if (kept == k && !res.objective.empty()) {
    res.within = res.objective.back();
  } else {
    res.within = 0.0;
    const int p = static_cast<int>(x.rows());
    for (int i = 0; i < n; ++i) res.within += sq_distance(x.col(i).data(), res.centres.col(res.cluster[i]).data(), p);
    if (!res.objective.empty()) res.objective.back() = res.within;
  }
  res.broken.clear();
  // Without "nearest" every step kept every cannot-link (a component only
  // ever joins a cluster free of its cannot-linked ones), and a
  // cannot-link inside a component stopped the fit before any run: no
  // pass over the pairs at random places.
  if (!nearest) return;
  for (std::size_t l = 0; l < pairs.n_pairs(); ++l) {
    if (!pairs.must(l) && res.cluster[pairs.first[l]] == res.cluster[pairs.second[l]]) {
      res.broken.push_back(static_cast<int>(l));
    }
  }
}

}  // namespace cop_detail
}  // namespace sideclust
