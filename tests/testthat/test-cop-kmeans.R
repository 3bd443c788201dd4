test_that("without side information cop_kmeans() is Lloyd's k-means", {
  x <- scale(iris[, 1:4])
  set.seed(3)
  start <- x[sample(nrow(x), 3), ]
  km <- stats::kmeans(x, centers = start, algorithm = "Lloyd", iter.max = 100)
  for (side in list(NULL, constraints(n = nrow(x)))) {
    for (order in c("random", "data")) {
      fit <- cop_kmeans(x, side, start = start, order = order)
      expect_identical(unname(fit$cluster), unname(km$cluster))
      expect_equal(unname(fit$centers), unname(km$centers), tolerance = 1e-8)
      expect_equal(colnames(fit$centers), colnames(x))
      expect_equal(fit$within, km$tot.withinss, tolerance = 1e-8)
      expect_identical(fit$violated, 0L)
      expect_identical(nrow(fit$violations), 0L)
      expect_true(fit$converged)
      expect_identical(fit$init, "start")
    }
  }
  d <- cvqe_blobs(15, sd = 1.5, seed = 4)
  start <- d$x[c(1, 2, 16, 31, 32), ]
  km <- stats::kmeans(d$x, centers = start, algorithm = "Lloyd", iter.max = 100)
  fit <- cop_kmeans(d$x, NULL, k = 5, start = start)
  expect_identical(unname(fit$cluster), unname(km$cluster))
  expect_equal(unname(fit$centers), unname(km$centers), tolerance = 1e-8)
})

test_that("constraints are kept, W never increases and the fit is a feasible local optimum", {
  d <- cvqe_blobs(12, sd = 1.6, seed = 8)
  x <- d$x
  set.seed(2)
  side <- sample_constraints(d$y, "nelson_cohen", n_constraints = 30)
  # three groups pairwise cannot-linked: k >= 3
  for (k in 3:5) for (order in c("random", "data")) {
    set.seed(k)
    fit <- cop_kmeans(x, side, k = k, restarts = 5, order = order)
    expect_true(cop_feasible_r(fit$cluster, side))
    expect_identical(fit$violated, 0L)
    expect_true(all(diff(fit$objective) <= 1e-9 * fit$objective[1]))
    expect_equal(fit$within, cop_within_r(x, fit$cluster, fit$centers), tolerance = 1e-10)
    expect_equal(utils::tail(fit$objective, 1), fit$within)
    expect_true(fit$converged)
    # the centres are the means, and no single component can move to a
    # feasible, strictly nearer centre
    means <- rowsum(x, fit$cluster) / as.vector(table(fit$cluster))
    expect_equal(unname(fit$centers), unname(means), tolerance = 1e-10)
    expect_true(cop_local_optimum_r(x, fit$cluster, fit$centers, side))
  }
})

test_that("restarts reach the brute-force optimum over feasible labelings on tiny inputs", {
  x <- rbind(c(0, 0), c(0.3, 0.1), c(0.1, 0.4), c(3, 0), c(3.2, 0.3), c(1.6, 2.5), c(1.4, 2.9))
  side <- constraints(must = rbind(c(1, 4)), cannot = rbind(c(2, 3), c(5, 6)), n = 7)
  for (k in 2:3) {
    best <- cop_brute_force(x, side, k)
    set.seed(10 + k)
    fit <- cop_kmeans(x, side, k = k, restarts = 20, init = "random")
    expect_true(cop_feasible_r(fit$cluster, side))
    expect_equal(fit$within, best, tolerance = 1e-10)
    # ... and every run that succeeds is feasible and no better than the optimum
    for (s in 1:10) {
      set.seed(s)
      one <- tryCatch(cop_kmeans(x, side, k = k, restarts = 1), error = function(e) NULL)
      if (is.null(one)) next
      expect_true(cop_feasible_r(one$cluster, side))
      expect_gte(one$within, best - 1e-10)
    }
  }
})

