# tvclust()'s default priors: the number of clusters in moderate dimension,
# columns on very different scales, more columns than points, and the
# variational fit's p and q.

f_measure <- function(y, cluster) compare_partitions(y, cluster)[["f_measure"]]

three_blobs <- function(scale_col2) {
  set.seed(1)
  x <- rbind(matrix(rnorm(60, 0, 0.3), 30), matrix(rnorm(60, 3, 0.3), 30),
             cbind(rnorm(30, 0, 0.3), rnorm(30, 3, 0.3)))
  x[, 2] <- x[, 2] * scale_col2
  x
}

test_that("the Normal-inverse-Wishart prior weighs like 4 p points and keeps the cluster spread", {
  x <- scale(iris[, 1:4])
  pr <- tvclust_prior(x, k = 10)
  expect_identical(pr$nu0, 5 * 4 + 1)
  expect_identical(pr$kappa0, 0.001)
  # prior mean of a cluster covariance: the data covariance shrunk for k clusters
  expect_equal(pr$S0 / (pr$nu0 - 4 - 1), unname(cov(x)) / 10^(2 / 4), tolerance = 1e-5)
})

test_that("one column on a huge scale leaves the others' prior alone", {
  x <- three_blobs(1e50)
  for (family in c("gaussian", "diagonal")) {
    pr <- tvclust_prior(x, family)
    small <- if (family == "gaussian") pr$S0[1, 1] else pr$b0[1]
    expect_lt(small, 10)
  }
})

test_that("Gibbs recovers three blobs when one column is scaled by 1e50 or 1e150", {
  y <- rep(1:3, each = 30)
  for (s in c(1e50, 1e150)) {
    x <- three_blobs(s)
    set.seed(2)
    fit <- tvclust(x, iter = 60, chains = 1, threads = 1)
    expect_identical(fit$k, 3L)
    expect_equal(f_measure(y, fit$cluster), 1)
  }
})

test_that("more columns than points: no singletons, and the pairs recover the blobs", {
  set.seed(3)
  x <- matrix(rnorm(30 * 50), 30)
  x[1:15, 1:10] <- x[1:15, 1:10] + 3
  y <- rep(1:2, each = 15)
  side <- sample_constraints(y, rate = 0.1, noise = 0)
  pr <- tvclust_prior(x)
  expect_equal(pr$S0, diag(diag(pr$S0)))  # the covariance of 30 points in 50 columns is singular
  expect_identical(pr$kappa0, 0.01)
  set.seed(2)
  expect_warning(alone <- tvclust(x, iter = 60, chains = 1, threads = 1),
                 "50 columns for 30 points")
  expect_lt(alone$k, 5L)
  set.seed(2)
  expect_warning(fit <- tvclust(x, side, iter = 60, chains = 1, threads = 1), "variational")
  expect_equal(f_measure(y, fit$cluster), 1)
  set.seed(2)
  vb <- tvclust(x, side, method = "variational")
  expect_equal(f_measure(y, vb$cluster), 1)
})

test_that("ionosphere (p = 33): both methods follow the pairs instead of splitting on the dimension", {
  data("ionosphere", package = "sideclust", envir = environment())
  x <- scale(as.matrix(ionosphere[, names(ionosphere) != "class"]))
  x <- x[, colSums(is.finite(x)) == nrow(x)]
  y <- ionosphere$class
  set.seed(1)
  side <- sample_constraints(y, rate = 0.03, noise = 0.1)
  set.seed(5)
  gibbs <- tvclust(x, side, iter = 60, chains = 1, threads = 1)
  expect_lte(gibbs$k, 5L)
  expect_gt(f_measure(y, gibbs$cluster), 0.9)
  expect_gt(gibbs$q, 0.8)  # the cannot-links are read as reliable, not as noise
  set.seed(5)
  vb <- tvclust(x, side, method = "variational")
  expect_lte(vb$k, 5L)
  expect_gt(f_measure(y, vb$cluster), 0.9)
})

# Glass scaled, with the TVClust protocol's 3% pairs, 10% of them wrong.
glass_with_noisy_pairs <- function() {
  data("glass", package = "sideclust", envir = environment())
  y <- glass$class
  set.seed(101)
  list(x = scale(as.matrix(glass[, names(glass) != "class"])), y = y,
       side = sample_constraints(y, protocol = "tvclust", rate = 0.03, noise = 0.1,
                                 pair_count = "authors"))
}

test_that("the variational fit keeps p and q fixed by default and follows the pairs on glass", {
  g <- glass_with_noisy_pairs()
  x <- g$x
  y <- g$y
  side <- g$side
  set.seed(5)
  vb <- tvclust(x, side, method = "variational")
  expect_identical(vb$settings$pq_prior, numeric())
  expect_identical(c(vb$p, vb$q), c(0.9, 0.9))
  expect_gt(f_measure(y, vb$cluster), 0.75)
  # learning them stays available
  learned <- tvclust(x, side, method = "variational", pq_prior = c(1, 1))
  expect_length(learned$settings$pq_prior, 4L)
})

test_that("Gibbs on glass: the estimate holds about as many clusters as the draws", {
  g <- glass_with_noisy_pairs()
  x <- g$x
  y <- g$y
  side <- g$side
  set.seed(5)
  fit <- tvclust(x, side, iter = 100, chains = 1, threads = 1)
  expect_identical(fit$loss, "vi")
  posterior_mean_k <- sum(as.numeric(names(fit$posterior_k)) * fit$posterior_k)
  expect_lte(fit$k, posterior_mean_k + 1)
  expect_output(print(summary(fit)), sprintf(
    "Posterior of the number of clusters \\(mean %s; the estimate has %d\\)",
    format(posterior_mean_k, digits = 3L), fit$k))
  expect_lte(fit$k, 12L)
  expect_gt(f_measure(y, fit$cluster), 0.7)
})
