#' Assign new vertices to the clusters of a k-partite clustering
#'
#' New vertices of one type carry only their own rows of the relations that
#' involve that type. With the fit held fixed (the clusters of the other
#' types and the cluster-level weights \eqn{B_r}), each goes to the cluster
#' \eqn{p} of its type with the lowest summed divergence
#' \deqn{\sum_r \sum_l d(a_{rl}, B_r[p, c(l)])}{sum_r sum_l d(a_rl, B_r[p,
#'   c(l)])}
#' over the relations \eqn{r} involving the type and the vertices \eqn{l}
#' at their other end (of cluster \eqn{c(l)}), with the fit's divergence
#' (zeros of sparse matrices included as zero weights). This is the cost of
#' the reassignment step of [kpartite_clustering()]. Ties go to the lowest
#' cluster number; under the I-divergence a vertex with weight in a block
#' whose \eqn{B} is 0 cannot go there (infinite divergence), and one that
#' fits no cluster gets cluster `NA` and divergence `Inf`, with a warning. Clusters that the
#' fit dropped as empty are not candidates.
#'
#' @section Predicting the training vertices:
#' With \eqn{B} fixed a vertex's cost does not involve the other vertices
#' of its type, so predicting the clustered relations' rows of type `type`
#' performs the algorithm's reassignment step for that type at the fit.
#' When the run kept stopped because no vertex moved in its last iteration
#' (with `tol = 0` and `converged = TRUE`, unless a last move lowered the
#' objective by less than rounding), the fit is a fixed point of that step
#' and \eqn{B} its block means: `predict()` returns `fit$clusters[[type]]`,
#' except where a vertex has (up to rounding) equal costs in two clusters
#' (the algorithm keeps its cluster, `predict()` takes the lowest number).
#' After a run that stopped by `tol` or `max_iter` some vertices may
#' still move.
#'
#' @param object A [kpartite_clustering()] fit.
#' @param newdata The new vertices' weights: a list with one matrix per
#'   relation that involves type `type`, in the order of `object$types`
#'   (the relations named `names(object$cluster_relations)` that contain
#'   the type). Every matrix has one row per new vertex, whichever side of
#'   the relation the type is on, and one column per vertex of the other
#'   type of that relation (in the fit's order), so for a relation where
#'   `type` indexes the columns, give the transposed new columns. A single
#'   matrix stands for a list of one. Dense or sparse `Matrix`.
#'   Each matrix's columns are matched to the other type's vertices by name, see
#'   [predict-newdata].
#' @param type The type of the new vertices: its number or its name
#'   (`names(object$k)`).
#' @param ... Unused.
#' @return A list with `cluster`, the cluster of each new vertex (integer,
#'   `1..object$k[type]`), and `divergence`, its summed divergence to the
#'   block values of that cluster over all the relations given.
#' @seealso [kpartite_clustering()].
#' @examples
#' set.seed(1)
#' users <- rep(1:3, each = 12); items <- rep(1:2, each = 10); tags <- rep(1:2, each = 5)
#' rate_ui <- rbind(c(6, 1), c(1, 6), c(3, 3))
#' rate_it <- rbind(c(6, 1), c(1, 6))
#' ui <- matrix(rpois(36 * 20, rate_ui[users, items]), 36, 20)
#' it <- matrix(rpois(20 * 10, rate_it[items, tags]), 20, 10)
#' train <- rep(rep(c(TRUE, FALSE), c(10, 2)), 3)  # 10 of every 12 users
#' fit <- kpartite_clustering(list(ui[train, ], it), k = c(users = 3, items = 2, tags = 2),
#'                            divergence = "idivergence", restarts = 3)
#' # new users: their rows of the users x items relation
#' new_users <- predict(fit, list(ui[!train, ]), type = "users")
#' table(new_users$cluster, users[!train])
#' # items are in both relations: rows of t(users x items) and of items x tags
#' new_items <- c(1, 2, 15, 16)
#' predict(fit, list(t(ui[train, new_items]), it[new_items, ]), type = "items")$cluster
#' @export
predict.kpartite_clustering <- function(object, newdata, type = 1L, ...) {
  ty <- kp_predict_type(type, names(object$k))
  rel <- which(object$types[, 1L] == ty | object$types[, 2L] == ty)
  if (missing(newdata)) {
    # the fitted vertices of this type, as rows of every relation they are in
    relations <- training_data(object)
    newdata <- lapply(rel, function(r) {
      if (object$types[r, 1L] == ty) relations[[r]] else t(relations[[r]])
    })
  }
  data <- kp_predict_newdata(newdata, object, ty, rel)
  n_new <- data[[1L]]$n_rows
  cost <- matrix(0, n_new, object$k[ty])
  for (i in seq_along(rel)) {
    r <- rel[i]
    t_rows <- object$types[r, 1L] == ty
    o <- object$types[r, if (t_rows) 2L else 1L]
    b <- object$cluster_relations[[r]]
    if (!t_rows) b <- t(b)                 # clusters of ty x clusters of o
    csr <- data[[i]]
    row_e <- csr_rows(csr$ptr, seq_along(csr$idx) - 1L)
    # each new vertex's total weight to every cluster of the other type
    s <- entry_sums(row_e, object$clusters[[o]][csr$idx + 1L], csr$val, n_new, object$k[o])
    cost <- cost + kp_vertex_costs(s, csr$val, row_e, n_new, b, object$size[[o]],
                                   object$divergence)
  }
  cluster_prediction(cost = pmax(cost, 0))
}

