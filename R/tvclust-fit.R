# The "tvclust" fit: built from the chains' traces and stored draws, whether
# they come from one run of tvclust() or from several runs pooled by
# combine_chains(), with the convergence diagnostics and the point estimate.

# res: traces (`log_joint`, `k`, `p`, `q`, `alpha`, iter x chains matrices)
# and the stored draws (`draws`, one row per draw, chain after chain, with
# `draw_chain` and `draw_kept`, the index among the kept sweeps). estimator:
# loss, max_candidates, point_estimate.
new_tvclust <- function(res, x, side, family, prior, settings, keep, iter, burn_in, thin,
                        estimator, call) {
  kept <- seq_len(iter) > burn_in & (seq_len(iter) - burn_in) %% thin == 0L
  trace <- list(log_posterior = res$log_joint, k = res$k, p = res$p, q = res$q,
                alpha = res$alpha, kept = kept)
  k_kept <- as.vector(res$k[kept, , drop = FALSE])
  est <- .tvclust_summary_cpp(res$draws, list(loss = estimator$loss,
                                              max_candidates = estimator$max_candidates,
                                              search = estimator$point_estimate == "search"))
  cluster <- est$estimate
  fit <- list(
    cluster = cluster, k = max(cluster), confidence = est$confidence,
    draws = if (keep) res$draws else NULL,
    draw_chain = if (keep) res$draw_chain else NULL,
    draw_iteration = if (keep) burn_in + thin * res$draw_kept else NULL,
    trace = trace,
    posterior_k = table(k = k_kept) / length(k_kept),
    p = mean(res$p[kept, ]), q = mean(res$q[kept, ]), alpha = mean(res$alpha[kept, ]),
    loss = estimator$loss, expected_loss = est$expected_loss,
    point_estimate = estimator$point_estimate,
    best_draw_loss = min(est$candidate_loss),
    max_candidates = estimator$max_candidates,
    iterations = iter, burn_in = burn_in, thin = thin, chains = ncol(res$k),
    family = family, prior = prior, settings = settings, data = x, side = side,
    n = length(cluster), call = call
  )
  fit$diagnostics <- tvclust_diagnostics(fit)
  fit$rhat <- stats::setNames(fit$diagnostics$rhat, fit$diagnostics$variable)
  fit$converged <- all(is.finite(fit$rhat) & fit$rhat < 1.1)
  fit <- finish_fit(fit, x, "tvclust")
  fit
}

# The scalar quantities the sampler traces: k and the log posterior always,
# p and q when they have a prior, alpha when it has one.
tvclust_variables <- function(fit) {
  c("k", "log_posterior",
    if (length(fit$settings$pq_prior)) c("p", "q"),
    if (length(fit$settings$alpha_prior)) "alpha")
}

# Kept sweeps x chains x variables, as posterior's draws_array wants it.
tvclust_trace_array <- function(fit) {
  vars <- tvclust_variables(fit)
  kept <- fit$trace$kept
  out <- array(NA_real_, c(sum(kept), fit$chains, length(vars)),
               dimnames = list(iteration = NULL, chain = NULL, variable = vars))
  for (v in vars) out[, , v] <- fit$trace[[v]][kept, , drop = FALSE]
  out
}

# Rank-normalized split R-hat and bulk / tail effective sample sizes
# (Vehtari, Gelman, Simpson, Carpenter & Buerkner 2021) of every traced
# quantity, from the posterior package. A quantity that never changed in any
# chain gets R-hat 1 (all chains agree) and no ESS.
tvclust_diagnostics <- function(fit) {
  a <- tvclust_trace_array(fit)
  vars <- dimnames(a)$variable
  one <- function(v) {
    m <- matrix(a[, , v], nrow = dim(a)[1L])
    if (length(unique(as.vector(m))) == 1L) return(c(1, NA, NA))
    if (nrow(m) < 4L) return(c(NA, NA, NA))
    quiet(c(posterior::rhat(m), posterior::ess_bulk(m), posterior::ess_tail(m)))
  }
  # posterior caps an ESS above S log10(S) and says so; the capped value is
  # what we report.
  quiet <- function(expr) {
    withCallingHandlers(expr, warning = function(w) {
      if (grepl("ESS has been capped", conditionMessage(w), fixed = TRUE)) {
        invokeRestart("muffleWarning")
      }
    })
  }
  d <- vapply(vars, one, numeric(3))
  data.frame(variable = vars, rhat = d[1L, ], ess_bulk = d[2L, ], ess_tail = d[3L, ],
             row.names = NULL)
}

#' Pool the chains of several TVClust fits
#'
#' Chains of the same model run in different sessions, on different machines
#' or one after another are pooled into one posterior, as if [tvclust()] had
#' run them all with `chains` equal to their total: the traces side by side,
#' the stored draws chain after chain, and everything computed from them
#' (posterior of the number of clusters, posterior means of `p`, `q` and
#' `alpha`, R-hat and effective sample sizes, the point estimate and its
#' confidence, [psm()]) recomputed from the pooled chains. `c()` on TVClust
#' fits does the same.
#'
#' The fits must share the data, the side information, the family and the
#' prior, the model settings (`alpha`, `p`, `q` and their priors,
#' `split_merge`, `chunklet_moves`), the schedule (`iter`, `burn_in`, `thin`)
#' and the point-estimate settings (`loss`, `max_candidates`,
#' `point_estimate`), and must have kept their draws; otherwise the error
#' names the first setting that differs. Starting partitions and threads may
#' differ. Give every run its own seed, or the chains repeat one another.
#'
#' @param ... [tvclust()] fits (for `c()`, the first one is `x`).
#' @param x A [tvclust()] fit.
#' @return A [tvclust()] fit with all the chains; its `call` is the call of
#'   the first fit.
#' @seealso [tvclust()]; [as_draws_array.tvclust()] for the traces in
#'   posterior's format.
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' a <- tvclust(x, iter = 100, chains = 1, threads = 1)
#' set.seed(2)
#' b <- tvclust(x, iter = 100, chains = 1, threads = 1)
#' both <- combine_chains(a, b)   # or c(a, b)
#' both$chains
#' both$rhat
#' @export
combine_chains <- function(...) {
  fits <- list(...)
  check_combinable_tvclust(fits)
  first <- fits[[1L]]
  if (length(fits) == 1L) return(first)
  traces <- c("log_posterior", "k", "p", "q", "alpha")
  res <- lapply(stats::setNames(traces, traces),
                function(s) do.call(cbind, lapply(fits, function(f) f$trace[[s]])))
  names(res)[names(res) == "log_posterior"] <- "log_joint"
  offset <- cumsum(c(0L, vapply(fits, function(f) f$chains, integer(1))))
  res$draws <- do.call(rbind, lapply(fits, function(f) f$draws))
  res$draw_chain <- unlist(lapply(seq_along(fits), function(f) fits[[f]]$draw_chain + offset[f]))
  res$draw_kept <- unlist(lapply(fits, function(f) {
    as.integer((f$draw_iteration - f$burn_in) %/% f$thin)
  }))
  estimator <- list(loss = first$loss, point_estimate = first$point_estimate %||% "draws",
                    max_candidates = first$max_candidates %||% 100L)
  new_tvclust(res, first$data, first$side, first$family, first$prior, first$settings,
              keep = TRUE, first$iterations, first$burn_in, first$thin, estimator, first$call)
}
