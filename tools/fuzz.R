#!/usr/bin/env Rscript
# Fuzz sweep of sideclust's exported functions (issue 18, point 5).
#
#   Rscript tools/fuzz.R [--subset ci|full] [--out FILE] [--jobs N] [--timeout SECONDS]
#
# Finds the functions that take data (first argument `x` or `relations`) in the
# installed package's namespace, finds for each a valid base call from a small
# table of inputs, mutates that call (bad types and shapes, NA / Inf, extreme
# scales, degenerate side information, odd numbers of clusters, odd scalar
# arguments) and runs every mutated call in a fresh R process, so that a
# segfault ends one call and not the sweep. Writes a markdown report and exits
# with status 1 when a call crashed or returned a non-finite fit without a
# warning, so that CI can use it. Needs base R, callr, Matrix and sideclust.

suppressPackageStartupMessages(library(callr))

## Options ------------------------------------------------------------------

parse_options <- function(args) {
  opts <- list(subset = "full", out = "bench/results/fuzz.md", jobs = 2L, timeout = 60)
  # Accept both "--opt value" and "--opt=value".
  args <- unlist(strsplit(args, "=", fixed = TRUE))
  for (i in seq_along(args)) {
    key <- sub("^--", "", args[i])
    if (startsWith(args[i], "--") && key %in% names(opts)) {
      if (i == length(args)) stop("option --", key, " needs a value")
      opts[[key]] <- args[i + 1]
    }
  }
  opts$jobs <- as.integer(opts$jobs)
  opts$timeout <- as.numeric(opts$timeout)
  if (!opts$subset %in% c("ci", "full")) stop("--subset must be ci or full")
  opts
}

## Base inputs ----------------------------------------------------------------

# Valid inputs, evaluated in this order after set.seed(1). Every data kind has
# the same 30 rows, so one `y`, one set of constraints and one set of labels
# serve them all. The report prints this code, so every call it lists can be
# rerun by hand.
base_code <- alist(
  rows = c(1:10, 51:60, 101:110),
  y = iris$Species[rows],
  cont = scale(iris[rows, 1:4]),
  counts = matrix(rpois(30 * 8, rep(c(1, 6, 3), each = 80)), 30, 8) + 1,
  binary = counts > 3,
  cube = array(rnorm(30 * 5 * 4), c(30, 5, 4)),
  rels = list(counts, counts[1:8, 1:5]),
  cons = sideclust::sample_constraints(y, rate = 0.05),
  labs = sideclust::sample_labels(y, 0.4)
)

make_bases <- function() {
  set.seed(1)
  env <- new.env(parent = globalenv())
  for (nm in names(base_code)) assign(nm, eval(base_code[[nm]], env), envir = env)
  mget(names(base_code), envir = env)
}

# Data kinds in the order they are tried. The specific ones first: a list of
# relations or a 3-way array is taken only by the methods made for it. Then
# continuous before counts, so that methods taking any numeric matrix are
# fuzzed on real-valued data; `binary` is for methods that refuse counts.
data_kinds <- c("rels", "cube", "cont", "counts", "binary")
side_kinds <- c("cons", "labs")
k_candidates <- list(3, c(2, 2), c(3, 2, 2))

# Arguments filled by name in every base call (small runs: few restarts, short
# chains). `required_fillers` only where the argument has no default.
fillers <- list(k_rows = 3, k_cols = 2, cluster = quote(as.integer(y)),
                restarts = 2, iter = 40, chains = 1, threads = 1)
required_fillers <- list(beta = 5)

## Finding the functions and their base calls ---------------------------------

data_args <- c("x", "relations")
k_args <- c("k", "k_rows", "k_cols")

sideclust_fun <- function(name) getExportedValue("sideclust", name)

no_default <- function(value) identical(value, quote(expr = ))

