# Plain-R references for the multivariate information-bottleneck tests (they
# reuse mi_plain(), info_cy() and entropy_plain() of helper-info.R).

# L_max of parallel IB: I(C_1..C_m; Y) - sum_j H(C_j) / beta, clusters n x m.
lmax_parallel_plain <- function(p, clusters, beta = Inf) {
  clusters <- as.matrix(clusters)
  radix <- nrow(clusters) + 1
  cell <- drop((clusters - 1) %*% radix^(seq_len(ncol(clusters)) - 1))
  px <- rowSums(p)
  h <- sum(apply(clusters, 2, function(cl) entropy_plain(rowsum(px, cl)[, 1])))
  info_cy(p, cell) - if (is.finite(beta)) h / beta else 0
}

# L_max of symmetric IB: I(C_X; C_Y) - (H(C_X) + H(C_Y)) / beta.
lmax_symmetric_plain <- function(p, rows, cols, beta = Inf) {
  joint <- t(rowsum(t(rowsum(p, rows)), cols))
  h <- entropy_plain(rowSums(joint)) + entropy_plain(colSums(joint))
  mi_plain(joint) - if (is.finite(beta)) h / beta else 0
}

# Largest gain of L_max from moving one row in one clustering to another
# cluster (possibly empty) of that clustering.
best_move_gain_parallel <- function(p, clusters, k, beta = Inf) {
  base <- lmax_parallel_plain(p, clusters, beta)
  best <- -Inf
  for (x in seq_len(nrow(p))) for (j in seq_along(k)) {
    for (c in setdiff(seq_len(k[j]), clusters[x, j])) {
      moved <- clusters
      moved[x, j] <- c
      best <- max(best, lmax_parallel_plain(p, moved, beta) - base)
    }
  }
  best
}

# Largest gain of L_max from moving one row or one column.
best_move_gain_symmetric <- function(p, rows, cols, k_rows, k_cols, beta = Inf) {
  base <- lmax_symmetric_plain(p, rows, cols, beta)
  best <- -Inf
  for (x in seq_along(rows)) for (c in setdiff(seq_len(k_rows), rows[x])) {
    moved <- rows
    moved[x] <- c
    best <- max(best, lmax_symmetric_plain(p, moved, cols, beta) - base)
  }
  for (y in seq_along(cols)) for (c in setdiff(seq_len(k_cols), cols[y])) {
    moved <- cols
    moved[y] <- c
    best <- max(best, lmax_symmetric_plain(p, rows, moved, beta) - base)
  }
  best
}

# All labelings of n items with labels 1..k (rows of a matrix); with
# first_fixed, only those giving the first item label 1 (a relabelling of
# any other gives the same value).
all_labelings <- function(n, k, first_fixed = FALSE) {
  lab <- as.matrix(expand.grid(rep(list(seq_len(k)), n)))
  if (first_fixed) lab[lab[, 1] == 1, , drop = FALSE] else lab
}

# Counts with two independent row groupings a and b, a deciding the first
# half of the columns and b the second.
two_groupings <- function(n, m_half = 4, strength = 6, base = 1) {
  a <- sample(rep_len(1:2, n))
  b <- sample(rep_len(1:2, n))
  half <- m_half / 2
  high <- cbind(outer(a, rep(1:2, each = half), "=="), outer(b, rep(1:2, each = half), "=="))
  rate <- base + strength * high
  list(x = matrix(stats::rpois(length(rate), rate), nrow(rate)), a = a, b = b)
}

# One update of the iterative symmetric IB for the rows of p: memberships w
# (n x k) from the column memberships v (m x L), as TR-09-12's (21)-(22).
soft_update_plain <- function(p, w, v, beta) {
  p <- as.matrix(p)
  px <- rowSums(p)
  r <- p %*% v
  q <- crossprod(w, r)
  pc <- colSums(w * px)
  cond <- r / px
  kl <- vapply(seq_len(ncol(w)), function(c) {
    lq <- matrix(log(q[c, ] / pc[c]), nrow(r), ncol(r), byrow = TRUE)
    rowSums(ifelse(cond > 0, cond * (log(cond) - lq), 0))
  }, numeric(nrow(p)))
  u <- exp(-beta * (kl - apply(kl, 1, min))) * rep(pc, each = nrow(p))
  u / rowSums(u)
}

# I(C;X) of soft memberships w with point masses px.
soft_info_plain <- function(w, px) {
  pc <- colSums(w * px)
  sum(px * w * log(ifelse(w > 0, w, 1) / rep(pc, each = nrow(w))))
}

# One update of the iterative parallel IB for clustering j: p(c_j|x) from the
# soft memberships ws (a list of n x k_i matrices), as TR-09-12's (21)-(22).
soft_parallel_update_plain <- function(p, ws, j, beta) {
  p <- as.matrix(p)
  n <- nrow(p)
  px <- rowSums(p)
  cells <- as.matrix(expand.grid(lapply(ws, function(w) seq_len(ncol(w)))))
  weight <- function(skip) {
    vapply(seq_len(nrow(cells)), function(t) {
      Reduce(`*`, lapply(setdiff(seq_along(ws), skip), function(i) ws[[i]][, cells[t, i]]),
             rep(1, n))
    }, numeric(n))
  }
  cw <- weight(0L)
  q <- crossprod(cw, p)
  pyt <- q / colSums(cw * px)
  cond <- p / px
  kl <- vapply(seq_len(nrow(cells)), function(t) {
    rowSums(ifelse(cond > 0, cond * (log(cond) - rep(log(pyt[t, ]), each = n)), 0))
  }, numeric(n))
  others <- weight(j)
  d <- vapply(seq_len(ncol(ws[[j]])), function(c) {
    rowSums((others * kl)[, cells[, j] == c, drop = FALSE])
  }, numeric(n))
  pc <- colSums(ws[[j]] * px)
  u <- exp(-beta * (d - apply(d, 1, min))) * rep(pc, each = n)
  u / rowSums(u)
}
