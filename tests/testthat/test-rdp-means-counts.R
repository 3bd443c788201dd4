# RDP-means on count data (KL and I-divergence): the pairs' weights on the
# log-likelihood's scale and singletons that can be left keep the number of
# clusters near the truth as the pairs and their weights grow.

# n documents of `length` words on average from k topics over p words: each
# topic a sparse word distribution, mixed with a shared background.
topic_count_data <- function(n = 150, k = 4, p = 300, length = 80, background = 0.2,
                             seed = 1) {
  set.seed(seed)
  dirichlet <- function(a) {
    g <- stats::rgamma(p, a)
    g / sum(g)
  }
  shared <- dirichlet(1)
  topics <- replicate(k, dirichlet(0.1))
  y <- rep(seq_len(k), length.out = n)
  words <- stats::rpois(n, length)
  x <- t(vapply(seq_len(n), function(i) {
    as.numeric(stats::rmultinom(1, words[i], background * shared + (1 - background) * topics[, y[i]]))
  }, numeric(p)))
  list(x = x, y = y, k = k)
}

must_links_only <- function(side) {
  constraints(must = cbind(side$i, side$j)[side$must, , drop = FALSE], n = side$n)
}

test_that("clean pairs keep k near the truth and must-links alone do not merge it to one", {
  d <- topic_count_data()
  set.seed(3)
  side <- sample_constraints(d$y, rate = 0.3)
  for (div in c("kl", "idiv")) {
    lambda <- dp_lambda(d$x, k = d$k, divergence = div)
    set.seed(4)
    fit <- rdp_means(d$x, side, lambda = lambda, divergence = div)
    expect_gte(fit$k, d$k / 1.5)
    expect_lte(fit$k, d$k * 1.5)
    expect_gt(f_measure(d$y, fit$cluster), 0.9)
    set.seed(4)
    must <- rdp_means(d$x, must_links_only(side), lambda = lambda, divergence = div)
    expect_gt(must$k, 1)
    expect_gte(must$k, d$k / 1.5)
  }
})

test_that("the number of clusters does not grow or collapse with the weights' cap", {
  d <- topic_count_data()
  set.seed(3)
  side <- sample_constraints(d$y, rate = 0.03)
  for (div in c("kl", "idiv")) {
    lambda <- dp_lambda(d$x, k = d$k, divergence = div)
    k <- vapply(c(1, 10, 1e3, Inf), function(cap) {
      set.seed(4)
      rdp_means(d$x, side, lambda = lambda, divergence = div, xi_max = cap)$k
    }, numeric(1))
    expect_true(all(k >= d$k / 1.5 & k <= d$k * 1.5), info = paste(div, toString(k)))
  }
})

test_that("KL weights are on the log-likelihood's scale; a singleton compares leaving with lambda", {
  d <- topic_count_data(n = 40, p = 50, length = 30)
  set.seed(3)
  side <- sample_constraints(d$y, rate = 0.1)
  lambda <- dp_lambda(d$x, k = d$k, divergence = "kl")
  set.seed(1)
  fit <- rdp_means(d$x, side, lambda = lambda, divergence = "kl", xi = 2, xi_rate = 1)
  unit <- 1 / mean(rowSums(d$x + 0.3))
  expect_equal(unname(fit$xi), c(2, 2) * unit)
  set.seed(1)
  idiv <- rdp_means(d$x, side, lambda = 50, divergence = "idiv", xi = 2, xi_rate = 1)
  expect_equal(unname(idiv$xi), c(2, 2))
  expect_equal(idiv$smoothing, 0.3)
  # at convergence no point alone in its cluster has another cluster whose
  # augmented distance is below lambda (leaving would lower the objective)
  for (f in list(fit, idiv)) {
    d_aug <- augmented_distances(f, d$x, side)
    alone <- which(f$size[f$cluster] == 1)
    for (i in alone) {
      expect_true(all(d_aug[i, -f$cluster[i]] >= f$lambda - 1e-9), info = f$divergence)
    }
  }
})

