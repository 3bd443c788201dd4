#' Choose a method's parameters from held-out side information
#'
#' Cross-validation on the side information itself: the pairs (or labelled
#' points) are split into `folds`; for every grid point and fold the method is
#' fitted on the data with the other folds' side information, and the
#' held-out part scores the clustering. The grid point with the best mean
#' score is chosen and the method refitted there with all the side
#' information.
#'
#' @section Folds:
#' Pairs are split by must-link component (chunklet): every must-link of one
#' component goes to one fold, so a held-out must-link is never implied by
#' the training must-links through transitivity (a naive split leaks it,
#' and then a method that merely honours its training constraints looks
#' perfect). A cannot-link goes to the fold of the component of its first
#' point. Components are dealt to the fold with the fewest pairs so far, in
#' random order. Partial labels are split by labelled point, class by class,
#' so that every fold holds about the same share of each class.
#'
#' @section Scores and their bias:
#' For pairs, a held-out must-link is satisfied when its two points share a
#' cluster and a cannot-link when they do not. `"f"` is the pairwise
#' F-measure with must-links as the positive class (Bilenko, Basu & Mooney,
#' 2004): 2 TP / (2 TP + FP + FN), TP the must-links kept together, FP the
#' cannot-links put together, FN the must-links split; `"accuracy"` is the
#' share of held-out pairs satisfied. With few cannot-links, F favours few
#' clusters (putting everything together keeps every must-link); with few
#' must-links, accuracy favours many. For labels, every cluster takes the
#' majority label of its training points; `"accuracy"` is the share of
#' held-out points whose cluster carries their label (a cluster without
#' training labels counts as wrong), and `"f"` is [f_measure()] between the
#' held-out labels and their clusters. The scores estimate how well the side
#' information the user did not give would be respected; they say nothing
#' about the clusters of regions the side information never touches, and a
#' parameter that weights the side information (`beta`, `penalty`) is scored
#' with one fold's less side information than the final fit uses. Objectives
#' are not compared: they change scale with the parameters. Confidences are
#' ignored when scoring.
#'
#' @section Parallel runs and progress:
#' The `nrow(grid) * folds` fits are independent and run through the
#' \pkg{future} plan the user set (see `vignette("parameters")`), each on its
#' own random stream derived from R's seed: [set.seed()] gives the same folds,
#' fits, table and choice under every plan. Progress (one step a fit) goes to
#' \pkg{progressr}.
#'
#' @section Failed fits:
#' A fit that stops with an error is left out of its grid point's means and
#' counted in `failed`; a warning says how many failed and quotes the first
#' error of the method, with its grid point and fold. When every fit fails,
#' tune_side() stops with that first error.
#'
#' @param method The method: a function or the name of one listed by
#'   [tune_side_methods()].
#' @param x The data, as the method takes it.
#' @param side The side information: pairs ([constraints()] or anything
#'   [as_constraints()] takes) or partial labels (a vector with `NA`).
#' @param grid The parameter values to try: a data.frame with one column per
#'   parameter and one row per grid point, or a named list of values whose
#'   combinations are tried (as [expand.grid()]).
#' @param folds Number of folds (at least 2).
#' @param score `"auto"` (`"f"` for pairs, `"accuracy"` for labels), `"f"` or
#'   `"accuracy"`: the score that chooses the parameters (both are reported).
#' @param refit Refit at the chosen parameters with all the side information.
#' @param ... Further arguments of `method`, the same at every grid point
#'   (e.g. `k`, `restarts`).
#' @return An object of class `"sideclust_tune"`: `table` (one row per grid
#'   point: its parameters, `score` mean and `sd` over the folds, the mean
#'   and sd of both scores, and `failed` fits), `folds_table` (one row per
#'   grid point and fold), `best` (a list of the chosen parameters), `fit`
#'   (the refit, or `NULL`), `fold` (the fold of every pair, or of every point
#'   with `NA` for unlabelled ones), `score`, `method`, `side_kind`
#'   (`"pairs"` or `"labels"`) and `call`. It has `print()`, `summary()`,
#'   `plot()` (the score curve) and `as.data.frame()` (the table) methods.
#' @seealso [tune_side_methods()], [compare_partitions()].
#' @examples
#' set.seed(1)
#' x <- rbind(matrix(rnorm(60, 0, 0.3), 30), matrix(rnorm(60, 3, 0.3), 30),
#'            matrix(rnorm(60, c(0, 3), 0.3), 30, byrow = TRUE))
#' side <- sample_constraints(rep(1:3, each = 30), "nelson_cohen", n_constraints = 60)
#' tuned <- tune_side(rdp_means, x, side, grid = list(lambda = c(0.5, 5, 50)),
#'                    folds = 3)
#' tuned
#' plot(tuned)
#' @export
tune_side <- function(method, x, side, grid, folds = 5L, score = c("auto", "f", "accuracy"),
                      refit = TRUE, ...) {
  call <- match.call()
  entry <- tune_method_entry(method)
  fun <- entry$fun
  grid <- check_tune_grid(grid, entry)
  n <- NROW(x)
  side <- as_side_info(side, n, "side")
  if (is.null(side)) stop_arg("side", "is NULL; tuning needs side information to hold out")
  kind <- if (inherits(side, "sideclust_labels")) "labels" else "pairs"
  if (!kind %in% entry$side) {
    stop_arg("side", sprintf("holds %s, but %s() is tuned on %s", kind, entry$name,
                             paste(entry$side, collapse = " or ")))
  }
  folds <- check_count(folds, "folds", lower = 2L)
  score <- match_choice(score, c("auto", "f", "accuracy"), "score")
  if (score == "auto") score <- if (kind == "pairs") "f" else "accuracy"
  refit <- check_flag(refit, "refit")
  dots <- c(entry$fixed, list(...))
  both <- intersect(names(grid), names(dots))
  if (length(both)) {
    stop_arg("grid", sprintf("sets %s, which is also given in `...`; give it in one place",
                             paste(both, collapse = ", ")))
  }
  fold <- if (kind == "pairs") pair_folds(side, folds) else label_folds(side, folds)

  runs <- expand.grid(fold = seq_len(folds), point = seq_len(nrow(grid)))
  scores <- map_runs(seq_len(nrow(runs)), function(r) {
    f <- runs$fold[r]
    params <- as.list(grid[runs$point[r], , drop = FALSE])
    held <- !is.na(fold) & fold == f  # unlabelled points have no fold
    train <- side_without(side, held)
    fit <- tryCatch(do.call(fun, c(list(x, train), params, dots)),
                    error = function(e) conditionMessage(e))
    # a failed fit keeps its error message for the report below
    if (is.character(fit)) return(structure(c(f = NA, accuracy = NA, failed = 1), error = fit))
    c(held_out_scores(fit$cluster, side, held, train), failed = 0)
  })
  first_error <- first_fit_error(scores, runs, grid)
  per_fold <- cbind(grid[runs$point, , drop = FALSE], fold = runs$fold,
                    as.data.frame(do.call(rbind, scores)))
  rownames(per_fold) <- NULL
  table <- tune_summary_table(grid, per_fold, score)
  if (all(is.na(table$score))) {
    stop_arg("grid", sprintf("gave no successful fit of %s() at any point; the first error (%s): %s",
                             entry$name, first_error$where, first_error$message))
  }
  if (sum(per_fold$failed) > 0) {
    warning(sprintf("%d of %d fits failed and were left out of the means (see `folds_table`); the first error (%s): %s",
                    sum(per_fold$failed), nrow(per_fold), first_error$where,
                    first_error$message), call. = FALSE)
  }
  best_row <- which.max(table$score)
  best <- as.list(grid[best_row, , drop = FALSE])
  fit <- if (refit) do.call(fun, c(list(x, side), best, dots)) else NULL
  structure(list(table = table, folds_table = per_fold, best = best, best_row = best_row,
                 fit = fit, fold = fold, folds = folds, score = score, method = entry$name,
                 side_kind = kind, call = call),
            class = "sideclust_tune")
}

