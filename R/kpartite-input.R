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
# vertices' matrices of predict.kpartite().
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
  if (divergence == "idivergence" && any(csr$val < 0)) {
    stop_arg(arg, sprintf("has %d negative weights; the I-divergence needs non-negative ones",
                          sum(csr$val < 0)))
  }
  csr
}

# The types each relation connects as an integer matrix with columns `rows`
# and `cols` (1-based); NULL is the chain 1-2, 2-3, ...
kp_check_types <- function(types, n_relations) {
  if (is.null(types)) {
    return(cbind(rows = seq_len(n_relations), cols = seq_len(n_relations) + 1L))
  }
  if (is.list(types) && !is.data.frame(types)) {
    if (!all(lengths(types) == 2L)) {
      stop_arg("types", "must hold one pair of type numbers (length 2) per relation")
    }
    types <- do.call(rbind, types)
  }
  types <- as.matrix(types)
  if (!is.numeric(types) || ncol(types) != 2L || anyNA(types) ||
      any(types != round(types)) || any(types < 1)) {
    stop_arg("types", "must be pairs of type numbers (whole numbers from 1): a list of ",
             "length-2 vectors or a two-column matrix")
  }
  if (nrow(types) != n_relations) {
    stop_arg("types", sprintf("has %d pairs but there are %d relations", nrow(types),
                              n_relations))
  }
  self <- which(types[, 1L] == types[, 2L])
  if (length(self) > 0L) {
    stop_arg("types", sprintf("connects a type with itself (%s); a k-partite graph has no edges within a type",
                              describe_positions(self, "relations")))
  }
  missing_types <- setdiff(seq_len(max(types)), types)
  if (length(missing_types) > 0L) {
    stop_arg("types", sprintf("never mentions type%s %s; number the types 1..n with each in some relation",
                              if (length(missing_types) > 1L) "s" else "",
                              paste(missing_types, collapse = ", ")))
  }
  storage.mode(types) <- "integer"
  colnames(types) <- c("rows", "cols")
  types
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

# Clusters per type: one number for all types or one per type, each at most
# the type's number of vertices.
kp_check_k <- function(k, m) {
  n_types <- length(m)
  if (missing(k)) stop_arg("k", "is missing; give the number of clusters of every type")
  if (!is.numeric(k) || anyNA(k) || any(k != round(k)) || any(k < 1)) {
    stop_arg("k", "must be whole numbers from 1")
  }
  if (length(k) == 1L) {
    k <- stats::setNames(rep(k, n_types), names(k))
  }
  if (length(k) != n_types) {
    stop_arg("k", sprintf("has %d values but there are %d types", length(k), n_types))
  }
  big <- which(k > m)
  if (length(big) > 0L) {
    stop_arg("k", sprintf("asks for more clusters than vertices for type %d (%d > %d)",
                          big[1L], as.integer(k[big[1L]]), m[big[1L]]))
  }
  out <- as.integer(k)
  names(out) <- if (is.null(names(k)) || length(names(k)) != n_types) {
    paste0("type", seq_len(n_types))
  } else {
    names(k)
  }
  out
}

# Start partitions: NULL or one integer vector per type, 0-based for the core.
kp_check_start <- function(start, m, k) {
  check_partition_starts(start, m, k, sprintf(
    "must be a list of %d cluster vectors, one per type", length(m)))
}
