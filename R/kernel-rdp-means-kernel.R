# The kernel of kernel_rdp_means() as the glue reads it (see with_kernel() in
# src/r_kernel_rdp_means.cpp): list(spec = , n = , data = ), where data is
# what the fit keeps (the points, or the kernel matrix for "precomputed").

prepare_kernel <- function(x, kernel, sigma = NULL, arg = "x") {
  if (kernel == "precomputed") return(prepare_precomputed(x, arg))
  x <- check_points(x, arg, min_rows = 2L)
  # The cores see the centred points: the RBF kernel's |x|^2 + |y|^2 - 2 x'y
  # and the linear kernel's x'y lose every digit of the data once a common
  # shift dwarfs its spread; the kernel k-means costs do not depend on it.
  centred <- centre_kernel_points(x, x)
  spec <- list(type = kernel, x = t(centred))
  if (kernel == "rbf") {
    spec$sigma <- if (is.null(sigma)) median_sigma(centred) else
      check_number(sigma, "sigma", lower = 0, lower_open = TRUE)
  }
  list(spec = spec, n = nrow(x), data = x)
}

# Points y minus the column means of the training points: what the "rbf" and
# "linear" kernels of a fit are computed on (fitting and predict() alike).
centre_kernel_points <- function(y, training) {
  y - rep(colMeans(training), each = nrow(y))
}

# The median heuristic: the median Euclidean distance between points, among
# at most 1000 evenly spaced rows (deterministic: no random numbers drawn).
median_sigma <- function(x) {
  rows <- unique(round(seq(1, nrow(x), length.out = min(nrow(x), 1000L))))
  s <- stats::median(stats::dist(x[rows, , drop = FALSE]))
  if (!is.finite(s) || s <= 0) {
    stop_arg("sigma", "cannot come from the median heuristic: the points coincide; give `sigma`")
  }
  s
}

prepare_precomputed <- function(x, arg) {
  if (!(is.matrix(x) || inherits(x, "Matrix"))) {
    stop_arg(arg, "must be the n x n kernel matrix (a numeric matrix or Matrix) with kernel = \"precomputed\"")
  }
  if (nrow(x) != ncol(x) || nrow(x) < 2L) {
    stop_arg(arg, sprintf("must be a square kernel matrix of at least 2 x 2; got %d x %d",
                          nrow(x), ncol(x)))
  }
  n <- nrow(x)
  sparse <- inherits(x, "sparseMatrix")
  if (sparse) {
    x <- methods::as(methods::as(methods::as(x, "dMatrix"), "generalMatrix"), "CsparseMatrix")
    values <- x@x
  } else {
    x <- as.matrix(x)
    if (!is.numeric(x)) stop_arg(arg, "must be numeric")
    storage.mode(x) <- "double"
    values <- x
  }
  if (!all(is.finite(values))) stop_arg(arg, "has values that are not finite")
  if (!Matrix::isSymmetric(x, tol = 1e-10 * max(1, max(abs(values))))) {
    stop_arg(arg, "must be symmetric (a kernel matrix)")
  }
  spec <- if (sparse) {
    list(type = "sparse", p = x@p, i = x@i, x = x@x, n = n)
  } else {
    list(type = "dense", matrix = x)
  }
  list(spec = spec, n = n, data = x)
}

# The sparse kernel matrix of a prepared "sparse" kernel: the "knn" graph,
# or the user's own matrix (which an exact fit keeps as its data).
sparse_kernel_matrix <- function(kern) kern$graph %||% kern$data

# K %*% v for an n x m matrix v, without forming K for "rbf" / "linear".
kernel_product <- function(kern, v) {
  s <- kern$spec
  switch(s$type,
    rbf = .rbf_product_cpp(s$x, s$sigma, v),
    linear = crossprod(s$x, s$x %*% v),
    dense = s$matrix %*% v,
    sparse = as.matrix(sparse_kernel_matrix(kern) %*% v))
}

# The n x n kernel matrix (small n only).
kernel_dense <- function(kern) {
  s <- kern$spec
  switch(s$type,
    rbf = exp(-as.matrix(stats::dist(t(s$x)))^2 / (2 * s$sigma^2)),
    linear = crossprod(s$x),
    dense = s$matrix,
    sparse = as.matrix(sparse_kernel_matrix(kern)))
}
