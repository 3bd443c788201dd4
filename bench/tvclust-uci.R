# TVClust (collapsed Gibbs, this package) on the UCI data sets: the TVClust
# paper's Section 5.2 protocol (Khashabi et al. 2015, Tables 1-3), next to
# the paper's TVClust (variational) and RDP-means rows and this package's
# rdp_means() on the same constraints.
#
# Run from the repository root, with sideclust installed:
#   Rscript bench/tvclust-uci.R
#   BENCH_TRIALS=2 BENCH_ITER=300 Rscript bench/tvclust-uci.R   # quicker
#
# Protocol
# * data: iris, wine, ecoli, glass (without its leaking id), balance;
#   standardized with scale().
# * side information: sample_constraints(y, protocol = "tvclust", rate = r,
#   noise = 1 - p, pair_count = "authors"), r in {0.01, 0.03, 0.05},
#   p in {1, 0.95, 0.9, 0.8}, 5 trials; the same seeds as
#   bench/rdp-means-uci.R (set.seed(10000 d + 1000 ir + 100 ip + t)), so the
#   constraints are the ones RDP-means saw there.
# * tvclust(x, side) with its defaults (gaussian family, default prior, p and
#   q sampled under Beta(1, 1), alpha = 1, split-merge and chunklet moves),
#   2 chains of BENCH_ITER sweeps (half burn-in) on 2 threads; the point
#   estimate (least expected Binder loss) is scored. TVClust is not told k.
# * rdp_means(x, side, k = true k) with its defaults, after tvclust().
# * metrics: compare_partitions() -> pairwise F-measure, ARI, NMI (sqrt).
#
# Part "variational" (its own section): tvclust(x, side, method =
# "variational") on the same constraints (same seeds), with its defaults
# (k = 5 clusters around k-means++ seeds, not the true k; 1 run,
# truncation 20, p and q learned under Beta(1, 1), delete moves), and once
# more told the true k; scored like the Gibbs fit, beside the paper's
# "TVClust (variational)" rows.
#   BENCH_PARTS=variational Rscript bench/tvclust-uci.R   # this part only
#
# Part "defaults" (its own section; code in bench/tvclust-defaults.R): the
# defaults of both methods on the five data sets and on ionosphere,
# segmentation, user_knowledge and vertebral, with the number of clusters and
# F side by side with rdp_means() on the same pairs, and with an older build
# (BENCH_OLD_LIB, a library path) on the same pairs.
#   BENCH_OLD_LIB=/work/lib-m7 BENCH_PARTS=defaults Rscript bench/tvclust-uci.R

library(sideclust)
source(file.path("bench", "utils.R"))

out_file <- file.path("bench", "results", "tvclust-uci.md")
parts <- bench_parts(c("gibbs", "variational", "defaults"))
n_trials <- as.integer(Sys.getenv("BENCH_TRIALS", "5"))
iter <- as.integer(Sys.getenv("BENCH_ITER", "500"))
command <- "Rscript bench/tvclust-uci.R"
if (n_trials != 5L || iter != 500L) {
  command <- sprintf("BENCH_TRIALS=%d BENCH_ITER=%d %s", n_trials, iter, command)
}
rates <- c(0.01, 0.03, 0.05)
accuracies <- c(1, 0.95, 0.9, 0.8)
datasets <- tvclust_paper_datasets()

# The paper's TVClust (variational) and RDP-means rows: Table 2 (per p) and
# the Table 1 average.
paper <- data.frame(
  method = rep(c("paper TVClust (variational)", "paper RDP-means"), each = 5),
  p = rep(c("1", "0.95", "0.9", "0.8", "average"), 2),
  F = c(0.77, 0.75, 0.73, 0.68, 0.74, 0.93, 0.92, 0.87, 0.75, 0.87),
  ARI = c(0.69, 0.66, 0.63, 0.56, 0.64, 0.90, 0.89, 0.82, 0.65, 0.81),
  NMI = c(0.74, 0.72, 0.69, 0.64, 0.70, 0.89, 0.87, 0.79, 0.62, 0.79))

score <- function(method, dataset, r, p, t, y, cluster, extra = list()) {
  m <- compare_partitions(y, cluster)
  data.frame(method = method, dataset = dataset, r = r, p = p, trial = t,
             F = m[["f_measure"]], ARI = m[["ari"]], NMI = m[["nmi"]],
             K = length(unique(cluster)), extra, stringsAsFactors = FALSE)
}

