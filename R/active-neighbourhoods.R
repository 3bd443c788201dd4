# Explore-Consolidate (Basu, Banerjee & Mooney 2004), Min-Max (Mallapragada,
# Jin & Jain 2008) and NPU (Xiong, Azimi & Fern 2014): each question puts one
# point against one member of a neighbourhood. The state comes from
# neighbourhood_state() (R/active-state.R); see ?query_pairs for the rules.

# Squared Euclidean distances between the rows of a and of b.
sq_dist <- function(a, b) {
  d <- outer(rowSums(a^2), rowSums(b^2), `+`) - 2 * tcrossprod(a, b)
  d[d < 0] <- 0
  d
}

# The m smallest values of each row of d, ascending, one row each: m
# vectorized passes over the rows rather than a sort per row.
row_smallest <- function(d, m) {
  out <- matrix(0, nrow(d), m)
  rows <- seq_len(nrow(d))
  for (r in seq_len(m)) {
    at <- cbind(rows, max.col(-d, ties.method = "first"))
    out[, r] <- d[at]
    d[at] <- Inf
  }
  out
}

# For each point in `pts`, the smallest squared distance to the points
# `targets`, in blocks of rows so that no |pts| x |targets| matrix is made.
min_sq_dist <- function(x, pts, targets) {
  out <- double(length(pts))
  tx <- x[targets, , drop = FALSE]
  block <- max(1L, as.integer(2e6 %/% max(1L, length(targets))))
  for (s in seq(1L, length(pts), by = block)) {
    t <- s:min(length(pts), s + block - 1L)
    out[t] <- row_smallest(sq_dist(x[pts[t], , drop = FALSE], tx), 1L)
  }
  out
}

# The points that may start a new question: not in a neighbourhood, in a unit
# never asked (as its first point), and not already in the batch.
fresh_points <- function(st, used) {
  ok <- !st$in_hood & !st$touched[st$unit] & st$first_point[st$unit] == seq_along(st$unit)
  ok[used] <- FALSE
  which(ok)
}

# The member of a neighbourhood to ask point q against: the one that most
# must-link answers tie to it (its hub: the point it grew from, when every
# point was asked against it), then the nearest; not asked with q before,
# preferring members not yet in the batch. Asking the hub rather than the
# nearest member keeps a point that a wrong answer let in from drawing its
# true cluster after it: a truthful "same" to that point would be wrong for
# the neighbourhood.
representative <- function(x, q, members, used, exclude, must_degree) {
  asked <- members[pair_key(q, members) %in% pair_key(exclude$i, exclude$j)]
  cand <- setdiff(members, asked)
  if (length(cand) == 0L) return(NA_integer_)
  fresh <- setdiff(cand, used)
  if (length(fresh) > 0L) cand <- fresh
  cand <- cand[must_degree[cand] == max(must_degree[cand])]
  if (length(cand) == 1L) return(cand)
  cand[which.min(sq_dist(x[q, , drop = FALSE], x[cand, , drop = FALSE]))]
}

# The next question of point q: against the first neighbourhood in `order`
# (indices into st$hood) that q's unit was not asked against. With
# st$infer and k neighbourhoods, when the unit was answered cannot-link by
# all of them but one and that one is expected (last_hood_expected()), the
# row is the must-link to it, inferred (phase "inferred"), not a question.
next_question <- function(x, st, q, order, used, exclude, score, phase) {
  asked <- asked_hoods(st, st$unit[q])
  left <- setdiff(order, asked)
  if (length(left) == 1L && last_hood_expected(x, st, q, left)) phase <- "inferred"
  for (h in left) {
    j <- representative(x, q, st$members[[h]], used, exclude, st$must_degree)
    if (!is.na(j)) return(data.frame(i = q, j = j, score = score, phase = phase))
  }
  NULL
}

# Whether point q, answered cannot-link by every neighbourhood but `last`,
# belongs to `last` without asking: the answers were expected, the kernel's
# probability of `last` being at least half that of each neighbourhood that
# answered cannot-link. Basu, Banerjee & Mooney (2004) infer the last
# neighbourhood always; a "different" the kernel did not expect is the
# likelier to be wrong, so then the last neighbourhood is asked too, and a
# wrong answer shows as a contradiction of k.
last_hood_expected <- function(x, st, q, last) {
  if (!isTRUE(st$infer) || is.null(st$k) || length(st$hood) != st$k || st$k < 2L) return(FALSE)
  denied <- denied_hoods(st, st$unit[q])
  if (length(denied) != st$k - 1L || last %in% denied) return(FALSE)
  p <- hood_probability(x, st, q, NULL)[1L, ]
  p[last] >= 0.5 * max(p[denied])
}

