# Argument validators for numbers of clusters and starting points: k (one or
# several), start partitions and start prototypes. Argument validators live in
# R/validate*.R and nowhere else.

check_k <- function(k, n, arg = "k", what = "rows") {
  if (missing(k)) stop_arg(arg, "is missing")
  k <- check_count(k, arg)
  if (k > n) stop_arg(arg, sprintf("is %d but there are only %d %s", k, n, what))
  k
}

# A start partition (whole numbers in 1..k, one per point) for the core, or
# integer(0) for none.
check_partition_start <- function(start, n, k, arg = "start") {
  if (is.null(start)) return(integer(0))
  must <- sprintf("must be %d integers in 1..%d", n, k)
  if (is.factor(start) || !is.numeric(start) || !is.null(dim(start))) {
    stop_arg(arg, must, " (a numeric vector, one cluster per point)")
  }
  if (length(start) != n) stop_arg(arg, must, sprintf("; it has length %d", length(start)))
  bad <- which(is.na(start) | start != round(start) | start < 1 | start > k)
  if (length(bad) > 0) {
    stop_arg(arg, must, sprintf("; %d %s not (%s)", length(bad),
                                if (length(bad) == 1L) "is" else "are",
                                describe_positions(bad, "positions")))
  }
  as.integer(start)
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
    stop_arg("start", sprintf("must be a %d x %d matrix (rows of `x` x length(k))", n, m))
  }
  for (j in seq_len(m)) {
    s <- start[, j]
    if (anyNA(s) || any(s != round(s)) || any(s < 1 | s > k[j])) {
      stop_arg("start", sprintf("column %d must hold integers in 1..%d", j, k[j]))
    }
  }
  as.integer(start)
}

# A k x p matrix of finite prototypes.
check_prototypes <- function(start, k, p, arg) {
  start <- check_data_matrix(start, arg)
  if (nrow(start) != k || ncol(start) != p) {
    stop_arg(arg, sprintf("is %d x %d but must be k x ncol(x) = %d x %d",
                          nrow(start), ncol(start), k, p))
  }
  start
}

# k: one or two whole numbers in 1 .. (number of distinct rows); returns c(r, s).
check_disparate_k <- function(k, x) {
  if (!is.numeric(k) || !(length(k) %in% 1:2) || anyNA(k) || any(!is.finite(k)) ||
      any(k != round(k))) {
    stop_arg("k", "must be one or two whole numbers (both clusterings, or c(r, s))")
  }
  if (any(k < 1)) stop_arg("k", sprintf("must be at least 1; got %s", paste(k, collapse = ", ")))
  k <- rep_len(as.integer(k), 2L)
  check_k_distinct(max(k), x)
  k
}

# start: a list of two numeric matrices with ncol(x) columns and no NA.
check_disparate_start <- function(start, x) {
  if (!is.list(start) || is.data.frame(start) || length(start) != 2L) {
    stop_arg("start", "must be a list of two prototype matrices (r x p and s x p)")
  }
  lapply(seq_len(2L), function(i) {
    m <- check_data_matrix(start[[i]], "start")
    if (ncol(m) != ncol(x)) {
      stop_arg("start", sprintf("[[%d]] has %d columns but `x` has %d", i, ncol(m), ncol(x)))
    }
    if (nrow(m) > nrow(x)) {
      stop_arg("start", sprintf("[[%d]] must have at most %d rows; it has %d",
                                i, nrow(x), nrow(m)))
    }
    unname(m)
  })
}

check_multiway_k <- function(k, dims) {
  if (missing(k)) stop_arg("k", "is missing; give one number of clusters per dimension")
  if (!is.numeric(k) || length(k) != length(dims) || anyNA(k) || any(k != round(k))) {
    stop_arg("k", sprintf("must be %d whole numbers, one per dimension of `x`", length(dims)))
  }
  bad <- which(k < 1 | k > dims)
  if (length(bad)) {
    stop_arg("k", sprintf("must be between 1 and the extent of each dimension (%s); not so for dimension %s",
                          paste(dims, collapse = ", "), paste(bad, collapse = ", ")))
  }
  # Block statistics never outgrow the data, but each step holds an
  # (entities x clusters) cost matrix.
  big <- which(as.double(dims) * k > 1e8)
  if (length(big)) {
    stop_arg("k", sprintf("gives dimension %d a %s x %s cost matrix, too large; use fewer clusters",
                          big[1], format(dims[big[1]], big.mark = ","),
                          format(k[big[1]], big.mark = ",")))
  }
  as.integer(k)
}

