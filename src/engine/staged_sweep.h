// The generic staged sweep: visits to points in a given order, each point
// deciding its cluster from its own data and its partners' (the per-point
// decision is the algorithm's callable). The algorithm says WHAT a visit
// reads; the engine decides when to ask for it:
//  - SweepLookahead: a visit reads the point's own data, then its run of
//    adjacency entries (PackedEdge), then data at each partner. Every step
//    needs the one before (the run's place comes from start[], the partners
//    from the entries), so the three are requested kStage visits apart.
//  - the point's coordinates, copied a block of visits at a time, requested
//    one block ahead (run_blocked_sweep()).
//  - on two threads (run_chunked_sweep()): chunks of visits, the helper
//    preparing what needs no decision and finishing what reads them, in the
//    order one thread would (engine/chunk_pipeline.h), with the buffers the
//    threads hand over laid out so that they share no cache line.
// None of it changes what is computed or the order of the visits.
// Run these loops inside run_with_kernels() (engine/avx_dispatch.h), whose
// `flatten` inlines the loop, the decision and what it calls into one
// function. The loops that call an algorithm's callable are deliberately
// not forced inline: GCC orders its early inlining by the call graph but
// ignores calls from always_inline functions to others, so the callable
// would be compiled after the flattened step and left out of line (and,
// under AVX, compiled for plain x86-64).
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "engine/avx_dispatch.h"
#include "engine/chain_runner.h"
#include "engine/chunk_pipeline.h"
#include "engine/force_inline.h"
#include "engine/isolated_buffer.h"
#include "engine/lookahead.h"

namespace sideclust {

// One adjacency entry of a point as a sweep reads it: the partner and what
// the method needs of the pair, in one 16-byte record, so that a point's
// constraints are one contiguous run of memory (one cache miss, not one per
// array of the pair graph). `tag` and `value` are the method's own.
struct PackedEdge {
  int nbr;
  int tag;
  double value;
};

// The cluster a point takes in an iterated-conditional-modes sweep: the
// first h of least cost[h], unless `stay` (its cluster, or -1 for none)
// costs no more. Selects, not a branch per cluster: which cluster wins is
// data-dependent, and mispredicted branches cost a sweep several per cent.
SIDECLUST_FORCE_INLINE int cheapest_or_stay(const double* cost, int k, int stay) {
  int best = 0;
  double low = cost[0];
#pragma GCC unroll 8
  for (int h = 1; h < k; ++h) {
    best = cost[h] < low ? h : best;
    low = cost[h] < low ? cost[h] : low;
  }
  return stay >= 0 && !(low < cost[stay]) ? stay : best;
}

// The staged look-ahead of a sweep visiting order[t]: at visit t, the own
// data (own(f, r)) and start[f] of the point 3 kStage visits ahead, the
// adjacency run of the point 2 kStage ahead (its start[] now cached) and the
// partners (partner(j, e, r) for entry e) of the point kStage ahead (its
// entries now cached). A stage of 4 to 32 visits made little difference.
class SweepLookahead {
 public:
  static constexpr std::size_t kStage = 16;

  // start: the adjacency starts (empty: no pairs), edges[e]: entry e.
  SweepLookahead(const std::vector<int>& order, const std::vector<int>& start,
                 const PackedEdge* edges)
      : order_(order), start_(start), edges_(edges), n_(order.size()),
        has_edges_(!start.empty()) {}

  template <class Own, class Partner>
  void step(std::size_t t, Own&& own, Partner&& partner) const {
    const Upcoming r;
    if (t + 3 * kStage < n_) {
      const int f = order_[t + 3 * kStage];
      own(f, r);
      if (has_edges_) r.line(&start_[f]);
    }
    if (!has_edges_) return;
    if (t + 2 * kStage < n_) {
      const int f = order_[t + 2 * kStage];
      if (start_[f + 1] > start_[f]) {
        r.span(edges_ + start_[f], static_cast<std::size_t>(start_[f + 1] - start_[f]));
      }
    }
    if (t + kStage < n_) {
      const int f = order_[t + kStage];
      for (int e = start_[f]; e < start_[f + 1]; ++e) partner(edges_[e].nbr, e, r);
    }
  }

  const std::vector<int>& order() const { return order_; }

