#' Print, summarize and plot a multiway clustering
#'
#' `print()` and `summary()` give the clusters per dimension and their sizes,
#' the final objective \eqn{B = I_\phi(Z) - I_\phi(C)} and the share of the
#' Bregman information \eqn{I_\phi(Z)} that the block approximation keeps.
#' `plot()` draws a clustered matrix (two dimensions) with its rows and
#' columns re-ordered by cluster, cluster boundaries as red lines, as for
#' [itcc()]; large matrices are shown on a grid of at most `max_cells` cells
#' per side (block sums).
#'
#' @param x,object A [multiway_clustering()] fit.
#' @param data For `plot()`: the matrix that was clustered; by default the fit's
#'   copy.
#' @param max_cells Largest number of image cells per side.
#' @param main Title.
#' @param digits Significant digits to print.
#' @param ... Further arguments for [graphics::image()] (`plot()`); unused
#'   otherwise.
#' @return `print()` and `plot()` return `x` invisibly; `summary()` an object
#'   of class `summary.multiway_clustering`.
#' @examples
#' set.seed(2)
#' x <- matrix(rnorm(30 * 20), 30, 20) + 3 * outer(rep(1:3, 10), rep(1:2, 10))
#' fit <- multiway_clustering(x, k = c(3, 2), restarts = 3)
#' fit
#' summary(fit)
#' plot(fit, x)
#' @name multiway-methods
NULL

#' @rdname multiway-methods
#' @export
print.multiway_clustering <- function(x, digits = 4L, ...) {
  cat(sprintf("Multiway clustering (%s) of a %s tensor into %s clusters\n",
              divergence_label(x$divergence), paste(x$dim, collapse = " x "),
              paste(x$k, collapse = " x ")))
  for (l in seq_along(x$clusters)) {
    cat(sprintf("Dimension %s cluster sizes: %s\n", dimension_label(x, l),
                format_sizes(tabulate(x$clusters[[l]], x$k[l]))))
  }
  cat_objective(x, digits, "Objective B = I(Z) - I(C)")
  cat(sprintf("Bregman information kept: %s%% of I(Z) = %s\n",
              format(100 * kept_share(x), digits = 3), format(x$info_data, digits = digits)))
  print_components(x)
}

#' @rdname multiway-methods
#' @export
summary.multiway_clustering <- function(object, ...) {
  out <- list(divergence = object$divergence, dim = object$dim, k = object$k,
              sizes = lapply(seq_along(object$clusters), function(l) {
                tabulate(object$clusters[[l]], object$k[l])
              }),
              names = vapply(seq_along(object$clusters), dimension_label, "", x = object),
              objective = utils::tail(object$objective, 1L), info_data = object$info_data,
              info_approx = object$info_approx, kept = kept_share(object),
              iterations = object$iterations, converged = object$converged,
              restart_objective = object$restart_objective)
  class(out) <- "summary.multiway_clustering"
  out
}

#' @rdname multiway-methods
#' @export
print.summary.multiway_clustering <- function(x, digits = 4L, ...) {
  cat(sprintf("Multiway clustering (%s): %s tensor, %s clusters, %d iterations (%s)\n",
              divergence_label(x$divergence), paste(x$dim, collapse = " x "),
              paste(x$k, collapse = " x "), x$iterations,
              convergence_status(x$converged)))
  cat(sprintf("Objective B = %s; I(Z) = %s, I(C) = %s (%s%% kept)\n",
              format(x$objective, digits = digits), format(x$info_data, digits = digits),
              format(x$info_approx, digits = digits), format(100 * x$kept, digits = 3)))
  cat(sprintf("Final objective of the %d runs: %s\n", length(x$restart_objective),
              paste(format(sort(x$restart_objective), digits = digits), collapse = " ")))
  for (l in seq_along(x$sizes)) {
    cat(sprintf("\nDimension %s cluster sizes:\n", x$names[l]))
    print(stats::setNames(x$sizes[[l]], seq_along(x$sizes[[l]])))
  }
  invisible(x)
}

#' @rdname multiway-methods
#' @export
plot.multiway_clustering <- function(x, data = x$data, max_cells = 300L, main = NULL, ...) {
  if (length(x$dim) != 2L) {
    stop_arg("x", sprintf("clusters a %d-way array; plot() draws 2-way fits only",
                          length(x$dim)))
  }
  if (is.null(data)) {
    stop_arg("data", "is missing and the fit keeps no copy of its data; call plot(fit, data)")
  }
  max_cells <- check_count(max_cells, "max_cells")
  if (is.null(main)) main <- "Multiway clustering: re-ordered matrix"
  plot_blocks(x, data, x$clusters[[2L]], max_cells, main, ...)
}

