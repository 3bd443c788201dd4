test_that("objective, block means and informations equal plain-R recomputations", {
  d <- mw_planted(c(12, 9, 6), c(3, 2, 2), sd = 1.5, seed = 2)
  counts <- matrix(stats::rpois(15 * 11, 4), 15, 11)
  w3 <- array(stats::runif(length(d$x)), dim(d$x))
  w3[sample(length(w3), 20)] <- 0
  cases <- list(list(x = d$x, k = c(3, 2, 2), div = "euclidean", w = NULL),
                list(x = d$x, k = c(2, 3, 2), div = "euclidean", w = w3),
                list(x = counts, k = c(3, 2), div = "idivergence", w = NULL),
                list(x = abs(d$x), k = c(3, 2, 2), div = "idivergence", w = w3))
  for (case in cases) {
    set.seed(4)
    fit <- multiway_clustering(case$x, case$k, case$div, weights = case$w, restarts = 3)
    ref <- mw_blocks(case$x, fit$clusters, fit$k, case$w)
    expect_equal(fit$block_means, ref$means, tolerance = 1e-10)
    expect_equal(fit$block_weight, ref$weight, tolerance = 1e-10)
    b <- mw_objective(case$x, fit$clusters, fit$k, case$div, case$w)
    expect_equal(utils::tail(fit$objective, 1), b, tolerance = 1e-10)
    expect_equal(fit$info_data, mw_info(case$x, case$div, case$w), tolerance = 1e-10)
    # (50): B = I(Z) - I(C)
    expect_equal(fit$info_data - fit$info_approx, b, tolerance = 1e-8)
    # never increases
    expect_true(all(diff(fit$objective) <= 1e-12 * fit$info_data))
    expect_length(fit$objective, fit$iterations + 1L)
    expect_equal(min(fit$restart_objective), utils::tail(fit$objective, 1))
    expect_identical(fit$cluster, fit$clusters[[1]])
    expect_identical(fit$weighted, !is.null(case$w))
  }
})

test_that("the objective never increases from any start and the trace is recomputable", {
  d <- mw_planted(c(10, 8, 7), c(3, 3, 2), sd = 3, seed = 5)
  for (seed in 1:5) {
    set.seed(seed)
    start <- list(sample(1:3, 10, TRUE), sample(1:3, 8, TRUE), sample(1:2, 7, TRUE))
    fit <- multiway_clustering(d$x, c(3, 3, 2), start = start, restarts = 1)
    expect_equal(fit$objective[1], mw_objective(d$x, start, c(3, 3, 2), "euclidean"),
                 tolerance = 1e-10)
    expect_true(all(diff(fit$objective) <= 1e-12))
  }
})

test_that("the final state is a fixed point: no single move lowers B at the fitted C", {
  d <- mw_planted(c(9, 8, 6), c(3, 2, 2), sd = 2.5, seed = 7)
  counts <- array(stats::rpois(9 * 8 * 6, 3), c(9, 8, 6))
  for (case in list(list(x = d$x, div = "euclidean"), list(x = counts, div = "idivergence"))) {
    for (k in list(c(3, 2, 2), c(2, 3, 3))) {
      set.seed(sum(k))
      fit <- multiway_clustering(case$x, k, case$div, restarts = 2)
      expect_true(fit$converged)
      base <- mw_objective(case$x, fit$clusters, fit$k, case$div)
      for (l in 1:3) {
        cost <- mw_entity_costs(case$x, fit$clusters, fit$k, case$div, l, fit$block_means)
        current <- cost[cbind(seq_len(nrow(cost)), fit$clusters[[l]])]
        expect_equal(sum(current), base, tolerance = 1e-10)
        expect_true(all(current <= apply(cost, 1, min) + 1e-12))
      }
    }
  }
})

