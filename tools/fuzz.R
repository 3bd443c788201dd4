#!/usr/bin/env Rscript
# Fuzz sweep of sideclust's exported functions (issue 18, point 5).
#
#   Rscript tools/fuzz.R [--subset ci|full|predict] [--out FILE] [--jobs N] [--timeout SECONDS]
#                        [--functions f1,f2]   (default: every function that takes data)
#
# Finds the functions that take data (first formal `x` or `relations`) in the
# installed package's namespace, finds a valid base call for each from a small
# table of inputs, mutates it (bad types and shapes, NA / Inf, extreme scales,
# degenerate side information, odd numbers of clusters, odd scalar arguments)
# and runs every mutated call in a fresh R process, so that a segfault ends one
# call and not the sweep. Shifted data, one column on a huge scale and p > n
# are judged against the base call's fit (see "Scale and shape kinds"). Writes
# a markdown report and exits with status 1 when a call crashed, or returned a
# non-finite fit or a silent wrong answer without a warning, so that CI can
# use it. Needs base R, callr, Matrix and sideclust.

suppressPackageStartupMessages(library(callr))

parse_options <- function(args) {
  opts <- list(subset = "full", out = "bench/results/fuzz.md", jobs = 2L, timeout = 60,
               functions = "")
  args <- unlist(strsplit(args, "=", fixed = TRUE))  # "--out=f" as "--out f"
  for (i in which(args %in% paste0("--", names(opts)))) {
    if (i == length(args)) stop("option ", args[i], " needs a value")
    opts[[sub("^--", "", args[i])]] <- args[i + 1]
  }
  opts[c("jobs", "timeout")] <- list(as.integer(opts$jobs), as.numeric(opts$timeout))
  if (!opts$subset %in% c("ci", "full", "predict")) stop("--subset must be ci, full or predict")
  opts
}

## Base inputs and base calls ------------------------------------------------

# Valid inputs, evaluated in this order after set.seed(1). Every data kind has
# the same 30 rows, so one `y`, one set of constraints and one set of labels
# serve them all. The report prints this code, so that every call it lists
# can be rerun by hand.
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
data_args <- c("x", "relations")
k_args <- c("k", "k_rows", "k_cols")

# Arguments filled by name in every base call (small runs: few restarts, short
# chains). `required_fillers` only where the argument has no default.
fillers <- list(k_rows = 3, k_cols = 2, cluster = quote(as.integer(y)),
                restarts = 2, iter = 40, chains = 1, threads = 1)
required_fillers <- list(beta = 5)

sideclust_formals <- function(fun) formals(getExportedValue("sideclust", fun))

# Exported functions whose first formal is data, except generics like
# augment(x, ...), which need a fit rather than data.
fuzz_targets <- function() {
  Filter(function(name) {
    f <- getExportedValue("sideclust", name)
    is.function(f) && names(formals(f))[1] %in% data_args && !"..." %in% names(formals(f))
  }, sort(getNamespaceExports("sideclust")))
}

base_args <- function(fun, data_kind, side_kind, k) {
  fm <- sideclust_formals(fun)
  args <- setNames(list(as.name(data_kind)), names(fm)[1])
  if ("side" %in% names(fm)) args$side <- as.name(side_kind)
  if ("k" %in% names(fm)) args$k <- k
  for (a in intersect(names(fillers), names(fm))) args[a] <- list(fillers[[a]])
  for (a in intersect(names(required_fillers), names(fm))) {
    if (identical(fm[[a]], quote(expr = ))) args[a] <- list(required_fillers[[a]])
  }
  args
}

as_fun_call <- function(fun, args) as.call(c(as.name(fun), args))

candidate_args <- function(fun) {
  grid <- expand.grid(k = seq_along(k_candidates), side = side_kinds, data = data_kinds,
                      stringsAsFactors = FALSE)
  cands <- lapply(seq_len(nrow(grid)), function(i) {
    base_args(fun, grid$data[i], grid$side[i], k_candidates[[grid$k[i]]])
  })
  # then the same without `restarts`, which some modes refuse (tvclust's Gibbs
  # sampler), so that such a function is still covered
  cands <- c(cands, lapply(cands, function(a) a[names(a) != "restarts"]))
  cands[!duplicated(vapply(cands, function(a) deparse1(as_fun_call(fun, a)), ""))]
}

