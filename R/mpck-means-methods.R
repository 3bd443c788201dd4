# S3 methods of mpck_means() and pck_means() fits.

method_label.mpck_means <- function(object) {
  if (identical(object$metric, "none")) "PCK-means" else "MPCK-means"
}

#' Assign new points to the clusters of an MPCK-means fit
#'
#' New points carry no constraints, so each goes to the cluster minimizing
#' its share of the objective: the squared distance to the centre under the
#' cluster's metric minus the metric's log-determinant (the plain squared
#' Euclidean distance for `metric = "none"`).
#'
#' @param object A fit from [mpck_means()] or [pck_means()].
#' @param newdata Data with the same columns as the data that was clustered;
#'   by default the fitted data.
#'   Matched to the fitted columns by name, see [predict-newdata].
#' @param ... Unused.
#' @return A list with `cluster` (integer) and `cost` (the `n` x `k` matrix
#'   \eqn{\|x - \mu_h\|^2_{A_h} - \log\det A_h}{||x - mu_h||^2_A_h - log det
#'   A_h}), as [predict.cvqe()] returns.
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' fit <- mpck_means(x[-(1:10), ], k = 3, restarts = 3)
#' predict(fit, x[1:10, ])$cluster
#' @export
predict.mpck_means <- function(object, newdata, ...) {
  newdata <- check_newdata(prediction_data(object, newdata), ncol(object$centers))
  metrics <- lapply(seq_len(object$k), function(h) mpck_metric_matrix(object, h))
  logdets <- vapply(metrics, mpck_logdet, 0)
  cost <- vapply(seq_len(object$k), function(h) {
    d <- sweep(newdata, 2L, object$centers[h, ])
    rowSums((d %*% metrics[[h]]) * d) - logdets[h]
  }, numeric(nrow(newdata)))
  cost <- matrix(cost, nrow(newdata), object$k)
  # rows far out: (x - mu_h)' A_h (x - mu_h) - log det A_h compared scaled down
  nearest_centre_prediction(cost, newdata, object$centers, rows = rownames(newdata),
                            offsets = -logdets, precision = lapply(metrics, function(a) 2 * a))
}

# The p x p metric of cluster h of a fit.
mpck_metric_matrix <- function(object, h) {
  p <- ncol(object$centers)
  switch(object$metric,
         none = diag(p),
         diagonal = diag(object$metrics[h, ], p),
         full = object$metrics[[h]])
}

mpck_logdet <- function(a) {
  as.numeric(determinant(a, logarithm = TRUE)$modulus)
}
