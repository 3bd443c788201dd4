# New data of the predict() methods: matched to the fit's columns by name,
# and scored stably when they lie far outside the fitted data.

#' New data in predict(): columns by name, and points far out
#'
#' Every `predict()` method of the package reads its `newdata` the same way.
#'
#' @section Columns by name:
#' A fit keeps the data it clustered, and with them their column names. When
#' those names exist (all present and distinct), the columns of `newdata` (a
#' data frame, a matrix with column names or a sparse `Matrix` with them) are
#' matched to them by name, in any order. A column the fit has but `newdata`
#' lacks, or one `newdata` has but the fit does not know, is an error that
#' names them; so are duplicated names. `newdata` without column names is
#' taken column by column in the fitted order, with a warning saying so. A fit
#' of data without column names takes the columns of `newdata` by position,
#' whatever their names.
#'
#' Where new entities are not rows of feature columns, the same rule applies
#' to what stands in for the columns: new columns of a co-clustering fit
#' (`dimension = 2`) are matched to the fitted rows by row name; the
#' matrices of new vertices of [kpartite_clustering()] to the other type's
#' vertices; slices of new entities of [multiway_clustering()] to the other
#' dimensions' names; and the cross-kernel of a `"precomputed"`
#' [kernel_rdp_means()] fit to the training points.
#'
#' @section Points far outside the fitted data:
#' For points far from every cluster (new data scaled by 1e300, say) the
#' densities and squared distances overflow, but which cluster is nearest or
#' most probable is still defined. The Gaussian models ([cec()],
#' [cec_ib()], [constrained_mixture()]), the prototype methods ([cvqe()],
#' [lcvqe()], [cop_kmeans()], [mpck_means()], [disparate_kmeans()], the
#' linear kernel of [kernel_rdp_means()]), [ib_kmeans()] and
#' [discriminative_clustering()] score such rows from the point divided by a
#' power of two, keeping the quadratic, linear and constant parts of each
#' log density apart: the probabilities are exact where they are
#' representable, and the costs, which overflow, stay `Inf`. The TVClust fits
#' ([tvclust()], both methods) give such rows cluster `NA` with a warning that
#' names them. Methods whose data checks bound the scale ([rdp_means()],
#' [dp_means()], [multiway_clustering()], [kpartite_clustering()]) stop with
#' an error that says so. No method returns `NA` clusters or `NaN`
#' probabilities without a warning.
#' @examples
#' x <- as.data.frame(scale(iris[, 1:4]))
#' set.seed(1)
#' fit <- cec(x, 3, restarts = 2)
#' # columns in another order: the same clusters
#' identical(predict(fit, x[, 4:1])$cluster, predict(fit, x)$cluster)
#' # a renamed column is an error naming it
#' try(predict(fit, setNames(x, c("a", names(x)[-1]))))
#' # far out the most probable cluster is still defined
#' predict(fit, x[1:3, ] * 1e300)$cluster
#' @name predict-newdata
NULL

# The names along `margin` of the data a fit was made on (the fit keeps that
# data, see finish_fit()); without it, the names of its centres' columns.
# NULL unless every name is present and unique: only such names can be matched.
fitted_names <- function(object, margin = 2L) {
  nms <- if (!is.null(object$data)) data_names(object$data, margin) else
    if (margin == 2L && is.matrix(object$centers)) colnames(object$centers)
  if (usable_names(nms)) nms else NULL
}

usable_names <- function(nms) {
  !is.null(nms) && !anyNA(nms) && all(nzchar(nms)) && !anyDuplicated(nms)
}

# The names of newdata along `margin`; NULL when it has none.
newdata_names <- function(newdata, margin) {
  if (is.data.frame(newdata)) {
    return(if (margin == 2L) names(newdata) else if (.row_names_info(newdata) > 0L) rownames(newdata))
  }
  if (inherits(newdata, "simple_triplet_matrix")) return(newdata$dimnames[[margin]])
  dimnames(newdata)[[margin]]
}

