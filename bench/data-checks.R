# Set-up of the dense point methods: the data checks (finite values, range
# for the scale limits) and the transpose the cores read, before and after
# they became one pass over x (issue 22 point 1; issue 19's per-iteration
# ratios include this set-up).
#
#   BENCH_BEFORE_LIB=/path/to/old/library Rscript bench/data-checks.R [n] [p]
#
# n = 1e6, p = 10 by default, 1e4 random pairs (cannot-link and must-link)
# for the methods with side information. Timed:
# - the data checks alone: before, check_data_scale(check_data_matrix(x))
#   (and transpose_points(x)); after, scan_points(x) (transpose = TRUE);
# - each method's set-up: its front door up to the glue entry point of its
#   core, which is replaced by a stop (assignInNamespace()), so the rest of
#   the set-up (side information, seeding options) is in both columns;
# - each method's whole call with max_iter = 1, restarts = 1 (set-up plus
#   one iteration), whose fits are compared between the builds (clusters
#   and centres identical);
# - a Lloyd iteration of stats::kmeans, the unit of the saving.
# BENCH_REPEATS fresh R processes per build (3), alternating between the
# builds so that both columns come from the same run, BENCH_INNER repeats
# inside each (5). Writes bench/results/data-checks.md.
source("bench/utils.R")
args <- commandArgs(TRUE)
n <- if (length(args) >= 1L) as.numeric(args[1]) else 1e6
p <- if (length(args) >= 2L) as.integer(args[2]) else 10L
repeats <- as.integer(Sys.getenv("BENCH_REPEATS", "3"))  # processes per build
inner <- as.integer(Sys.getenv("BENCH_INNER", "5"))       # repeats inside a process
libs <- c(after = .libPaths()[1])
before <- Sys.getenv("BENCH_BEFORE_LIB")
if (nzchar(before)) libs <- c(before = before, libs)

child_code <- '
  args <- commandArgs(TRUE)
  .libPaths(c(args[1], .libPaths())); suppressMessages(library(sideclust))
  ns <- asNamespace("sideclust")
  n <- as.numeric(args[2]); p <- as.integer(args[3]); fits_file <- args[4]
  inner <- as.integer(args[5])
  set.seed(1)
  x <- matrix(rnorm(n * p), n, p)
  m <- 1e4
  a <- sample.int(n, m, TRUE); b <- sample.int(n - 1L, m, TRUE); b <- b + (b >= a)
  keep <- !duplicated(pmin(a, b) * (n + 1) + pmax(a, b))
  side <- ns$new_constraints(n, a[keep], b[keep], runif(sum(keep)) < 0.5, rep(1, sum(keep)))
  `%||%` <- function(a, b) if (is.null(a)) b else a
  el <- function(expr) { invisible(gc()); system.time(expr)[["elapsed"]] }
  med <- function(f) stats::median(vapply(seq_len(inner), function(i) f(), 0))
  calls <- list(
    cop_kmeans = list(".cop_kmeans_cpp", function() cop_kmeans(x, side, 10, restarts = 1, max_iter = 1)),
    pck_means = list(".mpck_means_cpp", function() pck_means(x, side, 10, restarts = 1, max_iter = 1)),
    mpck_means = list(".mpck_means_cpp", function() mpck_means(x, side, 10, restarts = 1, max_iter = 1)),
    lcvqe = list(".lcvqe_cpp", function() lcvqe(x, side, 10, restarts = 1, max_iter = 1)),
    cvqe = list(".cvqe_cpp", function() cvqe(x, side, 10, restarts = 1, max_iter = 1)),
    rdp_means = list(".rdp_means_cpp", function() rdp_means(x, side, lambda = 30, max_iter = 1)),
    dp_means = list(".rdp_means_cpp", function() dp_means(x, lambda = 30, max_iter = 1)),
    cec = list(".cec_cpp", function() cec(x, 10, restarts = 1, max_iter = 1, init = "kmeans++")))
  # whole calls (set-up plus one iteration), once a process; the fits of the
  # first process are kept for the comparison of the builds
  set.seed(2)
  fits <- list()
  whole <- vapply(names(calls), function(nm) {
    el(fit <- suppressWarnings(calls[[nm]][[2]]()))
    fits[[nm]] <<- list(cluster = unname(fit$cluster), centers = fit$centers %||% fit$means)
    el(suppressWarnings(calls[[nm]][[2]]()))
  }, 0)
  if (fits_file != "-") saveRDS(fits, fits_file)
  # set-up alone: everything up to the glue entry point of the core, which
  # is replaced by a stop
  setup <- vapply(names(calls), function(nm) {
    core <- calls[[nm]][[1]]
    real <- get(core, ns)
    utils::assignInNamespace(core, function(...) stop("core reached"), "sideclust")
    on.exit(utils::assignInNamespace(core, real, "sideclust"))
    med(function() el(tryCatch(calls[[nm]][[2]](), error = function(e) {
      if (!identical(conditionMessage(e), "core reached")) stop(e)
    })))
  }, 0)
  fused <- exists("scan_points", ns, inherits = FALSE)
  checks <- if (fused) {
    c(checks = med(function() el(ns$scan_points(x))),
      checks_transpose = med(function() el(ns$scan_points(x, transpose = TRUE))))
  } else {
    c(checks = med(function() el(ns$check_data_scale(ns$check_data_matrix(x)))),
      checks_transpose = med(function() el({ns$check_data_scale(ns$check_data_matrix(x)); ns$transpose_points(x)})))
  }
  # one Lloyd iteration: the difference of 6 and 1 iterations (kmeans() has set-up of its own)
  l1 <- med(function() el(suppressWarnings(kmeans(x, x[1:10, ], iter.max = 1L, algorithm = "Lloyd"))))
  l6 <- med(function() el(suppressWarnings(kmeans(x, x[1:10, ], iter.max = 6L, algorithm = "Lloyd"))))
  out <- c(checks, stats::setNames(setup, paste0("setup_", names(setup))),
           stats::setNames(whole, paste0("whole_", names(whole))), lloyd_iter = (l6 - l1) / 5)
  cat(paste(names(out), out, sep = "=", collapse = ";"))
