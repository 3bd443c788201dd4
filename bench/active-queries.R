# Active selection of pairs on the UCI data sets (issue 44, point 4): the
# learning curves of query_pairs()'s strategies, F-measure and ARI against the
# number of questions, with an exact oracle and one wrong 10% of the time.
#
# Run from the repository root, with sideclust installed:
#   nice -n 10 Rscript bench/active-queries.R
#   BENCH_RUNS=2 BENCH_SETS=wine,glass Rscript bench/active-queries.R   # quick
#   BENCH_PARTS=report Rscript bench/active-queries.R   # tables and figure from the CSV
#   BENCH_RUNS=3 BENCH_IMPLIED=0 BENCH_ANSWERS_TOO=0 \
#     BENCH_OUT=bench/results/active-queries-answers Rscript bench/active-queries.R
#     # every fit, TVClust's posterior loops included, on the answers alone
# Environment: BENCH_RUNS (10), BENCH_SETS (the eight below, comma-separated),
# BENCH_BUDGET (300), BENCH_REFIT_EVERY (5), BENCH_IMPLIED (1),
# BENCH_ANSWERS_TOO (1), BENCH_PARTS ("run,report"), BENCH_OUT (the results'
# base name, bench/results/active-queries; .md, .png, .csv.gz, -run.txt),
# BENCH_SEED_OFFSET (0: the protocol's seeds; another value, added to every
# loop's seed, repeats the protocol on other draws, as
# bench/results/active-queries-seeds2.md does with 500), BENCH_POOL_WITH
# (CSVs of the same protocol on other draws, comma-separated: the report
# adds the targets' verdicts on each and on all the runs pooled).
#
# Protocol
# * data: wine, ecoli, glass, balance (bench/utils.R's
#   tvclust_paper_datasets()) and ionosphere (its constant column dropped),
#   vertebral, user_knowledge, segmentation (bench/tvclust-defaults.R's
#   defaults_extra_datasets()): the packaged copies, every feature scale()d,
#   as in the TVClust paper's protocol; k = the number of classes.
# * oracles: oracle_from_labels(y) (exact) and oracle_from_labels(y, noise =
#   0.1); no "don't know" answers.
# * methods, each told the true k, one thread: rdp_means(x, side, k = k,
#   chunklet_moves = TRUE) (as active_side() fits it; otherwise defaults);
#   tvclust(x, side, k = k, method = "variational") (defaults);
#   lcvqe(x, side, k = k) (defaults, 10 restarts); mpck_means(x, side, k = k)
#   (defaults: diagonal metrics, 10 restarts, centres seeded from the
#   must-link neighbourhoods). The two constrained k-means methods: LCVQE had
#   the best F of the family at every accuracy of random pairs in
#   bench/results/constrained-kmeans-uci.md (COP-k-means, which treats every
#   answer as hard, fell to F 0.49 with 10% wrong pairs); MPCK-means learns a
#   metric per cluster and starts from the neighbourhoods, which is what the
#   neighbourhood strategies build.
# * strategies: query_pairs()'s "random", "explore_consolidate", "min_max",
#   "npu" with every method; "uncertainty" with TVClust only (the one method
#   here with a posterior). Explore-Consolidate and Min-Max explore for k.
# * one loop per run and strategy, BENCH_BUDGET questions, scored at the
#   checkpoints 0, 10, 25, 50, 100, 150, 200, 300. Where the strategy does
#   not look at the fit (random, Explore-Consolidate, Min-Max, and NPU, which
#   uses its Gaussian kernel unless given a posterior, as in active_side())
#   the questions do not depend on the method: the loop asks one pair at a
#   time (batch 1) and the three methods are fitted on the answers gathered
#   at each checkpoint, on the very same questions. Where it does
#   ("uncertainty", with TVClust), TVClust is refitted every
#   BENCH_REFIT_EVERY questions and "uncertainty" asks a batch of
#   BENCH_REFIT_EVERY non-redundant pairs per fit from its posterior. active_side()
#   refits after every round; the bench does not, to fit the time it has
#   (see the results file). A strategy with nothing left to ask (every point
#   placed in a neighbourhood) stops early and keeps its last fit at the
#   later checkpoints (column `asked` of the CSV: the questions asked).
# * a must-link the neighbourhood strategies infer (phase "inferred"; see
#   ?query_pairs, Inferred answers) is recorded without asking and does not
#   count as a question, as in active_side(); a checkpoint's fits get the
#   answers to its questions and the must-links inferred before the next.
# * the loops pass the pairs asked twice (rechecks of contradictions; see
#   ?query_pairs) in `exclude`, as active_side() does, and a pair asked
#   twice keeps its last answer; with confirm = TRUE, as in active_side(), a
#   new neighbourhood's cannot-link is asked again before it counts (see
#   ?query_pairs, Confirmed neighbourhoods).
# * every fit gets the answers and the pairs they imply by transitivity, as
#   active_side() gives them by default (implied = TRUE; chunklets that
#   contradict k imply nothing); BENCH_IMPLIED=0
#   fits on the answers alone. Where the questions do not depend on the fit,
#   each checkpoint is also fitted on the answers alone (column fit_side of
#   the CSV, "answers"; BENCH_ANSWERS_TOO=0 skips them), to show what the
#   implied pairs buy and cost; the loops that read TVClust's posterior run
#   with the implied pairs only.
# * every fit is from scratch (no warm start), under set.seed(fit seed), the
#   fit seed depending on the data set, run, oracle and number of answers
#   only, so two strategies' fits at a checkpoint differ by their answers
#   alone; the RNG state of the loop is restored after each fit.
# * seeds: run r of data set d with oracle o (1 exact, 2 noisy) starts every
#   strategy's loop from set.seed(100000 d + 1000 o + r + BENCH_SEED_OFFSET):
#   the same seed for every strategy, so the curves are paired.
# * metrics: f_measure() (pairwise F) and ari() against the classes.

