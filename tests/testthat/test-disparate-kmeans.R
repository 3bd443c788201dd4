test_that("with lambda = 0 and given starts it is two independent Lloyd runs", {
  x <- as.matrix(iris[, 1:4])
  mu <- colMeans(x)
  xc <- x - rep(mu, each = nrow(x))
  s1 <- x[c(1, 51, 101), ]
  s2 <- x[c(5, 60, 110, 140), ]
  fit <- disparate_kmeans(x, lambda = 0, start = list(s1, s2))
  expect_true(fit$converged)
  expect_identical(fit$init, "start")
  expect_identical(fit$restarts, 1L)
  expect_equal(c(fit$k, fit$k2), c(3L, 4L))
  for (i in 1:2) {
    s <- list(s1, s2)[[i]]
    km <- stats::kmeans(xc, centers = s - rep(mu, each = nrow(s)), algorithm = "Lloyd",
                        iter.max = 100)
    expect_identical(fit$clusters[, i], km$cluster)
    centres <- if (i == 1) fit$centers else fit$centers2
    expect_equal(unname(centres), unname(km$centers + rep(mu, each = nrow(s))),
                 tolerance = 1e-8)
    expect_equal(fit$within[i], km$tot.withinss, tolerance = 1e-8)
  }
  expect_identical(fit$penalty, 0)

  # without centring: Lloyd on the raw data
  fit_raw <- disparate_kmeans(x, lambda = 0, start = list(s1, s2), center = FALSE)
  expect_null(fit_raw$center)
  km <- stats::kmeans(x, centers = s2, algorithm = "Lloyd", iter.max = 100)
  expect_identical(fit_raw$cluster2, km$cluster)
  expect_equal(unname(fit_raw$centers2), unname(km$centers), tolerance = 1e-8)
})

test_that("the objective never increases and its final value matches the result", {
  sets <- list(blobs = disparate_blobs(200, seed = 3)$x, iris = scale(iris[, 1:4]),
               raw_iris = iris[, 1:4])
  set.seed(9)
  sets$uniform <- matrix(stats::runif(150 * 3), 150)
  for (name in names(sets)) {
    x <- sets[[name]]
    for (lambda in list(0.1, 1, 10, NULL)) {
      for (seed in 1:3) {
        set.seed(seed)
        fit <- disparate_kmeans(x, k = c(3, 2), lambda = lambda, restarts = 2)
        info <- sprintf("%s, lambda %s, seed %d", name, format(fit$lambda), seed)
        obj <- fit$objective
        expect_true(all(diff(obj) <= 1e-10 * abs(obj[-1])), info = info)
        parts <- disparate_parts(fit, x)
        expect_equal(fit$within, parts$within, tolerance = 1e-9, info = info)
        expect_equal(fit$penalty, parts$penalty, tolerance = 1e-9, info = info)
        expect_equal(utils::tail(obj, 1), parts$objective, tolerance = 1e-9, info = info)
        expect_equal(utils::tail(obj, 1), sum(fit$within) + fit$penalty, tolerance = 1e-12,
                     info = info)
      }
    }
  }
})

test_that("a converged fit is a fixed point: nearest prototypes, prototypes solve their systems", {
  cases <- list(list(x = disparate_blobs(150, seed = 5)$x, k = 2, lambda = NULL),
                list(x = scale(iris[, 1:4]), k = c(3, 2), lambda = 5),
                list(x = as.matrix(iris[, 1:4]), k = c(2, 4), lambda = 0.5))
  for (cs in cases) {
    set.seed(4)
    fit <- disparate_kmeans(cs$x, k = cs$k, lambda = cs$lambda, restarts = 3)
    expect_true(fit$converged)
    parts <- disparate_parts(fit, cs$x)
    p <- ncol(parts$xc)
    for (which in 1:2) {
      m <- if (which == 1) parts$m1 else parts$m2
      other <- if (which == 1) parts$m2 else parts$m1
      cl <- fit$clusters[, which]
      d <- sq_dist(parts$xc, m)
      own <- d[cbind(seq_along(cl), cl)]
      expect_true(all(own <= apply(d, 1, min) + 1e-9))
      shared <- fit$lambda * t(other) %*% other
      for (i in seq_len(nrow(m))) {
        members <- cl == i
        expect_gt(sum(members), 0)
        a <- sum(members) * diag(p) + shared
        expect_equal(m[i, ], solve(a, colSums(parts$xc[members, , drop = FALSE])),
                     tolerance = 1e-6)
      }
    }
  }
})

