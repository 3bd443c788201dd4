test_that("objective, counts and gradient match plain R and finite differences", {
  x <- scale(iris[, 1:4])
  set.seed(1)
  y <- as.integer(iris$Species)
  y[sample(150, 40)] <- NA
  for (setting in list(list(sigma = 0.7, n0 = 1.5, k = 3), list(sigma = 2, n0 = 0.3, k = 4),
                       list(sigma = 0.4, n0 = 5, k = 2))) {
    m <- x[sample(150, setting$k), ] + matrix(stats::rnorm(setting$k * 4, 0, 0.2), setting$k)
    core <- dc_core_objective(x, y, m, setting$sigma, setting$n0)
    w <- dc_memberships_r(x, m, setting$sigma)
    expect_equal(core$counts, dc_counts_r(w, y, 3), tolerance = 1e-10)
    expect_equal(core$objective, dc_objective_r(x, y, m, setting$sigma, setting$n0),
                 tolerance = 1e-10)
    num <- dc_numeric_gradient(x, y, m, setting$sigma, setting$n0)
    expect_lt(max(abs(core$gradient - num)), 1e-6 * max(1, max(abs(num))))
  }
})

test_that("the log Bayes factor equals the ratio of marginal likelihoods by integration", {
  # two classes: each cluster's p(y = 1 | c) ~ Beta(n0, n0), integrated numerically
  # (fractional soft counts included)
  tab <- rbind(c(3.2, 0.7), c(1.1, 4.5), c(0.4, 2.1))
  n0 <- 1.7
  log_ml <- function(a, b) {
    log(stats::integrate(function(t) t^a * (1 - t)^b * stats::dbeta(t, n0, n0), 0, 1,
                         rel.tol = 1e-12)$value)
  }
  by_rows <- sum(apply(tab, 1, function(r) log_ml(r[1], r[2])))
  shared <- log_ml(sum(tab[, 1]), sum(tab[, 2]))
  expect_equal(dc_table_bf_r(tab, n0), by_rows - shared, tolerance = 1e-8)
  # and the C++ objective scores that table when the memberships are (almost) hard:
  # points at three well-separated locations, prototypes on them
  loc <- c(0, 10, 20)
  x <- matrix(rep(loc, times = c(4, 6, 3)), ncol = 1)
  y <- c(1, 1, 1, 2, 1, 2, 2, 2, 2, 2, 1, 2, 2)
  hard <- table(factor(rep(1:3, times = c(4, 6, 3))), y)
  core <- dc_core_objective(x, y, matrix(loc), sigma = 0.5, n0 = n0)
  expect_equal(core$objective, dc_table_bf_r(unclass(hard), n0), tolerance = 1e-10)
  # one cluster, or one class, scores exactly 0
  expect_equal(dc_core_objective(x, y, matrix(5), 1, n0)$objective, 0)
  expect_equal(dc_core_objective(x, rep(1, 13), matrix(loc), 1, n0)$objective, 0)
})

test_that("the fit's final objective, counts and memberships agree with plain R", {
  x <- scale(iris[, 1:4])
  set.seed(2)
  labels <- iris$Species
  labels[sample(150, 60)] <- NA
  fit <- discriminative_clustering(x, labels, k = 3, restarts = 2, sigma = 0.8, n0 = 2)
  y <- as.integer(labels)
  expect_equal(utils::tail(fit$objective, 1), dc_objective_r(x, y, fit$centers, 0.8, 2),
               tolerance = 1e-8)
  w <- dc_memberships_r(x, fit$centers, 0.8)
  expect_equal(unname(fit$membership), w, tolerance = 1e-8)
  expect_identical(fit$cluster, max.col(w, ties.method = "first"))
  expect_equal(unname(fit$counts), dc_counts_r(w, y, 3), tolerance = 1e-8)
  expect_equal(unname(fit$class_distributions),
               unname((fit$counts + 2) / (rowSums(fit$counts) + 3 * 2)))
  expect_equal(unname(rowSums(fit$class_distributions)), rep(1, 3))
  expect_equal(unname(fit$contingency[, "unlabelled"]), tabulate(fit$cluster[is.na(y)], 3))
  expect_equal(sum(fit$contingency[, 1:3]), 90)
  expect_length(fit$objective, fit$iterations + 1L)
  expect_equal(fit$size, tabulate(fit$cluster, 3))
  expect_equal(colnames(fit$centers), colnames(x))
})

