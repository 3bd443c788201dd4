// Union-find (disjoint sets) with path compression and union by size, and the
// connected components of a graph given as an edge list. Plain C++17: no R or
// Rcpp headers, so it compiles and can be tested outside R.
#ifndef SIDECLUST_UNION_FIND_H
#define SIDECLUST_UNION_FIND_H

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "engine/lookahead.h"

namespace sideclust {

class UnionFind {
 public:
  // One 32-bit entry per element (a parent, or minus the size of a root's
  // set): 4 bytes per element instead of two 8-byte arrays, so that more of
  // the random accesses of unite() and find() hit the caches.
  explicit UnionFind(std::size_t n) : link_(n, -1) {
    if (n > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
      throw std::length_error("union-find over more than 2^31 - 1 elements");
    }
  }

  std::size_t size() const { return link_.size(); }

  // Root of the set holding `x`; compresses the path (iteratively, so deep
  // chains cannot overflow the stack).
  std::size_t find(std::size_t x) {
    std::int32_t root = static_cast<std::int32_t>(x);
    while (link_[root] >= 0) root = link_[root];
    std::int32_t at = static_cast<std::int32_t>(x);
    while (link_[at] >= 0 && link_[at] != root) {
      const std::int32_t next = link_[at];
      link_[at] = root;
      at = next;
    }
    return static_cast<std::size_t>(root);
  }

  // Merge the sets of `a` and `b` (the root of the larger set stays, of
  // equal ones a's); returns false when they were already one.
  bool unite(std::size_t a, std::size_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    if (link_[a] > link_[b]) std::swap(a, b);  // sizes are -link_
    link_[a] += link_[b];
    link_[b] = static_cast<std::int32_t>(a);
    return true;
  }

  std::size_t set_size(std::size_t x) { return static_cast<std::size_t>(-link_[find(x)]); }

  // Names the entry of `x` that a unite() or find() of it reads first, for
  // a loop over pairs at random places that looks ahead
  // (engine/lookahead.h).
  void request_entry(std::size_t x, const Upcoming& r) const { r.line(link_.data() + x); }

 private:
  std::vector<std::int32_t> link_;
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
