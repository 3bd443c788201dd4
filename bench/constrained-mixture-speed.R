# Speed of constrained_mixture(): one EM iteration with mean field and ICM on
# n = 100,000 points, p = 5, K = 10 and 100,000 constraints (target: under
# 2 s), against one EM iteration of mclust (no constraints) on the same data;
# and the cost of sampled chunklets against the number of samples (expected
# linear).
#
# Run from the repository root with sideclust (and mclust, optional) installed:
#   Rscript bench/constrained-mixture-speed.R
#   BENCH_REPS=5 Rscript bench/constrained-mixture-speed.R
# Timings are medians over BENCH_REPS repeats (default 3) of elapsed time.

library(sideclust)
source(file.path("bench", "utils.R"))

reps <- as.integer(Sys.getenv("BENCH_REPS", "3"))
out_file <- file.path("bench", "results", "constrained-mixture-speed.md")
env <- Sys.getenv("BENCH_REPS")
command <- paste(c(if (nzchar(env)) sprintf("BENCH_REPS=%s", env),
                   "Rscript bench/constrained-mixture-speed.R"), collapse = " ")

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
start_z <- diag(K)[start, ]

med_time <- function(expr_fun) {
  stats::median(vapply(seq_len(reps), function(r) {
    gc(verbose = FALSE)
    system.time(expr_fun())[["elapsed"]]
  }, 1))
}

rows <- list()
add <- function(what, seconds, note = "") {
  rows[[length(rows) + 1L]] <<- data.frame(what = what, seconds = seconds, note = note)
}
for (inf in c("mean_field", "icm")) {
  for (cov in c("full", "diagonal")) {
    one <- med_time(function() constrained_mixture(x, side, K, inference = inf, covariance = cov,
                                                  start = start, max_iter = 1L))
    four <- med_time(function() constrained_mixture(x, side, K, inference = inf,
                                                   covariance = cov, start = start,
                                                   max_iter = 4L, tol = 0))
    add(sprintf("%s, %s: whole call with 1 iteration", inf, cov), one,
        "validation + M-step + densities + E-step from a random start")
    add(sprintf("%s, %s: per further iteration", inf, cov), (four - one) / 3,
        "(time of 4 iterations - time of 1) / 3, warm-started E-steps")
  }
}
plain <- med_time(function() constrained_mixture(x, NULL, K, covariance = "full", start = start,
                                                 max_iter = 1L))
add("no constraints, full: whole call with 1 iteration", plain, "plain EM")
if (requireNamespace("mclust", quietly = TRUE)) {
  mc <- med_time(function() mclust::meVVV(x, start_z, control = mclust::emControl(itmax = 1L)))
  add("mclust::meVVV, 1 iteration (no constraints)", mc, "peer")
}

# sampled chunklets: one E-step's cost against the number of samples
samples <- c(5L, 10L, 20L, 40L)
sc <- vapply(samples, function(s) {
  set.seed(2)
  med_time(function() constrained_mixture(x, side, K, inference = "sampled_chunklet",
                                          covariance = "diagonal", start = start,
                                          max_iter = 1L, samples = s))
}, 1)
fit_lin <- stats::lm(sc ~ samples)
sc_tab <- data.frame(samples = samples, seconds = sc,
                     seconds_per_sample = (sc - plain) / samples)
fit1 <- constrained_mixture(x, side, K, inference = "sampled_chunklet", covariance = "diagonal",
                            start = start, max_iter = 1L, samples = 5L)

tab <- do.call(rbind, rows)
print(tab, row.names = FALSE)
print(sc_tab, row.names = FALSE)
r2 <- summary(fit_lin)$r.squared

lines <- c(
  "# Constrained mixture speed", "",
  sprintf("- date: %s UTC", format(Sys.time(), tz = "UTC")),
  sprintf("- machine: %d cores (parallel::detectCores()), %s; %s; single-threaded code",
          parallel::detectCores(), cpu_name(), R.version$platform),
  sprintf("- R: %s; sideclust %s (git %s)%s", R.version.string,
          utils::packageVersion("sideclust"), git_commit(),
          if (requireNamespace("mclust", quietly = TRUE))
            sprintf("; mclust %s", utils::packageVersion("mclust")) else ""),
  sprintf("- command: `%s` (from the repository root)", command),
  sprintf("- data: n = %d, p = %d, K = %d Gaussian blobs; %d constraints from `sample_constraints(y, \"nelson_cohen\", n_constraints = 1e5, noise = 0.1)` (%.1f s to draw); random start labels", n, p, K, length(side$i), t_side),
  sprintf("- medians of %d repeats (elapsed seconds); the machine's 2 cores are shared with other work", reps),
  "", "## One EM iteration (target: under 2 s for mean field and ICM)", "",
  md_table(tab, 3), "",
  "## Sampled chunklets: one EM iteration against the number of samples", "",
  md_table(sc_tab, 3), "",
  sprintf("Linear fit: %.3f s + %.3f s per sample (R^2 = %.4f). Chunklet posteriors of the samples: %s (per sample, components of the chunklet-level cannot-link graph are exact when trees or of at most 1e6 labelings, mean field otherwise; no cutset conditioning per sample).",
          stats::coef(fit_lin)[1], stats::coef(fit_lin)[2], r2, fit1$estep),
  "")
dir.create(dirname(out_file), showWarnings = FALSE, recursive = TRUE)
writeLines(lines, out_file)
cat(sprintf("\nwrote %s\n", out_file))
