# TVClust's chains under the user's future plan; `options` as
# .tvclust_chains_cpp() reads them, without `seeds` and `progress` (added
# here). Every chain has its own
# engine seeded from two 32-bit halves drawn from R's generator (so
# set.seed() fixes them and the draws do not depend on `threads`); the halves
# are drawn here, before the chains are shared out, so a chain has the same
# seed whether it runs in this process or on a worker, and the pooled fit is
# the same under every plan.
#
# Threads and workers: with no plan (or a sequential one) all chains run in
# one core call on `threads` threads. Under a plan with several workers the
# chains are split into one contiguous group per worker, and each worker runs
# its group on one thread unless the call set `threads` itself, so that
# workers x threads never exceeds the cores the plan was given.
tvclust_run_chains <- function(xt, side, family, prior, settings, init, options,
                               threads_given) {
  chains <- length(init)
  options$seeds <- floor(stats::runif(2L * chains) * 2^32)
  workers <- min(plan_workers(), chains)
  if (workers == 1L) {
    options$progress <- sweep_reporter(options$iter * chains)
    return(.tvclust_chains_cpp(xt, side, family, prior, settings, init, options))
  }
  if (!threads_given) options$threads <- 1L
  groups <- split(seq_len(chains), cut(seq_len(chains), workers, labels = FALSE))
  step <- progressr::progressor(steps = options$iter * chains)
  parts <- map_runs(groups, function(g) {
    last <- 0
    options$progress <- function(done) {
      step(amount = done - last)
      last <<- done
    }
    options$seeds <- options$seeds[rep(2L * g, each = 2L) - c(1L, 0L)]
    .tvclust_chains_cpp(xt, side, family, prior, settings, init[g], options)
  }, seeds = NULL, progress = FALSE)
  pool_chain_parts(parts)
}

# The core's results of consecutive groups of chains as one result.
pool_chain_parts <- function(parts) {
  offset <- cumsum(c(0L, vapply(parts, function(p) ncol(p$log_joint), integer(1))))
  out <- list(draws = do.call(rbind, lapply(parts, `[[`, "draws")),
              draw_chain = unlist(lapply(seq_along(parts), function(a) {
                parts[[a]]$draw_chain + offset[a]
              })),
              draw_kept = unlist(lapply(parts, `[[`, "draw_kept")))
  for (s in c("log_joint", "k", "p", "q", "alpha")) {
    out[[s]] <- do.call(cbind, lapply(parts, `[[`, s))
  }
  out
}
