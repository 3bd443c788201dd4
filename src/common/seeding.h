// Seed points for the prototype methods (CEC, CVQE, disparate k-means):
// k-means++ and uniformly drawn points among the columns of a p x n matrix
// (or any points with a distance class like ColumnDistances), drawn with R's
// generator through RunHooks.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include "common/run_hooks.h"

namespace sideclust {

// How a prototype method's runs start: seeds drawn by k-means++, seed points
// drawn uniformly, or prototypes given by the user.
enum class SeedInit { kmeanspp, random, start };

inline int uniform_index(int n, RunHooks& hooks) {
  return std::min(n - 1, static_cast<int>(hooks.uniform() * n));
}

// An index drawn with probability proportional to w[i] (w >= 0, total =
// sum of w > 0); entries with w[i] = 0 are never drawn.
inline int proportional_index(const double* w, int n, double total, RunHooks& hooks) {
  double u = hooks.uniform() * total;
  int pick = -1;
  for (int i = 0; i < n && u >= 0.0; ++i) {
    if (!(w[i] > 0.0)) continue;
    pick = i;
    u -= w[i];
  }
  return pick;
}

// Squared Euclidean distances between the columns of a p x n matrix, in the
// shape the seeding below reads them: from(c) gives the function i -> the
// squared distance between points i and c.
class ColumnDistances {
 public:
  explicit ColumnDistances(const Eigen::Ref<const Eigen::MatrixXd>& x) : x_(x) {}
  int n() const { return static_cast<int>(x_.cols()); }
  std::size_t pass_work() const { return static_cast<std::size_t>(x_.cols()) * x_.rows(); }
  auto from(int c) const {
    return [this, c](int i) { return (x_.col(i) - x_.col(c)).squaredNorm(); };
  }

 private:
  const Eigen::Ref<const Eigen::MatrixXd> x_;
};

// k-means++ (Arthur & Vassilvitskii 2007): the first seed uniform, each
// further one with probability proportional to its squared distance to the
// nearest seed so far, so a point equal to a seed is never drawn again. Only
// when every point equals a seed (fewer distinct points than k) is a seed
// drawn uniformly, i.e. repeated. With trials > 1 it is greedy k-means++
// (suggested in the same paper; analysed by Grunau, Ozudogru, Rozhon &
// Tetek 2023): each further seed is the best of `trials` candidates drawn
// that way, the one leaving the smallest sum of squared distances to the
// nearest seed. trials = 1 draws exactly the plain k-means++ seeds.
// `dist` is ColumnDistances or any class of the same shape (dense or sparse
// points, common/row_distances.h).
template <class Dist>
std::vector<int> kmeanspp_seeds(Dist& dist, int k, RunHooks& hooks, int trials = 1) {
  const int n = dist.n();
  std::vector<int> seeds;
  seeds.reserve(k);
  Eigen::VectorXd d2 = Eigen::VectorXd::Constant(n, std::numeric_limits<double>::infinity());
  Eigen::VectorXd cand, best_d2;
  if (trials > 1) {
    cand.resize(n);
    best_d2.resize(n);
  }
  for (int j = 0; j < k; ++j) {
    const double total = j == 0 ? 0.0 : d2.sum();
    const int tries = total > 0.0 ? std::max(1, trials) : 1;
    int pick = -1;
    double pick_sum = std::numeric_limits<double>::infinity();
    for (int t = 0; t < tries; ++t) {
      const int c = total > 0.0 ? proportional_index(d2.data(), n, total, hooks)
                                : uniform_index(n, hooks);
      hooks.poll_interrupt(dist.pass_work());  // a pass over x
      if (tries == 1) {
        pick = c;
        break;
      }
      const auto to_c = dist.from(c);
      double sum = 0.0;
      for (int i = 0; i < n; ++i) {
        cand[i] = std::min(d2[i], to_c(i));
        sum += cand[i];
      }
      if (sum < pick_sum) {  // ties keep the earlier candidate
        pick_sum = sum;
        pick = c;
        best_d2.swap(cand);
      }
    }
    seeds.push_back(pick);
    if (tries == 1) {
      const auto to_pick = dist.from(pick);
      for (int i = 0; i < n; ++i) d2[i] = std::min(d2[i], to_pick(i));
    } else {
      d2.swap(best_d2);
    }
  }
  return seeds;
}

inline std::vector<int> kmeanspp_indices(const Eigen::Ref<const Eigen::MatrixXd>& x, int k,
                                         RunHooks& hooks, int trials = 1) {
  ColumnDistances dist(x);
  return kmeanspp_seeds(dist, k, hooks, trials);
}

// The number of candidates per seed of greedy k-means++: 2 + floor(log k),
// as in scikit-learn's k-means++ (Pedregosa et al. 2011).
inline int greedy_kmeanspp_trials(int k) {
  return 2 + static_cast<int>(std::floor(std::log(static_cast<double>(std::max(1, k)))));
}

// k points drawn uniformly without replacement (partial Fisher-Yates),
// skipping points equal to a seed already drawn as long as there are other
// points left.
template <class Dist>
std::vector<int> random_seeds(Dist& dist, int k, RunHooks& hooks) {
  const int n = dist.n();
  std::vector<int> order(n), seeds, repeats;
  for (int i = 0; i < n; ++i) order[i] = i;
  for (int t = 0; t < n && static_cast<int>(seeds.size()) < k; ++t) {
    std::swap(order[t], order[t + uniform_index(n - t, hooks)]);
    const int c = order[t];
    const auto to_c = dist.from(c);
    const bool repeat =
        std::any_of(seeds.begin(), seeds.end(), [&](int s) { return to_c(s) == 0.0; });
    (repeat ? repeats : seeds).push_back(c);
  }
  for (std::size_t r = 0; static_cast<int>(seeds.size()) < k && r < repeats.size(); ++r) {
    seeds.push_back(repeats[r]);
  }
  return seeds;
}

inline std::vector<int> random_indices(const Eigen::Ref<const Eigen::MatrixXd>& x, int k,
                                       RunHooks& hooks) {
  ColumnDistances dist(x);
  return random_seeds(dist, k, hooks);
}

// The seed points as the columns of a p x k matrix.
inline Eigen::MatrixXd seed_columns(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                    const std::vector<int>& seeds) {
  Eigen::MatrixXd m(x.rows(), static_cast<Eigen::Index>(seeds.size()));
  for (std::size_t j = 0; j < seeds.size(); ++j) m.col(j) = x.col(seeds[j]);
  return m;
}

// k seed prototypes (p x k) drawn by k-means++ or uniformly.
inline Eigen::MatrixXd draw_prototypes(const Eigen::Ref<const Eigen::MatrixXd>& x, int k,
                                       SeedInit init, RunHooks& hooks) {
  return seed_columns(x, init == SeedInit::random ? random_indices(x, k, hooks)
                                                  : kmeanspp_indices(x, k, hooks));
}

}  // namespace sideclust
