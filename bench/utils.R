# Shared by the bench/ scripts (sourced from the repository root).

# Replace, or append, the block between <!-- begin name --> and
# <!-- end name --> in a markdown results file, so each part of a benchmark
# can be rerun alone. `preamble` starts a new file.
write_md_section <- function(out_file, name, lines, preamble) {
  begin <- sprintf("<!-- begin %s -->", name)
  end <- sprintf("<!-- end %s -->", name)
  block <- c(begin, lines, end)
  old <- if (file.exists(out_file)) readLines(out_file) else preamble
  b <- match(begin, old)
  e <- match(end, old)
  new <- if (!is.na(b) && !is.na(e)) {
    c(old[seq_len(b - 1L)], block, old[-seq_len(e)])
  } else {
    c(old, block, "")
  }
  dir.create(dirname(out_file), showWarnings = FALSE, recursive = TRUE)
  writeLines(new, out_file)
}

fmt <- function(v, digits = 2) formatC(v, format = "f", digits = digits)

# A data.frame as markdown table lines; NA shows as "-". Integer columns are
# printed as they are unless format_integers.
md_table <- function(df, digits = 2, format_integers = FALSE) {
  cells <- lapply(df, function(col) {
    numeric_cell <- is.numeric(col) && (format_integers || !is.integer(col))
    out <- if (numeric_cell) fmt(col, digits) else as.character(col)
    ifelse(is.na(col), "-", out)
  })
  rows <- do.call(paste, c(cells, sep = " | "))
  c(paste0("| ", paste(names(df), collapse = " | "), " |"),
    paste0("|", paste(rep("---", ncol(df)), collapse = "|"), "|"),
    paste0("| ", rows, " |"))
}

# Short git commit of the working tree and the CPU model, NA when unknown.
git_commit <- function() {
  tryCatch(system("git rev-parse --short HEAD", intern = TRUE, ignore.stderr = TRUE),
           error = function(e) NA, warning = function(w) NA)
}
cpu_name <- function() {
  tryCatch({
    l <- grep("^model name", readLines("/proc/cpuinfo"), value = TRUE)[1]
    trimws(sub("^model name\\s*:", "", l))
  }, error = function(e) NA, warning = function(w) NA)
}

# The five UCI data sets of the TVClust paper's Section 5.2 (iris, wine,
# ecoli, glass without its leaking id, balance), standardized.
tvclust_paper_datasets <- function() {
  env <- new.env()
  utils::data(list = c("wine", "ecoli", "glass", "balance"),
              package = "sideclust", envir = env)
  sets <- list(iris = data.frame(iris[, 1:4], class = iris$Species),
               wine = env$wine, ecoli = env$ecoli, glass = env$glass,
               balance = env$balance)
  lapply(sets, function(d) {
    raw <- as.matrix(d[, names(d) != "class"])
    list(x = scale(raw), raw = raw, y = d$class, k = nlevels(droplevels(d$class)))
  })
}

# The parts of a benchmark to run: BENCH_PARTS (comma-separated), all by
# default.
bench_parts <- function(choices = c("quality", "speed")) {
  parts <- trimws(strsplit(Sys.getenv("BENCH_PARTS", paste(choices, collapse = ",")), ",")[[1]])
  stopifnot(all(parts %in% choices))
  parts
}

# The command that reproduces a run, with the environment setting `env` in
# front when one was given.
bench_command <- function(script, env = "BENCH_PARTS") {
  value <- Sys.getenv(env)
  set <- nzchar(value)
  paste0(paste0(sprintf("%s=%s ", env[set], value[set]), collapse = ""), "Rscript ", script)
}

# The date, machine, R / package versions and command lines of a results
# file. `shared_cores` says the cores are shared with other jobs;
# `command_note` follows the command (e.g. the total run time).
bench_header <- function(command, shared_cores = FALSE, command_note = "") {
  c(sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z")),
    sprintf("- machine: %d cores (parallel::detectCores()), %s%s; %s",
            parallel::detectCores(), if (shared_cores) "shared with other jobs; " else "",
            cpu_name(), R.version$platform),
    sprintf("- R: %s; sideclust %s (git %s)", R.version.string,
            as.character(utils::packageVersion("sideclust")), git_commit()),
    sprintf("- command: `%s` (from the repository root)%s", command, command_note))
}

