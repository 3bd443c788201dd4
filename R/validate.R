# Shared argument checks. Every front door validates once, here, with messages
# that name the argument and the problem; the C++ core then trusts its input.

# Stop with a message that starts with the offending argument in backticks.
stop_arg <- function(arg, ...) {
  stop(sprintf("`%s` %s", arg, paste0(...)), call. = FALSE)
}

# Describe up to `max` positions, e.g. "rows 4, 9, 12 and 3 more".
describe_positions <- function(pos, what = "rows", max = 5L) {
  shown <- paste(utils::head(pos, max), collapse = ", ")
  more <- length(pos) - max
  if (more > 0) shown <- sprintf("%s and %d more", shown, more)
  sprintf("%s %s", what, shown)
}

# Coerce data to a finite double matrix with at least one row and column.
# Returns the matrix (rows are points).
check_data_matrix <- function(x, arg = "x", min_rows = 1L) {
  if (is.data.frame(x)) {
    bad <- !vapply(x, function(col) is.numeric(col) || is.logical(col), logical(1))
    if (any(bad)) {
      stop_arg(arg, "must contain only numeric columns; not numeric: ",
               paste(names(x)[bad], collapse = ", "))
    }
    x <- as.matrix(x)
  }
  if (inherits(x, "Matrix")) x <- as.matrix(x)
  if (is.vector(x) && is.numeric(x)) x <- matrix(x, ncol = 1L)
  if (!is.matrix(x)) {
    stop_arg(arg, "must be a numeric matrix or data.frame, not ",
             class(x)[1L])
  }
  if (!(is.numeric(x) || is.logical(x))) {
    stop_arg(arg, "must be numeric, not ", typeof(x))
  }
  if (nrow(x) == 0L) stop_arg(arg, "has no rows")
  if (ncol(x) == 0L) stop_arg(arg, "has no columns")
  if (nrow(x) < min_rows) {
    stop_arg(arg, sprintf("has %d row%s; at least %d are needed", nrow(x),
                          if (nrow(x) == 1L) "" else "s", min_rows))
  }
  # A plain double matrix: drops attributes such as scale()'s "scaled:center",
  # which prcomp() and friends would otherwise take as their own.
  x <- matrix(as.double(x), nrow(x), ncol(x), dimnames = dimnames(x))
  bad <- !is.finite(x)
  if (any(bad)) {
    rows <- which(rowSums(bad) > 0)
    kinds <- c(`NA` = sum(is.na(x) & !is.nan(x)), `NaN` = sum(is.nan(x)),
               `Inf` = sum(is.infinite(x)))
    kinds <- kinds[kinds > 0]
    stop_arg(arg, sprintf("has %s (%s); remove or impute them",
                          paste(kinds, names(kinds), "values", collapse = ", "),
                          describe_positions(rows)))
  }
  x
}

# A single finite number, optionally bounded.
check_number <- function(x, arg, lower = -Inf, upper = Inf,
                         lower_open = FALSE, upper_open = FALSE,
                         allow_inf = FALSE) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x)) {
    stop_arg(arg, "must be a single number")
  }
  if (!allow_inf && !is.finite(x)) stop_arg(arg, "must be finite, not ", x)
  below <- if (lower_open) x <= lower else x < lower
  above <- if (upper_open) x >= upper else x > upper
  if (below || above) {
    stop_arg(arg, sprintf("must be in %s%s, %s%s; got %s",
                          if (lower_open) "(" else "[", format(lower),
                          format(upper), if (upper_open) ")" else "]",
                          format(x)))
  }
  as.double(x)
}

# A single whole number >= lower.
check_count <- function(x, arg, lower = 1L, upper = .Machine$integer.max) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || !is.finite(x) ||
      x != round(x)) {
    stop_arg(arg, "must be a single whole number")
  }
  if (x < lower) stop_arg(arg, sprintf("must be at least %d; got %s", lower, format(x)))
  if (x > upper) stop_arg(arg, sprintf("must be at most %d; got %s", upper, format(x)))
  as.integer(x)
}

check_flag <- function(x, arg) {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) {
    stop_arg(arg, "must be TRUE or FALSE")
  }
  x
}

# One of `choices`; the full default vector (an unset argument) gives the first.
match_choice <- function(x, choices, arg) {
  if (identical(x, choices)) return(choices[1L])
  if (!is.character(x) || length(x) != 1L || is.na(x) || !x %in% choices) {
    stop_arg(arg, "must be one of ", paste0('"', choices, '"', collapse = ", "))
  }
  x
}

# At most as many clusters as distinct rows of x (seeds must differ). A
# prefix of the rows usually settles it without scanning all of x.
check_k_distinct <- function(k, x, arg = "k") {
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
  p <- ncol(x)
  if (is.null(start)) return(list(centres = matrix(0, p, 0L), restarts = restarts, init = init))
  start <- check_data_matrix(start, "start")
  if (nrow(start) != k || ncol(start) != p) {
    stop_arg("start", sprintf("is %d x %d but must be k x ncol(x) = %d x %d",
                              nrow(start), ncol(start), k, p))
  }
  list(centres = t(start), restarts = 1L, init = "start")
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

# `newdata` of a predict() method: a finite numeric matrix with the p columns
# the fit was made on.
check_newdata <- function(newdata, p) {
  if (missing(newdata)) stop_arg("newdata", "is missing")
  x <- check_data_matrix(newdata, "newdata")
  if (ncol(x) != p) stop_arg("newdata", sprintf("has %d columns but the fit has %d", ncol(x), p))
  x
}
