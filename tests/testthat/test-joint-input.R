# The row-compressed joint that the information-bottleneck family reads:
# built from sparse input by counting sort, read in place by the cores.

test_that("the CSR of a sparse matrix equals Matrix's transpose", {
  set.seed(3)
  x <- Matrix::rsparsematrix(40, 13, density = 0.2)
  tt <- Matrix::t(x)
  csr <- .csr_of_csc_cpp(x@p, x@i, x@x, nrow(x), ncol(x))
  expect_identical(csr$ptr, tt@p)
  expect_identical(csr$idx, tt@i)
  expect_identical(csr$val, tt@x)
  expect_error(.csr_of_csc_cpp(x@p[-1], x@i, x@x, nrow(x), ncol(x)), "column-compressed")
})

test_that("stored zeros are dropped and bad entries named without densifying", {
  x <- Matrix::sparseMatrix(i = c(1, 2, 3, 3), j = c(1, 2, 1, 3), x = c(2, 0, 1, 4),
                            dims = c(3, 3))
  csr <- as_joint_csr(x, "x")
  expect_equal(csr$val, c(2, 1, 4))
  expect_equal(csr$ptr, c(0L, 1L, 1L, 3L))
  y <- x
  y@x[1] <- NA
  expect_error(as_joint_csr(y, "x"), "x.*1 NA")
  y@x[1] <- -1
  expect_error(as_joint_csr(y, "x"), "negative")
})

test_that("the cluster joint from C++ equals the sums in R, dense and sparse input", {
  set.seed(4)
  x <- matrix(rpois(60, 1), 12, 5)
  x[rowSums(x) == 0, 1] <- 1
  cl <- sample(1:3, 12, TRUE)
  ref <- rowsum(x, cl, reorder = TRUE)
  ref <- unname(ref / sum(ref))
  for (input in list(x, Matrix::Matrix(x, sparse = TRUE))) {
    prof <- cluster_profiles(as_joint_csr(input, "x"), cl, 3L)
    expect_equal(unname(prof$pc * prof$pyc), ref, tolerance = 1e-12)
    expect_equal(prof$total_mass, sum(x))
  }
})

test_that("sib() gives the same fit for dense and sparse input", {
  set.seed(5)
  x <- matrix(rpois(200, 2), 40, 5)
  x[rowSums(x) == 0, 1] <- 1
  set.seed(6)
  dense <- sib(x, k = 3, restarts = 2)
  set.seed(6)
  sparse <- sib(Matrix::Matrix(x, sparse = TRUE), k = 3, restarts = 2)
  expect_identical(sparse$cluster, dense$cluster)
  expect_equal(sparse$info_y, dense$info_y, tolerance = 1e-12)
})
