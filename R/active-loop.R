#' An oracle that answers from known classes
#'
#' For simulations of [active_side()]: a function of `(i, j)` (vectors of
#' point indices) that answers `"must"` when the two points share a class of
#' `y` and `"cannot"` otherwise. Each answer is flipped with probability
#' `noise`, independently, and is `NA` ("don't know") with probability
#' `dont_know`; both draw from R's generator, so [set.seed()] reproduces
#' them. The same pair asked twice may get two different noisy answers, as
#' from a person.
#'
#' @param y The true classes: a vector or factor without `NA`.
#' @param noise The probability that an answer is wrong, in \[0, 1\].
#' @param dont_know The probability of no answer, in \[0, 1\].
#' @return A function `oracle(i, j)` returning a character vector of
#'   `"must"`, `"cannot"` and `NA`, with attribute `labels` (`y`), which
#'   [active_side()] uses to score the fits.
#' @examples
#' set.seed(1)
#' oracle <- oracle_from_labels(iris$Species, noise = 0.1)
#' oracle(c(1, 1), c(2, 51))
#' @export
oracle_from_labels <- function(y, noise = 0, dont_know = 0) {
  y <- check_classes(y, "y")
  noise <- check_number(noise, "noise", lower = 0, upper = 1)
  dont_know <- check_number(dont_know, "dont_know", lower = 0, upper = 1)
  code <- as.integer(y)
  n <- length(y)
  oracle <- function(i, j) {
    if (!is.numeric(i) || !is.numeric(j) || length(i) != length(j) || anyNA(i) || anyNA(j) ||
        any(i < 1 | i > n | j < 1 | j > n)) {
      stop_arg("i", sprintf("and `j` must be point indices in 1..%d of one length", n))
    }
    same <- code[i] == code[j]
    flip <- stats::runif(length(i)) < noise
    answer <- ifelse(same != flip, "must", "cannot")
    answer[stats::runif(length(i)) < dont_know] <- NA_character_
    answer
  }
  attr(oracle, "labels") <- y
  oracle
}