test_that("the objective trace never decreases and the end is a stationary point", {
  x <- scale(iris[, 1:4])
  for (seed in 1:4) {
    set.seed(seed)
    labels <- iris$Species
    labels[sample(150, 75)] <- NA
    fit <- discriminative_clustering(x, labels, k = 3 + seed %% 2, restarts = 1)
    expect_true(all(diff(fit$objective) > 0))
    expect_true(fit$converged)
  }
  # a run that stops by the gradient rule: the gradient recomputed in R vanishes
  set.seed(3)
  y <- as.integer(iris$Species)
  fit <- discriminative_clustering(x, y, k = 3, sigma = 1, restarts = 1, tol = 1e-8,
                                   rel_tol = 0)
  expect_identical(fit$convergence, "gradient")
  num <- dc_numeric_gradient(x, y, fit$centers, 1, 1)
  start_grad <- dc_numeric_gradient(x, y, x[c(1, 51, 101), ], 1, 1)
  expect_lt(max(abs(num)), 1e-4)
  expect_lt(max(abs(num)), 1e-5 * max(abs(start_grad)))
  expect_lte(fit$gradient_max * fit$sigma / 150, 1e-8)
  # no small move of one prototype coordinate raises the objective
  base <- dc_objective_r(x, y, fit$centers, 1, 1)
  best <- -Inf
  for (a in seq_along(fit$centers)) for (h in c(-1e-3, 1e-3)) {
    m <- fit$centers
    m[a] <- m[a] + h
    best <- max(best, dc_objective_r(x, y, m, 1, 1))
  }
  expect_lte(best, base + 1e-8)
})

test_that("on tiny data the fit finds the best partition of an exhaustive search", {
  # 1-d data with k = 2: the nearest-prototype partitions are the splits into
  # two intervals; enumerate all 2^7 labelings and keep those
  x <- matrix(c(0, 0.4, 1.1, 3, 3.6, 4.2, 5.1), ncol = 1)
  y <- c(1, 1, 2, 1, 2, 2, 2)
  all_z <- as.matrix(expand.grid(rep(list(1:2), 7)))
  interval <- apply(all_z, 1, function(z) sum(diff(z) != 0) <= 1)
  score <- apply(all_z, 1, function(z) {
    dc_table_bf_r(unclass(table(factor(z, levels = 1:2), factor(y, levels = 1:2))), 1)
  })
  score[!interval] <- -Inf
  best <- unname(all_z[which.max(score), ])
  expect_identical(best == best[1], rep(c(TRUE, FALSE), c(4, 3)))
  set.seed(1)
  fit <- discriminative_clustering(x, y, k = 2, sigma = 0.5, restarts = 5)
  expect_identical(fit$cluster == fit$cluster[1], best == best[1])
  # the boundary sharpens: the objective approaches the hard optimum
  expect_equal(utils::tail(fit$objective, 1), max(score), tolerance = 1e-4)
  expect_lt(utils::tail(fit$objective, 1), max(score))
})

test_that("memberships become hard nearest-prototype assignments as sigma -> 0", {
  x <- scale(iris[, 1:4])
  set.seed(4)
  fit <- discriminative_clustering(x, iris$Species, k = 3, restarts = 2)
  d2 <- sapply(1:3, function(c) colSums((t(x) - fit$centers[c, ])^2))
  nearest <- max.col(-d2, ties.method = "first")
  gap <- vapply(seq_len(150), function(i) diff(sort(d2[i, ]))[1], numeric(1))
  soft <- fit
  for (sigma in c(0.3, 0.03, 0.003)) {
    soft$sigma <- sigma
    pred <- predict(soft, x)
    expect_identical(pred$cluster, nearest)
    expect_equal(unname(rowSums(pred$probability)), rep(1, 150))
    # the largest membership is 1 up to exp(-gap / (2 sigma^2)) per other cluster
    off <- 1 - pred$probability[cbind(1:150, nearest)]
    expect_true(all(off <= 2 * exp(-gap / (2 * sigma^2)) + 1e-15))
  }
  expect_equal(unname(predict(soft, x)$probability), diag(3)[nearest, ], tolerance = 1e-12)
  # predict on the training data reproduces the fit
  pred <- predict(fit, x)
  expect_equal(pred$probability, fit$membership, ignore_attr = TRUE, tolerance = 1e-12)
  expect_identical(unname(pred$cluster), fit$cluster)
})

test_that("soft memberships are `membership` in the fit and `probability` in predict(), as in ib_kmeans()", {
  x <- scale(iris[, 1:4])
  set.seed(5)
  fit <- discriminative_clustering(x, iris$Species, k = 3, restarts = 1)
  # exact names: `$` would match a field `memberships` partially
  expect_true("membership" %in% names(fit))
  expect_false("memberships" %in% names(fit))
  expect_identical(dim(fit$membership), c(150L, 3L))
  pred <- predict(fit, x[1:5, ])
  expect_named(pred, c("cluster", "probability"))
  expect_named(predict(ib_kmeans(x, k = 3, beta = Inf, restarts = 1), x[1:5, ]),
               names(pred))
  expect_output(print(fit), "\"membership\"")
})

