small_rings <- function(n = 60, seed = 1) {
  set.seed(seed)
  simulate_patterns(n, "rings")
}

test_that("with the linear kernel the objective equals rdp_means()' on its partition", {
  d <- three_blobs(15)
  set.seed(2)
  side <- sample_constraints(d$y, rate = 0.05)
  fit <- rdp_means(d$x, side, k = 3, xi = 0.5, xi_rate = 1)
  obj <- sideclust:::kernel_rdp_objective(d$x, fit$cluster, side, fit$lambda, fit$xi,
                                          kernel = "linear")
  expect_equal(obj, utils::tail(fit$objective, 1), tolerance = 1e-10)
  # and the kernel fit's own reported objective is that of its partition
  set.seed(3)
  kfit <- kernel_rdp_means(d$x, side, lambda = fit$lambda, kernel = "linear", xi = 0.5,
                           xi_rate = 1, init = "one")
  expect_equal(utils::tail(kfit$objective, 1),
               sideclust:::kernel_rdp_objective(d$x, kfit$cluster, side, kfit$lambda, kfit$xi,
                                                kernel = "linear"), tolerance = 1e-10)
  # a DP-means partition: the same with no side information
  dp <- dp_means(d$x, k = 3)
  expect_equal(sideclust:::kernel_rdp_objective(d$x, dp$cluster, NULL, dp$lambda, kernel = "linear"),
               utils::tail(dp$objective, 1), tolerance = 1e-10)
})

test_that("the objective matches the brute force for every kernel form", {
  d <- small_rings(30)
  set.seed(4)
  side <- sample_constraints(d$label, rate = 0.05)
  K <- rbf_matrix(d$x, 0.5)
  set.seed(5)
  fit <- kernel_rdp_means(d$x, side, lambda = 0.8, sigma = 0.5, xi = 0.3, xi_rate = 1)
  ref <- brute_kernel_objective(K, fit$cluster, 0.8, fit$xi, side)
  expect_equal(utils::tail(fit$objective, 1), ref, tolerance = 1e-10)
  for (kk in list(K, Matrix::Matrix(K, sparse = TRUE))) {
    set.seed(5)
    pre <- kernel_rdp_means(kk, side, lambda = 0.8, kernel = "precomputed", xi = 0.3, xi_rate = 1)
    expect_identical(unname(pre$cluster), unname(fit$cluster))
    expect_equal(pre$objective, fit$objective, tolerance = 1e-9)
  }
})

test_that("without side information, or with xi = 0, it is kernel DP-means", {
  d <- small_rings(40)
  set.seed(6)
  side <- sample_constraints(d$label, rate = 0.05)
  set.seed(7)
  a <- kernel_rdp_means(d$x, NULL, lambda = 1, sigma = 0.5)
  set.seed(7)
  b <- kernel_rdp_means(d$x, side, lambda = 1, sigma = 0.5, xi = 0, xi_max = 0)
  expect_identical(a$cluster, b$cluster)
  expect_equal(a$objective, b$objective)
  K <- rbf_matrix(d$x, 0.5)
  expect_equal(utils::tail(a$objective, 1), brute_kernel_objective(K, a$cluster, 1), tolerance = 1e-10)
  expect_gte(best_single_move(K, a$cluster, 1, c(0, 0), NULL), utils::tail(a$objective, 1) - 1e-9)
})

test_that("at convergence no single move lowers the objective", {
  for (seed in 1:3) {
    d <- small_rings(24, seed)
    side <- sample_constraints(d$label, rate = 0.08)
    side$confidence <- runif(length(side$i), 0.3, 1)
    K <- rbf_matrix(d$x, 0.6)
    for (init in c("one", "spectral")) {
      fit <- kernel_rdp_means(d$x, side, lambda = 0.7, sigma = 0.6, xi = c(0.4, 0.9),
                              xi_rate = 1, init = init)
      expect_true(fit$converged)
      obj <- utils::tail(fit$objective, 1)
      expect_gte(best_single_move(K, fit$cluster, 0.7, fit$xi, side), obj - 1e-9)
    }
  }
})

