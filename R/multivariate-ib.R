#' Multivariate information bottleneck: parallel and symmetric
#'
#' Two formulations of the multivariate information bottleneck (Friedman,
#' Mosenzon, Slonim & Tishby) on a joint distribution \eqn{p(x, y)} (or a
#' matrix of co-occurrence counts, normalized to sum 1), each with a hard
#' sequential optimizer in the style of [sib()] (the default) and the soft
#' iterative updates in the style of [ib()]:
#'
#' * `parallel_ib()` finds \eqn{m} = `length(k)` clusterings \eqn{C_1,
#'   \dots, C_m} of the rows (\eqn{G_{in}}: \eqn{X \to C_j}{X -> C_j}) that
#'   together keep information about the columns (\eqn{G_{out}}: \eqn{C_1,
#'   \dots, C_m \to Y}{C_1, ..., C_m -> Y}), so that each captures a
#'   different aspect of what \eqn{X} says about \eqn{Y}.
#' * `symmetric_ib()` clusters the rows into \eqn{C_X} and the columns into
#'   \eqn{C_Y} (\eqn{G_{in}}: \eqn{X \to C_X}{X -> C_X}, \eqn{Y \to
#'   C_Y}{Y -> C_Y}), each keeping information about the other
#'   (\eqn{G_{out}}: \eqn{C_X \to C_Y}{C_X -> C_Y}).
#'
#' Natural logarithms (nats) throughout.
#'
#' @section Functional and the meaning of beta:
#' TR-09-12's functional (20) is \eqn{L = I^{G_{in}} - \beta
#' I^{G_{out}}}{L = I_Gin - beta I_Gout}, to be minimized; both optimizers
#' maximize the equivalent (23), \eqn{L_{max} = I^{G_{out}} - \beta^{-1}
#' I^{G_{in}}}{L_max = I_Gout - I_Gin / beta}, which stays finite in the hard
#' limit. Terms of \eqn{I^{G_{in}}}{I_Gin} that do not depend on the
#' clusterings (the data's own \eqn{I(X;Y)}) are left out. For hard
#' clusterings \eqn{I(C;X) = H(C)}, so
#' * parallel: \eqn{L_{max} = I(C_1, \dots, C_m; Y) - \beta^{-1} \sum_j
#'   H(C_j)}{L_max = I(C_1..C_m; Y) - sum_j H(C_j) / beta}, where \eqn{(C_1,
#'   \dots, C_m)} is the product partition (each row in the cell given by
#'   its \eqn{m} clusters);
#' * symmetric: \eqn{L_{max} = I(C_X; C_Y) - \beta^{-1} [H(C_X) +
#'   H(C_Y)]}{L_max = I(C_X; C_Y) - (H(C_X) + H(C_Y)) / beta}.
#'
#' `beta` is TR-09-12's \eqn{\beta > 0}: the weight of preserved
#' information against compression. The default `beta = Inf` is the hard
#' limit of [sib()]: the compression terms vanish and only the preserved
#' information counts (for `symmetric_ib()` this is the objective of
#' [itcc()]). With a finite `beta`, a point joins the bigger clusters more
#' readily and clusters may empty (then `k` is smaller than asked); one
#' cluster per clustering is optimal for \eqn{\beta \le 1} (parallel, as
#' \eqn{I(C_1, \dots, C_m; Y) \le \sum_j H(C_j)}{I(C_1..C_m; Y) <= sum_j
#' H(C_j)}) and \eqn{\beta \le 2}{beta <= 2} (symmetric, as \eqn{I(C_X;
#' C_Y) \le [H(C_X) + H(C_Y)] / 2}{I(C_X; C_Y) <= (H(C_X) + H(C_Y)) / 2}).
#'
#' @section Algorithm:
#' The sequential method (the default): from a random partition (or
#' `start`), every row in random order is drawn out of its cluster and put
#' back where \eqn{L_{max}} is highest, i.e. where TR-09-12's merge cost
#' (25)-(26) of the singleton \eqn{\{x\}}{{x}} into a cluster is least;
#' passes repeat until one moves nothing (`converged`), so at the end no
#' single move of one point in one clustering raises \eqn{L_{max}}, which
#' never decreases along the way (`objective` records it after each pass). A
#' move must gain more than \eqn{10^{-10} p(x)}{1e-10 p(x)} (rounding).
#' * parallel: each row visits its \eqn{m} clusterings in turn. With
#'   `init = "greedy"` (the default) a start adds the clusterings one at a
#'   time: \eqn{C_1} from a random partition moves alone (this is [sib()]
#'   when \eqn{\beta = \infty}), then \eqn{C_2} from a random partition
#'   with \eqn{C_1} fixed and the later clusterings still a single cluster,
#'   and so on; then all move together. From all-random starts
#'   (`init = "random"`) the constrained moves (a row can only change one
#'   coordinate of its cell at a time) often end in poor local optima on
#'   larger data (see `vignette("performance")`). For hard
#'   clusters the expectation over the other clusterings in (26) keeps only
#'   the row's own cell, so the cost of putting \eqn{x} into cluster \eqn{c}
#'   of \eqn{C_j} is the [sib()] loss of \eqn{I(T;Y)} of joining the cell
#'   with \eqn{c} in place of \eqn{x}'s \eqn{j}-th coordinate, minus
#'   \eqn{\beta^{-1} (p(x) + p(c)) H(\Pi)} with \eqn{\Pi = (p(x), p(c)) /
#'   (p(x) + p(c))} (TR-09-12's \eqn{JS_\Pi[p(u_j|c^r), p(u_j|c^s)]} for
#'   disjoint clusters). TR-09-12 prints \eqn{\Pi} with the conditioning on
#'   \eqn{u_j}; we read it, as in (17), as the cluster weights. Cost of a
#'   pass \eqn{O(nnz \sum_j k_j)}; memory \eqn{O(ncol \prod_j k_j)} for the
#'   cell joints (`k` is refused when that exceeds \eqn{2.5 \times 10^7}{2.5e7}
#'   values).
#'
#'   The functional sees the clusterings only through their product
#'   partition and their cluster masses, so different clusterings can tie:
#'   with two planted groupings \eqn{a} and \eqn{b} of two groups each,
#'   \eqn{(a, b)} and \eqn{(a, a \oplus b)}{(a, a xor b)} give the same
#'   cells and, at \eqn{\beta = \infty}, the same \eqn{L_{max}}. Judge the
#'   clusterings together (the product, `info_y`) and look at `info_y_each`
#'   for what each keeps alone.
#' * symmetric: a pass moves all rows (column clusters fixed), then all
#'   columns (row clusters fixed). In (26) for \eqn{C_X} the only term left
#'   is \eqn{JS_\Pi[p(c_Y|c^r_X), p(c_Y|c^s_X)]} (\eqn{C_X} is the parent of
#'   \eqn{C_Y} in \eqn{G_{out}}) plus the compression term, which is the sib
#'   cost on the rows summed over the column clusters; likewise for columns.
#'   A pass costs \eqn{O(nnz + (n + m) k_r k_c)} at most.
#'
#' @section Iterative (soft) updates:
#' `method = "iterative"` iterates TR-09-12's stationary equations
#' (21)-(22), \eqn{p(c_j|u_j) \propto p(c_j) \exp(-\beta d(c_j, u_j))}{p(c_j|u_j) ~ p(c_j) exp(-beta d(c_j, u_j))},
#' on soft memberships. For parallel IB, \eqn{C_j} is a parent of the data
#' variable \eqn{Y} only, so only the first sum of (22) is left, and as the
#' clusterings depend on \eqn{X} alone, \eqn{p(y|c^{-j}, x) = p(y|x)}:
#' \deqn{d(c_j, x) = \sum_{c^{-j}} p(c^{-j}|x) KL[p(y|x) \| p(y|c^{-j},
#'   c_j)],}{d(c_j, x) = sum_{c^-j} p(c^-j|x) KL[p(y|x) || p(y|c^-j, c_j)],}
#' with \eqn{p(c^{-j}|x) = \prod_{i \ne j} p(c_i|x)}{p(c^-j|x) = prod_{i != j} p(c_i|x)} and the cells' joint
#' \eqn{p(c_1, \dots, c_m, y) = \sum_x p(x, y) \prod_j p(c_j|x)}; with one
#' clustering this is [ib()]'s update. For symmetric IB, only the second sum
#' is left for \eqn{C_X} (the parent of \eqn{C_Y} in \eqn{G_{out}}) and
#' only the last term for \eqn{C_Y} (its parent \eqn{C_X}):
#' \deqn{d(c_X, x) = KL[p(c_Y|x) \| p(c_Y|c_X)], \quad d(c_Y, y) =
#'   KL[p(c_X|y) \| p(c_X|c_Y)],}{d(c_X, x) = KL[p(c_Y|x) || p(c_Y|c_X)],
#'   d(c_Y, y) = KL[p(c_X|y) || p(c_X|c_Y)],}
#' with \eqn{p(c_Y|x) = \sum_y p(y|x) p(c_Y|y)} and \eqn{p(c_X, c_Y) =
#' \sum_{x,y} p(x,y) p(c_X|x) p(c_Y|y)}. An iteration updates the
#' clusterings in turn (\eqn{C_1, \dots, C_m}; rows then columns), each from
#' the distributions of the current memberships, until no membership changes
#' by more than `tol`. Cost per iteration: parallel \eqn{O(m (nnz + n m) K)}
#' for \eqn{K = \prod_j k_j} cells; symmetric \eqn{O(nnz (k_r + k_c) + (n +
#' m) k_r k_c)}.
#'
#' `beta` must be finite; large values give nearly hard clusters. Memberships
#' equal to their marginals (one effective cluster each, \eqn{L_{max} = 0})
#' are a fixed point for every `beta`, and the best solution below a critical
#' `beta` (for symmetric IB a hard solution loses to it when \eqn{\beta <
#' [H(C_X) + H(C_Y)] / I(C_X;C_Y)}). Random starts (parallel: rows \eqn{0.5 +
#' U(0, 1)} normalized, as [ib()]; symmetric: rows from a flat Dirichlet, as
#' both sides start uninformative) often fall into that fixed point well
#' above the critical `beta`, especially for symmetric IB; `start` (e.g. the
#' clusters of a sequential fit) gives one-hot initial memberships instead,
#' and the iteration turns them into the soft solution near that partition.
#' Unlike the sequential moves, an iteration need not raise \eqn{L_{max}};
#' the start with the highest final value is kept.
#'
#' @param x Non-negative matrix, data.frame or sparse `Matrix` of counts or
#'   joint probabilities; rows are the objects to cluster, columns the other
#'   variable. Normalized to sum 1. All-zero rows (and, for `symmetric_ib()`,
#'   all-zero columns) are an error.
#' @param k Number of clusters of each clustering: a vector with one entry per
#'   clustering (`length(k)` clusterings), each at most `nrow(x)`.
#' @param k_rows,k_cols Numbers of row and column clusters.
#' @param beta Trade-off \eqn{\beta > 0} (may be `Inf`, the default: hard
#'   limit, no compression term).
#' @param restarts Number of random starts; the highest \eqn{L_{max}} is
#'   kept.
#' @param max_iter Maximum number of passes per start (for `parallel_ib()`
#'   with `init = "greedy"`, per stage of the start).
#' @param init `parallel_ib()`'s starts: `"greedy"` (clusterings added one at
#'   a time, see Algorithm) or `"random"` (all clusterings random at once).
#'   Uses R's random number generator, so [set.seed()] reproduces the fit.
#'   Ignored by the first start when `start` is given, and by `method =
#'   "iterative"`.
#' @param start Optional initial clusterings, used by the first start:
#'   for `parallel_ib()` an `nrow(x)` x `length(k)` matrix (a vector when
#'   `length(k) == 1`) whose column `j` holds integers in `1..k[j]`; for
#'   `symmetric_ib()` a list with `rows` and `cols` partitions. With
#'   `method = "iterative"` they give one-hot initial memberships.
#' @param method `"sequential"` (hard moves, any `beta`) or `"iterative"`
#'   (soft memberships, finite `beta`).
#' @param tol The iterative method stops when no membership changes by more
#'   than `tol`.
#' @param verbose Print one line per pass (for `parallel_ib()`, `k` there is
#'   the number of cells of the product partition).
#' @return `parallel_ib()`: a list of class `c("parallel_ib", "sideclust")`
#'   with
#'   \item{cluster, clusters}{the first clustering, and all of them as an
#'     `nrow(x)` x `m` integer matrix (each column numbered `1..` by first
#'     row; their order is arbitrary).}
#'   \item{k}{non-empty clusters of each clustering (`k_requested`: asked).}
#'   \item{info_y}{\eqn{I(C_1, \dots, C_m; Y)} of the product partition.}
#'   \item{info_x, info_y_each}{\eqn{I(C_j;X) = H(C_j)} and \eqn{I(C_j;Y)},
#'     one per clustering.}
#'   \item{info_xy}{\eqn{I(X;Y)}.}
#'   \item{objective}{\eqn{L_{max}} after each pass of the best start (its
#'     last value is the final \eqn{L_{max}}); non-decreasing from pass
#'     `max(1, init_passes)` on.}
#'   \item{restart_objective, iterations, converged, moves, pass_seconds}{
#'     final \eqn{L_{max}} of every start; passes (greedy stages
#'     included), whether the last pass over all clusterings moved nothing,
#'     moves and the wall time of each pass of the best start.}
#'   \item{init_passes}{passes of the greedy stages before all clusterings
#'     move together (0 for random starts, a given `start` or one
#'     clustering).}
#'   \item{beta, method, restarts, max_iter, init, call}{as used.}
#'   \item{cell_clusters, cell_pc, cell_pyc, total_mass}{sequential fits: the
#'     non-empty cells of the product partition (one row of cluster numbers
#'     per cell), their \eqn{p(t)} and \eqn{p(y|t)}, and the sum of `x` as
#'     given, for [predict()][predict.symmetric_ib].}
#'   With `method = "iterative"`: `membership`, a list of the soft
#'   \eqn{p(c_j|x)} (`n` x `k[j]`, columns in the order of the hard clusters,
#'   the most probable ones, unused clusters last), the informations of the
#'   soft memberships, `objective` after each iteration and `tol`, and no
#'   `init`, `init_passes`, `moves` or `pass_seconds`; `cell_clusters`,
#'   `cell_pc` and `cell_pyc` then cover every cell of the product partition
#'   (\eqn{p(t)} and \eqn{p(y|t)} of the soft memberships).
#'
#'   `symmetric_ib()`: a list of class `c("symmetric_ib", "sideclust")` with
#'   `cluster` and `k` (rows), `col_cluster` and `k_cols` (columns), numbered
#'   by first appearance; `info_clusters` (\eqn{I(C_X;C_Y)}), `info_rows`
#'   (\eqn{H(C_X)}), `info_cols` (\eqn{H(C_Y)}), `info_xy`, `loss`
#'   (\eqn{I(X;Y) - I(C_X;C_Y)}), `joint` (\eqn{p(c_X, c_Y)}), and
#'   `objective`, `restart_objective`, `iterations`, `converged`, `moves`,
#'   `pass_seconds`, `beta`, `method`, `k_requested`, `restarts`, `max_iter`,
#'   `call` as above (a pass is a row and a column half-pass), and
#'   `total_mass` (the sum of `x` as given, for
#'   [predict()][predict.symmetric_ib]). With `method =
#'   "iterative"`: `membership` (\eqn{p(c_X|x)}, `n` x `k_rows`) and
#'   `col_membership` (\eqn{p(c_Y|y)}), their columns in the order of the
#'   hard clusters (the most probable ones; unused clusters last, so `k` and
#'   `k_cols` count the clusters that are most probable somewhere), the
#'   informations of the soft memberships (\eqn{I(C_X;X)} in `info_rows`),
#'   `objective` after each iteration, `tol`, and no `moves` or
#'   `pass_seconds`.
#' @references
#' Clustering constrained by dependencies (Virginia Tech TR-09-12, 2009), Section 4
#' (multivariate information bottleneck: functionals (19)-(20), merge cost
#' (23)-(26)).
#'
#' Friedman, N., Mosenzon, O., Slonim, N. and Tishby, N. (2001). Multivariate
#' information bottleneck. Uncertainty in Artificial Intelligence (UAI).
#'
#' Slonim, N., Friedman, N. and Tishby, N. (2002). Agglomerative multivariate
#' information bottleneck. NIPS 14.
#' @seealso [sib()], [itcc()], [disparate_kmeans()].
#' @examples
#' # Rows in a 2 x 2 design: factor A decides columns 1-4, factor B columns 5-8.
#' set.seed(1)
#' a <- rep(1:2, each = 12)
#' b <- rep(rep(1:2, each = 6), 2)
#' high_a <- cbind(a == 1, a == 1, a == 2, a == 2)
#' high_b <- cbind(b == 1, b == 1, b == 2, b == 2)
#' counts <- matrix(rpois(24 * 8, 2 + 6 * cbind(high_a, high_b)), 24, 8)
#' par_fit <- parallel_ib(counts, k = c(2, 2), restarts = 5)
#' par_fit
#' table(par_fit$clusters[, 1], a)  # the first clustering: one planted factor
#' # Together the two clusterings give the four cells of the design; the
#' # second may be b or "a xor b" (a tie, see Algorithm): compare info_y_each.
#' table(interaction(par_fit$clusters[, 1], par_fit$clusters[, 2]), interaction(a, b))
#' par_fit$info_y_each
#'
#' # Planted co-clusters
#' rates <- rbind(c(9, 1, 5), c(1, 9, 5))
#' x <- matrix(rpois(40 * 30, rates[rep(1:2, each = 20), rep(1:3, each = 10)]), 40, 30)
#' sym <- symmetric_ib(x, k_rows = 2, k_cols = 3, restarts = 3)
#' table(sym$cluster, rep(1:2, each = 20))
#' table(sym$col_cluster, rep(1:3, each = 10))
#' # Soft memberships at beta = 10, refined from the sequential partition
#' soft <- symmetric_ib(x, 2, 3, beta = 10, method = "iterative",
#'                      start = list(rows = sym$cluster, cols = sym$col_cluster))
#' summary(apply(soft$membership, 1, max))  # how sure each row is
#' soft$info_clusters / sym$info_clusters
#' @export
parallel_ib <- function(x, k, beta = Inf, method = c("sequential", "iterative"),
                        restarts = 10L, max_iter = 100L, tol = 1e-8,
                        init = c("greedy", "random"), start = NULL, verbose = FALSE) {
  call <- match.call()
  csr <- as_joint_csr(x, "x", zero_rows = FALSE)
  n <- csr$n_rows
  k <- check_k_vector(k, n, csr$n_cols)
  beta <- check_beta(beta)
  method <- match_choice(method, c("sequential", "iterative"), "method")
  restarts <- check_count(restarts, "restarts")
  max_iter <- check_count(max_iter, "max_iter")
  tol <- check_number(tol, "tol", lower = 0)
  init <- match_choice(init, c("greedy", "random"), "init")
  verbose <- check_flag(verbose, "verbose")
  start <- check_start_matrix(start, n, k)
  m <- length(k)
  if (method == "iterative") {
    check_finite_beta(beta)
    r <- best_recorded_run(restarts, function(o) .iterative_parallel_ib_cpp(csr, o),
                           list(k = k, beta = beta, max_iter = max_iter, tol = tol,
                                start = start, verbose = verbose),
                           "restart_objective", maximize = TRUE,
                           blank = list(start = integer(0)))
    hard <- lapply(r$membership, hard_clusters)
    clusters <- vapply(hard, function(h) h$cluster, integer(n))
    membership <- lapply(seq_len(m), function(j) {
      w <- r$membership[[j]][, hard[[j]]$perm, drop = FALSE]
      rownames(w) <- csr$row_names
      w
    })
    extra <- c(list(membership = membership, tol = tol), soft_parallel_cells(csr, membership))
  } else {
    r <- best_recorded_run(restarts, function(o) .parallel_ib_cpp(csr, o),
                           list(k = k, inv_beta = 1 / beta, max_iter = max_iter, start = start,
                                greedy = init == "greedy", verbose = verbose),
                           "restart_objective", maximize = TRUE,
                           blank = list(start = integer(0)))
    clusters <- vapply(seq_len(m), function(j) first_seen(r$cluster[, j]), integer(n))
    extra <- list(init_passes = r$init_passes, moves = r$moves,
                  pass_seconds = r$pass_seconds, init = init)
  }
  clusters <- matrix(clusters, n, m, dimnames = list(csr$row_names, paste0("C", seq_len(m))))
  if (method == "sequential") extra <- c(extra, parallel_cells(csr, clusters))
  fit <- c(list(cluster = clusters[, 1L], clusters = clusters,
                k = unname(apply(clusters, 2L, max)), info_y = r$info_y, info_x = r$info_x,
                info_y_each = r$info_y_each, info_xy = r$info_xy, objective = r$trace,
                restart_objective = r$restart_objective, iterations = r$iterations,
                converged = r$converged),
           extra,
           list(beta = beta, method = method, k_requested = k, restarts = restarts,
                max_iter = max_iter, call = call))
  names(fit$cluster) <- csr$row_names
  fit <- finish_fit(fit, x, "parallel_ib")
  fit
}