# Exported functions whose first formal is data, except generics like
# augment(x, ...), which need a fit rather than data.
fuzz_targets <- function() {
  exports <- sort(getNamespaceExports("sideclust"))
  keep <- vapply(exports, function(name) {
    f <- sideclust_fun(name)
    is.function(f) && names(formals(f))[1] %in% data_args && !"..." %in% names(formals(f))
  }, logical(1))
  exports[keep]
}

base_args <- function(fun, data_kind, side_kind, k) {
  fm <- formals(sideclust_fun(fun))
  args <- setNames(list(as.name(data_kind)), names(fm)[1])
  if ("side" %in% names(fm)) args$side <- as.name(side_kind)
  if ("k" %in% names(fm)) args$k <- k
  for (a in intersect(names(fillers), names(fm))) args[a] <- list(fillers[[a]])
  for (a in intersect(names(required_fillers), names(fm))) {
    if (no_default(fm[[a]])) args[a] <- list(required_fillers[[a]])
  }
  args
}

as_fun_call <- function(fun, args) as.call(c(as.name(fun), args))

candidate_args <- function(fun) {
  combos <- expand.grid(k = seq_along(k_candidates), side = side_kinds, data = data_kinds,
                        stringsAsFactors = FALSE)
  cands <- lapply(seq_len(nrow(combos)), function(i) {
    base_args(fun, combos$data[i], combos$side[i], k_candidates[[combos$k[i]]])
  })
  cands[!duplicated(vapply(cands, function(a) deparse1(as_fun_call(fun, a)), ""))]
}

# Runs in a fresh process: the index of the first call that returns without
# error, and the errors of those before it.
probe_child <- function(calls, bases) {
  if (!suppressWarnings(requireNamespace("sideclust", quietly = TRUE))) {
    return(list(status = "unloadable"))
  }
  suppressPackageStartupMessages(library(sideclust))
  env <- list2env(bases, parent = globalenv())
  errors <- character()
  for (i in seq_along(calls)) {
    set.seed(1)
    res <- tryCatch(suppressWarnings(suppressMessages(eval(calls[[i]], env))),
                    error = function(e) e)
    if (!inherits(res, "error")) return(list(index = i, errors = errors))
    errors <- c(errors, conditionMessage(res))
  }
  list(index = NA_integer_, errors = errors)
}

# The base call of one function, or NULL with the reason it is not covered.
find_base <- function(fun, bases, timeout) {
  cands <- candidate_args(fun)
  calls <- lapply(cands, as_fun_call, fun = fun)
  probe <- function(calls) in_fresh_r(probe_child, calls, bases, timeout * 2)
  res <- probe(calls)
  # A candidate crashed or hung the probe: try them one process each.
  if (inherits(res, "error") || is.null(res$index)) {
    for (i in seq_along(calls)) {
      one <- probe(calls[i])
      if (isTRUE(one$index == 1L)) return(list(fun = fun, args = cands[[i]]))
    }
    return(list(fun = fun, args = NULL, reason = "every candidate failed or crashed"))
  }
  if (is.na(res$index)) {
    return(list(fun = fun, args = NULL, reason = utils::tail(res$errors, 1)))
  }
  list(fun = fun, args = cands[[res$index]])
}

## Mutations --------------------------------------------------------------------

# `X[i, , drop = FALSE]` (or the same along dimension `d`) for any rank.
slice_call <- function(X, rank, i, d = 1L) {
  idx <- rep(list(quote(expr = )), rank)
  idx[[d]] <- i
  as.call(c(list(as.name("["), X), idx, list(drop = FALSE)))
}

scaled <- function(s) function(X, rank) bquote(.(X) * .(s))
poked <- function(v) function(X, rank) bquote(replace(.(X), 2, .(v)))

