test_that("parallel_ib reports the informations of its clusterings and ends at a local optimum", {
  set.seed(11)
  x <- matrix(rpois(14 * 6, 2), 14, 6) + diag(3, 14, 6)
  x[rowSums(x) == 0, 1] <- 1
  p <- info_joint(x)
  for (init in c("greedy", "random")) for (beta in c(Inf, 8, 2)) {
    set.seed(1)
    fit <- parallel_ib(x, k = c(3, 2), beta = beta, restarts = 2, init = init)
    cl <- fit$clusters
    expect_true(fit$converged)
    expect_equal(dim(cl), c(14L, 2L))
    expect_identical(fit$cluster, cl[, 1])
    lmax <- lmax_parallel_plain(p, cl, beta)
    expect_equal(utils::tail(fit$objective, 1), lmax, tolerance = 1e-10)
    expect_equal(max(fit$restart_objective), lmax, tolerance = 1e-10)
    cell <- as.integer(interaction(as.data.frame(cl), drop = TRUE))
    expect_equal(fit$info_y, info_cy(p, cell), tolerance = 1e-10)
    expect_equal(fit$info_x, unname(apply(cl, 2, function(c) {
      entropy_plain(rowsum(rowSums(p), c)[, 1])
    })), tolerance = 1e-10)
    expect_equal(fit$info_y_each, unname(apply(cl, 2, function(c) info_cy(p, c))),
                 tolerance = 1e-10)
    expect_equal(fit$info_xy, mi_plain(p), tolerance = 1e-12)
    expect_equal(fit$k, unname(apply(cl, 2, max)))
    # Monotone: L_max never decreases from pass to pass once all clusterings
    # move (the greedy start adds one clustering at a time before that).
    expect_equal(fit$init_passes > 0, init == "greedy")
    joint_stage <- fit$objective[max(1L, fit$init_passes):length(fit$objective)]
    expect_true(all(diff(joint_stage) >= -1e-12))
    # No move of one row in one clustering raises L_max.
    expect_lte(best_move_gain_parallel(p, cl, c(3, 2), beta), 1e-12)
  }
})

test_that("parallel_ib with one clustering is sib (same seed, same clusters)", {
  set.seed(12)
  d <- planted_counts(10, 9, 3, strength = 2, size = 10)
  for (seed in 1:3) {
    set.seed(seed); a <- sib(d$x, k = 3, restarts = 3)
    set.seed(seed); b <- parallel_ib(d$x, k = 3, restarts = 3)
    expect_identical(b$cluster, a$cluster)
    expect_equal(b$info_y, a$info_y, tolerance = 1e-14)
    expect_equal(b$objective, a$objective, tolerance = 1e-14)
    expect_equal(b$restart_objective, a$restart_info, tolerance = 1e-14)
    expect_equal(b$iterations, a$iterations)
  }
  start <- rep(1:3, 10)
  set.seed(9); a <- sib(d$x, k = 3, restarts = 1, start = start)
  set.seed(9); b <- parallel_ib(d$x, k = 3, restarts = 1, start = start)
  expect_identical(b$cluster, a$cluster)
})

test_that("parallel_ib reaches the exhaustive optimum on a tiny input", {
  set.seed(13)
  x <- matrix(rpois(6 * 4, 3), 6, 4) + 1
  p <- info_joint(x)
  lab <- all_labelings(6, 2, first_fixed = TRUE)
  for (beta in c(Inf, 3)) {
    values <- vapply(seq_len(nrow(lab)), function(i) {
      max(vapply(seq_len(nrow(lab)), function(j) {
        lmax_parallel_plain(p, cbind(lab[i, ], lab[j, ]), beta)
      }, 0))
    }, 0)
    set.seed(2)
    fit <- parallel_ib(x, k = c(2, 2), beta = beta, restarts = 30)
    expect_lte(utils::tail(fit$objective, 1), max(values) + 1e-12)
    expect_equal(utils::tail(fit$objective, 1), max(values), tolerance = 1e-10)
  }
})

