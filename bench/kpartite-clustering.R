# k-partite clustering (relation summary networks) on planted three-type
# data against clustering each relation separately, and its time per
# iteration on sparse relations with about 10^6 non-zeros.
#
# Run from the repository root, with sideclust installed:
#   Rscript bench/kpartite-clustering.R
#   BENCH_PARTS=quality Rscript bench/kpartite-clustering.R   # quality table only
#   BENCH_PARTS=speed Rscript bench/kpartite-clustering.R     # speed table only
# Each part rewrites only its own section of bench/results/kpartite-clustering.md.
#
# Protocol (quality)
# * three types, users (300) - items (400) - tags (150), with 3, 4 and 3
#   planted equal-size clusters; two relations, users x items and items x
#   tags, of Poisson counts with rate 1 + contrast * M, M the block pattern:
#   users x items  M12 = rbind(c(1, 1, 0, 0), c(0, 0, 1, 1), c(.5, .5, .5, .5))
#   items x tags   M23 = rbind(c(1, 0, .5), c(0, 1, .5), c(1, 0, .5), c(0, 1, .5))
#   so users x items cannot tell item clusters 1 from 2 (nor 3 from 4) and
#   items x tags cannot tell 1 from 3 (nor 2 from 4): only both relations
#   together identify the four item clusters.
# * contrast in {1, 0.5, 0.3}; 3 draws each, draw t of contrast c under
#   set.seed(100 c + t), then every method in turn on the same RNG stream.
# * methods: kpartite_clustering(k = c(3, 4, 3), restarts = 5) with the
#   squared Euclidean distance and with the I-divergence; per relation,
#   itcc(A, k_rows, k_cols) (default 10 restarts) on users x items (users,
#   items) and on items x tags (items, tags); stats::kmeans(nstart = 10) on
#   the rows of each relation and of its transpose, and for the items also on
#   their concatenated rows (cbind(t(A12), A23)).
# * metric: NMI (sqrt normalization, nmi()) per type, mean over draws.
#
# Protocol (speed)
# * users (100,000) - items (50,000) - tags (20,000), 10 planted clusters
#   each; users x items holds 700,000 and items x tags 300,000 draws of
#   (row, column) pairs, the column from the row's planted partner cluster
#   with probability 0.5 and uniform otherwise; duplicates add up (sparse
#   dgCMatrix counts, about 10^6 non-zeros in all).
# * kpartite_clustering(k = 10, restarts = 1) with both divergences: wall-clock
#   seconds of a call with max_iter = 1 and with max_iter = 10; seconds per
#   further iteration = their difference over the extra iterations; medians
#   of 3 repeats; against itcc(users x items, 10, 10, restarts = 1), the
#   package's co-clustering of the larger relation alone (its all-zero rows
#   and columns dropped, as itcc() requires), timed the same way. An itcc
#   iteration is a row and a column step; a kpartite iteration reassigns all
#   three types over both relations.

library(sideclust)
source(file.path("bench", "utils.R"))

parts <- bench_parts()
out_file <- file.path("bench", "results", "kpartite-clustering.md")
command <- bench_command("bench/kpartite-clustering.R")

write_section <- function(name, lines) {
  write_md_section(out_file, name, lines, preamble = bench_preamble(
    "# k-partite clustering: planted three-type data and speed", "bench/kpartite-clustering.R"))
}

# ---- quality ---------------------------------------------------------------

m12 <- rbind(c(1, 1, 0, 0), c(0, 0, 1, 1), c(0.5, 0.5, 0.5, 0.5))
m23 <- rbind(c(1, 0, 0.5), c(0, 1, 0.5), c(1, 0, 0.5), c(0, 1, 0.5))
sizes <- c(users = 300L, items = 400L, tags = 150L)
k_true <- c(users = 3L, items = 4L, tags = 3L)

draw_planted <- function(contrast) {
  truth <- lapply(seq_along(sizes), function(t) sample(rep_len(seq_len(k_true[t]), sizes[t])))
  pois <- function(rate) matrix(stats::rpois(length(rate), rate), nrow(rate))
  list(truth = truth,
       a12 = pois(1 + contrast * m12[truth[[1]], truth[[2]]]),
       a23 = pois(1 + contrast * m23[truth[[2]], truth[[3]]]))
}

# NMI of users, items, tags for every method (NA where a method gives none).
quality_draw <- function(d) {
  nm <- function(t, cl) nmi(d$truth[[t]], cl)
  out <- list()
  for (div in c("euclidean", "idivergence")) {
    fit <- kpartite_clustering(list(d$a12, d$a23), k = k_true, divergence = div, restarts = 5)
    out[[paste0("kpartite (", div, ")")]] <- c(nm(1, fit$clusters[[1]]),
                                               nm(2, fit$clusters[[2]]),
                                               nm(3, fit$clusters[[3]]))
  }
  f12 <- itcc(d$a12, k_true[1], k_true[2])
  f23 <- itcc(d$a23, k_true[2], k_true[3])
  out[["itcc users x items"]] <- c(nm(1, f12$cluster), nm(2, f12$col_cluster), NA)
  out[["itcc items x tags"]] <- c(NA, nm(2, f23$cluster), nm(3, f23$col_cluster))
  km <- function(x, k) stats::kmeans(x, k, nstart = 10)$cluster
  out[["kmeans users x items"]] <- c(nm(1, km(d$a12, k_true[1])),
                                     nm(2, km(t(d$a12), k_true[2])), NA)
  out[["kmeans items x tags"]] <- c(NA, nm(2, km(d$a23, k_true[2])),
                                    nm(3, km(t(d$a23), k_true[3])))
  out[["kmeans items on both"]] <- c(NA, nm(2, km(cbind(t(d$a12), d$a23), k_true[2])), NA)
  out
}