test_that("the planted split: k-means follows the variance, discriminative clustering the classes", {
  d <- dc_planted(200, seed = 1)
  set.seed(1)
  km <- stats::kmeans(d$x, 2, nstart = 5)
  expect_lt(nmi(d$y, km$cluster), 0.1)
  # fit on half the labels, judge on the held-out half
  labels <- d$y
  labels[sample(200, 100)] <- NA
  labelled <- !is.na(labels)
  fit <- discriminative_clustering(d$x[labelled, ], labels[labelled], k = 2, restarts = 3)
  expect_gt(nmi(d$y[labelled], fit$cluster), 0.7)
  pred <- predict(fit, d$x[!labelled, ])
  expect_gt(nmi(d$y[!labelled], pred$cluster), 0.7)
  # the boundary is across the signal coordinate: prototypes differ mostly there
  delta <- abs(fit$centers[1, ] - fit$centers[2, ])
  expect_gt(delta[["signal"]], 5 * delta[["noise"]])
  # unlabelled points in the data change nothing but their own memberships
  set.seed(5)
  start <- d$x[c(3, 8), ]
  only <- discriminative_clustering(d$x[labelled, ], labels[labelled], start = start,
                                    sigma = 1)
  with_unl <- discriminative_clustering(d$x, labels, start = start, sigma = 1)
  expect_equal(with_unl$centers, only$centers, tolerance = 1e-6)  # rounding only
  expect_equal(with_unl$objective, only$objective, tolerance = 1e-10)
  expect_identical(with_unl$cluster[labelled], only$cluster)
})

test_that("labels without information leave the prototypes at their start", {
  x <- scale(iris[, 1:4])
  start <- x[c(1, 51, 101), ]
  one_class <- rep("a", 150)
  one_class[1:20] <- NA
  for (labels in list(one_class, rep(NA, 150), factor(rep(NA, 150), levels = c("a", "b")))) {
    expect_warning(fit <- discriminative_clustering(x, labels, start = start),
                   "labels in `side` carry no information")
    expect_equal(fit$objective, 0)
    expect_identical(fit$iterations, 0L)
    expect_true(fit$converged)
    expect_equal(fit$centers, start, ignore_attr = TRUE)
    # the clusters are then the nearest-start-prototype (Voronoi) cells
    d2 <- sapply(1:3, function(c) colSums((t(x) - start[c, ])^2))
    expect_identical(fit$cluster, max.col(-d2, ties.method = "first"))
  }
  # with seeds drawn: the k-means++ seeds themselves, reproducibly
  set.seed(9)
  a <- suppressWarnings(discriminative_clustering(x, one_class, k = 3, restarts = 2))
  expect_true(all(apply(a$centers, 1, function(m) any(colSums(abs(t(x) - m)) == 0))))
  # k = 1 always scores 0, without a warning
  one <- discriminative_clustering(x, iris$Species, k = 1)
  expect_equal(one$objective, 0)
  expect_identical(one$cluster, rep(1L, 150))
})

test_that("labels: factors, characters, sample_labels() objects and unused classes", {
  x <- scale(iris[, 1:4])
  start <- x[c(1, 51, 101), ]
  a <- discriminative_clustering(x, iris$Species, start = start)
  b <- discriminative_clustering(x, as.character(iris$Species), start = start)
  c <- discriminative_clustering(x, factor(iris$Species, levels = c("none", levels(iris$Species))),
                                 start = start)
  expect_equal(b$objective, a$objective)
  expect_equal(c$objective, a$objective)
  expect_identical(colnames(c$counts), levels(iris$Species))
  set.seed(3)
  side <- sample_labels(iris$Species, fraction = 0.5)
  d <- discriminative_clustering(x, side, start = start)
  e <- discriminative_clustering(x, factor(side$levels[side$labels], levels = side$levels),
                                 start = start)
  expect_equal(d$objective, e$objective)
  expect_s3_class(d$side, "sideclust_labels")
})

