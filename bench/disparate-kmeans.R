# Disparate k-means: quality on data with two known groupings, and speed
# against stats::kmeans.
#
# Run from the repository root, with sideclust installed:
#   Rscript bench/disparate-kmeans.R
# Writes bench/results/disparate-kmeans.md and prints the same tables.
#
# (a) Quality. Methods, each giving two clusterings:
#   - disparate_kmeans() at the default lambda (10 n / v, v = mean squared
#     norm of the centred rows) and at n / v and 100 n / v (restarts = 10);
#   - "two k-means": stats::kmeans(nstart = 10) run twice (Hartigan-Wong);
#   - "k-means on residuals": k-means, then k-means on the centred data
#     projected onto the orthogonal complement of the first clustering's
#     (centred) centres, a simple alternative-clustering baseline.
#   Data: (1) synthetic: n points, 4 blobs at (+-4, +-2.5) in the first two
#   coordinates plus 3 noise coordinates, all with N(0, 1) noise; truth A is
#   the sign of the first coordinate, truth B of the second; k = 2. 10 draws
#   per n. (2) iris x wine: no data set here has two known groupings, so one
#   is built from two real ones: 144 rows, each an iris flower (48 of each
#   species) next to a wine (48 of each cultivar), paired at random so that
#   every species meets every cultivar 16 times; columns: the 4 iris and 13
#   wine features, each standardized; truths: species and cultivar; k = 3.
#   10 random pairings.
#   Scores: the two clusterings are matched to the two truths (the matching
#   with the larger sum of NMIs), and the table gives the mean NMI of the
#   matched clustering to truth A and to truth B, and the NMI between the two
#   clusterings (0 = independent, 1 = the same grouping twice).
#
# (b) Speed: n in {1e4, 1e5}, p = 10, k = c(4, 4): one grouping of 4 blobs in
#   coordinates 1-2, an independent one in coordinates 3-4, N(0, 1) noise.
#   Per iteration: (t(max_iter = M) - t(max_iter = 1)) / (iterations - 1)
#   for disparate_kmeans() from fixed starts (4 + 4 points of one blob) at the
#   default lambda, and the same for stats::kmeans(algorithm = "Lloyd") from
#   the same two sets of starts, run twice (one per clustering), with
#   iter.max = that many iterations. Total: one default call
#   disparate_kmeans(x, k = c(4, 4)) (10 restarts) against two calls of
#   kmeans(x, 4, nstart = 10, algorithm = "Lloyd"). Medians over repeats.

library(sideclust)
source(file.path("bench", "utils.R"))

out_file <- file.path("bench", "results", "disparate-kmeans.md")
command <- "Rscript bench/disparate-kmeans.R"
seed <- 20261123L
t_start <- proc.time()[["elapsed"]]

# ---- methods -----------------------------------------------------------------

default_lambda <- function(x) {
  xc <- scale(x, scale = FALSE)
  10 * nrow(x) / mean(rowSums(xc^2))
}

methods <- list(
  "disparate_kmeans, lambda = n/v" = function(x, k) {
    f <- disparate_kmeans(x, k, lambda = default_lambda(x) / 10)
    list(f$cluster, f$cluster2)
  },
  "disparate_kmeans, default (10 n/v)" = function(x, k) {
    f <- disparate_kmeans(x, k)
    list(f$cluster, f$cluster2)
  },
  "disparate_kmeans, lambda = 100 n/v" = function(x, k) {
    f <- disparate_kmeans(x, k, lambda = 10 * default_lambda(x))
    list(f$cluster, f$cluster2)
  },
  "two k-means" = function(x, k) {
    list(stats::kmeans(x, k, nstart = 10)$cluster, stats::kmeans(x, k, nstart = 10)$cluster)
  },
  "k-means on residuals" = function(x, k) {
    xc <- scale(x, scale = FALSE)
    km1 <- stats::kmeans(xc, k, nstart = 10)
    q <- qr(t(km1$centers))
    basis <- qr.Q(q)[, seq_len(q$rank), drop = FALSE]
    resid <- xc - xc %*% basis %*% t(basis)
    list(km1$cluster, stats::kmeans(resid, k, nstart = 10)$cluster)
  }
)

score <- function(cl, truth_a, truth_b) {
  straight <- c(nmi(truth_a, cl[[1]]), nmi(truth_b, cl[[2]]))
  crossed <- c(nmi(truth_a, cl[[2]]), nmi(truth_b, cl[[1]]))
  best <- if (sum(straight) >= sum(crossed)) straight else crossed
  c(nmi_a = best[1], nmi_b = best[2], between = nmi(cl[[1]], cl[[2]]))
}

