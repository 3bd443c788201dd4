# Independent runs (restarts, chains, grid points, folds) go through the
# user's future plan (future.apply), so that one code path runs them
# sequentially, on local cores, on other machines or through a scheduler.
# Every run r draws from its own L'Ecuyer-CMRG stream, derived from one draw
# of R's generator: set.seed() fixes them all and run r sees the same numbers
# whatever the plan and the number of workers, so the results agree.

# TRUE when the runs go through lapply() in this process: no future plan, or
# a sequential one (also the default inside a future worker). They then use
# the same streams as under any other plan, without future's overhead
# (about 50 ms a call), which matters for a fit with a few fast restarts.
runs_here <- function() {
  !isNamespaceLoaded("future") || inherits(future::plan(), "uniprocess")
}

# Threads for each of `runs` runs of a method with a `threads` argument:
# when the runs are shared out to a plan's workers, one each unless the
# call set `threads` (`given`), so that workers x threads stays within the
# plan's cores (as tvclust()'s chains).
run_threads <- function(threads, given, runs) {
  if (!given && runs > 1L && plan_workers() > 1L) 1L else threads
}

# The number of workers of the user's plan (1 when the runs stay here).
plan_workers <- function() {
  if (runs_here()) return(1L)
  as.integer(future::nbrOfWorkers())
}

# One L'Ecuyer-CMRG seed (a .Random.seed) per run, from one draw of R's
# generator; the caller's stream is otherwise left as it was.
run_streams <- function(n) {
  s <- sample.int(.Machine$integer.max, 1L)
  state <- save_rng()
  on.exit(restore_rng(state))
  set.seed(s, kind = "L'Ecuyer-CMRG")
  seed <- get(".Random.seed", envir = globalenv())
  out <- vector("list", n)
  for (r in seq_len(n)) {
    out[[r]] <- seed
    seed <- parallel::nextRNGStream(seed)
  }
  out
}

# fun(X[[r]]) for every r, run r on stream seeds[[r]] (NULL: no streams, for
# runs that take their seeds another way), through the user's plan; with
# `progress`, one progressr step per run. The caller's random state
# afterwards does not depend on the plan.
map_runs <- function(X, fun, seeds = run_streams(length(X)), progress = length(X) > 1L) {
  force(seeds)  # drawn from the caller's stream before it is saved
  progress <- if (progress) progressr::progressor(along = X) else NULL
  one <- function(x) {
    out <- fun(x)
    if (!is.null(progress)) progress()
    out
  }
  state <- save_rng()
  on.exit(restore_rng(state))
  if (runs_here()) {
    return(lapply(seq_along(X), function(r) {
      if (!is.null(seeds)) assign(".Random.seed", seeds[[r]], envir = globalenv())
      one(X[[r]])
    }))
  }
  if (!requireNamespace("future.apply", quietly = TRUE)) {
    stop("a future plan with several workers is set, but package 'future.apply' is not ",
         "installed: install it, or set future::plan(\"sequential\")", call. = FALSE)
  }
  # future.seed = NULL (no seeds): the runs seed themselves (tvclust's chains);
  # future's check for undeclared random numbers would flag Rcpp's RNG scope.
  # the workers take the session's choice of kernels (?sideclust, "Portable kernels")
  portable <- getOption("sideclust.portable_kernels")
  one_there <- function(x) {
    old <- options(sideclust.portable_kernels = portable)
    on.exit(options(old))
    one(x)
  }
  future.apply::future_lapply(X, one_there, future.seed = seeds,
                              future.packages = "sideclust")
}

# R's random state: the .Random.seed (NULL before the first draw) and the
# generator kinds.
save_rng <- function() {
  list(seed = get0(".Random.seed", envir = globalenv(), inherits = FALSE), kinds = RNGkind())
}

# Puts back a state of save_rng(). The kinds are set first: R's internal kind
# follows .Random.seed only at the next draw, and a set.seed() before any
# draw would otherwise seed the kind of the last stream used.
restore_rng <- function(state) {
  suppressWarnings(RNGkind(state$kinds[1L], state$kinds[2L], state$kinds[3L]))
  if (is.null(state$seed)) {
    if (exists(".Random.seed", envir = globalenv(), inherits = FALSE)) {
      rm(".Random.seed", envir = globalenv())
    }
  } else {
    assign(".Random.seed", state$seed, envir = globalenv())
  }
}

# The best of `n` runs of fit_one(r): `score(run)` is a number, or numbers
# compared in order, lower is better (Inf for a failed run); ties keep the
# earliest run. One run is made directly on the caller's stream. The scores
# are attached as attribute "scores" (a matrix, one row per run).
best_run <- function(n, fit_one, score) {
  if (n == 1L) {
    out <- fit_one(1L)
    attr(out, "scores") <- matrix(score(out), nrow = 1L)
    return(out)
  }
  runs <- map_runs(seq_len(n), fit_one)
  scores <- lapply(runs, score)
  best <- 1L
  for (r in seq_len(n)[-1L]) {
    if (lex_less(scores[[r]], scores[[best]])) best <- r
  }
  out <- runs[[best]]
  attr(out, "scores") <- do.call(rbind, scores)
  out
}

# a < b comparing element by element (the first difference decides).
lex_less <- function(a, b) {
  d <- which(a != b)[1L]
  !is.na(d) && a[d] < b[d]
}

# The final value of an objective trace.
final_value <- function(trace) trace[length(trace)]

# The restarts of a core that records every run's final value in `field`
# (the info-theoretic and co-clustering cores): run_core(options) makes one
# run, the first from the options' starts (`start_fields`) when given and the
# others with `blank` starts (what the front door passes without a start);
# the best is the lowest value (highest with `maximize`), and `field` holds
# the values of all the runs, in order.
best_recorded_run <- function(restarts, run_core, options, field, maximize = FALSE,
                              blank = list()) {
  first <- options
  first$restarts <- 1L
  rest <- first
  rest[names(blank)] <- blank
  sign <- if (maximize) -1 else 1
  res <- best_run(restarts, function(r) run_core(if (r == 1L) first else rest),
                  function(run) sign * run[[field]])
  res[[field]] <- sign * as.vector(attr(res, "scores")[, 1L])
  res
}
