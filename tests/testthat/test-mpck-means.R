test_that("PCK-means without side information is Lloyd's k-means", {
  x <- scale(iris[, 1:4])
  set.seed(3)
  start <- x[sample(nrow(x), 3), ]
  km <- stats::kmeans(x, centers = start, algorithm = "Lloyd", iter.max = 100)
  for (side in list(NULL, constraints(n = nrow(x)))) {
    for (fit in list(mpck_means(x, side, start = start, metric = "none"),
                     pck_means(x, side, start = start))) {
      expect_identical(unname(fit$cluster), unname(km$cluster))
      expect_equal(unname(fit$centers), unname(km$centers), tolerance = 1e-8)
      expect_equal(colnames(fit$centers), colnames(x))
      expect_equal(fit$within, km$tot.withinss, tolerance = 1e-8)
      expect_equal(utils::tail(fit$objective, 1), km$tot.withinss, tolerance = 1e-8)
      expect_equal(c(fit$penalty, fit$logdet, fit$regularization), c(0, 0, 0))
      expect_null(fit$metrics)
      expect_true(fit$converged)
      expect_identical(fit$init, "start")
      expect_identical(fit$metric, "none")
    }
  }
  # the neighbourhood seeding without must-links is k-means++
  set.seed(8)
  a <- mpck_means(x, k = 3, metric = "none", restarts = 2)
  set.seed(8)
  b <- mpck_means(x, k = 3, metric = "none", restarts = 2, init = "kmeans++")
  expect_identical(a$cluster, b$cluster)
})

test_that("the objective never increases and equals J recomputed in R, for each metric", {
  d <- mpck_blobs(12, seed = 4)
  x <- d$x
  for (metric in c("diagonal", "full", "none")) {
    for (s in 1:3) {
      set.seed(s)
      side <- sample_constraints(d$y, "nelson_cohen", n_constraints = 40, noise = 0.2,
                                 confidence_shape = 2)
      fit <- mpck_means(x, side, k = 3, metric = metric, restarts = 2, init = "random")
      expect_true(all(diff(fit$objective) <= 1e-9 * max(1, abs(fit$objective))), label = metric)
      expect_length(fit$objective, fit$iterations)
      ref <- mpck_objective_r(x, fit$cluster, fit$centers, mpck_metric_list(fit),
                              mpck_pairs(side), metric, fit$ridge)
      expect_equal(utils::tail(fit$objective, 1), ref[["objective"]], tolerance = 1e-9)
      expect_equal(c(fit$within, fit$logdet, fit$penalty, fit$regularization),
                   unname(ref[-1]), tolerance = 1e-9)
    }
  }
})

test_that("the final state is a local optimum with means as centres and exact metrics", {
  d <- mpck_blobs(8, seed = 2)
  x <- d$x
  n <- nrow(x)
  set.seed(5)
  side <- constraints(must = rbind(c(1, 9), c(2, 20), c(10, 18), c(3, 4)),
                      cannot = rbind(c(1, 2), c(9, 10), c(17, 24), c(5, 13)),
                      n = n, confidence = stats::runif(8, 0.2, 1))
  pairs <- mpck_pairs(side)
  for (metric in c("diagonal", "full", "none")) {
    for (k in 2:3) {
      set.seed(k)
      fit <- mpck_means(x, side, k = k, metric = metric, restarts = 2, ridge = 1e-3)
      expect_true(fit$converged)
      means <- t(vapply(seq_len(fit$k), function(h) colMeans(x[fit$cluster == h, , drop = FALSE]),
                        numeric(2)))
      expect_equal(unname(fit$centers), unname(means), tolerance = 1e-10)
      if (metric != "none") {
        expect_equal(mpck_metric_list(fit),
                     mpck_update_r(x, fit$cluster, fit$centers, pairs, metric, fit$ridge),
                     tolerance = 1e-8)
      }
      base <- mpck_objective_r(x, fit$cluster, fit$centers, mpck_metric_list(fit), pairs,
                               metric, fit$ridge)[["objective"]]
      expect_equal(utils::tail(fit$objective, 1), base, tolerance = 1e-9)
      expect_gte(mpck_best_move_r(x, fit, pairs), base - 1e-9 * abs(base))
    }
  }
})

