// A point estimate searched beyond the sampled partitions, after the SALSO
// idea of Dahl, Johnson & Mueller (2022): from a starting partition (the best
// sampled draw), sweep over the points and move each one to the cluster, or
// to a new cluster, that lowers the posterior expected loss the most, until a
// sweep moves nothing. Every accepted move lowers the expected loss, so the
// result is never worse than the start.
//
// The expected loss is the average over the draws, as in
// partition_estimate.h, and both losses depend on a draw only through the
// contingency table of the estimate against it. Moving point i from cluster a
// to cluster b changes four cells per draw, so the change of the expected
// loss is available in O(draws) per target cluster without forming the n x n
// similarity matrix. For Binder's loss this is the familiar similarity-matrix
// form: sum over j in b of (1 - 2 pi_ij) minus the same over j in a, j != i,
// with pi_ij read from the tables.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "tvclust/partition_estimate.h"

namespace sideclust {

struct SearchResult {
  std::vector<int> estimate;  // 0-based, canonical (first appearance)
  int k = 0;
  int moves = 0;   // accepted single-point moves
  int sweeps = 0;  // sweeps over all points, the last one without moves
};

class PartitionSearch {
 public:
  PartitionSearch(const DrawSet& draws, PartitionLoss loss) : draws_(draws), loss_(loss) {
    const int n = draws.n;
    f_.resize(n + 2);
    for (int m = 0; m <= n + 1; ++m) {
      f_[m] = loss == PartitionLoss::binder ? 0.5 * m * (m - 1.0)
                                             : (m > 0 ? m * std::log(static_cast<double>(m)) : 0.0);
    }
    offset_.resize(draws.count() + 1, 0);
  }

  // Greedy single-point moves from `start` (0-based labels, any numbering).
  SearchResult run(const int* start, int max_sweeps = 1000) {
    const int n = draws_.n;
    const int S = draws_.count();
    z_.assign(start, start + n);
    std::vector<int> map;
    int k = canonicalize(z_.data(), n, map);
    size_.assign(k, 0);
    for (int i = 0; i < n; ++i) ++size_[z_[i]];
    build_tables(std::max(2 * k, k + 4));
    SearchResult out;
    std::vector<double> gain;  // mean over draws of the table part, per target
    // The loss scale: a change smaller than this is rounding, not progress.
    const double tiny = 1e-10 * (loss_ == PartitionLoss::binder ? 1.0 : 1.0 / n);
    bool moved = true;
    while (moved && out.sweeps < max_sweeps) {
      moved = false;
      ++out.sweeps;
      for (int i = 0; i < n; ++i) {
        const int a = z_[i];
        // Target clusters: every non-empty cluster but a, and one empty one
        // (unless i is alone already, where a new cluster changes nothing).
        int empty = -1;
        for (int c = 0; c < cap_; ++c) {
          if (c < static_cast<int>(size_.size()) && size_[c] == 0 && c != a) {
            empty = c;
            break;
          }
        }
        if (empty < 0 && size_[a] > 1) {
          empty = static_cast<int>(size_.size());
          if (empty >= cap_) build_tables(2 * cap_);
          size_.push_back(0);
        }
        const int K = static_cast<int>(size_.size());
        gain.assign(K, 0.0);
        for (int s = 0; s < S; ++s) {
          const int zs = draws_.draw(s)[i];
          const int* row = table_.data() + offset_[s] + static_cast<std::size_t>(zs) * cap_;
          const double from = f_[row[a] - 1] - f_[row[a]];
          for (int b = 0; b < K; ++b) {
            if (b == a || (size_[b] == 0 && b != empty)) continue;
            gain[b] += from + f_[row[b] + 1] - f_[row[b]];
          }
        }
        const double own = f_[size_[a] - 1] - f_[size_[a]];
        double best_delta = -tiny;
        int best = -1;
        for (int b = 0; b < K; ++b) {
          if (b == a || (size_[b] == 0 && b != empty)) continue;
          double delta = own + f_[size_[b] + 1] - f_[size_[b]] - 2.0 * gain[b] / S;
          if (loss_ == PartitionLoss::vi) delta /= n;
          if (delta < best_delta) {
            best_delta = delta;
            best = b;
          }
        }
        if (best < 0) continue;
        move(i, a, best);
        moved = true;
        ++out.moves;
      }
    }
    out.estimate = z_;
    out.k = canonicalize(out.estimate.data(), n, map);
    return out;
  }

 private:
  // Contingency tables of the current estimate against every draw: draw s
  // holds a k_s x cap_ block, row = the draw's cluster, column = ours.
  void build_tables(int cap) {
    cap_ = cap;
    const int S = draws_.count();
    for (int s = 0; s < S; ++s) {
      offset_[s + 1] = offset_[s] + static_cast<std::size_t>(draws_.k[s]) * cap_;
    }
    table_.assign(offset_[S], 0);
    for (int s = 0; s < S; ++s) {
      const int* d = draws_.draw(s);
      int* t = table_.data() + offset_[s];
      for (int i = 0; i < draws_.n; ++i) ++t[static_cast<std::size_t>(d[i]) * cap_ + z_[i]];
    }
  }

  void move(int i, int a, int b) {
    for (int s = 0; s < draws_.count(); ++s) {
      int* row = table_.data() + offset_[s] + static_cast<std::size_t>(draws_.draw(s)[i]) * cap_;
      --row[a];
      ++row[b];
    }
    --size_[a];
    ++size_[b];
    z_[i] = b;
  }

  const DrawSet& draws_;
  PartitionLoss loss_;
  std::vector<double> f_;  // binder: m (m - 1) / 2; vi: m log m
  std::vector<int> z_, size_, table_;
  std::vector<std::size_t> offset_;
  int cap_ = 0;
};

// The searched estimate from `start`; never of higher expected loss.
inline SearchResult search_partition(const DrawSet& draws, PartitionLoss loss, const int* start,
                                     int max_sweeps = 1000) {
  PartitionSearch search(draws, loss);
  return search.run(start, max_sweeps);
}

// summarize_draws() (the best of the candidate draws), then, with `search`,
// the search from that draw: the summary then describes the searched estimate,
// while `candidate_loss` still holds the candidates' expected losses.
inline DrawSummary estimate_partition(const DrawSet& draws, PartitionLoss loss,
                                      int max_candidates, bool search) {
  DrawSummary out = summarize_draws(draws, loss, max_candidates);
  if (!search || out.estimate.empty()) return out;
  const SearchResult found = search_partition(draws, loss, out.estimate.data());
  out.search_moves = found.moves;
  if (found.moves == 0) return out;
  PartitionComparer cmp;
  const double searched = cmp.expected(loss, found.estimate.data(), found.k, draws);
  if (searched > out.expected_loss) return out;  // rounding only: keep the draw
  out.estimate = found.estimate;
  out.expected_loss = searched;
  out.confidence = coclustering_confidence(found.estimate.data(), found.k, draws);
  return out;
}

}  // namespace sideclust
