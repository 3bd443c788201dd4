// Disparate (decorrelated) k-means of Jain, Meka & Dhillon (2008), as given
// in Section 12 of TR-09-12: two clusterings of the same points whose
// prototypes are pushed towards orthogonality. Minimizes
//   F = sum_i sum_{g in c1_i} |g - m1_i|^2 + sum_j sum_{g in c2_j} |g - m2_j|^2
//       + lambda sum_i sum_j (m1_i' m2_j)^2
// by exact block minimization (F never increases):
//   * prototypes of one clustering given the other's (the m1_i separate),
//   * assignments of both clusterings given the prototypes (nearest one).
// Plain C++17 + Eigen; randomness and interrupts come from RunHooks.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "common/run_hooks.h"
#include "common/seeding.h"

namespace sideclust {

struct DisparateParams {
  int k1 = 2, k2 = 2;
  double lambda = 0.0;
  int max_iter = 100;
  int restarts = 10;
  // Alternating prototype updates between two reassignments stop when no
  // coordinate moves by more than proto_tol * (largest |coordinate| of x),
  // or after max_inner rounds. Newton steps on all prototypes at once speed
  // this up when there are at most max_newton of them (coordinates).
  double proto_tol = 1e-12;
  int max_inner = 1000;
  int max_newton = 400;
  SeedInit init = SeedInit::kmeanspp;
  Eigen::MatrixXd start1, start2;  // p x k1, p x k2 (centred coordinates)
};

struct DisparateResult {
  std::vector<int> cluster1, cluster2;  // 0-based
  Eigen::MatrixXd centres1, centres2;   // p x k1, p x k2
  std::vector<double> objective;        // F after every iteration
  double within1 = 0.0, within2 = 0.0, penalty = 0.0;
  int iterations = 0;
  bool converged = false;
  int inner_rounds = 0;    // prototype rounds over all iterations
  int newton_steps = 0;    // accepted Newton steps over all iterations
};

namespace disparate {

// Nearest column of m (p x k) to every column of x; squared distances in d.
// Ties go to the lowest index, as in stats::kmeans.
inline int assign_nearest(const Eigen::Ref<const Eigen::MatrixXd>& x, const Eigen::MatrixXd& m,
                          std::vector<int>& z, std::vector<double>* d = nullptr) {
  const int n = static_cast<int>(x.cols()), k = static_cast<int>(m.cols());
  const int p = static_cast<int>(x.rows());
  int changed = 0;
  if (d != nullptr) d->assign(n, 0.0);
  for (int i = 0; i < n; ++i) {
    const double* xi = x.col(i).data();
    int best = 0;
    double best_d = std::numeric_limits<double>::infinity();
    for (int c = 0; c < k; ++c) {
      const double* mc = m.col(c).data();
      double s = 0.0;
      for (int a = 0; a < p; ++a) {
        const double t = xi[a] - mc[a];
        s += t * t;
      }
      if (s < best_d) {
        best_d = s;
        best = c;
      }
    }
    if (z[i] != best) {
      z[i] = best;
      ++changed;
    }
    if (d != nullptr) (*d)[i] = best_d;
  }
  return changed;
}

// Cluster sums (p x k) and sizes of assignment z.
inline void cluster_sums(const Eigen::Ref<const Eigen::MatrixXd>& x, const std::vector<int>& z,
                         int k, Eigen::MatrixXd& sums, std::vector<double>& size) {
  sums.setZero(x.rows(), k);
  size.assign(k, 0.0);
  for (int i = 0; i < static_cast<int>(x.cols()); ++i) {
    sums.col(z[i]) += x.col(i);
    size[z[i]] += 1.0;
  }
}

inline double within_ss(const Eigen::Ref<const Eigen::MatrixXd>& x, const Eigen::MatrixXd& m,
                        const std::vector<int>& z) {
  double s = 0.0;
  for (int i = 0; i < static_cast<int>(x.cols()); ++i) s += (x.col(i) - m.col(z[i])).squaredNorm();
  return s;
}

inline double penalty(const Eigen::MatrixXd& m1, const Eigen::MatrixXd& m2, double lambda) {
  if (lambda == 0.0) return 0.0;
  return lambda * (m1.transpose() * m2).squaredNorm();
}

// Exact minimizer of F over the prototypes m (p x k) of one clustering,
// given its cluster sums and sizes and the other clustering's prototypes
// other (p x s). Setting the gradient of F in m_i to zero gives
//   (|c_i| I + lambda M M') m_i = sum of c_i's points,     M = other,
// i.e. m_i = (I + lambda / |c_i| M M')^{-1} (mean of c_i). (TR-09-12 prints
// m_i on the right-hand side; it is the cluster's sample mean.) The m_i
// separate, and all share M M', which has rank <= s: with the eigen-
// decomposition M'M = V diag(e) V' and W = M V, Woodbury's identity gives
//   (c I + lambda M M')^{-1} b = (b - lambda W diag(1 / (c + lambda e)) W' b) / c,
// so one s x s eigendecomposition per update and O(p s) per prototype.
// An empty cluster (c = 0) contributes only lambda |M' m_i|^2, minimized by
// every m_i orthogonal to the columns of M (by every m_i if lambda = 0); it
// moves to the nearest such minimizer: its projection onto the orthogonal
// complement of span(M) (or it stays, if lambda = 0). This keeps every
// update an exact block minimizer, so F never increases.
inline void update_prototypes(const Eigen::MatrixXd& sums, const std::vector<double>& size,
                              const Eigen::MatrixXd& other, double lambda, Eigen::MatrixXd& m) {
  const int k = static_cast<int>(sums.cols());
  if (lambda == 0.0) {
    for (int c = 0; c < k; ++c) {
      if (size[c] > 0.0) m.col(c) = sums.col(c) / size[c];
    }
    return;
  }
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(other.transpose() * other);
  if (eig.info() != Eigen::Success) throw std::runtime_error("eigendecomposition failed");
  const Eigen::VectorXd e = eig.eigenvalues().cwiseMax(0.0);
  const Eigen::MatrixXd w = other * eig.eigenvectors();
  // Orthonormal basis of span(M) for the projection of empty clusters:
  // the columns of W with a clearly positive eigenvalue, scaled to unit norm.
  const double emax = e.size() > 0 ? e.maxCoeff() : 0.0;
  for (int c = 0; c < k; ++c) {
    if (size[c] > 0.0) {
      const Eigen::VectorXd b = sums.col(c);
      const Eigen::VectorXd t =
          (w.transpose() * b).cwiseQuotient((size[c] + lambda * e.array()).matrix());
      m.col(c) = (b - lambda * (w * t)) / size[c];
    } else {
      for (int a = 0; a < static_cast<int>(e.size()); ++a) {
        if (e[a] > 1e-12 * emax && emax > 0.0) {
          const double coef = w.col(a).dot(m.col(c)) / e[a];
          m.col(c) -= coef * w.col(a);
        }
      }
    }
  }
}

// The part of F that depends on the prototypes given the assignments (cluster
// sums s and sizes n): sum_i (n_i |m_i|^2 - 2 m_i' s_i) + ... + penalty.
inline double prototype_objective(const Eigen::MatrixXd& s1, const std::vector<double>& n1,
                                  const Eigen::MatrixXd& s2, const std::vector<double>& n2,
                                  const Eigen::MatrixXd& m1, const Eigen::MatrixXd& m2,
                                  double lambda) {
  double f = penalty(m1, m2, lambda);
  for (int c = 0; c < static_cast<int>(m1.cols()); ++c) {
    f += n1[c] * m1.col(c).squaredNorm() - 2.0 * m1.col(c).dot(s1.col(c));
  }
  for (int c = 0; c < static_cast<int>(m2.cols()); ++c) {
    f += n2[c] * m2.col(c).squaredNorm() - 2.0 * m2.col(c).dot(s2.col(c));
  }
  return f;
}

// One Newton step on all prototypes jointly (the alternating updates zig-zag
// slowly when lambda is large and the two sets cannot be made orthogonal).
// With theta = (m1_1, .., m1_r, m2_1, .., m2_s), half the gradient is
//   n_i m1_i - s1_i + lambda M2 M2' m1_i   (and symmetrically),
// and half the Hessian has blocks n_i I + lambda M2 M2' on the diagonal and
//   lambda ((m1_i' m2_j) I + m2_j m1_i')
// between m1_i and m2_j. The step is taken only when that Hessian is
// positive definite and, after halving at most 20 times, it lowers the
// objective; so F still never increases. Returns whether a step was taken.
inline bool newton_step(const Eigen::MatrixXd& s1, const std::vector<double>& n1,
                        const Eigen::MatrixXd& s2, const std::vector<double>& n2, double lambda,
                        Eigen::MatrixXd& m1, Eigen::MatrixXd& m2) {
  const int p = static_cast<int>(m1.rows());
  const int k1 = static_cast<int>(m1.cols()), k2 = static_cast<int>(m2.cols());
  const int dim = p * (k1 + k2);
  for (double v : n1) if (v <= 0.0) return false;  // empty clusters: no curvature
  for (double v : n2) if (v <= 0.0) return false;
  const Eigen::MatrixXd g1 = lambda * (m2 * (m2.transpose() * m1)) - s1;
  const Eigen::MatrixXd g2 = lambda * (m1 * (m1.transpose() * m2)) - s2;
  Eigen::VectorXd grad(dim);
  for (int c = 0; c < k1; ++c) grad.segment(c * p, p) = g1.col(c) + n1[c] * m1.col(c);
  for (int c = 0; c < k2; ++c) grad.segment((k1 + c) * p, p) = g2.col(c) + n2[c] * m2.col(c);
  Eigen::MatrixXd h = Eigen::MatrixXd::Zero(dim, dim);
  const Eigen::MatrixXd a1 = lambda * m2 * m2.transpose();
  const Eigen::MatrixXd a2 = lambda * m1 * m1.transpose();
  const Eigen::MatrixXd id = Eigen::MatrixXd::Identity(p, p);
  for (int c = 0; c < k1; ++c) h.block(c * p, c * p, p, p) = a1 + n1[c] * id;
  for (int c = 0; c < k2; ++c) h.block((k1 + c) * p, (k1 + c) * p, p, p) = a2 + n2[c] * id;
  for (int i = 0; i < k1; ++i) {
    for (int j = 0; j < k2; ++j) {
      const Eigen::MatrixXd b =
          lambda * (m1.col(i).dot(m2.col(j)) * id + m2.col(j) * m1.col(i).transpose());
      h.block(i * p, (k1 + j) * p, p, p) = b;
      h.block((k1 + j) * p, i * p, p, p) = b.transpose();
    }
  }
  Eigen::LLT<Eigen::MatrixXd> llt(h);
  if (llt.info() != Eigen::Success) return false;
  const Eigen::VectorXd step = llt.solve(-grad);
  if (!step.allFinite()) return false;
  const double f0 = prototype_objective(s1, n1, s2, n2, m1, m2, lambda);
  double t = 1.0;
  for (int halving = 0; halving <= 20; ++halving, t *= 0.5) {
    Eigen::MatrixXd c1 = m1, c2 = m2;
    for (int c = 0; c < k1; ++c) c1.col(c) += t * step.segment(c * p, p);
    for (int c = 0; c < k2; ++c) c2.col(c) += t * step.segment((k1 + c) * p, p);
    if (prototype_objective(s1, n1, s2, n2, c1, c2, lambda) < f0) {
      m1.swap(c1);
      m2.swap(c2);
      return true;
    }
  }
  return false;
}

}  // namespace disparate

// One run from the prototypes m1, m2 (p x k1, p x k2, centred coordinates).
inline DisparateResult disparate_kmeans_run(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                            Eigen::MatrixXd m1, Eigen::MatrixXd m2,
                                            const DisparateParams& par, RunHooks& hooks) {
  using namespace disparate;
  const int n = static_cast<int>(x.cols());
  const int k1 = static_cast<int>(m1.cols()), k2 = static_cast<int>(m2.cols());
  const double lambda = par.lambda;
  const double scale = std::max(x.cwiseAbs().maxCoeff(), 1e-300);
  DisparateResult res;
  std::vector<int> z1(n, -1), z2(n, -1);
  assign_nearest(x, m1, z1);
  assign_nearest(x, m2, z2);
  Eigen::MatrixXd s1, s2;
  std::vector<double> n1, n2, d1, d2;
  for (int iter = 0; iter < par.max_iter; ++iter) {
    // Prototypes given the assignments: alternate the two exact block
    // updates until they settle (with lambda = 0 one round is exact).
    cluster_sums(x, z1, k1, s1, n1);
    cluster_sums(x, z2, k2, s2, n2);
    for (int round = 0; round < par.max_inner; ++round) {
      const Eigen::MatrixXd old1 = m1, old2 = m2;
      update_prototypes(s1, n1, m2, lambda, m1);
      update_prototypes(s2, n2, m1, lambda, m2);
      ++res.inner_rounds;
      const double move = std::max((m1 - old1).cwiseAbs().maxCoeff(),
                                   (m2 - old2).cwiseAbs().maxCoeff());
      if (lambda == 0.0 || move <= par.proto_tol * scale) break;
      if (round >= 1 && (k1 + k2) * static_cast<int>(x.rows()) <= par.max_newton &&
          newton_step(s1, n1, s2, n2, lambda, m1, m2)) {
        ++res.newton_steps;
      }
    }
    const int changed = assign_nearest(x, m1, z1, &d1) + assign_nearest(x, m2, z2, &d2);
    double obj = penalty(m1, m2, lambda);
    for (int i = 0; i < n; ++i) obj += d1[i] + d2[i];
    res.objective.push_back(obj);
    res.iterations = iter + 1;
    hooks.check_interrupt();
    hooks.on_sweep(iter + 1, k1, obj);
    if (changed == 0) {
      res.converged = true;
      break;
    }
  }
  res.within1 = within_ss(x, m1, z1);
  res.within2 = within_ss(x, m2, z2);
  res.penalty = penalty(m1, m2, lambda);
  res.cluster1 = std::move(z1);
  res.cluster2 = std::move(z2);
  res.centres1 = std::move(m1);
  res.centres2 = std::move(m2);
  return res;
}

// Best (lowest final F) of par.restarts runs from independent seeds, or one
// run from par.start1 / par.start2.
inline DisparateResult disparate_kmeans(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                        const DisparateParams& par, RunHooks& hooks) {
  if (x.cols() < 1 || par.k1 < 1 || par.k2 < 1 || par.k1 > x.cols() || par.k2 > x.cols()) {
    throw std::invalid_argument("disparate_kmeans: need 1 <= k <= n");
  }
  if (par.init == SeedInit::start) {
    if (par.start1.rows() != x.rows() || par.start2.rows() != x.rows() ||
        par.start1.cols() != par.k1 || par.start2.cols() != par.k2) {
      throw std::invalid_argument("disparate_kmeans: start prototypes have the wrong shape");
    }
    return disparate_kmeans_run(x, par.start1, par.start2, par, hooks);
  }
  DisparateResult best;
  bool have = false;
  for (int r = 0; r < std::max(1, par.restarts); ++r) {
    Eigen::MatrixXd m1 = draw_prototypes(x, par.k1, par.init, hooks);
    Eigen::MatrixXd m2 = draw_prototypes(x, par.k2, par.init, hooks);
    DisparateResult res = disparate_kmeans_run(x, std::move(m1), std::move(m2), par, hooks);
    const double f = res.within1 + res.within2 + res.penalty;
    if (!have || f < best.within1 + best.within2 + best.penalty) {
      best = std::move(res);
      have = true;
    }
  }
  return best;
}

}  // namespace sideclust
