# RDP-means on the UCI data sets: the TVClust paper's Section 5.2 protocol
# (Khashabi et al. 2015, Tables 1-3), plus a study of the weight cap xi_max.
#
# Run from the repository root, with sideclust installed:
#   Rscript bench/rdp-means-uci.R
#   BENCH_PARTS=main Rscript bench/rdp-means-uci.R      # main tables only
#   BENCH_PARTS=xi_max Rscript bench/rdp-means-uci.R    # xi_max study only
# (or source("bench/rdp-means-uci.R") from R; the same environment variable
# selects the parts). Each part rewrites only its own section of
# bench/results/rdp-means-uci.md, so the other section is kept.
#
# Protocol
# * data: iris, wine, ecoli, glass (its leaking id column is already gone),
#   balance; features standardized with scale(); k = number of classes.
# * side information: sample_constraints(y, protocol = "tvclust", rate = r,
#   noise = 1 - p, pair_count = "authors") -- round(r n^2) random ordered
#   pairs as in the authors' code; r in {0.01, 0.03, 0.05},
#   p in {1, 0.95, 0.9, 0.8}; 5 trials per setting.
# * seeds: trial t (1..5) of data set d (1..5), rate index ir (1..3) and
#   accuracy index ip (1..4) uses set.seed(10000 * d + 1000 * ir + 100 * ip + t).
#   After set.seed, the constraints are drawn, the RNG state is saved, then
#   rdp_means() runs, then stats::kmeans() and dp_means(). The xi_max study
#   draws the same constraints and restores the same RNG state before every
#   rdp_means() call, so its xi_max = 10 column (the default) repeats the main table's
#   RDP-means runs exactly, and every xi_max sees identical inputs.
# * methods: stats::kmeans(x, k, nstart = 10); dp_means(x, k = k);
#   rdp_means(x, side, k = k) with the defaults (xi = 0.001, xi_rate = 2,
#   xi_max = 10, patience = 20, random order); lambda from k by
#   farthest-first (dp_lambda()'s default).
# * metrics: compare_partitions() -> pairwise F-measure, ARI, NMI (sqrt).

library(sideclust)
source(file.path("bench", "utils.R"))

parts <- strsplit(Sys.getenv("BENCH_PARTS", "main,xi_max"), ",")[[1]]
parts <- trimws(parts)
stopifnot(all(parts %in% c("main", "xi_max")))
out_file <- file.path("bench", "results", "rdp-means-uci.md")
command <- if (identical(Sys.getenv("BENCH_PARTS"), "")) {
  "Rscript bench/rdp-means-uci.R"
} else {
  sprintf("BENCH_PARTS=%s Rscript bench/rdp-means-uci.R", Sys.getenv("BENCH_PARTS"))
}

rates <- c(0.01, 0.03, 0.05)
accuracies <- c(1, 0.95, 0.9, 0.8)
n_trials <- as.integer(Sys.getenv("BENCH_TRIALS", "5"))  # 5 is the protocol
xi_max_grid <- c(Inf, 50, 20, 10, 5, 3, 2, 1.5, 1, 0.5, 0.2)
xi_max_accuracies <- c(1, 0.8)

datasets <- tvclust_paper_datasets()

trial_seed <- function(d, ir, ip, t) 10000L * d + 1000L * ir + 100L * ip + t

# One setting: the constraints and the RNG state right after drawing them.
draw_side <- function(ds, d, ir, ip, t) {
  set.seed(trial_seed(d, ir, ip, t))
  side <- sample_constraints(ds$y, protocol = "tvclust", rate = rates[ir],
                             noise = 1 - accuracies[ip], pair_count = "authors")
  list(side = side, state = .Random.seed)
}

