# Costs shared by the predict() methods of the information-bottleneck and
# co-clustering fits. New rows arrive as a row-compressed matrix (from
# as_joint_csr()); every cost only touches their non-zero entries, plus one
# term per cluster, so no dense n_new x m matrix is formed.

# New rows (or, with `columns = TRUE`, new columns given as the columns of a
# matrix) of a fitted co-occurrence matrix with `n_cols` columns (rows).
new_joint_rows <- function(newdata, n_cols, columns = FALSE) {
  if (missing(newdata)) stop_arg("newdata", "is missing")
  if (is.atomic(newdata) && is.null(dim(newdata))) {
    newdata <- if (columns) matrix(newdata, ncol = 1L) else matrix(newdata, nrow = 1L)
  }
  if (columns) newdata <- if (inherits(newdata, "Matrix")) Matrix::t(newdata) else t(as.matrix(newdata))
  csr <- as_joint_csr(newdata, "newdata")
  if (csr$n_cols != n_cols) {
    stop_arg("newdata", sprintf("has %d %s but the fit has %d", csr$n_cols,
                                if (columns) "rows" else "columns", n_cols))
  }
  csr$row_of <- csr_rows(csr$ptr, seq_along(csr$idx) - 1L)
  csr
}

# Sum of per-entry values by row of a CSR (0 for rows without entries).
csr_row_sums <- function(csr, values) {
  out <- numeric(csr$n_rows)
  if (length(values)) out[unique(csr$row_of)] <- rowsum(as.numeric(values), csr$row_of, reorder = FALSE)
  out
}

# Sums of `x` over the entries (row, group) into an n x k dense matrix: per
# new entity, its total over each group of the other side (predict() of the
# co-clustering and k-partite fits; the fitted cluster profiles).
entry_sums <- function(row, group, x, n, k) {
  as.matrix(Matrix::sparseMatrix(i = row, j = rep_len(group, length(row)),
                                 x = rep_len(as.double(x), length(row)), dims = c(n, k)))
}

# The new rows summed over groups of their columns (`groups` 1..n_groups):
# a CSR over the groups, for the co-clustering rules.
group_columns <- function(csr, groups, n_groups) {
  rows_csr(entry_sums(csr$row_of, groups[csr$idx + 1L], csr$val, csr$n_rows, n_groups))
}

# A dense matrix of new rows in the CSR form the predict() costs read.
rows_csr <- function(dense) {
  csr <- dense_csr(dense)
  csr$row_of <- csr_rows(csr$ptr, seq_along(csr$idx) - 1L)
  csr
}

xlogx <- function(a) ifelse(a > 0, a * log(a), 0)

# Merge cost of each new row into each cluster (n_new x k), as the
# sequential IB algorithms price putting a point back into a cluster:
#   d(x, c) = sum_y [G(a_y) + G(b_y) - G(a_y + b_y)]
#             + (1 - 1/beta) [G(w + P_c) - G(w) - G(P_c)],  G(a) = a log a,
# with a_y = p(x, y) the new row relative to the fitted total, w = sum_y a_y,
# and b_y = p(c, y) the cluster joint (rows of `joint`, summing to P_c); the
# columns where a_y = 0 add nothing (src/ib_predict.h).
merge_cost <- function(csr, joint, total, inv_beta = 0) {
  .ib_merge_costs_cpp(csr, sum(csr$val), total, joint, inv_beta)
}

# KL[p(.|x) || q(.|c)] of each new row (normalized) to each row of the
# conditional `q` (k x m, rows summing to 1); Inf where the row has mass on a
# column the cluster gives probability 0. With `total` (the fitted total
# mass) and `pc` (the cluster masses), to q_c once the row has joined
# cluster c instead (finite). Columns no cluster has seen are left out; rows
# with mass only there (or none) get NaN. See src/ib_predict.h.
kl_cost <- function(csr, q, total = 0, pc = numeric(0)) {
  d <- .ib_kl_costs_cpp(csr, q, sum(csr$val), total, pc)
  d[diff(csr$ptr) == 0L, ] <- 0  # empty rows: NA later, without a warning
  d
}

# Soft memberships p(c|x) proportional to p(c) exp(-beta d(x, c)), in logs.
soft_assign <- function(cost, pc, beta) {
  logw <- rep(log(pc), each = nrow(cost)) - beta * cost
  logw <- matrix(logw, nrow(cost))
  top <- logw[cbind(seq_len(nrow(logw)), max.col(logw, ties.method = "first"))]
  w <- exp(logw - top)
  w <- w / rowSums(w)
  w[!is.finite(top), ] <- NA  # no cluster can take the row
  w
}

# The hard prediction from a cost matrix: the cheapest cluster, NA where
# every cluster is infinitely expensive (with a warning naming those rows).
# Shared by the predict() methods of the IB, co-clustering and k-partite fits.
cheapest <- function(cost) {
  unseen <- which(is.nan(cost[, 1L]))  # no mass on any column the fit saw
  if (length(unseen)) {
    warn_unseen(unseen)
    cost[unseen, ] <- 0
  }
  cluster <- max.col(-cost, ties.method = "first")
  cluster[unseen] <- NA_integer_
  # rows the caller already blanked (empty rows) stay NA without a warning
  blank <- which(rowSums(!is.na(cost)) == 0 & !is.nan(cost[, 1L]))
  none <- setdiff(which(rowSums(is.finite(cost)) == 0), c(unseen, blank))
  if (length(none)) {
    one <- length(none) == 1L
    warning(sprintf(paste0(
      "`newdata` %s %s no cluster (each cluster gives probability or weight 0 ",
      "somewhere %s mass); %s NA"),
      describe_positions(none, if (one) "row" else "rows"), if (one) "fits" else "fit",
      if (one) "it has" else "they have", if (one) "its cluster is" else "their clusters are"),
      call. = FALSE)
    cluster[none] <- NA_integer_
  }
  cluster[blank] <- NA_integer_
  cost <- chosen(cost, cluster)
  cost[unseen] <- NA
  list(cluster = cluster, cost = cost)
}

warn_unseen <- function(rows) {
  one <- length(rows) == 1L
  warning(sprintf("`newdata` %s %s mass only on columns the fit never saw; %s NA",
                  describe_positions(rows, if (one) "row" else "rows"),
                  if (one) "has" else "have", if (one) "its cluster is" else "their clusters are"),
          call. = FALSE)
}

# Each row's entry of `cost` in its chosen column; Inf where no cluster could
# take the row, NA where the row had nothing to compare (NaN costs).
chosen <- function(cost, cluster) {
  out <- rep(Inf, length(cluster))
  ok <- !is.na(cluster)
  out[ok] <- cost[cbind(which(ok), cluster[ok])]
  out[is.nan(cost[, 1L])] <- NA
  out
}

# p(c, y) of a hard clustering of the fitted rows (k x m, summing to 1): what
# sib() and aib() keep (as pc and pyc) for predict().
cluster_profiles <- function(csr, cluster, k) {
  joint <- .cluster_joint_cpp(csr, as.integer(cluster), as.integer(k))
  dimnames(joint) <- list(NULL, csr$col_names)
  joint <- joint / sum(joint)
  pc <- rowSums(joint)
  list(pc = pc, pyc = joint / pc, total_mass = sum(csr$val))
}
