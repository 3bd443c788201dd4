# Extreme values, non-finite results and long sweeps: each case here crashed
# R, returned a silently wrong fit or an unclear error before the guards.

robust_x <- function() scale(iris[c(1:20, 51:70, 101:120), 1:4])
robust_side <- function() {
  set.seed(1)
  sample_constraints(rep(1:3, each = 20), rate = 0.05)
}

test_that("data too large for squared distances stop with a remedy, not a segfault", {
  x <- robust_x()
  side <- robust_side()
  remedy <- "`x` has values up to .*divide it by a constant or scale\\(\\) it"
  expect_error(dp_means(x * 1e300, k = 3), remedy)
  expect_error(rdp_means(x * 1e160, side, k = 2), remedy)
  expect_error(cvqe(x * 1e300, side, 3), remedy)
  expect_error(disparate_kmeans(x * 1e300, k = 2), remedy)
  expect_error(ib_kmeans(x * 1e300, k = 3, beta = 2), remedy)
  expect_error(cec(x * 1e300, k = 3), remedy)
  expect_error(constrained_mixture(x * 1e300, side, 3), remedy)
  expect_error(tvclust(x * 1e300, side, iter = 10), remedy)
  expect_error(discriminative_clustering(x * 1e300, sample_labels(rep(1:3, each = 20), 0.5), 3),
               remedy)
  expect_error(kpartite_clustering(list(a = x * 1e300), k = 2), "values up to")
  expect_error(multiway_clustering(x * 1e300, k = c(2, 2)), "values up to")
  # well inside the limit, the same data cluster as usual (a power of two
  # scales exactly, so near-ties at lambda cannot round the other way)
  set.seed(2)
  big <- dp_means(x * 2^300, k = 3)
  set.seed(2)
  expect_identical(unname(big$cluster), unname(dp_means(x, k = 3)$cluster))
})

test_that("data that vary too little for squared distances stop with a remedy", {
  x <- robust_x()
  remedy <- "`x` varies by at most .*scale\\(\\) it"
  expect_error(dp_means(x * 1e-300, k = 3), remedy)
  expect_error(cvqe(x * 1e-300, NULL, 3), remedy)
  expect_error(disparate_kmeans(x * 1e-300, k = 2), remedy)
  expect_error(kpartite_clustering(list(a = x * 1e-300), k = 2), "varies by at most")
  # tiny but representable spreads, and large offsets, are no problem
  set.seed(2)
  tiny <- dp_means(x * 2^-300, k = 3)
  set.seed(2)
  expect_identical(unname(tiny$cluster), unname(dp_means(x, k = 3)$cluster))
  expect_no_error(dp_means(x + 1e6, k = 3))
})

test_that("counts whose total overflows stop with a remedy for every IB method", {
  set.seed(3)
  counts <- matrix(stats::rpois(60, 4) + 1, 12) * 1e307
  remedy <- "`x` has entries up to .*total overflows.*divide them"
  expect_error(ib(counts, k = 2, beta = 5), remedy)
  expect_error(aib(counts), remedy)
  expect_error(sib(counts, k = 2), remedy)
  expect_error(itcc(counts, k_rows = 2, k_cols = 2), remedy)
  expect_error(parallel_ib(counts, k = c(2, 2)), remedy)
  expect_error(symmetric_ib(counts, k_rows = 2, k_cols = 2), remedy)
  # proportions are all that matter: scaled counts give the same clustering
  set.seed(4)
  a <- sib(counts / 1e307, k = 2)
  set.seed(4)
  b <- sib(counts / 1e300, k = 2)
  expect_identical(a$cluster, b$cluster)
})

test_that("a fit with NA clusters or a non-finite objective is an error, never returned", {
  fit <- list(cluster = c(1L, NA, 2L), objective = c(3, 2))
  expect_error(check_fit_finite(fit, "dp_means"), "dp_means\\(\\) ended with clusters with NA")
  fit <- list(cluster = 1:3, cost = c(1, Inf))
  expect_error(check_fit_finite(fit, "cec"), "non-finite cost \\(Inf\\).*scale\\(\\) `x`")
  fit <- list(cluster = 1:3, loglik = c(-5, NaN))
  expect_error(check_fit_finite(fit, "constrained_mixture"), "non-finite loglik")
  expect_silent(check_fit_finite(list(cluster = 1:3, objective = 1), "x"))
})

test_that("a choice argument's error names the argument", {
  y <- rep(1:3, 10)
  expect_error(sample_constraints(y, "foo"), "`protocol` must be one of \"tvclust\", \"nelson_cohen\", not \"foo\"")
  expect_error(dp_means(robust_x(), k = 3, divergence = "cosine"), "`divergence` must be one of")
  expect_error(tvclust(robust_x(), family = "poisson"), "`family` must be one of")
  expect_error(as_constraints(matrix(0, 3, 3), coding = "x"), "`coding` must be one of")
  # unique partial matches still work, as with match.arg()
  set.seed(5)
  expect_identical(dp_means(robust_x(), k = 3, order = "fix")$k,
                   dp_means(robust_x(), k = 3, order = "fixed")$k)
})

test_that("RDP-means polls for interrupts inside long sweeps, not only between them", {
  # thousands of clusters: one sweep does far more than the poll interval of
  # work, so the core reaches check_interrupt() many times per sweep
  set.seed(6)
  x <- matrix(stats::rnorm(40000), ncol = 2)
  opts <- list(lambda = 1e-4, xi = c(0, 0), xi_rate = 1, xi_max = c(0, 0), patience = 1L,
               max_iter = 2L, random_order = FALSE, chunklet_moves = FALSE,
               divergence = "sqeuclidean", verbose = FALSE)
  run <- .rdp_means_cpp(t(x), NULL, opts)
  expect_gt(run$interrupt_polls, run$iterations)
  # small problems pay nothing
  small <- .rdp_means_cpp(t(x[1:50, ]), NULL, opts)
  expect_equal(small$interrupt_polls, 0)
})

test_that("arguments read only on some paths are still checked on every call", {
  x <- scale(iris[1:30, 1:4])
  # summary_draws matters only when the draws are thinned; a bad value must
  # not pass silently when they are all kept
  expect_error(tvclust(x, iter = 20, chains = 1, threads = 1, summary_draws = -1),
               "summary_draws")
  expect_error(tvclust(x, iter = 20, chains = 1, threads = 1, summary_draws = NA),
               "summary_draws")
})
