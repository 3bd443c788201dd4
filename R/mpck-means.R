#' MPCK-means and PCK-means: k-means with pairwise constraints and learned metrics
#'
#' Bilenko, Basu & Mooney's MPCK-means: k-means in which every cluster learns
#' its own Mahalanobis metric while soft must-link and cannot-link
#' constraints charge penalties scaled by the distances of their points.
#' `pck_means()` keeps the Euclidean metric (`metric = "none"`): PCK-means
#' (Basu, Banerjee & Mooney 2004) with distance-scaled penalties. Confidences
#' weight the penalties (all confidences 1 give the original setting, a
#' confidence 0 is no constraint).
#'
#' @section Objective:
#' With centres \eqn{\mu_h}{mu_h}, a symmetric positive definite metric
#' \eqn{A_h} per cluster, \eqn{\|v\|^2_A = v^\top A v}{||v||^2_A = v'Av},
#' point \eqn{i} in cluster \eqn{z_i} and constraint \eqn{l} between points
#' \eqn{a} and \eqn{b} of confidence \eqn{w_l}, the fit minimizes
#' \deqn{J = \sum_i \big(\|x_i - \mu_{z_i}\|^2_{A_{z_i}} - \log\det A_{z_i}\big)
#'   + \sum_{\mathrm{ML},\, z_a \ne z_b} \frac{w_l}{2} \big(\|x_a - x_b\|^2_{A_{z_a}}
#'   + \|x_a - x_b\|^2_{A_{z_b}}\big)
#'   + \sum_{\mathrm{CL},\, z_a = z_b = h} w_l \big(D_h - \|x_a - x_b\|^2_{A_h}\big)
#'   + \rho\, s^2 \sum_h \mathrm{tr}\, A_h,}{J = sum_i (||x_i - mu_zi||^2_A_zi
#'   - log det A_zi) + sum_{ML, z_a != z_b} w_l/2 (||x_a - x_b||^2_A_za +
#'   ||x_a - x_b||^2_A_zb) + sum_{CL, z_a = z_b = h} w_l (D_h - ||x_a -
#'   x_b||^2_A_h) + rho s2 sum_h tr(A_h),}
#' where \eqn{\rho}{rho} is `ridge` and \eqn{s^2}{s2} the mean column
#' variance of `x` (1 if it is 0). \eqn{D_h} bounds the largest squared
#' distance under \eqn{A_h}: with \eqn{r_d} the range (max - min) of column
#' \eqn{d}, \eqn{D_h = c \sum_d A_h[d,d]\, r_d^2}{D_h = c sum_d A_h[d,d]
#' r_d^2} with \eqn{c = 1} for `"diagonal"` and `"none"` (tight for a box)
#' and \eqn{c = p} for `"full"` (for PSD \eqn{A} and \eqn{|v_d| \le r_d},
#' \eqn{v^\top A v \le (\sum_d \sqrt{A_{dd}} r_d)^2 \le p \sum_d A_{dd} r_d^2}{v'Av
#' <= (sum_d sqrt(A_dd) r_d)^2 <= p sum_d A_dd r_d^2}), so a broken
#' cannot-link never costs less than 0. With `metric = "none"` every
#' \eqn{A_h} is the identity and \eqn{J} has neither the log-determinant nor
#' the ridge term; without side information it is then the k-means
#' objective. `within`, `logdet` (\eqn{\sum_i \log\det A_{z_i}}{sum_i log det
#' A_zi}), `penalty` and `regularization` (the ridge term) of the result are
#' the parts of \eqn{J}: `within - logdet + penalty + regularization` is its
#' last value.
#'
#' **Deviations from Bilenko et al. (2004).** (1) They take \eqn{D_h} as the
#' squared distance of the two points farthest apart under \eqn{A_h}, which
#' costs \eqn{O(n^2)} and is not linear in \eqn{A_h}; the bound above is, so
#' every step below minimizes \eqn{J} exactly and \eqn{J} never increases.
#' With `"full"` the bound can exceed the true largest distance by a factor
#' up to \eqn{p}, so cannot-links weigh more than in the original. (2) The
#' ridge term is an addition: it keeps the log-determinant finite for tiny or
#' degenerate clusters, and makes the metric update the exact minimizer of
#' \eqn{J}. (3) Confidences weight the penalties (the original's \eqn{w_{ij}}
#' and \eqn{\bar w_{ij}}{wbar_ij}), and the neighbourhoods used for seeding
#' ignore them.
#'
#' @section Algorithm:
#' Block coordinate descent; each step minimizes \eqn{J} exactly over its
#' block.
#' 1. **Assignment** (centres and metrics fixed): iterated conditional modes;
#'    the points, in a new random order each iteration (a uniformly random
#'    permutation, or on large data blocks of consecutive rows in a random
#'    order, each block in row order, so that memory access stays local),
#'    each move to the
#'    cluster minimizing \eqn{J} with all else fixed (their distance under
#'    the cluster's metric minus its log-determinant, plus the penalties of
#'    their constraints given the partners' current clusters); a point stays
#'    unless another cluster is strictly cheaper. In the very first step,
#'    constraints to points not yet assigned are ignored.
#' 2. **Centres**: the cluster means (the penalties do not involve the
#'    centres); an empty cluster keeps its centre.
#' 3. **Metrics** (unless `"none"`): \eqn{A_h = n_h (S_h + \rho s^2
#'    I)^{-1}}{A_h = n_h (S_h + rho s2 I)^-1} for `"full"` and the same on the
#'    diagonal alone for `"diagonal"`, where \eqn{S_h} is the scatter of
#'    cluster \eqn{h} around \eqn{\mu_h}{mu_h}, plus \eqn{\frac{w}{2}
#'    (x_a - x_b)(x_a - x_b)^\top}{w/2 (x_a - x_b)(x_a - x_b)'} for every broken
#'    must-link with an end in \eqn{h}, plus \eqn{w (R - (x_a - x_b)(x_a -
#'    x_b)^\top)}{w (R - (x_a - x_b)(x_a - x_b)')} for every broken
#'    cannot-link in \eqn{h}, \eqn{R = c\,\mathrm{diag}(r^2)}{R = c diag(r^2)}
#'    (positive semidefinite). An empty cluster keeps its metric.
#'
#' A run stops when an assignment step moves no point (the centres and
#' metrics, functions of the assignment, are then fixed too, and no single
#' point can move and lower \eqn{J}), or after `max_iter` iterations with
#' `converged = FALSE` and a warning. `objective` records \eqn{J} after
#' every iteration. An iteration costs \eqn{O(k p (n + m))} for \eqn{m}
#' constraints with `"diagonal"` or `"none"` and \eqn{O(k p^2 (n + m))} with
#' `"full"`. Memory: `x` is read where it is, in R's own layout (no copy of
#' it is made), beside the pairs' lists and, with learned metrics, the
#' difference \eqn{x_a - x_b} of every pair (\eqn{m p} numbers, so one copy
#' of the data at one pair per point), computed once per fit as long as they
#' take at most 512 MiB: a
#' sweep that reads the partners' coordinates instead waits on memory and
#' took about 10\% longer at \eqn{n = m = 10^6}{n = m = 1e6}, p = 10. One
#' difference serves both ends of a pair: only its squared norms are used,
#' which are the same for \eqn{x_b - x_a}.
#' Of `restarts` runs the one with the lowest final \eqn{J} is kept;
#' clusters left empty at the end are dropped and the others renumbered
#' consecutively (so `k` can be smaller than asked), and the final \eqn{J} is
#' computed over the clusters kept.
#'
#' **Seeding** (`init = "neighbourhoods"`, after Basu, Banerjee & Mooney
#' 2002): the neighbourhoods are the connected components of the must-link
#' graph (pairs of positive confidence) with at least two points. With at
#' least `k` of them, `k` of their centroids are chosen by weighted
#' farthest-first traversal (the largest first, then each time the one
#' maximizing its size times its squared distance to the nearest chosen);
#' with fewer, all their centroids are used and the others drawn by k-means++
#' \eqn{D^2} sampling among the points. Without must-links this is k-means++.
#' The metrics start at the identity.
#'
#' @inheritParams cvqe
#' @param side Pairwise side information: `NULL`, a [constraints()] object,
#'   a TVClust matrix E, a data.frame of pairs, or partial labels (expanded
#'   into all labelled pairs, at most `max_pairs`); see [as_constraints()].
#'   Confidences weight the penalties.
#' @param metric The metric each cluster learns: `"diagonal"` (a diagonal
#'   matrix, the default), `"full"` (a full positive definite matrix) or
#'   `"none"` (the identity: PCK-means).
#' @param restarts Number of runs from different seeds; the one with the
#'   lowest final objective is kept. Ignored (1) with `start`.
#' @param max_iter Maximum number of iterations (assignment, centre and
#'   metric steps) per run.
#' @param init Seeding: `"neighbourhoods"` (see Details), `"kmeans++"` (D^2
#'   sampling, the first seed uniform) or `"random"` (`k` points with distinct
#'   values drawn uniformly). Uses R's random number generator, as does the
#'   random visiting order, so [set.seed()] reproduces the fit.
#' @param start Optional `k` x `ncol(x)` matrix of initial centres; then one
#'   run is made and `init` is recorded as `"start"`.
#' @param ridge Non-negative regularization of the metrics: \eqn{J} includes
#'   `ridge` times the mean column variance of `x` times the trace of every
#'   metric, which bounds the metric of a tiny or degenerate cluster. With 0
#'   such a cluster makes the fit fail. Unused with `metric = "none"`.
#' @param verbose Print the objective after every iteration.
#' @param threads Threads of each assignment step: with 2 (the default is
#'   `getOption("sideclust.threads", 2L)`) on large data, a helper thread
#'   computes the points' distances to the centres and adds up the cluster
#'   sums while the calling thread settles the points with their
#'   constraints, in the same order, so the fit is the same for any
#'   `threads`. More than 2 are used as 2. Under a [future::plan()] with
#'   several workers the restarts run on the workers, each on one thread
#'   unless `threads` is given.
#' @param ... For `pck_means()`: further arguments of `mpck_means()` except
#'   `metric`.
#' @return An object of class `c("mpck_means", "sideclust")` (from both
#'   functions), a list with
#'   \item{cluster}{integer cluster of every point, `1..k`.}
#'   \item{centers}{`k` x `p` matrix of centres, row `h` for cluster `h`.}
#'   \item{metrics}{the metrics: a `k` x `p` matrix of the diagonals (row
#'     `h` for cluster `h`) for `"diagonal"`, a list of `k` `p` x `p`
#'     matrices for `"full"`, `NULL` (the identity) for `"none"`.}
#'   \item{k}{number of (non-empty) clusters.}
#'   \item{size}{points per cluster.}
#'   \item{objective}{\eqn{J} after every iteration of the run kept.}
#'   \item{within, logdet, penalty, regularization}{the parts of the final
#'     \eqn{J} (see Objective).}
#'   \item{iterations, converged}{iterations of the run kept and whether it
#'     stopped because no point moved.}
#'   \item{restarts, init}{runs made and how they were seeded.}
#'   \item{metric, ridge}{the metric learned and the ridge used.}
#'   \item{side}{the pairwise constraints used (`NULL` for none).}
#'   \item{call}{the call.}
#' @references
#' Bilenko, M., Basu, S. and Mooney, R. J. (2004). Integrating constraints
#' and metric learning in semi-supervised clustering. Proceedings of the
#' 21st International Conference on Machine Learning (ICML).
#'
#' Basu, S., Banerjee, A. and Mooney, R. J. (2004). Active semi-supervision
#' for pairwise constrained clustering. SIAM International Conference on
#' Data Mining.
#'
#' Basu, S., Banerjee, A. and Mooney, R. J. (2002). Semi-supervised
#' clustering by seeding. Proceedings of the 19th International Conference on
#' Machine Learning (ICML).
#' @seealso [predict.mpck_means()], [cvqe()], [constraints()],
#'   [sample_constraints()], [violations()].
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' side <- sample_constraints(iris$Species, "nelson_cohen", n_constraints = 60)
#' fit <- mpck_means(x, side, k = 3)
#' fit
#' fit$metrics
#' compare_partitions(iris$Species, fit$cluster)
#'
#' # a full metric per cluster
#' full <- mpck_means(x, side, k = 3, metric = "full", restarts = 3)
#' full$metrics[[1]]
#'
#' # PCK-means: Euclidean distances, distance-scaled penalties
#' pck <- pck_means(x, side, k = 3)
#' table(pck$cluster, iris$Species)
#' @export
mpck_means <- function(x, side = NULL, k, metric = c("diagonal", "full", "none"),
                       restarts = 10L, max_iter = 100L,
                       init = c("neighbourhoods", "kmeans++", "random"), start = NULL,
                       ridge = 1e-6, max_pairs = 1e6, verbose = FALSE,
                       threads = getOption("sideclust.threads", 2L)) {
  metric <- match_choice(metric, c("diagonal", "full", "none"), "metric")
  mpck_means_fit(x, side, k, metric, restarts, max_iter, init, start, ridge, max_pairs,
                 verbose, threads, threads_given = !missing(threads), call = match.call(),
                 name = "mpck_means")
}