run_quality <- function(make, draws, k) {
  rows <- list()
  for (d in seq_len(draws)) {
    data <- make(d)
    for (m in names(methods)) {
      set.seed(seed + d)
      s <- score(methods[[m]](data$x, k), data$a, data$b)
      rows[[length(rows) + 1L]] <- data.frame(method = m, draw = d, t(s))
    }
  }
  res <- do.call(rbind, rows)
  agg <- stats::aggregate(res[c("nmi_a", "nmi_b", "between")], res["method"], mean)
  agg[match(names(methods), agg$method), ]
}

# ---- (a) quality: synthetic ----------------------------------------------------

make_blobs <- function(n) function(d) {
  set.seed(seed + 1000L * d + n)
  a <- sample(c(-1, 1), n, replace = TRUE)
  b <- sample(c(-1, 1), n, replace = TRUE)
  x <- cbind(4 * a, 2.5 * b, matrix(0, n, 3)) + matrix(stats::rnorm(n * 5), n)
  list(x = x, a = a, b = b)
}

quality <- list()
for (n in c(200L, 1000L, 5000L)) {
  q <- run_quality(make_blobs(n), draws = 10L, k = 2L)
  quality[[length(quality) + 1L]] <- data.frame(data = sprintf("blobs, n = %d", n), q)
  cat(sprintf("quality, blobs n = %d: done (%.0f s)\n", n, proc.time()[["elapsed"]] - t_start))
}

# ---- (a) quality: iris x wine ----------------------------------------------------

wine_env <- new.env()
utils::data("wine", package = "sideclust", envir = wine_env)
wine <- wine_env$wine
make_iris_wine <- function(d) {
  set.seed(seed + 500L + d)
  iris_rows <- unlist(lapply(split(seq_len(150), iris$Species), sample, 48))
  wine_by_class <- lapply(split(seq_len(nrow(wine)), wine$class), sample, 48)
  # every species meets every cultivar 16 times: species block s (48 rows)
  # takes 16 wines of each cultivar, then rows are paired at random inside
  # the block.
  wine_rows <- integer(0)
  for (s in 1:3) {
    block <- unlist(lapply(wine_by_class, function(w) w[(s - 1) * 16 + 1:16]))
    wine_rows <- c(wine_rows, sample(block))
  }
  feats <- as.matrix(wine[, names(wine) != "class"])
  x <- cbind(scale(as.matrix(iris[iris_rows, 1:4])), scale(feats[wine_rows, ]))
  list(x = x, a = iris$Species[iris_rows], b = wine$class[wine_rows])
}
q <- run_quality(make_iris_wine, draws = 10L, k = 3L)
quality[[length(quality) + 1L]] <- data.frame(data = "iris x wine (A = species, B = cultivar)", q)
cat(sprintf("quality, iris x wine: done (%.0f s)\n", proc.time()[["elapsed"]] - t_start))
quality <- do.call(rbind, quality)
names(quality) <- c("data", "method", "NMI to truth A", "NMI to truth B",
                    "NMI between the clusterings")

# ---- (b) speed -----------------------------------------------------------------

make_speed_data <- function(n) {
  set.seed(seed + n)
  corners <- rbind(c(-3, -3), c(-3, 3), c(3, -3), c(3, 3))
  g1 <- sample.int(4, n, replace = TRUE)
  g2 <- sample.int(4, n, replace = TRUE)
  x <- matrix(stats::rnorm(n * 10), n, 10)
  x[, 1:2] <- x[, 1:2] + corners[g1, ]
  x[, 3:4] <- x[, 3:4] + corners[g2, ]
  list(x = x, g1 = g1, g2 = g2)
}

elapsed <- function(f, times = 1L) {
  gc(FALSE)
  t0 <- proc.time()[["elapsed"]]
  for (i in seq_len(times)) out <- f()
  list(time = (proc.time()[["elapsed"]] - t0) / times, out = out)
}

