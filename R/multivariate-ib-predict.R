#' Assign new rows (or columns) to the clusters of a multivariate IB fit
#'
#' New objects go to the clusters of a fit held fixed, by the fitting
#' algorithm's own placement rule:
#'
#' * `symmetric_ib()`, `method = "sequential"`: the merge cost (26) of the
#'   new row, summed over the column clusters, into each row cluster,
#'   \eqn{d(x, c) = (p(x) + p(c)) JS_\Pi[p(c_Y|x), p(c_Y|c)] - \beta^{-1}
#'   (p(x) + p(c)) H(\Pi)}, its weight \eqn{p(x)} being its sum over the sum
#'   of the fitted `pxy` (keep `newdata` in the same units).
#' * `symmetric_ib()`, `method = "iterative"`: the stationary equation (21),
#'   \eqn{p(c_X|x) \propto p(c_X) \exp(-\beta KL[p(c_Y|x) \| p(c_Y|c_X)])}
#'   with \eqn{p(c_Y|x) = \sum_y p(y|x) p(c_Y|y)} from the fitted column
#'   memberships; `cluster` is the most probable cluster.
#' * `parallel_ib()`, `method = "sequential"`: the new row goes to the
#'   non-empty cell \eqn{t = (c_1, \dots, c_m)} of the fitted product
#'   partition with the smallest merge cost, the loss of \eqn{I(T;Y)} when it
#'   joins the cell minus \eqn{\beta^{-1}} times the gain of \eqn{\sum_j
#'   H(C_j)}; `clusters` gives its cluster in every clustering. Empty cells
#'   are not candidates: a row alone in a cell loses no information, so the
#'   functional would always send new rows there.
#' * `parallel_ib()`, `method = "iterative"`: the stationary equations (21)
#'   for the new row, \eqn{p(c_j|x) \propto p(c_j) \exp(-\beta
#'   \sum_{c_{-j}} p(c_{-j}|x) KL[p(y|x) \| p'(y|c_{-j}, c_j)])}, which
#'   couple the clusterings, solved by sweeping over them from
#'   \eqn{p(c_j|x) = p(c_j)} until no membership changes by more than the
#'   fit's `tol` (at most its `max_iter` sweeps). As for [ib()][predict-info],
#'   \eqn{p'(y|t)} is the cell's distribution once the row has joined it.
#'
#' `dimension = 2` (symmetric IB) places new columns, given as the columns
#' of `newdata`, among the column clusters the same way. Only the non-zero
#' entries of `newdata` are read. All-zero rows get `NA`.
#'
#' @param object A fit from [symmetric_ib()] or [parallel_ib()].
#' @param newdata Non-negative matrix, data.frame or sparse `Matrix` of new
#'   rows with the fitted number of columns (`dimension = 2`: new columns
#'   with the fitted number of rows), or one vector.
#'   Matched to the fitted columns (`dimension = 2`: rows) by name, see
#'   [predict-newdata].
#' @param dimension 1 for new rows, 2 for new columns (symmetric IB only).
#' @param ... Unused.
#' @return A list with `cluster` (integer) and `cost` (the merge cost of the
#'   chosen cluster or cell, nats); iterative symmetric fits give
#'   `divergence` (the KL to the chosen cluster) and `membership` instead of
#'   `cost`; `parallel_ib()` adds `clusters`, one column per clustering, and
#'   for iterative fits gives `membership` (a list, one `n` x `k[j]` matrix
#'   per clustering) and `iterations` (sweeps) instead of `cost`.
#' @seealso [predict.sib()][predict-info] for the single-sided IB fits.
#' @examples
#' set.seed(2)
#' blocks <- matrix(c(9, 1, 1, 9), 2) %x% matrix(1, 10, 4)
#' counts <- matrix(rpois(length(blocks), blocks), nrow(blocks))
#' fit <- symmetric_ib(counts[-c(1, 20), ], k_rows = 2, k_cols = 2, restarts = 3)
#' predict(fit, counts[c(1, 20), ])$cluster
#' par <- parallel_ib(counts[-c(1, 20), ], k = c(2, 2), restarts = 3)
#' predict(par, counts[c(1, 20), ])$clusters
#' @export
predict.symmetric_ib <- function(object, newdata, dimension = 1L, ...) {
  dimension <- check_count(dimension, "dimension", upper = 2L)
  newdata <- prediction_data(object, newdata, margin = 3L - dimension)  # new rows: columns by name
  joint <- if (dimension == 1L) object$joint else t(object$joint)
  if (object$method == "iterative") {
    w <- if (dimension == 1L) object$col_membership else object$membership
    csr <- new_joint_rows(newdata, nrow(w), columns = dimension == 2L)
    grouped <- rows_csr(as.matrix(csr_matrix(csr) %*% w))
    pc <- rowSums(joint)
    div <- kl_cost(grouped, joint / pc)
    out <- cheapest(object$beta * div - rep(log(pc), each = nrow(div)))
    return(cluster_prediction(probability = na_if_empty(soft_assign(div, pc, object$beta), csr),
                              rows = csr$row_names, cluster = na_if_empty(out$cluster, csr)))
  }
  groups <- if (dimension == 1L) object$col_cluster else object$cluster
  csr <- new_joint_rows(newdata, length(groups), columns = dimension == 2L)
  grouped <- group_columns(csr, groups, ncol(joint))
  cost <- merge_cost(grouped, joint, object$total_mass, 1 / object$beta)
  cluster_prediction(cost = na_if_empty(cost, csr), rows = csr$row_names)
}

