# Plain-R references for multiway_clustering(): the block multiway
# approximation C = E_w[Z | blocks] and the loss B = E_w[d(Z, C)], written
# cell by cell over the tensor (first dimension fastest, as R stores arrays).

mw_divergence <- function(z, c, divergence) {
  if (divergence == "euclidean") return((z - c)^2)
  ifelse(z > 0, z * log(z / c), 0) - z + c
}

# Block (1-based, first dimension fastest) of every cell.
mw_cell_blocks <- function(clusters, k) {
  g <- as.matrix(expand.grid(clusters))
  radix <- cumprod(c(1, k[-length(k)]))
  drop(1 + (g - 1) %*% radix)
}

mw_weights <- function(x, weights) {
  w <- if (is.null(weights)) rep(1, length(x)) else as.vector(weights)
  w / sum(w)
}

# Weighted block means and weights (blocks without weight get E_w[Z]).
mw_blocks <- function(x, clusters, k, weights = NULL) {
  w <- mw_weights(x, weights)
  b <- factor(mw_cell_blocks(clusters, k), levels = seq_len(prod(k)))
  bw <- tapply(w, b, sum, default = 0)
  bs <- tapply(w * as.vector(x), b, sum, default = 0)
  means <- ifelse(bw > 0, bs / bw, sum(w * x))
  list(means = array(means, k), weight = array(bw, k))
}

mw_objective <- function(x, clusters, k, divergence, weights = NULL, means = NULL) {
  w <- mw_weights(x, weights)
  if (is.null(means)) means <- mw_blocks(x, clusters, k, weights)$means
  cc <- means[mw_cell_blocks(clusters, k)]
  sum((w * mw_divergence(as.vector(x), cc, divergence))[w > 0])
}

mw_info <- function(x, divergence, weights = NULL) {
  w <- mw_weights(x, weights)
  sum((w * mw_divergence(as.vector(x), sum(w * x), divergence))[w > 0])
}

# Cost of every entity of dimension d in every cluster, the block values
# `means` fixed: an m_d x k_d matrix.
mw_entity_costs <- function(x, clusters, k, divergence, d, means, weights = NULL) {
  w <- mw_weights(x, weights)
  entity <- as.vector(slice.index(x, d))
  sapply(seq_len(k[d]), function(c) {
    moved <- clusters
    moved[[d]][] <- c
    cc <- means[mw_cell_blocks(moved, k)]
    cell <- ifelse(w > 0, w * mw_divergence(as.vector(x), cc, divergence), 0)
    as.vector(tapply(cell, factor(entity, levels = seq_len(dim(x)[d])), sum))
  })
}

# The lowest objective over all labelings of all dimensions.
mw_brute_force <- function(x, k, divergence) {
  labelings <- lapply(seq_along(k), function(l) {
    as.matrix(expand.grid(rep(list(seq_len(k[l])), dim(x)[l])))
  })
  grid <- as.matrix(expand.grid(lapply(labelings, function(m) seq_len(nrow(m)))))
  best <- Inf
  for (r in seq_len(nrow(grid))) {
    cl <- lapply(seq_along(k), function(l) labelings[[l]][grid[r, l], ])
    best <- min(best, mw_objective(x, cl, k, divergence))
  }
  best
}

# Sinkhorn scaling of a positive matrix to a joint distribution whose rows
# all have mass 1 / nrow and columns 1 / ncol.
mw_balanced_joint <- function(a, sweeps = 2000) {
  for (s in seq_len(sweeps)) {
    a <- a / rowSums(a) / nrow(a)
    a <- t(t(a) / colSums(a)) / ncol(a)
  }
  a
}

# A planted tensor: block means plus Gaussian noise, with the truth.
mw_planted <- function(dims, k, sd = 1, spread = 4, seed = 1) {
  set.seed(seed)
  truth <- lapply(seq_along(dims), function(l) sample(rep_len(seq_len(k[l]), dims[l])))
  means <- array(spread * stats::rnorm(prod(k)), k)
  x <- array(means[mw_cell_blocks(truth, k)] + stats::rnorm(prod(dims), sd = sd), dims)
  list(x = x, truth = truth, means = means)
}

# A partition renumbered 1.. by first appearance, as the fit numbers it.
mw_first_seen <- function(cl) match(cl, unique(cl))
