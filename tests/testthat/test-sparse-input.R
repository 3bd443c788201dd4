# Sparse data (document-term matrices) stay sparse in rdp_means() / dp_means(),
# tvclust(family = "multinomial") and cvqe(), and give the dense data's fit.

skip_if_not_installed("Matrix")

docs <- sparse_docs()
x <- docs$x
xs <- Matrix::Matrix(x, sparse = TRUE)

test_that("rdp_means() on sparse data equals the dense fit for every divergence and order", {
  set.seed(7)
  side <- sample_constraints(docs$topic, rate = 0.01)
  grid <- expand.grid(divergence = c("kl", "idiv", "sqeuclidean"), smoothing = c(NA, 0.5),
                      order = c("random", "fixed"), stringsAsFactors = FALSE)
  grid <- grid[!(grid$divergence == "sqeuclidean" & !is.na(grid$smoothing)), ]
  for (r in seq_len(nrow(grid))) {
    g <- grid[r, ]
    sm <- if (is.na(g$smoothing)) NULL else g$smoothing
    lambda <- dp_lambda(x, k = 3, divergence = g$divergence, smoothing = sm)
    expect_equal(dp_lambda(xs, k = 3, divergence = g$divergence, smoothing = sm), lambda,
                 tolerance = 1e-12)
    # off the tie of the point lambda comes from, which dense and sparse
    # sums may break either way (see ?rdp_means, Sparse data)
    lambda <- lambda * (1 + 1e-9)
    fits <- fit_both(function(d) {
      rdp_means(d, side, lambda = lambda, divergence = g$divergence, smoothing = sm,
                order = g$order)
    }, x, xs)
    label <- paste(g$divergence, g$smoothing, g$order)
    expect_identical(fits$sparse$cluster, fits$dense$cluster, label = label)
    expect_equal(fits$sparse$objective, fits$dense$objective, tolerance = 1e-9, label = label)
    expect_equal(fits$sparse$centers, fits$dense$centers, tolerance = 1e-9, label = label)
  }
})

test_that("every sparse class gives the same fit, and the data are not copied into the fit", {
  ref <- fit_both(function(d) dp_means(d, k = 3, divergence = "kl"), x, xs)
  expect_identical(ref$sparse$cluster, ref$dense$cluster)
  forms <- list(dgR = methods::as(xs, "RsparseMatrix"), dgT = methods::as(xs, "TsparseMatrix"),
                triplets = as_triplets(x))
  for (nm in names(forms)) {
    set.seed(1)
    fit <- dp_means(forms[[nm]], k = 3, divergence = "kl")
    expect_identical(fit$cluster, ref$dense$cluster, label = nm)
    expect_equal(fit$objective, ref$dense$objective, tolerance = 1e-9, label = nm)
  }
  expect_s4_class(ref$sparse$data, "dgCMatrix")
  expect_identical(names(ref$sparse$cluster), rownames(x))
  expect_identical(colnames(ref$sparse$centers), colnames(x))
})

test_that("predict() reads sparse training data and sparse new data", {
  fits <- fit_both(function(d) rdp_means(d, NULL, k = 3, divergence = "kl"), x, xs)
  a <- predict(fits$dense)
  b <- predict(fits$sparse)
  expect_identical(b$cluster, a$cluster)
  expect_equal(b$cost, a$cost, tolerance = 1e-12)
  c2 <- predict(fits$dense, xs[1:10, ])
  expect_equal(c2$cost, a$cost[1:10, ], tolerance = 1e-12)
  expect_error(predict(fits$sparse, xs[, 1:5]), "`newdata` has 5 columns but the fit has 60")
})

test_that("whole-chunklet moves give the same fit on sparse data", {
  set.seed(2)
  side <- sample_constraints(docs$topic, rate = 0.02)
  fits <- fit_both(function(d) {
    rdp_means(d, side, k = 3, divergence = "kl", chunklet_moves = TRUE)
  }, x, xs)
  expect_identical(fits$sparse$cluster, fits$dense$cluster)
  expect_equal(fits$sparse$objective, fits$dense$objective, tolerance = 1e-9)
})

