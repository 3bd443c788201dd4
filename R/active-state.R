# The state of the neighbourhood-based query strategies (Explore-Consolidate,
# Min-Max, NPU), derived from the constraints answered so far, so that a call
# with the updated constraints continues the procedure where the last one
# stopped. Nothing is stored between calls.
#
# Units are the must-link chunklets. The neighbourhoods are a set of units
# that are pairwise cannot-linked (a clique of the units' cannot-link graph),
# grown greedily: units with more cannot-linked units first, then larger,
# then by first point. A unit outside the neighbourhoods that was asked
# against some of them (a cannot-link, or a pair in `exclude` that got no
# answer) is pending: the procedure goes on asking it against the others.

# The side information as pairs (labels become an equivalent small set of
# pairs: a chain of must-links inside each class and one cannot-link between
# every two classes), together with the pairs asked without an answer.
active_pairs <- function(side, n) {
  if (is.null(side)) {
    return(new_constraints(n, integer(0), integer(0), logical(0), double(0), sorted = TRUE))
  }
  if (inherits(side, "sideclust_constraints")) return(side)
  lab <- side$labels
  pts <- which(!is.na(lab))
  by_class <- split(pts, lab[pts])
  chain <- lapply(by_class, function(p) if (length(p) > 1L) cbind(p[-length(p)], p[-1L]))
  must <- do.call(rbind, c(list(matrix(integer(0), 0, 2)), chain))
  first <- vapply(by_class, `[`, integer(1), 1L)
  cannot <- if (length(first) > 1L) t(utils::combn(first, 2L)) else matrix(integer(0), 0, 2)
  new_constraints(n, c(must[, 1], cannot[, 1]), c(must[, 2], cannot[, 2]),
                  rep(c(TRUE, FALSE), c(nrow(must), nrow(cannot))),
                  rep(1, nrow(must) + nrow(cannot)))
}

# Unit ids, the neighbourhoods (unit ids, in their order), which units were
# asked against which neighbourhood, and the pending units.
neighbourhood_state <- function(pairs, exclude, n) {
  unit <- .side_components_cpp(n, pairs$i[pairs$must], pairs$j[pairs$must])
  cannot <- !pairs$must
  ua <- unit[pairs$i[cannot]]
  ub <- unit[pairs$j[cannot]]
  keep <- ua != ub
  edges <- unique(rbind(cbind(ua[keep], ub[keep]), cbind(ub[keep], ua[keep])))
  size <- tabulate(unit)
  involved <- unique(unit[c(pairs$i, pairs$j)])
  degree <- tabulate(edges[, 1], nbins = length(size))
  first_point <- match(seq_along(size), unit)
  order_units <- involved[order(-degree[involved], -size[involved], first_point[involved])]
  hood <- integer(0)
  for (u in order_units) {
    if (all(hood %in% edges[edges[, 1] == u, 2])) hood <- c(hood, u)
  }
  # unit u was asked against neighbourhood h: a cannot-link, or no answer
  asked_edges <- edges
  if (nrow(exclude) > 0L) {
    ea <- unit[exclude$i]
    eb <- unit[exclude$j]
    asked_edges <- rbind(asked_edges, cbind(ea, eb), cbind(eb, ea))
  }
  asked_edges <- asked_edges[asked_edges[, 2] %in% hood & !asked_edges[, 1] %in% hood, , drop = FALSE]
  asked_edges <- unique(cbind(asked_edges[, 1], match(asked_edges[, 2], hood)))
  asked_unit <- unique(asked_edges[, 1])
  asked <- lapply(asked_unit, function(u) asked_edges[asked_edges[, 1] == u, 2])
  n_asked <- lengths(asked)
  pending <- asked_unit[n_asked > 0L & n_asked < length(hood)]
  n_pending <- n_asked[n_asked > 0L & n_asked < length(hood)]
  pending <- pending[order(-n_pending, first_point[pending])]
  touched <- logical(length(size))
  touched[asked_unit] <- TRUE
  list(unit = unit, hood = hood, members = lapply(hood, function(h) which(unit == h)),
       asked_unit = asked_unit, asked = asked, pending = pending, first_point = first_point,
       in_hood = unit %in% hood, touched = touched)
}

# The neighbourhoods (indices into st$hood) unit u was asked against.
asked_hoods <- function(st, u) {
  r <- match(u, st$asked_unit)
  if (is.na(r)) integer(0) else st$asked[[r]]
}

# Pairs whose answer is already known or implied (same chunklet; chunklets
# with a cannot-link between them) or that were asked without an answer.
known_pair <- function(i, j, pairs, exclude, unit) {
  ui <- unit[i]
  uj <- unit[j]
  cannot <- !pairs$must
  key <- function(a, b) paste(pmin(a, b), pmax(a, b))
  ui == uj |
    key(ui, uj) %in% key(unit[pairs$i[cannot]], unit[pairs$j[cannot]]) |
    key(i, j) %in% key(exclude$i, exclude$j)
}