# The error message of the first failed fit and where it happened (grid
# point and fold), from the per-run scores of tune_side(); NULL if none failed.
first_fit_error <- function(scores, runs, grid) {
  failed <- which(vapply(scores, function(s) !is.null(attr(s, "error")), logical(1)))
  if (!length(failed)) return(NULL)
  r <- failed[1]
  params <- grid[runs$point[r], , drop = FALSE]
  where <- paste(sprintf("%s = %s", names(params),
                         vapply(params, function(v) format(v[[1]]), character(1))),
                 collapse = ", ")
  list(message = attr(scores[[r]], "error"), where = sprintf("%s, fold %d", where, runs$fold[r]))
}

# One row per grid point: the parameters, the chosen score's mean and sd over
# the folds that fitted, both scores' means and sds, and the failed fits.
tune_summary_table <- function(grid, per_fold, score) {
  point <- rep(seq_len(nrow(grid)), each = nrow(per_fold) / nrow(grid))
  stat <- function(v, f) vapply(split(v, point), function(a) {
    a <- a[!is.na(a)]
    if (length(a) == 0L) NA_real_ else f(a)
  }, numeric(1))
  sdev <- function(a) if (length(a) < 2L) NA_real_ else stats::sd(a)
  out <- grid
  out$score <- stat(per_fold[[score]], mean)
  out$sd <- stat(per_fold[[score]], sdev)
  out$f <- stat(per_fold$f, mean)
  out$f_sd <- stat(per_fold$f, sdev)
  out$accuracy <- stat(per_fold$accuracy, mean)
  out$accuracy_sd <- stat(per_fold$accuracy, sdev)
  out$failed <- as.integer(vapply(split(per_fold$failed, point), sum, numeric(1)))
  rownames(out) <- NULL
  out
}

