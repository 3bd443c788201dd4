# Which default search should cec_ib() (and cec()) have? The candidates for
# the starting number of clusters, split mode and its criterion, the seeding
# and the number of restarts, measured in one run on the UCI data of the
# CEC-IB paper (Smieja & Geiger 2017) at 30% labels (and 0%: cec()), next to
# Rmixmod and mclust in the same run.
#
# Run from the repository root, with sideclust, Rmixmod and mclust installed:
#   Rscript bench/cec-ib-defaults.R
#   BENCH_DRAWS=3 BENCH_CORES=1 Rscript bench/cec-ib-defaults.R   # (default 10 / 2)
#
# Protocol: the labellings of bench/cec-split-uci.R and bench/cec-ib-uci.R
# (draw t of data set d: set.seed(100000 + 1000 d + t), then sample_labels(y, f)
# for f = 0.1, 0.2, 0.3, the last one used), features as they are; every call
# preceded by set.seed(400000 + 1000 d + 100 s + 10 m + t). beta = 1.
# Candidates (all type = "full", cec()'s size rule floor(0.05 n)):
# * start_2k: k = 2 x true k, no split (the paper's protocol);
# * given_k: k = true k, no split;
# * split_cost_1: split = TRUE, split_criterion = "cost", from one cluster;
# * split_bic_1: split = TRUE, split_criterion = "bic", from one cluster;
# * split_bic_2k / split_bic_truek: the same from 2 x / 1 x the true k;
# * split_bic_1_r20: split_bic_1 with restarts = 20;
# * split_bic_1_kpp / split_bic_1_random: with init = "kmeans++" / "random";
# * split_bic_1_tries10: with split_tries = 10;
# * split_bic_1_scaled: split_bic_1 on scale(x) (the "full" cost is affine
#   invariant; only the seeds and local split starts see the scale);
# * start_2k_scaled: start_2k on scale(x);
# * split_bic_1_small: split_bic_1 with small_sample = TRUE;
# * split_bic_ladder10: split mode with the BIC from k0 = 1, 2, ..., 10, one
#   run each (10 runs in all, as the 10 restarts of split_bic_1), keeping the
#   run of lowest cost plus BIC price (the restarts' criterion);
# * split_bic_ladder5x2: the same from k0 = 1, ..., 5, two runs each;
# * labels_split_bic: the default call since the label start (cec_ib(x,
#   labels): start = "labels", one cluster per labelled class, the others to
#   the nearest class mean, then split mode with the BIC, 10 runs differing in
#   their split proposals); at 0% labels cec(x), i.e. split_bic_1;
# * labels_split_bic_r1: the same with restarts = 1;
# * labels_no_split: start = "labels" without split mode (at most as many
#   clusters as labelled classes; not run at 0% labels);
# * best_of_labels_and_1: labels_split_bic or split_bic_1, whichever has the
#   lower cost plus BIC price (the restarts' criterion);
# (the split_* candidates from one cluster pass k = 1, which was the default
# call before the label start).
# Peers (true k): mixmod = Rmixmod::mixmodCluster(knownLabels), mclust =
# mclust::Mclust(G = true k, "VVV") without labels (all models where VVV fails).
# Reported: mean NMI (2 I / (H1 + H2), all points), median K, hits (median K
# within true k +- 1), mean seconds.

suppressPackageStartupMessages(library(mclust))
library(sideclust)
source(file.path("bench", "utils.R"))

n_draws <- as.integer(Sys.getenv("BENCH_DRAWS", "10"))
n_cores <- as.integer(Sys.getenv("BENCH_CORES", "2"))
out_file <- file.path("bench", "results", "cec-ib-defaults.md")
command <- bench_command("bench/cec-ib-defaults.R", c("BENCH_DRAWS", "BENCH_CORES"))
restarts <- 10L
fractions <- c(0, 0.3)
cands <- list(
  start_2k = list(k = "2k"),
  given_k = list(k = "k"),
  split_cost_1 = list(k = "1", split = TRUE, split_criterion = "cost"),
  split_bic_1 = list(k = "1", split = TRUE, split_criterion = "bic"),
  split_bic_2k = list(k = "2k", split = TRUE, split_criterion = "bic"),
  split_bic_truek = list(k = "k", split = TRUE, split_criterion = "bic"),
  split_bic_1_r20 = list(k = "1", split = TRUE, split_criterion = "bic", restarts = 20L),
  split_bic_1_kpp = list(k = "1", split = TRUE, split_criterion = "bic", init = "kmeans++"),
  split_bic_1_random = list(k = "1", split = TRUE, split_criterion = "bic", init = "random"),
  split_bic_1_tries10 = list(k = "1", split = TRUE, split_criterion = "bic", split_tries = 10L),
  split_bic_1_scaled = list(k = "1", split = TRUE, split_criterion = "bic", scaled = TRUE),
  start_2k_scaled = list(k = "2k", scaled = TRUE),
  split_bic_1_small = list(k = "1", split = TRUE, split_criterion = "bic", small_sample = TRUE),
  split_bic_ladder10 = list(split = TRUE, split_criterion = "bic", ladder = 1:10, restarts = 1L),
  split_bic_ladder5x2 = list(split = TRUE, split_criterion = "bic", ladder = 1:5, restarts = 2L),
  labels_split_bic = list(),
  labels_split_bic_r1 = list(restarts = 1L),
  labels_no_split = list(split = FALSE, labels_only = TRUE),
  best_of_labels_and_1 = list(both = TRUE)
)
# the peers keep their places (and so their seeds) of the runs before the
# label-start candidates were added after them
methods <- c(names(cands)[1:15], "mixmod", "mclust", names(cands)[-(1:15)])
datasets <- cecib_paper_datasets()

