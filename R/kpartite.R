#' Clustering with k-partite graphs (relation summary networks)
#'
#' Clusters several vertex types at once from the many-to-many relations
#' between them (Long et al.'s relation summary network): users, items and
#' tags, say, related by users x items and items x tags weight matrices.
#' Every type gets its own clustering, and every pair of related types a
#' matrix of cluster-level weights (the edges of the summary network) that
#' summarizes the relation between the vertices of the two clusters. A
#' vertex's cluster depends on the clusters of the vertices it is related
#' to, so the relations act as side information across the types.
#'
#' @section Objective:
#' Relation \eqn{r} connects types \eqn{a} and \eqn{b} by the \eqn{m_a
#' \times m_b}{m_a x m_b} weight matrix \eqn{A_r}. With indicator matrices
#' \eqn{F_t \in \{0,1\}^{m_t \times k_t}}{F_t} of the clusterings and
#' cluster-level weights \eqn{B_r}{B_r} (\eqn{k_a \times k_b}{k_a x k_b}), the
#' fit minimizes objective (61) of TR-09-12 (Section 9)
#' \deqn{L = \sum_r \hat d_\phi(A_r, F_a B_r F_b^T),}{L = sum_r d(A_r, F_a
#'   B_r F_b^T),}
#' the divergence applied entry by entry and summed over all \eqn{m_a m_b}
#' cells (zeros of sparse matrices included): squared Euclidean
#' \eqn{(a - b)^2}, or generalized I-divergence \eqn{a \log(a / b) - a + b}
#' (with \eqn{0 \log 0 = 0}; it needs non-negative weights). For fixed
#' clusterings the best \eqn{B_r} is the matrix of block means, TR-09-12's
#' (63), for both divergences (as for every Bregman divergence).
#'
#' @section Algorithm:
#' From random clusterings (every cluster gets one vertex drawn without
#' replacement, the other vertices a uniform cluster; or `start`), with
#' \eqn{B} at its block means, each iteration does TR-09-12's steps 2-4:
#' * **Reassign** (\eqn{B} fixed): the types are visited in order 1..n and
#'   every vertex of a type moves to the cluster with the lowest \eqn{L},
#'   given the current clusters of the other types (already updated for the
#'   types before it). With \eqn{B} fixed a vertex's cost does not involve the
#'   other vertices of its own type, so the order inside a type does not
#'   matter. Ties keep the current cluster, then take the lowest number.
#'   The cost comes from the vertex's total weight to each cluster of the
#'   related types, \eqn{O(nnz + \sum m_a k_a k_b)} per iteration.
#' * **Update** \eqn{B} to the block means (63).
#' * **Stop** when no vertex moved or \eqn{L} fell by at most `tol` times
#'   its value (TR-09-12's \eqn{L_{new} = L_{current}}, with a tolerance
#'   for rounding), or after `max_iter` iterations (`converged = FALSE`, a
#'   warning).
#'
#' Both steps never increase \eqn{L}. At a run that stopped because no
#' vertex moved, no single vertex can move to another cluster and lower
#' \eqn{L} at the final \eqn{B} (a local optimum with respect to the
#' algorithm's moves; moving a vertex and re-fitting \eqn{B} can still lower
#' it). Of `restarts` runs the lowest final \eqn{L} is kept.
#'
#' @section Decisions where TR-09-12 is silent:
#' * TR-09-12 writes (61) over pairs \eqn{i < j}, one relation per pair of
#'   types. Here each relation names its two types in `types`, so several
#'   relations may connect the same pair (each with its own \eqn{B}), and
#'   the orientation of a matrix (which type indexes its rows) is free.
#' * (63) needs every cluster non-empty. A cluster that becomes empty keeps
#'   its row of \eqn{B} (which leaves \eqn{L} unchanged) and may be refilled
#'   later; in a `start` partition that leaves a cluster empty, its weights
#'   start at the relation's overall mean. Clusters empty at the end are
#'   dropped, so `k` may end below the numbers asked for.
#' * Cluster numbers carry no meaning, so the final clusters of every type
#'   are numbered by first appearance (its first vertex is in cluster 1, the
#'   next vertex not in cluster 1 in cluster 2, ...), as [sib()] and [itcc()]
#'   number theirs, and the rows and columns of `cluster_relations` are
#'   permuted alike. A `start` partition is therefore returned renumbered
#'   even when no vertex moves.
#' * Step 2's costs use \eqn{B} as it stood at the start of the step, and
#'   each type's new clusters at once when the next type is reassigned, so
#'   that the step provably lowers \eqn{L}.
#' * Relation weights are TR-09-12's: all relations count equally.
#'
#' With two types and one relation this is block (co-)clustering of that
#' matrix, rows and columns at once, with block means (squared Euclidean:
#' the checkerboard model).
#'
#' @param relations A list of relation matrices, each a numeric matrix,
#'   data.frame or sparse `Matrix` (kept sparse), or a single matrix (two
#'   types). Zero entries are zero weights.
#' @param k Number of clusters of every type: one whole number per type
#'   (names become the type names) or one number for all types.
#' @param types Which two types each relation connects: a list of length-2
#'   vectors such as `list(c(1, 2), c(2, 3))`, or a two-column matrix, one
#'   row per relation; the first type indexes the matrix's rows, the second
#'   its columns. Types are numbered 1..n and each must appear in some
#'   relation. `NULL` (default) is the chain 1-2, 2-3, ..., i.e. relation
#'   \eqn{r} between types \eqn{r} and \eqn{r + 1}.
#' @param divergence `"euclidean"` (squared Euclidean) or `"idivergence"`
#'   (generalized I-divergence, for non-negative weights such as counts).
#' @param restarts Number of runs from random starts; the lowest final
#'   objective is kept. Draws use R's generator, so [set.seed()] reproduces
#'   the fit.
#' @param max_iter Maximum number of iterations per run.
#' @param tol Relative decrease of the objective below which a run stops.
#' @param start Optional list of start partitions, one integer vector per
#'   type (clusters 1..k), used by the first run.
#' @param verbose Print the objective after every iteration.
#' @return An object of class `c("kpartite_clustering", "sideclust")`, a list with
#'   \item{cluster}{the clusters of the first type's vertices, `1..k[1]`.}
#'   \item{clusters}{named list, the integer clusters of every type, each
#'     numbered by first appearance (the first vertex of every type is in
#'     cluster 1).}
#'   \item{k}{named integer vector, the (non-empty) clusters per type.}
#'   \item{size}{named list of cluster sizes per type.}
#'   \item{cluster_relations}{list of the cluster-level weight matrices
#'     \eqn{B_r} (\eqn{k_a \times k_b}{k_a x k_b}), one per relation, named
#'     like `"type1-type2"`: the edges of the summary network.}
#'   \item{types}{the relations' types (matrix with columns `rows`, `cols`).}
#'   \item{n_vertices}{vertices per type.}
#'   \item{objective}{\eqn{L} at the start and after every iteration of the
#'     run kept.}
#'   \item{relation_objective}{each relation's term of the final \eqn{L}.}
#'   \item{restart_objective}{final \eqn{L} of every run.}
#'   \item{iterations, converged}{iterations of the run kept and whether it
#'     met the stopping rule before `max_iter`.}
#'   \item{divergence, restarts, max_iter, tol, call}{the settings used.}
#' @references
#' Long, B., Wu, X., Zhang, Z. and Yu, P. S. (2006). Unsupervised learning on
#' k-partite graphs. ACM SIGKDD International Conference on Knowledge
#' Discovery and Data Mining, 317-326.
#'
#' Section 9 ("Clustering with k-partite graphs") of "Clustering constrained by dependencies", Virginia Tech technical report TR-09-12 (2009): objective
#' (61), the optimal weights (63) and the exchange algorithm.
#' @seealso [itcc()] and [cross_associations()] for co-clustering one matrix;
#'   [plot.kpartite_clustering()] draws the summary network; [predict.kpartite_clustering()]
#'   assigns new vertices.
#' @examples
#' # three types (30 users, 20 items, 10 tags) with planted blocks
#' set.seed(1)
#' users <- rep(1:3, each = 10); items <- rep(1:2, each = 10); tags <- rep(1:2, each = 5)
#' rate_ui <- rbind(c(6, 1), c(1, 6), c(3, 3))
#' rate_it <- rbind(c(6, 1), c(1, 6))
#' ui <- matrix(rpois(30 * 20, rate_ui[users, items]), 30, 20)
#' it <- matrix(rpois(20 * 10, rate_it[items, tags]), 20, 10)
#' fit <- kpartite_clustering(list(ui, it), k = c(users = 3, items = 2, tags = 2),
#'                            divergence = "idivergence", restarts = 5)
#' fit
#' table(fit$clusters$users, users)
#' fit$cluster_relations
#' plot(fit)
#' @export
kpartite_clustering <- function(relations, k, types = NULL,
                                divergence = c("euclidean", "idivergence"),
                                restarts = 10L, max_iter = 100L, tol = 1e-10,
                                start = NULL, verbose = FALSE) {
  call <- match.call()
  divergence <- match_choice(divergence, c("euclidean", "idivergence"), "divergence")
  relations <- kp_relation_list(relations)
  types <- kp_check_types(types, length(relations))
  csrs <- lapply(seq_along(relations), function(r) {
    kp_relation_csr(relations[[r]], sprintf("relations[[%d]]", r), divergence)
  })
  m <- kp_vertex_counts(csrs, types)
  k <- kp_check_k(k, m)
  restarts <- check_count(restarts, "restarts")
  max_iter <- check_count(max_iter, "max_iter")
  tol <- check_number(tol, "tol", lower = 0)
  verbose <- check_flag(verbose, "verbose")
  start0 <- kp_check_start(start, m, k)
  res <- best_recorded_run(restarts, function(o) .kpartite_cpp(csrs, o),
                           list(row_type = types[, 1L], col_type = types[, 2L],
                                n_vertices = m, k = k, divergence = divergence,
                                max_iter = max_iter, tol = tol, start = start0,
                                verbose = verbose),
                           "restart_objective", blank = list(start = kp_check_start(NULL, m, k)))
  if (!res$converged) {
    warn_not_converged("kpartite_clustering", max_iter)
  }
  fit <- kp_result(res, types, m, k, call,
                   settings = list(divergence = divergence, restarts = restarts,
                                   max_iter = max_iter, tol = tol))
  finish_fit(fit, relations, "kpartite_clustering")
}

