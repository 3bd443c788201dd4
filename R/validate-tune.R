# The grid of tune_side(): a data.frame (one row per point) or a named list
# of values crossed by expand.grid(); its names must be parameters the
# method's registry entry allows, and its values non-missing.
check_tune_grid <- function(grid, entry) {
  if (is.list(grid) && !is.data.frame(grid)) {
    if (length(grid) == 0L || is.null(names(grid)) || any(names(grid) == "")) {
      stop_arg("grid", "must be a data.frame or a named list of parameter values")
    }
    empty <- names(grid)[lengths(grid) == 0L]
    if (length(empty)) stop_arg("grid", sprintf("has no values for %s", empty[1L]))
    grid <- expand.grid(grid, KEEP.OUT.ATTRS = FALSE, stringsAsFactors = FALSE)
  }
  if (!is.data.frame(grid)) {
    stop_arg("grid", "must be a data.frame or a named list of parameter values, not ",
             class(grid)[1L])
  }
  if (nrow(grid) == 0L || ncol(grid) == 0L) stop_arg("grid", "has no parameter values")
  bad <- setdiff(names(grid), entry$params)
  if (length(bad)) {
    stop_arg("grid", sprintf("sets %s, which tune_side() does not tune for %s(); it tunes %s",
                             paste(bad, collapse = ", "), entry$name,
                             paste(entry$params, collapse = ", ")))
  }
  for (a in names(grid)) {
    v <- grid[[a]]
    if (!is.numeric(v) || any(!is.finite(v))) {
      stop_arg("grid", sprintf("column %s must hold finite numbers", a))
    }
  }
  if (anyDuplicated(grid)) stop_arg("grid", "has repeated rows")
  grid
}