test_that("restarts reach the exhaustive optimum on tiny 2-way and 3-way inputs", {
  set.seed(11)
  x2 <- matrix(stats::rnorm(16), 4, 4) + outer(c(0, 0, 2, 2), c(0, 1, 0, 1))
  x3 <- array(stats::rnorm(36), c(4, 3, 3))
  c2 <- matrix(stats::rpois(16, 3), 4, 4) + 1
  c3 <- array(stats::rpois(36, 2), c(4, 3, 3))
  cases <- list(list(x = x2, k = c(2, 2), div = "euclidean"),
                list(x = x3, k = c(2, 2, 2), div = "euclidean"),
                list(x = c2, k = c(2, 3), div = "idivergence"),
                list(x = c3, k = c(2, 2, 2), div = "idivergence"))
  for (case in cases) {
    best <- mw_brute_force(case$x, case$k, case$div)
    # 100 random starts: on the 3-way I-divergence case one start in 15 to 30
    # reaches the optimum, so 30 starts miss it about once in five seeds
    set.seed(1)
    fit <- multiway_clustering(case$x, case$k, case$div, restarts = 100, init = "random")
    expect_equal(utils::tail(fit$objective, 1), best, tolerance = 1e-10)
    expect_true(all(fit$restart_objective >= best - 1e-12))
    seeded <- multiway_clustering(case$x, case$k, case$div, restarts = 10)
    expect_true(all(seeded$restart_objective >= best - 1e-12))
  }
})

test_that("with the I-divergence on a joint with uniform marginals it is itcc()", {
  set.seed(3)
  truth_r <- rep(1:3, 5)
  truth_c <- rep(1:2, 6)
  rates <- matrix(c(1, 6, 3, 5, 1, 4), 3, 2)
  a <- matrix(stats::rgamma(15 * 12, 2), 15, 12) * rates[truth_r, truth_c]
  p <- mw_balanced_joint(a)
  expect_equal(rowSums(p), rep(1 / 15, 15), tolerance = 1e-12)
  n_cells <- length(p)
  for (seed in 1:4) {
    set.seed(seed)
    start <- list(rows = sample(rep_len(1:3, 15)), cols = sample(rep_len(1:2, 12)))
    it <- itcc(p, k_rows = 3, k_cols = 2, restarts = 1, start = start, tol = 0)
    mw <- multiway_clustering(p, c(3, 2), "idivergence", restarts = 1,
                              start = list(start$rows, start$cols))
    expect_equal(ari(it$cluster, mw$cluster), 1)
    expect_equal(ari(it$col_cluster, mw$clusters[[2]]), 1)
    expect_equal(n_cells * utils::tail(mw$objective, 1), it$loss, tolerance = 1e-9)
    # the same steps: ITCC's loss after each row + column half-step pair
    steps <- min(length(mw$objective), (length(it$loss_trace) + 1) / 2)
    expect_equal(n_cells * mw$objective[seq_len(steps)],
                 it$loss_trace[2 * seq_len(steps) - 1], tolerance = 1e-9)
  }
})

test_that("squared Euclidean with singleton clusters elsewhere is k-means (Lloyd)", {
  x <- scale(as.matrix(iris[, 1:4]))
  for (seed in 1:3) {
    set.seed(seed)
    s <- sample(rep_len(1:3, nrow(x)))
    km <- stats::kmeans(x, centers = rowsum(x, s) / tabulate(s), algorithm = "Lloyd",
                        iter.max = 100)
    fit <- multiway_clustering(x, k = c(3, 4), start = list(s, 1:4), restarts = 1)
    # the fit numbers clusters by first appearance, kmeans() by its centers
    order_seen <- unique(km$cluster)
    expect_identical(unname(fit$cluster), match(km$cluster, order_seen))
    expect_identical(unname(fit$clusters[[2]]), 1:4)
    expect_equal(length(x) * utils::tail(fit$objective, 1), km$tot.withinss, tolerance = 1e-10)
    expect_equal(fit$block_means, unname(km$centers)[order_seen, ], tolerance = 1e-10)
  }
  # a 3-way array: k-means of the first dimension's slices (its unfolding)
  d <- mw_planted(c(40, 3, 2), c(4, 3, 2), sd = 2, seed = 8)
  set.seed(9)
  s <- sample(rep_len(1:4, 40))
  unfolded <- matrix(d$x, 40)
  km <- stats::kmeans(unfolded, centers = rowsum(unfolded, s) / tabulate(s),
                      algorithm = "Lloyd", iter.max = 100)
  fit <- multiway_clustering(d$x, k = c(4, 3, 2), start = list(s, 1:3, 1:2), restarts = 1)
  order_seen <- unique(km$cluster)
  expect_identical(unname(fit$cluster), match(km$cluster, order_seen))
  expect_equal(length(d$x) * utils::tail(fit$objective, 1), km$tot.withinss, tolerance = 1e-10)
  expect_equal(matrix(fit$block_means, 4), unname(km$centers)[order_seen, ], tolerance = 1e-10)
})

