# Input checks and conversion shared by the information-bottleneck and
# co-clustering front doors: a dense matrix, data.frame or Matrix sparse
# matrix becomes, once, the row-compressed form the C++ core reads
# (0-based `ptr`, `idx`, `val`). Sparse input is never densified.

# Returns list(ptr, idx, val, n_rows, n_cols, row_names, col_names).
as_joint_csr <- function(x, arg = "x", zero_rows = TRUE, zero_cols = TRUE,
                         binary = FALSE) {
  if (is.data.frame(x)) x <- check_data_matrix(x, arg)
  if (inherits(x, "Matrix")) {
    csr <- sparse_csr(x, arg)
  } else {
    if (!(is.matrix(x) && (is.numeric(x) || is.logical(x)))) {
      stop_arg(arg, "must be a numeric matrix, data.frame or sparse Matrix, not ",
               class(x)[1L])
    }
    x <- check_data_matrix(x, arg)
    csr <- dense_csr(x)
  }
  if (csr$n_rows == 0L || csr$n_cols == 0L) stop_arg(arg, "has no rows or no columns")
  check_entries(csr, arg, binary)
  if (!zero_rows) {
    check_empty(csr$ptr, arg, "row", sprintf("%s[rowSums(%s) > 0, ]", arg, arg))
  }
  if (!zero_cols) {
    col_count <- tabulate(csr$idx + 1L, csr$n_cols)
    check_empty(c(0L, cumsum(col_count)), arg, "column",
                sprintf("%s[, colSums(%s) > 0]", arg, arg))
  }
  if (!binary && length(csr$val) == 0L) stop_arg(arg, "has no non-zero entries")
  check_total(csr$val, arg)
  csr
}

sparse_csr <- function(x, arg) {
  x <- methods::as(methods::as(methods::as(x, "CsparseMatrix"), "generalMatrix"),
                   "dMatrix")
  # Checks without a temporary as long as the non-zeros: a finite sum means
  # every entry is finite; stored zeros are dropped only when there are some.
  if (!is.finite(sum(x@x)) && !all(is.finite(x@x))) {
    stop_arg(arg, sprintf("has %d NA, NaN or infinite values; remove or impute them",
                          sum(!is.finite(x@x))))
  }
  if (length(x@x) && min(abs(min(x@x)), abs(max(x@x))) == 0) x <- Matrix::drop0(x)
  csr <- .csr_of_csc_cpp(x@p, x@i, x@x, nrow(x), ncol(x))
  c(csr, list(n_rows = nrow(x), n_cols = ncol(x), row_names = rownames(x),
              col_names = colnames(x)))
}

dense_csr <- function(x) {
  tx <- t(x)
  w <- which(tx != 0) - 1
  n_cols <- ncol(x)
  row <- as.integer(w %/% n_cols)
  list(ptr = c(0L, cumsum(tabulate(row + 1L, nrow(x)))),
       idx = as.integer(w %% n_cols), val = tx[w + 1], n_rows = nrow(x),
       n_cols = n_cols, row_names = rownames(x), col_names = colnames(x))
}

# Row (1-based) of each stored entry e (0-based) of a CSR.
csr_rows <- function(ptr, e) findInterval(e, ptr, left.open = FALSE)

# Renumber a partition 1.. in order of first appearance.
first_seen <- function(cl) match(cl, unique(cl))

# The joint in plain R for tests and plots: a sparse dgCMatrix.
csr_matrix <- function(csr) {
  Matrix::sparseMatrix(i = csr_rows(csr$ptr, seq_along(csr$idx) - 1L),
                       j = csr$idx + 1L, x = csr$val,
                       dims = c(csr$n_rows, csr$n_cols))
}
