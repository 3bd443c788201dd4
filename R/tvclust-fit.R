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
  class(fit) <- c("tvclust", "sideclust")
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

#' Posterior similarity matrix
#'
#' The share of a sampler's stored draws that put each pair of points in the
#' same cluster. It is an \eqn{n \times n}{n x n} matrix, so it is formed only
#' on request and only when it fits in `max_n`.
#'
#' @param fit A [tvclust()] fit whose draws were kept.
#' @param max_n Largest number of points for which to form the matrix.
#' @return A symmetric `n` x `n` matrix with ones on the diagonal.
#' @examples
#' set.seed(2)
#' fit <- tvclust(scale(iris[1:60, 1:4]), iter = 100, chains = 1, threads = 1)
#' s <- psm(fit)
#' s[1:3, 1:3]
#' @export
psm <- function(fit, max_n = 5000L) {
  if (!inherits(fit, "tvclust")) stop_arg("fit", "must be a tvclust() fit")
  if (is.null(fit$draws)) {
    stop_arg("fit", "holds no draws (they were not kept); rerun with keep_draws = TRUE")
  }
  if (fit$n > max_n) {
    stop_arg("fit", sprintf("has %d points; the %d x %d matrix would need %.1f GB (raise `max_n` to force it)",
                            fit$n, fit$n, fit$n, 8 * fit$n^2 / 1e9))
  }
  .psm_cpp(fit$draws)
}
