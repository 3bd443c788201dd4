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
#   BENCH_PARTS=synthetic,weights Rscript bench/count-data.R
#   BENCH_OLD_LIB=/path/to/library BENCH_OLD_NAME="at fd9b10e" Rscript bench/count-data.R
# With BENCH_OLD_LIB, the DP-means / RDP-means fits are also run (in child R
# processes, callr) with the sideclust installed in that library, and shown
# side by side as "before". Writes bench/results/count-data.md (one section
# per part) and bench/results/count-data.png (the curves).
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
# * synthetic topic counts (topic_counts() below): 300 documents from 10
#   topics over 500 words, each topic a Dirichlet(0.1) word distribution
#   mixed with a shared Dirichlet(1) background; "clear": background weight
#   0.2, 30 words per document (Poisson); "faint": background 0.5, 60 words.
#   Drawn once with set.seed(1).
# * Gaussian versions cluster the term frequencies (counts + 0.3, rows scaled
#   to sum 1) with squared Euclidean distance; multinomial versions cluster
#   the counts with KL divergence, Poisson versions with the I-divergence,
#   both with the package's default smoothing (KL: 0.3, as the paper).
#   k-means: stats::kmeans(freq, 10, nstart = 10) / a KL (Bregman) k-means
#   written below (Lloyd's iterations, nstart = 10). DP-means / RDP-means:
#   dp_means / rdp_means with lambda = dp_lambda(x, k = 10) for the
#   divergence (Kulis & Jordan's farthest-first heuristic; computed by each
#   build, so a build's own smoothing default applies) and the default pair
#   weights. TVClust: tvclust(...,
#   family = "diagonal") on freq / family = "multinomial" on the counts,
#   k = 10 starting clusters, iter = 100, one chain. TVClust in 1000
#   dimensions took 1.5 to 3 minutes per run on the loaded 2-core machine,
#   so it runs 3 times in the table (not 10) and is left out of the curve.
# * side information: p = 1, sample_constraints(y, rate = r, pair_count =
#   "paper"), so r is the share of all pairs that are constrained.
#   Table: r = 0.01, 10 runs (as the paper's 10; TVClust the first 3), run t
#   draws its constraints after set.seed(t) and every method then starts
#   from set.seed(1000 t + j).
#   Curves (the paper's Figure 4 is RDP-means alone): DP-means and RDP-means
#   with the KL and I-divergences, r in {0, 0.0025, 0.005, 0.01, 0.02, 0.04,
#   0.06}, 5 runs, seeds set.seed(100 i + t) / set.seed(100000 + 1000 i +
#   10 t + j); the same on the synthetic counts.
#   Weights: RDP-means at r = 0.01 with xi_max from 0.1 to Inf (5 runs,
#   pairs after set.seed(t), fits after set.seed(500 + t)).
# * metric: pairwise F-measure and number of clusters k, mean over the runs.

library(sideclust)
source(file.path("bench", "utils.R"))

if (!requireNamespace("lda", quietly = TRUE)) {
  stop("bench/count-data.R needs the lda package (its 20 Newsgroups counts): ",
       "install.packages('https://cloud.r-project.org/src/contrib/Archive/lda/lda_1.4.2.tar.gz', repos = NULL, type = 'source')")
}
parts <- bench_parts(c("table", "curve", "synthetic", "weights"))
old_lib <- Sys.getenv("BENCH_OLD_LIB")
if (nzchar(old_lib) && !requireNamespace("callr", quietly = TRUE)) {
  stop("BENCH_OLD_LIB needs the callr package")
}
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

# Documents from k topics over p words: each topic a Dirichlet(0.1) word
# distribution, mixed with a shared Dirichlet(1) background of weight
# `background`; Poisson(`length`) words per document.
topic_counts <- function(n = 300, k = 10, p = 500, length = 30, background = 0.2) {
  dirichlet <- function(a) {
    g <- stats::rgamma(p, a)
    g / sum(g)
  }
  shared <- dirichlet(1)
  topics <- t(replicate(k, dirichlet(0.1)))
  y <- rep(seq_len(k), length.out = n)
  words <- stats::rpois(n, length)
  x <- t(vapply(seq_len(n), function(i) {
    as.numeric(stats::rmultinom(1, words[i], background * shared + (1 - background) * topics[y[i], ]))
  }, numeric(p)))
  list(counts = x, y = factor(y), k = k)
}