# Each builds the mutated data expression from the base expression X; those
# that do not evaluate for a kind (a column of a list) are dropped later.
data_mutations <- list(
  "character" = function(X, rank) "a",
  "function" = function(X, rank) quote(mean),
  "character matrix" = function(X, rank) bquote(array(as.character(.(X)), dim(.(X)))),
  "list of columns" = function(X, rank) bquote(as.list(as.data.frame(.(X)))),
  "factor column" = function(X, rank) {
    bquote(data.frame(.(X), f = factor(rep(c("a", "b"), length.out = nrow(.(X))))))
  },
  "0 rows" = function(X, rank) slice_call(X, rank, 0L),
  "1 row" = function(X, rank) slice_call(X, rank, 1L),
  "1 column" = function(X, rank) slice_call(X, rank, 1L, d = 2L),
  "vector" = function(X, rank) bquote(as.vector(.(X))),
  "transposed" = function(X, rank) bquote(aperm(.(X))),
  "all duplicated" = function(X, rank) slice_call(X, rank, quote(rep(1L, 30))),
  "constant column" = function(X, rank) bquote(replace(.(X), seq_len(nrow(.(X))), .(X)[1])),
  "NA" = poked(NA), "NaN" = poked(NaN), "Inf" = poked(Inf),
  "* 1e300" = scaled(1e300), "* 1e-300" = scaled(1e-300),
  "* 1e160" = scaled(1e160), "* 1e-160" = scaled(1e-160), "* 1e307" = scaled(1e307),
  "sparse" = function(X, rank) bquote(Matrix::Matrix(.(X), sparse = TRUE))
)
# Mutations of the whole argument; for a list of relations the others change
# its first relation.
whole_data_mutations <- c("character", "function")

side_mutations <- alist(
  "no side" = NULL,
  "character" = "a",
  "empty constraints" = sideclust::constraints(n = 30),
  "one must-link chunklet" = sideclust::constraints(must = cbind(1:29, 2:30), n = 30),
  "cannot-link inside the chunklet" = sideclust::constraints(must = cbind(1:29, 2:30),
                                                             cannot = c(1, 30), n = 30),
  "contradicting pair" = data.frame(i = c(1, 1), j = c(2, 2), type = c("must", "cannot")),
  "labels all NA" = rep(NA_integer_, 30),
  "labels of one class" = rep(1L, 30)
)

k_values <- list(30, 1e6, 0, -1, NA, 2.5)
scalar_values <- list(0, -1, NA, Inf, "a", c(1, 2))

case <- function(fun, args, target, mutation, value) {
  args[target] <- list(value)
  list(fun = fun, target = target, mutation = mutation, call = as_fun_call(fun, args))
}

data_cases <- function(fun, args, bases) {
  target <- names(args)[1]
  X <- args[[1]]
  value <- bases[[as.character(X)]]
  is_relations <- is.list(value) && !is.data.frame(value)
  lapply(names(data_mutations), function(m) {
    mutate <- data_mutations[[m]]
    new <- if (is_relations && !m %in% whole_data_mutations) {
      inner <- bquote(.(X)[[1]])
      bquote(replace(.(X), 1, list(.(mutate(inner, length(dim(value[[1]])))))))
    } else {
      mutate(X, length(dim(value)))
    }
    case(fun, args, target, m, new)
  })
}

side_cases <- function(fun, args) {
  if (!"side" %in% names(args)) return(list())
  lapply(names(side_mutations), function(m) case(fun, args, "side", m, side_mutations[[m]]))
}

# Numeric scalars: constant numeric defaults and the numbers of the base call.
numeric_scalar_args <- function(fun, args) {
  fm <- formals(sideclust_fun(fun))
  given <- names(args)[vapply(args, function(a) is.numeric(a) && length(a) == 1, logical(1))]
  default <- names(fm)[vapply(fm, function(a) is.numeric(a) && length(a) == 1, logical(1))]
  union(given, default)
}

scalar_cases <- function(fun, args) {
  fm <- names(formals(sideclust_fun(fun)))
  ks <- intersect(k_args, fm)
  out <- list()
  for (a in ks) for (v in k_values) out <- c(out, list(case(fun, args, a, deparse1(v), v)))
  for (a in numeric_scalar_args(fun, args)) {
    for (v in scalar_values) out <- c(out, list(case(fun, args, a, deparse1(v), v)))
  }
  out
}

