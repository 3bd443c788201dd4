# S3 methods of cec() and cec_ib() fits.

method_label.cec_fit <- function(object) "CEC"
method_label.cec_ib <- function(object) "CEC-IB"

#' Assign new points to the clusters of a CEC or CEC-IB fit
#'
#' By the CEC rule: each point goes to the cluster with the largest score
#' \eqn{\log p_i + \log N(x; \mu_i, \Sigma_i)}{log p_i + log N(x; mu_i,
#' Sigma_i)}, with \eqn{p_i} the cluster's share of the fitted points and
#' \eqn{\mu_i, \Sigma_i} the mean and covariance of the cluster's own family
#' (`centers` and `covariances` of the fit: e.g. the given covariance of a
#' `"fixed_covariance"` cluster, the given mean of a `"fixed_mean"` one). New points carry no
#' labels.
#'
#' @param object A fit from [cec()] or [cec_ib()].
#' @param newdata Data with the same columns as the clustered data; by
#'   default the fitted data.
#'   Matched to the fitted columns by name, see [predict-newdata].
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
  x <- check_newdata(prediction_data(object, newdata), ncol(object$centers))
  scores <- cec_scores(object, x)
  far <- overflowed_logits(scores) | far_rows(x, object$centers)
  scores[far, ] <- 0
  probability <- normalize_log_weights(scores)
  cluster <- max.col(scores, ties.method = "first")
  if (any(far)) {
    # far out the densities underflow; their ratios are still defined
    g <- gaussian_far_memberships(x[far, , drop = FALSE], log(object$size / sum(object$size)),
                                  object$centers, object$covariances)
    probability[far, ] <- g$probability
    cluster[far] <- g$cluster
  }
  cluster_prediction(probability = probability, rows = rownames(x), cluster = cluster)
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
             df = (k - 1) + sum(vapply(cec_fit_types(object), cec_family_df, 0, p = p)),
             nobs = nrow(x))
}

# The family of each cluster (fits from before per-cluster families stored one).
cec_fit_types <- function(object) rep_len(object$type, object$k)

# Free parameters of one cluster's Gaussian (mean and covariance) in a family.
cec_family_df <- function(type, p) {
  switch(type,
    full = p + p * (p + 1) / 2, diagonal = 2 * p, spherical = p + 1,
    fixed_covariance = p, fixed_spherical = p,
    eigenvalues = p + p * (p - 1) / 2,  # mean and rotation
    fixed_mean = p * (p + 1) / 2)
}

# One line per family, e.g. "full (clusters 1, 3); fixed_spherical r = 0.5 (2)".
cec_family_summary <- function(object) {
  types <- cec_fit_types(object)
  params <- object$param %||% vector("list", object$k)
  label <- vapply(seq_along(types), function(a) {
    v <- params[[a]]
    switch(types[a],
      fixed_spherical = sprintf("fixed_spherical (r = %s)", format(v, digits = 3)),
      eigenvalues = sprintf("eigenvalues (%s)", paste(format(sort(v, decreasing = TRUE), digits = 3),
                                                     collapse = ", ")),
      fixed_mean = sprintf("fixed_mean (%s)", paste(format(v, digits = 3), collapse = ", ")),
      types[a])
  }, "")
  data.frame(cluster = seq_along(types), size = tabulate(object$cluster, object$k),
             family = label)
}

