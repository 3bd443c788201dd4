#' Convert side information to the sideclust form
#'
#' `as_constraints()` turns the usual forms of side information into the
#' objects every sideclust method understands:
#'
#' * a **vector or factor** (numeric, integer, character, logical) of length
#'   `n`: partial labels, `NA` = unlabelled. Returns a `sideclust_labels`
#'   object; with `expand = TRUE`, every pair of labelled points instead
#'   becomes a constraint (same label: must-link, different labels:
#'   cannot-link), which needs `choose(n_labelled, 2)` pairs and is refused
#'   above `max_pairs`. Methods work with labels directly, so expanding is
#'   rarely needed.
#' * a **matrix**: TVClust's symmetric `n x n` side-information matrix E. With
#'   `coding = "binary"`, 1 = must-link, 0 = cannot-link, `NA` = unknown. With
#'   `coding = "signed"`, the sign gives the type (+ must-link, - cannot-link),
#'   the magnitude (at most 1) the confidence, and 0 or `NA` means unknown. The
#'   diagonal is ignored; asymmetric entries are an error.
#' * a sparse **Matrix** (package Matrix): as a matrix, but only the stored
#'   entries are read (unstored entries are unknown), so it is never made
#'   dense; the coding must be `"signed"`.
#' * a **data.frame** with columns `i`, `j`, `type` and optionally
#'   `confidence`: as [constraints()] (`n` is required).
#' * a `sideclust_constraints` object: returned as is; a `sideclust_labels`
#'   object: returned as is, or expanded with `expand = TRUE`.
#'
#' @param x The side information.
#' @param ... Arguments for the methods.
#' @param expand For labels: return all labelled pairs as constraints?
#' @param max_pairs For `expand = TRUE`: the largest number of pairs to create.
#' @param coding For matrices: `"binary"` (0/1/`NA`) or `"signed"` (values in
#'   \[-1, 1\]).
#' @param n For a data.frame: the number of points.
#' @return A `sideclust_constraints` or `sideclust_labels` object (see
#'   [constraints()]).
#' @export
#' @examples
#' # partial labels
#' y <- c("a", "a", NA, "b", NA, "b")
#' as_constraints(y)
#' as.data.frame(as_constraints(y, expand = TRUE))
#'
#' # TVClust's E matrix: 1 must-link, 0 cannot-link, NA unknown
#' E <- matrix(NA, 4, 4)
#' E[1, 2] <- E[2, 1] <- 1
#' E[1, 4] <- E[4, 1] <- 0
#' as_constraints(E)
#' # signed coding with confidences, here as a sparse matrix
#' S <- Matrix::sparseMatrix(i = c(1, 2, 1, 4), j = c(2, 1, 4, 1),
#'                           x = c(0.9, 0.9, -0.5, -0.5), dims = c(4, 4))
#' as.data.frame(as_constraints(S))
as_constraints <- function(x, ...) {
  UseMethod("as_constraints")
}

#' @rdname as_constraints
#' @export
as_constraints.default <- function(x, expand = FALSE, max_pairs = 1e6, ...) {
  check_dots_empty(...)
  if (!is.atomic(x) || !is.null(dim(x)) || is.null(x)) {
    stop_arg("x", "must be labels (a vector or factor), a matrix, a Matrix, ",
             "a data.frame or a side-information object; not ", class(x)[1L])
  }
  labels <- labels_from_vector(x, "x")
  if (check_flag(expand, "expand")) expand_labels(labels, max_pairs) else labels
}

#' @rdname as_constraints
#' @export
as_constraints.sideclust_labels <- function(x, expand = FALSE, max_pairs = 1e6,
                                            ...) {
  check_dots_empty(...)
  validate_side(x, "x")
  if (check_flag(expand, "expand")) expand_labels(x, max_pairs) else x
}

#' @rdname as_constraints
#' @export
as_constraints.sideclust_constraints <- function(x, ...) {
  check_dots_empty(...)
  validate_side(x, "x")
}

#' @rdname as_constraints
#' @export
as_constraints.matrix <- function(x, coding = c("binary", "signed"), ...) {
  check_dots_empty(...)
  constraints_from_dense(x, match_arg(coding), "x")
}

#' @rdname as_constraints
#' @export
as_constraints.Matrix <- function(x, coding = "signed", ...) {
  check_dots_empty(...)
  constraints_from_sparse(x, coding, "x")
}

#' @rdname as_constraints
#' @export
as_constraints.data.frame <- function(x, n, ...) {
  check_dots_empty(...)
  if (missing(n)) stop_arg("n", "is required: the number of points")
  constraints_from_df(x, check_count(n, "n", lower = 1L), arg = "x")
}

# All labelled pairs as constraints, vectorized (no loop over points).
expand_labels <- function(labels, max_pairs = 1e6) {
  max_pairs <- check_number(max_pairs, "max_pairs", lower = 0)
  lab <- which(!is.na(labels$labels))
  n_lab <- length(lab)
  n_pairs <- choose(n_lab, 2)
  if (n_pairs > max_pairs) {
    stop_arg("max_pairs", sprintf(paste0(
      "is %s but expanding %d labelled points would create choose(%d, 2) = ",
      "%s pairs; keep the labels unexpanded or raise `max_pairs`"),
      format(max_pairs), n_lab, n_lab, format(n_pairs, big.mark = ",")))
  }
  if (n_lab < 2L) {
    return(new_constraints(labels$n, integer(0), integer(0), logical(0),
                           double(0), sorted = TRUE))
  }
  counts <- (n_lab - 1L):1L
  a <- rep.int(seq_len(n_lab - 1L), counts)
  b <- sequence(counts, from = 2:n_lab)
  code <- labels$labels[lab]
  new_constraints(labels$n, lab[a], lab[b], code[a] == code[b],
                  rep(1, length(a)), sorted = TRUE)
}