# The opening lines of a results file whose sections the parts rewrite.
bench_preamble <- function(title, script) {
  c(title, "",
    sprintf("Written by `%s`; each section is rewritten by its own part.", script), "")
}

# Wall-clock seconds per iteration of f() (which returns its number of
# iterations): median, min and max over `repeats` calls, and the iterations
# of the last call.
time_per_iter <- function(f, repeats = 5L) {
  per <- numeric(repeats)
  for (r in seq_len(repeats)) {
    gc(FALSE)
    t0 <- proc.time()[["elapsed"]]
    iters <- f()
    per[r] <- (proc.time()[["elapsed"]] - t0) / iters
  }
  c(median = stats::median(per), min = min(per), max = max(per), iterations = iters)
}

# The speed data of the discriminative-clustering and ib-kmeans benches: n
# points in p dimensions, 5 classes y, class c shifting coordinate 1 by c (the
# others N(0, 1) noise); drawn under set.seed(seed).
shifted_classes_data <- function(n = 10000L, p = 10L, seed = 20261123L) {
  set.seed(seed)
  y <- sample.int(5L, n, replace = TRUE)
  x <- matrix(stats::rnorm(n * p), n, p)
  x[, 1] <- x[, 1] + y
  list(x = x, y = y)
}

# A sparse planted partition of count rows (bench/info-bottleneck.R,
# bench/ib-predict.R): k row groups of equal size in random order, the m
# columns cut into k blocks; each row draws `per_row` column indices, each
# from its group's block with probability 1 - noise and uniformly otherwise.
planted_sparse_rows <- function(n, m, per_row, noise, seed, k = 10L) {
  set.seed(seed)
  truth <- sample(rep_len(seq_len(k), n))
  rows <- rep(seq_len(n), each = per_row)
  g <- truth[rows]
  own <- stats::runif(length(rows)) > noise
  block <- m %/% k
  cols <- ifelse(own, (g - 1L) * block + sample.int(block, length(rows), TRUE),
                 sample.int(m, length(rows), TRUE))
  list(x = Matrix::sparseMatrix(i = rows, j = cols, x = 1, dims = c(n, m)), truth = truth)
}

# The seven UCI data sets of the CEC-IB paper (Section 5, Table 1): ecoli (the
# 327 rows of the 5 classes with more than 5 members, 5 principal components),
# glass, iris, segmentation (the authors' 5 components), user, vertebral, wine;
# features as they are. Each as list(x = matrix, y = factor, k = classes).
cecib_paper_datasets <- function() {
  env <- new.env()
  utils::data(list = c("wine", "ecoli", "glass", "vertebral", "user_knowledge",
                       "segmentation"), package = "sideclust", envir = env)
  ecoli5 <- droplevels(env$ecoli[env$ecoli$class %in% c("cp", "im", "pp", "imU", "om"), ])
  ecoli_pc <- stats::prcomp(ecoli5[, names(ecoli5) != "class"])$x[, 1:5]
  sets <- list(
    ecoli = data.frame(ecoli_pc, class = ecoli5$class),
    glass = env$glass,
    iris = data.frame(iris[, 1:4], class = iris$Species),
    segmentation = env$segmentation,
    user = env$user_knowledge,
    vertebral = env$vertebral,
    wine = env$wine)
  lapply(sets, function(d) {
    x <- as.matrix(d[, names(d) != "class"])
    dimnames(x) <- NULL
    y <- droplevels(d$class)
    list(x = x, y = y, k = nlevels(y))
  })
}