 private:
  const std::vector<int>& order_;
  const std::vector<int>& start_;
  const PackedEdge* edges_;
  std::size_t n_;
  bool has_edges_;
};

// The reads of a staged sweep's visits, named by the algorithm:
// own(i, r): point i's own data; partner(j, e, r): what it reads at partner
// j through adjacency entry e; row(i, r): point i's coordinates (in blocks).
template <class Own, class Partner, class Row>
struct VisitReads {
  Own own;
  Partner partner;
  Row row;
};
template <class Own, class Partner, class Row>
VisitReads<Own, Partner, Row> visit_reads(Own own, Partner partner, Row row) {
  return {std::move(own), std::move(partner), std::move(row)};
}

// The coordinates of the block of visits after t's (`block` visits on),
// asked for a point every 4 visits: a copy of that block then finds them
// cached instead of waiting for p streams to start.
template <class Row>
void request_next_block(const std::vector<int>& order, std::size_t t,
                                               std::size_t block, Row& row) {
  const Upcoming r;
  if ((t & 3) == 0 && t + block < order.size()) row(order[t + block], r);
}

// Visits order[from .. to) in turn, with the staged look-ahead; decide(t, i)
// settles point i = order[t].
template <class Reads, class Decide>
void run_staged_sweep(const SweepLookahead& ahead, std::size_t from, std::size_t to,
                                             Reads& reads, Decide&& decide) {
  const std::vector<int>& order = ahead.order();
  for (std::size_t t = from; t < to; ++t) {
    ahead.step(t, reads.own, reads.partner);
    decide(t, order[t]);
  }
}

// run_staged_sweep() over all visits, the points' coordinates copied a block
// of visits at a time: load(t, count) copies the points of visits t .. t +
// count - 1 at each block's first visit, the next block's rows requested
// meanwhile; decide(t, i, s) gets s = t's place in its block.
template <class Reads, class Load, class Decide>
void run_blocked_sweep(const SweepLookahead& ahead, std::size_t block, Reads& reads,
                                              Load&& load, Decide&& decide) {
  const std::vector<int>& order = ahead.order();
  const std::size_t n = order.size();
  for (std::size_t t = 0; t < n; ++t) {
    ahead.step(t, reads.own, reads.partner);
    const int i = order[t];
    if (t % block == 0) load(t, std::min(block, n - t));
    request_next_block(order, t, block, reads.row);
    decide(t, i, t % block);
  }
}

// visits [from, to) in turn (no staged look-ahead), the rows of the next
// `to - from` visits requested meanwhile: a helper's pass over a chunk
// whose points it copied at once.
template <class Row, class Body>
void run_chunk_visits(const std::vector<int>& order, std::size_t from, std::size_t to,
                                             Row& row, Body&& body) {
  for (std::size_t t = from; t < to; ++t) {
    request_next_block(order, t, to - from, row);
    body(t);
  }
}

// Whether a sweep of n visits runs on two threads: asked for, and enough
// chunks that the pipeline's hand-overs pay.
inline bool sweep_on_two_threads(int threads, std::size_t n, std::size_t chunk) {
  return threads > 1 && n >= 8 * chunk;
}

// The shape of a two-thread sweep's buffers, in doubles.
struct ChunkedSweepShape {
  std::size_t visits;      // n
  std::size_t chunk;       // visits a hand-over
  std::size_t prepared;    // the helper prepares this many a visit for the calling thread
  std::size_t copied;      // room the helper copies into, a visit
  std::size_t totals;      // the helper's running sums (zeros at the start)
  std::size_t scratch;     // what the calling thread writes at every visit
};

// A sweep in chunks of visits on two threads (run_chunk_pipeline(): the same
// operations in the same order as one thread): the helper runs
// prepare(from, to, prepared, copies) for a chunk ahead and finish(from, to,
// prepared, copies, totals) for the one behind while the calling thread runs
// process(from, to, prepared, scratch) for the current one; at the end
// collect(totals) on the calling thread. Each buffer has cache lines of its
// own: a line written at every point by one thread and read by the other
// would move between the cores at each write.
template <class Prepare, class Process, class Finish, class Collect>
void run_chunked_sweep(const ChunkedSweepShape& s, Prepare&& prepare, Process&& process, Finish&& finish,
                       Collect&& collect) {
  const std::size_t n = s.visits, chunk = s.chunk;
  const int chunks = static_cast<int>((n + chunk - 1) / chunk);
  IsolatedBuffer prepared(kChunkSlots * chunk * s.prepared);
  IsolatedBuffer copies(chunk * s.copied);
  IsolatedBuffer totals(s.totals);
  IsolatedBuffer scratch(s.scratch);
  auto from = [&](int c) { return static_cast<std::size_t>(c) * chunk; };
  auto to = [&](int c) { return std::min(n, (static_cast<std::size_t>(c) + 1) * chunk); };
  auto slot = [&](int c) { return prepared.data() + (c % kChunkSlots) * chunk * s.prepared; };
  run_chunk_pipeline(
      chunks, [&](int c) { prepare(from(c), to(c), slot(c), copies.data()); },
      [&](int c) { process(from(c), to(c), const_cast<const double*>(slot(c)), scratch.data()); },
      [&](int c) { finish(from(c), to(c), const_cast<const double*>(slot(c)), copies.data(), totals.data()); });
  collect(const_cast<const double*>(totals.data()));
}

// Two independent steps of a fit's set-up, step(hooks) each: side by side
// on two threads when `two_threads` (run_alongside(): `beside` on a helper,
// polled through its own hooks), else beside, then here. Independent steps
// give the same values either way.
template <class Beside, class Here>
void run_side_by_side(bool two_threads, Beside&& beside, Here&& here, RunHooks& hooks) {
  if (two_threads) return run_alongside(beside, here, hooks);
  beside(hooks);
  here(hooks);
}

}  // namespace sideclust
