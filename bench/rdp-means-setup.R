# RDP-means set-up at scale, the stopping rule and the random-order sweep
# against a Lloyd iteration (issue 22, points 1-2).
#
# Rscript bench/rdp-means-setup.R [n ...]          (from the repository root)
# BENCH_SWEEP=0 skips the per-sweep part (n = 1e6, p = 10), BENCH_SETUP=0 the
# set-up part.
#
# BENCH_BEFORE_LIB: a library holding the package before the change (e.g. main
# installed with R CMD INSTALL -l); each timing then runs in a fresh R process
# once per library, interleaved, so that both columns come from the same run.
# Writes bench/results/rdp-means-setup.md.
source("bench/utils.R")
args <- commandArgs(TRUE)
sizes <- if (length(args)) as.numeric(args) else c(1e5, 1e6)
libs <- c(after = .libPaths()[1])
before <- Sys.getenv("BENCH_BEFORE_LIB")
if (nzchar(before)) libs <- c(before = before, libs)
repeats <- function(n) if (n >= 1e7) 1L else 3L

child_code <- '
  args <- commandArgs(TRUE)
  .libPaths(c(args[1], .libPaths())); suppressMessages(library(sideclust))
  n <- as.numeric(args[2]); set.seed(1)
  x <- matrix(rnorm(n * 2), n, 2)
  a <- sample.int(n, n, TRUE); b <- sample.int(n - 1L, n, TRUE); b <- b + (b >= a)
  keep <- !duplicated(pmin(a, b) * (n + 1) + pmax(a, b))
  side <- sideclust:::new_constraints(n, a[keep], b[keep], runif(sum(keep)) < 0.5, rep(1, sum(keep)))
  # elapsed seconds; the CPU seconds (user + system) of the last call go to
  # cpu_of[[name]] for the columns that the load of the machine distorts most
  cpu_of <- list()
  el <- function(expr, name = NULL) {
    t <- system.time(expr)
    if (!is.null(name)) cpu_of[[name]] <<- t[["user.self"]] + t[["sys.self"]]
    t[["elapsed"]]
  }
  opt <- function(rnd) list(lambda = 1e9, xi = c(0.001, 0.001), xi_rate = 2,
    xi_max = c(10, 10), patience = 20L, max_iter = 1L, random_order = rnd,
    chunklet_moves = FALSE, divergence = "sqeuclidean", verbose = FALSE)
  xt <- t(x)
  y <- sample.int(10, n, TRUE)
  out <- c(
    validate_side = el(sideclust:::as_side_info(side, n)),
    check_data = el(sideclust:::prepare_divergence_data(x, "sqeuclidean", NULL)),
    core_fixed_noside = el(sideclust:::.rdp_means_cpp(xt, NULL, opt(FALSE)), "noside"),
    core_fixed_side = el(sideclust:::.rdp_means_cpp(xt, side, opt(FALSE)), "side"),
    core_random_noside = el(sideclust:::.rdp_means_cpp(xt, NULL, opt(TRUE))),
    core_random_side = el(sideclust:::.rdp_means_cpp(xt, side, opt(TRUE))),
    rdp_means_1 = el(rdp_means(x, side, lambda = 1e9, max_iter = 1L)),
    lloyd_1 = el(suppressWarnings(kmeans(x, x[1:2, ], iter.max = 1L, algorithm = "Lloyd")), "lloyd"),
    sample_constraints = el(sample_constraints(y, rate = 1 / n), "sample"))
  out <- c(out, core_setup_fixed_cpu = cpu_of$side - cpu_of$noside,
           lloyd_1_iter_cpu = cpu_of$lloyd, sample_constraints_cpu = cpu_of$sample)
  # easy data: 3 separated blobs, correct constraints, default schedule
  ne <- min(n, 1e5); cl <- rep(1:3, length.out = ne)
  xe <- cbind(c(0, 20, 0)[cl], c(0, 0, 20)[cl]) + matrix(rnorm(2 * ne), ne)
  se <- sample_constraints(cl, rate = 1 / ne)
  set.seed(2); t_fit <- el(fit <- rdp_means(xe, se, lambda = 60))
  out <- c(out, easy_fit = t_fit, easy_sweeps = fit$iterations, easy_k = fit$k)
  cat(paste(names(out), out, sep = "=", collapse = ";"))
'
child_file <- tempfile(fileext = ".R")
writeLines(child_code, child_file)

