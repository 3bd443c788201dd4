# Multivariate information bottleneck on planted data: recovery (NMI) of
# parallel_ib() and symmetric_ib() against sib() and itcc(), and time per
# pass on sparse count matrices.
#
# Run from the repository root:
#   Rscript bench/multivariate-ib.R
#   BENCH_REPEATS=1 Rscript bench/multivariate-ib.R   # fewer timing repeats
#
# Setup (sparse dgCMatrix throughout, beta = Inf for both methods)
# * two groupings: rows carry two independent planted groupings a and b
#   (3 groups each, random); the first half of the columns is cut into 3
#   blocks that belong to a's groups, the second half into 3 blocks for b's.
#   Each row draws `per_row` column indices, half in each half; a draw lands in
#   its group's block with probability 1 - noise, else anywhere in that half.
#   parallel_ib(k = c(3, 3)) (greedy and random starts) and sib(k = 9) are
#   scored by NMI of the 9-cell product partition with a x b, each parallel
#   clustering also by its NMI with the closer of a and b; sib(k = 3) by its
#   NMI with a and with b (it can follow one grouping only).
# * co-clusters: 5 row groups and 5 column blocks; a row of group g draws a
#   column block from row g of B (B[g, g] = B[g, g %% 5 + 1] = 0.5), with
#   probability noise uniformly instead, then a column uniformly in the block.
#   symmetric_ib(5, 5) and itcc(5, 5): NMI of rows and columns; sib(k = 5):
#   rows.
# * restarts: 3 for every method; at most 50 passes / iterations.
# * speed: the methods' own per-pass wall time (`pass_seconds`; parallel_ib:
#   the passes over all clusterings only, after its greedy stages), median
#   over the passes of BENCH_REPEATS runs of 5 passes, with sib's per-pass time
#   at the same number of cells (prod(k) for parallel, k_rows for symmetric)
#   measured in the same run as the peer. The iterative (soft) methods:
#   whole-call time of 5 iterations divided by 5, against ib() likewise.

library(sideclust)
source(file.path("bench", "utils.R"))

n_repeats <- as.integer(Sys.getenv("BENCH_REPEATS", "3"))
out_file <- file.path("bench", "results", "multivariate-ib.md")
command <- bench_command("bench/multivariate-ib.R", "BENCH_REPEATS")
t_start <- proc.time()[["elapsed"]]

# Column draws of one half: own block w.p. 1 - noise, else anywhere in it.
draw_half <- function(group, n_groups, n_cols, noise) {
  block <- n_cols %/% n_groups
  own <- stats::runif(length(group)) > noise
  ifelse(own, (group - 1L) * block + sample.int(block, length(group), TRUE),
         sample.int(n_cols, length(group), TRUE))
}

two_groupings <- function(n, m, per_row, noise, seed) {
  set.seed(seed)
  a <- sample(rep_len(1:3, n))
  b <- sample(rep_len(1:3, n))
  half <- m %/% 2
  rows <- rep(seq_len(n), each = per_row / 2)
  cols <- c(draw_half(a[rows], 3L, half, noise), half + draw_half(b[rows], 3L, half, noise))
  list(x = Matrix::sparseMatrix(i = c(rows, rows), j = cols, x = 1, dims = c(n, m)),
       a = a, b = b)
}

coclusters <- function(n, m, per_row, noise, seed, k = 5L) {
  set.seed(seed)
  g <- sample(rep_len(seq_len(k), n))
  col_g <- sample(rep_len(seq_len(k), m))
  rows <- rep(seq_len(n), each = per_row)
  target <- ifelse(stats::runif(length(rows)) < 0.5, g[rows], g[rows] %% k + 1L)
  block <- ifelse(stats::runif(length(rows)) < noise, sample.int(k, length(rows), TRUE), target)
  members <- split(seq_len(m), col_g)
  cols <- vapply(seq_along(rows), function(i) {
    v <- members[[block[i]]]
    v[sample.int(length(v), 1L)]
  }, integer(1))
  list(x = Matrix::sparseMatrix(i = rows, j = cols, x = 1, dims = c(n, m)), rows = g,
       cols = col_g)
}

elapsed <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  force(expr)
  proc.time()[["elapsed"]] - t0
}

n <- 2000L
m <- 500L
per_row <- 40L
noises <- c(0.5, 0.7, 0.8, 0.9)

# ---- parallel IB: two independent groupings --------------------------------------

