# Co-clustering probabilities for the query strategies, from whatever
# posterior a fit has: responsibilities (variational TVClust, constrained
# mixtures, CEC / CEC-IB's predicted probabilities), a sampler's stored draws
# (Gibbs TVClust), or what the user gives (n x k memberships, or partitions
# with weights). Only the pairs asked for are computed.

# A source: list(type, membership | draws and weights, cluster), or NULL when the
# fit has no posterior and none was given.
posterior_source <- function(posterior, fit, n) {
  if (!is.null(posterior)) {
    if (inherits(posterior, "sideclust")) return(fit_posterior(posterior, n, "posterior"))
    if (is.list(posterior) && !is.null(posterior$draws)) return(draws_posterior(posterior, n))
    if (!is.matrix(posterior) || !is.numeric(posterior) || nrow(posterior) != n ||
        anyNA(posterior) || any(posterior < 0 | posterior > 1 + 1e-8)) {
      stop_arg("posterior", sprintf(paste0(
        "must be a fit with a posterior, an n x k matrix of memberships (values in [0, 1], ",
        "n = %d rows) or a list with `draws` (partitions, one per row) and `weights`"), n))
    }
    return(list(type = "membership", membership = posterior,
                cluster = max.col(posterior, ties.method = "first")))
  }
  if (is.null(fit)) return(NULL)
  fit_posterior(fit, n, "x", required = FALSE)
}

fit_posterior <- function(fit, n, arg, required = TRUE) {
  if (length(fit$cluster) != n) {
    stop_arg(arg, sprintf("is a fit of %d points but the data have %d", length(fit$cluster), n))
  }
  cl <- as.integer(fit$cluster)
  if (inherits(fit, "tvclust_vb")) return(list(type = "membership", membership = fit$membership, cluster = cl))
  if (inherits(fit, "constrained_mixture")) return(list(type = "membership", membership = fit$z, cluster = cl))
  if (inherits(fit, c("cec_ib", "cec_fit"))) {
    return(list(type = "membership", membership = unname(stats::predict(fit)$probability), cluster = cl))
  }
  if (inherits(fit, "tvclust")) {
    if (is.null(fit$draws)) {
      stop_arg(arg, "is a tvclust() fit without its draws; refit with keep_draws = TRUE")
    }
    return(list(type = "draws", draws = fit$draws, weights = rep(1 / nrow(fit$draws), nrow(fit$draws)),
                cluster = cl))
  }
  if (required) {
    stop_arg(arg, "has no posterior (", class(fit)[1L], " gives hard clusters); use tvclust(), ",
             "constrained_mixture(), cec_ib() or give `posterior`")
  }
  NULL
}

# P(i and j in one cluster) for the pairs (i[t], j[t]).
coclustering <- function(src, i, j) {
  switch(src$type,
         membership = rowSums(src$membership[i, , drop = FALSE] * src$membership[j, , drop = FALSE]),
         draws = {
           out <- double(length(i))
           # chunks keep the draws x pairs comparison within a few MB
           chunk <- max(1L, as.integer(2e6 %/% max(1L, nrow(src$draws))))
           for (s in seq(1L, length(i), by = chunk)) {
             t <- s:min(length(i), s + chunk - 1L)
             out[t] <- drop(src$weights %*% (src$draws[, i[t], drop = FALSE] == src$draws[, j[t], drop = FALSE]))
           }
           out
         })
}

binary_entropy <- function(p) {
  p <- pmin(pmax(p, 0), 1)
  h <- -(p * log2(p) + (1 - p) * log2(1 - p))
  h[p <= 0 | p >= 1] <- 0
  h
}

# A posterior given as partitions (one per row of `draws`) with `weights`
# (by default equal): draws of any sampler, or every partition of a tiny
# data set with its exact probability.
draws_posterior <- function(posterior, n) {
  draws <- posterior$draws
  if (!is.matrix(draws) || !is.numeric(draws) || ncol(draws) != n || nrow(draws) < 1L || anyNA(draws)) {
    stop_arg("posterior", sprintf("$draws must be a numeric matrix of partitions with n = %d columns", n))
  }
  w <- posterior$weights %||% rep(1, nrow(draws))
  if (!is.numeric(w) || length(w) != nrow(draws) || anyNA(w) || any(w < 0) || sum(w) <= 0) {
    stop_arg("posterior", "$weights must hold one non-negative weight per partition, not all 0")
  }
  storage.mode(draws) <- "integer"
  list(type = "draws", draws = draws, weights = w / sum(w), cluster = NULL)
}

# The expected fall of the summed binary entropy of the pairs (i, l) and
# (j, l), l in `others`, and of (i, j) itself, when the answer to (i, j) is
# known: the points whose co-clustering with i or j the answer moves.
# Draws: conditioning the weighted partitions on the answer. Memberships: the
# same under independent memberships (mean field), where i and j given the
# answer have the joint r_ik r_jk' restricted to k = k' (must) or k != k'
# (cannot), and every other point keeps its r_l.
answer_gain <- function(src, i, j, others) {
  if (src$type == "draws") {
    w <- src$weights
    d <- src$draws
    same <- d[, i] == d[, j]
    p <- sum(w[same])
    with_i <- d[, others, drop = FALSE] == d[, i]
    with_j <- d[, others, drop = FALSE] == d[, j]
    draws_spread <- function(v) {
      if (sum(v) <= 0) return(0)
      v <- v / sum(v)
      sum(binary_entropy(drop(v %*% with_i))) + sum(binary_entropy(drop(v %*% with_j)))
    }
    return(binary_entropy(p) + draws_spread(w) - p * draws_spread(w * same) -
             (1 - p) * draws_spread(w * !same))
  }
  r <- src$membership
  ri <- r[i, ]
  rj <- r[j, ]
  rl <- r[others, , drop = FALSE]
  p <- min(1, sum(ri * rj))
  membership_spread <- function(a, b) {
    sum(binary_entropy(drop(rl %*% a))) + sum(binary_entropy(drop(rl %*% b)))
  }
  before <- membership_spread(ri, rj)
  after_must <- if (p > 0) membership_spread(ri * rj / p, ri * rj / p) else 0
  after_cannot <- if (p < 1) membership_spread(ri * (1 - rj) / (1 - p), rj * (1 - ri) / (1 - p)) else 0
  binary_entropy(p) + before - p * after_must - (1 - p) * after_cannot
}
