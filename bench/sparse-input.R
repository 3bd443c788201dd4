# Sparse input stays sparse (issue 22, point 5): memory and time per sweep of
# rdp_means() / dp_means(), tvclust(family = "multinomial") and cvqe() on a
# document-term matrix given as a dgCMatrix, against the same data as a dense
# matrix where that fits, and a 1e6 x 1e5 matrix at 0.1% density alone.
#
# Rscript bench/sparse-input.R [small] [medium] [large] [large_cvqe]   (from the repository root)
# (large_cvqe: cvqe() alone on the large data, so it can be run without the rest)
#
# One fresh R process per data set and storage; inside it the methods run one
# after the other, each after gc() and a reset of the peak resident memory
# (writing 5 to /proc/self/clear_refs), so that "peak" is the peak of that
# call above the memory in use before it (the data set included).
# Writes bench/results/sparse-input.md (one section per part).
source("bench/utils.R")
args <- commandArgs(TRUE)
parts <- if (length(args)) args else c("small", "medium", "large")

child_code <- '
  args <- commandArgs(TRUE)
  suppressMessages({library(sideclust); library(Matrix)})
  n <- as.numeric(args[1]); p <- as.numeric(args[2]); density <- as.numeric(args[3])
  storage <- args[4]; methods <- strsplit(args[5], ",")[[1]]; sweeps <- as.integer(args[6])
  mb <- function(field) {
    s <- grep(field, readLines("/proc/self/status"), value = TRUE)
    as.numeric(gsub("[^0-9]", "", s)) / 1024
  }
  # Documents of 10 topics: about density * p words each (counts of repeated
  # words summed), 70% drawn from the topic s block of p / 10 words.
  set.seed(1)
  per <- max(1L, round(density * p))
  topic <- sample.int(10L, n, TRUE)
  block <- p %/% 10
  m <- as.double(n) * per
  word <- sample.int(p, m, TRUE)
  own <- which(runif(m) < 0.7)
  word[own] <- (rep(topic, each = per)[own] - 1L) * block + sample.int(block, length(own), TRUE)
  x <- sparseMatrix(i = rep(seq_len(n), each = per), j = word, x = 1, dims = c(n, p))
  rm(word, own)
  nnz <- length(x@x)
  if (storage == "dense") x <- as.matrix(x)
  side <- sample_constraints(topic, rate = 1 / n)
  data_mb <- as.numeric(object.size(x)) / 2^20
  el <- function(expr) system.time(expr)[["elapsed"]]
  out <- character()
  for (method in methods) {
    invisible(gc())
    writeLines("5", "/proc/self/clear_refs")
    before <- mb("VmRSS")
    set.seed(2)
    res <- tryCatch({
      t <- el(fit <- switch(method,
        rdp_kl = rdp_means(x, side, k = 10, divergence = "kl", max_iter = sweeps),
        rdp_idiv = rdp_means(x, side, k = 10, divergence = "idiv", smoothing = 0.1,
                             max_iter = sweeps),
        rdp_kl_2lambda = {
          lam <- 2 * dp_lambda(x, k = 10, divergence = "kl", smoothing = 0.001)
          rdp_means(x, side, lambda = lam, xi = 0.01 * lam, xi_max = lam, divergence = "kl",
                    smoothing = 0.001, max_iter = sweeps)
        },
        rdp_idiv_2lambda = {
          lam <- 2 * dp_lambda(x, k = 10, divergence = "idiv", smoothing = 0.001)
          rdp_means(x, side, lambda = lam, xi = 0.01 * lam, xi_max = lam, divergence = "idiv",
                    smoothing = 0.001, max_iter = sweeps)
        },
        dp_sqeuclidean = dp_means(x, k = 10, max_iter = sweeps),
        cvqe = suppressWarnings(cvqe(x, side, k = 10, restarts = 1, max_iter = sweeps)),
        tvclust_gibbs = tvclust(x, side, family = "multinomial", k = 10, iter = sweeps,
                                burn_in = 1L, chains = 1L, threads = 1L,
                                chunklet_moves = FALSE),
        tvclust_vb = suppressWarnings(sideclust:::tvclust_vb(
          if (storage == "dense") x else sideclust:::count_points(x),
          sideclust:::as_side_info(side, n = n, arg = "side"), 10L,
          "multinomial", 1, NULL, 0.9, 0.9, c(1, 1), NULL, NULL, 20L, 1L, sweeps, 1e-7,
          FALSE, quote(tvclust()), delete_moves = FALSE))))
      its <- if (method == "tvclust_gibbs") sweeps else fit$iterations
      sprintf("%s|%.3f|%d|%d|%.1f", method, t, its, fit$k, mb("VmHWM") - before)
    }, error = function(e) sprintf("%s|NA|NA|NA|NA|%s", method, gsub("[|;\\n]", " ", conditionMessage(e))))
    out <- c(out, res)
  }
  cat(sprintf("nnz=%d;data_mb=%.1f;%s", nnz, data_mb, paste(out, collapse = ";")))
'
child_file <- tempfile(fileext = ".R")
writeLines(child_code, child_file)

