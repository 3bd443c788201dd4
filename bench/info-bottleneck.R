# Information bottleneck on planted partitions: recovery (NMI) as noise grows,
# and sequential-IB time per pass on sparse count matrices up to 1e5 x 1e4.
#
# Run from the repository root:
#   Rscript bench/info-bottleneck.R
#   BENCH_REPEATS=1 Rscript bench/info-bottleneck.R   # fewer timing repeats
#
# Setup
# * planted partition: k = 10 row groups of equal size (random order), the
#   columns cut into 10 equal blocks; each row draws `per_row` column
#   indices, each from its group's block with probability 1 - noise and
#   uniformly from all columns otherwise (repeats add up to counts), so a
#   row carries at most `per_row` non-zeros. Sparse dgCMatrix throughout.
# * recovery: NMI ("sqrt") of the row clusters against the planted groups;
#   sib(k = 10) with 3 restarts (1 at 1e5 rows), itcc(10, 10) with 3 restarts
#   (up to 1e4 rows), aib cut at 10 (1e3 rows only: O(n^2) memory).
# * speed: sib's own per-pass wall time (`pass_seconds`: the sweep over all
#   points in random order plus the rebuild of the cluster statistics),
#   median over the passes of BENCH_REPEATS runs; the peer is one sparse
#   product x %*% Q with a dense m x k matrix Q (the O(nnz k) work any
#   k-cluster pass over the rows must do), median of BENCH_REPEATS.
#   Target: under 10 s per pass at 1e5 x 1e4 with 1% density.

library(sideclust)
source(file.path("bench", "utils.R"))

n_repeats <- as.integer(Sys.getenv("BENCH_REPEATS", "3"))
out_file <- file.path("bench", "results", "info-bottleneck.md")
env_prefix <- Sys.getenv("BENCH_REPEATS")
command <- paste0(if (nzchar(env_prefix)) paste0("BENCH_REPEATS=", env_prefix, " ") else "",
                  "Rscript bench/info-bottleneck.R")
k <- 10L
t_start <- proc.time()[["elapsed"]]

planted <- function(n, m, per_row, noise, seed) planted_sparse_rows(n, m, per_row, noise, seed, k)

elapsed <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  force(expr)
  proc.time()[["elapsed"]] - t0
}

# ---- recovery as noise grows -----------------------------------------------------

sizes <- data.frame(n = c(1e3, 1e4, 1e5), m = c(2e3, 5e3, 1e4), per_row = c(50, 50, 100))
noises <- c(0.5, 0.7, 0.8, 0.9, 0.95)
rec <- NULL
for (s in seq_len(nrow(sizes))) {
  for (noise in noises) {
    n <- sizes$n[s]
    d <- planted(n, sizes$m[s], sizes$per_row[s], noise, seed = 1)
    set.seed(2)
    t_sib <- elapsed(fit <- sib(d$x, k, restarts = if (n >= 1e5) 1L else 3L, max_iter = 30L))
    row <- data.frame(rows = format(n, big.mark = ",", scientific = FALSE),
                      cols = format(sizes$m[s], big.mark = ",", scientific = FALSE),
                      nnz = format(length(d$x@x), big.mark = ",", scientific = FALSE),
                      noise = noise, sib = nmi(fit$cluster, d$truth),
                      `sib passes` = fit$iterations, `sib s` = t_sib,
                      itcc = NA_real_, aib = NA_real_, check.names = FALSE)
    if (n <= 1e4) {
      set.seed(2)
      row$itcc <- nmi(itcc(d$x, k, k, restarts = 3L)$cluster, d$truth)
    }
    if (n <= 1e3) row$aib <- nmi(aib(d$x, k = k)$cluster, d$truth)
    rec <- rbind(rec, row)
    cat(sprintf("n = %g, noise = %.2f: sib NMI %.3f in %.1f s\n", n, noise, row$sib, t_sib))
  }
}

# ---- time per pass ------------------------------------------------------------------

speed <- NULL
for (s in seq_len(nrow(sizes))) {
  d <- planted(sizes$n[s], sizes$m[s], sizes$per_row[s], 0.8, seed = 3)
  x <- d$x
  passes <- unlist(lapply(seq_len(n_repeats), function(r) {
    set.seed(r)
    sib(x, k, restarts = 1L, max_iter = 5L)$pass_seconds
  }))
  q <- matrix(stats::runif(ncol(x) * k), ncol(x), k)
  prod_s <- stats::median(vapply(seq_len(n_repeats), function(r) elapsed(x %*% q), 0))
  speed <- rbind(speed, data.frame(
    rows = format(sizes$n[s], big.mark = ",", scientific = FALSE),
    cols = format(sizes$m[s], big.mark = ",", scientific = FALSE),
    density = sprintf("%.2f%%", 100 * length(x@x) / (nrow(x) * ncol(x))),
    nnz = format(length(x@x), big.mark = ",", scientific = FALSE),
    `sib s / pass` = stats::median(passes), `passes timed` = length(passes),
    `x %*% Q s` = prod_s, ratio = stats::median(passes) / prod_s,
    `ns / (nnz k)` = 1e9 * stats::median(passes) / (length(x@x) * k),
    check.names = FALSE))
  cat(sprintf("n = %g: sib %.3f s per pass\n", sizes$n[s], stats::median(passes)))
}
big <- speed[nrow(speed), ]
total <- proc.time()[["elapsed"]] - t_start

# ---- report -----------------------------------------------------------------------

lines <- c(
  "# Information bottleneck: planted partitions and sequential-IB speed", "",
  "Written by `bench/info-bottleneck.R`.", "",
  sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
  sprintf("- machine: %d cores (parallel::detectCores()), %s; %s; single-threaded runs; the cores are shared with other jobs, so timings may be perturbed",
          parallel::detectCores(), cpu_name(), R.version$platform),
  sprintf("- R: %s; sideclust %s (bench git %s); Matrix %s", R.version.string,
          as.character(utils::packageVersion("sideclust")), git_commit(),
          as.character(utils::packageVersion("Matrix"))),
  sprintf("- command: `%s` (from the repository root); elapsed %.0f s", command, total),
  "- data: k = 10 planted row groups, columns in 10 blocks; each row draws `per_row` columns (50, or 100 at 1e5 rows), from its block with probability 1 - noise, else uniformly",
  "", "## Recovery (NMI of row clusters) as noise grows", "",
  "sib: 3 restarts (1 at 1e5 rows), at most 30 passes; itcc(10, 10): 3 restarts; aib cut at 10 clusters. `sib s` is the whole call (conversion, all restarts). `-`: not run at that size.", "",
  md_table(rec, 3), "",
  "## Sequential IB time per pass (noise 0.8, k = 10)", "",
  sprintf("Median over the passes of %d runs of 5 passes; peer: one sparse product `x %%*%% Q`, Q dense m x k (median of %d).",
          n_repeats, n_repeats), "",
  md_table(speed, 3), "",
  "## Summary", "",
  sprintf("- sib at %s x %s, %s density (%s non-zeros), k = 10: **%s s per pass** (target: under 10 s) -> %s",
          big$rows, big$cols, big$density, big$nnz, fmt(big$`sib s / pass`, 2),
          if (big$`sib s / pass` < 10) "**met**" else "**not met**"),
  sprintf("- cost per pass grows with the non-zeros: %s ns per non-zero and cluster across the three sizes",
          paste(fmt(speed$`ns / (nnz k)`, 2), collapse = ", "))
)
write_md_section(out_file, "info-bottleneck", lines, preamble = character(0))
cat(lines, sep = "\n")
