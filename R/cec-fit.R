# The fit behind cec() and cec_ib(): input checks, the core call and the
# fit's fields (split history, family options, label contingency).

# k may be left out in split mode only (then the run starts from one cluster).
cec_missing_k <- function(split) {
  if (isTRUE(split)) return(1L)
  stop_arg("k", "is missing with split = FALSE; give the starting number of clusters, or leave split at its default (split mode chooses the number of clusters)")
}

# The shared body of cec() and cec_ib(): checks the inputs, fits, returns the fit.
fit_cec <- function(x, labels, k, beta, type, param, restarts, max_iter, eps, cov_reg,
                    init, start, small_sample, verbose, split = FALSE, max_k = NULL,
                    split_tries = 5L, split_criterion = "bic", criterion_given = TRUE) {
  init <- match_choice(init, cec_inits, "init")
  split_criterion <- match_choice(split_criterion, c("bic", "cost"), "split_criterion")
  small_sample <- check_flag(small_sample, "small_sample")
  split <- check_flag(split, "split")
  # checked and transposed for the core in one pass
  pts <- scan_points(x, "x", transpose = TRUE)
  x <- pts$x
  n <- nrow(x)
  p <- ncol(x)
  min_rows <- p + if (small_sample) 3L else 2L
  if (n < min_rows) {
    stop_arg("x", sprintf("has %d rows but %d columns; CEC%s needs at least p + %d = %d rows",
                          n, p, if (small_sample) " with small_sample = TRUE" else "",
                          min_rows - p, min_rows))
  }
  side <- side_as_labels(labels, n, "CEC-IB")
  beta <- check_number(beta, "beta", lower = 0)
  # start = "labels": from the labelled classes (k is their number); without
  # labelled points or with beta = 0, as if start were NULL
  label_start <- identical(start, "labels")
  if (label_start) {
    start <- if (is.null(side) || beta == 0) NULL else cec_label_start(x, side$labels)
    if (!is.null(start)) {
      if (is.null(k)) k <- max(start)
      if (check_count(k, "k", lower = 1L) != max(start)) {
        stop_arg("k", sprintf("(%d) differs from the %d labelled classes that start = \"labels\" starts from; leave k out",
                              as.integer(k), max(start)))
      }
    }
  }
  # k left out: split mode from one cluster
  if (is.null(k)) k <- cec_missing_k(split)
  k <- check_count(k, "k", lower = 1L)
  if (k > n) stop_arg("k", sprintf("(%d) is larger than the number of points (%d)", k, n))
  fam <- check_cec_families(type, param, k, p)
  for (t in unique(fam$types)) check_cec_covariance(x, t)
  restarts <- check_count(restarts, "restarts", lower = 1L)
  max_iter <- check_count(max_iter, "max_iter", lower = 1L)
  # NULL: CEC's card.min = "5%", floor(0.05 n) points (the core removes the
  # clusters below eps * n, absorbing the rounding of count / n)
  eps <- if (is.null(eps)) {
    floor(0.05 * n) / n
  } else {
    check_number(eps, "eps", lower = 0, upper = 1, upper_open = TRUE)
  }
  cov_reg <- check_number(cov_reg, "cov_reg", lower = 0)
  verbose <- check_flag(verbose, "verbose")
  split_tries <- check_count(split_tries, "split_tries", lower = 1L)
  if (!is.null(max_k)) {
    if (!split) stop_arg("max_k", "applies only in split mode; set split = TRUE or leave max_k = NULL")
    max_k <- check_count(max_k, "max_k", lower = 1L)
    if (max_k < k) stop_arg("max_k", sprintf("(%d) is smaller than k (%d)", max_k, k))
  }
  # without split mode the criterion is unused: the default is quietly ignored
  if (!split && criterion_given && split_criterion == "bic") {
    stop_arg("split_criterion", "applies only in split mode; set split = TRUE or leave split_criterion out")
  }
  if (!split) split_criterion <- "cost"
  start0 <- integer(0)
  if (!is.null(start)) {
    start0 <- check_partition_start(start, n, k)
    # from the labelled classes in split mode the runs differ in their split proposals
    if (!(label_start && split)) restarts <- 1L
  }
  # cov_reg pseudo-points with the (maximum-likelihood) covariance of the data
  # (stats::cov() makes no n x p centred copy of x)
  prior <- if (cov_reg > 0) cov_reg * stats::cov(x) * ((n - 1) / n) else matrix(0, p, p)
  options <- c(list(k = k, beta = beta, eps = eps, max_iter = max_iter,
                    restarts = 1L, init = init, start = start0, prior = prior,
                    small_sample = small_sample, split = split,
                    max_k = if (is.null(max_k)) 0L else max_k, split_tries = split_tries,
                    verbose = verbose),
               cec_family_options(fam, k, p))
  # split_criterion = "bic": a cluster costs the BIC penalty of its
  # parameters (its family's mean and covariance parameters and its weight)
  # over 2n, in the units of the cost (nats per point)
  penalty <- if (split_criterion == "bic") {
    (vapply(fam$types, cec_family_df, 0, p = p) + 1) * log(n) / (2 * n)
  } else {
    rep(0, k)
  }
  options$split_penalty <- unname(penalty)
  xt <- pts$xt
  res <- best_run(restarts, function(r) .cec_cpp(xt, side, options),
                  function(run) run$cost + sum(penalty[run$origin]))
  centers <- t(res$centers)
  dimnames(centers) <- list(NULL, colnames(x))
  dimnames(res$covariances) <- list(colnames(x), colnames(x), NULL)
  list(
    cluster = res$cluster, k = res$k, cost = res$cost,
    cost_parts = res$cost_parts, objective = res$objective,
    k_trace = res$k_trace, iterations = res$iterations,
    converged = res$converged,
    contingency = cec_contingency(res$cluster, res$k, side, n),
    centers = centers, covariances = res$covariances, size = res$sizes,
    beta = beta, type = fam$types[res$origin], param = fam$params[res$origin], eps = eps,
    cov_reg = cov_reg, small_sample = small_sample,
    split_history = if (split) cec_split_history(res) else NULL,
    max_k = if (split) max_k else NULL,
    split_criterion = if (split) split_criterion else NULL,
    restarts = restarts,
    init = if (is.null(start)) init else if (label_start) "labels" else "start", side = side
  )
}

