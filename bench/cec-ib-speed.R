# Speed of sideclust::cec() / cec_ib() per Hartigan pass, against CEC::cec.
#
# Run from the repository root, with sideclust and CEC installed:
#   Rscript bench/cec-ib-speed.R
#   BENCH_REPEATS=3 BENCH_PASSES=6 Rscript bench/cec-ib-speed.R   # fewer repeats / passes
#
# Setup
# * data: n = 1e5 points, p = 5, a mixture of 10 Gaussians with equal weights,
#   means ~ N(0, 2.5^2 I) and random full covariances A A' / p + 0.2 I
#   (set.seed(1)); true component of every point kept as its class.
# * the same start for both packages: k-means++ seeds drawn once in R
#   (set.seed(s), the first s >= 2 whose start has every cluster above 5%
#   of the points), every point assigned to its nearest seed (Euclidean) - this
#   is how CEC::cec turns a `centers` matrix into its initial partition
#   (closest_assignment in its init.cpp), and sideclust gets the partition as
#   `start`. Full covariances: CEC::cec(type = "all"), sideclust type = "full";
#   cluster removal below 5% of the points in both (card.min = "5%", eps = 0.05).
# * per-pass time: both packages visit the points in row order and move each
#   to its best cluster (Hartigan); a run limited to m passes minus a run
#   limited to 1 pass, divided by m - 1, cancels the setup (initial
#   statistics, R overhead). The script checks that every timed run really
#   made m passes (did not converge earlier). CEC::cec's iter.max counts
#   passes; its reported `iterations` is iter.max + 1 when the limit is hit
#   (see its starter.cpp), ours is the number of passes.
# * label term cost: cec_ib(x, labels, k, beta = 1) with 30% labels
#   (sample_labels(y, 0.3), set.seed(3)) against cec(x, k), same start, same
#   per-pass measure. Target: at most 20% more time per pass.
# * medians over BENCH_REPEATS (default 5) repeats of every timed call.
# * every family (issue 20): the same data and start, one family for all
#   clusters, against CEC::cec's type of the same family: full / "all",
#   diagonal, spherical, fixed_covariance / "covariance" (G = cov(x) / 4),
#   fixed_spherical / "fixedr" (r = 1), eigenvalues (the eigenvalues of
#   cov(x) / 4), fixed_mean / "mean" (the data mean); per-pass time as above
#   (BENCH_FAMILY_REPEATS, default 3, repeats); a family whose run converges
#   before m passes is timed over the passes it made (column passes done).

library(sideclust)
source(file.path("bench", "utils.R"))

n <- 1e5L
p <- 5L
k <- 10L
n_repeats <- as.integer(Sys.getenv("BENCH_REPEATS", "5"))
m_passes <- as.integer(Sys.getenv("BENCH_PASSES", "8"))
out_file <- file.path("bench", "results", "cec-ib-speed.md")
env_prefix <- Sys.getenv(c("BENCH_REPEATS", "BENCH_PASSES"))
env_prefix <- env_prefix[env_prefix != ""]
command <- paste(c(sprintf("%s=%s", names(env_prefix), env_prefix),
                   "Rscript bench/cec-ib-speed.R"), collapse = " ")
has_cec_pkg <- requireNamespace("CEC", quietly = TRUE)

# ---- data and start ----------------------------------------------------------------

set.seed(1)
sim <- simulate_gaussian_mixture(n, p, k)
x <- sim$x
y <- sim$y

# k-means++ seeds (D^2 sampling) and the nearest-seed partition.
kmeanspp <- function(x, k) {
  centers <- matrix(0, k, ncol(x))
  centers[1, ] <- x[sample.int(nrow(x), 1L), ]
  d2 <- colSums((t(x) - centers[1, ])^2)
  for (j in 2:k) {
    centers[j, ] <- x[sample.int(nrow(x), 1L, prob = d2), ]
    d2 <- pmin(d2, colSums((t(x) - centers[j, ])^2))
  }
  centers
}
nearest <- function(x, centers) {
  d <- vapply(seq_len(nrow(centers)), function(j) colSums((t(x) - centers[j, ])^2),
              numeric(nrow(x)))
  max.col(-d, ties.method = "first")
}
# The first seed from 2 on whose start keeps every cluster above 5% of the
# points (so no cluster is removed before the first pass).
for (start_seed in 2:200) {
  set.seed(start_seed)
  centers0 <- kmeanspp(x, k)
  start0 <- nearest(x, centers0)
  if (all(tabulate(start0, k) >= 0.05 * n)) break
}
stopifnot(all(tabulate(start0, k) >= 0.05 * n))
set.seed(3)
labels30 <- sample_labels(y, 0.3)

