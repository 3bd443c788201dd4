# The approximations of the RBF kernel of kernel_rdp_means() for large n:
# low-rank feature maps (Nystrom, random Fourier features), whose features
# go to the core as the points of a linear kernel, and the sparse
# k-nearest-neighbour graph kernel, which goes to the core as a sparse kernel
# matrix. Neither forms an n x n matrix.

# The approximation a fit uses: "auto" is exact for kernels other than "rbf"
# (the user's own matrix, the linear kernel) and for n at most
# getOption("sideclust.kernel_exact_max", 5000), Nystrom beyond.
resolve_approximation <- function(approximation, kernel, n) {
  if (kernel != "rbf") {
    if (!approximation %in% c("auto", "exact")) {
      stop_arg("approximation", sprintf(paste0(
        "\"%s\" approximates the \"rbf\" kernel only; kernel = \"%s\" is always exact"),
        approximation, kernel))
    }
    return("exact")
  }
  if (approximation != "auto") return(approximation)
  exact_max <- getOption("sideclust.kernel_exact_max", 5000)
  if (n <= exact_max) "exact" else "nystrom"
}

# The kernel of an approximated fit, as prepare_kernel() returns it plus
# `approximation`, `sigma` and `map` (what predict() needs to place new
# points): spec is a linear kernel on the m x n features (Nystrom, RFF) or a
# sparse kernel (knn).
prepare_approximate_kernel <- function(x, approximation, sigma, landmarks, neighbours) {
  x <- check_points(x, "x", min_rows = 2L)
  n <- nrow(x)
  centred <- centre_kernel_points(x, x)
  sigma <- if (is.null(sigma)) median_sigma(centred) else
    check_number(sigma, "sigma", lower = 0, lower_open = TRUE)
  if (approximation == "knn") {
    neighbours <- check_count(neighbours, "neighbours", lower = 1L)
    if (neighbours >= n) {
      stop_arg("neighbours", sprintf("(%d) must be below the number of points (%d)", neighbours, n))
    }
    graph <- knn_kernel(centred, sigma, neighbours)
    spec <- list(type = "sparse", p = graph@p, i = graph@i, x = graph@x, n = n)
    map <- list(type = "knn", neighbours = neighbours)
    return(list(spec = spec, n = n, data = x, sigma = sigma, approximation = approximation,
                map = map, graph = graph))
  }
  default_m <- if (approximation == "rff") 300L else 100L
  m <- if (is.null(landmarks)) min(n, default_m) else check_count(landmarks, "landmarks", lower = 1L)
  if (approximation == "nystrom" && m > n) {
    stop_arg("landmarks", sprintf("(%d) must be at most the number of points (%d) for \"nystrom\"", m, n))
  }
  map <- if (approximation == "nystrom") nystrom_map(centred, sigma, m) else
    rff_map(ncol(centred), sigma, m)
  spec <- list(type = "linear", x = feature_columns(map, centred))
  list(spec = spec, n = n, data = x, sigma = sigma, approximation = approximation, map = map)
}

# The RBF kernel between the rows of a (n_a x p) and of b (n_b x p): n_a x n_b.
rbf_cross <- function(a, b, sigma) {
  d2 <- outer(rowSums(a^2), rowSums(b^2), "+") - 2 * tcrossprod(a, b)
  exp(-pmax(d2, 0) / (2 * sigma^2))
}

# Landmarks by k-means++ seeding in the kernel's feature space (Arthur &
# Vassilvitskii 2007): each next landmark is drawn with probability
# proportional to its squared feature distance 2 - 2 K(x, l) to the nearest
# landmark so far. O(n m p) time, O(n) memory; draws R's random numbers.
kmeanspp_rows <- function(x, sigma, m) {
  n <- nrow(x)
  rows <- integer(m)
  d2 <- rep(Inf, n)
  next_row <- sample.int(n, 1L)
  for (j in seq_len(m)) {
    rows[j] <- next_row
    d2 <- pmin(d2, 2 - 2 * rbf_cross(x, x[next_row, , drop = FALSE], sigma)[, 1L])
    d2[next_row] <- 0
    if (j == m) break
    total <- sum(d2)
    next_row <- if (total > 0) {
      # inverse-CDF draw: one pass, where sample(prob =) would sort all n weights
      min(n, findInterval(stats::runif(1L) * total, cumsum(d2)) + 1L)
    } else {
      free <- setdiff(seq_len(n), rows[seq_len(j)])  # every point is a landmark's copy
      free[sample.int(length(free), 1L)]
    }
    if (d2[next_row] == 0 && total > 0) next_row <- which.max(d2)  # rounding at a cumsum step
  }
  rows
}

# Nystrom (Williams & Seeger 2001): with landmarks L, features
# z(y) = Lambda^(-1/2) U' K(L, y) for the eigenpairs (U, Lambda) of K(L, L),
# so z(x)'z(y) = K(x, L) K(L, L)^+ K(L, y), exact when the landmarks are all
# the points. Eigenvalues below 1e-10 of the largest are dropped.
nystrom_map <- function(centred, sigma, m) {
  rows <- kmeanspp_rows(centred, sigma, m)
  landmarks <- centred[rows, , drop = FALSE]
  eig <- eigen(rbf_cross(landmarks, landmarks, sigma), symmetric = TRUE)
  keep <- eig$values > 1e-10 * max(eig$values)
  projection <- eig$vectors[, keep, drop = FALSE] %*% diag(1 / sqrt(eig$values[keep]), sum(keep))
  list(type = "nystrom", sigma = sigma, landmarks = landmarks, rows = rows,
       projection = projection)
}

