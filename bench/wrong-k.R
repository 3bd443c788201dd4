# Sensitivity to a wrong number of clusters: Figure 3 of the TVClust paper
# (Khashabi et al. 2015, Section 5.2) on its five UCI data sets.
#
# Run from the repository root, with sideclust installed:
#   Rscript bench/wrong-k.R
#   BENCH_TRIALS=3 Rscript bench/wrong-k.R     # fewer trials, faster
# Writes bench/results/wrong-k.md and bench/results/wrong-k.png.
#
# Protocol
# * data: iris, wine, ecoli, glass, balance (tvclust_paper_datasets():
#   features scale()d); k = number of classes.
# * every method is told k - deviation clusters, deviation in
#   {-3, -2, -1, 0, 1, 2, 3}; settings with k - deviation < 1 are dropped
#   (the paper dropped deviation 3 where k = 3).
# * side information: p = 1 (no noise), r = 0.03, sample_constraints(y,
#   rate = 0.03, pair_count = "authors") as in bench/rdp-means-uci.R; drawn
#   once per (data set, trial) and shared by every deviation and method.
# * trials: 5 (as the paper; about 4 minutes here, BENCH_TRIALS=3 for fewer),
#   trial t of data set d draws its constraints after set.seed(100 d + t), and
#   every (method, deviation) starts from set.seed(100000 d + 1000 t + 10 i + j)
#   (i: deviation index, j: method index).
# * methods: stats::kmeans(x, k', nstart = 10); dp_means(x, k = k') and
#   rdp_means(x, side, k = k') (lambda from k' by farthest-first, so k'
#   moves lambda only); tvclust(x, side, k = k', iter = 200, chains = 1)
#   (k' is the starting number of clusters of the Gibbs sampler);
#   cop_kmeans (infeasible = "nearest"), pck_means, mpck_means, lcvqe with
#   k = k' and their defaults. A run that stops with an error is missing.
# * metric: pairwise F-measure, averaged over the trials.

library(sideclust)
source(file.path("bench", "utils.R"))

n_trials <- as.integer(Sys.getenv("BENCH_TRIALS", "5"))
deviations <- -3:3
out_md <- file.path("bench", "results", "wrong-k.md")
out_png <- file.path("bench", "results", "wrong-k.png")

methods <- list(
  `k-means` = function(x, side, k) stats::kmeans(x, k, nstart = 10)$cluster,
  `DP-means` = function(x, side, k) dp_means(x, k = k)$cluster,
  `RDP-means` = function(x, side, k) rdp_means(x, side, k = k)$cluster,
  TVClust = function(x, side, k) tvclust(x, side, k = k, iter = 200, chains = 1, threads = 1)$cluster,
  `COP-k-means` = function(x, side, k) cop_kmeans(x, side, k, infeasible = "nearest")$cluster,
  `PCK-means` = function(x, side, k) pck_means(x, side, k)$cluster,
  `MPCK-means` = function(x, side, k) mpck_means(x, side, k)$cluster,
  LCVQE = function(x, side, k) lcvqe(x, side, k)$cluster
)

datasets <- tvclust_paper_datasets()
start <- Sys.time()
rows <- list()
for (d in seq_along(datasets)) {
  ds <- datasets[[d]]
  for (t in seq_len(n_trials)) {
    set.seed(100L * d + t)
    side <- sample_constraints(ds$y, rate = 0.03, pair_count = "authors")
    for (i in seq_along(deviations)) {
      k_used <- ds$k - deviations[i]
      if (k_used < 1L) next
      for (j in seq_along(methods)) {
        set.seed(100000L * d + 1000L * t + 10L * i + j)
        t0 <- proc.time()[["elapsed"]]
        cl <- tryCatch(suppressWarnings(methods[[j]](ds$x, side, k_used)), error = function(e) NULL)
        rows[[length(rows) + 1L]] <- data.frame(
          dataset = names(datasets)[d], trial = t, deviation = deviations[i],
          method = names(methods)[j],
          F = if (is.null(cl)) NA_real_ else f_measure(ds$y, cl),
          seconds = proc.time()[["elapsed"]] - t0)
      }
    }
    message(sprintf("%s trial %d done (%.0f s)", names(datasets)[d], t,
                    as.numeric(difftime(Sys.time(), start, units = "secs"))))
  }
}
res <- do.call(rbind, rows)
elapsed <- as.numeric(difftime(Sys.time(), start, units = "secs"))