metric_row <- function(method, dataset, r, p, trial, y, fit, extra = list()) {
  m <- compare_partitions(y, fit$cluster)
  out <- data.frame(method = method, dataset = dataset, r = r, p = p, trial = trial,
             F = m[["f_measure"]], ARI = m[["ari"]], NMI = m[["nmi"]],
             K = length(unique(fit$cluster)),
             iterations = if (is.null(fit$iterations)) fit$iter else fit$iterations,
             stringsAsFactors = FALSE)
  for (v in names(extra)) out[[v]] <- extra[[v]]
  out
}

# ---- markdown helpers ---------------------------------------------------------

# This script's tables format integer columns as numbers too.
md_table_rdp <- function(df, digits = 2) md_table(df, digits, format_integers = TRUE)

header_lines <- function() {
  commit <- git_commit()
  cpu <- cpu_name()
  c(sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
    sprintf("- machine: %d cores (parallel::detectCores()), %s; %s",
            parallel::detectCores(), cpu, R.version$platform),
    sprintf("- R: %s; sideclust %s (git %s)", R.version.string,
            as.character(utils::packageVersion("sideclust")), commit),
    sprintf("- command: `%s` (from the repository root)", command))
}

write_section <- function(name, lines) {
  write_md_section(out_file, name, lines, preamble =
    c("# RDP-means on UCI data sets (TVClust paper, Section 5.2)", "",
        "Written by `bench/rdp-means-uci.R`; each section is rewritten by its own part.", ""))
}

avg <- function(res, by) {
  stats::aggregate(res[c("F", "ARI", "NMI", "K")], res[by], mean)
}

# ---- the paper's numbers --------------------------------------------------------

# Table 1 (F, AdjRnd, NMI per data set, averaged over p and r).
paper_t1 <- rbind(
  data.frame(method = "kmeans", dataset = c("iris", "wine", "ecoli", "glass", "balance", "average"),
             F = c(0.81, 0.59, 0.61, 0.57, 0.47, 0.61),
             ARI = c(0.71, 0.36, 0.50, 0.47, 0.14, 0.44),
             NMI = c(0.74, 0.42, 0.63, 0.71, 0.12, 0.52)),
  data.frame(method = "dp_means", dataset = c("iris", "wine", "ecoli", "glass", "balance", "average"),
             F = c(0.74, 0.63, 0.71, 0.53, 0.31, 0.58),
             ARI = c(0.57, 0.37, 0.61, 0.29, 0.12, 0.39),
             NMI = c(0.69, 0.44, 0.64, 0.45, 0.21, 0.48)),
  data.frame(method = "rdp_means", dataset = c("iris", "wine", "ecoli", "glass", "balance", "average"),
             F = c(0.86, 0.81, 0.90, 0.82, 0.94, 0.87),
             ARI = c(0.80, 0.73, 0.86, 0.76, 0.92, 0.81),
             NMI = c(0.80, 0.72, 0.82, 0.73, 0.88, 0.79)))
# Table 2 (per p, averaged over data sets and r).
paper_t2 <- rbind(
  data.frame(method = "kmeans", p = c(1, 0.95, 0.9, 0.8),
             F = c(0.61, 0.60, 0.61, 0.61), ARI = c(0.44, 0.43, 0.43, 0.43),
             NMI = c(0.53, 0.52, 0.53, 0.52)),
  data.frame(method = "dp_means", p = c(1, 0.95, 0.9, 0.8),
             F = c(0.58, 0.59, 0.59, 0.58), ARI = c(0.39, 0.39, 0.40, 0.38),
             NMI = c(0.49, 0.48, 0.49, 0.48)),
  data.frame(method = "rdp_means", p = c(1, 0.95, 0.9, 0.8),
             F = c(0.93, 0.92, 0.87, 0.75), ARI = c(0.90, 0.89, 0.82, 0.65),
             NMI = c(0.89, 0.87, 0.79, 0.62)))
