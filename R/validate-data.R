# Argument validators for data beyond a plain numeric matrix: counts, sparse
# joint tables, tensors and the covariance a model needs. Argument validators
# live in R/validate*.R and nowhere else.

check_counts <- function(x, arg) {
  bad <- which(x < 0, arr.ind = TRUE)
  if (length(bad)) {
    stop_arg(arg, sprintf("must hold counts for family \"multinomial\" but has %d negative values (%s)",
                          nrow(bad), describe_positions(unique(bad[, 1L]))))
  }
  invisible(x)
}

check_entries <- function(csr, arg, binary) {
  if (length(csr$val) == 0L) return(invisible())
  # the common case without a temporary as long as the non-zeros (range()
  # would copy them)
  lo <- min(csr$val)
  if (if (binary) lo == 1 && max(csr$val) == 1 else lo >= 0) return(invisible())
  bad <- if (binary) which(csr$val != 1) else which(csr$val < 0)
  if (length(bad) == 0L) return(invisible())
  rows <- csr_rows(csr$ptr, bad - 1L)
  cells <- sprintf("[%d, %d]", rows, csr$idx[bad] + 1L)
  what <- if (binary) "entries other than 0 and 1" else "negative entries"
  stop_arg(arg, sprintf("has %d %s (at %s); %s", length(bad), what,
                        trimws(describe_positions(cells, what = "")),
                        if (binary) "it must be a 0/1 (or logical) matrix" else
                          "counts and probabilities must be non-negative"))
}

check_empty <- function(ptr, arg, what, fix) {
  empty <- which(diff(ptr) == 0L)
  if (length(empty) == 0L) return(invisible())
  stop_arg(arg, sprintf(
    "has %d all-zero %s%s (%s): they carry no information about the other variable; drop them first, e.g. %s",
    length(empty), what, if (length(empty) == 1L) "" else "s",
    trimws(describe_positions(empty, what = "")), fix))
}

# A finite double array with two or more dimensions, none of extent 0.
check_tensor <- function(x, arg) {
  if (is.data.frame(x) || inherits(x, "Matrix") || is.matrix(x)) {
    if (is.matrix(x) && !(is.numeric(x) || is.logical(x))) {
      stop_arg(arg, "must be numeric, not ", typeof(x))
    }
    return(check_points(x, arg))
  }
  if (!is.array(x) || length(dim(x)) < 2L) {
    stop_arg(arg, "must be a numeric matrix, data.frame or array with at least 2 dimensions, not ",
             if (is.array(x)) "a 1-d array" else class(x)[1L])
  }
  if (!(is.numeric(x) || is.logical(x))) stop_arg(arg, "must be numeric, not ", typeof(x))
  if (any(dim(x) == 0L)) stop_arg(arg, "has a dimension of extent 0")
  # a plain double array as it is; others copied once (as before, without
  # attributes beyond dim and dimnames)
  if (!is.double(x) || length(setdiff(names(attributes(x)), c("dim", "dimnames"))) > 0L) {
    x <- array(as.double(x), dim(x), dimnames(x))
  }
  s <- .scan_points_cpp(x, FALSE)  # one pass: finite, smallest and largest
  if (!s$finite) {
    bad <- !is.finite(x)
    stop_arg(arg, sprintf("has %d NA, NaN or infinite values (first at cell %d); give them weight 0 and a finite value",
                          sum(bad), which(bad)[1L]))
  }
  check_value_range(s$lo, s$hi, length(x), arg, TRUE)
  x
}

# The whole data set must have a non-singular model covariance, so that one
# cluster is always a valid fallback.
# Families that fix the covariance or its eigenvalues are never singular;
# fixed_mean is as strict as full (its second moment dominates the covariance).
check_cec_covariance <- function(x, type) {
  # from the p x p covariance: no n x p centred copy of x
  s <- if (nrow(x) > 1L) stats::cov(x) else matrix(0, ncol(x), ncol(x))
  v <- diag(s)
  ok <- switch(type,
    full = , fixed_mean = {
      # singular values of the centred data below 1e-7 of the largest, as
      # qr()'s rank tolerance, are eigenvalues below 1e-14 of the largest
      e <- eigen(s, symmetric = TRUE, only.values = TRUE)$values
      e[1L] > 0 && e[length(e)] > 1e-14 * e[1L]
    },
    diagonal = all(v > 0),
    spherical = sum(v) > 0,
    TRUE
  )
  if (!ok) {
    stop_arg("x", sprintf("has a singular covariance for type \"%s\" (constant or collinear columns); remove them or use another type",
                          type))
  }
  invisible(x)
}

