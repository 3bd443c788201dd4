# One pass over the fits of the conventions test (convention_cases() in
# tests/testthat/helper-conventions.R): each fitting function once, with
# print(), summary(), coef(), the tidiers, logLik() where it exists and
# predict() on the fitted, reordered, unnamed and huge (x 1e300) data. The
# same compiled code as test-fit-conventions.R at about a tenth of its cost
# (that test refits every case once per property and adds a 20000-iteration
# TVClust run), for tools/valgrind.sh's reduced part "fits".
# Usage: R -f tools/valgrind/conventions-once.R --args <tests/testthat dir>
suppressMessages(library(sideclust))
source(file.path(commandArgs(trailingOnly = TRUE)[1L], "helper-conventions.R"))
quietly <- function(expr) capture_conditions(utils::capture.output(value <- expr))
cases <- convention_cases()
for (name in names(cases)) {
  set.seed(11)
  fit <- cases[[name]]$fit()
  data <- cases[[name]]$data
  quietly(print(fit))
  quietly(print(summary(fit)))
  quietly(coef(fit))
  quietly(logLik(fit))
  quietly(tidy(fit))
  quietly(glance(fit))
  quietly(augment(fit))
  if (!is.null(utils::getS3method("predict", class(fit)[1], optional = TRUE))) {
    quietly(predict(fit))
    quietly(predict(fit, data))
    quietly(predict(fit, map_case_columns(data, reverse_columns)))
    quietly(predict(fit, map_case_columns(data, unname_columns)))
    quietly(predict(fit, map_case_columns(data, function(d) d * 1e300)))
  }
  cat("checked:", name, "\n")
}
