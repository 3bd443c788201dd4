# Discriminative clustering against k-means: how much the clusters say about
# the classes on held-out points, and the time per iteration.
#
# Run from the repository root, with sideclust installed:
#   Rscript bench/discriminative-clustering.R
#   BENCH_PARTS=quality Rscript bench/discriminative-clustering.R   # quality only
#   BENCH_PARTS=speed Rscript bench/discriminative-clustering.R     # speed only
# Each part rewrites only its own section of
# bench/results/discriminative-clustering.md.
#
# Protocol (quality)
# * data: iris, wine (packaged), features standardized with scale(); the
#   planted example: n = 400, two classes alternating, coordinate 1 ~ N(0, 3^2)
#   for both, coordinate 2 ~ N(-1 or +1, 0.4^2) by class (not scaled: the
#   point is that the high-variance coordinate carries no class information).
#   k = number of classes.
# * 10 draws per data set; draw t of data set d uses set.seed(100 d + t): a
#   random half of the points keeps its label (the fit's labels), the other
#   half is held out (label NA for the fit).
# * methods: discriminative_clustering(x, labels, k) with its defaults
#   (method = "bayes_factor", sigma = s k^(-1/p), n0 = 1, 10 restarts); the
#   same with method = "stochastic" (50 epochs, step 0.1, 10 restarts);
#   stats::kmeans(x, k, nstart = 10) on all points (it uses no labels).
# * metrics on the held-out points only: NMI (sqrt normalization, nmi())
#   between hard clusters and the true classes, and the empirical mutual
#   information I(C;Y) in nats of the clusters x classes table.
#
# Protocol (speed)
# * n = 10,000 points, p = 10, k = 10; 5 classes, class c shifts coordinate 1
#   by c (the other 9 coordinates are N(0, 1) noise); all points labelled.
# * discriminative_clustering(restarts = 1, max_iter = 50, rel_tol = 0,
#   tol = 1e-12) runs all 50 iterations; method = "stochastic" with
#   restarts = 1, epochs = 5 (an epoch is n single-point steps);
#   stats::kmeans(k = 10, algorithm = "Lloyd", iter.max = 50). Time per
#   iteration (epoch) = wall-clock time / iterations; median over 5 repeats.
# * whole calls with the defaults, once each: discriminative_clustering(x, y,
#   k = 10) and stats::kmeans(x, 10, nstart = 10).

library(sideclust)
source(file.path("bench", "utils.R"))

parts <- bench_parts()
out_file <- file.path("bench", "results", "discriminative-clustering.md")
command <- bench_command("bench/discriminative-clustering.R")

write_section <- function(name, lines) {
  write_md_section(out_file, name, lines, preamble = bench_preamble(
    "# Discriminative clustering against k-means", "bench/discriminative-clustering.R"))
}

planted_data <- function(n = 400L, seed = 7L) {
  set.seed(seed)
  y <- rep(1:2, length.out = n)
  x <- cbind(noise = stats::rnorm(n, 0, 3), signal = ifelse(y == 1, -1, 1) + stats::rnorm(n, 0, 0.4))
  list(x = x, y = factor(y), k = 2L)
}

# Empirical mutual information (nats) of two labelings.
mutual_information <- function(a, b) {
  p <- table(a, b) / length(a)
  e <- outer(rowSums(p), colSums(p))
  keep <- p > 0
  sum(p[keep] * log(p[keep] / e[keep]))
}

run_quality <- function() {
  t_start <- proc.time()[["elapsed"]]
  uci <- tvclust_paper_datasets()[c("iris", "wine")]
  datasets <- list(iris = uci$iris, wine = uci$wine, planted = planted_data())
  rows <- list()
  for (d in seq_along(datasets)) {
    ds <- datasets[[d]]
    n <- nrow(ds$x)
    for (t in 1:10) {
      set.seed(100L * d + t)
      held_out <- sample.int(n, n %/% 2L)
      labels <- ds$y
      labels[held_out] <- NA
      t0 <- proc.time()[["elapsed"]]
      fit <- suppressWarnings(discriminative_clustering(ds$x, labels, k = ds$k))
      t_dc <- proc.time()[["elapsed"]] - t0
      t0 <- proc.time()[["elapsed"]]
      sa <- suppressWarnings(discriminative_clustering(ds$x, labels, k = ds$k,
                                                       method = "stochastic"))
      t_sa <- proc.time()[["elapsed"]] - t0
      t0 <- proc.time()[["elapsed"]]
      km <- stats::kmeans(ds$x, ds$k, nstart = 10)
      t_km <- proc.time()[["elapsed"]] - t0
      truth <- ds$y[held_out]
      for (m in list(list("bayes_factor", fit$cluster, t_dc, fit$converged),
                     list("stochastic", sa$cluster, t_sa, NA),
                     list("kmeans", km$cluster, t_km, NA))) {
        cl <- m[[2]][held_out]
        rows[[length(rows) + 1L]] <- data.frame(
          dataset = names(datasets)[d], draw = t, method = m[[1]], nmi = nmi(truth, cl),
          info = mutual_information(cl, truth), seconds = m[[3]], converged = m[[4]])
      }
    }
    cat(sprintf("quality: %-8s done (%.0f s)\n", names(datasets)[d],
                proc.time()[["elapsed"]] - t_start))
  }
  res <- do.call(rbind, rows)
  keys <- interaction(res$dataset, res$method, drop = TRUE, lex.order = TRUE)
  tab <- do.call(rbind, lapply(split(res, keys), function(g) {
    data.frame(dataset = g$dataset[1], method = g$method[1], `NMI (held out)` = mean(g$nmi),
               `sd NMI` = stats::sd(g$nmi), `I(C;Y) held out` = mean(g$info),
               `sd I` = stats::sd(g$info),
               converged = if (all(is.na(g$converged))) NA_character_ else
                 sprintf("%d / %d", sum(g$converged), nrow(g)),
               seconds = mean(g$seconds), check.names = FALSE)
  }))
  tab <- tab[order(match(tab$dataset, names(datasets)),
                   match(tab$method, c("bayes_factor", "stochastic", "kmeans"))), ]
  h_y <- vapply(datasets, function(ds) {
    p <- table(ds$y) / length(ds$y)
    -sum(p * log(p))
  }, numeric(1))
  lines <- c("## Quality on held-out points", "", bench_header(command),
    sprintf("- run time of this part: %.0f s", proc.time()[["elapsed"]] - t_start),
    "- protocol: see the comment at the top of `bench/discriminative-clustering.R`; 10 draws per data set, half the points labelled, metrics on the other half, k = number of classes.",
    sprintf("- class entropy H(Y) (the largest possible I(C;Y)), nats: %s.",
            paste(sprintf("%s %.3f", names(h_y), h_y), collapse = ", ")),
    "- means (and standard deviations) over the 10 draws; bayes_factor and stochastic are the two methods of discriminative_clustering(); converged = runs that met `tol` / `rel_tol` (the stochastic runs end with their gain schedule); seconds = one call (10 restarts; kmeans: nstart = 10).",
    "", md_table(tab, 3), "")
  write_section("quality", lines)
  cat(lines, sep = "\n")
  invisible(res)
}

