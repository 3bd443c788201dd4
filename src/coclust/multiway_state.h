// One run of multiway clustering: the clusterings of all dimensions, their
// sizes and the block statistics, with the two steps of the algorithm.
//
// One entity e of dimension d costs, for cluster c, with S0(e, b) and S1(e, b)
// the sums of w and w z over its cells in block b of the other dimensions:
//   squared Euclidean  sum_b S0 C(c,b)^2 - 2 S1 C(c,b)  (+ sum w z^2)
//   I-divergence       sum_b S0 C(c,b)   -   S1 log C(c,b)  (+ sum w (z log z - z))
// so a dimension's step is one O(N) pass for S0, S1 and a dense product
// (m_d x K_-d) x (K_-d x k_d), K_-d being the number of blocks of the others.
// Plain C++17 + Eigen, no R headers.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "common/info_sparse.h"
#include "coclust/multiway_tensor.h"
#include "common/run_hooks.h"
#include "common/seeding.h"

namespace sideclust {
namespace multiway_detail {

// The state of one run: clusterings, cluster sizes and block statistics.
class MultiwayState {
 public:
  MultiwayState(const MultiwayTensor& x, std::vector<int> k, MultiwayDivergence div, double shift)
      : x_(x), k_(std::move(k)), div_(div), shift_(shift),
        w0_(1.0 / static_cast<double>(x.n_cells())) {}

  void reset(std::vector<std::vector<int>> cl) {
    cl_ = std::move(cl);
    sizes_.assign(k_.size(), {});
    for (std::size_t l = 0; l < k_.size(); ++l) sizes_[l] = count(cl_[l], k_[l]);
    const std::size_t total = product(k_);
    weight_.assign(total, 0.0);
    sum_.assign(total, 0.0);
    const std::size_t k0 = static_cast<std::size_t>(k_[0]);
    visit_cells(x_, cl_, k_, 0, [&](int e, std::size_t b, std::size_t t) {
      const std::size_t g = static_cast<std::size_t>(cl_[0][e]) + k0 * b;
      const double w = weight(t);
      weight_[g] += w;
      sum_[g] += w * value(t);
    });
    update_means();
  }

  // B = E_w[d(Z, C)], exactly, in one pass.
  double objective() const {
    const std::size_t k0 = static_cast<std::size_t>(k_[0]);
    double acc = 0.0;
    visit_cells(x_, cl_, k_, 0, [&](int e, std::size_t b, std::size_t t) {
      const double w = weight(t);
      if (w > 0.0) {
        acc += w * cell_divergence(div_, value(t), means_[static_cast<std::size_t>(cl_[0][e]) + k0 * b]);
      }
    });
    return acc;
  }

