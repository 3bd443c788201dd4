# The switch to the portable kernels (?sideclust, "Portable kernels"):
# options(sideclust.portable_kernels), set at load from SIDECLUST_PORTABLE.

test_that("options(sideclust.portable_kernels = TRUE) makes the dispatch take the portable kernels", {
  old <- options(sideclust.portable_kernels = TRUE)
  on.exit(options(old))
  expect_identical(sideclust:::kernel_path(), "portable")
  # without the option: AVX where the processor has it
  options(sideclust.portable_kernels = FALSE)
  expect_true(sideclust:::kernel_path() %in% c("avx", "portable"))
  options(sideclust.portable_kernels = NULL)
  expect_true(sideclust:::kernel_path() %in% c("avx", "portable"))
})

test_that("a value of options(sideclust.portable_kernels) other than TRUE / FALSE is refused by name", {
  old <- options(sideclust.portable_kernels = "yes")
  on.exit(options(old))
  expect_error(sideclust:::kernel_path(), "sideclust.portable_kernels")
  x <- scale(iris[, 1:4])
  expect_error(lcvqe(x, NULL, k = 4, restarts = 1), "sideclust.portable_kernels")
  options(sideclust.portable_kernels = NA)
  expect_error(cop_kmeans(x, NULL, k = 4, restarts = 1), "sideclust.portable_kernels")
})

test_that("SIDECLUST_PORTABLE sets the option at load unless the option is set already", {
  old <- options(sideclust.portable_kernels = NULL)
  on.exit(options(old))
  from_env <- sideclust:::portable_kernels_from_env
  from_env("1")
  expect_true(getOption("sideclust.portable_kernels"))
  from_env("0")  # already set: kept
  expect_true(getOption("sideclust.portable_kernels"))
  options(sideclust.portable_kernels = NULL)
  from_env("FALSE")
  expect_false(getOption("sideclust.portable_kernels"))
  options(sideclust.portable_kernels = NULL)
  from_env("")
  expect_null(getOption("sideclust.portable_kernels"))
  expect_warning(from_env("maybe"), "SIDECLUST_PORTABLE")
  expect_null(getOption("sideclust.portable_kernels"))
})

test_that("the methods with AVX kernels give identical fits with the portable kernels forced", {
  # k >= 4: the AVX kernels take four centres per instruction
  x <- scale(iris[, 1:4])
  set.seed(1)
  side <- sample_constraints(iris$Species, n_constraints = 60)
  fits <- list(
    lcvqe = function() lcvqe(x, side, k = 5, restarts = 2, threads = 1),
    cop_kmeans = function() cop_kmeans(x, NULL, k = 5, restarts = 2),
    pck_means = function() pck_means(x, side, k = 5, restarts = 2, threads = 1),
    mpck_means = function() mpck_means(x, side, k = 5, restarts = 2, threads = 1),
    rdp_means = function() rdp_means(x, side, lambda = 2)
  )
  old <- options(sideclust.portable_kernels = FALSE)
  on.exit(options(old))
  for (method in names(fits)) {
    options(sideclust.portable_kernels = FALSE)
    set.seed(2)
    default <- fits[[method]]()
    options(sideclust.portable_kernels = TRUE)
    set.seed(2)
    portable <- fits[[method]]()
    default$call <- portable$call <- NULL
    expect_identical(portable, default, info = method)
  }
})