# Random Fourier features (Rahimi & Recht 2007): z(y) = sqrt(2 / m)
# cos(W'y + b), W ~ N(0, I / sigma^2), b ~ U(0, 2 pi), so that E z(x)'z(y)
# is the RBF kernel. Draws R's random numbers.
rff_map <- function(p, sigma, m) {
  list(type = "rff", sigma = sigma,
       w = matrix(stats::rnorm(p * m), p, m) / sigma,
       b = stats::runif(m, 0, 2 * pi))
}

# The features of the (centred) rows of y as the columns of an m x n matrix,
# a block of rows at a time: O(n m) memory, never n x n.
feature_columns <- function(map, y, block = 20000L) {
  n <- nrow(y)
  m <- if (map$type == "nystrom") ncol(map$projection) else length(map$b)
  out <- matrix(0, m, n)
  for (start in seq(1L, n, by = block)) {
    rows <- start:min(n, start + block - 1L)
    yb <- y[rows, , drop = FALSE]
    out[, rows] <- if (map$type == "nystrom") {
      crossprod(map$projection, rbf_cross(map$landmarks, yb, map$sigma))
    } else {
      sqrt(2 / m) * cos(crossprod(map$w, t(yb)) + map$b)
    }
  }
  out
}

# The sparse k-nearest-neighbour kernel: K_ij = exp(-|x_i - x_j|^2 /
# (2 sigma^2)) when j is among the `neighbours` nearest points of i or i
# among those of j, 0 otherwise, ones on the diagonal: symmetric, n x n
# with at most 2 n neighbours nonzeros. Neighbours by HNSW (RcppHNSW).
knn_kernel <- function(centred, sigma, neighbours) {
  nn <- knn_search(centred, centred, neighbours + 1L)
  n <- nrow(centred)
  from <- rep(seq_len(n), ncol(nn$idx))
  to <- as.vector(nn$idx)
  d2 <- as.vector(nn$dist)^2
  off <- from != to
  lo <- pmin(from, to)[off]
  hi <- pmax(from, to)[off]
  d2 <- d2[off]
  first <- !duplicated(lo + (hi - 1) * n)  # a pair found from both ends once
  lo <- lo[first]
  hi <- hi[first]
  w <- exp(-d2[first] / (2 * sigma^2))
  Matrix::sparseMatrix(i = c(lo, hi, seq_len(n)), j = c(hi, lo, seq_len(n)),
                       x = c(w, w, rep(1, n)), dims = c(n, n))
}

# The `k` nearest rows of `data` to every row of `query` (itself included
# when query is data): list(idx, dist) with Euclidean distances, n x k.
# HNSW graphs (Malkov & Yashunin 2018) through RcppHNSW, single-threaded so
# that the graph, hence the fit, is the same on every run.
knn_search <- function(data, query, k) {
  if (!requireNamespace("RcppHNSW", quietly = TRUE)) {
    stop_arg("approximation", paste0(
      "\"knn\" needs the RcppHNSW package (suggested, not required) for its ",
      "nearest-neighbour search; install it or use approximation = \"nystrom\""))
  }
  set <- hnsw_settings(ncol(data), k)
  if (identical(data, query)) {
    return(RcppHNSW::hnsw_knn(data, k = k, distance = "euclidean", M = set$M, ef = set$ef,
                              ef_construction = set$ef_construction, progress = "none",
                              n_threads = 0))
  }
  index <- RcppHNSW::hnsw_build(data, distance = "euclidean", M = set$M,
                                ef = set$ef_construction, progress = "none", n_threads = 0)
  RcppHNSW::hnsw_search(query, index, k = k, ef = set$ef, progress = "none", n_threads = 0)
}

# HNSW's graph degree M, build effort and search effort ef for k neighbours
# in p dimensions: sparser graphs and less effort find the exact neighbours
# in up to 3 dimensions (not in 5 or 10, where some are missed). Beyond 3,
# RcppHNSW's M = 16 with a build effort of 64 (a third of its default).
hnsw_settings <- function(p, k) {
  if (p <= 3L) list(M = 8L, ef_construction = 32L, ef = max(16L, k + 5L)) else
    list(M = 16L, ef_construction = 64L, ef = max(64L, 2L * k))
}

# For predict(): per-cluster kernel sums of new (centred) points y to the
# training points under an approximated fit; n_new x k. Low-rank maps use
# the clusters' feature sums; the knn kernel sums over each new point's
# `neighbours` nearest training points.
approximate_cluster_sums <- function(object, y, training) {
  map <- object$feature_map
  if (map$type == "knn") {
    nn <- knn_search(training, y, map$neighbours)
    w <- exp(-nn$dist^2 / (2 * object$sigma^2))
    cl <- matrix(object$cluster[nn$idx], nrow(nn$idx))
    sums <- matrix(0, nrow(y), object$k)
    for (c in seq_len(object$k)) sums[, c] <- rowSums(w * (cl == c))
    return(list(sums = sums, self = 1))
  }
  z <- feature_columns(map, y)
  list(sums = crossprod(z, t(object$feature_sums)), self = colSums(z^2))
}