# The recheck of unit u (see neighbourhood_state()): a cannot-linked pair
# between u and the first neighbourhood in `order` not yet asked again.
recheck_question <- function(st, u, order, used) {
  cand <- st$against[st$against$unit == u & !st$against$point %in% used &
                       !st$against$member %in% used, , drop = FALSE]
  if (nrow(cand) == 0L) return(NULL)
  r <- cand[order(match(cand$hood, order))[1L], ]
  data.frame(i = r$point, j = r$member, score = NA_real_, phase = "recheck")
}

# The questions a neighbourhood procedure asks before any other: the hood
# check of neighbourhood_state(), then the rechecks, unit u against the
# neighbourhoods in the order hood_order(u); at most `batch` rechecks in
# all, no point twice.
opening_questions <- function(st, batch, hood_order) {
  out <- list()
  if (!is.null(st$hood_check)) {
    out[[1L]] <- data.frame(i = st$hood_check$i, j = st$hood_check$j, score = NA_real_,
                            phase = "recheck")
  }
  used <- question_points(out)
  for (u in st$recheck) {
    if (length(out) >= batch) break
    row <- recheck_question(st, u, hood_order(u), used)
    if (!is.null(row)) {
      out[[length(out) + 1L]] <- row
      used <- c(used, row$i, row$j)
    }
  }
  out
}

# The points of a list of questions (rows of i and j).
question_points <- function(out) unlist(lapply(out, function(r) c(r$i, r$j)))

# The centroid of each group of points (a list of point indices), one row each.
group_centroids <- function(x, groups) {
  do.call(rbind, lapply(groups, function(m) colMeans(x[m, , drop = FALSE])))
}

# Neighbourhoods by distance from point q to their centroids, nearest first.
centroid_order <- function(x, q, centroids) {
  order(sq_dist(x[q, , drop = FALSE], centroids))
}

# Farthest-first traversal: `m` points of `pool`, each the farthest from the
# traversed points `from` and the points picked before it.
farthest_first <- function(x, pool, from, m) {
  if (length(pool) == 0L || m == 0L) return(list(points = integer(0), score = double(0)))
  d <- min_sq_dist(x, pool, from)
  picked <- integer(0)
  score <- double(0)
  for (r in seq_len(min(m, length(pool)))) {
    b <- which.max(d)
    picked <- c(picked, pool[b])
    score <- c(score, d[b])
    d <- pmin(d, min_sq_dist(x, pool, pool[b]))
    d[b] <- -Inf
  }
  list(points = picked, score = score)
}

# A state with one neighbourhood made of point a (the start of a procedure
# that has no neighbourhood yet).
seed_state <- function(st, a) {
  st$hood <- st$unit[a]
  st$members <- list(a)
  st$in_hood[a] <- TRUE
  st
}

# Explore-Consolidate and Min-Max: `consolidate` is "random" (E-C) or
# "min_max" (the fresh candidate least similar to every neighbourhood point).
query_explore_consolidate <- function(x, st, k, batch, exclude, consolidate, candidates) {
  n <- nrow(x)
  if (length(st$hood) == 0L) st <- seed_state(st, sample.int(n, 1L))
  centroids <- group_centroids(x, st$members)
  explore <- length(st$hood) < k
  phase <- if (explore) "explore" else "consolidate"
  # a contradiction is asked again first, then a point asked against some
  # neighbourhoods goes on
  out <- opening_questions(st, batch, function(u) centroid_order(x, st$first_point[u], centroids))
  used <- question_points(out)
  add <- function(q, score) {
    row <- next_question(x, st, q, centroid_order(x, q, centroids), used, exclude, score, phase)
    if (!is.null(row)) {
      out[[length(out) + 1L]] <<- row
      used <<- c(used, row$i, row$j)
    }
  }
  for (u in st$pending) {
    if (length(out) >= batch) break
    add(st$first_point[u], NA_real_)
  }
  traversed <- unlist(st$members, use.names = FALSE)
  while (length(out) < batch) {
    pool <- fresh_points(st, used)
    if (length(pool) == 0L) break
    need <- batch - length(out)
    if (explore || consolidate == "min_max") {
      if (!explore && length(pool) > candidates) pool <- pool[sample.int(length(pool), candidates)]
      picks <- farthest_first(x, pool, traversed, need)
    } else {
      pts <- if (length(pool) == 1L) pool else pool[sample.int(length(pool), min(need, length(pool)))]
      picks <- list(points = pts, score = rep(NA_real_, length(pts)))
    }
    before <- length(out)
    for (r in seq_along(picks$points)) add(picks$points[r], picks$score[r])
    if (length(out) == before) break
  }
  finish_questions(out)
}