# Table 3, RDP-means rows only (per r and p, averaged over data sets).
paper_t3 <- data.frame(
  r = rep(rates, each = 4), p = rep(accuracies, 3),
  F = c(0.84, 0.79, 0.69, 0.56, 0.98, 0.98, 0.93, 0.77, 0.96, 0.99, 0.98, 0.91),
  ARI = c(0.77, 0.71, 0.58, 0.39, 0.98, 0.97, 0.90, 0.69, 0.96, 0.99, 0.97, 0.87),
  NMI = c(0.76, 0.68, 0.57, 0.41, 0.96, 0.94, 0.86, 0.63, 0.95, 0.98, 0.94, 0.82))
targets <- c(F = 0.84, ARI = 0.77, NMI = 0.77)

# Side by side: ours / paper for every metric.
side_by_side <- function(ours, paper, keys) {
  m <- merge(ours, paper, by = keys, suffixes = c("", ".paper"), sort = FALSE, all.x = TRUE)
  out <- m[keys]
  for (v in c("F", "ARI", "NMI")) {
    out[[v]] <- m[[v]]
    out[[paste0(v, " (paper)")]] <- m[[paste0(v, ".paper")]]
  }
  out
}

method_order <- c("kmeans", "kmeans_unscaled", "dp_means (before)", "dp_means", "rdp_means (before)",
                  "rdp_means", "rdp_means_default")
dataset_order <- c(names(datasets), "average")

# ---- main part: Tables 1-3 ------------------------------------------------------

# The runs of the main tables. `before = TRUE` runs only what the build before
# issue 45 could (k read as a hint for lambda): RDP-means and DP-means with k.
main_rows <- function(before = FALSE) {
  t_start <- proc.time()[["elapsed"]]
  rows <- list()
  for (d in seq_along(datasets)) {
    ds <- datasets[[d]]
    name <- names(datasets)[d]
    for (ir in seq_along(rates)) for (ip in seq_along(accuracies)) for (t in seq_len(n_trials)) {
      s <- draw_side(ds, d, ir, ip, t)
      rdp <- rdp_means(ds$x, s$side, k = ds$k)
      km <- stats::kmeans(ds$x, ds$k, nstart = 10)
      dp <- dp_means(ds$x, k = ds$k)
      r <- rates[ir]
      p <- accuracies[ip]
      extra <- list(converged = NA, pairs = length(s$side$i))
      rows[[length(rows) + 1L]] <- rbind(
        metric_row("kmeans", name, r, p, t, ds$y, km, extra),
        metric_row("dp_means", name, r, p, t, ds$y, dp, extra),
        metric_row("rdp_means", name, r, p, t, ds$y, rdp,
                   modifyList(extra, list(converged = rdp$converged))))
      if (!before) {
        # the default: no k, the number of clusters chosen from the side
        # information, from the same random state as rdp_means(k = k)
        assign(".Random.seed", s$state, envir = globalenv())
        def <- rdp_means(ds$x, s$side)
        rows[[length(rows) + 1L]] <- metric_row("rdp_means_default", name, r, p, t, ds$y, def,
                                                modifyList(extra, list(converged = def$converged)))
      }
    }
    # Reference only: k-means on the raw (unstandardized) features, 5 trials
    # (seed 10000 d + t); no side information, so no r or p.
    if (!before) for (t in seq_len(n_trials)) {
      set.seed(10000L * d + t)
      km <- stats::kmeans(ds$raw, ds$k, nstart = 10)
      rows[[length(rows) + 1L]] <- metric_row("kmeans_unscaled", name, NA, NA, t, ds$y, km,
                                              list(converged = NA, pairs = NA))
    }
    cat(sprintf("main%s: %-8s done (%.0f s)\n", if (before) " (before)" else "", name,
                proc.time()[["elapsed"]] - t_start))
  }
  rows
}

