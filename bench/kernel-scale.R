# Kernel RDP-means at scale: the approximations of the RBF kernel
# (approximation = "nystrom", "rff", "knn") against the exact kernel.
#
#   Rscript bench/kernel-scale.R                  # both parts
#   BENCH_PART=quality Rscript bench/kernel-scale.R
#   BENCH_PART=scale BENCH_N=1e5,1e6 Rscript bench/kernel-scale.R
#   (BENCH_SHARED=1 marks the seconds provisional: other jobs share the cores)
#
# Protocol
# * quality: simulate_patterns(1e4, pattern) for moons, rings, spirals
#   (set.seed(100 + pattern index), as bench/patterns.R), side information
#   as bench/patterns.R draws it (sample_constraints(rate = 0.01,
#   pair_count = "paper"): 5e5 pairs at n = 1e4) and, harder, 1e4 pairs
#   (random_pairs() below); every approximation, sigma = 0.5, one run from
#   set.seed(1000 * pattern index + 1); F-measure against the labels. The
#   patterns' pairs: bench/patterns.R's lambda = 1.5 at 300 points grown in
#   proportion to n (1.5 n / 300), start BENCH_INIT_PATTERNS (default "one":
#   the pairs hold the shapes). The 1e4 pairs: lambda on each kernel's scale
#   (0.02 n for the RBF kernel, 20 for knn), start BENCH_INIT_WEAK (default "spectral"; the
#   exact kernel's Lanczos products cost O(n^2) each, minutes at n = 1e4).
# * scale: moons at n = BENCH_N (default 1e4, 1e5, 1e6) with 1e4 random pairs,
#   lambda on each kernel's scale (scale_lambda() below);
#   stats::kmeans (Lloyd, 2 centres) as the peer in the same run, then
#   each approximation (default landmarks / neighbours) in a fresh Rscript
#   process, so the peak resident memory (VmHWM, reset after the data are
#   made) is that fit's alone; elapsed seconds of the whole call (features or
#   graph, spectral start, sweeps).
# Results: bench/results/kernel-scale.md (both parts; a part run alone
# rewrites its own section only).

suppressPackageStartupMessages(library(sideclust))
source(file.path("bench", "utils.R"))

sigma <- 0.5
# bench/patterns.R's lambda = 1.5 at n = 300, grown with the density of the
# points (the gain of a split grows with n; see ?kernel_rdp_means, lambda)
lambda_for <- function(n) 1.5 * n / 300

