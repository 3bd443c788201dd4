test_that("DP-means gives one cluster for a huge lambda and n for lambda near 0", {
  x <- scale(iris[!duplicated(iris[, 1:4]), 1:4])
  expect_equal(dp_means(x, lambda = 1e6)$k, 1L)
  fit <- dp_means(x, lambda = 1e-9)
  expect_equal(fit$k, nrow(x))
  expect_equal(sort(unname(fit$cluster)), seq_len(nrow(x)))
})

test_that("DP-means ends at a fixed point: nearest centres, means, no point beyond lambda", {
  x <- scale(iris[, 1:4])
  set.seed(3)
  fit <- dp_means(x, k = 3)
  expect_true(fit$converged)
  d <- augmented_distances(fit, x, NULL)
  expect_equal(fit$cluster, max.col(-d, ties.method = "first"))
  expect_true(all(apply(d, 1, min) <= fit$lambda))
  means <- rowsum(x, fit$cluster) / fit$size
  expect_equal(unname(fit$centers), unname(means))
  expect_equal(predict(fit, x)$cluster, fit$cluster)
})

test_that("RDP-means without side information, or with xi = 0, is DP-means", {
  x <- scale(iris[, 1:4])
  set.seed(11); dp <- dp_means(x, k = 4)
  set.seed(11); r0 <- rdp_means(x, NULL, k = 4)
  set.seed(5); side <- sample_constraints(iris$Species, rate = 0.02)
  set.seed(11); rx <- rdp_means(x, side, k = 4, xi = 0, xi_rate = 1)
  expect_equal(r0$cluster, dp$cluster)
  expect_equal(rx$cluster, dp$cluster)
  expect_equal(rx$centers, dp$centers)
})

test_that("at convergence no single move lowers objective (20), for every divergence", {
  n <- 40
  d0 <- rdp_count_data(n)
  y <- d0$y
  counts <- d0$counts
  pairs <- d0$pairs
  for (div in c("sqeuclidean", "kl", "idiv")) {
    x <- if (div == "sqeuclidean") scale(counts) else counts
    set.seed(2)
    fit <- rdp_means(x, pairs, k = 3, divergence = div, xi_max = 2,
                     smoothing = if (div == "idiv") 0.5)
    expect_true(fit$converged)
    d <- augmented_distances(fit, x, pairs)
    own <- d[cbind(seq_len(n), fit$cluster)]
    expect_true(all(own <= apply(d, 1, min) + 1e-9), info = div)
    expect_true(all(own <= fit$lambda + 1e-9), info = div)
    expect_equal(utils::tail(fit$objective, 1), rdp_objective(fit, x, pairs),
                 tolerance = 1e-9, info = div)
  }
})

test_that("every sweep's objective, summed while assigning, equals a recomputation", {
  # A sweep adds up each point's divergence to the centre it chose and
  # subtracts |c| D(new mean, old centre) per cluster (Centres::anchor_gap);
  # after sweep m that must be objective (20) at the state of a run stopped
  # there, for every divergence, dense and sparse points, pairs and labels.
  n <- 60
  d0 <- rdp_count_data(n)
  y <- d0$y
  counts <- d0$counts
  pairs <- d0$pairs
  labels <- sample_labels(y, fraction = 0.3)
  sparse <- if (requireNamespace("Matrix", quietly = TRUE)) c(FALSE, TRUE) else FALSE
  for (div in c("sqeuclidean", "kl", "idiv")) for (sp in sparse) for (m in 1:4) {
    x <- if (div == "sqeuclidean") scale(counts) else counts
    xin <- if (sp) Matrix::Matrix(x, sparse = TRUE) else x
    smoothing <- if (div == "idiv") 0.5
    info <- paste(div, if (sp) "sparse" else "dense", "sweep", m)
    fit <- rdp_means(xin, pairs, k = 4, divergence = div, smoothing = smoothing,
                     order = "fixed", max_iter = m)
    expect_equal(utils::tail(fit$objective, 1), rdp_objective(fit, x, pairs),
                 tolerance = 1e-10, info = info)
    set.seed(m)
    fit <- rdp_means(xin, labels, k = 4, divergence = div, smoothing = smoothing,
                     max_iter = m)
    expect_equal(utils::tail(fit$objective, 1),
                 rdp_objective(fit, x, as_constraints(labels, expand = TRUE)),
                 tolerance = 1e-10, info = paste(info, "labels"))
  }
})

