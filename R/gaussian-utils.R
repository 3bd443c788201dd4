# Gaussian densities shared by the predict() and logLik() methods of the
# Gaussian models (constrained mixtures, CEC, TVClust).

# log N(x_i; mu, sigma) for every row of x.
gaussian_log_density <- function(x, mu, sigma) {
  sigma <- as.matrix(sigma)
  r <- chol(sigma)
  d <- backsolve(r, t(x) - mu, transpose = TRUE)
  -0.5 * (ncol(x) * log(2 * pi) + 2 * sum(log(diag(r))) + colSums(d^2))
}

# n x k matrix of log w_j + log N(x_i; mu_j, Sigma_j); covariances p x p x k.
gaussian_component_logs <- function(x, weights, centers, covariances) {
  k <- length(weights)
  out <- vapply(seq_len(k), function(j) {
    log(weights[j]) + gaussian_log_density(x, centers[j, ], covariances[, , j])
  }, numeric(nrow(x)))
  matrix(out, nrow(x), k)
}

# Rows of log weights to probabilities, without overflow.
normalize_log_weights <- function(logw) {
  top <- logw[cbind(seq_len(nrow(logw)), max.col(logw, ties.method = "first"))]
  prob <- exp(logw - top)
  prob / rowSums(prob)
}

# sum_i log sum_j exp(logw_ij), without overflow.
sum_log_sum_exp <- function(logw) {
  top <- logw[cbind(seq_len(nrow(logw)), max.col(logw, ties.method = "first"))]
  sum(top + log(rowSums(exp(logw - top))))
}

# Free parameters of one cluster's covariance under a covariance model.
covariance_df <- function(model, p) {
  switch(model, full = p * (p + 1) / 2, diagonal = p, spherical = 1, unit = 0)
}

# An object of class "logLik", as stats::logLik() methods return.
new_loglik <- function(value, df, nobs) {
  structure(value, df = df, nobs = nobs, class = "logLik")
}
