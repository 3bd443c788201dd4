# Search quality of sideclust::cec() against CEC::cec at equal restarts: the
# cost (2) each reaches, over many data sets, numbers of clusters and seeds.
#
# Run from the repository root, with sideclust and CEC installed:
#   Rscript bench/cec-search.R
#   BENCH_SEEDS=10 BENCH_CORES=2 Rscript bench/cec-search.R   # (default 20 / 2)
#
# Setup
# * data: iris and wine as they are and scaled (scale()), the UCI data of the
#   CEC-IB paper (cecib_paper_datasets() in bench/utils.R: ecoli 5 PCs, glass,
#   segmentation, user, vertebral), and two simulated Gaussian mixtures
#   (5 clusters in 3-D, n = 500; 10 clusters in 5-D, n = 2000; random full
#   covariances, set.seed(1) and set.seed(2)).
# * k: the true number of classes and twice it (the CEC-IB protocol's start).
# * both: full covariances (type "full" / "all"), k-means++ starts, 10
#   restarts (restarts = 10 / nstart = 10), at most 100 passes (max_iter /
#   iter.max), clusters removed below 5% of the points (eps = 0.05 /
#   card.min = "5%"). Seed s: set.seed(s) before each package's call.
# * reported per data set and k: the median over the seeds of cost ours / CEC
#   (where CEC returned a result and both costs are positive), the median
#   difference ours - CEC, the share of seeds where ours is lower or equal
#   (within 1e-9), and how often CEC failed (error) or gave a negative cost.
# * the size rules differ by a point: CEC::cec removes a cluster below
#   max(floor(0.05 n), p + 1) points, cec() below max(0.05 n, p + 2) (so on
#   iris CEC keeps clusters of 7 points, cec() needs 8). "matched" runs cec()
#   again with eps = floor(0.05 n) / n (the same minimum as CEC wherever
#   floor(0.05 n) >= p + 2; on wine, p = 13, CEC's minimum is 14, ours 15).

library(sideclust)
source(file.path("bench", "utils.R"))

n_seeds <- as.integer(Sys.getenv("BENCH_SEEDS", "20"))
n_cores <- as.integer(Sys.getenv("BENCH_CORES", "2"))
out_file <- file.path("bench", "results", "cec-search.md")
env_prefix <- Sys.getenv(c("BENCH_SEEDS", "BENCH_CORES"))
env_prefix <- env_prefix[env_prefix != ""]
command <- paste(c(sprintf("%s=%s", names(env_prefix), env_prefix),
                   "Rscript bench/cec-search.R"), collapse = " ")
stopifnot(requireNamespace("CEC", quietly = TRUE))
restarts <- 10L

# ---- data ----------------------------------------------------------------------

simulate_mixture <- function(n, p, k, seed) {
  set.seed(seed)
  means <- matrix(stats::rnorm(k * p, sd = 2.5), k, p)
  y <- sample.int(k, n, replace = TRUE)
  x <- matrix(0, n, p)
  for (j in seq_len(k)) {
    a <- matrix(stats::rnorm(p * p), p, p)
    s <- a %*% t(a) / p + 0.2 * diag(p)
    idx <- which(y == j)
    x[idx, ] <- matrix(stats::rnorm(length(idx) * p), ncol = p) %*% chol(s) +
      matrix(means[j, ], length(idx), p, byrow = TRUE)
  }
  list(x = x, k = k)
}
uci <- cecib_paper_datasets()
sets <- list(
  iris = list(x = as.matrix(iris[, 1:4]), k = 3L),
  iris_scaled = list(x = scale(as.matrix(iris[, 1:4])), k = 3L),
  wine = list(x = uci$wine$x, k = 3L),
  wine_scaled = list(x = scale(uci$wine$x), k = 3L),
  ecoli = uci$ecoli[c("x", "k")], glass = uci$glass[c("x", "k")],
  segmentation = uci$segmentation[c("x", "k")], user = uci$user[c("x", "k")],
  vertebral = uci$vertebral[c("x", "k")],
  sim5 = simulate_mixture(500L, 3L, 5L, 1L),
  sim10 = simulate_mixture(2000L, 5L, 10L, 2L))