#' Active clustering with side information: ask, answer, refit
#'
#' Runs the loop fit, [query_pairs()], answer, refit until `budget` questions
#' were asked. Each round asks `batch` pairs chosen by `strategy` from the
#' current fit and the answers so far, gives them to `oracle`, adds the
#' answers to the constraints and refits. Pairs answered `NA` (don't know)
#' count against the budget, are not asked again, and add nothing. A point
#' that the neighbourhood strategies find cannot-linked to all `k`
#' neighbourhoods has those cannot-links asked again, each at most once
#' (see Contradictions in [query_pairs()]); the last answer to a pair
#' counts. Points whose cannot-links all stood are in no neighbourhood, and
#' the run ends with a warning that names them. A new neighbourhood is
#' confirmed before it counts (see Confirmed neighbourhoods in
#' [query_pairs()]; `query_args = list(confirm = FALSE)` turns that off). A must-link the
#' neighbourhood strategies infer (see Inferred answers in [query_pairs()])
#' is added without asking and not counted against the budget.
#'
#' @section Warm starts:
#' Each refit starts from the previous fit where the method takes a start:
#' [tvclust()] (both methods) from the previous partition (`init`),
#' [constrained_mixture()] from the previous responsibilities (`start`),
#' [mpck_means()], [cop_kmeans()] and [lcvqe()] from the previous centres
#' (`start`, which makes one run). For these three the run from the
#' previous centres is one more start beside the method's own restarts, and
#' the fit with the lower final objective is kept: a single run from the
#' previous centres now and then fell into a much worse optimum (LCVQE on
#' wine, Explore-Consolidate and NPU, three draws each, 80 questions in
#' rounds of 10: F 0.64 to 0.85 in 7 of 48 refits, where refits from
#' scratch gave 0.97 or more). [rdp_means()] has no start argument (it
#' always starts from one cluster and tightens its weights from `xi`), so it
#' refits from scratch; with `k` each refit repeats the search for `lambda`.
#' The loop fits it with `chunklet_moves = TRUE` unless `fit_args` says
#' otherwise: the answers form a few large must-link chunklets (the
#' neighbourhoods), and moving one point at a time can stop at an optimum
#' that whole-chunklet moves improve on. On vertebral after 150 NPU
#' questions, for instance, single-point moves stopped at `lambda` = 30 with
#' 3 clusters and F 0.58; whole-chunklet moves found a lower objective there
#' with 4 clusters, so the search for k = 3 went on to `lambda` = 120 and F
#' 0.72.
#' When a refit with a start fails (for instance COP-k-means finding the
#' start infeasible under the new constraints) it is redone without one.
#' A warm start of TVClust or a constrained mixture saves work but can keep
#' a refit near the previous solution (a variational TVClust fit started
#' from a partition makes one run instead of `restarts`); `warm_start =
#' FALSE` refits every time as the method would from scratch. The curve's
#' `warm_start` column says whether each fit kept came from the previous one.
#'
#' @section Implied pairs:
#' The answers settle more pairs than were asked: every two points of a
#' must-link chunklet are a must-link, and every point of a chunklet is
#' cannot-linked to every point of a chunklet it has a cannot-link with.
#' Explore-Consolidate, Min-Max and NPU ask mostly must-links (each point is
#' asked against the neighbourhoods until one says yes), so their answers
#' hold few cannot-links, while they settle every pair between two
#' neighbourhoods; a method that weighs each given pair alike would hardly
#' see the cannot-links. With `implied = TRUE` (the default) each fit gets
#' the answers and the pairs they imply, among the points answered, as Basu,
#' Banerjee & Mooney (2004) give their clustering the closure of the
#' answers. Pairs answered directly keep their answer. A chunklet holding a
#' cannot-link (a contradiction: one of its answers is wrong) implies
#' nothing, inside or across; with `k`, neither does a chunklet
#' cannot-linked to `k` neighbourhoods (see Contradictions in
#' [query_pairs()]). A wrong cannot-link against a point's own
#' neighbourhood shows as such a contradiction and is asked again; a wrong
#' must-link does not: the point it lets into a neighbourhood is implied to
#' be with all its members and apart from every other neighbourhood (the
#' strategies never ask a pair whose answer is implied). When answers may be
#' wrong, simulate with `oracle_from_labels(y, noise)` and compare
#' `implied = FALSE`. Above a million
#' implied pairs the fits get the answers alone. `side` in the result holds
#' the answers, the inferred must-links and the side information given,
#' not the implied pairs.
#'
#' @section Progress and reproducibility:
#' Progress goes to \pkg{progressr}, one step per question (wrap the call in
#' `progressr::with_progress()`). Queries, noisy answers and fits draw from
#' R's generator, so [set.seed()] reproduces a run.
#'
#' @param x The data: a numeric matrix or data frame, one row per point.
#' @param oracle A function of `(i, j)` (vectors of point indices of equal
#'   length) returning one answer per pair: `"must"`, `"cannot"` or `NA`
#'   (don't know); `TRUE` / `FALSE` are read as must / cannot. See
#'   [oracle_from_labels()].
#' @param budget The number of questions to ask.
#' @param method The clustering method: `"rdp_means"`, `"tvclust"`,
#'   `"constrained_mixture"`, `"mpck_means"`, `"cop_kmeans"` or `"lcvqe"`;
#'   or a function `(x, side, start)` returning a fit (`start` is the
#'   previous fit, or `NULL`). Strategy `"uncertainty"` needs a posterior:
#'   `"tvclust"` or `"constrained_mixture"` (or a function whose fits have
#'   one). `"npu"` uses its Gaussian kernel, not the fit's posterior (see
#'   [query_pairs()]).
#' @param strategy The query strategy of [query_pairs()].
#' @param batch Pairs asked per round (and per refit).
#' @param side Side information known before the loop, or `NULL`. Partial
#'   labels become every labelled pair (refused above a million pairs).
#' @param k The number of clusters: given to the method (for
#'   `"constrained_mixture"` and the k-means methods it is required) and to
#'   Explore-Consolidate and Min-Max; `NULL` leaves both to their defaults
#'   (Explore-Consolidate then explores for the fit's number of clusters).
#'   Without `k`, [rdp_means()] chooses its number of clusters by held-out
#'   side information at every refit, which costs about a hundred fits each
#'   time: give `k`, or `fit_args = list(lambda = ...)`.
#' @param truth The true classes, to score each fit by [f_measure()] and
#'   [ari()]; by default the `labels` attribute of `oracle` (set by
#'   [oracle_from_labels()]).
#' @param fit_args A list of further arguments for the method (e.g.
#'   `list(method = "variational")` for TVClust); for RDP-means
#'   `chunklet_moves` is `TRUE` unless given (see Warm starts).
#' @param query_args A list of further arguments for [query_pairs()] (e.g.
#'   `candidates`); `confirm` is `TRUE` unless given.
#' @param warm_start Start each refit from the previous fit where the
#'   method allows (see Warm starts)?
#' @param implied Fit on the answers together with the pairs they imply by
#'   transitivity (see Implied pairs)? `FALSE` fits on the answers alone.
#' @return An object of class `sideclust_active`: `fit` (the last fit),
#'   `side` (the constraints gathered, with those given), `queries` (a data
#'   frame of every question: `round`, `i`, `j`, `answer`, `score`,
#'   `phase`; phase `"inferred"` marks a must-link inferred, not asked), `curve` (a data frame with one row per fit: `queries` asked
#'   so far, `answered`, `k`, `objective` (the method's final objective,
#'   ELBO or log-likelihood where it has one, else `NA`), `f_measure` and
#'   `ari` against `truth`, and `warm_start` (whether the fit started from
#'   the previous one; `NA` for a user function)), `left_out` (the points
#'   a neighbourhood strategy left out; see Contradictions in
#'   [query_pairs()]), and the settings.
#' @references
#' Basu, S., Banerjee, A. and Mooney, R. J. (2004). Active semi-supervision
#' for pairwise constrained clustering. SIAM International Conference on
#' Data Mining.
#' @seealso [query_pairs()], [oracle_from_labels()].
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' oracle <- oracle_from_labels(iris$Species)
#' run <- active_side(x, oracle, budget = 12, method = "rdp_means",
#'                    strategy = "explore_consolidate", k = 3)
#' run
#' run$curve
#' @export
active_side <- function(x, oracle, budget, method = "rdp_means",
                        strategy = c("explore_consolidate", "random", "min_max", "npu", "uncertainty"),
                        batch = 1L, side = NULL, k = NULL, truth = attr(oracle, "labels"),
                        fit_args = list(), query_args = list(), warm_start = TRUE,
                        implied = TRUE) {
  call <- match.call()
  x <- check_data_matrix(x, "x", min_rows = 2L)
  n <- nrow(x)
  if (!is.function(oracle)) stop_arg("oracle", "must be a function of (i, j) returning \"must\", \"cannot\" or NA")
  budget <- check_count(budget, "budget", lower = 1L)
  batch <- check_count(batch, "batch", lower = 1L)
  strategy <- match_arg(strategy)
  warm_start <- check_flag(warm_start, "warm_start")
  implied <- check_flag(implied, "implied")
  fitter <- active_fitter(method, k, fit_args, warm_start)
  fit_side <- function(side) active_fit_side(side, x, asked, k, implied, query_args$confirm)
  if (strategy == "uncertainty" && is.character(method) &&
      !method %in% c("tvclust", "constrained_mixture")) {
    stop_arg("strategy", "\"uncertainty\" needs a fit with a posterior: method = \"tvclust\" or ",
             "\"constrained_mixture\" (", method, " gives hard clusters)")
  }
  if (!is.null(k)) k <- check_count(k, "k", lower = 1L, upper = n)
  if (!is.null(truth)) {
    truth <- check_classes(truth, "truth")
    if (length(truth) != n) stop_arg("truth", sprintf("has %d labels but the data have %d points", length(truth), n))
  }
  if (!is.list(fit_args) || !is.list(query_args)) {
    stop_arg(if (!is.list(fit_args)) "fit_args" else "query_args", "must be a list of named arguments")
  }
  # the loop passes the pairs asked twice in `exclude`, so new neighbourhoods are confirmed
  query_args$confirm <- check_flag(query_args$confirm %||% TRUE, "query_args$confirm")
  side <- as_side_info(side, n, "side")
  # labels become all their labelled pairs, so that the fits weigh them as labels
  side <- if (inherits(side, "sideclust_labels")) expand_labels(side) else active_pairs(side, n)
  asked <- data.frame(round = integer(0), i = integer(0), j = integer(0), answer = character(0),
                      score = double(0), phase = character(0))
  fit <- fitter(x, fit_side(side), NULL)$fit
  curve <- list(active_curve_row(0L, 0L, fit, truth, FALSE))
  step <- progressr::progressor(steps = budget)
  round <- 0L
  n_questions <- function() sum(!asked$phase %in% "inferred")
  while (n_questions() < budget) {
    round <- round + 1L
    # the data come from x (a custom method's fit need not keep them), the
    # posterior of "uncertainty" from the fit
    post <- if (strategy == "uncertainty" && !is.null(fit_posterior(fit, n, "method", required = FALSE))) fit
    want <- min(batch, budget - n_questions())
    got <- 0L
    # an inferred must-link (see ?query_pairs) is recorded, not asked; the
    # round then asks for more pairs until it has `want` questions
    while (got < want) {
      q <- do.call(query_pairs, c(list(x, side, strategy = strategy, batch = want - got,
                                       k = k %||% fit$k, posterior = post,
                                       exclude = settled_questions(asked)), query_args))
      if (nrow(q) == 0L) break
      inferred <- q$phase %in% "inferred"
      answer <- answer_queries(oracle, q)
      asked <- rbind(asked, data.frame(round = round, i = q$i, j = q$j, answer = answer,
                                       score = q$score, phase = q$phase))
      side <- add_answers(side, q$i, q$j, answer)
      got <- got + sum(!inferred)
      step(amount = sum(!inferred))
      if (all(!inferred)) break
    }
    if (got == 0L && !any(asked$round == round)) break
    refit <- fitter(x, fit_side(side), fit)
    fit <- refit$fit
    answered <- sum(!asked$phase %in% "inferred" & !is.na(asked$answer))
    curve[[length(curve) + 1L]] <- active_curve_row(n_questions(), answered, fit, truth, refit$warm)
  }
  left_out <- left_out_points(x, side, asked, strategy, k %||% fit$k, query_args$confirm)
  if (length(left_out) > 0L) {
    warning(sprintf(paste0("%d point(s) answered cannot-link with every one of the k = %d ",
                           "neighbourhoods kept those answers when asked again (%s): some answers ",
                           "are wrong or `k` is too small; these points are in no neighbourhood"),
                    length(left_out), k %||% fit$k, paste(utils::head(left_out, 5L), collapse = ", ")),
            call. = FALSE)
  }
  out <- list(fit = fit, side = side, queries = asked, curve = do.call(rbind, curve), left_out = left_out,
              strategy = strategy, method = if (is.character(method)) method else "custom",
              batch = batch, budget = budget, call = call)
  class(out) <- "sideclust_active"
  out
}

