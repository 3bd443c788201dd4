# CVQE (constrained k-means with penalties) on UCI data sets against the
# constrained k-means of conclust and stats::kmeans, and the speed of cvqe()
# against conclust::lcvqe.
#
# Run from the repository root, with sideclust and conclust installed:
#   Rscript bench/cvqe-uci.R
#   BENCH_PARTS=uci Rscript bench/cvqe-uci.R     # quality tables only
#   BENCH_PARTS=speed Rscript bench/cvqe-uci.R   # speed table only
# Each part rewrites only its own section of bench/results/cvqe-uci.md.
#
# Protocol (quality)
# * data: iris, wine, ecoli, glass (packaged, glass without its id column),
#   features standardized with scale(); k = number of classes.
# * constraints: sample_constraints(y, "nelson_cohen", n_constraints = m),
#   half must-links, half cannot-links, distinct pairs, for m in
#   {0, 50, 100, 200} without errors and all confidences set to 1 (Davidson
#   & Ravi's setting); plus a noisy setting, m = 200 with error = 0.1 (20
#   constraints of the wrong type) where cvqe() gets the protocol's
#   confidences (Beta(5, 1) for correct, Beta(1, 5) for wrong pairs) and the
#   conclust methods, which take no confidences, get the pairs only.
# * 10 draws per setting; draw t of data set d and setting s uses
#   set.seed(1000 d + 100 s + t) before drawing the constraints, then every
#   method runs in turn on the same RNG stream.
# * methods: cvqe(x, side, k) with its defaults (k-means++ seeding, 10
#   restarts, max_iter = 100); conclust::lcvqe (one random start, maxIter =
#   10), conclust::ckmeans (COP-k-means, one random start, maxIter = 100;
#   it returns 0 when some point cannot be placed without breaking a
#   constraint: recorded as a failure), conclust::mpckm (maxIter = 10);
#   stats::kmeans(x, k, nstart = 10). With m = 0 the conclust functions are
#   not run (they index 1:nrow(constraints) and fail on empty matrices).
# * metrics: NMI (sqrt normalization, nmi()), and the fraction of the given
#   constraints the partition violates.
#
# Protocol (speed)
# * n in {2000, 20000} points, p = 5, k = 5 Gaussian clusters (identity
#   covariance, centres N(0, 3^2) per coordinate), 500 constraints
#   (nelson_cohen, confidence 1); wall-clock time of one call, median over
#   repeats: cvqe(restarts = 1), cvqe(restarts = 10) and conclust::lcvqe
#   (one start, maxIter = 10).

library(sideclust)
source(file.path("bench", "utils.R"))

parts <- trimws(strsplit(Sys.getenv("BENCH_PARTS", "uci,speed"), ",")[[1]])
stopifnot(all(parts %in% c("uci", "speed")))
out_file <- file.path("bench", "results", "cvqe-uci.md")
command <- if (identical(Sys.getenv("BENCH_PARTS"), "")) {
  "Rscript bench/cvqe-uci.R"
} else {
  sprintf("BENCH_PARTS=%s Rscript bench/cvqe-uci.R", Sys.getenv("BENCH_PARTS"))
}
has_conclust <- requireNamespace("conclust", quietly = TRUE)
if (!has_conclust) message("conclust is not installed: only cvqe and kmeans are run")

settings <- data.frame(setting = c("0", "50", "100", "200", "200, 10% wrong"),
                       m = c(0L, 50L, 100L, 200L, 200L), error = c(0, 0, 0, 0, 0.1),
                       stringsAsFactors = FALSE)
n_draws <- 10L
lcvqe_limit <- 150L
method_order <- c("cvqe", "lcvqe", "ckmeans", "mpckm", "kmeans")

header_lines <- function() {
  c(sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
    sprintf("- machine: %d cores (parallel::detectCores()), %s; %s",
            parallel::detectCores(), cpu_name(), R.version$platform),
    sprintf("- R: %s; sideclust %s (git %s); conclust %s", R.version.string,
            as.character(utils::packageVersion("sideclust")), git_commit(),
            if (has_conclust) as.character(utils::packageVersion("conclust")) else "not installed"),
    sprintf("- command: `%s` (from the repository root)", command))
}