for (nm in names(sets)) dimnames(sets[[nm]]$x) <- NULL

# ---- runs ----------------------------------------------------------------------

one_run <- function(name, k, seed) {
  x <- sets[[name]]$x
  set.seed(seed)
  t0 <- proc.time()[["elapsed"]]
  ours <- tryCatch(cec(x, k, restarts = restarts, max_iter = 100L, eps = 0.05)$cost,
                   error = function(e) NA_real_)
  t_ours <- proc.time()[["elapsed"]] - t0
  set.seed(seed)
  matched <- tryCatch(cec(x, k, restarts = restarts, max_iter = 100L,
                          eps = floor(0.05 * nrow(x)) / nrow(x) - 1e-12)$cost,
                      error = function(e) NA_real_)
  set.seed(seed)
  t0 <- proc.time()[["elapsed"]]
  peer <- tryCatch(suppressWarnings({
    f <- CEC::cec(x, centers = k, type = "all", nstart = restarts, iter.max = 100L,
                  card.min = "5%", threads = 1)
    utils::tail(f$cost.function, 1)
  }), error = function(e) NA_real_)
  t_peer <- proc.time()[["elapsed"]] - t0
  data.frame(dataset = name, k = k, seed = seed, ours = ours, matched = matched, cec = peer,
             t_ours = t_ours, t_cec = t_peer)
}

jobs <- do.call(rbind, lapply(names(sets), function(nm) {
  expand.grid(dataset = nm, k = c(sets[[nm]]$k, 2L * sets[[nm]]$k), seed = seq_len(n_seeds),
              stringsAsFactors = FALSE)
}))
t_start <- proc.time()[["elapsed"]]
res <- parallel::mclapply(seq_len(nrow(jobs)),
                          function(j) one_run(jobs$dataset[j], jobs$k[j], jobs$seed[j]),
                          mc.cores = n_cores, mc.preschedule = FALSE)
bad <- vapply(res, inherits, logical(1), "try-error")
if (any(bad)) stop("a worker failed: ", as.character(res[[which(bad)[1]]]))
res <- do.call(rbind, res)
elapsed <- proc.time()[["elapsed"]] - t_start

# ---- table ---------------------------------------------------------------------

tab <- do.call(rbind, lapply(split(res, list(res$dataset, res$k), drop = TRUE), function(g) {
  both <- !is.na(g$ours) & !is.na(g$cec)
  pos <- both & g$ours > 0 & g$cec > 0
  data.frame(dataset = g$dataset[1], k = g$k[1], seeds = nrow(g),
             `CEC failed` = sum(is.na(g$cec)), `ours failed` = sum(is.na(g$ours)),
             `CEC cost < 0` = sum(!is.na(g$cec) & g$cec < 0),
             `median ours / CEC` = if (any(pos)) stats::median(g$ours[pos] / g$cec[pos]) else NA_real_,
             `median ours - CEC` = if (any(both)) stats::median(g$ours[both] - g$cec[both]) else NA_real_,
             `ours <= CEC` = if (any(both)) mean(g$ours[both] <= g$cec[both] + 1e-9) else NA_real_,
             `matched / CEC` = if (any(pos & g$matched > 0, na.rm = TRUE))
               stats::median((g$matched / g$cec)[pos & g$matched > 0], na.rm = TRUE) else NA_real_,
             `matched - CEC` = if (any(both)) stats::median(g$matched[both] - g$cec[both], na.rm = TRUE) else NA_real_,
             `median cost ours` = stats::median(g$ours, na.rm = TRUE),
             `median cost CEC` = stats::median(g$cec, na.rm = TRUE),
             `s ours` = stats::median(g$t_ours), `s CEC` = stats::median(g$t_cec),
             check.names = FALSE)
}))
tab <- tab[order(match(tab$dataset, names(sets)), tab$k), ]
ratio_ok <- is.na(tab$`median ours / CEC`) | tab$`median ours / CEC` <= 1 + 1e-9
diff_ok <- is.na(tab$`median ours - CEC`) | tab$`median ours - CEC` <= 1e-9
mratio_ok <- is.na(tab$`matched / CEC`) | tab$`matched / CEC` <= 1 + 1e-9
mdiff_ok <- is.na(tab$`matched - CEC`) | tab$`matched - CEC` <= 1e-9