par_rows <- NULL
for (noise in noises) {
  d <- two_groupings(n, m, per_row, noise, seed = 1)
  set.seed(2)
  t_par <- elapsed(fit <- parallel_ib(d$x, k = c(3, 3), restarts = 3, max_iter = 50))
  c1 <- fit$clusters[, 1]
  c2 <- fit$clusters[, 2]
  set.seed(2)
  rnd <- parallel_ib(d$x, k = c(3, 3), restarts = 3, max_iter = 50, init = "random")
  set.seed(2)
  s3 <- sib(d$x, k = 3, restarts = 3, max_iter = 50)
  set.seed(2)
  s9 <- sib(d$x, k = 9, restarts = 3, max_iter = 50)
  truth_ab <- interaction(d$a, d$b)
  par_rows <- rbind(par_rows, data.frame(
    noise = noise, `product vs a x b` = nmi(interaction(c1, c2), truth_ab),
    `C1 vs a or b` = max(nmi(c1, d$a), nmi(c1, d$b)),
    `C2 vs a or b` = max(nmi(c2, d$a), nmi(c2, d$b)),
    `random init: product` = nmi(interaction(rnd$clusters[, 1], rnd$clusters[, 2]), truth_ab),
    `sib k=3: a` = nmi(s3$cluster, d$a), `sib k=3: b` = nmi(s3$cluster, d$b),
    `sib k=9 vs a x b` = nmi(s9$cluster, truth_ab),
    `I(C1,C2;Y) / sib9 I(C;Y)` = fit$info_y / s9$info_y, passes = fit$iterations,
    `parallel s` = t_par, check.names = FALSE))
  both <- nmi(interaction(c1, c2), truth_ab)
  cat(sprintf("two groupings, noise %.2f: parallel product %.3f, sib3 a/b %.3f/%.3f\n", noise, both,
              nmi(s3$cluster, d$a), nmi(s3$cluster, d$b)))
}

# ---- symmetric IB: planted co-clusters ---------------------------------------------

sym_rows <- NULL
for (noise in noises) {
  d <- coclusters(n, m, per_row, noise, seed = 3)
  set.seed(4)
  t_sym <- elapsed(fit <- symmetric_ib(d$x, 5, 5, restarts = 3, max_iter = 50))
  set.seed(4)
  t_itcc <- elapsed(co <- itcc(d$x, 5, 5, restarts = 3, max_iter = 50))
  set.seed(4)
  s5 <- sib(d$x, k = 5, restarts = 3, max_iter = 50)
  sym_rows <- rbind(sym_rows, data.frame(
    noise = noise, `symmetric rows` = nmi(fit$cluster, d$rows),
    `symmetric cols` = nmi(fit$col_cluster, d$cols), `itcc rows` = nmi(co$cluster, d$rows),
    `itcc cols` = nmi(co$col_cluster, d$cols), `sib rows` = nmi(s5$cluster, d$rows),
    `I(CX;CY) symmetric` = fit$info_clusters, `I(CX;CY) itcc` = co$info_clusters,
    `symmetric s` = t_sym, `itcc s` = t_itcc, check.names = FALSE))
  cat(sprintf("co-clusters, noise %.2f: symmetric %.3f/%.3f, itcc %.3f/%.3f\n", noise,
              nmi(fit$cluster, d$rows), nmi(fit$col_cluster, d$cols),
              nmi(co$cluster, d$rows), nmi(co$col_cluster, d$cols)))
}

# ---- time per pass -------------------------------------------------------------------

sizes <- data.frame(n = c(2000L, 20000L), m = c(500L, 2000L))
# Per-pass times; for parallel_ib only the passes over all clusterings
# (after the greedy start's single-clustering stages).
passes_of <- function(f) {
  unlist(lapply(seq_len(n_repeats), function(r) {
    set.seed(r)
    fit <- f()
    skip <- if (is.null(fit$init_passes)) 0L else fit$init_passes
    fit$pass_seconds[seq_along(fit$pass_seconds) > skip]
  }))
}
speed <- NULL
for (s in seq_len(nrow(sizes))) {
  d2 <- two_groupings(sizes$n[s], sizes$m[s], per_row, 0.8, seed = 5)
  dc <- coclusters(sizes$n[s], sizes$m[s], per_row, 0.8, seed = 6)
  cases <- list(
    list(what = "parallel_ib k = (3, 3)", x = d2$x, k_sib = 9L,
         f = function() parallel_ib(d2$x, k = c(3, 3), restarts = 1, max_iter = 5)),
    list(what = "parallel_ib k = (5, 5)", x = d2$x, k_sib = 25L,
         f = function() parallel_ib(d2$x, k = c(5, 5), restarts = 1, max_iter = 5)),
    list(what = "symmetric_ib 5 x 5", x = dc$x, k_sib = 5L,
         f = function() symmetric_ib(dc$x, 5, 5, restarts = 1, max_iter = 5)),
    list(what = "symmetric_ib 20 x 20", x = dc$x, k_sib = 20L,
         f = function() symmetric_ib(dc$x, 20, 20, restarts = 1, max_iter = 5)))
  for (cs in cases) {
    own <- passes_of(cs$f)
    peer <- passes_of(function() sib(cs$x, cs$k_sib, restarts = 1, max_iter = 5))
    speed <- rbind(speed, data.frame(
      rows = format(sizes$n[s], big.mark = ","), cols = format(sizes$m[s], big.mark = ","),
      nnz = format(length(cs$x@x), big.mark = ","), method = cs$what,
      `ms / pass` = 1e3 * stats::median(own), `passes timed` = length(own),
      `sib k` = cs$k_sib, `sib ms / pass` = 1e3 * stats::median(peer),
      ratio = stats::median(own) / stats::median(peer), check.names = FALSE))
    cat(sprintf("%d x %d %s: %.2f ms per pass (sib k = %d: %.2f ms)\n", sizes$n[s],
                sizes$m[s], cs$what, 1e3 * stats::median(own), cs$k_sib,
                1e3 * stats::median(peer)))
  }
}