test_that("set.seed reproduces the fit and restarts keep the best run", {
  x <- scale(iris[, 1:4])
  set.seed(11)
  labels <- sample_labels(iris$Species, fraction = 0.4)
  set.seed(12)
  a <- discriminative_clustering(x, labels, k = 4, restarts = 3)
  set.seed(12)
  b <- discriminative_clustering(x, labels, k = 4, restarts = 3)
  expect_identical(a, b)
  # every restart runs on its own stream (R/parallel.R's run_streams())
  set.seed(101)
  streams <- sideclust:::run_streams(3L)
  state <- sideclust:::save_rng()
  finals <- vapply(streams, function(s) {
    assign(".Random.seed", s, envir = globalenv())
    utils::tail(discriminative_clustering(x, labels, k = 4, restarts = 1)$objective, 1)
  }, numeric(1))
  sideclust:::restore_rng(state)
  set.seed(101)
  best <- discriminative_clustering(x, labels, k = 4, restarts = 3)
  expect_equal(utils::tail(best$objective, 1), max(finals))
  r <- discriminative_clustering(x, labels, k = 3, init = "random", restarts = 1)
  expect_identical(r$init, "random")
})

test_that("print, summary and the I(C;Y) they report", {
  x <- scale(iris[, 1:4])
  set.seed(6)
  labels <- sample_labels(iris$Species, fraction = 0.6)
  fit <- discriminative_clustering(x, labels, k = 3, restarts = 2)
  expect_output(print(fit), "Discriminative clustering of 150 points \\(90 labelled, 3 classes\\)")
  expect_output(print(fit), "Available components")
  s <- summary(fit)
  lab <- !is.na(labels$labels)
  ref <- mi_plain(unclass(table(fit$cluster[lab], labels$labels[lab])))
  expect_equal(s$mutual_information, ref)
  expect_output(print(s), "Class distributions")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off(), add = TRUE)
  expect_identical(plot(fit, x), fit)  # the shared plot: clusters, labelled points ringed
  expect_identical(fitted(fit), fit$cluster)
  expect_identical(nobs(fit), 150L)
  saved <- unserialize(serialize(fit, NULL))
  expect_identical(saved, fit)
})

test_that("print and summary show no prototype coordinates, which can lie far outside the data", {
  x <- scale(iris[, 1:4])
  set.seed(1)
  labels <- sample_labels(iris$Species, fraction = 0.3)
  fit <- discriminative_clustering(x, labels, k = 3, restarts = 3)
  # the documented drift: prototypes far outside the data, cluster means inside
  expect_gt(max(abs(fit$centers)), 3 * max(abs(x)))
  means <- rowsum(x, fit$cluster) / fit$size
  expect_true(all(abs(means) <= max(abs(x))))
  for (out in list(capture.output(print(fit)), capture.output(print(summary(fit))))) {
    out <- paste(out, collapse = "\n")
    expect_no_match(out, paste(colnames(x), collapse = "|"))
    expect_no_match(out, format(fit$centers[1, 1], digits = 4), fixed = TRUE)
  }
})

test_that("bad input gives errors that name the argument", {
  x <- scale(iris[, 1:4])
  y <- iris$Species
  expect_error(discriminative_clustering(x, k = 3), "`side` is missing")
  expect_error(discriminative_clustering(x, NULL, k = 3), "`side` is missing")
  expect_error(discriminative_clustering(x, y[-1], k = 3), "`side`")
  expect_error(discriminative_clustering(x, constraints(must = rbind(c(1, 2)), n = 150), k = 3),
               "`side` must be partial labels")
  expect_error(discriminative_clustering(x, list(1), k = 3), "`side`")
  expect_error(discriminative_clustering(x, y), "`k` is missing")
  expect_error(discriminative_clustering(x, y, k = 0), "`k`")
  expect_error(discriminative_clustering(x, y, k = 2.5), "`k`")
  expect_error(discriminative_clustering(matrix(c(1, 1, 2, 2), 4, 1), 1:4, k = 3),
               "`k`.*distinct")
  expect_error(discriminative_clustering(x, y, k = 3, sigma = 0), "`sigma`")
  expect_error(discriminative_clustering(x, y, k = 3, sigma = -1), "`sigma`")
  expect_error(discriminative_clustering(x, y, k = 3, sigma = c(1, 2)), "`sigma`")
  expect_error(discriminative_clustering(x, y, k = 3, n0 = 0), "`n0`")
  expect_error(discriminative_clustering(x, y, k = 3, n0 = Inf), "`n0`")
  expect_error(discriminative_clustering(x, y, k = 3, restarts = 0), "`restarts`")
  expect_error(discriminative_clustering(x, y, k = 3, max_iter = 0), "`max_iter`")
  expect_error(discriminative_clustering(x, y, k = 3, tol = 0), "`tol`")
  expect_error(discriminative_clustering(x, y, k = 3, rel_tol = -1), "`rel_tol`")
  expect_error(discriminative_clustering(x, y, k = 3, init = "foo"), "`init`")
  expect_error(discriminative_clustering(x, y, k = 3, verbose = NA), "`verbose`")
  expect_error(discriminative_clustering(x, y, k = 2, start = x[1:3, ]), "`start`")
  expect_error(discriminative_clustering(x, y, start = x[1:3, 1:2]), "`start`")
  bad <- x
  bad[4, 2] <- NA
  expect_error(discriminative_clustering(bad, y, k = 3), "`x`.*NA")
  expect_error(discriminative_clustering(iris, y, k = 3), "`x`")
  fit <- discriminative_clustering(x, y, k = 2, restarts = 1)
  expect_identical(predict(fit)$cluster, fit$cluster)
  expect_error(predict(fit, x[, 1:2]), "`newdata`")
  expect_warning(discriminative_clustering(x, y, k = 3, max_iter = 1, restarts = 1),
                 "did not converge")
})

