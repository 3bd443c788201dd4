# The pairs the answers imply by transitivity, for the fits of active_side():
# a must-link between every two points of a must-link chunklet and a
# cannot-link between every point of two chunklets joined by a cannot-link
# (Basu, Banerjee & Mooney 2004 pass this closure to their clustering). The
# neighbourhood strategies ask mostly must-links; given only those, a method
# that weighs every pair alike sees few cannot-links, though the answers
# settle every pair between two neighbourhoods. Pairs answered directly keep
# their answer and confidence. A chunklet holding a cannot-link (a
# contradiction: some answer in it is wrong, and which one is unknown)
# implies nothing, inside or across; its answers stay as given.
# The chunklets of the points `isolate` imply nothing either (the
# contradictions of k; see active_fit_side()).
# Only the points in answered pairs are involved; when the closure would
# exceed `max_pairs` pairs the answers are returned as they are.
implied_constraints <- function(side, n, max_pairs = 1e6, isolate = NULL) {
  if (is.null(side) || !inherits(side, "sideclust_constraints") || length(side$i) == 0L) {
    return(side)
  }
  unit <- .side_components_cpp(n, side$i[side$must], side$j[side$must])
  pts <- sort(unique(c(side$i, side$j)))
  by_unit <- split(pts, unit[pts])
  ca <- unit[side$i[!side$must]]
  cb <- unit[side$j[!side$must]]
  # a chunklet holding a cannot-link contradicts itself: it implies nothing
  broken <- unique(c(ca[ca == cb], unit[isolate]))
  by_unit <- by_unit[!names(by_unit) %in% as.character(broken)]
  size <- lengths(by_unit)
  across <- ca != cb & !ca %in% broken & !cb %in% broken
  unit_pairs <- unique(cbind(pmin(ca, cb), pmax(ca, cb))[across, , drop = FALSE])
  key <- as.character
  n_cannot <- sum(size[key(unit_pairs[, 1])] * size[key(unit_pairs[, 2])])
  if (sum(choose(size, 2)) + n_cannot > max_pairs) return(side)
  within <- lapply(by_unit[size > 1L], function(p) t(utils::combn(p, 2L)))
  between <- lapply(seq_len(nrow(unit_pairs)), function(r) {
    a <- by_unit[[key(unit_pairs[r, 1])]]
    b <- by_unit[[key(unit_pairs[r, 2])]]
    cbind(rep(a, length(b)), rep(b, each = length(a)))
  })
  must <- do.call(rbind, c(list(matrix(integer(0), 0, 2)), within))
  cannot <- do.call(rbind, c(list(matrix(integer(0), 0, 2)), between))
  i <- c(must[, 1], cannot[, 1])
  j <- c(must[, 2], cannot[, 2])
  lo <- pmin(i, j)
  hi <- pmax(i, j)
  new_pair <- !paste(lo, hi) %in% paste(side$i, side$j)
  new_constraints(n, c(side$i, lo[new_pair]), c(side$j, hi[new_pair]),
                  c(side$must, rep(c(TRUE, FALSE), c(nrow(must), nrow(cannot)))[new_pair]),
                  c(side$confidence, rep(1, sum(new_pair))))
}

# What the fits of active_side() get: the answers and, with `implied`, the
# pairs they imply, except from chunklets that contradict `k` (cannot-linked
# to all k neighbourhoods; see ?query_pairs, Contradictions): one of their
# answers is wrong and which is unknown, so their answers stay as given.
active_fit_side <- function(side, x, asked, k, implied, confirm = FALSE) {
  if (!implied || is.null(side) || length(side$i) == 0L) return(side)
  n <- nrow(x)
  isolate <- NULL
  if (!is.null(k)) {
    st <- neighbourhood_state(active_pairs(side, n), settled_questions(asked), n, k, x, confirm = confirm)
    isolate <- which(st$unit %in% st$contradicted)
  }
  implied_constraints(side, n, isolate = isolate)
}
