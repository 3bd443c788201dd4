# The constrained k-means family (COP-k-means, PCK-means, MPCK-means, LCVQE)
# on the TVClust paper's UCI protocol (Khashabi et al. 2015, Section 5.2 and
# Tables 1-3), beside the paper's MPCK-means and LCVQE rows and beside
# conclust's implementations run on the same draws.
#
# Run from the repository root, with sideclust (and optionally conclust):
#   Rscript bench/constrained-kmeans-uci.R
#   BENCH_TRIALS=2 Rscript bench/constrained-kmeans-uci.R   # fewer trials
#
# Protocol
# * data: iris, wine, ecoli, glass (without its leaking id column), balance;
#   features standardized with scale(); k = number of classes.
# * side information: sample_constraints(y, protocol = "tvclust", rate = r,
#   noise = 1 - p, pair_count = "authors") -- round(r n^2) random ordered
#   pairs as in the authors' code; r in {0.01, 0.03, 0.05},
#   p in {1, 0.95, 0.9, 0.8}; 5 trials per setting. All confidences are 1.
# * seeds: trial t of data set d, rate index ir and accuracy index ip uses
#   set.seed(10000 d + 1000 ir + 100 ip + t) (the seeds of
#   bench/rdp-means-uci.R, so the draws are the RDP-means bench's); every
#   method then runs in turn on the same RNG stream.
# * ours, with their defaults (10 restarts): cop_kmeans(infeasible =
#   "nearest") (noisy pairs are usually infeasible as hard constraints),
#   pck_means(), mpck_means() (diagonal metrics), lcvqe().
# * conclust (when installed): ckmeans (COP-k-means; returns no partition
#   when a point cannot be placed: counted as a failure), mpckm, lcvqe, each
#   with its defaults, one random start, stopped after `conclust_limit`
#   seconds (a failure). conclust is plain R (its mpckm and ckmeans took
#   about 2 minutes each on 1000 points and 1000 pairs here), so it runs
#   only on the first trial of the r = 0.01 settings (about 0.01 n^2 pairs);
#   the comparison table sets our methods on the same draws beside it.
# * metrics: compare_partitions() -> pairwise F-measure, ARI, NMI (sqrt).

library(sideclust)
source(file.path("bench", "utils.R"))

out_file <- file.path("bench", "results", "constrained-kmeans-uci.md")
command <- bench_command("bench/constrained-kmeans-uci.R", "BENCH_TRIALS")
has_conclust <- requireNamespace("conclust", quietly = TRUE)
rates <- c(0.01, 0.03, 0.05)
accuracies <- c(1, 0.95, 0.9, 0.8)
n_trials <- as.integer(Sys.getenv("BENCH_TRIALS", "5"))
conclust_limit <- 30
conclust_trials <- 1L
conclust_rates <- 0.01
datasets <- tvclust_paper_datasets()

trial_seed <- function(d, ir, ip, t) 10000L * d + 1000L * ir + 100L * ip + t

ours <- list(
  `COP-k-means` = function(x, side, k) cop_kmeans(x, side, k, infeasible = "nearest")$cluster,
  `PCK-means` = function(x, side, k) pck_means(x, side, k)$cluster,
  `MPCK-means` = function(x, side, k) mpck_means(x, side, k)$cluster,
  LCVQE = function(x, side, k) lcvqe(x, side, k)$cluster)

conclust_call <- function(f) {
  function(x, side, k) {
    must <- cbind(side$i, side$j)[side$must, , drop = FALSE]
    cannot <- cbind(side$i, side$j)[!side$must, , drop = FALSE]
    setTimeLimit(elapsed = conclust_limit, transient = TRUE)
    on.exit(setTimeLimit(elapsed = Inf))
    out <- tryCatch(suppressWarnings(f(x, k, must, cannot)), error = function(e) NULL)
    if (length(out) != nrow(x)) NULL else out
  }
}
peers <- if (has_conclust) list(
  `conclust::ckmeans` = conclust_call(conclust::ckmeans),
  `conclust::mpckm` = conclust_call(conclust::mpckm),
  `conclust::lcvqe` = conclust_call(conclust::lcvqe)) else list()

run_one <- function(f, x, side, k, y) {
  t0 <- proc.time()[["elapsed"]]
  cluster <- tryCatch(f(x, side, k), error = function(e) NULL)
  secs <- proc.time()[["elapsed"]] - t0
  if (is.null(cluster)) return(c(F = NA, ARI = NA, NMI = NA, seconds = secs, failed = 1))
  m <- compare_partitions(y, cluster)
  c(F = m[["f_measure"]], ARI = m[["ari"]], NMI = m[["nmi"]], seconds = secs, failed = 0)
}