test_that("pairs split faint topics that one starting cluster cannot (side-seeded start)", {
  # DP-means keeps about one cluster here; a point pushed out alone by its
  # cannot-links is too far from every other point to gather a cluster.
  d <- topic_count_data(n = 200, k = 5, p = 200, length = 20, background = 0.7)
  set.seed(3)
  side <- sample_constraints(d$y, rate = 0.02)
  for (div in c("kl", "idiv")) {
    lambda <- dp_lambda(d$x, k = d$k, divergence = div)
    set.seed(4)
    dp <- dp_means(d$x, lambda = lambda, divergence = div)
    set.seed(4)
    fit <- rdp_means(d$x, side, lambda = lambda, divergence = div)
    expect_lt(f_measure(d$y, dp$cluster), 0.5)
    expect_gt(f_measure(d$y, fit$cluster), 0.9)
    expect_gte(fit$k, d$k / 1.5)
    expect_lte(fit$k, d$k * 1.5)
  }
  # partial labels seed the start too (one seed per label)
  set.seed(3)
  labels <- sample_labels(d$y, fraction = 0.1)
  set.seed(4)
  fit <- rdp_means(d$x, labels, lambda = dp_lambda(d$x, k = d$k, divergence = "kl"),
                   divergence = "kl")
  expect_gt(f_measure(d$y, fit$cluster), 0.5)
  expect_lte(fit$k, d$k * 1.5)
})

test_that("split moves never raise the objective and lift F on faint topics", {
  # the core with and without split moves (the `split_tries` option), same seed
  core_fit <- function(x, side, lambda, div, split_tries) {
    data <- sideclust:::prepare_divergence_data(x, div, NULL)
    opt <- list(lambda = lambda, xi = c(must = 0.001, cannot = 0.001), xi_rate = 2,
                xi_max = c(must = 10, cannot = 10), patience = 20L, max_iter = 1000L,
                random_order = TRUE, chunklet_moves = FALSE, xi_unit = data$xi_unit,
                divergence = div, verbose = FALSE, split_tries = as.integer(split_tries))
    set.seed(4)
    sideclust:::.rdp_means_cpp(sideclust:::points_for_core(data$x),
                               sideclust:::as_side_info(side, n = nrow(x), arg = "side"), opt)
  }
  objective_at <- function(f, w) {
    a <- f$agreement
    utils::tail(f$objective, 1) + f$xi[1] * a[["must_satisfied"]] - f$xi[2] * a[["cannot_violated"]] -
      w[1] * a[["must_satisfied"]] + w[2] * a[["cannot_violated"]]
  }
  gain <- 0
  for (seed in 1:3) {
    d <- topic_count_data(n = 200, k = 8, p = 300, length = 40, background = 0.5, seed = seed)
    set.seed(3)
    side <- sample_constraints(d$y, rate = 0.01)
    for (div in c("kl", "idiv")) {
      lambda <- dp_lambda(d$x, k = d$k, divergence = div)
      without <- core_fit(d$x, side, lambda, div, 0)
      with <- core_fit(d$x, side, lambda, div, 40)
      w <- pmax(without$xi, with$xi)
      expect_lte(objective_at(with, w), objective_at(without, w) + 1e-9)
      gain <- gain + f_measure(d$y, with$cluster) - f_measure(d$y, without$cluster)
    }
  }
  expect_gt(gain / 6, 0.05)
})

test_that("the held-out default chooses only a number of clusters some lambda reaches", {
  set.seed(1)
  topics <- matrix(rgamma(5 * 200, 0.1), 5)
  topics <- topics / rowSums(topics)
  y <- sample(5, 300, TRUE)
  x <- t(vapply(y, function(t) rmultinom(1, 80, topics[t, ])[, 1], numeric(200)))
  side <- sample_constraints(y, rate = 0.02)
  expect_no_message(fit <- rdp_means(x, side, divergence = "kl"))
  expect_equal(fit$k, fit$k_selection$chosen)
  expect_equal(fit$k, 5L)
})

test_that("the I-divergence separates rows by their totals where KL groups them by proportions", {
  # two topics, each with documents of 20 and of 400 words (see Count data in
  # ?rdp_means: Poisson clusters describe the rows' totals too)
  set.seed(3)
  topics <- rbind(rep(c(1, 0.05), each = 30), rep(c(0.05, 1), each = 30))
  topics <- topics / rowSums(topics)
  y <- rep(1:2, each = 20)
  len <- rep(c(20, 400), times = 20)
  x <- t(vapply(seq_along(y), function(i) stats::rmultinom(1, len[i], topics[y[i], ])[, 1], numeric(60)))
  kl <- dp_means(x, k = 2, divergence = "kl")
  idiv <- dp_means(x, k = 2, divergence = "idiv")
  expect_equal(f_measure(y, kl$cluster), 1)
  expect_lt(f_measure(y, idiv$cluster), 0.8)
  # one I-divergence cluster holds long documents only
  expect_true(any(tapply(len, idiv$cluster, function(l) all(l == 400))))
})
