# Speed of the TVClust Gibbs sampler.
#
# Run from the repository root, with sideclust installed:
#   Rscript bench/tvclust-speed.R
# Writes bench/results/tvclust-speed.md and prints the same tables.
#
# Part 1 (the issue's target: 1,000 sweeps under 60 s on one core): n = 10,000
# points, p = 5, from 10 Gaussian clusters (identity covariance, centres
# N(0, 6^2) per coordinate), 10,000 constraints of accuracy 1
# (sample_constraints(y, "tvclust", rate = 1e4 / n^2)). One chain on one
# thread, 1,000 sweeps (burn-in 500, all 500 later partitions kept), started
# from a random partition into 5 clusters; timed with and without the
# split-merge and chunklet moves, the whole tvclust() call (the point
# estimate, the traces and the draws matrix included).
#
# Part 2 (against a peer in the same run): the CRAN package dirichletprocess
# (DirichletProcessMvnormal, its Gibbs sampler; no side information) against
# tvclust() without side information, n = 1,000, p = 2, from 4 Gaussian
# clusters. Time per sweep: tvclust() with 1,001 and 1 sweeps, the difference
# divided by 1,000; dirichletprocess's Fit() with `dp_iter` + 1 and 1
# iterations, the difference divided by `dp_iter`. Medians over `repeats`.

#
# Part "variational" (its own section; the issue's goal: at least 10 times
# faster than 1,000 Gibbs sweeps): n = 10,000 and 100,000 points, p = 5, 10
# Gaussian clusters as in part 1, n constraints of accuracy 1. Time to
# convergence of tvclust(method = "variational") with its defaults (one
# run, truncation 20, split and delete moves) and with 3 restarts, against
# tvclust()'s Gibbs sampler on one chain and one thread, with its default
# moves and with single-point Gibbs only. At n = 10,000 the Gibbs runs make
# the full 1,000 sweeps; at n = 100,000 they make 100 sweeps (the sweep
# time is steady) and the time of 1,000 is 10 times that; the ARI of the
# Gibbs estimate is then that of 100 sweeps. Medians of `repeats` runs
# (variational) and of one run (Gibbs), all in the same session.
#   BENCH_PARTS=variational Rscript bench/tvclust-speed.R   # this part only

library(sideclust)
source(file.path("bench", "utils.R"))

out_file <- file.path("bench", "results", "tvclust-speed.md")
parts <- bench_parts(c("gibbs", "variational"))
repeats <- 3L
dp_iter <- 20L

simulate <- function(n, p, k, spread, seed) {
  set.seed(seed)
  centres <- matrix(stats::rnorm(k * p, sd = spread), k, p)
  y <- sample.int(k, n, replace = TRUE)
  list(x = centres[y, ] + matrix(stats::rnorm(n * p), n, p), y = y)
}

elapsed <- function(expr) {
  gc(FALSE)
  t0 <- proc.time()[["elapsed"]]
  force(expr)
  proc.time()[["elapsed"]] - t0
}

if ("gibbs" %in% parts) {
# ---- Part 1 ---------------------------------------------------------------
big <- simulate(10000L, 5L, 10L, 6, 1)
set.seed(2)
side <- sample_constraints(big$y, "tvclust", rate = 1e4 / 1e4^2, noise = 0)
variants <- list(
  "single-point Gibbs only" = list(split_merge = 0L, chunklet_moves = FALSE),
  "+ split-merge (1 per sweep) + chunklet moves (defaults)" = list(split_merge = 1L, chunklet_moves = TRUE))
part1 <- do.call(rbind, lapply(names(variants), function(v) {
  times <- numeric(repeats)
  for (r in seq_len(repeats)) {
    set.seed(3)
    times[r] <- elapsed(fit <- do.call(tvclust, c(list(big$x, side, iter = 1000L, chains = 1L,
                                                        threads = 1L), variants[[v]])))
  }
  m <- compare_partitions(big$y, fit$cluster)
  data.frame(moves = v, seconds_1000_sweeps = stats::median(times),
             ms_per_sweep = 1000 * stats::median(times) / 1000, K = fit$k, ARI = m[["ari"]],
             stringsAsFactors = FALSE)
}))

# ---- Part 2 ---------------------------------------------------------------
small <- simulate(1000L, 2L, 4L, 5, 4)
per_sweep_tvclust <- stats::median(vapply(seq_len(repeats), function(r) {
  set.seed(5)
  long <- elapsed(tvclust(small$x, iter = 1001L, burn_in = 1000L, chains = 1L, threads = 1L,
                          split_merge = 0L))
  set.seed(5)
  short <- elapsed(tvclust(small$x, iter = 1L, burn_in = 0L, chains = 1L, threads = 1L,
                           split_merge = 0L))
  (long - short) / 1000
}, numeric(1)))
have_dp <- requireNamespace("dirichletprocess", quietly = TRUE)
per_sweep_dp <- NA_real_
if (have_dp) {
  per_sweep_dp <- stats::median(vapply(seq_len(repeats), function(r) {
    set.seed(5)
    dp <- dirichletprocess::DirichletProcessMvnormal(small$x)
    long <- elapsed(suppressMessages(dirichletprocess::Fit(dp, dp_iter + 1L, progressBar = FALSE)))
    set.seed(5)
    dp <- dirichletprocess::DirichletProcessMvnormal(small$x)
    short <- elapsed(suppressMessages(dirichletprocess::Fit(dp, 1L, progressBar = FALSE)))
    (long - short) / dp_iter
  }, numeric(1)))
}
part2 <- data.frame(
  sampler = c("tvclust (this package, single-point Gibbs)",
              "dirichletprocess::DirichletProcessMvnormal"),
  ms_per_sweep = 1000 * c(per_sweep_tvclust, per_sweep_dp),
  stringsAsFactors = FALSE)
ratio <- per_sweep_dp / per_sweep_tvclust

lines <- c(
  sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
  sprintf("- machine: %d cores, %s; %s", parallel::detectCores(), cpu_name(), R.version.string),
  sprintf("- sideclust %s (git %s)%s", as.character(utils::packageVersion("sideclust")),
          git_commit(), if (have_dp) sprintf("; dirichletprocess %s",
                                             utils::packageVersion("dirichletprocess")) else ""),
  "- command: `Rscript bench/tvclust-speed.R` (from the repository root)",
  "- note: other jobs may have shared the 2 cores during the run; both parts time one thread.",
  "",
  "## 1,000 sweeps, n = 10,000, p = 5, 10 clusters, 10,000 constraints (one thread)", "",
  md_table(part1), "",
  sprintf("Target: under 60 s: %s.", if (all(part1$seconds_1000_sweeps < 60)) "met" else "NOT met"),
  "",
  "## Per sweep against dirichletprocess (n = 1,000, p = 2, no side information)", "",
  md_table(part2, digits = 3), "",
  if (have_dp) sprintf("tvclust is %.0f times faster per sweep (target: at least 100): %s.",
                       ratio, if (ratio >= 100) "met" else "NOT met")
  else "dirichletprocess is not installed: no comparison.",
  "")
write_md_section(out_file, "main", lines, preamble = c(
  "# TVClust sampler speed", "", "Written by `bench/tvclust-speed.R`.", ""))
cat(lines, sep = "\n")
}

