test_that("CEC-IB ends at a Hartigan local optimum of cost (10), for every type", {
  b <- cec_blobs(20, sep = 3)
  set.seed(3)
  labels <- b$y
  labels[sample(length(labels), 30)] <- NA
  labels[c(1, 25)] <- c(2, 3)  # two wrong labels
  for (type in c("full", "diagonal", "spherical")) {
    for (beta in c(0.3, 1)) {
      set.seed(1)
      fit <- cec_ib(b$x, labels, k = 5, beta = beta, type = type, restarts = 2)
      info <- paste(type, beta)
      expect_true(fit$converged, info = info)
      parts <- cec_cost_parts(b$x, fit$cluster, labels, beta, type)
      expect_equal(fit$cost_parts, parts, tolerance = 1e-9, info = info)
      expect_equal(fit$cost, sum(parts), tolerance = 1e-9, info = info)
      expect_equal(utils::tail(fit$objective, 1), fit$cost, tolerance = 1e-9, info = info)
      expect_lte(best_single_move_gain(b$x, fit$cluster, labels, beta, type), 1e-9)
    }
  }
})

test_that("plain CEC ends at a local optimum of cost (2) and with its cost", {
  x <- scale(iris[, 1:4])
  set.seed(2)
  fit <- cec(x, k = 5, restarts = 1)
  expect_true(fit$converged)
  expect_equal(fit$cost, cec_cost(x, fit$cluster), tolerance = 1e-9)
  expect_equal(fit$cost_parts[["labels"]], 0)
  expect_lte(best_single_move_gain(x, fit$cluster), 1e-9)
})

test_that("with beta = 0 or without labels CEC-IB is plain CEC", {
  x <- scale(iris[, 1:4])
  set.seed(9)
  labels <- sample_labels(iris$Species, fraction = 0.3)
  set.seed(4); plain <- cec(x, k = 6, restarts = 3)
  set.seed(4); zero <- cec_ib(x, labels, k = 6, beta = 0, restarts = 3)
  set.seed(4); none <- cec_ib(x, rep(NA, 150), k = 6, beta = 1, restarts = 3)
  set.seed(4); null <- cec_ib(x, NULL, k = 6, restarts = 3)
  for (f in list(zero, none, null)) {
    expect_equal(f$cluster, plain$cluster)
    expect_equal(f$cost, plain$cost)
    expect_equal(f$objective, plain$objective)
  }
  expect_equal(plain$cost, cec_cost(x, plain$cluster), tolerance = 1e-9)
})

test_that("beta0 of one Gaussian split at its mean is about 0.269 (Example 4.1)", {
  set.seed(1)
  z <- rnorm(2e5)
  beta0 <- cec_ib_beta0(z, ifelse(z < 0, "left", "right"))
  expect_lt(abs(beta0 - 0.269), 0.01)
  # the same from a data.frame and for every type in 1-D
  expect_equal(cec_ib_beta0(data.frame(z = z), z < 0, type = "spherical"), beta0)
})

test_that("beta0 follows equation (14) and one value per merged group", {
  b <- cec_blobs(25, sep = 3)
  fine <- b$y
  w <- tabulate(fine) / length(fine)
  ld <- vapply(1:3, function(a) cec_logdet(b$x[fine == a, ], "full"), 0)
  expected <- 1 + sum(w / 2 * (ld - cec_logdet(b$x, "full"))) / (-sum(w * log(w)))
  expect_equal(cec_ib_beta0(b$x, fine), expected)
  coarse <- c(1, 1, 2)[fine]
  w2 <- c(0.5, 0.5)
  e2 <- 1 + sum(w2 / 2 * (ld[1:2] - cec_logdet(b$x[fine <= 2, ], "full"))) / log(2)
  expect_equal(cec_ib_beta0(b$x, fine, coarse), e2)
  expect_error(cec_ib_beta0(b$x, fine, rep(1:2, length.out = 75)), "coarse")
  expect_error(cec_ib_beta0(b$x, fine[-1]), "cluster")
})

