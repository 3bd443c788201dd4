# predict, print and summary for ib_kmeans() fits.

#' Memberships of new points in a k-means-as-IB fit
#'
#' New points get memberships from the same rule (29) as the fitted ones,
#' with the fit's final \eqn{p(c)}, prototypes, `beta`, `s` and normalizers
#' \eqn{Z(c, s)}: \eqn{p(c|x) \propto p(c) \exp(-\beta [d(y_x, y_c)/s + \log
#' Z(c, s)])}{p(c|x) ~ p(c) exp(-beta [d(y_x, y_c)/s + log Z(c, s)])}. The
#' hard cluster is the most probable one (first of ties); for `beta = Inf`
#' (and `normalize = "space"`) the nearest prototype. Predicting the fitted
#' data gives one more step of the iteration, so at convergence it returns
#' the fit's memberships up to `tol`.
#'
#' @param object A fit from [ib_kmeans()].
#' @param newdata Data with the same columns as the data that was clustered.
#'   Matched to the fitted columns by name, see [predict-newdata].
#' @param ... Unused.
#' @return A list with `cluster` (integer, `1..k`) and `membership` (an
#'   `nrow(newdata)` x `k` matrix whose rows sum to 1).
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' held_out <- seq(5, 150, by = 15)
#' fit <- ib_kmeans(x[-held_out, ], k = 3, beta = 10, restarts = 3)
#' pred <- predict(fit, x[held_out, ])
#' pred$cluster
#' round(pred$probability, 3)
#' @export
predict.ib_kmeans <- function(object, newdata, ...) {
  newdata <- prediction_data(object, newdata)
  nd <- newdata_for_core(newdata, ncol(object$centers))  # checked and transposed in one pass
  newdata <- nd$x
  membership <- .ib_kmeans_memberships_cpp(nd$xt, t(object$centers), object$pc,
                                           object$log_z, object$beta, object$s)
  far <- overflowed_logits(membership) | far_rows(newdata, object$centers)
  if (any(far)) membership[far, ] <- ib_kmeans_far_memberships(object, newdata[far, , drop = FALSE])
  cluster_prediction(probability = membership, rows = rownames(newdata))
}

# Memberships (29) of rows far out, p(c|x) proportional to
# p(c) exp(-beta [|x - m_c|^2 / s + log Z(c, s)]), from distances scaled down
# (the core's squared distances would overflow); beta = Inf: the live
# cluster of smallest |x - m_c|^2 / s + log Z, as in the fit.
ib_kmeans_far_memberships <- function(object, x) {
  live <- object$pc > 0
  hard <- is.infinite(object$beta)
  b <- if (hard) 1 else object$beta
  offsets <- ifelse(live, (if (hard) 0 else log(object$pc)) - b * object$log_z, -Inf)
  s <- scaled_quadratic_logits(x, object$centers, diag(2 * b / object$s, ncol(x)), offsets)
  if (!hard) return(scaled_logit_probabilities(s))
  out <- matrix(0, nrow(x), nrow(object$centers))
  out[cbind(seq_len(nrow(x)), s$cluster)] <- 1
  out
}

#' @rdname ib_kmeans
#' @param digits Significant digits to print.
#' @param ... Unused.
#' @method print ib_kmeans
#' @export
print.ib_kmeans <- function(x, digits = 4L, ...) {
  cat(sprintf("k-means as IB: %d points, %d clusters (%d holding points)\n",
              length(x$cluster), x$k, x$k_effective))
  cat("Cluster sizes:", format_sizes(x$size), "\n")
  cat(sprintf("beta = %s, s = %s, kernel normalized over %s\n",
              format(x$beta, digits = digits), format(x$s, digits = digits),
              if (x$normalize == "space") "R^p" else "the data vectors"))
  cat(sprintf("I(C;X) = %s nats, mean distortion = %s, mean max p(c|x) = %s\n",
              format(x$info_x, digits = digits), format(x$distortion, digits = digits),
              format(mean(apply(x$membership, 1L, max)), digits = digits)))
  cat_objective(x, digits)
  print_components(x)
}

#' @rdname ib_kmeans
#' @param object A fit from `ib_kmeans()`.
#' @method summary ib_kmeans
#' @export
summary.ib_kmeans <- function(object, ...) {
  hard <- object$membership[cbind(seq_along(object$cluster), object$cluster)]
  clusters <- data.frame(cluster = seq_len(object$k), size = object$size, pc = object$pc,
                         mean_max_membership = vapply(seq_len(object$k), function(c) {
                           if (object$size[c] > 0) mean(hard[object$cluster == c]) else NA_real_
                         }, double(1)))
  out <- list(n = length(object$cluster), k = object$k, k_effective = object$k_effective,
              beta = object$beta, s = object$s, normalize = object$normalize,
              iterations = object$iterations, converged = object$converged,
              objective = utils::tail(object$objective, 1L), info_x = object$info_x,
              entropy = -sum(object$pc[object$pc > 0] * log(object$pc[object$pc > 0])),
              distortion = object$distortion, clusters = clusters, centers = object$centers)
  class(out) <- "summary.ib_kmeans"
  out
}

#' @rdname ib_kmeans
#' @method print summary.ib_kmeans
#' @export
print.summary.ib_kmeans <- function(x, digits = 4L, ...) {
  cat(sprintf("k-means as IB: %d points, %d clusters (%d holding points), %d iterations (%s)\n",
              x$n, x$k, x$k_effective, x$iterations,
              convergence_status(x$converged)))
  cat(sprintf("beta = %s, s = %s, normalize = \"%s\"\n", format(x$beta, digits = digits),
              format(x$s, digits = digits), x$normalize))
  cat(sprintf("Objective %s; I(C;X) = %s of H(C) = %s nats; mean distortion %s\n",
              format(x$objective, digits = digits), format(x$info_x, digits = digits),
              format(x$entropy, digits = digits), format(x$distortion, digits = digits)))
  cat("\nClusters (size = hard count; mean_max_membership over its points):\n")
  print(x$clusters, row.names = FALSE, digits = digits)
  cat("\nPrototypes:\n")
  print(x$centers, digits = digits)
  invisible(x)
}

method_label.ib_kmeans <- function(object) "k-means as IB"
