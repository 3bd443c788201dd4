# Plain-R references for LCVQE (Pelleg & Baras (2007) with the penalties of
# lcvqe()'s help page), written with loops. `pairs` as cvqe_pairs() returns
# (i, j, must, w); `m` is k x p (rows = centres).

lcvqe_d2 <- function(x, r, m) colSums((t(m) - x[r, ])^2)

# The cheapest alternative of a cannot-link (a, b) in cluster u: point r,
# centre j != u and the squared distance (j = NA, d = 0 when k = 1).
lcvqe_alternative <- function(x, a, b, u, m) {
  if (nrow(m) < 2L) return(list(r = a, j = NA_integer_, d = 0))
  best <- list(d = Inf)
  for (r in c(a, b)) {
    d <- lcvqe_d2(x, r, m)
    d[u] <- Inf
    if (min(d) < best$d) best <- list(r = r, j = which.min(d), d = min(d))
  }
  best
}

lcvqe_objective_r <- function(x, cluster, m, pairs) {
  within <- 0.5 * sum((x - m[cluster, , drop = FALSE])^2)
  pen <- 0
  for (l in seq_along(pairs$i)) {
    a <- pairs$i[l]
    b <- pairs$j[l]
    u <- cluster[a]
    v <- cluster[b]
    if (pairs$must[l] && u != v) {
      pen <- pen + pairs$w[l] / 2 * (sum((x[a, ] - m[v, ])^2) + sum((x[b, ] - m[u, ])^2))
    } else if (!pairs$must[l] && u == v) {
      pen <- pen + pairs$w[l] / 2 * lcvqe_alternative(x, a, b, u, m)$d
    }
  }
  c(objective = within + pen, within = within, penalty = pen)
}

# The exact minimizer of L in the centres, the assignment and each broken
# cannot-link's alternative (at the centres m) fixed; weightless clusters keep
# their centre.
lcvqe_centres_r <- function(x, cluster, m, pairs) {
  sum <- matrix(0, nrow(m), ncol(m))
  weight <- numeric(nrow(m))
  for (i in seq_len(nrow(x))) {
    sum[cluster[i], ] <- sum[cluster[i], ] + x[i, ]
    weight[cluster[i]] <- weight[cluster[i]] + 1
  }
  for (l in seq_along(pairs$i)) {
    a <- pairs$i[l]
    b <- pairs$j[l]
    u <- cluster[a]
    v <- cluster[b]
    w <- pairs$w[l]
    if (pairs$must[l] && u != v) {
      sum[v, ] <- sum[v, ] + w * x[a, ]
      weight[v] <- weight[v] + w
      sum[u, ] <- sum[u, ] + w * x[b, ]
      weight[u] <- weight[u] + w
    } else if (!pairs$must[l] && u == v && nrow(m) > 1L) {
      alt <- lcvqe_alternative(x, a, b, u, m)
      sum[alt$j, ] <- sum[alt$j, ] + w * x[alt$r, ]
      weight[alt$j] <- weight[alt$j] + w
    }
  }
  out <- m
  out[weight > 0, ] <- sum[weight > 0, , drop = FALSE] / weight[weight > 0]
  out
}

# The lowest L over all single-point moves at the centres m.
lcvqe_best_move <- function(x, cluster, m, pairs) {
  lowest <- Inf
  for (i in seq_len(nrow(x))) for (j in seq_len(nrow(m))) {
    moved <- cluster
    moved[i] <- j
    lowest <- min(lowest, lcvqe_objective_r(x, moved, m, pairs)[["objective"]])
  }
  lowest
}

# Must-link components of two or more points, as lists of points in the
# order of their first point.
lcvqe_components <- function(n, pairs) {
  side <- list(i = pairs$i, j = pairs$j, must = pairs$must)
  comp <- cop_components_r(n, if (length(side$i)) side else NULL)
  groups <- split(seq_len(n), comp)
  groups[lengths(groups) > 1L]
}

# One pass of whole-component moves at the centres m (each to the cluster of
# lowest L when strictly lower), as lcvqe()'s assignment step ends.
lcvqe_component_pass <- function(x, cluster, m, pairs) {
  for (g in lcvqe_components(nrow(x), pairs)) {
    now <- lcvqe_objective_r(x, cluster, m, pairs)[["objective"]]
    cost <- vapply(seq_len(nrow(m)), function(u) {
      z <- cluster
      z[g] <- u
      lcvqe_objective_r(x, z, m, pairs)[["objective"]]
    }, 1)
    if (min(cost) < now - 1e-12 * (1 + now)) cluster[g] <- which.min(cost)
  }
  cluster
}

# The global minimum of L over all assignments and all k centres, by brute
# force on tiny inputs. For a fixed assignment, L is the minimum over every
# broken cannot-link's alternative (point r of the pair, centre j other than
# the pair's) of a quadratic in the centres whose minimizer is a weighted
# mean (lcvqe_centres_r() with those alternatives held fixed); so the minimum
# over the centres is the least, over all such choices, of L at those means.
# A cluster with no weight is put far away, where it is nobody's alternative
# (any other place can only lower L, and some choice accounts for it). A fit
# whose empty clusters were dropped has L over fewer centres, which is never
# below this minimum. Returns the minimum and an assignment attaining it.
lcvqe_brute_force <- function(x, pairs, k) {
  n <- nrow(x)
  far <- 1e6 * (1 + max(abs(x)))
  labelings <- as.matrix(expand.grid(rep(list(seq_len(k)), n)))
  best <- list(objective = Inf, cluster = NULL)
  for (row in seq_len(nrow(labelings))) {
    z <- labelings[row, ]
    cl <- which(!pairs$must & z[pairs$i] == z[pairs$j])
    # every choice of (r, j) for every broken cannot-link
    options <- lapply(cl, function(l) {
      u <- z[pairs$i[l]]
      expand.grid(r = c(pairs$i[l], pairs$j[l]), j = setdiff(seq_len(k), u))
    })
    choices <- if (length(cl)) expand.grid(lapply(options, function(o) seq_len(nrow(o)))) else
      data.frame(none = 1L)
    for (ch in seq_len(nrow(choices))) {
      sum <- matrix(0, k, ncol(x))
      weight <- numeric(k)
      for (i in seq_len(n)) {
        sum[z[i], ] <- sum[z[i], ] + x[i, ]
        weight[z[i]] <- weight[z[i]] + 1
      }
      for (l in which(pairs$must & z[pairs$i] != z[pairs$j])) {
        a <- pairs$i[l]
        b <- pairs$j[l]
        sum[z[b], ] <- sum[z[b], ] + pairs$w[l] * x[a, ]
        weight[z[b]] <- weight[z[b]] + pairs$w[l]
        sum[z[a], ] <- sum[z[a], ] + pairs$w[l] * x[b, ]
        weight[z[a]] <- weight[z[a]] + pairs$w[l]
      }
      for (t in seq_along(cl)) {
        alt <- options[[t]][choices[ch, t], ]
        sum[alt$j, ] <- sum[alt$j, ] + pairs$w[cl[t]] * x[alt$r, ]
        weight[alt$j] <- weight[alt$j] + pairs$w[cl[t]]
      }
      m <- matrix(far, k, ncol(x))
      m[weight > 0, ] <- sum[weight > 0, , drop = FALSE] / weight[weight > 0]
      obj <- lcvqe_objective_r(x, z, m, pairs)[["objective"]]
      if (obj < best$objective) best <- list(objective = obj, cluster = unname(z))
    }
  }
  best
}