test_that("parallel_ib finds two independent groupings that are each informative about Y", {
  set.seed(14)
  d <- two_groupings(60, m_half = 8, strength = 5)
  set.seed(3)
  fit <- parallel_ib(d$x, k = c(2, 2), restarts = 5)
  found <- fit$clusters
  # Together the two clusterings give the planted product partition, and the
  # first (started alone, as sib) is one of the planted groupings.
  expect_equal(nmi(interaction(d$a, d$b), interaction(found[, 1], found[, 2])), 1)
  expect_equal(max(nmi(found[, 1], d$a), nmi(found[, 1], d$b)), 1)
  # The functional sees only the product partition (and, for a finite beta,
  # the cluster masses): at beta = Inf, (a, b) and (a, a xor b) tie, so the
  # second clustering may be either.
  p <- info_joint(d$x)
  expect_equal(lmax_parallel_plain(p, cbind(d$a, d$b)),
               lmax_parallel_plain(p, cbind(d$a, 1 + (d$a != d$b))), tolerance = 1e-12)
  expect_equal(lmax_parallel_plain(p, found), lmax_parallel_plain(p, cbind(d$a, d$b)),
               tolerance = 1e-12)
  # sib with the same total number of cells can only match the product partition.
  set.seed(3)
  flat <- sib(d$x, k = 4, restarts = 5)
  expect_lte(fit$info_y, flat$info_y + 1e-12)
})

test_that("parallel_ib is reproducible, and the same on sparse and dense input", {
  set.seed(15)
  d <- two_groupings(30)
  s <- Matrix::Matrix(d$x, sparse = TRUE)
  set.seed(4); a <- parallel_ib(d$x, k = c(2, 3), restarts = 2)
  set.seed(4); b <- parallel_ib(d$x, k = c(2, 3), restarts = 2)
  set.seed(4); c <- parallel_ib(s, k = c(2, 3), restarts = 2)
  expect_identical(a$clusters, b$clusters)
  expect_identical(a$clusters, c$clusters)
  expect_equal(a$objective, c$objective, tolerance = 1e-14)
  start <- cbind(rep(1:2, 15), rep(1:3, 10))
  fit <- parallel_ib(d$x, k = c(2, 3), restarts = 1, start = start, max_iter = 1)
  expect_equal(fit$iterations, 1L)
  expect_message(parallel_ib(d$x, k = c(2, 2), restarts = 1, verbose = TRUE), "pass +1")
})

test_that("iterative parallel_ib is ib() with one clustering and a fixed point of (21)-(22)", {
  set.seed(31)
  d <- planted_counts(8, 6, 3, strength = 3, size = 20)
  set.seed(2); a <- ib(d$x, k = 3, beta = 30, restarts = 1, tol = 1e-12, max_iter = 2000)
  set.seed(2); b <- parallel_ib(d$x, k = 3, beta = 30, method = "iterative", restarts = 1,
                                tol = 1e-12, max_iter = 2000)
  expect_equal(unname(b$membership[[1]]), unname(a$membership), tolerance = 1e-10)
  expect_identical(b$cluster, a$cluster)
  expect_equal(b$objective, -a$objective / 30, tolerance = 1e-10)
  expect_equal(b$info_y, a$info_y, tolerance = 1e-10)

  set.seed(32)
  g <- two_groupings(24, m_half = 4, strength = 5)
  p <- info_joint(g$x)
  hard <- parallel_ib(g$x, c(2, 2), restarts = 3)
  for (beta in c(8, 40)) {
    fit <- parallel_ib(g$x, c(2, 2), beta = beta, method = "iterative", start = hard$clusters,
                       restarts = 2, tol = 1e-10, max_iter = 3000)
    expect_true(fit$converged)
    ws <- fit$membership
    for (j in 1:2) {
      expect_lt(max(abs(soft_parallel_update_plain(p, ws, j, beta) - ws[[j]])), 1e-7)
      expect_equal(fit$info_x[j], soft_info_plain(ws[[j]], rowSums(p)), tolerance = 1e-10)
      expect_equal(fit$info_y_each[j], mi_plain(crossprod(ws[[j]], p)), tolerance = 1e-10)
      expect_identical(fit$clusters[, j], unname(max.col(ws[[j]], "first")))
    }
    cw <- ws[[1]][, rep(1:2, 2)] * ws[[2]][, rep(1:2, each = 2)]
    expect_equal(fit$info_y, mi_plain(crossprod(cw, p)), tolerance = 1e-10)
    lmax <- fit$info_y - sum(fit$info_x) / beta
    expect_equal(utils::tail(fit$objective, 1), lmax, tolerance = 1e-10)
    expect_equal(max(fit$restart_objective), lmax, tolerance = 1e-12)
  }
  # A huge beta keeps the hard clusterings it starts from.
  big <- parallel_ib(g$x, c(2, 2), beta = 1e6, method = "iterative", start = hard$clusters,
                     restarts = 1)
  expect_gt(min(vapply(big$membership, function(w) min(apply(w, 1, max)), 0)), 1 - 1e-9)
  expect_equal(utils::tail(big$objective, 1), lmax_parallel_plain(p, hard$clusters, 1e6),
               tolerance = 1e-8)
  expect_output(print(big), "after [0-9]+ iterations")
})