test_that("both starts give valid fits; k-means++ seeds keep singleton dimensions apart", {
  d <- mw_planted(c(14, 10, 6), c(3, 2, 2), sd = 2, seed = 21)
  for (init in c("kmeans++", "random")) {
    set.seed(3)
    fit <- multiway_clustering(d$x, c(3, 2, 2), init = init, restarts = 4)
    expect_identical(fit$init, init)
    expect_equal(utils::tail(fit$objective, 1),
                 mw_objective(d$x, fit$clusters, fit$k, "euclidean"), tolerance = 1e-10)
    expect_true(all(diff(fit$objective) <= 1e-12))
  }
  x <- scale(as.matrix(iris[, 1:4]))
  set.seed(4)
  fit <- multiway_clustering(x, k = c(3, 4), restarts = 3)
  expect_setequal(fit$clusters[[2]], 1:4)
  # a fixed point of Lloyd's k-means on the rows
  km <- stats::kmeans(x, centers = fit$block_means[, fit$clusters[[2]]], algorithm = "Lloyd")
  expect_identical(unname(km$cluster), unname(fit$cluster))
  expect_equal(unname(km$centers), fit$block_means[, fit$clusters[[2]]], tolerance = 1e-10)
})

test_that("vector-valued cells are a further dimension kept in singleton clusters", {
  d <- mw_planted(c(20, 12, 3), c(2, 3, 3), sd = 1, seed = 33)
  set.seed(8)
  fit <- multiway_clustering(d$x, k = c(2, 3, 3), restarts = 3)
  expect_identical(sort(unname(fit$clusters[[3]])), 1:3)
  expect_equal(unname(mapply(ari, d$truth[1:2], fit$clusters[1:2])), c(1, 1))
  # B sums the components' divergences: the mean over the three relations
  per_relation <- vapply(1:3, function(r) {
    mw_objective(d$x[, , r], fit$clusters[1:2], fit$k[1:2], "euclidean",
                 means = fit$block_means[, , fit$clusters[[3]][r]])
  }, numeric(1))
  expect_equal(utils::tail(fit$objective, 1), mean(per_relation), tolerance = 1e-10)
})

test_that("planted 3-way blocks are recovered", {
  d <- mw_planted(c(30, 24, 16), c(3, 4, 2), sd = 1, spread = 3, seed = 12)
  set.seed(1)
  fit <- multiway_clustering(d$x, k = c(3, 4, 2), restarts = 10)
  expect_equal(unname(mapply(ari, d$truth, fit$clusters)), c(1, 1, 1))
  # counts with block rates from 4 to about 60
  rates <- 4 * (1 + (d$means - min(d$means))^1.5)
  counts <- array(stats::rpois(length(d$x), rates[mw_cell_blocks(d$truth, c(3, 4, 2))]), dim(d$x))
  set.seed(1)
  fit_i <- multiway_clustering(counts, k = c(3, 4, 2), "idivergence", restarts = 20)
  expect_equal(unname(mapply(ari, d$truth, fit_i$clusters)), c(1, 1, 1))
})

test_that("fits are reproducible under set.seed and keep the best restart", {
  d <- mw_planted(c(15, 12, 5), c(3, 3, 2), sd = 3, seed = 13)
  set.seed(42)
  a <- multiway_clustering(d$x, c(3, 3, 2), restarts = 4)
  set.seed(42)
  b <- multiway_clustering(d$x, c(3, 3, 2), restarts = 4)
  a$call <- b$call <- NULL
  expect_identical(a, b)
  expect_length(a$restart_objective, 4)
  expect_equal(utils::tail(a$objective, 1), min(a$restart_objective))
})