# Per sweep at n = 1e6, p = 10 (the data of bench/rdp-means-speed.R: 10
# Gaussian clusters 20 sd apart, n random pairs, here with 10% flipped so
# that a run never settles early): an RDP-means sweep is (time of max_iter =
# 11 - time of max_iter = 1) / 10 with xi practically fixed (0.001, rate 1 +
# 1e-9) and patience 100, so both runs do exactly 1 and 11 sweeps (lambda =
# half the smallest squared distance between centres gives K = 10 or 11);
# a Lloyd iteration is the same difference for kmeans(algorithm = "Lloyd",
# iter.max = 11 / 1) from K points of 3 clusters, divided by its extra
# iterations. CPU seconds, medians of 3 calls of each in one process (1 for
# the slow uniform order).
sweep_code <- '
  args <- commandArgs(TRUE)
  .libPaths(c(args[1], .libPaths())); suppressMessages(library(sideclust))
  n <- 1e6; p <- 10L; set.seed(20240501L)
  centres <- matrix(rnorm(10 * p, sd = 10), 10, p)
  y <- sample.int(10L, n, replace = TRUE)
  x <- centres[y, , drop = FALSE] + matrix(rnorm(n * p), n, p)
  side <- sample_constraints(y, rate = 1 / n, noise = 0.1)
  lambda <- min(stats::dist(centres))^2 / 2
  # CPU time of this process (user + system): on a machine shared with other
  # jobs it counts less of their time than elapsed time does
  cpu <- function() sum(proc.time()[c("user.self", "sys.self")])
  el <- function(f) { gc(FALSE); t0 <- cpu(); f(); cpu() - t0 }
  sweep <- function(order, inner = 3L) {
    run <- function(m) function() rdp_means(x, side, lambda = lambda, xi = 0.001,
      xi_rate = 1 + 1e-9, patience = 100L, max_iter = m, order = order)
    fit <- tryCatch(run(11L)(), error = function(e) NULL)
    if (is.null(fit) || fit$iterations != 11L) return(c(NA_real_, NA_real_))
    t11 <- median(replicate(inner, el(run(11L))))
    t1 <- median(replicate(inner, el(run(1L))))
    c((t11 - t1) / 10, fit$k)
  }
  rnd <- sweep("random"); uni <- sweep("uniform", 1L); fix <- sweep("fixed")
  k <- max(rnd[2], fix[2], na.rm = TRUE)  # Lloyd with as many centres
  start <- x[which(y <= 3L)[seq_len(k)], ]
  lloyd <- function(m) suppressWarnings(kmeans(x, start, iter.max = m, algorithm = "Lloyd"))
  extra <- lloyd(11L)$iter - lloyd(1L)$iter
  l11 <- median(replicate(3L, el(function() lloyd(11L))))
  l1 <- median(replicate(3L, el(function() lloyd(1L))))
  out <- c(random = rnd[1], uniform = uni[1], fixed = fix[1], lloyd = (l11 - l1) / extra,
           k = k)
  cat(paste(names(out), out, sep = "=", collapse = ";"))
'
sweep_file <- tempfile(fileext = ".R")
writeLines(sweep_code, sweep_file)

# One fresh process per measurement: timings of the pieces of one call at n
# points (p = 2) and n random pairs (half must-links), and the sweeps of a
# default-schedule fit on easy data.
child <- function(lib, n, file = child_file) {
  res <- system2(file.path(R.home("bin"), "Rscript"),
                 c(file, lib, format(n, scientific = FALSE)), stdout = TRUE)
  kv <- strsplit(strsplit(utils::tail(res, 1), ";")[[1]], "=")
  # "NA" for an order the build does not have
  stats::setNames(suppressWarnings(as.numeric(vapply(kv, `[`, "", 2))), vapply(kv, `[`, "", 1))
}

