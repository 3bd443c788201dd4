// Union-find (disjoint sets) with path compression and union by size, and the
// connected components of a graph given as an edge list. Plain C++17: no R or
// Rcpp headers, so it compiles and can be tested outside R.
#ifndef SIDECLUST_UNION_FIND_H
#define SIDECLUST_UNION_FIND_H

#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

namespace sideclust {

class UnionFind {
 public:
  explicit UnionFind(std::size_t n) : parent_(n), size_(n, 1) {
    for (std::size_t k = 0; k < n; ++k) parent_[k] = k;
  }

  std::size_t size() const { return parent_.size(); }

  // Root of the set holding `x`; compresses the path (iteratively, so deep
  // chains cannot overflow the stack).
  std::size_t find(std::size_t x) {
    std::size_t root = x;
    while (parent_[root] != root) root = parent_[root];
    while (parent_[x] != root) {
      std::size_t next = parent_[x];
      parent_[x] = root;
      x = next;
    }
    return root;
  }

  // Merge the sets of `a` and `b`; returns false when they were already one.
  bool unite(std::size_t a, std::size_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    if (size_[a] < size_[b]) std::swap(a, b);
    parent_[b] = a;
    size_[a] += size_[b];
    return true;
  }

  std::size_t set_size(std::size_t x) { return size_[find(x)]; }

 private:
  std::vector<std::size_t> parent_;
  std::vector<std::size_t> size_;
};

// Connected components of the graph on points 0..n-1 with edges (from[e], to[e])
// (0-based). Returns one id per point, 0..C-1, numbered by first appearance:
// point 0 is in component 0, the next point not in component 0 starts
// component 1, and so on. Throws std::out_of_range on an invalid index.
inline std::vector<int> connected_components(std::size_t n,
                                             const std::vector<int>& from,
                                             const std::vector<int>& to) {
  if (from.size() != to.size()) {
    throw std::invalid_argument("edge lists differ in length");
  }
  UnionFind sets(n);
  for (std::size_t e = 0; e < from.size(); ++e) {
    if (from[e] < 0 || to[e] < 0 || static_cast<std::size_t>(from[e]) >= n ||
        static_cast<std::size_t>(to[e]) >= n) {
      throw std::out_of_range("edge index outside 0..n-1");
    }
    sets.unite(static_cast<std::size_t>(from[e]), static_cast<std::size_t>(to[e]));
  }
  std::vector<int> root_id(n, -1);
  std::vector<int> id(n);
  int next = 0;
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t root = sets.find(k);
    if (root_id[root] < 0) root_id[root] = next++;
    id[k] = root_id[root];
  }
  return id;
}

}  // namespace sideclust

#endif  // SIDECLUST_UNION_FIND_H