# Keeps the cases whose arguments evaluate and differ from the base call,
# once each.
usable_cases <- function(cases, base_call, bases) {
  env <- list2env(bases, parent = globalenv())
  base_values <- lapply(as.list(base_call)[-1], eval, envir = env)
  ok <- vapply(cases, function(cs) {
    v <- tryCatch(eval(cs$call[[cs$target]], env), error = function(e) e)
    !inherits(v, "error") && !identical(v, base_values[[cs$target]])
  }, logical(1))
  cases <- cases[ok]
  cases[!duplicated(vapply(cases, function(cs) deparse1(cs$call), ""))]
}

ci_mutations <- c("NA", "* 1e300", "* 1e-300", "* 1e307", "0")

all_cases <- function(bases_found, bases, subset) {
  cases <- unlist(lapply(bases_found, function(b) {
    if (is.null(b$args)) return(list())
    cs <- c(data_cases(b$fun, b$args, bases), side_cases(b$fun, b$args),
            scalar_cases(b$fun, b$args))
    usable_cases(cs, as_fun_call(b$fun, b$args), bases)
  }), recursive = FALSE)
  if (subset == "ci") {
    # Per function: the NA and extreme-scale data, and k = 0.
    keep <- vapply(cases, function(cs) {
      cs$mutation %in% ci_mutations && (cs$target %in% data_args || cs$target == "k")
    }, logical(1))
    cases <- cases[keep]
  }
  cases
}

## Running one call -------------------------------------------------------------

