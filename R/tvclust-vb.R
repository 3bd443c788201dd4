# tvclust(method = "variational"): mean-field variational inference for the
# TVClust model (core: src/tvclust/tvclust_vb.h). The front door tvclust()
# has checked x, family and side; the rest is checked here.

# The arguments that belong to one method only; tvclust() rejects them under
# the other.
tvclust_gibbs_only <- c("iter", "burn_in", "thin", "chains", "threads", "split_merge",
                        "chunklet_moves", "loss", "max_candidates", "keep_draws",
                        "summary_draws", "point_estimate")
tvclust_vb_only <- c("truncation", "restarts", "max_iter", "tol")

tvclust_vb <- function(x, side, k, family, alpha, alpha_prior, p, q, pq_prior, prior, init,
                       truncation, restarts, max_iter, tol, verbose, call,
                       check_each_update = FALSE, delete_moves = TRUE, data = x,
                       xt = NULL) {
  n <- n_points(x)
  k <- check_count(k, "k")
  truncation <- check_count(truncation, "truncation")
  restarts <- check_count(restarts, "restarts")
  max_iter <- check_count(max_iter, "max_iter")
  tol <- check_number(tol, "tol", lower = 0)
  if (k > truncation) {
    stop_arg("k", sprintf("(%d) must not exceed `truncation` (%d)", k, truncation))
  }
  truncation <- vb_truncation(truncation, n, n_coordinates(x), given = "truncation" %in% names(call))
  k <- min(k, truncation)
  settings <- tvclust_settings(side, alpha, alpha_prior, p, q, pq_prior, split_merge = 0L,
                               chunklet_moves = FALSE)
  prior <- resolve_tvclust_prior(prior, x, family)
  start <- tvclust_vb_init(init, n, k, truncation, restarts)
  xt <- xt %||% points_for_core(x)  # tvclust() transposes dense data as it checks them
  options <- list(truncation = truncation, max_iter = max_iter, tol = tol,
                  restarts = 1L, k = k, init = start$init,
                  verbose = check_flag(verbose, "verbose"),
                  check_each_update = isTRUE(check_each_update),
                  delete_moves = isTRUE(delete_moves))
  # One run per restart, each on its own random stream, through the user's
  # plan; the highest ELBO wins (the earliest on ties).
  res <- best_run(start$restarts, function(r) {
    options$starts <- if (length(start$starts)) start$starts[r] else list()
    .tvclust_vb_cpp(xt, side, family, prior, settings, options)
  }, function(run) -run$final_elbo[1L])
  scores <- attr(res, "scores")[, 1L]
  res$final_elbo <- -scores
  res$best_restart <- which.min(scores)
  if (!res$converged) {
    warning(sprintf(paste0("tvclust(method = \"variational\"): the ELBO still changed by more ",
                           "than tol = %g (relative) when the budget of max_iter = %d sweeps ",
                           "ran out; raise `max_iter`"),
                    tol, max_iter), call. = FALSE)
  }
  new_tvclust_vb(res, data, side, family, prior, settings, truncation, start, max_iter, tol, call)
}

# The truncation actually used: at most one stick per point (more can never
# be occupied), and refused when the responsibilities and their working
# copies (about five T x n matrices of doubles) and the T components would
# pass options(sideclust.max_vb_bytes), 1e10 bytes by default.
vb_truncation <- function(truncation, n, p, given) {
  if (truncation > n) {
    if (given) {
      message(sprintf("tvclust(): `truncation` = %d exceeds the %d points; using %d sticks",
                      truncation, n, n))
    }
    truncation <- n
  }
  limit <- getOption("sideclust.max_vb_bytes", 1e10)
  bytes <- 8 * (5 * as.numeric(truncation) * n + as.numeric(truncation) * (3 * p^2 + 4 * p))
  if (bytes > limit) {
    stop_arg("truncation", sprintf(paste0(
      "= %d would need about %s for %d points (above options(sideclust.max_vb_bytes) = %s); ",
      "use fewer sticks (a smaller `truncation` or `k`) or raise the option"),
      truncation, format_bytes(bytes), n, format_bytes(limit)))
  }
  as.integer(truncation)
}

