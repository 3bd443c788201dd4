# Plain-R references for CVQE (objective (68) of TR-09-12), written with
# loops. `pairs` is a list with i, j (1-based, i = the constraint's first
# point), must (logical) and w (confidence); `m` is k x p (rows = prototypes).

cvqe_pairs <- function(side) {
  if (is.null(side) || length(side$i) == 0L) {
    return(list(i = integer(), j = integer(), must = logical(), w = double()))
  }
  list(i = side$i, j = side$j, must = side$must, w = side$confidence)
}

# Squared distances between prototypes, and h(u) with its distance.
cvqe_geometry <- function(m) {
  k <- nrow(m)
  d <- matrix(0, k, k)
  for (u in seq_len(k)) for (v in seq_len(k)) d[u, v] <- sum((m[u, ] - m[v, ])^2)
  h <- rep(NA_integer_, k)
  hd <- rep(0, k)
  if (k > 1) {
    for (u in seq_len(k)) {
      others <- setdiff(seq_len(k), u)
      h[u] <- others[which.min(d[u, others])]
      hd[u] <- d[u, h[u]]
    }
  }
  list(d = d, h = h, hd = hd)
}

cvqe_pair_penalty <- function(geo, must, u, v) {
  if (must) {
    if (u != v) geo$d[u, v] else 0
  } else {
    if (u == v) geo$hd[u] else 0
  }
}

# L' and its halves.
cvqe_objective_r <- function(x, cluster, m, pairs) {
  within <- 0
  for (i in seq_len(nrow(x))) within <- within + sum((x[i, ] - m[cluster[i], ])^2)
  geo <- cvqe_geometry(m)
  pen <- 0
  for (l in seq_along(pairs$i)) {
    pen <- pen + pairs$w[l] * cvqe_pair_penalty(geo, pairs$must[l], cluster[pairs$i[l]],
                                                cluster[pairs$j[l]])
  }
  c(objective = (within + pen) / 2, within = within / 2, penalty = pen / 2)
}

# Cost of putting point i in each cluster, the other points where they are.
cvqe_point_costs <- function(x, cluster, m, pairs, i, geo = cvqe_geometry(m)) {
  k <- nrow(m)
  cost <- numeric(k)
  for (j in seq_len(k)) {
    cost[j] <- sum((x[i, ] - m[j, ])^2)
    for (l in seq_along(pairs$i)) {
      if (pairs$i[l] == i) other <- pairs$j[l] else if (pairs$j[l] == i) other <- pairs$i[l] else next
      cost[j] <- cost[j] + pairs$w[l] * cvqe_pair_penalty(geo, pairs$must[l], j, cluster[other])
    }
  }
  cost
}

# One ICM assignment step in row order with the prototypes fixed.
cvqe_assign_r <- function(x, cluster, m, pairs) {
  geo <- cvqe_geometry(m)
  for (i in seq_len(nrow(x))) {
    cluster[i] <- which.min(cvqe_point_costs(x, cluster, m, pairs, i, geo))
  }
  cluster
}

# One application of TR-09-12's prototype update m_j = y_j / z_j.
cvqe_prototypes_r <- function(x, cluster, m, pairs) {
  k <- nrow(m)
  geo <- cvqe_geometry(m)
  out <- m
  for (j in seq_len(k)) {
    y <- numeric(ncol(x))
    z <- 0
    for (i in which(cluster == j)) {
      y <- y + x[i, ]
      z <- z + 1
    }
    for (l in seq_along(pairs$i)) {
      if (cluster[pairs$i[l]] != j) next
      v <- cluster[pairs$j[l]]
      if (pairs$must[l] && v != j) {
        y <- y + pairs$w[l] * m[v, ]
        z <- z + pairs$w[l]
      } else if (!pairs$must[l] && v == j && k > 1) {
        y <- y + pairs$w[l] * m[geo$h[j], ]
        z <- z + pairs$w[l]
      }
    }
    if (z > 0) out[j, ] <- y / z
  }
  out
}

# Three tight, well-separated groups in the plane, with dimnames.
cvqe_blobs <- function(n_each = 10, sd = 0.3, seed = 1) {
  set.seed(seed)
  centres <- rbind(c(0, 0), c(6, 0), c(0, 6))
  x <- do.call(rbind, lapply(1:3, function(g) {
    cbind(stats::rnorm(n_each, centres[g, 1], sd), stats::rnorm(n_each, centres[g, 2], sd))
  }))
  colnames(x) <- c("a", "b")
  list(x = x, y = rep(1:3, each = n_each))
}

# Must-links and cannot-links as the two index matrices conclust takes.
conclust_pairs <- function(side) {
  ij <- cbind(side$i, side$j)
  list(must = ij[side$must, , drop = FALSE], cannot = ij[!side$must, , drop = FALSE])
}