test_that("an empty cluster moves to the orthogonal complement and F still never increases", {
  b <- disparate_blobs(120, noise_dims = 0L, seed = 2)
  far <- rbind(c(-4, 0), c(4, 0), c(50, 50))
  fit <- disparate_kmeans(b$x, lambda = 1, start = list(far, rbind(c(0, -2), c(0, 2))))
  # the third cluster ends empty and is dropped
  expect_identical(fit$k, 2L)
  expect_true(all(diff(fit$objective) <= 1e-10 * abs(fit$objective[-1])))
  parts <- disparate_parts(fit, b$x)
  # the empty cluster's prototype minimized its only term, the penalty, to 0:
  # the kept prototypes alone give the run's final F
  expect_equal(utils::tail(fit$objective, 1), parts$objective, tolerance = 1e-9)
})

test_that("the two groupings are found with the default lambda, and one with lambda = 0", {
  for (seed in 1:3) {
    b <- disparate_blobs(300, A = 4, B = 2, noise_dims = 3L, sd = 0.5, seed = seed)
    set.seed(seed)
    fit <- disparate_kmeans(b$x, k = 2)
    by_a <- c(nmi(b$a, fit$cluster), nmi(b$b, fit$cluster2))
    by_b <- c(nmi(b$b, fit$cluster), nmi(b$a, fit$cluster2))
    expect_true(all(by_a >= 0.9) || all(by_b >= 0.9), info = paste("seed", seed))
    expect_lte(nmi(fit$cluster, fit$cluster2), 0.1)
    expect_lt(fit$penalty, 0.01 * sum(fit$within))

    set.seed(seed)
    fit0 <- disparate_kmeans(b$x, k = 2, lambda = 0)
    expect_gte(nmi(fit0$cluster, fit0$cluster2), 0.9)
    expect_gte(nmi(b$a, fit0$cluster), 0.9)
  }
  # symmetric blobs at (+-3, +-3) as well
  b <- disparate_blobs(300, A = 3, B = 3, noise_dims = 2L, sd = 0.5, seed = 7)
  set.seed(7)
  fit <- disparate_kmeans(b$x, k = 2)
  expect_gte(max(min(nmi(b$a, fit$cluster), nmi(b$b, fit$cluster2)),
                 min(nmi(b$b, fit$cluster), nmi(b$a, fit$cluster2))), 0.9)
  expect_lte(nmi(fit$cluster, fit$cluster2), 0.1)
})

test_that("the default lambda makes the fit independent of the units of x", {
  b <- disparate_blobs(100, seed = 11)
  set.seed(1)
  f1 <- disparate_kmeans(b$x, k = c(2, 3), restarts = 3)
  set.seed(1)
  f2 <- disparate_kmeans(1000 * b$x, k = c(2, 3), restarts = 3)
  expect_identical(f1$clusters, f2$clusters)
  expect_equal(f2$lambda, f1$lambda / 1e6)
  expect_equal(f2$centers, 1000 * f1$centers)
  expect_equal(f1$lambda, 10 * nrow(b$x) / mean(rowSums(scale(b$x, scale = FALSE)^2)))
})

test_that("set.seed reproduces; random init, starts, k = c(r, s) and predict work", {
  b <- disparate_blobs(120, seed = 4)
  set.seed(21); f1 <- disparate_kmeans(b$x, k = c(2, 3))
  set.seed(21); f2 <- disparate_kmeans(b$x, k = c(2, 3))
  expect_identical(f1, f2)
  expect_equal(c(f1$k, f1$k2), c(2L, 3L))
  expect_equal(dim(f1$centers), c(2L, 5L))
  expect_equal(dim(f1$centers2), c(3L, 5L))
  expect_identical(dim(f1$clusters), c(120L, 2L))
  expect_true(all(f1$cluster2 %in% 1:3))

  set.seed(3); fr <- disparate_kmeans(b$x, k = 2, init = "random", restarts = 4)
  set.seed(3); fr2 <- disparate_kmeans(b$x, k = 2, init = "random", restarts = 4)
  expect_identical(fr$clusters, fr2$clusters)
  expect_identical(fr$init, "random")
  expect_identical(fr$restarts, 4L)

  fs <- disparate_kmeans(b$x, start = list(f1$centers, f1$centers2), lambda = f1$lambda)
  expect_identical(fs$clusters, f1$clusters)
  expect_identical(fs$iterations, 1L)
  expect_equal(fs$centers, f1$centers, tolerance = 1e-8)

  expect_identical(predict(f1, b$x)$clusters, f1$clusters)
  expect_identical(predict(f1, b$x)$cluster2, f1$cluster2)
  expect_identical(predict(f1, as.data.frame(b$x[1:7, ]))$clusters, f1$clusters[1:7, , drop = FALSE])

  # the shared methods
  expect_identical(fitted(f1), f1$cluster)
  expect_identical(nobs(f1), 120L)
  s <- summary(f1)
  expect_identical(s$method, "Disparate k-means")
  expect_output(print(f1), "NMI between the two clusterings")
  expect_output(print(s), "Disparate k-means")
})

