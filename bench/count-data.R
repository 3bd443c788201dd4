# Count data: Gaussian against multinomial (KL) clustering, the TVClust
# paper's Table 4 and Figure 4 (Khashabi et al. 2015, Section 5.3).
#
# The paper clusters SIFT visual-word counts of ImageNet images, which are
# not reachable here. This bench uses a real labelled count data set that an
# R package ships instead: the 20 Newsgroups training documents as word
# counts, from the CRAN package lda (data newsgroup.train.documents /
# newsgroup.train.labels / newsgroup.vocab; version 1.4.2, the last for
# R < 4.3, from the CRAN archive). Without lda the bench stops with a message.
#
# Run from the repository root, with sideclust and lda installed:
#   Rscript bench/count-data.R
#   BENCH_PARTS=table Rscript bench/count-data.R    # Table 4 only
#   BENCH_PARTS=curve Rscript bench/count-data.R    # Figure 4 only
# Writes bench/results/count-data.md (one section per part) and
# bench/results/count-data.png (the curve).
#
# Protocol
# * data: 10 newsgroups of distinct topics (alt.atheism, comp.graphics,
#   misc.forsale, rec.autos, rec.sport.baseball, sci.crypt, sci.med,
#   sci.space, soc.religion.christian, talk.politics.mideast), 40 documents
#   each drawn at random (set.seed(2015)): n = 400, k = 10, like the paper's
#   10 ImageNet classes. Words: those in at most 25% of the 400 documents
#   (a stop-word filter), the 1000 with the largest total count (the paper's
#   1000 visual words). Documents left without any word keep an all-zero row
#   (smoothing handles them).
# * Gaussian versions cluster the term frequencies (counts + 0.3, rows scaled
#   to sum 1) with squared Euclidean distance; multinomial versions cluster
#   the counts with KL divergence after Laplace smoothing 0.3 (as the paper).
#   k-means: stats::kmeans(freq, 10, nstart = 10) / a KL (Bregman) k-means
#   written below (Lloyd's iterations, nstart = 10). DP-means / RDP-means:
#   dp_means / rdp_means with k = 10 (lambda by farthest-first), divergence
#   "sqeuclidean" on freq / "kl" on the counts. TVClust: tvclust(...,
#   family = "diagonal") on freq / family = "multinomial" on the counts,
#   k = 10 starting clusters, iter = 100, one chain. TVClust in 1000
#   dimensions took 1.5 to 3 minutes per run on the loaded 2-core machine,
#   so it runs 3 times in the table (not 10) and is left out of the curve.
# * side information: p = 1, sample_constraints(y, rate = r, pair_count =
#   "paper"), so r is the share of all pairs that are constrained.
#   Table: r = 0.01, 10 runs (as the paper's 10; TVClust the first 3), run t
#   draws its constraints after set.seed(t) and every method then starts
#   from set.seed(1000 t + j).
#   Curve (the paper's Figure 4 is RDP-means alone): RDP-means with both
#   divergences, r in {0, 0.0025, 0.005, 0.01, 0.02, 0.04, 0.06}, 5 runs,
#   seeds set.seed(100 i + t) / set.seed(100000 + 1000 i + 10 t + j).
# * metric: pairwise F-measure, mean over the runs.

library(sideclust)
source(file.path("bench", "utils.R"))

if (!requireNamespace("lda", quietly = TRUE)) {
  stop("bench/count-data.R needs the lda package (its 20 Newsgroups counts): ",
       "install.packages('https://cloud.r-project.org/src/contrib/Archive/lda/lda_1.4.2.tar.gz', repos = NULL, type = 'source')")
}
parts <- bench_parts(c("table", "curve"))
out_md <- file.path("bench", "results", "count-data.md")
out_png <- file.path("bench", "results", "count-data.png")
preamble <- bench_preamble("# Count data: Gaussian vs multinomial clustering (TVClust paper, Table 4 / Figure 4)",
                           "bench/count-data.R")

