# Speed of constrained_mixture() on n = 100,000 points, p = 5, K = 10 and
# 100,000 constraints (issue 22, point 3: every E-step within 2x a plain EM
# iteration; a default mean-field fit faster than Mclust(G = 10, "VVV")):
# 1. one further EM iteration of each inference against the package's own
#    EM without constraints, mclust's meVVV and Rmixmod's EM, all from the
#    same random start, in the same run;
# 2. a whole default fit (k-means start, mean field) against
#    mclust::Mclust(x, G = 10, modelNames = "VVV"), with their
#    log-likelihoods and adjusted Rand indices;
# 3. sampled chunklets: one EM iteration against the number of samples
#    (expected linear), on two threads, and with less work than the model
#    asks for (one mean-field sweep; the must-links alone).
# With BENCH_BASE_LIB set to a library holding an earlier sideclust build,
# section 2 and the mean-field / chunklet iterations of section 1 are also
# run with that build (in a child R process), for a before / after table.
#
# Run from the repository root with sideclust (and mclust, Rmixmod, callr,
# optional) installed:
#   Rscript bench/constrained-mixture-speed.R
#   BENCH_REPS=5 BENCH_BASE_LIB=/path/to/old/lib Rscript bench/constrained-mixture-speed.R
# Timings are medians over BENCH_REPS repeats (default 3) of the R process's
# CPU time (user + system): every timed code is single-threaded, and on a
# loaded machine CPU time is far steadier than elapsed time (the whole fits
# also show elapsed time).

library(sideclust)
source(file.path("bench", "utils.R"))
source(file.path("bench", "constrained-mixture-utils.R"))  # cm_speed_data()

reps <- as.integer(Sys.getenv("BENCH_REPS", "3"))
# CPU seconds of single-threaded code throughout, except the threads section
options(sideclust.threads = 1L)
base_lib <- Sys.getenv("BENCH_BASE_LIB")
out_file <- file.path("bench", "results", "constrained-mixture-speed.md")
env <- Sys.getenv(c("BENCH_REPS", "BENCH_BASE_LIB"))
env <- env[nzchar(env)]
command <- paste(c(sprintf("%s=%s", names(env), env),
                   "Rscript bench/constrained-mixture-speed.R"), collapse = " ")
has_mclust <- requireNamespace("mclust", quietly = TRUE)
has_mixmod <- requireNamespace("Rmixmod", quietly = TRUE)

# The bench data (also built by the child process of the before / after runs).
bench_data <- cm_speed_data
d <- bench_data()
x <- d$x
K <- d$K
side <- d$side
start <- d$start
start_z <- diag(K)[start, ]

cpu <- function(st) st[["user.self"]] + st[["sys.self"]]
med_time <- function(expr_fun, what = cpu) {
  stats::median(vapply(seq_len(reps), function(r) {
    gc(verbose = FALSE)
    what(system.time(expr_fun()))
  }, 1))
}
elapsed <- function(st) st[["elapsed"]]
# One further iteration: (time of 1 + m iterations - time of 1) / m, so
# that set-up, validation and the first (cold) E-step cancel out.
m_more <- 3L
per_iteration <- function(run) {
  one <- med_time(function() run(1L))
  more <- med_time(function() run(1L + m_more))
  c(first = one, per_iteration = (more - one) / m_more)
}

# ---- 1. one EM iteration of each inference and of the peers ----------------
cm_run <- function(inference, side) {
  function(iters) suppressWarnings(constrained_mixture(
    x, side, K, inference = inference, covariance = "full", start = start,
    max_iter = iters, tol = 0))
}
rows <- list()
add <- function(what, t, note) {
  rows[[length(rows) + 1L]] <<- data.frame(what = what, first_call = t[["first"]],
                                           per_iteration = t[["per_iteration"]], note = note)
}
plain <- per_iteration(cm_run("mean_field", NULL))
add("sideclust, no constraints (plain EM)", plain, "the reference: ratio 1")
notes <- c(mean_field = "default inner_iter = 50, inner_tol = 1e-6",
           chunklet = "every constraint certain; mean field over chunklets where not exact",
           sampled_chunklet = "default samples = 20; exactly solved components shared by the samples",
           gibbs = "default sweeps = 10, 5 while the log-likelihood changes by > 1% (burn_in = 5 in the first E-step only)",
           icm = "default inner_iter = 50")
for (inf in names(notes)) add(sprintf("sideclust, %s", inf), per_iteration(cm_run(inf, side)),
                              notes[[inf]])
