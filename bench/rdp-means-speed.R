# Speed of one RDP-means sweep against one Lloyd iteration of stats::kmeans.
#
# Run from the repository root, with sideclust installed:
#   Rscript bench/rdp-means-speed.R
# Writes bench/results/rdp-means-speed.md and prints the same tables.
#
# Data: n in {1e5, 1e6} points in p = 10 dimensions from 10 Gaussian clusters
# (identity covariance; centres drawn N(0, 10^2) per coordinate, so the
# closest two centres are ~20 sd apart), as many constraints as points:
# sample_constraints(y, "tvclust", rate = 1 / n, noise = 0.1,
# pair_count = "authors") draws round(rate * n^2) = n random pairs (~10%
# must-links, 10% of all pairs flipped: with only correct pairs the stopping
# rule of issue 22 ends a run after 2 sweeps, leaving nothing to time). lambda is fixed at 1/2, 1/4 or 1/8 of the smallest squared
# distance between the true centres (the first that gives K = 10 in a short
# run), and the script checks that RDP-means holds K = 10 in every timed sweep.
#
# Timing: a sweep is the difference between rdp_means(max_iter = 11) and
# rdp_means(max_iter = 1) divided by 10, which removes the set-up (argument
# checks, transposing x, building the side graph); patience is set above 11
# so both runs do exactly 1 and 11 sweeps. A Lloyd iteration is the same
# difference for kmeans(x, centers = 10 points of the first 3 clusters,
# iter.max = 11 / 1, algorithm = "Lloyd") divided by the number of extra
# passes kmeans made (10: from that start it is still moving points). Each call is timed `inner` times in a
# row per repeat, and the table gives the median over `repeats` repeats.
#
# Memory: in a fresh R process per method (see peak_memory()), peak resident
# memory (VmHWM) above the resident memory before the call, which sees C++
# allocations too, and the R heap's "max used" (gc()) above what was in use
# before; both for one max_iter = 11 / iter.max = 11 call.

library(sideclust)

out_file <- file.path("bench", "results", "rdp-means-speed.md")
command <- "Rscript bench/rdp-means-speed.R"
sizes <- c(1e5, 1e6)
p <- 10L
n_clusters <- 10L
repeats <- 7L
inner <- function(n) if (n <= 1e5) 5L else 1L        # calls per timing, RDP-means
inner_lloyd <- function(n) if (n <= 1e5) 20L else 3L # calls per timing, kmeans
seed <- 20240501L

make_centres <- function() {
  set.seed(seed)
  matrix(stats::rnorm(n_clusters * p, sd = 10), n_clusters, p)
}

make_data <- function(n) {
  centres <- make_centres()  # also sets the seed
  y <- sample.int(n_clusters, n, replace = TRUE)
  x <- centres[y, , drop = FALSE] + matrix(stats::rnorm(n * p), n, p)
  side <- sample_constraints(y, protocol = "tvclust", rate = 1 / n,
                             noise = 0.1, pair_count = "authors")
  d <- list(x = x, y = y, centres = centres, side = side)
  # lambda: the first of (1/2, 1/4, 1/8) x the smallest squared distance
  # between centres for which a short run finds K = 10 (DP-means never merges
  # clusters, so a cluster split in the first sweep, e.g. by the starting
  # cluster at the global mean, stays split).
  d0 <- min(stats::dist(centres))^2
  for (f in c(2, 4, 8)) {
    set.seed(seed)
    k <- rdp_means(x, side, lambda = d0 / f, max_iter = 3L)$k
    if (k == n_clusters) break
  }
  d$lambda <- d0 / f
  d$lambda_divisor <- f
  d
}

elapsed <- function(expr_fun, times) {
  gc(FALSE)
  t0 <- proc.time()[["elapsed"]]
  for (i in seq_len(times)) out <- expr_fun()
  list(time = (proc.time()[["elapsed"]] - t0) / times, out = out)
}

# Peak memory of one call, measured in a fresh R process (so memory freed
# earlier in this session cannot hide it): the child reads the data, records
# its resident memory (VmRSS) and R heap in use, runs the call once and
# reports VmHWM - VmRSS before and the R heap "max used" - heap before, in MB.
peak_memory <- function(data_file, call_text) {
  child <- sprintf(paste(
    "suppressMessages(library(sideclust)); d <- readRDS('%s'); set.seed(1);",
    "kb <- function(f) as.numeric(gsub('[^0-9]', '', grep(paste0('^', f, ':'),",
    "  readLines('/proc/self/status'), value = TRUE)));",
    "g0 <- gc(reset = TRUE); rss0 <- kb('VmRSS');",
    "invisible(suppressWarnings(%s)); g1 <- gc();",
    "cat((kb('VmHWM') - rss0) / 1024, sum(g1[, 6]) - sum(g0[, 2]))"), data_file, call_text)
  libs <- paste(.libPaths(), collapse = .Platform$path.sep)
  out <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(child)),
                 stdout = TRUE, env = paste0("R_LIBS=", libs))
  v <- as.numeric(strsplit(utils::tail(out, 1), " ")[[1]])
  c(rss = v[1], heap = v[2])
}