# The questions not to ask again (the `exclude` of query_pairs()): those
# whose last answer was "don't know" (NA), and those answered twice (a
# recheck; see ?query_pairs), in the orientation they were last asked.
settled_questions <- function(asked) {
  key <- pair_key(asked$i, asked$j)
  last <- !duplicated(key, fromLast = TRUE)
  answered <- !is.na(asked$answer)
  twice <- key %in% key[answered][duplicated(key[answered])]
  keep <- last & (!answered | twice)
  data.frame(i = as.integer(asked$i[keep]), j = as.integer(asked$j[keep]))
}

# The points the neighbourhood strategies left out: cannot-linked to all k
# neighbourhoods, and still when each was asked again.
left_out_points <- function(x, side, asked, strategy, k, confirm = FALSE) {
  if (!strategy %in% c("explore_consolidate", "min_max", "npu") || is.null(k)) return(integer(0))
  n <- nrow(x)
  st <- neighbourhood_state(active_pairs(side, n), settled_questions(asked), n, k, x, confirm = confirm)
  which(st$unit %in% st$left_out)
}

# The answers to the rows `q` of query_pairs(): the oracle's to the
# questions, "must" for the inferred must-links, which are not asked.
answer_queries <- function(oracle, q) {
  inferred <- q$phase %in% "inferred"
  answer <- rep("must", nrow(q))
  if (any(!inferred)) {
    answer[!inferred] <- read_answers(oracle(q$i[!inferred], q$j[!inferred]), sum(!inferred))
  }
  answer
}

