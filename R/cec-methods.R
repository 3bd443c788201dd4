# S3 methods of cec() and cec_ib() fits.

method_label.cec_fit <- function(object) "CEC"
method_label.cec_ib <- function(object) "CEC-IB"

#' Assign new points to the clusters of a CEC or CEC-IB fit
#'
#' By the CEC rule: each point goes to the cluster with the largest score
#' \eqn{\log p_i + \log N(x; \mu_i, \Sigma_i)}{log p_i + log N(x; mu_i,
#' Sigma_i)}, with \eqn{p_i} the cluster's share of the fitted points and
#' \eqn{\mu_i, \Sigma_i} its mean and model covariance. New points carry no
#' labels.
#'
#' @param object A fit from [cec()] or [cec_ib()].
#' @param newdata Data with the same columns as the clustered data; by
#'   default the fitted data.
#' @param ... Unused.
#' @return A list with `cluster` (integer) and `probability`: the `n` x `k`
#'   matrix of the scores above turned into probabilities (each row's
#'   \eqn{p_i N(x; \mu_i, \Sigma_i)}{p_i N(x; mu_i, Sigma_i)} normalized), columns
#'   named by cluster, rows by the row names of `newdata`.
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' fit <- cec(x[-(1:10), ], k = 3)
#' predict(fit, x[1:10, ])$cluster
#' @export
predict.cec_fit <- function(object, newdata, ...) {
  if (missing(newdata)) newdata <- training_data(object)
  p <- ncol(object$centers)
  x <- check_newdata(newdata, p)
  share <- object$size / sum(object$size)
  scores <- vapply(seq_len(object$k), function(a) {
    s <- object$covariances[, , a]
    if (p == 1L) s <- matrix(s, 1L, 1L)
    ld <- as.numeric(determinant(s, logarithm = TRUE)$modulus)
    log(share[a]) - 0.5 * (p * log(2 * pi) + ld +
                             stats::mahalanobis(x, object$centers[a, ], s))
  }, numeric(nrow(x)))
  scores <- matrix(scores, nrow(x), object$k)
  cluster_prediction(probability = normalize_log_weights(scores), rows = rownames(x),
                     cluster = max.col(scores, ties.method = "first"))
}

#' @rdname predict.cec_fit
#' @export
predict.cec_ib <- predict.cec_fit