test_that("weights: uniform ones change nothing, zero-weight cells are ignored", {
  d <- mw_planted(c(10, 8, 6), c(2, 2, 2), sd = 1, seed = 14)
  set.seed(5)
  plain <- multiway_clustering(d$x, c(2, 2, 2), restarts = 3)
  set.seed(5)
  ones <- multiway_clustering(d$x, c(2, 2, 2), weights = array(7, dim(d$x)), restarts = 3)
  expect_identical(ones$clusters, plain$clusters)
  expect_equal(ones$objective, plain$objective, tolerance = 1e-12)
  w <- array(1, dim(d$x))
  w[c(3, 50, 200)] <- 0
  y <- d$x
  y[c(3, 50, 200)] <- c(1e6, -1e6, 123)
  set.seed(6)
  a <- multiway_clustering(d$x, c(2, 2, 2), weights = w, restarts = 3)
  set.seed(6)
  b <- multiway_clustering(y, c(2, 2, 2), weights = w, restarts = 3)
  expect_identical(a$clusters, b$clusters)
  expect_equal(a$objective, b$objective, tolerance = 1e-12)
  # an entity without any weight: the fit is still the plain-R one
  w[2, , ] <- 0
  for (div in c("euclidean", "idivergence")) {
    z <- if (div == "euclidean") d$x else abs(d$x)
    set.seed(7)
    fit <- multiway_clustering(z, c(2, 2, 2), div, weights = w, restarts = 3)
    expect_equal(utils::tail(fit$objective, 1),
                 mw_objective(z, fit$clusters, fit$k, div, w), tolerance = 1e-10)
    expect_true(all(diff(fit$objective) <= 1e-12))
  }
})

test_that("empty clusters are dropped, k = 1 and dimnames are kept", {
  x <- matrix(c(1, 1.1, 5, 5.2, 9, 9.1), 6, 4) + rep(c(0, 0.1, 0.2, 0.3), each = 6)
  dimnames(x) <- list(genes = letters[1:6], samples = LETTERS[1:4])
  fit <- multiway_clustering(x, k = c(3, 2), start = list(c(1, 1, 2, 2, 2, 2), c(1, 1, 2, 2)),
                             restarts = 1)
  expect_identical(fit$k, c(2L, 2L))
  expect_identical(fit$k_requested, c(3L, 2L))
  expect_identical(dim(fit$block_means), c(2L, 2L))
  expect_named(fit$clusters, c("genes", "samples"))
  expect_named(fit$cluster, letters[1:6])
  one <- multiway_clustering(x, k = c(1, 1))
  expect_equal(utils::tail(one$objective, 1), mean((x - mean(x))^2))
  expect_equal(one$info_approx, 0)
})

test_that("print, summary and plot work and name the fields", {
  set.seed(2)
  x <- matrix(stats::rnorm(30 * 20), 30, 20) + 3 * outer(rep(1:3, 10), rep(1:2, 10))
  fit <- multiway_clustering(x, k = c(3, 2), restarts = 2)
  expect_output(print(fit), "Available components")
  expect_output(print(fit), "Bregman information kept")
  s <- summary(fit)
  expect_s3_class(s, "summary.multiway_clustering")
  expect_output(print(s), "Dimension 2 cluster sizes")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(plot(fit, x), fit)
  expect_error(plot(fit, data = NULL), "`data` is missing")
  expect_error(plot(fit, x[-1, ]), "data")
  three <- multiway_clustering(array(stats::rnorm(60), c(5, 4, 3)), k = c(2, 2, 2))
  expect_error(plot(three, x), "`x` clusters a 3-way array")
  expect_identical(fitted(fit), fit$cluster)
  expect_identical(nobs(fit), 30L)
})