# The fit: empty clusters dropped, the others numbered by first appearance
# within each type (as sib() and itcc() number theirs) with the rows and
# columns of the weight matrices permuted alike; weight matrices named by
# their types. `kept[[t]][j]` is the core's number of type t's new cluster j.
kp_result <- function(res, types, m, k, call, settings) {
  type_names <- names(k)
  kept <- lapply(seq_along(k), function(t) unique(res$clusters[[t]]))
  clusters <- lapply(seq_along(k), function(t) match(res$clusters[[t]], kept[[t]]))
  names(clusters) <- type_names
  k_final <- stats::setNames(lengths(kept), type_names)
  cluster_relations <- lapply(seq_len(nrow(types)), function(r) {
    a <- types[r, 1L]
    b <- types[r, 2L]
    res$summary[[r]][kept[[a]], kept[[b]], drop = FALSE]
  })
  names(cluster_relations) <- paste(type_names[types[, 1L]], type_names[types[, 2L]], sep = "-")
  rownames(types) <- names(cluster_relations)
  fit <- c(list(cluster = clusters[[1L]], clusters = clusters, k = k_final,
                size = lapply(seq_along(k), function(t) {
                  stats::setNames(tabulate(clusters[[t]], k_final[t]), NULL)
                }),
                cluster_relations = cluster_relations, types = types,
                n_vertices = stats::setNames(m, type_names), objective = res$objective,
                relation_objective = stats::setNames(res$relation_objective,
                                                     names(cluster_relations)),
                restart_objective = res$restart_objective, iterations = res$iterations,
                converged = res$converged),
           settings, list(call = call))
  names(fit$size) <- type_names
  fit
}
