# Speed of the constrained k-means family (COP-k-means, PCK-means,
# MPCK-means, LCVQE) against conclust's plain-R implementations, and at
# n = 1e6 against a Lloyd iteration of stats::kmeans.
#
# Run from the repository root, with sideclust (and optionally conclust):
#   Rscript bench/constrained-kmeans-speed.R
#   BENCH_PARTS=peers Rscript bench/constrained-kmeans-speed.R   # n = 1e3, 1e4 only
#   BENCH_PARTS=large Rscript bench/constrained-kmeans-speed.R   # n = 1e6 only
# Each part rewrites only its own section of
# bench/results/constrained-kmeans-speed.md.
#
# Protocol
# * data: k = 5 Gaussian clusters in p = 10 dimensions (identity covariance,
#   centres N(0, 3^2) per coordinate), n points, n pairs drawn by
#   sample_constraints(y, "nelson_cohen", n_constraints = n), 5% of them of
#   the wrong type, confidences 1; COP-k-means gets the correct pairs only
#   (hard constraints must be consistent), as does conclust::ckmeans; ours
#   with infeasible = "nearest", as one greedy run from a fixed start can
#   meet a group with no free cluster.
# * peers (n = 1e3, 1e4): one call each, restarts = 1 for ours, from the same
#   k-means++ start; conclust's functions with their defaults (one random
#   start, their own iteration caps), stopped after `peer_limit` seconds
#   (reported as "> limit"). Wall-clock seconds: ours the median of 3 calls,
#   conclust one call (its mpckm and ckmeans take minutes at n = 1e3).
# * large (n = 1e6): ours alone, seconds per iteration (a call's time divided
#   by its own iterations, median of 3 calls with the same start; the calls
#   visit the points in different random orders, so their iterations
#   differ), against a
#   Lloyd iteration of stats::kmeans(x, start, algorithm = "Lloyd") on the
#   same data and start (also a call's time over its iterations), timed
#   (median of 3 calls) just before each method's calls, so that a change in
#   the machine's load during the run moves both sides of a ratio; the
#   same ratios are also given in processor seconds. Set-up
#   (validating 1e6 pairs in R, building the pair graph, caches) is part of
#   a call; `steady` leaves it out: the median over the calls of (call -
#   median call with max_iter = 1) / (its iterations - 1), the cost of the
#   iterations after the first. PCK-means, MPCK-means and LCVQE run with
#   their default `threads` (2: a helper thread computes the points' own
#   costs and sums, or LCVQE's distance records) and again with
#   threads = 1, rows "(1 thread)"; stats::kmeans and COP-k-means use one
#   thread.

library(sideclust)
source(file.path("bench", "utils.R"))

parts <- bench_parts(c("peers", "large"))
out_file <- file.path("bench", "results", "constrained-kmeans-speed.md")
command <- bench_command("bench/constrained-kmeans-speed.R")
has_conclust <- requireNamespace("conclust", quietly = TRUE)
peer_limit <- 600
k <- 5L
p <- 10L

make_data <- function(n, seed = 20261125L) {
  set.seed(seed)
  centres <- matrix(stats::rnorm(k * p, sd = 3), k, p)
  y <- sample.int(k, n, replace = TRUE)
  x <- centres[y, ] + matrix(stats::rnorm(n * p), n, p)
  noisy <- sample_constraints(y, "nelson_cohen", n_constraints = n, noise = 0.05)
  noisy$confidence[] <- 1
  clean <- sample_constraints(y, "nelson_cohen", n_constraints = n)
  clean$confidence[] <- 1
  start <- x[sample.int(n, k), , drop = FALSE]
  list(x = x, y = y, noisy = noisy, clean = clean, start = start)
}

# Wall-clock seconds of f(), and its processor seconds (user + system, this
# process): on a shared machine the second does not count the time spent
# waiting for a core.
elapsed <- function(f) {
  gc(FALSE)
  t0 <- proc.time()
  out <- f()
  t <- proc.time() - t0
  list(seconds = t[["elapsed"]], cpu = t[["user.self"]] + t[["sys.self"]], out = out)
}