write_section <- function(name, lines) {
  write_md_section(out_file, name, lines, preamble =
    c("# CVQE on UCI data sets, and its speed", "",
      "Written by `bench/cvqe-uci.R`; each section is rewritten by its own part.", ""))
}

draw_side <- function(y, s) {
  if (settings$m[s] == 0L) return(NULL)
  side <- sample_constraints(y, "nelson_cohen", n_constraints = settings$m[s],
                             noise = settings$error[s])
  if (settings$error[s] == 0) side$confidence[] <- 1
  side
}

pair_matrices <- function(side) {
  list(must = cbind(side$i, side$j)[side$must, , drop = FALSE],
       cannot = cbind(side$i, side$j)[!side$must, , drop = FALSE])
}

violated_fraction <- function(side, cluster) {
  if (is.null(side)) return(NA_real_)
  mean(side$must != (cluster[side$i] == cluster[side$j]))
}

# One method on one input: NMI, violated fraction, seconds; NA on failure.
run_method <- function(method, x, y, k, side) {
  t0 <- proc.time()[["elapsed"]]
  cluster <- switch(method,
    cvqe = cvqe(x, side, k = k)$cluster,
    kmeans = stats::kmeans(x, k, nstart = 10)$cluster,
    {
      pm <- pair_matrices(side)
      f <- switch(method, lcvqe = conclust::lcvqe, ckmeans = conclust::ckmeans,
                  mpckm = conclust::mpckm)
      out <- f(x, k, pm$must, pm$cannot)
      if (length(out) != nrow(x)) NULL else out
    })
  secs <- proc.time()[["elapsed"]] - t0
  if (is.null(cluster)) return(c(nmi = NA, violated = NA, seconds = secs, failed = 1))
  c(nmi = nmi(y, cluster), violated = violated_fraction(side, cluster), seconds = secs,
    failed = 0)
}

run_uci <- function() {
  t_start <- proc.time()[["elapsed"]]
  datasets <- tvclust_paper_datasets()[c("iris", "wine", "ecoli", "glass")]
  rows <- list()
  for (d in seq_along(datasets)) {
    ds <- datasets[[d]]
    for (s in seq_len(nrow(settings))) for (t in seq_len(n_draws)) {
      set.seed(1000L * d + 100L * s + t)
      side <- draw_side(ds$y, s)
      methods <- if (is.null(side) || !has_conclust) c("cvqe", "kmeans") else method_order
      for (method in methods) {
        r <- run_method(method, ds$x, ds$y, ds$k, side)
        rows[[length(rows) + 1L]] <- data.frame(
          dataset = names(datasets)[d], setting = settings$setting[s], draw = t,
          method = method, t(r), stringsAsFactors = FALSE)
      }
    }
    cat(sprintf("uci: %-6s done (%.0f s)\n", names(datasets)[d],
                proc.time()[["elapsed"]] - t_start))
  }
  res <- do.call(rbind, rows)
  mean_ok <- function(v) if (all(is.na(v))) NA_real_ else mean(v, na.rm = TRUE)
  summarise <- function(by) {
    keys <- interaction(res[by], drop = TRUE, lex.order = TRUE)
    out <- do.call(rbind, lapply(split(res, keys), function(g) {
      data.frame(g[1L, by, drop = FALSE], NMI = mean_ok(g$nmi),
                 violated = mean_ok(g$violated), failures = as.integer(sum(g$failed)),
                 runs = nrow(g), seconds = mean(g$seconds), row.names = NULL)
    }))
    out[order(match(out$setting, settings$setting), match(out$method, method_order)), ]
  }
  by_setting <- summarise(c("setting", "method"))
  by_data <- summarise(c("dataset", "setting", "method"))
  by_data <- by_data[order(match(by_data$dataset, names(datasets)),
                           match(by_data$setting, settings$setting),
                           match(by_data$method, method_order)), ]
  lines <- c("## Quality (NMI, violated constraints)", "", header_lines(),
    sprintf("- run time of this part: %.0f s", proc.time()[["elapsed"]] - t_start),
    "- protocol: see the comment at the top of `bench/cvqe-uci.R`; 10 draws per data set and setting, true k.",
    "- NMI and violated = means over the successful runs; `violated` is the fraction of the given constraints broken (for the noisy setting, of the noisy constraints as given); failures = COP-k-means runs that found no feasible assignment (excluded from the means).",
    "",
    "### Averaged over the four data sets", "",
    md_table(by_setting[c("setting", "method", "NMI", "violated", "failures", "runs", "seconds")], 3),
    "",
    "### Per data set", "",
    md_table(by_data[c("dataset", "setting", "method", "NMI", "violated", "failures")], 3),
    "")
  write_section("uci", lines)
  cat(lines, sep = "\n")
  invisible(list(res = res, by_setting = by_setting))
}