if ("gibbs" %in% parts) {
rows <- list()
started <- proc.time()[["elapsed"]]
for (d in seq_along(datasets)) {
  ds <- datasets[[d]]
  name <- names(datasets)[d]
  for (ir in seq_along(rates)) for (ip in seq_along(accuracies)) for (t in seq_len(n_trials)) {
    set.seed(10000L * d + 1000L * ir + 100L * ip + t)
    side <- sample_constraints(ds$y, protocol = "tvclust", rate = rates[ir],
                               noise = 1 - accuracies[ip], pair_count = "authors")
    t0 <- proc.time()[["elapsed"]]
    fit <- tvclust(ds$x, side, iter = iter, chains = 2L, threads = 2L)
    seconds <- proc.time()[["elapsed"]] - t0
    rows[[length(rows) + 1L]] <- score("tvclust", name, rates[ir], accuracies[ip], t, ds$y,
                                       fit$cluster,
                                       list(p_hat = fit$p, q_hat = fit$q,
                                            rhat_k = fit$rhat[["k"]], seconds = seconds))
    rdp <- rdp_means(ds$x, side, k = ds$k)
    rows[[length(rows) + 1L]] <- score("rdp_means", name, rates[ir], accuracies[ip], t, ds$y,
                                       rdp$cluster,
                                       list(p_hat = NA, q_hat = NA, rhat_k = NA, seconds = NA))
  }
  cat(sprintf("%s done (%.0f s)\n", name, proc.time()[["elapsed"]] - started))
}
res <- do.call(rbind, rows)

avg <- function(df, by) stats::aggregate(df[c("F", "ARI", "NMI", "K")], df[by], mean)
per_p <- avg(res, c("method", "p"))
per_p$p <- as.character(per_p$p)
overall <- avg(res, "method")
overall$p <- "average"
ours <- rbind(per_p, overall[names(per_p)])
ours$method <- ifelse(ours$method == "tvclust", "tvclust (this package)", "rdp_means (this package)")
table_p <- rbind(ours[c("method", "p", "F", "ARI", "NMI")], paper)
table_p <- table_p[order(match(table_p$p, c("1", "0.95", "0.9", "0.8", "average")),
                         table_p$method), ]
per_data <- avg(res, c("method", "dataset"))
per_r <- avg(res[res$method == "tvclust", ], c("r", "p"))
tv <- res[res$method == "tvclust", ]
learned <- stats::aggregate(tv[c("p_hat", "q_hat", "rhat_k", "seconds")], tv["p"], stats::median)

drop <- function(m) {
  f <- per_p$F[per_p$method == m]
  f[per_p$p[per_p$method == m] == "1"] - f[per_p$p[per_p$method == m] == "0.8"]
}
tv_avg <- overall[overall$method == "tvclust", ]
verdict <- c(
  sprintf("- TVClust point estimate, average over all settings: F %s / ARI %s / NMI %s (paper's variational TVClust 0.74 / 0.64 / 0.70; target F >= 0.80): %s.",
          fmt(tv_avg$F), fmt(tv_avg$ARI), fmt(tv_avg$NMI), if (tv_avg$F >= 0.80) "met" else "NOT met"),
  sprintf("- F lost from p = 1 to p = 0.8: TVClust %s, RDP-means (same constraints) %s: %s.",
          fmt(drop("tvclust")), fmt(drop("rdp_means")),
          if (drop("tvclust") < drop("rdp_means")) "TVClust degrades less (target met)" else "target NOT met"))

lines <- c(
  sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
  sprintf("- machine: %d cores, %s; %s", parallel::detectCores(), cpu_name(), R.version.string),
  sprintf("- sideclust %s (git %s)", as.character(utils::packageVersion("sideclust")), git_commit()),
  sprintf("- command: `%s`; %d trials, %d sweeps per chain (half burn-in), 2 chains; total %.0f s",
          command, n_trials, iter, proc.time()[["elapsed"]] - started),
  "", verdict, "",
  "## Per accuracy p (averaged over data sets and r), with the paper's rows", "",
  md_table(table_p), "",
  "## Per data set (averaged over r and p)", "", md_table(per_data), "",
  "## TVClust per r and p (averaged over data sets)", "", md_table(per_r), "",
  "## What TVClust learned (medians over runs): posterior means of p and q, split R-hat of K, seconds per run", "",
  md_table(learned), "")
write_md_section(out_file, "main", lines, preamble = c(
  "# TVClust on UCI data sets (TVClust paper, Section 5.2)", "",
  "Written by `bench/tvclust-uci.R`.", ""))
cat(lines, sep = "\n")
}