# DP-means / RDP-means fits of the jobs (a data.frame: method "dp" / "rdp",
# divergence, side (index into `sides`, 0 for none), seed, xi_max) on the
# counts x: F-measure and k per job. Self-contained, so that callr can run
# it with another build of sideclust.
fit_dp_jobs <- function(x, y, k, jobs, sides) {
  library(sideclust)
  lambda <- vapply(c("kl", "idiv"), function(d) dp_lambda(x, k = k, divergence = d), numeric(1))
  res <- t(vapply(seq_len(nrow(jobs)), function(r) {
    j <- jobs[r, ]
    set.seed(j$seed)
    fit <- if (j$method == "dp") {
      dp_means(x, lambda = lambda[[j$divergence]], divergence = j$divergence)
    } else {
      rdp_means(x, if (j$side > 0) sides[[j$side]], lambda = lambda[[j$divergence]],
                divergence = j$divergence, xi_max = j$xi_max)
    }
    c(F = f_measure(y, fit$cluster), k = fit$k)
  }, numeric(2)))
  cbind(jobs, res, lambda = lambda[jobs$divergence])
}

# The jobs with this build and, with BENCH_OLD_LIB, with that one: one
# data.frame with a column `build` ("new" / "before").
run_dp_jobs <- function(x, y, k, jobs, sides) {
  new <- fit_dp_jobs(x, y, k, jobs, sides)
  new$build <- "new"
  if (!nzchar(old_lib)) return(new)
  before <- callr::r(fit_dp_jobs, list(x, y, k, jobs, sides),
                     libpath = c(old_lib, .libPaths()))
  before$build <- "before"
  rbind(new, before)
}

dp_names <- c(dp.kl = "DP-means, multinomial (KL)", rdp.kl = "RDP-means, multinomial (KL)",
              dp.idiv = "DP-means, Poisson (I-div.)", rdp.idiv = "RDP-means, Poisson (I-div.)")

# Jobs of a curve over the rates, the pairs of each (rate, run) drawn here.
curve_jobs <- function(y, rates, n_runs) {
  sides <- list()
  jobs <- list()
  for (i in seq_along(rates)) for (t in seq_len(n_runs)) {
    side <- 0L
    if (rates[i] > 0) {
      set.seed(100L * i + t)
      sides[[length(sides) + 1L]] <- sample_constraints(y, rate = rates[i], pair_count = "paper")
      side <- length(sides)
    }
    for (m in names(dp_names)) {
      method <- sub("\\..*", "", m)
      if (method == "dp" && rates[i] > 0 && t > 1) next  # DP-means ignores the pairs: once per rate is
      jobs[[length(jobs) + 1L]] <- data.frame(
        method = method, divergence = sub(".*\\.", "", m), rate = rates[i], run = t, side = side,
        seed = 100000L + 1000L * i + 10L * t + match(m, names(dp_names)), xi_max = 10,
        stringsAsFactors = FALSE)
    }
  }
  list(jobs = do.call(rbind, jobs), sides = sides)
}

# Mean F and k per method, build and rate, as "F (k)" cells, rates across.
curve_table <- function(res) {
  res$name <- dp_names[paste(res$method, res$divergence, sep = ".")]
  avg <- stats::aggregate(cbind(F, k) ~ name + build + rate, res, mean)
  avg$cell <- sprintf("%.2f (%.1f)", avg$F, avg$k)
  wide <- stats::reshape(avg[c("name", "build", "rate", "cell")], idvar = c("name", "build"),
                         timevar = "rate", direction = "wide")
  names(wide) <- sub("^cell\\.", "r = ", names(wide))
  wide <- wide[order(match(wide$name, dp_names), wide$build != "new"), ]
  names(wide)[1:2] <- c("method", "build")
  rownames(wide) <- NULL
  list(avg = avg, wide = wide)
}

build_note <- function() {
  if (!nzchar(old_lib)) return(character(0))
  before <- callr::r(function() as.character(utils::packageDescription("sideclust")$Version),
                     libpath = c(old_lib, .libPaths()))
  sprintf("- \"before\": the same fits with sideclust %s %s (weights on the divergence's own scale, singletons kept at divergence 0, I-divergence smoothing 0), run by this script in child processes",
          before, Sys.getenv("BENCH_OLD_NAME", sprintf("from `%s`", old_lib)))
}

data <- newsgroup_counts()
smoothed <- data$counts + 0.3
freq <- smoothed / rowSums(smoothed)
k <- data$k

