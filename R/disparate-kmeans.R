#' Disparate (decorrelated) k-means: two different clusterings of the same data
#'
#' Finds two clusterings of the same points, with `r` and `s` clusters, that
#' show different structure in the data (Jain, Meka & Dhillon 2008, as
#' summarized in Section 12 of the technical report "Clustering constrained
#' by dependencies", Virginia Tech TR-09-12, 2009). It minimizes
#' \deqn{F = \sum_{i=1}^r \sum_{g \in c^{(x)}_i} \|g - m^{(x)}_i\|^2 +
#'   \sum_{j=1}^s \sum_{g \in c^{(y)}_j} \|g - m^{(y)}_j\|^2 +
#'   \lambda \sum_{i=1}^r \sum_{j=1}^s ({m^{(x)}_i}^T m^{(y)}_j)^2,}{F =
#'   sum_i sum_{g in c1_i} |g - m1_i|^2 + sum_j sum_{g in c2_j} |g - m2_j|^2 +
#'   lambda sum_i sum_j (m1_i' m2_j)^2,}
#' two k-means objectives plus a penalty that pushes every prototype of one
#' clustering towards orthogonality to every prototype of the other. Points
#' are assigned to their nearest prototype in each clustering, so orthogonal
#' prototypes split the data along orthogonal directions: the two clusterings
#' then tend to be independent.
#'
#' @section Algorithm:
#' Each run seeds both sets of prototypes independently (by `init`) and
#' assigns every point to its nearest prototype in each clustering. Then every
#' iteration
#' 1. moves the prototypes given the assignments: all \eqn{m^{(x)}_i} given
#'    the \eqn{m^{(y)}_j}, then all \eqn{m^{(y)}_j} given the new
#'    \eqn{m^{(x)}_i}, and again, until they stop moving (with `lambda = 0` one
#'    round is exact). Each update is the exact minimizer of \eqn{F}:
#'    \eqn{m^{(x)}_i} solves \eqn{(|c^{(x)}_i| I + \lambda M_y M_y^T) m =}{(|c1_i| I
#'    + lambda M2 M2') m =} the sum of the points of \eqn{c^{(x)}_i}, i.e.
#'    \eqn{m = (I + \lambda / |c^{(x)}_i| M_y M_y^T)^{-1}}{m = (I + lambda /
#'    |c1_i| M2 M2')^{-1}} times the cluster's mean (TR-09-12's update,
#'    whose right-hand side is the sample mean), and symmetrically for
#'    \eqn{m^{(y)}_j}. When \eqn{\lambda} is large and the two sets cannot
#'    be made orthogonal these alternating updates zig-zag slowly, so between
#'    them a Newton step on all prototypes at once is tried (when there are
#'    at most 400 prototype coordinates) and kept only if it lowers \eqn{F};
#' 2. reassigns every point to its nearest prototype in both clusterings.
#'
#' It stops when no assignment changes (`converged`) or after `max_iter`
#' iterations (with a warning). Every step minimizes \eqn{F} over one block
#' of variables, so `objective`, \eqn{F} after every iteration, never
#' increases, and a converged fit is a fixed point: every point is at its
#' nearest prototype in both clusterings and every prototype solves its
#' linear system. A cluster that becomes empty has only the penalty term; its
#' prototype moves to the nearest minimizer of that term, its projection onto
#' the orthogonal complement of the other clustering's prototypes (or stays
#' where it is when `lambda = 0`). Of `restarts` runs, the one with the
#' lowest final \eqn{F} is kept.
#'
#' @section Centring and lambda:
#' Orthogonal prototypes mean independent splits only for data centred at the
#' origin (otherwise every prototype shares the data's mean and cannot be
#' orthogonal to the others), so by default (`center = TRUE`) the column means
#' are subtracted first. \eqn{F}, `objective`, `within` and `penalty` are
#' those of the centred data; `centers`, `centers2` and `start` are in the
#' original coordinates (the column means added back).
#'
#' The default \eqn{\lambda = 10 n / v}, where \eqn{v} is the mean squared
#' norm of the (centred) rows, makes the penalty of two aligned prototypes of
#' typical squared norm \eqn{v}, \eqn{\lambda v^2 = 10 n v}, ten times the
#' total sum of squares, so that it outweighs what the k-means terms gain by
#' finding the same grouping twice (with \eqn{n / v}, two clusterings can
#' still share one grouping by shrinking their prototypes towards the origin,
#' as they did on the synthetic data of a benchmark (`vignette("performance")`), while
#' every value from \eqn{3 n / v} to \eqn{1000 n / v} found the two groupings
#' there). It also makes the fit independent of the units of `x`
#' (multiplying `x` by a constant gives the same clusters). The value used is
#' returned as `lambda`.
#'
#' @param x Data: a numeric matrix or data.frame, one row per point (for
#'   `print()`, a `disparate_kmeans` fit).
#' @param k Number of clusters: one number for both clusterings, or two,
#'   `c(r, s)`. May be omitted when `start` is given.
#' @param lambda Weight \eqn{\lambda \ge 0} of the decorrelation penalty;
#'   `NULL` for the default (see Centring and lambda). With `lambda = 0` the
#'   two clusterings are two independent runs of Lloyd's k-means.
#' @param restarts Number of runs from independent seeds; the fit with the
#'   lowest final \eqn{F} is kept.
#' @param max_iter Maximum number of iterations per run.
#' @param center Subtract the column means before clustering (see Centring
#'   and lambda).
#' @param init How prototypes are seeded: `"kmeans++"` (Arthur &
#'   Vassilvitskii 2007) or `"random"` (distinct rows drawn uniformly), drawn
#'   independently for the two clusterings with R's generator, so
#'   [set.seed()] reproduces a fit.
#' @param start Optional starting prototypes: a list of two numeric matrices,
#'   `r` x `p` and `s` x `p`, in the coordinates of `x`. Then a single run
#'   starts from them (`restarts` and `init` are ignored).
#' @param verbose Print \eqn{F} after every iteration.
#' @return An object of class `c("disparate_kmeans", "sideclust")`, a list
#'   with
#'   \item{cluster, cluster2}{the two clusterings (integers in `1..r` and
#'     `1..s`); `cluster` is the one the shared [sideclust-methods] use.}
#'   \item{clusters}{both as an `n` x 2 integer matrix.}
#'   \item{centers, centers2}{the prototypes, `r` x `p` and `s` x `p`, in the
#'     coordinates of `x`.}
#'   \item{k, k2}{`r` and `s`: the number of non-empty clusters of each
#'     clustering. A cluster left empty at the end is dropped with its
#'     prototype and the others renumbered, so `k` can be below what was
#'     asked; `objective`, `within` and `penalty` are those of the run before
#'     the drop (an empty prototype is moved orthogonal to the other clustering's,
#'     so it adds little or nothing to the penalty).}
#'   \item{lambda}{the penalty weight used.}
#'   \item{objective}{\eqn{F} after every iteration of the kept run.}
#'   \item{within, penalty}{the two k-means terms and the penalty term of
#'     the final \eqn{F}.}
#'   \item{iterations, converged}{iterations of the kept run and whether it
#'     stopped because no assignment changed.}
#'   \item{restarts, init, center, call}{the settings used; `center` holds
#'     the column means subtracted (`NULL` when `center = FALSE`), `init` is
#'     `"start"` when `start` was given.}
#' @references
#' Jain, P., Meka, R. and Dhillon, I. S. (2008). Simultaneous unsupervised
#' learning of disparate clusterings. Statistical Analysis and Data Mining
#' 1(3), 195-210.
#' @seealso [predict.disparate_kmeans()], [nmi()], [stats::kmeans()].
#' @examples
#' # four blobs: the sign of each coordinate is a grouping of its own
#' set.seed(1)
#' a <- rep(c(-1, 1), each = 50)
#' b <- rep(c(-1, 1), times = 50)
#' x <- cbind(4 * a, 2 * b) + matrix(rnorm(200, sd = 0.5), 100)
#' fit <- disparate_kmeans(x, k = 2, restarts = 3)
#' fit
#' # which clustering found which grouping (their order is arbitrary)
#' sapply(list(first = fit$cluster, second = fit$cluster2),
#'        function(cl) c(sign_of_x1 = nmi(a, cl), sign_of_x2 = nmi(b, cl)))
#'
#' # without the penalty both clusterings split along the first coordinate
#' fit0 <- disparate_kmeans(x, k = 2, lambda = 0, restarts = 3)
#' nmi(fit0$cluster, fit0$cluster2)
#' @export
disparate_kmeans <- function(x, k, lambda = NULL, restarts = 10L, max_iter = 100L,
                             center = TRUE, init = c("kmeans++", "random"),
                             start = NULL, verbose = FALSE) {
  call <- match.call()
  x <- check_points(x, "x", min_rows = 2L)
  n <- nrow(x)
  p <- ncol(x)
  center <- check_flag(center, "center")
  init <- match_choice(init, c("kmeans++", "random"), "init")
  restarts <- check_count(restarts, "restarts")
  max_iter <- check_count(max_iter, "max_iter")
  verbose <- check_flag(verbose, "verbose")
  mu <- if (center) colMeans(x) else NULL
  xc <- if (center) x - rep(mu, each = n) else x
  if (is.null(start)) {
    if (missing(k)) stop_arg("k", "is missing: give the number of clusters (or `start`)")
    k <- check_disparate_k(k, x)
    start <- list(matrix(0, p, 0L), matrix(0, p, 0L))
  } else {
    start <- check_disparate_start(start, x)
    k_start <- vapply(start, nrow, integer(1))
    if (!missing(k)) {
      k <- check_disparate_k(k, x)
      if (any(k != k_start)) {
        stop_arg("start", sprintf("has %d and %d prototypes but `k` asks for %d and %d",
                                  k_start[1], k_start[2], k[1], k[2]))
      }
    }
    k <- k_start
    start <- lapply(start, function(m) t(if (center) m - rep(mu, each = nrow(m)) else m))
    restarts <- 1L
    init <- "start"
  }
  if (is.null(lambda)) {
    v <- sum(xc^2) / n
    lambda <- if (v > 0) 10 * n / v else 0
  } else {
    lambda <- check_number(lambda, "lambda", lower = 0)
  }

  xt <- transpose_points(xc)
  options <- list(k1 = k[1], k2 = k[2], lambda = lambda, restarts = 1L, max_iter = max_iter,
                  init = init, start1 = start[[1]], start2 = start[[2]], verbose = verbose)
  res <- best_run(restarts, function(r) .disparate_kmeans_cpp(xt, options),
                  function(run) sum(run$within) + run$penalty)
  if (!res$converged) {
    warning(sprintf("disparate_kmeans() did not converge in `max_iter` = %d iterations",
                    max_iter), call. = FALSE)
  }
  to_original <- function(m) {
    m <- t(m)
    if (center) m <- m + rep(mu, each = nrow(m))
    dimnames(m) <- list(NULL, colnames(x))
    m
  }
  first <- drop_empty_prototypes(res$cluster1, to_original(res$centers1))
  second <- drop_empty_prototypes(res$cluster2, to_original(res$centers2))
  fit <- list(
    cluster = first$cluster, cluster2 = second$cluster,
    clusters = cbind(cluster = first$cluster, cluster2 = second$cluster),
    centers = first$centers, centers2 = second$centers,
    k = nrow(first$centers), k2 = nrow(second$centers), lambda = lambda,
    objective = res$objective,
    within = res$within, penalty = res$penalty,
    iterations = res$iterations, converged = res$converged,
    restarts = restarts, init = init, center = mu, call = call
  )
  fit <- finish_fit(fit, x, "disparate_kmeans")
  fit
}

# A clustering without its empty clusters: the others keep their order and
# are renumbered 1..k, their prototypes (rows of `centers`) alike.
drop_empty_prototypes <- function(cluster, centers) {
  used <- sort(unique(cluster))
  list(cluster = match(cluster, used), centers = centers[used, , drop = FALSE])
}