test_that("complete correct labels with beta = 1 give clusters consistent with them", {
  # One Gaussian labelled by the sign (Example 4.1): the data alone keep one
  # cluster, the labels at beta = 1 > beta0 split it consistently.
  set.seed(1)
  z <- rnorm(2000)
  y <- ifelse(z < 0, "neg", "pos")
  set.seed(2)
  expect_equal(cec(z, k = 4)$k, 1L)
  for (s in 1:3) {
    set.seed(s)
    fit <- cec_ib(z, y, k = 4, beta = 1)
    expect_true(all(rowSums(fit$contingency[, 1:2] > 0) <= 1), info = s)
    expect_equal(fit$cost_parts[["labels"]], 0)
    expect_gte(fit$k, 2L)
  }
  # coarse labels (two of three separated blobs share a label): consistent,
  # with more clusters than labels
  b <- cec_blobs(60, sep = 8)
  coarse <- c("a", "a", "b")[b$y]
  set.seed(3)
  fit <- cec_ib(b$x, coarse, k = 6, beta = 1)
  expect_true(all(rowSums(fit$contingency[, 1:2] > 0) <= 1))
  expect_gte(fit$k, 3L)
})

test_that("fit fields: sizes, contingency, means, covariances, k_trace", {
  b <- cec_blobs(30, sep = 5)
  labels <- factor(c("a", "b", "c")[b$y])
  labels[seq(1, 90, by = 2)] <- NA
  set.seed(1)
  fit <- cec_ib(b$x, labels, k = 4, type = "diagonal")
  expect_s3_class(fit, c("cec_ib", "sideclust"))
  expect_equal(fit$size, tabulate(fit$cluster, fit$k))
  expect_equal(sort(unique(fit$cluster)), seq_len(fit$k))
  expect_equal(colnames(fit$contingency), c("a", "b", "c", "unlabelled"))
  expect_equal(unname(rowSums(fit$contingency)), fit$size)
  expect_equal(sum(fit$contingency[, "unlabelled"]), 45)
  expect_equal(dim(fit$covariances), c(2L, 2L, fit$k))
  for (a in seq_len(fit$k)) {
    xs <- b$x[fit$cluster == a, ]
    expect_equal(unname(fit$centers[a, ]), colMeans(xs))
    s <- crossprod(sweep(xs, 2, colMeans(xs))) / nrow(xs)
    expect_equal(unname(fit$covariances[, , a]), diag(diag(s)))
  }
  expect_true(all(diff(fit$k_trace) <= 0))
  expect_length(fit$objective, fit$iterations)
  expect_output(print(fit), "CEC-IB clustering of 90 points into")
})

test_that("the number of clusters shrinks from k and eps removes small clusters", {
  b <- cec_blobs(40, sep = 6)
  set.seed(2)
  fit <- cec(b$x, k = 10)
  expect_lte(fit$k, 10L)
  expect_true(all(fit$size >= 0.05 * 120))
  expect_equal(fit$k_trace[length(fit$k_trace)], fit$k)
  set.seed(2)
  big_eps <- cec(b$x, k = 10, eps = 0.3)
  expect_true(all(big_eps$size >= 0.3 * 120))
})

test_that("results are reproducible with set.seed, and `start` gives one run", {
  x <- scale(iris[, 1:4])
  set.seed(5); a <- cec(x, k = 4)
  set.seed(5); b <- cec(x, k = 4)
  expect_identical(a, b)
  start <- rep(1:3, 50)
  s1 <- cec(x, k = 3, start = start)
  s2 <- cec(x, k = 3, start = start, restarts = 7)
  expect_equal(s1$cluster, s2$cluster)
  expect_equal(s1$restarts, 1L)
  expect_equal(s1$cost, cec_cost(x, s1$cluster), tolerance = 1e-9)
})

