# Closed forms of the Normal-inverse-Wishart family, written plainly in R.

niw_posterior <- function(x, m0, kappa0, nu0, S0) {
  n <- nrow(x)
  xbar <- colMeans(x)
  scatter <- crossprod(sweep(x, 2, xbar))
  kappa <- kappa0 + n
  list(n = n, kappa = kappa, nu = nu0 + n, m = (kappa0 * m0 + n * xbar) / kappa,
       S = S0 + scatter + kappa0 * n / kappa * tcrossprod(xbar - m0))
}

log_mvt <- function(x, df, loc, scale) {
  p <- length(loc)
  d <- x - loc
  maha <- drop(t(d) %*% solve(scale, d))
  lgamma((df + p) / 2) - lgamma(df / 2) - p / 2 * log(df * pi) -
    0.5 * as.numeric(determinant(scale)$modulus) - (df + p) / 2 * log1p(maha / df)
}

log_multigamma <- function(a, p) p * (p - 1) / 4 * log(pi) + sum(lgamma(a - (seq_len(p) - 1) / 2))

niw_log_marginal <- function(post, m0, kappa0, nu0, S0) {
  p <- length(m0)
  ldet <- function(m) as.numeric(determinant(m)$modulus)
  -post$n * p / 2 * log(pi) + log_multigamma(post$nu / 2, p) - log_multigamma(nu0 / 2, p) +
    nu0 / 2 * ldet(S0) - post$nu / 2 * ldet(post$S) + p / 2 * (log(kappa0) - log(post$kappa))
}

