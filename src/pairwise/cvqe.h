// Constrained vector quantization error (CVQE): Davidson & Ravi's k-means
// with must-link / cannot-link penalties, objective (68) of TR-09-12.
// Points are dense (the columns of a p x n array) or sparse rows
// (common/sparse_rows.h), prototypes the columns of a p x k matrix. Plain
// C++17 + Eigen; randomness and interrupts come from RunHooks.
#pragma once

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "common/row_distances.h"
#include "common/prototype_params.h"
#include "common/run_hooks.h"
#include "common/seeding.h"
#include "common/side_graph.h"
#include "common/sparse_rows.h"
#include "engine/avx_dispatch.h"
#include "engine/lookahead.h"
#include "pairwise/kept_clusters.h"
#include "pairwise/cvqe_objective.h"

namespace sideclust {

struct CvqeParams : PrototypeParams {
  SeedInit init = SeedInit::kmeanspp;  // SeedInit::start: from `start`
  int max_rounds = 1000;         // prototype-update rounds per prototype step
  double tol = 1e-12;            // a round moving no coordinate more than tol * scale is final
};

struct CvqeResult {
  std::vector<int> cluster;      // 0 .. k - 1, consecutive
  Eigen::MatrixXd centres;       // p x k
  int k = 0;
  std::vector<double> objective;  // L' after every iteration
  double within = 0.0, penalty = 0.0;
  int iterations = 0;
  bool converged = false;
};

// One run from given prototypes; the state lives here so that restarts reuse
// the buffers.
template <class Rows>
class CvqeRun {
 public:
  CvqeRun(const Rows& rows, const RowDistances<Rows>& dist, const PairGraph& pairs,
          const CvqeParams& par)
      : rows_(rows), dist_(dist), pairs_(pairs), par_(par), n_(rows.n()) {
    if (!pairs.empty() && pairs.n != n_) throw std::invalid_argument("pairs are over another number of points");
    scale_ = 1.0 + max_abs_coordinate(rows);
  }

  CvqeResult run(Eigen::MatrixXd m, RunHooks& hooks) const {
    const int k = static_cast<int>(m.cols());
    CvqeResult res;
    std::vector<int> z(n_, -1);
    cvqe_detail::BrokenPairs broken;
    bool fixed = false;
    for (int iter = 1; iter <= par_.max_iter; ++iter) {
      const int changed = assign(m, z, hooks);
      fixed = update_prototypes(z, k, m, broken);
      const double within = cvqe_detail::within_part(dist_, z, m);
      const double penalty = broken.penalty(m);
      res.objective.push_back(within + penalty);
      res.iterations = iter;
      hooks.check_interrupt();
      hooks.on_sweep(iter, k, within + penalty);
      // The assignment is stable for these prototypes and the prototypes are
      // a fixed point of their update for this assignment.
      if (changed == 0 && fixed) {
        res.converged = true;
        break;
      }
    }
    finish(z, m, res);
    return res;
  }

  // Iterated conditional modes with the prototypes fixed: every point in row
  // order moves to the cluster minimizing its distance plus the weighted
  // penalties of its constraints given its partners' current clusters
  // (partners not yet assigned, in the first step, are ignored). Returns the
  // number of points that changed cluster.
  int assign(const Eigen::MatrixXd& m, std::vector<int>& z, RunHooks& hooks) const {
    const int k = static_cast<int>(m.cols());
    const cvqe_detail::Geometry geo(m);
    std::vector<double> cost(k);
    const PreparedPrototypes prepared = dist_.prepare(m);
    int changed = 0;
    // the partners' clusters of a point a few visits ahead: random reads
    // that miss the cache once n is large
    auto partner_clusters = [&](int i, const Upcoming& r) {
      if (pairs_.empty()) return;
      for (int e = pairs_.start[i]; e < pairs_.start[i + 1]; ++e) r.line(&z[pairs_.nbr[e]]);
    };
    run_inlined([&] {
      for_each_ahead(n_, [&](int i) {
        hooks.poll_interrupt(static_cast<std::size_t>(k) * rows_.work(i));
        dist_.to_all(i, prepared, cost.data());
        if (!pairs_.empty()) {
          for (int e = pairs_.start[i]; e < pairs_.start[i + 1]; ++e) {
            const int other = z[pairs_.nbr[e]];
            if (other < 0) continue;
            const double w = pairs_.weight[e];
            if (w > 0) {
              for (int j = 0; j < k; ++j) cost[j] += w * geo.d(j, other);
            } else {
              cost[other] -= w * geo.h_dist[other];
            }
          }
        }
        int best = 0;
        for (int j = 1; j < k; ++j) {
          if (cost[j] < cost[best]) best = j;
        }
        if (best != z[i]) {
          z[i] = best;
          ++changed;
        }
      }, ahead<4>(partner_clusters));
    });
    return changed;
  }