# Cost (10) of CEC-IB recomputed in plain R from a partition alone:
# sum_i p_i (-log p_i + p/2 log(2 pi e) + 1/2 log det Sigma_i + beta H(labels
# in cluster i)), with Sigma_i = (S_i + cov_reg Sigma_X) / |Y_i| (S_i the
# scatter of cluster i); small_sample adds p (p + 3) / (2 (|Y_i| - p - 2)).
# labels: codes with NA for unlabelled points. A singular cluster gives -Inf.
cec_cost10 <- function(x, cluster, labels, beta, cov_reg = 0, small_sample = FALSE) {
  n <- nrow(x)
  p <- ncol(x)
  psi <- cov_reg * crossprod(sweep(x, 2, colMeans(x))) / n
  sum(vapply(split(seq_len(n), cluster), function(rows) {
    m <- length(rows)
    w <- m / n
    centred <- sweep(x[rows, , drop = FALSE], 2, colMeans(x[rows, , drop = FALSE]))
    ev <- eigen((crossprod(centred) + psi) / m, symmetric = TRUE, only.values = TRUE)$values
    lab <- labels[rows]
    lab <- lab[!is.na(lab)]
    h <- if (length(lab)) {
      q <- table(lab) / length(lab)
      -sum(q[q > 0] * log(q[q > 0]))
    } else 0
    w * (-log(w) + p / 2 * log(2 * pi * exp(1)) + sum(log(pmax(ev, 0))) / 2 + beta * h +
           if (small_sample) p * (p + 3) / (2 * (m - p - 2)) else 0)
  }, numeric(1)))
}

# n points in p dimensions from k Gaussians with random means (sd 2.5) and
# random full covariances, drawn from the current RNG state: list(x, y).
simulate_gaussian_mixture <- function(n, p, k) {
  means <- matrix(stats::rnorm(k * p, sd = 2.5), k, p)
  y <- sample.int(k, n, replace = TRUE)
  x <- matrix(0, n, p)
  for (j in seq_len(k)) {
    a <- matrix(stats::rnorm(p * p), p, p)
    s <- a %*% t(a) / p + 0.2 * diag(p)
    idx <- which(y == j)
    x[idx, ] <- matrix(stats::rnorm(length(idx) * p), ncol = p) %*% chol(s) +
      matrix(means[j, ], length(idx), p, byrow = TRUE)
  }
  list(x = x, y = y)
}

# The data sets and numbers of clusters of the CEC search-quality benches
# (cec-search.R, cec-search-alternatives.R): iris and wine raw and scaled,
# the CEC-IB paper's UCI sets and two simulated mixtures; plain matrices.
cec_search_sets <- function() {
  simulate_mixture <- function(n, p, k, seed) {
    set.seed(seed)
    list(x = simulate_gaussian_mixture(n, p, k)$x, k = k)
  }
  uci <- cecib_paper_datasets()
  sets <- list(
    iris = list(x = as.matrix(iris[, 1:4]), k = 3L),
    iris_scaled = list(x = scale(as.matrix(iris[, 1:4])), k = 3L),
    wine = list(x = uci$wine$x, k = 3L),
    wine_scaled = list(x = scale(uci$wine$x), k = 3L),
    ecoli = uci$ecoli[c("x", "k")], glass = uci$glass[c("x", "k")],
    segmentation = uci$segmentation[c("x", "k")], user = uci$user[c("x", "k")],
    vertebral = uci$vertebral[c("x", "k")],
    sim5 = simulate_mixture(500L, 3L, 5L, 1L),
    sim10 = simulate_mixture(2000L, 5L, 10L, 2L))
  for (nm in names(sets)) dimnames(sets[[nm]]$x) <- NULL
  sets
}

# n_pairs pairs of distinct points drawn uniformly, must-link when the labels
# agree (no noise): O(n_pairs), where sample_constraints() is built for
# smaller n.
random_pairs <- function(label, n_pairs) {
  n <- length(label)
  i <- sample.int(n, n_pairs, replace = TRUE)
  j <- sample.int(n, n_pairs, replace = TRUE)
  keep <- i != j
  a <- pmin(i, j)[keep]
  b <- pmax(i, j)[keep]
  first <- !duplicated(a + (b - 1) * n)
  a <- a[first]
  b <- b[first]
  same <- label[a] == label[b]
  sideclust::constraints(must = cbind(a, b)[same, , drop = FALSE],
                         cannot = cbind(a, b)[!same, , drop = FALSE], n = n)
}
