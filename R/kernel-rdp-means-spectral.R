# The spectral start of kernel_rdp_means() (Khashabi et al. 2015, Section
# 4.7): eigenvectors of K + xi1 E+ - xi2 E- with eigenvalue above lambda,
# rounded to a partition.

# The side part of the matrix as an operator on an n x m matrix v:
# xi1 E+ v - xi2 E- v. Partial labels act through per-label sums, so the
# labelled pairs are never formed.
side_product <- function(side, n, xi) {
  if (is.null(side)) return(function(v) 0)
  if (inherits(side, "sideclust_labels")) {
    lab <- side$labels
    keep <- !is.na(lab)
    return(function(v) {
      out <- matrix(0, nrow(v), ncol(v))
      if (!any(keep)) return(out)
      by_label <- rowsum(v[keep, , drop = FALSE], lab[keep], reorder = TRUE)
      total <- colSums(by_label)
      same <- by_label[match(lab[keep], as.integer(rownames(by_label))), , drop = FALSE]
      own <- v[keep, , drop = FALSE]
      other <- sweep(-same, 2L, total, "+")
      out[keep, ] <- xi[["must"]] * (same - own) - xi[["cannot"]] * other
      out
    })
  }
  e <- side_matrix(side, n, xi)
  function(v) as.matrix(e %*% v)
}

# xi1 E+ - xi2 E- for pairs, a sparse symmetric n x n matrix.
side_matrix <- function(side, n, xi) {
  w <- ifelse(side$must, xi[["must"]], -xi[["cannot"]]) * side$confidence
  Matrix::sparseMatrix(i = c(side$i, side$j), j = c(side$j, side$i), x = c(w, w),
                       dims = c(n, n))
}

# The eigenpairs with eigenvalue above lambda.
keep_above <- function(sp, lambda) {
  keep <- sp$values > lambda
  list(vectors = sp$vectors[, keep, drop = FALSE], values = sp$values[keep])
}

# The spectral start on low-rank features zt (r x n, K = Z Z'): the
# Rayleigh-Ritz approximation of K + xi1 E+ - xi2 E- in the span of the
# features' left singular vectors U (exact without side information, where
# the eigenvectors lie in that span): the eigenpairs of U'(K + side)U, an
# r x r matrix. O(n r^2) time, O(n m) memory; the side part touches only the
# points with side information.
lowrank_spectral <- function(zt, side, xi, m) {
  gram <- eigen(tcrossprod(zt), symmetric = TRUE)
  keep <- gram$values > 1e-10 * max(gram$values)
  basis <- gram$vectors[, keep, drop = FALSE] %*% diag(1 / sqrt(gram$values[keep]), sum(keep))
  inner <- diag(gram$values[keep], sum(keep))  # U'KU
  rows <- side_rows(side)
  if (length(rows) > 0L) {
    u <- crossprod(zt[, rows, drop = FALSE], basis)  # those rows of U
    inner <- inner + crossprod(u, side_product(restrict_side(side, rows), length(rows), xi)(u))
  }
  eig <- eigen((inner + t(inner)) / 2, symmetric = TRUE)
  top <- seq_len(min(m, ncol(inner)))
  list(vectors = crossprod(zt, basis %*% eig$vectors[, top, drop = FALSE]),
       values = eig$values[top])
}

# The points that side information touches, and the side information
# renumbered onto them.
side_rows <- function(side) {
  if (is.null(side)) return(integer(0))
  if (inherits(side, "sideclust_labels")) return(which(!is.na(side$labels)))
  sort(unique(c(side$i, side$j)))
}

restrict_side <- function(side, rows) {
  if (inherits(side, "sideclust_labels")) {
    side$labels <- side$labels[rows]
    return(side)
  }
  side$i <- match(side$i, rows)
  side$j <- match(side$j, rows)
  side
}

# Eigenvectors (columns) with eigenvalue above lambda, at most `rank`. The
# dense solver for n <= dense_max (and for sparse kernels only without
# RSpectra, up to 3000 points).
spectral_vectors <- function(kern, side, lambda, xi, rank, dense_max = 1000L) {
  n <- kern$n
  m <- min(rank, n - 1L)
  if (identical(kern$approximation, "nystrom") || identical(kern$approximation, "rff")) {
    return(keep_above(lowrank_spectral(kern$spec$x, side, xi, m), lambda))
  }
  side_op <- side_product(side, n, xi)
  sparse <- kern$spec$type == "sparse"
  has_lanczos <- requireNamespace("RSpectra", quietly = TRUE)
  dense <- (n <= dense_max && !sparse) || (!has_lanczos && n <= 3000L)
  if (!dense && !has_lanczos) {
    stop_arg("init", sprintf(paste0("\"spectral\" needs the RSpectra package for n = %d > 3000 ",
                                    "points; install it or use init = \"one\""), n))
  }
  if (dense) {
    mat <- kernel_dense(kern)
    mat <- mat + side_op(diag(n))
    eig <- eigen((mat + t(mat)) / 2, symmetric = TRUE)
    values <- eig$values[seq_len(m)]
    vectors <- eig$vectors[, seq_len(m), drop = FALSE]
  } else if (identical(kern$approximation, "knn") && !inherits(side, "sideclust_labels")) {
    # the graph and the pairs as one sparse matrix: RSpectra's own products
    mat <- sparse_kernel_matrix(kern)
    if (!is.null(side)) mat <- mat + side_matrix(side, n, xi)
    # a loose tolerance: the largest eigenvalues of a neighbour graph lie
    # close together, so Lanczos needs many products to separate them, and
    # the start only needs the span they share, rounded by k-means
    eig <- RSpectra::eigs_sym(mat, k = m, which = "LA", opts = list(tol = 1e-3))
    values <- eig$values
    vectors <- eig$vectors
  } else {
    product <- function(v, args) kernel_product(kern, as.matrix(v)) + side_op(as.matrix(v))
    eig <- RSpectra::eigs_sym(product, k = m, n = n, which = "LA")
    values <- eig$values
    vectors <- eig$vectors
  }
  keep <- values > lambda
  list(vectors = vectors[, keep, drop = FALSE], values = values[keep])
}

# min(the number of distinct rows of v, at_most), looking at the first rows
# before all of them (unique() on a million rows is slow and large).
distinct_rows_upto <- function(v, at_most) {
  head_rows <- nrow(unique(v[seq_len(min(nrow(v), 100L * at_most)), , drop = FALSE]))
  if (head_rows >= at_most) return(at_most)
  min(at_most, nrow(unique(v)))
}

# One partition from the eigenvectors: rows scaled to unit length, k-means
# with one centre per eigenvector (Ng, Jordan & Weiss 2002). Draws R's random
# numbers (k-means' starts).
round_spectral <- function(spectral) {
  v <- spectral$vectors
  n <- nrow(v)
  if (ncol(v) <= 1L) return(rep(1L, n))
  len <- sqrt(rowSums(v^2))
  v <- v / ifelse(len > 0, len, 1)
  k <- min(ncol(v), distinct_rows_upto(round(v, 12), ncol(v)))
  if (k <= 1L) return(rep(1L, n))
  # (on large n, Hartigan-Wong may stop its transfer stage early and warn;
  # the rounding is only a start, so that warning is not passed on)
  fit <- withCallingHandlers(
    stats::kmeans(v, centers = k, nstart = 3L, iter.max = 50L),
    warning = function(w) {
      if (grepl("Quick-TRANSfer", conditionMessage(w), fixed = TRUE)) invokeRestart("muffleWarning")
    })
  as.integer(factor(fit$cluster, levels = unique(fit$cluster)))
}
