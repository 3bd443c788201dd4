#' Critical label weight beta0 of CEC-IB (Theorem 4.2)
#'
#' For a partition \eqn{Y_1, \dots, Y_k} of the data (typically the split the
#' labels suggest) and a coarsening that merges some of its clusters into one,
#' equation (14) of Smieja & Geiger (2017) gives
#' \deqn{\beta_0 = 1 + \frac{\sum_i \frac{p_i}{2q} \log\frac{\det\Sigma_i}{\det
#'   \Sigma}}{H(p_{k'}/q, \dots, p_k/q)},}{beta0 = 1 + sum_i (p_i / (2 q))
#'   log(det Sigma_i / det Sigma) / H(p_k'/q, ..., p_k/q),}
#' the sum running over the merged clusters, with \eqn{p_i = |Y_i| / n},
#' \eqn{q = \sum_i p_i}{q = sum p_i}, \eqn{\Sigma_i} and \eqn{\Sigma} the
#' maximum-likelihood covariances of the clusters and of their union, and
#' \eqn{H} the entropy (natural logarithms). For [cec_ib()] with
#' \eqn{\beta \ge \beta_0} the split has no higher cost than the merged
#' cluster (when the split is a proportional coarsening of the labels), so
#' labels that ask for the split are followed.
#'
#' Use it to choose `beta`: for trusted labels `beta = 1` (\eqn{\beta_0 \le
#' 1} always, since the covariance of the union dominates the weighted
#' covariances of its parts and \eqn{\log\det} is concave); for noisy
#' labels a value slightly above the \eqn{\beta_0} of the clean split, so
#' that the labels can split a cluster the data also support, while wrong labels
#' at cluster boundaries (which raise the covariances of the split, hence its
#' \eqn{\beta_0}) cannot. For one Gaussian split at its mean
#' \eqn{\beta_0 \approx 0.269} (the paper's Example 4.1 and its default).
#'
#' @param x Data: a numeric matrix or data.frame, one row per point.
#' @param cluster The fine partition: a vector or factor with one cluster per
#'   point (no `NA`), for instance complete labels.
#' @param coarse A coarsening of `cluster`: one group per point, constant on
#'   every cluster. Each group that merges two or more clusters gives one
#'   \eqn{\beta_0}. `NULL` (the default) merges all clusters into one.
#' @param type Cluster model used for the determinants, as in [cec()].
#' @return A number, or a named vector with one \eqn{\beta_0} per merged group
#'   when `coarse` merges several groups.
#' @examples
#' set.seed(1)
#' x <- rnorm(1e5)
#' cec_ib_beta0(x, x >= 0)   # about 0.269
#' @export
cec_ib_beta0 <- function(x, cluster, coarse = NULL,
                         type = c("full", "diagonal", "spherical")) {
  type <- match_choice(type, cec_types, "type")
  x <- check_data_scale(check_data_matrix(x, "x"), "x")
  n <- nrow(x)
  fine <- check_partition(cluster, n, "cluster")
  if (is.null(coarse)) coarse <- rep(1L, n)
  group <- check_partition(coarse, n, "coarse")
  per_cluster <- tapply(group, fine, function(g) length(unique(g)))
  if (any(per_cluster > 1L)) {
    bad <- names(per_cluster)[per_cluster > 1L]
    stop_arg("coarse", sprintf("is not a coarsening of `cluster`: cluster%s %s fall%s in several groups",
                               if (length(bad) == 1L) "" else "s",
                               paste(utils::head(bad, 5L), collapse = ", "),
                               if (length(bad) == 1L) "s" else ""))
  }
  logdet <- function(rows) {
    xs <- x[rows, , drop = FALSE]
    s <- crossprod(sweep(xs, 2L, colMeans(xs))) / nrow(xs)
    ld <- switch(type,
      full = as.numeric(determinant(s, logarithm = TRUE)$modulus),
      diagonal = sum(log(diag(s))),
      spherical = ncol(s) * log(sum(diag(s)) / ncol(s))
    )
    if (!is.finite(ld) || nrow(xs) < 2L) {
      stop_arg("cluster", "has a cluster with a singular covariance; every cluster needs a positive definite covariance")
    }
    ld
  }
  levels_g <- sort(unique(group))
  out <- numeric(0)
  for (g in levels_g) {
    in_g <- group == g
    members <- sort(unique(fine[in_g]))
    if (length(members) < 2L) next
    w <- tabulate(match(fine[in_g], members), length(members)) / sum(in_g)
    ld_merged <- logdet(which(in_g))
    ld_parts <- vapply(members, function(cl) logdet(which(fine == cl)), 0)
    num <- sum(w / 2 * (ld_parts - ld_merged))
    out[as.character(g)] <- 1 + num / (-sum(w * log(w)))
  }
  if (length(out) == 0L) stop_arg("coarse", "merges no clusters; nothing to compare")
  if (length(out) == 1L) unname(out) else out
}
