# Methods shared by every fit of class "sideclust".

method_label <- function(object) {
  labels <- c(rdp_means = "RDP-means", dp_means = "DP-means", tvclust = "TVClust", cec_fit = "CEC",
              cec_ib = "CEC-IB", ib = "Iterative IB", aib = "Agglomerative IB",
              sib = "Sequential IB", itcc = "ITCC",
              cross_associations = "Cross-associations",
              constrained_mixture = "Constrained mixture", cvqe = "CVQE",
              disparate_kmeans = "Disparate k-means",
              discriminative_clustering = "Discriminative clustering",
              kpartite = "k-partite clustering", parallel_ib = "Parallel IB",
              symmetric_ib = "Symmetric IB", ib_kmeans = "k-means as IB",
              multiway_clustering = "Multiway clustering")
  cls <- class(object)[1L]
  if (cls %in% names(labels)) labels[[cls]] else cls
}

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

# Column clusters and information terms of the IB and co-clustering fits.
print_coclusters <- function(x, digits) {
  if (!is.null(x$col_cluster)) {
    cat(sprintf("Column clusters: %d; sizes: %s\n", x$k_cols,
                format_sizes(tabulate(x$col_cluster, x$k_cols))))
  }
  if (!is.null(x$info_y) && !is.null(x$info_xy)) {
    cat(sprintf("I(C;Y) = %s nats (%s%% of I(X;Y) = %s), I(C;X) = %s\n",
                format(x$info_y, digits = digits),
                format(100 * x$info_y / x$info_xy, digits = 3),
                format(x$info_xy, digits = digits), format(x$info_x, digits = digits)))
  }
  if (!is.null(x$info_clusters)) {
    cat(sprintf("Loss I(X;Y) - I(X^;Y^) = %s of I(X;Y) = %s\n",
                format(x$loss, digits = digits), format(x$info_xy, digits = digits)))
  }
  if (!is.null(x$cost) && inherits(x, "cross_associations")) {
    cat(sprintf("Total description length: %.1f bits\n", x$cost))
  }
}

format_sizes <- function(size, max = 20L) {
  shown <- paste(utils::head(size, max), collapse = " ")
  if (length(size) > max) shown <- paste(shown, "...")
  shown
}

format_ratio <- function(a, b) sprintf("%s of %s", format(a, big.mark = ","),
                                       format(b, big.mark = ","))

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

#' Assign new points to the clusters of a DP-means or RDP-means fit
#'
#' New points carry no side information, so each goes to the centre with the
#' smallest divergence (after the same smoothing and normalization the fit
#' applied).
#'
#' @param object A fit from [dp_means()] or [rdp_means()].
#' @param newdata Data with the same columns as the data that was clustered.
#' @param ... Unused.
#' @return A list with `cluster` (integer) and `divergence` (to that centre).
#' @examples
#' x <- scale(iris[, 1:4])
#' fit <- dp_means(x[-(1:10), ], k = 3)
#' predict(fit, x[1:10, ])$cluster
#' @export
predict.rdp_means <- function(object, newdata, ...) {
  if (missing(newdata)) stop_arg("newdata", "is missing")
  data <- prepare_divergence_data(newdata, object$divergence, object$smoothing,
                                  arg = "newdata", min_rows = 1L)
  if (ncol(data$x) != ncol(object$centers)) {
    stop_arg("newdata", sprintf("has %d columns but the fit has %d",
                                ncol(data$x), ncol(object$centers)))
  }
  .nearest_centre_cpp(t(data$x), t(object$centers), object$divergence)
}

#' @rdname predict.rdp_means
#' @export
predict.dp_means <- predict.rdp_means
