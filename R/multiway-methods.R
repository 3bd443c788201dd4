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
#' @param data For `plot()`: the matrix that was clustered (the fit keeps no
#'   copy).
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
  cat(sprintf("Objective B = I(Z) - I(C): %s after %d iterations (%s)\n",
              format(utils::tail(x$objective, 1L), digits = digits), x$iterations,
              if (isTRUE(x$converged)) "converged" else "not converged"))
  cat(sprintf("Bregman information kept: %s%% of I(Z) = %s\n",
              format(100 * kept_share(x), digits = 3), format(x$info_data, digits = digits)))
  cat("\nAvailable components:\n")
  print(names(x))
  invisible(x)
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
              if (isTRUE(x$converged)) "converged" else "not converged"))
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
plot.multiway_clustering <- function(x, data, max_cells = 300L, main = NULL, ...) {
  if (length(x$dim) != 2L) {
    stop_arg("x", sprintf("clusters a %d-way array; plot() draws 2-way fits only",
                          length(x$dim)))
  }
  if (missing(data)) {
    stop_arg("data", "is missing: the fit keeps no copy of the data, so call plot(fit, data)")
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
