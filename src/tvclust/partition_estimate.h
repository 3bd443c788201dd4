// Summaries of a sample of partitions that never form the n x n posterior
// similarity matrix: expected Binder loss and variation of information of a
// candidate against every draw (each from one contingency table, O(n) per
// draw), the candidate draw that minimizes it, and how firmly each point sits
// with the members of its estimated cluster.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace sideclust {

// Partitions stored one after another, each as n labels 0 .. k - 1.
struct DrawSet {
  int n = 0;
  std::vector<int> label;  // draw s occupies [s * n, (s + 1) * n)
  std::vector<int> k;      // clusters of each draw

  int count() const { return static_cast<int>(k.size()); }
  const int* draw(int s) const { return label.data() + static_cast<std::size_t>(s) * n; }
};

// Relabel in order of first appearance (so equal partitions get equal
// labels); returns the number of clusters.
inline int canonicalize(int* z, int n, std::vector<int>& map) {
  int top = 0;
  for (int i = 0; i < n; ++i) top = z[i] > top ? z[i] : top;
  map.assign(top + 1, -1);
  int k = 0;
  for (int i = 0; i < n; ++i) {
    int& m = map[z[i]];
    if (m < 0) m = k++;
    z[i] = m;
  }
  return k;
}

enum class PartitionLoss { binder, vi };

class PartitionComparer {
 public:
  // Loss between partitions a (ka clusters) and b (kb clusters) of n points.
  // Binder: the number of point pairs the two put differently (together in
  // one, apart in the other). VI: H(a | b) + H(b | a), in nats.
  double loss(PartitionLoss type, const int* a, int ka, const int* b, int kb, int n) {
    table_.assign(static_cast<std::size_t>(ka) * kb, 0);
    row_.assign(ka, 0);
    col_.assign(kb, 0);
    for (int i = 0; i < n; ++i) {
      ++table_[static_cast<std::size_t>(a[i]) * kb + b[i]];
      ++row_[a[i]];
      ++col_[b[i]];
    }
    if (type == PartitionLoss::binder) {
      auto pairs = [](double m) { return 0.5 * m * (m - 1.0); };
      double out = 0.0;
      for (int r : row_) out += pairs(r);
      for (int c : col_) out += pairs(c);
      for (int t : table_) out -= 2.0 * pairs(t);
      return out;
    }
    auto plogp = [](double m) { return m > 0.0 ? m * std::log(m) : 0.0; };
    double joint = 0.0, margins = 0.0;
    for (int t : table_) joint += plogp(t);
    for (int r : row_) margins += plogp(r);
    for (int c : col_) margins += plogp(c);
    // VI = 2 H(a, b) - H(a) - H(b) with H from counts over n points.
    return (margins - 2.0 * joint) / n;
  }

  double expected(PartitionLoss type, const int* a, int ka, const DrawSet& draws) {
    double total = 0.0;
    for (int s = 0; s < draws.count(); ++s) {
      total += loss(type, a, ka, draws.draw(s), draws.k[s], draws.n);
    }
    return total / draws.count();
  }

 private:
  std::vector<int> table_, row_, col_;
};

// The candidate draw with the least posterior expected loss (the average over
// all draws); `expected_loss` gets the value of every candidate.
inline int best_candidate(PartitionLoss type, const DrawSet& draws,
                          const std::vector<int>& candidates, std::vector<double>& expected_loss) {
  if (candidates.empty()) throw std::invalid_argument("no candidate partitions");
  PartitionComparer cmp;
  expected_loss.assign(candidates.size(), 0.0);
  int best = 0;
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const int s = candidates[c];
    expected_loss[c] = cmp.expected(type, draws.draw(s), draws.k[s], draws);
    if (expected_loss[c] < expected_loss[best]) best = static_cast<int>(c);
  }
  return candidates[best];
}

// For each point i with estimated cluster C(i): the posterior mean share of
// the other members of C(i) that share i's cluster, i.e. the average of the
// posterior similarities pi_ij over j in C(i). A point alone in C(i) gets the
// posterior probability of being alone.
inline std::vector<double> coclustering_confidence(const int* estimate, int k,
                                                   const DrawSet& draws) {
  const int n = draws.n;
  std::vector<double> out(n, 0.0);
  std::vector<int> size(k, 0);
  for (int i = 0; i < n; ++i) ++size[estimate[i]];
  std::vector<int> table, draw_size;
  for (int s = 0; s < draws.count(); ++s) {
    const int* z = draws.draw(s);
    const int kz = draws.k[s];
    table.assign(static_cast<std::size_t>(k) * kz, 0);
    draw_size.assign(kz, 0);
    for (int i = 0; i < n; ++i) {
      ++table[static_cast<std::size_t>(estimate[i]) * kz + z[i]];
      ++draw_size[z[i]];
    }
    for (int i = 0; i < n; ++i) {
      const int m = size[estimate[i]];
      if (m > 1) {
        out[i] += (table[static_cast<std::size_t>(estimate[i]) * kz + z[i]] - 1.0) / (m - 1.0);
      } else {
        out[i] += draw_size[z[i]] == 1;
      }
    }
  }
  for (double& v : out) v /= draws.count();
  return out;
}

// Posterior similarity matrix (n x n, column-major in `out`) from `count`
// partitions stored column-major as a count x n matrix (draws as rows), so
// that each pair of points reads two contiguous columns.
inline void similarity_matrix(const int* draws, int count, int n, double* out) {
  for (int i = 0; i < n; ++i) {
    const int* a = draws + static_cast<std::size_t>(i) * count;
    out[static_cast<std::size_t>(i) * n + i] = 1.0;
    for (int j = i + 1; j < n; ++j) {
      const int* b = draws + static_cast<std::size_t>(j) * count;
      int same = 0;
      for (int s = 0; s < count; ++s) same += a[s] == b[s];
      const double v = static_cast<double>(same) / count;
      out[static_cast<std::size_t>(j) * n + i] = v;
      out[static_cast<std::size_t>(i) * n + j] = v;
    }
  }
}

// The summary of a set of draws: the candidate of least expected loss among
// at most max_candidates evenly spaced draws, each candidate's expected loss,
// and each point's confidence in the estimate. Empty when there are no draws.
struct DrawSummary {
  std::vector<int> estimate;        // 0-based clusters of the chosen draw
  std::vector<double> confidence;   // one per point
  std::vector<int> candidates;      // 0-based draw indices
  std::vector<double> candidate_loss;
  double expected_loss = 0.0;       // of `estimate`
  int search_moves = -1;            // moves of the search (partition_search.h); -1: none run
};

inline DrawSummary summarize_draws(const DrawSet& draws, PartitionLoss loss, int max_candidates) {
  DrawSummary out;
  const int stored = draws.count();
  if (stored == 0) return out;
  const int m = std::min(stored, std::max(1, max_candidates));
  for (int t = 0; t < m; ++t) {
    out.candidates.push_back(static_cast<int>((static_cast<double>(t) + 0.5) * stored / m));
  }
  const int best = best_candidate(loss, draws, out.candidates, out.candidate_loss);
  const int* z = draws.draw(best);
  out.estimate.assign(z, z + draws.n);
  out.expected_loss = *std::min_element(out.candidate_loss.begin(), out.candidate_loss.end());
  out.confidence = coclustering_confidence(z, draws.k[best], draws);
  return out;
}

}  // namespace sideclust