# List of 0-based partitions for the core, or an empty list.
check_multiway_start <- function(start, dims, k) {
  check_partition_starts(start, dims, k, sprintf(
    "must be NULL or a list of %d clusterings, one per dimension", length(dims)))
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

# At most as many clusters as distinct rows of x (seeds must differ). A
# prefix of the rows usually settles it without scanning all of x.
check_k_distinct <- function(k, x, arg = "k") {
  if (inherits(x, "sideclust_sparse_points")) {
    # Distinct sparse rows are not counted: with fewer, seeds repeat and the
    # clusters left empty are dropped from the fit.
    if (k > x$n) stop_arg(arg, sprintf("(%d) is larger than the number of points in `x` (%d)", k, x$n))
    return(invisible(k))
  }
  head_rows <- x[seq_len(min(nrow(x), 20L * k)), , drop = FALSE]
  if (nrow(unique(head_rows)) >= k) return(invisible(k))
  distinct <- nrow(unique(x))
  if (k > distinct) {
    stop_arg(arg, sprintf("(%d) is larger than the number of distinct points in `x` (%d)",
                          k, distinct))
  }
  invisible(k)
}

# The number of prototypes of a k-means-like front door: `k`, or the rows of
# `start` when `k` is missing (R's missing() sees through to the caller's
# argument), at most the number of distinct rows of x.
check_k_or_start <- function(k, start, x) {
  if (missing(k)) {
    if (is.null(start)) stop_arg("k", "is missing; give the number of clusters (or `start`)")
    k <- NROW(start)
  }
  k <- check_count(k, "k", lower = 1L)
  check_k_distinct(k, x)
  k
}

# Initial prototypes `start` (NULL or a finite k x ncol(x) matrix) as the core
# takes them: points as columns (p x 0 for none). A start means one run,
# recorded as init "start".
check_start_prototypes <- function(start, k, x, restarts, init) {
  p <- n_coordinates(x)
  if (is.null(start)) return(list(centers = matrix(0, p, 0L), restarts = restarts, init = init))
  start <- check_data_matrix(start, "start")
  if (nrow(start) != k || ncol(start) != p) {
    stop_arg("start", sprintf("is %d x %d but must be k x ncol(x) = %d x %d",
                              nrow(start), ncol(start), k, p))
  }
  list(centers = t(start), restarts = 1L, init = "start")
}

# Start partitions of several sets at once (the types of kpartite_clustering(),
# the dimensions of multiway_clustering()): NULL, or a list with one cluster
# vector per set, each checked by check_partition_start() (sizes n, k
# clusters) and returned 0-based for the core; an empty list for NULL.
# `must` says what the list must be when its shape is wrong.
check_partition_starts <- function(start, n, k, must) {
  if (is.null(start)) return(list())
  if (!is.list(start) || length(start) != length(n)) stop_arg("start", must)
  lapply(seq_along(n), function(i) {
    check_partition_start(start[[i]], n[i], k[i], sprintf("start[[%d]]", i))
  })
}

# The arguments the prototype methods with pairwise side information share
# (cvqe, lcvqe, cop_kmeans, mpck_means), checked in one order: data, pairs,
# seeding (one of `inits`), k or start, restarts, max_iter, verbose. A
# `start` makes one run seeded "start". `options` is what every one of their
# glue entry points reads, for one run: prototype_runs() makes `restarts`.
# `transpose = FALSE` for a core that reads x in R's own layout.
check_prototype_fit <- function(x, side, k, start, restarts, max_iter, init, verbose,
                                max_pairs, inits = c("kmeans++", "random"), sparse_ok = FALSE,
                                transpose = TRUE) {
  # dense x: checked (and transposed for the core) in one pass (prototype_runs() reads xt)
  pts <- if (sparse_ok && is_sparse_input(x)) list(x = check_sparse_scale(sparse_points(x, "x"), "x")) else
    scan_points(x, "x", transpose = transpose)
  x <- pts$x
  side <- side_as_pairs(side, n_points(x), "side", max_pairs)
  init <- match_choice(init, inits, "init")
  k <- check_k_or_start(k, start, x)
  restarts <- check_count(restarts, "restarts", lower = 1L)
  max_iter <- check_count(max_iter, "max_iter", lower = 1L)
  verbose <- check_flag(verbose, "verbose")
  seeds <- check_start_prototypes(start, k, x, restarts, init)
  list(x = x, xt = pts$xt, side = side, restarts = seeds$restarts, init = seeds$init, max_iter = max_iter,
       options = list(k = k, restarts = 1L, max_iter = max_iter, init = seeds$init,
                      start = seeds$centers, verbose = verbose))
}