if (has_mclust) {
  add("mclust::meVVV (no constraints)", per_iteration(function(iters) {
    mclust::meVVV(x, start_z, control = mclust::emControl(itmax = iters, tol = c(0, 0)))
  }), "peer")
}
if (has_mixmod) {
  add("Rmixmod::mixmodCluster EM, Gaussian_pk_Lk_Ck (no constraints)",
      per_iteration(function(iters) {
        Rmixmod::mixmodCluster(
          as.data.frame(x), nbCluster = K,
          models = Rmixmod::mixmodGaussianModel(listModels = "Gaussian_pk_Lk_Ck"),
          strategy = Rmixmod::mixmodStrategy(algo = "EM", initMethod = "label", labels = start,
                                             nbIterationInAlgo = iters, epsilonInAlgo = 1e-300))
      }), "peer; label start")
}
tab <- do.call(rbind, rows)
tab$ratio_to_plain <- tab$per_iteration / plain[["per_iteration"]]
tab <- tab[c("what", "first_call", "per_iteration", "ratio_to_plain", "note")]
print(tab, row.names = FALSE)

# ---- 2. a whole default fit against Mclust ---------------------------------
default_fit <- function() suppressWarnings(constrained_mixture(x, side, K))  # k-means chatter
t_default <- med_time(function() {
  set.seed(3)
  default_fit()
})
e_default <- med_time(function() {
  set.seed(3)
  default_fit()
}, elapsed)
set.seed(3)
fit_default <- default_fit()
whole <- data.frame(what = "sideclust::constrained_mixture(x, side, 10) (mean field, k-means start)",
                    cpu_seconds = t_default, elapsed = e_default,
                    iterations = fit_default$iterations,
                    loglik = utils::tail(fit_default$loglik, 1),
                    ari = ari(d$y, fit_default$cluster))
if (has_mclust) {
  suppressPackageStartupMessages(library(mclust))  # Mclust() calls mclustBIC() unqualified
  run_mclust <- function() mclust::Mclust(x, G = K, modelNames = "VVV", verbose = FALSE)
  t_mclust <- med_time(run_mclust)
  e_mclust <- med_time(run_mclust, elapsed)
  mc <- run_mclust()
  whole <- rbind(whole, data.frame(what = "mclust::Mclust(x, G = 10, modelNames = \"VVV\") (no constraints)",
                                   cpu_seconds = t_mclust, elapsed = e_mclust,
                                   iterations = NA_integer_,
                                   loglik = mc$loglik, ari = ari(d$y, mc$classification)))
}
whole$cpu_ratio_to_mclust <- if (has_mclust) whole$cpu_seconds / whole$cpu_seconds[nrow(whole)] else NA_real_
print(whole, row.names = FALSE)

# ---- 3. sampled chunklets against the number of samples --------------------
samples <- c(5L, 10L, 20L, 40L)
sc <- vapply(samples, function(s) {
  set.seed(2)
  med_time(function() constrained_mixture(x, side, K, inference = "sampled_chunklet",
                                          covariance = "diagonal", start = start,
                                          max_iter = 1L, samples = s))
}, 1)
fit_lin <- stats::lm(sc ~ samples)
sc_tab <- data.frame(samples = samples, seconds = sc,
                     seconds_per_sample = (sc - plain[["first"]]) / samples)
fit1 <- constrained_mixture(x, side, K, inference = "sampled_chunklet", covariance = "diagonal",
                            start = start, max_iter = 1L, samples = 5L)
print(sc_tab, row.names = FALSE)
r2 <- summary(fit_lin)$r.squared

# ---- 3b. sampled chunklets on threads (elapsed seconds) ---------------------
threads_tab <- do.call(rbind, lapply(1:2, function(th) {
  run_th <- function(iters) suppressWarnings(constrained_mixture(
    x, side, K, inference = "sampled_chunklet", covariance = "full", start = start,
    max_iter = iters, tol = 0, threads = th))
  e1 <- med_time(function() run_th(1L), elapsed)
  e4 <- med_time(function() run_th(1L + m_more), elapsed)
  data.frame(threads = th, elapsed_per_iteration = (e4 - e1) / m_more)
}))
plain_run <- cm_run("mean_field", NULL)
plain_elapsed <- (med_time(function() plain_run(1L + m_more), elapsed) -
                  med_time(function() plain_run(1L), elapsed)) / m_more
