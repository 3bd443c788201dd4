#' Inspect a TVClust fit
#'
#' `print()` and `summary()` report the point estimate and its posterior
#' expected loss (with that of the best sampled draw when the estimate was
#' searched), the posterior of the number of clusters, the posterior means of
#' `p`, `q` and `alpha`, and, for every traced quantity (`k`, the log
#' posterior, and `p`, `q`, `alpha` when sampled), the rank-normalized split
#' R-hat and the bulk and tail effective sample sizes of Vehtari, Gelman,
#' Simpson, Carpenter & Buerkner (2021), from [posterior::rhat()],
#' [posterior::ess_bulk()] and [posterior::ess_tail()]. The fit counts as
#' converged when every R-hat is below 1.1; Vehtari et al. recommend the
#' stricter 1.01 for final inference. `plot()` draws, by `what`:
#' * `"trace"`: the number of clusters, log posterior, `p` and `q` (and
#'   `alpha` when sampled) for every sweep and chain, burn-in shaded;
#' * `"k"`: the posterior distribution of the number of clusters;
#' * `"estimate"`: the data (first two principal components when it has more
#'   than two columns) coloured by the point estimate, with the side
#'   information, as [plot.sideclust()] draws it;
#' * `"psm"`: a heat map of the posterior similarity matrix, points ordered
#'   by estimated cluster (for at most `max_n` points).
#'
#' @param x,object A [tvclust()] fit.
#' @param what Which plot, see Description.
#' @param max_n Most points for `what = "psm"`.
#' @param digits Significant digits to print.
#' @param ... Passed on to the underlying plot.
#' @return `print()` and `plot()` return `x` invisibly; `summary()` an
#'   object of class `summary.tvclust`, whose `diagnostics` is a data frame
#'   with columns `variable`, `rhat`, `ess_bulk` and `ess_tail`.
#' @references
#' Vehtari, A., Gelman, A., Simpson, D., Carpenter, B. and Buerkner, P.-C.
#' (2021). Rank-normalization, folding, and localization: an improved R-hat
#' for assessing convergence of MCMC. Bayesian Analysis 16, 667-718.
#' @examples
#' set.seed(3)
#' x <- scale(iris[, 1:4])
#' side <- sample_constraints(iris$Species, rate = 0.01, noise = 0.1)
#' fit <- tvclust(x, side, iter = 150, chains = 2, threads = 1)
#' summary(fit)
#' plot(fit, "k")
#' plot(fit, "psm")
#' @name tvclust-methods
NULL

#' @rdname tvclust-methods
#' @method print tvclust
#' @export
print.tvclust <- function(x, digits = 3L, ...) {
  print(summary(x), digits = digits)
  cat("\nAvailable components:\n")
  print(names(x))
  invisible(x)
}

#' @rdname tvclust-methods
#' @method summary tvclust
#' @export
summary.tvclust <- function(object, ...) {
  out <- list(
    family = object$family, n = object$n, k = object$k,
    size = tabulate(object$cluster, object$k), chains = object$chains,
    iterations = object$iterations, burn_in = object$burn_in, thin = object$thin,
    kept = sum(object$trace$kept) * object$chains,
    posterior_k = object$posterior_k, p = object$p, q = object$q, alpha = object$alpha,
    sampled = c(pq = length(object$settings$pq_prior) > 0L,
                alpha = length(object$settings$alpha_prior) > 0L),
    rhat = object$rhat, converged = object$converged, loss = object$loss,
    diagnostics = object$diagnostics %||% tvclust_diagnostics(object),
    expected_loss = object$expected_loss,
    point_estimate = object$point_estimate %||% "draws",
    best_draw_loss = object$best_draw_loss %||% object$expected_loss,
    confidence = stats::quantile(object$confidence, c(0, 0.1, 0.5)),
    side = side_agreement_table(object$side, object$cluster)
  )
  class(out) <- "summary.tvclust"
  out
}