# The base call of one function: the first candidate that runs without error,
# or args = NULL and the reason.
find_base <- function(fun, bases, timeout) {
  cands <- candidate_args(fun)
  calls <- lapply(cands, as_fun_call, fun = fun)
  res <- in_fresh_r(calls, bases, timeout * 2)
  if (!is.null(res$index) && !is.na(res$index)) {
    return(list(fun = fun, args = cands[[res$index]], fit = res$fit))
  }
  if (is.null(res$index)) {
    # A candidate crashed or hung the probe: try them one process each.
    for (i in seq_along(calls)) {
      one <- in_fresh_r(calls[i], bases, timeout)
      if (isTRUE(one$index == 1L)) return(list(fun = fun, args = cands[[i]], fit = one$fit))
    }
  }
  list(fun = fun, args = NULL, reason = if (is.null(res$message)) "crashed" else res$message)
}

## Mutations -------------------------------------------------------------------

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
whole_data_mutations <- "function"
# The mutations of values only, all that functions returning no fit
# (dp_lambda(), tvclust_prior(), ...) get, to keep the sweep's time for fits.
value_mutations <- c("NA", "NaN", "Inf", "* 1e300", "* 1e-300", "* 1e160", "* 1e-160", "* 1e307")

side_mutations <- alist(
  "no side" = NULL,
  "character" = "a",
  "empty constraints" = sideclust::constraints(n = 30),
  "one must-link chunklet" = sideclust::constraints(must = cbind(1:29, 2:30), n = 30),
  "cannot-link inside the chunklet" =
    sideclust::constraints(must = cbind(1:29, 2:30), cannot = c(1, 30), n = 30),
  "contradicting pair" = data.frame(i = c(1, 1), j = c(2, 2), type = c("must", "cannot")),
  "labels all NA" = rep(NA_integer_, 30),
  "labels of one class" = rep(1L, 30)
)

k_values <- list(30, 1e6, 0, -1, NA, 2.5, Inf, "a", c(1, 2))
scalar_values <- list(0, -1, NA, Inf, "a", c(1, 2))
# Every call costs a fresh R process (loading Matrix takes most of 2 s), so
# to keep the full sweep near 20 minutes the numeric scalars that only have a
# default (tolerances, iteration limits) get the two values invalid for all
# of them; the numbers of the base call, those users set, get all six.
default_scalar_values <- list(-1, NA)

case <- function(fun, args, target, mutation, value) {
  args[target] <- list(value)
  list(fun = fun, target = target, mutation = mutation, call = as_fun_call(fun, args))
}

data_cases <- function(fun, args, bases) {
  X <- args[[1]]
  value <- bases[[as.character(X)]]
  is_relations <- is.list(value) && !is.data.frame(value)
  lapply(names(data_mutations), function(m) {
    mutate <- data_mutations[[m]]
    new <- if (is_relations && !m %in% whole_data_mutations) {
      bquote(replace(.(X), 1, list(.(mutate(bquote(.(X)[[1]]), length(dim(value[[1]])))))))
    } else {
      mutate(X, length(dim(value)))
    }
    case(fun, args, names(args)[1], m, new)
  })
}

side_cases <- function(fun, args) {
  if (!"side" %in% names(args)) return(list())
  lapply(names(side_mutations), function(m) case(fun, args, "side", m, side_mutations[[m]]))
}

