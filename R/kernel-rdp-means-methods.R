# S3 methods of kernel_rdp_means() fits.

method_label.kernel_rdp_means <- function(object) "Kernel RDP-means"

#' Assign new points to the clusters of a kernel RDP-means fit
#'
#' Each new point \eqn{y} goes to the cluster whose mean in feature space is
#' nearest; the cost is the squared distance
#' \eqn{K(y, y) - 2 \sum_{j \in c} K(y, x_j) / n_c + S_c / n_c^2}{K(y, y) - 2
#' sum_(j in c) K(y, x_j) / n_c + S_c / n_c^2}. New points carry no side
#' information.
#'
#' This needs the kernel between the new points and every training point:
#' for `"rbf"` the fit computes it from the data it keeps, in O(m n p) time
#' and O(m k) memory for m new points; for `"linear"` it needs only the
#' cluster sums, O(m k p); for `"precomputed"`, pass that m x n cross-kernel
#' matrix as `newdata` (dense or sparse; O(m n) or O(nonzeros)), and
#' \eqn{K(y, y)} as `self` (without it the costs leave that term out, which
#' does not change the clusters).
#'
#' @param object A fit from [kernel_rdp_means()].
#' @param newdata New points with the fitted columns (`"rbf"`, `"linear"`),
#'   or the m x n kernel between new and training points (`"precomputed"`);
#'   by default the fitted data.
#'   Matched by name to the fitted columns (`"precomputed"`: the training
#'   points), see [predict-newdata].
#' @param self For `"precomputed"`: \eqn{K(y, y)} of every new point.
#' @param ... Unused.
#' @return A list with `cluster` and `cost`, the m x k matrix of squared
#'   feature-space distances to the cluster means.
#' @examples
#' set.seed(1)
#' d <- simulate_patterns(150, "moons")
#' fit <- kernel_rdp_means(d$x[-(1:10), ], NULL, lambda = 1, sigma = 0.3)
#' predict(fit, d$x[1:10, ])$cluster
#' @export
predict.kernel_rdp_means <- function(object, newdata, self = NULL, ...) {
  training <- training_data(object)
  if (missing(newdata)) {
    newdata <- training
    if (object$kernel == "precomputed" && is.null(self)) self <- Matrix::diag(training)
  } else {
    # columns by name: the fitted columns, or for "precomputed" the training points
    newdata <- match_newdata_columns(newdata, object)
  }
  k <- object$k
  n <- length(object$cluster)
  if (object$kernel == "precomputed") {
    if (!(is.matrix(newdata) || inherits(newdata, "Matrix")) || ncol(newdata) != n) {
      stop_arg("newdata", sprintf("must be the kernel between the new points and the %d training points (%d columns)",
                                  n, n))
    }
    indicator <- Matrix::sparseMatrix(i = seq_len(n), j = object$cluster, x = 1, dims = c(n, k))
    sums <- as.matrix(newdata %*% indicator)
    if (!all(is.finite(sums))) stop_arg("newdata", "has values that are not finite")
    yy <- if (is.null(self)) 0 else {
      if (!is.numeric(self) || length(self) != nrow(newdata) || !all(is.finite(self))) {
        stop_arg("self", sprintf("must be %d finite numbers, K(y, y) of every new point", nrow(newdata)))
      }
      as.double(self)
    }
    rows <- rownames(newdata)
  } else {
    y <- check_data_matrix(newdata, "newdata")
    if (ncol(y) != ncol(training)) {
      stop_arg("newdata", sprintf("has %d columns but the fit has %d", ncol(y), ncol(training)))
    }
    # the kernels were computed on the centred training points
    y <- centre_kernel_points(y, training)
    training <- centre_kernel_points(training, training)
    if (!is.null(object$feature_map)) {  # an approximated kernel: sums in its terms
      approx <- approximate_cluster_sums(object, y, training)
      sums <- approx$sums
      yy <- approx$self
    } else if (object$kernel == "rbf") {
      sums <- .rbf_cluster_sums_cpp(t(training), object$sigma, object$cluster, k, t(y))
      yy <- 1
    } else {
      sums <- y %*% t(rowsum(training, object$cluster, reorder = TRUE))
      yy <- rowSums(y^2)
    }
    rows <- rownames(y)
  }
  size <- object$size
  cost <- yy - 2 * sweep(sums, 2L, size, "/")
  cost <- sweep(cost, 2L, object$within / size^2, "+")
  cost <- unname(as.matrix(cost))
  if (object$kernel == "linear") {
    # |y - mean_c|^2 + S_c / n_c^2 - |mean_c|^2: rows far out compared scaled down
    return(nearest_centre_prediction(cost, y, object$centers, rows = rows,
                                     offsets = object$within / size^2 - rowSums(object$centers^2)))
  }
  cluster_prediction(cost = cost, rows = rows)
}

# The means live in feature space: coef() gives the centres for the linear
# kernel, else what the fit knows of each mean (size, S_c and |m_c|^2).
#' @export
coef.kernel_rdp_means <- function(object, ...) {
  if (!is.null(object$centers)) return(object$centers)
  cbind(size = object$size, within = object$within,
        mean_norm2 = object$within / object$size^2)
}

#' @export
summary.kernel_rdp_means <- function(object, ...) {
  out <- NextMethod()
  out$kernel <- sprintf("%s%s", object$kernel,
                        if (identical(object$kernel, "rbf")) sprintf(" (sigma = %s)", format(object$sigma, digits = 4)) else "")
  out$start <- sprintf("%s (%d clusters)", object$init, object$spectral_k)
  class(out) <- c("summary.kernel_rdp_means", class(out))
  out
}

#' @export
print.summary.kernel_rdp_means <- function(x, ...) {
  cat("Kernel:", x$kernel, "\nStart:", x$start, "\n")
  NextMethod()
}
