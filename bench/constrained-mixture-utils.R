# Shared by bench/constrained-mixture-toy.R and bench/constrained-mixture-uci.R
# (sourced from the repository root after bench/utils.R): the methods of
# Nelson & Cohen's Figures 2 and 4, the summary with 99% intervals and the plot.

# The compared E-steps, all from the same start with unit covariances and
# equal weights (the paper's "simple task of centroid estimation"). "log P"
# methods take penalties W = -log(1 - P) from the confidences (the default).
cm_methods <- c(chunklet = "chunklet", sampled_chunklet = "sampled chunklet",
                icm = "ICM log P", mean_field = "mean field log P", gibbs = "PPC (Gibbs) log P")

run_cm_method <- function(method, x, side, k, start, samples = 20L) {
  fit <- suppressWarnings(constrained_mixture(
    x, side, k = k, inference = method, covariance = "unit", equal_weights = TRUE,
    start = start, max_iter = 50L, tol = 1e-6, samples = samples, sweeps = 10L,
    burn_in = 2L, max_labelings = 1e4))
  list(cluster = fit$cluster, estep = fit$estep, iterations = fit$iterations)
}

# Mean NMI with a 99% t interval per group.
summarize_nmi <- function(res, by) {
  f <- stats::as.formula(paste("nmi ~", paste(by, collapse = " + ")))
  stat <- function(v) {
    half <- if (length(v) < 2L) NA_real_ else
      stats::qt(0.995, length(v) - 1L) * stats::sd(v) / sqrt(length(v))
    c(trials = length(v), mean = mean(v), lower = mean(v) - half, upper = mean(v) + half)
  }
  a <- stats::aggregate(f, data = res, FUN = stat)
  out <- data.frame(a[by], a$nmi)
  out$trials <- as.integer(out$trials)
  out
}

# Wide table: one row per setting and E, "mean [lower, upper]" per method.
wide_table <- function(s, setting_col) {
  s$cell <- sprintf("%.3f [%.3f, %.3f]", s$mean, s$lower, s$upper)
  keys <- unique(s[c(setting_col, "error")])
  for (m in names(cm_methods)) {
    hit <- s[s$method == m, ]
    keys[[cm_methods[[m]]]] <- hit$cell[match(paste(keys[[setting_col]], keys$error),
                                             paste(hit[[setting_col]], hit$error))]
  }
  keys
}

# Mean NMI against E, one panel per setting, 99% intervals as bars.
plot_nmi <- function(s, setting_col, file, main_prefix = "") {
  settings <- unique(s[[setting_col]])
  grDevices::png(file, width = 520 * length(settings), height = 480, res = 96)
  on.exit(grDevices::dev.off())
  graphics::par(mfrow = c(1, length(settings)), mar = c(4.5, 4.5, 3, 1))
  cols <- c("black", "red3", "blue3", "darkgreen", "orange3")
  errs <- sort(unique(as.numeric(s$error)))
  for (st in settings) {
    d <- s[s[[setting_col]] == st, ]
    ylim <- range(c(d$lower, d$upper, d$mean), na.rm = TRUE)
    graphics::plot(NA, xlim = range(errs) + c(-0.01, 0.01), ylim = ylim,
                   xlab = "fraction of misspecified constraints E", ylab = "mean NMI",
                   main = paste0(main_prefix, st))
    for (a in seq_along(cm_methods)) {
      m <- names(cm_methods)[a]
      dm <- d[d$method == m, ]
      dm <- dm[order(as.numeric(dm$error)), ]
      xe <- as.numeric(dm$error) + (a - 3) * 0.003
      graphics::lines(xe, dm$mean, type = "b", pch = a, col = cols[a])
      ok <- is.finite(dm$lower)
      if (any(ok)) {
        suppressWarnings(graphics::arrows(xe[ok], dm$lower[ok], xe[ok], dm$upper[ok], angle = 90, code = 3,
                         length = 0.03, col = cols[a]))
      }
    }
    graphics::legend("bottomleft", legend = cm_methods, col = cols, pch = seq_along(cm_methods),
                     lty = 1, bty = "n", cex = 0.85)
  }
}