test_that("a sparse matrix far too large to densify runs (memory follows the non-zeros)", {
  # 2000 x 2e6 would be 32 GB dense; it holds 6000 non-zeros.
  n <- 2000
  p <- 2e6
  set.seed(5)
  group <- rep(1:2, each = n / 2)
  # centres stay dense: keep k small (here lambda from k = 2)
  j <- c(sample(10, n * 3, TRUE) + ifelse(rep(group, 3) == 1, 0, 1e6))
  big <- Matrix::sparseMatrix(i = rep(seq_len(n), 3), j = j, x = 1, dims = c(n, p))
  # smoothing 0: 0.3 on each of 2e6 columns would drown the 3 counts a row
  fit <- dp_means(big, k = 2, divergence = "idiv", smoothing = 0, order = "fixed", max_iter = 5)
  expect_length(fit$cluster, n)
  expect_lte(fit$k, 2L)
  expect_equal(dim(fit$centers), c(fit$k, p))
})

test_that("cvqe() on sparse data equals the dense fit, with and without constraints", {
  set.seed(4)
  side <- sample_constraints(docs$topic, "nelson_cohen", n_constraints = 80, noise = 0.1)
  for (init in c("kmeans++", "random")) {
    for (s in list(NULL, side)) {
      fits <- fit_both(function(d) cvqe(d, s, k = 3, init = init, restarts = 3), x, xs)
      label <- paste(init, is.null(s))
      expect_identical(fits$sparse$cluster, fits$dense$cluster, label = label)
      expect_equal(fits$sparse$objective, fits$dense$objective, tolerance = 1e-9, label = label)
      expect_equal(fits$sparse$centers, fits$dense$centers, tolerance = 1e-9, label = label)
      expect_equal(c(fits$sparse$within, fits$sparse$penalty),
                   c(fits$dense$within, fits$dense$penalty), tolerance = 1e-9, label = label)
    }
  }
  start <- x[c(1, 50, 100), ]
  a <- cvqe(x, side, start = start)
  b <- cvqe(methods::as(xs, "RsparseMatrix"), side, start = start)
  expect_identical(b$cluster, a$cluster)
  expect_s4_class(b$data, "RsparseMatrix")
  expect_identical(colnames(b$centers), colnames(x))
  expect_identical(names(b$cluster), rownames(x))
  # predict() on the sparse training data, on sparse and on dense new data
  p_dense <- predict(a)
  expect_identical(predict(b)$cluster, p_dense$cluster)
  expect_equal(predict(b, xs[1:10, ])$cost, p_dense$cost[1:10, ], tolerance = 1e-9)
  expect_equal(predict(b, x[1:10, ])$cost, p_dense$cost[1:10, ], tolerance = 1e-9)
  expect_error(predict(b, xs[, 1:5]), "`newdata` has 5 columns but the fit has 60")
  expect_error(cvqe(xs, k = 200), "`k` \\(200\\) is larger than the number of points in `x` \\(150\\)")
  # fewer distinct rows than k: seeds repeat, empty clusters are dropped
  few <- Matrix::Matrix(x[rep(1:2, 10), ], sparse = TRUE)
  set.seed(1)
  expect_lte(cvqe(few, k = 4, restarts = 2)$k, 2L)
})

test_that("cvqe() runs on a sparse matrix too wide to densify", {
  n <- 1000
  p <- 1e6  # 8 GB dense
  set.seed(6)
  group <- rep(1:2, each = n / 2)
  j <- sample(20, n * 3, TRUE) + ifelse(rep(group, 3) == 1, 0, 5e5)
  big <- Matrix::sparseMatrix(i = rep(seq_len(n), 3), j = j, x = 1, dims = c(n, p))
  side <- sample_constraints(group, "nelson_cohen", n_constraints = 50)
  fit <- cvqe(big, side, k = 2, restarts = 2, max_iter = 20)
  tab <- table(fit$cluster, group)
  expect_identical(dim(tab), c(2L, 2L))
  expect_true(all(rowSums(tab > 0) == 1))  # the two word groups, whatever the labels
})