threads_tab$ratio_to_plain_elapsed <- threads_tab$elapsed_per_iteration / plain_elapsed
print(threads_tab, row.names = FALSE)

# ---- 3c. what sampled chunklets cost at the least ---------------------------
# One EM iteration of sampled chunklets with less work than the model asks
# for: a single mean-field sweep per sample (inner_iter = 1), and the
# must-links alone (no cannot-links, so no mean field at all: each sample's
# chunklets are independent, and what remains is their products and the
# weighted sum of the samples). The first bounds what any schedule of the
# samples' mean fields could reach, the second what the rest of the E-step
# costs without them.
keep_must <- side$must
must_only <- constraints(must = cbind(side$i[keep_must], side$j[keep_must]), n = side$n,
                         confidence = side$confidence[keep_must])
floor_run <- function(side, ...) function(iters) suppressWarnings(constrained_mixture(
  x, side, K, inference = "sampled_chunklet", covariance = "full", start = start,
  max_iter = iters, tol = 0, ...))
floor_tab <- data.frame(
  what = c("default (20 samples, mean field to inner_tol)",
           "inner_iter = 1 (one mean-field sweep per sample)",
           "the must-links alone (no cannot-links: no mean field)",
           "samples = 1 (one sample, mean field to inner_tol)"),
  per_iteration = c(tab$per_iteration[tab$what == "sideclust, sampled_chunklet"],
                    per_iteration(floor_run(side, inner_iter = 1L))[["per_iteration"]],
                    per_iteration(floor_run(must_only))[["per_iteration"]],
                    per_iteration(floor_run(side, samples = 1L))[["per_iteration"]]))
floor_tab$ratio_to_plain <- floor_tab$per_iteration / plain[["per_iteration"]]
print(floor_tab, row.names = FALSE)

# ---- before / after (optional) ---------------------------------------------
before <- NULL
if (nzchar(base_lib) && requireNamespace("callr", quietly = TRUE)) {
  run_build <- function(lib) {
    callr::r(function(reps, m_more, bench_data) {
      suppressPackageStartupMessages(library(sideclust))
      options(sideclust.threads = 1L)
      d <- bench_data()
      med <- function(f) stats::median(vapply(seq_len(reps), function(r) {
        gc(verbose = FALSE)
        st <- system.time(f())
        st[["user.self"]] + st[["sys.self"]]
      }, 1))
      run <- function(inf, side, iters) suppressWarnings(constrained_mixture(
        d$x, side, d$K, inference = inf, covariance = "full", start = d$start,
        max_iter = iters, tol = 0))
      it <- function(inf, side) {
        (med(function() run(inf, side, 1L + m_more)) - med(function() run(inf, side, 1L))) / m_more
      }
      t_fit <- med(function() {
        set.seed(3)
        suppressWarnings(constrained_mixture(d$x, d$side, d$K))
      })
      set.seed(3)
      f <- suppressWarnings(constrained_mixture(d$x, d$side, d$K))
      infs <- c(mean_field = "mean_field", chunklet = "chunklet", gibbs = "gibbs",
                sampled_chunklet = "sampled_chunklet")
      per_it <- vapply(infs, function(inf) {
        set.seed(4)
        it(inf, d$side)
      }, 1)
      r4 <- lapply(infs, function(inf) {
        set.seed(4)
        run(inf, d$side, 1L + m_more)
      })
      list(version = as.character(utils::packageVersion("sideclust")),
           plain = it("mean_field", NULL), per_it = per_it, fit = t_fit,
           iterations = f$iterations, loglik = utils::tail(f$loglik, 1), ari = ari(d$y, f$cluster),
           loglik4 = vapply(r4, function(r) utils::tail(r$loglik, 1), 1),
           ari4 = vapply(r4, function(r) ari(d$y, r$cluster), 1))
    }, args = list(reps = reps, m_more = m_more, bench_data = bench_data),
    libpath = c(lib, .libPaths()))
  }
  old <- run_build(base_lib)
  new <- run_build(.libPaths()[1])
  infs <- names(new$per_it)
  cell <- function(r) c(r$plain, as.vector(rbind(r$per_it, r$per_it / r$plain)), r$fit,
                        r$iterations, r$loglik, r$ari, as.vector(rbind(r$loglik4, r$ari4)))
  before <- data.frame(
    measure = c("plain EM, s per iteration",
                as.vector(rbind(sprintf("%s, s per iteration", infs), sprintf("%s / plain", infs))),
                "default fit, s", "default fit, EM iterations", "default fit, log-likelihood",
                "default fit, ARI",
                as.vector(rbind(sprintf("%s, 4 iterations from the random start: log-likelihood", infs),
                                sprintf("%s, 4 iterations: ARI", infs)))),
    before = cell(old), after = cell(new))
  print(before, row.names = FALSE)
}

