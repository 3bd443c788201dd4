# constrained_mixture() with noisy certain pairs: the TVClust protocol's side
# information (Khashabi et al. 2015, Section 5.2: random pairs, every type
# flipped with probability `noise`, every confidence 1) on the paper's five
# UCI data sets, against plain EM (the same model without pairs).
#
# Run from the repository root with sideclust installed:
#   Rscript bench/constrained-mixture-noisy-pairs.R
#   BENCH_TRIALS=3 BENCH_PARTS=target Rscript bench/constrained-mixture-noisy-pairs.R
#
# Part "target": rate 0.03, noise 0.1 (the issue's setting);
#   constrained_mixture(x, side, k) with its defaults (mean field, full
#   covariances) next to constrained_mixture(x, NULL, k) (plain EM) and
#   `penalty = Inf` (the refusal, the default of fd9b10e).
# Part "choice": which certain pairs to soften and with which penalty, on the
#   grid rate {0.01, 0.03, 0.05} x noise {0.05, 0.1, 0.2}: all certain pairs,
#   or only the contradictory chunklets' pairs (their must-links and the
#   cannot-links inside them), or only those must-links; penalties W = 1.1
#   (0.5 log 9: the noise of 0.1 known, exp(-2W) = 0.1 / 0.9), 2.3 (confidence
#   0.9, the default) and 4.6 (confidence 0.99).
# Every fit of a trial starts from the same k-means start (set.seed() before
# each call); k is the true number of classes; metric: pairwise F-measure
# (compare_partitions()).

library(sideclust)
source(file.path("bench", "utils.R"))

out_file <- file.path("bench", "results", "constrained-mixture-uci.md")
parts <- bench_parts(c("target", "choice"))
n_trials <- as.integer(Sys.getenv("BENCH_TRIALS", "20"))
command <- paste(c(if (nzchar(Sys.getenv("BENCH_TRIALS"))) sprintf("BENCH_TRIALS=%d", n_trials),
                   bench_command("bench/constrained-mixture-noisy-pairs.R")), collapse = " ")
datasets <- tvclust_paper_datasets()
started <- proc.time()[["elapsed"]]

f_measure <- function(y, fit) compare_partitions(y, fit$cluster)[["f_measure"]]

# Side information of trial t on data set d (the seeds of bench/tvclust-uci.R's
# layout: data set, rate, noise, trial).
draw_side <- function(d, ir, inoise, t, rate, noise) {
  set.seed(10000L * d + 1000L * ir + 100L * inoise + t)
  sample_constraints(datasets[[d]]$y, rate = rate, noise = noise)
}

# One fit from the trial's k-means start.
fit_from_start <- function(d, t, side, ...) {
  set.seed(500000L + 1000L * d + t)
  ds <- datasets[[d]]
  suppressMessages(constrained_mixture(ds$x, side, ds$k, ...))
}

# Which certain pairs a variant softens.
soft_pairs <- function(side, variant) {
  if (variant == "all") return(rep(TRUE, length(side$i)))
  ids <- chunklets(side)
  inside <- !side$must & ids[side$i] == ids[side$j]
  bad_chunklets <- unique(ids[side$i[inside]])
  must <- side$must & ids[side$i] %in% bad_chunklets
  if (variant == "contradictory must-links") must else must | inside
}
variants <- c("all", "contradictory chunklets", "contradictory must-links")
penalties <- c(0.5 * log(9), -log(0.1), -log(0.01))

lines <- c(
  sprintf("## Noisy certain pairs: the TVClust protocol (%s)", format(Sys.Date())), "",
  "Written by `bench/constrained-mixture-noisy-pairs.R` (issue 45, point 6).", "",
  bench_header(command), "",
  "- side information: `sample_constraints(y, rate, noise)` (TVClust protocol, pair_count = \"authors\", every confidence 1); data: iris, wine, ecoli, glass, balance standardized (`tvclust_paper_datasets()` of bench/utils.R); k = the true number of classes",
  "- fits: `constrained_mixture(x, side, k)` with its defaults (mean field, full covariances, k-means start), every fit of a trial from the same start; plain EM is `constrained_mixture(x, NULL, k)`",
  sprintf("- %d trials (draws of the pairs) per setting; cells are mean pairwise F-measure", n_trials), "")

if ("target" %in% parts) {
  rows <- list()
  for (d in seq_along(datasets)) for (t in seq_len(n_trials)) {
    ds <- datasets[[d]]
    side <- draw_side(d, 2L, 2L, t, 0.03, 0.1)
    em <- fit_from_start(d, t, NULL)
    msg <- NULL
    set.seed(500000L + 1000L * d + t)
    def <- withCallingHandlers(constrained_mixture(ds$x, side, ds$k), message = function(m) {
      msg <<- conditionMessage(m)
      invokeRestart("muffleMessage")
    })
    refused <- inherits(try(fit_from_start(d, t, side, penalty = Inf), silent = TRUE), "try-error")
    rows[[length(rows) + 1L]] <- data.frame(
      dataset = names(datasets)[d], trial = t, pairs = length(side$i),
      contradictions = if (is.null(msg)) 0L else as.integer(sub("^`side` has ([0-9]+) .*", "\\1", msg)),
      plain_em = f_measure(ds$y, em), default = f_measure(ds$y, def),
      clusters = length(unique(def$cluster)), refused = refused)
  }
  res <- do.call(rbind, rows)
  tab <- stats::aggregate(res[c("pairs", "contradictions", "plain_em", "default", "clusters")],
                          res["dataset"], mean)
  tab$min_gain <- stats::aggregate(res$default - res$plain_em, res["dataset"], min)$x
  tab$refused <- sprintf("%d / %d", stats::aggregate(res$refused, res["dataset"], sum)$x,
                         stats::aggregate(res$refused, res["dataset"], length)$x)
  tab <- tab[match(names(datasets), tab$dataset), ]
  tab$pairs <- as.integer(round(tab$pairs))
  tab$contradictions <- as.integer(round(tab$contradictions))
  met <- all(tab$default >= tab$plain_em)
  names(tab) <- c("dataset", "pairs", "certain cannot-links in chunklets", "F plain EM",
                  "F default", "clusters (default)", "min over trials of F default - F plain EM",
                  "`penalty = Inf` (fd9b10e's default) refused")
  lines <- c(lines,
    "### Target: rate 0.03, noise 0.1", "",
    md_table(tab, 3), "",
    sprintf("- Target (default F at least plain EM's on each data set): %s. On fd9b10e every one of these fits stopped with the error that `penalty = Inf` still gives (last column).",
            if (met) "met" else "**NOT met**"), "")
  cat(lines, sep = "\n")
}