t_start <- proc.time()[["elapsed"]]
rows <- list()
for (d in seq_along(datasets)) {
  ds <- datasets[[d]]
  for (ir in seq_along(rates)) for (ip in seq_along(accuracies)) for (t in seq_len(n_trials)) {
    set.seed(trial_seed(d, ir, ip, t))
    side <- sample_constraints(ds$y, protocol = "tvclust", rate = rates[ir],
                               noise = 1 - accuracies[ip], pair_count = "authors")
    side$confidence[] <- 1
    methods <- c(ours, if (rates[ir] %in% conclust_rates && t <= conclust_trials) peers)
    for (m in names(methods)) {
      r <- run_one(methods[[m]], ds$x, side, ds$k, ds$y)
      rows[[length(rows) + 1L]] <- data.frame(method = m, dataset = names(datasets)[d],
        r = rates[ir], p = accuracies[ip], trial = t, t(r), stringsAsFactors = FALSE)
    }
  }
  cat(sprintf("%-8s done (%.0f s)\n", names(datasets)[d], proc.time()[["elapsed"]] - t_start))
}
res <- do.call(rbind, rows)
method_order <- c(names(ours), names(peers))

mean_ok <- function(v) if (all(is.na(v))) NA_real_ else mean(v, na.rm = TRUE)
summarise <- function(df, by) {
  keys <- interaction(df[by], drop = TRUE, lex.order = TRUE)
  out <- do.call(rbind, lapply(split(df, keys), function(g) {
    data.frame(g[1L, by, drop = FALSE], F = mean_ok(g$F), ARI = mean_ok(g$ARI),
               NMI = mean_ok(g$NMI), failures = as.integer(sum(g$failed)), runs = nrow(g),
               seconds = mean(g$seconds), row.names = NULL)
  }))
  out[do.call(order, lapply(by, function(b) {
    if (b == "method") match(out$method, method_order) else out[[b]]
  })), ]
}

# The paper's rows (Tables 1 and 2: averaged over r and the data sets).
paper_by_p <- data.frame(
  method = rep(c("MPCKMeans (paper)", "LCVQE (paper)"), each = 4), p = rep(accuracies, 2),
  F = c(0.94, 0.46, 0.44, 0.41, 0.83, 0.64, 0.58, 0.50),
  ARI = c(0.91, 0.14, 0.10, 0.04, 0.76, 0.48, 0.39, 0.27),
  NMI = c(0.90, 0.17, 0.12, 0.07, 0.79, 0.53, 0.45, 0.35))
paper_by_data <- data.frame(
  method = rep(c("MPCKMeans (paper)", "LCVQE (paper)"), each = 5),
  dataset = rep(names(datasets), 2),
  F = c(0.53, 0.54, 0.57, 0.46, 0.70, 0.73, 0.57, 0.61, 0.64, 0.62),
  ARI = c(0.29, 0.30, 0.33, 0.30, 0.26, 0.58, 0.35, 0.52, 0.55, 0.38),
  NMI = c(0.30, 0.30, 0.33, 0.36, 0.28, 0.60, 0.39, 0.61, 0.66, 0.37))

all_r <- res[!grepl("conclust", res$method), ]
by_p <- summarise(all_r, c("p", "method"))
by_data <- summarise(all_r, c("dataset", "method"))
by_rp <- summarise(all_r, c("r", "p", "method"))
peer_cmp <- summarise(res[res$r %in% conclust_rates & res$trial <= conclust_trials, ],
                      c("p", "method"))

with_paper <- function(ours_tab, paper, by) {
  paper$failures <- NA_integer_
  paper$runs <- NA_integer_
  paper$seconds <- NA_real_
  both <- rbind(ours_tab[c(by, "method", "F", "ARI", "NMI", "failures", "runs", "seconds")],
                paper[c(by, "method", "F", "ARI", "NMI", "failures", "runs", "seconds")])
  both[order(match(both[[by]], unique(ours_tab[[by]]))), ]
}

lines <- c("# The constrained k-means family on the TVClust paper's UCI protocol", "",
  bench_header(command, command_note = sprintf("; run time %.0f s",
                                                proc.time()[["elapsed"]] - t_start)),
  sprintf("- conclust: %s", if (has_conclust) as.character(utils::packageVersion("conclust"))
          else "not installed"),
  sprintf("- protocol: see the comment at the top of `bench/constrained-kmeans-uci.R`; %d trials per data set, r and p; true k.", n_trials),
  "- `(paper)` rows: Khashabi et al. (2015), Tables 1 and 2 (their MPCK-means run used only the first two features of each data set).",
  "- failures: runs that returned no partition (excluded from the means).",
  "",
  "## By accuracy p (averaged over the data sets and r), with the paper's Table 2 rows", "",
  md_table(with_paper(by_p, paper_by_p, "p"), 2), "",
  "## By data set (averaged over r and p), with the paper's Table 1 rows", "",
  md_table(with_paper(by_data, paper_by_data, "dataset"), 2), "",
  "## By r and p (as the paper's Table 3)", "",
  md_table(by_rp[c("r", "p", "method", "F", "ARI", "NMI", "failures")], 2), "",
  sprintf("## Against conclust on the same draws (r = %s, averaged over the data sets)",
          paste(conclust_rates, collapse = ", ")), "",
  md_table(peer_cmp[c("p", "method", "F", "ARI", "NMI", "failures", "runs", "seconds")], 2), "")
dir.create(dirname(out_file), showWarnings = FALSE, recursive = TRUE)
writeLines(lines, out_file)
cat(lines, sep = "\n")
