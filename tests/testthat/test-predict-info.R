# predict() of the IB and co-clustering fits against their placement rules
# written out in plain R.

predict_counts <- function(seed = 1, n_per = 8) {
  set.seed(seed)
  profiles <- rbind(c(8, 1, 1, 1, 2), c(1, 8, 1, 1, 2), c(1, 1, 4, 4, 1))
  group <- rep(1:3, each = n_per)
  x <- t(sapply(group, function(g) rpois(5, profiles[g, ])))
  x[rowSums(x) == 0, 1] <- 1
  list(x = x, group = group)
}

# Loss of I(C;Y) when `row` joins cluster c of the fitted rows, as the
# difference of two informations of the augmented data (the new row alone,
# or in c), times total_aug / total: the merge cost in the fit's units.
merge_loss_by_definition <- function(train, cl, row, c, inv_beta = 0) {
  aug <- rbind(train, row)
  alone <- c(cl, max(cl) + 1L)
  joined <- c(cl, c)
  p <- aug / sum(aug)
  loss <- info_cy(p, alone) - info_cy(p, joined) -
    inv_beta * (entropy_plain(rowSums(rowsum(p, alone))) -
                  entropy_plain(rowSums(rowsum(p, joined))))
  loss * sum(aug) / sum(train)
}

kl_plain <- function(p, q) {
  p <- p / sum(p)
  if (any(p > 0 & q <= 0)) return(Inf)
  sum(p[p > 0] * log(p[p > 0] / q[p > 0]))
}

test_that("sib and aib place a new row by its loss of I(C;Y), recomputed from the definition", {
  d <- predict_counts()
  train <- d$x[-(1:3 * 8), ]
  new <- d$x[1:3 * 8, ]
  for (fit in list(sib(train, k = 3, restarts = 2), aib(train, k = 3))) {
    pr <- predict(fit, new)
    ref <- t(apply(new, 1, function(row) vapply(1:3, function(c)
      merge_loss_by_definition(train, fit$cluster, row, c), 0)))
    expect_equal(pr$cluster, max.col(-ref, ties.method = "first"))
    expect_lt(max(abs(chosen_cost(pr) - ref[cbind(1:3, pr$cluster)])), 1e-13)
  }
})

test_that("sib's rule tends to the smallest KL[p(y|x) || p(y|c)] as the new row's weight vanishes", {
  d <- predict_counts(2)
  fit <- sib(d$x, k = 3, restarts = 2)
  kl <- t(apply(d$x, 1, function(row) apply(fit$pyc, 1, function(q) kl_plain(row, q))))
  pr <- predict(fit, d$x * 1e-9)
  expect_equal(pr$cluster, max.col(-kl, ties.method = "first"))
  expect_equal(chosen_cost(pr) / (rowSums(d$x) * 1e-9 / sum(d$x)), kl[cbind(seq_along(pr$cluster), pr$cluster)],
               tolerance = 1e-5)
})

test_that("ib's predict() is its self-consistent equation with the new row joined to each cluster", {
  d <- predict_counts(3)
  set.seed(1)
  fit <- ib(d$x, k = 3, beta = 8, tol = 1e-12, max_iter = 5000)
  # a vanishing weight: the equation the fitted memberships satisfy
  pr <- predict(fit, d$x * 1e-9)
  expect_equal(pr$probability, fit$membership, tolerance = 1e-6, ignore_attr = TRUE)
  new <- rbind(c(3, 0, 1, 0, 2), c(0, 1, 5, 5, 0))
  w <- t(apply(new, 1, function(row) {
    wx <- sum(row) / fit$total_mass
    joined <- sweep(fit$pc * fit$pyc, 2, wx * row / sum(row), "+") / (wx + fit$pc)
    v <- fit$pc * exp(-fit$beta * apply(joined, 1, function(q) kl_plain(row, q)))
    v / sum(v)
  }))
  pr <- predict(fit, new)
  expect_equal(pr$probability, w, tolerance = 1e-12, ignore_attr = TRUE)
  expect_equal(pr$cluster, max.col(w, ties.method = "first"))
})

test_that("itcc's predict() is its row (column) step: the converged fit's own clusters come back", {
  d <- predict_counts(4)
  set.seed(2)
  fit <- itcc(d$x, k_rows = 3, k_cols = 2, restarts = 3)
  expect_true(fit$converged)
  expect_equal(predict(fit, d$x)$cluster, fit$cluster)
  expect_equal(predict(fit, d$x, dimension = 2)$cluster, fit$col_cluster)
  # brute force: KL of the row summed over column clusters
  new <- rbind(c(3, 0, 1, 0, 2), c(0, 1, 5, 5, 0))
  grouped <- t(rowsum(t(new), fit$col_cluster))
  q <- fit$joint / rowSums(fit$joint)
  kl <- t(apply(grouped, 1, function(row) apply(q, 1, function(qq) kl_plain(row, qq))))
  pr <- predict(fit, new)
  expect_equal(pr$cluster, max.col(-kl, ties.method = "first"))
  expect_equal(chosen_cost(pr), kl[cbind(1:2, pr$cluster)], tolerance = 1e-12)
})

