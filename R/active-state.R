# The state of the neighbourhood-based query strategies (Explore-Consolidate,
# Min-Max, NPU), derived from the constraints answered so far, so that a call
# with the updated constraints continues the procedure where the last one
# stopped. Nothing is stored between calls.
#
# Units are the must-link chunklets. The neighbourhoods are a set of units
# that are pairwise cannot-linked (a clique of the units' cannot-link graph),
# grown greedily: units with more cannot-linked units first, then larger,
# then by first point; with `k`, at most k of them. A unit outside the
# neighbourhoods that was asked against some of them (a cannot-link, or a
# pair in `exclude` that got no answer) is pending: the procedure goes on
# asking it against the others. With k neighbourhoods, a unit cannot-linked
# to all k contradicts k (some answer is wrong): each of its cannot-links is
# to be asked again, one at a time, most probable neighbourhood first (a
# recheck), until one turns into a must-link; a unit whose cannot-links all
# stood is left out and not asked again. With `infer`, a unit cannot-linked
# to all k neighbourhoods but one is placed in that one without asking when
# the answers were expected (see next_question()). With `confirm`, while
# there are fewer than k neighbourhoods, a lone unit cannot-linked to all of
# them is rechecked the same way (once) before it becomes a neighbourhood.
# A pair asked twice is in `exclude`
# (as asked: the unit's point, then the member); a unit with such a pair
# is the first to set aside when there are more than k neighbourhoods.

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
# asked against which neighbourhood, the pending units, and the contradicted
# units: those to recheck (with the pairs to ask again) and those left out.
neighbourhood_state <- function(pairs, exclude, n, k = NULL, x = NULL, infer = FALSE, confirm = FALSE) {
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
  # the pairs asked twice (in `exclude`) that stood as cannot-links
  again <- pair_key(exclude$i, exclude$j) %in% pair_key(pairs$i[cannot], pairs$j[cannot])
  # with `confirm`, a lone point becomes a neighbourhood (other than the
  # first) only once one of its cannot-links was asked twice
  confirmed <- rep(TRUE, length(size))
  if (confirm) {
    twice <- again & unit[exclude$i] != unit[exclude$j]
    confirmed <- size > 1L
    confirmed[unit[c(exclude$i[twice], exclude$j[twice])]] <- TRUE
  }
  hood <- integer(0)
  for (u in order_units) {
    if ((length(hood) == 0L || confirmed[u]) && all(hood %in% edges[edges[, 1] == u, 2])) {
      hood <- c(hood, u)
    }
  }
  if (!is.null(k) && length(hood) > k) {
    # a unit with a cannot-link asked twice (the pair in `exclude`, asked as
    # the unit's point against a member) was in a contradiction before
    reasked <- logical(length(size))
    reasked[unit[exclude$i[again]]] <- TRUE
    hood <- trim_hoods(hood, k, x, unit, size, reasked)
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
  # the cannot-linked pairs from units outside to members of the neighbourhoods,
  # and whether each was asked twice
  out_a <- !ua %in% hood & ub %in% hood
  out_b <- !ub %in% hood & ua %in% hood
  ci <- pairs$i[cannot]
  cj <- pairs$j[cannot]
  against <- data.frame(unit = c(ua[out_a], ub[out_b]), point = c(ci[out_a], cj[out_b]),
                        member = c(cj[out_a], ci[out_b]),
                        hood = match(c(ub[out_a], ua[out_b]), hood))
  against$again <- pair_key(against$point, against$member) %in% pair_key(exclude$i, exclude$j)
  # contradictions: units cannot-linked to all k neighbourhoods; those with a
  # neighbourhood not yet asked again are rechecked, the others left out
  # with fewer neighbourhoods, a lone unit cannot-linked to all of them is a
  # new neighbourhood once confirmed: its cannot-links are rechecked the same way
  contradicted <- recheck <- unconfirmed <- integer(0)
  if (length(hood) > 0L && nrow(against) > 0L) {
    n_hoods <- tapply(against$hood, against$unit, function(h) length(unique(h)))
    denied_all <- as.integer(names(n_hoods)[n_hoods == length(hood)])
    if (!is.null(k) && length(hood) >= k) {
      contradicted <- denied_all
    } else {
      unconfirmed <- denied_all[!confirmed[denied_all]]
    }
    against <- against[against$unit %in% c(contradicted, unconfirmed), , drop = FALSE]
    # a neighbourhood the unit was asked against twice is done with
    uh <- paste(against$unit, against$hood)
    against <- against[!uh %in% uh[against$again], , drop = FALSE]
    recheck <- c(contradicted, unconfirmed)
    recheck <- recheck[recheck %in% against$unit]
    recheck <- recheck[order(first_point[recheck])]
  }
  left_out <- setdiff(contradicted, recheck)
  members <- lapply(hood, function(h) which(unit == h))
  list(unit = unit, hood = hood, members = members,
       asked_unit = asked_unit, asked = asked, pending = pending, first_point = first_point,
       in_hood = unit %in% hood, touched = touched,
       hood_check = if (length(left_out) > 0L) hood_check(pairs, exclude, unit, hood, members, x),
       must_degree = tabulate(c(pairs$i[pairs$must], pairs$j[pairs$must]), nbins = n),
       recheck = recheck, against = against[against$unit %in% recheck, , drop = FALSE],
       contradicted = contradicted, left_out = left_out,
       cannot_edges = edges, k = k, infer = infer)
}

# At most k neighbourhoods: while there are more, drop one of the smallest,
# preferring one that was in a contradiction before, then the one whose
# centroid is nearest another's (two neighbourhoods that a wrong cannot-link
# split lie close together); the one dropped is then asked again against
# its most probable neighbourhood.
trim_hoods <- function(hood, k, x, unit, size, reasked) {
  while (length(hood) > k) {
    cand <- hood[size[hood] == min(size[hood])]
    if (any(reasked[cand])) cand <- cand[reasked[cand]]
    if (length(cand) > 1L) {
      cen <- group_centroids(x, lapply(hood, function(u) which(unit == u)))
      d <- sq_dist(cen, cen)
      diag(d) <- Inf
      cand <- cand[which.min(apply(d[match(cand, hood), , drop = FALSE], 1L, min))]
    }
    hood <- setdiff(hood, cand)
  }
  hood
}

# When a point stays apart from all k neighbourhoods after every recheck,
# perhaps two neighbourhoods are one cluster that a wrong cannot-link split
# while exploring: the cannot-linked pair between the two neighbourhoods
# with the nearest centroids, among those not asked twice, is asked again
# (a must-link merges them and the point starts a neighbourhood). NULL when
# every pair of neighbourhoods was asked twice.
hood_check <- function(pairs, exclude, unit, hood, members, x) {
  cannot <- !pairs$must
  ui <- unit[pairs$i[cannot]]
  uj <- unit[pairs$j[cannot]]
  between <- ui %in% hood & uj %in% hood & ui != uj
  cand <- data.frame(i = pairs$i[cannot][between], j = pairs$j[cannot][between],
                     a = match(ui[between], hood), b = match(uj[between], hood))
  ab <- pair_key(cand$a, cand$b)
  done <- ab %in% ab[pair_key(cand$i, cand$j) %in% pair_key(exclude$i, exclude$j)]
  cand <- cand[!done, , drop = FALSE]
  if (nrow(cand) == 0L) return(NULL)
  cen <- group_centroids(x, members)
  d <- rowSums((cen[cand$a, , drop = FALSE] - cen[cand$b, , drop = FALSE])^2)
  cand[which.min(d), c("i", "j")]
}

# One key per unordered pair of points (or units), to match pairs with %in%.
pair_key <- function(a, b) paste(pmin(a, b), pmax(a, b))

# The neighbourhoods (indices into st$hood) unit u was asked against.
asked_hoods <- function(st, u) {
  r <- match(u, st$asked_unit)
  if (is.na(r)) integer(0) else st$asked[[r]]
}

# The neighbourhoods (indices into st$hood) unit u is cannot-linked to.
denied_hoods <- function(st, u) {
  h <- match(st$cannot_edges[st$cannot_edges[, 1] == u, 2], st$hood)
  sort(unique(h[!is.na(h)]))
}

# Pairs whose answer is already known or implied (same chunklet; chunklets
# with a cannot-link between them) or that were asked without an answer.
known_pair <- function(i, j, pairs, exclude, unit) {
  ui <- unit[i]
  uj <- unit[j]
  cannot <- !pairs$must
  ui == uj |
    pair_key(ui, uj) %in% pair_key(unit[pairs$i[cannot]], unit[pairs$j[cannot]]) |
    pair_key(i, j) %in% pair_key(exclude$i, exclude$j)
}