# The oracle's answers as TRUE (must), FALSE (cannot) or NA.
read_answers <- function(answer, m) {
  if (length(answer) != m) {
    stop_arg("oracle", sprintf("returned %d answers for %d pairs; it must return one per pair",
                               length(answer), m))
  }
  if (is.logical(answer)) return(ifelse(is.na(answer), NA_character_, ifelse(answer, "must", "cannot")))
  answer <- tolower(as.character(answer))
  bad <- !is.na(answer) & !answer %in% c("must", "cannot")
  if (any(bad)) {
    stop_arg("oracle", "must answer \"must\", \"cannot\" or NA; it returned \"",
             answer[which(bad)[1L]], "\"")
  }
  answer
}

# The constraints with the new answers; an answer that contradicts an
# earlier one on the same pair replaces it (a person may change their mind).
add_answers <- function(side, i, j, answer) {
  keep <- !is.na(answer)
  if (!any(keep)) return(side)
  lo <- pmin(i[keep], j[keep])
  hi <- pmax(i[keep], j[keep])
  old <- !paste(side$i, side$j) %in% paste(lo, hi)
  new_constraints(side$n, c(side$i[old], lo), c(side$j[old], hi),
                  c(side$must[old], answer[keep] == "must"),
                  c(side$confidence[old], rep(1, length(lo))))
}