# Iterative (soft) methods: whole-call time of 5 iterations (tol = 0) divided
# by 5; peer ib() with as many clusters as cells, same data, same run.
per_iteration <- function(f) {
  stats::median(vapply(seq_len(n_repeats), function(r) {
    set.seed(r)
    elapsed(fit <- f()) / fit$iterations
  }, 0))
}
soft <- NULL
for (s in seq_len(nrow(sizes))) {
  d2 <- two_groupings(sizes$n[s], sizes$m[s], per_row, 0.8, seed = 5)
  dc <- coclusters(sizes$n[s], sizes$m[s], per_row, 0.8, seed = 6)
  cases <- list(
    list(what = "parallel_ib iterative k = (3, 3)", x = d2$x, k_ib = 9L,
         f = function() parallel_ib(d2$x, c(3, 3), beta = 50, method = "iterative",
                                    restarts = 1, max_iter = 5, tol = 0)),
    list(what = "symmetric_ib iterative 5 x 5", x = dc$x, k_ib = 5L,
         f = function() symmetric_ib(dc$x, 5, 5, beta = 50, method = "iterative",
                                     restarts = 1, max_iter = 5, tol = 0)))
  for (cs in cases) {
    own <- per_iteration(cs$f)
    peer <- per_iteration(function() ib(cs$x, cs$k_ib, beta = 50, restarts = 1, max_iter = 5,
                                        tol = 0))
    soft <- rbind(soft, data.frame(
      rows = format(sizes$n[s], big.mark = ","), cols = format(sizes$m[s], big.mark = ","),
      method = cs$what, `ms / iteration` = 1e3 * own, `ib k` = cs$k_ib,
      `ib ms / iteration` = 1e3 * peer, ratio = own / peer, check.names = FALSE))
    cat(sprintf("%d x %d %s: %.2f ms per iteration (ib: %.2f ms)\n", sizes$n[s], sizes$m[s],
                cs$what, 1e3 * own, 1e3 * peer))
  }
}
total <- proc.time()[["elapsed"]] - t_start

# ---- report -------------------------------------------------------------------------

lines <- c(
  "# Multivariate information bottleneck: planted data and time per pass", "",
  "Written by `bench/multivariate-ib.R`.", "",
  sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
  sprintf("- machine: %d cores (parallel::detectCores()), %s; %s; single-threaded runs; the cores are shared with other jobs, so timings may be perturbed",
          parallel::detectCores(), cpu_name(), R.version$platform),
  sprintf("- R: %s; sideclust %s (bench git %s); Matrix %s", R.version.string,
          as.character(utils::packageVersion("sideclust")), git_commit(),
          as.character(utils::packageVersion("Matrix"))),
  sprintf("- command: `%s` (from the repository root); elapsed %.0f s", command, total),
  sprintf("- data: %s x %s sparse counts, %d draws per row (see the script header); beta = Inf; 3 restarts and at most 50 passes for every method",
          format(n, big.mark = ","), m, per_row),
  "", "## Parallel IB: two independent groupings (3 x 3)", "",
  "parallel_ib(k = c(3, 3)), greedy starts (the default): NMI of the product of its two clusterings with the planted a x b, and of each clustering with the closer of a and b (the second may legitimately be a mixture of a and b that gives the same cells, see ?parallel_ib); the same product NMI from random starts (`init = \"random\"`); sib with k = 3 (one clustering) and k = 9 (as many cells as the product). `parallel s`: the whole greedy call.", "",
  md_table(par_rows, 3), "",
  "## Symmetric IB: planted 5 x 5 co-clusters", "",
  "NMI of row and column clusters; sib(k = 5) clusters rows only. Times are whole calls (3 restarts).", "",
  md_table(sym_rows, 3), "",
  "## Time per pass (noise 0.8)", "",
  sprintf("Median over the passes of %d runs of at most 5 passes (`pass_seconds`; parallel_ib: only the passes over all clusterings, after the greedy stages; a symmetric pass is a row and a column half-pass, each followed by a rebuild of the cluster joint); peer: sib's own per-pass time with as many clusters as cells, same data, same run.",
          n_repeats), "",
  md_table(speed, 3), "",
  "## Iterative (soft) methods: time per iteration (noise 0.8, beta = 50)", "",
  sprintf("Whole call of 5 iterations (tol = 0, one start, includes input conversion) divided by 5, median of %d; peer: ib() with as many clusters as cells, timed the same way in the same run.",
          n_repeats), "",
  md_table(soft, 3), "")
write_md_section(out_file, "multivariate-ib", lines, preamble = character(0))
cat(lines, sep = "\n")