#' @rdname tvclust-methods
#' @method print summary.tvclust
#' @export
print.summary.tvclust <- function(x, digits = 3L, ...) {
  f <- function(v) format(v, digits = digits)
  cat(sprintf("TVClust (%s clusters): %d points, %d chains x %d sweeps (burn-in %d, thin %d), %d draws\n",
              x$family, x$n, x$chains, x$iterations, x$burn_in, x$thin, x$kept))
  cat(sprintf("Point estimate (least expected %s loss, %s): %d clusters, sizes %s\n",
              if (x$loss == "vi") "VI" else "Binder",
              if (x$point_estimate == "search") "searched from the best draw" else "best draw",
              x$k, format_sizes(x$size)))
  cat(sprintf("Expected loss: %s", f(x$expected_loss)),
      if (x$point_estimate == "search") sprintf("(best draw: %s)", f(x$best_draw_loss)), "\n")
  top <- utils::head(sort(x$posterior_k, decreasing = TRUE), 5L)
  mean_k <- sum(as.numeric(names(x$posterior_k)) * as.numeric(x$posterior_k))
  cat(sprintf("Posterior of the number of clusters (mean %s; the estimate has %d):", f(mean_k), x$k),
      paste0(names(top), ": ", f(as.numeric(top)), collapse = ", "), "\n")
  cat(sprintf("p = %s, q = %s (%s); alpha = %s (%s)\n", f(x$p), f(x$q),
              if (x$sampled[["pq"]]) "posterior means" else "fixed", f(x$alpha),
              if (x$sampled[["alpha"]]) "posterior mean" else "fixed"))
  cat(sprintf("Convergence (rank-normalized split R-hat %s; bulk and tail ESS):\n",
              if (isTRUE(x$converged)) "all below 1.1"
              else "not all below 1.1: run longer, or more chains with combine_chains()"))
  d <- x$diagnostics
  print(data.frame(variable = d$variable, rhat = round(d$rhat, 3L),
                   ess_bulk = round(d$ess_bulk), ess_tail = round(d$ess_tail)),
        row.names = FALSE)
  cat("Co-clustering confidence: min", f(x$confidence[[1]]), ", 10%", f(x$confidence[[2]]),
      ", median", f(x$confidence[[3]]), "\n")
  if (!is.null(x$side)) {
    cat("Side information kept / broken by the estimate:\n")
    print(x$side[, c("type", "total", "satisfied", "violated")], row.names = FALSE)
  }
  invisible(x)
}

#' Assign new points to the clusters of a TVClust fit
#'
#' Each new point gets the posterior predictive probability of joining each
#' cluster of the point estimate, proportional to the cluster's size times
#' its posterior predictive density at the point, or a new cluster,
#' proportional to `alpha` times the prior predictive density (new points
#' carry no side information).
#'
#' @param object A [tvclust()] fit.
#' @param newdata Data with the same columns as the clustered data.
#'   Matched to the fitted columns by name, see [predict-newdata].
#' @param ... Unused.
#' @return A list with `cluster` (the most probable existing cluster),
#'   `probability` (a matrix with a column per cluster and a last column
#'   `new` for a new cluster) and `new` (the probability of a new cluster).
#' @examples
#' set.seed(4)
#' x <- scale(iris[, 1:4])
#' fit <- tvclust(x[-(1:5), ], iter = 100, chains = 1, threads = 1)
#' predict(fit, x[1:5, ])$cluster
#' @export
predict.tvclust <- function(object, newdata, ...) {
  newdata <- prediction_data(object, newdata)
  if (object$family == "multinomial") {
    pts <- multinomial_predict_points(object, newdata)
    newdata <- pts$newdata
    logw <- .tvclust_predict_cpp(pts$train, object$cluster, object$family, object$prior,
                                 pts$new)
    newdata <- list(row_names = point_names(newdata))
  } else {
    nd <- newdata_for_core(newdata, ncol(object$data))  # checked and transposed in one pass
    newdata <- nd$x
    logw <- .tvclust_predict_cpp(t(object$data), object$cluster, object$family, object$prior,
                                 nd$xt)
    newdata <- list(row_names = rownames(newdata))
  }
  logw[, ncol(logw)] <- logw[, ncol(logw)] + log(object$alpha)
  tvclust_prediction(logw, object$k, newdata$row_names)
}

# The prediction of either TVClust method from the n x (k + 1) log predictive
# weights (the last column: a new cluster). Rows whose weights could not be
# computed (far outside the fitted data, where the predictive densities
# overflow) get NA with a warning, never NaN in silence.
tvclust_prediction <- function(logw, k, rows) {
  bad <- overflowed_logits(logw)
  logw[bad, ] <- 0
  prob <- normalize_log_weights(logw)
  colnames(prob) <- c(seq_len(k), "new")
  out <- cluster_prediction(probability = prob, rows = rows,
                            cluster = max.col(prob[, seq_len(k), drop = FALSE], ties.method = "first"),
                            new = prob[, "new"])
  mark_unscored(out, bad, "lie too far from the fitted data for their predictive densities in double precision")
}

