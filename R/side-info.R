# Side information: the one internal representation used by every method.
#
# Pairwise constraints, class c("sideclust_constraints", "sideclust_side"):
#   n (integer), i, j (integer, 1-based, i < j, sorted by i then j, no
#   duplicate pairs), must (logical: TRUE must-link, FALSE cannot-link),
#   confidence (double in (0, 1], 1 = certain); optionally `correct` (logical,
#   set by sample_constraints()).
# Partial labels, class c("sideclust_labels", "sideclust_side"):
#   n (integer), labels (integer codes 1..L, NA = unlabelled), levels
#   (character, length L); optionally `correct` and `classes` (sample_labels()).

#' Pairwise constraints
#'
#' Build must-link / cannot-link side information for `n` points. Pairs are
#' unordered, so `c(2, 1)` and `c(1, 2)` are the same pair; they are stored
#' once, as `i < j`, sorted by `i` then `j`.
#'
#' A pair given more than once with the same type is kept once, with the
#' largest of its confidences. A pair given both as must-link and as
#' cannot-link is an error (use confidences and sample or weight them
#' yourself if you hold contradictory beliefs about a pair).
#'
#' @param must Must-link pairs: a two-column matrix (or data.frame) of point
#'   indices, one pair per row, or a single pair `c(i, j)`. Alternatively a
#'   data.frame with columns `i`, `j`, `type` (`"must"` / `"cannot"`, or
#'   logical `TRUE` = must-link) and optionally `confidence`, as returned by
#'   `as.data.frame()` on a constraints object; `cannot` must then be `NULL`.
#' @param cannot Cannot-link pairs, in the same form as the matrix form of
#'   `must`.
#' @param n The number of points (a single whole number, at least 1). It is
#'   required rather than guessed from the largest index, so that points that
#'   appear in no pair are counted.
#' @param confidence `NULL` (every pair is certain, confidence 1), a single
#'   number, or one number per pair: first the rows of `must`, then the rows of
#'   `cannot`. Confidences lie in (0, 1]; 1 means certain.
#' @return An object of class `c("sideclust_constraints", "sideclust_side")`:
#'   a list with `n`, `i`, `j` (1-based, `i < j`), `must` (logical) and
#'   `confidence`.
#' @seealso [as_constraints()] for labels and TVClust's E matrix,
#'   [chunklets()], [check_constraints()], [sample_constraints()].
#' @export
#' @examples
#' side <- constraints(must = rbind(c(1, 2), c(3, 4)), cannot = rbind(c(1, 50)),
#'                     n = 150)
#' side
#' # the same pairs from a data.frame
#' df <- as.data.frame(side)
#' df
#' identical(constraints(df, n = 150), side)
#' # with confidences: 2 must-links then 1 cannot-link
#' constraints(rbind(c(1, 2), c(3, 4)), rbind(c(1, 50)), n = 150,
#'             confidence = c(0.9, 0.8, 0.6))
constraints <- function(must = NULL, cannot = NULL, n, confidence = NULL) {
  if (missing(n)) {
    stop_arg("n", "is required: the number of points (the data's rows)")
  }
  n <- check_count(n, "n", lower = 1L)
  if (is.data.frame(must) && "type" %in% names(must)) {
    if (!is.null(cannot)) {
      stop_arg("cannot", "must be NULL when `must` is a data.frame with a ",
               "`type` column")
    }
    return(constraints_from_df(must, n, confidence, arg = "must"))
  }
  must <- check_pair_matrix(must, "must")
  cannot <- check_pair_matrix(cannot, "cannot")
  n_pairs <- nrow(must) + nrow(cannot)
  confidence <- check_confidence(confidence, n_pairs, "confidence",
                                 sprintf("%d must + %d cannot", nrow(must),
                                         nrow(cannot)))
  check_pair_range(must, n, "must")
  check_pair_range(cannot, n, "cannot")
  build_constraints(n, c(must[, 1], cannot[, 1]), c(must[, 2], cannot[, 2]),
                    rep(c(TRUE, FALSE), c(nrow(must), nrow(cannot))),
                    confidence, arg = "must` and `cannot")
}

