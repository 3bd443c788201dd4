# The defaults of tvclust() (both methods, the point estimate) on nine UCI
# data sets, next to rdp_means() with the same pairs and next to an older
# build of the package run on the same pairs in a child process: the number
# of clusters k and the pairwise F-measure side by side (issue 45, points 3
# and 4).
#
# Run from the repository root, with sideclust installed:
#   BENCH_PARTS=defaults Rscript bench/tvclust-uci.R
#   BENCH_OLD_LIB=/path/to/old/library BENCH_PARTS=defaults Rscript bench/tvclust-uci.R
#   BENCH_TRIALS=2 BENCH_PARTS=defaults Rscript bench/tvclust-uci.R   # quicker
#
# Protocol
# * the paper's five data sets (iris, wine, ecoli, glass, balance; scale()d):
#   the pairs of bench/tvclust-uci.R's main part (same seeds,
#   sample_constraints(y, protocol = "tvclust", rate = r, noise = 1 - p,
#   pair_count = "authors"), r in {0.01, 0.03, 0.05}, p in {1, 0.95, 0.9,
#   0.8}), BENCH_TRIALS trials each.
# * ionosphere (its constant column dropped), segmentation, user_knowledge,
#   vertebral (scale()d): sample_constraints(y, rate = 0.03, noise = 0.1),
#   set.seed(90000 + 1000 d + t), BENCH_TRIALS trials.
# * methods: tvclust(x, side, iter = BENCH_ITER, chains = 2, threads = 2)
#   (Gibbs; every other argument at its default), tvclust(x, side, method =
#   "variational") (defaults), rdp_means(x, side, k = true k) (defaults, as
#   bench/rdp-means-uci.R calls it). Each fit starts from set.seed(seed + 7).
# * the older build (BENCH_OLD_LIB) runs the two tvclust() fits on the same
#   pairs with the same seeds; rdp_means() runs in this build only.

defaults_extra_datasets <- function() {
  names <- c("ionosphere", "segmentation", "user_knowledge", "vertebral")
  env <- new.env()
  utils::data(list = names, package = "sideclust", envir = env)
  lapply(stats::setNames(names, names), function(nm) {
    d <- env[[nm]]
    raw <- as.matrix(d[, names(d) != "class"])
    raw <- raw[, apply(raw, 2L, stats::sd) > 0, drop = FALSE]
    list(x = scale(raw), y = d$class, k = nlevels(droplevels(d$class)))
  })
}

# Every (data set, setting, trial) with its pairs' seed.
defaults_settings <- function(n_trials) {
  paper <- expand.grid(t = seq_len(n_trials), ip = 1:4, ir = 1:3, d = 1:5)
  paper$seed <- 10000L * paper$d + 1000L * paper$ir + 100L * paper$ip + paper$t
  paper$protocol <- "paper"
  extra <- expand.grid(t = seq_len(n_trials), d = 1:4)
  extra$ir <- NA_integer_
  extra$ip <- NA_integer_
  extra$seed <- 90000L + 1000L * extra$d + extra$t
  extra$protocol <- "3% pairs, 10% noise"
  rbind(paper[c("protocol", "d", "ir", "ip", "t", "seed")],
        extra[c("protocol", "d", "ir", "ip", "t", "seed")])
}

