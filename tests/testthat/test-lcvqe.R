test_that("without side information (or with negligible weights) lcvqe() is Lloyd's k-means", {
  x <- scale(iris[, 1:4])
  set.seed(3)
  start <- x[sample(nrow(x), 3), ]
  km <- stats::kmeans(x, centers = start, algorithm = "Lloyd", iter.max = 100)
  # constraints() takes confidences in (0, 1]: 1e-300 stands for weight 0
  weightless <- constraints(must = rbind(c(1, 51), c(2, 101)), cannot = rbind(c(1, 2), c(60, 70)),
                            n = nrow(x), confidence = 1e-300)
  for (side in list(NULL, constraints(n = nrow(x)), weightless)) {
    for (order in c("random", "data")) {
      fit <- lcvqe(x, side, start = start, order = order)
      expect_identical(unname(fit$cluster), unname(km$cluster))
      expect_equal(unname(fit$centers), unname(km$centers), tolerance = 1e-8)
      expect_equal(colnames(fit$centers), colnames(x))
      expect_equal(fit$within, km$tot.withinss / 2, tolerance = 1e-8)
      expect_equal(fit$penalty, 0)
      expect_true(fit$converged)
    }
  }
  d <- cvqe_blobs(15, sd = 1.5, seed = 4)
  start <- d$x[c(1, 2, 16, 31, 32), ]
  km <- stats::kmeans(d$x, centers = start, algorithm = "Lloyd", iter.max = 100)
  fit <- lcvqe(d$x, NULL, k = 5, start = start)
  expect_identical(unname(fit$cluster), unname(km$cluster))
  expect_equal(unname(fit$centers), unname(km$centers), tolerance = 1e-8)
})

test_that("L never increases, equals its R recomputation, and the fit is a fixed point", {
  d <- cvqe_blobs(10, sd = 1.3, seed = 2)
  x <- d$x
  set.seed(5)
  side <- sample_constraints(d$y, "nelson_cohen", n_constraints = 40, noise = 0.25)
  pairs <- cvqe_pairs(side)
  for (k in 1:4) for (order in c("random", "data")) for (groups in c(FALSE, TRUE)) {
    set.seed(k)
    fit <- lcvqe(x, side, k = k, restarts = 3, order = order, group_moves = groups)
    expect_true(fit$converged)
    m <- fit$centers
    ref <- lcvqe_objective_r(x, fit$cluster, m, pairs)
    expect_equal(utils::tail(fit$objective, 1), ref[["objective"]], tolerance = 1e-10)
    expect_equal(fit$within, ref[["within"]], tolerance = 1e-10)
    expect_equal(fit$penalty, ref[["penalty"]], tolerance = 1e-10)
    expect_true(all(diff(fit$objective) <= 1e-10 * fit$objective[1]))
    # no single point and no must-link component can move and lower L at the
    # final centres ...
    expect_gte(lcvqe_best_move(x, fit$cluster, m, pairs), ref[["objective"]] - 1e-10)
    if (groups) expect_identical(lcvqe_component_pass(x, fit$cluster, m, pairs), fit$cluster)
    # ... and the centres are the exact minimizer for that assignment
    expect_equal(lcvqe_centres_r(x, fit$cluster, m, pairs), m, tolerance = 1e-9,
                 ignore_attr = TRUE)
    if (k > 1) expect_gt(fit$penalty, 0)
    if (k == 1) expect_equal(fit$penalty, 0)  # one cluster: cannot-links cost 0
  }
})