run_quality <- function() {
  t_start <- proc.time()[["elapsed"]]
  contrasts <- c(1, 0.5, 0.3)
  n_draws <- 3L
  rows <- list()
  for (ci in seq_along(contrasts)) {
    draws <- lapply(seq_len(n_draws), function(t) {
      set.seed(100L * ci + t)
      quality_draw(draw_planted(contrasts[ci]))
    })
    for (method in names(draws[[1]])) {
      v <- rowMeans(sapply(draws, `[[`, method))
      rows[[length(rows) + 1L]] <- data.frame(contrast = contrasts[ci], method = method,
                                              users = v[1], items = v[2], tags = v[3])
    }
  }
  tab <- do.call(rbind, rows)
  rownames(tab) <- NULL
  secs <- proc.time()[["elapsed"]] - t_start
  print(tab, digits = 3)
  write_section("quality", c(
    "## Planted three-type data: NMI per type (mean of 3 draws)", "",
    bench_header(command), sprintf("- run time of this part: %.0f s", secs), "",
    md_table(tab, digits = 3), ""))
}

# ---- speed -----------------------------------------------------------------

planted_sparse <- function(n_rows, n_cols, nnz, k) {
  row_cl <- sample(rep_len(seq_len(k), n_rows))
  col_cl <- sample(rep_len(seq_len(k), n_cols))
  by_cluster <- split(seq_len(n_cols), col_cl)
  i <- sample.int(n_rows, nnz, replace = TRUE)
  planted <- stats::runif(nnz) < 0.5
  j <- sample.int(n_cols, nnz, replace = TRUE)
  partner <- row_cl[i]
  for (p in seq_len(k)) {
    at <- which(planted & partner == p)
    j[at] <- by_cluster[[p]][sample.int(length(by_cluster[[p]]), length(at), replace = TRUE)]
  }
  Matrix::sparseMatrix(i = i, j = j, x = 1, dims = c(n_rows, n_cols))
}

# Median seconds of a call with max_iter = 1 (input conversion, start and one
# iteration) and with max_iter = 10; the time of one more iteration is their
# difference over the difference in iterations.
time_iterations <- function(fun, repeats = 3L) {
  one <- ten <- numeric(repeats)
  its <- integer(repeats)
  for (r in seq_len(repeats)) {
    t0 <- proc.time()[["elapsed"]]
    fit1 <- suppressWarnings(fun(1L))
    one[r] <- proc.time()[["elapsed"]] - t0
    t0 <- proc.time()[["elapsed"]]
    fit10 <- suppressWarnings(fun(10L))
    ten[r] <- proc.time()[["elapsed"]] - t0
    its[r] <- fit10$iterations - fit1$iterations
  }
  data.frame(first_call_s = stats::median(one), ten_iterations_s = stats::median(ten),
             iterations = fit10$iterations,
             per_iteration_s = stats::median((ten - one) / its))
}

run_speed <- function() {
  set.seed(7)
  a12 <- planted_sparse(100000L, 50000L, 700000L, 10L)
  a23 <- planted_sparse(50000L, 20000L, 300000L, 10L)
  nnz <- length(a12@x) + length(a23@x)
  # itcc() refuses all-zero rows and columns (a few vertices drew no edge)
  a12_itcc <- a12[Matrix::rowSums(a12) > 0, Matrix::colSums(a12) > 0]
  tab <- rbind(
    cbind(method = "kpartite_clustering, squared Euclidean (both relations)",
          time_iterations(function(it) kpartite_clustering(list(a12, a23), k = 10,
                                                           restarts = 1, max_iter = it))),
    cbind(method = "kpartite_clustering, I-divergence (both relations)",
          time_iterations(function(it) kpartite_clustering(list(a12, a23), k = 10,
                                                           divergence = "idivergence",
                                                           restarts = 1, max_iter = it))),
    cbind(method = "itcc, users x items only",
          time_iterations(function(it) itcc(a12_itcc, 10, 10, restarts = 1, max_iter = it))))
  print(tab, digits = 3)
  write_section("speed", c(
    sprintf("## Time per iteration, sparse relations (%s non-zeros in all)",
            format(nnz, big.mark = ",")), "",
    bench_header(command),
    "- users 100,000, items 50,000, tags 20,000; k = 10 per type; medians of 3 runs",
    "- first_call_s: a call with max_iter = 1 (input checks and conversion, start, one iteration);",
    "  ten_iterations_s: max_iter = 10 (iterations: how many it made); per_iteration_s: the",
    "  difference over the extra iterations", "",
    md_table(tab, digits = 3), ""))
}

if ("quality" %in% parts) run_quality()
if ("speed" %in% parts) run_speed()
