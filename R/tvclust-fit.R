# The "tvclust" fit: built from the sampler's output, with its convergence
# diagnostic and the similarity matrix on request.

new_tvclust <- function(res, x, side, family, prior, settings, keep, iter, burn_in, thin,
                        loss, call) {
  kept <- seq_len(iter) > burn_in & (seq_len(iter) - burn_in) %% thin == 0L
  trace <- list(log_posterior = res$log_joint, k = res$k, p = res$p, q = res$q,
                alpha = res$alpha, kept = kept)
  k_kept <- as.vector(res$k[kept, , drop = FALSE])
  cluster <- res$estimate
  best <- which.min(res$candidate_loss)
  fit <- list(
    cluster = cluster, k = max(cluster), confidence = res$confidence,
    draws = if (keep) res$draws else NULL,
    draw_chain = if (keep) res$draw_chain else NULL,
    draw_iteration = if (keep) burn_in + thin * res$draw_kept else NULL,
    trace = trace,
    posterior_k = table(k = k_kept) / length(k_kept),
    p = mean(res$p[kept, ]), q = mean(res$q[kept, ]), alpha = mean(res$alpha[kept, ]),
    rhat = c(k = split_rhat(res$k[kept, , drop = FALSE]),
             log_posterior = split_rhat(res$log_joint[kept, , drop = FALSE])),
    loss = loss, expected_loss = res$candidate_loss[best],
    iterations = iter, burn_in = burn_in, thin = thin, chains = ncol(res$k),
    family = family, prior = prior, settings = settings, data = x, side = side,
    n = nrow(x), call = call
  )
  fit$converged <- all(is.finite(fit$rhat) & fit$rhat < 1.1)
  fit <- finish_fit(fit, x, "tvclust")
  fit
}

# Split R-hat (Gelman et al., Bayesian Data Analysis, 3rd ed., 11.4): every
# chain cut in two halves, between- against within-half variance. 1 when all
# halves agree; NA with fewer than four draws per chain.
split_rhat <- function(draws) {
  half <- nrow(draws) %/% 2L
  if (half < 2L) return(NA_real_)
  parts <- cbind(draws[seq_len(half), , drop = FALSE],
                 draws[nrow(draws) - half + seq_len(half), , drop = FALSE])
  within <- mean(apply(parts, 2L, stats::var))
  between <- half * stats::var(colMeans(parts))
  if (within == 0) return(if (between == 0) 1 else Inf)
  sqrt(((half - 1) / half * within + between / half) / within)
}

