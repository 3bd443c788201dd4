#' Inspect a variational TVClust fit
#'
#' Methods for the fits of `tvclust(method = "variational")` (class
#' `"tvclust_vb"`). `print()` and `summary()` report the hard partition (each
#' point in its most responsible component) with its sizes, the final
#' evidence lower bound (ELBO) with the sweeps it took and the final ELBO of
#' every restart, the posterior means of `p`, `q` and `alpha` (or their fixed
#' values), the co-clustering confidence and the side information kept and
#' broken. `plot()` draws, by `what`:
#' * `"elbo"`: the ELBO after every sweep of the restart kept;
#' * `"estimate"`: the data coloured by the hard partition, with the side
#'   information, as [plot.sideclust()] draws it;
#' * `"uncertainty"`: the same with point size growing with 1 minus the
#'   largest responsibility;
#' * `"psm"`: the variational co-clustering probabilities
#'   \eqn{r_i \cdot r_j}{r_i . r_j} (see [psm()]).
#'
#' What the Gibbs fit shows and a variational fit cannot: a posterior
#' distribution of the number of clusters, traces of `p`, `q` and `alpha`
#' (only their final variational means exist), R-hat and effective sample
#' sizes (there are no draws; convergence is the ELBO's), the posterior
#' expected loss of the estimate, [combine_chains()] and the \pkg{posterior}
#' / \pkg{coda} conversions.
#'
#' `predict()` gives each new point the probability of each cluster,
#' proportional to \eqn{\exp(E[\log \pi_k] + E[\log f(x | \theta_k)])}{exp(E log pi_k + E log f(x | theta_k))}
#' under the variational factors, with a last column `new` for the
#' truncation's unused components (each at its prior); new points carry no
#' side information. `coef()` gives the variational posterior means of the
#' weights and cluster parameters, and `logLik()` plugs them into the finite
#' mixture of the hard partition's clusters (as [logLik.tvclust()] does with
#' the Gibbs fit's).
#'
#' @param x,object A `tvclust(method = "variational")` fit.
#' @param what Which plot, see Description.
#' @param max_n Most points for `what = "psm"`.
#' @param newdata Data with the same columns as the clustered data.
#'   Matched to the fitted columns by name, see [predict-newdata].
#' @param digits Significant digits to print.
#' @param ... Passed on to the underlying plot; unused elsewhere.
#' @return `print()` and `plot()` return `x` invisibly; `summary()` an
#'   object of class `summary.tvclust_vb`; `predict()` a list with `cluster`,
#'   `probability` (a column per cluster and a last column `new`) and `new`;
#'   `coef()` a list with `weights`, `centers` and, for the Gaussian
#'   families, `covariances`; `logLik()` a `"logLik"` object.
#' @examples
#' set.seed(3)
#' x <- scale(iris[, 1:4])
#' side <- sample_constraints(iris$Species, rate = 0.01, noise = 0.1)
#' fit <- tvclust(x, side, method = "variational", restarts = 2)
#' summary(fit)
#' plot(fit, "elbo")
#' predict(fit, x[1:3, ])$probability
#' @name tvclust_vb-methods
NULL

#' @rdname tvclust_vb-methods
#' @method print tvclust_vb
#' @export
print.tvclust_vb <- function(x, digits = 3L, ...) {
  print(summary(x), digits = digits)
  cat("\nAvailable components:\n")
  print(names(x))
  invisible(x)
}

#' @rdname tvclust_vb-methods
#' @method summary tvclust_vb
#' @export
summary.tvclust_vb <- function(object, ...) {
  out <- list(
    family = object$family, n = object$n, k = object$k, size = object$size,
    truncation = object$truncation, restarts = object$restarts, init = object$init,
    elbo = object$elbo, restart_elbo = object$restart_elbo, iterations = object$iterations,
    sweeps = object$sweeps,
    converged = object$converged, tol = object$tol,
    p = object$p, q = object$q, alpha = object$alpha,
    learned = c(pq = length(object$settings$pq_prior) > 0L,
                alpha = length(object$settings$alpha_prior) > 0L),
    other_mass = max(1 - rowSums(object$membership)),
    confidence = stats::quantile(object$confidence, c(0, 0.1, 0.5)),
    side = side_agreement_table(object$side, object$cluster)
  )
  class(out) <- "summary.tvclust_vb"
  out
}