test_that("every `init` ends at a reproducible local optimum", {
  b <- cec_blobs(20, sep = 3)
  labels <- b$y
  labels[seq(2, 60, by = 2)] <- NA
  for (init in c("greedy", "kmeans++", "random", "partition")) {
    set.seed(8); fit <- cec_ib(b$x, labels, k = 6, beta = 1, init = init, restarts = 3)
    set.seed(8); again <- cec_ib(b$x, labels, k = 6, beta = 1, init = init, restarts = 3)
    expect_identical(fit, again)
    expect_identical(fit$init, init)
    expect_true(fit$converged, info = init)
    expect_equal(fit$cost, sum(cec_cost_parts(b$x, fit$cluster, labels, 1, "full")),
                 tolerance = 1e-9, info = init)
    expect_lte(best_single_move_gain(b$x, fit$cluster, labels, 1, "full"), 1e-9)
  }
  # a random partition into as many clusters as points leaves most of them
  # too small: they are removed before the first pass (seed 3: with the
  # restarts on their own streams, seed 2 draws a start whose survivors merge
  # into one cluster, which the core reports as an error)
  set.seed(3)
  many <- cec(b$x, k = 60, init = "partition", restarts = 2)
  expect_lte(many$k, 60 %/% (2 + 2))
  expect_equal(many$cost, cec_cost(b$x, many$cluster), tolerance = 1e-9)
  expect_identical(cec(b$x, k = 3, start = rep(1:3, 20))$init, "start")
  expect_error(cec(b$x, k = 3, init = "forgy"), "`init`")
})

test_that("k-means++ and greedy k-means++ seeds are those of a plain R version", {
  # the seeding of the C++ core against the same draws of R's generator:
  # each seed after the first drawn proportionally to the squared distance to
  # the nearest seed; greedy: the best of `trials` such draws by the sum of
  # those distances (ties keep the earlier). Duplicated rows test the zero
  # weights.
  seeds_in_r <- function(x, k, trials) {
    n <- nrow(x)
    draw <- function(w) {
      u <- stats::runif(1) * sum(w)
      i <- which(w > 0 & cumsum(w) > u)[1]
      if (is.na(i)) max(which(w > 0)) else i
    }
    dist2 <- function(i) rowSums(sweep(x, 2, x[i, ])^2)
    seeds <- min(n, floor(stats::runif(1) * n) + 1)
    d2 <- dist2(seeds)
    for (j in seq_len(k - 1L)) {
      best <- NULL
      for (t in seq_len(trials)) {
        c <- draw(d2)
        cand <- pmin(d2, dist2(c))
        if (is.null(best) || sum(cand) < best$sum) best <- list(i = c, sum = sum(cand), d2 = cand)
      }
      seeds <- c(seeds, best$i)
      d2 <- best$d2
    }
    seeds
  }
  b <- cec_blobs(20, sep = 3)
  x <- rbind(b$x, b$x[1:10, ])
  for (trials in c(1L, 3L)) for (s in 1:5) {
    set.seed(s)
    core <- sideclust:::.kmeanspp_seeds_cpp(t(x), 6L, trials)
    set.seed(s)
    expect_identical(core, as.integer(seeds_in_r(x, 6L, trials)), info = paste(trials, s))
  }
  # greedy seeds cover the data better: a lower sum of squared distances to
  # the nearest seed on average
  potential <- function(seeds) sum(apply(sapply(seeds, function(i) rowSums(sweep(x, 2, x[i, ])^2)), 1, min))
  set.seed(1)
  plain <- replicate(50, potential(sideclust:::.kmeanspp_seeds_cpp(t(x), 6L, 1L)))
  greedy <- replicate(50, potential(sideclust:::.kmeanspp_seeds_cpp(t(x), 6L, 3L)))
  expect_lt(mean(greedy), mean(plain))
})

