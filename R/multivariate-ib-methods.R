#' Print, summarize and plot multivariate information-bottleneck fits
#'
#' `print()` shows the clusters, the informations that make up the
#' functional and the final \eqn{L_{max}}; `summary()` of a [parallel_ib()]
#' fit gives one row per clustering (sizes, \eqn{I(C_j;X)}, \eqn{I(C_j;Y)}).
#' `plot()` draws the data matrix re-ordered by the clusters (as for
#' [itcc()] and [sib()], see [plot.itcc()]): for `parallel_ib()` the rows by
#' clustering `which`.
#'
#' @param x,object A [parallel_ib()] or [symmetric_ib()] fit.
#' @param data The matrix that was clustered; by default the fit's copy.
#' @param which For `parallel_ib()`: the clustering that orders the rows.
#' @param max_cells Largest number of image cells per side.
#' @param main Title.
#' @param digits Significant digits to print.
#' @param ... Further arguments for [graphics::image()]; unused otherwise.
#' @return `print()` and `plot()` return `x` invisibly; `summary()` an object
#'   of class `summary.parallel_ib`.
#' @examples
#' set.seed(1)
#' g <- rep(1:2, each = 10)
#' h <- rep(1:2, 10)
#' counts <- matrix(rpois(20 * 4, 1 + 8 * cbind(g == 1, g == 2, h == 1, h == 2)), 20, 4) + 1
#' fit <- parallel_ib(counts, k = c(2, 2), restarts = 3)
#' summary(fit)
#' plot(fit, counts, which = 2)
#' sym <- symmetric_ib(counts, 2, 2, restarts = 3)
#' sym
#' plot(sym, counts)
#' @name multivariate-ib-methods
NULL

#' @rdname multivariate-ib-methods
#' @export
print.parallel_ib <- function(x, digits = 4L, ...) {
  m <- ncol(x$clusters)
  cat(sprintf("Parallel IB: %d clustering%s of %d rows into %s clusters (beta = %s)\n",
              m, if (m == 1L) "" else "s", nrow(x$clusters), paste(x$k, collapse = ", "),
              format(x$beta)))
  for (j in seq_len(m)) {
    cat(sprintf("Clustering %d sizes: %s; I(C%d;X) = %s, I(C%d;Y) = %s\n", j,
                format_sizes(tabulate(x$clusters[, j], x$k[j])), j,
                format(x$info_x[j], digits = digits), j,
                format(x$info_y_each[j], digits = digits)))
  }
  cat(sprintf("I(%s;Y) = %s nats (%s%% of I(X;Y) = %s)\n",
              if (m == 1L) "C1" else sprintf("C1..C%d", m), format(x$info_y, digits = digits),
              format(100 * x$info_y / x$info_xy, digits = 3),
              format(x$info_xy, digits = digits)))
  print_lmax(x, digits)
  invisible(x)
}

#' @rdname multivariate-ib-methods
#' @export
print.symmetric_ib <- function(x, digits = 4L, ...) {
  cat(sprintf("Symmetric IB (%s): %d rows into %d clusters, %d columns into %d (beta = %s)\n",
              x$method, length(x$cluster), x$k, length(x$col_cluster), x$k_cols,
              format(x$beta)))
  cat("Row cluster sizes:", format_sizes(tabulate(x$cluster, x$k)), "\n")
  cat("Column cluster sizes:", format_sizes(tabulate(x$col_cluster, x$k_cols)), "\n")
  cat(sprintf("I(C_X;C_Y) = %s nats (%s%% of I(X;Y) = %s), I(C_X;X) = %s, I(C_Y;Y) = %s\n",
              format(x$info_clusters, digits = digits),
              format(100 * x$info_clusters / x$info_xy, digits = 3),
              format(x$info_xy, digits = digits), format(x$info_rows, digits = digits),
              format(x$info_cols, digits = digits)))
  print_lmax(x, digits)
  invisible(x)
}

print_lmax <- function(x, digits) {
  steps <- if (identical(x$method, "iterative")) "iterations" else "passes"
  cat(sprintf("L_max: %s after %d %s (%s), best of %d start%s\n",
              format(utils::tail(x$objective, 1L), digits = digits), x$iterations, steps,
              convergence_status(x$converged), x$restarts,
              if (x$restarts == 1L) "" else "s"))
  print_components(x)
}

#' @rdname multivariate-ib-methods
#' @export
summary.parallel_ib <- function(object, ...) {
  m <- ncol(object$clusters)
  out <- list(
    clusterings = data.frame(
      clustering = seq_len(m), k = object$k,
      sizes = vapply(seq_len(m), function(j) {
        format_sizes(tabulate(object$clusters[, j], object$k[j]))
      }, ""),
      info_x = object$info_x, info_y = object$info_y_each),
    info = stats::setNames(c(object$info_y, object$info_xy),
                           c(if (m == 1L) "I(C1;Y)" else "I(C1..Cm;Y)", "I(X;Y)")),
    objective = utils::tail(object$objective, 1L), beta = object$beta,
    iterations = object$iterations, converged = object$converged, n = nrow(object$clusters))
  class(out) <- "summary.parallel_ib"
  out
}

#' @rdname multivariate-ib-methods
#' @export
print.summary.parallel_ib <- function(x, digits = 4L, ...) {
  m <- nrow(x$clusterings)
  cat(sprintf("Parallel IB: %d rows, %d clustering%s, beta = %s, %d passes (%s)\n", x$n,
              m, if (m == 1L) "" else "s", format(x$beta), x$iterations,
              convergence_status(x$converged)))
  cat("Final L_max:", format(x$objective, digits = digits), "\n\n")
  print(x$clusterings, row.names = FALSE, digits = digits)
  cat("\nInformation (nats):\n")
  print(x$info, digits = digits)
  invisible(x)
}

#' @rdname multivariate-ib-methods
#' @export
plot.parallel_ib <- function(x, data = x$data, which = 1L, max_cells = 300L, main = NULL, ...) {
  which <- check_count(which, "which", upper = ncol(x$clusters))
  one <- x
  one$cluster <- x$clusters[, which]
  if (is.null(main)) main <- sprintf("Parallel IB, clustering %d: re-ordered matrix", which)
  plot_blocks(one, data, NULL, max_cells, main, ...)
  invisible(x)
}

#' @rdname multivariate-ib-methods
#' @export
plot.symmetric_ib <- function(x, data = x$data, max_cells = 300L, main = NULL, ...) {
  if (is.null(main)) main <- "Symmetric IB: re-ordered matrix"
  plot_blocks(x, data, x$col_cluster, max_cells, main, ...)
}

method_label.parallel_ib <- function(object) "Parallel IB"

method_label.symmetric_ib <- function(object) "Symmetric IB"
