# Plain-R references for the information-bottleneck and co-clustering tests.

info_joint <- function(x) {
  x <- as.matrix(x)
  x / sum(x)
}

# I(X;Y) of a joint matrix.
mi_plain <- function(p) {
  p <- p / sum(p)
  e <- outer(rowSums(p), colSums(p))
  sum(p[p > 0] * log(p[p > 0] / e[p > 0]))
}

# I(C;Y) of a hard row partition.
info_cy <- function(p, cl) mi_plain(rowsum(p, cl))

entropy_plain <- function(w) {
  w <- w[w > 0] / sum(w)
  -sum(w * log(w))
}

# Largest increase of I(C;Y) from moving one row to another (existing or
# empty) cluster.
best_move_gain_ib <- function(p, cl, k) {
  base <- info_cy(p, cl)
  best <- -Inf
  for (x in seq_len(nrow(p))) {
    for (c in setdiff(seq_len(k), cl[x])) {
      cl2 <- cl
      cl2[x] <- c
      best <- max(best, info_cy(p, cl2) - base)
    }
  }
  best
}

# Loss of I(C;Y) of merging rows i and j, starting from singletons.
merge_loss_plain <- function(p, i, j) {
  cl <- seq_len(nrow(p))
  cl[j] <- i
  mi_plain(p) - info_cy(p, cl)
}

# I(X;Y) - I(X^;Y^) of a co-clustering.
itcc_loss_plain <- function(p, rows, cols) {
  mi_plain(p) - mi_plain(t(rowsum(t(rowsum(p, rows)), cols)))
}

# The cross-associations description length (bits), written out directly.
ca_cost_plain <- function(x, rows, cols) {
  log_star <- function(n) {
    s <- log2(2.865064)
    v <- n
    while (v > 1) {
      v <- log2(v)
      if (v > 0) s <- s + v
    }
    s
  }
  size_cost <- function(a) {
    a <- sort(a, decreasing = TRUE)
    k <- length(a)
    if (k < 2) return(0)
    abar <- rev(cumsum(rev(a)))[-k] - k + seq_len(k - 1)
    sum(ifelse(abar > 1, ceiling(log2(abar)), 0))
  }
  k <- max(rows)
  l <- max(cols)
  a <- tabulate(rows, k)
  b <- tabulate(cols, l)
  ones <- rowsum(t(rowsum(x, rows)), cols)  # l x k
  n <- outer(b, a)
  p <- ones / n
  h <- ifelse(p > 0 & p < 1, -(p * log2(p) + (1 - p) * log2(1 - p)), 0)
  log_star(k) + log_star(l) + size_cost(a) + size_cost(b) +
    sum(ceiling(log2(n + 1))) + sum(n * h)
}

# log2(n! / prod a_i!): the bits of which group each row is in.
ca_assignment_bits <- function(groups) {
  (lfactorial(length(groups)) - sum(lfactorial(tabulate(groups)))) / log(2)
}

# Planted-partition counts: rows of group g draw from profile g.
planted_counts <- function(n_per, m, k, strength = 5, size = 30) {
  profiles <- matrix(1, k, m)
  for (g in seq_len(k)) profiles[g, ((g - 1) * m / k + 1):(g * m / k)] <- strength
  truth <- rep(seq_len(k), each = n_per)
  x <- t(vapply(truth, function(g) stats::rmultinom(1, size, profiles[g, ])[, 1],
                numeric(m)))
  list(x = x, truth = truth)
}