ours <- function(d, max_iter = 100L) list(
  `COP-k-means` = function() cop_kmeans(d$x, d$clean, start = d$start, infeasible = "nearest",
                                        max_iter = max_iter),
  `PCK-means` = function() pck_means(d$x, d$noisy, start = d$start, max_iter = max_iter),
  `MPCK-means` = function() mpck_means(d$x, d$noisy, start = d$start, max_iter = max_iter),
  LCVQE = function() lcvqe(d$x, d$noisy, start = d$start, max_iter = max_iter))

# The methods with a `threads` argument, on one thread (the large part).
one_thread <- function(d, max_iter = 100L) list(
  `PCK-means (1 thread)` = function() pck_means(d$x, d$noisy, start = d$start, max_iter = max_iter,
                                                threads = 1L),
  `MPCK-means (1 thread)` = function() mpck_means(d$x, d$noisy, start = d$start, max_iter = max_iter,
                                                  threads = 1L),
  `LCVQE (1 thread)` = function() lcvqe(d$x, d$noisy, start = d$start, max_iter = max_iter,
                                        threads = 1L))

peer_of <- c(`COP-k-means` = "ckmeans", `PCK-means` = NA, `MPCK-means` = "mpckm",
             LCVQE = "lcvqe")

run_peer <- function(name, d) {
  side <- if (name == "ckmeans") d$clean else d$noisy
  must <- cbind(side$i, side$j)[side$must, , drop = FALSE]
  cannot <- cbind(side$i, side$j)[!side$must, , drop = FALSE]
  f <- getExportedValue("conclust", name)
  t0 <- proc.time()[["elapsed"]]
  setTimeLimit(elapsed = peer_limit, transient = TRUE)
  ok <- tryCatch({ suppressWarnings(f(d$x, k, must, cannot)); TRUE },
                 error = function(e) FALSE)
  setTimeLimit(elapsed = Inf)
  secs <- proc.time()[["elapsed"]] - t0
  if (ok) secs else Inf
}

run_peers <- function() {
  t_start <- proc.time()[["elapsed"]]
  rows <- list()
  for (n in c(1000L, 10000L)) {
    d <- make_data(n)
    calls <- ours(d)
    for (m in names(calls)) {
      times <- vapply(1:3, function(r) elapsed(calls[[m]])$seconds, numeric(1))
      ours_s <- stats::median(times)
      peer <- peer_of[[m]]
      peer_s <- if (has_conclust && !is.na(peer)) {
        run_peer(peer, d)
      } else NA_real_
      rows[[length(rows) + 1L]] <- data.frame(
        n = n, method = m, seconds = ours_s,
        peer = if (is.na(peer)) "-" else paste0("conclust::", peer),
        peer_seconds = if (is.finite(peer_s) || is.na(peer_s)) fmt(peer_s, 3)
                       else sprintf("> %d", peer_limit),
        speedup = if (is.finite(peer_s)) fmt(peer_s / ours_s, 0)
                  else if (is.na(peer_s)) "-" else sprintf("> %.0f", peer_limit / ours_s),
        stringsAsFactors = FALSE)
      cat(sprintf("n = %d %s done (%.0f s)\n", n, m, proc.time()[["elapsed"]] - t_start))
    }
  }
  tab <- do.call(rbind, rows)
  lines <- c("## Against conclust (n = 1e3, 1e4; p = 10, k = 5, n pairs)", "",
    bench_header(command, command_note = sprintf("; run time %.0f s",
                                                  proc.time()[["elapsed"]] - t_start)),
    sprintf("- conclust: %s", if (has_conclust) as.character(utils::packageVersion("conclust"))
            else "not installed"),
    "- protocol: see the comment at the top of `bench/constrained-kmeans-speed.R`; seconds per whole call (ours: one run from a given start; conclust: its defaults).",
    "", md_table(tab, 3), "")
  write_md_section(out_file, "peers", lines,
                   bench_preamble("# Speed of the constrained k-means family",
                                  "bench/constrained-kmeans-speed.R"))
  cat(lines, sep = "\n")
}

