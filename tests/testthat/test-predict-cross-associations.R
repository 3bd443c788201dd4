# predict() for cross_associations(): new rows (columns) to the group that
# codes them in the fewest bits with the fit's smoothed block densities.

ca_predict_data <- function(seed = 1, m = 60, n = 40) {
  set.seed(seed)
  dens <- rbind(c(0.9, 0.1, 0.9), c(0.1, 0.9, 0.9))
  tr <- rep(1:2, length.out = m)
  tc <- rep(1:3, length.out = n)
  list(x = matrix(stats::rbinom(m * n, 1, dens[tr, tc]), m, n), dens = dens, tr = tr, tc = tc)
}

# Bits of every new row (rows of `x`, 0/1) in every row group, cell by cell,
# with the core's smoothed densities (ones + 1/2) / (cells + 1).
ca_bits_brute <- function(x, ones, rows, cols) {
  a <- tabulate(rows, nrow(ones))
  b <- tabulate(cols, ncol(ones))
  bits <- matrix(0, nrow(x), nrow(ones))
  for (h in seq_len(nrow(x))) {
    for (i in seq_len(nrow(ones))) {
      p <- (ones[i, cols] + 0.5) / (a[i] * b[cols] + 1)
      bits[h, i] <- sum(ifelse(x[h, ] == 1, -log2(p), -log2(1 - p)))
    }
  }
  bits
}

test_that("predict.cross_associations takes the argmin of the recomputed code length", {
  d <- ca_predict_data(1)
  fit <- cross_associations(d$x)
  expect_gt(fit$k * fit$k_cols, 1)
  set.seed(2)
  new_rows <- matrix(stats::rbinom(15 * 40, 1, 0.5), 15, 40)
  bits <- ca_bits_brute(new_rows, fit$ones, fit$cluster, fit$col_cluster)
  pred <- predict(fit, new_rows)
  expect_identical(pred$cluster, apply(bits, 1, which.min))
  expect_equal(chosen_cost(pred), apply(bits, 1, min), tolerance = 1e-12)
  # new columns: the same with the roles of rows and columns exchanged
  new_cols <- matrix(stats::rbinom(60 * 7, 1, 0.4), 60, 7)
  bits2 <- ca_bits_brute(t(new_cols), t(fit$ones), fit$col_cluster, fit$cluster)
  pred2 <- predict(fit, new_cols, dimension = 2)
  expect_identical(pred2$cluster, apply(bits2, 1, which.min))
  expect_equal(chosen_cost(pred2), apply(bits2, 1, min), tolerance = 1e-12)
})

test_that("predicting the training matrix of well-separated blocks gives back the fit", {
  for (seed in c(1, 3, 4)) {
    d <- ca_predict_data(seed)
    fit <- cross_associations(d$x)
    expect_equal(c(fit$k, fit$k_cols), c(2L, 3L))
    expect_identical(predict(fit, d$x)$cluster, fit$cluster)
    expect_identical(predict(fit, d$x, dimension = 2)$cluster, fit$col_cluster)
  }
})

test_that("predicting the training matrix is a regrouping step the search may have rejected", {
  # A fit where one training row is coded in fewer bits by another group:
  # moving it raises the total cost (group sizes and assignments included),
  # so the search kept it where it is, and predict() differs from the fit.
  set.seed(20)
  m <- sample(20:60, 1)
  n <- sample(15:40, 1)
  kr <- sample(2:5, 1)
  kc <- sample(2:4, 1)
  dens <- matrix(stats::runif(kr * kc, 0.05, 0.95), kr, kc)
  pr <- stats::rexp(kr)
  pc <- stats::rexp(kc)
  x <- matrix(stats::rbinom(m * n, 1, dens[sample(kr, m, TRUE, pr), sample(kc, n, TRUE, pc)]), m, n)
  fit <- cross_associations(x)
  pred <- predict(fit, x)
  moved <- which(pred$cluster != fit$cluster)
  expect_gt(length(moved), 0)
  bits <- ca_bits_brute(x, fit$ones, fit$cluster, fit$col_cluster)
  expect_identical(pred$cluster, apply(bits, 1, which.min))
  total <- function(rows) {
    ca_cost_plain(x, rows, fit$col_cluster) + ca_assignment_bits(rows) +
      ca_assignment_bits(fit$col_cluster)
  }
  expect_equal(total(fit$cluster), fit$cost, tolerance = 1e-8)
  expect_gt(total(pred$cluster), fit$cost)
})

test_that("dense, logical, data.frame and sparse newdata agree", {
  d <- ca_predict_data(4)
  fit <- cross_associations(d$x)
  x <- d$x[1:20, ]
  ref <- predict(fit, x)
  expect_identical(predict(fit, x == 1), ref)
  expect_identical(predict(fit, as.data.frame(x)), ref)
  expect_identical(predict(fit, Matrix::Matrix(x, sparse = TRUE)), ref)
  expect_identical(predict(fit, Matrix::Matrix(x == 1, sparse = TRUE)), ref)
  ref2 <- predict(fit, d$x[, 1:5], dimension = 2)
  expect_identical(predict(fit, Matrix::Matrix(d$x[, 1:5], sparse = TRUE), dimension = 2), ref2)
  # a vector is one new row (or column)
  expect_identical(predict(fit, x[3, ])$cluster, ref$cluster[3])
  expect_identical(predict(fit, d$x[, 2], dimension = 2)$cluster, ref2$cluster[2])
})

test_that("a row (column) with its group's block pattern goes to that group", {
  d <- ca_predict_data(5)
  fit <- cross_associations(d$x)
  dense <- fit$density > 0.5
  protos <- dense[, fit$col_cluster, drop = FALSE] * 1   # one row per row group
  expect_identical(predict(fit, protos)$cluster, seq_len(fit$k))
  col_protos <- dense[fit$cluster, , drop = FALSE] * 1   # one column per column group
  expect_identical(predict(fit, col_protos, dimension = 2)$cluster, seq_len(fit$k_cols))
})

test_that("predict.cross_associations rejects bad input naming the argument", {
  d <- ca_predict_data(6)
  fit <- cross_associations(d$x)
  expect_identical(unname(predict(fit)$cluster), unname(fit$cluster))
  expect_error(predict(fit, d$x[, 1:39]), "`newdata` has 39 columns but the fit has 40")
  expect_error(predict(fit, d$x[1:59, ], dimension = 2), "`newdata` has 59 rows but the fit has 60")
  bad <- d$x[1:3, ]
  bad[2, 5] <- 2
  expect_error(predict(fit, bad), "`newdata` has 1 entries other than 0 and 1 \\(at \\[2, 5\\]\\)")
  expect_error(predict(fit, -bad), "`newdata`.*0/1")
  bad[1, 1] <- NA
  expect_error(predict(fit, bad), "`newdata` has 1 NA values")
  expect_error(predict(fit, matrix("a", 2, 40)), "`newdata` must be")
  expect_error(predict(fit, list(1)), "`newdata` must be")
  expect_error(predict(fit, d$x[0, ]), "`newdata` has no rows")
  expect_error(predict(fit, d$x, dimension = 3), "`dimension` must be at most 2")
  expect_error(predict(fit, d$x, dimension = 0), "`dimension` must be at least 1")
  expect_error(predict(fit, d$x, dimension = "rows"), "`dimension` must be a single whole number")
})