test_that("symmetric_ib reports its informations and ends at a local optimum", {
  set.seed(21)
  x <- matrix(rpois(10 * 8, 2), 10, 8) + diag(4, 10, 8) + 1
  p <- info_joint(x)
  for (beta in c(Inf, 10, 3)) {
    set.seed(1)
    fit <- symmetric_ib(x, k_rows = 3, k_cols = 3, beta = beta, restarts = 2)
    expect_true(fit$converged)
    lmax <- lmax_symmetric_plain(p, fit$cluster, fit$col_cluster, beta)
    expect_equal(utils::tail(fit$objective, 1), lmax, tolerance = 1e-10)
    expect_equal(max(fit$restart_objective), lmax, tolerance = 1e-10)
    joint <- t(rowsum(t(rowsum(p, fit$cluster)), fit$col_cluster))
    expect_equal(unname(fit$joint), unname(joint), tolerance = 1e-12)
    expect_equal(fit$info_clusters, mi_plain(joint), tolerance = 1e-10)
    expect_equal(fit$info_rows, entropy_plain(rowSums(joint)), tolerance = 1e-10)
    expect_equal(fit$info_cols, entropy_plain(colSums(joint)), tolerance = 1e-10)
    expect_equal(fit$loss, mi_plain(p) - mi_plain(joint), tolerance = 1e-10)
    expect_true(all(diff(fit$objective) >= -1e-12))
    expect_lte(best_move_gain_symmetric(p, fit$cluster, fit$col_cluster, 3, 3, beta), 1e-12)
  }
})

test_that("symmetric_ib reaches the exhaustive optimum on a tiny input", {
  set.seed(22)
  x <- matrix(rpois(5 * 4, 3), 5, 4) + 1
  p <- info_joint(x)
  rows <- all_labelings(5, 2)
  cols <- all_labelings(4, 2)
  for (beta in c(Inf, 4)) {
    best <- max(vapply(seq_len(nrow(rows)), function(i) {
      max(vapply(seq_len(nrow(cols)), function(j) {
        lmax_symmetric_plain(p, rows[i, ], cols[j, ], beta)
      }, 0))
    }, 0))
    set.seed(5)
    fit <- symmetric_ib(x, 2, 2, beta = beta, restarts = 30)
    expect_equal(utils::tail(fit$objective, 1), best, tolerance = 1e-10)
  }
})

