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
    return(check_data_scale(check_data_matrix(x, arg), arg))
  }
  if (!is.array(x) || length(dim(x)) < 2L) {
    stop_arg(arg, "must be a numeric matrix, data.frame or array with at least 2 dimensions, not ",
             if (is.array(x)) "a 1-d array" else class(x)[1L])
  }
  if (!(is.numeric(x) || is.logical(x))) stop_arg(arg, "must be numeric, not ", typeof(x))
  if (any(dim(x) == 0L)) stop_arg(arg, "has a dimension of extent 0")
  bad <- !is.finite(x)
  if (any(bad)) {
    stop_arg(arg, sprintf("has %d NA, NaN or infinite values (first at cell %d); give them weight 0 and a finite value",
                          sum(bad), which(bad)[1L]))
  }
  check_data_scale(array(as.double(x), dim(x), dimnames(x)), arg)
}

# The whole data set must have a non-singular model covariance, so that one
# cluster is always a valid fallback.
check_cec_covariance <- function(x, type) {
  centred <- sweep(x, 2L, colMeans(x))
  ok <- switch(type,
    full = qr(centred)$rank == ncol(x),
    diagonal = all(colSums(centred^2) > 0),
    spherical = sum(centred^2) > 0
  )
  if (!ok) {
    stop_arg("x", sprintf("has a singular covariance for type \"%s\" (constant or collinear columns); remove them or use another type",
                          type))
  }
  invisible(x)
}