test_that("PCK-means reaches the brute-force minimum on a tiny problem", {
  set.seed(7)
  x <- matrix(stats::rnorm(14), 7, 2)
  side <- constraints(must = rbind(c(1, 2), c(3, 7)), cannot = rbind(c(1, 4), c(5, 6)),
                      n = 7, confidence = c(0.5, 1, 0.8, 0.3))
  pairs <- mpck_pairs(side)
  labelings <- as.matrix(expand.grid(rep(list(1:2), 7)))
  eye <- list(diag(2), diag(2))
  obj <- apply(labelings, 1, function(z) {
    centers <- t(vapply(1:2, function(h) {
      if (any(z == h)) colMeans(x[z == h, , drop = FALSE]) else c(0, 0)
    }, numeric(2)))
    mpck_objective_r(x, z, centers, eye, pairs, "none", 0)[["objective"]]
  })
  set.seed(1)
  fit <- pck_means(x, side, k = 2, restarts = 50, init = "random")
  expect_equal(utils::tail(fit$objective, 1), min(obj), tolerance = 1e-10)
  best <- labelings[which.min(obj), ]
  expect_equal(ari(best, fit$cluster), 1)
})

test_that("confidences weight the penalties; a confidence near 0 is no constraint", {
  d <- mpck_blobs(10, seed = 6)
  x <- d$x
  n <- nrow(x)
  must <- rbind(c(1, 11), c(2, 12), c(21, 3))
  cannot <- rbind(c(1, 2), c(11, 13), c(22, 23))
  # constraints() takes confidences in (0, 1]; the core skips pairs of weight
  # 0, and a weight of 1e-12 changes no decision. (The neighbourhood seeding
  # counts every must-link, so both fits are seeded by k-means++.)
  zero <- constraints(must = must, cannot = cannot, n = n,
                      confidence = c(1, 1e-12, 1, 1e-12, 1, 1e-12))
  kept <- constraints(must = must[c(1, 3), ], cannot = cannot[2, , drop = FALSE], n = n)
  for (metric in c("diagonal", "full", "none")) {
    set.seed(3)
    a <- mpck_means(x, zero, k = 3, metric = metric, restarts = 2, init = "kmeans++")
    set.seed(3)
    b <- mpck_means(x, kept, k = 3, metric = metric, restarts = 2, init = "kmeans++")
    expect_identical(a$cluster, b$cluster)
    expect_equal(a$objective, b$objective, tolerance = 1e-9)
    expect_lt(abs(a$penalty - b$penalty), 1e-6)
  }
  # a strong cannot-link inside a tight group splits it, a weak one does not
  start <- x[c(1, 11, 21), ]
  cl <- cbind(21, 22:30)
  strong <- pck_means(x, constraints(cannot = cl, n = n, confidence = 1), start = start)
  weak <- pck_means(x, constraints(cannot = cl, n = n, confidence = 1e-4), start = start)
  expect_equal(nrow(violations(strong)), 0)
  expect_identical(unname(weak$cluster), d$y)
  # penalties scale with the confidences
  fit <- mpck_means(x, constraints(must = must, cannot = cannot, n = n, confidence = 0.25),
                    start = start, metric = "diagonal")
  one <- mpck_pairs(constraints(must = must, cannot = cannot, n = n))
  full <- mpck_objective_r(x, fit$cluster, fit$centers, mpck_metric_list(fit),
                           one, "diagonal", fit$ridge)
  expect_gt(fit$penalty, 0)
  expect_equal(fit$penalty, 0.25 * full[["penalty"]], tolerance = 1e-10)
})

