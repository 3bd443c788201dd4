# Scale-out through the future plan: 40 CEC-IB fits (10 betas x 4 restarts),
# once with the restarts of each fit shared out (a loop over beta in the
# session) and once with the beta grid mapped by future.apply (each worker
# runs whole fits, their restarts in turn), and 8 TVClust chains, under plan(sequential), plan(multisession, workers = 2)
# and plan(cluster, workers = c("localhost", "localhost")); medians of
# repeats, speed-ups against sequential measured in the same run, and a check
# that every plan gives identical fits for the same seed.
# Run from the repository root: Rscript bench/scale-out.R [repeats]
suppressPackageStartupMessages({
  library(sideclust)
  library(future)
})
source("bench/utils.R")
args <- commandArgs(trailingOnly = TRUE)
repeats <- if (length(args)) as.integer(args[1]) else 3L
out_file <- "bench/results/scale-out.md"

set.seed(1)
n <- 40000
p <- 4
k <- 8
centres <- matrix(rnorm(k * p, sd = 4), k, p)
truth <- sample.int(k, n, replace = TRUE)
x <- centres[truth, ] + matrix(rnorm(n * p), n, p)
labels <- sample_labels(truth, 0.1)
betas <- c(0, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50)
side <- sample_constraints(truth[1:1500], rate = 0.002)
xt <- x[1:1500, ]

cec_grid <- function() {
  set.seed(42)
  lapply(betas, function(b) cec_ib(x, labels, k = k, beta = b, restarts = 4)[c("cluster", "cost")])
}
cec_grid_outer <- function() {
  future.apply::future_lapply(betas, function(b) {
    cec_ib(x, labels, k = k, beta = b, restarts = 4)[c("cluster", "cost")]
  }, future.seed = 42L, future.scheduling = Inf)
}
chains <- function(threads = 1L) {
  set.seed(43)
  fit <- tvclust(xt, side, iter = 200, chains = 8, threads = threads)
  list(trace = fit$trace$log_posterior, cluster = fit$cluster)
}

plans <- list(
  sequential = function() plan(sequential),
  multisession = function() plan(multisession, workers = 2),
  cluster = function() plan(cluster, workers = c("localhost", "localhost"))
)
time_once <- function(f) {
  t0 <- proc.time()[["elapsed"]]
  res <- f()
  list(seconds = proc.time()[["elapsed"]] - t0, result = res)
}

# The plans take turns within every repeat, so that a change of the machine's
# load during the run falls on all of them alike.
load_avg <- function() scan("/proc/loadavg", what = "", n = 1L, quiet = TRUE)
load_start <- load_avg()
rows <- list()
results <- list()
for (r in seq_len(repeats)) {
  for (pl in names(plans)) {
    plans[[pl]]()
    invisible(cec_ib(x[1:200, ], labels$labels[1:200], k = 2, restarts = 2))  # start the workers
    jobs <- list(cec = cec_grid, cec_outer = cec_grid_outer, tvclust = chains)
    if (pl == "sequential") jobs$threads2 <- function() chains(threads = 2L)
    for (job in names(jobs)) {
      t <- time_once(jobs[[job]])
      key <- if (job == "threads2") "threads2 tvclust" else paste(pl, job)
      results[[key]] <- t$result
      rows[[length(rows) + 1L]] <- data.frame(
        job = if (job == "threads2") "tvclust" else job,
        plan = if (job == "threads2") "sequential, threads = 2" else pl, seconds = t$seconds)
    }
    plan(sequential)
  }
}
tab <- do.call(rbind, rows)
tab <- stats::aggregate(seconds ~ job + plan, data = tab, FUN = stats::median)
tab <- tab[order(match(tab$job, c("cec", "cec_outer", "tvclust")),
                 match(tab$plan, c("sequential", "sequential, threads = 2", "multisession",
                                   "cluster"))), ]
tab$speed_up <- NA_real_
tab$identical_to_sequential <- NA
for (job in c("cec", "cec_outer", "tvclust")) {
  base <- tab$seconds[tab$job == job & tab$plan == "sequential"]
  at <- tab$job == job
  tab$speed_up[at] <- base / tab$seconds[at]
  tab$identical_to_sequential[at] <- vapply(tab$plan[at], function(pl) {
    key <- if (grepl("threads", pl)) "threads2" else pl
    identical(results[[paste(key, job)]], results[[paste("sequential", job)]])
  }, logical(1))
}
tab$job <- c(cec = "40 CEC-IB fits: loop over 10 betas, 4 restarts shared out",
             cec_outer = "40 CEC-IB fits: 10 betas mapped by future_lapply, 4 restarts each",
             tvclust = "8 TVClust chains (200 sweeps)")[tab$job]
print(tab)
lines <- c(
  sprintf("- date: %s", format(Sys.time(), tz = "UTC", usetz = TRUE)),
  sprintf("- machine: %d cores, %s; %s", parallel::detectCores(), cpu_name(), R.version.string),
  sprintf("- sideclust %s (git %s); future %s, future.apply %s", packageVersion("sideclust"),
          git_commit(), packageVersion("future"), packageVersion("future.apply")),
  sprintf(paste0("- command: `Rscript bench/scale-out.R %d` (from the repository root); median ",
                 "of %d repeats, the plans taking turns within each repeat"), repeats, repeats),
  sprintf(paste0("- load: 1-minute load average %s at the start, %s at the end, on 2 cores ",
                 "(above about 1 the workers compete with other jobs and the speed-ups are low)"),
          load_start, load_avg()),
  sprintf(paste0("- data: CEC-IB on n = %d, p = %d, k = %d, 10%% labelled; TVClust on n = %d ",
                 "with %d pairs, one thread per chain group (threads = 1) except the row ",
                 "`sequential, threads = 2` (the chains' own threads on one machine)"),
          n, p, k, nrow(xt), length(side$i)),
  "",
  md_table(tab, digits = 2))
write_md_section(out_file, "main", lines,
                 c("# Scale-out through future plans", "", "Written by `bench/scale-out.R`.", ""))