test_that("clusters are numbered by first appearance, the block arrays permuted alike", {
  # a planted fixed point given with its labels in reverse order comes back
  # renumbered, with its blocks permuted, and nothing else changes
  d <- mw_planted(c(12, 9, 8), c(3, 3, 2), sd = 0.2, seed = 12)
  k <- c(3, 3, 2)
  start <- lapply(seq_along(k), function(l) k[l] + 1L - d$truth[[l]])
  fit <- multiway_clustering(d$x, k, start = start, restarts = 1)
  expect_identical(fit$iterations, 1L)
  expect_identical(unname(fit$clusters), lapply(start, mw_first_seen))
  perm <- lapply(start, unique)  # start's cluster behind each new number
  ref <- mw_blocks(d$x, start, k)
  expect_equal(fit$block_means, do.call(`[`, c(list(ref$means), perm)), tolerance = 1e-12)
  expect_equal(fit$block_weight, do.call(`[`, c(list(ref$weight), perm)), tolerance = 1e-12)
  expect_equal(fit$objective, rep(mw_objective(d$x, start, k, "euclidean"), 2),
               tolerance = 1e-12)
  # any fit: the first entity of every dimension in cluster 1, labels in
  # increasing order of first appearance; B recomputed from the fit's own
  # clusters and block means; predict() returns every dimension's clusters
  counts <- array(stats::rpois(length(d$x), exp(d$x / 3)), dim(d$x))
  w <- array(stats::runif(length(d$x)), dim(d$x))
  cases <- list(list(x = d$x, div = "euclidean", w = NULL, init = "kmeans++"),
                list(x = counts, div = "idivergence", w = NULL, init = "random"),
                list(x = d$x, div = "euclidean", w = w, init = "random"))
  for (case in cases) for (seed in 1:3) {
    set.seed(seed)
    fit <- multiway_clustering(case$x, c(3, 2, 2), case$div, weights = case$w,
                               init = case$init, restarts = 2)
    for (l in 1:3) {
      cl <- unname(fit$clusters[[l]])
      expect_identical(cl[1], 1L)
      expect_identical(cl, mw_first_seen(cl))
      expect_identical(sort(unique(cl)), seq_len(fit$k[l]))
    }
    expect_equal(utils::tail(fit$objective, 1),
                 mw_objective(case$x, fit$clusters, fit$k, case$div, case$w,
                              means = fit$block_means), tolerance = 1e-10)
    expect_equal(fit$block_weight, mw_blocks(case$x, fit$clusters, fit$k, case$w)$weight,
                 tolerance = 1e-12)
    if (is.null(case$w)) {
      for (l in 1:3) {
        expect_identical(predict(fit, case$x, dimension = l)$cluster,
                         unname(fit$clusters[[l]]))
      }
    }
  }
})

test_that("predict() gives the clustered entities their clusters and places new ones", {
  d <- mw_planted(c(24, 12, 8), c(3, 2, 2), sd = 1, seed = 31)
  counts <- array(stats::rpois(length(d$x), exp(d$x / 2)), dim(d$x))
  for (case in list(list(x = d$x + 1000, div = "euclidean"), list(x = counts, div = "idivergence"))) {
    set.seed(2)
    fit <- multiway_clustering(case$x, c(3, 2, 2), case$div, restarts = 3)
    for (l in 1:3) {
      p <- predict(fit, case$x, dimension = l)
      expect_identical(p$cluster, unname(fit$clusters[[l]]))
      cost <- mw_entity_costs(case$x, fit$clusters, fit$k, case$div, l, fit$block_means)
      expect_equal(p$cost[cbind(seq_along(p$cluster), p$cluster)], length(case$x) * cost[cbind(seq_along(p$cluster), p$cluster)],
                   tolerance = 1e-8)
    }
  }
  # new rows of a planted matrix
  set.seed(5)
  truth <- rep(1:2, 30)
  x <- matrix(stats::rnorm(60 * 10), 60, 10) + 3 * outer(truth, rep(c(1, -1), 5))
  fit <- multiway_clustering(x[1:40, ], c(2, 2), restarts = 3)
  p <- predict(fit, x[41:60, ])
  expect_equal(ari(p$cluster, truth[41:60]), 1)
  expect_equal(predict(fit, x[41, ])$cluster, p$cluster[1])
  expect_identical(dim(predict(fit)$cost), c(40L, 2L))
  expect_error(predict(fit, x[1:3, 1:4]), "`newdata` must have the dimensions")
  expect_error(predict(fit, x, dimension = 3), "`dimension`")
  fit_i <- multiway_clustering(abs(x), c(2, 2), "idivergence")
  expect_error(predict(fit_i, -abs(x)), "`newdata` has negative")
})

test_that("a run stopped by max_iter warns", {
  d <- mw_planted(c(20, 15, 6), c(3, 3, 2), sd = 2, seed = 15)
  set.seed(1)
  expect_warning(fit <- multiway_clustering(d$x, c(3, 3, 2), restarts = 1, max_iter = 1,
                                            init = "random"),
                 "max_iter")
  expect_false(fit$converged)
})

