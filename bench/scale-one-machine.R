# Scale on one machine: set-up time, time per iteration and peak memory of
# the point methods (and sib() on sparse counts) against n, beside the peers
# (stats::kmeans, CEC::cec, Rmixmod, mclust) in the same run, with the fitted
# exponent of time in n.
#
#   Rscript bench/scale-one-machine.R                 # n = 1e4, 1e5, 1e6
#   BENCH_N=1e4,1e5 BENCH_METHODS=rdp_means,kmeans Rscript bench/scale-one-machine.R
#   (BENCH_SECTION=name keeps such a run in its own results section)
#
# Every (method, n) runs in a fresh Rscript process, so the peak resident
# memory (VmHWM, reset after the data are made) belongs to that call alone.
# A method is timed with 1 iteration and with `iters` iterations:
#   per_iteration = (t_iters - t_1) / (difference of the sweeps done), set_up = t_1 -
#   (sweeps of the 1-iteration call) * per_iteration.
# Results: bench/results/scale-one-machine.md.

source("bench/scale-methods.R")

iterations_of <- function(spec, fit) {
  if (!is.null(spec$iterations)) return(spec$iterations(fit))
  it <- fit$iterations
  if (is.null(it) || !is.numeric(it)) NA else sum(it)
}

# In the child: one method at one n; prints a dcf record.
child <- function(name, n) {
  spec <- methods[[name]]
  suppressPackageStartupMessages(library(sideclust))
  # a method may bring its own data (kernel RDP-means: the moons)
  make <- if (is.null(spec$data)) function(n) make_data(n, isTRUE(spec$sparse), spec$words) else spec$data
  invisible(spec$run(make(1000), 2L))  # load what it loads
  d <- make(n)
  data_mb <- as.numeric(utils::object.size(if (isTRUE(spec$sparse)) d$counts else d$x)) / 2^20
  invisible(gc())
  # the longer call first, so its peak is not hidden in pages R kept from before
  base <- status_mb("VmRSS")
  writeLines("5", "/proc/self/clear_refs")  # reset VmHWM
  tk_all <- system.time(fit <- spec$run(d, iters))
  tk <- tk_all[["elapsed"]]
  peak <- status_mb("VmHWM") - base
  done <- iterations_of(spec, fit)
  if (is.na(done)) done <- iters
  clusters <- if (isS4(fit)) NA else  # Rmixmod's fits have no `$`
    if (is.numeric(fit$k) && length(fit$k) == 1L) fit$k else
    if (is.matrix(fit$centers)) nrow(fit$centers) else NA
  rm(fit)
  invisible(gc())
  t1_all <- system.time(fit1 <- spec$run(d, 1L))
  t1 <- t1_all[["elapsed"]]
  done1 <- iterations_of(spec, fit1)
  if (is.na(done1)) done1 <- 1
  per <- if (done > done1) (tk - t1) / (done - done1) else NA
  # processor seconds of this process (single-threaded calls): less affected
  # than elapsed time when other jobs share the cores
  cpu <- function(t) t[["user.self"]] + t[["sys.self"]]
  per_cpu <- if (done > done1) (cpu(tk_all) - cpu(t1_all)) / (done - done1) else NA
  rec <- list(method = name, n = n, data_mb = data_mb, t_1 = t1, t_k = tk,
              iterations = done, per_iteration = per, set_up = t1 - done1 * per,
              per_iteration_cpu = per_cpu,
              peak_mb = peak, k = if (is.na(clusters)) "NA" else clusters)
  write.dcf(as.data.frame(lapply(rec, as.character)))  # "NA" kept as a field
}

args <- commandArgs(TRUE)
if (length(args) == 3L && args[1] == "--child") {
  child(args[2], as.numeric(args[3]))
  quit(save = "no")
}

source("bench/utils.R")
ns <- as.numeric(strsplit(Sys.getenv("BENCH_N", "1e4,1e5,1e6"), ",")[[1]])
which_methods <- Sys.getenv("BENCH_METHODS", "")
todo <- if (nzchar(which_methods)) strsplit(which_methods, ",")[[1]] else names(methods)
script <- "bench/scale-one-machine.R"
rows <- list()
for (name in todo) {
  spec <- methods[[name]]
  if (is.null(spec)) stop("unknown method ", name)
  if (!is.null(spec$peer) && !requireNamespace(spec$peer, quietly = TRUE)) {
    message("skipping ", name, ": ", spec$peer, " is not installed")
    next
  }
  for (n in ns[ns <= spec$max_n]) {
    # a fixed mmap threshold makes glibc return every large block on free(),
    # so resident memory follows what is live (not what was once allocated)
    out <- system2(file.path(R.home("bin"), "Rscript"), c(script, "--child", name, n),
                   stdout = TRUE, stderr = FALSE, env = "MALLOC_MMAP_THRESHOLD_=131072")
    rec <- tryCatch(as.data.frame(read.dcf(textConnection(out)), stringsAsFactors = FALSE),
                    error = function(e) NULL)
    if (is.null(rec) || !nrow(rec)) {
      message(name, " at n = ", n, " failed")
      next
    }
    message(sprintf("%-20s n = %8g  per iteration %s s, peak +%s MB", name, n,
                    rec$per_iteration, rec$peak_mb))
    rows[[length(rows) + 1L]] <- rec
  }
}
res <- do.call(rbind, rows)
num <- setdiff(names(res), "method")
res[num] <- lapply(res[num], as.numeric)