# A data.frame with columns i, j, type and optionally confidence.
constraints_from_df <- function(df, n, confidence = NULL, arg = "must") {
  known <- c("i", "j", "type", "confidence")
  missing_cols <- setdiff(c("i", "j", "type"), names(df))
  if (length(missing_cols) > 0) {
    stop_arg(arg, "needs columns i, j and type; missing: ",
             paste(missing_cols, collapse = ", "))
  }
  extra <- setdiff(names(df), known)
  if (length(extra) > 0) {
    stop_arg(arg, "has unknown columns: ", paste(extra, collapse = ", "),
             " (expected i, j, type and optionally confidence)")
  }
  if ("confidence" %in% names(df)) {
    if (!is.null(confidence)) {
      stop_arg("confidence", "must be NULL when `", arg,
               "` has a confidence column")
    }
    confidence <- df$confidence
  }
  pairs <- check_pair_matrix(cbind(df$i, df$j), arg)
  must <- parse_type(df$type, arg)
  confidence <- check_confidence(confidence, nrow(pairs), "confidence",
                                 paste("rows of", paste0("`", arg, "`")))
  check_pair_range(pairs, n, arg)
  build_constraints(n, pairs[, 1], pairs[, 2], must, confidence, arg = arg)
}

parse_type <- function(type, arg) {
  if (is.logical(type)) {
    must <- type
  } else {
    type <- tolower(as.character(type))
    must <- rep(NA, length(type))
    must[type %in% c("must", "must-link", "must_link")] <- TRUE
    must[type %in% c("cannot", "cannot-link", "cannot_link")] <- FALSE
  }
  bad <- which(is.na(must))
  if (length(bad) > 0) {
    stop_arg(arg, sprintf("has %d invalid type%s (%s); use \"must\" or \"cannot\"",
                          length(bad), if (length(bad) == 1L) "" else "s",
                          describe_positions(bad)))
  }
  must
}

describe_pairs <- function(i, j, max = 5L) {
  describe_positions(sprintf("(%d, %d)", i, j), "pairs", max)
}

# Validated pairs (in 1..n, no self-pairs): orient, reject pairs given with
# both types, merge duplicates (largest confidence), sort.
build_constraints <- function(n, i, j, must, confidence, arg) {
  lo <- as.integer(pmin(i, j))
  hi <- as.integer(pmax(i, j))
  ord <- order(lo, hi, must, -confidence)
  lo <- lo[ord]
  hi <- hi[ord]
  must <- must[ord]
  confidence <- confidence[ord]
  m <- length(lo)
  same_pair <- c(FALSE, lo[-1L] == lo[-m] & hi[-1L] == hi[-m])
  if (m == 0L) same_pair <- logical(0)
  clash <- which(same_pair & must != c(NA, must[-m]))
  if (length(clash) > 0) {
    stop_arg(arg, sprintf("has %d pair%s given both as must-link and as cannot-link: %s",
                          length(clash), if (length(clash) == 1L) "" else "s",
                          describe_pairs(lo[clash], hi[clash])))
  }
  # within a run of one pair and type the first has the largest confidence
  keep <- !same_pair
  new_constraints(n, lo[keep], hi[keep], must[keep], confidence[keep],
                  sorted = TRUE)
}

# Low-level constructor: trusts its input (distinct pairs, i != j, in 1..n).
# sorted = TRUE: already i < j, ordered by i then j (nothing is reordered).
new_constraints <- function(n, i, j, must, confidence, correct = NULL,
                            sorted = FALSE) {
  lo <- as.integer(if (sorted) i else pmin(i, j))
  hi <- as.integer(if (sorted) j else pmax(i, j))
  must <- as.logical(must)
  confidence <- as.double(confidence)
  if (!sorted) {
    ord <- order(lo, hi)
    lo <- lo[ord]
    hi <- hi[ord]
    must <- must[ord]
    confidence <- confidence[ord]
    if (!is.null(correct)) correct <- correct[ord]
  }
  out <- list(n = as.integer(n), i = lo, j = hi, must = must,
              confidence = confidence)
  if (!is.null(correct)) out$correct <- as.logical(correct)
  class(out) <- c("sideclust_constraints", "sideclust_side")
  out
}

new_labels <- function(n, labels, levels, correct = NULL, classes = NULL) {
  out <- list(n = as.integer(n), labels = as.integer(labels),
              levels = as.character(levels))
  if (!is.null(correct)) out$correct <- as.logical(correct)
  if (!is.null(classes)) out$classes <- as.character(classes)
  class(out) <- c("sideclust_labels", "sideclust_side")
  out
}

