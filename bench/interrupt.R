# How fast every iterative method answers Ctrl-C (SIGINT) in the middle of a
# long fit, at n = 1e5 and 1e6 points.
#
# Run from the repository root, with sideclust installed:
#   Rscript bench/interrupt.R [--quick]
# Writes bench/results/interrupt.md and prints the same table.
#
# Each case runs in its own R process (callr::r_bg). The child builds its
# data, writes a "started" stamp and calls the method inside
# tryCatch(interrupt = ...), whose handler writes the time it ran. The parent
# waits `wait` seconds after the stamp, sends SIGINT and records the time;
# the latency is handler time minus send time. Cases whose fit ends before
# the signal are reported as such (the fit was too short to measure). The
# goal is a latency below 1 s everywhere; the package polls inside long
# sweeps (about every 2^20 units of work) and once per sweep otherwise.

library(callr)
`%||%` <- function(a, b) if (is.null(a)) b else a

args <- commandArgs(trailingOnly = TRUE)
quick <- "--quick" %in% args
sizes <- if (quick) 1e5 else c(1e5, 1e6)
# --only=name,name and --n=1e6 re-measure some cases without touching the
# results file
value_of <- function(flag) sub(paste0("^--", flag, "="), "", grep(paste0("^--", flag, "="), args, value = TRUE))
only <- unlist(strsplit(value_of("only"), ","))
if (length(value_of("n"))) sizes <- as.numeric(value_of("n"))
partial <- length(only) > 0 || length(value_of("n")) > 0
wait <- 2

# Each case: a function of n run in the child; it returns the call to time.
cases <- list(
  rdp_means = function(n) {
    x <- matrix(stats::rnorm(n * 2), ncol = 2)
    side <- sideclust::sample_constraints(rep(1:10, length.out = n), rate = 1 / n)
    function() sideclust::rdp_means(x, side, lambda = 1e-3, max_iter = 1000L)
  },
  dp_means = function(n) {
    x <- matrix(stats::rnorm(n * 2), ncol = 2)
    function() sideclust::dp_means(x, lambda = 1e-3, max_iter = 1000L)
  },
  cvqe = function(n) {
    x <- matrix(stats::rnorm(n * 5), ncol = 5)
    side <- sideclust::sample_constraints(rep(1:10, length.out = n), rate = 1 / n)
    function() sideclust::cvqe(x, side, 50L, restarts = 100L, max_iter = 1000L)
  },
  cop_kmeans = function(n) {
    x <- matrix(stats::rnorm(n * 5), ncol = 5)
    side <- sideclust::sample_constraints(rep(1:10, length.out = n), rate = 1 / n)
    function() sideclust::cop_kmeans(x, side, 50L, restarts = 100L, max_iter = 1000L,
                                     infeasible = "nearest")
  },
  lcvqe = function(n) {
    x <- matrix(stats::rnorm(n * 5), ncol = 5)
    side <- sideclust::sample_constraints(rep(1:10, length.out = n), rate = 1 / n)
    function() sideclust::lcvqe(x, side, 50L, restarts = 100L, max_iter = 1000L)
  },
  mpck_means = function(n) {
    x <- matrix(stats::rnorm(n * 5), ncol = 5)
    side <- sideclust::sample_constraints(rep(1:10, length.out = n), rate = 1 / n)
    function() sideclust::mpck_means(x, side, 50L, metric = "full", restarts = 100L,
                                     max_iter = 1000L)
  },
  cec = function(n) {
    x <- matrix(stats::rnorm(n * 5), ncol = 5)
    function() sideclust::cec(x, k = 50L, restarts = 100L, max_iter = 1000L)
  },
  constrained_mixture = function(n) {
    x <- matrix(stats::rnorm(n * 5), ncol = 5)
    side <- sideclust::sample_constraints(rep(1:10, length.out = n), rate = 1 / n)
    function() sideclust::constrained_mixture(x, side, 10L, max_iter = 1000L, tol = 0)
  },
  tvclust = function(n) {
    x <- matrix(stats::rnorm(n * 2), ncol = 2)
    function() sideclust::tvclust(x, iter = 100000L, chains = 1L, threads = 1L)
  },
  ib_kmeans = function(n) {
    x <- matrix(stats::rnorm(n * 5), ncol = 5)
    function() sideclust::ib_kmeans(x, k = 20L, beta = 50, restarts = 100L, max_iter = 5000L)
  },
  disparate_kmeans = function(n) {
    x <- matrix(stats::rnorm(n * 5), ncol = 5)
    function() sideclust::disparate_kmeans(x, k = 20L, restarts = 100L, max_iter = 1000L)
  },
  sib = function(n) {
    x <- Matrix::rsparsematrix(n, 50, density = 0.2, rand.x = function(m) stats::rpois(m, 3) + 1)
    x <- x[Matrix::rowSums(x) > 0, ]
    function() sideclust::sib(x, k = 50L, restarts = 100L, max_iter = 1000L)
  },
  itcc = function(n) {
    x <- Matrix::rsparsematrix(n, 50, density = 0.2, rand.x = function(m) stats::rpois(m, 3) + 1)
    x <- x[Matrix::rowSums(x) > 0, ]
    function() sideclust::itcc(x, k_rows = 50L, k_cols = 10L, restarts = 100L, max_iter = 1000L)
  },
  multiway_clustering = function(n) {
    x <- matrix(stats::rnorm(n * 20), ncol = 20)
    function() sideclust::multiway_clustering(x, k = c(50L, 5L), restarts = 100L, max_iter = 1000L)
  },
  kpartite_clustering = function(n) {
    x <- matrix(stats::rnorm(n * 20), ncol = 20)
    function() sideclust::kpartite_clustering(list(x), k = c(50L, 5L), restarts = 100L,
                                              max_iter = 1000L, tol = 0)
  },
  cross_associations = function(n) {
    x <- Matrix::rsparsematrix(n, 200, density = 0.05, rand.x = NULL)
    function() sideclust::cross_associations(x)
  },
  discriminative_clustering = function(n) {
    x <- matrix(stats::rnorm(n * 5), ncol = 5)
    side <- sideclust::sample_labels(rep(1:10, length.out = n), fraction = 0.5)
    function() sideclust::discriminative_clustering(x, side, 20L, restarts = 100L,
                                                    max_iter = 100000L)
  }
)