# ---- Part "variational" -----------------------------------------------------
if ("variational" %in% parts) {
  vb_repeats <- as.integer(Sys.getenv("BENCH_REPEATS", "3"))
  gibbs_variants <- list(
    "Gibbs, defaults (split-merge + chunklet moves)" = list(),
    "Gibbs, single-point only" = list(split_merge = 0L, chunklet_moves = FALSE))
  rows <- list()
  for (n in c(1e4L, 1e5L)) {
    sim <- simulate(n, 5L, 10L, 6, 1)
    set.seed(2)
    side <- sample_constraints(sim$y, "tvclust", rate = n / n^2, noise = 0)
    for (restarts in c(1L, 3L)) {
      times <- numeric(vb_repeats)
      for (r in seq_len(vb_repeats)) {
        set.seed(3)
        times[r] <- elapsed(fit <- tvclust(sim$x, side, method = "variational",
                                           restarts = restarts))
      }
      rows[[length(rows) + 1L]] <- data.frame(
        n = n, fit = sprintf("variational, %d restart%s%s", restarts,
                             if (restarts > 1L) "s" else "", if (restarts == 1L) " (default)" else ""),
        seconds = stats::median(times), sweeps = fit$iterations, K = fit$k,
        ARI = compare_partitions(sim$y, fit$cluster)[["ari"]], stringsAsFactors = FALSE)
    }
    sweeps <- if (n <= 1e4L) 1000L else 100L
    for (v in names(gibbs_variants)) {
      set.seed(3)
      t <- elapsed(fit <- do.call(tvclust, c(list(sim$x, side, iter = sweeps, chains = 1L,
                                                   threads = 1L), gibbs_variants[[v]])))
      rows[[length(rows) + 1L]] <- data.frame(
        n = n, fit = sprintf("%s, 1,000 sweeps%s", v,
                             if (sweeps < 1000L) sprintf(" (%d timed, x %d)", sweeps, 1000L / sweeps) else ""),
        seconds = t * 1000 / sweeps, sweeps = 1000L, K = fit$k,
        ARI = compare_partitions(sim$y, fit$cluster)[["ari"]], stringsAsFactors = FALSE)
    }
    cat(sprintf("n = %d done\n", n))
  }
  tab <- do.call(rbind, rows)
  ratio <- function(n, gibbs) {
    g <- tab$seconds[tab$n == n & startsWith(tab$fit, gibbs)]
    v <- tab$seconds[tab$n == n & grepl("(default)", tab$fit, fixed = TRUE)]
    g / v
  }
  r_default <- c(ratio(1e4L, "Gibbs, defaults"), ratio(1e5L, "Gibbs, defaults"))
  r_single <- c(ratio(1e4L, "Gibbs, single"), ratio(1e5L, "Gibbs, single"))
  lines <- c(
    bench_header(bench_command("bench/tvclust-speed.R"), shared_cores = TRUE),
    sprintf("- every fit on one thread; variational fits timed %d time(s) each (median, BENCH_REPEATS), Gibbs runs once; the 2 cores were shared with other jobs during the run.", vb_repeats), "",
    "## Time to convergence of the variational fit against 1,000 Gibbs sweeps (p = 5, 10 clusters, n constraints)", "",
    md_table(tab), "",
    sprintf("Variational (defaults: one run) is %s times faster than 1,000 Gibbs sweeps with the default moves at n = 10,000 / 100,000, and %s times faster than 1,000 single-point Gibbs sweeps (goal: at least 10): %s.",
            paste(sprintf("%.0f", r_default), collapse = " / "),
            paste(sprintf("%.0f", r_single), collapse = " / "),
            if (all(c(r_default, r_single) >= 10)) "met" else if (all(r_default >= 10)) "met against the default sampler only" else "NOT met"),
    "")
  write_md_section(out_file, "variational", lines, preamble = c(
    "# TVClust sampler speed", "", "Written by `bench/tvclust-speed.R`.", ""))
  cat(lines, sep = "\n")
}