# Numbers of clusters, then every numeric scalar: constant numeric defaults
# and the numbers of the base call.
scalar_cases <- function(fun, args) {
  fm <- sideclust_formals(fun)
  is_number <- function(a) is.numeric(a) && length(a) == 1
  scalars <- union(names(args)[vapply(args, is_number, NA)], names(fm)[vapply(fm, is_number, NA)])
  out <- list()
  add <- function(a, values) {
    for (v in values) out[[length(out) + 1L]] <<- case(fun, args, a, deparse1(v), v)
  }
  for (a in intersect(k_args, names(fm))) add(a, k_values)
  for (a in setdiff(scalars, k_args)) {
    add(a, if (a %in% names(args)) scalar_values else default_scalar_values)
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

# The ci subset: per function the NA and extreme-scale data, k = 0, and the
# shift of the scale and shape kinds (the others only in the full sweep, to
# keep the subset's time).
ci_case <- function(cs) {
  (cs$target %in% data_args && cs$mutation %in% c("NA", "* 1e300", "* 1e-300", "* 1e307")) ||
    (cs$target == "k" && cs$mutation == "0") ||
    (!is.null(cs$check) && cs$mutation == "+ 1e10")
}

all_cases <- function(found, bases, subset) {
  cases <- unlist(lapply(found, function(b) {
    if (is.null(b$args)) return(list())
    cs <- c(data_cases(b$fun, b$args, bases), side_cases(b$fun, b$args),
            scalar_cases(b$fun, b$args),
            if (isTRUE(b$fit)) shape_cases(b$fun, b$args, bases))
    if (!isTRUE(b$fit)) {
      cs <- Filter(function(cs) cs$target %in% data_args && cs$mutation %in% value_mutations, cs)
    }
    usable_cases(cs, as_fun_call(b$fun, b$args), bases)
  }), recursive = FALSE)
  cases <- c(cases, predict_cases(found))  # issue 45: predict() kinds, in the ci subset too
  if (subset == "ci") cases <- Filter(function(cs) ci_case(cs) || cs$target == "newdata", cases)
  if (subset == "predict") cases <- Filter(function(cs) cs$target == "newdata", cases)
  cases
}

## predict() kinds (issue 45) ---------------------------------------------------
# Kept apart from the other mutations: each fits the base call on its data
# with named columns, then calls predict() on new data made from them. The
# call returns a fit-like marker with `cluster = NA` (class
# "sideclust_fuzz_wrong", attribute `why`) when the answer is wrong, which the
# sweep counts as silent_nonfinite unless predict() warned (the fit's own
# warnings are muffled). A predict() error naming `newdata` is error_clear.
predict_probes <- list(
  "predict with reordered columns" = quote(
    if (!identical(predict(fit, new(X, reversed))$cluster, predict(fit, new(X))$cluster)) {
      wrong("the clusters changed with the order of the columns")
    }),
  "predict with renamed columns" = quote({
    predict(fit, new(X, renamed))
    wrong("new data with a renamed column were accepted")
  }),
  "predict with extreme new data" = quote({
    pr <- predict(fit, new(X, function(d) d * 1e300))
    if (anyNA(pr$cluster) || any(is.nan(as.matrix(pr[[2]])))) wrong("NA clusters or NaN scores")
  })
)

# The self-contained call of one predict() kind for a base call (fun, args).
predict_case <- function(fun, args, kind) {
  data <- args[[1]]
  args[[1]] <- quote(X)
  fit_call <- as_fun_call(fun, args)
  probe <- predict_probes[[kind]]
  call <- bquote(local({
    named <- function(d) {
      dn <- dimnames(d)
      if (is.null(dn)) dn <- vector("list", length(dim(d)))
      dn[[2]] <- paste0("v", seq_len(dim(d)[2]))
      dimnames(d) <- dn
      d
    }
    reversed <- function(d) {
      idx <- lapply(dim(d), seq_len)
      idx[[2]] <- rev(idx[[2]])
      do.call(`[`, c(list(d), idx, list(drop = FALSE)))
    }
    renamed <- function(d) {
      dimnames(d)[[2]][1] <- "renamed"
      d
    }
    # new data for predict(): of a list of relations, the first (new rows of type 1)
    new <- function(X, f = identity) f(if (is.list(X) && !is.data.frame(X)) X[[1]] else X)
    wrong <- function(why) {
      structure(list(cluster = NA_integer_), why = why, class = c("sideclust_fuzz_wrong", "sideclust"))
    }
    X <- .(data)
    X <- if (is.list(X) && !is.data.frame(X)) lapply(X, named) else named(X)
    fit <- suppressWarnings(.(fit_call))
    if (is.null(utils::getS3method("predict", class(fit)[1], optional = TRUE))) return(NULL)
    .(probe)  # its value: NULL, or wrong()'s marker
  }))
  list(fun = fun, target = "newdata", mutation = kind, call = call)
}

# Base calls for the predict() kinds where the sweep finds none (tvclust()
# refuses the `restarts` filler of its Gibbs method), and its variational fit.
predict_extra_bases <- list(
  list(fun = "tvclust", args = alist(x = cont, side = cons, iter = 40, chains = 1, threads = 1)),
  list(fun = "tvclust", args = alist(x = cont, side = cons, method = "variational", restarts = 2))
)

# The predict() kinds of every function whose base call returned a fit.
predict_cases <- function(found) {
  covered <- vapply(found, function(b) !is.null(b$args) && isTRUE(b$fit), NA)
  extra <- Filter(function(b) !b$fun %in% vapply(found[covered], `[[`, "", "fun") ||
                    "method" %in% names(b$args), predict_extra_bases)
  unlist(lapply(c(found[covered], extra), function(b) {
    lapply(names(predict_probes), predict_case, fun = b$fun, args = b$args)
  }), recursive = FALSE)
}

## Scale and shape kinds (issue 45, point 9) ----------------------------------------

# Mutations of continuous data whose answer is judged against the base call's
# fit, run in the same process: a shift of the data (x + 1e10), one column on a
# huge scale (column 1 * 1e50, * 1e150), p > n (every column repeated, 30 rows
# and 60 or more columns; continuous data get a tiny deterministic jitter so
# that no two columns are equal). A silent wrong answer is a fit returned
# without a warning that
# - shift: is not the base fit's partition up to label switching;
# - huge column, p > n: has NA clusters, or a single cluster where the base
#   fit has several, or more than n / 2 clusters where the base fit has at
#   most n / 2 (the 30 singletons of a prior swamped by the data).
# An error, or a fit with a warning, is an answer the user cannot miss.
shape_mutations <- list(
  "+ 1e10" = function(X) bquote(.(X) + 1e10),
  "column 1 * 1e50" = function(X) bquote(replace(.(X), seq_len(nrow(.(X))), .(X)[, 1] * 1e50)),
  "column 1 * 1e150" = function(X) bquote(replace(.(X), seq_len(nrow(.(X))), .(X)[, 1] * 1e150)),
  "p > n" = function(X) bquote(.(X)[, rep(seq_len(ncol(.(X))), ceiling(60 / ncol(.(X))))])
)
# The data kinds each mutation applies to (a shift changes what counts mean).
shape_kinds <- list("+ 1e10" = "cont", "column 1 * 1e50" = c("cont", "counts"),
                    "column 1 * 1e150" = c("cont", "counts"), "p > n" = c("cont", "counts", "binary"))

# Judges a fit of a shape case against the base fit (run in the child process,
# so it uses base R only). Returns NULL or what is wrong.
shape_judge <- function(kind, fit, ref) {
  if (!is.list(fit) || is.null(fit$cluster) || !is.list(ref) || is.null(ref$cluster)) return(NULL)
  a <- unlist(fit$cluster)
  b <- unlist(ref$cluster)
  if (anyNA(a)) return("NA clusters")
  if (kind == "+ 1e10") {
    t <- table(a, b)
    same <- length(a) == length(b) && all(rowSums(t > 0) == 1) && all(colSums(t > 0) == 1)
    return(if (!same) sprintf("not the unshifted partition (%d clusters, unshifted %d)",
                              length(unique(a)), length(unique(b))))
  }
  n <- length(a)
  k <- length(unique(a))
  k_ref <- length(unique(b))
  if (k == 1L && k_ref > 1L) return(sprintf("a single cluster (base fit: %d)", k_ref))
  if (k > n / 2 && k_ref <= n / 2) return(sprintf("%d clusters of %d points (base fit: %d)", k, n, k_ref))
  NULL
}

shape_cases <- function(fun, args, bases) {
  kind <- as.character(args[[1]])
  base_call <- as_fun_call(fun, args)
  out <- list()
  for (m in names(shape_mutations)) {
    if (!kind %in% shape_kinds[[m]]) next
    X <- if (m == "p > n" && kind == "cont") {
      bquote(.(shape_mutations[[m]](args[[1]])) + 0.01 * sin(seq_len(nrow(.(args[[1]])) * 60)))
    } else {
      shape_mutations[[m]](args[[1]])
    }
    cs <- case(fun, args, names(args)[1], m, X)
    cs$check <- list(kind = m, reference = base_call, judge = shape_judge)
    out[[length(out) + 1L]] <- cs
  }
  out
}

## Running calls ------------------------------------------------------------------

# Runs in a fresh process: evaluates the calls in order up to the first that
# returns without error, and returns only a small summary of the outcome.
run_child <- function(calls, bases, check = NULL) {
  if (!suppressWarnings(requireNamespace("sideclust", quietly = TRUE))) {
    return(list(status = "unloadable"))
  }
  suppressPackageStartupMessages(library(sideclust))
  last_values <- function(x) {  # the last element of each numeric vector in x
    if (is.numeric(x)) return(utils::tail(x, 1))
    if (is.list(x)) return(unlist(lapply(x, last_values)))
    numeric()
  }
  nonfinite_fields <- function(fit) {
    if (is.numeric(fit) && is.null(dim(fit))) return(if (all(is.finite(fit))) NULL else "value")
    if (inherits(fit, "sideclust_fuzz_wrong")) return(paste("predict():", attr(fit, "why")))
    if (!inherits(fit, "sideclust")) return(NULL)
    fit <- unclass(fit)
    fields <- c(intersect(c("objective", "cost", "loglik", "loss", "expected_loss"), names(fit)),
                grep("trace$", names(fit), value = TRUE))
    bad <- vapply(fields, function(f) !all(is.finite(last_values(fit[[f]]))), logical(1))
    c(if (anyNA(unlist(fit$cluster))) "cluster", fields[bad])
  }
  env <- list2env(bases, parent = globalenv())
  for (i in seq_along(calls)) {
    warnings <- character()
    set.seed(1)
    res <- withCallingHandlers(
      tryCatch(suppressMessages(eval(calls[[i]], env)), error = function(e) e),
      warning = function(w) {
        warnings <<- c(warnings, conditionMessage(w))
        invokeRestart("muffleWarning")
      })
    if (!inherits(res, "error")) break
  }
  failed <- inherits(res, "error")
  # shape cases: the base call's fit, to judge this one against
  wrong <- if (!failed && !is.null(check)) {
    set.seed(1)
    ref <- tryCatch(suppressMessages(suppressWarnings(eval(check$reference, env))),
                    error = function(e) NULL)
    check$judge(check$kind, res, ref)
  }
  list(status = if (failed) "error" else "value", index = if (failed) NA_integer_ else i,
       wrong = wrong,
       message = if (failed) conditionMessage(res), warnings = warnings,
       nonfinite = if (!failed) nonfinite_fields(res), fit = inherits(res, "sideclust"))
}

# Runs run_child(calls, bases) in a fresh R process. Returns its value, or the
# callr error (with what the process printed on stderr) when the process died
# or timed out. While the package is being reinstalled (absent, or its files
# half replaced), waits and retries, for up to 15 minutes.
in_fresh_r <- function(calls, bases, timeout, check = NULL) {
  for (attempt in 1:45) {
    err_file <- tempfile(fileext = ".txt")
    res <- tryCatch(callr::r(run_child, list(calls, bases, check), timeout = timeout, stderr = err_file),
                    error = function(e) e)
    if (inherits(res, "error") && file.exists(err_file)) {
      res$stderr_lines <- readLines(err_file, warn = FALSE)
    }
    unlink(err_file)
    reinstalled <- identical(res$status, "unloadable") ||
      (identical(res$status, "error") && grepl("lazy-load database", res$message))
    if (!reinstalled) return(res)
    Sys.sleep(20)
  }
  list(status = "error", message = "sideclust could not be loaded", warnings = character())
}

one_line <- function(x, max = 300) {
  x <- gsub("[[:space:]]+", " ", paste(x, collapse = " "))
  if (nchar(x) > max) paste0(substr(x, 1, max), "...") else x
}

# An error is clear when it names an argument in backticks, or names the
# mutated argument as a word.
classify <- function(res, target) {
  if (inherits(res, "callr_timeout_error")) return(list(outcome = "timeout", message = ""))
  if (inherits(res, "error")) {
    # The process died: keep the lines R printed about why (segfault cause).
    why <- grep("caught|cause|abort|terminate|what\\(\\)", res$stderr_lines, value = TRUE)
    return(list(outcome = "crash", message = one_line(c("the R process died:", head(why, 3)))))
  }
  if (res$status == "error") {
    clear <- grepl("`[^`]+`", res$message) ||
      grepl(sprintf("(^|[^[:alnum:]_.])%s([^[:alnum:]_]|$)", target), res$message)
    return(list(outcome = if (clear) "error_clear" else "error_unclear",
                message = one_line(res$message)))
  }
  if (length(res$nonfinite)) {
    warned <- length(res$warnings) > 0
    msg <- paste0("non-finite: ", paste(res$nonfinite, collapse = ", "),
                  if (warned) paste0("; warning: ", res$warnings[1]))
    return(list(outcome = if (warned) "warned_nonfinite" else "silent_nonfinite",
                message = one_line(msg)))
  }
  if (length(res$wrong)) {
    warned <- length(res$warnings) > 0
    msg <- paste0(res$wrong, if (warned) paste0("; warning: ", res$warnings[1]))
    return(list(outcome = if (warned) "warned_wrong" else "silent_wrong", message = one_line(msg)))
  }
  list(outcome = "ok", message = "")
}

run_case <- function(cs, bases, timeout) {
  res <- in_fresh_r(list(cs$call), bases, timeout, cs$check)
  c(cs[c("fun", "target", "mutation")], list(expr = deparse1(cs$call)), classify(res, cs$target))
}

run_all <- function(cases, bases, jobs, timeout) {
  out <- parallel::mclapply(seq_along(cases), function(i) {
    r <- run_case(cases[[i]], bases, timeout)
    message(sprintf("[%d/%d] %s  %s", i, length(cases), r$outcome, r$expr))
    r
  }, mc.cores = jobs, mc.preschedule = FALSE)
  # A forked worker that failed (killed, out of memory) did not run its call
  # through: run those here, one at a time.
  lost <- which(!vapply(out, is.list, logical(1)))
  out[lost] <- lapply(cases[lost], run_case, bases = bases, timeout = timeout)
  do.call(rbind, lapply(out, as.data.frame, stringsAsFactors = FALSE))
}

## Report -----------------------------------------------------------------------

outcomes <- c("crash", "timeout", "error_clear", "error_unclear", "silent_nonfinite",
              "warned_nonfinite", "silent_wrong", "warned_wrong", "ok")

count_outcomes <- function(res) {
  n <- as.integer(table(factor(res$outcome, levels = outcomes)))
  as.data.frame(as.list(setNames(c(nrow(res), n), c("calls", outcomes))))
}

md_table <- function(df) {
  cells <- apply(df, 1, function(r) gsub("|", "\\|", trimws(r), fixed = TRUE))
  c(paste("|", paste(names(df), collapse = " | "), "|"), paste0("|", strrep("---|", ncol(df))),
    apply(matrix(cells, ncol = ncol(df), byrow = TRUE), 1,
          function(r) paste("|", paste(r, collapse = " | "), "|")))
}

findings <- function(res, outcome) {
  hits <- res[res$outcome == outcome, ]
  if (!nrow(hits)) return(character())
  c(sprintf("### %s (%d)", outcome, nrow(hits)), "",
    sprintf("- `%s`%s", hits$expr, ifelse(nzchar(hits$message), paste0(" — ", hits$message), "")),
    "")
}

per_function <- function(res, found) {
  do.call(rbind, lapply(found, function(b) {
    base <- if (is.null(b$args)) "not covered" else sprintf("`%s`", deparse1(as_fun_call(b$fun, b$args)))
    returns <- if (is.null(b$args)) "" else if (isTRUE(b$fit)) "fit" else "other"
    cbind(data.frame(`function` = b$fun, `base call` = base, returns = returns, check.names = FALSE),
          count_outcomes(res[res$fun == b$fun, , drop = FALSE]))
  }))
}

write_report <- function(res, found, opts, seconds) {
  commit <- tryCatch(system2("git", c("rev-parse", "--short", "HEAD"), stdout = TRUE, stderr = FALSE),
                     warning = function(w) "unknown", error = function(e) "unknown")
  pkg <- utils::packageDescription("sideclust")
  missing <- Filter(function(b) is.null(b$args), found)
  listed <- unlist(lapply(c("crash", "timeout", "silent_nonfinite", "silent_wrong", "error_unclear",
                            "warned_nonfinite", "warned_wrong"), findings, res = res))
  lines <- c(
    "# Fuzz sweep of sideclust", "",
    "Written by `tools/fuzz.R` (`make fuzz` for the full sweep, `make fuzz-ci` for the ci subset).", "",
    sprintf("- date: %s", format(Sys.time(), "%Y-%m-%d %H:%M %Z")),
    sprintf("- commit: %s; installed sideclust %s, built %s", commit[1], pkg$Version,
            strsplit(pkg$Built, "; ")[[1]][3]),
    sprintf("- %s", R.version.string),
    sprintf("- subset %s, %d jobs, timeout %g s per call, wall time %.1f min",
            opts$subset, opts$jobs, opts$timeout, seconds / 60),
    if (nzchar(opts$functions)) sprintf("- functions: %s only", opts$functions), "",
    "## Summary", "", md_table(count_outcomes(res)), "",
    "## Per function", "", md_table(per_function(res, found)), "",
    if (length(missing)) c("## Not covered", "", vapply(missing, function(b) {
      sprintf("- `%s`: no base input worked (last error: %s)", b$fun, one_line(b$reason))
    }, ""), ""),
    "## Findings", "",
    if (length(listed)) listed else c("None.", ""),
    "## Base inputs", "",
    "Every call runs in a fresh R process with `library(sideclust)`, after these",
    "lines (evaluated after `set.seed(1)`) and then `set.seed(1)`.", "",
    "```r", sprintf("%s <- %s", names(base_code), vapply(base_code, deparse1, "")), "```", "",
    "## Outcomes", "",
    "- `crash`: the process died (segfault, abort); `timeout`: no result in time.",
    "- `error_clear`: an error naming an argument in backticks or the mutated argument; `error_unclear`: any other error.",
    "- `silent_nonfinite` / `warned_nonfinite`: a fit with `NA` in `cluster`, or a non-finite last value of `objective`, `cost`, `loglik`, `loss`, `expected_loss` or a `*trace` field (a plain numeric result: any non-finite value), without / with a warning.",
    "- The predict() kinds (target `newdata`; issue 45) count a wrong answer of predict() as `silent_nonfinite` / `warned_nonfinite`: clusters that change with the order of named columns, a renamed column accepted, `NA` clusters or `NaN` scores on new data scaled by 1e300.",
    "- `silent_wrong` / `warned_wrong` (the scale and shape kinds `+ 1e10`, `column 1 * 1e50`, `column 1 * 1e150`, `p > n`, judged against the base call's fit in the same process): without / with a warning, a fit that for `+ 1e10` is not the unshifted partition up to label switching, and for the others has `NA` clusters, a single cluster where the base fit has several, or more than n / 2 clusters where the base fit has at most n / 2.",
    "- `ok`: anything else (a result, maybe with warnings)."
  )
  dir.create(dirname(opts$out), showWarnings = FALSE, recursive = TRUE)
  writeLines(lines, opts$out)
}

main <- function() {
  opts <- parse_options(commandArgs(trailingOnly = TRUE))
  started <- Sys.time()
  bases <- make_bases()
  funs <- fuzz_targets()
  if (nzchar(opts$functions)) {
    wanted <- strsplit(opts$functions, ",", fixed = TRUE)[[1]]
    unknown <- setdiff(wanted, funs)
    if (length(unknown)) stop("--functions: not fuzzable exports: ", paste(unknown, collapse = ", "))
    funs <- wanted
  }
  message("finding base calls of ", length(funs), " functions")
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
  if (summary$crash > 0 || summary$silent_nonfinite > 0 || summary$silent_wrong > 0) quit(status = 1)
}

# Run only as a script, so that the functions can be source()d for a look.
if (sys.nframe() == 0L) main()
