# Changes to the default search of cec() that were tried against CEC::cec at
# equal restarts and not adopted (notes of bench/results/cec-search.md).
#
# Run from the repository root, with sideclust and CEC installed:
#   Rscript bench/cec-search-alternatives.R
#   BENCH_SEEDS (20), BENCH_SINGLE (300), BENCH_CORES (2)
#
# Part A, best of 10 restarts per seed on the data sets and k of
# cec-search.R, set.seed(seed) before each call, median ratio to CEC::cec (as
# there: where CEC returned and both costs are positive):
# * "std": seeds on standardized columns, i.e. cec(x / sd) (the "full" cost
#   and the passes are invariant to the columns' units; the cost on x is the
#   cost on x / sd plus sum(log sd));
# * "white": seeds on whitened data (x - mean) R^-1 with R = chol(cov(x))
#   (Mahalanobis distances; the cost on x adds sum(log diag R));
# * "mix": 5 restarts on x and 5 on x / sd, the lower kept.
# Part B, from BENCH_SINGLE single-start runs (best of 10 resampled 4000
# times, independently for each package) on wine k = 3, sim5 k = 10 and
# segmentation k = 7: greedy seeds drawn as cec() draws them (the internal
# .kmeanspp_seeds_cpp, every point to its nearest seed), the run from that
# start by cec(start =), and
# * "redraw small": the start redrawn while a cluster of its partition is
#   below the size rule max(floor(0.05 n), p + 2), up to L more draws;
# * "redraw first pass": redrawn while the run loses a cluster in its first
#   pass, up to L more draws (every draw is a run);
# * "trials": 1, 2, 3, 5 or 8 greedy candidates (the default, 2 + floor(log k),
#   is 3 for k = 3 and 7 and 4 for k = 10: the rows with limit 0 of "redraw
#   small"; where a default appears twice, the difference between its two rows
#   is the resampling noise of the statistic).

library(sideclust)
source(file.path("bench", "utils.R"))
stopifnot(requireNamespace("CEC", quietly = TRUE))
n_seeds <- as.integer(Sys.getenv("BENCH_SEEDS", "20"))
n_single <- as.integer(Sys.getenv("BENCH_SINGLE", "300"))
n_cores <- as.integer(Sys.getenv("BENCH_CORES", "2"))
out_file <- file.path("bench", "results", "cec-search-alternatives.md")

sets <- cec_search_sets()

cec_peer <- function(x, k, nstart) {
  tryCatch(suppressWarnings(utils::tail(CEC::cec(x, centers = k, type = "all", nstart = nstart,
                                                 iter.max = 100L, card.min = "5%", threads = 1)$cost.function, 1)),
           error = function(e) NA_real_)
}

# ---- part A --------------------------------------------------------------------

jobs <- do.call(rbind, lapply(names(sets), function(nm) {
  expand.grid(dataset = nm, k = c(sets[[nm]]$k, 2L * sets[[nm]]$k), seed = seq_len(n_seeds),
              stringsAsFactors = FALSE)
}))
t_start <- proc.time()[["elapsed"]]
res <- do.call(rbind, parallel::mclapply(seq_len(nrow(jobs)), function(j) {
  x <- sets[[jobs$dataset[j]]]$x
  k <- jobs$k[j]
  s <- jobs$seed[j]
  sd <- apply(x, 2L, stats::sd)
  xs <- sweep(x, 2L, sd, "/")
  r <- chol(stats::cov(x))
  xw <- sweep(x, 2L, colMeans(x)) %*% solve(r)
  fit <- function(y, restarts) tryCatch(cec(y, k, restarts = restarts)$cost, error = function(e) NA_real_)
  set.seed(s); raw <- fit(x, 10L)
  set.seed(s); std <- fit(xs, 10L) + sum(log(sd))
  set.seed(s); white <- fit(xw, 10L) + sum(log(diag(r)))
  set.seed(s); mix <- min(fit(x, 5L), fit(xs, 5L) + sum(log(sd)))
  set.seed(s); peer <- cec_peer(x, k, 10L)
  data.frame(dataset = jobs$dataset[j], k = k, seed = s, raw = raw, std = std, white = white,
             mix = mix, cec = peer)
}, mc.cores = n_cores, mc.preschedule = FALSE))
tab_a <- do.call(rbind, lapply(split(res, list(res$dataset, res$k), drop = TRUE), function(g) {
  ok <- !is.na(g$cec) & g$cec > 0
  ratio <- function(v) if (any(ok)) stats::median(v[ok] / g$cec[ok]) else NA_real_
  data.frame(dataset = g$dataset[1], k = g$k[1], `CEC returned` = sum(!is.na(g$cec)),
             default = ratio(g$raw), std = ratio(g$std), white = ratio(g$white), mix = ratio(g$mix),
             check.names = FALSE)
}))
tab_a <- tab_a[order(match(tab_a$dataset, names(sets)), tab_a$k), ]
met <- vapply(c("default", "std", "white", "mix"), function(v) {
  r <- tab_a[[v]]
  sprintf("%s: %d of %d", v, sum(r <= 1 + 1e-7, na.rm = TRUE), sum(!is.na(r)))
}, character(1))