#' @rdname mpck_means
#' @export
pck_means <- function(x, side = NULL, k, ...) {
  if ("metric" %in% ...names()) {
    stop_arg("metric", "is always \"none\" in pck_means(); use mpck_means() to learn metrics")
  }
  mpck_means_fit(x, side, k, "none", ..., threads_given = "threads" %in% ...names(),
                 call = match.call(), name = "pck_means")
}

# The shared body of mpck_means() and pck_means(), with mpck_means()'s
# defaults for pck_means(); `name` is the function the user called,
# `threads_given` whether the call set `threads`.
mpck_means_fit <- function(x, side, k, metric, restarts = 10L, max_iter = 100L,
                           init = c("neighbourhoods", "kmeans++", "random"), start = NULL,
                           ridge = 1e-6, max_pairs = 1e6, verbose = FALSE,
                           threads = getOption("sideclust.threads", 2L), threads_given = TRUE,
                           call, name) {
  # the core reads x in place: no transposed copy
  a <- check_prototype_fit(x, side, k, start, restarts, max_iter, init, verbose, max_pairs,
                           inits = c("neighbourhoods", "kmeans++", "random"), transpose = FALSE)
  ridge <- check_number(ridge, "ridge", lower = 0)
  threads <- check_count(threads, "threads", lower = 1L)
  threads <- run_threads(threads, threads_given, a$restarts)
  res <- prototype_runs(a, .mpck_means_cpp, list(metric = metric, ridge = ridge, threads = threads),
                        points = a$x)
  fit <- prototype_fit(res, a, name, call,
                       stats = list(metrics = mpck_metrics_r(res$metrics, metric, colnames(a$x)),
                                    within = res$within, penalty = res$penalty,
                                    logdet = res$logdet, regularization = res$regularization),
                       settings = list(metric = metric, ridge = ridge))
  finish_fit(fit, a$x, "mpck_means")
}

# The core's metrics in the fit's shape: k x p diagonals, a list of p x p
# matrices, or NULL; named by the columns of x.
mpck_metrics_r <- function(metrics, metric, cols) {
  if (metric == "diagonal") {
    out <- t(metrics)
    dimnames(out) <- list(NULL, cols)
    return(out)
  }
  if (metric == "full") {
    return(lapply(metrics, function(a) {
      dimnames(a) <- list(cols, cols)
      a
    }))
  }
  NULL
}
