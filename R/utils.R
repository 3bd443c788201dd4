# Small general utilities with no better home.

# `a`, or `b` when `a` is NULL.
`%||%` <- function(a, b) if (is.null(a)) b else a

# A progressr progressor for `total` steps, attached to the caller's frame
# (it closes when the caller returns), as a function of the steps done so far:
# the C++ cores report totals, progressr counts increments.
sweep_reporter <- function(total, envir = parent.frame()) {
  step <- progressr::progressor(steps = total, envir = envir)
  last <- 0
  function(done) {
    step(amount = done - last)
    last <<- done
    invisible(NULL)
  }
}

# The warning of a fit that stopped at `max_iter` before converging.
warn_not_converged <- function(fun, max_iter) {
  warning(sprintf("%s() did not converge within `max_iter` = %d iterations; raise `max_iter`",
                  fun, max_iter), call. = FALSE)
}
