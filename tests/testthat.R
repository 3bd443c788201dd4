# testthat is suggested, not required: without it (as on checks with only the
# hard dependencies) the tests are skipped rather than failing.
if (requireNamespace("testthat", quietly = TRUE)) {
  library(testthat)
  library(sideclust)
  test_check("sideclust")
}
