# Peak memory of constrained_mixture() (issue 22, point 4: one copy of the
# data plus O(n + pairs), besides the n x k posterior the fit returns) for
# each inference at n = 1e6, p = 5, k = 10 and about n pairs, measured as in
# bench/scale-one-machine.R: every (inference, build) runs in a fresh Rscript
# process, the data are made first, then VmHWM is reset and the peak resident
# memory of one call (3 EM iterations from random start labels) is read
# against the resident memory before it.
#
#   Rscript bench/constrained-mixture-memory.R
#   BENCH_N=1e5 BENCH_BASE_LIB=/path/to/old/lib Rscript bench/constrained-mixture-memory.R
#
# With BENCH_BASE_LIB, the same calls with the build there (before) beside the
# installed one (after). Results: bench/results/constrained-mixture-memory.md.

n <- as.numeric(Sys.getenv("BENCH_N", "1e6"))
base_lib <- Sys.getenv("BENCH_BASE_LIB")
inferences <- c("mean_field", "chunklet", "icm", "gibbs", "sampled_chunklet")
p_dim <- 5L
k_true <- 10L
out_file <- file.path("bench", "results", "constrained-mixture-memory.md")

child <- function(inference, n) {
  suppressPackageStartupMessages(library(sideclust))
  status_mb <- function(field) {
    l <- grep(paste0("^", field, ":"), readLines("/proc/self/status"), value = TRUE)
    as.numeric(gsub("[^0-9]", "", l)) / 1024
  }
  make <- function(n) {
    set.seed(1)
    centres <- matrix(stats::rnorm(k_true * p_dim, sd = 4), k_true, p_dim)
    y <- sample.int(k_true, n, TRUE)
    x <- centres[y, ] + matrix(stats::rnorm(n * p_dim), n, p_dim)
    side <- sample_constraints(y, rate = 1 / n)  # about n pairs
    list(x = x, side = side, start = sample.int(k_true, n, TRUE))
  }
  run <- function(d) suppressWarnings(constrained_mixture(
    d$x, d$side, k_true, inference = inference, start = d$start, max_iter = 3L, tol = 0))
  invisible(run(make(1000)))  # load what it loads
  d <- make(n)
  invisible(gc())
  base <- status_mb("VmRSS")
  writeLines("5", "/proc/self/clear_refs")  # reset VmHWM
  t <- system.time(fit <- run(d))[["elapsed"]]
  peak <- status_mb("VmHWM") - base
  cat(sprintf("RESULT %s %.1f %.2f %d %.1f\n", inference, peak, t, length(d$side$i),
              as.numeric(utils::object.size(d$x)) / 2^20))
}

args <- commandArgs(TRUE)
if (length(args) == 2L) {
  child(args[1], as.numeric(args[2]))
  quit(save = "no")
}

this <- file.path("bench", "constrained-mixture-memory.R")
measure <- function(lib) {
  rows <- lapply(inferences, function(inf) {
    out <- system2("Rscript", c(this, inf, format(n, scientific = FALSE)), stdout = TRUE,
                   env = if (nzchar(lib)) sprintf("R_LIBS=%s", paste(c(lib, .libPaths()), collapse = ":")))
    r <- strsplit(grep("^RESULT", out, value = TRUE), " ")[[1]]
    data.frame(inference = r[2], peak_mb = as.numeric(r[3]), elapsed = as.numeric(r[4]),
               pairs = as.numeric(r[5]), data_mb = as.numeric(r[6]))
  })
  do.call(rbind, rows)
}
after <- measure(.libPaths()[1])
posterior_mb <- n * k_true * 8 / 2^20
after$posterior_mb <- posterior_mb
after$peak_over_data <- after$peak_mb / after$data_mb
after$peak_minus_posterior <- after$peak_mb - posterior_mb
tab <- after[c("inference", "data_mb", "posterior_mb", "peak_mb", "peak_minus_posterior",
               "peak_over_data", "elapsed")]
if (nzchar(base_lib)) {
  before <- measure(base_lib)
  tab$peak_mb_before <- before$peak_mb[match(tab$inference, before$inference)]
}
print(tab, row.names = FALSE)

source(file.path("bench", "utils.R"))
lines <- c(
  "# Constrained mixture peak memory", "",
  sprintf("- date: %s UTC", format(Sys.time(), tz = "UTC")),
  sprintf("- R: %s; sideclust %s (git %s)", R.version.string, utils::packageVersion("sideclust"),
          git_commit()),
  sprintf("- command: `%sRscript bench/constrained-mixture-memory.R` (from the repository root)",
          if (nzchar(base_lib)) sprintf("BENCH_N=%s BENCH_BASE_LIB=%s ", Sys.getenv("BENCH_N", "1e6"), base_lib) else ""),
  sprintf("- data: n = %s, p = %d, k = %d Gaussian blobs, %d pairs from `sample_constraints(y, rate = 1 / n)`; random start labels; 3 EM iterations (`tol = 0`), default settings otherwise",
          format(n, big.mark = ",", scientific = FALSE), p_dim, k_true, after$pairs[1]),
  "- peak_mb: peak resident memory of the call above the resident memory before it (VmHWM reset), in a fresh R process per row (MB = 2^20 bytes); `data_mb` is x (n x p doubles), `posterior_mb` the n x k posterior z that the fit returns (unavoidable); `peak_mb_before` the same call with the earlier build",
  "", md_table(tab, 3), "")
writeLines(lines, out_file)
cat(sprintf("wrote %s\n", out_file))