# The side information without the entries flagged `drop` (pairs, or the
# labels of points).
side_without <- function(side, drop) {
  if (inherits(side, "sideclust_labels")) {
    labels <- side$labels
    labels[drop] <- NA_integer_
    return(new_labels(side$n, labels, side$levels))
  }
  keep <- !drop
  new_constraints(side$n, side$i[keep], side$j[keep], side$must[keep],
                  side$confidence[keep], sorted = TRUE)
}

# The fold of every pair: must-link components are dealt whole, in random
# order, to the fold with the fewest pairs so far; a pair goes with the
# component of its first point.
pair_folds <- function(side, folds) {
  comp <- chunklet_ids(side, side$n)[side$i]
  ids <- unique(comp)
  if (length(ids) < folds) {
    stop_arg("folds", sprintf(paste0("(%d) is more than the %d must-link components that hold ",
                                     "pairs; a component is never split, so use fewer folds"),
                              folds, length(ids)))
  }
  ids <- ids[sample.int(length(ids))]
  size <- tabulate(match(comp, ids), length(ids))
  load <- numeric(folds)
  fold_of <- integer(length(ids))
  for (a in seq_along(ids)) {
    f <- which.min(load)
    fold_of[a] <- f
    load[f] <- load[f] + size[a]
  }
  fold_of[match(comp, ids)]
}

# The fold of every point: labelled points dealt class by class, in random
# order, round the folds; NA for unlabelled points.
label_folds <- function(side, folds) {
  labelled <- which(!is.na(side$labels))
  if (length(labelled) < folds) {
    stop_arg("folds", sprintf("(%d) is more than the %d labelled points", folds,
                              length(labelled)))
  }
  fold <- rep(NA_integer_, side$n)
  shuffled <- labelled[sample.int(length(labelled))]
  shuffled <- shuffled[order(side$labels[shuffled])]
  fold[shuffled] <- (seq_along(shuffled) - 1L) %% folds + 1L
  fold
}

# The scores of a clustering on the held-out side information (see
# ?tune_side, "Scores and their bias").
held_out_scores <- function(cluster, side, held, train) {
  if (inherits(side, "sideclust_labels")) {
    y <- side$labels[held]
    c_held <- cluster[held]
    known <- !is.na(train$labels) & !is.na(cluster)
    major <- tapply(train$labels[known], cluster[known],
                    function(l) as.integer(names(which.max(table(l)))))
    guess <- unname(major[match(c_held, as.integer(names(major)))])
    ok <- !is.na(c_held)
    f <- if (any(ok)) f_measure(y[ok], c_held[ok]) else NA_real_
    return(c(f = f, accuracy = mean(!is.na(guess) & guess == y)))
  }
  i <- side$i[held]
  j <- side$j[held]
  must <- side$must[held]
  same <- !is.na(cluster[i]) & !is.na(cluster[j]) & cluster[i] == cluster[j]
  tp <- sum(same & must)
  denom <- 2 * tp + sum(same & !must) + sum(!same & must)
  c(f = if (denom == 0) NA_real_ else 2 * tp / denom, accuracy = mean(same == must))
}