test_that("with fixed weights the objective never increases; non-PSD kernels too", {
  d <- small_rings(80, 2)
  set.seed(8)
  side <- sample_constraints(d$label, rate = 0.02)
  fit <- kernel_rdp_means(d$x, side, lambda = 0.5, sigma = 0.4, xi = 1, xi_rate = 1, init = "one")
  expect_true(all(diff(fit$objective) <= 1e-9))
  # a k-NN graph is not positive semi-definite, the descent still holds
  D <- as.matrix(dist(d$x))
  A <- t(apply(D, 1, function(r) as.numeric(rank(r, ties.method = "first") <= 6)))
  A <- pmax(A, t(A))
  g <- kernel_rdp_means(Matrix::Matrix(A, sparse = TRUE), side, lambda = 2,
                        kernel = "precomputed", xi = 1, xi_rate = 1, init = "one")
  expect_true(all(diff(g$objective) <= 1e-9))
  expect_equal(utils::tail(g$objective, 1), brute_kernel_objective(A, g$cluster, 2, g$xi, side),
               tolerance = 1e-9)
})

test_that("on tiny inputs restarts reach the brute-force optimum", {
  set.seed(9)
  x <- rbind(matrix(rnorm(8, sd = 0.1), 4), matrix(rnorm(6, 2, sd = 0.1), 3))
  side <- constraints(must = rbind(c(1, 2)), cannot = rbind(c(1, 5)), n = 7)
  K <- rbf_matrix(x, 1)
  parts <- all_partitions(7)
  objs <- vapply(parts, function(z) brute_kernel_objective(K, z, 0.3, c(1, 1), side), 0)
  best <- parts[[which.min(objs)]]
  fit <- kernel_rdp_means(x, side, lambda = 0.3, sigma = 1, xi = 1, xi_rate = 1, restarts = 5)
  expect_equal(utils::tail(fit$objective, 1), min(objs), tolerance = 1e-10)
  expect_equal(compare_partitions(best, fit$cluster)[["ari"]], 1)
})

test_that("kernel lambda from k is the farthest-first heuristic in feature space", {
  d <- three_blobs(10)
  expect_equal(sideclust:::resolve_kernel_lambda(sideclust:::prepare_kernel(d$x, "linear"), NULL, 3),
               dp_lambda(d$x, 3), tolerance = 1e-10)
  fit <- kernel_rdp_means(d$x, NULL, 3, kernel = "linear")
  # the search for 3 clusters starts from it
  expect_equal(fit$lambda_search$lambdas[1], dp_lambda(d$x, 3), tolerance = 1e-10)
  expect_equal(fit$k, 3L)
})

test_that("the spectral start and the kernel beat linear RDP-means on rings", {
  set.seed(10)
  d <- simulate_patterns(200, "rings")
  side <- sample_constraints(d$label, rate = 0.01)
  fit <- kernel_rdp_means(d$x, side, lambda = 1.5, sigma = 0.5)
  # in fixed order: linear RDP-means' F-measure here varies with the random
  # visiting order, the comparison should not. With k = 2 clusters (k is a
  # count, not a hint for lambda) the pairs carry linear RDP-means far.
  lin <- rdp_means(d$x, side, k = 2, order = "fixed")
  expect_gt(f_measure(d$label, fit$cluster), f_measure(d$label, lin$cluster))
  expect_gt(f_measure(d$label, fit$cluster), 0.9)
  # merges are what joins the spectral start's many parts
  lone <- kernel_rdp_means(d$x, side, lambda = 1.5, sigma = 0.5, merge_moves = FALSE)
  expect_gt(lone$k, fit$k)
  # partial labels enter the spectral start without expansion
  labels <- sample_labels(d$label, 0.1)
  expect_no_error(kernel_rdp_means(d$x, labels, lambda = 1.5, sigma = 0.5))
})

