# Brute-force references for DP-means / RDP-means, written plainly in R.

bregman <- function(x, mu, divergence) {
  switch(divergence,
    sqeuclidean = sum((x - mu)^2),
    kl = sum(ifelse(x > 0, x * log(x / mu), 0)),
    idiv = sum(ifelse(x > 0, x * log(x / mu), 0) - x + mu)
  )
}

# The data as the core sees it (smoothed and normalized for kl / idiv).
core_space <- function(x, divergence, smoothing = NULL) {
  if (divergence == "sqeuclidean") return(as.matrix(x))
  if (is.null(smoothing)) smoothing <- 0.3
  x <- as.matrix(x) + smoothing
  if (divergence == "kl") x <- x / rowSums(x)
  x
}

# Augmented distance of every point to every cluster of a fit at its final xi:
# an n x k matrix, with pair weights from the side information's confidences.
augmented_distances <- function(fit, x, pairs) {
  xs <- core_space(x, fit$divergence, fit$smoothing)
  n <- nrow(xs)
  d <- matrix(0, n, fit$k)
  for (i in seq_len(n)) for (k in seq_len(fit$k)) {
    d[i, k] <- bregman(xs[i, ], fit$centers[k, ], fit$divergence)
  }
  if (!is.null(pairs)) {
    for (e in seq_along(pairs$i)) {
      a <- pairs$i[e]; b <- pairs$j[e]; w <- pairs$confidence[e]
      xi <- if (pairs$must[e]) -fit$xi[["must"]] else fit$xi[["cannot"]]
      d[a, fit$cluster[b]] <- d[a, fit$cluster[b]] + xi * w
      d[b, fit$cluster[a]] <- d[b, fit$cluster[a]] + xi * w
    }
  }
  d
}

# Objective (20) with each pair counted once, recomputed from the partition.
rdp_objective <- function(fit, x, pairs) {
  xs <- core_space(x, fit$divergence, fit$smoothing)
  obj <- fit$lambda * fit$k
  for (i in seq_len(nrow(xs))) {
    obj <- obj + bregman(xs[i, ], fit$centers[fit$cluster[i], ], fit$divergence)
  }
  if (!is.null(pairs)) {
    same <- fit$cluster[pairs$i] == fit$cluster[pairs$j]
    obj <- obj - fit$xi[["must"]] * sum(pairs$confidence[pairs$must & same]) +
      fit$xi[["cannot"]] * sum(pairs$confidence[!pairs$must & same])
  }
  obj
}

three_blobs <- function(n_each = 20, sep = 3, seed = 1) {
  set.seed(seed)
  centres <- rbind(c(0, 0), c(sep, 0), c(0, sep))
  y <- rep(1:3, each = n_each)
  list(x = centres[y, ] + matrix(rnorm(2 * length(y)), ncol = 2), y = y)
}

# Counts of n points in 3 groups over 5 columns (group g raises column g)
# and noisy pairs among them, from seed 7.
rdp_count_data <- function(n) {
  set.seed(7)
  y <- rep(1:3, length.out = n)
  counts <- matrix(rpois(n * 5, lambda = 2 + 3 * (col(matrix(0, n, 5)) == y)), n)
  list(y = y, counts = counts, pairs = sample_constraints(y, rate = 0.05, noise = 0.15))
}