test_that("sequential symmetric_ib places rows and columns by merge cost (26), any beta", {
  d <- predict_counts(5)
  for (beta in c(Inf, 3)) {
    set.seed(3)
    fit <- symmetric_ib(d$x[-1, ], k_rows = 3, k_cols = 2, beta = beta, restarts = 2)
    ref_cost <- function(train, rows, cols, row) {
      grouped <- t(rowsum(t(train), cols))
      new <- drop(rowsum(row, cols))
      vapply(seq_len(max(rows)), function(c)
        merge_loss_by_definition(grouped, rows, new, c, 1 / beta), 0)
    }
    ref <- ref_cost(d$x[-1, ], fit$cluster, fit$col_cluster, d$x[1, ])
    pr <- predict(fit, d$x[1, ])
    expect_equal(pr$cluster, which.min(ref))
    expect_lt(abs(chosen_cost(pr) - min(ref)), 1e-13)
    # a new column: the same on the transpose
    ref <- ref_cost(t(d$x[-1, ]), fit$col_cluster, fit$cluster, d$x[-1, 2])
    pr <- predict(fit, d$x[-1, 2, drop = FALSE], dimension = 2)
    expect_equal(pr$cluster, which.min(ref))
    expect_lt(abs(chosen_cost(pr) - min(ref)), 1e-13)
  }
})

test_that("iterative symmetric_ib's predict() is (21) and reproduces the fitted memberships", {
  d <- predict_counts(6)
  set.seed(4)
  fit <- symmetric_ib(d$x, 3, 2, beta = 10, method = "iterative", tol = 1e-12, max_iter = 5000)
  expect_equal(predict(fit, d$x)$probability, fit$membership, tolerance = 1e-6,
               ignore_attr = TRUE)
  expect_equal(predict(fit, d$x, dimension = 2)$probability, fit$col_membership,
               tolerance = 1e-6, ignore_attr = TRUE)
})

test_that("sequential parallel_ib places a row in the non-empty cell of least merge cost", {
  d <- predict_counts(7)
  for (beta in c(Inf, 4)) {
    set.seed(5)
    fit <- parallel_ib(d$x[-(1:2), ], k = c(2, 2), beta = beta, restarts = 2)
    cells <- unique(fit$clusters)
    cell_of <- match(paste(fit$clusters[, 1], fit$clusters[, 2]), paste(cells[, 1], cells[, 2]))
    ref <- t(apply(d$x[1:2, ], 1, function(row) vapply(seq_len(nrow(cells)), function(t) {
      train <- d$x[-(1:2), ]
      info <- merge_loss_by_definition(train, cell_of, row, t)
      # the entropy terms of each clustering: sum_j [H(C_j) joined - H(C_j) alone]
      aug <- rbind(train, row) / sum(rbind(train, row))
      h <- sum(vapply(1:2, function(j) {
        alone <- c(fit$clusters[, j], max(fit$clusters[, j]) + 1L)
        joined <- c(fit$clusters[, j], cells[t, j])
        entropy_plain(rowSums(rowsum(aug, joined))) - entropy_plain(rowSums(rowsum(aug, alone)))
      }, 0))
      info + h / beta * sum(rbind(train, row)) / sum(train)
    }, 0)))
    pr <- predict(fit, d$x[1:2, ])
    best <- max.col(-ref, ties.method = "first")
    expect_equal(unname(pr$clusters), unname(cells[best, , drop = FALSE]))
    expect_lt(max(abs(chosen_cost(pr) - ref[cbind(1:2, best)])), 1e-13)
  }
})