test_that("every number of clusters and of coordinates takes a sweep that gives the same L and local optimum", {
  # The core specializes its sweep: two clusters per instruction for k = 2
  # .. 6 (with a padding lane when k is odd), four distances per instruction
  # where the processor has AVX (k >= 4), one cluster at a time otherwise.
  # Each form must give the L of the R recomputation and a fixed point.
  for (p in c(1L, 3L, 13L)) {
    set.seed(40 + p)
    n <- 90
    y <- rep(1:6, length.out = n)
    x <- matrix(stats::rnorm(n * p), n, p) + 3 * y
    side <- sample_constraints(y, "nelson_cohen", n_constraints = 80, noise = 0.2)
    side$confidence <- stats::runif(length(side$i), 0.3, 1)
    pairs <- cvqe_pairs(side)
    for (k in c(2:8, 11)) {
      set.seed(k)
      fit <- lcvqe(x, side, k = k, restarts = 2)
      m <- fit$centers
      ref <- lcvqe_objective_r(x, fit$cluster, m, pairs)
      expect_equal(utils::tail(fit$objective, 1), ref[["objective"]], tolerance = 1e-10)
      expect_true(all(diff(fit$objective) <= 1e-10 * fit$objective[1]))
      expect_gte(lcvqe_best_move(x, fit$cluster, m, pairs), ref[["objective"]] - 1e-10)
    }
  }
})

test_that("restarts reach the brute-force minimum of L on tiny inputs", {
  # three cannot-links among points 1-3 and k = 2: every assignment breaks
  # one, so the optimum pays a penalty and the alternatives matter
  x <- rbind(c(0, 0), c(0.2, 0.1), c(0.1, 0.5), c(3, 0.2), c(3.3, 0.6), c(1.5, 2.6))
  side <- constraints(must = rbind(c(1, 4), c(5, 6)), cannot = rbind(c(1, 2), c(2, 3), c(1, 3)),
                      n = 6, confidence = c(0.5, 0.3, 1, 0.8, 0.6))
  pairs <- cvqe_pairs(side)
  for (k in 2:3) {
    best <- lcvqe_brute_force(x, pairs, k)
    for (groups in c(FALSE, TRUE)) {
      set.seed(20 + k)
      fit <- lcvqe(x, side, k = k, restarts = 50, init = "random", group_moves = groups)
      ref <- lcvqe_objective_r(x, fit$cluster, fit$centers, pairs)
      expect_equal(utils::tail(fit$objective, 1), ref[["objective"]], tolerance = 1e-10)
      expect_equal(c(fit$within, fit$penalty), unname(ref[c("within", "penalty")]), tolerance = 1e-10)
      expect_equal(ref[["objective"]], best$objective, tolerance = 1e-10)
      expect_gt(fit$penalty, 0)
      expect_gte(lcvqe_best_move(x, fit$cluster, fit$centers, pairs), ref[["objective"]] - 1e-10)
      expect_equal(lcvqe_centres_r(x, fit$cluster, fit$centers, pairs), fit$centers,
                   tolerance = 1e-9, ignore_attr = TRUE)
      # every single run reports its own L and none beats the minimum
      for (s in 1:10) {
        set.seed(s)
        one <- lcvqe(x, side, k = k, restarts = 1, init = "random", group_moves = groups)
        l1 <- lcvqe_objective_r(x, one$cluster, one$centers, pairs)[["objective"]]
        expect_equal(utils::tail(one$objective, 1), l1, tolerance = 1e-10)
        expect_gte(l1, best$objective - 1e-10)
      }
    }
  }
})

test_that("one iteration is one ICM sweep, component moves and the exact centre update", {
  d <- cvqe_blobs(6, sd = 1.5, seed = 9)
  x <- d$x
  side <- constraints(must = rbind(c(1, 7), c(8, 14)), cannot = rbind(c(2, 3), c(13, 15)),
                      n = nrow(x), confidence = c(1, 0.5, 0.9, 0.7))
  pairs <- cvqe_pairs(side)
  start <- x[c(1, 7, 13), ]
  fit <- suppressWarnings(lcvqe(x, side, start = start, max_iter = 1, order = "data",
                                group_moves = TRUE))
  points_only <- suppressWarnings(lcvqe(x, side, start = start, max_iter = 1, order = "data"))
  # R: visit in row order; partners not yet assigned are ignored
  z <- rep(NA_integer_, nrow(x))
  for (i in seq_len(nrow(x))) {
    cost <- 0.5 * lcvqe_d2(x, i, start)
    for (l in seq_along(pairs$i)) {
      if (pairs$i[l] != i && pairs$j[l] != i) next
      o <- if (pairs$i[l] == i) pairs$j[l] else pairs$i[l]
      if (is.na(z[o])) next
      for (j in 1:3) {
        if (pairs$must[l] && j != z[o]) {
          cost[j] <- cost[j] + pairs$w[l] / 2 * (sum((x[i, ] - start[z[o], ])^2) +
                                                   sum((x[o, ] - start[j, ])^2))
        } else if (!pairs$must[l] && j == z[o]) {
          cost[j] <- cost[j] + pairs$w[l] / 2 * lcvqe_alternative(x, i, o, j, start)$d
        }
      }
    }
    z[i] <- which.min(cost)
  }
  expect_identical(unname(points_only$cluster), z)
  z <- lcvqe_component_pass(x, z, start, pairs)
  expect_identical(unname(fit$cluster), z)
  expect_equal(fit$centers, lcvqe_centres_r(x, z, start, pairs), tolerance = 1e-10,
               ignore_attr = TRUE)
})