# The same runs with the build in BENCH_BEFORE_LIB (a library holding the
# package before issue 45), in a child R, as rows named "<method> (before)".
before_rows <- function(lib) {
  out <- tempfile(fileext = ".rds")
  env <- c(sprintf("R_LIBS=%s", lib), "BENCH_MODE=before", sprintf("BENCH_BEFORE_OUT=%s", out),
           sprintf("BENCH_TRIALS=%d", n_trials))
  status <- system2(file.path(R.home("bin"), "Rscript"), file.path("bench", "rdp-means-uci.R"), env = env)
  if (status != 0) stop("the run with BENCH_BEFORE_LIB failed")
  rows <- readRDS(out)
  lapply(rows, function(r) {
    r <- r[r$method != "kmeans", ]
    r$method <- paste(r$method, "(before)")
    r
  })
}

run_main <- function() {
  t_start <- proc.time()[["elapsed"]]
  rows <- main_rows()
  before_lib <- Sys.getenv("BENCH_BEFORE_LIB")
  if (nzchar(before_lib)) rows <- c(rows, before_rows(before_lib))
  res <- do.call(rbind, lapply(rows, function(r) r[c("method", "dataset", "r", "p", "trial",
                                                       "F", "ARI", "NMI", "K", "iterations")]))
  rdp_extra <- do.call(rbind, lapply(rows, function(r) r[r$method == "rdp_means",
                                                          c("dataset", "converged", "pairs")]))

  # (a) Table 1: per data set, averaged over p, r and trials.
  t1 <- avg(res, c("method", "dataset"))
  t1_avg <- stats::aggregate(t1[c("F", "ARI", "NMI", "K")], t1["method"], mean)
  t1_avg$dataset <- "average"
  t1 <- rbind(t1, t1_avg[names(t1)])
  t1 <- side_by_side(t1, paper_t1, c("method", "dataset"))
  t1 <- t1[order(match(t1$dataset, dataset_order), match(t1$method, method_order)), ]
  k_t1 <- avg(res[res$method != "kmeans_unscaled", ], c("method", "dataset"))
  k_t1 <- stats::reshape(k_t1[c("method", "dataset", "K")], idvar = "dataset",
                         timevar = "method", direction = "wide")
  names(k_t1) <- sub("^K\\.", "mean K, ", names(k_t1))
  k_t1$`true k` <- vapply(datasets[k_t1$dataset], `[[`, 1L, "k")
  k_t1 <- k_t1[order(match(k_t1$dataset, dataset_order)), ]

  # The number of clusters: mean K and mean absolute error |K - k| per data
  # set, with F, for RDP-means before issue 45 (k a hint), with k and by default.
  res$true_k <- vapply(datasets[res$dataset], `[[`, 1L, "k")
  res$abs_err <- abs(res$K - res$true_k)
  k_methods <- intersect(c("rdp_means (before)", "rdp_means", "rdp_means_default",
                           "dp_means (before)", "dp_means"), unique(res$method))
  k_sub <- res[res$method %in% k_methods, ]
  k_avg <- stats::aggregate(k_sub[c("K", "abs_err", "F")], k_sub[c("method", "dataset")], mean)
  k_tab <- data.frame(dataset = names(datasets),
                      `true k` = vapply(datasets, `[[`, 1L, "k"), check.names = FALSE)
  for (m in k_methods) for (v in c("K", "abs_err", "F")) {
    col <- k_avg[k_avg$method == m, ]
    label <- switch(v, K = "mean K", abs_err = "MAE k", F = "F")
    k_tab[[sprintf("%s, %s", label, m)]] <- col[[v]][match(k_tab$dataset, col$dataset)]
  }
  k_means <- colMeans(k_tab[-(1:2)])
  k_tab <- rbind(k_tab, cbind(data.frame(dataset = "average", `true k` = NA, check.names = FALSE),
                              as.data.frame(as.list(k_means), check.names = FALSE)))
  k_tab <- k_tab[c("dataset", "true k", grep("^mean K", names(k_tab), value = TRUE),
                   grep("^MAE", names(k_tab), value = TRUE), grep("^F", names(k_tab), value = TRUE))]
  mae_default <- k_means[["MAE k, rdp_means_default"]]
  f_default <- k_means[["F, rdp_means_default"]]
  f_before <- if ("F, rdp_means (before)" %in% names(k_means)) k_means[["F, rdp_means (before)"]] else NA
  target_lines <- c(
    sprintf("- target (issue 45, point 3): the default `rdp_means(x, side)` (no k) reaches a mean absolute error of k of at most 1.0 over the five data sets: **%.2f** (%s)",
            mae_default, if (mae_default <= 1) "met" else "NOT met"),
    sprintf("- with mean F no lower than before issue 45 (`rdp_means(x, side, k = k)`, k a hint for lambda): **%.3f** against %s (%s)",
            f_default, if (is.na(f_before)) "- (no BENCH_BEFORE_LIB run)" else sprintf("%.3f", f_before),
            if (is.na(f_before)) "not compared" else if (f_default >= f_before - 1e-12) "met" else "NOT met"))

  # (b) Table 2: per p, averaged over data sets, r and trials.
  t2 <- side_by_side(avg(res[res$method != "kmeans_unscaled", ], c("method", "p")),
                     paper_t2, c("method", "p"))
  t2 <- t2[order(-t2$p, match(t2$method, method_order)), ]

  # Table 3 (RDP-means): per r and p.
  t3 <- side_by_side(avg(res[res$method == "rdp_means", ], c("r", "p")), paper_t3, c("r", "p"))
  t3_default <- avg(res[res$method == "rdp_means_default", ], c("r", "p"))
  t3_default <- t3_default[order(t3_default$r, -t3_default$p), ]
  t3 <- t3[order(t3$r, -t3$p), ]

  # RDP-means per data set and p (where the gaps are).
  dsp <- avg(res[res$method %in% c("rdp_means (before)", "rdp_means", "rdp_means_default"), ],
             c("method", "dataset", "p"))
  dsp <- dsp[order(match(dsp$dataset, dataset_order), -dsp$p, match(dsp$method, method_order)), ]

  # (c) overall average of RDP-means.
  overall <- colMeans(res[res$method == "rdp_means", c("F", "ARI", "NMI")])
  overall_default <- colMeans(res[res$method == "rdp_means_default", c("F", "ARI", "NMI")])
  before <- res$method == "rdp_means (before)"
  overall_before <- if (any(before)) colMeans(res[before, c("F", "ARI", "NMI")]) else c(F = NA, ARI = NA, NMI = NA)
  t_overall <- data.frame(what = c("RDP-means with k, this run", "RDP-means default (no k), this run",
                                   "RDP-means with k as a hint (before issue 45), this run",
                                   "target (glass without id)", "paper (glass with its leaking id)"),
                          F = c(overall[["F"]], overall_default[["F"]], overall_before[["F"]], targets[["F"]], 0.87),
                          ARI = c(overall[["ARI"]], overall_default[["ARI"]], overall_before[["ARI"]], targets[["ARI"]], 0.81),
                          NMI = c(overall[["NMI"]], overall_default[["NMI"]], overall_before[["NMI"]], targets[["NMI"]], 0.79),
                          check.names = FALSE)
  conv <- mean(rdp_extra$converged)
  iters <- stats::aggregate(res$iterations[res$method == "rdp_means"],
                            list(dataset = res$dataset[res$method == "rdp_means"]),
                            function(v) sprintf("%.0f (%d-%d)", mean(v), min(v), max(v)))
  pairs <- stats::aggregate(rdp_extra["pairs"], rdp_extra["dataset"], mean)
  elapsed <- proc.time()[["elapsed"]] - t_start

  lines <- c(
    "## Main tables (paper's Tables 1-3)", "", header_lines(),
    sprintf("- trials: %d per (data set, r, p); %d settings x %d data sets = %d runs per method; elapsed %.0f s",
            n_trials, length(rates) * length(accuracies), length(datasets),
            sum(res$method == "rdp_means"), elapsed),
    "- protocol: features scale()d; `sample_constraints(y, \"tvclust\", rate = r, noise = 1 - p, pair_count = \"authors\")`;",
    "  `kmeans(x, k, nstart = 10)`, `dp_means(x, k = k)`, `rdp_means(x, side, k = k)` (defaults); seeds `10000 d + 1000 ir + 100 ip + t`.",
    "- `rdp_means` and `dp_means`: k is the number of clusters (lambda searched for k, issue 45).",
    "  `rdp_means_default`: `rdp_means(x, side)` without k (k chosen by held-out side information), from the same random state as `rdp_means`.",
    if (nzchar(before_lib)) sprintf("  `(before)` rows: the same runs with the build before issue 45 (k a hint for lambda), library `%s`, run in a child R by `BENCH_BEFORE_LIB`.", before_lib)
    else "  No `(before)` rows: run with `BENCH_BEFORE_LIB=<library of the earlier build>` to add them.",
    "- \"(paper)\" columns: Khashabi et al. (2015), Tables 1-3. The paper's glass kept the",
    "  row-id column (sorted by class), which leaks the label; ours does not have it.",
    "- `kmeans_unscaled` (reference, Table 1 only): `kmeans(raw features, k, nstart = 10)`, 5 trials, seed `10000 d + t`.",
    "  The paper's K-means rows for iris and wine match it rather than k-means on scale()d features,",
    "  so the paper apparently clustered raw features.",
    "",
    "### The number of clusters (issue 45)", "",
    target_lines, "",
    "Mean K, mean absolute error of K (|K - true k|, averaged over runs) and F per data set, averaged over p, r and trials:", "",
    md_table_rdp(k_tab), "",
    "### (a) Per data set, averaged over p, r and trials (Table 1)", "",
    md_table_rdp(t1), "",
    "Mean number of clusters found (true k alongside):", "",
    md_table_rdp(k_t1), "",
    "Average distinct constraint pairs per run and RDP-means sweeps (mean (min-max)); ",
    sprintf("RDP-means met its stopping rule in %.0f%% of the runs.", 100 * conv), "",
    md_table_rdp(merge(pairs, stats::setNames(iters, c("dataset", "sweeps")), by = "dataset"), 0), "",
    "### (b) Per accuracy p, averaged over data sets, r and trials (Table 2)", "",
    md_table_rdp(t2), "",
    "### RDP-means per r and p, averaged over data sets (Table 3, RDP-means rows)", "",
    md_table_rdp(t3), "",
    "### RDP-means default (no k) per r and p, averaged over data sets", "",
    md_table_rdp(t3_default), "",
    "### RDP-means per data set and p (averaged over r and trials)", "",
    md_table_rdp(dsp), "",
    "### (c) Overall average of RDP-means (all data sets, r, p, trials)", "",
    md_table_rdp(t_overall), "")
  write_section("main", lines)
  cat(paste(lines, collapse = "\n"), "\n")
  invisible(res)
}