if ("choice" %in% parts) {
  rates <- c(0.01, 0.03, 0.05)
  noises <- c(0.05, 0.1, 0.2)
  rows <- list()
  for (d in seq_along(datasets)) for (ir in seq_along(rates)) for (inoise in seq_along(noises)) {
    for (t in seq_len(n_trials)) {
      ds <- datasets[[d]]
      side <- draw_side(d, ir, inoise, t, rates[ir], noises[inoise])
      base <- data.frame(dataset = names(datasets)[d], rate = rates[ir], noise = noises[inoise],
                         trial = t)
      em <- fit_from_start(d, t, NULL)
      rows[[length(rows) + 1L]] <- cbind(base, variant = "plain EM", W = NA_real_,
                                         F = f_measure(ds$y, em))
      for (v in variants) {
        soft <- soft_pairs(side, v)
        for (w in penalties) {
          pen <- ifelse(soft, w, Inf)
          fit <- fit_from_start(d, t, side, penalty = pen)
          rows[[length(rows) + 1L]] <- cbind(base, variant = v, W = round(w, 2),
                                             F = f_measure(ds$y, fit))
        }
      }
    }
    cat(sprintf("%s rate %.2f noise %.2f done (%.0f s)\n", names(datasets)[d], rates[ir],
                noises[inoise], proc.time()[["elapsed"]] - started))
  }
  res <- do.call(rbind, rows)
  res$setting <- ifelse(is.na(res$W), "plain EM", sprintf("%s, W = %.1f", res$variant, res$W))
  wide <- function(sub) {
    a <- stats::aggregate(F ~ setting + dataset, data = sub, mean)
    w <- stats::reshape(a, idvar = "setting", timevar = "dataset", direction = "wide")
    names(w) <- sub("^F\\.", "", names(w))
    w <- w[c("setting", names(datasets))]
    w$mean <- rowMeans(w[names(datasets)])
    w[order(w$setting != "plain EM", -w$mean), ]
  }
  main <- wide(res[res$rate == 0.03 & res$noise == 0.1, ])
  # over the grid: mean F per setting, and the worst data set's F minus plain EM's
  em_mean <- stats::aggregate(F ~ dataset + rate + noise, data = res[is.na(res$W), ], mean)
  all_mean <- stats::aggregate(F ~ setting + dataset + rate + noise, data = res, mean)
  all_mean$gain <- all_mean$F - em_mean$F[match(paste(all_mean$dataset, all_mean$rate, all_mean$noise),
                                               paste(em_mean$dataset, em_mean$rate, em_mean$noise))]
  grid <- stats::aggregate(cbind(F, gain) ~ setting, data = all_mean, mean)
  grid$worst <- stats::aggregate(gain ~ setting, data = all_mean, min)$gain
  grid$below <- stats::aggregate(gain ~ setting, data = all_mean, function(g) sum(g < 0))$gain
  grid <- grid[order(-grid$F), ]
  names(grid) <- c("setting", "mean F", "mean F - plain EM", "worst F - plain EM",
                   "cells below plain EM (of 45)")
  per_cell <- all_mean[grepl("^all, W = 2.3$|^plain EM$", all_mean$setting), ]
  per_cell <- stats::reshape(per_cell[c("setting", "dataset", "rate", "noise", "F")],
                             idvar = c("dataset", "rate", "noise"), timevar = "setting",
                             direction = "wide")
  names(per_cell) <- sub("^F\\.", "F ", names(per_cell))
  per_cell <- per_cell[order(match(per_cell$dataset, names(datasets)), per_cell$rate,
                             per_cell$noise), ]
  lines <- c(lines,
    "### Which certain pairs to soften, and how much: rate 0.03, noise 0.1", "",
    "Variants: all certain pairs soft; the contradictory chunklets' pairs only (the must-links of chunklets that hold a certain cannot-link, and those cannot-links; the other pairs stay certain); the contradictory chunklets' must-links only. W = 1.1 is the noise of 0.1 known (exp(-2W) = 0.1 / 0.9), 2.3 confidence 0.9 (the default), 4.6 confidence 0.99.", "",
    md_table(main, 3), "",
    "### The same over rate {0.01, 0.03, 0.05} x noise {0.05, 0.1, 0.2}", "",
    "Mean over the 45 cells (data set x rate x noise) of the mean F, and of the mean F minus plain EM's; the worst cell; the cells below plain EM.", "",
    md_table(grid, 3), "",
    "Per cell, the default (all certain pairs, W = 2.3) and plain EM:", "",
    md_table(per_cell, 3), "")
}
lines <- c(lines, sprintf("Total %.0f s.", proc.time()[["elapsed"]] - started))
write_md_section(out_file, "noisy-pairs", lines, preamble = character(0))
cat(lines, sep = "\n")
