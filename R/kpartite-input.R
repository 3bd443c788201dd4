# Input checks of kpartite_clustering(): the relation matrices (dense or
# sparse, each to the row-compressed form of as_joint_csr()'s helpers), the
# pair of vertex types each one connects, the vertex counts they imply, and
# the numbers of clusters and start partitions per type.

# A list of relations; a single matrix is a list of one.
kp_relation_list <- function(relations) {
  if (is.matrix(relations) || is.data.frame(relations) || inherits(relations, "Matrix")) {
    relations <- list(relations)
  }
  if (!is.list(relations) || length(relations) == 0L) {
    stop_arg("relations", "must be a non-empty list of matrices (dense or sparse Matrix)")
  }
  relations
}

# Row-compressed relation matrix (named `arg` in messages); negative
# weights only where the divergence allows them. Also checks the new
# vertices' matrices of predict.kpartite_clustering().
kp_relation_csr <- function(x, arg, divergence) {
  csr <- if (inherits(x, "Matrix")) {
    sparse_csr(x, arg)
  } else {
    if (!(is.data.frame(x) || is.matrix(x))) {
      stop_arg(arg, "must be a numeric matrix, data.frame or sparse Matrix, not ",
               class(x)[1L])
    }
    dense_csr(check_data_matrix(x, arg))
  }
  if (length(csr$val)) check_data_scale(csr$val, arg, spread = divergence != "idivergence")
  if (divergence == "idivergence" && any(csr$val < 0)) {
    stop_arg(arg, sprintf("has %d negative weights; the I-divergence needs non-negative ones",
                          sum(csr$val < 0)))
  }
  csr
}

# Vertices per type from the relations' shapes, which must agree.
kp_vertex_counts <- function(csrs, types) {
  m <- rep(NA_integer_, max(types))
  seen_in <- rep(NA_integer_, max(types))
  for (r in seq_along(csrs)) {
    dims <- c(csrs[[r]]$n_rows, csrs[[r]]$n_cols)
    for (side in 1:2) {
      t <- types[r, side]
      if (is.na(m[t])) {
        m[t] <- dims[side]
        seen_in[t] <- r
      } else if (m[t] != dims[side]) {
        stop_arg(sprintf("relations[[%d]]", r), sprintf(
          "has %d %s but type %d has %d vertices in `relations[[%d]]`; check `types`",
          dims[side], c("rows", "columns")[side], t, m[t], seen_in[t]))
      }
    }
  }
  m
}