lambda_gaussian <- dp_lambda(freq, k = k)
methods <- list(
  `k-means, Gaussian` = function(side) stats::kmeans(freq, k, nstart = 10)$cluster,
  `k-means, multinomial` = function(side) kl_kmeans(freq, k),
  `DP-means, Gaussian` = function(side) dp_means(freq, lambda = lambda_gaussian)$cluster,
  `RDP-means, Gaussian` = function(side) rdp_means(freq, side, lambda = lambda_gaussian)$cluster,
  `TVClust, Gaussian (diagonal)` = function(side) {
    tvclust(freq, side, k = k, family = "diagonal", iter = 100, chains = 1, threads = 1)$cluster
  },
  `TVClust, multinomial` = function(side) {
    tvclust(data$counts, side, k = k, family = "multinomial", iter = 100, chains = 1, threads = 1)$cluster
  }
)
is_tvclust <- grepl("^TVClust", names(methods))

# F-measure and number of clusters of methods[which] on the newsgroups.
run_methods <- function(side, seed_of, which = seq_along(methods)) {
  vapply(which, function(j) {
    set.seed(seed_of(j))
    t0 <- proc.time()[["elapsed"]]
    on.exit(message(sprintf("  %s: %.0f s", names(methods)[j], proc.time()[["elapsed"]] - t0)))
    cl <- tryCatch(suppressWarnings(methods[[j]](side)), error = function(e) {
      message(names(methods)[j], ": ", conditionMessage(e))
      NULL
    })
    if (is.null(cl)) c(NA_real_, NA_real_) else c(f_measure(data$y, cl), length(unique(cl)))
  }, numeric(2))
}

data_lines <- c(
  sprintf("- data: 20 Newsgroups from the lda package (%s), 10 groups x 40 documents, 1000 words; n = %d, k = %d, %.0f words per document (median)",
          as.character(utils::packageVersion("lda")), nrow(data$counts), k, stats::median(rowSums(data$counts))),
  "- protocol and seeds: see the header of bench/count-data.R; Gaussian = term frequencies with squared Euclidean distance, multinomial = KL on the counts, Poisson = I-divergence on the counts (each build's default smoothing)",
  "- lambda: `dp_lambda(x, k = 10)` for the divergence (farthest-first), passed as `lambda`; default pair weights (`xi = 0.001`, `xi_rate = 2`, `xi_max = 10`)",
  build_note())

if ("table" %in% parts) {
  start <- Sys.time()
  n_runs <- 10L
  n_runs_tvclust <- 3L
  sides <- lapply(seq_len(n_runs), function(t) {
    set.seed(t)
    sample_constraints(data$y, rate = 0.01, pair_count = "paper")
  })
  fk <- lapply(seq_len(n_runs), function(t) {
    which <- if (t <= n_runs_tvclust) seq_along(methods) else which(!is_tvclust)
    out <- matrix(NA_real_, 2, length(methods))
    out[, which] <- run_methods(sides[[t]], function(j) 1000L * t + j, which)
    message(sprintf("table run %d done", t))
    out
  })
  f <- do.call(rbind, lapply(fk, function(m) m[1, ]))
  kk <- do.call(rbind, lapply(fk, function(m) m[2, ]))
  jobs <- expand.grid(m = names(dp_names), run = seq_len(n_runs), stringsAsFactors = FALSE)
  jobs <- data.frame(method = sub("\\..*", "", jobs$m), divergence = sub(".*\\.", "", jobs$m),
                     run = jobs$run, side = jobs$run,
                     seed = 1000L * jobs$run + length(methods) + match(jobs$m, names(dp_names)),
                     xi_max = 10, stringsAsFactors = FALSE)
  counts_res <- run_dp_jobs(data$counts, data$y, k, jobs, sides)
  counts_res$name <- dp_names[paste(counts_res$method, counts_res$divergence, sep = ".")]
  elapsed <- as.numeric(difftime(Sys.time(), start, units = "secs"))
  summarise <- function(name, build) {
    r <- counts_res[counts_res$name == name & counts_res$build == build, ]
    c(mean(r$F), stats::sd(r$F), mean(r$k), nrow(r))
  }
  rows <- rbind(
    data.frame(method = names(methods), F = colMeans(f, na.rm = TRUE),
               sd = apply(f, 2, stats::sd, na.rm = TRUE), k = colMeans(kk, na.rm = TRUE),
               runs = colSums(!is.na(f)), `F before` = NA_real_, `k before` = NA_real_,
               check.names = FALSE),
    do.call(rbind, lapply(dp_names, function(nm) {
      new <- summarise(nm, "new")
      before <- if (nzchar(old_lib)) summarise(nm, "before") else rep(NA_real_, 4)
      data.frame(method = nm, F = new[1], sd = new[2], k = new[3], runs = new[4],
                 `F before` = before[1], `k before` = before[3], check.names = FALSE)
    })))
  order <- c("k-means, Gaussian", "k-means, multinomial", "DP-means, Gaussian", dp_names[c("dp.kl", "dp.idiv")],
             "RDP-means, Gaussian", dp_names[c("rdp.kl", "rdp.idiv")], names(methods)[is_tvclust])
  tab <- rows[match(order, rows$method), ]
  tab$`F (paper, ImageNet)` <- c(0.18, 0.25, 0.18, 0.22, NA, 0.20, 0.44, NA, NA, NA)
  tab$runs <- as.integer(tab$runs)
  rownames(tab) <- NULL
  write_md_section(out_md, "table", c(
    "## Table 4: F-measure at r = 0.01 (mean of 10 runs; TVClust 3)", "",
    bench_header(bench_command("bench/count-data.R"), shared_cores = TRUE, sprintf("; elapsed %.0f s", elapsed)),
    data_lines,
    sprintf("- r = 0.01 of the %s pairs, p = 1: %d constraints per run", format(choose(nrow(data$counts), 2), big.mark = ","),
            round(0.01 * nrow(data$counts)^2 / 2)),
    "- k: number of clusters (the truth is 10). \"before\" only for the count divergences, whose fits this change touched (the Gaussian and TVClust code is the same in both builds).",
    "- \"F (paper, ImageNet)\": Khashabi et al. (2015), Table 4, on other data (SIFT counts of 10 ImageNet classes), for orientation only.",
    "", md_table(tab), ""), preamble)
}

