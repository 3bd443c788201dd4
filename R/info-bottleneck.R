#' Information bottleneck clustering: iterative, agglomerative and sequential
#'
#' Cluster the rows \eqn{x} of a joint distribution \eqn{p(x, y)} (or of a
#' matrix of co-occurrence counts, normalized to sum 1) so that the clusters
#' \eqn{C} keep as much information \eqn{I(C;Y)} about the columns as possible
#' while compressing \eqn{X} (small \eqn{I(C;X)}): documents by their words,
#' genes by the conditions they respond to. Natural logarithms (nats)
#' throughout.
#'
#' * `ib()` is the iterative (soft) IB of Tishby, Pereira & Bialek, minimizing
#'   \eqn{L = I(C;X) - \beta I(C;Y)} by iterating the self-consistent
#'   equations \eqn{p(c|x) \propto p(c) \exp(-\beta KL[p(y|x) \| p(y|c)])},
#'   \eqn{p(c) = \sum_x p(x) p(c|x)}, \eqn{p(y|c) = \sum_x p(x,y) p(c|x) /
#'   p(c)} from `restarts` random memberships until no membership changes by
#'   more than `tol`, keeping the start with the lowest \eqn{L}. Large `beta`
#'   gives (nearly) hard clusters; as `beta` goes to 0 every \eqn{p(c|x)}
#'   tends to \eqn{p(c)}, one effective cluster.
#' * `aib()` is the agglomerative IB (Slonim & Tishby): from singletons, merge
#'   the two clusters whose merge loses least \eqn{I(C;Y)}, the loss being
#'   \eqn{(p(c_i) + p(c_j)) JS_\Pi[p(y|c_i), p(y|c_j)]}; see [aib_cut()] and
#'   the information curve `plot()`.
#' * `sib()` is the sequential IB (Slonim, Friedman & Tishby), hard version:
#'   from a random partition into `k` clusters, each point in random order is
#'   drawn out and put back in the cluster with the smallest merge cost, until
#'   a pass moves no point (then no single move raises \eqn{I(C;Y)});
#'   `restarts` runs keep the highest \eqn{I(C;Y)}.
#'
#' @section Cost:
#' The merge cost of a point into a cluster depends only on the point's
#' non-zero columns plus cluster masses (the terms of the other columns
#' cancel), so with the cluster joints \eqn{p(y, c)} and their \eqn{p \log p}
#' cached, one sib evaluation costs \eqn{O(nnz(x))} and a pass \eqn{O(nnz \cdot
#' k)}. An ib iteration costs \eqn{O(nnz \cdot k + m k)}. aib stores all
#' pairwise merge costs, \eqn{O(n^2)} memory (8 bytes per pair, 100 MB for
#' 5,000 rows), and keeps each cluster's best partner, so after a merge only
#' the merged cluster's costs are recomputed and only the clusters whose best
#' partner was merged are rescanned; `max_rows` guards the memory.
#'
#' @param x Non-negative matrix, data.frame or sparse `Matrix` of counts or
#'   joint probabilities; rows are the objects to cluster, columns the
#'   auxiliary variable. It is normalized to sum 1. Rows that are all zero
#'   are an error (drop them first).
#' @param k Number of clusters (at most `nrow(x)`). For `aib()` the level
#'   at which `cluster` is cut (any other with [aib_cut()]).
#' @param beta Trade-off \eqn{\beta > 0} of `ib()`.
#' @param restarts Number of random starts; the best is kept.
#' @param max_iter Maximum number of iterations (ib) or passes (sib) per start.
#' @param tol ib stops when no \eqn{p(c|x)} changes by more than `tol`.
#' @param start Optional initial partition for `sib()` (integers `1..k`, one
#'   per row), used by the first start.
#' @param max_rows `aib()` refuses more rows than this (memory grows as
#'   \eqn{n^2}).
#' @param verbose Print one line per iteration or pass.
#' @return A list of class `c("ib", "sideclust")`, `c("aib", "sideclust")` or
#'   `c("sib", "sideclust")` with
#'   \item{cluster, k}{hard clusters `1..k` (numbered by first row; for `ib()`
#'     the most probable cluster, and `k` the number of distinct ones).}
#'   \item{info_x, info_y, info_xy}{\eqn{I(C;X)}, \eqn{I(C;Y)} and
#'     \eqn{I(X;Y)}; for hard partitions \eqn{I(C;X) = H(C)}.}
#'   \item{objective, iterations, converged}{`ib()`: \eqn{L} after each
#'     iteration; `sib()`: \eqn{I(C;Y)} after each pass; both of the best
#'     start; `aib()`: \eqn{I(C;Y)} before the first merge and after each
#'     merge down to `k` clusters.}
#'   \item{membership}{`ib()` only: the soft \eqn{p(c|x)} (`n` x `k`, columns
#'     in the order of `cluster`, unused clusters last).}
#'   \item{pc, pyc}{\eqn{p(c)} and \eqn{p(y|c)} (`k` x `m`) of the clusters,
#'     what [predict()][predict-info] uses.}
#'   \item{total_mass}{the sum of `x` as given; a new row's weight in
#'     [predict()][predict-info] is its sum over this.}
#'   \item{restart_objective, restart_info}{best value of each start.}
#'   \item{moves, pass_seconds}{`sib()` only: points moved in the best run,
#'     and the wall time of each of its passes (the sweep plus the rebuild
#'     of the cluster statistics after it, which drops rounding drift).}
#'   \item{merge, height, loss, order, info_curve}{`aib()` only: the merges in
#'     [stats::hclust()]'s convention, the cumulative loss
#'     \eqn{I(X;Y) - I(C;Y)} after each (non-decreasing), the loss of each,
#'     a dendrogram leaf order, and a data frame of `k`, \eqn{I(C;X)},
#'     \eqn{I(C;Y)} for every number of clusters.}
#' @references
#' Tishby, N., Pereira, F. and Bialek, W. (1999). The information bottleneck
#' method. Allerton Conference.
#'
#' Slonim, N. and Tishby, N. (1999). Agglomerative information bottleneck.
#' NIPS 12.
#'
#' Slonim, N., Friedman, N. and Tishby, N. (2002). Unsupervised document
#' classification using sequential information maximization. SIGIR.
#' @seealso [aib_cut()], [itcc()], [cross_associations()].
#' @examples
#' # Three groups of rows with different column profiles
#' set.seed(1)
#' profiles <- rbind(c(8, 1, 1, 1), c(1, 8, 1, 1), c(1, 1, 4, 4))
#' counts <- t(sapply(rep(1:3, each = 10), function(g) rpois(4, profiles[g, ]) + 1))
#' fit <- sib(counts, k = 3, restarts = 3)
#' table(fit$cluster, rep(1:3, each = 10))
#' fit$info_y / fit$info_xy
#'
#' soft <- ib(counts, k = 3, beta = 50)
#' round(head(soft$membership), 3)
#'
#' tree <- aib(counts, k = 3)
#' table(aib_cut(tree, 2), rep(1:3, each = 10))
#' plot(tree)
#' @export
ib <- function(x, k, beta, restarts = 5L, max_iter = 500L, tol = 1e-8,
               verbose = FALSE) {
  call <- match.call()
  csr <- as_joint_csr(x, "x", zero_rows = FALSE)
  k <- check_k(k, csr$n_rows)
  if (missing(beta)) stop_arg("beta", "is missing")
  beta <- check_number(beta, "beta", lower = 0, lower_open = TRUE)
  restarts <- check_count(restarts, "restarts")
  max_iter <- check_count(max_iter, "max_iter")
  tol <- check_number(tol, "tol", lower = 0)
  verbose <- check_flag(verbose, "verbose")
  r <- best_recorded_run(restarts, function(o) .ib_cpp(csr, o),
                         list(k = k, beta = beta, max_iter = max_iter, tol = tol,
                              verbose = verbose), "restart_objective")
  hard <- max.col(r$pcx, ties.method = "first")
  used <- unique(hard)
  perm <- c(used, setdiff(seq_len(k), used))
  membership <- r$pcx[, perm, drop = FALSE]
  dimnames(membership) <- list(csr$row_names, NULL)
  pyc <- r$pyc[perm, , drop = FALSE]
  colnames(pyc) <- csr$col_names
  fit <- list(cluster = match(hard, used), k = length(used), membership = membership,
              pc = r$pc[perm], pyc = pyc, info_x = r$info_x, info_y = r$info_y,
              info_xy = r$info_xy, beta = beta, objective = r$trace,
              restart_objective = r$restart_objective, iterations = r$iterations,
              converged = r$converged, k_requested = k, restarts = restarts,
              tol = tol, total_mass = sum(csr$val), call = call)
  fit <- finish_fit(fit, x, "ib")
  fit
}

