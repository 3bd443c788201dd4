// Loops whose items read memory at places the hardware cannot guess (a
// partner's row, a neighbour's column, a word's table record): the
// algorithm says what item t does (the body) and what an item will read
// (a stage), and the loop asks for those reads a fixed number of items
// ahead, so that the waits for memory overlap with the work on the items
// before. An algorithm names the reads through `Upcoming`; it never issues
// a cache hint itself.
//
//   for_each_ahead(n, [&](int t) { ...item t... },
//                  ahead<8>([&](int t, const Upcoming& r) { r.line(&x[t]); }));
//
// Stages are issued in the order given, each for the item `Distance`
// places ahead while there is one, then the body runs: the body sees the
// same items in the same order as a plain loop, so results do not change.
#pragma once

#include <cstddef>
#include <utility>

#include "engine/force_inline.h"
#include "engine/prefetch.h"

namespace sideclust {

// What an upcoming item will read, handed to a stage. Only hints: an address
// may be anything the item could compute (nothing is dereferenced), and a
// hint that is wrong costs time only.
class Upcoming {
 public:
  // The cache line holding p.
  SIDECLUST_FORCE_INLINE void line(const void* p) const { prefetch(p); }
  // Every cache line of count > 0 values from p.
  template <class T>
  SIDECLUST_FORCE_INLINE void span(const T* p, std::size_t count) const {
    prefetch_range(p, count * sizeof(T));
  }
  // The first and the last of count > 0 values from p: all of their lines
  // when they span at most two (a short column).
  template <class T>
  SIDECLUST_FORCE_INLINE void ends(const T* p, std::size_t count) const {
    prefetch(p);
    prefetch(p + count - 1);
  }
};

// A stage of the look-ahead: item t + Distance's reads, requested at item t.
template <int Distance, class Reads>
struct AheadStage {
  static constexpr int distance = Distance;
  Reads reads;
};

// ahead<D>(reads): reads(item, upcoming) names what `item` will read; it is
// called D items before the body gets to that item.
template <int Distance, class Reads>
AheadStage<Distance, std::decay_t<Reads>> ahead(Reads&& reads) {
  static_assert(Distance > 0, "a look-ahead distance is at least one item");
  return {std::forward<Reads>(reads)};
}

namespace lookahead_detail {
template <class Item, class Stage>
SIDECLUST_FORCE_INLINE void issue(Item t, Item limit, Stage& stage, const Upcoming& r) {
  if (t + Stage::distance < limit) stage.reads(t + Stage::distance, r);
}
template <class Item, class Stage, class Ids>
SIDECLUST_FORCE_INLINE void issue_id(Item t, Item limit, Stage& stage, const Ids& ids,
                                     const Upcoming& r) {
  if (t + Stage::distance < limit) stage.reads(ids[t + Stage::distance], r);
}
}  // namespace lookahead_detail

// Items first .. last - 1 in order, with the reads of the items up to
// limit - 1 (>= last) requested ahead: a loop over part of a longer run.
template <class Item, class Body, class... Stages>
SIDECLUST_FORCE_INLINE void for_range_ahead(Item first, Item last, Item limit, Body&& body,
                                            Stages... stages) {
  const Upcoming r;
  for (Item t = first; t < last; ++t) {
    (lookahead_detail::issue(t, limit, stages, r), ...);
    body(t);
  }
}

// Items 0 .. n - 1 in order.
template <class Item, class Body, class... Stages>
SIDECLUST_FORCE_INLINE void for_each_ahead(Item n, Body&& body, Stages... stages) {
  for_range_ahead(Item(0), n, n, std::forward<Body>(body), std::move(stages)...);
}

// The ids ids[0 .. n - 1] in that order (a visiting order, a queue of
// units): body(id) and each stage's reads(id, upcoming) get ids, not
// positions.
template <class Ids, class Body, class... Stages>
SIDECLUST_FORCE_INLINE void for_each_id_ahead(const Ids& ids, std::size_t n, Body&& body,
                                              Stages... stages) {
  const Upcoming r;
  for (std::size_t t = 0; t < n; ++t) {
    (lookahead_detail::issue_id(t, n, stages, ids, r), ...);
    body(ids[t]);
  }
}

// Members of a set visited in increasing order while the body may add to
// it (a residual schedule's units that still owe an update): next(i) is the
// smallest member >= i, or end. A ring of the next Far members found ahead
// of the body gets the far stage's reads as each is found and the near
// stage's once it is Near members away (Near < Far <= 8); members added
// behind the search are visited without look-ahead. body(item) runs for
// each member in turn, from next(0) on, and must remove it from the set.
template <int Near, int Far, class Next, class Body, class NearReads, class FarReads>
SIDECLUST_FORCE_INLINE void for_each_member_ahead(std::size_t end, Next&& next, Body&& body,
                                                  AheadStage<Near, NearReads> near,
                                                  AheadStage<Far, FarReads> far) {
  static_assert(Near < Far && Far <= 8, "stages: Near < Far <= 8 members ahead");
  constexpr int kRing = 8;
  std::size_t ring[kRing];
  const Upcoming r;
  int head = 0, size = 0;  // ring[head .. head + size): members found ahead
  std::size_t tail = 0;    // where the search for the next one resumes
  for (std::size_t at = next(0); at < end; at = next(at + 1)) {
    while (size > 0 && ring[head] <= at) {
      head = (head + 1) % kRing;
      --size;
    }
    tail = tail > at + 1 ? tail : at + 1;
    while (size < Far && tail < end) {
      const std::size_t found = next(tail);
      if (found >= end) {
        tail = end;
        break;
      }
      ring[(head + size) % kRing] = found;
      ++size;
      tail = found + 1;
      far.reads(found, r);
      if (size > Near) near.reads(ring[(head + Near - 1) % kRing], r);
    }
    if (size < Near && size > 0) near.reads(ring[(head + size - 1) % kRing], r);
    body(at);
  }
}

}  // namespace sideclust