test_that("with fixed weights the objective never increases", {
  b <- three_blobs(30, sep = 2.5)
  set.seed(4)
  side <- sample_constraints(b$y, rate = 0.03, noise = 0.2)
  for (s in 1:5) {
    set.seed(s)
    fit <- rdp_means(b$x, side, k = 3, xi = 1, xi_rate = 1)
    expect_true(all(diff(fit$objective) <= 1e-9 * abs(fit$objective[-1])))
  }
})

test_that("partial labels give the same run as their expanded pairs", {
  x <- scale(iris[, 1:4])
  set.seed(9)
  labels <- sample_labels(iris$Species, fraction = 0.3)
  expanded <- as_constraints(labels, expand = TRUE)
  set.seed(1); by_labels <- rdp_means(x, labels, k = 3, xi_max = 5)
  set.seed(1); by_pairs <- rdp_means(x, expanded, k = 3, xi_max = 5)
  expect_equal(by_labels$cluster, by_pairs$cluster)
  expect_equal(by_labels$objective, by_pairs$objective)
  expect_equal(by_labels$agreement, by_pairs$agreement)
  expect_equal(summary(by_labels)$side[, -1], summary(by_pairs)$side[, -1])
})

test_that("consistent hard constraints with a large xi are all satisfied", {
  for (s in 1:10) {
    b <- three_blobs(25, sep = 2, seed = s)
    side <- sample_constraints(b$y, rate = 0.02, noise = 0)
    expect_equal(nrow(check_constraints(side, quiet = TRUE)), 0L)
    set.seed(s)
    # (one seed's lambda search ends at 4 clusters, with a message: the
    # assertions hold for any number of clusters)
    fit <- suppressMessages(rdp_means(b$x, side, k = 3, xi_max = 1e6, chunklet_moves = TRUE))
    expect_equal(nrow(violations(fit)), 0L)
    expect_equal(fit$agreement[["must_violated"]], 0)
    expect_equal(fit$agreement[["cannot_violated"]], 0)
  }
})

test_that("whole-chunklet moves keep the descent and the local optimum", {
  b <- three_blobs(30, sep = 1.5)
  set.seed(8)
  side <- sample_constraints(b$y, rate = 0.03, noise = 0.1)
  set.seed(1)
  fit <- rdp_means(b$x, side, k = 3, xi = 2, xi_rate = 1, chunklet_moves = TRUE)
  expect_true(fit$converged)
  expect_true(all(diff(fit$objective) <= 1e-9 * abs(fit$objective[-1])))
  d <- augmented_distances(fit, b$x, side)
  expect_true(all(d[cbind(seq_len(90), fit$cluster)] <= apply(d, 1, min) + 1e-9))
  expect_equal(utils::tail(fit$objective, 1), rdp_objective(fit, b$x, side),
               tolerance = 1e-9)
  expect_error(rdp_means(b$x, b$y, k = 3, chunklet_moves = TRUE),
               "`chunklet_moves` needs pairwise side information")
})

test_that("the same seed gives the same result; fixed order needs no seed", {
  x <- scale(wine[, -ncol(wine)])
  set.seed(2); side <- sample_constraints(wine$class, rate = 0.02, noise = 0.1)
  set.seed(42); a <- rdp_means(x, side, k = 3)
  set.seed(42); b <- rdp_means(x, side, k = 3)
  expect_identical(a$cluster, b$cluster)
  expect_identical(a$objective, b$objective)
  set.seed(1); f1 <- rdp_means(x, side, k = 3, order = "fixed")
  set.seed(2); f2 <- rdp_means(x, side, k = 3, order = "fixed")
  expect_identical(f1$cluster, f2$cluster)
})

