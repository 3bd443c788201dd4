# The Normal-inverse-Wishart cluster family used by the collapsed samplers,
# against its closed forms computed directly in R.

test_that("NIW predictive and marginal match the closed forms after adds and removes", {
  set.seed(1)
  for (p in c(1, 2, 4)) {
    x <- matrix(rnorm(30 * p, mean = 2), 30, p)
    m0 <- rep(0.5, p); kappa0 <- 0.7; nu0 <- p + 1.5
    S0 <- diag(p) + 0.3
    gone <- c(3, 11, 17, 29)
    kept <- x[-gone, , drop = FALSE]
    query <- matrix(rnorm(5 * p), 5, p)
    out <- sideclust:::.niw_check_cpp(t(x), t(x[gone, , drop = FALSE]), t(query),
                                      m0, kappa0, nu0, S0)
    post <- niw_posterior(kept, m0, kappa0, nu0, S0)
    df <- post$nu - p + 1
    scale <- post$S * (post$kappa + 1) / (post$kappa * df)
    expected <- apply(query, 1, log_mvt, df = df, loc = post$m, scale = scale)
    expect_equal(out$n, nrow(kept))
    expect_equal(drop(out$mean), post$m, tolerance = 1e-10)
    expect_equal(drop(out$log_predictive), expected, tolerance = 1e-9)
    expect_equal(out$log_marginal, niw_log_marginal(post, m0, kappa0, nu0, S0),
                 tolerance = 1e-9)
  }
})

test_that("the NIW marginal likelihood is the product of sequential predictives", {
  set.seed(2)
  x <- matrix(rnorm(12 * 3), 12, 3)
  m0 <- c(0, 1, -1); S0 <- diag(3) * 2
  chain <- 0
  for (i in seq_len(nrow(x))) {
    prev <- x[seq_len(i - 1), , drop = FALSE]
    chain <- chain + sideclust:::.niw_check_cpp(t(prev), matrix(0, 3, 0), t(x[i, , drop = FALSE]),
                                                m0, 1, 5, S0)$log_predictive
  }
  total <- sideclust:::.niw_check_cpp(t(x), matrix(0, 3, 0), matrix(0, 3, 0), m0, 1, 5, S0)
  expect_equal(total$log_marginal, drop(chain), tolerance = 1e-9)
  empty <- sideclust:::.niw_check_cpp(matrix(0, 3, 0), matrix(0, 3, 0), matrix(0, 3, 0),
                                      m0, 1, 5, S0)
  expect_equal(empty$log_marginal, 0)
})

test_that("removing a point that was never added is an error, not a crash", {
  x <- matrix(c(0, 0, 1, 1), 2)
  expect_error(sideclust:::.niw_check_cpp(x[, 1, drop = FALSE], matrix(c(50, -50), 2),
                                          matrix(0, 2, 0), c(0, 0), 1, 3, diag(2) * 1e-6),
               "positive definite")
})

test_that("Normal-Gamma predictive and marginal match per-coordinate closed forms", {
  set.seed(3)
  x <- matrix(rnorm(25 * 3, mean = 1, sd = 2), 25, 3)
  m0 <- c(0, 1, 2); kappa0 <- 0.5; a0 <- 2; b0 <- c(1, 2, 0.5)
  gone <- c(2, 9)
  kept <- x[-gone, ]
  query <- matrix(rnorm(4 * 3), 4, 3)
  out <- sideclust:::.normal_gamma_check_cpp(t(x), t(x[gone, ]), t(query), m0, kappa0, a0, b0)
  n <- nrow(kept); kappa <- kappa0 + n; a <- a0 + n / 2
  xbar <- colMeans(kept)
  b <- b0 + colSums(sweep(kept, 2, xbar)^2) / 2 + kappa0 * n * (xbar - m0)^2 / (2 * kappa)
  m <- (kappa0 * m0 + n * xbar) / kappa
  scale <- sqrt(b * (kappa + 1) / (a * kappa))
  expected <- apply(query, 1, function(q) sum(dt((q - m) / scale, df = 2 * a, log = TRUE) - log(scale)))
  expect_equal(drop(out$log_predictive), expected, tolerance = 1e-9)
  marginal <- sum(lgamma(a) - lgamma(a0) + a0 * log(b0) - a * log(b) +
                    0.5 * (log(kappa0) - log(kappa)) - n / 2 * log(2 * pi))
  expect_equal(out$log_marginal, marginal, tolerance = 1e-9)
})

test_that("Dirichlet-multinomial predictive and marginal match the closed forms", {
  set.seed(4)
  x <- matrix(rpois(20 * 4, lambda = c(1, 3, 5, 2)), 20, 4, byrow = TRUE)
  alpha <- c(0.5, 1, 2, 0.3)
  gone <- c(4, 5, 13)
  kept <- x[-gone, ]
  query <- matrix(rpois(3 * 4, 2), 3, 4)
  out <- sideclust:::.dirichlet_multinomial_check_cpp(t(x), t(x[gone, ]), t(query), alpha)
  lbeta_vec <- function(a) sum(lgamma(a)) - lgamma(sum(a))
  log_dm <- function(q, a) lgamma(sum(q) + 1) - sum(lgamma(q + 1)) + lbeta_vec(a + q) - lbeta_vec(a)
  post <- alpha + colSums(kept)
  expect_equal(drop(out$log_predictive), apply(query, 1, log_dm, a = post), tolerance = 1e-9)
  coef <- sum(lgamma(rowSums(kept) + 1)) - sum(lgamma(kept + 1))
  expect_equal(out$log_marginal, coef + lbeta_vec(post) - lbeta_vec(alpha), tolerance = 1e-9)
})
