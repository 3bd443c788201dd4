test_that("the iteration equals TR-09-12's (29)-(34) recomputed step by step in R", {
  d <- ibk_blobs(8, sd = 1, seed = 3)
  start <- d$x[c(1, 2, 9), ]
  for (normalize in c("space", "data")) {
    for (beta in c(0.8, 3, 25, Inf)) {
      fit <- suppressWarnings(ib_kmeans(d$x, beta = beta, s = 2, normalize = normalize,
                                        start = start, max_iter = 12, tol = 0))
      ref <- ibk_run_r(d$x, start, beta, 2, normalize, fit$iterations)
      expect_gte(fit$iterations, 3L)  # hard runs may stop early at an exact fixed point
      expect_equal(unname(fit$membership), ref$membership, tolerance = 1e-9)
      expect_equal(fit$pc, ref$pc, tolerance = 1e-9)
      expect_equal(unname(fit$centers), ref$m, tolerance = 1e-9)
      expect_equal(as.matrix(fit$trace), ref$trace, tolerance = 1e-9)
      expect_equal(fit$objective, fit$trace$objective)
      expect_equal(fit$log_z, ibk_log_z_r(ibk_dist_r(d$x, ref$m), 2, normalize, 2),
                   tolerance = 1e-9)
    }
  }
})

test_that("the hard limit is Lloyd's k-means from the same start", {
  x <- scale(iris[, 1:4])
  set.seed(3)
  start <- x[sample(nrow(x), 3), ]
  km <- stats::kmeans(x, centers = start, algorithm = "Lloyd", iter.max = 100)
  for (beta in c(Inf, 1e6)) {
    fit <- ib_kmeans(x, beta = beta, start = start)
    expect_identical(fit$cluster, unname(km$cluster))
    expect_equal(unname(fit$centers), unname(km$centers), tolerance = 1e-8)
    expect_true(all(fit$membership %in% c(0, 1)))
    expect_equal(fit$distortion * nrow(x), km$tot.withinss, tolerance = 1e-8)
    expect_true(fit$converged)
  }
  # I(C;X) of a hard partition is H(C)
  pc <- fit$size / nrow(x)
  expect_equal(fit$info_x, -sum(pc * log(pc)), tolerance = 1e-10)
  # five clusters on another data set; the k-means cost decreases
  d <- ibk_blobs(15, sd = 1.5, seed = 4)
  start <- d$x[c(1, 2, 16, 31, 32), ]
  km <- stats::kmeans(d$x, centers = start, algorithm = "Lloyd", iter.max = 100)
  fit <- ib_kmeans(d$x, beta = Inf, start = start)
  expect_identical(fit$cluster, unname(km$cluster))
  expect_equal(unname(fit$centers), unname(km$centers), tolerance = 1e-8)
  expect_true(all(diff(fit$trace$distortion) <= 1e-12))
})

test_that("with restarts the hard limit finds the brute-force k-means optimum of a tiny set", {
  set.seed(8)
  x <- matrix(stats::rnorm(16), 8, 2)
  labelings <- as.matrix(expand.grid(rep(list(1:2), 8)))
  cost <- apply(labelings, 1, function(z) {
    if (length(unique(z)) < 2) return(Inf)
    sum(vapply(1:2, function(c) sum(scale(x[z == c, , drop = FALSE], scale = FALSE)^2), 0))
  })
  set.seed(1)
  fit <- ib_kmeans(x, k = 2, beta = Inf, restarts = 20)
  expect_equal(fit$distortion * nrow(x), min(cost), tolerance = 1e-10)
})

test_that("memberships and p(c) are distributions and the state is a fixed point", {
  d <- ibk_blobs(10, sd = 0.8, seed = 2)
  for (normalize in c("space", "data")) {
    set.seed(5)
    fit <- ib_kmeans(d$x, k = 3, beta = 4, normalize = normalize, tol = 1e-12)
    expect_true(fit$converged)
    expect_equal(rowSums(fit$membership), rep(1, nrow(d$x)), tolerance = 1e-12)
    expect_true(all(fit$membership >= 0))
    expect_equal(sum(fit$pc), 1, tolerance = 1e-12)
    expect_equal(fit$pc, colMeans(fit$membership), tolerance = 1e-12)
    expect_identical(fit$cluster, max.col(fit$membership, ties.method = "first"))
    # one more step of the iteration, in plain R, changes nothing
    again <- ibk_step_r(d$x, fit$centers, fit$pc, fit$beta, fit$s, normalize)
    expect_equal(again$membership, unname(fit$membership), tolerance = 1e-9)
    expect_equal(unname(again$m), unname(fit$centers), tolerance = 1e-9)
    # predict() on the fitted data is that step too
    pred <- predict(fit, d$x)
    expect_equal(unname(pred$probability), again$membership, tolerance = 1e-9)
    expect_identical(pred$cluster, fit$cluster)
  }
})