test_that("sparse input errors name the argument and the rows", {
  neg <- xs
  neg[3, 2] <- -1
  expect_error(rdp_means(neg, NULL, k = 2, divergence = "kl"),
               "`x` has negative values \\(rows 3\\), but divergence \"kl\"")
  bad <- xs
  bad[4, 2] <- NA
  expect_error(dp_means(bad, k = 2), "`x` has 1 NA, NaN or infinite values \\(rows 4\\)")
  empty <- xs
  empty[5, ] <- 0
  expect_error(dp_means(empty, k = 2, divergence = "kl", smoothing = 0),
               "`x` has all-zero rows 5; use `smoothing` > 0")
  expect_error(tvclust(neg, family = "multinomial", iter = 5),
               "`x` must hold counts for family \"multinomial\" but has negative values \\(rows 3\\)")
})

test_that("tvclust(family = \"multinomial\") Gibbs on sparse counts gives the dense draws", {
  set.seed(4)
  side <- sample_constraints(docs$topic, rate = 0.01)
  fits <- fit_both(function(d) {
    tvclust(d, side, family = "multinomial", iter = 40, chains = 2, threads = 1,
            chunklet_moves = TRUE)
  }, x, xs)
  a <- fits$dense
  b <- fits$sparse
  expect_identical(unname(b$draws), unname(a$draws))
  expect_identical(b$cluster, a$cluster)
  expect_equal(b$trace$log_posterior, a$trace$log_posterior, tolerance = 1e-9)
  expect_equal(predict(b)$probability, predict(a)$probability, tolerance = 1e-9)
  expect_equal(predict(b, x[1:5, ])$probability, predict(a)$probability[1:5, ], tolerance = 1e-9)
  expect_equal(coef(b), coef(a), tolerance = 1e-12)
  expect_equal(logLik(b), logLik(a), tolerance = 1e-9)
  expect_equal(tvclust_prior(xs, "multinomial"), tvclust_prior(x, "multinomial"))
})

test_that("tvclust(method = \"variational\") on sparse counts gives the dense fit", {
  set.seed(4)
  side <- sample_constraints(docs$topic, rate = 0.01)
  for (init in c("kmeans++", "random")) {
    fits <- fit_both(function(d) {
      tvclust(d, side, family = "multinomial", method = "variational", init = init,
              restarts = 2)
    }, x, xs)
    a <- fits$dense
    b <- fits$sparse
    expect_identical(b$cluster, a$cluster, label = init)
    expect_equal(b$trace$elbo, a$trace$elbo, tolerance = 1e-9, label = init)
    expect_equal(b$membership, a$membership, tolerance = 1e-9, label = init)
  }
  expect_equal(predict(b)$probability, predict(a)$probability, tolerance = 1e-9)
  expect_equal(coef(b), coef(a), tolerance = 1e-12)
  expect_equal(logLik(b), logLik(a), tolerance = 1e-9)
})

test_that("tvclust's Gaussian families densify sparse data (their arithmetic is dense)", {
  fits <- fit_both(function(d) {
    tvclust(d[, 1:4], family = "diagonal", iter = 20, chains = 1, threads = 1)
  }, x, xs)
  expect_identical(fits$sparse$cluster, fits$dense$cluster)
})

test_that("augment() refuses to densify sparse data and takes the columns given", {
  fit <- rdp_means(xs, NULL, k = 3, divergence = "kl")
  expect_error(augment(fit), "`data` is a sparse matrix, which a data frame would store densely")
  out <- augment(fit, data = data.frame(row = seq_len(nrow(x))))
  expect_identical(nrow(out), nrow(x))
  expect_true(".cluster" %in% names(out))
})

test_that("a lambda that opens too many dense centres stops with a message, not by exhausting memory", {
  old <- options(sideclust.max_center_bytes = 32 * ncol(x) * 5)
  on.exit(options(old))
  expect_error(dp_means(xs, lambda = 1e-9, divergence = "kl"),
               "opened more clusters than the dense centres may hold \\(5 centres of 60 coordinates")
})
