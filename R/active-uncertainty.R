# The "random" and "uncertainty" strategies of query_pairs(): pairs drawn
# from a sample of candidates, never from all n^2 pairs.

# `batch` random pairs of distinct points, none known or asked before.
query_random <- function(n, batch, pairs, exclude, unit) {
  out <- data.frame(i = integer(0), j = integer(0))
  used <- integer(0)
  for (attempt in 1:20) {
    m <- 4L * (batch - nrow(out)) + 4L
    i <- sample.int(n, m, replace = TRUE)
    j <- sample.int(n, m, replace = TRUE)
    ok <- i != j & !known_pair(i, j, pairs, exclude, unit)
    for (t in which(ok)) {
      if (nrow(out) >= batch) break
      if (i[t] %in% used || j[t] %in% used) next
      out[nrow(out) + 1L, ] <- c(min(i[t], j[t]), max(i[t], j[t]))
      used <- c(used, i[t], j[t])
    }
    if (nrow(out) >= batch || 2L * (batch - nrow(out)) > n - length(used)) break
  }
  data.frame(i = as.integer(out$i), j = as.integer(out$j), score = rep(NA_real_, nrow(out)),
             phase = rep(NA_character_, nrow(out)))
}

# Candidate pairs for the uncertainty strategy: every pair of a tiny data
# set; otherwise, for `candidates` points drawn at random, one partner drawn
# from the cluster whose co-clustering probability with the point is closest
# to 1/2 (its most doubtful cluster, judged on one random member of each
# cluster) and one partner drawn at random.
uncertainty_candidates <- function(src, n, candidates) {
  if (choose(n, 2) <= candidates) {
    cmb <- utils::combn(n, 2L)
    return(list(i = cmb[1, ], j = cmb[2, ]))
  }
  pts <- sample.int(n, min(n, candidates))
  rand <- sample.int(n, length(pts), replace = TRUE)
  cl <- src$cluster
  if (is.null(cl)) return(list(i = c(pts), j = c(rand)))
  members <- split(seq_len(n), cl)
  reps <- vapply(members, function(m) m[sample.int(length(m), 1L)], integer(1))
  p <- matrix(coclustering(src, rep(pts, times = length(reps)), rep(reps, each = length(pts))),
              nrow = length(pts))
  doubt <- max.col(-abs(p - 0.5), ties.method = "first")
  partner <- vapply(seq_along(pts), function(r) {
    m <- members[[doubt[r]]]
    m[sample.int(length(m), 1L)]
  }, integer(1))
  list(i = c(pts, pts), j = c(partner, rand))
}

# The uncertainty strategy, see ?query_pairs: the `rescore` candidates of
# largest entropy are scored by answer_gain() over `others` points (all
# other points when n - 2 <= sample_size), scaled to all n - 2.
query_uncertainty <- function(src, n, batch, pairs, exclude, unit, candidates, weighted,
                              rescore = 200L, sample_size = 200L) {
  cand <- uncertainty_candidates(src, n, candidates)
  i <- pmin(cand$i, cand$j)
  j <- pmax(cand$i, cand$j)
  keep <- i != j & !duplicated(paste(i, j))
  i <- i[keep]
  j <- j[keep]
  keep <- !known_pair(i, j, pairs, exclude, unit)
  i <- i[keep]
  j <- j[keep]
  p <- coclustering(src, i, j)
  score <- binary_entropy(p)
  if (weighted && length(i) > 0L) {
    top <- order(-score, i, j)[seq_len(min(length(i), rescore))]
    exact <- n - 2L <= sample_size
    sampled <- if (exact) seq_len(n) else sample.int(n, sample_size)
    gain <- vapply(top, function(t) {
      others <- sampled[sampled != i[t] & sampled != j[t]]
      g <- answer_gain(src, i[t], j[t], others)
      if (exact) g else binary_entropy(p[t]) + (g - binary_entropy(p[t])) * (n - 2) / length(others)
    }, double(1))
    score <- rep(-Inf, length(i))
    score[top] <- gain
  }
  ord <- order(-score, i, j)
  chosen <- integer(0)
  used <- integer(0)
  for (t in ord) {
    if (length(chosen) >= batch || score[t] == -Inf) break
    if (i[t] %in% used || j[t] %in% used) next
    if (length(chosen) > 0L && redundant_pair(src, i[t], j[t], i[chosen], j[chosen])) next
    chosen <- c(chosen, t)
    used <- c(used, i[t], j[t])
  }
  data.frame(i = i[chosen], j = j[chosen], score = score[chosen], p_same = p[chosen],
             phase = rep(NA_character_, length(chosen)))
}

# A pair is redundant with a chosen pair when, more likely than not, its two
# points lie with the chosen pair's two points, one each: the answer to the
# chosen pair would then answer it too.
redundant_pair <- function(src, a, b, ci, cj) {
  m <- length(ci)
  same <- function(u, v) coclustering(src, rep(u, m), v)
  any(same(a, ci) * same(b, cj) > 0.5 | same(a, cj) * same(b, ci) > 0.5)
}