test_that("the objective never decreases and the fit is a local optimum of it", {
  d <- ibk_blobs(10, sd = 0.9, seed = 6)
  for (beta in c(1.5, 5, 40)) {
    set.seed(2)
    fit <- ib_kmeans(d$x, k = 3, beta = beta, restarts = 1, tol = 1e-12, max_iter = 2000)
    expect_true(all(diff(fit$objective) >= -1e-12))
    # the objective with p(c) and the prototypes following the memberships
    profiled <- function(pcx) {
      m <- t(pcx) %*% d$x / colSums(pcx)
      ibk_objective_r(d$x, pcx, m, fit$s, "space", beta)[["objective"]]
    }
    best <- profiled(fit$membership)
    expect_equal(best, utils::tail(fit$objective, 1), tolerance = 1e-10)
    set.seed(9)
    for (r in 1:20) {
      noise <- matrix(stats::runif(length(fit$membership)), nrow(fit$membership))
      moved <- 0.99 * fit$membership + 0.01 * noise / rowSums(noise)
      expect_lte(profiled(moved), best + 1e-12)
    }
  }
})

test_that("below the critical beta there is one effective cluster, above it several", {
  x <- scale(iris[, 1:4])
  s <- sum(scale(x, scale = FALSE)^2) / nrow(x)
  lambda_max <- eigen(stats::cov(x) * (nrow(x) - 1) / nrow(x), only.values = TRUE)$values[1]
  beta_c <- s / (2 * lambda_max)
  for (beta in c(1e-8, 0.5 * beta_c)) {
    set.seed(1)
    fit <- ib_kmeans(x, k = 3, beta = beta, tol = 1e-12)
    expect_equal(fit$s, s)
    expect_equal(unname(fit$centers), matrix(colMeans(x), 3, 4, byrow = TRUE), tolerance = 1e-6)
    expect_equal(unname(fit$membership), matrix(fit$pc, nrow(x), 3, byrow = TRUE),
                 tolerance = 1e-6)
    expect_lt(fit$info_x, 1e-8)
    expect_identical(fit$k_effective, 1L)
  }
  set.seed(1)
  split <- ib_kmeans(x, k = 3, beta = 1.5 * beta_c)
  expect_gte(split$k_effective, 2L)
  expect_gt(split$info_x, 0.1)
  # and the memberships harden as beta grows
  hardness <- vapply(c(2, 10, 100), function(beta) {
    set.seed(1)
    mean(apply(ib_kmeans(x, k = 3, beta = beta, max_iter = 3000)$membership, 1, max))
  }, double(1))
  expect_true(all(diff(hardness) > 0))
})

test_that("only beta / s matters when the kernel is normalized over space", {
  d <- ibk_blobs(10, seed = 7)
  start <- d$x[c(1, 11, 21), ]
  a <- ib_kmeans(d$x, beta = 2, s = 1, start = start)
  b <- ib_kmeans(d$x, beta = 6, s = 3, start = start)
  expect_equal(a$membership, b$membership, tolerance = 1e-10)
  expect_equal(a$centers, b$centers, tolerance = 1e-10)
  expect_identical(a$iterations, b$iterations)
  # normalized over the data, the normalizers depend on the cluster
  c3 <- ib_kmeans(d$x, beta = 2, s = 1, start = start, normalize = "data")
  expect_gt(diff(range(c3$log_z)), 0)
  expect_equal(diff(range(a$log_z)), 0)
})

test_that("fits are reproducible under set.seed and keep their settings", {
  x <- scale(iris[, 1:4])
  set.seed(42)
  a <- ib_kmeans(x, k = 4, beta = 10, restarts = 3, init = "random")
  set.seed(42)
  b <- ib_kmeans(x, k = 4, beta = 10, restarts = 3, init = "random")
  expect_identical(a[names(a) != "call"], b[names(b) != "call"])
  expect_s3_class(a, c("ib_kmeans", "sideclust"))
  expect_identical(a$init, "random")
  expect_identical(a$restarts, 3L)
  expect_identical(a$normalize, "space")
  expect_identical(a$k, 4L)
  expect_length(a$objective, a$iterations)
  expect_identical(dim(a$membership), c(150L, 4L))
  expect_identical(colnames(a$centers), colnames(x))
  expect_identical(sum(a$size), 150L)
  # start overrides restarts and init
  st <- ib_kmeans(x, beta = 10, start = a$centers, restarts = 5)
  expect_identical(st$init, "start")
  expect_identical(st$restarts, 1L)
  expect_identical(st$k, 4L)
})

test_that("predict gives distributions for new points and the nearest prototype in the hard limit", {
  x <- scale(iris[, 1:4])
  set.seed(4)
  fit <- ib_kmeans(x[-(1:20), ], k = 3, beta = 8, restarts = 2)
  pred <- predict(fit, as.data.frame(x[1:20, ]))
  expect_equal(rowSums(pred$probability), rep(1, 20), tolerance = 1e-12)
  expect_identical(dim(pred$probability), c(20L, 3L))
  expect_identical(rownames(pred$probability), rownames(x)[1:20])
  d <- ibk_dist_r(x[1:20, ], fit$centers)
  ref <- ibk_memberships_r(d, fit$pc, fit$log_z, fit$beta, fit$s)
  expect_equal(unname(pred$probability), ref, tolerance = 1e-10)
  hard <- ib_kmeans(x[-(1:20), ], k = 3, beta = Inf, restarts = 2)
  expect_identical(predict(hard, x[1:20, ])$cluster, max.col(-ibk_dist_r(x[1:20, ], hard$centers)))
  expect_identical(dim(predict(fit)$probability), c(130L, fit$k))
  expect_error(predict(fit, x[, 1:2]), "newdata")
  expect_error(predict(fit, "a"), "newdata")
})

