# Exact TVClust posteriors over set partitions of tiny data sets, and the
# sampler's partition frequencies, for the sampler tests.

set_partitions <- function(n) {
  # restricted growth strings: a[1] = 1, a[i] <= max(a[1:(i-1)]) + 1
  out <- list(1L)
  for (i in seq_len(n - 1L) + 1L) {
    out <- unlist(lapply(out, function(a) lapply(seq_len(max(a) + 1L), function(v) c(a, v))),
                  recursive = FALSE)
  }
  out
}

canonical <- function(z) paste(match(z, unique(z)), collapse = "")

exact_posterior <- function(x, side, alpha, p, q, prior) {
  parts <- set_partitions(nrow(x))
  logp <- vapply(parts, function(z) {
    lp <- 0
    for (k in unique(z)) {
      xk <- x[z == k, , drop = FALSE]
      post <- niw_posterior(xk, prior$m0, prior$kappa0, prior$nu0, prior$S0)
      lp <- lp + log(alpha) + lgamma(nrow(xk)) +
        niw_log_marginal(post, prior$m0, prior$kappa0, prior$nu0, prior$S0)
    }
    if (!is.null(side)) {
      same <- z[side$i] == z[side$j]
      w <- side$confidence
      lp <- lp + sum(w * ifelse(side$must, ifelse(same, log(p), log(1 - q)),
                                ifelse(same, log(1 - p), log(q))))
    }
    lp
  }, numeric(1))
  prob <- exp(logp - max(logp))
  stats::setNames(prob / sum(prob), vapply(parts, canonical, ""))
}

run_sampler <- function(x, side, alpha, p, q, prior, sweeps, burn = 200L, chunklets = FALSE) {
  core_side <- side
  out <- sideclust:::.tvclust_gibbs_cpp(t(x), core_side, "gaussian", prior, alpha, p, q,
                                        rep(1L, nrow(x)), sweeps + burn, FALSE, numeric(),
                                        numeric(), chunklets)
  keys <- apply(out$draws[-seq_len(burn), , drop = FALSE], 1, canonical)
  table(keys) / length(keys)
}

total_variation <- function(freq, exact) {
  f <- stats::setNames(numeric(length(exact)), names(exact))
  f[names(freq)] <- as.numeric(freq)
  0.5 * sum(abs(f - exact))
}
