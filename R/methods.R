# Methods of the base class "sideclust", shared by every fit (plot() in
# plot.R). A family's own S3 methods live in R/<family>-methods.R, and its
# predict() with the helpers it needs in R/<family>-predict.R where those are
# long.

# The method's name in print(), summary() and plot() titles: each family's
# methods file defines method_label.<class>(); a fit class without one shows
# its class.
method_label <- function(object) UseMethod("method_label")
method_label.default <- function(object) class(object)[1L]

#' Print, summarize and extract from a sideclust fit
#'
#' Every clustering in the package returns a list of class
#' `c("<method>", "sideclust")` with at least `cluster`, `k`, `iterations`,
#' `converged` and `call`. `summary()` adds cluster sizes and how many
#' constraints the clustering keeps and breaks.
#'
#' @param x,object A `sideclust` fit.
#' @param digits Significant digits to print.
#' @param ... Unused.
#' @return `print()` returns `x` invisibly; `summary()` an object of class
#'   `summary.sideclust`; `fitted()` the integer cluster memberships;
#'   `nobs()` the number of points.
#' @examples
#' fit <- dp_means(scale(iris[, 1:4]), k = 3)
#' fit
#' summary(fit)
#' head(fitted(fit))
#' nobs(fit)
#' @name sideclust-methods
NULL

#' @rdname sideclust-methods
#' @method print sideclust
#' @export
print.sideclust <- function(x, digits = 4L, ...) {
  cat(sprintf("%s clustering of %d points into %d clusters\n",
              method_label(x), length(x$cluster), x$k))
  size <- tabulate(x$cluster, x$k)
  cat("Cluster sizes:", format_sizes(size), "\n")
  print_coclusters(x, digits)
  if (!is.null(x$objective)) {
    cat(sprintf("Objective: %s after %d iterations (%s)\n",
                format(utils::tail(x$objective, 1L), digits = digits),
                x$iterations, if (isTRUE(x$converged)) "converged" else "not converged"))
  }
  if (!is.null(x$side)) {
    agree <- side_agreement_table(x$side, x$cluster)
    cat(sprintf("Side information: %s must / %s cannot pairs violated\n",
                format_ratio(agree$violated[1], agree$total[1]),
                format_ratio(agree$violated[2], agree$total[2])))
  }
  cat("\nAvailable components:\n")
  print(names(x))
  invisible(x)
}

#' @rdname sideclust-methods
#' @method summary sideclust
#' @export
summary.sideclust <- function(object, ...) {
  size <- tabulate(object$cluster, object$k)
  out <- list(
    method = method_label(object), n = length(object$cluster), k = object$k,
    size = size, iterations = object$iterations, converged = object$converged,
    objective = if (!is.null(object$objective)) utils::tail(object$objective, 1L),
    lambda = object$lambda, xi = object$xi,
    col_size = if (!is.null(object$col_cluster)) tabulate(object$col_cluster, object$k_cols),
    info = if (!is.null(object$info_y)) c(`I(C;X)` = object$info_x, `I(C;Y)` = object$info_y,
                                          `I(X;Y)` = object$info_xy),
    side = side_agreement_table(object$side, object$cluster)
  )
  class(out) <- "summary.sideclust"
  out
}

#' @rdname sideclust-methods
#' @method print summary.sideclust
#' @export
print.summary.sideclust <- function(x, digits = 4L, ...) {
  cat(sprintf("%s: %d points, %d clusters, %d iterations (%s)\n", x$method,
              x$n, x$k, x$iterations,
              if (isTRUE(x$converged)) "converged" else "not converged"))
  if (!is.null(x$objective)) {
    cat("Final objective:", format(x$objective, digits = digits), "\n")
  }
  if (!is.null(x$lambda)) cat("lambda:", format(x$lambda, digits = digits), "\n")
  if (!is.null(x$xi)) {
    cat("xi (may, may-not):", format(x$xi, digits = digits), "\n")
  }
  cat("\nCluster sizes:\n")
  print(stats::setNames(x$size, seq_along(x$size)))
  if (!is.null(x$col_size)) {
    cat("\nColumn cluster sizes:\n")
    print(stats::setNames(x$col_size, seq_along(x$col_size)))
  }
  if (!is.null(x$info)) {
    cat("\nInformation (nats):\n")
    print(x$info, digits = digits)
  }
  if (!is.null(x$side)) {
    cat("\nSide information (pairs):\n")
    print(x$side, row.names = FALSE, digits = digits)
  }
  invisible(x)
}

#' @rdname sideclust-methods
#' @export
fitted.sideclust <- function(object, ...) object$cluster

#' @rdname sideclust-methods
#' @importFrom stats nobs
#' @export
nobs.sideclust <- function(object, ...) length(object$cluster)