test_that("the default size rule is CEC's: clusters below floor(0.05 n) points are removed", {
  # 150 points: CEC's card.min = "5%" keeps a cluster of floor(7.5) = 7
  # points; Smieja & Geiger's rule with eps = 0.05 removes clusters below 7.5
  set.seed(4)
  y <- rep(1:3, c(7, 71, 72))
  x <- rbind(c(0, 0), c(12, 0), c(0, 12))[y, ] + matrix(rnorm(300), ncol = 2)
  fit <- cec(x, k = 3, start = y)
  expect_equal(fit$eps, 7 / 150)
  expect_equal(fit$k, 3L)
  expect_equal(sort(fit$size), c(7L, 71L, 72L))
  expect_equal(cec(x, k = 3, start = y, eps = 0.05)$k, 2L)
  expect_equal(cec(x, k = 3, start = y, eps = 7 / 150)$k, 3L)
  # the p + 2 minimum stays: 4 points in 2-D are kept, 3 removed
  y4 <- rep(1:2, c(4, 146))
  x4 <- rbind(c(0, 0), c(15, 0))[y4, ] + matrix(rnorm(300), ncol = 2)
  expect_equal(cec(x4, k = 2, start = y4, eps = 0)$k, 2L)
  y3 <- rep(1:2, c(3, 147))
  expect_equal(cec(x4, k = 2, start = y3, eps = 0)$k, 1L)
})

test_that("predict() applies the CEC rule and recovers the fitted clusters", {
  b <- cec_blobs(40, sep = 6)
  set.seed(1)
  fit <- cec(b$x, k = 3)
  pr <- predict(fit, b$x)
  expect_equal(dim(pr$probability), c(120L, fit$k))
  expect_equal(unname(rowSums(pr$probability)), rep(1, 120))
  expect_equal(unname(pr$cluster), max.col(pr$probability, ties.method = "first"))
  expect_gt(mean(pr$cluster == fit$cluster), 0.95)
  # the scores of one point, by hand, normalized
  by_hand <- vapply(seq_len(fit$k), function(a) {
    s <- fit$covariances[, , a]
    d <- b$x[7, ] - fit$centers[a, ]
    log(fit$size[a] / 120) - log(2 * pi) - 0.5 * log(det(s)) - 0.5 * sum(d * solve(s, d))
  }, 0)
  expect_equal(unname(pr$probability[7, ]), exp(by_hand) / sum(exp(by_hand)))
  expect_identical(colnames(pr$probability), as.character(seq_len(fit$k)))
  named <- b$x[1:3, ]
  rownames(named) <- c("a", "b", "c")
  expect_identical(rownames(predict(fit, named)$probability), c("a", "b", "c"))
  expect_error(predict(fit, b$x[, 1]), "newdata")
})

test_that("bad input gives clear errors naming the argument", {
  b <- cec_blobs(10)
  x <- b$x
  expect_error(cec(x, k = 0), "`k`")
  expect_error(cec(x, k = 31), "`k`")
  expect_error(cec(x[1:3, ], k = 1), "`x`.*p \\+ 2")
  expect_error(cec(cbind(x, x[, 1]), k = 2), "`x`.*singular")
  expect_error(cec(x, k = 2, type = "round"), "type")
  expect_error(cec(x, k = 2, eps = 1), "`eps`")
  expect_error(cec(x, k = 2, restarts = 0), "`restarts`")
  expect_error(cec(x, k = 2, max_iter = 0), "`max_iter`")
  expect_error(cec(x, k = 2, start = rep(1:3, 10)), "`start`")
  expect_error(cec(x, k = 2, start = 1:2), "`start`")
  expect_error(cec(rbind(x, NA), k = 2), "`x`")
  expect_error(cec_ib(x, b$y[-1], k = 2), "`side`.*29 labels")
  expect_error(cec_ib(x, k = 2), "`side`")
  expect_error(cec_ib(x, b$y, k = 2, beta = -1), "`beta`")
  side <- constraints(must = rbind(c(1, 2)), n = 30)
  expect_error(cec_ib(x, side, k = 2), "`side`.*pairwise")
})

