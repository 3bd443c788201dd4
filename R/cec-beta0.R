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
#' @param type Gaussian family of the clusters, any of the seven of [cec()]
#'   (or CEC's short names); one family for all clusters.
#' @param param What the family fixes, as in [cec()] (one parameter, shared
#'   by all clusters); `NULL` for `"full"`, `"diagonal"` and `"spherical"`.
#' @details For a family other than `"full"` the half log-determinants
#'   above become the family's cross-entropies \eqn{H_i} and \eqn{H} of the
#'   clusters and of their union (see Cluster families in [cec()]):
#'   \eqn{\beta_0 = 1 + \sum_i \frac{p_i}{q} (H_i - H) / H(p_{k'}/q, \dots,
#'   p_k/q)}{beta0 = 1 + sum_i (p_i / q) (H_i - H) / H(p_k'/q, ..., p_k/q)}, the
#'   same balance of cost (10) between the split and the merged cluster.
#'   Each \eqn{H_i} is computed by the same code as the cost of [cec()].
#' @return A number, or a named vector with one \eqn{\beta_0} per merged group
#'   when `coarse` merges several groups.
#' @examples
#' set.seed(1)
#' x <- rnorm(1e5)
#' cec_ib_beta0(x, x >= 0)   # about 0.269
#' # fixed spherical covariance of variance 1: the split pays less
#' cec_ib_beta0(x, x >= 0, type = "fixed_spherical", param = 1)
#' @export
cec_ib_beta0 <- function(x, cluster, coarse = NULL, type = "full", param = NULL) {
  x <- check_points(x, "x")
  if (length(type) != 1L) stop_arg("type", "must be one family, shared by all clusters")
  fam <- check_cec_families(type, param, 1L, ncol(x))
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
  # the family's cross-entropy of the points `rows`: the cost of cec() with
  # one cluster holding them all
  h_of <- function(rows) {
    xs <- x[rows, , drop = FALSE]
    if (nrow(xs) < ncol(xs) + 2L) {
      stop_arg("cluster", sprintf("has a cluster of %d points; every cluster needs at least p + 2 = %d",
                                  nrow(xs), ncol(xs) + 2L))
    }
    opts <- c(list(k = 1L, beta = 0, eps = 0, max_iter = 1L, restarts = 1L, init = "kmeans++",
                   start = rep(1L, nrow(xs)), prior = matrix(0, ncol(xs), ncol(xs)),
                   small_sample = FALSE, split = FALSE, max_k = 0L, split_tries = 1L,
                   verbose = FALSE),
              cec_family_options(fam, 1L, ncol(xs)))
    h <- tryCatch(.cec_cpp(t(xs), NULL, opts)$cost, error = function(e) Inf)
    if (!is.finite(h)) {
      stop_arg("cluster", "has a cluster with a singular covariance; every cluster needs a positive definite covariance")
    }
    h
  }
  levels_g <- sort(unique(group))
  out <- numeric(0)
  for (g in levels_g) {
    in_g <- group == g
    members <- sort(unique(fine[in_g]))
    if (length(members) < 2L) next
    w <- tabulate(match(fine[in_g], members), length(members)) / sum(in_g)
    h_merged <- h_of(which(in_g))
    h_parts <- vapply(members, function(cl) h_of(which(fine == cl)), 0)
    num <- sum(w * (h_parts - h_merged))
    out[as.character(g)] <- 1 + num / (-sum(w * log(w)))
  }
  if (length(out) == 0L) stop_arg("coarse", "merges no clusters; nothing to compare")
  if (length(out) == 1L) unname(out) else out
}