# The seven Gaussian families of cross-entropy clustering, in the order of
# the core's CecType codes, and the CEC package's names for them (matched
# like CEC matches them, by unique prefix).
cec_families <- c("full", "diagonal", "spherical", "fixed_covariance", "fixed_spherical",
                  "eigenvalues", "fixed_mean")
cec_family_aliases <- c(all = "full", covariance = "fixed_covariance",
                        fixedr = "fixed_spherical", spherical = "spherical",
                        diagonal = "diagonal", eigenvalues = "eigenvalues", mean = "fixed_mean")
cec_param_families <- c("fixed_covariance", "fixed_spherical", "eigenvalues", "fixed_mean")

# type (length 1 or k) and param of cec() / cec_ib(): returns list(types =
# canonical family per cluster, params = list of k parameters, NULL where
# the family has none). param: the parameter of a single type, a list of k
# (one per cluster), or, as in CEC, a list with one entry per cluster whose
# family takes a parameter.
check_cec_families <- function(type, param, k, p) {
  if (!is.character(type) || length(type) == 0L || anyNA(type)) {
    stop_arg("type", "must be a character vector of Gaussian families")
  }
  if (!length(type) %in% c(1L, k)) {
    stop_arg("type", sprintf("has length %d; give one family or one per cluster (k = %d)",
                             length(type), k))
  }
  types <- vapply(type, function(t) {
    if (t %in% cec_families) return(t)
    hit <- pmatch(t, names(cec_family_aliases))
    if (is.na(hit)) {
      stop_arg("type", sprintf("has unknown family \"%s\"; use one of %s (or CEC's %s)", t,
                               paste0('"', cec_families, '"', collapse = ", "),
                               paste0('"', names(cec_family_aliases), '"', collapse = ", ")))
    }
    cec_family_aliases[[hit]]
  }, "", USE.NAMES = FALSE)
  needs <- types %in% cec_param_families
  if (length(types) == 1L) {
    if (!needs) {
      if (!is.null(param)) stop_arg("param", sprintf("is not used by type \"%s\"; leave it NULL", types))
      return(list(types = rep(types, k), params = vector("list", k)))
    }
    if (is.null(param)) stop_arg("param", sprintf("is missing; type \"%s\" needs %s", types,
                                                  cec_param_what(types, p)))
    per_cluster <- is.list(param) && length(param) == k
    params <- if (per_cluster) param else rep(list(param), k)
    types <- rep(types, k)
  } else {
    if (!any(needs)) {
      if (!is.null(param)) stop_arg("param", "is not used by these types; leave it NULL")
      return(list(types = types, params = vector("list", k)))
    }
    if (!is.list(param)) stop_arg("param", "must be a list when `type` gives one family per cluster")
    per_cluster <- TRUE
    if (length(param) == k) {
      params <- param
    } else if (length(param) == sum(needs)) {
      params <- vector("list", k)
      params[needs] <- param
    } else {
      stop_arg("param", sprintf("has %d entries; give one per cluster (%d) or one per cluster whose family takes a parameter (%d)",
                                length(param), k, sum(needs)))
    }
  }
  for (a in seq_len(k)) {
    params[a] <- list(if (types[a] %in% cec_param_families) {
      check_cec_param(params[[a]], types[a], p, if (per_cluster) a)
    })
  }
  list(types = types, params = params)
}

cec_param_what <- function(type, p) {
  switch(type,
    fixed_covariance = sprintf("a %d x %d positive definite covariance matrix", p, p),
    fixed_spherical = "a radius r > 0 (the variance of every coordinate, covariance r I)",
    eigenvalues = sprintf("%d positive eigenvalues", p),
    fixed_mean = sprintf("a mean vector of length %d", p))
}

