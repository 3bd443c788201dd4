// Eigenvalues of a symmetric rank-one modification diag(d) + rho z z^T in
// O(p^2), from the secular equation 1 + rho sum_j z_j^2 / (d_j - mu) = 0
// (Golub 1973; Bunch, Nielsen & Sorensen 1978): the eigenvalues interlace
// with d, one root per interval. Used by the "eigenvalues" family of CEC,
// whose cost needs the spectrum of a cluster's scatter after a candidate
// move: with the scatter's eigen-decomposition S = V diag(d) V^T kept from
// the last move, S + c x x^T has the eigenvalues of diag(d) + c (V^T x)(V^T x)^T.
// Plain C++17 + Eigen.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace sideclust {

// Workspace, so that repeated calls do not allocate.
struct RankOneEigenWork {
  std::vector<double> pole, weight;
};

namespace rank_one_detail {

// The root of 1 + sum_j w_j / (pole_j - mu) in (pole[i], pole[i + 1]) (or
// (pole[i], pole[i] + sum w) for the last), all w > 0 and poles strictly
// increasing. Newton on h(t) = (t - origin) f(t), which has no pole at the
// origin (the nearer end of the interval), safeguarded by bisection.
inline double secular_root(const std::vector<double>& pole, const std::vector<double>& w,
                           std::size_t i, double wsum) {
  const std::size_t m = pole.size();
  const bool last = i + 1 == m;
  const double lo0 = pole[i], hi0 = last ? pole[i] + wsum : pole[i + 1];
  auto f_at = [&](double mu) {
    double s = 1.0;
    for (std::size_t j = 0; j < m; ++j) s += w[j] / (pole[j] - mu);
    return s;
  };
  // which half holds the root (f increases from -inf at the left pole)
  const double mid = 0.5 * (lo0 + hi0);
  const bool left_half = f_at(mid) >= 0.0;
  const std::size_t o = (last || left_half) ? i : i + 1;  // the last has no right pole
  const double origin = pole[o];
  // t = mu - origin, bracket in t
  double lo = lo0 - origin, hi = hi0 - origin;
  if (left_half) hi = mid - origin; else lo = mid - origin;
  double t = 0.5 * (lo + hi);
  const double eps = std::numeric_limits<double>::epsilon();
  for (int it = 0; it < 100; ++it) {
    // h(t) = t (1 + sum_{j != o} w_j / (D_j - t)) - w_o with D_j = pole_j - origin
    double g = 1.0, dg = 0.0;
    for (std::size_t j = 0; j < m; ++j) {
      if (j == o) continue;
      const double r = 1.0 / ((pole[j] - origin) - t);
      g += w[j] * r;
      dg += w[j] * r * r;
    }
    const double h = t * g - w[o];
    // h is increasing in t on the bracket when o is the left pole, and
    // decreasing when it is the right one (t < 0 there): keep the bracket by sign
    const bool left = o == i;
    if (h == 0.0) return origin + t;
    if ((h > 0.0) == left) hi = t; else lo = t;
    const double dh = g + t * dg;
    double next = t - h / dh;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - t) <= 2.0 * eps * std::abs(next) || hi - lo <= 2.0 * eps * std::abs(t)) {
      return origin + next;
    }
    t = next;
  }
  return origin + t;
}

// Eigenvalues (ascending) of diag(d) + rho z z^T for rho > 0, d ascending.
inline void positive_update(const Eigen::VectorXd& d, const Eigen::VectorXd& z, double rho,
                            Eigen::VectorXd& mu, RankOneEigenWork& work) {
  const int p = static_cast<int>(d.size());
  const double zz = rho * z.squaredNorm();
  const double scale = std::max(std::abs(d[0]), std::abs(d[p - 1])) + zz;
  const double tol = 8.0 * std::numeric_limits<double>::epsilon() * scale;
  work.pole.clear();
  work.weight.clear();
  int n_fixed = 0;
  mu.resize(p);
  // deflation: a negligible weight keeps its d_j; (nearly) equal poles merge
  // their weights into the last of them and keep the others
  for (int j = 0; j < p; ++j) {
    const double w = rho * z[j] * z[j];
    if (w <= tol) {
      mu[n_fixed++] = d[j];
      continue;
    }
    if (!work.pole.empty() && d[j] - work.pole.back() <= tol) {
      mu[n_fixed++] = work.pole.back();
      work.pole.back() = d[j];
      work.weight.back() += w;
      continue;
    }
    work.pole.push_back(d[j]);
    work.weight.push_back(w);
  }
  double wsum = 0.0;
  for (double w : work.weight) wsum += w;
  for (std::size_t i = 0; i < work.pole.size(); ++i) {
    mu[n_fixed + static_cast<int>(i)] = secular_root(work.pole, work.weight, i, wsum);
  }
  std::sort(mu.data(), mu.data() + p);
}

}  // namespace rank_one_detail

// Eigenvalues, ascending, of diag(d) + rho z z^T with d ascending; mu is
// resized to p. rho < 0 is the update of -diag(d) with -rho, negated.
inline void rank_one_eigenvalues(const Eigen::VectorXd& d, const Eigen::VectorXd& z, double rho,
                                 Eigen::VectorXd& mu, RankOneEigenWork& work,
                                 Eigen::VectorXd& scratch_d, Eigen::VectorXd& scratch_z) {
  if (rho == 0.0) {
    mu = d;
    return;
  }
  if (rho > 0.0) {
    rank_one_detail::positive_update(d, z, rho, mu, work);
    return;
  }
  scratch_d = -d.reverse();
  scratch_z = z.reverse();
  rank_one_detail::positive_update(scratch_d, scratch_z, -rho, mu, work);
  mu = (-mu).reverse().eval();
}

}  // namespace sideclust