# ---- part B --------------------------------------------------------------------

rows_b <- list(c("wine", 3L), c("sim5", 10L), c("segmentation", 7L))
best10 <- function(v) {
  d <- sample(v, 10L, replace = TRUE)
  if (anyNA(d)) NA_real_ else min(d)
}
vs_peer <- function(v, peer) {
  pairs <- replicate(4000L, c(best10(v), best10(peer)))
  ok <- !is.na(pairs[2, ]) & pairs[2, ] > 0
  c(stats::median(pairs[1, ok] / pairs[2, ok]), mean(pairs[1, ok] <= pairs[2, ok] + 1e-7))
}
tab_b <- do.call(rbind, lapply(rows_b, function(rk) {
  x <- sets[[rk[1]]]$x
  k <- as.integer(rk[2])
  n <- nrow(x)
  xt <- t(x)
  min_size <- max(floor(0.05 * n), ncol(x) + 2)
  default_trials <- 2L + as.integer(floor(log(k)))
  variants <- rbind(data.frame(kind = "redraw small", limit = c(0L, 2L, 5L, 20L), trials = default_trials),
                    data.frame(kind = "redraw first pass", limit = c(1L, 3L, 9L), trials = default_trials),
                    data.frame(kind = "trials", limit = 0L, trials = c(1L, 2L, 3L, 5L, 8L)))
  single <- function(s, kind, limit, trials) {
    set.seed(s)
    draws <- 0L
    repeat {
      seeds <- sideclust:::.kmeanspp_seeds_cpp(xt, k, trials)
      start <- max.col(-sapply(seeds, function(i) colSums((xt - x[i, ])^2)), ties.method = "first")
      draws <- draws + 1L
      if (kind == "redraw small") {
        if (min(tabulate(start, k)) >= min_size || draws > limit) break
      } else {
        f <- cec(x, k, start = start)
        if (kind == "trials" || f$k_trace[1] == k || draws > limit) break
      }
    }
    if (kind == "redraw small") f <- cec(x, k, start = start)
    c(f$cost, draws)
  }
  runs <- parallel::mclapply(seq_len(n_single), function(s) {
    c(vapply(seq_len(nrow(variants)), function(v) single(s, variants$kind[v], variants$limit[v],
                                                           variants$trials[v]), numeric(2)),
      peer = {
        set.seed(s)
        cec_peer(x, k, 1L)
      })
  }, mc.cores = n_cores)
  m <- do.call(rbind, runs)
  peer <- m[, ncol(m)]
  set.seed(99)
  do.call(rbind, lapply(seq_len(nrow(variants)), function(v) {
    st <- vs_peer(m[, 2 * v - 1], peer)
    data.frame(dataset = rk[1], k = k, variant = variants$kind[v], limit = variants$limit[v],
               trials = variants$trials[v], `median ours / CEC` = st[1], `P(ours <= CEC)` = st[2],
               `draws per restart` = mean(m[, 2 * v]), check.names = FALSE)
  }))
}))
elapsed <- proc.time()[["elapsed"]] - t_start

lines <- c("# CEC search: alternatives to the default search, not adopted", "",
  "Written by `bench/cec-search-alternatives.R` (see its header); context in `cec-search.md`.", "",
  sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
  sprintf("- machine: %d cores, %s; run on %d cores, shared with other jobs", parallel::detectCores(),
          cpu_name(), n_cores),
  sprintf("- R: %s; sideclust %s (bench git %s); CEC %s", R.version.string,
          as.character(utils::packageVersion("sideclust")), git_commit(),
          as.character(utils::packageVersion("CEC"))),
  sprintf("- %d seeds (part A), %d single starts (part B); elapsed %.0f s", n_seeds, n_single, elapsed), "",
  "## A: seeding metric, best of 10 restarts, median ratio ours / CEC", "",
  sprintf("Rows with a median ratio <= 1: %s.", paste(met, collapse = "; ")), "",
  md_table(tab_a, 4), "",
  "## B: redrawing starts and greedy candidates, best of 10 resampled from single starts", "",
  "`draws per restart`: starts drawn (redraw small) or runs made (the others) per restart.", "",
  md_table(tab_b, 4), "")
dir.create(dirname(out_file), showWarnings = FALSE, recursive = TRUE)
writeLines(lines, out_file)
cat(paste(lines, collapse = "\n"), "\n")