test_that("random orders: uniform permutations on small data, shuffled blocks on large", {
  visit <- function(n, kind, sweeps = 3L) sideclust:::.visit_orders_cpp(n, kind, sweeps)
  is_perm <- function(o) all(apply(o, 2, function(v) identical(sort(v), seq_along(v) - 1L)))
  fixed <- visit(100L, "fixed", 2L)
  expect_identical(fixed$block, 0L)
  expect_identical(fixed$order[, 2], 0:99)
  small <- visit(1000L, "random")
  expect_identical(small$block, 1L)   # up to 2^16 points: a uniform permutation
  expect_true(is_perm(small$order))
  expect_false(identical(small$order[, 1], small$order[, 2]))
  n <- 70000L
  set.seed(1); big <- visit(n, "random", 2L)
  set.seed(1); expect_identical(visit(n, "random", 2L), big)
  expect_identical(big$block, 1024L)
  expect_true(is_perm(big$order))
  # the points of each block of 1024 consecutive points are visited together
  # and in storage order, the blocks in a random order that changes between
  # sweeps
  o <- big$order[, 1]
  block_of <- o %/% 1024L
  runs <- rle(block_of)
  expect_identical(length(runs$values), as.integer(ceiling(n / 1024)))
  expect_false(anyDuplicated(runs$values) > 0)
  expect_false(identical(runs$values, sort(runs$values)))
  expect_true(all(tapply(o, block_of, function(v) all(diff(v) == 1L))))
  expect_false(identical(big$order[, 1], big$order[, 2]))
  uni <- visit(n, "uniform", 1L)
  expect_identical(uni$block, 1L)
  expect_true(is_perm(uni$order))
})

test_that("order = \"uniform\" and \"random\" fit like each other on easy data", {
  b <- three_blobs(40, sep = 12)
  set.seed(3); side <- sample_constraints(b$y, rate = 0.01)
  set.seed(4); fu <- rdp_means(b$x, side, lambda = 80, order = "uniform")
  set.seed(4); fr <- rdp_means(b$x, side, lambda = 80)
  expect_identical(fu$order, "uniform")
  expect_equal(ari(b$y, fu$cluster), 1)
  expect_equal(ari(b$y, fr$cluster), 1)
  set.seed(5); d <- dp_means(b$x, lambda = 80, order = "uniform", restarts = 2L)
  expect_identical(d$k, 3L)
})

test_that("confidences scale the weights of the pairs", {
  b <- three_blobs(15, sep = 1.5)
  must <- rbind(c(1, 16), c(2, 17))
  strong <- constraints(must = must, n = 45)
  weak <- constraints(must = must, n = 45, confidence = 1e-6)
  set.seed(1); fs <- rdp_means(b$x, strong, k = 3, xi = 100, xi_rate = 1)
  set.seed(1); fw <- rdp_means(b$x, weak, k = 3, xi = 100, xi_rate = 1)
  set.seed(1); f0 <- dp_means(b$x, k = 3)
  expect_equal(fs$agreement[["must_violated"]], 0)
  expect_equal(fw$cluster, f0$cluster)
})

test_that("dp_lambda matches brute-force farthest-first and k-th distance", {
  x <- scale(iris[, 1:4])
  d2 <- function(a, b) sum((a - b)^2)
  mu <- colMeans(x)
  dist <- apply(x, 1, d2, b = mu)
  for (k in 1:4) {
    expect_equal(dp_lambda(x, k, method = "kth_distance"),
                 sort(dist, decreasing = TRUE)[k])
    nearest <- dist
    for (r in seq_len(k)) {
      far <- which.max(nearest)
      lambda <- nearest[far]
      nearest <- pmin(nearest, apply(x, 1, d2, b = x[far, ]))
    }
    expect_equal(dp_lambda(x, k), unname(lambda))
  }
})

test_that("bad input gets errors that name the argument", {
  x <- scale(iris[, 1:4])
  expect_error(dp_means(iris, k = 3), "`x`.*numeric columns.*Species")
  xna <- x; xna[c(4, 9), 2] <- NA
  expect_error(dp_means(xna, k = 3), "`x` has 2 NA values \\(rows 4, 9\\)")
  xinf <- x; xinf[3, 1] <- Inf
  expect_error(dp_means(xinf, k = 3), "`x` has 1 Inf")
  expect_error(dp_means(x[0, ], k = 3), "`x` has no rows")
  expect_error(dp_means(x[, 0], k = 3), "`x` has no columns")
  expect_error(dp_means(x[1, , drop = FALSE], k = 1), "`x` has 1 row")
  expect_error(dp_means(abs(x), divergence = "kl"), "give `k` or `lambda`.*\"sqeuclidean\"")
  expect_error(dp_means(x, lambda = 1, k = 2), "only one of")
  expect_error(dp_means(x, lambda = -1), "`lambda` must be in")
  expect_error(dp_means(x, k = 151), "`k` \\(151\\) is larger than the number of points \\(150\\)")
  expect_error(dp_means(x, k = 0), "`k` must be at least 1")
  expect_error(dp_means(x, k = 2.5), "`k` must be a single whole number")
  expect_error(dp_means(x, k = 3, divergence = "kl"), "`x` has negative values")
  expect_error(dp_means(matrix(0, 3, 2), k = 1, divergence = "kl", smoothing = 0),
               "all-zero")
  expect_error(rdp_means(x, 1:10, k = 3), "side")
  expect_error(rdp_means(x, NULL, k = 3, xi = -1), "`xi` must be")
  expect_error(rdp_means(x, NULL, k = 3, xi_rate = 0), "`xi_rate` must be")
  expect_error(rdp_means(x, NULL, k = 3, max_iter = 0), "`max_iter` must be at least 1")
  fit <- dp_means(x, k = 3)
  expect_error(predict(fit, x[, 1:2]), "`newdata` has 2 columns but the fit has 4")
  expect_error(plot(fit, data = NULL), "`data` is missing")
})

