# Methods for constrained_mixture fits, and constraint_posterior(): one
# E-step of the constraint field from given label probabilities.

#' Predict, print and summarize a constrained mixture fit
#'
#' @param object,x A fit from [constrained_mixture()].
#' @param newdata Data with the columns of the data that was fitted; by
#'   default the fitted data. New points carry no constraints: their
#'   probabilities are \eqn{w_k N(x; \mu_k, \Sigma_k)} normalized.
#'   Matched to the fitted columns by name, see [predict-newdata].
#' @param type Deprecated: `"class"` or `"prob"` return the former bare
#'   vector or matrix.
#' @param digits Significant digits to print.
#' @param ... Unused.
#' @return `predict()`: a list with `cluster` (the most probable cluster of
#'   each point) and `probability` (an `n` x `k` matrix); `print()`
#'   returns `x` invisibly; `summary()` an object of class
#'   `summary.constrained_mixture` (a `summary.sideclust` with the E-step,
#'   covariance type, weights and means).
#' @examples
#' x <- scale(iris[, 1:4])
#' fit <- constrained_mixture(x, constraints(must = c(1, 51), n = 150), k = 3,
#'                            covariance = "diagonal")
#' summary(fit)
#' predict(fit, x[c(1, 51, 101), ])$probability
#' @name constrained_mixture-methods
#' @method predict constrained_mixture
#' @export
predict.constrained_mixture <- function(object, newdata, type, ...) {
  p <- ncol(object$centers)
  x <- check_newdata(prediction_data(object, newdata), p)
  k <- object$k
  logp <- gaussian_component_logs(x, object$weights, object$centers, object$covariances)
  far <- overflowed_logits(logp) | far_rows(x, object$centers)
  logp[far, ] <- 0
  probability <- normalize_log_weights(logp)
  if (any(far)) {
    # far out the densities underflow; their ratios are still defined
    probability[far, ] <- gaussian_far_memberships(x[far, , drop = FALSE], log(object$weights),
                                                   object$centers, object$covariances)$probability
  }
  out <- cluster_prediction(probability = probability, rows = rownames(x))
  if (missing(type)) return(out)
  type <- match_choice(type, c("class", "prob"), "type")
  warning("`type` is deprecated: predict() returns a list with `cluster` and `probability`",
          call. = FALSE)
  if (type == "class") return(unname(out$cluster))
  prob <- unname(out$probability)
  colnames(prob) <- seq_len(k)
  prob
}




#' @rdname constrained_mixture-methods
#' @details `logLik()` is the mixture log-likelihood of the data at the
#'   fitted parameters, without the constraints, with `df` counting the
#'   weights (`k - 1`, none with `equal_weights`), the `k * p` means and the
#'   free parameters of the covariance model: the count of mclust, so that
#'   [BIC()] of a fit without constraints is minus mclust's BIC of the same
#'   model. With constraints the likelihood is of the data alone; the
#'   constraints are side information, not data.
#' @export
logLik.constrained_mixture <- function(object, ...) {
  x <- check_data_matrix(training_data(object, "object"), "object$data")
  logw <- gaussian_component_logs(x, object$weights, object$centers, object$covariances)
  p <- ncol(x)
  k <- object$k
  df <- (if (isTRUE(object$equal_weights)) 0 else k - 1) + k * p +
    k * covariance_df(object$covariance, p)
  new_loglik(sum_log_sum_exp(logw), df = df, nobs = nrow(x))
}

#' @rdname constrained_mixture-methods
#' @method print constrained_mixture
#' @export
print.constrained_mixture <- function(x, digits = 4L, ...) {
  cat(sprintf("Constrained Gaussian mixture (%s covariance) of %d points, k = %d\n",
              x$covariance, length(x$cluster), x$k))
  cat(sprintf("E-step: %s%s\n", gsub("_", " ", x$inference),
              if (x$inference %in% c("chunklet", "sampled_chunklet"))
                sprintf(" (chunklet posteriors: %s)", x$estep) else ""))
  cat("Cluster sizes:", format_sizes(tabulate(x$cluster, x$k)), "\n")
  cat("Weights:", format(x$weights, digits = 3), "\n")
  cat(sprintf("Log-likelihood: %s after %d iterations (%s)\n",
              format(utils::tail(x$loglik, 1L), digits = digits), x$iterations,
              if (isTRUE(x$converged)) "converged" else "not converged"))
  if (!is.null(x$side)) {
    agree <- side_agreement_table(x$side, x$cluster)
    cat(sprintf("Side information: %s must / %s cannot pairs violated\n",
                format_ratio(agree$violated[1], agree$total[1]),
                format_ratio(agree$violated[2], agree$total[2])))
  }
  if (x$dropped > 0L) cat(sprintf("Cannot-links ignored (inside chunklets): %d\n", x$dropped))
  cat("\nAvailable components:\n")
  print(names(x))
  invisible(x)
}

