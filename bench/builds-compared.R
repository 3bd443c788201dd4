# Speed of the k-means family in two builds of sideclust, run together:
# before and after a change that must keep fits and speed (a refactor).
#
# Run from the repository root with the two builds installed in libraries
# of their own:
#   Rscript bench/builds-compared.R LIB_BEFORE LIB_AFTER [LABEL]
# Writes bench/results/builds-compared.md (one section per LABEL).
#
# Protocol: the data of bench/constrained-kmeans-speed.R (n = 1e6, p = 10,
# k = 5 Gaussian clusters, n pairs by sample_constraints(y, "nelson_cohen"),
# 5% of them wrong; COP-k-means the correct pairs only) and of
# RDP-means / DP-means on the same data (lambda between the clusters' spread
# and the closest centres' squared distance; the table gives the k found). Each method's call from the same start is timed in
# a fresh R process per build and round, the builds alternating, ROUNDS
# rounds (default 3). Per iteration: processor seconds (user + system of
# the child, which sees every thread) and elapsed seconds of the call,
# divided by its iterations. stats::kmeans' Lloyd iterations from the same
# start are timed in the same child as the peer (the same in both builds). The table gives the medians and the ratio
# after / before; both builds must give identical fits (checked).
args <- commandArgs(TRUE)
digest_of <- function(v) sprintf("%.0f", sum(as.numeric(v) * seq_along(v)) %% 1e12)

if (length(args) >= 2 && args[1] == "--child") {
  lib <- args[2]
  out <- args[3]
  suppressPackageStartupMessages(library(sideclust, lib.loc = lib))
  set.seed(20261125L)
  n <- 1e6L; p <- 10L; k <- 5L
  y <- sample.int(k, n, replace = TRUE)
  centres <- matrix(stats::rnorm(k * p, sd = 3), k, p)
  x <- centres[y, ] + matrix(stats::rnorm(n * p), n, p)
  noisy <- sample_constraints(y, "nelson_cohen", n_constraints = n, noise = 0.05)
  clean <- sample_constraints(y, "nelson_cohen", n_constraints = n)
  start <- x[sample.int(n, k), , drop = FALSE]
  # well above the spread of a cluster (chi-square, 10 df) and below the
  # closest centres' squared distance, so that both hold the 5 clusters
  lambda <- min(50, 0.9 * min(stats::dist(centres))^2)
  calls <- list(
    `COP-k-means` = function() cop_kmeans(x, clean, start = start, infeasible = "nearest",
                                          max_iter = 10, restarts = 1),
    `PCK-means` = function() pck_means(x, noisy, start = start, max_iter = 10, restarts = 1),
    `MPCK-means` = function() mpck_means(x, noisy, start = start, max_iter = 10, restarts = 1),
    LCVQE = function() lcvqe(x, noisy, start = start, max_iter = 10, restarts = 1),
    `LCVQE (1 thread)` = function() lcvqe(x, noisy, start = start, max_iter = 10, restarts = 1,
                                          threads = 1),
    CVQE = function() cvqe(x, noisy, start = start, max_iter = 10, restarts = 1),
    `RDP-means` = function() rdp_means(x, noisy, lambda = lambda, max_iter = 10),
    `DP-means` = function() dp_means(x, lambda = lambda, max_iter = 10),
    `stats::kmeans (Lloyd), the peer` = function() {
      f <- stats::kmeans(x, start, iter.max = 10, algorithm = "Lloyd")
      list(iterations = f$iter, k = nrow(f$centers), cluster = f$cluster)
    })
  rows <- lapply(names(calls), function(m) {
    set.seed(1)
    gc()
    t0 <- proc.time()
    fit <- suppressWarnings(calls[[m]]())
    t1 <- proc.time()
    cpu <- (t1[["user.self"]] - t0[["user.self"]]) + (t1[["sys.self"]] - t0[["sys.self"]])
    it <- max(1L, fit$iterations)
    data.frame(method = m, iterations = it, k = fit$k, cpu = cpu / it,
               elapsed = (t1[["elapsed"]] - t0[["elapsed"]]) / it,
               fit_hash = digest_of(fit$cluster))
  })
  saveRDS(do.call(rbind, rows), out)
  quit(save = "no")
}

