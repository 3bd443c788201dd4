# Split mode of cec() / cec_ib(): clusters split in two while the cost falls
# (split_criterion = "cost", CEC's rule) or while the BIC falls ("bic", the
# default).

# Four Gaussians in 2-D, n_each points each, labels y.
four_blobs <- function(n_each = 60, sep = 6, seed = 1) {
  set.seed(seed)
  centres <- rbind(c(0, 0), c(sep, 0), c(0, sep), c(sep, sep))
  y <- rep(1:4, each = n_each)
  x <- centres[y, ] + matrix(rnorm(2 * length(y)), ncol = 2) %*% matrix(c(1, 0.3, 0, 0.6), 2)
  list(x = x, y = y)
}

expect_history_monotone <- function(fit) {
  h <- fit$split_history
  expect_s3_class(h, "data.frame")
  expect_identical(names(h), c("k", "cost", "event"))
  expect_identical(as.character(h$event[1]), "start")
  expect_true(all(diff(h$cost) <= 1e-12), label = "cost never rises across the history")
  expect_equal(h$cost[nrow(h)], fit$cost, tolerance = 1e-10)
  expect_equal(h$k[nrow(h)], fit$k)
}

test_that("four planted Gaussians are found from one cluster", {
  b <- four_blobs()
  set.seed(1)
  fit <- cec(b$x, split = TRUE, restarts = 1)
  expect_equal(fit$k, 4L)
  expect_equal(ari(fit$cluster, b$y), 1)
  expect_history_monotone(fit)
  expect_identical(fit$split_history$k[1], 1L)
  expect_true(any(fit$split_history$event == "split"))
  # the cost is cost (2) of the partition, which is no worse than the truth
  expect_equal(fit$cost, cec_cost(b$x, fit$cluster), tolerance = 1e-10)
  expect_lte(fit$cost, cec_cost(b$x, b$y) + 1e-10)
  # the same with k given as 1 and from k = 2
  set.seed(1)
  expect_identical(cec(b$x, 1, split = TRUE, restarts = 1)$cluster, fit$cluster)
  # From k = 2 some streams go on to split a fifth cluster off one Gaussian
  # of 60 points, which lowers the cost slightly (3.656 against 3.660 here):
  # the criterion, not the search, decides; the planted four stay whole.
  set.seed(2)
  from2 <- cec(b$x, 2, split = TRUE, restarts = 2, split_criterion = "cost")
  expect_true(from2$k %in% 4:5)
  expect_lte(from2$cost, fit$cost + 1e-10)
  # every fitted cluster lies in one planted Gaussian
  purity <- sum(apply(table(from2$cluster, b$y), 1L, max)) / length(b$y)
  expect_gt(purity, 0.98)
  expect_lte(from2$split_history$k[1], 2L)
})

test_that("the cost never rises and the result is a local optimum under single moves", {
  b <- cec_blobs(25, sep = 3.5)
  for (seed in 1:3) {
    set.seed(seed)
    fit <- cec(b$x, split = TRUE, restarts = 2, eps = 0.02)
    expect_history_monotone(fit)
    expect_true(fit$converged)
    expect_equal(fit$cost_parts, cec_cost_parts(b$x, fit$cluster), tolerance = 1e-9)
    expect_lte(best_single_move_gain(b$x, fit$cluster), 1e-9)
  }
})

test_that("a single Gaussian is not split, and max_k caps the splits", {
  set.seed(4)
  one <- matrix(rnorm(800), ncol = 2)
  expect_equal(cec(one, split = TRUE, restarts = 2)$k, 1L)
  b <- four_blobs()
  set.seed(5)
  fit <- cec(b$x, split = TRUE, max_k = 2, restarts = 2)
  expect_equal(fit$k, 2L)
  expect_true(all(fit$split_history$k <= 2L))
  expect_equal(fit$max_k, 2L)
  expect_null(cec(b$x, 4, restarts = 1)$split_history)
})

