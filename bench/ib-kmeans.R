# k-means as an information bottleneck against stats::kmeans: the soft-to-hard
# transition in beta on iris and wine, and the time per iteration.
#
# Run from the repository root, with sideclust installed:
#   Rscript bench/ib-kmeans.R
#   BENCH_PARTS=quality Rscript bench/ib-kmeans.R   # quality only
#   BENCH_PARTS=speed Rscript bench/ib-kmeans.R     # speed only
# Each part rewrites only its own section of bench/results/ib-kmeans.md.
#
# Protocol (quality)
# * data: iris, wine (packaged), features standardized with scale(); k =
#   number of classes; s = the default (mean squared distance to the mean),
#   normalize = "space".
# * beta in {0.5, 1, 2, 5, 10, 20, 50, Inf}; the critical beta_c = s / (2
#   lambda_max) of each data set is printed (below it: one effective
#   cluster).
# * 10 draws per data set and beta; draw t of data set d uses set.seed(100 d +
#   t) before ib_kmeans(x, k, beta, max_iter = 3000) (10 restarts, k-means++)
#   and before stats::kmeans(x, k, nstart = 10) (Hartigan-Wong).
# * reported: NMI (sqrt normalization, nmi()) of the hard clusters with the
#   classes, NMI with the k-means clusters of the same draw, clusters holding
#   points, I(C;X) in nats, mean max_c p(c|x) (1 = hard), runs converged.
#
# Protocol (speed)
# * n = 10,000 points, p = 10, k = 10; 5 classes, class c shifts coordinate 1
#   by c (the other 9 coordinates are N(0, 1) noise).
# * ib_kmeans(restarts = 1, max_iter = 50, tol = 0) with beta = 20 runs all 50
#   iterations, with beta = Inf until no point moves (at most 50);
#   stats::kmeans(k = 10, algorithm = "Lloyd", iter.max = 50).
#   Time per iteration = wall-clock time / iterations; median over 5 repeats.
# * whole calls, once each: ib_kmeans(x, 10, beta = Inf) and beta = 20 (10
#   restarts) and stats::kmeans(x, 10, nstart = 10, algorithm = "Lloyd").

library(sideclust)
source(file.path("bench", "utils.R"))

parts <- bench_parts()
out_file <- file.path("bench", "results", "ib-kmeans.md")
command <- bench_command("bench/ib-kmeans.R")

write_section <- function(name, lines) {
  write_md_section(out_file, name, lines, preamble = bench_preamble(
    "# k-means as an information bottleneck against k-means", "bench/ib-kmeans.R"))
}

critical_beta <- function(x) {
  n <- nrow(x)
  centred <- scale(x, scale = FALSE)
  s <- sum(centred^2) / n
  s / (2 * eigen(crossprod(centred) / n, only.values = TRUE)$values[1])
}

run_quality <- function() {
  t_start <- proc.time()[["elapsed"]]
  datasets <- tvclust_paper_datasets()[c("iris", "wine")]
  betas <- c(0.5, 1, 2, 5, 10, 20, 50, Inf)
  rows <- list()
  for (d in seq_along(datasets)) {
    ds <- datasets[[d]]
    km <- lapply(1:10, function(t) {
      set.seed(100L * d + t)
      stats::kmeans(ds$x, ds$k, nstart = 10)$cluster
    })
    km_nmi <- vapply(km, function(cl) nmi(ds$y, cl), 0)
    rows[[length(rows) + 1L]] <- data.frame(
      dataset = names(datasets)[d], beta = "kmeans", nmi = mean(km_nmi), sd = stats::sd(km_nmi), nmi_km = 1, k_eff = ds$k, info = NA,
      max_p = 1, converged = "-", seconds = NA)
    for (beta in betas) {
      res <- lapply(1:10, function(t) {
        set.seed(100L * d + t)
        t0 <- proc.time()[["elapsed"]]
        fit <- suppressWarnings(ib_kmeans(ds$x, ds$k, beta, max_iter = 3000))
        c(nmi = nmi(ds$y, fit$cluster), nmi_km = nmi(km[[t]], fit$cluster),
          k_eff = fit$k_effective, info = fit$info_x,
          max_p = mean(apply(fit$membership, 1, max)), converged = fit$converged,
          seconds = proc.time()[["elapsed"]] - t0)
      })
      res <- do.call(rbind, res)
      rows[[length(rows) + 1L]] <- data.frame(
        dataset = names(datasets)[d], beta = format(beta), nmi = mean(res[, "nmi"]),
        sd = stats::sd(res[, "nmi"]), nmi_km = mean(res[, "nmi_km"]),
        k_eff = mean(res[, "k_eff"]), info = mean(res[, "info"]), max_p = mean(res[, "max_p"]),
        converged = sprintf("%d / 10", sum(res[, "converged"])),
        seconds = mean(res[, "seconds"]))
    }
    cat(sprintf("quality: %-6s done (%.0f s)\n", names(datasets)[d],
                proc.time()[["elapsed"]] - t_start))
  }
  tab <- do.call(rbind, rows)
  names(tab) <- c("dataset", "beta", "NMI with classes", "sd NMI", "NMI with kmeans",
                  "clusters holding points", "I(C;X)", "mean max p(c|x)", "converged",
                  "seconds per call")
  beta_c <- vapply(datasets, function(ds) critical_beta(ds$x), 0)
  lines <- c("## Soft to hard: NMI against beta", "", bench_header(command),
    sprintf("- run time of this part: %.0f s", proc.time()[["elapsed"]] - t_start),
    "- protocol: see the comment at the top of `bench/ib-kmeans.R`; means over 10 draws; k = number of classes; the kmeans rows are stats::kmeans(nstart = 10).",
    sprintf("- critical beta_c = s / (2 lambda_max) (one effective cluster below it): %s.",
            paste(sprintf("%s %.3f", names(beta_c), beta_c), collapse = ", ")),
    "", md_table(tab, 3), "")
  write_section("quality", lines)
  cat(lines, sep = "\n")
  invisible(tab)
}