#' Print and summarize a CEC or CEC-IB fit
#'
#' `print()` shows the clusters, the family of each (see `type` in [cec()]),
#' the cost and its parts (and in split mode the number of clusters and the
#' cost before and after splitting); `summary()` adds the table of families per cluster
#' to [summary.sideclust()][sideclust-methods].
#'
#' @param x,object A fit from [cec()] or [cec_ib()].
#' @param digits Significant digits to print.
#' @param ... Unused.
#' @return `print()` returns `x` invisibly; `summary()` an object of class
#'   `summary.cec_fit` (a `summary.sideclust` with `families`, a data frame
#'   of cluster, size and family, `cost_parts` and, in split mode,
#'   `split_history`).
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' fit <- cec(x, k = 3, type = c("full", "fixed_spherical", "eigenvalues"),
#'            param = list(NULL, 0.5, c(1, 0.5, 0.2, 0.1)))
#' fit
#' summary(fit)
#' @name cec-methods
#' @method print cec_fit
#' @export
print.cec_fit <- function(x, digits = 4L, ...) {
  cat(sprintf("%s clustering of %d points into %d clusters\n", method_label(x),
              length(x$cluster), x$k))
  fam <- cec_family_summary(x)
  cat("Cluster sizes:", format_sizes(fam$size), "\n")
  groups <- split(fam$cluster, factor(fam$family, unique(fam$family)))
  cat("Families:", paste(sprintf("%s [%s]", names(groups),
                                 vapply(groups, paste, "", collapse = ", ")),
                         collapse = "; "), "\n")
  cat(sprintf("Cost: %s (entropy %s, cross-entropy %s%s) after %d passes (%s)\n",
              format(x$cost, digits = digits),
              format(x$cost_parts[["entropy"]], digits = digits),
              format(x$cost_parts[["cross_entropy"]], digits = digits),
              if (inherits(x, "cec_ib"))
                sprintf(", labels %s", format(x$cost_parts[["labels"]], digits = digits)) else "",
              x$iterations, if (isTRUE(x$converged)) "converged" else "not converged"))
  if (!is.null(h <- x$split_history)) cat(cec_split_line(h, digits, x$split_criterion), "\n")
  cat("\nAvailable components:\n")
  print(names(x))
  invisible(x)
}

# "Split mode: k 1 -> 4 (3 splits in 2 rounds), cost 2.81 -> 1.93"; with
# split_criterion = "bic" "Split mode (BIC): ...".
cec_split_line <- function(h, digits = 4L, criterion = NULL) {
  sprintf("Split mode%s: k %d -> %d (%d split%s in %d round%s), cost %s -> %s",
          if (identical(criterion, "bic")) " (BIC)" else "",
          h$k[1], h$k[nrow(h)], sum(h$event == "split"),
          if (sum(h$event == "split") == 1L) "" else "s", sum(h$event == "passes"),
          if (sum(h$event == "passes") == 1L) "" else "s",
          format(h$cost[1], digits = digits), format(h$cost[nrow(h)], digits = digits))
}

#' @rdname cec-methods
#' @method print cec_ib
#' @export
print.cec_ib <- print.cec_fit

#' @rdname cec-methods
#' @method summary cec_fit
#' @export
summary.cec_fit <- function(object, ...) {
  out <- summary.sideclust(object)
  out$families <- cec_family_summary(object)
  out$cost_parts <- object$cost_parts
  out$split_history <- object$split_history
  out$split_criterion <- object$split_criterion
  class(out) <- c("summary.cec_fit", class(out))
  out
}

#' @rdname cec-methods
#' @method summary cec_ib
#' @export
summary.cec_ib <- summary.cec_fit

#' @rdname cec-methods
#' @method print summary.cec_fit
#' @export
print.summary.cec_fit <- function(x, digits = 4L, ...) {
  NextMethod()
  cat("\nCost parts:\n")
  print(x$cost_parts, digits = digits)
  cat("\nFamilies:\n")
  print(x$families, row.names = FALSE)
  if (!is.null(x$split_history)) {
    cat("\n", cec_split_line(x$split_history, digits, x$split_criterion), "; history:\n", sep = "")
    print(x$split_history, digits = digits)
  }
  invisible(x)
}

#' @rdname logLik.cec_fit
#' @export
logLik.cec_ib <- logLik.cec_fit

#' @rdname predict.cec_fit
#' @export
predict.cec_ib <- predict.cec_fit