test_that("symmetric_ib with every column its own cluster is the single-sided sib", {
  set.seed(23)
  d <- planted_counts(8, 6, 3, strength = 4, size = 20)
  p <- info_joint(d$x)
  set.seed(6)
  fit <- symmetric_ib(d$x, k_rows = 3, k_cols = 6, restarts = 5)
  expect_equal(fit$k_cols, 6L)  # no column merge can raise I(C_X; C_Y)
  expect_equal(fit$info_clusters, info_cy(p, fit$cluster), tolerance = 1e-10)
  expect_lte(best_move_gain_ib(p, fit$cluster, 3), 1e-12)
  set.seed(6)
  flat <- sib(d$x, k = 3, restarts = 5)
  expect_equal(fit$info_clusters, flat$info_y, tolerance = 1e-10)
  expect_equal(nmi(fit$cluster, flat$cluster), 1)
  # One column cluster: nothing to preserve, L_max = 0 whatever the rows.
  one <- symmetric_ib(d$x, k_rows = 3, k_cols = 1, restarts = 1)
  expect_equal(one$info_clusters, 0)
  expect_true(one$converged)
})

test_that("symmetric_ib recovers planted co-clusters as itcc does", {
  set.seed(24)
  rates <- rbind(c(9, 1, 5), c(1, 9, 5), c(4, 4, 1))
  truth_r <- rep(1:3, each = 15)
  truth_c <- rep(1:3, each = 8)
  x <- matrix(rpois(45 * 24, rates[truth_r, truth_c]), 45, 24)
  set.seed(7)
  fit <- symmetric_ib(Matrix::Matrix(x, sparse = TRUE), 3, 3, restarts = 3)
  expect_equal(nmi(fit$cluster, truth_r), 1)
  expect_equal(nmi(fit$col_cluster, truth_c), 1)
  set.seed(7)
  co <- itcc(x, 3, 3, restarts = 3)
  expect_equal(nmi(co$cluster, truth_r), 1)
  expect_equal(fit$loss, co$loss, tolerance = 1e-10)
  set.seed(8); a <- symmetric_ib(x, 3, 3, restarts = 2)
  set.seed(8); b <- symmetric_ib(x, 3, 3, restarts = 2)
  expect_identical(a[c("cluster", "col_cluster", "objective")],
                   b[c("cluster", "col_cluster", "objective")])
  given <- symmetric_ib(x, 3, 3, restarts = 1, start = list(rows = truth_r, cols = truth_c))
  expect_equal(given$moves, 0)
  expect_equal(given$iterations, 1L)
})

test_that("iterative symmetric_ib ends at a fixed point of TR-09-12's updates", {
  set.seed(27)
  rates <- rbind(c(9, 1, 5), c(1, 9, 5))
  x <- matrix(rpois(16 * 12, rates[rep(1:2, each = 8), rep(1:3, each = 4)]), 16, 12) + 1
  p <- info_joint(x)
  hard <- symmetric_ib(x, 2, 3, restarts = 3)
  start <- list(rows = hard$cluster, cols = hard$col_cluster)
  for (beta in c(30, 100)) {
    fit <- symmetric_ib(x, 2, 3, beta = beta, method = "iterative", start = start,
                        restarts = 2, tol = 1e-10, max_iter = 2000)
    expect_true(fit$converged)
    w <- fit$membership
    v <- fit$col_membership
    expect_equal(unname(rowSums(w)), rep(1, 16), tolerance = 1e-12)
    expect_lt(max(abs(soft_update_plain(p, w, v, beta) - w)), 1e-7)
    expect_lt(max(abs(soft_update_plain(t(p), v, w, beta) - v)), 1e-7)
    joint <- crossprod(w, p %*% v)
    expect_equal(unname(fit$joint), unname(joint), tolerance = 1e-10)
    expect_equal(fit$info_clusters, mi_plain(joint), tolerance = 1e-10)
    expect_equal(fit$info_rows, soft_info_plain(w, rowSums(p)), tolerance = 1e-10)
    expect_equal(fit$info_cols, soft_info_plain(v, colSums(p)), tolerance = 1e-10)
    lmax <- fit$info_clusters - (fit$info_rows + fit$info_cols) / beta
    expect_equal(utils::tail(fit$objective, 1), lmax, tolerance = 1e-10)
    expect_equal(max(fit$restart_objective), lmax, tolerance = 1e-12)
    expect_equal(fit$cluster, hard$cluster)
  }
  # A huge beta keeps the hard partition it starts from, with its L_max.
  big <- symmetric_ib(x, 2, 3, beta = 1e6, method = "iterative", start = start, restarts = 1)
  expect_gt(min(apply(big$membership, 1, max)), 1 - 1e-9)
  expect_equal(big$col_cluster, hard$col_cluster)
  expect_equal(utils::tail(big$objective, 1),
               lmax_symmetric_plain(p, hard$cluster, hard$col_cluster, 1e6), tolerance = 1e-8)
  # Below the critical beta the one-cluster fixed point wins.
  set.seed(1)
  flat <- symmetric_ib(x, 2, 3, beta = 1, method = "iterative", restarts = 2)
  expect_equal(c(flat$k, flat$k_cols), c(1L, 1L))
  expect_lt(abs(utils::tail(flat$objective, 1)), 1e-8)
  expect_lt(max(apply(flat$membership, 2, function(a) diff(range(a)))), 1e-6)
  set.seed(3); a <- symmetric_ib(x, 2, 3, beta = 50, method = "iterative", restarts = 2)
  set.seed(3); b <- symmetric_ib(Matrix::Matrix(x, sparse = TRUE), 2, 3, beta = 50,
                                 method = "iterative", restarts = 2)
  expect_equal(a$membership, b$membership, tolerance = 1e-12)
  expect_output(print(big), "Symmetric IB.*L_max")
})