make_speed_data <- function(n, seed = 20261123L) {
  set.seed(seed)
  centres <- matrix(stats::rnorm(25, sd = 3), 5, 5)
  y <- sample.int(5L, n, replace = TRUE)
  x <- centres[y, ] + matrix(stats::rnorm(n * 5), n, 5)
  side <- sample_constraints(y, "nelson_cohen", n_constraints = 500)
  side$confidence[] <- 1
  list(x = x, y = y, side = side)
}

time_call <- function(f, repeats) {
  times <- numeric(repeats)
  for (r in seq_len(repeats)) {
    gc(FALSE)
    t0 <- proc.time()[["elapsed"]]
    out <- f()
    times[r] <- proc.time()[["elapsed"]] - t0
  }
  list(median = stats::median(times), min = min(times), max = max(times), out = out)
}

run_speed <- function() {
  rows <- list()
  for (n in c(2000L, 20000L)) {
    d <- make_speed_data(n)
    pm <- pair_matrices(d$side)
    calls <- list(
      `cvqe, restarts = 1` = function() cvqe(d$x, d$side, k = 5, restarts = 1)$cluster,
      `cvqe, restarts = 10` = function() cvqe(d$x, d$side, k = 5)$cluster)
    if (has_conclust) {
      # lcvqe is plain R; stop it after lcvqe_limit seconds
      calls$`conclust::lcvqe` = function() {
        setTimeLimit(elapsed = lcvqe_limit, transient = TRUE)
        on.exit(setTimeLimit(elapsed = Inf))
        tryCatch(conclust::lcvqe(d$x, 5, pm$must, pm$cannot), error = function(e) NULL)
      }
    }
    for (name in names(calls)) {
      repeats <- if (grepl("lcvqe", name)) 3L else 5L
      set.seed(1)
      tm <- time_call(calls[[name]], repeats)
      if (is.null(tm$out)) {
        rows[[length(rows) + 1L]] <- data.frame(
          n = n, method = name, seconds = NA, range = sprintf("> %d s (stopped)", lcvqe_limit),
          repeats = repeats, NMI = NA, violated = NA, stringsAsFactors = FALSE)
        next
      }
      rows[[length(rows) + 1L]] <- data.frame(
        n = n, method = name, seconds = tm$median, range = sprintf("%.3f-%.3f", tm$min, tm$max),
        repeats = repeats, NMI = nmi(d$y, tm$out),
        violated = violated_fraction(d$side, tm$out), stringsAsFactors = FALSE)
      cat(sprintf("speed: n = %d %s %.3f s\n", n, name, tm$median))
    }
  }
  res <- do.call(rbind, rows)
  base <- res$seconds[res$method == "cvqe, restarts = 1"][match(res$n, unique(res$n))]
  res$`ratio to cvqe (1 restart)` <- res$seconds / base
  res$n <- format(res$n, big.mark = ",")
  lines <- c("## Speed: cvqe() vs conclust::lcvqe", "", header_lines(),
    "- data: p = 5, k = 5 Gaussian clusters (identity covariance, centres N(0, 3^2)), 500 constraints (`nelson_cohen`, half must-links, confidence 1), seed 20261123.",
    "- time of one call (wall clock, s), median over `repeats`; range = min-max; NMI / violated of the last call. lcvqe makes one run from random centres with its default maxIter = 10; cvqe's iterations run until a fixed point (at most 100).",
    "- the machine was shared with another job (2 cores), so single timings are noisy.",
    "",
    md_table(res, 3), "")
  write_section("speed", lines)
  cat(lines, sep = "\n")
  invisible(res)
}

if ("uci" %in% parts) uci <- run_uci()
if ("speed" %in% parts) speed <- run_speed()
