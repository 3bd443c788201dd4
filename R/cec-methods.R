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
  x <- check_newdata(newdata, ncol(object$centers))
  scores <- cec_scores(object, x)
  cluster_prediction(probability = normalize_log_weights(scores), rows = rownames(x),
                     cluster = max.col(scores, ties.method = "first"))
}

# log p_i + log N(x; mu_i, Sigma_i) of every row of x and cluster i.
cec_scores <- function(object, x) {
  p <- ncol(object$centers)
  share <- object$size / sum(object$size)
  scores <- vapply(seq_len(object$k), function(a) {
    s <- object$covariances[, , a]
    if (p == 1L) s <- matrix(s, 1L, 1L)
    ld <- as.numeric(determinant(s, logarithm = TRUE)$modulus)
    log(share[a]) - 0.5 * (p * log(2 * pi) + ld +
                             stats::mahalanobis(x, object$centers[a, ], s))
  }, numeric(nrow(x)))
  matrix(scores, nrow(x), object$k)
}

#' Log-likelihood of a CEC or CEC-IB fit
#'
#' CEC minimizes a cross-entropy that is, up to the factor `n`, minus the
#' classification log-likelihood of its clusters: each point contributes
#' \eqn{\log p_i + \log N(x; \mu_i, \Sigma_i)}{log p_i + log N(x; mu_i,
#' Sigma_i)} of its own cluster (Tabor & Spurek 2014). `logLik()` returns that
#' sum, so that [AIC()] and [BIC()] compare fits of different `k` or `type`;
#' for [cec()] without `cov_reg` it equals `-n * cost`. For [cec_ib()] the
#' label term is left out: the likelihood is of the data alone. The degrees of
#' freedom count `k - 1` cluster shares, `k * p` means and the free
#' covariance parameters of `type` in each cluster.
#'
#' @param object A fit from [cec()] or [cec_ib()].
#' @param ... Unused.
#' @return An object of class `"logLik"` with attributes `df` and `nobs`.
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' fits <- lapply(c("spherical", "diagonal", "full"), function(t) cec(x, 3, type = t))
#' sapply(fits, BIC)
#' @export
logLik.cec_fit <- function(object, ...) {
  x <- check_data_matrix(training_data(object, "object"), "object$data")
  scores <- cec_scores(object, x)
  p <- ncol(x)
  k <- object$k
  new_loglik(sum(scores[cbind(seq_len(nrow(x)), unname(object$cluster))]),
             df = (k - 1) + k * p + k * covariance_df(object$type, p), nobs = nrow(x))
}

#' @rdname logLik.cec_fit
#' @export
logLik.cec_ib <- logLik.cec_fit

#' @rdname predict.cec_fit
#' @export
predict.cec_ib <- predict.cec_fit
