# The approximations of the RBF kernel (approximation = "nystrom", "rff", "knn").

approx_moons <- function(n = 150, seed = 1) {
  set.seed(seed)
  d <- simulate_patterns(n, "moons")
  d$side <- sample_constraints(d$label, rate = 0.01, pair_count = "paper")
  d
}

# The approximate kernel matrix Z Z' of a low-rank fit's features.
lowrank_kernel_matrix <- function(x, approximation, sigma, m) {
  kern <- sideclust:::prepare_approximate_kernel(x, approximation, sigma, m, 10L)
  crossprod(kern$spec$x)
}

test_that("the Nystrom kernel converges to the exact one as landmarks grow, exact at m = n", {
  d <- approx_moons(120)
  K <- rbf_matrix(d$x, 0.5)
  err <- vapply(c(10, 30, 120), function(m) {
    set.seed(2)
    max(abs(lowrank_kernel_matrix(d$x, "nystrom", 0.5, m) - K))
  }, numeric(1))
  expect_true(all(diff(err) < 0))
  expect_lt(err[3], 1e-6)
})

test_that("random Fourier features approach the RBF kernel as their number grows", {
  d <- approx_moons(100)
  K <- rbf_matrix(d$x, 0.5)
  err <- vapply(c(50, 5000), function(m) {
    set.seed(3)
    sqrt(mean((lowrank_kernel_matrix(d$x, "rff", 0.5, m) - K)^2))
  }, numeric(1))
  expect_lt(err[2], err[1] / 4)
  expect_lt(err[2], 0.03)
})

test_that("with Nystrom at m = n the fit is the exact one", {
  d <- approx_moons(150)
  set.seed(4)
  exact <- kernel_rdp_means(d$x, d$side, lambda = 1.5, sigma = 0.5, init = "one", order = "fixed")
  set.seed(4)
  ny <- kernel_rdp_means(d$x, d$side, lambda = 1.5, sigma = 0.5, init = "one", order = "fixed",
                         approximation = "nystrom", landmarks = 150)
  expect_identical(unname(ny$cluster), unname(exact$cluster))
  expect_equal(ny$objective, exact$objective, tolerance = 1e-6)
  expect_identical(ny$approximation, "nystrom")
  expect_identical(exact$approximation, "exact")
})

test_that("the low-rank spectral start is the exact eigen-decomposition without side information", {
  set.seed(6)
  z <- matrix(rnorm(40 * 5), 5, 40)  # 5 features of 40 points
  sp <- sideclust:::lowrank_spectral(z, NULL, c(must = 1, cannot = 1), 3)
  ref <- eigen(crossprod(z), symmetric = TRUE)
  expect_equal(sp$values, ref$values[1:3], tolerance = 1e-10)
  expect_equal(abs(crossprod(sp$vectors, ref$vectors[, 1:3])), diag(3), tolerance = 1e-8)
  # with pairs, at full rank, it is the exact decomposition of K + side
  z <- matrix(rnorm(40 * 40), 40, 40)
  side <- constraints(must = rbind(c(1, 4), c(3, 6)), cannot = rbind(c(2, 5)), n = 40)
  side <- sideclust:::as_side_info(side, 40, "side")
  xi <- c(must = 2, cannot = 3)
  sp <- sideclust:::lowrank_spectral(z, side, xi, 4)
  full <- crossprod(z) + as.matrix(sideclust:::side_matrix(side, 40, xi))
  expect_equal(sp$values, eigen(full, symmetric = TRUE)$values[1:4], tolerance = 1e-8)
})

test_that("the knn graph kernel recovers the moons, and predict() follows its clusters", {
  skip_if_not_installed("RcppHNSW")
  skip_if_not_installed("RSpectra")
  d <- approx_moons(400)
  set.seed(7)
  fit <- kernel_rdp_means(d$x, d$side, k = 2, sigma = 0.3, approximation = "knn")
  expect_gt(f_measure(d$label, fit$cluster), 0.95)
  expect_identical(fit$feature_map$neighbours, 10L)
  pred <- predict(fit)
  expect_gt(mean(pred$cluster == fit$cluster), 0.95)
  # the graph: symmetric, ones on the diagonal, at most 2 n neighbours
  kern <- sideclust:::prepare_approximate_kernel(d$x, "knn", 0.3, NULL, 10L)
  expect_true(Matrix::isSymmetric(kern$graph))
  expect_equal(Matrix::diag(kern$graph), rep(1, 400))
  expect_lte(Matrix::nnzero(kern$graph), 400 + 2 * 10 * 400)
})

test_that("low-rank fits do as well as the exact kernel on moons; predict() costs are feature distances", {
  d <- approx_moons(300)
  side <- sample_constraints(d$label[-(1:20)], rate = 0.01, pair_count = "paper")
  x <- d$x[-(1:20), ]
  set.seed(8)
  exact <- kernel_rdp_means(x, side, lambda = 1.5, sigma = 0.5)
  for (a in c("nystrom", "rff")) {
    set.seed(8)
    fit <- kernel_rdp_means(x, side, lambda = 1.5, sigma = 0.5, approximation = a,
                            landmarks = if (a == "rff") 1000 else 200)
    expect_gt(f_measure(d$label[-(1:20)], fit$cluster),
              f_measure(d$label[-(1:20)], exact$cluster) - 0.1)
    pred <- predict(fit, d$x[1:20, ])
    expect_equal(dim(pred$cost), c(20L, fit$k))
    z <- sideclust:::feature_columns(fit$feature_map, sideclust:::centre_kernel_points(d$x[1:20, ], x))
    means <- fit$feature_sums / fit$size
    direct <- outer(colSums(z^2), rowSums(means^2), "+") - 2 * crossprod(z, t(means))
    expect_equal(unname(pred$cost), direct, tolerance = 1e-8)
  }
})