test_that("plot puts the centres on the projected cluster means", {
  x <- scale(wine[, -ncol(wine)])  # scale() attributes must not leak into the PCA
  fit <- dp_means(x, k = 3)
  view <- sideclust:::plane_view(sideclust:::check_data_matrix(x))
  means <- rowsum(view$xy, fit$cluster) / fit$size
  expect_equal(unname(view$project(fit$centers)), unname(means))
})

test_that("print, summary, plot and violations work on a fit", {
  x <- scale(iris[, 1:4])
  set.seed(1)
  side <- sample_constraints(iris$Species, rate = 0.01, noise = 0.2)
  fit <- rdp_means(x, side, k = 3, xi_max = 1)
  expect_output(print(fit), "RDP-means clustering of 150 points")
  expect_output(print(fit), "Available components")
  s <- summary(fit)
  expect_s3_class(s, "summary.sideclust")
  v <- violations(fit)
  expect_equal(sum(s$side$violated), nrow(v))
  expect_true(all((v$type == "must") == (v$cluster_i != v$cluster_j)))
  expect_equal(fitted(fit), fit$cluster)
  expect_equal(nobs(fit), 150L)
  png(tf <- tempfile(fileext = ".png"))
  on.exit(unlink(tf))
  expect_invisible(plot(fit, x))
  dev.off()
  expect_true(file.size(tf) > 0)
})

test_that("an unchanged sweep ends the run when growing weights cannot move a point", {
  b <- three_blobs(40, sep = 20, seed = 2)
  side <- sample_constraints(b$y, rate = 0.02, noise = 0)
  set.seed(1)
  fit <- rdp_means(b$x, side, lambda = 60)
  # the default schedule 0.001 * 2^t reaches the cap 10 only in sweep 15;
  # here the second sweep changes nothing and every pair is kept
  expect_true(fit$converged)
  expect_equal(fit$k, 3L)
  expect_equal(fit$iterations, 2L)
  expect_lt(fit$xi[["must"]], 10)
  expect_equal(fit$agreement[["must_violated"]] + fit$agreement[["cannot_violated"]], 0)
})

test_that("stopping before the weights settle leaves a local optimum at the cap", {
  # whatever sweep the run ends in, no single move lowers objective (20) at the
  # weights the schedule would have reached: the remaining sweeps change nothing
  x <- scale(iris[, 1:4])
  for (s in 1:6) {
    set.seed(s)
    side <- if (s %% 3 == 0) sample_labels(iris$Species, fraction = 0.2) else
      sample_constraints(iris$Species, rate = 0.01, noise = if (s %% 2) 0.1 else 0)
    set.seed(s)
    fit <- rdp_means(x, side, k = 3, xi_max = 5)
    expect_true(fit$converged)
    pairs <- if (inherits(side, "sideclust_labels")) as_constraints(side, expand = TRUE) else side
    for (xi in c(fit$xi[["must"]], 5)) {
      at <- fit
      at$xi[] <- xi
      d <- augmented_distances(at, x, pairs)
      own <- d[cbind(seq_len(nrow(x)), fit$cluster)]
      expect_true(all(own <= apply(d, 1, min) + 1e-9), info = paste(s, xi))
      expect_true(all(own <= fit$lambda + 1e-9), info = paste(s, xi))
    }
  }
})