test_that("max_iter stops a run with a warning", {
  b <- disparate_blobs(200, seed = 8)
  starts <- list(b$x[1:2, ], b$x[3:4, ])
  full <- disparate_kmeans(b$x, start = starts)
  skip_if(full$iterations < 2L, "converged in one iteration")
  expect_warning(short <- disparate_kmeans(b$x, start = starts, max_iter = 1L), "max_iter")
  expect_false(short$converged)
  expect_identical(short$iterations, 1L)
})

test_that("bad input gives errors that name the argument", {
  x <- disparate_blobs(30, seed = 1)$x
  expect_error(disparate_kmeans(x), "`k`")
  expect_error(disparate_kmeans(x, k = c(2, 2, 2)), "`k`")
  expect_error(disparate_kmeans(x, k = 0), "`k`")
  expect_error(disparate_kmeans(x, k = 2.5), "`k`")
  expect_error(disparate_kmeans(x, k = NA), "`k`")
  expect_error(disparate_kmeans(x, k = 31), "`k`")
  dup <- rbind(matrix(1, 5, 2), matrix(2, 5, 2))
  expect_error(disparate_kmeans(dup, k = c(2, 3)), "`k`.*distinct")
  expect_error(disparate_kmeans(x, k = 2, lambda = -1), "`lambda`")
  expect_error(disparate_kmeans(x, k = 2, lambda = c(1, 2)), "`lambda`")
  x_na <- x
  x_na[3, 2] <- NA
  expect_error(disparate_kmeans(x_na, k = 2), "`x`.*NA")
  expect_error(disparate_kmeans(iris, k = 2), "`x`")
  expect_error(disparate_kmeans(x, k = 2, init = "kmeans"), "`init`")
  expect_error(disparate_kmeans(x, k = 2, restarts = 0), "`restarts`")
  expect_error(disparate_kmeans(x, k = 2, max_iter = -1), "`max_iter`")
  expect_error(disparate_kmeans(x, k = 2, center = NA), "`center`")
  expect_error(disparate_kmeans(x, start = x[1:2, ]), "`start`")
  expect_error(disparate_kmeans(x, start = list(x[1:2, ], x[1:2, 1:3])), "`start`.*columns")
  expect_error(disparate_kmeans(x, start = list(x[1:2, ], x[0, ])), "`start`")
  expect_error(disparate_kmeans(x, k = 3, start = list(x[1:2, ], x[1:2, ])), "`start`")
  bad <- x[1:2, ]
  bad[1, 1] <- NA
  expect_error(disparate_kmeans(x, start = list(bad, x[1:2, ])), "`start`")
  fit <- disparate_kmeans(x, k = 2, restarts = 1)
  expect_error(predict(fit, x[, 1:3]), "`newdata`.*columns")
  expect_identical(unname(predict(fit)$clusters), unname(fit$clusters))
})

test_that("a fit reports the clusters it returns: empty ones are dropped", {
  b <- disparate_blobs(60, noise_dims = 0L, seed = 4)
  # the third prototype of the first clustering is far from every point
  start <- list(rbind(c(-4, 0), c(4, 0), c(500, 500)), rbind(c(0, -2), c(0, 2)))
  fit <- disparate_kmeans(b$x, lambda = 0, start = start)
  expect_identical(fit$k, length(unique(fit$cluster)))
  expect_identical(fit$k, 2L)
  expect_identical(sort(unique(fit$cluster)), 1:2)
  expect_identical(nrow(fit$centers), fit$k)
  expect_identical(fit$k2, length(unique(fit$cluster2)))
  expect_identical(predict(fit)$cluster, fit$cluster)
  expect_output(print(fit), "into 2 and 2 clusters")
  # from random starts too: k always counts the clusters of `cluster`
  for (seed in 1:20) {
    set.seed(seed)
    x <- matrix(stats::rnorm(20), 10)
    fit <- disparate_kmeans(x, k = 4, restarts = 1)
    expect_identical(c(fit$k, fit$k2), c(max(fit$cluster), max(fit$cluster2)))
    expect_identical(c(fit$k, fit$k2), lengths(lapply(list(fit$cluster, fit$cluster2), unique)))
    expect_identical(c(nrow(fit$centers), nrow(fit$centers2)), c(fit$k, fit$k2))
  }
})
