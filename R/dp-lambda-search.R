# The penalty lambda of DP-means, RDP-means and kernel RDP-means searched for a
# number of clusters: `k` is a count, not a hint. Shared by the three methods.

# Fits at most this many lambdas per search for a given k (documented in
# ?rdp_means, section "Number of clusters").
lambda_search_max_fits <- function() {
  check_count(getOption("sideclust.lambda_search_fits", 30L),
              "options(sideclust.lambda_search_fits)", lower = 2L)
}

# A fitter of lambda whose every fit starts from the random state the caller
# had on entry, so that a fit depends on lambda alone (its lambda reproduces it
# after the same set.seed()), and fits already made are kept for reuse.
# fit_one(lambda) must return a list with `k`, the number of non-empty clusters.
lambda_fitter <- function(fit_one, state = random_state()) {
  env <- new.env(parent = emptyenv())
  env$lambda <- numeric(0)
  env$k <- integer(0)
  env$fits <- list()
  env$fit <- function(lambda) {
    hit <- match(lambda, env$lambda)
    if (!is.na(hit)) return(env$fits[[hit]])
    restore_rng(state)
    fit <- fit_one(lambda)
    env$lambda <- c(env$lambda, lambda)
    env$k <- c(env$k, as.integer(fit$k))
    env$fits[[length(env$fits) + 1L]] <- fit
    fit
  }
  env
}

# The caller's random state (drawn once if there is none yet).
random_state <- function() {
  if (!exists(".Random.seed", envir = globalenv(), inherits = FALSE)) stats::runif(1L)
  save_rng()
}

# Bisection of log(lambda) on the number of clusters, which falls as lambda
# grows (not strictly: a larger lambda can now and then give one cluster
# more). Starts from lambda `start` and from the fits the fitter already holds;
# makes at most `max_fits` new fits. Returns the index (in the fitter's
# cache) of a fit with k clusters, or of the nearest count found.
search_lambda_index <- function(fitter, k, start, max_fits) {
  made <- 0L
  probe <- function(lambda) {
    if (is.na(match(lambda, fitter$lambda))) made <<- made + 1L
    fitter$fit(lambda)$k
  }
  exact <- function() which(fitter$k == k)[1L]
  if (!length(fitter$lambda)) probe(start)
  lo <- function() {  # largest lambda known to give more than k clusters
    above <- fitter$lambda[fitter$k > k]
    if (length(above)) max(above) else NA_real_
  }
  hi <- function() {  # smallest lambda known to give fewer than k clusters
    below <- fitter$lambda[fitter$k < k]
    if (length(below)) min(below) else NA_real_
  }
  step <- 4
  while (is.na(exact()) && made < max_fits) {
    a <- lo()
    b <- hi()
    if (is.na(a) && is.na(b)) break
    if (is.na(b)) {  # every lambda so far gives too many clusters: grow
      largest <- max(fitter$lambda)
      # from lambda 0 (the heuristic on data with one distinct point) any
      # positive value is a step up; the bisection then finds the scale
      next_lambda <- if (largest > 0) largest * step else 1
    } else if (is.na(a)) {  # too few clusters: shrink (lambda 0 opens one per distinct point)
      smallest <- min(fitter$lambda)
      if (smallest <= 0) break
      next_lambda <- if (smallest < 1e-300) 0 else smallest / step
    } else if (a >= b) {  # counts out of order: bisect between the nearest known pair
      next_lambda <- if (a > 0) sqrt(a * b) else b / 2
      if (!is.na(match(next_lambda, fitter$lambda))) break
    } else {
      next_lambda <- if (a > 0) sqrt(a * b) else b / step
      # the count jumps over k between a and b (known to 1e-4 relative)
      if (b / max(a, 1e-300) < 1 + 1e-4 || !is.na(match(next_lambda, fitter$lambda))) break
    }
    # no new lambda to try: stop rather than loop on the cache
    if (!is.finite(next_lambda) || !is.na(match(next_lambda, fitter$lambda))) break
    probe(next_lambda)
  }
  hit <- exact()
  if (!is.na(hit)) return(hit)
  gap <- abs(fitter$k - k)
  # nearest count; among equals, the fewer clusters, then the first fit
  best <- which(gap == min(gap))
  best[order(fitter$k[best])][1L]
}

# The fit for `k` clusters: searches lambda from the heuristic `start`, says
# so with a message when no lambda gave exactly k, and records the search.
fit_for_k <- function(fit_one, k, start, what = sprintf("`k` = %d", k)) {
  max_fits <- lambda_search_max_fits()
  fitter <- lambda_fitter(fit_one)
  i <- search_lambda_index(fitter, k, start, max_fits)
  fit <- fitter$fits[[i]]
  if (fit$k != k) {
    message(sprintf("%s: no lambda tried gave exactly %d clusters (%d fits, counts %s); returning the nearest, %d clusters at lambda = %s",
                    what, k, length(fitter$lambda), format_count_range(fitter$k),
                    fit$k, format(fitter$lambda[i], digits = 4)))
  }
  fit$lambda_search <- list(k = as.integer(k), found = fit$k == k,
                            fits = length(fitter$lambda),
                            lambdas = fitter$lambda, counts = fitter$k)
  fit
}

format_count_range <- function(counts) {
  if (min(counts) == max(counts)) return(as.character(counts[1L]))
  sprintf("%d to %d", min(counts), max(counts))
}

# How the fit's lambda came about, for print(): one line.
describe_lambda_choice <- function(x) {
  lam <- format(x$lambda, digits = 4)
  if (identical(x$k_method, "held-out side information")) {
    sel <- x$k_selection
    return(sprintf("Number of clusters chosen by held-out side information (%d folds, k = 1..%d scored): k = %d, lambda = %s",
                   sel$folds, max(sel$k), sel$chosen, lam))
  }
  if (identical(x$k_method, "bic")) {
    return(sprintf("Number of clusters chosen by BIC (k = 1..%d scored): k = %d, lambda = %s",
                   max(x$k_selection$k), x$k_selection$chosen, lam))
  }
  s <- x$lambda_search
  if (is.null(s)) return(sprintf("lambda = %s (given)", lam))
  if (isTRUE(s$found)) {
    return(sprintf("lambda = %s, searched for k = %d (%d fits)", lam, s$k, s$fits))
  }
  sprintf("lambda = %s, the nearest to k = %d found (%d clusters, %d fits)", lam, s$k, x$k, s$fits)
}

#' @export
print.rdp_means <- function(x, ...) {
  cat(describe_lambda_choice(x), "\n", sep = "")
  NextMethod()
}

#' @export
print.dp_means <- function(x, ...) {
  cat(describe_lambda_choice(x), "\n", sep = "")
  NextMethod()
}

#' @export
print.kernel_rdp_means <- function(x, ...) {
  cat(describe_lambda_choice(x), "\n", sep = "")
  NextMethod()
}