# The paper's conclusions, checked per setting: at E = 0 the chunklet and
# sampled chunklet models are the two best; chunklet is the worst at the
# largest E; at E = 0.25 ICM log P or mean field log P is the best (or its
# 99% interval reaches the best mean).
paper_checks <- function(s, setting_col) {
  out <- character(0)
  for (st in unique(s[[setting_col]])) {
    d0 <- s[s[[setting_col]] == st & as.numeric(s$error) == 0, ]
    d25 <- s[s[[setting_col]] == st & as.numeric(s$error) == 0.25, ]
    top2 <- d0$method[order(-d0$mean)][1:2]
    a <- all(c("chunklet", "sampled_chunklet") %in% top2)
    b <- d25$method[which.min(d25$mean)] == "chunklet"
    lp <- d25[d25$method %in% c("icm", "mean_field"), ]
    best <- max(d25$mean)
    c_ok <- any(lp$mean == best) || any(lp$upper >= best)
    yn <- function(v) if (isTRUE(v)) "yes" else "**no**"
    out <- c(out, sprintf(
      "- %s: E = 0 chunklet and sampled chunklet the two best: %s (ranking %s); chunklet worst at E = 0.25: %s; ICM / mean field log P best at E = 0.25 (or within its 99%% interval): %s (ranking %s)",
      st, yn(a), paste(d0$method[order(-d0$mean)], collapse = " > "), yn(b), yn(c_ok),
      paste(d25$method[order(-d25$mean)], collapse = " > ")))
  }
  out
}

# The command line that reproduces a run, with the BENCH_* variables set.
cm_command <- function(script, vars) {
  env <- Sys.getenv(vars, names = TRUE)
  env <- env[env != ""]
  paste(c(sprintf("%s=%s", names(env), env), paste("Rscript", script)), collapse = " ")
}

# Share of chunklet fits whose posteriors were exact, per method and setting.
exact_share <- function(res, setting_col) {
  ch <- res[res$method %in% c("chunklet", "sampled_chunklet"), ]
  stats::aggregate(stats::as.formula(sprintf(
    "cbind(exact = estep == \"exact\") ~ method + %s + error", setting_col)),
    data = ch, FUN = mean)
}

# The results file's first lines: title, run facts, data, constraints, methods.
cm_header <- function(title, command, n_cores, n_trials, elapsed, data, constraints, start) {
  c(title, "",
    sprintf("- date: %s UTC", format(Sys.time(), tz = "UTC")),
    sprintf("- machine: %d cores (parallel::detectCores()), %s; %s; run on %d core(s)",
            parallel::detectCores(), cpu_name(), R.version$platform, n_cores),
    sprintf("- R: %s; sideclust %s (git %s)", R.version.string,
            utils::packageVersion("sideclust"), git_commit()),
    sprintf("- command: `%s` (from the repository root)", command),
    sprintf("- trials: %d per setting (the paper: 100); elapsed %.0f s", n_trials, elapsed),
    data, constraints,
    sprintf("- methods: `constrained_mixture(x, side, 3, inference, covariance = \"unit\", equal_weights = TRUE, start = %s, max_iter = 50)`; `max_labelings = 1e4` (chunklet E-steps: enumeration, and cutset labelings x units, up to 1e4 per component, so that 100 trials fit in minutes); sampled chunklets with 20 samples per E-step, Gibbs with 2 + 10 sweeps per E-step; log P methods use W = -log(1 - P)", start),
    "- metric: NMI = I / sqrt(H1 H2); cells are mean [99% t interval]")
}

# Notes that hold for both experiments.
cm_notes <- c(
  "Notes:",
  "- The HMRF prior is exp(-2W) per violated pair (equation 7) with W = -log(1 - P); sampled chunklets keep a pair with probability P (Section 4.1), as in the paper.",
  "- Chunklet E-steps are exact per component of the chunklet-level cannot-link graph when it is a tree (message passing), has at most 1e4 labelings (enumeration) or a cycle cutset whose labelings x units are at most 1e4 (cutset conditioning; not per sample in sampled chunklets), and use mean field over chunklets otherwise (share of exact fits in the table above).",
  "- PPC here is Gibbs sampling of the labels with 2 burn-in + 10 recorded sweeps per E-step, the chain continuing across EM iterations, z the average of the sampled conditionals.")

# The data of bench/constrained-mixture-speed.R (n = 1e5, p = 5, K = 10 blobs,
# 1e5 Nelson-Cohen constraints with 10% noise, a random start), also used by
# bench/constrained-mixture-samples.R.
cm_speed_data <- function() {
  set.seed(1)
  n <- 1e5L
  p <- 5L
  K <- 10L
  y <- rep(seq_len(K), each = n / K)
  centres <- matrix(stats::rnorm(K * p, sd = 3), K, p)
  x <- centres[y, ] + matrix(stats::rnorm(n * p), n, p)
  t_side <- system.time(
    side <- sample_constraints(y, "nelson_cohen", n_constraints = 1e5, noise = 0.1))[["elapsed"]]
  start <- sample.int(K, n, replace = TRUE)
  list(x = x, y = y, K = K, side = side, start = start, t_side = t_side)
}
