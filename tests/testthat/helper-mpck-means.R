# Plain-R references for MPCK-means (Bilenko, Basu & Mooney 2004, with the
# linear diameter bound of mpck_means()), written with loops. `pairs` is a
# list with i, j (1-based), must (logical) and w (confidence); `centers` is
# k x p; `metrics` a list of k p x p matrices.

mpck_pairs <- function(side) {
  if (is.null(side) || length(side$i) == 0L) {
    return(list(i = integer(), j = integer(), must = logical(), w = double()))
  }
  list(i = side$i, j = side$j, must = side$must, w = side$confidence)
}

# Column ranges squared, the bound's factor c and the ridge scale s2.
mpck_consts <- function(x, metric) {
  s2 <- if (nrow(x) > 1) mean(apply(x, 2, stats::var)) else 1
  if (!(s2 > 0)) s2 <- 1
  list(r2 = apply(x, 2, function(v) diff(range(v)))^2, s2 = s2,
       c = if (metric == "full") ncol(x) else 1)
}

# The metrics of a fit as a list of p x p matrices.
mpck_metric_list <- function(fit) {
  p <- ncol(fit$centers)
  lapply(seq_len(fit$k), function(h) {
    switch(fit$metric, none = diag(p), diagonal = diag(fit$metrics[h, ], p),
           full = unname(fit$metrics[[h]]))
  })
}

mpck_norm2 <- function(v, a) sum(v * (a %*% v))

# J and its parts.
mpck_objective_r <- function(x, cluster, centers, metrics, pairs, metric, ridge) {
  cs <- mpck_consts(x, metric)
  logdets <- vapply(metrics, function(a) {
    if (metric == "none") 0 else as.numeric(determinant(a)$modulus)
  }, 0)
  within <- 0
  logdet <- 0
  for (i in seq_len(nrow(x))) {
    h <- cluster[i]
    within <- within + mpck_norm2(x[i, ] - centers[h, ], metrics[[h]])
    logdet <- logdet + logdets[h]
  }
  penalty <- 0
  for (l in seq_along(pairs$i)) {
    a <- pairs$i[l]
    b <- pairs$j[l]
    u <- cluster[a]
    v <- cluster[b]
    d <- x[a, ] - x[b, ]
    if (pairs$must[l] && u != v) {
      penalty <- penalty + pairs$w[l] / 2 * (mpck_norm2(d, metrics[[u]]) + mpck_norm2(d, metrics[[v]]))
    } else if (!pairs$must[l] && u == v) {
      bound <- cs$c * sum(diag(metrics[[u]]) * cs$r2)
      penalty <- penalty + pairs$w[l] * (bound - mpck_norm2(d, metrics[[u]]))
    }
  }
  reg <- if (metric == "none") 0 else ridge * cs$s2 * sum(vapply(metrics, function(a) sum(diag(a)), 0))
  c(objective = within - logdet + penalty + reg, within = within, logdet = logdet,
    penalty = penalty, regularization = reg)
}

# The exact metric update given the assignment and the centres.
mpck_update_r <- function(x, cluster, centers, pairs, metric, ridge) {
  cs <- mpck_consts(x, metric)
  p <- ncol(x)
  lapply(seq_len(nrow(centers)), function(h) {
    s <- matrix(0, p, p)
    for (i in which(cluster == h)) {
      d <- x[i, ] - centers[h, ]
      s <- s + tcrossprod(d)
    }
    for (l in seq_along(pairs$i)) {
      u <- cluster[pairs$i[l]]
      v <- cluster[pairs$j[l]]
      d <- x[pairs$i[l], ] - x[pairs$j[l], ]
      if (pairs$must[l] && u != v && h %in% c(u, v)) s <- s + pairs$w[l] / 2 * tcrossprod(d)
      if (!pairs$must[l] && u == h && v == h) {
        s <- s + pairs$w[l] * (cs$c * diag(cs$r2, p) - tcrossprod(d))
      }
    }
    m <- s + ridge * cs$s2 * diag(p)
    if (metric == "diagonal") m <- diag(diag(m), p)
    sum(cluster == h) * solve(m)
  })
}

# The lowest J over all single-point moves, centres and metrics fixed.
mpck_best_move_r <- function(x, fit, pairs) {
  metrics <- mpck_metric_list(fit)
  lowest <- Inf
  for (i in seq_len(nrow(x))) for (h in seq_len(fit$k)) {
    if (h == fit$cluster[i]) next
    moved <- fit$cluster
    moved[i] <- h
    lowest <- min(lowest, mpck_objective_r(x, moved, fit$centers, metrics, pairs, fit$metric,
                                           fit$ridge)[["objective"]])
  }
  lowest
}

# Three groups in the plane, stretched differently, with dimnames.
mpck_blobs <- function(n_each = 10, seed = 1) {
  set.seed(seed)
  centres <- rbind(c(0, 0), c(6, 0), c(0, 6))
  sds <- rbind(c(1, 0.2), c(0.2, 1), c(0.5, 0.5))
  x <- do.call(rbind, lapply(1:3, function(g) {
    cbind(stats::rnorm(n_each, centres[g, 1], sds[g, 1]),
          stats::rnorm(n_each, centres[g, 2], sds[g, 2]))
  }))
  colnames(x) <- c("a", "b")
  list(x = x, y = rep(1:3, each = n_each))
}

# Data for the core-level equality tests: n points in p dimensions around
# `classes` classes, and `n_constraints` nelson_cohen constraints (10% of
# them wrong) as the core's pairs.
mpck_core_case <- function(p, seed, n, classes, n_constraints) {
  set.seed(seed)
  y <- rep(seq_len(classes), length.out = n)
  x <- matrix(stats::rnorm(n * p), n, p) + 2 * y
  side <- sideclust:::side_as_pairs(
    sample_constraints(y, "nelson_cohen", n_constraints = n_constraints, noise = 0.1), n, "side", 1e6)
  list(x = x, side = side)
}

# One run of the core from the neighbourhood seeds (seeded by k), with the
# testing options in `extra` (use_avx, pair_cache, threads, chunk,
# skip_unread), which may also replace max_iter.
mpck_core_run <- function(case, k, metric, extra) {
  core <- getFromNamespace(".mpck_means_cpp", "sideclust")
  set.seed(k)
  core(case$x, case$side, utils::modifyList(list(k = k, restarts = 1L, max_iter = 30L, metric = metric,
                                                 init = "neighbourhoods", start = NULL, ridge = 1e-6,
                                                 verbose = FALSE), extra))
}
