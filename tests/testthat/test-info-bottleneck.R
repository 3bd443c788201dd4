test_that("the O(nnz) sib merge cost equals the loss of I(C;Y) recomputed densely", {
  set.seed(1)
  x <- matrix(rpois(12 * 7, 1.5), 12, 7)
  x[x < 1 & runif(length(x)) < 0.3] <- 0
  x[rowSums(x) == 0, 1] <- 1
  p <- info_joint(x)
  cl <- rep(1:3, 4)
  csr <- sideclust:::as_joint_csr(x, "x", zero_rows = FALSE)
  for (i in c(1, 5, 12)) {
    d <- sideclust:::.sib_costs_cpp(csr, cl, 3L, i)
    out <- p[-i, , drop = FALSE]
    base <- info_cy(out, cl[-i])
    # Put x back: as its own extra cluster (nothing lost) versus into cluster c.
    with_singleton <- mi_plain(rbind(rowsum(out, cl[-i]), p[i, ]))
    for (c in 1:3) {
      cl2 <- cl
      cl2[i] <- c
      expect_equal(d[c], with_singleton - info_cy(p, cl2), tolerance = 1e-12,
                   info = paste(i, c))
    }
    expect_gte(min(d), 0)
    expect_equal(with_singleton >= base, TRUE)
  }
})

test_that("sib ends at a local optimum: no single move raises I(C;Y)", {
  set.seed(2)
  d <- planted_counts(8, 12, 3, strength = 2, size = 15)
  p <- info_joint(d$x)
  for (k in 2:4) {
    set.seed(k)
    fit <- sib(d$x, k = k, restarts = 2)
    expect_true(fit$converged)
    expect_equal(fit$info_y, info_cy(p, fit$cluster), tolerance = 1e-10)
    expect_equal(fit$info_x, entropy_plain(rowsum(rowSums(p), fit$cluster)[, 1]),
                 tolerance = 1e-10)
    expect_equal(fit$info_xy, mi_plain(p), tolerance = 1e-12)
    expect_lte(best_move_gain_ib(p, fit$cluster, k), 1e-12)
    expect_equal(fit$info_y, max(fit$restart_info))
    expect_equal(utils::tail(fit$objective, 1), fit$info_y)
  }
})

test_that("sib is reproducible under set.seed and the same on sparse and dense input", {
  set.seed(3)
  d <- planted_counts(20, 10, 2)
  s <- Matrix::Matrix(d$x, sparse = TRUE)
  set.seed(7); a <- sib(d$x, k = 2, restarts = 3)
  set.seed(7); b <- sib(d$x, k = 2, restarts = 3)
  set.seed(7); c <- sib(s, k = 2, restarts = 3)
  expect_identical(a$cluster, b$cluster)
  expect_identical(a$cluster, c$cluster)
  expect_equal(a$info_y, c$info_y, tolerance = 1e-14)
  expect_equal(nmi(a$cluster, d$truth), 1)
  # A given start is a starting point and the result is a local optimum again.
  fit <- sib(d$x, k = 2, restarts = 1, start = rep(1:2, 20))
  expect_lte(best_move_gain_ib(info_joint(d$x), fit$cluster, 2), 1e-12)
})

test_that("aib's first merge is the brute-force best pair and its curve matches its cuts", {
  set.seed(4)
  x <- matrix(rpois(9 * 5, 2), 9, 5) + diag(1, 9, 5)
  p <- info_joint(x)
  fit <- aib(x, k = 3)
  pairs <- utils::combn(9, 2)
  losses <- apply(pairs, 2, function(ij) merge_loss_plain(p, ij[1], ij[2]))
  best <- pairs[, which.min(losses)]
  expect_equal(sort(-fit$merge[1, ]), best)
  expect_equal(fit$loss[1], min(losses), tolerance = 1e-12)
  expect_equal(fit$info_xy, mi_plain(p), tolerance = 1e-12)
  for (k in 1:9) {
    cl <- aib_cut(fit, k)
    expect_equal(max(cl), k)
    expect_equal(fit$info_curve$info_y[10 - k], info_cy(p, cl), tolerance = 1e-10)
    expect_equal(fit$info_curve$info_x[10 - k],
                 entropy_plain(rowsum(rowSums(p), cl)[, 1]), tolerance = 1e-10)
  }
  expect_equal(fit$cluster, aib_cut(fit, 3))
  expect_true(all(diff(fit$height) >= 0))
  # Nested: every 3-cluster group lies inside one 2-cluster group.
  cuts <- aib_cut(fit, 2:3)
  expect_true(all(rowSums(table(cuts[, 2], cuts[, 1]) > 0) == 1))
  expect_equal(unname(stats::cutree(stats::as.hclust(fit), 4)),
               as.integer(factor(aib_cut(fit, 4), levels = unique(aib_cut(fit, 4)))))
})

test_that("every aib merge is the best pair at its step (greedy, checked by brute force)", {
  set.seed(5)
  x <- matrix(rpois(8 * 4, 3), 8, 4) + 1
  p <- info_joint(x)
  fit <- aib(x)
  cl <- seq_len(8)
  members <- list()
  for (s in seq_len(7)) {
    groups <- unique(cl)
    best <- Inf
    for (a in seq_along(groups)) for (b in seq_along(groups)) {
      if (a < b) {
        cl2 <- cl
        cl2[cl2 == groups[b]] <- groups[a]
        best <- min(best, info_cy(p, cl) - info_cy(p, cl2))
      }
    }
    expect_equal(fit$loss[s], best, tolerance = 1e-12, info = paste("step", s))
    ids <- fit$merge[s, ]
    rows <- unlist(lapply(ids, function(i) if (i < 0) -i else members[[i]]))
    members[[s]] <- rows
    cl[rows] <- min(cl[rows])
  }
})

