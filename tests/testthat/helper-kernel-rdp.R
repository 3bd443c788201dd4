# Brute-force references for kernel RDP-means, written plainly in R.

rbf_matrix <- function(x, sigma) exp(-as.matrix(dist(x))^2 / (2 * sigma^2))

# Objective of kernel RDP-means for partition z of a kernel matrix K: data
# term sum_c (sum_i K_ii - S_c / n_c), pairs counted once.
brute_kernel_objective <- function(K, z, lambda, xi = c(0, 0), pairs = NULL) {
  xi <- unname(xi)
  obj <- lambda * length(unique(z))
  for (c in unique(z)) {
    m <- which(z == c)
    obj <- obj + sum(diag(K)[m]) - sum(K[m, m]) / length(m)
  }
  if (!is.null(pairs)) {
    same <- z[pairs$i] == z[pairs$j]
    obj <- obj - xi[1] * sum(pairs$confidence[pairs$must & same]) +
      xi[2] * sum(pairs$confidence[!pairs$must & same])
  }
  obj
}

# Every partition of 1..n as restricted growth strings.
all_partitions <- function(n) {
  out <- list(1L)
  for (i in seq_len(n - 1L)) {
    out <- unlist(lapply(out, function(z) {
      lapply(seq_len(max(z) + 1L), function(c) c(z, c))
    }), recursive = FALSE)
  }
  out
}

# The best objective reachable by moving one point of z (to another cluster
# or to a new one), by brute force.
best_single_move <- function(K, z, lambda, xi, pairs) {
  best <- Inf
  for (i in seq_along(z)) for (c in setdiff(c(unique(z), max(z) + 1L), z[i])) {
    w <- z
    w[i] <- c
    best <- min(best, brute_kernel_objective(K, w, lambda, xi, pairs))
  }
  best
}