# The fits of one build: a data frame of k, F, learned p and q, and the
# posterior mean of k (Gibbs) per run and method.
defaults_runs <- function(n_trials, iter, with_rdp) {
  paper_sets <- tvclust_paper_datasets()
  extra_sets <- defaults_extra_datasets()
  rates <- c(0.01, 0.03, 0.05)
  accuracies <- c(1, 0.95, 0.9, 0.8)
  settings <- defaults_settings(n_trials)
  rows <- vector("list", nrow(settings))
  for (s in seq_len(nrow(settings))) {
    st <- settings[s, ]
    paper <- st$protocol == "paper"
    ds <- if (paper) paper_sets[[st$d]] else extra_sets[[st$d]]
    set.seed(st$seed)
    side <- if (paper) {
      sample_constraints(ds$y, protocol = "tvclust", rate = rates[st$ir],
                         noise = 1 - accuracies[st$ip], pair_count = "authors")
    } else {
      sample_constraints(ds$y, rate = 0.03, noise = 0.1)
    }
    one <- function(method, fit, expected_k = NA_real_) {
      data.frame(dataset = if (paper) names(paper_sets)[st$d] else names(extra_sets)[st$d],
                 protocol = st$protocol,
                 r = if (paper) rates[st$ir] else 0.03,
                 p = if (paper) accuracies[st$ip] else 0.9, trial = st$t, method = method,
                 true_k = ds$k, k = length(unique(fit$cluster)),
                 F = compare_partitions(ds$y, fit$cluster)[["f_measure"]],
                 p_hat = fit$p %||% NA_real_, q_hat = fit$q %||% NA_real_,
                 expected_k = expected_k, stringsAsFactors = FALSE)
    }
    set.seed(st$seed + 7L)
    gibbs <- tvclust(ds$x, side, iter = iter, chains = 2L, threads = 2L)
    pk <- gibbs$posterior_k
    out <- list(one("gibbs", gibbs, sum(as.numeric(names(pk)) * as.numeric(pk))))
    set.seed(st$seed + 7L)
    out[[2L]] <- one("variational", suppressWarnings(tvclust(ds$x, side, method = "variational")))
    if (with_rdp) {
      set.seed(st$seed + 7L)
      out[[3L]] <- one("rdp_means", rdp_means(ds$x, side, k = ds$k))
    }
    rows[[s]] <- do.call(rbind, out)
    if (s == nrow(settings) || settings$d[s + 1L] != st$d || settings$protocol[s + 1L] != st$protocol) {
      message(sprintf("%s done", rows[[s]]$dataset[1L]))
    }
  }
  do.call(rbind, rows)
}

`%||%` <- function(a, b) if (is.null(a)) b else a

# The older build's rows, from a child Rscript whose library path starts at
# old_lib, started in the background (it runs beside this build's fits);
# defaults_old_rows() waits for them. NULL without an older build.
defaults_old_start <- function(old_lib, n_trials, iter) {
  if (!nzchar(old_lib)) return(NULL)
  out <- tempfile(fileext = ".rds")
  system2("Rscript", c("-e", shQuote(sprintf(
    "source('bench/utils.R'); source('bench/tvclust-defaults.R'); library(sideclust); saveRDS(defaults_runs(%d, %d, FALSE), '%s.part'); file.rename('%s.part', '%s')",
    n_trials, iter, out, out, out))), env = sprintf("R_LIBS=%s", old_lib), wait = FALSE,
    stdout = FALSE, stderr = FALSE)
  out
}
defaults_old_rows <- function(out, timeout = 4 * 3600) {
  if (is.null(out)) return(NULL)
  waited <- 0
  while (!file.exists(out) && waited < timeout) {
    Sys.sleep(5)
    waited <- waited + 5
  }
  if (!file.exists(out)) stop("the older build's run did not finish")
  readRDS(out)
}

# Tables: per data set, k and F of every method and build side by side.
defaults_tables <- function(res) {
  res$column <- ifelse(res$method == "rdp_means", "rdp_means",
                       paste(res$method, res$build))
  per <- stats::aggregate(res[c("k", "F")], res[c("dataset", "true_k", "column")], mean)
  order_sets <- unique(res$dataset)
  columns <- c("gibbs old", "gibbs new", "variational old", "variational new", "rdp_means")
  columns <- columns[columns %in% per$column]
  wide <- function(metric) {
    w <- stats::reshape(per[c("dataset", "true_k", "column", metric)], idvar = c("dataset", "true_k"),
                        timevar = "column", direction = "wide")
    names(w) <- sub(paste0("^", metric, "\\."), paste0(metric, ", "), names(w))
    w[order(match(w$dataset, order_sets)), c("dataset", "true_k", paste0(metric, ", ", columns))]
  }
  k <- wide("k")
  f <- wide("F")
  both <- cbind(k, f[-(1:2)])
  paper <- both$dataset %in% c("iris", "wine", "ecoli", "glass", "balance")
  mae <- function(col) mean(abs(both[[col]][paper] - both$true_k[paper]))
  point3 <- do.call(rbind, lapply(setdiff(columns, "rdp_means"), function(cl) {
    data.frame(fit = cl, `mean abs(k - true k)` = mae(paste0("k, ", cl)),
               `mean F` = mean(both[[paste0("F, ", cl)]][paper]), check.names = FALSE)
  }))
  gaps <- data.frame(dataset = both$dataset)
  for (cl in intersect(c("gibbs new", "variational new", "gibbs old", "variational old"), columns)) {
    gaps[[paste0("F gap, ", cl)]] <- both[[paste0("F, ", cl)]] - both[["F, rdp_means"]]
  }
  tv <- res[res$method == "gibbs", ]
  learned <- stats::aggregate(tv[c("p_hat", "q_hat", "expected_k", "k")],
                              tv[c("dataset", "build")], stats::median)
  learned <- learned[order(match(learned$dataset, order_sets), learned$build), ]
  list(both = both, point3 = point3, gaps = gaps, learned = learned)
}

