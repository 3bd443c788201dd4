# The one-pass data checks (scan_points(), check_points()): the same values,
# transposes and errors as check_data_matrix(), check_data_scale() and
# transpose_points() one after the other.

old_checks <- function(x, arg = "x", spread = TRUE) {
  check_data_scale(check_data_matrix(x, arg), arg, spread)
}
error_of <- function(expr) tryCatch({expr; NULL}, error = conditionMessage)

test_that("the range and the transpose equal R's on every size and every tail of the SSE2 loop", {
  set.seed(1)
  for (n in c(1:9, 63:65, 1000)) for (p in c(1L, 3L, 33L)) {
    x <- matrix(rnorm(n * p), n, p)
    s <- .scan_points_cpp(x, TRUE)
    expect_identical(s$xt, t(x))
    expect_identical(c(s$lo, s$hi), range(x))
    expect_true(s$finite)
    s0 <- .scan_points_cpp(x, FALSE)
    expect_identical(c(s0$lo, s0$hi, s0$finite), c(s$lo, s$hi, TRUE))
    expect_null(s0$xt)
  }
})

test_that("a single non-finite value is found wherever it is", {
  set.seed(2)
  x <- matrix(rnorm(67 * 3), 67, 3)
  for (value in list(NA_real_, NaN, Inf, -Inf)) for (at in c(1, 2, 3, 4, 5, 66, 67, 68, 200, 201)) {
    y <- x
    y[at] <- value
    expect_false(.scan_points_cpp(y, FALSE)$finite)
    expect_false(.scan_points_cpp(y, TRUE)$finite)
  }
  # the range skips NaN and NA; an infinity is the range
  y <- x
  y[10] <- NA
  expect_identical(c(.scan_points_cpp(y, FALSE)$lo, .scan_points_cpp(y, FALSE)$hi), range(y, na.rm = TRUE))
  y[11] <- Inf
  expect_identical(.scan_points_cpp(y, TRUE)$hi, Inf)
})

test_that("scan_points() keeps dimnames, as transpose_points() does", {
  x <- matrix(as.double(1:6), 2, dimnames = list(obs = c("a", "b"), var = c("u", "v", "w")))
  s <- scan_points(x, transpose = TRUE)
  expect_identical(s$xt, t(x))
  expect_identical(s$xt, transpose_points(x))
  expect_identical(s$x, x)
  x2 <- matrix(as.double(1:6), 2, dimnames = list(NULL, c("u", "v", "w")))
  expect_identical(scan_points(x2, transpose = TRUE)$xt, t(x2))
  x3 <- matrix(as.double(1:6), 2)
  expect_identical(scan_points(x3, transpose = TRUE)$xt, t(x3))
})

test_that("integer, logical, data.frame, Matrix and vector inputs give what check_data_matrix() then check_data_scale() give", {
  set.seed(3)
  inputs <- list(
    int = matrix(1:12, 4),
    lgl = matrix(c(TRUE, FALSE, TRUE, TRUE, FALSE, TRUE), 3),
    df = data.frame(a = 1:5, b = c(0.5, 2, 3, 4, 5), c = c(TRUE, FALSE, TRUE, TRUE, FALSE)),
    scaled = scale(matrix(rnorm(20), 10)),
    vec = c(3, 1, 2),
    named = matrix(rnorm(6), 3, dimnames = list(letters[1:3], c("p", "q"))))
  if (requireNamespace("Matrix", quietly = TRUE)) {
    inputs$matrix <- Matrix::Matrix(matrix(c(0, 1, 0, 2, 0, 3), 3), sparse = TRUE)
  }
  for (nm in names(inputs)) {
    x <- inputs[[nm]]
    expect_identical(check_points(x), old_checks(x), info = nm)
    s <- scan_points(x, transpose = TRUE)
    expect_identical(s$x, old_checks(x), info = nm)
    expect_identical(s$xt, transpose_points(old_checks(x)), info = nm)
  }
})

