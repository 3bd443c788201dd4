# Methods of the base class "sideclust", shared by every fit (plot() in
# plot.R). A family's own S3 methods live in R/<family>-methods.R, and its
# predict() with the helpers it needs in R/<family>-predict.R where those are
# long.

# The method's name in print(), summary() and plot() titles: each family's
# methods file defines method_label.<class>(); a fit class without one shows
# its class.
method_label <- function(object) UseMethod("method_label")
method_label.default <- function(object) class(object)[1L]

#' Print, summarize and extract from a sideclust fit
#'
#' Every clustering in the package returns a list of class
#' `c("<method>", "sideclust")` with at least `cluster`, `k`, `iterations`,
#' `converged` and `call`. `summary()` adds cluster sizes and how many
#' constraints the clustering keeps and breaks.
#'
#' @param x,object A `sideclust` fit.
#' @param digits Significant digits to print.
#' @param ... Unused.
#' @return `print()` returns `x` invisibly; `summary()` an object of class
#'   `summary.sideclust`; `fitted()` the integer cluster memberships;
#'   `nobs()` the number of points.
#' @examples
#' fit <- dp_means(scale(iris[, 1:4]), k = 3)
#' fit
#' summary(fit)
#' head(fitted(fit))
#' nobs(fit)
#' @name sideclust-methods
NULL

#' @rdname sideclust-methods
#' @method print sideclust
#' @export
print.sideclust <- function(x, digits = 4L, ...) {
  cat(sprintf("%s clustering of %d points into %d clusters\n",
              method_label(x), length(x$cluster), x$k))
  size <- tabulate(x$cluster, x$k)
  cat("Cluster sizes:", format_sizes(size), "\n")
  print_coclusters(x, digits)
  if (!is.null(x$objective)) {
    cat(sprintf("Objective: %s after %d iterations (%s)\n",
                format(utils::tail(x$objective, 1L), digits = digits),
                x$iterations, if (isTRUE(x$converged)) "converged" else "not converged"))
  }
  if (!is.null(x$side)) {
    agree <- side_agreement_table(x$side, x$cluster)
    cat(sprintf("Side information: %s must / %s cannot pairs violated\n",
                format_ratio(agree$violated[1], agree$total[1]),
                format_ratio(agree$violated[2], agree$total[2])))
  }
  cat("\nAvailable components:\n")
  print(names(x))
  invisible(x)
}

#' @rdname sideclust-methods
#' @method summary sideclust
#' @export
summary.sideclust <- function(object, ...) {
  size <- tabulate(object$cluster, object$k)
  out <- list(
    method = method_label(object), n = length(object$cluster), k = object$k,
    size = size, iterations = object$iterations, converged = object$converged,
    objective = if (!is.null(object$objective)) utils::tail(object$objective, 1L),
    lambda = object$lambda, xi = object$xi,
    col_size = if (!is.null(object$col_cluster)) tabulate(object$col_cluster, object$k_cols),
    info = if (!is.null(object$info_y)) c(`I(C;X)` = object$info_x, `I(C;Y)` = object$info_y,
                                          `I(X;Y)` = object$info_xy),
    side = side_agreement_table(object$side, object$cluster)
  )
  class(out) <- "summary.sideclust"
  out
}

#' @rdname sideclust-methods
#' @method print summary.sideclust
#' @export
print.summary.sideclust <- function(x, digits = 4L, ...) {
  cat(sprintf("%s: %d points, %d clusters, %d iterations (%s)\n", x$method,
              x$n, x$k, x$iterations,
              if (isTRUE(x$converged)) "converged" else "not converged"))
  if (!is.null(x$objective)) {
    cat("Final objective:", format(x$objective, digits = digits), "\n")
  }
  if (!is.null(x$lambda)) cat("lambda:", format(x$lambda, digits = digits), "\n")
  if (!is.null(x$xi)) {
    cat("xi (must, cannot):", format(x$xi, digits = digits), "\n")
  }
  cat("\nCluster sizes:\n")
  print(stats::setNames(x$size, seq_along(x$size)))
  if (!is.null(x$col_size)) {
    cat("\nColumn cluster sizes:\n")
    print(stats::setNames(x$col_size, seq_along(x$col_size)))
  }
  if (!is.null(x$info)) {
    cat("\nInformation (nats):\n")
    print(x$info, digits = digits)
  }
  if (!is.null(x$side)) {
    cat("\nSide information (pairs):\n")
    print(x$side, row.names = FALSE, digits = digits)
  }
  invisible(x)
}