rdp_call <- function(d, order, m) {
  function() rdp_means(d$x, d$side, lambda = d$lambda, order = order,
                       max_iter = m, patience = 100L)
}
# Lloyd starts from 10 points of the first 3 true clusters, so that it keeps
# moving points for more than 11 passes and every timed pass is a full
# assignment plus centre update (from the true centres it would converge
# after 2 passes, leaving a single noisy pass to time).
lloyd_call <- function(d, m) {
  start <- d$x[which(d$y <= 3L)[seq_len(n_clusters)], , drop = FALSE]
  function() suppressWarnings(stats::kmeans(d$x, centers = start, iter.max = m,
                                            algorithm = "Lloyd"))
}

rows <- list()
k_checks <- list()
info <- list()
t_start <- proc.time()[["elapsed"]]
for (n in sizes) {
  d <- make_data(n)
  reps <- inner(n)
  dp_lam <- dp_lambda(d$x, k = n_clusters)
  res <- list()
  for (r in seq_len(repeats)) {
    for (order in c("random", "fixed")) {
      set.seed(seed + r)
      a <- elapsed(rdp_call(d, order, 1L), reps)
      set.seed(seed + r)
      b <- elapsed(rdp_call(d, order, 11L), reps)
      if (b$out$iterations != 11L || any(b$out$k_trace != n_clusters)) {
        stop(sprintf("n = %g, order %s: %d sweeps, K trace %s; expected 11 sweeps at K = 10",
                     n, order, b$out$iterations, paste(b$out$k_trace, collapse = " ")))
      }
      res[[length(res) + 1L]] <- data.frame(method = paste0("rdp_means, order = ", order),
                                            repeat_ = r, setup = a$time - (b$time - a$time) / 10,
                                            per_iter = (b$time - a$time) / 10)
      k_checks[[length(k_checks) + 1L]] <- data.frame(
        n = n, order = order, ari = compare_partitions(d$y, b$out$cluster)[["ari"]])
    }
    a <- elapsed(lloyd_call(d, 1L), inner_lloyd(n))
    b <- elapsed(lloyd_call(d, 11L), inner_lloyd(n))
    passes <- min(b$out$iter, 11L)  # passes made with iter.max = 11
    res[[length(res) + 1L]] <- data.frame(method = "kmeans, Lloyd", repeat_ = r,
                                          setup = a$time - (b$time - a$time) / (passes - 1),
                                          per_iter = (b$time - a$time) / (passes - 1))
  }
  res <- do.call(rbind, res)
  med <- stats::aggregate(res[c("setup", "per_iter")], res["method"], stats::median)
  spread <- stats::aggregate(res["per_iter"], res["method"], function(v) {
    sprintf("%.1f-%.1f", 1000 * min(v), 1000 * max(v))
  })
  med$range <- spread$per_iter[match(med$method, spread$method)]
  lloyd <- med$per_iter[med$method == "kmeans, Lloyd"]
  data_file <- tempfile(fileext = ".rds")
  saveRDS(d, data_file)
  calls <- c(
    "rdp_means, order = random" = "rdp_means(d$x, d$side, lambda = d$lambda, order = 'random', max_iter = 11L, patience = 100L)",
    "rdp_means, order = fixed" = "rdp_means(d$x, d$side, lambda = d$lambda, order = 'fixed', max_iter = 11L, patience = 100L)",
    "kmeans, Lloyd" = "stats::kmeans(d$x, centers = d$centres, iter.max = 11L, algorithm = 'Lloyd')")
  mem <- t(vapply(med$method, function(m) peak_memory(data_file, calls[[m]]),
                  c(rss = 0, heap = 0)))
  unlink(data_file)
  rows[[length(rows) + 1L]] <- data.frame(
    n = format(n, scientific = TRUE), method = med$method,
    `ms per iteration` = 1000 * med$per_iter, `range (ms)` = med$range,
    `ratio to Lloyd` = med$per_iter / lloyd,
    `set-up ms` = 1000 * med$setup,
    `peak RSS MB` = mem[, "rss"], `R heap max MB` = mem[, "heap"],
    check.names = FALSE)
  cat(sprintf("n = %g: done (%.0f s); dp_lambda(k = 10) = %.0f, lambda used = %.0f, %d pairs\n",
              n, proc.time()[["elapsed"]] - t_start, dp_lam, d$lambda, length(d$side$i)))
  info[[paste0("pairs_", n)]] <- length(d$side$i)
  info[[paste0("must_", n)]] <- mean(d$side$must)
  info[[paste0("lambda_", n)]] <- sprintf("%.0f (min squared centre distance / %d)", d$lambda, d$lambda_divisor)
  info[[paste0("dp_lambda_", n)]] <- dp_lam
  rm(d)
}
tab <- do.call(rbind, rows)
tab <- tab[order(tab$n, match(tab$method, c("kmeans, Lloyd", "rdp_means, order = fixed",
                                             "rdp_means, order = random"))), ]