lines <- c("# CEC search quality: sideclust::cec against CEC::cec at equal restarts", "",
  "Written by `bench/cec-search.R`.", "",
  sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
  sprintf("- machine: %d cores, %s; run on %d cores, shared with other jobs (timings noisy)",
          parallel::detectCores(), cpu_name(), n_cores),
  sprintf("- R: %s; sideclust %s (bench git %s); CEC %s", R.version.string,
          as.character(utils::packageVersion("sideclust")), git_commit(),
          as.character(utils::packageVersion("CEC"))),
  sprintf("- command: `%s`; %d seeds per data set and k; elapsed %.0f s", command, n_seeds, elapsed),
  "- both: full covariances, k-means++ starts, 10 restarts (nstart), at most 100 passes, clusters removed",
  "  below 5% of the points; set.seed(seed) before each call. Ratios over the seeds where CEC returned a",
  "  result and both costs are positive; differences over the seeds where both returned one.", "",
  "## Cost reached", "",
  md_table(tab, 3), "",
  "## Summary", "",
  sprintf("- median ratio ours / CEC <= 1 on %d of %d (data set, k) rows with a ratio; median difference <= 0 on %d of %d",
          sum(ratio_ok & !is.na(tab$`median ours / CEC`)), sum(!is.na(tab$`median ours / CEC`)),
          sum(diff_ok & !is.na(tab$`median ours - CEC`)), sum(!is.na(tab$`median ours - CEC`))),
  sprintf("- over all %d seeds where both returned a result: ours lower or equal in %.0f%%; CEC failed in %d of %d calls",
          sum(!is.na(res$ours) & !is.na(res$cec)),
          100 * mean((res$ours <= res$cec + 1e-9)[!is.na(res$ours) & !is.na(res$cec)]),
          sum(is.na(res$cec)), nrow(res)),
  sprintf("- with the size rule matched (eps = floor(0.05 n) / n): median ratio <= 1 on %d of %d rows; median difference <= 0 on %d of %d",
          sum(mratio_ok & !is.na(tab$`matched / CEC`)), sum(!is.na(tab$`matched / CEC`)),
          sum(mdiff_ok & !is.na(tab$`matched - CEC`)), sum(!is.na(tab$`matched - CEC`))),
  if (any(!mratio_ok)) sprintf("- rows where ours (matched rule) is worse in the median: %s",
                               paste(sprintf("%s k = %d (%.4f)", tab$dataset[!mratio_ok], tab$k[!mratio_ok],
                                             tab$`matched / CEC`[!mratio_ok]), collapse = "; ")),
  if (any(!ratio_ok)) sprintf("- rows where ours is worse in the median: %s",
                              paste(sprintf("%s k = %d (%.4f)", tab$dataset[!ratio_ok], tab$k[!ratio_ok],
                                            tab$`median ours / CEC`[!ratio_ok]), collapse = "; ")),
  "")
dir.create(dirname(out_file), showWarnings = FALSE, recursive = TRUE)
writeLines(lines, out_file)
saveRDS(res, file.path(tempdir(), "cec-search-raw.rds"))
cat(paste(lines, collapse = "\n"), "\n")