#' @rdname sideclust-methods
#' @export
fitted.sideclust <- function(object, ...) object$cluster

#' @rdname sideclust-methods
#' @importFrom stats nobs
#' @export
nobs.sideclust <- function(object, ...) length(object$cluster)

# Every front door ends here. The fit keeps the data it clustered (a
# reference, not a copy, while the caller's object is unchanged), so that
# predict(), plot(), augment() and logLik() work without passing it again;
# clusters are named by the rows (and columns) of the data, as in stats.
finish_fit <- function(fit, data, class) {
  check_fit_finite(fit, if (missing(class)) class(fit)[1L] else class)
  fit$data <- data
  rows <- data_names(data, 1L)
  if (length(rows) == length(fit$cluster)) names(fit$cluster) <- rows
  cols <- data_names(data, 2L)
  if (!is.null(fit$col_cluster) && length(cols) == length(fit$col_cluster)) {
    names(fit$col_cluster) <- cols
  }
  if (!missing(class)) class(fit) <- c(class, "sideclust")
  fit
}

data_names <- function(data, margin) {
  if (inherits(data, "simple_triplet_matrix")) return(data$dimnames[[margin]])
  if (is.list(data) && !is.data.frame(data)) data <- data[[1L]]
  dimnames(data)[[margin]]
}

# The data a fit was made on, for the methods called without newdata.
training_data <- function(object, arg = "newdata") {
  if (is.null(object$data)) {
    stop_arg(arg, "is missing and the fit keeps no copy of its data; pass the data")
  }
  object$data
}

# The fit of a prototype method with pairwise side information from its
# core's result `res` and its checked arguments `a` (check_prototype_fit()):
# the shared fields around the method's own `stats` (after the objective)
# and `settings` (after the seeding); warns when the run kept did not
# converge.
prototype_fit <- function(res, a, fun, call, stats = list(), settings = list()) {
  if (!res$converged) warn_not_converged(fun, a$max_iter)
  centers <- t(res$centers)
  dimnames(centers) <- list(NULL, coordinate_names(a$x))
  c(list(cluster = res$cluster, centers = centers, k = res$k,
         size = tabulate(res$cluster, res$k), objective = res$objective),
    stats,
    list(iterations = res$iterations, converged = res$converged, restarts = a$restarts,
         init = a$init),
    settings,
    list(side = a$side, call = call))
}

# The best of the `a$restarts` runs of a prototype method's glue entry point
# `core` (one run a call, see best_run()), with the method's own `extra`
# options; `score` ranks a run (lowest final objective by default). `points`:
# what the core reads, by default the transposed points.
prototype_runs <- function(a, core, extra = list(),
                           score = function(res) final_value(res$objective),
                           points = a$xt %||% points_for_core(a$x)) {  # dense: transposed by check_prototype_fit()
  options <- c(a$options, extra)
  best_run(a$restarts, function(r) core(points, a$side, options), score)
}

# Nearest centre (rows of object$centers, squared Euclidean distance) of
# every row of newdata: the prediction of the k-means-type fits (cvqe,
# cop_kmeans, lcvqe), whose new points carry no constraints.
predict_nearest_centre <- function(object, newdata) {
  data <- newdata_for_core(newdata, ncol(object$centers), sparse_ok = TRUE)
  cost <- .center_divergences_cpp(data$xt, t(object$centers), "sqeuclidean")
  nearest_centre_prediction(cost, data$x, object$centers, rows = point_names(data$x))
}

# The one shape of every predict(): `cluster` plus one n x k matrix with a
# column per cluster, `probability` (rows sum to one) for models with
# probabilities, otherwise `cost` (what the method minimizes when it assigns
# a point; `cluster` is the cheapest). Rows with nothing to go on stay NA.
cluster_prediction <- function(probability = NULL, cost = NULL, rows = NULL, cluster = NULL,
                               ...) {
  scores <- if (is.null(probability)) cost else probability
  scores <- as.matrix(scores)
  if (is.null(cluster)) {
    cluster <- if (is.null(probability)) cheapest(scores)$cluster else
      max.col(scores, ties.method = "first")
  }
  cluster <- as.integer(cluster)
  if (length(rows) != nrow(scores)) rows <- NULL
  dimnames(scores) <- list(rows, colnames(scores) %||% seq_len(ncol(scores)))
  names(cluster) <- rows
  out <- list(cluster = cluster)
  if (is.null(probability)) out$cost <- scores else out$probability <- scores
  c(out, list(...))
}