test_that("the stochastic approximation follows TR-09-12's steps 1-3 exactly", {
  d <- dc_planted(30, seed = 3)
  y <- d$y
  y[c(2, 9, 17)] <- NA
  start <- d$x[c(1, 4, 6), ]
  set.seed(21)
  fit <- discriminative_clustering(d$x, y, start = start, method = "stochastic", sigma = 1.2,
                                   n0 = 0.5, epochs = 3, step = 0.2)
  set.seed(21)
  ref <- dc_stochastic_r(d$x, y, start, sigma = 1.2, n0 = 0.5, epochs = 3, step = 0.2)
  expect_equal(fit$centers, ref$centers, tolerance = 1e-10, ignore_attr = TRUE)
  softmax <- exp(ref$gamma) / rowSums(exp(ref$gamma))
  expect_equal(unname(fit$class_distributions), softmax, tolerance = 1e-10)
  # the updates keep every row of gamma summing to 0 (TR-09-12's free constant)
  expect_equal(rowSums(ref$gamma), rep(0, 3), tolerance = 1e-12)
  expect_equal(unname(rowMeans(log(fit$class_distributions))),
               -log(rowSums(exp(ref$gamma))), tolerance = 1e-10)
  # objective: mean over labelled points of sum_c W_c log p(y | c), per epoch
  w <- dc_memberships_r(d$x, fit$centers, 1.2)
  lab <- !is.na(y)
  ll <- mean(rowSums(w[lab, ] * t(log(fit$class_distributions))[y[lab], ]))
  expect_equal(utils::tail(fit$objective, 1), ll, tolerance = 1e-10)
  expect_length(fit$objective, 4L)
  expect_identical(fit$iterations, 3L)
  expect_true(is.na(fit$converged))
  expect_identical(fit$convergence, "schedule")
  expect_equal(fit$log_bayes_factor, dc_objective_r(d$x, y, fit$centers, 1.2, 0.5),
               tolerance = 1e-10)
})

test_that("the stochastic approximation finds the class-relevant split and is reproducible", {
  d <- dc_planted(200, seed = 1)
  set.seed(4)
  a <- discriminative_clustering(d$x, d$y, k = 2, method = "stochastic", restarts = 3)
  expect_gt(nmi(d$y, a$cluster), 0.8)
  expect_equal(unname(rowSums(a$class_distributions)), c(1, 1))
  set.seed(4)
  b <- discriminative_clustering(d$x, d$y, k = 2, method = "stochastic", restarts = 3)
  expect_identical(a, b)
  x <- scale(iris[, 1:4])
  set.seed(5)
  fit <- discriminative_clustering(x, iris$Species, k = 3, method = "stochastic", restarts = 3)
  expect_gt(nmi(iris$Species, fit$cluster), 0.75)
  expect_gt(utils::tail(fit$objective, 1), fit$objective[1])
  expect_output(print(fit), "Stochastic approximation: 50 epochs")
  expect_output(print(summary(fit)), "stochastic approximation")
  # labels without information: the prototypes do not move
  start <- x[c(1, 51, 101), ]
  expect_warning(one <- discriminative_clustering(x, rep(1, 150), start = start,
                                                  method = "stochastic", epochs = 2),
                 "labels in `side` carry no information")
  expect_equal(one$centers, start, ignore_attr = TRUE)
  expect_error(discriminative_clustering(x, iris$Species, k = 3, method = "sgd"), "`method`")
  expect_error(discriminative_clustering(x, iris$Species, k = 3, epochs = 0), "`epochs`")
  expect_error(discriminative_clustering(x, iris$Species, k = 3, step = 0), "`step`")
})
