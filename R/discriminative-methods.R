# print, summary and predict for discriminative_clustering() fits.

#' Memberships of new points in a discriminative clustering
#'
#' New points need no labels: their soft memberships \eqn{W_c(x)} follow from
#' the prototypes and `sigma` of the fit, and the hard cluster is the one of
#' largest membership (the nearest prototype).
#'
#' @param object A fit from [discriminative_clustering()].
#' @param newdata Data with the same columns as the data that was clustered.
#'   Matched to the fitted columns by name, see [predict-newdata].
#' @param ... Unused.
#' @return A list with `cluster` (integer, `1..k`) and `membership` (an
#'   `nrow(newdata)` x `k` matrix whose rows sum to 1).
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' fit <- discriminative_clustering(x[-(1:10), ], iris$Species[-(1:10)], k = 3,
#'                                  restarts = 2)
#' pred <- predict(fit, x[1:10, ])
#' pred$cluster
#' round(pred$probability, 3)
#' @export
predict.discriminative_clustering <- function(object, newdata, ...) {
  newdata <- prediction_data(object, newdata)
  nd <- newdata_for_core(newdata, ncol(object$centers))  # checked and transposed in one pass
  newdata <- nd$x
  res <- .soft_memberships_cpp(nd$xt, t(object$centers), object$sigma)
  far <- overflowed_logits(res$membership) | far_rows(newdata, object$centers)
  if (any(far)) {
    # W_c(x) proportional to exp(-|x - m_c|^2 / (2 sigma^2)), from distances scaled down
    s <- scaled_quadratic_logits(newdata[far, , drop = FALSE], object$centers,
                                 diag(1 / object$sigma^2, ncol(newdata)), numeric(nrow(object$centers)))
    res$membership[far, ] <- scaled_logit_probabilities(s)
    res$cluster[far] <- s$cluster
  }
  cluster_prediction(probability = res$membership, rows = rownames(newdata),
                     cluster = res$cluster)
}

#' @rdname discriminative_clustering
#' @param digits Significant digits to print.
#' @param ... Unused.
#' @method print discriminative_clustering
#' @export
print.discriminative_clustering <- function(x, digits = 4L, ...) {
  cat(sprintf("Discriminative clustering of %d points (%d labelled, %d classes) into %d clusters\n",
              length(x$cluster), sum(!is.na(x$side$labels)), length(x$side$levels), x$k))
  cat("Cluster sizes:", format_sizes(x$size), "\n")
  cat(sprintf("sigma = %s, n0 = %s\n", format(x$sigma, digits = digits),
              format(x$n0, digits = digits)))
  if (identical(x$method, "stochastic")) {
    cat(sprintf("Stochastic approximation: %d epochs; mean log p(y | c) = %s, log Bayes factor = %s\n",
                x$iterations, format(utils::tail(x$objective, 1L), digits = digits),
                format(x$log_bayes_factor, digits = digits)))
  } else {
    cat(sprintf("Log Bayes factor: %s after %d iterations (%s)\n",
                format(x$log_bayes_factor, digits = digits), x$iterations,
                convergence_status(x$converged)))
  }
  print_components(x)
}

#' @rdname discriminative_clustering
#' @param object A fit from `discriminative_clustering()`.
#' @method summary discriminative_clustering
#' @export
summary.discriminative_clustering <- function(object, ...) {
  labelled <- !is.na(object$side$labels)
  out <- list(n = length(object$cluster), n_labelled = sum(labelled), k = object$k,
              size = object$size, sigma = object$sigma, n0 = object$n0,
              method = object$method, log_bayes_factor = object$log_bayes_factor,
              iterations = object$iterations,
              converged = object$converged, class_distributions = object$class_distributions,
              contingency = object$contingency,
              mutual_information = dc_mutual_information(object$contingency))
  class(out) <- "summary.discriminative_clustering"
  out
}

#' @rdname discriminative_clustering
#' @method print summary.discriminative_clustering
#' @export
print.summary.discriminative_clustering <- function(x, digits = 4L, ...) {
  status <- if (identical(x$method, "stochastic")) "stochastic approximation" else
    convergence_status(x$converged)
  cat(sprintf("Discriminative clustering: %d points (%d labelled), %d clusters, %d iterations (%s)\n",
              x$n, x$n_labelled, x$k, x$iterations, status))
  cat(sprintf("sigma = %s, n0 = %s, log Bayes factor = %s\n", format(x$sigma, digits = digits),
              format(x$n0, digits = digits), format(x$log_bayes_factor, digits = digits)))
  cat(sprintf("I(C;Y) of the hard clusters on the labelled points: %s nats\n",
              format(x$mutual_information, digits = digits)))
  cat("\nClasses in the clusters (hard counts):\n")
  print(x$contingency)
  cat("\nClass distributions p(y | c):\n")
  print(x$class_distributions, digits = digits)
  invisible(x)
}

# Empirical mutual information (nats) of clusters and classes from a table
# of counts whose last column (unlabelled points) is ignored.
dc_mutual_information <- function(tab) {
  tab <- tab[, -ncol(tab), drop = FALSE]
  total <- sum(tab)
  if (total == 0) return(0)
  p <- tab / total
  e <- outer(rowSums(p), colSums(p))
  keep <- p > 0
  sum(p[keep] * log(p[keep] / e[keep]))
}

method_label.discriminative_clustering <- function(object) "Discriminative clustering"