test_that("must-link neighbourhoods seed the clusters and metrics adapt to the shapes", {
  d <- mpck_blobs(15, seed = 9)
  x <- d$x
  # chains of must-links inside each group: three neighbourhoods
  must <- do.call(rbind, lapply(0:2, function(g) cbind(g * 15 + 1:4, g * 15 + 2:5)))
  side <- constraints(must = must, n = nrow(x))
  set.seed(1)
  fit <- mpck_means(x, side, k = 3, restarts = 1)
  expect_identical(fit$init, "neighbourhoods")
  expect_equal(ari(d$y, fit$cluster), 1)
  # group 1 is stretched along a, group 2 along b: the diagonal metrics weigh
  # the stretched coordinate less
  a1 <- fit$metrics[fit$cluster[1], ]
  a2 <- fit$metrics[fit$cluster[16], ]
  expect_lt(a1[["a"]], a1[["b"]])
  expect_gt(a2[["a"]], a2[["b"]])
  # more neighbourhoods than clusters: farthest-first picks k of them
  set.seed(1)
  two <- mpck_means(x, side, k = 2, metric = "full", restarts = 1)
  expect_identical(two$k, 2L)
  expect_true(isSymmetric(unname(two$metrics[[1]])))
  expect_true(all(eigen(two$metrics[[1]])$values > 0))
})

test_that("predict() uses each cluster's metric and log-determinant", {
  d <- mpck_blobs(10, seed = 3)
  x <- d$x
  for (metric in c("diagonal", "full", "none")) {
    set.seed(2)
    fit <- mpck_means(x, k = 3, metric = metric, restarts = 2)
    pr <- predict(fit)
    expect_identical(pr$cluster, fit$cluster)
    metrics <- mpck_metric_list(fit)
    ref <- outer(seq_len(nrow(x)), seq_len(fit$k), Vectorize(function(i, h) {
      mpck_norm2(x[i, ] - fit$centers[h, ], metrics[[h]]) -
        if (metric == "none") 0 else as.numeric(determinant(metrics[[h]])$modulus)
    }))
    expect_equal(unname(pr$cost), ref, tolerance = 1e-10)
    expect_identical(predict(fit, x[1:5, ])$cluster, fit$cluster[1:5])
  }
  expect_error(predict(fit, x[, 1]), "newdata")
})

test_that("set.seed reproduces fits; methods and fields", {
  x <- scale(iris[, 1:4])
  set.seed(2)
  side <- sample_constraints(iris$Species, "nelson_cohen", n_constraints = 40)
  set.seed(10)
  a <- mpck_means(x, side, k = 3)
  set.seed(10)
  b <- mpck_means(x, side, k = 3)
  expect_identical(a, b)
  expect_s3_class(a, c("mpck_means", "sideclust"))
  expect_identical(a$restarts, 10L)
  expect_identical(dim(a$metrics), c(3L, 4L))
  expect_identical(colnames(a$metrics), colnames(x))
  expect_output(print(a), "MPCK-means clustering of 150 points into 3 clusters")
  set.seed(10)
  p <- pck_means(x, side, 3, restarts = 2)
  expect_s3_class(p, "mpck_means")
  expect_output(print(p), "PCK-means clustering")
  expect_identical(p$call[[1]], as.name("pck_means"))
  expect_output(print(summary(p)), "PCK-means")
  set.seed(10)
  f <- mpck_means(x, side, 3, metric = "full", restarts = 2)
  expect_length(f$metrics, 3)
  expect_identical(dimnames(f$metrics[[1]]), list(colnames(x), colnames(x)))
  # partial labels are expanded into pairs
  labels <- rep(NA, 150)
  labels[c(1, 2, 51, 52, 101)] <- c(1, 1, 2, 2, 3)
  lab <- mpck_means(x, labels, k = 3, restarts = 2)
  expect_length(lab$side$i, 10)
  expect_error(mpck_means(x, labels, k = 3, max_pairs = 5), "max_pairs")
  msgs <- capture_messages(mpck_means(x, k = 2, restarts = 1, verbose = TRUE))
  expect_match(msgs, "^iteration +[0-9]+: k = +2, objective = ")
})

