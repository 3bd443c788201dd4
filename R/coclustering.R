#' Information-theoretic co-clustering
#'
#' Clusters the rows and the columns of a joint distribution \eqn{p(x, y)}
#' (or of a count matrix, normalized to sum 1) at once, minimizing the loss of
#' mutual information \eqn{I(X;Y) - I(\hat X; \hat Y)} (Dhillon, Mallela &
#' Modha 2003). With \eqn{q(x, y) = p(\hat x, \hat y) p(x|\hat x) p(y|\hat
#' y)}, the row step sends every row to \eqn{\arg\min_{\hat x} KL[p(Y|x) \|
#' q(Y|\hat x)]} with the column clusters fixed, the column step does the same
#' for columns; neither increases the loss. A row step costs
#' \eqn{O(nnz + n k_r k_c)}. Iterations stop when a full iteration moves
#' nothing or lowers the loss by less than `tol` times \eqn{I(X;Y)}; of
#' `restarts` random starts the lowest loss is kept. Clusters that become
#' empty are dropped, so `k` and `k_cols` may end below the requested numbers.
#'
#' @inheritParams ib
#' @param x Non-negative matrix, data.frame or sparse `Matrix`; rows and
#'   columns that are all zero are an error.
#' @param k_rows,k_cols Numbers of row and column clusters.
#' @param start Optional list of two initial partitions, `rows` and `cols`
#'   (integers from 1), used by the first start.
#' @return A list of class `c("itcc", "sideclust")` with `cluster` and `k`
#'   (rows), `col_cluster` and `k_cols` (columns), `loss` (final
#'   \eqn{I(X;Y) - I(\hat X;\hat Y)}), `loss_trace` and `objective` (the loss
#'   at the start and after every half-step, row then column, of the best
#'   start), `info_xy`, `info_clusters` (\eqn{I(\hat X;\hat Y)}), `joint`
#'   (\eqn{p(\hat x, \hat y)}), `restart_loss`, `iterations`, `converged`
#'   and `call`.
#' @references Dhillon, I. S., Mallela, S. and Modha, D. S. (2003).
#'   Information-theoretic co-clustering. KDD.
#' @seealso [cross_associations()], [sib()].
#' @examples
#' set.seed(1)
#' rates <- rbind(c(9, 1, 5), c(1, 9, 5))
#' counts <- matrix(rpois(40 * 30, rates[rep(1:2, each = 20), rep(1:3, each = 10)]), 40, 30)
#' fit <- itcc(counts, k_rows = 2, k_cols = 3, restarts = 3)
#' table(fit$cluster, rep(1:2, each = 20))
#' table(fit$col_cluster, rep(1:3, each = 10))
#' fit$loss_trace
#' plot(fit, counts)
#' @export
itcc <- function(x, k_rows, k_cols, restarts = 10L, max_iter = 100L,
                 tol = 1e-10, start = NULL, verbose = FALSE) {
  call <- match.call()
  csr <- as_joint_csr(x, "x", zero_rows = FALSE, zero_cols = FALSE)
  k_rows <- check_k(k_rows, csr$n_rows, "k_rows")
  k_cols <- check_k(k_cols, csr$n_cols, "k_cols", what = "columns")
  restarts <- check_count(restarts, "restarts")
  max_iter <- check_count(max_iter, "max_iter")
  tol <- check_number(tol, "tol", lower = 0)
  verbose <- check_flag(verbose, "verbose")
  if (!is.null(start) && !(is.list(start) && all(c("rows", "cols") %in% names(start)))) {
    stop_arg("start", "must be NULL or a list with elements `rows` and `cols`")
  }
  sr <- check_partition_start(start$rows, csr$n_rows, k_rows, "start$rows")
  sc <- check_partition_start(start$cols, csr$n_cols, k_cols, "start$cols")
  r <- best_recorded_run(restarts, function(o) .itcc_cpp(csr, o),
                         list(k_rows = k_rows, k_cols = k_cols, max_iter = max_iter, tol = tol,
                              start_rows = sr, start_cols = sc, verbose = verbose),
                         "restart_loss", blank = list(start_rows = integer(0),
                                                      start_cols = integer(0)))
  ur <- unique(r$cluster)
  uc <- unique(r$col_cluster)
  fit <- list(cluster = match(r$cluster, ur), k = length(ur),
              col_cluster = match(r$col_cluster, uc), k_cols = length(uc),
              loss = r$loss, loss_trace = r$loss_trace, objective = r$loss_trace,
              info_xy = r$info_xy, info_clusters = r$info_clusters,
              joint = r$joint[ur, uc, drop = FALSE], restart_loss = r$restart_loss,
              iterations = r$iterations, converged = r$converged,
              k_requested = c(rows = k_rows, cols = k_cols), restarts = restarts,
              call = call)
  fit <- finish_fit(fit, x, "itcc")
  fit
}