finish_questions <- function(out) {
  if (length(out) == 0L) {
    return(data.frame(i = integer(0), j = integer(0), score = double(0), phase = character(0)))
  }
  out <- do.call(rbind, out)
  out$i <- as.integer(out$i)
  out$j <- as.integer(out$j)
  out
}

# P(point in neighbourhood h) for the points `pts`, normalized over the
# neighbourhoods. With a posterior: NPU's mean similarity to the
# neighbourhood's members (at most 20 of them, drawn at random), the
# co-clustering probability as the similarity. Without: the mean Gaussian
# kernel of the squared distance to the point's `near` nearest members (of
# at most 500, drawn at random), the bandwidth the median distance from the
# points to their nearest neighbourhood member. The nearest members rather
# than all of them: a neighbourhood that wraps around another, or is wider,
# is judged where it is close to the point.
hood_probability <- function(x, st, pts, src, near = 5L) {
  if (is.null(src)) {
    members <- lapply(st$members, function(m) if (length(m) > 500L) m[sample.int(length(m), 500L)] else m)
    d <- lapply(members, function(m) {
      row_smallest(sq_dist(x[pts, , drop = FALSE], x[m, , drop = FALSE]), min(near, length(m)))
    })
    nearest <- do.call(pmin, lapply(d, function(di) di[, 1L]))
    h <- stats::median(nearest)
    if (!(h > 0)) h <- mean(nearest) + 1e-12
    sim <- vapply(d, function(di) rowMeans(exp(-di / (2 * h))), double(length(pts)))
  } else {
    members <- lapply(st$members, function(m) if (length(m) > 20L) m[sample.int(length(m), 20L)] else m)
    sim <- vapply(members, function(m) {
      p <- coclustering(src, rep(pts, times = length(m)), rep(m, each = length(pts)))
      rowMeans(matrix(p, nrow = length(pts)))
    }, double(length(pts)))
  }
  sim <- matrix(sim, nrow = length(pts)) + 1e-12
  sim / rowSums(sim)
}

# NPU: the fresh candidate of largest entropy of its neighbourhood
# membership per expected number of questions, asked against the
# neighbourhoods in decreasing probability. With fewer than two
# neighbourhoods every entropy is 0, so the procedure explores as
# Explore-Consolidate until there are two.
query_npu <- function(x, st, batch, exclude, candidates, src) {
  if (length(st$hood) < 2L) {
    return(query_explore_consolidate(x, st, 2L, batch, exclude, "random", candidates))
  }
  prob <- if (length(st$recheck) > 0L) hood_probability(x, st, st$first_point[st$recheck], src)
  out <- opening_questions(st, batch, function(u) order(-prob[match(u, st$recheck), ]))
  used <- question_points(out)
  add <- function(q, prob, score) {
    row <- next_question(x, st, q, order(-prob), used, exclude, score, "consolidate")
    if (!is.null(row)) {
      out[[length(out) + 1L]] <<- row
      used <<- c(used, row$i, row$j)
    }
  }
  pending <- st$first_point[st$pending]
  if (length(pending) > 0L && length(out) < batch) {
    prob <- hood_probability(x, st, pending, src)
    for (r in seq_along(pending)) {
      if (length(out) >= batch) break
      add(pending[r], prob[r, ], NA_real_)
    }
  }
  if (length(out) < batch) {
    pool <- fresh_points(st, used)
    if (length(pool) > candidates) pool <- pool[sample.int(length(pool), candidates)]
    if (length(pool) > 0L) {
      prob <- hood_probability(x, st, pool, src)
      entropy <- -rowSums(prob * log(prob))
      sorted <- t(apply(prob, 1L, sort, decreasing = TRUE))
      if (ncol(prob) == 1L) sorted <- t(sorted)
      expected <- drop(sorted %*% seq_len(ncol(prob)))
      score <- entropy / expected
      for (r in order(-score)) {
        if (length(out) >= batch) break
        if (pool[r] %in% used) next
        add(pool[r], prob[r, ], score[r])
      }
    }
  }
  finish_questions(out)
}