# fun(x, side, previous_fit) for a method name or a user function: list(fit,
# warm = whether it started from the previous fit; NA for a user function).
active_fitter <- function(method, k, fit_args, warm_start = TRUE) {
  if (is.function(method)) {
    return(function(x, side, previous) list(fit = method(x, side, previous), warm = NA))
  }
  methods <- c("rdp_means", "tvclust", "constrained_mixture", "mpck_means", "cop_kmeans", "lcvqe")
  method <- match_choice(method, methods, "method")
  if (method %in% c("constrained_mixture", "mpck_means", "cop_kmeans", "lcvqe") && is.null(k)) {
    stop_arg("k", "is required for method = \"", method, "\"")
  }
  fun <- getExportedValue("sideclust", method)
  start_arg <- switch(method, rdp_means = NULL, tvclust = "init", "start")
  # the loop's must-links form a few large chunklets (see Warm starts)
  if (method == "rdp_means" && is.null(fit_args[["chunklet_moves"]])) fit_args$chunklet_moves <- TRUE
  function(x, side, previous) {
    if (length(side$i) == 0L) side <- NULL  # no pairs yet: the method's own defaults
    args <- c(list(x, side), if (!is.null(k)) list(k = k), fit_args)
    start <- if (warm_start) warm_start_of(method, previous)
    if (!is.null(start) && !is.null(start_arg) && is.null(fit_args[[start_arg]])) {
      warm <- tryCatch(do.call(fun, c(args, stats::setNames(list(start), start_arg))),
                       error = function(e) NULL)
      if (!is.null(warm)) {
        if (!method %in% prototype_methods) return(list(fit = warm, warm = TRUE))
        # the previous centres are one more start beside the method's own
        # restarts: one run from them alone can fall into a worse optimum;
        # the warm fit stays when the restarts fail (COP-k-means) or tie up
        # to rounding (its cluster numbers follow the last fit's)
        cold <- tryCatch(do.call(fun, args), error = function(e) NULL)
        keep_warm <- is.null(cold) ||
          isTRUE(fit_objective(warm) <= fit_objective(cold) + 1e-9 * abs(fit_objective(cold)))
        return(list(fit = if (keep_warm) warm else cold, warm = keep_warm))
      }
    }
    list(fit = do.call(fun, args), warm = FALSE)
  }
}