test_that("infeasible constraints give errors that name the points", {
  x <- matrix(c(0, 0.1, 0.2, 5, 5.1, 5.2), 6, 1)
  chain <- constraints(must = rbind(c(1, 2), c(2, 5)), cannot = rbind(c(1, 5)), n = 6)
  expect_error(cop_kmeans(x, chain, k = 2),
               "points 1 and 5 are cannot-linked but joined by must-links \\(1 - 2 - 5\\)")
  # "nearest" breaks the cannot-link inside the group, and only what it must
  near <- cop_kmeans(x, chain, k = 2, infeasible = "nearest", restarts = 3)
  broken <- with(chain, !must & near$cluster[i] == near$cluster[j])
  expect_true(broken[chain$i == 1 & chain$j == 5 & !chain$must])
  expect_equal(near$violated, sum(broken))
  expect_true(all(with(chain, near$cluster[i] == near$cluster[j])[chain$must]))
  # three points pairwise cannot-linked and two clusters: no run can succeed
  triangle <- constraints(cannot = rbind(c(1, 2), c(1, 3), c(2, 3)), n = 6)
  expect_error(cop_kmeans(x, triangle, k = 2, order = "data", restarts = 3),
               "all 3 runs.*point 3 .*cannot-links 1-3, 2-3.*infeasible = \"nearest\"")
  rownames(x) <- letters[1:6]
  expect_error(cop_kmeans(x, triangle, k = 2, order = "data", restarts = 1),
               "point 3 \\(\"c\"\\)")
  # a blocked must-link component is named by all its points
  blocked <- constraints(must = rbind(c(3, 4)), cannot = rbind(c(1, 2), c(1, 3), c(2, 4)), n = 6)
  expect_error(cop_kmeans(x, blocked, start = x[1:2, , drop = FALSE], order = "data"),
               "must-linked points 3 \\(\"c\"\\), 4 \\(\"d\"\\)")
  # three clusters make it feasible
  set.seed(1)
  fit <- cop_kmeans(x, triangle, k = 3)
  expect_true(cop_feasible_r(fit$cluster, triangle))
})

test_that("infeasible = \"nearest\" breaks few cannot-links and reports them", {
  d <- cvqe_blobs(8, sd = 0.5, seed = 3)
  x <- d$x
  # a clique of four points with three clusters: at least one pair shares one
  clique <- t(utils::combn(c(1, 9, 17, 2), 2))
  side <- constraints(must = rbind(c(3, 4)), cannot = rbind(clique, c(10, 18)), n = nrow(x))
  for (s in 1:4) {
    set.seed(s)
    fit <- cop_kmeans(x, side, k = 3, infeasible = "nearest", restarts = 3)
    broken <- !side$must & fit$cluster[side$i] == fit$cluster[side$j]
    expect_identical(fit$violated, sum(broken))
    expect_identical(fit$violations, data.frame(i = side$i[broken], j = side$j[broken]))
    expect_gte(fit$violated, 1L)
    expect_identical(unname(fit$cluster[3]), unname(fit$cluster[4]))
    expect_true(cop_local_optimum_r(x, fit$cluster, fit$centers, side))
    expect_equal(nrow(violations(fit)), fit$violated)
  }
  expect_error(cop_kmeans(x, side, k = 3, restarts = 2), "cannot be satisfied")
})