#' @rdname ib
#' @export
aib <- function(x, k = 2L, max_rows = 5000L) {
  call <- match.call()
  max_rows <- check_count(max_rows, "max_rows", lower = 2L)
  csr <- as_joint_csr(x, "x", zero_rows = FALSE)
  n <- csr$n_rows
  if (n < 2L) stop_arg("x", "needs at least 2 rows for aib()")
  if (n > max_rows) {
    stop_arg("x", sprintf(paste0(
      "has %d rows; aib() stores all pairwise merge costs (%.0f MB), more than ",
      "`max_rows` = %d allows: raise `max_rows`, or use sib() for large data"),
      n, 4 * n * (n - 1) / 2^20, max_rows))
  }
  k <- check_k(k, n)
  r <- .aib_cpp(csr)
  fit <- list(merge = r$merge, height = r$info_xy - r$info_y, loss = r$loss,
              order = r$order, labels = csr$row_names,
              info_curve = data.frame(k = n:1, info_x = c(entropy_of(csr), r$info_x),
                                      info_y = c(r$info_xy, r$info_y)),
              info_xy = r$info_xy, iterations = n - 1L, converged = TRUE, call = call)
  class(fit) <- c("aib", "sideclust")
  fit$cluster <- aib_cut(fit, k)
  fit$k <- k
  fit$objective <- fit$info_curve$info_y[seq_len(n - k + 1L)]
  fit$info_x <- fit$info_curve$info_x[n - k + 1L]
  fit$info_y <- fit$info_curve$info_y[n - k + 1L]
  fit <- c(fit, cluster_profiles(csr, fit$cluster, k))
  fit <- finish_fit(fit, x, "aib")
  fit
}