avg <- stats::aggregate(F ~ dataset + method + deviation, res, mean, na.action = stats::na.pass)
missing <- stats::aggregate(is.na(F) ~ dataset + method + deviation, res, sum)
overall <- stats::aggregate(F ~ method + deviation, avg, mean)

wide <- function(df, id) {
  tab <- stats::reshape(df, idvar = id, timevar = "deviation", direction = "wide")
  names(tab) <- sub("^F\\.", "dev ", names(tab))
  rownames(tab) <- NULL
  tab
}
method_order <- function(df) df[order(match(df$method, names(methods))), , drop = FALSE]
overall_tab <- method_order(wide(overall, "method"))
per_set <- lapply(names(datasets), function(nm) {
  tab <- method_order(wide(avg[avg$dataset == nm, c("method", "deviation", "F")], "method"))
  c(sprintf("### %s (k = %d)", nm, datasets[[nm]]$k), "", md_table(tab), "")
})
seconds <- stats::aggregate(seconds ~ method, res, stats::median)

# Figure: F against deviation, one panel per data set plus the average.
grDevices::png(out_png, width = 1500, height = 950, res = 120)
graphics::par(mfrow = c(2, 3), mar = c(4, 4, 2.5, 1))
colours <- c("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666")
panel <- function(df, title) {
  graphics::plot(NA, xlim = range(deviations), ylim = c(0, 1), xlab = "deviation (k used = k - deviation)",
                 ylab = "F-measure", main = title)
  for (j in seq_along(methods)) {
    s <- df[df$method == names(methods)[j], ]
    s <- s[order(s$deviation), ]
    graphics::lines(s$deviation, s$F, col = colours[j], lwd = 2, type = "b", pch = j)
  }
}
for (nm in names(datasets)) panel(avg[avg$dataset == nm, ], nm)
panel(overall, "average over the data sets")
graphics::legend("bottomleft", legend = names(methods), col = colours, lwd = 2, pch = seq_along(methods),
                 cex = 0.75, bg = "white")
grDevices::dev.off()

lines <- c(
  "# Sensitivity to a wrong k (TVClust paper, Figure 3)",
  "",
  "Written by `bench/wrong-k.R`.",
  "",
  bench_header(bench_command("bench/wrong-k.R", "BENCH_TRIALS"), shared_cores = TRUE,
               sprintf("; elapsed %.0f s", elapsed)),
  sprintf("- p = 1, r = 0.03 (authors' pair count), %d trials per setting (the paper: 5), deviation in {%s}; k - deviation < 1 dropped",
          n_trials, paste(deviations, collapse = ", ")),
  sprintf("- runs that stopped with an error: %d of %d (%s)", sum(is.na(res$F)), nrow(res),
          if (any(is.na(res$F))) paste(unique(res$method[is.na(res$F)]), collapse = ", ") else "none"),
  "- protocol and seeds: see the header of bench/wrong-k.R. Figure: bench/results/wrong-k.png.",
  "",
  "## F-measure averaged over the data sets, by deviation",
  "",
  "(Averages over the data sets present at each deviation: deviation 3 and 2 leave out the data sets with k = 3 where k - deviation < 1.)",
  "",
  md_table(overall_tab),
  "",
  "## Per data set (mean over the trials)",
  "",
  unlist(per_set),
  "## Median seconds per run",
  "",
  md_table(method_order(seconds)),
  ""
)
writeLines(lines, out_md)
message("wrote ", out_md, " and ", out_png)