status_mb <- function(field) {
  line <- grep(paste0("^", field, ":"), readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", line)) / 1024
}

# The scale part's lambda, on each kernel's own scale (see ?kernel_rdp_means,
# Choosing lambda): for the RBF approximations 0.1 n, inside the range that
# finds the two moons at n = 1e4 (0.002 n to 0.16 n with Nystrom, checked
# against the exact kernel at 0.1 n), grown in proportion to n as a point's
# kernel mass grows; for "knn" 20 at every n, about 1.5 times the graph's
# mean weighted degree with 10 neighbours, which does not grow with n.
scale_lambda <- function(n, approximation) {
  if (approximation == "knn") 20 else 0.1 * n
}

fit_one <- function(x, side, approximation, init = "spectral", lambda = lambda_for(nrow(x))) {
  kernel_rdp_means(x, side, lambda = lambda, sigma = sigma, approximation = approximation,
                   init = init)
}

# In the child: one approximation at one n; prints a dcf record.
child <- function(approximation, n) {
  set.seed(11)
  d <- simulate_patterns(n, "moons")
  side <- random_pairs(d$label, 1e4)
  invisible(gc())
  base <- status_mb("VmRSS")
  writeLines("5", "/proc/self/clear_refs")  # reset VmHWM
  set.seed(12)
  # stats::kmeans (Lloyd, 2 centres, no pairs) is the peer timed in the same run
  t <- system.time(fit <- if (approximation == "kmeans") {
    km <- stats::kmeans(d$x, 2L, iter.max = 100L, algorithm = "Lloyd")
    list(k = 2L, iterations = km$iter, cluster = km$cluster)
  } else fit_one(d$x, side, approximation, lambda = scale_lambda(n, approximation)))
  rec <- list(approximation = approximation, n = n,
              lambda = if (approximation == "kmeans") "NA" else scale_lambda(n, approximation),
              seconds = t[["elapsed"]],
              cpu_seconds = t[["user.self"]] + t[["sys.self"]],
              peak_mb = status_mb("VmHWM") - base, data_mb = as.numeric(object.size(d$x)) / 2^20,
              k = fit$k, sweeps = fit$iterations, F = f_measure(d$label, fit$cluster))
  write.dcf(as.data.frame(lapply(rec, as.character)))
}

args <- commandArgs(TRUE)
if (length(args) == 3L && args[1] == "--child") {
  child(args[2], as.numeric(args[3]))
  quit(save = "no")
}

part <- Sys.getenv("BENCH_PART", "both")
out_md <- file.path("bench", "results", "kernel-scale.md")
old <- if (file.exists(out_md)) readLines(out_md) else character(0)
# a part's section of an earlier run, kept when this run skips that part
# (every "## " section whose title starts with `title`, up to the next "## ")
old_section <- function(title) {
  starts <- which(startsWith(old, "## "))
  keep <- integer(0)
  for (at in starts[startsWith(old[starts], title)]) {
    end <- min(c(starts[starts > at], length(old) + 1L)) - 1L
    keep <- c(keep, at:end)
  }
  old[keep]
}

quality_title <- "## Quality at n = 1e4"
scale_title <- "## Time and peak memory (moons, 1e4 pairs)"
quality <- old_section(quality_title)
scale <- old_section(scale_title)
notes <- old_section("## Reading")  # hand-written reading notes, kept as they are

if (part %in% c("both", "quality")) {
  # the start of each pair set's fits: the patterns' many pairs hold the shapes
  # from one cluster; the weak 1e4 pairs need the spectral start
  inits <- c(`5e5 (patterns.R)` = Sys.getenv("BENCH_INIT_PATTERNS", "one"),
             `1e4` = Sys.getenv("BENCH_INIT_WEAK", "spectral"))
  # the patterns' pairs with bench/patterns.R's lambda; the weak pairs with
  # each kernel's own scale: 0.02 n for the RBF kernel (0.1 n, the scale
  # part's moons setting, is above the most a split of the rings or the
  # spirals can gain: one cluster, with the warning), 20 for knn
  quality_lambda <- function(s, a) {
    if (s != "1e4") lambda_for(1e4) else if (a == "knn") scale_lambda(1e4, a) else 0.02 * 1e4
  }
  # BENCH_PAIRS=patterns or 1e4 runs one of the two pair sets
  pair_sets <- c(patterns = "5e5 (patterns.R)", `1e4` = "1e4")
  pair_sets <- pair_sets[strsplit(Sys.getenv("BENCH_PAIRS", "patterns,1e4"), ",")[[1]]]
  patterns <- c("moons", "rings", "spirals")
  rows <- list()
  for (ip in seq_along(patterns)) {
    set.seed(100 + ip)
    d <- simulate_patterns(1e4, patterns[ip])
    sides <- list(`5e5 (patterns.R)` = sample_constraints(d$label, rate = 0.01, pair_count = "paper"),
                  `1e4` = random_pairs(d$label, 1e4))
    for (s in pair_sets) {
      for (a in c("exact", "nystrom", "rff", "knn")) {
        set.seed(1000L * ip + 1L)
        lambda <- quality_lambda(s, a)
        t <- system.time(fit <- fit_one(d$x, sides[[s]], a, init = inits[[s]], lambda = lambda))
        f <- f_measure(d$label, fit$cluster)
        message(sprintf("%-8s %-16s %-8s F %.4f k %d %.0f s", patterns[ip], s, a, f, fit$k, t[["elapsed"]]))
        rows[[length(rows) + 1L]] <- data.frame(pattern = patterns[ip], pairs = s, init = inits[[s]],
                                                approximation = a, lambda = lambda,
                                                F = f, k = fit$k, seconds = t[["elapsed"]])
        saveRDS(do.call(rbind, rows), file.path(tempdir(), "kernel-scale-quality.rds"))
      }
    }
  }
  res <- do.call(rbind, rows)
  exact_f <- res$F[res$approximation == "exact"][match(paste(res$pattern, res$pairs),
    paste(res$pattern, res$pairs)[res$approximation == "exact"])]
  res$F_minus_exact <- res$F - exact_f
  quality <- c(quality_title, "",
    sprintf("- date: %s; sideclust %s (git %s); %s", format(Sys.time(), "%Y-%m-%d %H:%M %Z"),
            utils::packageVersion("sideclust"), git_commit(), R.version.string),
    sprintf("- machine: %s, %d cores, shared with other jobs (seconds provisional)", cpu_name(),
            parallel::detectCores()),
    sprintf(paste0("- sigma = %g, default landmarks (nystrom 100, rff 300) and neighbours (10); the patterns' pairs: ",
                   "lambda = 1.5 n / 300 = %g (bench/patterns.R), start as in column init; 1e4 pairs: ",
                   "lambda on each kernel's scale (0.02 n for the RBF kernel and its ",
                   "low-rank maps, 20 for knn)"), sigma, lambda_for(1e4)),
    sprintf("- worst |F - exact F| over patterns and pair sets: %s",
            paste(sprintf("%s %.4f", c("nystrom", "rff", "knn"),
                          vapply(c("nystrom", "rff", "knn"), function(a)
                            max(abs(res$F_minus_exact[res$approximation == a])), numeric(1))),
                  collapse = ", ")),
    "", md_table(res, digits = 4), "")
}

if (part %in% c("both", "scale")) {
  ns <- as.numeric(strsplit(Sys.getenv("BENCH_N", "1e4,1e5,1e6"), ",")[[1]])
  load_before <- readLines("/proc/loadavg")
  approximations <- strsplit(Sys.getenv("BENCH_APPROX", "kmeans,nystrom,knn"), ",")[[1]]
  recs <- list()
  for (n in ns) for (a in approximations) {
    out <- system2(file.path(R.home("bin"), "Rscript"),
                   c("bench/kernel-scale.R", "--child", a, format(n, scientific = FALSE)),
                   stdout = TRUE, stderr = "")
    rec <- as.data.frame(read.dcf(textConnection(out)), stringsAsFactors = FALSE)
    message(paste(out, collapse = " | "))
    recs[[length(recs) + 1L]] <- rec
  }
  tab <- do.call(rbind, recs)
  for (v in c("lambda", "seconds", "cpu_seconds", "peak_mb", "data_mb", "F")) tab[[v]] <- as.numeric(tab[[v]])
  tab$n <- format(as.numeric(tab$n), scientific = TRUE)
  tab$k <- as.integer(tab$k)
  tab$sweeps <- as.integer(tab$sweeps)
  scale <- c(scale_title, "",
    sprintf("- date: %s; sideclust %s (git %s); %s", format(Sys.time(), "%Y-%m-%d %H:%M %Z"),
            utils::packageVersion("sideclust"), git_commit(), R.version.string),
    sprintf("- machine: %s, %d cores, %s", cpu_name(), parallel::detectCores(),
            if (nzchar(Sys.getenv("BENCH_SHARED"))) "shared with other jobs: seconds are PROVISIONAL, not a speed claim"
            else "otherwise quiet except for one niced job on the other core"),
    sprintf("- load average before the first row: %s", load_before),
    sprintf("- BLAS: %s", sessionInfo()$BLAS),
    "- moons, 1e4 random pairs, sigma = 0.5, spectral start, lambda on each kernel's scale (0.1 n for Nystrom, 20 for knn: see scale_lambda() in the script); one fresh Rscript per row, one at a time; peak_mb: VmHWM above the resident size after the data were made",
    "", md_table(tab, digits = 3), "")
}

writeLines(c("# Kernel RDP-means at scale", "",
             "Written by `bench/kernel-scale.R` (protocol in its header).", "",
             quality, scale, notes), out_md)
message("wrote ", out_md)
