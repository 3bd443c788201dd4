// MPCK-means' decision at one point of its assignment sweep (Bilenko, Basu
// & Mooney 2004, the E-step's iterated conditional modes): the point's own
// costs plus, for each constraint to an assigned partner in cluster g, the
// penalty it pays where it breaks:
//   must-link w:   (w/2) (||x_i - x_j||^2_{A_h} + ||x_i - x_j||^2_{A_g}) in every h != g
//   cannot-link w: w (D_g - ||x_i - x_j||^2_{A_g}) in g
// (D_g: the largest distance under A_g, here its bound from the ranges).
// The point moves to the cheapest cluster, staying unless another is
// strictly cheaper. Plain C++17 + Eigen.
#pragma once

#include <Eigen/Dense>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/column_major_points.h"
#include "common/run_hooks.h"
#include "common/side_graph.h"
#include "engine/interleaved_centres.h"
#include "engine/staged_sweep.h"
#include "engine/weighted_centres.h"
#include "pairwise/mpck_edges.h"
#include "pairwise/mpck_metrics.h"

namespace sideclust {

// A sweep's constants: the centres and metrics, laid out for the kernels
// (quads: also for the AVX ones).
struct MpckFrame {
  const Eigen::MatrixXd& m;
  const mpck_detail::Metrics& met;
  int k;
  std::size_t unit;  // work units of a norm, for interrupt polling
  bool none, diagonal, full, charged;
  InterleavedCentres plain;  // "none"
  WeightedCentres weighted;  // "diagonal": the centres and the metrics' diagonals
  // "diagonal": whether a cannot-link's charge in cluster h, |w| (D_h -
  // norm), is certainly >= 0 as computed: D_h at least the norm of the
  // squared ranges summed as the pairs' norms are, which bounds every
  // pair's norm term by term (see stays_unread())
  std::vector<std::uint8_t> cannot_nonneg;

  MpckFrame(const Eigen::MatrixXd& m_, const mpck_detail::Metrics& met_, MpckMetric metric, int p, bool quads)
      : m(m_), met(met_), k(static_cast<int>(m_.cols())), unit(met_.cost_units(p)),
        none(metric == MpckMetric::none), diagonal(metric == MpckMetric::diagonal),
        full(metric == MpckMetric::full), charged(none) {  // "none": the entries hold the charges
    if (none) plain.set(m.data(), p, k, quads);
    if (!diagonal) return;
    weighted.set(m.data(), met.diag.data(), p, k, quads);
    cannot_nonneg.resize(k);
    for (int h = 0; h < k; ++h) {
      cannot_nonneg[h] = met.bound[h] >= weighted_norm_from_squares(met.range2.data(), met.diag.col(h).data(), p);
    }
  }

  // cost[h] = what point xi costs in cluster h before its constraints:
  // ||xi - mu_h||^2 under A_h minus log det A_h.
  template <class Kernels>
  void own_costs(Kernels kernels, const double* xi, double* cost) const {
    if (full) return met.point_costs(xi, m, cost);
    if (diagonal) {
      weighted.sq_distances(kernels, xi, cost);
    } else {
      plain.view().sq_distances(kernels, xi, cost);
    }
    for (int h = 0; h < k; ++h) cost[h] -= met.logdet[h];
  }
};

// Scratch vectors of one thread's pair costs.
struct MpckScratch {
  Eigen::VectorXd q, diff, sq;
  MpckScratch(int k, int p) : q(k), diff(p), sq(p) {}
};

// The decision at a point, over the clusters z (zp: the same, read for the
// partners); marks the points that move in `moved`.
template <class Label>
class MpckDecision {
 public:
  MpckDecision(const ColumnMajorPoints& x, const PairGraph& pairs, const MpckEdges& edges, const MpckFrame& f,
               bool skip_unread, std::vector<int>& z, std::vector<Label>& zp, std::vector<std::uint8_t>& moved,
               RunHooks& hooks)
      : x_(x), pairs_(pairs), edges_(edges), f_(f), skip_unread_(skip_unread), z_(z), zp_(zp), moved_(moved),
        hooks_(hooks), p_(x.p()) {}