'
child_file <- tempfile(fileext = ".R")
writeLines(child_code, child_file)
run_child <- function(lib, fits_file = "-") {
  out <- system2(file.path(R.home("bin"), "Rscript"), c(child_file, lib, n, p, fits_file, inner),
                 stdout = TRUE)
  kv <- strsplit(strsplit(utils::tail(out, 1L), ";")[[1]], "=")
  stats::setNames(as.numeric(vapply(kv, `[`, "", 2L)), vapply(kv, `[`, "", 1L))
}

fit_files <- stats::setNames(tempfile(names(libs), fileext = ".rds"), names(libs))
times <- list()
load_start <- readLines("/proc/loadavg")
for (r in seq_len(repeats)) {
  for (l in names(libs)) {
    times[[l]] <- rbind(times[[l]], run_child(libs[[l]], if (r == 1L) fit_files[[l]] else "-"))
    message(sprintf("repeat %d %s done", r, l))
  }
}
load_end <- readLines("/proc/loadavg")
all_times <- lapply(times, function(t) t)
med <- lapply(times, function(t) apply(t, 2, stats::median))
lloyd <- stats::median(unlist(lapply(times, function(t) t[, "lloyd_iter"])))

identical_fits <- if (length(libs) == 2L) {
  fb <- readRDS(fit_files[["before"]]); fa <- readRDS(fit_files[["after"]])
  vapply(names(fa), function(m) identical(fa[[m]], fb[[m]]), TRUE)
}

method_names <- sub("^setup_", "", grep("^setup_", names(med$after), value = TRUE))
one_table <- function(rows, labels) {
  tab <- data.frame(what = labels, after_s = med$after[rows])
  if (!is.null(med$before)) {
    tab$before_s <- med$before[rows]
    tab$saved_s <- tab$before_s - tab$after_s
    tab$saved_lloyd_iters <- tab$saved_s / lloyd
    tab <- tab[c("what", "before_s", "after_s", "saved_s", "saved_lloyd_iters")]
  }
  tab
}
setup_tab <- one_table(c("checks", "checks_transpose", paste0("setup_", method_names)),
                       c("checks", "checks_transpose", method_names))
whole_tab <- one_table(paste0("whole_", method_names), method_names)
if (!is.null(identical_fits)) {
  whole_tab$identical_fit <- ifelse(identical_fits[method_names], "yes", "NO")
}
lines <- c(
  sprintf("n = %g, p = %d, 1e4 pairs; %d fresh processes per build, alternating, %d repeats inside each; %s; commit %s; %s.",
          n, p, repeats, inner, cpu_name(), git_commit(), format(Sys.time(), "%Y-%m-%d %H:%M UTC", tz = "UTC")),
  sprintf("Load average at start / end: %s / %s (2 cores, other sessions running).",
          paste(strsplit(load_start, " ")[[1]][1:3], collapse = " "),
          paste(strsplit(load_end, " ")[[1]][1:3], collapse = " ")),
  sprintf("A Lloyd iteration of stats::kmeans (k = 10) on the same data, (iter.max = 6 minus iter.max = 1) / 5: %.3f s (median over both builds).",
          lloyd),
  "",
  "Set-up: the data checks alone, and each front door up to its core (the glue entry point replaced by a stop), medians of all repeats:",
  "", md_table(setup_tab, digits = 3), "",
  "Whole calls with max_iter = 1, restarts = 1 (set-up plus one iteration), medians of one call per process (noisy under this load; the fits of the two builds compared):",
  "", md_table(whole_tab, digits = 3), "")
write_md_section("bench/results/data-checks.md", sprintf("n%g-p%d", n, p), lines,
                 preamble = c("# Data checks and transpose in one pass", "",
                              "Written by bench/data-checks.R (see its header for what is timed). `checks`: the",
                              "data checks alone (finite values, range); `checks_transpose`: with the transpose",
                              "the cores read; method rows of the set-up table: the front door up to its core.", ""))
cat(lines, sep = "\n")
