// The clusters a run ends with: those that hold points, numbered
// consecutively in their order. Shared by the prototype methods' last step.
#pragma once

#include <Eigen/Dense>

#include <cstddef>
#include <vector>

namespace sideclust {

// map[h]: cluster h's new number, -1 for an empty one (labels: the clusters
// of the points, or of the units that hold them, each in 0 .. k - 1); `kept`
// gets the number of clusters left.
inline std::vector<int> kept_cluster_map(const int* labels, std::size_t count, int k, int& kept) {
  std::vector<int> map(k, -1);
  for (std::size_t i = 0; i < count; ++i) map[labels[i]] = 0;
  kept = 0;
  for (int h = 0; h < k; ++h) {
    if (map[h] == 0) map[h] = kept++;
  }
  return map;
}
inline std::vector<int> kept_cluster_map(const std::vector<int>& labels, int k, int& kept) {
  return kept_cluster_map(labels.data(), labels.size(), k, kept);
}

// The columns of m that map keeps, at their new numbers.
inline Eigen::MatrixXd kept_columns(const Eigen::MatrixXd& m, const std::vector<int>& map, int kept) {
  Eigen::MatrixXd out(m.rows(), kept);
  for (Eigen::Index h = 0; h < m.cols(); ++h) {
    if (map[h] >= 0) out.col(map[h]) = m.col(h);
  }
  return out;
}

// Drops the empty clusters of a run that ends with clusters z (relabelled
// here) and centres m: the kept centres go to `centres`; returns their number.
inline int drop_empty_clusters(std::vector<int>& z, const Eigen::MatrixXd& m, Eigen::MatrixXd& centres) {
  int kept = 0;
  const std::vector<int> map = kept_cluster_map(z, static_cast<int>(m.cols()), kept);
  centres = kept_columns(m, map, kept);
  for (int& v : z) v = map[v];
  return kept;
}

}  // namespace sideclust