run_case <- function(name, n) {
  dir <- tempfile("interrupt-")
  dir.create(dir)
  started <- file.path(dir, "started")
  handled <- file.path(dir, "handled")
  child <- r_bg(function(make, n, started, handled) {
    set.seed(1)
    fit <- make(n)
    writeLines(format(as.numeric(Sys.time()), digits = 15), started)
    tryCatch({
      fit()
      "finished"
    }, interrupt = function(e) {
      writeLines(format(as.numeric(Sys.time()), digits = 15), handled)
      "interrupted"
    })
  }, args = list(make = cases[[name]], n = n, started = started, handled = handled))
  on.exit(child$kill(), add = TRUE)
  while (!file.exists(started) && child$is_alive()) Sys.sleep(0.05)
  ended <- function() {
    msg <- tryCatch({
      child$get_result()
      "finished before the signal"
    }, error = function(e) paste("failed:", conditionMessage(e$parent %||% e)))
    data.frame(method = name, n = n, latency = NA, note = gsub("[\n|]", " ", msg))
  }
  if (!child$is_alive()) return(ended())
  Sys.sleep(wait)
  if (!child$is_alive()) return(ended())
  sent <- as.numeric(Sys.time())
  child$interrupt()
  child$wait(60000)
  if (child$is_alive()) return(data.frame(method = name, n = n, latency = NA, note = "no answer within 60 s"))
  if (!file.exists(handled)) return(data.frame(method = name, n = n, latency = NA, note = "ended without the handler"))
  data.frame(method = name, n = n, latency = as.numeric(readLines(handled)) - sent, note = "")
}

if (length(only)) cases <- cases[only]
rows <- list()
for (n in sizes) for (name in names(cases)) {
  message(sprintf("%s, n = %g", name, n))
  rows[[length(rows) + 1L]] <- run_case(name, n)
}
res <- do.call(rbind, rows)
res$latency <- round(res$latency, 3)

lines <- c(
  "# Interrupt latency",
  "",
  sprintf("`Rscript bench/interrupt.R`%s on %s, commit %s, %d cores.",
          if (quick) " --quick" else "", format(Sys.Date()),
          tryCatch(system("git rev-parse --short HEAD", intern = TRUE), error = function(e) "?"),
          parallel::detectCores()),
  "",
  sprintf("SIGINT sent %g s into each fit; latency = seconds until the fit's R code", wait),
  "ran its interrupt handler (goal: below 1 s).",
  "",
  "| method | n | latency (s) | note |",
  "|---|---:|---:|---|",
  sprintf("| %s | %g | %s | %s |", res$method, res$n,
          ifelse(is.na(res$latency), "", format(res$latency)), res$note)
)
writeLines(lines)
if (!partial) {
  dir.create("bench/results", showWarnings = FALSE)
  writeLines(lines, "bench/results/interrupt.md")
}