rates <- c(0, 0.0025, 0.005, 0.01, 0.02, 0.04, 0.06)
curves <- list()
curve_section <- function(name, title, d, lines) {
  start <- Sys.time()
  cj <- curve_jobs(d$y, rates, 5L)
  res <- run_dp_jobs(d$counts, d$y, d$k, cj$jobs, cj$sides)
  elapsed <- as.numeric(difftime(Sys.time(), start, units = "secs"))
  tab <- curve_table(res)
  write_md_section(out_md, name, c(
    title, "",
    bench_header(bench_command("bench/count-data.R"), shared_cores = TRUE, sprintf("; elapsed %.0f s", elapsed)),
    lines,
    "- cells: mean F-measure (mean number of clusters), 5 runs per rate (DP-means, which ignores the pairs, once per rate after r = 0); the truth is 10 clusters. r = 0 is the method without side information (RDP-means = DP-means). Figure: bench/results/count-data.png (k above 100 drawn at 100).",
    "", md_table(tab$wide), ""), preamble)
  tab$avg
}

if ("curve" %in% parts) {
  curves$newsgroups <- curve_section("curve",
    "## Figure 4: F-measure against the share of pairs constrained, 20 Newsgroups (mean of 5 runs)",
    data, data_lines)
}

if ("synthetic" %in% parts) {
  synthetic <- list(clear = list(length = 30, background = 0.2), faint = list(length = 60, background = 0.5))
  for (nm in names(synthetic)) {
    set.seed(1)
    d <- topic_counts(length = synthetic[[nm]]$length, background = synthetic[[nm]]$background)
    curves[[nm]] <- curve_section(paste0("synthetic-", nm),
      sprintf("## Synthetic topic counts, %s topics: F-measure against the share of pairs constrained (mean of 5 runs)", nm),
      d, c(sprintf("- data: topic_counts() of bench/count-data.R, n = 300, 10 topics, 500 words, background weight %.1f, %d words per document on average (set.seed(1))",
                   synthetic[[nm]]$background, synthetic[[nm]]$length),
           "- lambda: `dp_lambda(x, k = 10)` for the divergence, passed as `lambda`; default pair weights", build_note()))
  }
}