  // TR-09-12's update m_j = y_j / z_j, applied with the assignment fixed
  // until no coordinate moves more than tol * scale (at most max_rounds
  // rounds, each with the previous round's prototypes on the right). A
  // cluster with z_j = 0 (no points) keeps its prototype. Returns whether the
  // last round was within the tolerance; `broken` receives the constraints
  // the assignment breaks.
  bool update_prototypes(const std::vector<int>& z, int k, Eigen::MatrixXd& m,
                         cvqe_detail::BrokenPairs& broken) const {
    const Eigen::Index p = rows_.p();
    Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(p, k);
    Eigen::VectorXd denom = Eigen::VectorXd::Zero(k);
    double no_shift = 0.0;  // the points have no constant offset
    for (int i = 0; i < n_; ++i) {
      add_row(rows_.row(i), rows_.p(), sum.col(z[i]).data(), no_shift);
      denom[z[i]] += 1.0;
    }
    // Broken must-links pull m_g1 towards m_g2; broken cannot-links pull
    // m_g1 towards m_h(g1), with h taken from the previous round.
    std::vector<cvqe_detail::BrokenPairs::Pull>& must = broken.must;
    must.clear();
    Eigen::VectorXd& cannot = broken.cannot;
    cannot = Eigen::VectorXd::Zero(k);
    run_inlined([&] {
      for_each_ahead(pairs_.first.size(), [&](std::size_t l) {
        const int u = z[pairs_.first[l]], v = z[pairs_.second[l]];
        const double w = pairs_.signed_weight[l];
        if (w > 0 && u != v) {
          must.push_back({u, v, w});
          denom[u] += w;
        } else if (w < 0 && u == v && k > 1) {
          cannot[u] -= w;
          denom[u] -= w;
        }
      }, ahead<32>([&](std::size_t l, const Upcoming& r) {
        r.line(&z[pairs_.first[l]]);
        r.line(&z[pairs_.second[l]]);
      }));
    });
    const bool coupled = !must.empty() || (cannot.array() > 0).any();
    Eigen::MatrixXd next(p, k);
    for (int round = 0; round < par_.max_rounds; ++round) {
      next = sum;
      for (const auto& pl : must) next.col(pl.to) += pl.w * m.col(pl.from);
      if ((cannot.array() > 0).any()) {
        const cvqe_detail::Geometry geo(m);
        for (int j = 0; j < k; ++j) {
          if (cannot[j] > 0) next.col(j) += cannot[j] * m.col(geo.h[j]);
        }
      }
      double moved = 0.0;
      for (int j = 0; j < k; ++j) {
        if (denom[j] > 0) {
          next.col(j) /= denom[j];
        } else {
          next.col(j) = m.col(j);
        }
        moved = std::max(moved, (next.col(j) - m.col(j)).cwiseAbs().maxCoeff());
      }
      m.swap(next);
      // Without broken constraints one round gives the cluster means exactly.
      if (!coupled || moved <= par_.tol * scale_) return true;
    }
    return false;
  }

 private:
  // Drop empty clusters (numbering the others consecutively, in order) and
  // compute the final objective over the prototypes kept.
  void finish(std::vector<int>& z, const Eigen::MatrixXd& m, CvqeResult& res) const {
    res.k = drop_empty_clusters(z, m, res.centres);
    res.cluster = z;
    cvqe_detail::objective_parts(dist_, pairs_, res.cluster, res.centres, res.within, res.penalty);
    if (!res.objective.empty()) res.objective.back() = res.within + res.penalty;
  }

  const Rows& rows_;
  const RowDistances<Rows>& dist_;
  const PairGraph& pairs_;
  const CvqeParams& par_;
  int n_;
  double scale_ = 1.0;
};

// The best (lowest final L') of par.restarts runs, or one run from par.start,
// on dense or sparse points (common/sparse_rows.h, offset 0).
template <class Rows>
CvqeResult cvqe_fit(const Rows& rows, const PairGraph& pairs, const CvqeParams& par,
                    RunHooks& hooks) {
  if (par.k < 1 || par.k > rows.n()) throw std::invalid_argument("k out of range");
  RowDistances<Rows> dist(rows);
  const CvqeRun<Rows> runner(rows, dist, pairs, par);
  const int runs = par.init == SeedInit::start ? 1 : std::max(1, par.restarts);
  CvqeResult best;
  for (int r = 0; r < runs; ++r) {
    Eigen::MatrixXd m = par.init == SeedInit::start
                            ? par.start
                            : draw_prototypes(dist, rows.p(), par.k, par.init, hooks);
    if (m.rows() != rows.p() || m.cols() != par.k) throw std::invalid_argument("start has the wrong size");
    CvqeResult res = runner.run(std::move(m), hooks);
    if (r == 0 || res.objective.back() < best.objective.back()) best = std::move(res);
  }
  return best;
}

}  // namespace sideclust