run_speed <- function() {
  k <- 10L
  d <- shifted_classes_data()
  x <- d$x
  y <- d$y
  set.seed(1)
  dc <- suppressWarnings(time_per_iter(function() {
    discriminative_clustering(x, y, k = k, restarts = 1, max_iter = 50, rel_tol = 0,
                              tol = 1e-12)$iterations
  }))
  sa <- time_per_iter(function() {
    discriminative_clustering(x, y, k = k, method = "stochastic", restarts = 1,
                              epochs = 5)$iterations
  })
  km <- suppressWarnings(time_per_iter(function() {
    stats::kmeans(x, k, algorithm = "Lloyd", iter.max = 50)$iter
  }))
  res <- data.frame(method = c("bayes_factor (L-BFGS iteration)",
                               "stochastic (epoch of n steps)",
                               "stats::kmeans (Lloyd iteration)"),
                    `ms per iteration` = 1000 * c(dc[["median"]], sa[["median"]], km[["median"]]),
                    range = sprintf("%.2f-%.2f", 1000 * c(dc[["min"]], sa[["min"]], km[["min"]]),
                                    1000 * c(dc[["max"]], sa[["max"]], km[["max"]])),
                    iterations = as.integer(c(dc[["iterations"]], sa[["iterations"]],
                                              km[["iterations"]])),
                    check.names = FALSE)
  res$`ratio to kmeans` <- res$`ms per iteration` / res$`ms per iteration`[3]
  # whole calls with the defaults (one repeat each: they take seconds)
  set.seed(2)
  t0 <- proc.time()[["elapsed"]]
  fit <- suppressWarnings(discriminative_clustering(x, y, k = k))
  t_dc <- proc.time()[["elapsed"]] - t0
  t0 <- proc.time()[["elapsed"]]
  km_fit <- stats::kmeans(x, k, nstart = 10, iter.max = 50)
  t_km <- proc.time()[["elapsed"]] - t0
  set.seed(3)
  t0 <- proc.time()[["elapsed"]]
  sa_fit <- discriminative_clustering(x, y, k = k, method = "stochastic")
  t_sa <- proc.time()[["elapsed"]] - t0
  whole <- data.frame(call = c("discriminative_clustering(x, y, k = 10) (10 restarts)",
                               "discriminative_clustering(..., method = \"stochastic\")",
                               "stats::kmeans(x, 10, nstart = 10)"),
                      seconds = c(t_dc, t_sa, t_km),
                      `iterations of the run kept` = c(fit$iterations, sa_fit$iterations,
                                                       km_fit$iter),
                      stop = c(fit$convergence, sa_fit$convergence, "-"),
                      `log BF` = c(fit$log_bayes_factor, sa_fit$log_bayes_factor, NA),
                      `NMI with y` = c(nmi(y, fit$cluster), nmi(y, sa_fit$cluster),
                                       nmi(y, km_fit$cluster)),
                      check.names = FALSE)
  lines <- c("## Speed: time per iteration at n = 10,000, p = 10, k = 10", "",
    bench_header(command),
    "- data and calls: see the comment at the top of `bench/discriminative-clustering.R`; median over 5 repeats (range = min-max), ms of wall-clock time per iteration.",
    "- an L-BFGS iteration evaluates the objective and gradient at least once (more when the line search backtracks), each O(n k p).",
    "", md_table(res, 3), "",
    "Whole calls with the defaults (one repeat each):", "", md_table(whole, 3), "")
  write_section("speed", lines)
  cat(lines, sep = "\n")
  invisible(res)
}

if ("quality" %in% parts) quality <- run_quality()
if ("speed" %in% parts) speed <- run_speed()
