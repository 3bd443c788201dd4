# Nelson & Cohen (2007), Experiment 1 (Section 5.2, Figure 2): toy data of 3
# overlapping bivariate Gaussians x 200 points; 100 and 800 constraints (half
# must-links, half cannot-links) with a fraction E in {0, .05, .1, .25}
# misspecified and confidences P ~ Beta(5, 1) (correct) or Beta(1, 5) (wrong)
# (sample_constraints(protocol = "nelson_cohen")); every method started from
# the true labels, unit covariances and equal weights (centroid estimation);
# mean NMI (I / sqrt(H1 H2)) with 99% intervals.
#
# Run from the repository root with sideclust installed:
#   Rscript bench/constrained-mixture-toy.R
#   BENCH_TRIALS=100 BENCH_CORES=2 Rscript bench/constrained-mixture-toy.R
# Trial t uses set.seed(1000 * t + 10 * s + e) for setting s and error e, so
# results do not depend on the number of cores.

library(sideclust)
source(file.path("bench", "utils.R"))
source(file.path("bench", "constrained-mixture-utils.R"))

n_trials <- as.integer(Sys.getenv("BENCH_TRIALS", "30"))
n_cores <- as.integer(Sys.getenv("BENCH_CORES", "1"))
out_file <- file.path("bench", "results", "constrained-mixture-toy.md")
png_file <- file.path("bench", "results", "constrained-mixture-toy.png")
command <- cm_command("bench/constrained-mixture-toy.R", c("BENCH_TRIALS", "BENCH_CORES"))

# The data set (one draw, as the paper's Figure 1): three overlapping,
# elongated clusters that no mixture of unit-variance Gaussians fits exactly.
toy_data <- function() {
  set.seed(20070620)
  means <- rbind(c(0, 0), c(3.5, 0), c(1.75, 3))
  covs <- list(matrix(c(2, 0.9, 0.9, 1), 2), matrix(c(1, -0.7, -0.7, 2), 2),
               matrix(c(2.5, 0, 0, 0.6), 2))
  x <- do.call(rbind, lapply(1:3, function(a) {
    z <- matrix(stats::rnorm(400), 200, 2)
    sweep(z %*% chol(covs[[a]]), 2, means[a, ], "+")
  }))
  list(x = x, y = rep(1:3, each = 200))
}
toy <- toy_data()

settings <- c(100L, 800L)
errors <- c(0, 0.05, 0.1, 0.25)

run_trial <- function(t) {
  out <- list()
  for (s in seq_along(settings)) {
    for (e in seq_along(errors)) {
      set.seed(1000L * t + 10L * s + e)
      side <- sample_constraints(toy$y, "nelson_cohen", n_constraints = settings[s],
                                 noise = errors[e])
      for (m in names(cm_methods)) {
        r <- run_cm_method(m, toy$x, side, 3L, toy$y)
        out[[length(out) + 1L]] <- data.frame(
          trial = t, constraints = settings[s], error = errors[e], method = m,
          nmi = nmi(toy$y, r$cluster), estep = r$estep, iterations = r$iterations)
      }
    }
  }
  do.call(rbind, out)
}

t0 <- Sys.time()
res <- if (n_cores > 1L) {
  do.call(rbind, parallel::mclapply(seq_len(n_trials), run_trial, mc.cores = n_cores))
} else {
  do.call(rbind, lapply(seq_len(n_trials), run_trial))
}
elapsed <- as.numeric(difftime(Sys.time(), t0, units = "secs"))

s <- summarize_nmi(res, c("constraints", "error", "method"))
s$constraints <- as.integer(s$constraints)
tab <- wide_table(s, "constraints")
tab <- tab[order(tab$constraints, as.numeric(tab$error)), ]
print(tab, row.names = FALSE)
plot_nmi(s, "constraints", png_file, "constraints: ")

# which chunklet posteriors were exact
estep_tab <- exact_share(res, "constraints")
notes <- c(cm_notes,
  "- The toy data are our own draw of three overlapping elongated Gaussians (the paper gives no parameters), so absolute NMI values differ from its Figure 2.")

lines <- c(
  cm_header("# Constrained mixtures on toy data (Nelson & Cohen 2007, Experiment 1)",
            command, n_cores, n_trials, elapsed,
            "- data: 3 bivariate Gaussians x 200 points (means (0,0), (3.5,0), (1.75,3); covariances ((2,.9),(.9,1)), ((1,-.7),(-.7,2)), diag(2.5,.6)), one draw",
            "- constraints: `sample_constraints(y, \"nelson_cohen\", n_constraints, error)`: half must-links, half cannot-links, a fraction E flipped, P ~ Beta(5,1) if correct, Beta(1,5) if wrong",
            "true labels"), "",
  md_table(tab, 3), "",
  sprintf("Plot: `%s`.", basename(png_file)), "",
  "Share of fits whose chunklet posteriors were exact (otherwise mean field over chunklets):", "",
  md_table(estep_tab, 2), "",
  "## Reading against the paper", "",
  paper_checks(s, "constraints"),
  "", notes,
  "")
dir.create(dirname(out_file), showWarnings = FALSE, recursive = TRUE)
writeLines(lines, out_file)
utils::write.csv(s, file.path("bench", "results", "constrained-mixture-toy.csv"), row.names = FALSE)
cat(sprintf("\nwrote %s and %s (%.0f s)\n", out_file, png_file, elapsed))
