# The cores read points as columns: transpose_points() (a cache-blocked copy
# in C++ for double matrices) must give exactly what t() gives.

test_that("transpose_points() equals t() for every shape, tile edge and dimnames", {
  tp <- sideclust:::transpose_points
  set.seed(3)
  shapes <- list(c(1, 1), c(1, 7), c(7, 1), c(63, 31), c(64, 32), c(65, 33), c(129, 70), c(1000, 3))
  for (d in shapes) {
    x <- matrix(stats::rnorm(prod(d)), d[1], d[2])
    expect_identical(tp(x), t(x), label = paste(d, collapse = " x "))
    rownames(x) <- paste0("r", seq_len(d[1]))
    expect_identical(tp(x), t(x))
    colnames(x) <- paste0("c", seq_len(d[2]))
    expect_identical(tp(x), t(x))
  }
  x <- matrix(c(NA, Inf, -0, 1e-300), 2)
  expect_identical(tp(x), t(x))
  # not a double matrix: t() itself
  expect_identical(tp(matrix(1:6, 2)), t(matrix(1:6, 2)))
  expect_identical(tp(as.matrix(iris[1:5, 1:4])), t(as.matrix(iris[1:5, 1:4])))
})