test_that("set.seed reproduces fits; order, init and the shared methods work", {
  x <- scale(iris[, 1:4])
  set.seed(2)
  side <- sample_constraints(iris$Species, "nelson_cohen", n_constraints = 40)
  set.seed(10)
  a <- cop_kmeans(x, side, k = 3)
  set.seed(10)
  b <- cop_kmeans(x, side, k = 3)
  expect_identical(a, b)
  expect_s3_class(a, c("cop_kmeans", "sideclust"))
  expect_identical(a$restarts, 10L)
  expect_identical(a$order, "random")
  expect_true(cop_feasible_r(a$cluster, side))
  # confidences are ignored
  soft <- side
  soft$confidence[] <- 0.01
  set.seed(10)
  expect_identical(cop_kmeans(x, soft, k = 3)$cluster, a$cluster)
  # the data order needs no random numbers beyond the seeds
  start <- x[c(1, 51, 101), ]
  expect_identical(cop_kmeans(x, side, start = start, order = "data"),
                   cop_kmeans(x, side, start = start, order = "data"))
  set.seed(10)
  r <- cop_kmeans(x, side, k = 3, init = "random", restarts = 2)
  expect_identical(r$init, "random")
  expect_output(print(a), "COP-k-means clustering of 150 points into 3 clusters")
  expect_output(print(summary(a)), "COP-k-means")
  expect_identical(fitted(a), a$cluster)
  p <- predict(a, x[1:20, ])
  expect_identical(p$cluster, a$cluster[1:20])
  expect_equal(p$cost[1, ], colSums((t(a$centers) - x[1, ])^2), ignore_attr = TRUE)
  expect_error(predict(a, x[, 1:2]), "newdata")
  msgs <- capture_messages(cop_kmeans(x, k = 2, restarts = 1, verbose = TRUE))
  expect_match(msgs, "iteration")
  # partial labels are expanded into pairs
  labels <- rep(NA, 150)
  labels[c(1, 2, 51, 52, 101)] <- c(1, 1, 2, 2, 3)
  lab <- cop_kmeans(x, labels, k = 3, restarts = 2)
  expect_length(lab$side$i, 10)
  expect_true(cop_feasible_r(lab$cluster, lab$side))
})

test_that("bad input gives errors that name the argument", {
  x <- scale(iris[, 1:4])
  expect_error(cop_kmeans(x), "`k` is missing")
  expect_error(cop_kmeans(x, k = 0), "`k`")
  expect_error(cop_kmeans(x, k = 2, restarts = 0), "`restarts`")
  expect_error(cop_kmeans(x, k = 2, max_iter = 0), "`max_iter`")
  expect_error(cop_kmeans(x, k = 2, init = "foo"), "`init`")
  expect_error(cop_kmeans(x, k = 2, order = "foo"), "`order`")
  expect_error(cop_kmeans(x, k = 2, infeasible = "ignore"), "`infeasible`")
  expect_error(cop_kmeans(x, k = 2, verbose = NA), "`verbose`")
  expect_error(cop_kmeans(x, k = 3, start = x[1:3, 1:2]), "`start`")
  expect_error(cop_kmeans(iris, k = 2), "`x`")
  expect_error(cop_kmeans(x, constraints(must = rbind(c(1, 2)), n = 10), k = 2), "`side`")
  expect_warning(fit <- cop_kmeans(x, k = 3, max_iter = 1, restarts = 1), "max_iter")
  expect_false(fit$converged)
})

test_that("cop_kmeans finds conclust::ckmeans's stored partition on separated blobs", {
  fx <- read_fixture("conclust-ckmeans")
  set.seed(7)
  fit <- cop_kmeans(fx$input$x, fixture_side(fx$input), k = 3)
  expect_equal(ari(fx$output$cluster, fit$cluster), 1)
  expect_equal(ari(fx$input$y, fit$cluster), 1)
})

test_that("conclust::ckmeans finds the same partition on separated blobs", {
  skip_if_not_installed("conclust")
  d <- cvqe_blobs(15, sd = 0.4, seed = 6)
  set.seed(7)
  side <- sample_constraints(d$y, "nelson_cohen", n_constraints = 20)
  pm <- conclust_pairs(side)
  fit <- cop_kmeans(d$x, side, k = 3)
  set.seed(7)
  ref <- conclust::ckmeans(d$x, 3, pm$must, pm$cannot)
  expect_equal(ari(ref, fit$cluster), 1)
  expect_equal(ari(d$y, fit$cluster), 1)
})