test_that("the errors are those of check_data_matrix() and check_data_scale(), word for word", {
  set.seed(4)
  x <- matrix(rnorm(40), 10)
  bad <- x
  bad[c(2, 15)] <- NA
  bad[7] <- NaN
  bad[40] <- -Inf
  expected <- "`x` has 2 NA values, 1 NaN values, 1 Inf values (rows 2, 5, 7, 10); remove or impute them"
  expect_identical(error_of(scan_points(bad, transpose = TRUE)), expected)
  expect_identical(error_of(check_points(bad)), expected)
  expect_identical(error_of(check_data_matrix(bad)), expected)
  for (case in list(x * 1e300, x * 1e-300, x * 1e155)) {
    old <- error_of(old_checks(case, "data"))
    expect_false(is.null(old))
    expect_identical(error_of(scan_points(case, "data", transpose = TRUE)), old)
    expect_identical(error_of(check_points(case, "data")), old)
  }
  # no spread check for counts
  expect_identical(check_points(x * 1e-300, spread = FALSE), x * 1e-300)
  expect_identical(error_of(check_points(matrix(1, 2, 2), min_rows = 3L)),
                   "`x` has 2 rows; at least 3 are needed")
  expect_identical(error_of(check_points(matrix(numeric(0), 0, 2))), "`x` has no rows")
  expect_identical(error_of(check_points(matrix("a", 2, 2))), "`x` must be numeric, not character")
  # constant data are fine (no spread to underflow)
  expect_identical(check_points(matrix(3, 4, 2)), matrix(3, 4, 2))
})

test_that("the prototype methods read the transpose made while checking", {
  x <- scale(iris[, 1:4])
  a <- check_prototype_fit(x, NULL, 3L, NULL, 1L, 10L, "kmeans++", FALSE, 1e6)
  expect_identical(a$xt, t(a$x))
  # sparse input keeps its sparse points (cvqe)
  if (requireNamespace("Matrix", quietly = TRUE)) {
    sp <- Matrix::Matrix(as.matrix(iris[, 1:4]), sparse = TRUE)
    a <- check_prototype_fit(sp, NULL, 3L, NULL, 1L, 10L, "kmeans++", FALSE, 1e6, sparse_ok = TRUE)
    expect_null(a$xt)
    expect_s3_class(a$x, "sideclust_sparse_points")
  }
  d <- prepare_divergence_data(x, "sqeuclidean", NULL)
  expect_identical(d$xt, t(d$x))
  expect_null(prepare_divergence_data(abs(x), "kl", NULL)$xt)
})

test_that("negative values are caught for counts and the KL / I-divergences", {
  x <- matrix(c(1, 2, 3, -1, 5, 6), 3)
  expect_error(dp_means(x, lambda = 1, divergence = "kl"),
               "`x` has negative values \\(rows 1\\), but divergence \"kl\" needs counts")
  expect_error(count_points(x), "`x` must hold counts for family \"multinomial\" but has 1 negative values \\(rows 1\\)")
  expect_identical(count_points(abs(x)), abs(x))
})

test_that("predict() of the nearest-centre fits checks and transposes newdata in one pass", {
  x <- scale(iris[, 1:4])
  set.seed(5)
  fit <- cvqe(x, NULL, 3, restarts = 1)
  new <- x[c(3, 70, 140), ]
  d <- newdata_for_core(new, 4L)
  expect_identical(d$xt, t(new))
  expect_identical(check_newdata(new, 4L), new)
  expect_identical(predict(fit, new)$cluster, fit$cluster[c(3, 70, 140)])
  bad <- new
  bad[2, 2] <- NaN
  expect_error(predict(fit, bad), "`newdata` has 1 NaN values \\(rows 2\\); remove or impute them")
  expect_error(predict(fit, new[, 1:3]), "`newdata` has 3 columns but the fit has 4")
  expect_error(check_newdata(), "`newdata` is missing")
})