test_that("approximation = \"auto\" is exact for small n and for the user's own kernel", {
  d <- approx_moons(100)
  set.seed(9)
  auto <- kernel_rdp_means(d$x, d$side, lambda = 1.5, sigma = 0.5)
  set.seed(9)
  exact <- kernel_rdp_means(d$x, d$side, lambda = 1.5, sigma = 0.5, approximation = "exact")
  expect_identical(auto$cluster, exact$cluster)
  expect_identical(auto$approximation, "exact")
  expect_identical(sideclust:::resolve_approximation("auto", "rbf", 1e6), "nystrom")
  expect_identical(sideclust:::resolve_approximation("auto", "precomputed", 1e6), "exact")
  withr_options <- options(sideclust.kernel_exact_max = 50)
  on.exit(options(withr_options))
  expect_identical(sideclust:::resolve_approximation("auto", "rbf", 100), "nystrom")
})

test_that("bad approximation settings get errors that name the argument", {
  d <- approx_moons(60)
  K <- rbf_matrix(d$x, 0.5)
  expect_error(kernel_rdp_means(K, NULL, lambda = 1, kernel = "precomputed", approximation = "nystrom"),
               "`approximation`")
  expect_error(kernel_rdp_means(d$x, NULL, lambda = 1, kernel = "linear", approximation = "knn"),
               "`approximation`")
  expect_error(kernel_rdp_means(d$x, NULL, lambda = 1, approximation = "nystrom", landmarks = 61),
               "`landmarks`")
  expect_error(kernel_rdp_means(d$x, NULL, lambda = 1, approximation = "nystrom", landmarks = 0),
               "`landmarks`")
  expect_error(kernel_rdp_means(d$x, NULL, lambda = 1, approximation = "knn", neighbours = 60),
               "`neighbours`")
  expect_error(kernel_rdp_means(d$x, NULL, lambda = 1, approximation = "fast"), "`approximation`")
})

test_that("the bound on what a split can gain is mu_1 + mu_2 - S / n of the features' kernel", {
  d <- approx_moons(120)
  set.seed(11)
  kern <- sideclust:::prepare_approximate_kernel(d$x, "nystrom", 0.5, 30L, 10L)
  K <- crossprod(kern$spec$x)
  mu <- eigen(K, symmetric = TRUE, only.values = TRUE)$values
  gain <- sideclust:::kernel_split_gain_bound(kern)
  expect_equal(gain$bound, mu[1] + mu[2] - sum(K) / 120, tolerance = 1e-8)
  # no partition gains more over one cluster than bound * (k - 1)
  data_term <- function(z) sum(diag(K)) - sum(vapply(split(seq_len(120), z), function(i)
    sum(K[i, i]) / length(i), numeric(1)))
  gains <- data_term(rep(1, 120)) - vapply(2:4, function(k) data_term(stats::kmeans(d$x, k)$cluster),
                                           numeric(1))
  expect_true(all(gains <= gain$bound * (1:3) + 1e-8))
})

test_that("a lambda above what any split of the kernel can gain warns, naming lambda", {
  skip_if_not_installed("RcppHNSW")
  d <- approx_moons(300)
  set.seed(12)
  expect_warning(fit <- kernel_rdp_means(d$x, NULL, lambda = 500, sigma = 0.3, approximation = "knn",
                                         init = "one"),
                 "lambda = 500 .*weighted degree")
  expect_identical(fit$k, 1L)
  set.seed(12)
  expect_warning(kernel_rdp_means(d$x, NULL, lambda = 1e4, sigma = 0.5, approximation = "nystrom",
                                  init = "one"),
                 "lambda = 10000 .*grows with the number of points")
  # on the knn scale (below a point's weighted degree) the same data split silently
  skip_if_not_installed("RSpectra")
  set.seed(12)
  expect_no_warning(fit <- kernel_rdp_means(d$x, NULL, lambda = 5, sigma = 0.3,
                                            approximation = "knn"))
  expect_gt(fit$k, 1L)
})

test_that("knn fits are reproducible under set.seed()", {
  skip_if_not_installed("RcppHNSW")
  skip_if_not_installed("RSpectra")
  d <- approx_moons(400)
  fit_once <- function() {
    set.seed(13)
    kernel_rdp_means(d$x, d$side, lambda = 20, sigma = 0.3, approximation = "knn")
  }
  a <- fit_once()
  b <- fit_once()
  expect_identical(a$cluster, b$cluster)
  expect_identical(a$objective, b$objective)
})

test_that("the knn kernel's spectral start takes partial labels (products with the graph)", {
  skip_if_not_installed("RcppHNSW")
  skip_if_not_installed("RSpectra")
  d <- approx_moons(300)
  set.seed(14)
  side <- sample_labels(d$label, 0.2)
  kern <- sideclust:::prepare_approximate_kernel(d$x, "knn", 0.3, NULL, 10L)
  v <- matrix(stats::rnorm(600), 300, 2)
  expect_equal(sideclust:::kernel_product(kern, v), as.matrix(kern$graph %*% v))
  fit <- kernel_rdp_means(d$x, side, lambda = 20, sigma = 0.3, approximation = "knn")
  expect_gt(fit$spectral_k, 0L)
})
