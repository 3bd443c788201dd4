// Exact posterior marginals of a tree-shaped component of the constraint
// field by sum-product message passing, O(s K) for s units: each Potts edge
// message is sum_k h(k) psi(k, l) = h(l) + e^{-J} (H - h(l)) for a coupling
// J >= 0 (up to the factor e^J), e^{J} h(l) + (H - h(l)) for J < 0, and
// H - h(l) for a certain cannot-link, with H = sum_k h(k). Messages are
// normalized to sum 1. Plain C++17 + Eigen, no R API.
#pragma once

#include <Eigen/Dense>

#include <cmath>
#include <vector>

#include "mixture/mrf_graph.h"

namespace sideclust {

// Message through CSR edge e from a unit whose (unnormalized) belief
// excluding the receiver is h; written to out, normalized. Returns false
// when it vanishes (no allowed label).
inline bool potts_message(const UnitGraph& g, int e, const Eigen::VectorXd& h,
                          Eigen::Ref<Eigen::VectorXd> out, double* log_scale = nullptr) {
  const double total = h.sum();
  double lift = 0.0;  // log of the factor divided out of the message
  if (g.hard[e]) {
    out = (total - h.array()).max(0.0).matrix();
  } else {
    const double j = g.coupling[e];
    if (j >= 0.0) {
      out = (h.array() + std::exp(-j) * (total - h.array())).matrix();
      lift = j;
    } else {
      out = (std::exp(j) * h.array() + (total - h.array())).matrix();
    }
  }
  const double s = out.sum();
  if (!(s > 0.0)) return false;
  out /= s;
  if (log_scale != nullptr) *log_scale += lift + std::log(s);
  return true;
}

// Marginals of component `comp` (a tree: comp.size() - 1 edges) into q.
// `local` is a workspace of n_units entries equal to -1, left so on return.
// Returns false when some message vanishes (the caller then enumerates).
// With log_z, also the log partition function of the component: the log of
// the sum over its labelings of exp(sum of unaries + couplings).
inline bool tree_component(const Eigen::MatrixXd& b, const UnitGraph& g,
                           const std::vector<int>& comp, Eigen::MatrixXd& q,
                           std::vector<int>& local, double* log_z = nullptr) {
  const int s = static_cast<int>(comp.size());
  const Eigen::Index K = b.rows();
  for (int a = 0; a < s; ++a) local[comp[a]] = a;
  // breadth-first order from comp[0]; parent and the CSR edge child -> parent
  std::vector<int> order, parent(static_cast<std::size_t>(s), -1),
      up_edge(static_cast<std::size_t>(s), -1), down_edge(static_cast<std::size_t>(s), -1);
  std::vector<char> seen(static_cast<std::size_t>(s), 0);
  order.reserve(static_cast<std::size_t>(s));
  order.push_back(0);
  seen[0] = 1;
  for (std::size_t t = 0; t < order.size(); ++t) {
    const int a = order[t], u = comp[a];
    for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
      const int c = local[g.nbr[e]];
      if (!seen[c]) {
        seen[c] = 1;
        parent[c] = a;
        down_edge[c] = e;  // edge u -> child, used for the message parent -> child
        order.push_back(c);
      }
    }
  }
  // the reverse CSR edge (child -> parent) for the upward messages
  for (int c = 1; c < s; ++c) {
    const int u = comp[c], pu = comp[parent[c]];
    for (int e = g.start[u]; e < g.start[u + 1]; ++e) {
      if (g.nbr[e] == pu) {
        up_edge[c] = e;
        break;
      }
    }
  }
  for (int a = 0; a < s; ++a) local[comp[a]] = -1;
  Eigen::MatrixXd phi(K, s);
  double lz = 0.0;
  for (int a = 0; a < s; ++a) {
    const Eigen::VectorXd col = b.col(comp[a]);
    const double m = col.maxCoeff();
    if (!std::isfinite(m)) return false;
    lz += m;
    phi.col(a) = (col.array() - m).exp().matrix();
  }
  // upward: inward(a) = phi(a) * product of the children's messages
  Eigen::MatrixXd inward = phi, up(K, s), down(K, s);
  for (int t = s - 1; t >= 1; --t) {
    const int a = order[t];
    if (!potts_message(g, up_edge[a], inward.col(a), up.col(a), &lz)) return false;
    inward.col(parent[a]).array() *= up.col(a).array();
    const double m = inward.col(parent[a]).sum();
    if (!(m > 0.0)) return false;
    inward.col(parent[a]) /= m;
    lz += std::log(m);
  }
  if (log_z != nullptr) *log_z = lz + std::log(inward.col(0).sum());
  // downward: the message into a child excludes that child's own message,
  // recomputed from the parent's other inputs (no division by zeros)
  std::vector<std::vector<int>> children(static_cast<std::size_t>(s));
  for (int t = 1; t < s; ++t) children[parent[order[t]]].push_back(order[t]);
  down.col(0).setOnes();
  Eigen::VectorXd h(K);
  for (int t = 0; t < s; ++t) {
    const int a = order[t];
    const auto& ch = children[a];
    const int nc = static_cast<int>(ch.size());
    if (nc == 0) continue;
    // prefix / suffix products of the children's messages
    Eigen::MatrixXd prefix(K, nc + 1), suffix(K, nc + 1);
    prefix.col(0).setOnes();
    suffix.col(nc).setOnes();
    for (int c = 0; c < nc; ++c) {
      prefix.col(c + 1) = (prefix.col(c).array() * up.col(ch[c]).array()).matrix();
      const double m = prefix.col(c + 1).maxCoeff();
      if (m > 0.0) prefix.col(c + 1) /= m;
    }
    for (int c = nc - 1; c >= 0; --c) {
      suffix.col(c) = (suffix.col(c + 1).array() * up.col(ch[c]).array()).matrix();
      const double m = suffix.col(c).maxCoeff();
      if (m > 0.0) suffix.col(c) /= m;
    }
    for (int c = 0; c < nc; ++c) {
      h = (phi.col(a).array() * down.col(a).array() * prefix.col(c).array() *
           suffix.col(c + 1).array()).matrix();
      if (!potts_message(g, down_edge[ch[c]], h, down.col(ch[c]))) return false;
    }
  }
  for (int a = 0; a < s; ++a) {
    Eigen::VectorXd belief = (inward.col(a).array() * down.col(a).array()).matrix();
    const double m = belief.sum();
    if (!(m > 0.0)) return false;
    q.col(comp[a]) = belief / m;
  }
  return true;
}

}  // namespace sideclust