# The methods whose warm start is a set of centres and whose objective
# (lower is better) compares a warm run with the restarts.
prototype_methods <- c("mpck_means", "cop_kmeans", "lcvqe")

# The start a method takes from its previous fit (see Warm starts).
warm_start_of <- function(method, previous) {
  if (is.null(previous)) return(NULL)
  switch(method,
         tvclust = as.integer(previous$cluster),
         constrained_mixture = previous$z,
         mpck_means = , cop_kmeans = , lcvqe = previous$centers,
         NULL)
}

active_curve_row <- function(queries, answered, fit, truth, warm) {
  score <- function(f) if (is.null(truth)) NA_real_ else f(truth, fit$cluster)
  data.frame(queries = queries, answered = answered, k = fit$k %||% NA_integer_,
             objective = fit_objective(fit), f_measure = score(f_measure), ari = score(ari),
             warm_start = warm)
}

# The last value of a fit's objective, ELBO or log-likelihood, else NA.
fit_objective <- function(fit) {
  v <- fit$objective %||% fit$elbo %||% fit$loglik
  if (is.numeric(v) && length(v) > 0L) utils::tail(v, 1L) else NA_real_
}

#' Print an active selection run
#'
#' One line on the run (method, strategy, questions asked and answered), the
#' constraints gathered, and the last fit's number of clusters with its
#' F-measure and ARI against the truth when known (and before any question).
#'
#' @param x A run of [active_side()].
#' @param ... Unused.
#' @return `x`, invisibly.
#' @keywords internal
#' @export
print.sideclust_active <- function(x, ...) {
  last <- x$curve[nrow(x$curve), ]
  inferred <- x$queries$phase %in% "inferred"
  n_answers <- sum(!inferred & !is.na(x$queries$answer))
  cat(sprintf("<sideclust_active> %s with strategy \"%s\", batch %d: %d of %d questions asked, %d answered\n",
              x$method, x$strategy, x$batch, sum(!inferred), x$budget, n_answers))
  cat("  constraints:", format(x$side), "\n")
  if (any(inferred)) {
    cat(sprintf("  inferred:    %d point(s) placed in the last neighbourhood without asking\n",
                sum(inferred)))
  }
  n_recheck <- sum(x$queries$phase %in% "recheck")
  if (n_recheck > 0L) {
    cat(sprintf("  rechecks:    %d question(s) asked again; %d point(s) left out\n", n_recheck,
                length(x$left_out)))
  }
  cat(sprintf("  final fit:   %d clusters", last$k))
  if (!is.na(last$f_measure)) {
    first <- x$curve[1L, ]
    cat(sprintf("; F-measure %.3f (%.3f before any question), ARI %.3f (%.3f)",
                last$f_measure, first$f_measure, last$ari, first$ari))
  }
  cat("\n")
  invisible(x)
}