test_that("empty clusters are dropped and the rest renumbered", {
  x <- rbind(matrix(0, 5, 2), matrix(1, 5, 2))
  x[, 2] <- x[, 2] + seq(0, 0.04, length.out = 10)
  start <- rbind(c(0, 0), c(50, 50), c(1, 1))
  for (metric in c("none", "diagonal")) {
    fit <- mpck_means(x, NULL, start = start, metric = metric)
    expect_identical(fit$k, 2L)
    expect_identical(sort(unique(fit$cluster)), 1:2)
    expect_identical(dim(fit$centers), c(2L, 2L))
    ref <- mpck_objective_r(x, fit$cluster, fit$centers, mpck_metric_list(fit),
                            mpck_pairs(NULL), metric, fit$ridge)
    expect_equal(utils::tail(fit$objective, 1), ref[["objective"]])
  }
})

test_that("bad input gives errors that name the argument", {
  x <- scale(iris[, 1:4])
  expect_error(mpck_means(x), "`k` is missing")
  expect_error(mpck_means(x, k = 0), "`k`")
  expect_error(mpck_means(x, k = 2.5), "`k`")
  expect_error(mpck_means(matrix(c(1, 1, 2, 2), 4, 1), k = 3), "`k`.*distinct")
  expect_error(mpck_means(x, k = 2, metric = "euclid"), "`metric`")
  expect_error(mpck_means(x, k = 2, metric = c("full", "none")), "`metric`")
  expect_error(mpck_means(x, k = 2, ridge = -1), "`ridge`")
  expect_error(mpck_means(x, k = 2, ridge = NA), "`ridge`")
  expect_error(mpck_means(x, k = 2, ridge = Inf), "`ridge`")
  expect_error(mpck_means(x, k = 2, restarts = 0), "`restarts`")
  expect_error(mpck_means(x, k = 2, max_iter = -1), "`max_iter`")
  expect_error(mpck_means(x, k = 2, init = "foo"), "`init`")
  expect_error(mpck_means(x, k = 2, verbose = NA), "`verbose`")
  expect_error(mpck_means(x, k = 2, start = x[1:3, ]), "`start`")
  expect_error(mpck_means(x, k = 3, start = x[1:3, 1:2]), "`start`")
  bad <- x
  bad[4, 2] <- NA
  expect_error(mpck_means(bad, k = 2), "`x`.*NA")
  expect_error(mpck_means(iris, k = 2), "`x`")
  expect_error(mpck_means(x, constraints(must = rbind(c(1, 2)), n = 10), k = 2), "`side`")
  expect_error(mpck_means(x, "a", k = 2), "`side`")
  expect_error(pck_means(x, k = 2, metric = "full"), "`metric`")
  expect_error(pck_means(x), "`k` is missing")
  expect_error(pck_means(x, k = 2, ridge = -1), "`ridge`")
  # without the ridge a constant column makes every metric singular
  for (metric in c("diagonal", "full")) {
    expect_error(mpck_means(cbind(x[, 1], 1), k = 2, metric = metric, ridge = 0, restarts = 1),
                 "singular; raise `ridge`")
  }
  expect_no_error(pck_means(cbind(x[, 1], 1), k = 2, ridge = 0, restarts = 1))
  expect_warning(fit <- mpck_means(x, k = 3, max_iter = 1, restarts = 1), "mpck_means.*max_iter")
  expect_false(fit$converged)
  expect_warning(pck_means(x, k = 3, max_iter = 1, restarts = 1), "pck_means.*max_iter")
})

test_that("mpck_means agrees with conclust's stored mpckm partition on well separated groups with consistent constraints", {
  fx <- read_fixture("conclust-mpckm")
  set.seed(4)
  fit <- mpck_means(fx$input$x, fixture_side(fx$input), k = 3)
  expect_equal(ari(fx$output$cluster, fit$cluster), 1)
})

test_that("conclust's mpckm agrees on well separated groups with consistent constraints", {
  skip_if_not_installed("conclust")
  d <- mpck_blobs(15, seed = 12)
  set.seed(4)
  side <- sample_constraints(d$y, "nelson_cohen", n_constraints = 20)
  pm <- conclust_pairs(side)
  ref <- conclust::mpckm(d$x, 3, pm$must, pm$cannot)
  fit <- mpck_means(d$x, side, k = 3)
  expect_equal(ari(ref, fit$cluster), 1)
})