library(sideclust)
source(file.path("bench", "utils.R"))
source(file.path("bench", "tvclust-defaults.R"))
options(sideclust.threads = 1L)

out_base <- Sys.getenv("BENCH_OUT", file.path("bench", "results", "active-queries"))
out_md <- paste0(out_base, ".md")
out_csv <- paste0(out_base, ".csv.gz")
out_png <- paste0(out_base, ".png")
all_sets <- c("wine", "ecoli", "glass", "balance", "ionosphere", "vertebral", "user_knowledge",
              "segmentation")
n_runs <- as.integer(Sys.getenv("BENCH_RUNS", "10"))
set_names <- trimws(strsplit(Sys.getenv("BENCH_SETS", paste(all_sets, collapse = ",")), ",")[[1]])
stopifnot(all(set_names %in% all_sets))
budget <- as.integer(Sys.getenv("BENCH_BUDGET", "300"))
refit_every <- as.integer(Sys.getenv("BENCH_REFIT_EVERY", "5"))
use_implied <- Sys.getenv("BENCH_IMPLIED", "1") == "1"
seed_offset <- as.integer(Sys.getenv("BENCH_SEED_OFFSET", "0"))
with_answers <- Sys.getenv("BENCH_ANSWERS_TOO", "1") == "1"
parts <- bench_parts(c("run", "report"))
checkpoints <- c(0L, 10L, 25L, 50L, 100L, 150L, 200L, 300L)
checkpoints <- unique(c(checkpoints[checkpoints < budget], budget))
noise_levels <- c(exact = 0, noisy = 0.1)
strategies <- c("random", "explore_consolidate", "min_max", "npu", "uncertainty")
methods <- c("rdp_means", "tvclust", "lcvqe", "mpck_means")

active_bench_sets <- function() {
  sets <- c(tvclust_paper_datasets()[c("wine", "ecoli", "glass", "balance")],
            defaults_extra_datasets())
  lapply(sets[all_sets], function(s) list(x = unname(as.matrix(s$x)), y = s$y, k = s$k))
}

