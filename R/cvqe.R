#' Constrained k-means with penalties (CVQE)
#'
#' Davidson & Ravi's constrained vector quantization error: k-means whose
#' objective charges every broken must-link the squared distance between the
#' prototypes of its two clusters, and every broken cannot-link the squared
#' distance from its cluster's prototype to the nearest other prototype.
#' Constraints are soft, so a fit always exists, and confidences weight the
#' penalties (all confidences 1 give the original method).
#'
#' @section Objective:
#' With prototypes \eqn{m_1, \dots, m_k}, point \eqn{i} in cluster
#' \eqn{z_i} and constraint \eqn{l} between points \eqn{a_l} (the pair's first
#' point, `side$i`) and \eqn{b_l} of confidence \eqn{w_l}, the fit minimizes
#' objective (68) of TR-09-12 (Section 11)
#' \deqn{L' = \frac{1}{2} \Big[ \sum_i \|x_i - m_{z_i}\|^2 + \sum_l w_l
#'   \, \mathrm{pen}_l \Big],}{L' = 1/2 [sum_i ||x_i - m_zi||^2 + sum_l w_l
#'   pen_l],}
#' where for \eqn{u = z_{a_l}}, \eqn{v = z_{b_l}} a must-link costs
#' \eqn{\|m_u - m_v\|^2}{||m_u - m_v||^2} when \eqn{u \ne v}{u != v} and a
#' cannot-link costs \eqn{\|m_u - m_{h(u)}\|^2}{||m_u - m_h(u)||^2} when
#' \eqn{u = v}, \eqn{h(u)} being the other prototype closest to \eqn{m_u}
#' (first of ties); kept constraints cost
#' nothing. With `k = 1` a cannot-link cannot be kept and there is no other
#' prototype, so its penalty is defined as 0. `within` and `penalty` of the
#' result are the two parts of \eqn{L'} (each with its factor 1/2).
#'
#' @section Algorithm:
#' From the initial prototypes, two steps alternate.
#' * **Assignment** (prototypes fixed): the points are visited in row order
#'   and each moves to the cluster minimizing its squared distance to the
#'   prototype plus the weighted penalties of its constraints given the
#'   current clusters of their other points (iterated conditional modes; ties
#'   go to the lowest cluster number). Every move lowers \eqn{L'} or leaves it
#'   unchanged. In the very first step, constraints to points not yet
#'   assigned are ignored. A point costs \eqn{O(k (p + d))} for \eqn{d}
#'   constraints; the pairs are kept as sparse adjacency lists.
#' * **Prototypes** (assignment fixed): TR-09-12's update \eqn{m_j = y_j /
#'   z_j}, where \eqn{y_j} adds to the sum of cluster \eqn{j}'s points, for
#'   every constraint whose first point is in cluster \eqn{j}, \eqn{w_l
#'   m_v} for a broken must-link (its second point in cluster \eqn{v}) and
#'   \eqn{w_l m_{h(j)}} for a broken cannot-link, and \eqn{z_j} is the
#'   number of points plus the weights of those constraints. The right-hand
#'   side uses the prototypes before the update; the update is applied again
#'   (each round costs \eqn{O(k^2 p)} plus the broken constraints, no pass
#'   over the data) until no coordinate moves more than \eqn{10^{-12}} times
#'   the data's scale, at most 1000 rounds. A cluster without points
#'   (\eqn{z_j = 0}) keeps its prototype.
#'
#' Without side information this is exactly Lloyd's k-means. The prototype
#' update zeroes the gradient only of the terms charged to cluster \eqn{j},
#' so \eqn{L'} need not decrease at every iteration; `objective` records it
#' after each one. A run stops when an assignment step moves no point and the
#' prototype step ends at a fixed point of its update: the final state is
#' then a fixed point of both steps, and no single point can move to another
#' cluster and lower \eqn{L'} at the final prototypes. A run that has not
#' stopped after `max_iter` iterations ends with `converged = FALSE` and a
#' warning. Of `restarts` runs the one with the lowest final \eqn{L'} is
#' kept. Clusters left empty at the end are dropped and the others renumbered
#' consecutively (so `k` can be smaller than asked); the final objective is
#' then computed over the prototypes kept, and as \eqn{h()} may change, the
#' fixed-point property above holds for the state before the drop.
#'
#' @section Sparse data:
#' `x` may be a sparse matrix (any class of the Matrix package, or slam's
#' `simple_triplet_matrix`); it stays sparse: the points are read in place from
#' their non-zeros, squared distances to a prototype are computed as
#' \eqn{\|x\|^2 - 2 x^\top m + \|m\|^2}{|x|^2 - 2 x'm + |m|^2} (the
#' prototypes are dense, `k` x `p`), and an iteration costs
#' \eqn{O(k \cdot \mathrm{nnz})}{O(k nnz)} plus the constraints. The result
#' is the same fit as on the dense matrix up to rounding. `k` is then checked
#' against the number of points only: with fewer distinct rows than `k`,
#' seeds repeat and the clusters left empty are dropped.
#'
#' @param x Data: a numeric matrix or data.frame, one row per point.
#' @param side Pairwise side information: `NULL`, a [constraints()] object,
#'   a TVClust matrix E, a data.frame of pairs, or partial labels (expanded
#'   into all labelled pairs, at most `max_pairs`); see [as_constraints()].
#'   Confidences weight the penalties.
#' @param k Number of clusters, between 1 and the number of distinct rows of
#'   `x`. May be omitted when `start` is given.
#' @param restarts Number of runs from different seeds; the one with the
#'   lowest final objective is kept. Ignored (1) with `start`.
#' @param max_iter Maximum number of iterations (assignment + prototype
#'   steps) per run.
#' @param init Seeding: `"kmeans++"` (D^2 sampling, the first seed uniform)
#'   or `"random"` (`k` points with distinct values drawn uniformly). Uses
#'   R's random number generator, so [set.seed()] reproduces the fit.
#' @param start Optional `k` x `ncol(x)` matrix of initial prototypes; then
#'   one run is made and `init` is recorded as `"start"`.
#' @param max_pairs Largest number of pairs partial labels may expand into.
#' @param verbose Print the objective after every iteration.
#' @return An object of class `c("cvqe", "sideclust")`, a list with
#'   \item{cluster}{integer cluster of every point, `1..k`.}
#'   \item{centers}{`k` x `p` matrix of prototypes, row `j` for cluster `j`.}
#'   \item{k}{number of (non-empty) clusters.}
#'   \item{size}{points per cluster.}
#'   \item{objective}{\eqn{L'} after every iteration of the run kept.}
#'   \item{within, penalty}{the k-means part and the constraint part of
#'     the final \eqn{L'}, so that `within + penalty` is its last value.}
#'   \item{iterations, converged}{iterations of the run kept and whether it
#'     stopped at a fixed point before `max_iter`.}
#'   \item{restarts, init}{runs made and how they were seeded.}
#'   \item{side}{the pairwise constraints used (`NULL` for none).}
#'   \item{call}{the call.}
#' @references
#' Davidson, I. and Ravi, S. S. (2005). Clustering with constraints:
#' feasibility issues and the k-means algorithm. SIAM International
#' Conference on Data Mining.
#'
#' Section 11 of "Clustering constrained by dependencies", Virginia Tech technical report TR-09-12 (2009): objective (68) and the prototype update.
#' @seealso [predict.cvqe()], [constraints()], [sample_constraints()],
#'   [violations()], [rdp_means()].
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' side <- sample_constraints(iris$Species, "nelson_cohen", n_constraints = 60)
#' fit <- cvqe(x, side, k = 3)
#' fit
#' compare_partitions(iris$Species, fit$cluster)
#'
#' # without side information: k-means (Lloyd)
#' km <- cvqe(x, k = 3, restarts = 5)
#' table(km$cluster, iris$Species)
#' @export
cvqe <- function(x, side = NULL, k, restarts = 10L, max_iter = 100L,
                 init = c("kmeans++", "random"), start = NULL, max_pairs = 1e6,
                 verbose = FALSE) {
  call <- match.call()
  a <- check_prototype_fit(x, side, k, start, restarts, max_iter, init, verbose, max_pairs,
                           sparse_ok = TRUE)
  res <- prototype_runs(a, .cvqe_cpp)
  fit <- prototype_fit(res, a, "cvqe", call,
                       stats = list(within = res$within, penalty = res$penalty))
  fit <- finish_fit(fit, if (is_sparse_input(x)) x else a$x, "cvqe")
  fit
}

