# logLik(), AIC() and BIC() of the Gaussian models: BIC finds the planted
# number of clusters, and without constraints equals mclust's for the same
# model and partition.

planted_blobs <- function(n_each = 60, seed = 1) {
  set.seed(seed)
  centres <- rbind(c(0, 0), c(6, 0), c(0, 6), c(6, 6))
  x <- centres[rep(1:4, each = n_each), ] + matrix(rnorm(8 * n_each), ncol = 2)
  list(x = x, y = rep(1:4, each = n_each))
}

test_that("BIC() of constrained_mixture() picks the planted k, with and without constraints", {
  b <- planted_blobs()
  side <- sample_constraints(b$y, rate = 0.002)
  for (s in list(NULL, side)) {
    bic <- vapply(1:7, function(k) {
      set.seed(k)
      BIC(constrained_mixture(b$x, s, k, covariance = "full"))
    }, 0)
    expect_identical(which.min(bic), 4L)
  }
})

test_that("logLik() of a constrained mixture is its mixture log-likelihood, with mclust's df", {
  x <- scale(iris[, 1:4])
  for (model in c("full", "diagonal", "spherical")) {
    set.seed(1)
    fit <- constrained_mixture(x, NULL, 3, covariance = model, ridge = 0)
    ll <- logLik(fit)
    expect_equal(as.numeric(ll), utils::tail(fit$loglik, 1), tolerance = 1e-6)
    expect_equal(attr(ll, "df"), 2 + 12 + 3 * switch(model, full = 10, diagonal = 4, spherical = 1))
  }
})

test_that("without constraints BIC() is minus mclust's stored BIC for the same model and partition", {
  fx <- read_fixture("mclust-bic-iris")
  x <- scale(iris[, 1:4])
  start <- fx$input$start
  for (model in names(fx$output)) {
    ref <- fx$output[[model]]
    fit <- constrained_mixture(x, NULL, 3, covariance = model, ridge = 0, start = start,
                               tol = 1e-12, max_iter = 5000)
    expect_equal(BIC(fit), -ref$bic, tolerance = 1e-6, label = model)
    expect_equal(attr(logLik(fit), "df"), ref$n_params, label = model)
  }
})

test_that("without constraints BIC() is minus mclust's BIC for the same model and partition", {
  skip_if_not_installed("mclust")
  x <- scale(iris[, 1:4])
  set.seed(1)
  start <- stats::kmeans(x, 3, nstart = 5)$cluster
  models <- list(full = c("VVV", mclust::meVVV), diagonal = c("VVI", mclust::meVVI),
                 spherical = c("VII", mclust::meVII))
  for (model in names(models)) {
    ref <- models[[model]][[2]](x, mclust::unmap(start),
                                control = mclust::emControl(tol = c(1e-12, 1e-12), itmax = c(5000, 5000)))
    fit <- constrained_mixture(x, NULL, 3, covariance = model, ridge = 0, start = start,
                               tol = 1e-12, max_iter = 5000)
    ref_bic <- mclust::bic(models[[model]][[1]], ref$loglik, nrow(x), ncol(x), 3)
    expect_equal(BIC(fit), -ref_bic, tolerance = 1e-6, label = model)
    expect_equal(attr(logLik(fit), "df"), mclust::nMclustParams(models[[model]][[1]], 4, 3),
                 label = model)
  }
})

test_that("logLik() of CEC is minus n times its cross-entropy, and BIC() ranks the types", {
  b <- planted_blobs(50)
  set.seed(2)
  fit <- cec(b$x, 4, restarts = 3)
  expect_equal(as.numeric(logLik(fit)), -nrow(b$x) * fit$cost, tolerance = 1e-8)
  # the label term of CEC-IB is not part of the likelihood
  set.seed(2)
  ib <- cec_ib(b$x, sample_labels(b$y, 0.3), 4, restarts = 3)
  expect_equal(as.numeric(logLik(ib)), -nrow(b$x) * (ib$cost - ib$cost_parts[["labels"]]),
               tolerance = 1e-8)
})

test_that("logLik() of TVClust plugs in the posterior-mean parameters of its estimate", {
  b <- planted_blobs(30)
  set.seed(3)
  fit <- tvclust(b$x, iter = 200, chains = 1, threads = 1)
  par <- coef(fit)
  expect_equal(sum(par$weights), 1)
  expect_equal(dim(par$covariances), c(2L, 2L, fit$k))
  dens <- Reduce(`+`, lapply(seq_len(fit$k), function(j) {
    par$weights[j] * exp(sideclust:::gaussian_log_density(b$x, par$centers[j, ], par$covariances[, , j]))
  }))
  expect_equal(as.numeric(logLik(fit)), sum(log(dens)))
  expect_equal(attr(logLik(fit), "df"), (fit$k - 1) + fit$k * 5)
})
