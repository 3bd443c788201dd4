#' Assign new rows (or columns) to the clusters of an information-bottleneck
#' or co-clustering fit
#'
#' New objects go to the clusters of a fit held fixed, by the rule the
#' fitting algorithm itself uses to place a point:
#'
#' * `sib()`, `aib()`: the sequential IB merge cost of the new row into each
#'   cluster, \eqn{d(x, c) = (p(x) + p(c))\, JS_\Pi[p(y|x), p(y|c)]}, the
#'   information about \eqn{Y} lost by adding the row to the cluster. The new
#'   row's weight \eqn{p(x)} is its sum divided by the sum of the fitted
#'   `pxy` (keep `newdata` in the same units: counts if counts were
#'   clustered); as \eqn{p(x) \to 0} the rule becomes the smallest
#'   \eqn{KL[p(y|x) \| p(y|c)]}. The cost is always finite.
#' * `ib()`: the IB's self-consistent equation \eqn{p(c|x) \propto p(c)
#'   \exp(-\beta KL[p(y|x) \| p'(y|c)])} with the fitted \eqn{p(c)} and
#'   \eqn{\beta}, where \eqn{p'(y|c) = (p(x) p(y|x) + p(c) p(y|c)) / (p(x) +
#'   p(c))} is the cluster's distribution once the new row (weighted as for
#'   `sib()`) has joined it. Without that step a word the fitted cluster
#'   never saw would put it infinitely far (or, with soft memberships,
#'   \eqn{\beta} times a huge log ratio away) from any new document using the
#'   word, and held-out documents would mostly go to the wrong clusters; as
#'   \eqn{p(x) \to 0} it is the equation itself, which is what the fitted
#'   memberships satisfy. `cluster` is the most probable cluster.
#' * `itcc()`: the row step of the algorithm, the smallest \eqn{KL[p(\hat
#'   Y|x) \| p(\hat Y|\hat x)]} over the row clusters, with the new row summed
#'   over the fitted column clusters (equal to the smallest \eqn{KL[p(Y|x) \|
#'   q(Y|\hat x)]} of the paper: the two differ by a term that does not depend
#'   on \eqn{\hat x}); `dimension = 2` places new columns the same way.
#'
#' Only the columns where a new row has mass matter, so sparse `newdata` is
#' never made dense; the costs are computed in C++ in O(non-zeros x k). For
#' the KL rules (`ib()`, `itcc()`) columns that every cluster gives
#' probability 0 (words the fit never saw) say nothing about the clusters and
#' are left out; a row with mass only there gets cluster `NA` with a warning.
#' A cluster that gives probability 0 to a column where the new row has mass
#' costs `Inf`, and a row for which every cluster does gets cluster `NA` and
#' divergence `Inf` (with a warning). All-zero rows of `newdata` carry no
#' information and get `NA` too.
#'
#' Predicting the fitted rows gives back `cluster` of a converged `itcc()`
#' fit (its row step moved no row). For `sib()` and `aib()` it need not: the
#' fit placed each row with the row itself taken out of its cluster, while
#' `predict()` keeps the clusters as fitted (a small difference that matters
#' for rows close to a boundary). For `ib()`, the fitted rows scaled down to
#' a vanishing weight (`predict(fit, pxy * 1e-9)`) get back `membership` to
#' about the fit's `tol`.
#'
#' @param object A fit from [sib()], [aib()], [ib()] or [itcc()].
#' @param newdata Non-negative matrix, data.frame or sparse `Matrix` of new
#'   rows, with the fitted number of columns (for `dimension = 2`: new
#'   columns, with the fitted number of rows), or one vector.
#'   Matched to the fitted columns (`dimension = 2`: rows) by name, see
#'   [predict-newdata].
#' @param dimension `itcc()` only: 1 for new rows, 2 for new columns.
#' @param ... Unused.
#' @return A list with `cluster` (integer, `NA` where no cluster can take the
#'   row) and, per rule, `cost` (the merge cost \eqn{d(x, c)} of the chosen
#'   cluster, nats) or `divergence` (the KL to the chosen cluster, nats);
#'   `ib()` adds `membership`, the \eqn{p(c|x)} (`n` x `ncol(object$membership)`).
#' @seealso [predict.symmetric_ib()] for the multivariate IB fits.
#' @examples
#' set.seed(1)
#' profiles <- rbind(c(8, 1, 1, 1), c(1, 8, 1, 1), c(1, 1, 4, 4))
#' group <- rep(1:3, each = 12)
#' counts <- t(sapply(group, function(g) rpois(4, profiles[g, ]) + 1))
#' fit <- sib(counts[-(1:3 * 12), ], k = 3, restarts = 3)
#' new <- counts[1:3 * 12, ]
#' predict(fit, new)$cluster
#' soft <- ib(counts, k = 3, beta = 20)
#' round(predict(soft, new)$probability, 3)
#' cc <- itcc(counts, k_rows = 3, k_cols = 2)
#' predict(cc, new)$cluster
#' @name predict-info
NULL

#' @rdname predict-info
#' @export
predict.sib <- function(object, newdata, ...) {
  newdata <- prediction_data(object, newdata)
  csr <- new_joint_rows(newdata, ncol(object$pyc))
  cost <- merge_cost(csr, object$pc * object$pyc, object$total_mass)
  cluster_prediction(cost = na_if_empty(cost, csr), rows = csr$row_names)
}

#' @rdname predict-info
#' @export
predict.aib <- predict.sib

#' @rdname predict-info
#' @export
predict.ib <- function(object, newdata, ...) {
  newdata <- prediction_data(object, newdata)
  csr <- new_joint_rows(newdata, ncol(object$pyc))
  div <- kl_cost(csr, object$pyc, object$total_mass, object$pc)
  out <- cheapest(object$beta * div - rep(log(object$pc), each = nrow(div)))
  membership <- soft_assign(div, object$pc, object$beta)
  cluster_prediction(probability = na_if_empty(membership, csr), rows = csr$row_names,
                     cluster = na_if_empty(out$cluster, csr))
}

#' @rdname predict-info
#' @export
predict.itcc <- function(object, newdata, dimension = 1L, ...) {
  dimension <- check_count(dimension, "dimension", upper = 2L)
  newdata <- prediction_data(object, newdata, margin = 3L - dimension)  # new rows: columns by name
  out <- coclustering_rule(object, newdata, dimension)
  cluster_prediction(cost = out$costs, rows = out$csr$row_names, cluster = out$cluster)
}

# The ITCC / hard symmetric-IB rule: new rows summed over the column
# clusters, then the smallest KL[p(c_Y|x) || p(c_Y|c_X)]; for dimension 2
# the same on the transpose.
coclustering_rule <- function(object, newdata, dimension) {
  joint <- if (dimension == 1L) object$joint else t(object$joint)
  groups <- if (dimension == 1L) object$col_cluster else object$cluster
  csr <- new_joint_rows(newdata, length(groups), columns = dimension == 2L)
  grouped <- group_columns(csr, groups, ncol(joint))
  costs <- kl_cost(grouped, joint / rowSums(joint))
  out <- cheapest(costs)
  list(cluster = na_if_empty(out$cluster, csr), cost = na_if_empty(out$cost, csr),
       costs = na_if_empty(costs, csr), csr = csr, grouped = grouped, joint = joint)
}

# NA for the rows of `csr` without any entry (vector or matrix rows).
na_if_empty <- function(value, csr) {
  empty <- diff(csr$ptr) == 0L
  if (!any(empty)) return(value)
  if (is.matrix(value)) value[empty, ] <- NA else value[empty] <- NA
  value
}
