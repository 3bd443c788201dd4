#' Default cluster priors for TVClust
#'
#' The conjugate priors of the cluster parameters that [tvclust()] integrates
#' out, with data-driven defaults. Pass the result (modified or not) as
#' `tvclust(prior = )`, or give only the entries to change as a list.
#'
#' @section Families:
#' * `"gaussian"`: full covariance, Normal-inverse-Wishart prior
#'   \eqn{\mu | \Sigma \sim N(m_0, \Sigma / \kappa_0)}{mu | Sigma ~ N(m0, Sigma / kappa0)},
#'   \eqn{\Sigma \sim IW(\nu_0, S_0)}{Sigma ~ IW(nu0, S0)}. Defaults (as in the
#'   conjugate prior of Fraley & Raftery, 2007): `m0` the data mean,
#'   `kappa0 = 0.01`, `nu0 = p + 2`, and `S0 = cov(x) / k^(2/p)`, so that the
#'   prior mean of a cluster covariance is the data covariance shrunk as if
#'   the data held `k` equal clusters.
#' * `"diagonal"`: independent coordinates, per coordinate \eqn{d}
#'   \eqn{\mu_d | \tau_d \sim N(m_{0d}, 1/(\kappa_0 \tau_d))}{mu_d | tau_d ~ N(m0_d, 1 / (kappa0 tau_d))}
#'   and precision \eqn{\tau_d \sim Gamma(a_0, b_{0d})}{tau_d ~ Gamma(a0, rate b0_d)}.
#'   Defaults: `m0` the data mean, `kappa0 = 0.01`, `a0 = 2`, and
#'   `b0 = var(x[, d]) / k^(2/p)` (the prior mean of a cluster variance).
#' * `"multinomial"`: rows are count vectors, the category probabilities of a
#'   cluster have a Dirichlet(`alpha`) prior. Default: `alpha` proportional
#'   to the overall category frequencies (each count plus one), summing to
#'   the number of categories, so the prior centres on the data's average
#'   profile with the weight of one pseudo-count per category.
#'
#' @param x Data: a numeric matrix or data.frame, one row per point (counts
#'   for `"multinomial"`).
#' @param family `"gaussian"`, `"diagonal"` or `"multinomial"`.
#' @param k The number of clusters the default cluster spread is scaled for
#'   (not a limit on the number of clusters).
#' @return A named list of hyperparameters (`m0`, `kappa0`, `nu0`, `S0`;
#'   `m0`, `kappa0`, `a0`, `b0`; or `alpha`).
#' @references Fraley, C. and Raftery, A. E. (2007). Bayesian regularization
#'   for normal mixture estimation and model-based clustering. Journal of
#'   Classification 24, 155-181.
#' @seealso [tvclust()]
#' @examples
#' str(tvclust_prior(scale(iris[, 1:4])))
#' str(tvclust_prior(iris[, 1:4], "diagonal", k = 3))
#' @export
tvclust_prior <- function(x, family = c("gaussian", "diagonal", "multinomial"), k = 10) {
  family <- match_arg(family)
  if (family == "multinomial") {
    x <- count_points(x, "x", min_rows = 2L)
    k <- check_number(k, "k", lower = 1)
    p <- n_coordinates(x)
    freq <- (if (inherits(x, "sideclust_sparse_points")) x$col_sums else colSums(x)) + 1
    return(list(alpha = unname(p * freq / sum(freq))))
  }
  x <- check_data_matrix(x, "x", min_rows = 2L)
  k <- check_number(k, "k", lower = 1)
  p <- ncol(x)
  shrink <- k^(2 / p)
  if (family == "gaussian") {
    S0 <- stats::cov(x) / shrink
    S0 <- S0 + diag(max(mean(diag(S0)), 1) * 1e-6, p)  # stays positive definite
    dimnames(S0) <- NULL
    return(list(m0 = unname(colMeans(x)), kappa0 = 0.01, nu0 = p + 2, S0 = S0))
  }
  v <- column_variances(x) / shrink
  list(m0 = unname(colMeans(x)), kappa0 = 0.01, a0 = 2,
       b0 = unname(pmax(v, max(mean(v), 1) * 1e-6)))
}

# The user's prior (NULL, a full or partial list) completed with the defaults
# and checked against the data's dimension.
resolve_tvclust_prior <- function(prior, x, family) {
  default <- tvclust_prior(x, family)
  if (is.null(prior)) return(default)
  if (!is.list(prior) || is.null(names(prior)) || any(names(prior) == "")) {
    stop_arg("prior", "must be a named list such as tvclust_prior() returns")
  }
  unknown <- setdiff(names(prior), names(default))
  if (length(unknown)) {
    stop_arg("prior", sprintf("has entries %s unknown for family \"%s\" (expected %s)",
                              paste(unknown, collapse = ", "), family,
                              paste(names(default), collapse = ", ")))
  }
  default[names(prior)] <- prior
  check_tvclust_prior(default, n_coordinates(x), family)
}