newdata_extent <- function(newdata, margin) {
  if (inherits(newdata, "simple_triplet_matrix")) return(c(newdata$nrow, newdata$ncol)[margin])
  dim(newdata)[margin]
}

# `newdata` with its columns (margin 1: its rows) in the order of the fit's
# `fitted` names. When the fit's data were named, new data are matched by
# name: in any order, an error naming what is missing or unknown; without
# names they are taken in order, with a warning. A fit of unnamed data takes
# new columns by position. Data already in the fit's order are returned as
# they are (no copy). A vector (one point, or one column of points,
# depending on the method) is reordered only when its names are exactly the
# fitted ones in another order.
match_newdata_columns <- function(newdata, object, margin = 2L, arg = "newdata",
                                  fitted = fitted_names(object, margin)) {
  if (is.null(fitted) || missing(newdata) || is.null(newdata)) return(newdata)
  if (is.atomic(newdata) && is.null(dim(newdata))) {
    nms <- names(newdata)
    if (length(nms) == length(fitted) && !anyDuplicated(nms) && setequal(nms, fitted)) {
      return(newdata[fitted])
    }
    return(newdata)
  }
  what <- if (margin == 2L) "column" else "row"
  given <- newdata_names(newdata, margin)
  if (is.null(given)) {
    if (identical(newdata_extent(newdata, margin), length(fitted))) {
      warning(sprintf("`%s` has no %s names; its %ss are taken to be the fit's (%s) in that order",
                      arg, what, what, name_list(fitted)), call. = FALSE)
    }
    return(newdata)
  }
  given <- as.character(given)
  if (identical(given, fitted)) return(newdata)
  if (anyDuplicated(given)) {
    stop_arg(arg, sprintf("has duplicated %s names (%s); they cannot be matched to the fit's",
                          what, name_list(unique(given[duplicated(given)]))))
  }
  absent <- setdiff(fitted, given)
  unknown <- setdiff(given, fitted)
  if (length(absent) || length(unknown)) {
    why <- paste(c(
      if (length(absent)) sprintf("lacks the fit's %s%s %s", what, plural(absent), name_list(absent)),
      if (length(unknown)) sprintf("has %s the fit does not know: %s",
                                   if (length(unknown) == 1L) paste("a", what) else paste0(what, "s"),
                                   name_list(unknown))),
      collapse = " and ")
    if (length(given) != length(fitted)) {
      why <- sprintf("has %d %ss but the fit has %d: it %s", length(given), what, length(fitted), why)
    }
    stop_arg(arg, why, sprintf(" (%ss are matched by name)", what))
  }
  reorder_newdata(newdata, match(fitted, given), margin)
}

plural <- function(v) if (length(v) == 1L) "" else "s"

name_list <- function(nms, max = 8L) list_with_more(paste0("`", nms, "`"), max)

# newdata with its entries along `margin` in the order `idx` (matrices,
# data frames, sparse matrices, arrays).
reorder_newdata <- function(newdata, idx, margin) {
  if (inherits(newdata, "simple_triplet_matrix")) newdata <- as_sparse_matrix(newdata)
  if (is.data.frame(newdata)) {
    return(if (margin == 2L) newdata[, idx, drop = FALSE] else newdata[idx, , drop = FALSE])
  }
  index <- lapply(dim(newdata), seq_len)
  index[[margin]] <- idx
  do.call(`[`, c(list(newdata), index, list(drop = FALSE)))
}

# Rows of a prediction that could not be scored: a warning naming them, and NA
# (cluster and every score of the row) instead of NaN or a made-up cluster.
# `bad`: logical, one per row.
mark_unscored <- function(out, bad, why = "could not be scored in double precision") {
  if (!any(bad)) return(out)
  rows <- which(bad)
  warning(sprintf("`newdata` %s %s; %s NA", describe_positions(rows, if (length(rows) == 1L) "row" else "rows"),
                  why, if (length(rows) == 1L) "its cluster is" else "their clusters are"),
          call. = FALSE)
  out$cluster[rows] <- NA_integer_
  for (el in c("probability", "cost", "new")) {
    if (is.matrix(out[[el]])) out[[el]][rows, ] <- NA else if (length(out[[el]])) out[[el]][rows] <- NA
  }
  out
}