test_that("split mode works with every family", {
  b <- four_blobs(40, sep = 7)
  params <- list(full = NULL, diagonal = NULL, spherical = NULL,
                 fixed_covariance = matrix(c(1, 0.3, 0.3, 0.5), 2), fixed_spherical = 0.8,
                 eigenvalues = c(0.4, 1.2), fixed_mean = c(3, 3))
  for (type in names(params)) {
    set.seed(6)
    fit <- cec(b$x, split = TRUE, type = type, param = params[[type]], restarts = 1)
    expect_history_monotone(fit)
    expect_identical(fit$type, rep(type, fit$k), info = type)
    expect_equal(fit$cost_parts, cec_cost_parts(b$x, fit$cluster, type = type,
                                                param = params[[type]]),
                 tolerance = 1e-9, info = type)
    if (type != "fixed_mean") expect_gte(fit$k, 4L)  # one fixed mean cannot cover four blobs
  }
  # one family per start cluster: the parts of a split keep their family
  set.seed(7)
  mix <- cec(b$x, 2, type = c("full", "spherical"), split = TRUE, restarts = 1)
  expect_true(all(mix$type %in% c("full", "spherical")))
  expect_equal(mix$cost, cec_cost(b$x, mix$cluster, type = mix$type), tolerance = 1e-9)
})

test_that("cec_ib in split mode: labels drive the split the data alone would not make", {
  set.seed(8)
  x <- matrix(rnorm(600), ncol = 2)
  labels <- ifelse(x[, 1] < 0, "left", "right")
  labels[sample.int(300, 200)] <- NA
  set.seed(9)
  plain <- cec(x, split = TRUE, restarts = 1)
  expect_equal(plain$k, 1L)
  set.seed(9)
  fit <- cec_ib(x, labels, 1, beta = 1, split = TRUE, restarts = 1)  # from one cluster
  expect_gte(fit$k, 2L)
  expect_history_monotone(fit)
  # the first split separates the labels, and no cluster mixes them
  expect_identical(fit$split_history$k[1:2], 1:2)
  tab <- fit$contingency[, c("left", "right")]
  expect_true(all(rowSums(tab > 0) <= 1))
  expect_equal(fit$cost_parts, cec_cost_parts(x, fit$cluster, labels, 1), tolerance = 1e-9)
  # labels on the planted blobs: still a local optimum of cost (10)
  b <- cec_blobs(25, sep = 3.5)
  lab <- b$y
  lab[seq(1, 75, by = 3)] <- NA
  set.seed(10)
  ib <- cec_ib(b$x, lab, beta = 0.5, split = TRUE, restarts = 2, eps = 0.02)
  expect_history_monotone(ib)
  expect_lte(best_single_move_gain(b$x, ib$cluster, lab, 0.5), 1e-9)
})

test_that("split mode is reproducible with set.seed()", {
  b <- four_blobs(40)
  set.seed(11)
  a <- cec(b$x, split = TRUE, restarts = 3, init = "random")
  set.seed(11)
  b2 <- cec(b$x, split = TRUE, restarts = 3, init = "random")
  expect_identical(a$cluster, b2$cluster)
  expect_identical(a$split_history, b2$split_history)
})

test_that("print and summary report the splits", {
  b <- four_blobs()
  set.seed(12)
  fit <- cec(b$x, split = TRUE, restarts = 1, split_criterion = "cost")
  expect_output(print(fit), "Split mode: k 1 -> 4")
  expect_output(print(summary(fit)), "history")
  expect_s3_class(summary(fit)$split_history, "data.frame")
  expect_equal(predict(fit)$cluster, fit$cluster)
})

test_that("split_criterion = \"bic\" splits only while the BIC falls", {
  # from k = 2 the cost criterion splits a fifth cluster off one of the four
  # planted Gaussians (see above); the BIC price of a full 2-D cluster,
  # (5 + 1) log(240) / 480 = 0.069 nats per point, stops that split
  b <- four_blobs()
  for (seed in 1:3) {
    set.seed(seed)
    fit <- cec(b$x, 2, split = TRUE, restarts = 2, split_criterion = "bic")
    expect_equal(fit$k, 4L)
    expect_equal(ari(fit$cluster, b$y), 1)
    expect_history_monotone(fit)
    expect_identical(fit$split_criterion, "bic")
    expect_equal(fit$cost, cec_cost(b$x, fit$cluster), tolerance = 1e-10)
  }
  # every split made lowers the cost by more than the price of a cluster
  h <- fit$split_history
  made <- which(h$event == "split")
  price <- 6 * log(240) / 480
  expect_true(all(h$cost[made - 1L] - h$cost[made] > price))
  # points uniform in a square: the in-sample cost keeps falling with more
  # clusters, the BIC does not
  set.seed(6)
  xu <- matrix(runif(600), ncol = 2)
  set.seed(1)
  by_cost <- cec(xu, split = TRUE, restarts = 2, split_criterion = "cost")
  set.seed(1)
  by_bic <- cec(xu, split = TRUE, restarts = 2, split_criterion = "bic")
  expect_gt(by_cost$k, 8L)
  expect_lte(by_bic$k, 4L)
  expect_history_monotone(by_bic)
  expect_null(cec(xu, 2)$split_criterion)
  expect_output(print(by_bic), "Split mode \\(BIC\\)")
  expect_output(print(summary(by_bic)), "Split mode \\(BIC\\)")
})