#' @rdname predict.symmetric_ib
#' @export
predict.parallel_ib <- function(object, newdata, ...) {
  newdata <- prediction_data(object, newdata)
  csr <- new_joint_rows(newdata, ncol(object$cell_pyc))
  if (object$method == "iterative") return(predict_soft_parallel(object, csr))
  cost <- merge_cost(csr, object$cell_pc * object$cell_pyc, object$total_mass)
  if (object$beta < Inf) {
    # minus beta^-1 times the rise of sum_j H(C_j) when the row joins
    w <- csr_row_sums(csr, csr$val) / object$total_mass
    for (j in seq_len(ncol(object$cell_clusters))) {
      mass <- tapply(object$cell_pc, factor(object$cell_clusters[, j],
                                            seq_len(object$k[j])), sum, default = 0)
      gain <- outer(w, mass, function(a, b) xlogx(a + b) - xlogx(a) - xlogx(b))
      cost <- cost - gain[, object$cell_clusters[, j], drop = FALSE] / object$beta
    }
  }
  out <- cheapest(cost)
  clusters <- object$cell_clusters[out$cluster, , drop = FALSE]
  clusters[diff(csr$ptr) == 0L, ] <- NA
  dimnames(clusters) <- list(csr$row_names, colnames(object$clusters))
  # the first clustering's cost of each cluster: its cheapest cell
  first <- object$cell_clusters[, 1L]
  cost1 <- vapply(seq_len(object$k[1L]), function(c) {
    do.call(pmin, lapply(which(first == c), function(j) cost[, j]))
  }, numeric(nrow(cost)))
  cost1 <- matrix(cost1, nrow(cost))
  cluster_prediction(cost = na_if_empty(cost1, csr), rows = csr$row_names,
                     cluster = clusters[, 1L], clusters = clusters)
}

# The non-empty cells of a sequential parallel_ib() fit's product partition
# (their clusters and p(t), p(y|t)) and the fitted total, for predict().
parallel_cells <- function(csr, clusters) {
  key <- do.call(paste, c(as.data.frame(clusters), sep = "\r"))
  cell <- match(key, unique(key))
  profiles <- cluster_profiles(csr, cell, max(cell))
  cell_clusters <- clusters[!duplicated(cell), , drop = FALSE]
  rownames(cell_clusters) <- NULL
  list(cell_clusters = cell_clusters, cell_pc = profiles$pc, cell_pyc = profiles$pyc,
       total_mass = profiles$total_mass)
}

# The cells of an iterative parallel_ib() fit: every combination t of
# clusters (the first clustering's number varying fastest), with p(t) and
# p(y|t) of the soft memberships, p(t|x) = prod_j p(t_j|x).
soft_parallel_cells <- function(csr, membership) {
  cells <- as.matrix(expand.grid(lapply(membership, function(w) seq_len(ncol(w)))))
  dimnames(cells) <- NULL
  w <- matrix(1, nrow(membership[[1L]]), nrow(cells))
  for (j in seq_along(membership)) w <- w * membership[[j]][, cells[, j], drop = FALSE]
  joint <- as.matrix(Matrix::crossprod(w, csr_matrix(csr))) / sum(csr$val)
  pc <- rowSums(joint)
  list(cell_clusters = cells, cell_pc = pc, cell_pyc = joint / pmax(pc, .Machine$double.xmin),
       total_mass = sum(csr$val))
}

# Equations (21) of parallel IB for new rows with the fit held fixed, by
# sweeps over the clusterings from p(c_j|x) = p(c_j).
predict_soft_parallel <- function(object, csr) {
  cells <- object$cell_clusters
  kl <- kl_cost(csr, object$cell_pyc, object$total_mass, object$cell_pc)
  n <- csr$n_rows
  prior <- lapply(seq_len(ncol(cells)), function(j) {
    drop(rowsum(object$cell_pc, cells[, j], reorder = TRUE))
  })
  memb <- lapply(prior, function(p) matrix(p, n, length(p), byrow = TRUE))
  iterations <- 0L
  repeat {
    iterations <- iterations + 1L
    change <- 0
    for (j in seq_along(memb)) {
      other <- matrix(1, n, nrow(cells))
      for (l in setdiff(seq_along(memb), j)) other <- other * memb[[l]][, cells[, l], drop = FALSE]
      d <- (other * kl) %*% outer(cells[, j], seq_along(prior[[j]]), "==")
      updated <- soft_assign(d, prior[[j]], object$beta)
      change <- max(change, abs(updated - memb[[j]]), na.rm = TRUE)
      memb[[j]] <- updated
    }
    if (change <= object$tol || iterations >= object$max_iter) break
  }
  if (any(is.nan(kl[, 1L]))) warn_unseen(which(is.nan(kl[, 1L])))
  unseen <- is.nan(kl[, 1L]) | diff(csr$ptr) == 0L
  clusters <- vapply(memb, function(w) max.col(w, ties.method = "first"), integer(n))
  clusters <- matrix(clusters, n, length(memb),
                     dimnames = list(csr$row_names, colnames(object$clusters)))
  clusters[unseen, ] <- NA
  memb <- lapply(memb, function(w) {
    w[unseen, ] <- NA
    w
  })
  cluster_prediction(probability = memb[[1L]], rows = csr$row_names, cluster = clusters[, 1L],
                     clusters = clusters, membership = memb, iterations = iterations)
}