# The fit of one method on the questions asked so far (NULL side when none),
# given as active_side() gives them, under its own seed, leaving the
# caller's random stream where it was.
fit_method <- function(method, x, asked, k, seed, implied = use_implied) {
  saved <- .Random.seed
  on.exit(assign(".Random.seed", saved, envir = globalenv()))
  side <- sideclust:::active_fit_side(answers_side(nrow(x), asked), x, asked, k, implied, confirm = TRUE)
  set.seed(seed)
  switch(method,
         rdp_means = rdp_means(x, side, k = k, chunklet_moves = TRUE),
         tvclust = tvclust(x, side, k = k, method = "variational"),
         lcvqe = lcvqe(x, side, k = k),
         mpck_means = mpck_means(x, side, k = k))
}

answers_side <- function(n, asked) {
  if (nrow(asked) == 0L) return(NULL)
  # a pair asked again (a recheck) keeps its last answer, as in active_side()
  asked <- asked[!duplicated(sideclust:::pair_key(asked$i, asked$j), fromLast = TRUE), ]
  must <- asked$answer == "must"
  constraints(must = cbind(asked$i[must], asked$j[must]),
              cannot = cbind(asked$i[!must], asked$j[!must]), n = n)
}

score_row <- function(y, fit, queries, asked) {
  data.frame(queries = queries, asked = asked, F = f_measure(y, fit$cluster), ARI = ari(y, fit$cluster),
             clusters = length(unique(fit$cluster)))
}

# One loop: the questions of `strategy` up to the budget. `posterior_fit`
# (a function of the questions asked so far and their count) is called every
# refit_every answers when the strategy reads the fit; its fits are kept at
# the checkpoints. Returns the questions asked and those fits.
ask_loop <- function(ds, oracle, strategy, posterior_fit = NULL) {
  n <- nrow(ds$x)
  asked <- data.frame(i = integer(0), j = integer(0), answer = character(0), inferred = logical(0))
  fits <- list()
  post <- NULL
  while (questions_asked(asked) < budget) {
    side <- answers_side(n, asked)
    m <- questions_asked(asked)
    if (!is.null(posterior_fit) && m %% refit_every == 0L) {
      post <- posterior_fit(asked, m)
      if (m %in% checkpoints) fits[[as.character(m)]] <- post
    }
    batch <- if (strategy == "uncertainty") min(refit_every - m %% refit_every, budget - m) else 1L
    q <- query_pairs(ds$x, side, strategy = strategy, batch = batch, k = ds$k, posterior = post,
                     exclude = sideclust:::settled_questions(asked), confirm = TRUE)
    if (nrow(q) == 0L) break
    # an inferred must-link (phase "inferred") is recorded, not asked, as in active_side()
    asked <- rbind(asked, data.frame(i = q$i, j = q$j, answer = sideclust:::answer_queries(oracle, q),
                                     inferred = q$phase %in% "inferred"))
  }
  if (!is.null(posterior_fit)) {
    last <- posterior_fit(asked, questions_asked(asked))
    # a strategy with nothing left to ask keeps its last fit at the later checkpoints
    for (m in checkpoints[checkpoints >= questions_asked(asked)]) fits[[as.character(m)]] <- last
  }
  list(asked = asked, fits = fits)
}

questions_asked <- function(asked) sum(!asked$inferred)

# The rows up to the m-th question, with the must-links inferred before the next.
first_questions <- function(asked, m) asked[cumsum(!asked$inferred) <= m, , drop = FALSE]