newsgroup_counts <- function() {
  env <- new.env()
  utils::data(list = c("newsgroup.train.documents", "newsgroup.train.labels", "newsgroup.vocab",
                       "newsgroup.label.map"), package = "lda", envir = env)
  groups <- c(1, 2, 7, 8, 10, 12, 14, 15, 16, 18)
  set.seed(2015)
  docs <- unlist(lapply(groups, function(g) sample(which(env$newsgroup.train.labels == g), 40)))
  rows <- rep(seq_along(docs), vapply(env$newsgroup.train.documents[docs], ncol, 1L))
  entries <- do.call(cbind, env$newsgroup.train.documents[docs])
  counts <- Matrix::sparseMatrix(i = rows, j = entries[1, ] + 1L, x = entries[2, ],
                                 dims = c(length(docs), length(env$newsgroup.vocab)))
  doc_freq <- Matrix::colSums(counts > 0)
  keep <- which(doc_freq <= 0.25 * length(docs))
  keep <- keep[order(-Matrix::colSums(counts[, keep]))][1:1000]
  x <- as.matrix(counts[, keep])
  colnames(x) <- env$newsgroup.vocab[keep]
  y <- factor(env$newsgroup.label.map[match(env$newsgroup.train.labels[docs], env$newsgroup.label.map[, 2]), 1])
  list(counts = x, y = droplevels(y), k = length(groups))
}

# KL (multinomial) k-means: Lloyd's iterations under the KL divergence from
# the rows of p (rows sum to 1) to the centres; nstart random starts, the
# lowest total divergence kept.
kl_kmeans <- function(p, k, nstart = 10L, max_iter = 100L) {
  entropy <- rowSums(p * log(p))
  best <- NULL
  for (s in seq_len(nstart)) {
    mu <- p[sample.int(nrow(p), k), , drop = FALSE]
    cl <- integer(nrow(p))
    for (it in seq_len(max_iter)) {
      cost <- entropy - p %*% t(log(mu))
      new <- max.col(-cost, ties.method = "first")
      if (identical(new, cl)) break
      cl <- new
      sizes <- tabulate(cl, k)
      mu <- rowsum(p, factor(cl, levels = seq_len(k)), reorder = TRUE) / pmax(sizes, 1)
      empty <- which(sizes == 0)
      if (length(empty)) {  # re-seed an empty cluster at the worst-fitting point
        worst <- order(-cost[cbind(seq_len(nrow(p)), cl)])[seq_along(empty)]
        mu[empty, ] <- p[worst, ]
      }
    }
    total <- sum(cost[cbind(seq_len(nrow(p)), cl)])
    if (is.null(best) || total < best$total) best <- list(cluster = cl, total = total)
  }
  best$cluster
}

data <- newsgroup_counts()
smoothed <- data$counts + 0.3
freq <- smoothed / rowSums(smoothed)
k <- data$k

methods <- list(
  `k-means, Gaussian` = function(side) stats::kmeans(freq, k, nstart = 10)$cluster,
  `k-means, multinomial` = function(side) kl_kmeans(freq, k),
  `DP-means, Gaussian` = function(side) dp_means(freq, k = k)$cluster,
  `DP-means, multinomial` = function(side) dp_means(data$counts, k = k, divergence = "kl")$cluster,
  `RDP-means, Gaussian` = function(side) rdp_means(freq, side, k = k)$cluster,
  `RDP-means, multinomial` = function(side) rdp_means(data$counts, side, k = k, divergence = "kl")$cluster,
  `TVClust, Gaussian (diagonal)` = function(side) {
    tvclust(freq, side, k = k, family = "diagonal", iter = 100, chains = 1, threads = 1)$cluster
  },
  `TVClust, multinomial` = function(side) {
    tvclust(data$counts, side, k = k, family = "multinomial", iter = 100, chains = 1, threads = 1)$cluster
  }
)
is_tvclust <- grepl("^TVClust", names(methods))

run_methods <- function(side, seed_of, which = seq_along(methods)) {
  vapply(which, function(j) {
    set.seed(seed_of(j))
    t0 <- proc.time()[["elapsed"]]
    on.exit(message(sprintf("  %s: %.0f s", names(methods)[j], proc.time()[["elapsed"]] - t0)))
    cl <- tryCatch(suppressWarnings(methods[[j]](side)), error = function(e) {
      message(names(methods)[j], ": ", conditionMessage(e))
      NULL
    })
    if (is.null(cl)) NA_real_ else f_measure(data$y, cl)
  }, numeric(1))
}

data_lines <- c(
  sprintf("- data: 20 Newsgroups from the lda package (%s), 10 groups x 40 documents, 1000 words; n = %d, k = %d, %.0f words per document (median)",
          as.character(utils::packageVersion("lda")), nrow(data$counts), k, stats::median(rowSums(data$counts))),
  "- protocol and seeds: see the header of bench/count-data.R; Gaussian = term frequencies with squared Euclidean distance, multinomial = KL on the counts (Laplace smoothing 0.3)")