#' @rdname constrained_mixture-methods
#' @method summary constrained_mixture
#' @export
summary.constrained_mixture <- function(object, ...) {
  out <- summary.sideclust(object)
  out$inference <- object$inference
  out$estep <- object$estep
  out$covariance <- object$covariance
  out$loglik <- utils::tail(object$loglik, 1L)
  out$weights <- object$weights
  out$centers <- object$centers
  class(out) <- c("summary.constrained_mixture", class(out))
  out
}

#' @rdname constrained_mixture-methods
#' @export
print.summary.constrained_mixture <- function(x, digits = 4L, ...) {
  cat(sprintf("Constrained mixture, E-step %s (%s), %s covariance\n",
              x$inference, x$estep, x$covariance))
  NextMethod()
  cat("\nWeights and means:\n")
  print(cbind(weight = x$weights, x$centers), digits = digits)
  invisible(x)
}

#' Posterior of the labels under pairwise constraints (one E-step)
#'
#' Given each point's label probabilities without constraints (for a mixture:
#' \eqn{w_k p(x_i | k)} normalized), computes their posterior under the
#' hidden Markov random field of the constraints, with the inference methods
#' of [constrained_mixture()]: a labeling's prior weight is multiplied by
#' \eqn{e^{-2W}} for each violated pair. This is the E-step of
#' `constrained_mixture()` on its own, for checking the methods on small
#' examples such as Nelson & Cohen's Examples 1 and 2. ICM and Gibbs start
#' from the most probable label of each point and update the points in index
#' order.
#'
#' @param prob An `n x k` matrix of probabilities (rows are normalized), or of
#'   log-probabilities with `log = TRUE`.
#' @param side Pairwise constraints on the `n` points (see
#'   [constrained_mixture()]).
#' @param inference The inference method, see [constrained_mixture()].
#' @param penalty `NULL` (penalties from the confidences), one penalty for all
#'   pairs or one per pair.
#' @param log Is `prob` on the log scale?
#' @inheritParams constrained_mixture
#' @return An `n x k` matrix of posterior probabilities (for ICM, each
#'   point's distribution given its neighbours' final ICM labels), with
#'   attribute `"labels"` (the most probable label of each point).
#' @examples
#' # Nelson & Cohen's Example 1: a cannot-link between two points that both
#' # prefer cluster 2
#' prob <- rbind(c(0.1, 0.9), c(0.01, 0.99))
#' side <- constraints(cannot = c(1, 2), n = 2)
#' sapply(c(0.01, 0.1, 1, 3, 5, Inf), function(w)
#'   constraint_posterior(prob, side, "exact", penalty = w)[, 2])
#' @export
constraint_posterior <- function(prob, side,
                                 inference = c("mean_field", "chunklet", "icm", "gibbs",
                                               "sampled_chunklet", "exact"),
                                 penalty = NULL,
                                 log = FALSE, samples = 100L, sweeps = 1000L,
                                 burn_in = 100L, inner_iter = 100L, inner_tol = 1e-8,
                                 max_labelings = 1e6,
                                 threads = getOption("sideclust.threads", 2L)) {
  log <- check_flag(log, "log")
  if (!is.matrix(prob) || !is.numeric(prob) || anyNA(prob)) {
    stop_arg("prob", "must be a numeric n x k matrix without NA")
  }
  if (!log && any(prob < 0)) stop_arg("prob", "must be non-negative (or set log = TRUE)")
  lp <- if (log) prob else base::log(prob)
  if (any(apply(lp, 1L, max) == -Inf)) stop_arg("prob", "has rows without a positive entry")
  inference <- match_choice(inference, cm_inferences, "inference")
  side <- cm_side(side, nrow(prob))
  w <- cm_penalty(side, penalty)
  options <- cm_options(samples, sweeps, burn_in, inner_iter, inner_tol, max_labelings, threads)
  options$penalty <- w
  options$inference <- inference
  res <- .constraint_posterior_cpp(t(lp), side, options)
  z <- res$z
  dimnames(z) <- dimnames(prob)
  attr(z, "labels") <- max.col(z, ties.method = "first")
  z
}

method_label.constrained_mixture <- function(object) "Constrained mixture"
