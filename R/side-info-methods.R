# print / format / summary / as.data.frame for side-information objects.

#' Summaries of side information
#'
#' `summary()` counts the pairs (or labelled points per class), the confidence
#' range, the must-link chunklets and the contradictions (cannot-links inside
#' a chunklet, see [check_constraints()]); `print()` shows that summary and
#' `format()` a one-line description. `as.data.frame()` lists the pairs with
#' columns `i`, `j`, `type` (`"must"` / `"cannot"`) and `confidence`, the
#' form [constraints()] accepts back, or the labels with columns `point` and
#' `label`.
#'
#' @param x,object A `sideclust_constraints` or `sideclust_labels` object.
#' @param row.names,optional Ignored (for the generic).
#' @param ... Ignored.
#' @return `summary()`: an object of class `summary.sideclust_constraints` or
#'   `summary.sideclust_labels` (a list). `format()`: a character string.
#'   `print()`: `x`, invisibly. `as.data.frame()`: a data.frame.
#' @name side-info-methods
#' @examples
#' side <- constraints(must = rbind(c(1, 2), c(2, 3)),
#'                     cannot = rbind(c(1, 3), c(4, 5)), n = 10,
#'                     confidence = c(1, 0.9, 0.5, 0.7))
#' side
#' format(side)
#' s <- summary(side)
#' s$n_contradictions
#' as.data.frame(side)
#'
#' lab <- as_constraints(c("a", NA, "b", "a", NA))
#' lab
#' as.data.frame(lab)
NULL

#' @rdname side-info-methods
#' @method summary sideclust_constraints
#' @export
summary.sideclust_constraints <- function(object, ...) {
  ids <- chunklet_ids(object, object$n)
  sizes <- tabulate(ids)
  conf_range <- function(keep) {
    if (any(keep)) range(object$confidence[keep]) else c(NA_real_, NA_real_)
  }
  out <- list(
    n = object$n,
    n_must = sum(object$must),
    n_cannot = sum(!object$must),
    must_confidence = conf_range(object$must),
    cannot_confidence = conf_range(!object$must),
    n_points_involved = length(unique(c(object$i, object$j))),
    n_chunklets = length(sizes),
    largest_chunklet = max(sizes),
    n_contradictions = nrow(contradictions(object, object$n, ids)),
    n_wrong = if (is.null(object$correct)) NA_integer_ else sum(!object$correct)
  )
  class(out) <- "summary.sideclust_constraints"
  out
}

#' @rdname side-info-methods
#' @method print summary.sideclust_constraints
#' @export
print.summary.sideclust_constraints <- function(x, ...) {
  conf <- function(r) {
    if (anyNA(r)) return("")
    if (r[1] == r[2]) sprintf(" (confidence %s)", format(signif(r[1], 3)))
    else sprintf(" (confidence %s to %s)", format(signif(r[1], 3)),
                 format(signif(r[2], 3)))
  }
  cat(sprintf("<sideclust_constraints> %d points, %d pairs touching %d points\n",
              x$n, x$n_must + x$n_cannot, x$n_points_involved))
  cat(sprintf("  must-links:     %d%s\n", x$n_must, conf(x$must_confidence)))
  cat(sprintf("  cannot-links:   %d%s\n", x$n_cannot, conf(x$cannot_confidence)))
  cat(sprintf("  chunklets:      %d (largest has %d point%s)\n", x$n_chunklets,
              x$largest_chunklet, if (x$largest_chunklet == 1L) "" else "s"))
  cat(sprintf("  contradictions: %s\n", if (x$n_contradictions == 0L) "none" else
    sprintf("%d cannot-link%s inside a chunklet (see check_constraints())",
            x$n_contradictions, if (x$n_contradictions == 1L) "" else "s")))
  if (!is.na(x$n_wrong)) {
    cat(sprintf("  simulated:      %d of the pairs are wrong (field `correct`)\n",
                x$n_wrong))
  }
  invisible(x)
}

#' @rdname side-info-methods
#' @method print sideclust_constraints
#' @export
print.sideclust_constraints <- function(x, ...) {
  print(summary(x))
  invisible(x)
}

#' @rdname side-info-methods
#' @method format sideclust_constraints
#' @export
format.sideclust_constraints <- function(x, ...) {
  n_must <- sum(x$must)
  n_cannot <- length(x$must) - n_must
  sprintf("<sideclust_constraints: %d points, %d must-link%s, %d cannot-link%s>",
          x$n, n_must, if (n_must == 1L) "" else "s", n_cannot,
          if (n_cannot == 1L) "" else "s")
}

#' @rdname side-info-methods
#' @export
as.data.frame.sideclust_constraints <- function(x, row.names = NULL,
                                                optional = FALSE, ...) {
  data.frame(i = x$i, j = x$j, type = ifelse(x$must, "must", "cannot"),
             confidence = x$confidence, stringsAsFactors = FALSE)
}

#' @rdname side-info-methods
#' @method summary sideclust_labels
#' @export
summary.sideclust_labels <- function(object, ...) {
  counts <- tabulate(object$labels, nbins = length(object$levels))
  names(counts) <- object$levels
  n_labelled <- sum(counts)
  out <- list(
    n = object$n,
    n_labelled = n_labelled,
    counts = counts,
    n_chunklets = object$n - n_labelled + sum(counts > 0),
    largest_chunklet = max(c(1L, counts)),
    n_contradictions = 0L,
    n_wrong = if (is.null(object$correct)) NA_integer_ else
      sum(!object$correct, na.rm = TRUE)
  )
  class(out) <- "summary.sideclust_labels"
  out
}

#' @rdname side-info-methods
#' @method print summary.sideclust_labels
#' @export
print.summary.sideclust_labels <- function(x, ...) {
  cat(sprintf("<sideclust_labels> %d points, %d labelled (%s%%) in %d class%s\n",
              x$n, x$n_labelled, format(round(100 * x$n_labelled / x$n, 1)),
              length(x$counts), if (length(x$counts) == 1L) "" else "es"))
  if (length(x$counts) > 0) {
    shown <- utils::head(x$counts, 10L)
    cat(sprintf("  per class:      %s%s\n",
                paste(sprintf("%s: %d", names(shown), shown), collapse = ", "),
                if (length(x$counts) > 10L) ", ..." else ""))
  }
  cat(sprintf("  chunklets:      %d (largest has %d point%s)\n", x$n_chunklets,
              x$largest_chunklet, if (x$largest_chunklet == 1L) "" else "s"))
  cat("  contradictions: none (labels are always consistent)\n")
  if (!is.na(x$n_wrong)) {
    cat(sprintf("  simulated:      %d of the labels are wrong (field `correct`)\n",
                x$n_wrong))
  }
  invisible(x)
}

#' @rdname side-info-methods
#' @method print sideclust_labels
#' @export
print.sideclust_labels <- function(x, ...) {
  print(summary(x))
  invisible(x)
}

#' @rdname side-info-methods
#' @method format sideclust_labels
#' @export
format.sideclust_labels <- function(x, ...) {
  n_lab <- sum(!is.na(x$labels))
  sprintf("<sideclust_labels: %d points, %d labelled, %d class%s>", x$n, n_lab,
          length(x$levels), if (length(x$levels) == 1L) "" else "es")
}

#' @rdname side-info-methods
#' @export
as.data.frame.sideclust_labels <- function(x, row.names = NULL,
                                           optional = FALSE, ...) {
  data.frame(point = seq_len(x$n),
             label = factor(x$levels[x$labels], levels = x$levels))
}
