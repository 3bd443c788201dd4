// Multiway clustering with Bregman divergences (Banerjee, Basu & Merugu
// 2007) in the block multiway clustering (BMC) basis: a tensor Z with cell
// weights w (a probability measure) is approximated by C, constant on the
// blocks of the clusterings rho_1..rho_n of its dimensions, C = E_w[Z | block]
// (the MBI solution for this basis, for every Bregman divergence). The loss
//   B = E_w[d(Z, C)] = I(Z) - I(C)
// never increases under the two steps: each dimension's entities move, with
// C fixed, to the cluster whose block values give the lowest divergence; then
// C is re-estimated as the block means.
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
#include <stdexcept>
#include <vector>

#include "info_sparse.h"
#include "run_hooks.h"
#include "seeding.h"

namespace sideclust {

enum class MultiwayDivergence { euclidean, idivergence };
// How a run starts: each dimension's entities in a uniformly random partition
// (the survey's step 1), or sent to the nearest of k-means++ seeds among its
// slices (squared Euclidean distance between the unfolded slices).
enum class MultiwayInit { random, kmeanspp };

struct MultiwayParams {
  std::vector<int> k;  // clusters per dimension
  MultiwayDivergence divergence = MultiwayDivergence::euclidean;
  MultiwayInit init = MultiwayInit::kmeanspp;
  int max_iter = 100;
  int restarts = 1;
  std::vector<std::vector<int>> start;  // 0-based, first run only; empty = random
};

struct MultiwayResult {
  std::vector<std::vector<int>> clusters;  // 0-based, per dimension
  std::vector<double> block_means;         // prod(k) blocks, first dimension fastest
  std::vector<double> block_weight;        // w summed over each block
  std::vector<double> objective;           // B at the start and after every iteration
  std::vector<double> restart_objective;
  double objective_final = std::numeric_limits<double>::infinity();
  double info_data = 0.0, info_approx = 0.0;  // I(Z), I(C)
  int iterations = 0;
  bool converged = false;
};

// The data: N = prod(dim) values, first dimension fastest (R's layout), and
// optional weights (empty: uniform 1 / N), already normalized to sum 1.
struct MultiwayTensor {
  const double* z = nullptr;
  const double* w = nullptr;  // nullptr: uniform
  std::vector<int> dim;
  std::size_t n_cells() const {
    std::size_t n = 1;
    for (int m : dim) n *= static_cast<std::size_t>(m);
    return n;
  }
};

namespace multiway_detail {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// d(z, c) of one cell (c > 0 where z > 0 for the I-divergence, else +inf).
inline double cell_divergence(MultiwayDivergence div, double z, double c) {
  if (div == MultiwayDivergence::euclidean) return (z - c) * (z - c);
  if (z > 0.0) return c > 0.0 ? z * std::log(z / c) - z + c : std::numeric_limits<double>::infinity();
  return c;
}

// Mixed radix of the blocks of all dimensions but `skip` (-1: none), first
// dimension fastest; 0 for `skip`.
inline std::vector<std::size_t> block_radix(const std::vector<int>& k, int skip) {
  std::vector<std::size_t> rad(k.size(), 0);
  std::size_t r = 1;
  for (std::size_t l = 0; l < k.size(); ++l) {
    if (static_cast<int>(l) == skip) continue;
    rad[l] = r;
    r *= static_cast<std::size_t>(k[l]);
  }
  return rad;
}

inline std::size_t product(const std::vector<int>& v) {
  std::size_t p = 1;
  for (int x : v) p *= static_cast<std::size_t>(x);
  return p;
}

// Calls f(e, b, t) for every cell t, with e its index along dimension d and b
// its block among the other dimensions' clusters (block_radix(k, d)). The
// innermost loop runs along the first dimension, so z is read in order.
template <class F>
void visit_cells(const MultiwayTensor& x, const std::vector<std::vector<int>>& cl,
                 const std::vector<int>& k, int d, F&& f) {
  const int n = static_cast<int>(x.dim.size());
  const std::vector<std::size_t> rad = block_radix(k, d);
  const int m0 = x.dim[0];
  const std::size_t fibres = x.n_cells() / static_cast<std::size_t>(m0);
  std::vector<int> idx(n, 0);  // indices of dimensions 1..n-1 of the fibre
  const int* c0 = cl[0].data();
  std::size_t t = 0;
  for (std::size_t fib = 0; fib < fibres; ++fib) {
    std::size_t base = 0;
    for (int l = 1; l < n; ++l) {
      if (l != d) base += static_cast<std::size_t>(cl[l][idx[l]]) * rad[l];
    }
    if (d == 0) {
      for (int x0 = 0; x0 < m0; ++x0, ++t) f(x0, base, t);
    } else {
      const int e = idx[d];
      const std::size_t r0 = rad[0];
      for (int x0 = 0; x0 < m0; ++x0, ++t) f(e, base + static_cast<std::size_t>(c0[x0]) * r0, t);
    }
    for (int l = 1; l < n; ++l) {  // odometer over dimensions 1..n-1
      if (++idx[l] < x.dim[l]) break;
      idx[l] = 0;
    }
  }
}

// Position in the full block tensor (first dimension fastest) of block
// (c, b): cluster c of dimension d, block b of the others.
inline std::vector<std::size_t> block_map(const std::vector<int>& k, int d) {
  const std::size_t total = product(k);
  const std::vector<std::size_t> rad = block_radix(k, d);
  std::vector<std::size_t> map(total);
  std::vector<int> tuple(k.size(), 0);
  for (std::size_t g = 0; g < total; ++g) {
    std::size_t b = 0;
    for (std::size_t l = 0; l < k.size(); ++l) b += static_cast<std::size_t>(tuple[l]) * rad[l];
    map[static_cast<std::size_t>(tuple[d]) + static_cast<std::size_t>(k[d]) * b] = g;
    for (std::size_t l = 0; l < k.size(); ++l) {
      if (++tuple[l] < k[l]) break;
      tuple[l] = 0;
    }
  }
  return map;
}

// The slices of dimension d as the columns of an (N / m_d) x m_d matrix
// (the mode-d unfolding); cells of weight 0 hold `fill`.
inline Eigen::MatrixXd unfold(const MultiwayTensor& x, int d, double fill) {
  std::size_t stride = 1;
  for (int l = 0; l < d; ++l) stride *= static_cast<std::size_t>(x.dim[l]);
  const int m = x.dim[d];
  const std::size_t outer = x.n_cells() / (stride * static_cast<std::size_t>(m));
  Eigen::MatrixXd u(static_cast<Eigen::Index>(stride * outer), m);
  std::size_t t = 0;
  for (std::size_t hi = 0; hi < outer; ++hi) {
    for (int e = 0; e < m; ++e) {
      for (std::size_t lo = 0; lo < stride; ++lo, ++t) {
        const bool kept = x.w == nullptr || x.w[t] > 0.0;
        u(static_cast<Eigen::Index>(lo + stride * hi), e) = kept ? x.z[t] : fill;
      }
    }
  }
  return u;
}

// k-means++ seeds among the slices of dimension d, every slice in the
// cluster of its nearest seed (first of ties), each seed in its own.
inline std::vector<int> seeded_partition(const MultiwayTensor& x, int d, int k, double fill,
                                         RunHooks& hooks) {
  const Eigen::MatrixXd u = unfold(x, d, fill);
  const std::vector<int> seeds = kmeanspp_indices(u, k, hooks);
  const int m = x.dim[d];
  std::vector<int> cl(m, 0);
  Eigen::VectorXd best = Eigen::VectorXd::Constant(m, std::numeric_limits<double>::infinity());
  for (int j = 0; j < k; ++j) {
    const Eigen::VectorXd d2 = (u.colwise() - u.col(seeds[j])).colwise().squaredNorm().transpose();
    for (int e = 0; e < m; ++e) {
      if (d2[e] < best[e]) {
        best[e] = d2[e];
        cl[e] = j;
      }
    }
  }
  for (int j = 0; j < k; ++j) cl[seeds[j]] = j;
  return cl;
}

// The state of one run: clusterings, cluster sizes and block statistics.
class MultiwayState {
 public:
  MultiwayState(const MultiwayTensor& x, const MultiwayParams& par, double shift)
      : x_(x), k_(par.k), div_(par.divergence), shift_(shift),
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
    const bool weighted = x_.w != nullptr;
    RowMatrix s1 = RowMatrix::Zero(m, static_cast<Eigen::Index>(others));
    RowMatrix s0;
    if (weighted) s0 = RowMatrix::Zero(m, static_cast<Eigen::Index>(others));
    Eigen::VectorXd own = Eigen::VectorXd::Zero(m);  // sum w z^2 or sum w (z log z - z)
    visit_cells(x_, cl_, k_, d, [&](int e, std::size_t b, std::size_t t) {
      const double w = weight(t), z = value(t);
      s1(e, static_cast<Eigen::Index>(b)) += w * z;
      if (weighted) s0(e, static_cast<Eigen::Index>(b)) += w;
      own[e] += w * (div_ == MultiwayDivergence::euclidean ? z * z : xlogx(z) - z);
    });
    // The weight of entity e in block b: S0, or w0 times the cells of b.
    Eigen::VectorXd cells_other(static_cast<Eigen::Index>(others));
    if (!weighted) cells_other = w0_ * other_block_cells(d);

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

// E_w[Z].
inline double multiway_mean(const MultiwayTensor& x) {
  const std::size_t n = x.n_cells();
  double acc = 0.0;
  for (std::size_t t = 0; t < n; ++t) acc += (x.w ? x.w[t] : 1.0 / static_cast<double>(n)) * x.z[t];
  return acc;
}

// I(Z) = E_w[d(Z, E[Z])].
inline double multiway_info(const MultiwayTensor& x, MultiwayDivergence div, double mean) {
  const std::size_t n = x.n_cells();
  double acc = 0.0;
  for (std::size_t t = 0; t < n; ++t) {
    const double w = x.w ? x.w[t] : 1.0 / static_cast<double>(n);
    if (w > 0.0) acc += w * multiway_detail::cell_divergence(div, x.z[t], mean);
  }
  return acc;
}

inline MultiwayResult multiway_fit(const MultiwayTensor& x, const MultiwayParams& par,
                                   RunHooks& hooks) {
  const std::size_t n_dims = x.dim.size();
  if (n_dims < 2 || par.k.size() != n_dims) throw std::invalid_argument("k needs one value per dimension");
  for (std::size_t l = 0; l < n_dims; ++l) {
    if (par.k[l] < 1 || par.k[l] > x.dim[l]) throw std::invalid_argument("k out of range");
  }
  if (!par.start.empty()) {
    if (par.start.size() != n_dims) throw std::invalid_argument("start needs one partition per dimension");
    for (std::size_t l = 0; l < n_dims; ++l) {
      if (static_cast<int>(par.start[l].size()) != x.dim[l]) throw std::invalid_argument("start has the wrong length");
      for (int c : par.start[l]) {
        if (c < 0 || c >= par.k[l]) throw std::invalid_argument("start out of range");
      }
    }
  }
  const double mean = multiway_mean(x);
  // The Euclidean core works on Z - E[Z]: same divergences, smaller numbers.
  const double shift = par.divergence == MultiwayDivergence::euclidean ? mean : 0.0;
  MultiwayResult best;
  best.info_data = multiway_info(x, par.divergence, mean);
  auto uniform = [&hooks]() { return hooks.uniform(); };
  for (int run = 0; run < par.restarts; ++run) {
    std::vector<std::vector<int>> start(n_dims);
    for (std::size_t l = 0; l < n_dims; ++l) {
      if (run == 0 && !par.start.empty()) {
        start[l] = par.start[l];
      } else if (par.init == MultiwayInit::kmeanspp) {
        start[l] = multiway_detail::seeded_partition(x, static_cast<int>(l), par.k[l], mean, hooks);
      } else {
        start[l] = random_partition(x.dim[l], par.k[l], uniform);
      }
    }
    multiway_detail::MultiwayState state(x, par, shift);
    state.reset(std::move(start));
    std::vector<double> trace{state.objective()};
    int it = 0;
    bool converged = false;
    while (it < par.max_iter) {
      long long moved = 0;
      for (std::size_t l = 0; l < n_dims; ++l) moved += state.reassign(static_cast<int>(l));
      trace.push_back(state.objective());
      ++it;
      hooks.check_interrupt();
      hooks.on_sweep(it, state.nonempty(0), trace.back());
      if (moved == 0) {
        converged = true;
        break;
      }
    }
    best.restart_objective.push_back(trace.back());
    if (trace.back() < best.objective_final) {
      best.objective_final = trace.back();
      best.objective = trace;
      best.clusters = state.clusters();
      best.block_means = state.block_means();
      best.block_weight = state.block_weight();
      best.info_approx = state.info_approx(mean - shift);
      best.iterations = it;
      best.converged = converged;
    }
  }
  return best;
}

}  // namespace sideclust