run_cand <- function(spec, ds, lab) {
  if (!is.null(spec$ladder)) return(run_ladder(spec, ds, lab))
  if (isTRUE(spec$both)) return(run_both(ds, lab))
  if (isTRUE(spec$labels_only) && is.null(lab)) return(NULL)
  x <- if (isTRUE(spec$scaled)) scale(ds$x) else ds$x
  args <- list(x, restarts = if (is.null(spec$restarts)) restarts else spec$restarts)
  if (!is.null(spec$k)) args$k <- switch(spec$k, "1" = 1L, "2k" = 2L * ds$k, k = ds$k)
  for (a in c("split", "split_criterion", "init", "split_tries", "small_sample")) {
    if (!is.null(spec[[a]])) args[[a]] <- spec[[a]]
  }
  fit <- if (is.null(lab)) do.call(cec, args) else do.call(cec_ib, c(list(side = lab, beta = 1), args))
  fit$cluster
}

# Split mode with the BIC from several starting sizes; the run of lowest cost
# plus price wins (a "full" cluster costs (p + p(p+1)/2 + 1) log(n) / (2n)).
run_ladder <- function(spec, ds, lab) {
  n <- nrow(ds$x)
  p <- ncol(ds$x)
  price <- (p + p * (p + 1) / 2 + 1) * log(n) / (2 * n)
  best <- NULL
  for (k0 in spec$ladder) {
    args <- list(ds$x, k = k0, split = TRUE, split_criterion = "bic", restarts = spec$restarts)
    fit <- if (is.null(lab)) do.call(cec, args) else do.call(cec_ib, c(list(side = lab, beta = 1), args))
    score <- fit$cost + price * fit$k
    if (is.null(best) || score < best$score) best <- list(score = score, fit = fit)
  }
  best$fit$cluster
}

# The default call (from the labelled classes) and split_bic_1 (from one
# cluster), each with 10 restarts; the fit of lower cost plus price wins.
run_both <- function(ds, lab) {
  if (is.null(lab)) return(cec(ds$x, restarts = restarts)$cluster)
  n <- nrow(ds$x)
  p <- ncol(ds$x)
  price <- (p + p * (p + 1) / 2 + 1) * log(n) / (2 * n)
  a <- cec_ib(ds$x, lab, beta = 1, restarts = restarts)
  b <- cec_ib(ds$x, lab, k = 1, beta = 1, split = TRUE, restarts = restarts)
  if (b$cost + price * b$k < a$cost + price * a$k) b$cluster else a$cluster
}

run_mixmod <- function(ds, lab) {
  known <- if (is.null(lab)) NULL else ifelse(is.na(lab$labels), 0L, lab$labels)
  if (!is.null(known) && !all(seq_len(ds$k) %in% known)) return(NULL)
  args <- list(data = as.data.frame(ds$x), nbCluster = ds$k,
               seed = sample.int(.Machine$integer.max, 1L))
  if (!is.null(known)) args$knownLabels <- known
  do.call(Rmixmod::mixmodCluster, args)@bestResult@partition
}

run_mclust <- function(ds) {
  fit <- suppressWarnings(mclust::Mclust(ds$x, G = ds$k, modelNames = "VVV", verbose = FALSE))
  if (is.null(fit)) fit <- suppressWarnings(mclust::Mclust(ds$x, G = ds$k, verbose = FALSE))
  fit$classification
}

run_draw <- function(d, t) {
  ds <- datasets[[d]]
  set.seed(100000L + 1000L * d + t)
  labs <- lapply(c(0.1, 0.2, 0.3), function(f) sample_labels(ds$y, f))
  labs <- list(NULL, labs[[3]])
  rows <- list()
  for (s in seq_along(fractions)) for (mi in seq_along(methods)) {
    m <- methods[mi]
    set.seed(400000L + 1000L * d + 100L * s + 10L * mi + t)
    t0 <- proc.time()[["elapsed"]]
    cl <- tryCatch(switch(m, mixmod = run_mixmod(ds, labs[[s]]), mclust = run_mclust(ds),
                          run_cand(cands[[m]], ds, labs[[s]])),
                   error = function(e) structure(conditionMessage(e), class = "failed"))
    secs <- proc.time()[["elapsed"]] - t0
    ok <- is.numeric(cl) && length(cl) == nrow(ds$x)
    rows[[length(rows) + 1L]] <- data.frame(
      dataset = names(datasets)[d], true_k = ds$k, fraction = fractions[s], method = m, draw = t,
      K = if (ok) length(unique(cl)) else NA_integer_,
      NMI = if (ok) nmi(ds$y, cl, normalization = "sum") else NA_real_,
      error = if (inherits(cl, "failed")) as.character(cl) else NA_character_,
      seconds = secs, stringsAsFactors = FALSE)
  }
  do.call(rbind, rows)
}