# Partial labels from an atomic vector or factor (NA = unlabelled).
labels_from_vector <- function(x, arg = "x") {
  if (!is.atomic(x) || !is.null(dim(x))) {
    stop_arg(arg, "must be a vector or factor of labels, not ", class(x)[1L])
  }
  if (length(x) == 0L) stop_arg(arg, "has length 0; there must be at least one point")
  if (!is.factor(x)) {
    x[is.na(x)] <- NA
    x <- factor(x)
  }
  new_labels(length(x), as.integer(x), levels(x))
}

#' Side information in the internal form (for method authors)
#'
#' The single function every clustering method calls on its `side` argument.
#' Accepts `NULL` (no side information, returns `NULL`), a
#' `sideclust_constraints` or `sideclust_labels` object (its `n` must equal
#' `n`), a vector or factor of length `n` (partial labels, `NA` = unlabelled),
#' an `n x n` matrix or sparse `Matrix` (TVClust's E matrix; dense matrices use
#' the binary coding, sparse ones the signed coding, see [as_constraints()]),
#' or a data.frame with columns `i`, `j`, `type` and optionally `confidence`.
#'
#' @param side The side information as given by the user.
#' @param n The number of points in the data.
#' @param arg The argument name used in error messages.
#' @return `NULL`, or a validated `sideclust_constraints` / `sideclust_labels`.
#' @noRd
as_side_info <- function(side, n, arg = "side") {
  if (is.null(side)) return(NULL)
  n <- check_count(n, "n", lower = 1L)
  if (inherits(side, "sideclust_side")) {
    validate_side(side, arg)
    if (side$n != n) {
      stop_arg(arg, sprintf("describes n = %d points but the data have n = %d",
                            side$n, n))
    }
    return(side)
  }
  if (is.data.frame(side)) return(constraints_from_df(side, n, arg = arg))
  if (is.matrix(side) || inherits(side, "Matrix")) {
    if (nrow(side) != n || ncol(side) != n) {
      stop_arg(arg, sprintf("is a %d x %d matrix but the data have n = %d points",
                            nrow(side), ncol(side), n))
    }
    if (is.matrix(side)) return(constraints_from_dense(side, "binary", arg))
    return(constraints_from_sparse(side, "signed", arg))
  }
  if (is.atomic(side) && is.null(dim(side))) {
    if (length(side) != n) {
      stop_arg(arg, sprintf("has %d labels but the data have n = %d points",
                            length(side), n))
    }
    return(labels_from_vector(side, arg))
  }
  stop_arg(arg, "must be NULL, constraints(), a label vector or factor, an ",
           "n x n matrix or a data.frame of pairs; not ", class(side)[1L])
}

# Cheap O(pairs + n) check that a side object honours the contract, so that a
# hand-edited object cannot reach the C++ cores.
validate_side <- function(side, arg = "side") {
  bad <- function(what) stop_arg(arg, "is not a valid ", class(side)[1L], ": ", what)
  n <- side$n
  if (!is.integer(n) || length(n) != 1L || is.na(n) || n < 1L) bad("`n` must be a count")
  if (inherits(side, "sideclust_constraints")) {
    m <- length(side$i)
    if (!is.integer(side$i) || !is.integer(side$j) || length(side$j) != m ||
        !is.logical(side$must) || length(side$must) != m ||
        !is.double(side$confidence) || length(side$confidence) != m) {
      bad("fields i, j (integer), must (logical), confidence (double) of one length")
    }
    # one pass in C++: vectorised R made several n_pairs-long temporaries
    problem <- .side_pairs_problem_cpp(side$i, side$j, side$must, side$confidence, n)
    if (problem == 1L) bad("pairs need 1 <= i < j <= n and no NA")
    if (problem == 2L) bad("confidence must be in (0, 1]")
    if (problem == 3L) bad("pairs must be distinct and sorted by i then j")
  } else if (inherits(side, "sideclust_labels")) {
    if (!is.integer(side$labels) || length(side$labels) != n ||
        !is.character(side$levels)) {
      bad("labels must be an integer vector of length n and levels a character vector")
    }
    if (any(side$labels < 1L | side$labels > length(side$levels), na.rm = TRUE)) {
      bad("label codes must be in 1..length(levels)")
    }
  } else {
    bad("unknown kind of side information")
  }
  invisible(side)
}