test_that("cec() reaches CEC::cec's stored cost and partition from the same start", {
  fx <- read_fixture("cec-iris")
  x <- scale(iris[, 1:4])
  for (i in seq_along(fx$input)) {
    input <- fx$input[[i]]
    ref <- fx$output[[i]]
    ours <- cec(x, k = 3, start = input$start, type = input$type)
    info <- paste(input$type, input$seed)
    expect_equal(ours$cost, ref$cost, tolerance = 1e-8, info = info)
    expect_equal(compare_partitions(ours$cluster, ref$cluster)[["ari"]], 1, info = info)
  }
})

test_that("CEC::cec reaches the same cost from the same start", {
  skip_if_not_installed("CEC")
  x <- scale(iris[, 1:4])
  ref_type <- c(full = "all", diagonal = "diagonal", spherical = "spherical")
  for (type in names(ref_type)) for (s in 1:3) {
    set.seed(s)
    centres <- x[sample(nrow(x), 3), ]
    d <- as.matrix(dist(rbind(centres, x)))[-(1:3), 1:3]
    start <- max.col(-d, ties.method = "first")
    ours <- cec(x, k = 3, start = start, type = type)
    ref <- CEC::cec(x, centers = centres, type = ref_type[[type]], iter.max = 100)
    info <- paste(type, s)
    expect_equal(ours$cost, utils::tail(ref$cost, 1), tolerance = 1e-8, info = info)
    expect_equal(compare_partitions(ours$cluster, ref$cluster)[["ari"]], 1, info = info)
  }
})

test_that("a move that leaves its cluster singular is not made, despite rounding", {
  # Cluster 1: 40 points on the plane z = 0 and one point off it, so that
  # the point alone gives the cluster a non-singular covariance; in exact
  # arithmetic moving it away makes det = 0 (an invalid cluster), but rounding
  # leaves det slightly positive, which once looked like a huge gain and then
  # removed the whole cluster (34 of these 40 draws collapsed to one cluster).
  for (s in 1:40) {
    set.seed(s)
    a <- cbind(round(runif(40, 0, 3), 2), round(runif(40, 0, 3), 2), 0)
    a <- rbind(a, c(1.5, 1.5, 0.37))
    b <- cbind(round(rnorm(40, 1.5, 1), 2), round(rnorm(40, 1.5, 1), 2),
               round(rnorm(40, 0.37, 0.3), 2))
    x <- rbind(a, b)
    fit <- cec(x, k = 2, start = rep(1:2, c(41, 40)), eps = 0)
    expect_equal(fit$k, 2L, info = s)
    expect_equal(fit$cost, cec_cost(x, fit$cluster), tolerance = 1e-6, info = s)
    # the same for the diagonal model, whose variance of z would vanish
    fit_d <- cec(x, k = 2, start = rep(1:2, c(41, 40)), eps = 0, type = "diagonal")
    expect_equal(fit_d$k, 2L, info = s)
  }
})

test_that("cov_reg keeps clusters with an exactly singular covariance", {
  # Cluster 1 lies exactly in the plane z = 0: with the maximum-likelihood
  # covariance (cov_reg = 0) it is singular and removed, with cov_reg > 0 its
  # covariance is (S + kappa Sigma_X) / n and it survives.
  set.seed(1)
  a <- cbind(rnorm(40), rnorm(40), 0)
  b <- cbind(rnorm(40, 6), rnorm(40), rnorm(40))
  x <- rbind(a, b)
  start <- rep(1:2, each = 40)
  plain <- cec(x, k = 2, start = start)
  expect_equal(plain$k, 1L)
  reg <- cec(x, k = 2, start = start, cov_reg = 1)
  expect_equal(reg$k, 2L)
  expect_equal(reg$cluster, start)
  expect_equal(reg$cov_reg, 1)
  sigma_x <- crossprod(sweep(x, 2, colMeans(x))) / nrow(x)
  s1 <- crossprod(sweep(a, 2, colMeans(a)))
  expect_equal(unname(reg$covariances[, , 1]), unname((s1 + sigma_x) / 40))
  expect_equal(reg$cost, cec_cost(x, reg$cluster, cov_reg = 1), tolerance = 1e-9)
})

