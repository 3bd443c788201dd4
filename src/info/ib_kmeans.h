// k-means as an information bottleneck (Still, Bialek & Bottou 2003; TR-09-12's Section 5, equations (29)-(35)): the iterative IB on the indices x
// of the data vectors y_x, with kernel class distributions
// p(y|c) = exp(-d(y, y_c) / s) / Z(c, s) around prototypes y_c, d the squared
// Euclidean distance. beta = -1/lambda; beta = infinity is the hard limit,
// Lloyd's k-means. Points are the columns of a p x n matrix, prototypes the
// columns of a p x k matrix. Plain C++17 + Eigen; randomness and interrupts
// come from RunHooks.
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

struct IbKmeansParams {
  int k = 2;
  double beta = 1.0;              // +infinity: hard assignments
  double s = 1.0;                 // kernel scale
  bool normalize_over_data = false;  // Z(c, s) over the n data vectors, not over R^p
  int restarts = 10;
  int max_iter = 500;
  double tol = 1e-8;              // converged when no p(c|x) moves more than tol
  SeedInit init = SeedInit::kmeanspp;
  Eigen::MatrixXd start;          // p x k initial prototypes for SeedInit::start
};

struct IbKmeansResult {
  Eigen::MatrixXd membership;     // n x k, p(c|x)
  Eigen::MatrixXd centres;        // p x k
  Eigen::VectorXd pc;             // p(c)
  Eigen::VectorXd log_z;          // log Z(c, s) at the final prototypes
  std::vector<double> objective;  // E[log p(y_x|c)] - I(C;X) / beta, per iteration
  std::vector<double> info_x;     // I(C;X) (nats), per iteration
  std::vector<double> distortion;  // E[d(y_x, y_c)], per iteration
  int iterations = 0;
  bool converged = false;
};

namespace ib_kmeans_detail {

constexpr double kInf = std::numeric_limits<double>::infinity();

// n x k squared distances between the columns of xc (with squared norms
// xc_sq) and of m. Callers centre both on a common point first, so the
// expansion |x|^2 + |m|^2 - 2 x'm loses no precision to a far origin.
inline Eigen::MatrixXd squared_distances(const Eigen::MatrixXd& xc, const Eigen::VectorXd& xc_sq,
                                         const Eigen::MatrixXd& m) {
  Eigen::MatrixXd d = -2.0 * (xc.transpose() * m);
  d.colwise() += xc_sq;
  d.rowwise() += m.colwise().squaredNorm();
  return d.cwiseMax(0.0);
}

// log Z(c, s): over R^p the Gaussian integral (p/2) log(pi s), the same for
// every c; over the data vectors log sum_x exp(-d(y_x, y_c) / s).
inline Eigen::VectorXd log_normalizers(const Eigen::MatrixXd& d, double s, bool over_data,
                                       Eigen::Index p) {
  const Eigen::Index k = d.cols();
  Eigen::VectorXd log_z(k);
  if (!over_data) {
    log_z.setConstant(0.5 * static_cast<double>(p) * std::log(3.141592653589793 * s));
    return log_z;
  }
  for (Eigen::Index c = 0; c < k; ++c) {
    const double lo = d.col(c).minCoeff();  // the largest term is exp(-lo / s)
    log_z[c] = -lo / s + std::log((-(d.col(c).array() - lo) / s).exp().sum());
  }
  return log_z;
}

// The IB step (29): p(c|x) proportional to p(c) p(y_x|c)^beta, i.e. to
// p(c) exp(-beta [d(y_x, y_c) / s + log Z(c, s)]). Clusters with p(c) = 0 are
// dead (their weight stays 0). With beta = infinity each point goes to the
// live cluster of smallest d / s + log Z (first of ties). Returns
// -sum_x sum_c p(c|x) log p(c|x), read off the logits (no logarithm per entry).
inline double membership_step(const Eigen::MatrixXd& d, const Eigen::VectorXd& pc,
                              const Eigen::VectorXd& log_z, double beta, double s,
                              Eigen::MatrixXd& out) {
  const Eigen::Index n = d.rows(), k = d.cols();
  out.resize(n, k);
  // cost(x, c) = d / s + log Z(c) - min over live c: the best live cluster has
  // cost 0, so beta * cost never turns into inf - inf.
  Eigen::MatrixXd cost = d / s;
  cost.rowwise() += log_z.transpose();
  for (Eigen::Index c = 0; c < k; ++c) {
    if (!(pc[c] > 0.0)) cost.col(c).setConstant(kInf);
  }
  const Eigen::VectorXd lowest = cost.rowwise().minCoeff();
  if (std::isinf(beta)) {
    out.setZero();
    for (Eigen::Index i = 0; i < n; ++i) {
      Eigen::Index best = 0;
      for (Eigen::Index c = 0; c < k; ++c) {
        if (cost(i, c) == lowest[i]) {
          best = c;
          break;
        }
      }
      out(i, best) = 1.0;
    }
    return 0.0;
  }
  cost.colwise() -= lowest;
  const Eigen::RowVectorXd log_pc = pc.array().log().matrix().transpose();
  Eigen::MatrixXd logit = -beta * cost;
  logit.rowwise() += log_pc;
  const Eigen::VectorXd top = logit.rowwise().maxCoeff();
  logit.colwise() -= top;
  out = logit.array().exp().matrix();
  const Eigen::VectorXd total = out.rowwise().sum();
  out.array().colwise() /= total.array();
  // log p(c|x) = logit - log total; entries with p = 0 (logit -inf) add 0.
  const double weighted_logit = (out.array() > 0.0).select(out.array() * logit.array(), 0.0).sum();
  return total.array().log().sum() - weighted_logit;
}

// I(C;X) = H(C) - H(C|X) with p(x) = 1/n, 0 log 0 = 0; h_cx_total is
// n H(C|X) as returned by membership_step().
inline double information_cx(double h_cx_total, Eigen::Index n, const Eigen::VectorXd& pc) {
  double h_c = 0.0;
  for (Eigen::Index c = 0; c < pc.size(); ++c) {
    if (pc[c] > 0.0) h_c -= pc[c] * std::log(pc[c]);
  }
  return std::max(0.0, h_c - h_cx_total / static_cast<double>(n));
}

}  // namespace ib_kmeans_detail