# init for the variational fit: NULL or "kmeans++" (k clusters around
# k-means++ seeds), "random" (a uniform partition into k clusters), one
# partition (used once: the fit is deterministic) or a list of partitions,
# one per restart.
tvclust_vb_init <- function(init, n, k, truncation, restarts) {
  if (is.null(init)) init <- "kmeans++"
  if (is.character(init) && length(init) == 1L) {
    if (identical(init, "one")) {
      stop_arg("init", "\"one\" cannot split under mean field; use \"kmeans++\" or \"random\"")
    }
    init <- match_choice(init, c("kmeans++", "random"), "init")
    return(list(init = init, starts = list(), restarts = restarts, label = init))
  }
  starts <- if (is.list(init)) init else list(init)
  if (is.list(init) && length(init) != restarts) {
    stop_arg("init", sprintf("has %d partitions for %d restarts", length(init), restarts))
  }
  starts <- lapply(seq_along(starts), function(t) {
    z <- starts[[t]]
    arg <- if (is.list(init)) sprintf("init[[%d]]", t) else "init"
    if (!is.numeric(z) && !is.factor(z) || length(z) != n || anyNA(z)) {
      stop_arg(arg, sprintf("must give a cluster (no NA) for each of the %d points", n))
    }
    z <- match(z, unique(z))
    if (max(z) > truncation) {
      stop_arg(arg, sprintf("has %d clusters, more than `truncation` (%d)", max(z), truncation))
    }
    z
  })
  list(init = "given", starts = starts, restarts = length(starts), label = "given")
}

# The fit: the hard partition (each point's most responsible component),
# the responsibilities of the components it uses, the ELBO trace.
new_tvclust_vb <- function(res, x, side, family, prior, settings, truncation, start, max_iter,
                           tol, call) {
  r <- res$responsibility
  top <- max.col(r, ties.method = "first")
  used <- unique(top)  # components in order of first point
  cluster <- match(top, used)
  k <- length(used)
  membership <- r[, used, drop = FALSE]
  dimnames(membership) <- list(NULL, seq_len(k))
  rest <- res$log_weight[-used]
  log_weight <- c(res$log_weight[used],
                  new = if (length(rest)) max(rest) + log(sum(exp(rest - max(rest)))) else -Inf)
  size <- tabulate(cluster, k)
  # mean over the other members j of i's cluster of P(i and j together) = r_i . r_j
  together <- rowsum(membership, cluster, reorder = TRUE)[cluster, , drop = FALSE]
  confidence <- (rowSums(membership * together) - rowSums(membership^2)) / pmax(size[cluster] - 1, 1)
  confidence[size[cluster] == 1L] <- 1
  fit <- list(
    cluster = cluster, k = k, size = size, membership = membership,
    confidence = confidence, elbo = res$elbo[length(res$elbo)],
    trace = list(elbo = res$elbo, delete_at = res$delete_at), restart_elbo = res$final_elbo,
    best_restart = res$best_restart, log_weight = log_weight,
    p = res$p, q = res$q, alpha = res$alpha,
    iterations = res$iterations, sweeps = res$sweeps, converged = res$converged, restarts = start$restarts,
    init = start$label, truncation = truncation, max_iter = max_iter, tol = tol,
    method = "variational", family = family, prior = prior, settings = settings,
    side = side, n = length(cluster), call = call
  )
  if (!is.null(res$worst_drop) && res$updates_checked > 0L) {
    fit$worst_drop <- res$worst_drop
    fit$updates_checked <- res$updates_checked
  }
  finish_fit(fit, x, "tvclust_vb")
}
