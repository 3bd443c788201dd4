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

# Column clusters and information terms of the IB and co-clustering fits.
print_coclusters <- function(x, digits) {
  if (!is.null(x$col_cluster)) {
    cat(sprintf("Column clusters: %d; sizes: %s\n", x$k_cols,
                format_sizes(tabulate(x$col_cluster, x$k_cols))))
  }
  if (!is.null(x$info_y) && !is.null(x$info_xy)) {
    cat(sprintf("I(C;Y) = %s nats (%s%% of I(X;Y) = %s), I(C;X) = %s\n",
                format(x$info_y, digits = digits),
                format(100 * x$info_y / x$info_xy, digits = 3),
                format(x$info_xy, digits = digits), format(x$info_x, digits = digits)))
  }
  if (!is.null(x$info_clusters)) {
    cat(sprintf("Loss I(X;Y) - I(X^;Y^) = %s of I(X;Y) = %s\n",
                format(x$loss, digits = digits), format(x$info_xy, digits = digits)))
  }
  if (!is.null(x$cost) && inherits(x, "cross_associations")) {
    cat(sprintf("Total description length: %.1f bits\n", x$cost))
  }
}

format_sizes <- function(size, max = 20L) {
  shown <- paste(utils::head(size, max), collapse = " ")
  if (length(size) > max) shown <- paste(shown, "...")
  shown
}

format_ratio <- function(a, b) sprintf("%s of %s", format(a, big.mark = ","),
                                       format(b, big.mark = ","))

# A size in bytes for messages: "12.3 MB", "4.1 GB".
format_bytes <- function(bytes) {
  if (bytes >= 1e9) sprintf("%.1f GB", bytes / 1e9) else sprintf("%.1f MB", bytes / 1e6)
}