test_that("check_data_matrix() gives a plain double matrix and names non-finite values", {
  cdm <- sideclust:::check_data_matrix
  x <- matrix(c(1.5, 2, 3, 4), 2, dimnames = list(c("a", "b"), NULL))
  expect_identical(cdm(x), x)  # already plain: returned as is
  expect_identical(cdm(scale(x)), {
    s <- scale(x)
    matrix(as.double(s), 2, 2, dimnames = dimnames(s))
  })
  expect_identical(cdm(matrix(1:4, 2)), matrix(as.double(1:4), 2))
  expect_identical(cdm(data.frame(u = 1:2, v = c(TRUE, FALSE))),
                   matrix(c(1, 2, 1, 0), 2, dimnames = list(NULL, c("u", "v"))))
  expect_error(cdm(matrix(c(1, NA, Inf, NaN, 2, 3), 3)),
               "`x` has 1 NA values, 1 NaN values, 1 Inf values \\(rows 1, 2, 3\\)")
  # finite values whose sum overflows are accepted
  expect_identical(cdm(matrix(c(1e308, 1e308), 2)), matrix(c(1e308, 1e308), 2))
})

test_that("k is the number of clusters: lambda is searched for it and reproduces the fit", {
  x <- scale(wine[, names(wine) != "class"])
  set.seed(1)
  side <- sample_constraints(wine$class, rate = 0.01, noise = 0.1)
  set.seed(2)
  fit <- rdp_means(x, side, k = 3)
  expect_equal(fit$k, 3L)
  expect_equal(length(unique(fit$cluster)), 3L)
  expect_identical(fit$k_method, "k")
  expect_true(fit$lambda_search$found)
  expect_lte(fit$lambda_search$fits, 30L)
  expect_output(print(fit), "searched for k = 3")
  # the reported lambda gives the same fit from the same random state
  set.seed(2)
  again <- rdp_means(x, side, lambda = fit$lambda)
  expect_identical(again$cluster, fit$cluster)
  expect_identical(again$k_method, "lambda")
  # under set.seed() the search is reproducible
  set.seed(2)
  expect_identical(rdp_means(x, side, k = 3)$cluster, fit$cluster)
  for (k in c(2L, 5L)) {
    set.seed(3)
    expect_equal(length(unique(rdp_means(x, side, k = k)$cluster)), k)
    set.seed(3)
    expect_equal(dp_means(x, k = k)$k, k)
  }
  labels <- sample_labels(wine$class, fraction = 0.2)
  expect_equal(rdp_means(x, labels, k = 4)$k, 4L)
})

test_that("without k or lambda, k is chosen by held-out side information, or BIC without side", {
  x <- scale(wine[, names(wine) != "class"])
  set.seed(1)
  side <- sample_constraints(wine$class, rate = 0.03, noise = 0.05)
  fit <- rdp_means(x, side)
  expect_identical(fit$k_method, "held-out side information")
  sel <- fit$k_selection
  expect_equal(fit$k, sel$chosen)
  expect_equal(sel$k, 1:20)
  expect_equal(dim(sel$fold_score), c(5L, 20L))
  expect_equal(fit$k, 3L)
  expect_output(print(fit), "chosen by held-out side information")
  # partial labels are held out by labelled point
  labels <- sample_labels(wine$class, fraction = 0.3)
  by_labels <- rdp_means(x, labels)
  expect_identical(by_labels$k_method, "held-out side information")
  expect_equal(by_labels$k, 3L)
  # DP-means: BIC of the spherical Gaussian mixture over the searched fits
  b <- three_blobs(40, sep = 6)
  set.seed(1)
  dp <- dp_means(b$x)
  expect_identical(dp$k_method, "bic")
  expect_equal(dp$k, 3L)
  expect_equal(which.min(dp$k_selection$bic), 3L)
  expect_output(print(dp), "chosen by BIC")
})

test_that("a k that no lambda gives returns the nearest count with a message", {
  # four distinct points: no lambda opens more than four clusters
  x <- matrix(rep(c(0, 1, 5, 9), each = 5), ncol = 1)
  expect_message(fit <- dp_means(x, k = 6), "`k` = 6: no lambda tried gave exactly 6 clusters")
  expect_equal(fit$k, 4L)
  expect_false(fit$lambda_search$found)
  expect_output(print(fit), "the nearest to k = 6")
  expect_message(rdp_means(x, NULL, k = 6), "nearest, 4 clusters")
})

test_that("the search of lambda for k ends on data with one distinct point", {
  x <- matrix(1, 30, 4)
  side <- constraints(cannot = cbind(c(1, 2, 3), c(2, 3, 1)), n = 30)
  set.seed(1)
  fit <- rdp_means(x, side, k = 3)
  expect_equal(fit$k, 3L)
  expect_lte(fit$lambda_search$fits, 30L)
})
