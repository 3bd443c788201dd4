# Model generics shared by every fit: coef(), logLik() for fits without a
# likelihood, as.data.frame(), and broom's tidy(), glance() and augment()
# (the generics come from the small 'generics' package, so broom itself is
# not needed).

#' @importFrom generics tidy glance augment
#' @export
generics::tidy

#' @export
generics::glance

#' @export
generics::augment

#' Model summaries of any sideclust fit, as data frames
#'
#' The model generics of R and of broom for every fit of the package:
#' * `coef()`: the fitted cluster parameters: the `k` x `p` centres (means)
#'   of the point-clustering fits; \eqn{p(y \mid c)}{p(y|c)} of the clusters (of the
#'   cells of the product partition for [parallel_ib()]) of the
#'   information-bottleneck fits; the cluster-by-cluster joint (or density, or
#'   block means) of the co-clustering fits. [coef.tvclust()] gives
#'   TVClust's posterior-mean parameters.
#' * `logLik()`: for fits with a likelihood, see [logLik.cec_fit()],
#'   [constrained_mixture-methods] and [logLik.tvclust()]; for the others an
#'   error that says so (they minimize an objective, `fit$objective`).
#' * `as.data.frame()`: one row per clustered point (row of the data): its
#'   name, its `cluster` and, where the fit has membership probabilities, one
#'   column per cluster (`prob_1`, ...) and `uncertainty` (1 minus the largest).
#' * `tidy()`: one row per cluster: `cluster`, `size` and the centre's
#'   coordinates where the fit has centres.
#' * `glance()`: one row for the fit: `method`, `n`, `k`, `iterations`,
#'   `converged`, the final `objective` and, where defined, `logLik`, `AIC`
#'   and `BIC` (`NA` otherwise).
#' * `augment()`: the data with the columns `.cluster` (a factor) and, where
#'   the fit has membership probabilities, `.uncertainty`.
#'
#' @param object,x A fit of the package.
#' @param data For `augment()`, the clustered data (by default the fit's).
#' @param row.names,optional Unused, for the generic.
#' @param ... Unused.
#' @return `coef()`: a matrix (a list for some fits); the others a data frame.
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' fit <- constrained_mixture(x, NULL, k = 3, covariance = "diagonal")
#' coef(fit)
#' head(as.data.frame(fit))
#' tidy(fit)
#' glance(fit)
#' head(augment(fit))
#' @name sideclust-tidiers
NULL

#' @rdname sideclust-tidiers
#' @export
coef.sideclust <- function(object, ...) {
  for (field in c("centers", "pyc", "cell_pyc", "joint", "density", "block_means",
                  "cluster_relations")) {
    if (!is.null(object[[field]])) return(object[[field]])
  }
  stop(sprintf("%s fits have no cluster parameters for coef()", method_label(object)),
       call. = FALSE)
}

#' @rdname sideclust-tidiers
#' @export
logLik.sideclust <- function(object, ...) {
  stop(sprintf(paste0("%s has no likelihood, so logLik(), AIC() and BIC() are not defined; ",
                      "compare its fits by their objective (fit$objective)"),
               method_label(object)), call. = FALSE)
}

# The fit's n x k membership probabilities of the clustered points, if any.
fit_probability <- function(object) {
  for (field in c("z", "membership")) {
    m <- object[[field]]
    if (is.matrix(m) && nrow(m) == length(object$cluster)) return(m)
  }
  NULL
}

#' @rdname sideclust-tidiers
#' @export
as.data.frame.sideclust <- function(x, row.names = NULL, optional = FALSE, ...) {
  cluster <- x$cluster
  n <- length(cluster)
  out <- data.frame(point = names(cluster) %||% as.character(seq_len(n)),
                    cluster = unname(cluster), stringsAsFactors = FALSE)
  prob <- fit_probability(x)
  if (!is.null(prob)) {
    probs <- as.data.frame(unname(prob))
    names(probs) <- paste0("prob_", seq_len(ncol(prob)))
    out <- cbind(out, probs, uncertainty = 1 - do.call(pmax, probs))
  }
  out
}

#' @rdname sideclust-tidiers
#' @method tidy sideclust
#' @export
tidy.sideclust <- function(x, ...) {
  k <- max(x$cluster)
  out <- data.frame(cluster = seq_len(k), size = tabulate(x$cluster, k))
  centers <- x$centers
  if (is.matrix(centers) && nrow(centers) == k) {
    centers <- as.data.frame(unname(centers))
    names(centers) <- colnames(x$centers) %||% paste0("x", seq_len(ncol(centers)))
    out <- cbind(out, centers)
  }
  out
}

#' @rdname sideclust-tidiers
#' @method glance sideclust
#' @export
glance.sideclust <- function(x, ...) {
  ll <- tryCatch(stats::logLik(x), error = function(e) NULL)
  objective <- x$objective
  data.frame(
    method = method_label(x), n = length(x$cluster), k = max(x$cluster),
    iterations = if (length(x$iterations) == 1L) x$iterations else NA_integer_,
    converged = isTRUE(x$converged),
    objective = if (is.numeric(objective) && length(objective)) utils::tail(objective, 1L) else NA_real_,
    logLik = if (is.null(ll)) NA_real_ else as.numeric(ll),
    AIC = if (is.null(ll)) NA_real_ else stats::AIC(ll),
    BIC = if (is.null(ll)) NA_real_ else stats::BIC(ll),
    stringsAsFactors = FALSE
  )
}

#' @rdname sideclust-tidiers
#' @method augment sideclust
#' @export
augment.sideclust <- function(x, data = x$data, ...) {
  if (is.null(data)) stop_arg("data", "is missing and the fit keeps no copy of its data")
  if (is_sparse_input(data)) {
    stop_arg("data", "is a sparse matrix, which a data frame would store densely; pass the columns to keep, e.g. augment(fit, data = as.matrix(x[, 1:5])) or augment(fit, data = data.frame(row = seq_len(nrow(x))))")
  }
  if (!is.data.frame(data) && (!is.null(dim(data)) && length(dim(data)) != 2L || is.list(data))) {
    stop_arg("data", "must be a matrix or data frame with one row per clustered point")
  }
  if (NROW(data) != length(x$cluster)) {
    stop_arg("data", sprintf("has %d rows but the fit clustered %d points", NROW(data),
                             length(x$cluster)))
  }
  out <- as.data.frame(data)
  out$.cluster <- factor(unname(x$cluster), levels = seq_len(max(x$cluster)))
  prob <- fit_probability(x)
  if (!is.null(prob)) out$.uncertainty <- 1 - prob[cbind(seq_len(nrow(prob)), max.col(prob))]
  out
}