#' @rdname ib
#' @export
sib <- function(x, k, restarts = 10L, max_iter = 100L, start = NULL,
                verbose = FALSE) {
  call <- match.call()
  csr <- as_joint_csr(x, "x", zero_rows = FALSE)
  k <- check_k(k, csr$n_rows)
  restarts <- check_count(restarts, "restarts")
  max_iter <- check_count(max_iter, "max_iter")
  verbose <- check_flag(verbose, "verbose")
  start <- check_partition_start(start, csr$n_rows, k, "start")
  r <- best_recorded_run(restarts, function(o) .sib_cpp(csr, o),
                         list(k = k, max_iter = max_iter, start = start, verbose = verbose),
                         "restart_info", maximize = TRUE, blank = list(start = integer(0)))
  cl <- first_seen(r$cluster)
  fit <- list(cluster = cl, k = max(cl), info_y = r$info_y, info_x = r$info_x,
              info_xy = r$info_xy, objective = r$trace, restart_info = r$restart_info,
              iterations = r$iterations, converged = r$converged, moves = r$moves,
              pass_seconds = r$pass_seconds, restarts = restarts, max_iter = max_iter, call = call)
  fit <- c(fit, cluster_profiles(csr, cl, fit$k))
  fit <- finish_fit(fit, x, "sib")
  fit
}

# H(X) of the row marginal of a CSR joint (normalized here).
entropy_of <- function(csr) {
  px <- diff(cumsum(c(0, csr$val))[csr$ptr + 1L])
  px <- px / sum(px)
  -sum(px[px > 0] * log(px[px > 0]))
}