checks <- do.call(rbind, k_checks)
checks <- stats::aggregate(checks["ari"], checks[c("n", "order")], min)

# ---- markdown -------------------------------------------------------------------

md_table <- function(df, digits = 2) {
  cells <- lapply(df, function(col) {
    if (is.numeric(col)) formatC(col, format = "f", digits = digits) else as.character(col)
  })
  c(paste0("| ", paste(names(df), collapse = " | "), " |"),
    paste0("|", paste(rep("---", ncol(df)), collapse = "|"), "|"),
    paste0("| ", do.call(paste, c(cells, sep = " | ")), " |"))
}
commit <- tryCatch(system("git rev-parse --short HEAD", intern = TRUE, ignore.stderr = TRUE),
                   error = function(e) NA, warning = function(w) NA)
cpu <- tryCatch(trimws(sub("^model name\\s*:", "",
                           grep("^model name", readLines("/proc/cpuinfo"), value = TRUE)[1])),
                error = function(e) NA, warning = function(w) NA)
lines <- c(
  "# RDP-means sweep vs Lloyd iteration", "",
  sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
  sprintf("- machine: %d cores (parallel::detectCores()), %s; %s",
          parallel::detectCores(), cpu, R.version$platform),
  sprintf("- R: %s; sideclust %s (git %s)", R.version.string,
          as.character(utils::packageVersion("sideclust")), commit),
  sprintf("- command: `%s` (from the repository root)", command),
  sprintf("- data: p = %d, %d Gaussian clusters (identity covariance, centres N(0, 10^2) per coordinate), seed %d;",
          p, n_clusters, seed),
  sprintf("  constraints `sample_constraints(y, \"tvclust\", rate = 1/n, noise = 0.1, pair_count = \"authors\")`: %s distinct pairs for n = 1e5 (%.0f%% must-links), %s for n = 1e6",
          format(info$`pairs_1e+05`), 100 * info$`must_1e+05`, format(info$`pairs_1e+06`)),
  sprintf("- lambda = %s for n = 1e5, %s for n = 1e6 (the first of 1/2, 1/4, 1/8 of the smallest squared centre distance giving K = 10); every timed run held K = 10 (min ARI of the 11-sweep runs: %s).",
          info$`lambda_1e+05`, info$`lambda_1e+06`, paste(sprintf("%s/%s %.3f", checks$n, checks$order, checks$ari), collapse = ", ")),
  sprintf("  For reference, dp_lambda(x, k = 10) (farthest-first) gives %.0f (n = 1e5) and %.0f (n = 1e6), about half the closest centres' squared distance (%.0f); it depends on the draw (with other seeds it came out above the closest squared distance and gave K = 11), so it is not used.",
          info$`dp_lambda_1e+05`, info$`dp_lambda_1e+06`, min(stats::dist(make_centres()))^2),
  sprintf("- timing: medians over %d repeats; per iteration = (t(max_iter = 11) - t(max_iter = 1)) / 10 for RDP-means and (t(iter.max = 11) - t(iter.max = 1)) / (passes - 1) for Lloyd (started from 10 points of the first 3 clusters, so it makes all 11 passes); each timing averages %d (RDP-means) / %d (kmeans) calls for n = 1e5 and %d / %d for n = 1e6; range = min-max over repeats; set-up = t(1 sweep) - 1 sweep.",
          repeats, inner(1e5), inner_lloyd(1e5), inner(1e6), inner_lloyd(1e6)),
  sprintf("- the machine was shared with other jobs (load average %s at the end, on 2 cores), so single timings are noisy; the ratios come from interleaved runs.",
          tryCatch(strsplit(readLines("/proc/loadavg"), " ")[[1]][1], error = function(e) "?")),
  "- memory: in a fresh R process per method holding only the data (x is 8n x 10 bytes: 8 MB / 80 MB): peak RSS (VmHWM) above the RSS before the call, and R heap \"max used\" above the heap in use before, for one 11-iteration call.",
  "- target: ratio to Lloyd <= 1.2 (issue 22).",
  "", md_table(tab), "")
dir.create(dirname(out_file), showWarnings = FALSE, recursive = TRUE)
writeLines(lines, out_file)
cat(paste(lines, collapse = "\n"), "\n")