speed <- list()
speed_info <- list()
for (n in c(1e4, 1e5)) {
  sd <- make_speed_data(n)
  x <- sd$x
  repeats <- if (n <= 1e4) 15L else 7L
  inner <- if (n <= 1e4) 10L else 2L
  # Starts from one corner (points of g1 = 1, g2 = 1), so that both methods
  # need several iterations to spread out and there are iterations to time.
  corner <- which(sd$g1 == 1L & sd$g2 == 1L)
  starts <- list(x[corner[1:4], ], x[corner[5:8], ])
  full <- suppressWarnings(disparate_kmeans(x, start = starts, max_iter = 100L))
  m <- full$iterations
  if (m < 3L) stop("the timed run converged too fast to time iterations")
  lloyd <- function(iter) {
    function() {
      a <- suppressWarnings(stats::kmeans(x, starts[[1]], iter.max = iter, algorithm = "Lloyd"))
      b <- suppressWarnings(stats::kmeans(x, starts[[2]], iter.max = iter, algorithm = "Lloyd"))
      c(a$iter, b$iter)
    }
  }
  lloyd_iters <- lloyd(m)()
  res <- list()
  for (r in seq_len(repeats)) {
    d1 <- elapsed(function() suppressWarnings(disparate_kmeans(x, start = starts, max_iter = 1L)), inner)
    dm <- elapsed(function() disparate_kmeans(x, start = starts, max_iter = m), inner)
    l1 <- elapsed(lloyd(1L), inner)
    lm <- elapsed(lloyd(m), inner)
    set.seed(seed + r)
    dt <- elapsed(function() disparate_kmeans(x, k = c(4, 4)))
    set.seed(seed + r)
    lt <- elapsed(function() {
      list(stats::kmeans(x, 4, nstart = 10, iter.max = 100, algorithm = "Lloyd"),
           stats::kmeans(x, 4, nstart = 10, iter.max = 100, algorithm = "Lloyd"))
    })
    res[[r]] <- data.frame(
      dk_iter = (dm$time - d1$time) / (m - 1),
      lloyd_iter = (lm$time - l1$time) / (sum(lm$out) - sum(l1$out)) * 2,
      dk_total = dt$time, lloyd_total = lt$time,
      dk_total_iters = dt$out$iterations)
  }
  res <- do.call(rbind, res)
  med <- vapply(res, stats::median, numeric(1))
  speed[[length(speed) + 1L]] <- data.frame(
    n = format(n, scientific = TRUE),
    `disparate_kmeans ms/iteration` = 1000 * med[["dk_iter"]],
    `2 x Lloyd ms/iteration` = 1000 * med[["lloyd_iter"]],
    `ratio` = med[["dk_iter"]] / med[["lloyd_iter"]],
    `disparate_kmeans total s (10 restarts)` = med[["dk_total"]],
    `2 x kmeans(nstart = 10, Lloyd) total s` = med[["lloyd_total"]],
    `ratio (total)` = med[["dk_total"]] / med[["lloyd_total"]],
    check.names = FALSE)
  speed_info[[length(speed_info) + 1L]] <- sprintf(
    "n = %g: timed run from fixed starts: %d iterations (converged: %s, lambda = %.4g); Lloyd from the same starts: %d and %d passes; kept run of the default call: %s iterations (median)",
    n, m, full$converged, full$lambda, lloyd_iters[1], lloyd_iters[2],
    format(stats::median(res$dk_total_iters)))
  cat(sprintf("speed n = %g: done (%.0f s)\n", n, proc.time()[["elapsed"]] - t_start))
}
speed <- do.call(rbind, speed)

# ---- markdown --------------------------------------------------------------------

lines <- c(
  sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
  sprintf("- machine: %d cores (parallel::detectCores()), %s; %s",
          parallel::detectCores(), cpu_name(), R.version$platform),
  sprintf("- R: %s; sideclust %s (git %s)", R.version.string,
          as.character(utils::packageVersion("sideclust")), git_commit()),
  sprintf("- command: `%s` (from the repository root); total run time %.0f s",
          command, proc.time()[["elapsed"]] - t_start),
  "",
  "## (a) Quality",
  "",
  "Mean over 10 draws. The two clusterings of each method are matched to the two truths",
  "(the matching with the larger NMI sum); NMI = I / sqrt(H1 H2). Synthetic: 4 blobs at",
  "(+-4, +-2.5) plus 3 noise coordinates, N(0, 1) noise, k = 2; truth A = sign of the",
  "first coordinate, B = sign of the second (NMI of the Bayes rule about 1.00 for A and",
  "0.95 for B). iris x wine: 144 rows pairing an iris flower with a wine so that species",
  "and cultivar are independent (16 rows per species x cultivar), 4 + 13 standardized",
  "columns, k = 3. v = mean squared norm of the centred rows.",
  "",
  md_table(quality, digits = 3), "",
  "## (b) Speed",
  "",
  "p = 10, k = c(4, 4): two independent groupings of 4 blobs (coordinates 1-2 and 3-4).",
  "Per iteration: (t(max_iter = M) - t(max_iter = 1)) / (M - 1) from fixed starts (4 + 4",
  "points of one blob, so that there are several iterations to time), default lambda;",
  "Lloyd: two stats::kmeans(algorithm = \"Lloyd\") runs from",
  "the same starts, the same difference per pass of each, summed over the two runs.",
  "Total: disparate_kmeans(x, k = c(4, 4)) (kmeans++ seeds, 10 restarts, default lambda)",
  "against two kmeans(x, 4, nstart = 10, algorithm = \"Lloyd\") calls; medians over 15",
  "(n = 1e4; per-iteration timings each the mean of 10 calls) or 7 (n = 1e5; mean of 2",
  "calls) repeats.",
  "",
  md_table(speed, digits = 3), "",
  paste("-", unlist(speed_info)), "")
# The results replace their block of the file; the summary above them is
# written by hand after a run and kept when the script is rerun.
write_md_section(out_file, "results", lines, preamble = c(
  "# Disparate k-means: quality and speed", "",
  "<!-- begin summary -->", "(summary to be written after the run)", "<!-- end summary -->", ""))
cat(paste(lines, collapse = "\n"), "\n")