# One family's parameter, validated; `cluster` (or NULL) names the cluster.
check_cec_param <- function(value, type, p, cluster = NULL) {
  where <- if (is.null(cluster)) sprintf("for type \"%s\"", type) else
    sprintf("for cluster %d (type \"%s\")", cluster, type)
  bad <- function(what) stop_arg("param", sprintf("%s %s", where, what))
  if (is.null(value)) bad(sprintf("is missing; give %s", cec_param_what(type, p)))
  if (!is.numeric(value) || anyNA(value) || any(!is.finite(value))) {
    bad(sprintf("must be finite numbers: %s", cec_param_what(type, p)))
  }
  switch(type,
    fixed_covariance = {
      value <- as.matrix(value)
      if (!identical(dim(value), c(p, p))) {
        bad(sprintf("must be a %d x %d matrix; got %d x %d", p, p, nrow(value), ncol(value)))
      }
      if (max(abs(value - t(value))) > 1e-10 * max(1, abs(value))) bad("must be symmetric")
      value <- (value + t(value)) / 2
      ev <- eigen(value, symmetric = TRUE, only.values = TRUE)$values
      if (min(ev) <= 1e-12 * max(abs(ev))) {
        bad(sprintf("must be positive definite; its smallest eigenvalue is %s", format(min(ev))))
      }
      unname(value)
    },
    fixed_spherical = {
      if (length(value) != 1L) bad(sprintf("must be a single radius r > 0; got %d values", length(value)))
      if (value <= 0) bad(sprintf("must be a radius r > 0; got %s", format(value)))
      as.double(value)
    },
    eigenvalues = {
      if (length(value) != p) bad(sprintf("must have p = %d eigenvalues; got %d", p, length(value)))
      if (any(value <= 0)) bad("must have positive eigenvalues")
      as.double(value)
    },
    fixed_mean = {
      if (length(value) != p) bad(sprintf("must be a mean vector of length p = %d; got %d", p, length(value)))
      as.double(value)
    })
}

# Sparse points ---------------------------------------------------------------
# A sparse data matrix (any Matrix sparse class, or slam's
# simple_triplet_matrix) given to a method whose arithmetic runs over the
# non-zeros (RDP-means / DP-means, multinomial TVClust) stays sparse: it
# becomes, once, the row-compressed form the C++ core reads in place (rows =
# points; a dgRMatrix is used as is, a dgCMatrix costs one transpose, O(nnz)
# time and one copy of its non-zeros; other classes one conversion more).

is_sparse_input <- function(x) {
  inherits(x, "sparseMatrix") || inherits(x, "simple_triplet_matrix")
}

# Returns a list of class "sideclust_sparse_points": ptr, idx (0-based), val,
# n, p, scale (NULL: all 1), offset (0), row_sums, col_sums, row_names,
# col_names. The
# core reads point i as scale[i] * (its stored values + offset).
sparse_points <- function(x, arg = "x", min_rows = 1L) {
  if (inherits(x, "simple_triplet_matrix")) {
    x <- Matrix::sparseMatrix(i = x$i, j = x$j, x = as.double(x$v), dims = c(x$nrow, x$ncol),
                              dimnames = x$dimnames)
  }
  if (methods::is(x, "RsparseMatrix")) {
    x <- methods::as(methods::as(x, "generalMatrix"), "dMatrix")
    csr <- list(ptr = x@p, idx = x@j, val = x@x)
  } else {
    x <- methods::as(methods::as(methods::as(x, "CsparseMatrix"), "generalMatrix"), "dMatrix")
    # one counting-sort transpose into the row arrays (Matrix::t() peaks at
    # about two copies of the non-zeros)
    csr <- .csr_of_csc_cpp(x@p, x@i, x@x, nrow(x), ncol(x))
  }
  row_sums <- Matrix::rowSums(x)
  col_sums <- Matrix::colSums(x)
  dn <- dimnames(x)
  d <- dim(x)
  if (d[1L] == 0L) stop_arg(arg, "has no rows")
  if (d[2L] == 0L) stop_arg(arg, "has no columns")
  if (d[1L] < min_rows) {
    stop_arg(arg, sprintf("has %d row%s; at least %d are needed", d[1L],
                          if (d[1L] == 1L) "" else "s", min_rows))
  }
  val <- csr$val
  # no nnz-long temporary unless something is wrong
  if (!is.finite(sum(val))) {
    bad <- which(!is.finite(val))
    if (length(bad)) {
      stop_arg(arg, sprintf("has %d NA, NaN or infinite values (%s); remove or impute them",
                            length(bad), describe_positions(unique(csr_rows(csr$ptr, bad - 1L)))))
    }
  }
  structure(list(ptr = csr$ptr, idx = csr$idx, val = val, n = d[1L], p = d[2L],
                 scale = NULL, offset = 0, row_sums = unname(row_sums),
                 col_sums = unname(col_sums),
                 row_names = dn[[1L]], col_names = dn[[2L]]),
            class = "sideclust_sparse_points")
}

