# Argument validators for side information: pairs, their range and
# confidences, and contradictions among certain constraints. Argument
# validators live in R/validate*.R and nowhere else.

# Coerce an index argument to a two-column double matrix (0 rows for NULL) and
# check for NA and non-whole numbers.
check_pair_matrix <- function(x, arg) {
  if (is.null(x)) return(matrix(numeric(0), 0L, 2L))
  if (is.data.frame(x)) x <- as.matrix(x)
  if (is.null(dim(x)) && is.numeric(x) && length(x) == 2L) {
    x <- matrix(x, 1L, 2L)
  }
  if (!is.matrix(x) || ncol(x) != 2L || !is.numeric(x)) {
    stop_arg(arg, "must be a two-column numeric matrix of point indices ",
             "(one pair per row)")
  }
  bad <- which(rowSums(is.na(x)) > 0)
  if (length(bad) > 0) {
    stop_arg(arg, sprintf("has %d pair%s with NA (%s)", length(bad),
                          if (length(bad) == 1L) "" else "s",
                          describe_positions(bad)))
  }
  bad <- which(rowSums(!is.finite(x) | x != round(x)) > 0)
  if (length(bad) > 0) {
    stop_arg(arg, sprintf("has %d pair%s that are not whole numbers (%s)",
                          length(bad), if (length(bad) == 1L) "" else "s",
                          describe_positions(bad)))
  }
  storage.mode(x) <- "double"
  x
}

check_pair_range <- function(x, n, arg) {
  bad <- which(rowSums(x < 1 | x > n) > 0)
  if (length(bad) > 0) {
    stop_arg(arg, sprintf("has %d pair%s with indices outside 1..%d (%s)",
                          length(bad), if (length(bad) == 1L) "" else "s",
                          n, describe_positions(bad)))
  }
  bad <- which(x[, 1] == x[, 2])
  if (length(bad) > 0) {
    stop_arg(arg, sprintf("has %d self-pair%s (%s)", length(bad),
                          if (length(bad) == 1L) "" else "s",
                          describe_positions(bad)))
  }
  invisible(x)
}

# NULL -> all 1; a single number -> recycled; else one per pair.
check_confidence <- function(confidence, n_pairs, arg, what) {
  if (is.null(confidence)) return(rep(1, n_pairs))
  if (!is.numeric(confidence)) stop_arg(arg, "must be numeric")
  if (length(confidence) == 1L) {
    confidence <- rep(confidence, n_pairs)
  } else if (length(confidence) != n_pairs) {
    stop_arg(arg, sprintf("has length %d but there are %d pairs (%s)",
                          length(confidence), n_pairs, what))
  }
  bad <- which(is.na(confidence))
  if (length(bad) > 0) {
    stop_arg(arg, sprintf("has %d NA value%s (%s)", length(bad),
                          if (length(bad) == 1L) "" else "s",
                          describe_positions(bad, "positions")))
  }
  bad <- which(!(confidence > 0 & confidence <= 1))
  if (length(bad) > 0) {
    stop_arg(arg, sprintf("must be in (0, 1]; %d value%s outside (%s)",
                          length(bad), if (length(bad) == 1L) " is" else "s are",
                          describe_positions(bad, "positions")))
  }
  as.double(confidence)
}

# The certain cannot-links (positions in side) that lie inside a chunklet of
# certain must-links: no labeling keeps them.
hard_contradictions <- function(side, hard) {
  hm <- hard & side$must
  if (!any(hard & !side$must) || !any(hm)) return(integer(0))
  ids <- .side_components_cpp(side$n, side$i[hm], side$j[hm])
  hc <- which(hard & !side$must)
  hc[ids[side$i[hc]] == ids[side$j[hc]]]
}

# Certain cannot-links inside a chunklet of certain must-links cannot be kept
# by any labeling: an error that names them (`hint` ends the message).
check_hard_contradictions <- function(side, hard,
                                      hint = "lower their confidence or fix them") {
  bad <- hard_contradictions(side, hard)
  if (length(bad) > 0L) {
    stop_arg("side", sprintf(paste0(
      "has %d certain cannot-link%s inside chunklets of certain must-links, ",
      "which no clustering can keep: %s; %s (see check_constraints())"),
      length(bad), if (length(bad) == 1L) "" else "s",
      describe_pairs(side$i[bad], side$j[bad]), hint))
  }
  invisible()
}

# The pairs not to ask again (asked without an answer) of query_pairs():
# NULL, a data frame with columns i and j, or a two-column matrix.
check_exclude <- function(exclude, n) {
  if (is.null(exclude)) return(data.frame(i = integer(0), j = integer(0)))
  if (is.data.frame(exclude)) {
    if (!all(c("i", "j") %in% names(exclude))) {
      stop_arg("exclude", "must have columns i and j (the pairs asked without an answer)")
    }
    exclude <- cbind(exclude$i, exclude$j)
  }
  m <- check_pair_matrix(exclude, "exclude")
  check_pair_range(m, n, "exclude")
  data.frame(i = as.integer(m[, 1]), j = as.integer(m[, 2]))
}