run_defaults <- function(n_trials, iter, old_lib, out_file) {
  started <- proc.time()[["elapsed"]]
  old_out <- defaults_old_start(old_lib, n_trials, iter)
  new <- defaults_runs(n_trials, iter, TRUE)
  new$build <- "new"
  old <- defaults_old_rows(old_out)
  if (!is.null(old)) old$build <- "old"
  res <- rbind(new, old)
  tabs <- defaults_tables(res)
  gap_cols <- grep("new$", names(tabs$gaps), value = TRUE)
  worst <- vapply(gap_cols, function(cl) min(tabs$gaps[[cl]]), numeric(1))
  p3 <- tabs$point3[grepl("new$", tabs$point3$fit), ]
  p3_old <- tabs$point3[grepl("old$", tabs$point3$fit), ]
  verdict <- c(
    sprintf("- point 3 (five paper data sets, mean abs(k - true k) <= 1.0, mean F not below the older build's): %s",
            paste(sprintf("%s %s / F %s%s", p3$fit, fmt(p3$`mean abs(k - true k)`), fmt(p3$`mean F`),
                          if (nrow(p3_old)) sprintf(" (older %s / %s)",
                                                   fmt(p3_old$`mean abs(k - true k)`),
                                                   fmt(p3_old$`mean F`)) else ""),
                  collapse = "; ")),
    sprintf("- point 4 (every data set, F at most 0.05 below rdp_means'): worst gap %s",
            paste(sprintf("%s %s (%s)", sub("F gap, ", "", gap_cols), fmt(worst),
                          ifelse(worst >= -0.05, "met", "NOT met")), collapse = "; ")))
  lines <- c(
    bench_header(bench_command("bench/tvclust-uci.R"), shared_cores = TRUE,
                 sprintf("; %d trials, Gibbs %d sweeps x 2 chains; older build: %s; total %.0f s",
                         n_trials, iter, if (nzchar(old_lib)) old_lib else "none",
                         proc.time()[["elapsed"]] - started)),
    "- protocol: see bench/tvclust-defaults.R. Paper data sets averaged over r in {0.01, 0.03, 0.05}, p in {1, 0.95, 0.9, 0.8} and trials; the other four at 3% pairs, 10% noise.",
    "- \"old\" = the older build on the same pairs and seeds; \"new\" = this build; rdp_means(x, side, k = true k) from this build.",
    "", verdict, "",
    "## Number of clusters k and F-measure per data set (means over runs)", "",
    md_table(tabs$both), "",
    "## Point 3: over the five paper data sets", "", md_table(tabs$point3), "",
    "## Point 4: F minus rdp_means' F (same pairs)", "", md_table(tabs$gaps), "",
    "## Gibbs: what it learned (medians over runs): posterior means of p and q, posterior mean of k, and k of the estimate", "",
    md_table(tabs$learned), "")
  write_md_section(out_file, "defaults", lines, preamble = c(
    "# TVClust on UCI data sets (TVClust paper, Section 5.2)", "",
    "Written by `bench/tvclust-uci.R`.", ""))
  cat(lines, sep = "\n")
  invisible(res)
}
