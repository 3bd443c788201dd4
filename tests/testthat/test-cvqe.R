test_that("without side information cvqe() is Lloyd's k-means", {
  x <- scale(iris[, 1:4])
  set.seed(3)
  start <- x[sample(nrow(x), 3), ]
  km <- stats::kmeans(x, centers = start, algorithm = "Lloyd", iter.max = 100)
  empty <- constraints(n = nrow(x))
  for (side in list(NULL, empty)) {
    fit <- cvqe(x, side, start = start)
    expect_identical(fit$cluster, unname(km$cluster))
    expect_equal(unname(fit$centers), unname(km$centers), tolerance = 1e-8)
    expect_equal(colnames(fit$centers), colnames(x))
    expect_equal(fit$within, km$tot.withinss / 2, tolerance = 1e-8)
    expect_equal(fit$penalty, 0)
    expect_true(fit$converged)
    expect_identical(fit$init, "start")
    expect_identical(fit$restarts, 1L)
  }
  # a second data set, with more clusters
  d <- cvqe_blobs(15, sd = 1.5, seed = 4)
  start <- d$x[c(1, 2, 16, 31, 32), ]
  km <- stats::kmeans(d$x, centers = start, algorithm = "Lloyd", iter.max = 100)
  fit <- cvqe(d$x, NULL, k = 5, start = start)
  expect_identical(fit$cluster, unname(km$cluster))
  expect_equal(unname(fit$centers), unname(km$centers), tolerance = 1e-8)
})

test_that("objective, within and penalty equal L' recomputed in R", {
  x <- scale(iris[, 1:4])
  set.seed(11)
  side <- sample_constraints(iris$Species, "nelson_cohen", n_constraints = 80, noise = 0.1)
  fit <- cvqe(x, side, k = 3)
  ref <- cvqe_objective_r(x, fit$cluster, fit$centers, cvqe_pairs(side))
  expect_equal(utils::tail(fit$objective, 1), ref[["objective"]], tolerance = 1e-10)
  expect_equal(fit$within, ref[["within"]], tolerance = 1e-10)
  expect_equal(fit$penalty, ref[["penalty"]], tolerance = 1e-10)
  expect_gt(fit$penalty, 0)
  expect_length(fit$objective, fit$iterations)
  # k = 1: cannot-links cost nothing, must-links are always kept
  one <- cvqe(x, side, k = 1)
  expect_equal(one$penalty, 0)
  expect_equal(one$within, sum(scale(x, scale = FALSE)^2) / 2, tolerance = 1e-10)
})

test_that("the returned state is a fixed point and a local optimum of single moves", {
  d <- cvqe_blobs(8, sd = 1.2, seed = 2)
  x <- d$x
  n <- nrow(x)
  set.seed(5)
  side <- constraints(must = rbind(c(1, 9), c(2, 20), c(10, 18), c(3, 4)),
                      cannot = rbind(c(1, 2), c(9, 10), c(17, 24), c(5, 13)),
                      n = n, confidence = stats::runif(8, 0.2, 1))
  pairs <- cvqe_pairs(side)
  for (k in 2:4) {
    set.seed(k)
    fit <- cvqe(x, side, k = k, restarts = 3)
    expect_true(fit$converged)
    m <- fit$centers
    expect_identical(cvqe_assign_r(x, fit$cluster, m, pairs), fit$cluster)
    expect_equal(cvqe_prototypes_r(x, fit$cluster, m, pairs), m, tolerance = 1e-8)
    base <- cvqe_objective_r(x, fit$cluster, m, pairs)[["objective"]]
    lowest <- Inf
    for (i in seq_len(n)) for (j in seq_len(fit$k)) {
      moved <- fit$cluster
      moved[i] <- j
      lowest <- min(lowest, cvqe_objective_r(x, moved, m, pairs)[["objective"]])
    }
    expect_gte(lowest, base - 1e-10)
  }
})

test_that("the ICM step reaches the brute-force optimum from it and never increases L'", {
  set.seed(7)
  x <- matrix(stats::rnorm(14), 7, 2)
  side <- constraints(must = rbind(c(1, 2), c(3, 7)), cannot = rbind(c(1, 4), c(5, 6)),
                      n = 7, confidence = c(0.5, 1, 0.8, 0.3))
  pairs <- cvqe_pairs(side)
  m <- rbind(c(-0.5, 0), c(0.8, 0.3))
  labelings <- as.matrix(expand.grid(rep(list(1:2), 7)))
  obj <- apply(labelings, 1, function(z) cvqe_objective_r(x, z, m, pairs)[["objective"]])
  best <- unname(labelings[which.min(obj), ])
  expect_identical(cvqe_assign_r(x, best, m, pairs), best)
  # the C++ assignment step agrees: started at the prototypes m, one run
  # converges to a state whose assignment R's ICM keeps
  fit <- cvqe(x, side, start = m)
  expect_identical(cvqe_assign_r(x, fit$cluster, fit$centers, pairs), fit$cluster)
  worst <- -Inf
  for (r in 1:30) {
    z <- sample(1:2, 7, replace = TRUE)
    before <- cvqe_objective_r(x, z, m, pairs)[["objective"]]
    after <- cvqe_objective_r(x, cvqe_assign_r(x, z, m, pairs), m, pairs)[["objective"]]
    worst <- max(worst, after - before)
  }
  expect_lte(worst, 1e-12)
})

