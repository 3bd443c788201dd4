# Four Gaussian blobs at (+-A, +-B) plus noise dimensions: the sign of the
# first coordinate (a) and of the second (b) are two independent groupings.
disparate_blobs <- function(n, A = 4, B = 2, noise_dims = 3L, sd = 0.5, seed = 1L) {
  set.seed(seed)
  a <- sample(c(-1L, 1L), n, replace = TRUE)
  b <- sample(c(-1L, 1L), n, replace = TRUE)
  x <- cbind(A * a, B * b, matrix(0, n, noise_dims)) +
    matrix(stats::rnorm(n * (2L + noise_dims), sd = sd), n)
  list(x = x, a = a, b = b)
}

# The fit's data, prototypes and objective terms recomputed in plain R, in the
# centred coordinates the fit optimizes.
disparate_parts <- function(fit, x) {
  x <- as.matrix(x)
  mu <- if (is.null(fit$center)) rep(0, ncol(x)) else fit$center
  xc <- x - rep(mu, each = nrow(x))
  m1 <- fit$centers - rep(mu, each = nrow(fit$centers))
  m2 <- fit$centers2 - rep(mu, each = nrow(fit$centers2))
  within <- c(sum((xc - m1[fit$cluster, , drop = FALSE])^2),
              sum((xc - m2[fit$cluster2, , drop = FALSE])^2))
  penalty <- fit$lambda * sum((m1 %*% t(m2))^2)
  list(xc = xc, m1 = m1, m2 = m2, within = within, penalty = penalty,
       objective = sum(within) + penalty)
}

# Squared distances of every row of xc to every row of m.
sq_dist <- function(xc, m) {
  outer(rowSums(xc^2), rowSums(m^2), "+") - 2 * xc %*% t(m)
}
