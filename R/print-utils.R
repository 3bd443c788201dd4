# Pieces the print methods of the fits share (the shared print.sideclust() in
# methods.R says the same words).

# How a run ended.
convergence_status <- function(converged) {
  if (isTRUE(converged)) "converged" else "not converged"
}

# "<label>: <final objective> after <n> iterations (converged)".
cat_objective <- function(x, digits, label = "Objective") {
  cat(sprintf("%s: %s after %d iterations (%s)\n", label,
              format(utils::tail(x$objective, 1L), digits = digits), x$iterations,
              convergence_status(x$converged)))
}

# The end of a print method: the fit's fields (as dbscan does). Returns x
# invisibly.
print_components <- function(x) {
  cat("\nAvailable components:\n")
  print(names(x))
  invisible(x)
}