test_that("the C++ assignment step matches the R one at fixed prototypes", {
  # with max_iter = 1 the fit is one assignment + prototype step from start;
  # the first assignment ignores partners not yet assigned, as R's does when
  # those partners have no cluster yet
  d <- cvqe_blobs(6, sd = 1.5, seed = 9)
  x <- d$x
  side <- constraints(must = rbind(c(1, 7), c(8, 14)), cannot = rbind(c(2, 3), c(13, 15)),
                      n = nrow(x))
  start <- x[c(1, 7, 13), ]
  fit <- suppressWarnings(cvqe(x, side, start = start, max_iter = 1))
  pairs <- cvqe_pairs(side)
  z <- rep(NA_integer_, nrow(x))
  geo <- cvqe_geometry(start)
  for (i in seq_len(nrow(x))) {
    known <- !is.na(z)
    keep <- (pairs$i == i & known[pairs$j]) | (pairs$j == i & known[pairs$i])
    sub <- lapply(pairs, `[`, keep)
    z[i] <- which.min(cvqe_point_costs(x, z, start, sub, i, geo))
  }
  expect_identical(fit$cluster, z)
  # the prototype step repeats TR-09-12's update until it stops moving
  m <- start
  for (round in 1:1000) m <- cvqe_prototypes_r(x, z, m, pairs)
  expect_equal(fit$centers, m, tolerance = 1e-10, ignore_attr = TRUE)
})

test_that("must-links join separated groups and weighted cannot-links split tight ones", {
  d <- cvqe_blobs(10, sd = 0.3, seed = 1)
  x <- d$x
  n <- nrow(x)
  start <- x[c(1, 11, 21), ]
  # k-means with k = 2 joins group 1 with group 2 or 3; must-links between
  # the two farthest groups, 2 and 3 (pairs (i, i + 10)), join those instead
  km <- cvqe(x, NULL, k = 2, restarts = 5)
  expect_false(km$cluster[11] == km$cluster[21])
  must <- cbind(11:20, 21:30)
  fit <- cvqe(x, constraints(must = must, n = n), k = 2, restarts = 5)
  expect_equal(length(unique(fit$cluster[11:30])), 1)
  expect_equal(length(unique(fit$cluster[1:10])), 1)
  expect_equal(nrow(violations(fit)), 0)
  # cannot-links from point 21 to the rest of its tight group 3 with full
  # confidence separate it from them ...
  cannot <- cbind(21, 22:30)
  strong <- cvqe(x, constraints(cannot = cannot, n = n), start = start)
  expect_equal(nrow(violations(strong)), 0)
  expect_identical(strong$cluster[-21], d$y[-21])
  # ... and with a small confidence the data win
  weak <- cvqe(x, constraints(cannot = cannot, n = n, confidence = 0.01), start = start)
  expect_identical(weak$cluster, d$y)
  expect_equal(nrow(violations(weak)), 9)
  # same for a weak must-link across groups
  weak_must <- cvqe(x, constraints(must = rbind(c(1, 25)), n = n, confidence = 0.01),
                    start = start)
  expect_identical(weak_must$cluster, d$y)
})

test_that("set.seed reproduces fits; init, start and methods work", {
  x <- scale(iris[, 1:4])
  set.seed(2)
  side <- sample_constraints(iris$Species, "nelson_cohen", n_constraints = 40)
  set.seed(10)
  a <- cvqe(x, side, k = 3)
  set.seed(10)
  b <- cvqe(x, side, k = 3)
  expect_identical(a, b)
  expect_s3_class(a, c("cvqe", "sideclust"))
  expect_identical(a$init, "kmeans++")
  expect_identical(a$restarts, 10L)
  set.seed(10)
  r <- cvqe(x, side, k = 3, init = "random", restarts = 2)
  expect_identical(r$init, "random")
  expect_setequal(unique(r$cluster), 1:3)
  # partial labels are expanded into pairs
  labels <- rep(NA, 150)
  labels[c(1, 2, 51, 52, 101)] <- c(1, 1, 2, 2, 3)
  lab <- cvqe(x, labels, k = 3, restarts = 2)
  expect_s3_class(lab$side, "sideclust_constraints")
  expect_length(lab$side$i, 10)
  expect_error(cvqe(x, labels, k = 3, max_pairs = 5), "max_pairs")
  # shared methods
  expect_output(print(a), "CVQE clustering of 150 points into 3 clusters")
  expect_output(print(summary(a)), "CVQE")
  expect_identical(fitted(a), a$cluster)
  expect_identical(nobs(a), 150L)
  p <- predict(a, x[1:20, ])
  expect_identical(p$cluster, a$cluster[1:20])
  expect_error(predict(a, x[, 1:2]), "newdata")
  # verbose prints one line per iteration
  expect_message(cvqe(x, k = 2, restarts = 1, verbose = TRUE), "iteration")
})

