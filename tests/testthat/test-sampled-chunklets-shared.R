# Sampled chunklets across EM iterations, with the exactly solved components
# shared by the samples (shared_components.h): every E-step is the one
# constraint_posterior() computes from the same unaries and samples.

cm_shared_problem <- function(n_constraints = 120) {
  set.seed(1)
  y <- rep(1:3, each = 30)
  x <- matrix(stats::rnorm(180, sd = 0.8), 90) + cbind(c(0, 2, 4)[y], c(0, 2, 0)[y])
  side <- sample_constraints(y, "nelson_cohen", n_constraints = n_constraints, noise = 0.2)
  list(x = x, y = y, side = side)
}

test_that("a fit's z is the E-step at its parameters, with mean-field components", {
  d <- cm_shared_problem()
  # max_labelings = 1: every component with a cycle goes to mean field
  set.seed(5)
  fit <- constrained_mixture(d$x, d$side, 3, inference = "sampled_chunklet", start = rep(1:3, 30),
                             samples = 8, max_labelings = 1, tol = 1e-9, inner_tol = 1e-9,
                             max_iter = 300)
  expect_true(fit$converged)
  expect_identical(fit$estep, "mean field")
  lp <- sideclust:::gaussian_component_logs(d$x, fit$weights, fit$centers, fit$covariances)
  set.seed(5)  # the same samples: drawn first thing from R's generator
  z <- constraint_posterior(lp, d$side, "sampled_chunklet", log = TRUE, samples = 8,
                            max_labelings = 1, inner_tol = 1e-12)
  # the fit's last E-step stopped at EM's tolerance (inner_tol 1e-9 here)
  expect_equal(unname(fit$z), unname(unclass(z))[, 1:3], tolerance = 1e-6, ignore_attr = TRUE)
  expect_equal(unname(rowSums(fit$z)), rep(1, 90))
})

test_that("sampled-chunklet fits are reproducible; exact components give the exact E-step", {
  d <- cm_shared_problem()
  run <- function(max_labelings) {
    set.seed(5)
    constrained_mixture(d$x, d$side, 3, inference = "sampled_chunklet", start = rep(1:3, 30),
                        samples = 6, max_labelings = max_labelings, max_iter = 15, tol = 0)
  }
  a <- run(1)
  b <- run(1)
  expect_identical(a$z, b$z)
  expect_identical(a$loglik, b$loglik)
  # without any mean-field component every E-step is exact per sample
  d <- cm_shared_problem(30)
  ex <- run(1e6)
  expect_identical(ex$estep, "exact")
  lp <- sideclust:::gaussian_component_logs(d$x, ex$weights, ex$centers, ex$covariances)
  set.seed(5)
  z <- constraint_posterior(lp, d$side, "sampled_chunklet", log = TRUE, samples = 6)
  expect_equal(unname(ex$z), unname(unclass(z))[, 1:3], tolerance = 1e-12, ignore_attr = TRUE)
})

test_that("the samples on several threads give the fit of one thread, bit for bit", {
  d <- cm_shared_problem(200)
  run <- function(threads) {
    set.seed(7)
    constrained_mixture(d$x, d$side, 3, inference = "sampled_chunklet", start = rep(1:3, 30),
                        samples = 9, max_labelings = 1, max_iter = 10, tol = 0,
                        threads = threads)
  }
  one <- run(1)
  expect_identical(one$estep, "mean field")
  for (threads in 2:4) {
    many <- run(threads)
    expect_identical(many$z, one$z)
    expect_identical(many$loglik, one$loglik)
  }
  set.seed(2)
  lp <- matrix(log(stats::runif(270)), 90)
  post <- function(threads) {
    set.seed(3)
    constraint_posterior(lp, d$side, "sampled_chunklet", log = TRUE, samples = 7,
                         max_labelings = 1, threads = threads)
  }
  expect_identical(post(3), post(1))
  expect_error(constrained_mixture(d$x, d$side, 3, threads = 0), "`threads`")
})