test_that("confidences weight the penalties", {
  d <- cvqe_blobs(10, sd = 0.3, seed = 1)
  x <- d$x
  n <- nrow(x)
  start <- x[c(1, 11, 21), ]
  # must-links between the two farthest groups join them with k = 2 (in row
  # order, so that each pair's second point meets its partner assigned:
  # single-point moves cannot carry a must-linked pair out of a local optimum
  # that splits both groups alike)
  must <- cbind(11:20, 21:30)
  two <- x[c(1, 11), ]
  km <- lcvqe(x, NULL, start = two)
  expect_false(km$cluster[11] == km$cluster[21])
  fit <- lcvqe(x, constraints(must = must, n = n), start = two, order = "data")
  expect_equal(length(unique(fit$cluster[11:30])), 1)
  expect_equal(length(unique(fit$cluster[1:10])), 1)
  expect_equal(nrow(violations(fit)), 0)
  # cannot-links from point 21 to the rest of its tight group: strong ones
  # move it out, weak ones do not
  cannot <- cbind(21, 22:30)
  strong <- lcvqe(x, constraints(cannot = cannot, n = n), start = start)
  expect_equal(nrow(violations(strong)), 0)
  expect_identical(unname(strong$cluster[-21]), d$y[-21])
  weak <- lcvqe(x, constraints(cannot = cannot, n = n, confidence = 0.01), start = start)
  expect_identical(unname(weak$cluster), d$y)
  expect_equal(nrow(violations(weak)), 9)
  # the penalty scales with the confidences while nothing moves
  w1 <- lcvqe(x, constraints(cannot = cannot, n = n, confidence = 0.01), start = start)
  w2 <- lcvqe(x, constraints(cannot = cannot, n = n, confidence = 0.02), start = start)
  expect_identical(w1$cluster, w2$cluster)
  expect_gt(w2$penalty, w1$penalty)
})

test_that("set.seed reproduces fits; init, order and the shared methods work", {
  x <- scale(iris[, 1:4])
  set.seed(2)
  side <- sample_constraints(iris$Species, "nelson_cohen", n_constraints = 40, noise = 0.1)
  set.seed(10)
  a <- lcvqe(x, side, k = 3)
  set.seed(10)
  b <- lcvqe(x, side, k = 3)
  expect_identical(a, b)
  expect_s3_class(a, c("lcvqe", "sideclust"))
  expect_identical(a$restarts, 10L)
  expect_identical(a$init, "kmeans++")
  start <- x[c(1, 51, 101), ]
  expect_identical(lcvqe(x, side, start = start, order = "data"),
                   lcvqe(x, side, start = start, order = "data"))
  set.seed(10)
  r <- lcvqe(x, side, k = 3, init = "random", restarts = 2)
  expect_identical(r$init, "random")
  expect_output(print(a), "LCVQE clustering of 150 points into 3 clusters")
  expect_output(print(summary(a)), "LCVQE")
  p <- predict(a, x[1:20, ])
  expect_equal(p$cost[1, ], colSums((t(a$centers) - x[1, ])^2), ignore_attr = TRUE)
  expect_error(predict(a, x[, 1:2]), "newdata")
  msgs <- capture_messages(lcvqe(x, k = 2, restarts = 1, verbose = TRUE))
  expect_match(msgs, "iteration")
  labels <- rep(NA, 150)
  labels[c(1, 2, 51, 52, 101)] <- c(1, 1, 2, 2, 3)
  lab <- lcvqe(x, labels, k = 3, restarts = 2)
  expect_length(lab$side$i, 10)
  expect_error(lcvqe(x, labels, k = 3, max_pairs = 5), "max_pairs")
})

