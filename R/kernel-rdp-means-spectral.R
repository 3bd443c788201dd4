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
  w <- ifelse(side$must, xi[["must"]], -xi[["cannot"]]) * side$confidence
  e <- Matrix::sparseMatrix(i = c(side$i, side$j), j = c(side$j, side$i), x = c(w, w),
                            dims = c(n, n))
  function(v) as.matrix(e %*% v)
}

# Eigenvectors (columns) with eigenvalue above lambda, at most `rank`. The
# dense solver for n <= dense_max (and for sparse kernels only without
# RSpectra, up to 3000 points).
spectral_vectors <- function(kern, side, lambda, xi, rank, dense_max = 1000L) {
  n <- kern$n
  m <- min(rank, n - 1L)
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
  } else {
    product <- function(v, args) kernel_product(kern, as.matrix(v)) + side_op(as.matrix(v))
    eig <- RSpectra::eigs_sym(product, k = m, n = n, which = "LA")
    values <- eig$values
    vectors <- eig$vectors
  }
  keep <- values > lambda
  list(vectors = vectors[, keep, drop = FALSE], values = values[keep])
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
  k <- min(ncol(v), nrow(unique(round(v, 12))))
  if (k <= 1L) return(rep(1L, n))
  fit <- stats::kmeans(v, centers = k, nstart = 3L, iter.max = 50L)
  as.integer(factor(fit$cluster, levels = unique(fit$cluster)))
}