test_that("bad input gives errors that name the argument", {
  x <- array(stats::rnorm(24), c(4, 3, 2))
  expect_error(multiway_clustering(1:5, 2), "`x`")
  expect_error(multiway_clustering(array(1:5, 5), 2), "`x` .*1-d")
  expect_error(multiway_clustering(letters, 2), "`x`")
  expect_error(multiway_clustering(matrix(letters[1:4], 2), c(1, 1)), "`x` must be numeric")
  expect_error(multiway_clustering(array("a", c(2, 2, 2)), c(1, 1, 1)), "`x` must be numeric")
  y <- x
  y[5] <- NA
  expect_error(multiway_clustering(y, c(2, 2, 2)), "`x` has 1 NA")
  m <- matrix(1, 3, 3)
  m[2, 2] <- Inf
  expect_error(multiway_clustering(m, c(2, 2)), "`x` has")
  expect_error(multiway_clustering(x, c(2, 2, 2), "idivergence"), "`x` has .* negative")
  expect_error(multiway_clustering(array(0, c(3, 3, 2)), c(2, 2, 1), "idivergence"),
               "`x` has no positive")
  expect_error(multiway_clustering(array(0, c(0, 3, 2)), c(1, 1, 1)), "`x` has a dimension")
  expect_error(multiway_clustering(x), "`k` is missing")
  expect_error(multiway_clustering(x, c(2, 2)), "`k` must be 3 whole numbers")
  expect_error(multiway_clustering(x, c(2, 2.5, 1)), "`k`")
  expect_error(multiway_clustering(x, c(2, 4, 1)), "`k` must be between .* dimension 2")
  expect_error(multiway_clustering(x, c(0, 1, 1)), "`k`")
  expect_error(multiway_clustering(matrix(0, 20000, 2), c(10000, 1)), "`k` gives dimension 1")
  expect_error(multiway_clustering(x, c(2, 2, 2), "kl"), "`divergence`")
  expect_error(multiway_clustering(x, c(2, 2, 2), weights = array(1, c(4, 3))), "`weights`")
  expect_error(multiway_clustering(x, c(2, 2, 2), weights = array(-1, dim(x))),
               "`weights` must be finite and non-negative")
  expect_error(multiway_clustering(x, c(2, 2, 2), weights = array(NA_real_, dim(x))),
               "`weights`")
  expect_error(multiway_clustering(x, c(2, 2, 2), weights = array(0, dim(x))),
               "`weights` are all zero")
  expect_error(multiway_clustering(abs(x) * c(0, 1), c(2, 2, 2), "idivergence",
                                   weights = array(c(1, 0), dim(x))), "`x` has no positive")
  expect_error(multiway_clustering(x, c(2, 2, 2), restarts = 0), "`restarts`")
  expect_error(multiway_clustering(x, c(2, 2, 2), max_iter = 1.5), "`max_iter`")
  expect_error(multiway_clustering(x, c(2, 2, 2), verbose = NA), "`verbose`")
  expect_error(multiway_clustering(x, c(2, 2, 2), init = "kmeans"), "`init`")
  expect_error(multiway_clustering(x, c(2, 2, 2), start = 1:4), "`start` must be NULL or a list")
  expect_error(multiway_clustering(x, c(2, 2, 2), start = list(1:4, 1:3)), "`start`")
  expect_error(multiway_clustering(x, c(2, 2, 2), start = list(c(1, 2, 1, 2), 1:3, 1:2)),
               "`start\\[\\[2\\]\\]` must be 3 integers in 1..2")
  expect_error(multiway_clustering(x, c(2, 2, 2), start = list(c(1, 2, 1), c(1, 2, 1), 1:2)),
               "`start\\[\\[1\\]\\]`")
})

test_that("verbose reports one message per iteration", {
  d <- mw_planted(c(8, 6, 4), c(2, 2, 2), sd = 1, seed = 16)
  set.seed(1)
  out <- capture.output(fit <- multiway_clustering(d$x, c(2, 2, 2), restarts = 1, verbose = TRUE),
                        type = "message")
  expect_length(out, fit$iterations)
  expect_match(out[1], "objective")
})
