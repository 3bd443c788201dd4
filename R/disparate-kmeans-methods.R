# S3 methods of disparate_kmeans() fits.

method_label.disparate_kmeans <- function(object) "Disparate k-means"

#' @rdname disparate_kmeans
#' @param digits Significant digits to print.
#' @param ... Unused.
#' @export
print.disparate_kmeans <- function(x, digits = 4L, ...) {
  cat(sprintf("Disparate k-means: two clusterings of %d points into %d and %d clusters\n",
              length(x$cluster), x$k, x$k2))
  cat("Clustering 1 sizes:", format_sizes(tabulate(x$cluster, x$k)), "\n")
  cat("Clustering 2 sizes:", format_sizes(tabulate(x$cluster2, x$k2)), "\n")
  cat(sprintf("NMI between the two clusterings: %s\n",
              format(nmi(x$cluster, x$cluster2), digits = digits)))
  cat(sprintf("Objective: %s = within %s + %s + penalty %s (lambda = %s)\n",
              format(utils::tail(x$objective, 1L), digits = digits),
              format(x$within[1], digits = digits), format(x$within[2], digits = digits),
              format(x$penalty, digits = digits), format(x$lambda, digits = digits)))
  cat(sprintf("%d iterations (%s), best of %d restart%s\n", x$iterations,
              if (isTRUE(x$converged)) "converged" else "not converged", x$restarts,
              if (x$restarts == 1L) "" else "s"))
  cat("\nAvailable components:\n")
  print(names(x))
  invisible(x)
}

#' Assign new points to the two clusterings of a disparate k-means fit
#'
#' Each point goes to its nearest prototype (squared Euclidean distance) in
#' each of the two clusterings, the rule the fit's assignments satisfy.
#'
#' @param object A [disparate_kmeans()] fit.
#' @param newdata Data with the same columns as the data that was clustered.
#'   Matched to the fitted columns by name, see [predict-newdata].
#' @param ... Unused.
#' @return A list, shaped like the fit: `cluster` and `cluster2` (integer,
#'   one per point of `newdata`) and `clusters`, the two as the columns of an
#'   integer matrix.
#' @examples
#' set.seed(1)
#' x <- cbind(rep(c(-4, 4), each = 50), rep(c(-2, 2), 50)) + rnorm(200, sd = 0.5)
#' fit <- disparate_kmeans(x[-(1:5), ], k = 2, restarts = 2)
#' predict(fit, x[1:5, ])$clusters
#' @export
predict.disparate_kmeans <- function(object, newdata, ...) {
  nd <- newdata_for_core(prediction_data(object, newdata), ncol(object$centers))  # checked and transposed in one pass
  x <- nd$x
  first <- nearest_centre_prediction(.center_divergences_cpp(nd$xt, t(object$centers), "sqeuclidean"),
                                     x, object$centers, rows = rownames(x))
  second <- nearest_centre_prediction(.center_divergences_cpp(nd$xt, t(object$centers2), "sqeuclidean"),
                                      x, object$centers2, rows = rownames(x))
  clusters <- cbind(cluster = first$cluster, cluster2 = second$cluster)
  c(first, list(cluster2 = second$cluster, cost2 = second$cost, clusters = clusters))
}
