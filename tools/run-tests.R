# Runs the test suite of the installed package and ends with one plain line
# "tests: N passed, N failed, N skipped"; exits non-zero on any failure.
# A developer's run: the tests skipped on CRAN (multisession futures, the
# labelling gadget in headless Chromium) run too.
Sys.setenv(NOT_CRAN = "true")
suppressPackageStartupMessages(library(testthat))
library(sideclust)
results <- as.data.frame(test_dir("tests/testthat", package = "sideclust",
                                  load_package = "installed",
                                  reporter = ProgressReporter$new(show_praise = FALSE),
                                  stop_on_failure = FALSE))
failed <- sum(results$failed) + sum(results$error)
passed <- sum(results$passed)
skipped <- sum(results$skipped)
cat(sprintf("\ntests: %d passed, %d failed, %d skipped\n", passed, failed, skipped))
if (failed > 0) quit(status = 1)