test_that("with cov_reg CEC-IB ends at a local optimum of the regularized cost", {
  b <- cec_blobs(20, sep = 3)
  labels <- b$y
  labels[seq(1, 60, by = 3)] <- NA
  for (type in c("full", "diagonal", "spherical")) {
    set.seed(2)
    fit <- cec_ib(b$x, labels, k = 5, beta = 1, type = type, restarts = 2,
                  cov_reg = 2)
    parts <- cec_cost_parts(b$x, fit$cluster, labels, 1, type, cov_reg = 2)
    expect_equal(fit$cost_parts, parts, tolerance = 1e-9, info = type)
    expect_lte(best_single_move_gain(b$x, fit$cluster, labels, 1, type, cov_reg = 2), 1e-9)
  }
})

test_that("cov_reg = 0 is the default, and the regularized fit is affine invariant", {
  x <- scale(iris[, 1:4])
  set.seed(6); a <- cec(x, k = 5, restarts = 2)
  set.seed(6); b <- cec(x, k = 5, restarts = 2, cov_reg = 0)
  expect_identical(a[names(a) != "call"], b[names(b) != "call"])
  start <- rep(1:4, length.out = 150)
  m <- matrix(c(2, 1, 0, 0, 0, 1, 0, 0, 0, 0, 3, 1, 0, 0, 0, 1), 4, 4)
  y <- x %*% m + 5
  f1 <- cec(x, k = 4, start = start, cov_reg = 1)
  f2 <- cec(y, k = 4, start = start, cov_reg = 1)
  expect_equal(f1$cluster, f2$cluster)
  expect_equal(f2$cost - f1$cost, log(abs(det(m))), tolerance = 1e-9)
  expect_error(cec(x, k = 2, cov_reg = -1), "`cov_reg`")
  expect_error(cec(x, k = 2, cov_reg = NA), "`cov_reg`")
})

test_that("cec() fits keep their own print, plot and predict when the CEC package is loaded", {
  skip_if_not_installed("CEC")
  loadNamespace("CEC")  # registers print.cec and plot.cec for CEC's own fits
  x <- scale(iris[, 1:4])
  set.seed(1)
  fit <- cec(x, 3, restarts = 2)
  expect_s3_class(fit, c("cec_fit", "sideclust"), exact = TRUE)
  expect_output(print(fit), "CEC clustering of 150 points into")
  expect_equal(predict(fit, x[1:5, ])$cluster, fit$cluster[1:5])
  expect_output(print(summary(fit)), "CEC")
})

test_that("the small-sample term is the expected minus the in-sample cross-entropy", {
  # Monte Carlo over Gaussian samples of m points: the cross-entropy of a new
  # point under the fitted Gaussian (exact given the true parameters) minus
  # the in-sample cross-entropy, against cec_optimism() and the core's value.
  set.seed(11)
  p <- 3
  m <- 12
  sigma <- crossprod(matrix(rnorm(p * p), p)) + diag(p)
  root <- chol(sigma)
  for (type in c("full", "diagonal", "spherical")) {
    model <- switch(type, full = sigma, diagonal = diag(diag(sigma)),
                    spherical = diag(mean(diag(sigma)), p))
    gap <- replicate(6000, {
      xs <- matrix(rnorm(m * p), m) %*% chol(model)
      mu <- colMeans(xs)
      s <- crossprod(sweep(xs, 2, mu)) / m
      s <- switch(type, full = s, diagonal = diag(diag(s)),
                  spherical = diag(mean(diag(s)), p))
      si <- solve(s)
      in_sample <- mean(rowSums((sweep(xs, 2, mu) %*% si) * sweep(xs, 2, mu)))
      out_sample <- sum(si * model) + sum(mu * (si %*% mu))  # true mean 0
      (out_sample - in_sample) / 2
    })
    expect_lt(abs(mean(gap) - cec_optimism(m, p, type)), 4 * sd(gap) / sqrt(6000))
  }
  # the fit's cost carries the same term
  b <- cec_blobs(15, sep = 6)
  set.seed(1)
  fit <- cec(b$x, k = 3, small_sample = TRUE, restarts = 1)
  expect_equal(fit$cost, cec_cost(b$x, fit$cluster, small_sample = TRUE), tolerance = 1e-10)
  expect_equal(fit$cost - cec_cost(b$x, fit$cluster),
               sum(vapply(split(fit$cluster, fit$cluster), function(a)
                 length(a) / 45 * cec_optimism(length(a), 2, "full"), numeric(1))),
               tolerance = 1e-10)
})