test_that("a small beta merges clusters and k counts the non-empty ones", {
  set.seed(25)
  d <- planted_counts(6, 6, 3)
  p <- info_joint(d$x)
  set.seed(1)
  fit <- symmetric_ib(d$x, 3, 3, beta = 0.5, restarts = 2)
  expect_equal(c(fit$k, fit$k_cols), c(1L, 1L))
  expect_equal(utils::tail(fit$objective, 1), 0)
  set.seed(1)
  par <- parallel_ib(d$x, k = c(3, 2), beta = 0.5, restarts = 2)
  expect_equal(par$k, c(1L, 1L))
  expect_equal(par$k_requested, c(3L, 2L))
  expect_lte(best_move_gain_parallel(p, par$clusters, c(3, 2), 0.5), 1e-12)
})

test_that("multivariate IB front doors give clear errors", {
  x <- matrix(1:12, 4, 3)
  zero <- x
  zero[2, ] <- 0
  expect_error(parallel_ib(zero, 2), "`x` has 1 all-zero row ")
  expect_error(symmetric_ib(zero, 2, 2), "`x` has 1 all-zero row ")
  zero_col <- x
  zero_col[, 2] <- 0
  expect_error(symmetric_ib(zero_col, 2, 2), "`x` has 1 all-zero column ")
  expect_error(parallel_ib("a", 2), "`x` must be")
  expect_error(parallel_ib(x), "`k` is missing")
  expect_error(parallel_ib(x, c(2, NA)), "`k` must be a vector of whole numbers")
  expect_error(parallel_ib(x, 1.5), "`k` must be a vector of whole numbers")
  expect_error(parallel_ib(x, c(2, 5)), "`k` must be in 1..4")
  expect_error(parallel_ib(x, c(2, 0)), "`k` must be in 1..4")
  expect_error(parallel_ib(matrix(1, 20, 10), rep(20, 5)), "`k` gives 3,200,000 cells")
  expect_error(parallel_ib(x, 2, beta = 0), "`beta` must be in")
  expect_error(parallel_ib(x, 2, beta = NA), "`beta` must be a single number")
  expect_error(symmetric_ib(x, 2, 2, beta = -1), "`beta` must be in")
  expect_error(parallel_ib(x, 2, restarts = 0), "`restarts` must be at least 1")
  expect_error(parallel_ib(x, 2, max_iter = 1.5), "`max_iter` must be a single whole number")
  expect_error(parallel_ib(x, 2, verbose = NA), "`verbose` must be TRUE or FALSE")
  expect_error(parallel_ib(x, c(2, 2), start = rep(1:2, 2)), "`start` must be a 4 x 2 matrix")
  expect_error(parallel_ib(x, c(2, 2), start = cbind(1:4, 1)),
               "`start` column 1 must hold integers in 1..2")
  expect_error(symmetric_ib(x), "`k_rows` is missing")
  expect_error(symmetric_ib(x, 2), "`k_cols` is missing")
  expect_error(symmetric_ib(x, 5, 2), "`k_rows` is 5 but there are only 4 rows")
  expect_error(symmetric_ib(x, 2, 4), "`k_cols` is 4 but there are only 3 columns")
  expect_error(symmetric_ib(x, 2, 2, start = 1:4), "`start` must be NULL or a list")
  expect_error(symmetric_ib(x, 2, 2, start = list(rows = 1:4, cols = 1:3)),
               "`start\\$rows` must be 4 integers in 1..2")
  expect_error(symmetric_ib(x, 2, 2, restarts = "a"), "`restarts` must be a single whole number")
  expect_error(symmetric_ib(x, 2, 2, method = "soft"), "`method` must be one of")
  expect_error(symmetric_ib(x, 2, 2, method = "iterative"), "`beta` must be finite for method")
  expect_error(symmetric_ib(x, 2, 2, beta = 5, method = "iterative", tol = -1), "`tol` must be in")
  expect_error(symmetric_ib(x, 2, 2, beta = 5, method = "iterative",
                            start = list(rows = 1:4, cols = 1:3)),
               "`start\\$rows` must be 4 integers")
  expect_error(parallel_ib(x, 2, init = "kmeans++"), "`init` must be one of")
  expect_error(parallel_ib(x, 2, method = "iterative"), "`beta` must be finite for method")
  expect_error(parallel_ib(x, 2, method = "soft"), "`method` must be one of")
  expect_error(parallel_ib(x, 2, tol = NA), "`tol` must be a single number")
  fit <- parallel_ib(x, c(2, 2), restarts = 1)
  expect_error(plot(fit, x, which = 3), "`which` must be at most 2")
  expect_error(plot(fit, data = NULL), "`data` is missing")
})