divergence_label <- function(divergence) {
  c(euclidean = "squared Euclidean", idivergence = "I-divergence")[[divergence]]
}

dimension_label <- function(x, l) {
  nm <- names(x$clusters)[l]
  if (is.null(nm) || is.na(nm) || !nzchar(nm)) as.character(l) else sprintf("%d (%s)", l, nm)
}

kept_share <- function(x) if (x$info_data > 0) x$info_approx / x$info_data else 1

#' Assign new entities to the clusters of a multiway clustering
#'
#' New rows (or new entities of another dimension) carry only their own
#' slice of the tensor; with the other dimensions' clusters and the block
#' means \eqn{C} of the fit fixed, each goes to the cluster whose block values
#' give its slice the lowest divergence, all cells weighted equally: the
#' assignment step of [multiway_clustering()]. Entities of the clustered
#' tensor itself get back their own clusters (the fit is a fixed point of
#' that step; unweighted fits).
#'
#' @param object A [multiway_clustering()] fit.
#' @param newdata New entities of dimension `dimension`: an array with the
#'   dimensions of the clustered tensor except that one, which may have any
#'   extent (a matrix of new rows for a 2-way fit with `dimension = 1`).
#'   The other dimensions' entries are matched by name, see [predict-newdata].
#' @param dimension Which dimension the new entities belong to.
#' @param ... Unused.
#' @return A list with `cluster` (integer) and `divergence` (the summed
#'   divergence of each slice to its cluster's block values).
#' @examples
#' set.seed(3)
#' x <- matrix(rnorm(40 * 12), 40, 12) + 4 * outer(rep(1:2, 20), rep(1:3, 4))
#' fit <- multiway_clustering(x[1:30, ], k = c(2, 3), restarts = 3)
#' predict(fit, x[31:40, ])$cluster
#' # new columns
#' predict(fit, x[1:30, 1:2, drop = FALSE], dimension = 2)$cluster
#' @export
predict.multiway_clustering <- function(object, newdata, dimension = 1L, ...) {
  n_dims <- length(object$dim)
  dimension <- check_count(dimension, "dimension", upper = n_dims)
  if (missing(newdata)) newdata <- training_data(object)
  if (is.null(dim(newdata)) && n_dims == 2L) newdata <- matrix(newdata, nrow = 1L)
  if (length(dim(newdata)) == n_dims) {
    # the other dimensions' entries by name, where the clustered tensor had names
    for (m in setdiff(seq_len(n_dims), dimension)) newdata <- match_newdata_columns(newdata, object, m)
  }
  newdata <- check_tensor(newdata, "newdata")
  expected <- object$dim[-dimension]
  if (length(dim(newdata)) != n_dims || any(dim(newdata)[-dimension] != expected)) {
    stop_arg("newdata", sprintf("must have the dimensions of the clustered tensor (%s) except dimension %d",
                                paste(object$dim, collapse = " x "), dimension))
  }
  if (object$divergence == "idivergence" && any(newdata < 0)) {
    stop_arg("newdata", "has negative values; the fit uses the I-divergence")
  }
  others <- setdiff(seq_len(n_dims), dimension)
  # slices as rows; the block of the other dimensions of every column
  slices <- matrix(aperm(newdata, c(dimension, others)), dim(newdata)[dimension])
  k_other <- object$k[others]
  block <- 1 + drop((as.matrix(expand.grid(object$clusters[others])) - 1) %*%
                      cumprod(c(1, k_other[-length(k_other)])))
  sums <- t(rowsum(t(slices), block, reorder = TRUE))          # slice x block sums
  cells <- tabulate(block, prod(k_other))[as.integer(colnames(sums))]
  means <- matrix(aperm(object$block_means, c(dimension, others)), object$k[dimension])
  means <- means[, as.integer(colnames(sums)), drop = FALSE]  # cluster x block
  if (object$divergence == "euclidean") {
    # shifted by a constant (the divergences stay) to keep the sums small
    shift <- mean(means)
    slices <- slices - shift
    sums <- sums - shift * rep(cells, each = nrow(sums))
    means <- means - shift
    own <- rowSums(slices^2)
    cost <- own - 2 * sums %*% t(means) + rep(drop((means^2) %*% cells), each = nrow(slices))
  } else {
    own <- rowSums(ifelse(slices > 0, slices * log(slices), 0) - slices)
    log_means <- ifelse(means > 0, log(means), 0)
    cost <- own - sums %*% t(log_means) + rep(drop(means %*% cells), each = nrow(slices))
    cost[(sums > 0) %*% t(means <= 0) > 0] <- Inf
  }
  cluster_prediction(cost = pmax(cost, 0), rows = dimnames(newdata)[[dimension]])
}

method_label.multiway_clustering <- function(object) "Multiway clustering"