# The split history of the core as a data frame, one row per event.
cec_split_history <- function(res) {
  data.frame(k = res$history_k, cost = res$history_cost,
             event = factor(c("start", "split", "passes")[res$history_event + 1L],
                            levels = c("start", "split", "passes")))
}

# The families as the glue reads them: 0-based codes in the order of
# cec_families, fixed covariances side by side, eigenvalues / means as
# columns, radii.
cec_family_options <- function(fam, k, p) {
  cov <- matrix(0, p, p * k)
  vec <- matrix(0, p, k)
  radius <- rep(1, k)
  for (a in seq_len(k)) {
    v <- fam$params[[a]]
    switch(fam$types[a],
      fixed_covariance = cov[, (a - 1L) * p + seq_len(p)] <- v,
      fixed_spherical = radius[a] <- v,
      eigenvalues = , fixed_mean = vec[, a] <- v,
      NULL)
  }
  list(types = match(fam$types, cec_families) - 1L, param_cov = cov, param_vec = vec,
       radius = radius)
}
cec_inits <- c("greedy", "kmeans++", "random", "partition")

cec_contingency <- function(cluster, k, side, n) {
  rows <- factor(cluster, levels = seq_len(k))
  if (is.null(side)) {
    tab <- matrix(tabulate(cluster, k), k, 1L)
    return(structure(tab, dimnames = list(cluster = seq_len(k), label = "unlabelled")))
  }
  lab <- factor(side$levels[side$labels], levels = side$levels)
  tab <- unclass(table(cluster = rows, label = lab))
  unl <- tabulate(cluster[is.na(side$labels)], k)
  out <- cbind(tab, unlabelled = unl)
  names(dimnames(out)) <- c("cluster", "label")
  out
}