#' Cross-associations: parameter-free co-clustering of a binary matrix
#'
#' Groups the rows and the columns of a binary matrix into homogeneous blocks
#' of mostly ones or mostly zeros, choosing both numbers of groups by minimum
#' description length (Chakrabarti, Papadimitriou, Modha & Faloutsos 2004).
#' The total cost in bits of \eqn{k} row groups of sizes \eqn{a_i} and
#' \eqn{l} column groups of sizes \eqn{b_j} is
#' \deqn{\log^* k + \log^* l + \sum_{i<k} \lceil \log_2 \bar a_i \rceil +
#'   \sum_{j<l} \lceil \log_2 \bar b_j \rceil + \sum_{i,j} \lceil \log_2 (a_i
#'   b_j + 1) \rceil + \sum_{i,j} n_{ij} H(p_{ij})}{log* k + log* l + sum_i
#'   ceil(log2 abar_i) + sum_j ceil(log2 bbar_j) + sum_ij ceil(log2(a_i b_j +
#'   1)) + sum_ij n_ij H(p_ij)}
#' (numbers of groups, group sizes with \eqn{a} sorted decreasingly and
#' \eqn{\bar a_i = \sum_{t \ge i} a_t - k + i}, number of ones per block,
#' and the blocks' contents coded with their densities \eqn{p_{ij}}), plus,
#' with `assignment_cost = TRUE`, \eqn{\log_2 (m! / \prod_i a_i!) + \log_2
#' (n! / \prod_j b_j!)}{log2(m! / prod a_i!) + log2(n! / prod b_j!)} bits
#' saying which row and column is in which group.
#'
#' @section Deviations from the paper:
#' The paper charges the row and column permutations as a constant, so
#' assigning rows to groups is free; a search that looks hard enough then
#' over-splits homogeneous blocks (each extra split of a group buys a few
#' tens of bits of fitted noise, and on planted 300 x 200 matrices the
#' planted grouping is then not the cheapest). `assignment_cost = TRUE`
#' (default) charges the assignment instead, which makes the cost an honest
#' two-part code; `FALSE` gives the paper's cost. And where splitting the
#' group with the highest entropy per row does not pay, the next groups by
#' entropy are tried, up to `split_tries` (1 is the paper's search); and when
#' no single split pays, a row split followed by a column split is tried as
#' one step (`joint_splits`): blocks such as a checkerboard show in neither
#' margin, so one more row group does not repay its cost until the columns
#' are split too. Finally (`refine_splits`), the rows chosen by the paper's
#' rule seed a few 2-means steps on the full rows (each row to the side whose
#' per-column densities, over all columns, give it the higher Bernoulli
#' likelihood; \eqn{O(m + nnz)} per step), which finds groups that the
#' current column groups hide, as in sparse matrices whose groups differ
#' column by column but not in their margins; when the refined split does
#' not pay, the paper's unrefined split is tried as well (2-means can settle
#' on a split that the regrouping undoes). With `split_tries = 1`,
#' `joint_splits = FALSE`, `refine_splits = FALSE` and `assignment_cost =
#' FALSE` the search and cost are the paper's.
#'
#' @section Algorithm:
#' For fixed numbers of groups, rows and then columns move to the group
#' whose block densities code them in the fewest bits (densities smoothed by
#' \eqn{(n_1 + 1/2) / (n + 1)} for the choice); a half-step is kept only when
#' it lowers the total cost. The search starts from one row and one column
#' group and alternately tries one more row group and one more column group:
#' the group with the highest entropy per row is split, each of its rows
#' moving to the new group when leaving lowers that group's entropy per row,
#' and the regrouping runs again; the split is kept only if the total cost
#' falls. It stops when no row or column split helps. The total cost
#' therefore never increases (`objective`). Each regrouping costs
#' \eqn{O(nnz + (n + m) k l)}.
#'
#' @param x A binary matrix: logical, 0/1 numeric, data.frame or sparse
#'   `Matrix` (pattern, logical or numeric with values 1). All-zero rows and
#'   columns are allowed.
#' @param max_groups Cap on the number of row groups and on the number of
#'   column groups.
#' @param split_tries How many groups (by decreasing entropy per row) a
#'   split is tried on before giving up; 1 is the paper's search.
#' @param joint_splits When no single split pays, try a row and a column
#'   split together (`FALSE`: the paper's search).
#' @param refine_splits Refine each split by 2-means on the full rows,
#'   falling back to the unrefined split when the refined one does not pay
#'   (`FALSE`: the paper's split rule only).
#' @param assignment_cost Charge the bits of the row and column assignments
#'   (`FALSE`: the paper's cost).
#' @return A list of class `c("cross_associations", "sideclust")` with
#'   `cluster` and `k` (row groups), `col_cluster` and `k_cols` (column
#'   groups), `cost` (total bits), `objective` (total cost at the start and
#'   after every accepted split), `k_trace` and `l_trace` (the numbers of
#'   groups there), `density` (`k` x `k_cols` block densities), `ones`
#'   (ones per block, which [predict.cross_associations()] codes new rows and
#'   columns with), `iterations` (splits tried), `converged` and `call`.
#' @references Chakrabarti, D., Papadimitriou, S., Modha, D. S. and
#'   Faloutsos, C. (2004). Fully automatic cross-associations. KDD.
#' @seealso [predict.cross_associations()] for new rows and columns, [itcc()].
#' @examples
#' set.seed(1)
#' p <- matrix(c(0.9, 0.1, 0.2, 0.8), 2, 2)
#' truth_r <- rep(1:2, c(30, 20)); truth_c <- rep(1:2, c(15, 25))
#' x <- matrix(rbinom(50 * 40, 1, p[truth_r, truth_c]), 50, 40)
#' fit <- cross_associations(x)
#' c(fit$k, fit$k_cols)
#' table(fit$cluster, truth_r)
#' plot(fit, x)
#' @export
cross_associations <- function(x, max_groups = 1000L, split_tries = 1000L,
                               assignment_cost = TRUE, joint_splits = TRUE,
                               refine_splits = TRUE) {
  call <- match.call()
  max_groups <- check_count(max_groups, "max_groups")
  split_tries <- check_count(split_tries, "split_tries")
  assignment_cost <- check_flag(assignment_cost, "assignment_cost")
  joint_splits <- check_flag(joint_splits, "joint_splits")
  refine_splits <- check_flag(refine_splits, "refine_splits")
  csr <- as_joint_csr(x, "x", binary = TRUE)
  r <- .cross_associations_cpp(csr, list(max_groups = max_groups, split_tries = split_tries,
                                          assignment_cost = assignment_cost,
                                          joint_splits = joint_splits,
                                          refine_splits = refine_splits))
  k <- r$k
  l <- r$l
  rows_e <- csr_rows(csr$ptr, seq_along(csr$idx) - 1L)
  ones <- matrix(tabulate(r$cluster[rows_e] + k * (r$col_cluster[csr$idx + 1L] - 1L),
                          k * l), k, l)
  size <- outer(tabulate(r$cluster, k), tabulate(r$col_cluster, l))
  fit <- list(cluster = r$cluster, k = k, col_cluster = r$col_cluster, k_cols = l,
              cost = r$cost, objective = r$trace, k_trace = r$k_trace,
              l_trace = r$l_trace, density = ones / size, ones = ones,
              iterations = r$splits_tried, converged = TRUE, call = call)
  fit <- finish_fit(fit, x, "cross_associations")
  fit
}