#' @rdname parallel_ib
#' @export
symmetric_ib <- function(x, k_rows, k_cols, beta = Inf,
                         method = c("sequential", "iterative"), restarts = 10L,
                         max_iter = 100L, tol = 1e-8, start = NULL, verbose = FALSE) {
  call <- match.call()
  csr <- as_joint_csr(x, "x", zero_rows = FALSE, zero_cols = FALSE)
  k_rows <- check_k(k_rows, csr$n_rows, "k_rows")
  k_cols <- check_k(k_cols, csr$n_cols, "k_cols", what = "columns")
  beta <- check_beta(beta)
  method <- match_choice(method, c("sequential", "iterative"), "method")
  restarts <- check_count(restarts, "restarts")
  max_iter <- check_count(max_iter, "max_iter")
  tol <- check_number(tol, "tol", lower = 0)
  verbose <- check_flag(verbose, "verbose")
  if (method == "iterative") {
    check_finite_beta(beta)
  }
  if (!is.null(start) && !(is.list(start) && all(c("rows", "cols") %in% names(start)))) {
    stop_arg("start", "must be NULL or a list with elements `rows` and `cols`")
  }
  sr <- check_partition_start(start$rows, csr$n_rows, k_rows, "start$rows")
  sc <- check_partition_start(start$cols, csr$n_cols, k_cols, "start$cols")
  if (method == "iterative") {
    r <- best_recorded_run(restarts, function(o) .iterative_symmetric_ib_cpp(csr, o),
                           list(k_rows = k_rows, k_cols = k_cols, beta = beta,
                                max_iter = max_iter, tol = tol, start_rows = sr,
                                start_cols = sc, verbose = verbose),
                           "restart_objective", maximize = TRUE,
                           blank = list(start_rows = integer(0), start_cols = integer(0)))
    return(finish_fit(soft_symmetric_fit(r, csr, beta, k_rows, k_cols, restarts, max_iter,
                                         tol, call), x))
  }
  r <- best_recorded_run(restarts, function(o) .symmetric_ib_cpp(csr, o),
                         list(k_rows = k_rows, k_cols = k_cols, inv_beta = 1 / beta,
                              max_iter = max_iter, start_rows = sr, start_cols = sc,
                              verbose = verbose),
                         "restart_objective", maximize = TRUE,
                         blank = list(start_rows = integer(0), start_cols = integer(0)))
  ur <- unique(r$cluster)
  uc <- unique(r$col_cluster)
  fit <- list(cluster = match(r$cluster, ur), k = length(ur),
              col_cluster = match(r$col_cluster, uc), k_cols = length(uc),
              info_clusters = r$info_clusters, info_rows = r$info_rows,
              info_cols = r$info_cols, info_xy = r$info_xy,
              loss = r$info_xy - r$info_clusters, joint = r$joint[ur, uc, drop = FALSE],
              objective = r$trace, restart_objective = r$restart_objective,
              iterations = r$iterations, converged = r$converged, moves = r$moves,
              pass_seconds = r$pass_seconds, beta = beta, method = method,
              k_requested = c(rows = k_rows, cols = k_cols), restarts = restarts,
              max_iter = max_iter, total_mass = sum(csr$val), call = call)
  fit <- finish_fit(fit, x, "symmetric_ib")
  fit
}
