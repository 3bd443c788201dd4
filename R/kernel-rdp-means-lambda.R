# The scale of lambda in kernel_rdp_means(): the most that splitting one
# cluster into several can gain on a kernel, and the warning of a fit that
# a too large lambda forced into one cluster.
#
# With K's eigenvalues mu_1 >= mu_2 >= ..., a partition into k clusters has
# data term sum_i K_ii - sum_c S_c / n_c >= sum_i K_ii - (mu_1 + ... + mu_k)
# (Ky Fan), and one cluster has sum_i K_ii - S / n. So k clusters gain at
# most (mu_1 - S / n) + (k - 1) mu_2 over one, which never pays k - 1 new
# clusters at lambda >= mu_2 + mu_1 - S / n: then the kernel alone makes one
# cluster the best partition, whatever the data.

# That bound (mu_1 + mu_2 - S / n) for a prepared kernel, with the mean
# weighted degree (row sum of K) it is compared with; NULL when no cheap
# bound exists (a dense user kernel with negative entries).
kernel_split_gain_bound <- function(kern) {
  s <- kern$spec
  n <- kern$n
  if (s$type == "linear") {
    # K = Z'Z for the m x n features (or the p x n centred points): the
    # eigenvalues are those of the m x m matrix ZZ'
    mu <- eigen(tcrossprod(s$x), symmetric = TRUE, only.values = TRUE)$values
    total <- sum(rowSums(s$x)^2)
    return(list(bound = mu[1L] + max(mu[2L], 0, na.rm = TRUE) - total / n,
                mean_degree = total / n))
  }
  # otherwise Gershgorin: for a kernel without negative entries mu_2 <= mu_1
  # <= the largest row sum
  degree <- switch(s$type,
    rbf = kernel_product(kern, matrix(1, n, 1L))[, 1L],
    sparse = if (all(s$x >= 0)) Matrix::rowSums(sparse_kernel_matrix(kern)),
    dense = if (all(s$matrix >= 0)) rowSums(s$matrix))
  if (is.null(degree)) return(NULL)
  list(bound = 2 * max(degree) - mean(degree), mean_degree = mean(degree))
}

# Warns when a fit at the user's lambda has one cluster and lambda is at or
# above what any split of the kernel can gain: the side information alone
# decided, and lambda was on the wrong scale for the kernel.
warn_lambda_forces_one <- function(kern, lambda, approximation) {
  gain <- kernel_split_gain_bound(kern)
  if (is.null(gain) || lambda < gain$bound) return(invisible(NULL))
  scale <- if (identical(approximation, "knn")) {
    sprintf(paste0("with approximation = \"knn\" a new cluster gains about a point's weighted ",
                   "degree in the neighbour graph (mean %.3g here), whatever the number of ",
                   "points: take lambda near it (from about half to twice it; see Choosing ",
                   "lambda in ?kernel_rdp_means), or give `k`"),
            gain$mean_degree)
  } else if (kern$spec$type %in% c("rbf", "linear") || approximation %in% c("nystrom", "rff")) {
    sprintf(paste0("a new cluster gains about the kernel mass across its cut, which grows with ",
                   "the number of points (the mean kernel row sum is %.3g here; see `lambda` ",
                   "in ?kernel_rdp_means): take lambda well below %.3g, or give `k`"),
            gain$mean_degree, gain$bound)
  } else {
    sprintf("take lambda below %.3g, or give `k`", gain$bound)
  }
  warning(sprintf(paste0("kernel_rdp_means(): lambda = %g is at or above %.3g, the most that ",
                         "splitting can gain on this kernel, so the fit is one cluster whatever ",
                         "the data; %s"), lambda, gain$bound, scale), call. = FALSE)
}
