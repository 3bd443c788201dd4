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

check_finite_beta <- function(beta) {
  if (!is.finite(beta)) {
    stop_arg("beta", paste0("must be finite for method = \"iterative\"; beta = Inf is the ",
                            "hard limit, use method = \"sequential\""))
  }
}

# beta in (0, Inf].
check_beta <- function(beta) {
  check_number(beta, "beta", lower = 0, lower_open = TRUE, allow_inf = TRUE)
}

# Numbers of clusters of the parallel clusterings: whole numbers in 1..n,
# with a product partition small enough to store densely.
check_k_vector <- function(k, n, n_cols, max_values = 2.5e7) {
  if (missing(k)) stop_arg("k", "is missing")
  if (!is.numeric(k) || length(k) == 0L || anyNA(k) || any(!is.finite(k)) ||
      any(k != round(k))) {
    stop_arg("k", "must be a vector of whole numbers, one per clustering")
  }
  if (any(k < 1 | k > n)) {
    stop_arg("k", sprintf("must be in 1..%d (the number of rows); got %s", n,
                          paste(k, collapse = ", ")))
  }
  cells <- prod(k)
  if (cells * n_cols > max_values) {
    stop_arg("k", sprintf(paste0(
      "gives %s cells of the product partition; with %d columns their joints need ",
      "%.0f MB: use fewer or smaller clusterings"), format(cells, big.mark = ","), n_cols,
      16 * cells * n_cols / 2^20))
  }
  as.integer(k)
}

# A 1-based n x m column-major start for the core, or integer(0).
check_start_matrix <- function(start, n, k) {
  if (is.null(start)) return(integer(0))
  m <- length(k)
  if (is.numeric(start) && is.null(dim(start)) && m == 1L) start <- matrix(start, ncol = 1L)
  if (!is.matrix(start) || !is.numeric(start) || nrow(start) != n || ncol(start) != m) {
    stop_arg("start", sprintf("must be a %d x %d matrix (rows of `pxy` x length(k))", n, m))
  }
  for (j in seq_len(m)) {
    s <- start[, j]
    if (anyNA(s) || any(s != round(s)) || any(s < 1 | s > k[j])) {
      stop_arg("start", sprintf("column %d must hold integers in 1..%d", j, k[j]))
    }
  }
  as.integer(start)
}