test_that("each iteration's J, kept from the sweep's sums, equals J recomputed when the fit stops there", {
  # The sweeps add up the cluster sums (and the within part or per-coordinate
  # scatter) as they go; a fit stopped after t iterations recomputes its last
  # J from scratch, on the same trajectory (same seed, same start).
  d <- mpck_blobs(15, seed = 7)
  set.seed(3)
  side <- sample_constraints(d$y, "nelson_cohen", n_constraints = 60, noise = 0.25)
  start <- d$x[c(1, 2, 3), ]
  for (metric in c("none", "diagonal", "full")) {
    set.seed(11)
    whole <- mpck_means(d$x, side, k = 3, metric = metric, start = start, max_iter = 20)
    expect_gt(whole$iterations, 2, label = metric)
    for (t in seq_len(whole$iterations - 1L)) {
      set.seed(11)
      part <- suppressWarnings(mpck_means(d$x, side, k = 3, metric = metric, start = start, max_iter = t))
      expect_equal(whole$objective[seq_len(t)], part$objective, tolerance = 1e-10, label = metric)
    }
  }
})

test_that("MPCK-means gives the same fits without its cache of the pairs' differences", {
  # the cache is left out only when it would exceed 512 MiB; computing each
  # difference (or, for "diagonal", its squares) from x as the sweeps go
  # must give the same doubles, AVX form or not
  for (p in c(1L, 3L, 10L)) {
    case <- mpck_core_case(p, seed = 90 + p, n = 300, classes = 5, n_constraints = 250)
    for (k in c(3L, 5L)) for (metric in c("diagonal", "full")) for (avx in c(TRUE, FALSE)) {
      expect_identical(mpck_core_run(case, k, metric, list(use_avx = avx, pair_cache = FALSE)),
                       mpck_core_run(case, k, metric, list(use_avx = avx, pair_cache = TRUE)),
                       info = paste(p, k, metric, avx))
    }
  }
})

test_that("MPCK-means settles points without reading their pairs only where that is the sweep's own decision", {
  # with the diagonal metric a point whose own costs favour its cluster and
  # whose constraints all hold there stays without its pairs being read;
  # reading them for every point must give the same doubles
  for (p in c(1L, 3L, 10L)) {
    case <- mpck_core_case(p, seed = 130 + p, n = 300, classes = 5, n_constraints = 250)
    for (k in c(3L, 5L)) for (avx in c(TRUE, FALSE)) for (threads in 1:2) {
      extra <- list(use_avx = avx, threads = threads, chunk = 16L)
      expect_identical(mpck_core_run(case, k, "diagonal", c(extra, skip_unread = FALSE)),
                       mpck_core_run(case, k, "diagonal", c(extra, skip_unread = TRUE)),
                       info = paste(p, k, avx, threads))
    }
  }
  # ties: integer coordinates repeated many times (equal own costs), pairs
  # between the extreme points (norms equal to the diameter bound) and
  # weights from uneven confidences
  set.seed(140)
  n <- 240
  x <- matrix(as.numeric(sample(0:3, n * 2, replace = TRUE)), n, 2)
  y <- rep(1:3, length.out = n)
  drawn <- sample_constraints(y, "nelson_cohen", n_constraints = 200, noise = 0.2)
  lo <- which(x[, 1] == 0 & x[, 2] == 0)[1:3]
  hi <- which(x[, 1] == 3 & x[, 2] == 3)[1:3]
  pairs <- cbind(drawn$i, drawn$j)
  side <- constraints(must = pairs[drawn$must, ],
                      cannot = rbind(pairs[!drawn$must, ], cbind(lo, hi)), n = n,
                      confidence = c(stats::runif(length(drawn$i), 0.3, 1), rep(1, 3)))
  ties <- list(x = x, side = sideclust:::side_as_pairs(side, n, "side", 1e6))
  for (k in 2:4) {
    expect_identical(mpck_core_run(ties, k, "diagonal", list(skip_unread = FALSE)),
                     mpck_core_run(ties, k, "diagonal", list(skip_unread = TRUE)), info = k)
  }
})