if (length(args) < 2) stop("usage: Rscript bench/builds-compared.R LIB_BEFORE LIB_AFTER [LABEL]")
before <- normalizePath(args[1])
after <- normalizePath(args[2])
label <- if (length(args) >= 3) args[3] else "comparison"
rounds <- as.integer(Sys.getenv("ROUNDS", "3"))
script <- normalizePath("bench/builds-compared.R")
t_start <- proc.time()[["elapsed"]]
runs <- list()
for (r in seq_len(rounds)) {
  for (build in c("before", "after")) {
    lib <- if (build == "before") before else after
    out <- tempfile(fileext = ".rds")
    status <- system2(file.path(R.home("bin"), "Rscript"),
                      c(shQuote(script), "--child", shQuote(lib), shQuote(out)))
    if (status != 0) stop("the child run of build '", build, "' failed")
    res <- readRDS(out)
    res$build <- build
    res$round <- r
    runs[[length(runs) + 1L]] <- res
    cat(sprintf("round %d, %s done (%.0f s)\n", r, build, proc.time()[["elapsed"]] - t_start))
  }
}
all <- do.call(rbind, runs)
same_fits <- tapply(all$fit_hash, all$method, function(h) length(unique(h)) == 1L)
med <- function(b, col) tapply(all[[col]][all$build == b], all$method[all$build == b], stats::median)
methods <- unique(all$method)
tab <- data.frame(
  method = methods,
  iterations = as.integer(tapply(all$iterations, all$method, stats::median)[methods]),
  k = as.integer(tapply(all$k, all$method, stats::median)[methods]),
  cpu_before = round(med("before", "cpu")[methods], 4),
  cpu_after = round(med("after", "cpu")[methods], 4),
  cpu_ratio = round(med("after", "cpu")[methods] / med("before", "cpu")[methods], 3),
  elapsed_before = round(med("before", "elapsed")[methods], 4),
  elapsed_after = round(med("after", "elapsed")[methods], 4),
  elapsed_ratio = round(med("after", "elapsed")[methods] / med("before", "elapsed")[methods], 3),
  same_fit = same_fits[methods], row.names = NULL)
git <- function(dir) tryCatch(system2("git", c("-C", dir, "rev-parse", "--short", "HEAD"),
                                      stdout = TRUE, stderr = FALSE), error = function(e) "?")
load <- if (file.exists("/proc/loadavg")) readLines("/proc/loadavg") else "unknown"
cpu_name <- tryCatch(sub(".*: ", "", grep("model name", readLines("/proc/cpuinfo"), value = TRUE)[1]),
                     error = function(e) "unknown")
lines <- c(
  sprintf("<!-- begin %s -->", label),
  sprintf("## %s", label),
  "",
  sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
  sprintf("- machine: %d cores, %s; %s", parallel::detectCores(), cpu_name, R.version$platform),
  sprintf("- R: %s; builds: before = %s (sideclust %s), after = %s (sideclust %s)", R.version.string,
          before, utils::packageDescription("sideclust", lib.loc = before)$Version,
          after, utils::packageDescription("sideclust", lib.loc = after)$Version),
  sprintf("- command: `Rscript bench/builds-compared.R %s %s %s` (ROUNDS = %d); run time %.0f s",
          args[1], args[2], label, rounds, proc.time()[["elapsed"]] - t_start),
  sprintf("- load average at the end: %s", load),
  "- per iteration: median over the rounds of a call's seconds over its iterations (n = 1e6, p = 10, k = 5, 1e6 pairs); cpu: user + system of the child process; ratio: after / before; same_fit: every round of both builds gave the same clusters.",
  "",
  knitr::kable(tab, format = "pipe"),
  "",
  sprintf("<!-- end %s -->", label))
cat(lines, sep = "\n")
file <- "bench/results/builds-compared.md"
old <- if (file.exists(file)) readLines(file) else c("# Two builds of sideclust compared", "",
  "Written by `bench/builds-compared.R`; each label is a section of its own.", "")
b <- grep(sprintf("<!-- begin %s -->", label), old, fixed = TRUE)
e <- grep(sprintf("<!-- end %s -->", label), old, fixed = TRUE)
if (length(b) && length(e)) old <- old[-(b[1]:e[1])]
writeLines(c(old, lines, ""), file)