test_that("the Lanczos start matches the dense one, for every kernel form", {
  skip_if_not_installed("RSpectra")
  d <- small_rings(60)
  side <- as_side_info(sample_constraints(d$label, rate = 0.05), 60)
  labels <- as_side_info(sample_labels(d$label, 0.3), 60)
  xi <- c(must = 2, cannot = 1)
  K <- rbf_matrix(d$x, 0.4)
  kernels <- list(sideclust:::prepare_kernel(d$x, "rbf", 0.4),
                  sideclust:::prepare_kernel(d$x, "linear"),
                  sideclust:::prepare_kernel(K, "precomputed"),
                  sideclust:::prepare_kernel(Matrix::Matrix(K * (K > 0.05), sparse = TRUE), "precomputed"))
  for (kern in kernels) for (s in list(side, labels)) {
    dense <- sideclust:::spectral_vectors(kern, s, 0.5, xi, 4, dense_max = 1000L)
    lanczos <- sideclust:::spectral_vectors(kern, s, 0.5, xi, 4, dense_max = 0L)
    expect_equal(lanczos$values, dense$values, tolerance = 1e-6)
    # the same subspace: projections agree
    expect_equal(tcrossprod(lanczos$vectors), tcrossprod(dense$vectors), tolerance = 1e-5)
  }
  # the side operator without expansion equals the dense E of the expanded labels
  pairs <- as_constraints(labels, expand = TRUE)
  v <- matrix(rnorm(120), 60)
  expect_equal(sideclust:::side_product(labels, 60, xi)(v), sideclust:::side_product(pairs, 60, xi)(v))
})

test_that("predict() reproduces the fitted assignment costs and handles new points", {
  d <- small_rings(100, 3)
  set.seed(11)
  fit <- kernel_rdp_means(d$x, NULL, lambda = 1, sigma = 0.4)
  pr <- predict(fit)
  K <- rbf_matrix(d$x, 0.4)
  # the cost is the squared feature-space distance to each cluster mean
  c1 <- fit$cluster == 1
  expect_equal(unname(pr$cost[5, 1]), K[5, 5] - 2 * mean(K[5, c1]) + mean(K[c1, c1]), tolerance = 1e-10)
  pre <- kernel_rdp_means(K, NULL, lambda = 1, kernel = "precomputed", init = "one")
  expect_equal(predict(pre)$cost, {
    z <- pre$cluster
    sapply(seq_len(pre$k), function(c) diag(K) - 2 * rowMeans(K[, z == c, drop = FALSE]) +
             mean(K[z == c, z == c]))
  }, tolerance = 1e-10, ignore_attr = TRUE)
  expect_equal(predict(pre, K[1:3, ])$cluster, predict(pre)$cluster[1:3], ignore_attr = TRUE)
  lin <- kernel_rdp_means(d$x, NULL, lambda = 1, kernel = "linear", init = "one")
  centres <- rowsum(d$x, lin$cluster) / lin$size
  expect_equal(predict(lin, d$x[1:4, ])$cost,
               as.matrix(dist(rbind(d$x[1:4, ], centres)))[1:4, 4 + seq_len(lin$k)]^2,
               tolerance = 1e-10, ignore_attr = TRUE)
})

test_that("the same seed gives the same fit", {
  d <- small_rings(60)
  side <- sample_constraints(d$label, rate = 0.03)
  set.seed(12)
  a <- kernel_rdp_means(d$x, side, lambda = 1, sigma = 0.4, restarts = 2)
  set.seed(12)
  b <- kernel_rdp_means(d$x, side, lambda = 1, sigma = 0.4, restarts = 2)
  a$call <- b$call <- NULL
  expect_identical(a, b)
})

test_that("bad input gets errors that name the argument", {
  d <- small_rings(20)
  expect_error(kernel_rdp_means(d$x, NULL, lambda = 1, sigma = -1), "sigma")
  expect_error(kernel_rdp_means(d$x, NULL, lambda = -1), "lambda")
  expect_error(kernel_rdp_means(d$x, NULL), "lambda")
  expect_error(kernel_rdp_means(d$x, NULL, lambda = 1, kernel = "poly"), "kernel")
  expect_error(kernel_rdp_means(d$x, NULL, lambda = 1, kernel = "precomputed"), "x")
  K <- rbf_matrix(d$x, 1)
  K[1, 2] <- 5
  expect_error(kernel_rdp_means(K, NULL, lambda = 1, kernel = "precomputed"), "symmetric")
  expect_error(kernel_rdp_means(d$x, 1:3, lambda = 1), "side")
  expect_error(kernel_rdp_means(d$x, NULL, lambda = 1, init = "x"), "init")
  expect_error(kernel_rdp_means(d$x, NULL, lambda = 1, spectral_rank = 0), "spectral_rank")
  fit <- kernel_rdp_means(d$x, NULL, lambda = 1)
  expect_error(predict(fit, d$x[, 1, drop = FALSE]), "newdata")
  expect_error(simulate_patterns(1, "blobs"), "n")
  expect_error(simulate_patterns(10, "cubes"), "pattern")
  expect_error(simulate_patterns(10, noise = -1), "noise")
})