test_that("empty clusters are dropped and the rest renumbered", {
  x <- rbind(matrix(0, 5, 2), matrix(1, 5, 2))
  x[, 2] <- x[, 2] + seq(0, 0.04, length.out = 10)
  start <- rbind(c(0, 0), c(50, 50), c(1, 1))
  fit <- lcvqe(x, constraints(cannot = rbind(c(1, 2)), n = 10), start = start)
  expect_identical(fit$k, 2L)
  expect_identical(dim(fit$centers), c(2L, 2L))
  ref <- lcvqe_objective_r(x, fit$cluster, fit$centers, cvqe_pairs(fit$side))
  expect_equal(utils::tail(fit$objective, 1), ref[["objective"]])
})

test_that("bad input gives errors that name the argument", {
  x <- scale(iris[, 1:4])
  expect_error(lcvqe(x), "`k` is missing")
  expect_error(lcvqe(x, k = 151), "`k`")
  expect_error(lcvqe(x, k = 2, restarts = 0), "`restarts`")
  expect_error(lcvqe(x, k = 2, max_iter = 0), "`max_iter`")
  expect_error(lcvqe(x, k = 2, init = "foo"), "`init`")
  expect_error(lcvqe(x, k = 2, order = 1), "`order`")
  expect_error(lcvqe(x, k = 2, verbose = "yes"), "`verbose`")
  expect_error(lcvqe(x, k = 3, start = x[1:2, ]), "`start`")
  expect_error(lcvqe(iris, k = 2), "`x`")
  expect_error(lcvqe(x, "a", k = 2), "`side`")
  expect_warning(fit <- lcvqe(x, k = 3, max_iter = 1, restarts = 1), "max_iter")
  expect_false(fit$converged)
})

test_that("lcvqe finds conclust::lcvqe's stored partition on separated blobs", {
  fx <- read_fixture("conclust-lcvqe")
  set.seed(7)
  fit <- lcvqe(fx$input$x, fixture_side(fx$input), k = 3)
  expect_equal(ari(fx$output$cluster, fit$cluster), 1)
  expect_equal(ari(fx$input$y, fit$cluster), 1)
})

test_that("conclust::lcvqe finds the same partition on separated blobs", {
  skip_if_not_installed("conclust")
  d <- cvqe_blobs(15, sd = 0.4, seed = 6)
  set.seed(7)
  side <- sample_constraints(d$y, "nelson_cohen", n_constraints = 20)
  pm <- conclust_pairs(side)
  fit <- lcvqe(d$x, side, k = 3)
  set.seed(7)
  ref <- conclust::lcvqe(d$x, 3, pm$must, pm$cannot)
  expect_equal(ari(ref, fit$cluster), 1)
  expect_equal(ari(d$y, fit$cluster), 1)
})

test_that("each iteration's L, from cluster sums carried along by the moves, equals L recomputed when the fit stops there", {
  d <- cvqe_blobs(12, sd = 1.5, seed = 4)
  set.seed(6)
  side <- sample_constraints(d$y, "nelson_cohen", n_constraints = 50, noise = 0.3)
  start <- d$x[c(1, 2, 3), ]
  for (groups in c(FALSE, TRUE)) {
    set.seed(2)
    whole <- lcvqe(d$x, side, k = 3, start = start, max_iter = 20, group_moves = groups)
    expect_gt(whole$iterations, 2)
    for (t in seq_len(whole$iterations - 1L)) {
      set.seed(2)
      part <- suppressWarnings(lcvqe(d$x, side, k = 3, start = start, max_iter = t, group_moves = groups))
      expect_equal(whole$objective[seq_len(t)], part$objective, tolerance = 1e-10)
    }
  }
})