  // Moves every entity of dimension d to its best cluster with C fixed, then
  // re-estimates C. Returns the number of entities moved.
  long long reassign(int d) {
    const int m = x_.dim[d], kd = k_[d];
    const std::size_t others = product(k_) / static_cast<std::size_t>(kd);
    const EntitySums sums = entity_sums(d);
    const bool weighted = sums.weighted;
    const RowMatrix& s1 = sums.s1;
    const RowMatrix& s0 = sums.s0;
    const Eigen::VectorXd& own = sums.own;
    const Eigen::VectorXd& cells_other = sums.cells_other;

    const std::vector<std::size_t> map = block_map(k_, d);
    Eigen::MatrixXd quad(kd, static_cast<Eigen::Index>(others)), lin(kd, static_cast<Eigen::Index>(others));
    Eigen::MatrixXd zero_mean = Eigen::MatrixXd::Zero(kd, static_cast<Eigen::Index>(others));
    bool any_zero = false;
    for (std::size_t b = 0; b < others; ++b) {
      for (int c = 0; c < kd; ++c) {
        const double mu = means_[map[static_cast<std::size_t>(c) + static_cast<std::size_t>(kd) * b]];
        const Eigen::Index bi = static_cast<Eigen::Index>(b);
        if (div_ == MultiwayDivergence::euclidean) {
          quad(c, bi) = mu * mu;
          lin(c, bi) = -2.0 * mu;
        } else {
          quad(c, bi) = mu;
          lin(c, bi) = mu > 0.0 ? -std::log(mu) : 0.0;
          if (!(mu > 0.0)) {
            zero_mean(c, bi) = 1.0;
            any_zero = true;
          }
        }
      }
    }
    Eigen::MatrixXd cost = s1 * lin.transpose();  // m x kd
    if (weighted) {
      cost.noalias() += s0 * quad.transpose();
    } else {
      const Eigen::RowVectorXd per_cluster = (quad * cells_other).transpose();
      cost.rowwise() += per_cluster;
    }
    Eigen::MatrixXd blocked;  // > 0: a positive value in a block of mean 0
    if (any_zero) blocked = (s1.array() > 0.0).cast<double>().matrix() * zero_mean.transpose();

    const double inf = std::numeric_limits<double>::infinity();
    long long moved = 0;
    std::vector<int>& cl = cl_[d];
    for (int e = 0; e < m; ++e) {
      auto total = [&](int c) {
        if (sizes_[d][c] == 0 || (any_zero && blocked(e, c) > 0.0)) return inf;
        return cost(e, c);
      };
      const int cur = cl[e];
      int best = cur;
      double best_cost = total(cur);
      // A move needs a gain beyond rounding, relative to the entity's scale.
      const double slack = 1e-12 * (std::abs(own[e]) + std::abs(best_cost)) + 1e-300;
      for (int c = 0; c < kd; ++c) {
        const double v = total(c);
        if (v < best_cost - slack) {
          best_cost = v;
          best = c;
        }
      }
      if (best != cur) {
        --sizes_[d][cur];
        ++sizes_[d][best];
        cl[e] = best;
        ++moved;
      }
    }
    // New block statistics from the per-entity sums of this pass.
    RowMatrix sum_d = RowMatrix::Zero(kd, static_cast<Eigen::Index>(others));
    RowMatrix weight_d = RowMatrix::Zero(kd, static_cast<Eigen::Index>(others));
    for (int e = 0; e < m; ++e) {
      sum_d.row(cl[e]) += s1.row(e);
      if (weighted) weight_d.row(cl[e]) += s0.row(e);
    }
    if (!weighted) {
      for (int c = 0; c < kd; ++c) weight_d.row(c) = sizes_[d][c] * cells_other.transpose();
    }
    for (std::size_t b = 0; b < others; ++b) {
      for (int c = 0; c < kd; ++c) {
        const std::size_t g = map[static_cast<std::size_t>(c) + static_cast<std::size_t>(kd) * b];
        sum_[g] = sum_d(c, static_cast<Eigen::Index>(b));
        weight_[g] = weight_d(c, static_cast<Eigen::Index>(b));
      }
    }
    update_means();
    return moved;
  }

  // Re-seeds dimension d from its entities' profiles, their means over the
  // current blocks of the other dimensions (averages over many cells, so
  // much less noisy than the raw slices): k-means++ among the profiles with
  // D^2 = sum_b S0(e, b) d(profile_e,b, profile_s,b) (over the blocks where
  // both have weight), the divergence that sending e to a cluster with the
  // seed's profile as block values adds to B; then every entity to its
  // nearest seed, each seed in its own cluster.
  void reseed(int d, RunHooks& hooks) {
    const int m = x_.dim[d], kd = k_[d];
    const EntitySums sums = entity_sums(d);
    const Eigen::Index nb = sums.s1.cols();
    RowMatrix weight(m, nb), profile(m, nb);
    for (int e = 0; e < m; ++e) {
      for (Eigen::Index b = 0; b < nb; ++b) {
        const double w = sums.weighted ? sums.s0(e, b) : sums.cells_other[b];
        weight(e, b) = w;
        profile(e, b) = w > 0.0 ? sums.s1(e, b) / w : 0.0;
      }
    }
    auto distance = [&](int e, int s) {
      double acc = 0.0;
      for (Eigen::Index b = 0; b < nb; ++b) {
        // blocks where either entity has no weight carry no comparison
        if (weight(e, b) > 0.0 && weight(s, b) > 0.0) {
          acc += weight(e, b) * cell_divergence(div_, profile(e, b), profile(s, b));
        }
      }
      return acc;
    };
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> d2(m, inf);
    std::vector<int> cl(m, 0), seeds;
    for (int j = 0; j < kd; ++j) {
      int pick = -1;
      if (j == 0) {
        pick = uniform_index(m, hooks);
      } else {
        // entities that no seed can take (an I-divergence of +inf) first
        std::vector<int> unreachable;
        double total = 0.0;
        for (int e = 0; e < m; ++e) {
          if (std::isinf(d2[e])) unreachable.push_back(e);
          else total += d2[e];
        }
        if (!unreachable.empty()) {
          pick = unreachable[uniform_index(static_cast<int>(unreachable.size()), hooks)];
        } else if (total > 0.0) {
          pick = proportional_index(d2.data(), m, total, hooks);
        } else {
          pick = uniform_index(m, hooks);
        }
      }
      seeds.push_back(pick);
      for (int e = 0; e < m; ++e) {
        const double v = distance(e, pick);
        if (v < d2[e]) {
          d2[e] = v;
          cl[e] = j;
        }
      }
    }
    for (int j = 0; j < kd; ++j) cl[seeds[j]] = j;
    std::vector<std::vector<int>> all = cl_;
    all[d] = std::move(cl);
    reset(std::move(all));
  }