# Summed divergence of every new vertex (rows) to every cluster (columns)
# over one relation: with S the vertex's weight sums per cluster q of the
# other type and n_q those clusters' sizes, Euclidean sum a^2 - 2 S B^T +
# n B^2, I-divergence sum (a log a - a) - S log(B)^T + n B, the expansion
# the core's reassignment uses (kpartite_blocks.h) plus the vertex's own
# constant so that the value is the divergence itself.
kp_vertex_costs <- function(s, val, row_e, n_new, b, n_other, divergence) {
  size_term <- rep(drop(if (divergence == "euclidean") b^2 %*% n_other else b %*% n_other),
                   each = n_new)
  if (divergence == "euclidean") {
    own <- entry_sums(row_e, 1L, val^2, n_new, 1L)
    return(drop(own) - 2 * s %*% t(b) + size_term)
  }
  own <- entry_sums(row_e, 1L, val * log(val) - val, n_new, 1L)
  cost <- drop(own) - s %*% t(ifelse(b > 0, log(b), 0)) + size_term
  # weight in a block of weight 0: a log(a / 0) is infinite
  cost[(s > 0) %*% t(b <= 0) > 0] <- Inf
  cost
}

# The type of the new vertices as a number, from a number or a type name.
kp_predict_type <- function(type, type_names) {
  n <- length(type_names)
  if (is.character(type) && length(type) == 1L && type %in% type_names) {
    return(match(type, type_names))
  }
  if (!(is.numeric(type) && length(type) == 1L && !is.na(type) && type == round(type) &&
        type >= 1 && type <= n)) {
    stop_arg("type", sprintf("must be a type number 1..%d or one of %s", n,
                             paste0('"', type_names, '"', collapse = ", ")))
  }
  as.integer(type)
}

# `newdata` as one row-compressed matrix per relation `rel` of type ty, each
# with one row per new vertex (the same number in all) and one column per
# vertex of the relation's other type.
kp_predict_newdata <- function(newdata, object, ty, rel) {
  if (is.matrix(newdata) || is.data.frame(newdata) || inherits(newdata, "Matrix")) {
    newdata <- list(newdata)
  }
  type_name <- names(object$k)[ty]
  rel_names <- names(object$cluster_relations)[rel]
  if (!is.list(newdata) || length(newdata) != length(rel)) {
    stop_arg("newdata", sprintf(
      "must be a list of %d matri%s, one per relation of type \"%s\" (%s), the new vertices as rows; got %s",
      length(rel), if (length(rel) == 1L) "x" else "ces", type_name,
      paste(rel_names, collapse = ", "),
      if (is.list(newdata)) sprintf("a list of %d", length(newdata)) else class(newdata)[1L]))
  }
  data <- lapply(seq_along(rel), function(i) {
    arg <- sprintf("newdata[[%d]]", i)
    r <- rel[i]
    o <- object$types[r, if (object$types[r, 1L] == ty) 2L else 1L]
    # the other type's vertices by name, where the fitted relation had names
    fitted <- if (!is.null(object$data)) newdata_names(object$data[[r]], if (object$types[r, 1L] == ty) 2L else 1L)
    nd <- match_newdata_columns(newdata[[i]], object, arg = arg,
                                fitted = if (usable_names(fitted)) fitted)
    csr <- kp_relation_csr(nd, arg, object$divergence)
    if (csr$n_cols != object$n_vertices[o]) {
      stop_arg(arg, sprintf("has %d columns but type \"%s\" has %d vertices (relation %s; new vertices are rows)",
                            csr$n_cols, names(object$k)[o], object$n_vertices[o], rel_names[i]))
    }
    csr
  })
  n_new <- vapply(data, function(csr) csr$n_rows, integer(1))
  bad <- which(n_new != n_new[1L])
  if (length(bad) > 0L) {
    stop_arg(sprintf("newdata[[%d]]", bad[1L]), sprintf(
      "has %d rows but `newdata[[1]]` has %d; every matrix needs one row per new vertex",
      n_new[bad[1L]], n_new[1L]))
  }
  data
}