run_large <- function() {
  t_start <- proc.time()[["elapsed"]]
  load_start <- if (file.exists("/proc/loadavg")) {
    paste(strsplit(readLines("/proc/loadavg", n = 1L), " ")[[1]][1:3], collapse = ", ")
  } else "unknown"
  d <- make_data(1e6L)
  lloyd_iteration <- function() {
    t <- vapply(1:3, function(r) {
      e <- elapsed(function() suppressWarnings(
        stats::kmeans(d$x, d$start, iter.max = 10, algorithm = "Lloyd")))
      c(e$seconds, e$cpu) / e$out$iter
    }, numeric(2))
    apply(t, 1, stats::median)
  }
  calls <- c(ours(d), one_thread(d))
  first <- c(ours(d, max_iter = 1L), one_thread(d, max_iter = 1L))
  rows <- list()
  lloyd_all <- lloyd_cpu_all <- numeric()
  for (m in names(calls)) {
    lloyd <- lloyd_iteration()
    lloyd_s <- lloyd[1]
    lloyd_all <- c(lloyd_all, lloyd_s)
    lloyd_cpu_all <- c(lloyd_cpu_all, lloyd[2])
    whole <- one <- whole_cpu <- one_cpu <- iters <- numeric(3)
    for (r in 1:3) {
      e <- elapsed(function() suppressWarnings(calls[[m]]()))
      whole[r] <- e$seconds
      whole_cpu[r] <- e$cpu
      iters[r] <- e$out$iterations
      e1 <- elapsed(function() suppressWarnings(first[[m]]()))
      one[r] <- e1$seconds
      one_cpu[r] <- e1$cpu
    }
    # the calls' visiting orders differ, and so their numbers of iterations:
    # each call's time over its own iterations
    per <- stats::median(whole / iters)
    per_cpu <- stats::median(whole_cpu / iters)
    later <- iters > 1
    steady <- if (any(later)) {
      stats::median((whole - stats::median(one))[later] / (iters[later] - 1))
    } else NA_real_
    steady_cpu <- if (any(later)) {
      stats::median((whole_cpu - stats::median(one_cpu))[later] / (iters[later] - 1))
    } else NA_real_
    rows[[length(rows) + 1L]] <- data.frame(method = m, lloyd = lloyd_s, per_iteration = per,
                                            iterations = stats::median(iters), ratio = per / lloyd_s,
                                            steady = steady, steady_ratio = steady / lloyd_s,
                                            cpu_ratio = per_cpu / lloyd[2],
                                            cpu_steady_ratio = steady_cpu / lloyd[2])
    cat(sprintf("n = 1e6 %s done (%.0f s)\n", m, proc.time()[["elapsed"]] - t_start))
  }
  tab <- do.call(rbind, c(list(data.frame(
    method = "stats::kmeans (Lloyd)", lloyd = stats::median(lloyd_all),
    per_iteration = stats::median(lloyd_all), iterations = NA_integer_, ratio = 1,
    steady = NA_real_, steady_ratio = NA_real_, cpu_ratio = 1, cpu_steady_ratio = NA_real_)),
    rows))
  load_end <- if (file.exists("/proc/loadavg")) {
    paste(strsplit(readLines("/proc/loadavg", n = 1L), " ")[[1]][1:3], collapse = ", ")
  } else "unknown"
  lines <- c("## n = 1e6, p = 10, k = 5, 1e6 pairs: seconds per iteration against Lloyd", "",
    bench_header(command, command_note = sprintf("; run time %.0f s",
                                                  proc.time()[["elapsed"]] - t_start)),
    "- per_iteration: median over 3 calls of the seconds of a call divided by its own iterations (iterations: their median), set-up included; lloyd: a Lloyd iteration of stats::kmeans on the same data and start (its call over its iterations, median of 3 calls timed just before the method's; the Lloyd row: the median of those); ratio: per_iteration / lloyd; steady: median over the calls of (call - median call with max_iter = 1) / (its iterations - 1), i.e. an iteration after the first without the set-up, and steady_ratio that against the same Lloyd iteration; cpu_ratio and cpu_steady_ratio: ratio and steady_ratio from processor seconds (user + system of the R process) instead of wall-clock seconds, which leave out the time spent waiting for a core on a loaded machine.",
    sprintf("- load average (1, 5, 15 min) at the start: %s; at the end: %s; the machine may be shared with other jobs, so only the ratios within one run compare.", load_start, load_end),
    "", md_table(tab, 3, format_integers = FALSE), "")
  write_md_section(out_file, "large", lines,
                   bench_preamble("# Speed of the constrained k-means family",
                                  "bench/constrained-kmeans-speed.R"))
  cat(lines, sep = "\n")
}

if ("peers" %in% parts) run_peers()
if ("large" %in% parts) run_large()