test_that("multivariate IB fits print, summarize and plot", {
  set.seed(26)
  d <- two_groupings(20)
  par <- parallel_ib(d$x, c(2, 2), restarts = 2)
  sym <- symmetric_ib(d$x, 2, 2, restarts = 2)
  expect_output(print(par),
                "Parallel IB: 2 clusterings.*I\\(C1..C2;Y\\).*L_max.*Available components")
  expect_output(print(sym), "Symmetric IB.*I\\(C_X;C_Y\\).*L_max.*Available components")
  expect_output(print(summary(par)), "Parallel IB: 20 rows.*info_x.*I\\(C1..Cm;Y\\)")
  expect_output(print(summary(sym)), "Column cluster sizes")
  expect_identical(fitted(par), par$cluster)
  expect_equal(nobs(sym), 20L)
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(plot(par, d$x, which = 2), par)
  expect_identical(plot(sym, Matrix::Matrix(d$x, sparse = TRUE)), sym)
  expect_identical(saveRDS(par, tmp <- tempfile()), NULL)
  expect_equal(readRDS(tmp), par)
  # one clustering: singular, and I(C1;Y) rather than I(C1..C1;Y)
  one <- parallel_ib(d$x, 2, restarts = 2)
  out <- paste(capture.output(print(one)), collapse = "\n")
  expect_match(out, "Parallel IB: 1 clustering of 20 rows")
  expect_match(out, "\nI\\(C1;Y\\) = ")
  expect_no_match(out, "clusterings|C1\\.\\.")
  out <- paste(capture.output(print(summary(one))), collapse = "\n")
  expect_match(out, "Parallel IB: 20 rows, 1 clustering,")
  expect_match(out, "I\\(C1;Y\\)")
  expect_no_match(out, "clusterings|C1\\.\\.")
})