  // Adds point i's constraints to its own costs in `cost`, moves it to the
  // cheapest cluster and returns 1 if it moved. qd: room for k norms.
  template <class Kernels>
  int settle(Kernels kernels, int i, double* cost, double* qd, MpckScratch& s) const {
    const int k = f_.k;
    const mpck_detail::Metrics& met = f_.met;
    const PackedEdge* edges = edges_.data();
    std::size_t work = static_cast<std::size_t>(k) * f_.unit;
    const bool has_pairs = !pairs_.empty();
    if (has_pairs && f_.diagonal && skip_unread_ && stays_unread(i, cost, z_[i])) {
      hooks_.poll_interrupt(work);
      return 0;
    }
    const int first = has_pairs ? pairs_.start[i] : 0, last = has_pairs ? pairs_.start[i + 1] : 0;
    for (int e = first; e < last; ++e) {
      const PackedEdge& pe = edges[e];
      const int g = zp_[pe.nbr];
      const int kind = pe.tag & MpckEdges::kKindMask;
      if (g < 0 || kind == MpckEdges::kSkip) continue;
      if (kind == MpckEdges::kMust) {
        // broken when i leaves g: half the distance under each end's
        // metric (adding 0 to cost[g] keeps the loops free of branches)
        work += static_cast<std::size_t>(k) * f_.unit;
        if (f_.charged) {  // one metric: the same charge for every h != g
          const double c = pe.value;
          for (int h = 0; h < k; ++h) cost[h] += h != g ? c : 0.0;
          continue;
        }
        const double w = pe.value;
        const double* q = s.q.data();
        if (f_.diagonal) {  // from the cache without a copy
          f_.weighted.norms_from_squares(kernels, edges_.pair_diff_at(x_, i, pe, s.diff), qd);
          q = qd;
        } else {
          edges_.pair_diff(x_, i, pe, s.diff);
          met.norm2_all(s.diff, s.q, s.sq);
        }
        for (int h = 0; h < k; ++h) cost[h] += h != g ? 0.5 * w * (q[h] + q[g]) : 0.0;
      } else {
        if (f_.charged) {
          cost[g] -= pe.value;
        } else if (f_.diagonal) {
          const double* v2 = edges_.pair_diff_at(x_, i, pe, s.diff);  // squares
          cost[g] -= pe.value * (met.bound[g] - weighted_norm_from_squares(v2, met.diag.col(g).data(), p_));
        } else {
          edges_.pair_diff(x_, i, pe, s.diff);
          cost[g] -= pe.value * (met.bound[g] - met.norm2(s.diff, g));
        }
        work += f_.unit;
      }
    }
    hooks_.poll_interrupt(work);
    const int best = cheapest_or_stay(cost, k, z_[i]);
    if (best == z_[i]) return 0;
    z_[i] = best;
    zp_[i] = static_cast<Label>(best);
    if (has_pairs) moved_[i] = 1;
    return 1;
  }

 private:
  // Whether point i, in cluster c, stays there whatever its constraints
  // cost, told from its own costs and its partners' clusters alone, so that
  // its pairs' values need not be read ("diagonal" only). It does when its
  // own costs are lowest in c (ties included: a point moves only to a
  // strictly cheaper cluster), every assigned must-link partner is in c and
  // no cannot-link partner is: then settle() would add 0 to cost[c] and to
  // the others only terms it computes as >= 0 (a must-link's half norms; a
  // cannot-link's |w| (D_g - norm) where cannot_nonneg[g]), and a
  // floating-point sum never falls below a number it adds a non-negative
  // one to. So this is settle()'s own decision, made without the pairs'
  // cache (most points after the first sweeps).
  bool stays_unread(int i, const double* own, int c) const {
    if (c < 0) return false;
    const PackedEdge* edges = edges_.data();
    for (int e = pairs_.start[i]; e < pairs_.start[i + 1]; ++e) {
      const PackedEdge& pe = edges[e];
      const int g = zp_[pe.nbr];
      const int kind = pe.tag & MpckEdges::kKindMask;
      if (g < 0 || kind == MpckEdges::kSkip) continue;
      if (kind == MpckEdges::kMust ? g != c : (g == c || !f_.cannot_nonneg[g])) return false;
    }
    const double stay = own[c];
    for (int h = 0; h < f_.k; ++h) {
      if (!(own[h] >= stay)) return false;
    }
    return true;
  }

  const ColumnMajorPoints& x_;
  const PairGraph& pairs_;
  const MpckEdges& edges_;
  const MpckFrame& f_;
  bool skip_unread_;
  std::vector<int>& z_;
  std::vector<Label>& zp_;
  std::vector<std::uint8_t>& moved_;
  RunHooks& hooks_;
  int p_;
};

}  // namespace sideclust