# Off-diagonal, symmetric check of a dense E matrix, then its upper triangle.
constraints_from_dense <- function(x, coding, arg) {
  n <- nrow(x)
  if (!is.matrix(x) || n != ncol(x) || n == 0L) {
    stop_arg(arg, "must be a square matrix with at least one row")
  }
  if (!(is.numeric(x) || is.logical(x))) {
    stop_arg(arg, "must be a numeric matrix, not ", typeof(x))
  }
  storage.mode(x) <- "double"
  diag(x) <- NA
  if (coding == "binary") {
    bad <- which(!is.na(x) & x != 0 & x != 1, arr.ind = TRUE)
    if (nrow(bad) > 0) {
      stop_arg(arg, sprintf(paste0(
        "has %d entries that are not 0, 1 or NA (coding = \"binary\"), first ",
        "at [%d, %d]; for values in [-1, 1] use as_constraints(%s, coding = ",
        "\"signed\")"), nrow(bad), bad[1, 1], bad[1, 2], arg))
    }
  } else {
    x[is.nan(x)] <- NA
    bad <- which(!is.na(x) & !(x >= -1 & x <= 1), arr.ind = TRUE)
    if (nrow(bad) > 0) {
      stop_arg(arg, sprintf(paste0(
        "has %d entries outside [-1, 1] (coding = \"signed\"), first at [%d, %d]"),
        nrow(bad), bad[1, 1], bad[1, 2]))
    }
  }
  tx <- t(x)
  asym <- which(xor(is.na(x), is.na(tx)) |
                  (!is.na(x) & !is.na(tx) & x != tx), arr.ind = TRUE)
  asym <- asym[asym[, 1] < asym[, 2], , drop = FALSE]
  if (nrow(asym) > 0) {
    stop_arg(arg, sprintf(paste0(
      "must be symmetric; %d pair%s differ, e.g. [%d, %d] = %s but [%d, %d] = %s"),
      nrow(asym), if (nrow(asym) == 1L) "" else "s",
      asym[1, 1], asym[1, 2], format(x[asym[1, 1], asym[1, 2]]),
      asym[1, 2], asym[1, 1], format(x[asym[1, 2], asym[1, 1]])))
  }
  x[lower.tri(x, diag = TRUE)] <- NA
  if (coding == "signed") x[!is.na(x) & x == 0] <- NA
  idx <- which(!is.na(x), arr.ind = TRUE)
  v <- x[idx]
  must <- if (coding == "binary") v == 1 else v > 0
  confidence <- if (coding == "binary") rep(1, length(v)) else abs(v)
  new_constraints(n, idx[, 1], idx[, 2], must, confidence)
}

# Stored entries of a sparse Matrix via its triplet form; never densified.
constraints_from_sparse <- function(x, coding, arg) {
  if (!identical(coding, "signed")) {
    stop_arg("coding", "must be \"signed\" for a sparse Matrix: its unstored ",
             "entries mean unknown, so 0 cannot also mean a cannot-link")
  }
  n <- nrow(x)
  if (n != ncol(x) || n == 0L) {
    stop_arg(arg, "must be a square matrix with at least one row")
  }
  tm <- methods::as(methods::as(x, "generalMatrix"), "TsparseMatrix")
  r <- tm@i + 1L
  cc <- tm@j + 1L
  v <- if (methods::.hasSlot(tm, "x")) as.double(tm@x) else rep(1, length(r))
  keep <- r != cc & !is.na(v) & v != 0
  r <- r[keep]
  cc <- cc[keep]
  v <- v[keep]
  bad <- which(!(v >= -1 & v <= 1))
  if (length(bad) > 0) {
    stop_arg(arg, sprintf(paste0(
      "has %d entries outside [-1, 1] (coding = \"signed\"), first at [%d, %d]"),
      length(bad), r[bad[1]], cc[bad[1]]))
  }
  # symmetry: each upper entry must meet its mirror with the same value
  lo <- pmin(r, cc)
  hi <- pmax(r, cc)
  ord <- order(lo, hi, v)
  lo <- lo[ord]
  hi <- hi[ord]
  v <- v[ord]
  m <- length(lo)
  first <- c(TRUE, lo[-1L] != lo[-m] | hi[-1L] != hi[-m])
  if (m == 0L) first <- logical(0)
  run <- cumsum(first)
  run_size <- tabulate(run)
  run_ok <- run_size == 2L
  start <- which(first)
  same_value <- rep(FALSE, length(start))
  same_value[run_ok] <- v[start[run_ok]] == v[start[run_ok] + 1L]
  asym <- which(!(run_ok & same_value))
  if (length(asym) > 0) {
    k <- start[asym[1]]
    stop_arg(arg, sprintf(paste0(
      "must be symmetric; %d pair%s differ, e.g. the pair [%d, %d] (stored ",
      "values: %s)"), length(asym), if (length(asym) == 1L) "" else "s",
      lo[k], hi[k], paste(format(v[run == run[k]]), collapse = ", ")))
  }
  new_constraints(n, lo[start], hi[start], v[start] > 0, abs(v[start]),
                  sorted = TRUE)
}
