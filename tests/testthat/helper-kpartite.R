# Plain-R references for k-partite clustering (TR-09-12 Section 9): the
# distance (61), the weights (63) and the exchange algorithm, on dense
# matrices. `types` is a two-column matrix (row type, column type), 1-based.

kp_div_r <- function(a, b, divergence) {
  if (divergence == "euclidean") return((a - b)^2)
  ifelse(a == 0, b, a * log(a / b) - a + b)
}

kp_indicator <- function(cl, k) {
  f <- matrix(0, length(cl), k)
  f[cbind(seq_along(cl), cl)] <- 1
  f
}

# Eq. (63) literally; only for partitions without empty clusters.
kp_weights_r <- function(a, ca, ka, cb, kb) {
  fa <- kp_indicator(ca, ka)
  fb <- kp_indicator(cb, kb)
  solve(crossprod(fa)) %*% t(fa) %*% a %*% fb %*% solve(crossprod(fb))
}

# Block means of the non-empty blocks (0 elsewhere; those blocks hold no cell).
kp_block_means_r <- function(a, ca, ka, cb, kb) {
  b <- matrix(0, ka, kb)
  for (p in unique(ca)) for (q in unique(cb)) b[p, q] <- mean(a[ca == p, cb == q])
  b
}

# Eq. (61) for clusters `cl` (list per type) and weights `b` (list per
# relation; NULL: block means).
kp_objective_r <- function(rel, types, cl, k, divergence = "euclidean", b = NULL) {
  total <- 0
  for (r in seq_along(rel)) {
    a <- as.matrix(rel[[r]])
    ta <- types[r, 1]
    tb <- types[r, 2]
    w <- if (is.null(b)) kp_block_means_r(a, cl[[ta]], k[ta], cl[[tb]], k[tb]) else b[[r]]
    total <- total + sum(kp_div_r(a, w[cl[[ta]], cl[[tb]], drop = FALSE], divergence))
  }
  total
}

# Every partition of m vertices into at most k labelled clusters.
kp_all_labelings <- function(m, k) {
  as.matrix(expand.grid(rep(list(seq_len(k)), m)))
}

# The exchange algorithm of TR-09-12 in plain R, from `start`: each type
# in turn, each vertex to the cluster of lowest (61) with B fixed (ties keep
# the current cluster, then the lowest number), then B to block means.
kp_exchange_r <- function(rel, types, start, k, divergence = "euclidean", max_iter = 50) {
  cl <- start
  b <- lapply(seq_along(rel), function(r) {
    kp_block_means_r(rel[[r]], cl[[types[r, 1]]], k[types[r, 1]], cl[[types[r, 2]]],
                     k[types[r, 2]])
  })
  trace <- kp_objective_r(rel, types, cl, k, divergence, b)
  for (it in seq_len(max_iter)) {
    moves <- 0
    for (t in seq_along(k)) {
      new <- cl[[t]]
      for (h in seq_along(cl[[t]])) {
        cost <- vapply(seq_len(k[t]), function(p) {
          trial <- cl
          trial[[t]][h] <- p
          kp_objective_r(rel, types, trial, k, divergence, b)
        }, 0)
        best <- cl[[t]][h]
        for (p in seq_len(k[t])) if (cost[p] < cost[best] - 1e-9 * abs(cost[best])) best <- p
        new[h] <- best
      }
      moves <- moves + sum(new != cl[[t]])
      cl[[t]] <- new
    }
    for (r in seq_along(rel)) {
      ta <- types[r, 1]
      tb <- types[r, 2]
      for (p in unique(cl[[ta]])) for (q in unique(cl[[tb]])) {
        b[[r]][p, q] <- mean(rel[[r]][cl[[ta]] == p, cl[[tb]] == q])
      }
    }
    trace <- c(trace, kp_objective_r(rel, types, cl, k, divergence, b))
    if (moves == 0) break
  }
  list(clusters = cl, trace = trace, b = b)
}

# Planted k-partite data: `sizes` vertices per type, `k` clusters per type
# (equal groups), relations along `types` with block rates drawn from
# `rates` (Poisson counts, or Gaussian noise of sd `noise` when noise > 0).
kp_planted <- function(sizes, k, types, noise = 0, low = 1, high = 6) {
  truth <- lapply(seq_along(sizes), function(t) rep(seq_len(k[t]), length.out = sizes[t]))
  rel <- lapply(seq_len(nrow(types)), function(r) {
    ta <- types[r, 1]
    tb <- types[r, 2]
    rate <- matrix(low, k[ta], k[tb])
    rate[cbind(seq_len(k[ta]), (seq_len(k[ta]) - 1) %% k[tb] + 1)] <- high
    mu <- rate[truth[[ta]], truth[[tb]]]
    if (noise > 0) mu + matrix(stats::rnorm(length(mu), sd = noise), nrow(mu))
    else matrix(stats::rpois(length(mu), mu), nrow(mu))
  })
  list(relations = rel, truth = truth)
}

# A partition renumbered 1.. by first appearance, as the fit numbers it.
kp_first_seen <- function(cl) match(cl, unique(cl))