lines <- c(
  "# Constrained mixture speed", "",
  sprintf("- date: %s UTC", format(Sys.time(), tz = "UTC")),
  sprintf("- machine: %d cores (parallel::detectCores()), %s; %s; single-threaded code",
          parallel::detectCores(), cpu_name(), R.version$platform),
  sprintf("- R: %s; sideclust %s (git %s)%s%s", R.version.string,
          utils::packageVersion("sideclust"), git_commit(),
          if (has_mclust) sprintf("; mclust %s", utils::packageVersion("mclust")) else "",
          if (has_mixmod) sprintf("; Rmixmod %s", utils::packageVersion("Rmixmod")) else ""),
  sprintf("- command: `%s` (from the repository root)", command),
  sprintf("- data: n = %d, p = %d, K = %d Gaussian blobs; %d constraints from `sample_constraints(y, \"nelson_cohen\", n_constraints = 1e5, noise = 0.1)` (%.1f s to draw); random start labels", nrow(x), ncol(x), K, length(side$i), d$t_side),
  sprintf("- medians of %d repeats of CPU seconds (user + system of the R process; all timed code is single-threaded); the machine's 2 cores were shared with other work (load average %s when the run ended), so elapsed times were several times longer and only ratios within this run mean much", reps,
          tryCatch(paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], collapse = ", "),
                   error = function(e) "unknown")),
  "", "## One EM iteration of each inference (goal: within 2x plain EM)", "",
  sprintf("Full covariances, from the same random start. `first_call` is a whole call with one iteration (validation, graph, M-step, densities, a cold E-step); `per_iteration` is (time of %d iterations - time of 1) / %d, warm-started E-steps; `ratio_to_plain` divides it by the package's EM without constraints.", 1L + m_more, m_more), "",
  md_table(tab, 3), "",
  "## A whole default fit against Mclust (goal: faster)", "",
  "`constrained_mixture(x, side, 10)` with every default (mean field, full covariances, k-means start with 5 starts, tol = 1e-6); Mclust fits the same data without the constraints (its default hierarchical start). `elapsed` is wall-clock time on the loaded machine. ARI against the generating blobs.", "",
  md_table(whole, 3), "",
  "## Sampled chunklets: one EM iteration against the number of samples", "",
  md_table(sc_tab, 3), "",
  sprintf("Linear fit: %.3f s + %.3f s per sample (R^2 = %.4f). Chunklet posteriors of the samples: %s (per sample, components of the chunklet-level cannot-link graph are exact when trees or of at most 1e6 labelings, each distinct one solved once for all samples, mean field otherwise; no cutset conditioning per sample).",
          stats::coef(fit_lin)[1], stats::coef(fit_lin)[2], r2, fit1$estep),
  "", "## Sampled chunklets on threads (elapsed seconds)", "",
  sprintf("Default samples = 20, full covariances, the same start; `threads` solve the samples side by side (the fit is the same for every number of threads). Elapsed seconds per EM iteration, (time of %d iterations - time of 1) / %d; the ratio divides by the elapsed time of a plain EM iteration (one thread). The other sections time one thread in processor seconds.", 1L + m_more, m_more), "",
  md_table(threads_tab, 3), "",
  "## Sampled chunklets with less work than the model asks for", "",
  sprintf("One EM iteration (CPU seconds, as in the first section, same plain EM reference) with a single mean-field sweep per sample, with the %d must-links alone (no cannot-links, so no sample runs a mean field: what remains is the products of the chunklets' weights and the weighted sum of the 20 samples), and with one sample.", sum(keep_must)), "",
  md_table(floor_tab, 3), "")
if (!is.null(before)) {
  lines <- c(lines, "## Before and after (same run)", "",
             sprintf("The build in `BENCH_BASE_LIB` (before) and the installed one (after), each in a child R process, with the same data, starts, seeds and repeats, each inference at its defaults in that build. Log-likelihoods are the mixture's (without the constraints) after the last M-step."),
             "", md_table(before, 3), "")
}
dir.create(dirname(out_file), showWarnings = FALSE, recursive = TRUE)
writeLines(lines, out_file)
cat(sprintf("\nwrote %s\n", out_file))
