test_that("column_variances() equals var() of each column, bit for bit", {
  cv <- sideclust:::column_variances
  set.seed(11)
  for (shift in c(0, 1e6, -3e9)) {
    for (n in c(2L, 3L, 50L, 5000L)) {
      x <- matrix(rnorm(n * 4, mean = shift, sd = 10^runif(1, -4, 2)), n, 4)
      expect_identical(cv(x), vapply(1:4, function(j) stats::var(x[, j]), numeric(1)))
    }
  }
  expect_identical(cv(matrix(c(1, 1, 1, 2), 2)), c(0, 0.5))
  expect_true(all(is.nan(cv(matrix(1, 1, 3)))))  # var() of one value is NA
})

test_that("the diagonal TVClust prior is its formula with apply(x, 2, var)", {
  set.seed(5)
  x <- matrix(rnorm(300), 100, 3) + rep(c(0, 5), each = 50)
  prior <- sideclust:::tvclust_prior(x, "diagonal", 2)
  v <- apply(x, 2L, stats::var) / 2^(2 / 3)
  expect_identical(prior$b0, unname(pmax(v, max(mean(v), 1) * 1e-6)))
})