test_that("split arguments are checked", {
  x <- four_blobs(20)$x
  expect_error(cec(x, 2, max_k = 3), "max_k")
  expect_error(cec(x, 3, split = TRUE, max_k = 2), "max_k")
  expect_error(cec(x, split = TRUE, split_tries = 0), "split_tries")
  expect_error(cec(x, split = NA), "split")
  expect_error(cec(x, 2, split_criterion = "bic"), "`split_criterion`.*split mode")
  expect_error(cec(x, split = TRUE, split_criterion = "aic"), "`split_criterion`")
  # without k the default is split mode; k is needed only with split = FALSE
  expect_error(cec(x, split = FALSE), "`k`")
  expect_error(cec_ib(x, NULL, split = FALSE), "`k`")
})

test_that("split mode finds a number of clusters and cost like CEC::cec's stored split-mode fits", {
  fx <- read_fixture("cec-split")
  compared <- 0L
  for (name in names(fx$input)) {
    peer <- fx$output[[name]]
    if (is.null(peer)) next
    x <- fx$input[[name]]
    set.seed(14)
    ours <- cec(x, split = TRUE, restarts = 5, init = "kmeans++", split_criterion = "cost")
    expect_lte(abs(ours$k - peer$k), 1L, label = name)
    expect_lte(ours$cost, peer$cost + 0.02 * abs(peer$cost) + 1e-8, label = name)
    set.seed(14)
    greedy <- cec(x, split = TRUE, restarts = 5, split_criterion = "cost")
    expect_lte(greedy$cost, peer$cost + 0.02 * abs(peer$cost) + 1e-8, label = name)
    compared <- compared + 1L
  }
  expect_gte(compared, 2L)
})

test_that("split mode finds a number of clusters and cost like CEC::cec's split mode", {
  skip_if_not_installed("CEC")
  # continuous data only: on rounded data (iris) CEC::cec keeps clusters
  # whose covariance is singular up to rounding, at costs far below zero;
  # the three data sets of the stored fits (four_blobs() and two more)
  sets <- read_fixture("cec-split")$input
  compared <- 0L
  for (name in names(sets)) {
    x <- sets[[name]]
    set.seed(14)
    peer <- suppressWarnings(tryCatch(
      CEC::cec(x, centers = 1, type = "all", split = TRUE, nstart = 5, card.min = "5%"),
      error = function(e) NULL))
    if (is.null(peer)) next
    # the number of clusters that split mode reaches where it over-splits
    # (five: 10 for 5 planted) depends on the local starts, so it is compared
    # with CEC's own seeding; the default greedy seeds reached 8 clusters
    # there, at a lower cost than from k-means++ seeds (4.251 against 4.256)
    set.seed(14)
    ours <- cec(x, split = TRUE, restarts = 5, init = "kmeans++", split_criterion = "cost")
    k_peer <- peer$nclusters[length(peer$nclusters)]
    cost_peer <- utils::tail(peer$cost.function, 1)
    expect_lte(abs(ours$k - k_peer), 1L, label = name)
    expect_lte(ours$cost, cost_peer + 0.02 * abs(cost_peer) + 1e-8, label = name)
    set.seed(14)
    greedy <- cec(x, split = TRUE, restarts = 5, split_criterion = "cost")
    expect_lte(greedy$cost, cost_peer + 0.02 * abs(cost_peer) + 1e-8, label = name)
    compared <- compared + 1L
  }
  expect_gte(compared, 2L)
})