# Runs in a fresh process; returns only a small summary of the outcome.
run_child <- function(call, bases) {
  if (!suppressWarnings(requireNamespace("sideclust", quietly = TRUE))) {
    return(list(status = "unloadable"))
  }
  suppressPackageStartupMessages(library(sideclust))
  # The last element of each numeric vector in x (a vector, data.frame or list).
  last_values <- function(x) {
    if (is.numeric(x)) return(if (length(x)) x[length(x)] else numeric())
    if (is.list(x)) return(unlist(lapply(x, last_values)))
    numeric()
  }
  nonfinite_fields <- function(fit) {
    if (is.numeric(fit) && is.null(dim(fit))) return(if (all(is.finite(fit))) character() else "value")
    if (!inherits(fit, "sideclust")) return(character())
    fit <- unclass(fit)
    bad <- if (anyNA(unlist(fit$cluster))) "cluster" else character()
    fields <- c(intersect(c("objective", "cost", "loglik", "loss", "expected_loss"), names(fit)),
                grep("trace$", names(fit), value = TRUE))
    for (f in fields) if (!all(is.finite(last_values(fit[[f]])))) bad <- c(bad, f)
    bad
  }
  env <- list2env(bases, parent = globalenv())
  warnings <- character()
  set.seed(1)
  res <- withCallingHandlers(
    tryCatch(suppressMessages(eval(call, env)), error = function(e) e),
    warning = function(w) {
      warnings <<- c(warnings, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
  if (inherits(res, "error")) {
    return(list(status = "error", message = conditionMessage(res), warnings = warnings))
  }
  list(status = "value", nonfinite = nonfinite_fields(res), warnings = warnings)
}

one_line <- function(x, max = 300) {
  x <- gsub("[[:space:]]+", " ", paste(x, collapse = " "))
  if (nchar(x) > max) paste0(substr(x, 1, max), "...") else x
}

# An argument named in backticks, or the mutated argument named as a word.
names_argument <- function(message, target) {
  grepl("`[^`]+`", message) ||
    grepl(sprintf("(^|[^[:alnum:]_.])%s([^[:alnum:]_]|$)", target), message)
}

classify <- function(res, target) {
  if (inherits(res, "callr_timeout_error")) return(list(outcome = "timeout", message = ""))
  if (inherits(res, "error")) {
    # The child died: keep the first lines R printed about it (segfault cause).
    err <- grep("caught|cause|abort|terminate|what\\(\\)", res$stderr_lines, value = TRUE)
    return(list(outcome = "crash", message = one_line(c(conditionMessage(res), head(err, 3)))))
  }
  warned <- length(res$warnings) > 0
  if (res$status == "error") {
    outcome <- if (names_argument(res$message, target)) "error_clear" else "error_unclear"
    return(list(outcome = outcome, message = one_line(res$message)))
  }
  if (length(res$nonfinite)) {
    outcome <- if (warned) "warned_nonfinite" else "silent_nonfinite"
    msg <- paste("non-finite:", paste(res$nonfinite, collapse = ", "))
    if (warned) msg <- paste0(msg, "; warning: ", res$warnings[1])
    return(list(outcome = outcome, message = one_line(msg)))
  }
  list(outcome = "ok", message = "")
}

# Runs child(calls, bases) in a fresh R process. Returns its value, or the
# callr error (with what the process printed to stderr) when it died or timed
# out. While the package is being reinstalled under us, waits and retries.
in_fresh_r <- function(child, calls, bases, timeout) {
  for (attempt in 1:10) {
    err_file <- tempfile(fileext = ".txt")
    res <- tryCatch(callr::r(child, list(calls, bases), timeout = timeout, stderr = err_file),
                    error = function(e) e)
    if (inherits(res, "error") && file.exists(err_file)) {
      res$stderr_lines <- readLines(err_file, warn = FALSE)
    }
    unlink(err_file)
    if (!identical(res$status, "unloadable")) return(res)
    Sys.sleep(20)
  }
  list(status = "error", message = "sideclust could not be loaded", warnings = character())
}

run_case <- function(cs, bases, timeout) {
  res <- in_fresh_r(run_child, cs$call, bases, timeout)
  c(cs[c("fun", "target", "mutation")], list(expr = deparse1(cs$call)), classify(res, cs$target))
}

run_all <- function(cases, bases, jobs, timeout) {
  n <- length(cases)
  out <- parallel::mclapply(seq_len(n), function(i) {
    r <- run_case(cases[[i]], bases, timeout)
    message(sprintf("[%d/%d] %s  %s", i, n, r$outcome, r$expr))
    r
  }, mc.cores = jobs, mc.preschedule = FALSE)
  # A forked worker that failed (killed, out of memory) did not run its call
  # through: run those here, one at a time.
  lost <- which(!vapply(out, is.list, logical(1)))
  out[lost] <- lapply(cases[lost], run_case, bases = bases, timeout = timeout)
  as.data.frame(do.call(rbind, lapply(out, as.data.frame, stringsAsFactors = FALSE)),
                stringsAsFactors = FALSE)
}

## Report -------------------------------------------------------------------------

outcomes <- c("crash", "timeout", "error_clear", "error_unclear", "silent_nonfinite",
              "warned_nonfinite", "ok")

md_table <- function(df) {
  cell <- function(x) gsub("|", "\\|", as.character(x), fixed = TRUE)
  rows <- apply(df, 1, function(r) paste0("| ", paste(cell(r), collapse = " | "), " |"))
  c(paste0("| ", paste(names(df), collapse = " | "), " |"),
    paste0("|", strrep("---|", ncol(df))), rows)
}

count_outcomes <- function(res) {
  counts <- table(factor(res$outcome, levels = outcomes))
  data.frame(calls = nrow(res), t(as.integer(counts)), check.names = FALSE) |>
    setNames(c("calls", outcomes))
}

findings <- function(res, outcome) {
  hits <- res[res$outcome == outcome, ]
  if (!nrow(hits)) return(character())
  c(sprintf("### %s (%d)", outcome, nrow(hits)), "",
    sprintf("- `%s`%s", hits$expr, ifelse(nzchar(hits$message), paste0(" — ", hits$message), "")),
    "")
}

git_commit <- function() {
  out <- tryCatch(system2("git", c("rev-parse", "--short", "HEAD"), stdout = TRUE, stderr = FALSE),
                  error = function(e) character(), warning = function(w) character())
  if (length(out)) out else "unknown"
}

write_report <- function(res, found, opts, seconds) {
  desc <- utils::packageDescription("sideclust")
  per_fun <- do.call(rbind, lapply(found, function(b) {
    rows <- res[res$fun == b$fun, , drop = FALSE]
    base <- if (is.null(b$args)) "not covered" else paste0("`", deparse1(as_fun_call(b$fun, b$args)), "`")
    cbind(data.frame(`function` = b$fun, `base call` = base, check.names = FALSE),
          count_outcomes(rows))
  }))
  not_covered <- Filter(function(b) is.null(b$args), found)
  lines <- c(
    "# Fuzz sweep of sideclust", "",
    "Generated by `tools/fuzz.R`; rerun with `make fuzz` (full) or `make fuzz-ci`.", "",
    sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M %Z")),
    sprintf("- commit: %s (installed sideclust %s, built %s)", git_commit(), desc$Version,
            sub(";.*", "", sub("^[^;]*; [^;]*; ", "", desc$Built))),
    sprintf("- %s", R.version.string),
    sprintf("- subset: %s; %d jobs; timeout %g s per call; wall time %.1f min",
            opts$subset, opts$jobs, opts$timeout, seconds / 60), "",
    "## Summary", "", md_table(count_outcomes(res)), "",
    "## Per function", "", md_table(per_fun), "",
    if (length(not_covered)) c("## Not covered", "",
      sprintf("- `%s`: no base input worked (last error: %s)",
              vapply(not_covered, `[[`, "", "fun"),
              vapply(not_covered, function(b) one_line(b$reason), "")), ""),
    "## Findings", "",
    findings(res, "crash"), findings(res, "timeout"), findings(res, "silent_nonfinite"),
    findings(res, "error_unclear"), findings(res, "warned_nonfinite"),
    "## Base inputs", "", "Evaluated in this order after `set.seed(1)`; every call runs after `set.seed(1)` in a fresh R process with `library(sideclust)`.", "",
    "```r", sprintf("%s <- %s", names(base_code), vapply(base_code, deparse1, "")), "```", "",
    "## Outcomes", "",
    "- `crash`: the process died (segfault, abort) before returning.",
    "- `timeout`: no result within the time limit.",
    "- `error_clear`: an R error naming an argument in backticks, or the mutated argument.",
    "- `error_unclear`: any other error.",
    "- `silent_nonfinite` / `warned_nonfinite`: a fit with `NA` in `cluster` or a non-finite (last) value of `objective`, `cost`, `loglik`, `loss`, `expected_loss` or a `*trace` field (or a non-finite plain numeric result), without / with a warning.",
    "- `ok`: anything else (a result, possibly with warnings)."
  )
  dir.create(dirname(opts$out), showWarnings = FALSE, recursive = TRUE)
  writeLines(lines, opts$out)
}

## Main -----------------------------------------------------------------------------

main <- function() {
  opts <- parse_options(commandArgs(trailingOnly = TRUE))
  started <- Sys.time()
  bases <- make_bases()
  funs <- fuzz_targets()
  message("probing base calls of ", length(funs), " functions")
  found <- parallel::mclapply(funs, find_base, bases = bases, timeout = opts$timeout,
                              mc.cores = opts$jobs, mc.preschedule = FALSE)
  cases <- all_cases(found, bases, opts$subset)
  message(sprintf("running %d calls on %d jobs", length(cases), opts$jobs))
  res <- run_all(cases, bases, opts$jobs, opts$timeout)
  seconds <- as.numeric(difftime(Sys.time(), started, units = "secs"))
  write_report(res, found, opts, seconds)
  summary <- count_outcomes(res)
  print(summary, row.names = FALSE)
  message(sprintf("report: %s (%.1f min)", opts$out, seconds / 60))
  if (summary$crash > 0 || summary$silent_nonfinite > 0) quit(status = 1)
}

# Run only as a script, so that the functions can be source()d for a look.
if (sys.nframe() == 0L) main()