# ---- xi_max study ---------------------------------------------------------------

run_xi_max <- function() {
  t_start <- proc.time()[["elapsed"]]
  rows <- list()
  for (d in seq_along(datasets)) {
    ds <- datasets[[d]]
    name <- names(datasets)[d]
    for (ip in match(xi_max_accuracies, accuracies)) {
      for (ir in seq_along(rates)) for (t in seq_len(n_trials)) {
        s <- draw_side(ds, d, ir, ip, t)
        for (xm in xi_max_grid) {
          assign(".Random.seed", s$state, envir = globalenv())
          fit <- rdp_means(ds$x, s$side, k = ds$k, xi_max = xm)
          rows[[length(rows) + 1L]] <- metric_row("rdp_means", name, rates[ir],
                                                  accuracies[ip], t, ds$y, fit,
                                                  list(xi_max = xm))
        }
      }
    }
    cat(sprintf("xi_max: %-8s done (%.0f s)\n", name, proc.time()[["elapsed"]] - t_start))
  }
  res <- do.call(rbind, rows)
  tab <- avg(res, c("p", "xi_max"))
  tab <- tab[order(-tab$p, -tab$xi_max), ]
  by_ds <- avg(res, c("p", "xi_max", "dataset"))
  wide <- function(pp, metric) {
    w <- stats::reshape(by_ds[by_ds$p == pp, c("xi_max", "dataset", metric)],
                        idvar = "xi_max", timevar = "dataset", direction = "wide")
    names(w) <- sub(paste0("^", metric, "\\."), "", names(w))
    w[order(-w$xi_max), c("xi_max", names(datasets))]
  }
  by_r <- avg(res, c("p", "r", "xi_max"))
  by_r_w <- stats::reshape(by_r[c("p", "r", "xi_max", "F")], idvar = c("p", "xi_max"),
                           timevar = "r", direction = "wide")
  names(by_r_w) <- sub("^F\\.", "F, r = ", names(by_r_w))
  by_r_w <- by_r_w[order(-by_r_w$p, -by_r_w$xi_max), ]

  best <- function(pp) {
    sub <- tab[tab$p == pp, ]
    sub$xi_max[which.max(sub$F + sub$ARI + sub$NMI)]
  }
  b08 <- best(0.8)
  at <- function(pp, xm, v) tab[[v]][tab$p == pp & tab$xi_max == xm]
  summary_lines <- c(
    sprintf("- best xi_max for p = 0.8 (highest F + ARI + NMI): **%s** (F/ARI/NMI %s/%s/%s vs %s/%s/%s at Inf)",
            format(b08), fmt(at(0.8, b08, "F")), fmt(at(0.8, b08, "ARI")), fmt(at(0.8, b08, "NMI")),
            fmt(at(0.8, Inf, "F")), fmt(at(0.8, Inf, "ARI")), fmt(at(0.8, Inf, "NMI"))),
    sprintf("- the same xi_max at p = 1: F/ARI/NMI %s/%s/%s vs %s/%s/%s at Inf; best at p = 1: %s",
            fmt(at(1, b08, "F")), fmt(at(1, b08, "ARI")), fmt(at(1, b08, "NMI")),
            fmt(at(1, Inf, "F")), fmt(at(1, Inf, "ARI")), fmt(at(1, Inf, "NMI")),
            format(best(1))))
  elapsed <- proc.time()[["elapsed"]] - t_start

  lines <- c(
    "## xi_max study", "", header_lines(),
    sprintf("- trials: %d per (data set, r, p); p in {%s}, all 5 data sets, all r; xi_max in {%s}; elapsed %.0f s",
            n_trials, paste(xi_max_accuracies, collapse = ", "),
            paste(xi_max_grid, collapse = ", "), elapsed),
    "- same constraints and RNG state as the main tables for every xi_max (xi_max = 10, the default, repeats the main runs).",
    "", summary_lines, "",
    "### Averaged over data sets, r and trials", "",
    md_table_rdp(tab), "",
    "### F per r", "", md_table_rdp(by_r_w), "",
    "### F per data set, p = 0.8", "", md_table_rdp(wide(0.8, "F")), "",
    "### F per data set, p = 1", "", md_table_rdp(wide(1, "F")), "",
    "### ARI per data set, p = 0.8", "", md_table_rdp(wide(0.8, "ARI")), "")
  write_section("xi_max", lines)
  cat(paste(lines, collapse = "\n"), "\n")
  invisible(res)
}

if (identical(Sys.getenv("BENCH_MODE"), "before")) {
  saveRDS(main_rows(before = TRUE), Sys.getenv("BENCH_BEFORE_OUT"))
  parts <- character(0)
}
if ("main" %in% parts) main_results <- run_main()
if ("xi_max" %in% parts) xi_max_results <- run_xi_max()