run_speed <- function() {
  k <- 10L
  d <- shifted_classes_data()
  x <- d$x
  y <- d$y
  set.seed(1)
  soft <- suppressWarnings(time_per_iter(function() {
    ib_kmeans(x, k, beta = 20, restarts = 1, max_iter = 50, tol = 0)$iterations
  }))
  hard <- suppressWarnings(time_per_iter(function() {
    ib_kmeans(x, k, beta = Inf, restarts = 1, max_iter = 50, tol = 0)$iterations
  }))
  # kmeans reports iter.max + 1 when it stops at iter.max
  km <- suppressWarnings(time_per_iter(function() {
    min(stats::kmeans(x, k, algorithm = "Lloyd", iter.max = 50)$iter, 50L)
  }))
  timed <- list(soft, hard, km)
  res <- data.frame(method = c("ib_kmeans(beta = 20) iteration",
                               "ib_kmeans(beta = Inf) iteration",
                               "stats::kmeans Lloyd iteration"),
                    `ms per iteration` = 1000 * vapply(timed, `[[`, 0, "median"),
                    range = sprintf("%.2f-%.2f", 1000 * vapply(timed, `[[`, 0, "min"),
                                    1000 * vapply(timed, `[[`, 0, "max")),
                    iterations = as.integer(vapply(timed, `[[`, 0, "iterations")),
                    check.names = FALSE)
  res$`ratio to kmeans` <- res$`ms per iteration` / res$`ms per iteration`[3]
  whole_call <- function(label, f) {
    t0 <- proc.time()[["elapsed"]]
    fit <- suppressWarnings(f())
    data.frame(call = label, seconds = proc.time()[["elapsed"]] - t0,
               `iterations of the run kept` = if (is.null(fit$iter)) fit$iterations else fit$iter,
               converged = if (is.null(fit$converged)) "-" else format(fit$converged),
               `NMI with y` = nmi(y, fit$cluster), check.names = FALSE)
  }
  set.seed(2)
  whole <- rbind(
    whole_call("ib_kmeans(x, 10, beta = Inf) (10 restarts)", function() ib_kmeans(x, k, Inf)),
    whole_call("ib_kmeans(x, 10, beta = 20) (10 restarts)", function() ib_kmeans(x, k, 20)),
    whole_call("stats::kmeans(x, 10, nstart = 10, algorithm = \"Lloyd\")",
               function() stats::kmeans(x, k, nstart = 10, iter.max = 50, algorithm = "Lloyd")))
  lines <- c("## Speed: time per iteration at n = 10,000, p = 10, k = 10", "",
    bench_header(command),
    "- data and calls: see the comment at the top of `bench/ib-kmeans.R`; median over 5 repeats (range = min-max), ms of wall-clock time per iteration.",
    "- an ib_kmeans iteration: two n x p x k matrix products (distances, prototype sums), n k exponentials, and the trace (I(C;X), distortion).",
    "", md_table(res, 3), "",
    "Whole calls (one repeat each):", "", md_table(whole, 3), "")
  write_section("speed", lines)
  cat(lines, sep = "\n")
  invisible(res)
}

if ("quality" %in% parts) quality <- run_quality()
if ("speed" %in% parts) speed <- run_speed()