# exponent of per-iteration time in n (least squares on log-log), of the
# time divided by `per` when given
exponent_of <- function(column, per = NULL) {
  vapply(split(res, res$method), function(r) {
    t <- r[[column]] / if (is.null(per)) 1 else r[[per]]
    ok <- is.finite(t) & t > 0
    if (sum(ok) < 2) return(NA_real_)
    unname(stats::coef(stats::lm(log(t[ok]) ~ log(r$n[ok])))[2])
  }, numeric(1))
}
slope <- exponent_of("per_iteration")
slope_cpu <- exponent_of("per_iteration_cpu")
# DP-means-type fits open clusters as n grows (a fixed lambda meets more
# outlying points), and an iteration costs O(n k): the exponent of the time
# per iteration and cluster separates that from the cost of n itself.
slope_per_cluster <- exponent_of("per_iteration", "k")
lloyd <- res[res$method == "kmeans", c("n", "per_iteration")]
res$ratio_to_lloyd <- res$per_iteration / lloyd$per_iteration[match(res$n, lloyd$n)]
res$peak_over_data <- res$peak_mb / res$data_mb
res$iterations <- as.integer(res$iterations)

load <- tryCatch(readLines("/proc/loadavg"), error = function(e) NA)
lines <- c(
  sprintf("- date: %s; git %s; %s, %d cores", format(Sys.time(), tz = "UTC", usetz = TRUE),
          git_commit(), cpu_name(), parallel::detectCores()),
  sprintf("- command: `BENCH_N=%s Rscript %s`; load average at the end: %s",
          paste(ns, collapse = ","), script, load),
  sprintf(paste0("- data: n points in p = %d from %d Gaussian blobs, about n pairs from ",
                 "`sample_constraints(y, rate = 1 / n)`, 10%% labels for cec_ib; sib: n x n/10 ",
                 "counts with 10 non-zeros per row (sparse; sib_1e4_words: n x 1e4). One fresh process per row; per_iteration = ",
                 "(t_k - t_1) / (difference of the iterations done by the two calls), set_up = ",
                 "t_1 - (its iterations) x per_iteration (s); peak_mb: peak ",
                 "resident memory above the start of the %d-iteration call; data_mb: size of x ",
                 "(or of the sparse counts)."), p_dim, k_true, iters),
  if (any(startsWith(todo, "kernel_rdp"))) paste(
    "- kernel_rdp_*: kernel_rdp_means() on simulate_patterns()'s moons (p = 2) with 1e4 random",
    "pairs, sigma = 0.5, spectral start, lambda 0.1 n (nystrom) or 20 (knn); set_up holds the",
    "features or the neighbour graph and the spectral start; iterations are sweeps."),
  "",
  md_table(transform(res, n = format(n, scientific = TRUE))[, c("method", "n", "data_mb", "set_up", "per_iteration", "iterations",
                   "k", "ratio_to_lloyd", "peak_mb", "peak_over_data", "per_iteration_cpu")], digits = 3),
  "",
  "Exponent of the per-iteration time in n (least squares on log-log):",
  "",
  md_table(data.frame(method = names(slope), exponent = slope,
                      exponent_per_cluster = slope_per_cluster[names(slope)],
                      exponent_cpu = slope_cpu[names(slope)]), digits = 2),
  "",
  paste("exponent_per_cluster: of the time per iteration divided by the fit's number of clusters k;",
        "exponent_cpu and per_iteration_cpu: from the processor seconds of the process (user +",
        "system) instead of elapsed time, less affected by other jobs on the machine."))
# BENCH_SECTION names the results section, so that runs of different method
# sets at the same sizes keep their own tables
section <- paste(c("scale", ns, Sys.getenv("BENCH_SECTION")[nzchar(Sys.getenv("BENCH_SECTION"))]),
                 collapse = " ")
write_md_section("bench/results/scale-one-machine.md", section,
                 lines, c("# Scale on one machine", ""))
cat(lines, sep = "\n")