# Logits of the form offsets[c] - 0.5 (x - mu_c)' A_c (x - mu_c) (one row
# per row of x, one column per cluster; `precisions` a list of k p x p
# matrices A_c, or one for all) for rows far from the centres, where the
# quadratic forms overflow or x - mu_c rounds to x. With each row divided by
# a power of two r (exactly), the logit is r^2 q_c + r l_c + k_c with
#   q_c = -0.5 y' A_c y,  l_c = y' A_c mu_c,  k_c = offsets[c] - 0.5 mu_c' A_c mu_c,
# y = x / r: three terms of very different size kept apart, so that the
# centres still count when the quadratic terms tie (a shared covariance).
# Returns list(d, cluster): d the logits minus the row's largest (0 for the
# best, -Inf where the difference overflows), cluster the best (first of ties).
scaled_quadratic_logits <- function(x, centers, precisions, offsets) {
  k <- nrow(centers)
  n <- nrow(x)
  if (!is.list(precisions)) precisions <- rep(list(precisions), k)
  big <- pmax(apply(abs(x), 1L, max), max(abs(centers)), 1)
  r <- 2^pmin(ceiling(log2(big)), 1023)
  y <- x / r
  q <- l <- matrix(0, n, k)
  kc <- numeric(k)
  for (c in seq_len(k)) {
    a <- precisions[[c]]
    am <- drop(a %*% centers[c, ])
    q[, c] <- -0.5 * rowSums((y %*% a) * y)
    l[, c] <- drop(y %*% am)
    kc[c] <- offsets[c] - 0.5 * sum(centers[c, ] * am)
  }
  kc <- matrix(kc, n, k, byrow = TRUE)
  # the best by q, then l, then k (lexicographic: each term outweighs the next)
  best <- integer(n)
  for (i in seq_len(n)) {
    cand <- which(q[i, ] == max(q[i, ]))
    cand <- cand[l[i, cand] == max(l[i, cand])]
    best[i] <- cand[which.max(kc[i, cand])]
  }
  top <- cbind(seq_len(n), best)
  part <- function(v, scale) {
    dv <- v - v[top]
    out <- dv * scale
    out[dv == 0] <- 0  # no 0 * Inf
    out
  }
  d <- part(q, r^2) + part(l, r) + part(kc, 1)
  d[is.nan(d)] <- -Inf
  # rounding can leave another cluster marginally ahead: renormalize to the largest
  top_d <- apply(d, 1L, max)
  d <- d - top_d
  list(d = d, cluster = max.col(d, ties.method = "first"))
}

# Probabilities from scaled_quadratic_logits(): exp(d), normalized.
scaled_logit_probabilities <- function(s) {
  w <- exp(s$d)
  w / rowSums(w)
}

# Rows whose log weights came out unusable although their values are finite
# (new data are checked finite before scoring, so: rows far out, whose
# quadratic forms overflowed): NaN or +Inf anywhere, or -Inf everywhere.
overflowed_logits <- function(logw) {
  if (!anyNA(logw) && all(is.finite(range(logw)))) return(logical(nrow(logw)))
  rowSums(is.na(logw) | logw == Inf) > 0 | rowSums(logw == -Inf) == ncol(logw)
}

# The same for costs (lower is better): NaN or -Inf anywhere, +Inf everywhere.
overflowed_costs <- function(cost) {
  if (!anyNA(cost) && all(is.finite(range(cost)))) return(logical(nrow(cost)))
  rowSums(is.na(cost) | cost == -Inf) > 0 | rowSums(cost == Inf) == ncol(cost)
}

# The new data of a predict() method: the fitted data when `newdata` is
# missing, otherwise `newdata` matched to the fit's columns by name.
prediction_data <- function(object, newdata, margin = 2L) {
  if (missing(newdata)) return(training_data(object))
  match_newdata_columns(newdata, object, margin)
}

