# Argument checks and fit assembly shared by parallel_ib() and symmetric_ib().

# The iterative fit: hard clusters are the most probable ones, numbered by
# first row (column); membership columns follow, unused clusters last.
soft_symmetric_fit <- function(r, csr, beta, k_rows, k_cols, restarts, max_iter, tol, call) {
  rows <- hard_clusters(r$membership)
  cols <- hard_clusters(r$col_membership)
  membership <- r$membership[, rows$perm, drop = FALSE]
  col_membership <- r$col_membership[, cols$perm, drop = FALSE]
  rownames(membership) <- csr$row_names
  rownames(col_membership) <- csr$col_names
  fit <- list(cluster = rows$cluster, k = rows$k, col_cluster = cols$cluster,
              k_cols = cols$k, membership = membership, col_membership = col_membership,
              info_clusters = r$info_clusters, info_rows = r$info_rows,
              info_cols = r$info_cols, info_xy = r$info_xy,
              loss = r$info_xy - r$info_clusters,
              joint = r$joint[rows$perm, cols$perm, drop = FALSE], objective = r$trace,
              restart_objective = r$restart_objective, iterations = r$iterations,
              converged = r$converged, beta = beta, method = "iterative",
              k_requested = c(rows = k_rows, cols = k_cols), restarts = restarts,
              max_iter = max_iter, tol = tol, call = call)
  class(fit) <- c("symmetric_ib", "sideclust")
  fit
}

# Most probable cluster of each row of soft memberships w, numbered by first
# row; perm orders w's columns that way, unused clusters last.
hard_clusters <- function(w) {
  h <- max.col(w, ties.method = "first")
  used <- unique(h)
  list(cluster = match(h, used), perm = c(used, setdiff(seq_len(ncol(w)), used)),
       k = length(used))
}