// Memberships (29) of new points, given the final p(c), prototypes and log Z
// of a fit. Points and prototypes are both centred on the prototypes' mean.
inline Eigen::MatrixXd ib_kmeans_memberships(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                             const Eigen::MatrixXd& centres,
                                             const Eigen::VectorXd& pc,
                                             const Eigen::VectorXd& log_z, double beta,
                                             double s) {
  const Eigen::VectorXd mid = centres.rowwise().mean();
  const Eigen::MatrixXd xc = x.colwise() - mid;
  const Eigen::MatrixXd mc = centres.colwise() - mid;
  const Eigen::VectorXd xc_sq = xc.colwise().squaredNorm().transpose();
  Eigen::MatrixXd out;
  ib_kmeans_detail::membership_step(ib_kmeans_detail::squared_distances(xc, xc_sq, mc), pc,
                                    log_z, beta, s, out);
  return out;
}

// One run from given prototypes over data centred on its mean.
class IbKmeansRun {
 public:
  IbKmeansRun(const Eigen::MatrixXd& xc, const IbKmeansParams& par)
      : xc_(xc), par_(par), xc_sq_(xc.colwise().squaredNorm().transpose()) {}

  IbKmeansResult run(Eigen::MatrixXd m, RunHooks& hooks) const {
    using namespace ib_kmeans_detail;
    const Eigen::Index n = xc_.cols(), p = xc_.rows();
    const int k = static_cast<int>(m.cols());
    const double beta = par_.beta, s = par_.s;
    IbKmeansResult res;
    // p_0(y|c) of (32) around the seeds; p_0(c) uniform.
    Eigen::VectorXd pc = Eigen::VectorXd::Constant(k, 1.0 / k);
    Eigen::MatrixXd d = squared_distances(xc_, xc_sq_, m);
    Eigen::VectorXd log_z = log_normalizers(d, s, par_.normalize_over_data, p);
    Eigen::MatrixXd pcx, previous;
    for (int iter = 1; iter <= par_.max_iter; ++iter) {
      const double h_cx = membership_step(d, pc, log_z, beta, s, pcx);  // (29)
      const double moved = iter == 1 ? kInf : (pcx - previous).cwiseAbs().maxCoeff();
      const Eigen::RowVectorXd mass = pcx.colwise().sum();
      pc = mass.transpose() / static_cast<double>(n);                   // (31)
      // (30) and (33): the prototype is the p_n(y|c)-weighted mean, whatever
      // p(c) normalizes (30); an empty cluster keeps its prototype.
      const Eigen::MatrixXd sums = xc_ * pcx;
      for (int c = 0; c < k; ++c) {
        if (mass[c] > 0.0) m.col(c) = sums.col(c) / mass[c];
      }
      d = squared_distances(xc_, xc_sq_, m);                            // (34)
      log_z = log_normalizers(d, s, par_.normalize_over_data, p);
      record(pcx, h_cx, pc, d, log_z, res);
      previous.swap(pcx);
      res.iterations = iter;
      hooks.check_interrupt();
      hooks.on_sweep(iter, k, res.objective.back());
      if (moved <= par_.tol) {
        res.converged = true;
        break;
      }
    }
    res.membership = std::move(previous);
    res.centres = std::move(m);
    res.pc = std::move(pc);
    res.log_z = std::move(log_z);
    return res;
  }