#' Posterior similarity matrix
#'
#' The share of a sampler's stored draws that put each pair of points in the
#' same cluster; for a variational fit (`tvclust(method = "variational")`),
#' the co-clustering probabilities under the variational posterior,
#' \eqn{\sum_k r_{ik} r_{jk}}{sum_k r_ik r_jk}, over the components of the
#' hard partition. It is an \eqn{n \times n}{n x n} matrix, so it is formed
#' only on request and only when it fits in `max_n`.
#'
#' @param fit A [tvclust()] fit whose draws were kept, or a variational fit.
#' @param max_n Largest number of points for which to form the matrix.
#' @return A symmetric `n` x `n` matrix with ones on the diagonal.
#' @examples
#' set.seed(2)
#' fit <- tvclust(scale(iris[1:60, 1:4]), iter = 100, chains = 1, threads = 1)
#' s <- psm(fit)
#' s[1:3, 1:3]
#' @export
psm <- function(fit, max_n = 5000L) {
  if (!inherits(fit, c("tvclust", "tvclust_vb"))) stop_arg("fit", "must be a tvclust() fit")
  if (inherits(fit, "tvclust") && is.null(fit$draws)) {
    stop_arg("fit", "holds no draws (they were not kept); rerun with keep_draws = TRUE")
  }
  if (fit$n > max_n) {
    stop_arg("fit", sprintf("has %d points; the %d x %d matrix would need %s (raise `max_n` to force it)",
                            fit$n, fit$n, fit$n, format_bytes(8 * fit$n^2)))
  }
  if (inherits(fit, "tvclust_vb")) {
    s <- tcrossprod(fit$membership)
    diag(s) <- 1
    return(unname(s))
  }
  .psm_cpp(fit$draws)
}

method_label.tvclust <- function(object) "TVClust"

#' @rdname combine_chains
#' @export
c.tvclust <- function(x, ...) combine_chains(x, ...)

#' TVClust traces for the posterior and coda packages
#'
#' The scalar quantities the sampler traces, for the kept sweeps (after the
#' burn-in, thinned) of every chain: `k` (the number of clusters),
#' `log_posterior`, and `p`, `q` and `alpha` when they were sampled (when
#' [tvclust()] had `pq_prior` with side information, `alpha_prior`).
#' `as_draws_array()` and `as_draws()` give a `draws_array` of the
#' \pkg{posterior} package (iterations x chains x variables), for its
#' summaries and diagnostics; `as.mcmc.list()` gives a `coda` `mcmc.list`,
#' one `mcmc` per chain, numbered by sweep.
#'
#' @param x A [tvclust()] fit.
#' @param ... Unused.
#' @return A `draws_array`, or an `mcmc.list`.
#' @seealso [summary.tvclust()], which reports R-hat and effective sample
#'   sizes from these draws.
#' @examples
#' set.seed(5)
#' fit <- tvclust(scale(iris[, 1:4]), iter = 100, chains = 2, threads = 1)
#' d <- posterior::as_draws_array(fit)
#' posterior::summarise_draws(d)
#' if (requireNamespace("coda", quietly = TRUE)) {
#'   coda::gelman.diag(coda::as.mcmc.list(fit), autoburnin = FALSE)
#' }
#' @name tvclust-draws
NULL

#' @rdname tvclust-draws
#' @exportS3Method posterior::as_draws_array
as_draws_array.tvclust <- function(x, ...) {
  posterior::as_draws_array(tvclust_trace_array(x))
}

#' @rdname tvclust-draws
#' @exportS3Method posterior::as_draws
as_draws.tvclust <- function(x, ...) as_draws_array.tvclust(x, ...)

#' @rdname tvclust-draws
#' @exportS3Method coda::as.mcmc.list
as.mcmc.list.tvclust <- function(x, ...) {
  if (!requireNamespace("coda", quietly = TRUE)) {
    stop("as.mcmc.list() needs the coda package", call. = FALSE)
  }
  a <- tvclust_trace_array(x)
  start <- x$burn_in + x$thin
  coda::mcmc.list(lapply(seq_len(dim(a)[2L]), function(c) {
    m <- matrix(a[, c, ], nrow = dim(a)[1L], dimnames = list(NULL, dimnames(a)$variable))
    coda::mcmc(m, start = start, thin = x$thin)
  }))
}

# The training and new counts of a multinomial TVClust fit (either method) as
# the core reads them, dense or sparse; newdata checked against the fit.
multinomial_predict_points <- function(object, newdata) {
  train <- count_points(object$data, "object$data")
  newdata <- count_points(newdata, "newdata")
  if (n_coordinates(newdata) != n_coordinates(train)) {
    stop_arg("newdata", sprintf("has %d columns but the fit has %d",
                                n_coordinates(newdata), n_coordinates(train)))
  }
  list(train = points_for_core(train), new = points_for_core(newdata), newdata = newdata)
}