child <- function(n, p, density, storage, methods, sweeps) {
  res <- system2(file.path(R.home("bin"), "Rscript"),
                 c(child_file, format(c(n, p, density), scientific = FALSE), storage,
                   paste(methods, collapse = ","), sweeps), stdout = TRUE)
  fields <- strsplit(utils::tail(res, 1), ";")[[1]]
  head <- fields[1:2]
  rows <- lapply(strsplit(fields[-(1:2)], "|", fixed = TRUE), function(f) {
    data.frame(method = f[1], seconds = as.numeric(f[2]), sweeps = as.integer(f[3]),
               k = as.integer(f[4]), peak_mb = as.numeric(f[5]),
               note = if (length(f) > 5) f[6] else "", stringsAsFactors = FALSE)
  })
  tab <- do.call(rbind, rows)
  tab$per_sweep <- tab$seconds / tab$sweeps
  cbind(data.frame(n = format(n, scientific = TRUE), p = format(p, scientific = TRUE),
                   density = density, storage = storage,
                   nnz = as.numeric(sub("nnz=", "", head[1])),
                   data_mb = as.numeric(sub("data_mb=", "", head[2]))), tab)
}

all_methods <- c("rdp_kl", "dp_sqeuclidean", "tvclust_gibbs", "tvclust_vb", "cvqe")
settings <- list(
  small = list(n = 1e4, p = 2e3, density = 0.01, storages = c("sparse", "dense"),
               methods = all_methods, sweeps = 3L),
  medium = list(n = 2e4, p = 1e4, density = 0.005, storages = c("sparse", "dense"),
                methods = c("rdp_kl_2lambda", "rdp_idiv_2lambda", "dp_sqeuclidean", "tvclust_vb",
                            "cvqe"),
                sweeps = 3L),
  large = list(n = 1e6, p = 1e5, density = 0.001, storages = "sparse",
               methods = c("rdp_kl", "rdp_kl_2lambda", "rdp_idiv_2lambda", "dp_sqeuclidean",
                           "tvclust_gibbs", "cvqe"),
               sweeps = 3L),
  large_cvqe = list(n = 1e6, p = 1e5, density = 0.001, storages = "sparse", methods = "cvqe",
                    sweeps = 3L))

for (part in parts) {
  s <- settings[[part]]
  tab <- do.call(rbind, lapply(s$storages, function(st) {
    child(s$n, s$p, s$density, st, s$methods, s$sweeps)
  }))
  tab <- tab[order(tab$method, tab$storage), ]
  if (length(s$storages) == 2L) {
    ratio <- function(col) {
      v <- tapply(tab[[col]], list(tab$method, tab$storage), identity)
      v[, "dense"] / v[, "sparse"]
    }
    ratios <- data.frame(method = rownames(tapply(tab$seconds, list(tab$method, tab$storage), identity)),
                         time_dense_over_sparse = ratio("per_sweep"),
                         peak_dense_over_sparse = ratio("peak_mb"))
  }
  lines <- c(
    sprintf("- date: %s", format(Sys.time(), tz = "UTC", usetz = TRUE)),
    sprintf("- machine: %d cores, %s; loaded by other jobs (load average %s), so timings are noisy",
            parallel::detectCores(), cpu_name(),
            tryCatch(strsplit(readLines("/proc/loadavg"), " ")[[1]][1], error = function(e) "?")),
    sprintf("- git %s; command: `Rscript bench/sparse-input.R %s`", git_commit(), part),
    sprintf("- data: %s x %s document-term counts of 10 topics, about %g%% non-zeros, built as a dgCMatrix (dense: `as.matrix()` of it); %d pairs from `sample_constraints(topic, rate = 1 / n)`",
            format(s$n, scientific = TRUE), format(s$p, scientific = TRUE), 100 * s$density, s$n),
    "- one run per cell (one fresh process per storage, the methods in turn); seconds: the whole call with the data as the user gives it (conversion, lambda from k = 10, side information); per_sweep: seconds / sweeps (so it includes the set-up); peak_mb: peak resident memory of the call above the memory in use before it (VmHWM after a reset); data_mb: the input object",
    "- rdp_kl: `rdp_means(k = 10, divergence = \"kl\")` (smoothing 0.3, kept as an offset); rdp_*_2lambda: `rdp_means(lambda = 2 * dp_lambda(k = 10), xi = 0.01 * lambda, xi_max = lambda, smoothing = 0.001)` for `\"kl\"` / `\"idiv\"` (on these data the k = 10 heuristic either keeps one cluster or, with the pairs' penalties, opens clusters until the cap on dense centres stops the fit; see the k and note columns); dp_sqeuclidean: `dp_means()`; tvclust_gibbs: `tvclust(family = \"multinomial\", chunklet_moves = FALSE, chains = 1, threads = 1)`; tvclust_vb: the variational fit, without its split / delete moves; cvqe: `cvqe(k = 10, restarts = 1)` with the pairs (k-means++ seeding included; its iterations are the sweeps)",
    "",
    md_table(tab, digits = 3))
  if (length(s$storages) == 2L) lines <- c(lines, "", "Dense over sparse, same run:", "", md_table(ratios, digits = 2))
  write_md_section("bench/results/sparse-input.md", part, lines,
                   preamble = c("# Sparse input stays sparse", ""))
  cat(lines, sep = "\n")
}