# Rows of a dense x so far from the centres that x - mu rounds away most of
# mu (beyond 1e8 times the centres' scale) or squared distances could
# overflow: they go through scaled_quadratic_logits().
far_rows <- function(x, centers) {
  if (!is.matrix(x)) x <- as.matrix(x)
  limit <- min(1e8 * max(1, abs(centers)), sqrt(.Machine$double.xmax / (64 * ncol(x))))
  r <- range(x)  # one pass and no copy: the common case ends here
  if (max(-r[1L], r[2L]) <= limit) return(logical(nrow(x)))
  apply(abs(x), 1L, max) > limit
}

# Memberships of rows of x under Gaussian components (log weights, k x p
# centres, p x p x k covariances) for rows far out: list(probability,
# cluster), computed from scaled_quadratic_logits().
gaussian_far_memberships <- function(x, log_weights, centers, covariances) {
  p <- ncol(centers)
  k <- nrow(centers)
  parts <- lapply(seq_len(k), function(c) {
    r <- chol(matrix(covariances[, , c], p, p))
    list(precision = chol2inv(r),
         offset = log_weights[c] - 0.5 * (p * log(2 * pi) + 2 * sum(log(diag(r)))))
  })
  s <- scaled_quadratic_logits(x, centers, lapply(parts, `[[`, "precision"),
                               vapply(parts, `[[`, 0, "offset"))
  list(probability = scaled_logit_probabilities(s), cluster = s$cluster)
}

# The nearest centre (squared Euclidean distance, plus an optional offset
# per centre) of rows of x far out: the costs themselves overflow, the order
# of the distances does not.
far_nearest_centre <- function(x, centers, offsets = numeric(nrow(centers)), precision = NULL) {
  precision <- precision %||% diag(2, ncol(centers))
  scaled_quadratic_logits(as.matrix(x), centers, precision, -offsets)$cluster
}

# The prediction of a nearest-centre rule from its n x k `cost` on points
# `x` (dense, or sparse points): rows far out get their cluster from
# far_nearest_centre() (their costs stay as computed, Inf where they
# overflow); ties and the rest as cluster_prediction().
nearest_centre_prediction <- function(cost, x, centers, rows, offsets = numeric(nrow(centers)),
                                      precision = NULL) {
  dense <- if (inherits(x, "sideclust_sparse_points")) NULL else x
  bad <- overflowed_costs(cost) | if (is.null(dense)) far_sparse_rows(x, centers) else far_rows(dense, centers)
  if (!any(bad)) return(cluster_prediction(cost = cost, rows = rows))
  if (is.null(dense)) dense <- sparse_rows_dense(x, which(bad)) else dense <- dense[bad, , drop = FALSE]
  scored <- cost
  scored[bad, ] <- 0
  cluster <- max.col(-scored, ties.method = "first")
  cluster[bad] <- far_nearest_centre(dense, centers, offsets, precision)
  cluster_prediction(cost = cost, rows = rows, cluster = cluster)
}

# far_rows() of sparse points.
far_sparse_rows <- function(sp, centers) {
  far <- logical(sp$n)
  if (length(sp$val) == 0L) return(far)
  limit <- min(1e8 * max(1, abs(centers)), sqrt(.Machine$double.xmax / (64 * sp$p)))
  if (max(abs(range(sp$val))) <= limit) return(far)
  hit <- abs(sp$val) > limit
  if (any(hit)) far[unique(csr_rows(sp$ptr, which(hit) - 1L))] <- TRUE
  far
}

# Dense copies of some rows of sparse points (for the few rows far out).
sparse_rows_dense <- function(sp, rows) {
  out <- matrix(0, length(rows), sp$p)
  for (a in seq_along(rows)) {
    span <- seq_len(sp$ptr[rows[a] + 1L] - sp$ptr[rows[a]]) + sp$ptr[rows[a]]
    out[a, sp$idx[span] + 1L] <- sp$val[span]
  }
  out
}