  // I(C) = sum over blocks of w_block d(C_block, E[Z]).
  double info_approx(double mean) const {
    double acc = 0.0;
    for (std::size_t g = 0; g < means_.size(); ++g) {
      if (weight_[g] > 0.0) acc += weight_[g] * cell_divergence(div_, means_[g], mean);
    }
    return acc;
  }

  const std::vector<std::vector<int>>& clusters() const { return cl_; }
  int nonempty(int d) const {
    return static_cast<int>(std::count_if(sizes_[d].begin(), sizes_[d].end(), [](int s) { return s > 0; }));
  }
  const std::vector<double>& block_weight() const { return weight_; }
  // Block means on the data's scale (the Euclidean core works on Z - shift).
  std::vector<double> block_means() const {
    std::vector<double> out(means_);
    for (double& v : out) v += shift_;
    return out;
  }

 private:
  double weight(std::size_t t) const { return x_.w ? x_.w[t] : w0_; }
  double value(std::size_t t) const { return x_.z[t] - shift_; }

  // Per entity of dimension d and block b of the others: S1 = sum w z, the
  // weight S0 = sum w (stored only for weighted data; else w0 times the
  // cells of b, `cells_other`), and `own` = sum w z^2 or sum w (z log z - z).
  struct EntitySums {
    RowMatrix s1, s0;
    Eigen::VectorXd own, cells_other;
    bool weighted = false;
  };

  EntitySums entity_sums(int d) const {
    const int m = x_.dim[d];
    const Eigen::Index others = static_cast<Eigen::Index>(product(k_) / static_cast<std::size_t>(k_[d]));
    EntitySums out;
    out.weighted = x_.w != nullptr;
    out.s1 = RowMatrix::Zero(m, others);
    if (out.weighted) out.s0 = RowMatrix::Zero(m, others);
    out.own = Eigen::VectorXd::Zero(m);
    const bool euclidean = div_ == MultiwayDivergence::euclidean;
    visit_cells(x_, cl_, k_, d, [&](int e, std::size_t b, std::size_t t) {
      const double w = weight(t), z = value(t);
      out.s1(e, static_cast<Eigen::Index>(b)) += w * z;
      if (out.weighted) out.s0(e, static_cast<Eigen::Index>(b)) += w;
      out.own[e] += w * (euclidean ? z * z : xlogx(z) - z);
    });
    if (!out.weighted) out.cells_other = w0_ * other_block_cells(d);
    return out;
  }

  static std::vector<int> count(const std::vector<int>& cl, int k) {
    std::vector<int> n(k, 0);
    for (int c : cl) ++n[c];
    return n;
  }

  // Number of cells in each block of the dimensions other than d.
  Eigen::VectorXd other_block_cells(int d) const {
    const std::size_t others = product(k_) / static_cast<std::size_t>(k_[d]);
    const std::vector<std::size_t> rad = block_radix(k_, d);
    Eigen::VectorXd cells(static_cast<Eigen::Index>(others));
    std::vector<int> tuple(k_.size(), 0);
    for (std::size_t b = 0; b < others; ++b) {
      double v = 1.0;
      for (std::size_t l = 0; l < k_.size(); ++l) {
        if (static_cast<int>(l) != d) v *= sizes_[l][tuple[l]];
      }
      cells[static_cast<Eigen::Index>(b)] = v;
      for (std::size_t l = 0; l < k_.size(); ++l) {  // odometer skipping d
        if (static_cast<int>(l) == d) continue;
        if (++tuple[l] < k_[l]) break;
        tuple[l] = 0;
      }
    }
    return cells;
  }

  // C = block sums / block weights; a block without weight (an empty
  // cluster, or zero weights) gets the overall mean, which is then on the
  // core's scale 0 for the Euclidean case and E[Z] for the I-divergence.
  void update_means() {
    double tw = 0.0, ts = 0.0;
    for (std::size_t g = 0; g < sum_.size(); ++g) {
      tw += weight_[g];
      ts += sum_[g];
    }
    const double overall = tw > 0.0 ? ts / tw : 0.0;
    means_.resize(sum_.size());
    for (std::size_t g = 0; g < sum_.size(); ++g) {
      means_[g] = weight_[g] > 0.0 ? sum_[g] / weight_[g] : overall;
    }
  }

  const MultiwayTensor& x_;
  std::vector<int> k_;
  MultiwayDivergence div_;
  double shift_, w0_;
  std::vector<std::vector<int>> cl_;
  std::vector<std::vector<int>> sizes_;
  std::vector<double> weight_, sum_, means_;
};

}  // namespace multiway_detail
}  // namespace sideclust
