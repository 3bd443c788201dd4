# Set-up of the dense point methods: the data checks (finite values, range
# for the scale limits) and the transpose the cores read, before and after
# they became one pass over x (issue 22 point 1; issue 19's per-iteration
# ratios include this set-up).
#
#   BENCH_BEFORE_LIB=/path/to/old/library Rscript bench/data-checks.R [n] [p]
#
# n = 1e6, p = 10 by default, 1e4 random pairs (cannot-link and must-link)
# for the methods with side information. Each method is called with
# max_iter = 1 and restarts = 1, so the call is set-up plus one iteration;
# the iteration is the same code in both builds, so the difference of the
# medians is the set-up saved. The checks alone are timed too: before,
# check_data_scale(check_data_matrix(x)) and transpose_points(x); after,
# scan_points(x, transpose = TRUE) (and without the transpose).
# Every repeat runs each library in a fresh R process, alternating, so both
# columns come from the same run; the fits of the two builds are compared
# (clusters and centres identical). Writes bench/results/data-checks.md.
source("bench/utils.R")
args <- commandArgs(TRUE)
n <- if (length(args) >= 1L) as.numeric(args[1]) else 1e6
p <- if (length(args) >= 2L) as.integer(args[2]) else 10L
repeats <- as.integer(Sys.getenv("BENCH_REPEATS", "5"))
libs <- c(after = .libPaths()[1])
before <- Sys.getenv("BENCH_BEFORE_LIB")
if (nzchar(before)) libs <- c(before = before, libs)

child_code <- '
  args <- commandArgs(TRUE)
  .libPaths(c(args[1], .libPaths())); suppressMessages(library(sideclust))
  ns <- asNamespace("sideclust")
  n <- as.numeric(args[2]); p <- as.integer(args[3]); fits_file <- args[4]
  set.seed(1)
  x <- matrix(rnorm(n * p), n, p)
  m <- 1e4
  a <- sample.int(n, m, TRUE); b <- sample.int(n - 1L, m, TRUE); b <- b + (b >= a)
  keep <- !duplicated(pmin(a, b) * (n + 1) + pmax(a, b))
  side <- ns$new_constraints(n, a[keep], b[keep], runif(sum(keep)) < 0.5, rep(1, sum(keep)))
  el <- function(expr) { invisible(gc()); system.time(expr)[["elapsed"]] }
  fits <- list()
  run <- function(name, expr) {
    t <- el(fit <- suppressWarnings(expr))
    fits[[name]] <<- list(cluster = unname(fit$cluster), centers = fit$centers %||% fit$means)
    t
  }
  `%||%` <- function(a, b) if (is.null(a)) b else a
  fused <- exists("scan_points", ns, inherits = FALSE)
  checks <- if (fused) {
    c(checks = el(ns$scan_points(x)), checks_transpose = el(ns$scan_points(x, transpose = TRUE)))
  } else {
    c(checks = el(ns$check_data_scale(ns$check_data_matrix(x))),
      checks_transpose = el({ns$check_data_scale(ns$check_data_matrix(x)); ns$transpose_points(x)}))
  }
  set.seed(2)
  out <- c(checks,
    cop_kmeans = run("cop_kmeans", cop_kmeans(x, side, 10, restarts = 1, max_iter = 1)),
    pck_means = run("pck_means", pck_means(x, side, 10, restarts = 1, max_iter = 1)),
    mpck_means = run("mpck_means", mpck_means(x, side, 10, restarts = 1, max_iter = 1)),
    lcvqe = run("lcvqe", lcvqe(x, side, 10, restarts = 1, max_iter = 1)),
    cvqe = run("cvqe", cvqe(x, side, 10, restarts = 1, max_iter = 1)),
    rdp_means = run("rdp_means", rdp_means(x, side, lambda = 30, max_iter = 1)),
    dp_means = run("dp_means", dp_means(x, lambda = 30, max_iter = 1)),
    cec = run("cec", cec(x, 10, restarts = 1, max_iter = 1, init = "kmeans++")),
    lloyd_1 = el(suppressWarnings(kmeans(x, x[1:10, ], iter.max = 1L, algorithm = "Lloyd"))))
  if (nzchar(fits_file)) saveRDS(fits, fits_file)
  cat(paste(names(out), out, sep = "=", collapse = ";"))
'
child_file <- tempfile(fileext = ".R")
writeLines(child_code, child_file)
run_child <- function(lib, fits_file = "") {
  out <- system2(file.path(R.home("bin"), "Rscript"), c(child_file, lib, n, p, fits_file),
                 stdout = TRUE)
  kv <- strsplit(strsplit(utils::tail(out, 1L), ";")[[1]], "=")
  stats::setNames(as.numeric(vapply(kv, `[`, "", 2L)), vapply(kv, `[`, "", 1L))
}

fit_files <- stats::setNames(tempfile(names(libs), fileext = ".rds"), names(libs))
times <- list()
load_start <- readLines("/proc/loadavg")
for (r in seq_len(repeats)) {
  for (l in names(libs)) {
    times[[l]] <- rbind(times[[l]], run_child(libs[[l]], if (r == 1L) fit_files[[l]] else ""))
    message(sprintf("repeat %d %s done", r, l))
  }
}
load_end <- readLines("/proc/loadavg")
med <- lapply(times, function(t) apply(t, 2, stats::median))

identical_fits <- if (length(libs) == 2L) {
  fb <- readRDS(fit_files[["before"]]); fa <- readRDS(fit_files[["after"]])
  vapply(names(fa), function(m) identical(fa[[m]], fb[[m]]), TRUE)
}

rows <- setdiff(names(med$after), "lloyd_1")
tab <- data.frame(what = rows, after_s = med$after[rows])
if (!is.null(med$before)) {
  tab$before_s <- med$before[rows]
  tab$saved_s <- tab$before_s - tab$after_s
  tab$saved_lloyd_iters <- tab$saved_s / med$after[["lloyd_1"]]
  tab$identical_fit <- ifelse(tab$what %in% names(identical_fits),
                              ifelse(identical_fits[tab$what], "yes", "NO"), "-")
  tab <- tab[c("what", "before_s", "after_s", "saved_s", "saved_lloyd_iters", "identical_fit")]
}
lines <- c(
  sprintf("n = %g, p = %d, 1e4 pairs; medians of %d fresh processes per build, alternating; %s; commit %s; %s.",
          n, p, repeats, cpu_name(), git_commit(), format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC")),
  sprintf("Load average at start / end: %s / %s (2 cores, other sessions running).",
          paste(strsplit(load_start, " ")[[1]][1:3], collapse = " "),
          paste(strsplit(load_end, " ")[[1]][1:3], collapse = " ")),
  sprintf("A Lloyd iteration of stats::kmeans (k = 10) on the same data: %.3f s (after build's process).",
          med$after[["lloyd_1"]]),
  "", md_table(tab, digits = 3), "")
write_md_section("bench/results/data-checks.md", sprintf("n%g-p%d", n, p), lines,
                 preamble = c("# Data checks and transpose in one pass", "",
                              "Written by bench/data-checks.R. `checks`: the data checks alone (finite values,",
                              "range); `checks_transpose`: with the transpose the cores read; method rows: a",
                              "whole call with max_iter = 1, restarts = 1 (set-up plus one iteration).", ""))
cat(lines, sep = "\n")
