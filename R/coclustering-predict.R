#' Assign new rows or columns to the groups of a cross-associations fit
#'
#' With the fit held fixed (its row and column groups and its block counts
#' `ones`), each new row goes to the row group that encodes it in the fewest
#' bits: the cost the regrouping step of [cross_associations()] uses. A new
#' row with \eqn{o_j} ones among the \eqn{b_j} columns of column group
#' \eqn{j} costs, in row group \eqn{i} of \eqn{a_i} rows,
#' \deqn{\sum_j -o_j \log_2 p_{ij} - (b_j - o_j) \log_2 (1 - p_{ij}),
#'   \quad p_{ij} = \frac{n_{ij} + 1/2}{a_i b_j + 1},}{sum_j -o_j log2 p_ij -
#'   (b_j - o_j) log2(1 - p_ij), p_ij = (n_ij + 1/2) / (a_i b_j + 1),}
#' with \eqn{n_{ij}} the ones of block \eqn{(i, j)} (`object$ones`). The
#' densities are smoothed as in the algorithm, so that blocks of only zeros
#' or only ones do not make a group infinitely expensive. Ties go to the
#' lowest group number. New columns (`dimension = 2`) go to column groups
#' in the same way, with the roles of rows and columns exchanged.
#'
#' @section Predicting the training matrix:
#' The block counts include the row itself, so the cost is not that of a
#' held-out row: predicting the clustered matrix performs one more row (or
#' column) regrouping half-step of the algorithm from the fit. The search
#' keeps such a half-step only when it lowers the total cost (which also
#' charges the group sizes and assignments), so it may have rejected one
#' that moves some rows: `predict(fit, x)$cluster` need not equal
#' `fit$cluster`. It does whenever no row is coded in fewer bits by another
#' group, as on well-separated blocks (up to ties within 1e-9 bits, where
#' the algorithm keeps a row's group and `predict()` takes the lowest).
#'
#' @param object A [cross_associations()] fit.
#' @param newdata New rows (`dimension = 1`): a binary matrix with the fit's
#'   number of columns, one row per new row. New columns (`dimension = 2`):
#'   a binary matrix with the fit's number of rows, one column per new
#'   column. Logical, 0/1 numeric, data.frame or sparse `Matrix`; a vector
#'   is one new row (or column).
#'   Matched to the fitted columns (`dimension = 2`: rows) by name, see
#'   [predict-newdata].
#' @param dimension 1 to group new rows, 2 to group new columns.
#' @param ... Unused.
#' @return A list with `cluster`, the group of each new row (column), an
#'   integer in `1..k` (`1..k_cols`), and `bits`, the code length in bits of
#'   each new row (column) given its group: the cost above at the chosen
#'   group.
#' @seealso [cross_associations()].
#' @examples
#' set.seed(1)
#' p <- matrix(c(0.9, 0.1, 0.2, 0.8), 2, 2)
#' truth_r <- rep(1:2, c(35, 25)); truth_c <- rep(1:2, c(15, 25))
#' x <- matrix(rbinom(60 * 40, 1, p[truth_r, truth_c]), 60, 40)
#' train <- c(1:30, 36:55)
#' fit <- cross_associations(x[train, ])
#' new_rows <- predict(fit, x[-train, ])
#' table(new_rows$cluster, truth_r[-train])
#' new_rows$bits
#' # new columns: one per column of the matrix given
#' predict(fit, x[train, 1:3], dimension = 2)$cluster
#' @export
predict.cross_associations <- function(object, newdata, dimension = 1L, ...) {
  dimension <- check_count(dimension, "dimension", upper = 2L)
  newdata <- prediction_data(object, newdata, margin = 3L - dimension)  # new rows: columns by name
  if (is.null(dim(newdata)) && is.atomic(newdata)) {
    newdata <- if (dimension == 1L) matrix(newdata, nrow = 1L) else matrix(newdata, ncol = 1L)
  }
  csr <- as_joint_csr(newdata, "newdata", binary = TRUE)
  row_e <- csr_rows(csr$ptr, seq_along(csr$idx) - 1L)
  col_e <- csr$idx + 1L
  n_rows <- length(object$cluster)
  n_cols <- length(object$col_cluster)
  if (dimension == 1L) {
    if (csr$n_cols != n_cols) {
      stop_arg("newdata", sprintf("has %d columns but the fit has %d (new rows, `dimension = 1`)",
                                  csr$n_cols, n_cols))
    }
    n_new <- csr$n_rows
    # counts of ones per (new row, column group)
    o <- entry_sums(row_e, object$col_cluster[col_e], 1, n_new, object$k_cols)
    ones <- object$ones
    own <- object$cluster
    other <- object$col_cluster
  } else {
    if (csr$n_rows != n_rows) {
      stop_arg("newdata", sprintf("has %d rows but the fit has %d (new columns, `dimension = 2`, one column each)",
                                  csr$n_rows, n_rows))
    }
    n_new <- csr$n_cols
    o <- entry_sums(col_e, object$cluster[row_e], 1, n_new, object$k)
    ones <- t(object$ones)
    own <- object$col_cluster
    other <- object$cluster
  }
  a <- tabulate(own, nrow(ones))
  b <- tabulate(other, ncol(ones))
  # The core's smoothed densities (regroup() in src/cross_associations.h).
  p <- (ones + 0.5) / (outer(a, b) + 1)
  bits1 <- -log2(p)
  bits0 <- -log2(1 - p)
  # o bits1 + (b - o) bits0, for every new entity (rows) and group (columns)
  bits <- o %*% t(bits1 - bits0) + rep(drop(bits0 %*% b), each = n_new)
  names <- if (dimension == 1L) csr$row_names else csr$col_names
  cluster_prediction(cost = bits, rows = names)
}
