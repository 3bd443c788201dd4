#' Must-link chunklets
#'
#' A chunklet is a connected component of the must-link graph: points joined by
#' a chain of must-links. Every point belongs to exactly one chunklet; a point
#' in no must-link is a chunklet of its own. Every must-link counts, whatever
#' its confidence. For partial labels, the labelled points of one class form
#' one chunklet (no pairs are expanded). Components are found by union-find
#' (path compression and union by size) in C++.
#'
#' @param side Side information: anything [as_constraints()] accepts (a
#'   `sideclust_constraints` or `sideclust_labels` object, a label vector, an
#'   E matrix, a data.frame of pairs), or `NULL` (every point is a chunklet).
#' @param n The number of points. Needed for a data.frame or `NULL`; otherwise
#'   taken from `side` (and checked against `side` when given).
#' @return An integer vector of length `n`: chunklet ids 1..C, numbered by
#'   first appearance (point 1 is in chunklet 1).
#' @seealso [check_constraints()] for cannot-links inside a chunklet.
#' @export
#' @examples
#' side <- constraints(must = rbind(c(1, 3), c(3, 5), c(2, 6)), n = 7)
#' chunklets(side)
#' chunklets(c("a", NA, "a", "b", NA, "b"))
chunklets <- function(side, n = NULL) {
  side <- resolve_side(side, n)
  chunklet_ids(side$side, side$n)
}

# Side object (or NULL) plus its n, from anything as_side_info() accepts.
resolve_side <- function(side, n = NULL, arg = "side") {
  if (is.null(n)) {
    n <- if (inherits(side, "sideclust_side")) {
      side$n
    } else if (is.matrix(side) || inherits(side, "Matrix")) {
      nrow(side)
    } else if (is.atomic(side) && !is.null(side) && is.null(dim(side))) {
      length(side)
    } else {
      stop_arg("n", "is required when `", arg, "` is a ",
               if (is.null(side)) "NULL" else class(side)[1L])
    }
  }
  n <- check_count(n, "n", lower = 1L)
  list(side = as_side_info(side, n, arg), n = n)
}

# Chunklet ids of a normalized side object (or NULL).
chunklet_ids <- function(side, n) {
  if (is.null(side)) return(seq_len(n))
  if (inherits(side, "sideclust_labels")) {
    key <- side$labels
    unl <- is.na(key)
    key[unl] <- -seq_len(n)[unl]
    return(match(key, unique(key)))
  }
  must <- side$must
  .side_components_cpp(side$n, side$i[must], side$j[must])
}

#' Check pairwise constraints for contradictions
#'
#' Must-links are transitive: if a and b must be together and b and c must be
#' together, so must a and c. A cannot-link whose two points fall in the same
#' must-link chunklet therefore contradicts the must-links, and methods that
#' treat constraints as hard cannot satisfy all of them. This function lists
#' every such cannot-link. Partial labels are always consistent.
#'
#' @inheritParams chunklets
#' @param quiet If `FALSE` (the default), also print a one-line message.
#' @return Invisibly, a data.frame with one row per offending cannot-link and
#'   columns `i`, `j`, `confidence` and `chunklet` (the chunklet holding both
#'   points); zero rows when the constraints are consistent.
#' @export
#' @examples
#' side <- constraints(must = rbind(c(1, 2), c(2, 3)),
#'                     cannot = rbind(c(1, 3), c(3, 4)), n = 5)
#' bad <- check_constraints(side)
#' bad
check_constraints <- function(side, n = NULL, quiet = FALSE) {
  quiet <- check_flag(quiet, "quiet")
  side <- resolve_side(side, n)
  out <- contradictions(side$side, side$n)
  if (!quiet) {
    if (nrow(out) == 0L) {
      message("No contradictions: no cannot-link lies inside a must-link chunklet.")
    } else {
      message(sprintf(
        "%d cannot-link%s inside must-link chunklets: %s",
        nrow(out), if (nrow(out) == 1L) " lies" else "s lie",
        describe_positions(sprintf("(%d, %d) in chunklet %d", out$i, out$j,
                                   out$chunklet), "pairs")))
    }
  }
  invisible(out)
}

contradictions <- function(side, n, ids = chunklet_ids(side, n)) {
  empty <- data.frame(i = integer(0), j = integer(0), confidence = double(0),
                      chunklet = integer(0))
  if (!inherits(side, "sideclust_constraints")) return(empty)
  cannot <- which(!side$must)
  hit <- cannot[ids[side$i[cannot]] == ids[side$j[cannot]]]
  data.frame(i = side$i[hit], j = side$j[hit], confidence = side$confidence[hit],
             chunklet = ids[side$i[hit]])
}
