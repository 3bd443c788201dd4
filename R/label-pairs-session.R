# A labelling session of label_pairs(), shared by the browser and the
# console: the data, the constraints so far (those given plus the answers in
# the file), the queue of pairs to ask, and the current fit. It is an
# environment so that both front ends update it in place.

new_labelling <- function(x, side, file, strategy, fit, k, batch, budget, query_args) {
  lab <- new.env(parent = emptyenv())
  lab$x <- x
  lab$n <- nrow(x)
  lab$file <- file
  lab$strategy <- strategy
  lab$k <- k
  lab$batch <- batch
  lab$budget <- budget
  lab$query_args <- query_args
  lab$given <- side
  lab$answers <- read_pair_answers(file, n = lab$n)
  lab$resumed <- nrow(lab$answers)
  lab$side <- answers_to_constraints(side, lab$answers)
  lab$queue <- data.frame(i = integer(0), j = integer(0))
  lab$fitter <- fit$fitter
  lab$fit <- fit$fit
  lab$stale <- !is.null(lab$fitter)  # refit before the next query
  lab
}

# The next pair to ask as c(i, j), or NULL when the budget is spent or no
# pair is left. Refits (when the session has a method) each time the queue
# of a batch is empty and answers came in since the last fit.
labelling_next <- function(lab) {
  if (!is.null(lab$budget) && nrow(lab$answers) >= lab$budget) return(NULL)
  asked <- pair_key(lab$answers$i, lab$answers$j)
  lab$queue <- lab$queue[!pair_key(lab$queue$i, lab$queue$j) %in% asked, , drop = FALSE]
  if (nrow(lab$queue) == 0L) {
    if (lab$stale) labelling_refit(lab)
    lab$queue <- labelling_query(lab)
    if (nrow(lab$queue) == 0L) return(NULL)
  }
  c(lab$queue$i[1L], lab$queue$j[1L])
}

labelling_query <- function(lab) {
  fit <- lab$fit
  # a fit without a usable posterior (hard clusters, a sampler without draws) is not passed
  has_post <- lab$strategy == "uncertainty" && !is.null(fit) &&
    !is.null(tryCatch(fit_posterior(fit, lab$n, "fit", required = FALSE), error = function(e) NULL))
  post <- if (has_post) fit
  side <- if (length(lab$side$i) > 0L) lab$side
  q <- do.call(query_pairs, c(list(lab$x, side, strategy = lab$strategy, batch = lab$batch,
                                   k = lab$k %||% fit$k, posterior = post,
                                   exclude = answers_settled(lab$answers), infer = FALSE),
                              lab$query_args[names(lab$query_args) != "infer"]))
  q[, c("i", "j"), drop = FALSE]
}

labelling_refit <- function(lab) {
  lab$fit <- lab$fitter(lab$x, lab$side, lab$fit)$fit
  lab$stale <- FALSE
}

# Records an answer ("must", "cannot" or "skip") on pair (i, j): first to the
# file, then to the session.
labelling_answer <- function(lab, i, j, answer) {
  now <- Sys.time()
  append_pair_answer(lab$file, i, j, answer, now)
  row <- new_pair_answers(i, j, normalise_answer(answer), answer_time(now))
  lab$answers <- rbind(lab$answers, row)
  if (row$answer != "skip") {
    lab$side <- add_answers(lab$side, i, j, row$answer)
    if (!is.null(lab$fitter)) lab$stale <- TRUE
  }
  invisible(lab)
}

# A line for a pair asked a second time (a recheck: the answers so far do not
# fit k clusters, or a new cluster is being confirmed), else NULL: a person
# otherwise sees the pair just answered come back without a reason.
labelling_recheck_note <- function(lab, pair) {
  a <- lab$answers[lab$answers$answer != "skip", , drop = FALSE]
  same_pair <- pair_key(a$i, a$j) == pair_key(pair[1L], pair[2L])
  if (!any(same_pair)) return(NULL)
  before <- if (utils::tail(a$answer[same_pair], 1L) == "must") "same" else "different"
  k <- lab$k %||% lab$fit$k
  sprintf(paste0("Asked again to check: you answered \"%s\" here before, and %sthe other answers ",
                 "make that one worth a second look. Answer as you see it; the later answer counts."),
          before, if (is.null(k)) "" else sprintf("with k = %d clusters ", k))
}

# Counts for the running tally.
labelling_counts <- function(lab) {
  a <- lab$answers$answer
  c(answers = length(a), must = sum(a == "must"), cannot = sum(a == "cannot"),
    skip = sum(a == "skip"), resumed = lab$resumed)
}

labelling_tally <- function(lab) {
  cnt <- labelling_counts(lab)
  out <- sprintf("%d answered: %d same, %d different, %d skipped", cnt[["answers"]], cnt[["must"]],
                 cnt[["cannot"]], cnt[["skip"]])
  if (!is.null(lab$budget)) out <- paste0(out, sprintf(" (budget %d)", lab$budget))
  if (cnt[["resumed"]] > 0L) out <- paste0(out, sprintf("; %d of them read from the file", cnt[["resumed"]]))
  out
}

# The session's result: the constraints from the file (re-read, so that it is
# exactly what was saved) added to those given.
labelling_result <- function(lab) {
  answers_to_constraints(lab$given, read_pair_answers(lab$file, n = lab$n))
}

# The fit argument of label_pairs(): NULL, a fit (kept as it is), or a method
# (a name of active_side()'s methods or a function (x, side, previous)),
# refitted after each batch of answers.
labelling_fit <- function(fit, k) {
  if (is.null(fit)) return(list(fit = NULL, fitter = NULL))
  if (inherits(fit, "sideclust")) return(list(fit = fit, fitter = NULL))
  if (is.character(fit) || is.function(fit)) return(list(fit = NULL, fitter = active_fitter(fit, k, list())))
  stop_arg("fit", "must be NULL, a fit of the package, a method name such as \"rdp_means\", or a function (x, side, previous) returning a fit")
}

# The data's first two principal components, for the picture of the clusters.
labelling_layout <- function(x) {
  if (ncol(x) == 1L) return(cbind(x[, 1L], 0))
  if (ncol(x) == 2L) return(x)
  pc <- stats::prcomp(x, rank. = 2L)
  pc$x[, 1:2, drop = FALSE]
}