test_that("ib with a huge beta gives hard clusters and with beta near 0 one cluster", {
  set.seed(6)
  d <- planted_counts(10, 9, 3)
  p <- info_joint(d$x)
  set.seed(1)
  hard <- ib(d$x, k = 3, beta = 1e6, restarts = 3)
  expect_true(all(apply(hard$membership, 1, max) > 1 - 1e-9))
  expect_equal(hard$info_y, info_cy(p, hard$cluster), tolerance = 1e-8)
  expect_equal(hard$info_x, entropy_plain(rowsum(rowSums(p), hard$cluster)[, 1]),
               tolerance = 1e-8)
  expect_equal(nmi(hard$cluster, d$truth), 1)
  set.seed(1)
  flat <- ib(d$x, k = 3, beta = 1e-4)
  expect_equal(flat$k, 1L)
  expect_true(all(flat$cluster == 1L))
  expect_lt(flat$info_x, 1e-8)
  # p(c|x) no longer depends on x.
  expect_lt(max(apply(flat$membership, 2, function(v) diff(range(v)))), 1e-4)
})

test_that("ib's reported informations and objective match its memberships", {
  set.seed(8)
  x <- matrix(rpois(15 * 6, 2), 15, 6) + 1
  p <- info_joint(x)
  set.seed(2)
  fit <- ib(x, k = 3, beta = 5, restarts = 2)
  w <- fit$membership
  px <- rowSums(p)
  pc <- colSums(w * px)
  expect_equal(fit$pc, pc, tolerance = 1e-10)
  ix <- sum(px * w * log(ifelse(w > 0, w, 1) / rep(pc, each = nrow(w))))
  pcy <- t(w) %*% p
  iy <- mi_plain(pcy)
  expect_equal(fit$info_x, ix, tolerance = 1e-10)
  expect_equal(fit$info_y, iy, tolerance = 1e-10)
  expect_equal(fit$objective[length(fit$objective)], ix - 5 * iy, tolerance = 1e-10)
  expect_equal(min(fit$restart_objective), ix - 5 * iy, tolerance = 1e-10)
  # A fixed point of the self-consistent equations.
  pyc <- pcy / pc
  kl <- sapply(seq_len(3), function(c) rowSums(p / px * log((p / px) / rep(pyc[c, ], each = nrow(p)))))
  upd <- t(t(exp(-5 * kl)) * pc)
  upd <- upd / rowSums(upd)
  expect_lt(max(abs(upd - w)), 1e-6)
  set.seed(2)
  again <- ib(x, k = 3, beta = 5, restarts = 2)
  expect_identical(again$membership, fit$membership)
  set.seed(2)
  sparse <- ib(Matrix::Matrix(x, sparse = TRUE), k = 3, beta = 5, restarts = 2)
  expect_equal(sparse$membership, fit$membership, tolerance = 1e-12)
})

test_that("IB front doors give clear errors", {
  x <- matrix(1:12, 4, 3)
  neg <- x
  neg[2, 3] <- -1
  expect_error(sib(neg, 2), "`x` has 1 negative entries \\(at \\[2, 3\\]\\)")
  zero <- x
  zero[c(2, 4), ] <- 0
  expect_error(sib(zero, 2), "`x` has 2 all-zero rows \\(2, 4\\).*drop them")
  expect_error(ib(zero, 2, beta = 1), "all-zero rows")
  expect_error(aib(zero), "all-zero rows")
  expect_error(sib(x, 5), "`k` is 5 but there are only 4 rows")
  expect_error(ib(x, 5, beta = 1), "`k` is 5")
  expect_error(aib(x, k = 5), "`k` is 5")
  expect_error(sib(x), "`k` is missing")
  expect_error(ib(x, 2), "`beta` is missing")
  expect_error(ib(x, 2, beta = 0), "`beta` must be in")
  na <- x + 0
  na[1, 1] <- NA
  expect_error(sib(na, 2), "`x` has 1 NA values")
  expect_error(sib("a", 2), "`x` must be")
  expect_error(aib(x, max_rows = 3), "`x` has 4 rows.*`max_rows`")
  expect_error(sib(x, 2, start = c(1, 2, 3, 1)), "`start` must be 4 integers in 1..2")
  sp <- Matrix::Matrix(neg, sparse = TRUE)
  expect_error(sib(sp, 2), "`x` has 1 negative entries \\(at \\[2, 3\\]\\)")
  expect_error(sib(Matrix::Matrix(zero, sparse = TRUE), 2), "all-zero rows \\(2, 4\\)")
  expect_error(aib_cut(list(), 2), "`fit` must be an aib")
  expect_error(aib_cut(aib(x), 7), "`k` must be whole numbers in 1..4")
})

test_that("IB fits print, summarize and plot", {
  set.seed(9)
  d <- planted_counts(6, 6, 2)
  fits <- list(sib(d$x, 2, restarts = 2), ib(d$x, 2, beta = 20), aib(d$x, 2))
  for (f in fits) {
    expect_output(print(f), "I\\(C;Y\\) = .*Available components")
    expect_output(print(summary(f)), "Information")
  }
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(plot(fits[[3]]), fits[[3]])
  expect_identical(plot(fits[[3]], against = "info_x"), fits[[3]])
  expect_identical(plot(fits[[1]], d$x), fits[[1]])
  expect_identical(plot(fits[[2]], Matrix::Matrix(d$x, sparse = TRUE)), fits[[2]])
  expect_error(plot(fits[[1]], data = NULL), "`data` is missing")
})