if (Sys.getenv("BENCH_SETUP", "1") != "0") {
rows <- list()
for (n in sizes) {
  runs <- lapply(names(libs), function(l) list())
  names(runs) <- names(libs)
  for (r in seq_len(repeats(n))) {
    for (l in names(libs)) runs[[l]][[r]] <- child(libs[[l]], n)
  }
  for (l in names(libs)) {
    m <- do.call(rbind, runs[[l]])
    med <- apply(m, 2, stats::median)
    rows[[length(rows) + 1L]] <- data.frame(
      n = format(n, scientific = TRUE), build = l,
      validate_side = med[["validate_side"]], check_data = med[["check_data"]],
      core_setup_fixed = med[["core_fixed_side"]] - med[["core_fixed_noside"]],
      core_setup_random = med[["core_random_side"]] - med[["core_fixed_noside"]],
      rdp_means_1_sweep = med[["rdp_means_1"]], lloyd_1_iter = med[["lloyd_1"]],
      sample_constraints = med[["sample_constraints"]],
      core_setup_fixed_cpu = med[["core_setup_fixed_cpu"]],
      lloyd_1_iter_cpu = med[["lloyd_1_iter_cpu"]],
      sample_constraints_cpu = med[["sample_constraints_cpu"]],
      easy_fit = med[["easy_fit"]], easy_sweeps = as.integer(med[["easy_sweeps"]]),
      easy_k = as.integer(med[["easy_k"]]))
  }
}
tab <- do.call(rbind, rows)
lines <- c(
  "# RDP-means set-up and stopping rule",
  "",
  sprintf("- date: %s", format(Sys.time(), tz = "UTC", usetz = TRUE)),
  sprintf("- machine: %d cores, %s; loaded by other jobs (load average %s), so timings are noisy",
          parallel::detectCores(), cpu_name(),
          tryCatch(strsplit(readLines("/proc/loadavg"), " ")[[1]][1], error = function(e) "?")),
  sprintf("- git %s; command: `%sRscript bench/rdp-means-setup.R %s`", git_commit(),
          if (nzchar(before)) "BENCH_BEFORE_LIB=<main build> " else "",
          paste(format(sizes, scientific = TRUE), collapse = " ")),
  "- data: n points N(0, I_2), n random distinct pairs (about half must-links, confidence 1); seconds, medians over 3 fresh processes per build (1 at n = 1e7), the builds interleaved",
  "- validate_side: `as_side_info()` on a constraints object; check_data: `prepare_divergence_data()`;",
  "  core_setup_*: one C++ sweep with the pairs minus one fixed-order sweep without them (side graph, link tallies, the extra work of a sweep with pairs; before: random order also relabelled the pairs and copied x);",
  "  rdp_means_1_sweep: a whole `rdp_means(max_iter = 1)` call; lloyd_1_iter: `kmeans(algorithm = \"Lloyd\", iter.max = 1)`;",
  "  sample_constraints: `sample_constraints(y, rate = 1 / n)` (n pairs drawn, 10 classes); *_cpu: the same in CPU seconds of the process (user + system), which the load distorts less;",
  "  easy_fit / easy_sweeps: `rdp_means(lambda = 60)` (default xi schedule) on min(n, 1e5) points in 3 unit-variance blobs 20 apart with `sample_constraints(rate = 1 / n)` (correct) pairs; easy_k: the clusters found (with 4 a split cluster breaks must-links, so the early stop cannot apply)",
  "",
  md_table(tab, digits = 3))
# one section per set of sizes, so that n = 1e7 can be run alone
section <- paste0("setup ", paste(format(sizes, scientific = TRUE), collapse = " "))
write_md_section("bench/results/rdp-means-setup.md", section, lines[-1], preamble = lines[1])
cat(lines, sep = "\n")
}

if (Sys.getenv("BENCH_SWEEP", "1") != "0") {
  runs <- lapply(names(libs), function(l) list())
  names(runs) <- names(libs)
  for (r in 1:3) {
    for (l in names(libs)) runs[[l]][[r]] <- child(libs[[l]], 1e6, sweep_file)
  }
  tab <- do.call(rbind, lapply(names(libs), function(l) {
    m <- do.call(rbind, runs[[l]])
    ratio <- m[, c("random", "uniform", "fixed")] / m[, "lloyd"]
    med <- apply(m, 2, stats::median)
    rmed <- apply(ratio, 2, stats::median)
    data.frame(build = l, k = as.integer(med[["k"]]), lloyd_iter = med[["lloyd"]], random_sweep = med[["random"]],
               uniform_sweep = med[["uniform"]], fixed_sweep = med[["fixed"]],
               random_ratio = rmed[["random"]], uniform_ratio = rmed[["uniform"]],
               fixed_ratio = rmed[["fixed"]])
  }))
  sweep_lines <- c(
    sprintf("- date: %s", format(Sys.time(), tz = "UTC", usetz = TRUE)),
    sprintf("- machine: %d cores, %s; loaded by other jobs (load average %s), so timings are noisy",
            parallel::detectCores(), cpu_name(),
            tryCatch(strsplit(readLines("/proc/loadavg"), " ")[[1]][1], error = function(e) "?")),
    sprintf("- git %s; command: `%sRscript bench/rdp-means-setup.R ...`", git_commit(),
            if (nzchar(before)) "BENCH_BEFORE_LIB=<main build> " else ""),
    "- per sweep at n = 1e6, p = 10, 10 true clusters (k: the clusters RDP-means keeps), 1e6 pairs (10% flipped), xi practically fixed: (max_iter = 11 - max_iter = 1) / 10, CPU seconds of the process (user + system, less sensitive to the load than elapsed time);",
    "  lloyd_iter: kmeans(algorithm = \"Lloyd\") with k centres, per extra iteration, in the same process; *_ratio: sweep / Lloyd iteration of the same process,",
    "  medians over 3 fresh processes per build (3 calls each, 1 for uniform), the builds interleaved; NA: the order does not exist in that build",
    "",
    md_table(tab, digits = 3))
  write_md_section("bench/results/rdp-means-setup.md", "sweep 1e+06 p10", sweep_lines,
                   preamble = lines[1])
  cat(sweep_lines, sep = "\n")
}
