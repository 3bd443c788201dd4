#' Default cluster priors for TVClust
#'
#' The conjugate priors of the cluster parameters that [tvclust()] integrates
#' out, with data-driven defaults. Pass the result (modified or not) as
#' `tvclust(prior = )`, or give only the entries to change as a list.
#'
#' @section Families:
#' * `"gaussian"`: full covariance, Normal-inverse-Wishart prior
#'   \eqn{\mu | \Sigma \sim N(m_0, \Sigma / \kappa_0)}{mu | Sigma ~ N(m0, Sigma / kappa0)},
#'   \eqn{\Sigma \sim IW(\nu_0, S_0)}{Sigma ~ IW(nu0, S0)}. Defaults: `m0` the data
#'   mean, `kappa0 = 0.001`, `nu0 = 5 p + 1` and
#'   `S0 = (nu0 - p - 1) C / k^(2/p)`, where `C` is the data covariance, so
#'   that the prior mean of a cluster covariance, `S0 / (nu0 - p - 1)`, is the
#'   data covariance shrunk as if the data held `k` equal clusters (Fraley &
#'   Raftery, 2007). The prior weighs like `nu0 - p - 1 = 4 p` points: a
#'   covariance in `p` dimensions needs about `p` points to be estimated, and
#'   with a prior worth a single point (the older default `nu0 = p + 2`) a
#'   cluster of fewer than `p` points gets a covariance far tighter than the
#'   data support, so in moderate dimension the posterior splits the data
#'   into many small clusters and overrules the side information. `C` gets a
#'   ridge of `1e-6` times each column's own variance, so a column on a huge
#'   scale does not swamp the others. When the covariance is singular because
#'   there are not more points than columns (`n <= p`), `C` is its diagonal
#'   (the column variances). Each cluster's marginal likelihood carries the
#'   factor \eqn{(\kappa_0 / (\kappa_0 + n_k))^{p/2}}{(kappa0 / (kappa0 + n_k))^(p/2)}
#'   for its mean: the small `kappa0` (a vague prior on the cluster means)
#'   makes a cluster of one or two outlying points cost more than it explains,
#'   so outliers join the nearest cluster instead of opening their own
#'   (`kappa0 = 0.01`, the older default, left about 11 clusters on the
#'   glass data's 6 classes). That factor grows with `p`, so with `n <= p`
#'   it would outweigh any side information: there `kappa0 = 0.01`.
#' * `"diagonal"`: independent coordinates, per coordinate \eqn{d}
#'   \eqn{\mu_d | \tau_d \sim N(m_{0d}, 1/(\kappa_0 \tau_d))}{mu_d | tau_d ~ N(m0_d, 1 / (kappa0 tau_d))}
#'   and precision \eqn{\tau_d \sim Gamma(a_0, b_{0d})}{tau_d ~ Gamma(a0, rate b0_d)}.
#'   Defaults: `m0` the data mean, `kappa0 = 0.01`, `a0 = 2`, and
#'   `b0 = var(x[, d]) / k^(2/p)` (the prior mean of a cluster variance); a
#'   constant column gets `1e-6` times the mean variance of the others.
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
  v <- column_variances(x)
  if (any(!is.finite(v))) {
    stop_arg("x", "has a column whose variance overflows double precision; rescale it")
  }
  # each column's own variance (a constant column borrows a millionth of the
  # others' mean), so one column on a huge scale leaves the others alone
  positive <- v[v > 0]
  own <- ifelse(v > 0, v, if (length(positive)) 1e-6 * mean(positive) else 1)
  if (family == "gaussian") {
    nu0 <- 5 * p + 1
    C <- if (nrow(x) > p) stats::cov(x) else diag(v, p)
    C <- C + diag(1e-6 * own, p)  # stays positive definite
    S0 <- (nu0 - p - 1) * C / shrink
    if (any(!is.finite(S0))) {
      stop_arg("x", "has columns on a scale whose prior covariance overflows double precision; rescale them")
    }
    dimnames(S0) <- NULL
    # with n <= p the mean prior's factor would outweigh any side information
    kappa0 <- if (nrow(x) > p) 0.001 else 0.01
    return(list(m0 = unname(colMeans(x)), kappa0 = kappa0, nu0 = nu0, S0 = S0))
  }
  list(m0 = unname(colMeans(x)), kappa0 = 0.01, a0 = 2, b0 = unname(own / shrink))
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