if ("weights" %in% parts) {
  start <- Sys.time()
  caps <- c(0.1, 1, 10, 100, 1e4, Inf)
  set.seed(1)
  faint <- topic_counts(length = 60, background = 0.5)
  sets <- list(`20 Newsgroups` = data, `synthetic, faint topics` = faint)
  rows <- list()
  for (s in names(sets)) {
    d <- sets[[s]]
    sides <- lapply(1:5, function(t) {
      set.seed(t)
      sample_constraints(d$y, rate = 0.01, pair_count = "paper")
    })
    jobs <- expand.grid(divergence = c("kl", "idiv"), xi_max = caps, run = 1:5, stringsAsFactors = FALSE)
    jobs <- data.frame(method = "rdp", divergence = jobs$divergence, run = jobs$run, side = jobs$run,
                       seed = 500L + jobs$run, xi_max = jobs$xi_max, stringsAsFactors = FALSE)
    res <- run_dp_jobs(d$counts, d$y, d$k, jobs, sides)
    res$data <- s
    rows[[s]] <- res
  }
  res <- do.call(rbind, rows)
  avg <- stats::aggregate(cbind(F, k) ~ data + divergence + build + xi_max, res, mean)
  avg$cell <- sprintf("%.2f (%.1f)", avg$F, avg$k)
  wide <- stats::reshape(avg[c("data", "divergence", "build", "xi_max", "cell")],
                         idvar = c("data", "divergence", "build"), timevar = "xi_max", direction = "wide")
  names(wide) <- sub("^cell\\.", "xi_max = ", names(wide))
  wide <- wide[order(wide$data, wide$divergence, wide$build != "new"), ]
  rownames(wide) <- NULL
  elapsed <- as.numeric(difftime(Sys.time(), start, units = "secs"))
  write_md_section(out_md, "weights", c(
    "## RDP-means on counts as the pairs' weights grow: cap xi_max at r = 0.01 (mean of 5 runs)", "",
    bench_header(bench_command("bench/count-data.R"), shared_cores = TRUE, sprintf("; elapsed %.0f s", elapsed)),
    "- data: the 20 Newsgroups set above; the faint synthetic topics above",
    "- `rdp_means(x, side, lambda = dp_lambda(x, k = 10, divergence), divergence, xi_max = cap)`, other weights at their defaults; pairs after set.seed(t), fits after set.seed(500 + t), t = 1..5",
    "- cells: mean F-measure (mean number of clusters); the truth is 10 clusters. New build: `kl` weights are divided by the rows' mean count (log-likelihood scale), `idiv` weights as given.",
    build_note(),
    "", md_table(wide), ""), preamble)
}

if (length(curves)) {
  grDevices::png(out_png, width = 1400, height = 900, res = 120)
  graphics::par(mfrow = c(2, length(curves)), mar = c(4.5, 4.5, 2.5, 1))
  colours <- c(kl = "#1b9e77", idiv = "#d95f02")
  for (what in c("F", "k")) for (nm in names(curves)) {
    avg <- curves[[nm]]
    ylim <- if (what == "F") c(0, 1) else c(0, max(30, min(100, max(avg$k))))
    graphics::plot(NA, xlim = range(rates) * 100, ylim = ylim, xlab = "share of pairs constrained (%)",
                   ylab = if (what == "F") "F-measure" else "number of clusters",
                   main = sprintf("%s: %s", nm, what))
    if (what == "k") graphics::abline(h = c(10 / 1.5, 10, 15), lty = c(3, 1, 3), col = "grey60")
    legend_text <- character(0)
    for (dv in names(colours)) for (b in c("new", "before")) {
      name <- dp_names[[paste0("rdp.", dv)]]
      s <- avg[avg$name == name & avg$build == b, ]
      if (!nrow(s)) next
      graphics::lines(s$rate * 100, pmin(s[[what]], ylim[2]), col = colours[[dv]], lwd = 2,
                      lty = if (b == "new") 1 else 2, type = "b", pch = if (b == "new") 16 else 1)
      legend_text <- c(legend_text, sprintf("%s (%s)", name, b))
      dp <- avg[avg$name == dp_names[[paste0("dp.", dv)]] & avg$build == b, ]
      if (b == "new" && nrow(dp)) {
        graphics::lines(dp$rate * 100, pmin(dp[[what]], ylim[2]), col = colours[[dv]], lty = 3)
      }
    }
    if (what == "F" && nm == names(curves)[1]) graphics::legend("topleft", legend = c(legend_text, "DP-means (new, dotted)"), cex = 0.75, bg = "white",
                     col = c(rep(colours, each = if (nzchar(old_lib)) 2 else 1), "grey40"),
                     lty = c(rep(if (nzchar(old_lib)) c(1, 2) else 1, 2), 3))
  }
  grDevices::dev.off()
}
message("wrote ", out_md)