 private:
  // The trace after an iteration: I(C;X), E[d], and the objective
  // E[log p(y_x|c)] - I(C;X) / beta (TR-09-12's Lmax (27) with I(C;Y)
  // replaced by its kernel part, see the R documentation).
  void record(const Eigen::MatrixXd& pcx, double h_cx, const Eigen::VectorXd& pc,
              const Eigen::MatrixXd& d, const Eigen::VectorXd& log_z,
              IbKmeansResult& res) const {
    const double n = static_cast<double>(pcx.rows());
    const double dist = pcx.cwiseProduct(d).sum() / n;
    const double mean_log_z = pc.dot(log_z);
    const double info = ib_kmeans_detail::information_cx(h_cx, pcx.rows(), pc);
    const double fit = -dist / par_.s - mean_log_z;
    res.info_x.push_back(info);
    res.distortion.push_back(dist);
    res.objective.push_back(std::isinf(par_.beta) ? fit : fit - info / par_.beta);
  }

  const Eigen::MatrixXd& xc_;
  const IbKmeansParams& par_;
  Eigen::VectorXd xc_sq_;
};

// The best (highest final objective) of par.restarts runs, or one run from
// par.start. Prototypes are returned in the data's own coordinates.
inline IbKmeansResult ib_kmeans_fit(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                    const IbKmeansParams& par, RunHooks& hooks) {
  if (par.k < 1 || par.k > x.cols()) throw std::invalid_argument("k out of range");
  if (!(par.s > 0.0) || !(par.beta > 0.0)) throw std::invalid_argument("s and beta must be > 0");
  const Eigen::VectorXd mean = x.rowwise().mean();
  const Eigen::MatrixXd xc = x.colwise() - mean;
  const IbKmeansRun runner(xc, par);
  const int runs = par.init == SeedInit::start ? 1 : std::max(1, par.restarts);
  IbKmeansResult best;
  for (int r = 0; r < runs; ++r) {
    Eigen::MatrixXd m;
    if (par.init == SeedInit::start) {
      if (par.start.rows() != x.rows() || par.start.cols() != par.k) {
        throw std::invalid_argument("start has the wrong size");
      }
      m = par.start.colwise() - mean;
    } else {
      m = draw_prototypes(xc, par.k, par.init, hooks);
    }
    IbKmeansResult res = runner.run(std::move(m), hooks);
    if (r == 0 || res.objective.back() > best.objective.back()) best = std::move(res);
  }
  best.centres.colwise() += mean;
  return best;
}

}  // namespace sideclust