test_that("print, summary and plot work on a fit", {
  d <- small_rings(40)
  fit <- kernel_rdp_means(d$x, sample_constraints(d$label, rate = 0.05), lambda = 1)
  expect_output(print(fit), "Kernel RDP-means")
  expect_output(print(summary(fit)), "sigma")
  pdf(NULL)
  on.exit(dev.off())
  expect_no_error(plot(fit))
})

test_that("simulate_patterns() is reproducible and has the stated shapes", {
  for (p in c("moons", "rings", "spirals", "blobs", "elongated", "nested")) {
    set.seed(1)
    a <- simulate_patterns(101, p)
    set.seed(1)
    expect_identical(simulate_patterns(101, p), a)
    expect_equal(dim(a$x), c(101L, 2L))
    expect_identical(a$pattern, p)
    k <- if (p %in% c("blobs", "elongated")) 3 else 2
    expect_identical(sort(unique(a$label)), seq_len(k))
    expect_lte(diff(range(tabulate(a$label))), 1)
  }
  set.seed(2)
  r <- simulate_patterns(400, "rings", noise = 0)
  expect_equal(sqrt(rowSums(r$x^2)), c(1, 2.5)[r$label])
})

test_that("kernel RDP-means: k is the number of clusters; without k, held-out side information", {
  x <- scale(wine[, names(wine) != "class"])
  set.seed(1)
  side <- sample_constraints(wine$class, rate = 0.02, noise = 0.1)
  set.seed(2)
  fit <- kernel_rdp_means(x, side, k = 3)
  expect_equal(fit$k, 3L)
  expect_equal(length(unique(fit$cluster)), 3L)
  expect_output(print(fit), "searched for k = 3")
  set.seed(2)
  expect_identical(kernel_rdp_means(x, side, lambda = fit$lambda)$cluster, fit$cluster)
  set.seed(3)
  rows <- seq(1, 178, by = 2)
  def <- kernel_rdp_means(x[rows, ], sample_labels(wine$class[rows], fraction = 0.3), init = "one")
  expect_identical(def$k_method, "held-out side information")
  expect_equal(def$k, def$k_selection$chosen)
  expect_error(kernel_rdp_means(x, NULL), "give `k` or `lambda`")
})

test_that("a common shift of the data, however large, leaves kernel fits as they are", {
  # spread 10: a shift of 1e15 rounds the points to multiples of 0.125
  d <- three_blobs(20, sep = 6)
  x <- 10 * d$x
  side <- sample_constraints(d$y, rate = 0.05)
  for (kernel in c("rbf", "linear")) {
    set.seed(3)
    ref <- kernel_rdp_means(x, side, lambda = if (kernel == "rbf") 0.5 else 500, kernel = kernel)
    for (shift in c(1e10, 1e15)) {
      set.seed(3)
      fit <- kernel_rdp_means(x + shift, side, lambda = ref$lambda, kernel = kernel)
      expect_equal(compare_partitions(ref$cluster, fit$cluster)[["ari"]], 1,
                   label = sprintf("%s kernel, shift %g", kernel, shift))
      expect_equal(compare_partitions(predict(ref, x[1:10, ])$cluster,
                                      predict(fit, x[1:10, ] + shift)$cluster)[["ari"]], 1)
    }
    # the search of lambda for k runs on the kernel too, so it finds the same
    set.seed(4)
    shifted <- kernel_rdp_means(x + 1e10, side, k = 3, kernel = kernel)
    set.seed(4)
    plain <- kernel_rdp_means(x, side, k = 3, kernel = kernel)
    expect_equal(shifted$lambda, plain$lambda, tolerance = 1e-6)
    expect_equal(compare_partitions(plain$cluster, shifted$cluster)[["ari"]], 1)
  }
})
