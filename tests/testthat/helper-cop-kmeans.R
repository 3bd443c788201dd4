# Plain-R references for COP-k-means, written with loops over the (few)
# pairs of the test inputs.

# Must-link components (1..C) by union-find over side's must-links.
cop_components_r <- function(n, side) {
  parent <- seq_len(n)
  root <- function(v) {
    while (parent[v] != v) v <- parent[v]
    v
  }
  if (!is.null(side)) {
    for (l in which(side$must)) {
      a <- root(side$i[l])
      b <- root(side$j[l])
      if (a != b) parent[b] <- a
    }
  }
  match(vapply(seq_len(n), root, 1), unique(vapply(seq_len(n), root, 1)))
}

cop_feasible_r <- function(cluster, side) {
  if (is.null(side) || length(side$i) == 0L) return(TRUE)
  same <- cluster[side$i] == cluster[side$j]
  all(same[side$must]) && !any(same[!side$must])
}

cop_broken_r <- function(cluster, side) {
  sum(!side$must & cluster[side$i] == cluster[side$j])
}

cop_within_r <- function(x, cluster, centers) {
  sum((x - centers[cluster, , drop = FALSE])^2)
}

# For every component and every other cluster, the lexicographic cost
# (broken cannot-links, sum of squared distances to the centre) of moving it
# there, the others fixed; returns TRUE when no move is strictly better.
cop_local_optimum_r <- function(x, cluster, centers, side, tol = 1e-9) {
  comp <- cop_components_r(nrow(x), side)
  cl <- which(!side$must)
  for (g in unique(comp)) {
    pts <- which(comp == g)
    cost <- vapply(seq_len(nrow(centers)), function(j) {
      sum(sweep(x[pts, , drop = FALSE], 2, centers[j, ])^2)
    }, 1)
    broken <- vapply(seq_len(nrow(centers)), function(j) {
      z <- cluster
      z[pts] <- j
      sum(z[side$i[cl]] == z[side$j[cl]])
    }, 1)
    cur <- cluster[pts[1]]
    better <- broken < broken[cur] | (broken == broken[cur] & cost < cost[cur] - tol)
    if (any(better)) return(FALSE)
  }
  TRUE
}

# The lowest within-cluster sum of squares over all feasible labelings into at
# most k clusters (tiny n only).
cop_brute_force <- function(x, side, k) {
  labelings <- as.matrix(expand.grid(rep(list(seq_len(k)), nrow(x))))
  best <- Inf
  for (r in seq_len(nrow(labelings))) {
    z <- labelings[r, ]
    if (!cop_feasible_r(z, side)) next
    w <- 0
    for (j in unique(z)) w <- w + sum(scale(x[z == j, , drop = FALSE], scale = FALSE)^2)
    best <- min(best, w)
  }
  best
}