test_that("print, summary, verbose output and the shared methods work", {
  d <- ibk_blobs(10, seed = 1)
  set.seed(1)
  fit <- ib_kmeans(d$x, k = 3, beta = 10, restarts = 2)
  expect_output(print(fit), "k-means as IB: 30 points, 3 clusters")
  expect_output(print(fit), "Available components")
  s <- summary(fit)
  expect_s3_class(s, "summary.ib_kmeans")
  expect_equal(s$clusters$pc, fit$pc)
  expect_output(print(s), "Prototypes")
  expect_identical(fitted(fit), fit$cluster)
  expect_identical(nobs(fit), 30L)
  expect_message(ib_kmeans(d$x, k = 2, beta = 5, restarts = 1, verbose = TRUE), "iteration")
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_invisible(plot(fit, d$x))
})

test_that("a run that does not converge warns", {
  x <- scale(iris[, 1:4])
  set.seed(1)
  expect_warning(fit <- ib_kmeans(x, k = 3, beta = 2, max_iter = 3), "max_iter")
  expect_false(fit$converged)
  expect_identical(fit$iterations, 3L)
})

test_that("near a split convergence is slow, and the objective cannot tell", {
  # iris at beta = 2: two clusters have just split (documented in Details)
  x <- scale(iris[, 1:4])
  set.seed(3)
  expect_warning(short <- ib_kmeans(x, k = 3, beta = 2, restarts = 1),
                 "max_iter.*cluster splits")
  expect_identical(short$iterations, 500L)
  set.seed(3)
  full <- ib_kmeans(x, k = 3, beta = 2, restarts = 1, max_iter = 5000)
  expect_true(full$converged)
  expect_gt(full$iterations, 1000L)
  # the longer run continues the shorter one: its trace starts with it
  expect_equal(full$objective[1:500], short$objective)
  # after 500 iterations the objective has settled, the memberships not
  expect_lt(utils::tail(full$objective, 1) - utils::tail(short$objective, 1), 1e-6)
  expect_gt(max(abs(full$membership - short$membership)), 1e-3)
  # the fixed point: one more step moves no membership by more than tol
  expect_lte(max(abs(predict(full, x)$probability - full$membership)), full$tol)
  # a cluster sits at its split: s / (2 lambda_max) of its weighted covariance
  split_beta <- vapply(1:3, function(c) {
    cv <- stats::cov.wt(x, wt = full$membership[, c] / sum(full$membership[, c]),
                        method = "ML")$cov
    full$s / (2 * eigen(cv, only.values = TRUE)$values[1])
  }, double(1))
  expect_lt(min(abs(split_beta / 2 - 1)), 0.05)
})

test_that("bad input is reported with the argument's name", {
  x <- scale(iris[, 1:4])
  expect_error(ib_kmeans(iris, 3, 1), "x")
  expect_error(ib_kmeans(rbind(x[1:3, ], NA), 2, 1), "`x` has 4 NA")
  expect_error(ib_kmeans(x, beta = 1), "`k` is missing")
  expect_error(ib_kmeans(x, 0, 1), "`k`")
  expect_error(ib_kmeans(x, 2.5, 1), "`k`")
  expect_error(ib_kmeans(matrix(1, 5, 2), 2, 1), "`k`")
  expect_error(ib_kmeans(x, 3), "`beta` is missing")
  expect_error(ib_kmeans(x, 3, 0), "`beta`")
  expect_error(ib_kmeans(x, 3, -1), "`beta`")
  expect_error(ib_kmeans(x, 3, NA), "`beta`")
  expect_error(ib_kmeans(x, 3, c(1, 2)), "`beta`")
  expect_error(ib_kmeans(x, 3, 1, s = 0), "`s`")
  expect_error(ib_kmeans(x, 3, 1, s = Inf), "`s`")
  expect_error(ib_kmeans(x, 3, 1, s = "a"), "`s`")
  expect_error(ib_kmeans(x, 3, 1, normalize = "sphere"), "`normalize`")
  expect_error(ib_kmeans(x, 3, 1, restarts = 0), "`restarts`")
  expect_error(ib_kmeans(x, 3, 1, max_iter = 0), "`max_iter`")
  expect_error(ib_kmeans(x, 3, 1, tol = -1), "`tol`")
  expect_error(ib_kmeans(x, 3, 1, init = "farthest"), "`init`")
  expect_error(ib_kmeans(x, 3, 1, start = x[1:2, ]), "`start`")
  expect_error(ib_kmeans(x, 3, 1, start = x[1:3, 1:2]), "`start`")
  expect_error(ib_kmeans(x, 3, 1, verbose = NA), "`verbose`")
})