# ---- timing ------------------------------------------------------------------------

run_ours <- function(passes, labels = NULL) {
  if (is.null(labels)) {
    cec(x, k, type = "full", max_iter = passes, eps = 0.05, start = start0)
  } else {
    cec_ib(x, labels, k, beta = 1, type = "full", max_iter = passes, eps = 0.05,
           start = start0)
  }
}
run_peer <- function(passes) {
  CEC::cec(x, centers = centers0, type = "all", iter.max = passes, nstart = 1,
           card.min = "5%", threads = 1)
}

# Median elapsed seconds of `repeats` calls, and the last fit.
time_it <- function(f, repeats = n_repeats) {
  secs <- numeric(repeats)
  fit <- NULL
  for (r in seq_len(repeats)) {
    gc(verbose = FALSE)
    t0 <- proc.time()[["elapsed"]]
    fit <- f()
    secs[r] <- proc.time()[["elapsed"]] - t0
  }
  list(median = stats::median(secs), min = min(secs), max = max(secs), fit = fit)
}

measure <- function(name, f, peer = FALSE) {
  one <- time_it(function() f(1L))
  many <- time_it(function() f(m_passes))
  done_1 <- if (peer) min(one$fit$iterations, 1L) else one$fit$iterations
  done_m <- if (peer) min(many$fit$iterations, m_passes) else many$fit$iterations
  data.frame(method = name, `t(1 pass), s` = one$median,
             `t(m passes), s` = many$median, `passes done (1 / m)` = sprintf("%d / %d", done_1, done_m),
             `per pass, s` = (many$median - one$median) / (m_passes - 1L),
             `range t(m), s` = sprintf("%.3f-%.3f", many$min, many$max),
             check.names = FALSE, stringsAsFactors = FALSE)
}

t_start <- proc.time()[["elapsed"]]
rows <- list(measure("sideclust::cec", function(m) run_ours(m)),
             measure("sideclust::cec_ib (30% labels, beta = 1)", function(m) run_ours(m, labels30)))
if (has_cec_pkg) rows <- c(rows, list(measure("CEC::cec", run_peer, peer = TRUE)))
tab <- do.call(rbind, rows)
full_ours <- run_ours(100L)

# ---- every family ------------------------------------------------------------------

family_repeats <- as.integer(Sys.getenv("BENCH_FAMILY_REPEATS", "3"))
cov_x <- stats::cov(x)
families <- list(
  full = list(cec = "all", param = NULL),
  diagonal = list(cec = "diagonal", param = NULL),
  spherical = list(cec = "spherical", param = NULL),
  fixed_covariance = list(cec = "covariance", param = cov_x / 4),
  fixed_spherical = list(cec = "fixedr", param = 1),
  eigenvalues = list(cec = "eigenvalues",
                     param = eigen(cov_x, symmetric = TRUE, only.values = TRUE)$values / 4),
  fixed_mean = list(cec = "mean", param = colMeans(x)))
# Per-pass seconds of f(passes) (a fit), from t(m) - t(1) over the passes made.
per_pass <- function(f, passes_of) {
  one <- time_it(function() f(1L), family_repeats)
  many <- time_it(function() f(m_passes), family_repeats)
  done <- passes_of(many$fit)
  list(per_pass = if (done > 1) (many$median - one$median) / (done - 1) else NA_real_,
       done = done, t_m = many$median)
}
family_rows <- lapply(names(families), function(type) {
  fam <- families[[type]]
  ours <- per_pass(function(m) cec(x, k, type = type, param = fam$param, max_iter = m,
                                   eps = 0.05, start = start0),
                   function(fit) fit$iterations)
  peer <- if (has_cec_pkg) {
    per_pass(function(m) CEC::cec(x, centers = centers0, type = fam$cec, param = fam$param,
                                  iter.max = m, nstart = 1, card.min = "5%", threads = 1),
             function(fit) min(fit$iterations, m_passes))
  } else list(per_pass = NA_real_, done = NA_integer_, t_m = NA_real_)
  data.frame(family = type, `CEC type` = fam$cec,
             `passes done (ours / CEC)` = sprintf("%d / %s", ours$done, peer$done),
             `ours per pass, s` = ours$per_pass, `CEC per pass, s` = peer$per_pass,
             `ratio ours / CEC` = ours$per_pass / peer$per_pass, check.names = FALSE)
})
family_tab <- do.call(rbind, family_rows)
elapsed <- proc.time()[["elapsed"]] - t_start