if ("table" %in% parts) {
  start <- Sys.time()
  n_runs <- 10L
  n_runs_tvclust <- 3L
  f <- t(vapply(seq_len(n_runs), function(t) {
    set.seed(t)
    side <- sample_constraints(data$y, rate = 0.01, pair_count = "paper")
    which <- if (t <= n_runs_tvclust) seq_along(methods) else which(!is_tvclust)
    out <- rep(NA_real_, length(methods))
    out[which] <- run_methods(side, function(j) 1000L * t + j, which)
    message(sprintf("table run %d done", t))
    out
  }, numeric(length(methods))))
  runs <- colSums(!is.na(f))
  elapsed <- as.numeric(difftime(Sys.time(), start, units = "secs"))
  tab <- data.frame(method = names(methods), F = colMeans(f, na.rm = TRUE),
                    sd = apply(f, 2, stats::sd, na.rm = TRUE), runs = runs,
                    paper = c(0.18, 0.25, 0.18, 0.22, 0.20, 0.44, NA, NA))
  names(tab)[5] <- "F (paper, ImageNet)"
  write_md_section(out_md, "table", c(
    "## Table 4: F-measure at r = 0.01 (mean of 10 runs; TVClust 3)", "",
    bench_header(bench_command("bench/count-data.R"), shared_cores = TRUE, sprintf("; elapsed %.0f s", elapsed)),
    data_lines,
    sprintf("- r = 0.01 of the %s pairs, p = 1: %d constraints per run", format(choose(nrow(data$counts), 2), big.mark = ","),
            round(0.01 * nrow(data$counts)^2 / 2)),
    "- \"F (paper, ImageNet)\": Khashabi et al. (2015), Table 4, on other data (SIFT counts of 10 ImageNet classes), for orientation only.",
    "", md_table(tab), ""), preamble)
}

if ("curve" %in% parts) {
  start <- Sys.time()
  rates <- c(0, 0.0025, 0.005, 0.01, 0.02, 0.04, 0.06)
  n_runs <- 5L
  curve_methods <- grep("^RDP-means", names(methods))
  rows <- list()
  for (i in seq_along(rates)) {
    for (t in seq_len(n_runs)) {
      set.seed(100L * i + t)
      side <- if (rates[i] > 0) sample_constraints(data$y, rate = rates[i], pair_count = "paper") else NULL
      f <- run_methods(side, function(j) 100000L + 1000L * i + 10L * t + j, curve_methods)
      rows[[length(rows) + 1L]] <- data.frame(rate = rates[i], run = t, method = names(methods)[curve_methods], F = f)
    }
    message(sprintf("rate %.4f done (%.0f s)", rates[i], as.numeric(difftime(Sys.time(), start, units = "secs"))))
  }
  res <- do.call(rbind, rows)
  elapsed <- as.numeric(difftime(Sys.time(), start, units = "secs"))
  avg <- stats::aggregate(F ~ method + rate, res, mean)
  wide <- stats::reshape(avg, idvar = "method", timevar = "rate", direction = "wide")
  names(wide) <- sub("^F\\.", "r = ", names(wide))
  rownames(wide) <- NULL
  grDevices::png(out_png, width = 1000, height = 700, res = 120)
  graphics::par(mar = c(4.5, 4.5, 2.5, 1))
  graphics::plot(NA, xlim = range(rates) * 100, ylim = c(0, 1), xlab = "share of pairs constrained (%)",
                 ylab = "F-measure", main = "20 Newsgroups (10 groups, 400 documents)")
  colours <- c("#1b9e77", "#d95f02")
  for (j in seq_along(curve_methods)) {
    s <- avg[avg$method == names(methods)[curve_methods[j]], ]
    graphics::lines(s$rate * 100, s$F, col = colours[j], lwd = 2, type = "b", pch = j)
  }
  graphics::legend("topleft", legend = names(methods)[curve_methods], col = colours, lwd = 2,
                   pch = seq_along(curve_methods), bg = "white", cex = 0.85)
  grDevices::dev.off()
  write_md_section(out_md, "curve", c(
    "## Figure 4: F-measure against the share of pairs constrained (mean of 5 runs)", "",
    bench_header(bench_command("bench/count-data.R"), shared_cores = TRUE, sprintf("; elapsed %.0f s", elapsed)),
    data_lines,
    "- r = 0 is the method without side information (RDP-means = DP-means). Figure: bench/results/count-data.png.",
    "", md_table(wide), ""), preamble)
}
message("wrote ", out_md)