test_that("iterative parallel_ib's predict() solves (21) and reproduces the fitted memberships", {
  # two independent row factors, each raising its own block of columns
  set.seed(11)
  a <- rep(1:2, 12)
  b <- rep(1:2, each = 12)
  rate <- cbind(outer(a, 1:4, function(g, y) ifelse((y <= 2) == (g == 1), 8, 1)),
                outer(b, 1:4, function(g, y) ifelse((y <= 2) == (g == 1), 8, 1)))
  x <- matrix(rpois(length(rate), rate), nrow(rate))
  fit <- parallel_ib(x, c(2, 2), beta = 6, method = "iterative", restarts = 3, tol = 1e-12,
                     max_iter = 5000)
  pr <- predict(fit, x * 1e-9)  # vanishing weight: the equations the fit satisfies
  for (j in 1:2) expect_equal(pr$membership[[j]], unname(fit$membership[[j]]), tolerance = 1e-6)
  # new rows: each clustering's memberships satisfy (21) given the other's
  new <- x[c(1, 14), ] + 1
  pr <- predict(fit, new)
  cells <- fit$cell_clusters
  for (r in 1:2) {
    wx <- sum(new[r, ]) / fit$total_mass
    joined <- sweep(fit$cell_pc * fit$cell_pyc, 2, wx * new[r, ] / sum(new[r, ]), "+") /
      (wx + fit$cell_pc)
    kl <- apply(joined, 1, function(q) kl_plain(new[r, ], q))
    for (j in 1:2) {
      other <- pr$membership[[3 - j]][r, cells[, 3 - j]]
      d <- vapply(1:2, function(c) sum((other * kl)[cells[, j] == c]), 0)
      prior <- vapply(1:2, function(c) sum(fit$cell_pc[cells[, j] == c]), 0)
      w <- prior * exp(-fit$beta * (d - min(d)))
      expect_equal(pr$membership[[j]][r, ], w / sum(w), tolerance = 1e-8)
    }
  }
  expect_equal(unname(pr$clusters[, 1]), max.col(pr$membership[[1]], ties.method = "first"))
})

test_that("predict() reads sparse, dense, data.frame and vector input alike; empty rows give NA", {
  d <- predict_counts(8)
  fit <- sib(d$x, k = 3, restarts = 2)
  new <- rbind(d$x[1:3, ], 0)
  dense <- predict(fit, new)
  expect_equal(predict(fit, Matrix::Matrix(new, sparse = TRUE)), dense)
  expect_equal(predict(fit, as.data.frame(new)), dense)
  expect_equal(predict(fit, new[2, ])$cluster, dense$cluster[2])
  expect_identical(dense$cluster[4], NA_integer_)
  soft <- ib(d$x, k = 3, beta = 5)
  expect_true(all(is.na(predict(soft, new)$probability[4, ])))
})

test_that("a row no cluster can take gets NA with a warning under the KL rules", {
  x <- rbind(c(5, 0, 1), c(4, 0, 1), c(0, 5, 1), c(0, 4, 1))
  fit <- itcc(x, k_rows = 2, k_cols = 3, start = list(rows = c(1, 1, 2, 2), cols = 1:3),
              restarts = 1)
  expect_warning(pr <- predict(fit, rbind(c(1, 1, 0), c(2, 0, 0))), "`newdata` row 1 fits no cluster")
  expect_identical(pr$cluster[1], NA_integer_)
  expect_true(all(pr$cost[1, ] == Inf))
  expect_false(is.na(pr$cluster[2]))
  expect_warning(predict(fit, rbind(c(1, 1, 0), c(2, 0, 0), c(0, 3, 3), c(2, 2, 1))),
                 "`newdata` rows 1, 4 fit no cluster .* their clusters are NA")
})

test_that("columns the fit never saw are left out of the KL rules", {
  d <- predict_counts(10)
  x <- cbind(d$x, 0)  # a sixth column no fitted row uses
  set.seed(3)
  fit <- ib(x, k = 3, beta = 8)
  new <- rbind(c(d$x[1, ], 7), c(rep(0, 5), 4), 0) * 1e-9  # vanishing weight: plain KL
  expect_warning(pr <- predict(fit, new), "`newdata` row 2 has mass only on columns the fit never saw")
  expect_equal(pr$probability[1, ], predict(fit, c(d$x[1, ], 0) * 1e-9)$probability[1, ],
               tolerance = 1e-6)
  expect_identical(pr$cluster[2:3], c(NA_integer_, NA_integer_))
  expect_true(all(is.na(pr$cost[2:3, ])))
  cc <- itcc(d$x, 3, 2, restarts = 1)
  expect_silent(predict(cc, rbind(d$x[1, ], 0)))
  # a column cluster no row cluster has mass in is unseen for the itcc rule
  cc$joint[, 2] <- 0
  new_row <- numeric(5)
  new_row[which(cc$col_cluster == 2)[1]] <- 3
  expect_warning(pr <- predict(cc, new_row), "row 1 has mass only on columns the fit never saw")
  expect_identical(pr$cluster, NA_integer_)
  expect_true(all(is.na(pr$cost)))
})

test_that("predict() errors name the argument", {
  d <- predict_counts(9)
  fit <- sib(d$x, k = 3, restarts = 1)
  expect_identical(unname(predict(fit)$cluster), unname(fit$cluster))
  expect_error(predict(fit, d$x[, 1:4]), "`newdata` has 4 columns but the fit has 5")
  expect_error(predict(fit, -d$x), "`newdata` has .* negative")
  expect_error(predict(fit, d$x * 0), "`newdata` has no non-zero entries")
  cc <- itcc(d$x, 3, 2, restarts = 1)
  expect_error(predict(cc, d$x, dimension = 3), "`dimension`")
  expect_error(predict(cc, d$x[1:5, 1:2], dimension = 2), "`newdata` has 5 rows but the fit has 24")
})