test_that("empty clusters are dropped and the rest renumbered", {
  x <- rbind(matrix(0, 5, 2), matrix(1, 5, 2)) + rep(c(0, 0.01), each = 5)
  x[, 2] <- x[, 2] + seq(0, 0.04, length.out = 10)
  start <- rbind(c(0, 0), c(50, 50), c(1, 1))
  fit <- cvqe(x, NULL, start = start)
  expect_identical(fit$k, 2L)
  expect_identical(sort(unique(fit$cluster)), 1:2)
  expect_identical(dim(fit$centers), c(2L, 2L))
  ref <- cvqe_objective_r(x, fit$cluster, fit$centers, cvqe_pairs(NULL))
  expect_equal(utils::tail(fit$objective, 1), ref[["objective"]])
})

test_that("bad input gives errors that name the argument", {
  x <- scale(iris[, 1:4])
  expect_error(cvqe(x), "`k` is missing")
  expect_error(cvqe(x, k = 0), "`k`")
  expect_error(cvqe(x, k = 2.5), "`k`")
  expect_error(cvqe(matrix(c(1, 1, 2, 2), 4, 1), k = 3), "`k`.*distinct")
  expect_error(cvqe(x, k = 2, restarts = 0), "`restarts`")
  expect_error(cvqe(x, k = 2, max_iter = -1), "`max_iter`")
  expect_error(cvqe(x, k = 2, init = "foo"), "`init`")
  expect_error(cvqe(x, k = 2, verbose = NA), "`verbose`")
  expect_error(cvqe(x, k = 2, start = x[1:3, ]), "`start`")
  expect_error(cvqe(x, k = 3, start = x[1:3, 1:2]), "`start`")
  bad <- x
  bad[4, 2] <- NA
  expect_error(cvqe(bad, k = 2), "`x`.*NA")
  expect_error(cvqe(iris, k = 2), "`x`")
  expect_error(cvqe(x, constraints(must = rbind(c(1, 2)), n = 10), k = 2), "`side`")
  expect_error(cvqe(x, "a", k = 2), "`side`")
  # max_iter reached: a warning naming max_iter
  expect_warning(fit <- cvqe(x, k = 3, max_iter = 1, restarts = 1), "max_iter")
  expect_false(fit$converged)
})

test_that("cvqe is at least as good as k-means on iris with constraints; conclust runs", {
  skip_if_not_installed("conclust")
  x <- scale(iris[, 1:4])
  y <- iris$Species
  set.seed(21)
  side <- sample_constraints(y, "nelson_cohen", n_constraints = 30, confidence_shape = 1e6)
  fit <- cvqe(x, side, k = 3)
  km <- stats::kmeans(x, 3, nstart = 10)
  nmi_cvqe <- nmi(y, fit$cluster)
  nmi_km <- nmi(y, km$cluster)
  expect_gte(nmi_cvqe, nmi_km - 0.05)
  pm <- conclust_pairs(side)
  ref <- conclust::lcvqe(x, 3, pm$must, pm$cannot, maxIter = 10)
  expect_length(ref, 150)
  expect_true(all(ref %in% 1:3))
  expect_length(fit$cluster, 150)
})

test_that("seeds are distinct points even with many duplicated rows; k may come from start", {
  x <- rbind(matrix(0, 20, 2), matrix(1, 3, 2), matrix(c(5, 0), 2, 2, byrow = TRUE))
  for (init in c("kmeans++", "random")) {
    set.seed(4)
    fit <- cvqe(x, k = 3, init = init, restarts = 5)
    expect_identical(fit$k, 3L)
    expect_setequal(fit$size, c(20L, 3L, 2L))
    expect_equal(fit$within, 0)
  }
  start <- rbind(c(0, 0), c(5, 0))
  fit <- cvqe(x, start = start)
  expect_identical(fit$k, 2L)
  expect_error(cvqe(x, k = 3, start = start), "`start`")
})