# Every strategy and method on one data set, run and oracle: rows of scores.
bench_one <- function(ds, d, run, o) {
  seed <- 100000L * d + 1000L * o + run + seed_offset
  fit_seed <- function(m) seed * 1000L + m
  n <- nrow(ds$x)
  rows <- list()
  add <- function(method, strategy, fits_by_m, seconds, n_asked, implied = use_implied) {
    for (m in names(fits_by_m)) {
      r <- score_row(ds$y, fits_by_m[[m]], as.integer(m), min(as.integer(m), n_asked))
      rows[[length(rows) + 1L]] <<- cbind(
        data.frame(set = all_sets[d], run = run, oracle = names(noise_levels)[o],
                   method = method, strategy = strategy,
                   fit_side = if (implied) "implied" else "answers", seconds = seconds), r)
    }
  }
  for (strategy in strategies) {
    readers <- if (strategy == "uncertainty") "tvclust" else character(0)
    shared <- setdiff(if (strategy == "uncertainty") character(0) else methods, readers)
    # the methods whose fits the questions do not depend on: one loop, fits at the checkpoints
    if (length(shared)) {
      set.seed(seed)
      t0 <- proc.time()[["elapsed"]]
      loop <- ask_loop(ds, oracle_from_labels(ds$y, noise = noise_levels[[o]]), strategy)
      t_ask <- proc.time()[["elapsed"]] - t0
      variants <- if (use_implied && with_answers) c(TRUE, FALSE) else use_implied
      for (method in shared) for (implied in variants) {
        t0 <- proc.time()[["elapsed"]]
        n_asked <- questions_asked(loop$asked)
        at <- unique(pmin(checkpoints, n_asked))
        fits <- lapply(at, function(m) {
          fit_method(method, ds$x, first_questions(loop$asked, m), ds$k, fit_seed(m), implied)
        })
        fits <- stats::setNames(fits[match(pmin(checkpoints, n_asked), at)], checkpoints)
        add(method, strategy, fits, t_ask + proc.time()[["elapsed"]] - t0, n_asked, implied)
      }
    }
    for (method in readers) {
      set.seed(seed)
      t0 <- proc.time()[["elapsed"]]
      loop <- ask_loop(ds, oracle_from_labels(ds$y, noise = noise_levels[[o]]), strategy,
                       function(asked, m) fit_method(method, ds$x, asked, ds$k, fit_seed(m)))
      add(method, strategy, loop$fits, proc.time()[["elapsed"]] - t0, nrow(loop$asked))
    }
  }
  do.call(rbind, rows)
}

run_bench <- function() {
  sets <- active_bench_sets()
  t_start <- proc.time()[["elapsed"]]
  res <- list()
  for (nm in set_names) {
    d <- match(nm, all_sets)
    for (o in seq_along(noise_levels)) {
      for (run in seq_len(n_runs)) {
        res[[length(res) + 1L]] <- bench_one(sets[[nm]], d, run, o)
      }
      message(sprintf("%s %s: %d runs, %.0f s so far", nm, names(noise_levels)[o], n_runs,
                      proc.time()[["elapsed"]] - t_start))
    }
  }
  res <- do.call(rbind, res)
  dir.create(dirname(out_csv), showWarnings = FALSE, recursive = TRUE)
  res$F <- round(res$F, 4)
  res$ARI <- round(res$ARI, 4)
  utils::write.csv(res, gzfile(out_csv), row.names = FALSE, quote = FALSE)
  total <- proc.time()[["elapsed"]] - t_start
  writeLines(c(bench_header(bench_command("bench/active-queries.R",
                                          c("BENCH_RUNS", "BENCH_SETS", "BENCH_BUDGET",
                                            "BENCH_REFIT_EVERY", "BENCH_IMPLIED", "BENCH_ANSWERS_TOO",
                                            "BENCH_OUT")),
                            shared_cores = TRUE,
                            command_note = sprintf("; total run time %.0f s (%.1f min)",
                                                   total, total / 60)),
               sprintf("- load average at the end (1, 5, 15 min): %s",
                       paste(tryCatch(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3],
                                      error = function(e) NA), collapse = ", "))),
             sub("\\.csv\\.gz$", "-run.txt", out_csv))
  res
}

source(file.path("bench", "active-queries-report.R"))

if ("run" %in% parts) invisible(run_bench())
if ("report" %in% parts) {
  pool_with <- Sys.getenv("BENCH_POOL_WITH")
  active_report(out_csv, out_md, out_png,
                if (nzchar(pool_with)) trimws(strsplit(pool_with, ",")[[1]]) else character(0))
}