# Same start, same visiting order: the partitions after 1 and m passes should agree.
agree <- NULL
if (has_cec_pkg) {
  agree_at <- function(passes) {
    a <- run_ours(passes)
    b <- run_peer(passes)
    data.frame(passes = as.integer(passes),
               `ARI between the two partitions` = ari(a$cluster, b$cluster),
               `cost sideclust` = a$cost, `cost CEC` = utils::tail(b$cost.function, 1),
               `k sideclust` = as.integer(a$k),
               `k CEC` = as.integer(b$nclusters[length(b$nclusters)]),
               check.names = FALSE)
  }
  agree <- rbind(agree_at(1L), agree_at(m_passes))
}

ours_pp <- tab$`per pass, s`[tab$method == "sideclust::cec"]
ib_pp <- tab$`per pass, s`[grepl("cec_ib", tab$method)]
peer_pp <- if (has_cec_pkg) tab$`per pass, s`[tab$method == "CEC::cec"] else NA
label_extra <- ib_pp / ours_pp - 1

# ---- report ----------------------------------------------------------------------

commit <- git_commit()
cpu <- cpu_name()
pv <- function(p) tryCatch(as.character(utils::packageVersion(p)), error = function(e) "not installed")

lines <- c(
  "# CEC / CEC-IB speed per Hartigan pass (sideclust vs CEC::cec)", "",
  "Written by `bench/cec-ib-speed.R`.", "",
  sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
  sprintf("- machine: %d cores (parallel::detectCores()), %s; %s; single-threaded runs",
          parallel::detectCores(), cpu, R.version$platform),
  sprintf("- R: %s; sideclust %s (bench git %s); CEC %s", R.version.string,
          pv("sideclust"), commit, pv("CEC")),
  sprintf("- command: `%s` (from the repository root)", command),
  sprintf("- data: n = %d, p = %d, k = %d (Gaussian mixture, full covariances); same start partition for all (k-means++ seeds with set.seed(%d), nearest seed)",
          n, p, k, start_seed),
  sprintf("- repeats: medians of %d calls each; m = %d passes; per pass = (t(m) - t(1)) / (m - 1); elapsed %.0f s",
          n_repeats, m_passes, elapsed),
  sprintf("- for reference, sideclust::cec from this start converges in %d passes (k = %d)",
          full_ours$iterations, full_ours$k), "",
  "## Time per pass", "",
  md_table(tab, 3), "",
  "## Summary", "",
  if (has_cec_pkg) sprintf("- sideclust::cec per pass: %s s vs CEC::cec %s s: ratio sideclust / CEC = **%.2f**",
                           fmt(ours_pp, 3), fmt(peer_pp, 3), ours_pp / peer_pp)
  else "- CEC is not installed: no peer timing.",
  sprintf("- CEC-IB label term (30%% labels, beta = 1): %s s per pass vs %s s for cec: **%+.0f%%** (target: at most +20%%) -> %s",
          fmt(ib_pp, 3), fmt(ours_pp, 3), 100 * label_extra,
          if (label_extra <= 0.2) "**met**" else "**not met**"),
  "",
  "## Every family: time per pass against CEC::cec", "",
  sprintf("Same data and start, one family for all %d clusters; medians of %d repeats; m = %d passes.",
          k, family_repeats, m_passes),
  "CEC::cec reports iter.max + 1 iterations when it hits the limit; a run that converged earlier is",
  "timed over the passes it made.", "",
  md_table(family_tab, 3), "",
  sprintf("- ratio <= 1 (goal) on %d of %d families",
          sum(family_tab$`ratio ours / CEC` <= 1, na.rm = TRUE), sum(!is.na(family_tab$`ratio ours / CEC`))),
  "",
  if (!is.null(agree)) c("## Same start, same partitions?", "",
                         "sideclust::cec and CEC::cec after the same number of passes from the same start",
                         "(both Hartigan in row order; sideclust recomputes the statistics after each pass):", "",
                         md_table(agree, 4), ""))
dir.create(dirname(out_file), showWarnings = FALSE, recursive = TRUE)
writeLines(lines, out_file)
cat(paste(lines, collapse = "\n"), "\n")
