# logLik() and coef() of TVClust fits: the point estimate's clusters with
# their parameters at the posterior means given the clusters' points.

#' Log-likelihood and cluster parameters of a TVClust fit
#'
#' TVClust integrates the cluster parameters out; for model comparison
#' `logLik()` plugs in a point estimate. Given the estimated partition, each
#' cluster's parameters are set to their posterior means under the cluster
#' prior ([tvclust_prior()]) and its own points, the mixture weights to the
#' cluster shares, and the data's log-likelihood under that finite mixture is
#' returned (without the side information). `df` counts `k - 1` weights and
#' the parameters of each cluster: `p` means and `p (p + 1) / 2` covariance
#' entries (`"gaussian"`), `2 p` (`"diagonal"`) or `p - 1` category
#' probabilities (`"multinomial"`).
#'
#' `coef()` returns those posterior-mean parameters: a list with `weights`,
#' `centers` (`k` x `p`; for `"multinomial"` the category probabilities) and,
#' for the Gaussian families, `covariances` (`p` x `p` x `k`).
#'
#' @param object A [tvclust()] fit.
#' @param ... Unused.
#' @return `logLik()`: an object of class `"logLik"`; `coef()`: a list.
#' @examples
#' set.seed(3)
#' x <- scale(iris[, 1:4])
#' fit <- tvclust(x, iter = 200, chains = 1, threads = 1)
#' logLik(fit)
#' BIC(fit)
#' round(coef(fit)$centers, 2)
#' @export
logLik.tvclust <- function(object, ...) tvclust_plugin_loglik(object, coef.tvclust(object))

# The data's log-likelihood under the finite mixture of the fit's clusters
# with parameters `par` (coef()), shared by the Gibbs and variational fits.
tvclust_plugin_loglik <- function(object, par) {
  x <- object$data
  k <- object$k
  if (object$family == "multinomial" && is_sparse_input(x)) {
    x <- as_sparse_matrix(x)  # sums over the non-zeros only
    log_fact <- x
    log_fact@x <- lgamma(x@x + 1)
    logw <- outer(lgamma(Matrix::rowSums(x) + 1) - Matrix::rowSums(log_fact), log(par$weights), "+") +
      as.matrix(x %*% t(log(par$centers)))
  }
  p <- ncol(x)
  if (object$family == "multinomial") {
    if (!methods::is(x, "sparseMatrix")) {
      logw <- outer(lgamma(rowSums(x) + 1) - rowSums(lgamma(x + 1)), log(par$weights), "+") +
        x %*% t(log(par$centers))
    }
    per_cluster <- p - 1
  } else {
    logw <- gaussian_component_logs(x, par$weights, par$centers, par$covariances)
    per_cluster <- p + if (object$family == "gaussian") p * (p + 1) / 2 else p
  }
  new_loglik(sum_log_sum_exp(logw), df = (k - 1) + k * per_cluster, nobs = nrow(x))
}

#' @rdname logLik.tvclust
#' @export
coef.tvclust <- function(object, ...) {
  x <- object$data
  cluster <- unname(object$cluster)
  k <- object$k
  prior <- object$prior
  size <- tabulate(cluster, k)
  sums <- if (is_sparse_input(x)) {
    w <- Matrix::sparseMatrix(i = seq_along(cluster), j = cluster, x = 1,
                              dims = c(length(cluster), k), dimnames = list(NULL, seq_len(k)))
    weighted_row_sums(w, x)
  } else {
    rowsum(x, cluster, reorder = TRUE)
  }
  weights <- size / sum(size)
  if (object$family == "multinomial") {
    counts <- sweep(sums, 2L, prior$alpha, "+")
    return(list(weights = weights, centers = counts / rowSums(counts)))
  }
  p <- ncol(x)
  kappa <- prior$kappa0 + size
  means <- sums / size
  centers <- (prior$kappa0 * matrix(prior$m0, k, p, byrow = TRUE) + sums) / kappa
  covariances <- array(0, c(p, p, k))
  for (j in seq_len(k)) {
    xj <- x[cluster == j, , drop = FALSE]
    scatter <- crossprod(sweep(xj, 2L, means[j, ]))
    shift <- means[j, ] - prior$m0
    pull <- prior$kappa0 * size[j] / kappa[j]
    if (object$family == "gaussian") {
      s <- prior$S0 + scatter + pull * tcrossprod(shift)
      covariances[, , j] <- s / (prior$nu0 + size[j] - p - 1)
    } else {
      b <- prior$b0 + 0.5 * diag(scatter) + 0.5 * pull * shift^2
      covariances[, , j] <- diag(b / (prior$a0 + size[j] / 2 - 1), p)
    }
  }
  dimnames(centers) <- list(seq_len(k), colnames(x))
  dimnames(covariances) <- list(colnames(x), colnames(x), seq_len(k))
  list(weights = weights, centers = centers, covariances = covariances)
}