test_that("small_sample fits end where no move and no cluster deletion lowers the cost", {
  b <- cec_blobs(20, sep = 3)
  labels <- b$y
  labels[seq(2, 60, by = 3)] <- NA
  for (type in c("full", "diagonal", "spherical")) {
    set.seed(4)
    fit <- cec_ib(b$x, labels, k = 6, beta = 1, type = type, restarts = 2,
                  small_sample = TRUE)
    parts <- cec_cost_parts(b$x, fit$cluster, labels, 1, type, small_sample = TRUE)
    expect_true(fit$converged, info = type)
    expect_true(fit$small_sample, info = type)
    expect_equal(fit$cost_parts, parts, tolerance = 1e-9, info = type)
    expect_equal(utils::tail(fit$objective, 1), fit$cost, tolerance = 1e-9, info = type)
    expect_lte(best_single_move_gain(b$x, fit$cluster, labels, 1, type, small_sample = TRUE),
               1e-9)
    if (fit$k > 1) expect_lte(best_deletion_gain(b$x, fit$cluster, labels, 1, type), 1e-9)
    expect_true(all(fit$size >= 2 + 3))  # at least p + 3 points
  }
})

test_that("small_sample keeps the planted number of clusters on small samples", {
  # Three well-separated Gaussians of 50 points in 4-D, started at k = 6: the
  # paper's cost keeps extra clusters (they cost less than the planted ones);
  # the small-sample cost returns the three groups in 9 of these 10 draws (in
  # the tenth a group split in two still costs 6e-4 less than whole).
  planted <- function(seed) {
    set.seed(seed)
    y <- rep(1:3, each = 50)
    list(x = matrix(rnorm(150 * 4), 150) + 6 * diag(4)[y, ], y = y)
  }
  k_ml <- k_ss <- nmi_ss <- numeric(10)
  for (s in 1:10) {
    d <- planted(s)
    set.seed(s)
    k_ml[s] <- cec(d$x, k = 6)$k
    set.seed(s)
    fit <- cec(d$x, k = 6, small_sample = TRUE)
    k_ss[s] <- fit$k
    nmi_ss[s] <- nmi(d$y, fit$cluster)
  }
  expect_gte(sum(k_ss == 3), 8)
  expect_true(all(nmi_ss[k_ss == 3] == 1))
  expect_true(all(k_ml > 3))
})

test_that("small_sample is checked and needs p + 3 rows", {
  b <- cec_blobs(10)
  expect_error(cec(b$x, k = 2, small_sample = NA), "small_sample")
  expect_error(cec(b$x[1:4, ], k = 1, small_sample = TRUE), "p \\+ 3 = 5 rows")
  expect_silent(cec(b$x[1:4, ], k = 1))
  set.seed(1)
  expect_identical(cec(b$x, k = 3)$small_sample, FALSE)
})

test_that("on large clusters small_sample gives the paper's partition", {
  b <- cec_blobs(1000, sep = 5)
  start <- rep(1:3, length.out = 3000)
  plain <- cec(b$x, k = 3, start = start)
  small <- cec(b$x, k = 3, start = start, small_sample = TRUE)
  expect_identical(small$cluster, plain$cluster)
  # the costs differ by the small-sample term alone, about 0.005 nats here
  expect_equal(small$cost - plain$cost,
               sum(small$size / 3000 * cec_optimism(small$size, 2, "full")),
               tolerance = 1e-10)
})
