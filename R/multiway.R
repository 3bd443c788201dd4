#' Multiway clustering with Bregman divergences
#'
#' Clusters every dimension of a matrix or of an m-way array at once
#' (Banerjee, Basu & Merugu 2007): the rows, columns, slices, ... of the
#' tensor \eqn{Z} are data sets that share one relation, and each gets its own
#' clustering \eqn{\rho_i} into \eqn{k_i} clusters. The tensor is
#' approximated by \eqn{C}, constant on the blocks that the clusterings cut it
#' into, and the clusterings minimize the loss of Bregman information.
#'
#' @section Objective:
#' With cell weights \eqn{w} (a probability measure on the cells; uniform
#' unless `weights` is given) and the block multiway clustering basis
#' \eqn{\{(\hat X_1, \dots, \hat X_n)\}}, the approximation is the block
#' mean \eqn{C = E_w[Z \mid \hat X_1, \dots, \hat X_n]} (the maximum Bregman
#' information solution (52)-(53) of TR-09-12 for this basis, the same for
#' every Bregman divergence) and the objective is (50)
#' \deqn{B = E_w[d_\phi(Z, C)] = I_\phi(Z) - I_\phi(C),}{B = E_w[d(Z, C)] =
#'   I(Z) - I(C),}
#' with \eqn{d_\phi}{d} the squared Euclidean distance \eqn{(z - c)^2} or the
#' I-divergence \eqn{z \log(z / c) - z + c}, and \eqn{I_\phi(Z) =
#' E_w[d_\phi(Z, E_w Z)]}{I(Z) = E_w[d(Z, E_w Z)]} (48)-(49). With uniform
#' weights \eqn{B} is the mean divergence per cell, so \eqn{N B} (\eqn{N}
#' cells) is the total: for the squared Euclidean distance with every
#' dimension but the first in singleton clusters, \eqn{N B} is k-means'
#' within-cluster sum of squares of the first dimension's slices.
#'
#' @section Algorithm:
#' Steps 1-3 of TR-09-12: from a start (see `init`), the dimensions are
#' visited in order; the
#' entities of dimension \eqn{i} (rows for \eqn{i = 1}, columns for \eqn{i =
#' 2}, ...) each move, with \eqn{C} fixed, to the cluster whose block values
#' give their slice the lowest weighted divergence (ties keep the current
#' cluster), and then \eqn{C} is re-estimated as the block means. Neither
#' half increases \eqn{B}, which `objective` records at the start and after
#' every iteration (one visit of every dimension). A run stops when an
#' iteration moves no entity: the clustering and \eqn{C} are then a fixed
#' point, and no single entity can lower \eqn{B} by moving to another
#' cluster at that \eqn{C}. A dimension's step costs one pass over the
#' \eqn{N} cells plus \eqn{O(m_i K)} for \eqn{K = \prod_l k_l}{K = prod(k)}
#' blocks; memory is \eqn{O(m_i K / k_i)} beyond the data, plus one
#' temporary copy of the data (an unfolding) while a `"kmeans++"` start is
#' seeded. Of `restarts`
#' runs the one with the lowest final \eqn{B} is kept. Clusters left empty
#' are dropped, so `k` can end below the numbers asked for, and the others
#' are renumbered by first appearance in each dimension (its first entity is
#' in cluster 1, the next entity not in cluster 1 in cluster 2, ...), with
#' `block_means` and `block_weight` permuted alike.
#'
#' @section Reading of TR-09-12:
#' * Step 1 starts from a random multiway clustering; that is
#'   `init = "random"` (each dimension a uniformly random partition with no
#'   empty cluster). Such starts make every block mean close to the overall
#'   mean, and runs from them often end in poor local optima (merged and
#'   split clusters; see `vignette("performance")`), so the
#'   default `init = "kmeans++"` seeds the dimensions instead, in two
#'   rounds. First each dimension alone: k-means++ among its slices (the
#'   mode-\eqn{i} unfolding, squared Euclidean distance for both
#'   divergences, zero-weight cells counted as \eqn{E_w[Z]}), each slice in
#'   the cluster of its nearest seed. Then, dimension by dimension, its
#'   entities' profiles (their means over the blocks of the other
#'   dimensions' current clusters, far less noisy than raw slices) are
#'   seeded again by k-means++, with the divergence that sending an entity
#'   to a cluster with a seed's profile as block values adds to \eqn{B} as
#'   \eqn{D^2}, and every entity goes to its nearest seed. This is not in 
#'   TR-09-12 or the paper.
#' * Step 2 minimizes jointly over an entity's cluster and \eqn{\Lambda}; it
#'   is implemented as the usual alternation (assignments with \eqn{C}
#'   fixed, then the MBI solution for the new clustering), which is what
#'   makes \eqn{B} monotone.
#' * TR-09-12 calls information-theoretic co-clustering ([itcc()]) the
#'   special case \eqn{n = 2} of the block basis. ITCC's approximation
#'   \eqn{p(\hat x, \hat y) p(x | \hat x) p(y | \hat y)} also keeps the row
#'   and column marginals (the basis \eqn{\{(\hat X, \hat Y), X, Y\}}); the
#'   block means used here equal it only when every row has the same mass
#'   and every column too. For such a joint distribution \eqn{p} (entries
#'   summing to 1) with the I-divergence, \eqn{N B} is ITCC's loss
#'   \eqn{I(X;Y) - I(\hat X; \hat Y)} and both take the same steps.
#' * A block without weight (a cluster left empty, or zero weights) has no
#'   mean; it is given \eqn{E_w[Z]}, which matters only for the next
#'   assignment step and keeps \eqn{B} monotone.
#' * Several relations of the same data sets, i.e. vector-valued cells
#'   \eqn{z \in S \subset R^k}{z in S, a subset of R^k} (TR-09-12's first
#'   way), are a tensor with one more dimension for the components, given
#'   `k` equal to its extent: its entities then stay in singleton clusters
#'   (with `init = "kmeans++"` or a `start` that keeps them apart), and
#'   \eqn{B} sums the divergences over the components. TR-09-12's second
#'   way, several tensors over different data sets with a weighted sum of
#'   their losses, is not implemented: TR-09-12 leaves the weights and the
#'   algorithm open.
#'
#' @param x The tensor: a numeric matrix, data.frame or array with two or more
#'   dimensions, without missing values (give them weight 0 and any finite
#'   value instead); non-negative for the I-divergence. The core works on
#'   dense data: a sparse `Matrix` is made dense.
#' @param k Numbers of clusters, one per dimension of `x`, each between 1
#'   and that dimension's extent. A dimension with `k` equal to its extent is
#'   not clustered (its entities stay apart; give `start` so that they start
#'   apart).
#' @param divergence `"euclidean"` (squared Euclidean distance, real values)
#'   or `"idivergence"` (generalized I-divergence, non-negative values such as
#'   counts or a joint distribution).
#' @param weights Optional non-negative array of the dimensions of `x`, the
#'   measure \eqn{w} on the cells (normalized to sum 1); `NULL` for uniform.
#' @param restarts Number of runs from random clusterings; the lowest final
#'   objective is kept.
#' @param max_iter Maximum number of iterations per run.
#' @param init Start of each run: `"kmeans++"` (every dimension seeded by
#'   k-means++ among its slices, then among its profiles over the other
#'   dimensions' blocks; see "Reading of TR-09-12") or `"random"`
#'   (uniformly random partitions, TR-09-12's step 1). Uses R's random number generator, so
#'   [set.seed()] reproduces the fit.
#' @param start Optional list of initial clusterings, one integer vector
#'   (values in `1..k[i]`) per dimension, used by the first run (the others
#'   start by `init`). The fit numbers its clusters by first appearance, so
#'   a start that is already a fixed point may come back renumbered.
#' @param verbose Print the objective after every iteration.
#' @return An object of class `c("multiway_clustering", "sideclust")`, a list
#'   with
#'   \item{clusters}{list of integer clusterings, one per dimension (named
#'     after `names(dimnames(x))`, entries after the dimnames), each numbered
#'     `1..k[i]` by first appearance: the first entity of every dimension is
#'     in cluster 1.}
#'   \item{cluster}{the first dimension's clustering (the rows of a matrix).}
#'   \item{k}{integer vector, the number of (non-empty) clusters per
#'     dimension.}
#'   \item{block_means}{array of dimensions `k`: \eqn{C} on every block
#'     (\eqn{\Lambda} of TR-09-12).}
#'   \item{block_weight}{array of dimensions `k`: the weight of every block
#'     (its share of the cells when unweighted).}
#'   \item{objective}{\eqn{B} at the start and after every iteration of the
#'     run kept.}
#'   \item{info_data, info_approx}{\eqn{I_\phi(Z)} and \eqn{I_\phi(C)}, so
#'     that the last objective is their difference.}
#'   \item{restart_objective}{final \eqn{B} of every run.}
#'   \item{iterations, converged}{iterations of the run kept and whether it
#'     stopped at a fixed point before `max_iter`.}
#'   \item{divergence, weighted, restarts, max_iter, init, k_requested,
#'     dim}{the
#'     settings used and the extents of `x`.}
#'   \item{call}{the call.}
#' @references
#' Banerjee, A., Basu, S. and Merugu, S. (2007). Multi-way clustering on
#' relation graphs. SIAM International Conference on Data Mining.
#'
#' Clustering constrained by dependencies (Virginia Tech TR-09-12, 2009), Section 7 ("Multiway
#' clustering using Bregman divergences", equations (48)-(53) and the
#' algorithm's steps 1-3).
#' @seealso [predict.multiway_clustering()], [plot.multiway_clustering()],
#'   [itcc()] (co-clustering that keeps the marginals).
#' @examples
#' set.seed(1)
#' truth <- list(rep(1:3, each = 10), rep(1:2, each = 8), rep(1:2, c(5, 7)))
#' means <- array(c(0, 4, 8, 2, 6, 1, 5, 3, 7, 9, 1, 6), c(3, 2, 2))
#' x <- array(rnorm(30 * 16 * 12), c(30, 16, 12)) +
#'   means[as.matrix(expand.grid(truth))]
#' fit <- multiway_clustering(x, k = c(3, 2, 2), restarts = 5)
#' fit
#' mapply(ari, truth, fit$clusters)
#'
#' # a count matrix with the I-divergence
#' counts <- matrix(rpois(40 * 30, rep(c(2, 9), each = 20) * rep(c(1, 3), each = 600)), 40, 30)
#' co <- multiway_clustering(counts, k = c(2, 2), divergence = "idivergence")
#' table(co$cluster, rep(1:2, each = 20))
#' plot(co, counts)
#' @export
multiway_clustering <- function(x, k, divergence = c("euclidean", "idivergence"),
                                weights = NULL, restarts = 10L, max_iter = 100L,
                                init = c("kmeans++", "random"), start = NULL,
                                verbose = FALSE) {
  call <- match.call()
  divergence <- match_choice(divergence, c("euclidean", "idivergence"), "divergence")
  x <- check_tensor(x, "x")
  dims <- dim(x)
  if (divergence == "idivergence" && any(x < 0)) {
    stop_arg("x", sprintf("has %d negative values; the I-divergence needs non-negative data",
                          sum(x < 0)))
  }
  k <- check_multiway_k(k, dims)
  w <- check_weights(weights, dims)
  if (divergence == "idivergence" && !any(x > 0 & (if (length(w)) w > 0 else TRUE))) {
    stop_arg("x", "has no positive value (with positive weight); the I-divergence needs one")
  }
  restarts <- check_count(restarts, "restarts")
  max_iter <- check_count(max_iter, "max_iter")
  init <- match_choice(init, c("kmeans++", "random"), "init")
  verbose <- check_flag(verbose, "verbose")
  start <- check_multiway_start(start, dims, k)
  xv <- as.vector(x)
  r <- best_recorded_run(restarts, function(o) .multiway_cpp(xv, dims, w, o),
                         list(k = k, divergence = divergence, init = init, max_iter = max_iter,
                              start = start, verbose = verbose),
                         "restart_objective",
                         blank = list(start = check_multiway_start(NULL, dims, k)))
  if (!r$converged) {
    warn_not_converged("multiway_clustering", max_iter)
  }
  fit <- multiway_result(r, x, k)
  fit <- c(fit, list(
    objective = r$objective, info_data = r$info_data, info_approx = r$info_approx,
    restart_objective = r$restart_objective, iterations = r$iterations,
    converged = r$converged, divergence = divergence, weighted = length(w) > 0L,
    restarts = restarts, max_iter = max_iter, init = init, k_requested = k, dim = dims, call = call))
  fit <- finish_fit(fit, x, "multiway_clustering")
  fit
}

# Clusterings without empty clusters, numbered by first appearance in each
# dimension (as sib() and itcc() number theirs), and the block arrays
# restricted to the clusters kept and permuted alike, with the names of x's
# dimensions. `used[[l]][j]` is the core's number of the new cluster j.
multiway_result <- function(r, x, k) {
  used <- lapply(seq_along(k), function(l) unique(r$clusters[[l]]))
  clusters <- lapply(seq_along(k), function(l) {
    cl <- match(r$clusters[[l]], used[[l]])
    names(cl) <- dimnames(x)[[l]]
    cl
  })
  names(clusters) <- names(dimnames(x))
  keep <- function(v) do.call(`[`, c(list(array(v, k)), used, list(drop = FALSE)))
  list(cluster = clusters[[1L]], clusters = clusters, k = lengths(used),
       block_means = keep(r$block_means), block_weight = keep(r$block_weight))
}

