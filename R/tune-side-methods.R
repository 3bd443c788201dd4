#' Print, summarize and plot a tuning run
#'
#' `print()` shows the method, the folds, the score, the chosen parameters and
#' the best grid points; `summary()` returns the whole table with the choice;
#' `plot()` draws the mean held-out score (with one standard deviation over
#' the folds) against the first parameter of the grid, one line per value of
#' the others, and marks the chosen point.
#'
#' @param x,object A [tune_side()] result.
#' @param n Grid points shown (best first).
#' @param log Log scale for the parameter axis: `NULL` chooses it when the
#'   values are positive and span more than a factor of 20.
#' @param ... Passed to [graphics::plot()] (`plot()`); unused otherwise.
#' @return `print()` and `plot()` return `x` invisibly; `summary()` an object
#'   of class `"summary.sideclust_tune"`; `as.data.frame()` the table.
#' @examples
#' set.seed(2)
#' x <- rbind(matrix(rnorm(40, 0, 0.3), 20), matrix(rnorm(40, 3, 0.3), 20))
#' side <- sample_constraints(rep(1:2, each = 20), "nelson_cohen", n_constraints = 40)
#' tuned <- tune_side("cvqe", x, side, grid = list(k = 1:4), folds = 3, restarts = 2)
#' summary(tuned)
#' plot(tuned)
#' as.data.frame(tuned)
#' @name tune_side_methods_s3
NULL

#' @rdname tune_side_methods_s3
#' @export
print.sideclust_tune <- function(x, n = 5L, ...) {
  cat(sprintf("Tuning of %s() on held-out %s: %d folds, %d grid points, score %s\n",
              x$method, x$side_kind, x$folds, nrow(x$table), tune_score_label(x$score)))
  cat("Chosen:", format_params(x$best), sprintf("(score %.3f)\n", x$table$score[x$best_row]))
  failed <- sum(x$table$failed)
  if (failed > 0) cat(sprintf("%d fits failed and are left out of the means\n", failed))
  cat("\n")
  ord <- order(-x$table$score, na.last = TRUE)
  shown <- x$table[utils::head(ord, n), c(setdiff(names(x$table), tune_stat_columns),
                                          "score", "sd"), drop = FALSE]
  print(shown, digits = 3, row.names = FALSE)
  if (nrow(x$table) > n) cat(sprintf("... and %d more grid points\n", nrow(x$table) - n))
  cat("Fields: table, folds_table, best, fit, fold, score, method, side_kind, call\n")
  invisible(x)
}

#' @rdname tune_side_methods_s3
#' @export
summary.sideclust_tune <- function(object, ...) {
  structure(list(method = object$method, side_kind = object$side_kind, folds = object$folds,
                 score = object$score, best = object$best, table = object$table,
                 refitted = !is.null(object$fit)),
            class = "summary.sideclust_tune")
}

#' @rdname tune_side_methods_s3
#' @export
print.summary.sideclust_tune <- function(x, ...) {
  cat(sprintf("Tuning of %s() on held-out %s, %d folds; choice by %s\n", x$method,
              x$side_kind, x$folds, tune_score_label(x$score)))
  cat("Chosen:", format_params(x$best),
      if (x$refitted) "(refitted with all the side information)\n" else "(not refitted)\n\n")
  print(x$table, digits = 3, row.names = FALSE)
  invisible(x)
}

#' @rdname tune_side_methods_s3
#' @export
as.data.frame.sideclust_tune <- function(x, ...) x$table

#' @rdname tune_side_methods_s3
#' @export
plot.sideclust_tune <- function(x, log = NULL, ...) {
  tab <- x$table
  params <- setdiff(names(tab), tune_stat_columns)
  v <- tab[[params[1L]]]
  if (is.null(log)) log <- all(v > 0) && max(v) / min(v) > 20
  group <- if (length(params) > 1L) interaction(tab[params[-1L]], drop = TRUE) else
    factor(rep(1L, nrow(tab)))
  lo <- tab$score - ifelse(is.na(tab$sd), 0, tab$sd)
  hi <- tab$score + ifelse(is.na(tab$sd), 0, tab$sd)
  ylim <- range(c(lo, hi), na.rm = TRUE)
  graphics::plot(v, tab$score, type = "n", log = if (log) "x" else "", ylim = ylim,
                 xlab = params[1L], ylab = sprintf("held-out %s", tune_score_label(x$score)),
                 main = sprintf("%s(): %d-fold tuning on %s", x$method, x$folds, x$side_kind),
                 ...)
  cols <- seq_along(levels(group))
  for (g in seq_along(levels(group))) {
    at <- which(group == levels(group)[g])
    at <- at[order(v[at])]
    graphics::lines(v[at], tab$score[at], type = "b", pch = 19, col = cols[g])
    ok <- at[!is.na(tab$sd[at]) & tab$sd[at] > 0]
    if (length(ok)) {
      graphics::arrows(v[ok], lo[ok], v[ok], hi[ok], angle = 90, code = 3, length = 0.03,
                       col = cols[g])
    }
  }
  graphics::points(v[x$best_row], tab$score[x$best_row], pch = 1, cex = 2.5, lwd = 2)
  if (nlevels(group) > 1L) {
    graphics::legend("bottomright", legend = paste(paste(params[-1L], collapse = ", "), "=",
                                                   levels(group)),
                     col = cols, lty = 1, pch = 19, bty = "n", cex = 0.8)
  }
  invisible(x)
}

tune_stat_columns <- c("score", "sd", "f", "f_sd", "accuracy", "accuracy_sd", "failed")

tune_score_label <- function(score) {
  if (score == "f") "pairwise F" else "accuracy"
}

format_params <- function(params) {
  paste(sprintf("%s = %s", names(params), vapply(params, format, "", digits = 4)),
        collapse = ", ")
}