#' @rdname tvclust_vb-methods
#' @method print summary.tvclust_vb
#' @export
print.summary.tvclust_vb <- function(x, digits = 3L, ...) {
  f <- function(v) format(v, digits = digits)
  cat(sprintf("TVClust, variational (%s clusters): %d points, truncation %d, %d restart%s (%s)\n",
              x$family, x$n, x$truncation, x$restarts, if (x$restarts == 1L) "" else "s", x$init))
  cat(sprintf("Hard partition (most responsible component): %d clusters, sizes %s\n", x$k,
              format_sizes(x$size)))
  trials <- if (is.null(x$sweeps)) 0L else x$sweeps - x$iterations
  cat(sprintf("ELBO: %s after %d sweeps%s (%s)\n", format(x$elbo, digits = digits + 4L),
              x$iterations,
              if (trials > 0L) sprintf(" and %d trial sweeps of moves", trials) else "",
              if (isTRUE(x$converged)) sprintf("converged, tol %g", x$tol)
              else "NOT converged: raise max_iter"))
  if (length(x$restart_elbo) > 1L) {
    cat("Final ELBO of each restart:", paste(format(x$restart_elbo, digits = digits + 4L),
                                             collapse = ", "), "\n")
  }
  cat(sprintf("p = %s, q = %s (%s); alpha = %s (%s)\n", f(x$p), f(x$q),
              if (x$learned[["pq"]]) "variational posterior means" else "fixed", f(x$alpha),
              if (x$learned[["alpha"]]) "variational posterior mean" else "fixed"))
  if (x$other_mass > 1e-3) {
    cat(sprintf("Responsibility outside the clusters of the partition: up to %s per point\n",
                f(x$other_mass)))
  }
  cat("Co-clustering confidence: min", f(x$confidence[[1]]), ", 10%", f(x$confidence[[2]]),
      ", median", f(x$confidence[[3]]), "\n")
  if (!is.null(x$side)) {
    cat("Side information kept / broken by the partition:\n")
    print(x$side[, c("type", "total", "satisfied", "violated")], row.names = FALSE)
  }
  invisible(x)
}

#' @rdname tvclust_vb-methods
#' @export
plot.tvclust_vb <- function(x, what = c("elbo", "estimate", "uncertainty", "psm"), max_n = 1000L,
                            ...) {
  what <- match_choice(what, c("elbo", "estimate", "uncertainty", "psm"), "what")
  switch(what,
    elbo = graphics::plot(seq_along(x$trace$elbo), x$trace$elbo, type = "b", pch = 20,
                          xlab = "sweep", ylab = "ELBO",
                          main = sprintf("TVClust (variational): ELBO of restart %d of %d",
                                         x$best_restart, x$restarts), ...),
    estimate = plot.sideclust(x, main = sprintf("TVClust (variational): %d clusters", x$k), ...),
    uncertainty = plot.sideclust(x, what = "uncertainty", ...),
    psm = plot_tvclust_psm(x, max_n, ...)
  )
  invisible(x)
}

#' @rdname tvclust_vb-methods
#' @export
predict.tvclust_vb <- function(object, newdata, ...) {
  newdata <- prediction_data(object, newdata)
  if (object$family == "multinomial") {
    pts <- multinomial_predict_points(object, newdata)
    newdata <- pts$newdata
    logw <- .tvclust_vb_predict_cpp(pts$train, object$membership, object$family,
                                    object$prior, pts$new)
  } else {
    nd <- newdata_for_core(newdata, ncol(object$data))  # checked and transposed in one pass
    newdata <- nd$x
    logw <- .tvclust_vb_predict_cpp(t(object$data), object$membership, object$family,
                                    object$prior, nd$xt)
  }
  logw <- sweep(logw, 2L, object$log_weight, "+")
  tvclust_prediction(logw, object$k,
                     if (is.matrix(newdata)) rownames(newdata) else point_names(newdata))
}

#' @rdname tvclust_vb-methods
#' @export
coef.tvclust_vb <- function(object, ...) {
  x <- object$data
  r <- object$membership
  prior <- object$prior
  k <- object$k
  mass <- colSums(r)
  weights <- exp(unname(object$log_weight[seq_len(k)]))
  weights <- weights / sum(weights)
  sums <- weighted_row_sums(r, x)  # k x p weighted sums
  if (object$family == "multinomial") {
    counts <- sweep(sums, 2L, prior$alpha, "+")
    centers <- counts / rowSums(counts)
    dimnames(centers) <- list(seq_len(k), colnames(sums))
    return(list(weights = weights, centers = centers))
  }
  p <- ncol(x)
  kappa <- prior$kappa0 + mass
  centers <- (prior$kappa0 * matrix(prior$m0, k, p, byrow = TRUE) + sums) / kappa
  covariances <- array(0, c(p, p, k))
  y <- sweep(x, 2L, prior$m0)
  for (j in seq_len(k)) {
    s <- colSums(r[, j] * y)
    scatter <- crossprod(y * sqrt(r[, j])) - tcrossprod(s) / kappa[j]
    if (object$family == "gaussian") {
      covariances[, , j] <- (prior$S0 + scatter) / (prior$nu0 + mass[j] - p - 1)
    } else {
      b <- prior$b0 + 0.5 * diag(scatter)
      covariances[, , j] <- diag(b / (prior$a0 + mass[j] / 2 - 1), p)
    }
  }
  dimnames(centers) <- list(seq_len(k), colnames(x))
  dimnames(covariances) <- list(colnames(x), colnames(x), seq_len(k))
  list(weights = weights, centers = centers, covariances = covariances)
}

#' @rdname tvclust_vb-methods
#' @export
logLik.tvclust_vb <- function(object, ...) tvclust_plugin_loglik(object, stats::coef(object))

method_label.tvclust_vb <- function(object) "TVClust (variational)"
