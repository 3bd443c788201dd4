# Arguments renamed for one vocabulary across the package still work under
# their former names, with a warning that names the new one.

test_that("former data-argument names of the IB family give the same fit and a warning", {
  set.seed(1)
  profiles <- rbind(c(8, 1, 1, 1), c(1, 8, 1, 1), c(1, 1, 8, 8))
  counts <- t(sapply(rep(1:3, each = 6), function(g) rpois(4, profiles[g, ]) + 1))
  same_fit <- function(f, ...) {
    set.seed(2)
    new <- f(counts, ...)
    set.seed(2)
    expect_warning(old <- f(pxy = counts, ...), "`pxy` is deprecated; use `x`")
    expect_identical(old$cluster, new$cluster)
  }
  same_fit(sib, k = 3, restarts = 2)
  same_fit(ib, k = 3, beta = 20, restarts = 2)
  same_fit(aib, k = 3)
  same_fit(parallel_ib, k = c(2, 2), restarts = 2)
  same_fit(symmetric_ib, k_rows = 3, k_cols = 2, restarts = 2)
  set.seed(2)
  new <- itcc(counts, 3, 2, restarts = 2)
  set.seed(2)
  expect_warning(old <- itcc(counts = counts, k_rows = 3, k_cols = 2, restarts = 2),
                 "`counts` is deprecated; use `x`")
  expect_identical(old$cluster, new$cluster)
})

test_that("burnin is the former name of burn_in in the constrained mixtures", {
  x <- scale(iris[, 1:4])
  side <- constraints(must = rbind(c(1, 2), c(51, 52)), cannot = rbind(c(1, 51)), n = 150)
  set.seed(3)
  new <- constrained_mixture(x, side, k = 3, inference = "gibbs", burn_in = 2L, max_iter = 5L)
  set.seed(3)
  expect_warning(old <- constrained_mixture(x, side, k = 3, inference = "gibbs", burnin = 2L,
                                            max_iter = 5L),
                 "`burnin` is deprecated; use `burn_in`")
  expect_identical(old$cluster, new$cluster)
  expect_identical(old$settings$burn_in, 2L)
  prob <- matrix(c(0.6, 0.4, 0.5, 0.5, 0.3, 0.7), 3, byrow = TRUE)
  pairs <- constraints(must = rbind(c(1, 2)), n = 3)
  set.seed(4)
  a <- constraint_posterior(prob, pairs, "gibbs", burn_in = 10L)
  set.seed(4)
  expect_warning(b <- constraint_posterior(prob, pairs, "gibbs", burnin = 10L), "`burnin`")
  expect_identical(a, b)
})

test_that("the renamed arguments and fields of one vocabulary still work, with a warning", {
  x <- scale(iris[, 1:4])
  y <- iris$Species
  set.seed(1)
  new <- sample_constraints(y, rate = 0.01, noise = 0.1)
  set.seed(1)
  expect_warning(old <- sample_constraints(y, rate = 0.01, accuracy = 0.9), "`accuracy` is deprecated")
  expect_identical(old, new)
  set.seed(2)
  new <- sample_constraints(y, "nelson_cohen", n_constraints = 20, noise = 0.1)
  set.seed(2)
  expect_warning(old <- sample_constraints(y, "nelson_cohen", n_constraints = 20, error = 0.1),
                 "`error` is deprecated")
  expect_identical(old, new)
  labels <- sample_labels(y, 0.3)
  set.seed(3)
  new <- cec_ib(x, labels, 3, restarts = 1)
  set.seed(3)
  expect_warning(old <- cec_ib(x, labels = labels, k = 3, restarts = 1), "`labels` is deprecated")
  expect_identical(old$cluster, new$cluster)
  set.seed(4)
  new <- discriminative_clustering(x, labels, 3, restarts = 1)
  set.seed(4)
  expect_warning(old <- discriminative_clustering(x, labels = labels, k = 3, restarts = 1),
                 "`labels` is deprecated")
  expect_identical(old$cluster, new$cluster)
  set.seed(5)
  new <- tvclust(x, NULL, 4, iter = 20, chains = 1, threads = 1)
  set.seed(5)
  expect_warning(old <- tvclust(x, NULL, iter = 20, chains = 1, threads = 1, k_init = 4),
                 "`k_init` is deprecated")
  expect_identical(old$cluster, new$cluster)
  fit <- constrained_mixture(x, NULL, 3)
  expect_warning(means <- fit$means, "fit\\$means is deprecated; use fit\\$centers")
  expect_identical(means, fit$centers)
  fit <- cec(x, 3, restarts = 1)
  expect_warning(sizes <- fit$sizes, "fit\\$sizes is deprecated; use fit\\$size")
  expect_identical(sizes, fit$size)
})