# check_data_scale() for sparse points: the implicit zeros count as values.
check_sparse_scale <- function(sp, arg = "x", spread = TRUE) {
  values <- if (length(sp$val)) c(min(sp$val), max(sp$val)) else 0  # range() would copy
  if (length(sp$val) < as.double(sp$n) * sp$p) values <- c(values, 0)
  lo <- min(values)
  hi <- max(values)
  big <- max(-lo, hi)
  limit <- sqrt(.Machine$double.xmax / (8 * max(as.double(sp$n) * sp$p, 1)))
  if (big > limit) {
    stop_arg(arg, sprintf(paste0(
      "has values up to %.3g: too large for its squared distances in double ",
      "precision (at most about %.3g for data of this size); divide it by a constant"),
      big, limit))
  }
  if (spread && hi > lo && hi - lo < 1e-100 * max(1, big)) {
    stop_arg(arg, sprintf("varies by at most %.3g: its squared distances underflow to zero in double precision; multiply it by a constant",
                          hi - lo))
  }
  sp
}

# Rows (1-based) holding a negative value, or none.
sparse_negative_rows <- function(sp) {
  if (length(sp$val) == 0L || min(sp$val) >= 0) return(integer())
  unique(csr_rows(sp$ptr, which(sp$val < 0) - 1L))
}

# The data as the core takes it: points as columns of a dense matrix, or the
# sparse points as they are; and their number and names.
points_for_core <- function(x) {
  if (inherits(x, "sideclust_sparse_points")) x else transpose_points(x)
}

# t(x) for the cores, which read points as columns: a double matrix through a
# cache-blocked transpose in C++ (R's t() costs about a Lloyd iteration of
# k-means at 1e6 x 10), anything else through t(). Same values, same dimnames.
transpose_points <- function(x) {
  if (!is.matrix(x) || !is.double(x)) return(t(x))
  out <- .transpose_cpp(x)
  if (!is.null(dn <- dimnames(x))) dimnames(out) <- rev(dn)
  out
}
n_points <- function(x) if (inherits(x, "sideclust_sparse_points")) x$n else nrow(x)
n_coordinates <- function(x) if (inherits(x, "sideclust_sparse_points")) x$p else ncol(x)
point_names <- function(x) {
  if (inherits(x, "sideclust_sparse_points")) x$row_names else rownames(x)
}
coordinate_names <- function(x) {
  if (inherits(x, "sideclust_sparse_points")) x$col_names else colnames(x)
}

# Count data (TVClust's multinomial family): sparse input as sparse points,
# anything else as a checked dense matrix; no negative values either way.
count_points <- function(x, arg = "x", min_rows = 1L) {
  if (inherits(x, "sideclust_sparse_points")) return(x)  # checked already
  if (!is_sparse_input(x)) {
    pts <- scan_points(x, arg, min_rows = min_rows, spread = FALSE)
    return(if (pts$lo >= 0) pts$x else check_counts(pts$x, arg))
  }
  sp <- check_sparse_scale(sparse_points(x, arg, min_rows), arg, spread = FALSE)
  if (length(rows <- sparse_negative_rows(sp))) {
    stop_arg(arg, sprintf("must hold counts for family \"multinomial\" but has negative values (%s)",
                          describe_positions(rows)))
  }
  sp
}

# A sparse input as a dgCMatrix (for the few summaries computed in R with
# Matrix's sparse products: per-cluster sums, row sums).
as_sparse_matrix <- function(x) {
  if (inherits(x, "simple_triplet_matrix")) {
    return(Matrix::sparseMatrix(i = x$i, j = x$j, x = as.double(x$v), dims = c(x$nrow, x$ncol),
                                dimnames = x$dimnames))
  }
  methods::as(methods::as(methods::as(x, "CsparseMatrix"), "generalMatrix"), "dMatrix")
}

# Per-cluster sums of the rows of x (dense or sparse) with weights w (n x k):
# a dense k x p matrix, crossprod(w, x).
weighted_row_sums <- function(w, x) {
  if (!is_sparse_input(x)) return(crossprod(w, x))
  as.matrix(Matrix::crossprod(w, as_sparse_matrix(x)))
}

# var() of each column of a double matrix, read in place (taking columns out
# with x[, j] or apply() would make a copy of x in garbage).
column_variances <- function(x) .column_variances_cpp(x)

# The methods normalise the counts into a joint distribution; a total beyond
# double precision would turn every probability into 0 or NaN.
check_total <- function(val, arg) {
  total <- sum(val)
  if (!is.finite(total)) {
    stop_arg(arg, sprintf(paste0(
      "has entries up to %.3g whose total overflows double precision; ",
      "divide them by a constant (e.g. %s / max(%s)): only proportions matter"),
      max(val), arg, arg))
  }
  if (total > 0 && total < 1e-280) {
    stop_arg(arg, sprintf(paste0(
      "has entries whose total is %.3g, where probabilities lose precision; ",
      "multiply them by a constant (e.g. %s / max(%s)): only proportions matter"),
      total, arg, arg))
  }
  invisible(val)
}