# ---- Part "variational" -----------------------------------------------------
if ("variational" %in% parts) {
  rows <- list()
  started <- proc.time()[["elapsed"]]
  for (d in seq_along(datasets)) {
    ds <- datasets[[d]]
    name <- names(datasets)[d]
    for (ir in seq_along(rates)) for (ip in seq_along(accuracies)) for (t in seq_len(n_trials)) {
      set.seed(10000L * d + 1000L * ir + 100L * ip + t)
      side <- sample_constraints(ds$y, protocol = "tvclust", rate = rates[ir],
                                 noise = 1 - accuracies[ip], pair_count = "authors")
      for (told in c(FALSE, TRUE)) {
        t0 <- proc.time()[["elapsed"]]
        fit <- suppressWarnings(tvclust(ds$x, side, k = if (told) ds$k else 5L,
                                        method = "variational"))
        seconds <- proc.time()[["elapsed"]] - t0
        rows[[length(rows) + 1L]] <- score(
          if (told) "variational, told k" else "variational", name, rates[ir], accuracies[ip],
          t, ds$y, fit$cluster,
          list(p_hat = fit$p, q_hat = fit$q, sweeps = fit$iterations, seconds = seconds))
      }
    }
    cat(sprintf("%s done (%.0f s)\n", name, proc.time()[["elapsed"]] - started))
  }
  res <- do.call(rbind, rows)
  avg <- function(df, by) stats::aggregate(df[c("F", "ARI", "NMI", "K")], df[by], mean)
  per_p <- avg(res, c("method", "p"))
  per_p$p <- as.character(per_p$p)
  overall <- avg(res, "method")
  overall$p <- "average"
  ours <- rbind(per_p, overall[names(per_p)])
  ours$method <- sprintf("tvclust %s (this package)", ours$method)
  table_p <- rbind(ours[c("method", "p", "F", "ARI", "NMI")],
                   paper[paper$method == "paper TVClust (variational)", ])
  table_p <- table_p[order(match(table_p$p, c("1", "0.95", "0.9", "0.8", "average")),
                           table_p$method), ]
  per_data <- avg(res, c("method", "dataset"))
  per_r <- avg(res[res$method == "variational", ], c("r", "p"))
  learned <- stats::aggregate(res[c("p_hat", "q_hat", "sweeps", "seconds")], res[c("method", "p")],
                              stats::median)
  vb_avg <- overall[overall$method == "variational", ]
  told_avg <- overall[overall$method == "variational, told k", ]
  verdict <- sprintf(
    "- Variational TVClust (defaults, not told k), average over all settings: F %s / ARI %s / NMI %s; told the true k: F %s (paper's TVClust (variational): 0.74 / 0.64 / 0.70; goal F above 0.74): %s.",
    fmt(vb_avg$F), fmt(vb_avg$ARI), fmt(vb_avg$NMI), fmt(told_avg$F),
    if (vb_avg$F > 0.74) "met" else "NOT met")
  lines <- c(
    bench_header(bench_command("bench/tvclust-uci.R"), shared_cores = TRUE,
                 sprintf("; %d trials; total %.0f s", n_trials, proc.time()[["elapsed"]] - started)),
    "", verdict, "",
    "## Variational TVClust per accuracy p (averaged over data sets and r), with the paper's row", "",
    md_table(table_p), "",
    "## Per data set (averaged over r and p)", "", md_table(per_data), "",
    "## Variational TVClust (defaults) per r and p (averaged over data sets)", "",
    md_table(per_r), "",
    "## What the variational fit learned (medians over runs): means of q(p) and q(q), sweeps of the restart kept (split and delete moves included), seconds per fit (all restarts)", "",
    md_table(learned), "")
  write_md_section(out_file, "variational", lines, preamble = c(
    "# TVClust on UCI data sets (TVClust paper, Section 5.2)", "",
    "Written by `bench/tvclust-uci.R`.", ""))
  cat(lines, sep = "\n")
}

# ---- Part "defaults" ---------------------------------------------------------
if ("defaults" %in% parts) {
  source(file.path("bench", "tvclust-defaults.R"))
  defaults_results <- run_defaults(n_trials, iter, Sys.getenv("BENCH_OLD_LIB"), out_file)
}