t_start <- proc.time()[["elapsed"]]
jobs <- expand.grid(t = seq_len(n_draws), d = seq_along(datasets))
res <- parallel::mclapply(seq_len(nrow(jobs)), function(j) run_draw(jobs$d[j], jobs$t[j]),
                          mc.cores = n_cores, mc.preschedule = FALSE)
bad <- vapply(res, inherits, logical(1), "try-error")
if (any(bad)) stop("a worker failed: ", as.character(res[[which(bad)[1]]]))
res <- do.call(rbind, res)
elapsed <- proc.time()[["elapsed"]] - t_start
saveRDS(res, file.path(tempdir(), "cec-ib-defaults.rds"))

summ <- function(frac) {
  sub <- res[res$fraction == frac & !is.na(res$K), ]
  a <- do.call(rbind, lapply(split(sub, list(sub$dataset, sub$method), drop = TRUE), function(g) {
    data.frame(dataset = g$dataset[1], true_k = g$true_k[1], method = g$method[1],
               K = stats::median(g$K), NMI = mean(g$NMI), seconds = mean(g$seconds))
  }))
  a[order(match(a$dataset, names(datasets)), match(a$method, methods)), ]
}
wide <- function(a, col, digits) {
  w <- stats::reshape(a[c("dataset", "true_k", "method", col)], idvar = c("dataset", "true_k"),
                      timevar = "method", direction = "wide")
  names(w) <- sub(paste0("^", col, "\\."), "", names(w))
  w <- w[, c("dataset", "true_k", intersect(methods, names(w)))]
  if (col == "NMI") {
    avg <- as.data.frame(lapply(w[-(1:2)], mean), check.names = FALSE)
    w <- rbind(w, cbind(dataset = "mean", true_k = NA, avg))
  }
  for (j in 3:ncol(w)) w[[j]] <- fmt(w[[j]], digits)
  w$true_k <- ifelse(is.na(w$true_k), "", w$true_k)
  w
}
overview <- function(a) {
  o <- do.call(rbind, lapply(split(a, a$method), function(g) data.frame(
    method = g$method[1], hits = sum(abs(g$K - g$true_k) <= 1),
    mean_abs_k_error = mean(abs(g$K - g$true_k)), mean_NMI = mean(g$NMI),
    seconds = mean(g$seconds))))
  o <- o[order(match(o$method, methods)), ]
  o$hits <- as.character(o$hits)
  o
}

lines <- c("# CEC-IB's default search: the candidates in one run (UCI data of the CEC-IB paper)", "",
  "Written by `bench/cec-ib-defaults.R`; see its header for the protocol (labellings of",
  "`bench/cec-split-uci.R`, beta = 1, type = \"full\", 10 restarts unless named).", "",
  sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
  sprintf("- machine: %d cores, %s; run on %d cores, shared with other jobs",
          parallel::detectCores(), cpu_name(), n_cores),
  sprintf("- R: %s; sideclust %s (bench git %s); Rmixmod %s; mclust %s", R.version.string,
          as.character(utils::packageVersion("sideclust")), git_commit(),
          as.character(utils::packageVersion("Rmixmod")), as.character(utils::packageVersion("mclust"))),
  sprintf("- command: `%s`; draws: %d per data set; elapsed %.0f s", command, n_draws, elapsed),
  "- NMI = 2 I / (H1 + H2) on all points; hits = data sets (of 7) whose median K is within the true k +- 1;",
  "  mixmod and mclust get the true k (mclust ignores the labels).", "")
for (frac in fractions) {
  a <- summ(frac)
  lines <- c(lines, sprintf("## %.0f%% labels (%s)", 100 * frac, if (frac == 0) "cec" else "cec_ib"), "",
    md_table(overview(a), 3), "", "Mean NMI:", "", md_table(wide(a, "NMI", 3), 3), "",
    "Median K:", "", md_table(wide(a, "K", 1), 1), "")
}
er <- res[!is.na(res$error), ]
if (nrow(er)) {
  lines <- c(lines, sprintf("Errors: %d runs; first messages:", nrow(er)), "",
             paste0("- ", utils::head(er$method, 5), " (", utils::head(er$dataset, 5), "): ",
                    gsub("\n", " ", utils::head(er$error, 5))), "")
}
writeLines(lines, out_file)
cat(paste(lines, collapse = "\n"), "\n")
