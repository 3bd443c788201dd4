// The order in which a sweep visits the points.
//
// Random order visits blocks of consecutive points (rows) in a random order,
// with a fresh draw every sweep, each block in storage order. A block's
// points are contiguous in memory, so access stays local without copying
// the data or relabelling the pairs, and the processor's own prefetching
// streams them: for large n a sweep costs a fraction of one visiting a
// uniformly random permutation of points scattered through memory. RDP-means, MPCK-means / PCK-means, LCVQE and COP-k-means (over its
// components) all use it (VisitOrder). Small inputs, which sit in the caches
// anyway, get a uniformly random permutation (blocks of one point), so that
// the row order (UCI files are often sorted by class) has no effect there.
#pragma once

#include <algorithm>
#include <vector>

#include "common/run_hooks.h"
#include "common/cluster_links.h"
#include "common/side_graph.h"

namespace sideclust {

// VisitOrder's blocks, visited in storage order inside: blocks of 1024 came
// close to a fixed-order sweep, where shorter blocks or blocks shuffled
// inside cost more and longer ones gained little (bench/NOTES.md).
constexpr int kVisitOrderBlock = 1024;
// Up to this many points, VisitOrder's random order is a uniformly random
// permutation (blocks of one point): the data of one sweep sit in the caches.
constexpr int kVisitUniformUpTo = 1 << 16;

// A uniformly random permutation of 0 .. n - 1. One draw of the host's
// generator seeds it.
inline void uniform_random_order(std::vector<int>& order, int n, RunHooks& hooks) {
  SplitMix64 gen(hooks);
  order.resize(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  shuffle_with(order, [&gen]() { return gen.uniform(); });
}

// A fresh random visiting order of 0 .. n - 1: blocks of `block` consecutive
// indices in a random order, each block in storage order. One draw of the
// host's generator seeds it.
inline void shuffled_blocks_order(std::vector<int>& order, int n, RunHooks& hooks, int block) {
  SplitMix64 gen(hooks);
  const int n_blocks = (n + block - 1) / block;
  std::vector<int> blocks(n_blocks);
  for (int b = 0; b < n_blocks; ++b) blocks[b] = b;
  shuffle_with(blocks, [&gen]() { return gen.uniform(); });
  order.resize(n);
  std::size_t at = 0;
  for (int b : blocks) {
    const int first = b * block, last = std::min(n, first + block);
    for (int t = first; t < last; ++t) order[at++] = t;
  }
}

// How a sweep orders the points: storage order, random blocks (the default
// random order, blocks of one point up to kVisitUniformUpTo points), or a
// uniformly random permutation at any n.
enum class VisitKind { fixed, random, uniform };

class VisitOrder {
 public:
  VisitOrder(int n, VisitKind kind, RunHooks& /*hooks*/) : order_(n) {
    for (int i = 0; i < n; ++i) order_[i] = i;
    block_ = kind == VisitKind::fixed ? 0
             : kind == VisitKind::uniform || n <= kVisitUniformUpTo ? 1
                                                                     : kVisitOrderBlock;
  }
  // Older form: random = true is VisitKind::random.
  VisitOrder(int n, bool random, RunHooks& hooks)
      : VisitOrder(n, random ? VisitKind::random : VisitKind::fixed, hooks) {}

  bool random() const { return block_ > 0; }
  // Points per block of consecutive points (0 in fixed order, 1 for a
  // uniformly random permutation).
  int block_size() const { return block_; }
  // The points in the order the current sweep visits them.
  const std::vector<int>& order() const { return order_; }

  // Draw the visiting order of the next sweep. One draw of the host's
  // generator seeds the sweep's stream.
  void next_sweep(RunHooks& hooks) {
    const int n = static_cast<int>(order_.size());
    if (block_ == 1) {
      uniform_random_order(order_, n, hooks);
    } else if (block_ > 1) {
      shuffled_blocks_order(order_, n, hooks, block_);
    }
  }

 private:
  std::vector<int> order_;
  int block_ = 0;
};

}  // namespace sideclust
