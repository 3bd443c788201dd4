# Argument checks. Every front door validates once, with messages that name
# the argument and the problem; the glue and the C++ core then trust their
# input. Argument validators live in R/validate*.R and nowhere else: this file
# holds the general ones (scalars, data matrices, choices) and those of single
# settings; validate-starts.R numbers of clusters and starts, validate-side.R
# side information, validate-data.R counts, sparse tables and tensors.

# Stop with a message that starts with the offending argument in backticks.
stop_arg <- function(arg, ...) {
  stop(sprintf("`%s` %s", arg, paste0(...)), call. = FALSE)
}

# Describe up to `max` positions, e.g. "rows 4, 9, 12 and 3 more".
describe_positions <- function(pos, what = "rows", max = 5L) {
  sprintf("%s %s", what, list_with_more(pos, max))
}

# Up to `max` items joined by commas, e.g. "4, 9, 12 and 3 more".
list_with_more <- function(items, max) {
  shown <- paste(utils::head(items, max), collapse = ", ")
  more <- length(items) - max
  if (more > 0) shown <- sprintf("%s and %d more", shown, more)
  shown
}

# Coerce data to a finite double matrix with at least one row and column.
# Returns the matrix (rows are points).
check_data_matrix <- function(x, arg = "x", min_rows = 1L) {
  x <- as_data_matrix(x, arg, min_rows)
  if (!.scan_points_cpp(x, FALSE)$finite) stop_not_finite(x, arg)
  x
}

# check_data_scale(check_data_matrix(x, arg, min_rows), arg, spread) in one
# pass over the values (C++: finiteness, smallest and largest value), with
# the same errors. With `transpose`, that pass also writes t(x) for the cores
# (as transpose_points() would), so a method that needs it reads x once.
# Returns list(x, xt (NULL unless transpose), lo, hi).
scan_points <- function(x, arg = "x", min_rows = 1L, spread = TRUE, transpose = FALSE) {
  x <- as_data_matrix(x, arg, min_rows)
  s <- .scan_points_cpp(x, transpose)
  if (!s$finite) stop_not_finite(x, arg)
  check_value_range(s$lo, s$hi, length(x), arg, spread)
  list(x = x, xt = s$xt, lo = s$lo, hi = s$hi)
}

# The checked data matrix of scan_points(), for methods that need no transpose.
check_points <- function(x, arg = "x", min_rows = 1L, spread = TRUE) {
  scan_points(x, arg, min_rows, spread)$x
}

# The coercion and shape checks of check_data_matrix(): a plain double matrix.
as_data_matrix <- function(x, arg, min_rows) {
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
  # A double matrix with no other attributes is already that: no copy.
  plain <- is.double(x) && all(names(attributes(x)) %in% c("dim", "dimnames"))
  if (!plain) {
    d <- dim(x)
    dn <- dimnames(x)
    x <- as.double(x)
    dim(x) <- d
    dimnames(x) <- dn
  }
  x
}

# The error for a double matrix that the one-pass scan found not finite:
# which rows and what kinds of values (n x p temporaries only here).
stop_not_finite <- function(x, arg) {
  bad <- !is.finite(x)
  rows <- which(rowSums(bad) > 0)
  kinds <- c(`NA` = sum(is.na(x) & !is.nan(x)), `NaN` = sum(is.nan(x)),
             `Inf` = sum(is.infinite(x)))
  kinds <- kinds[kinds > 0]
  stop_arg(arg, sprintf("has %s (%s); remove or impute them",
                        paste(kinds, names(kinds), "values", collapse = ", "),
                        describe_positions(rows)))
}

# Data whose squared distances overflow (values beyond about 1e150) or
# underflow (values that differ by less than about 1e-100) give Inf or zero
# costs and silently wrong clusters: stop and say what to do instead.
# `spread = FALSE` for counts, whose methods depend only on proportions.
check_data_scale <- function(x, arg = "x", spread = TRUE) {
  check_value_range(min(x), max(x), length(x), arg, spread)
  x
}

# check_data_scale() from the smallest and largest of `size` finite values.
check_value_range <- function(lo, hi, size, arg, spread) {
  big <- max(-lo, hi)
  limit <- sqrt(.Machine$double.xmax / (8 * max(size, 1)))
  if (big > limit) {
    stop_arg(arg, sprintf(paste0(
      "has values up to %.3g: too large for its squared distances in double ",
      "precision (at most about %.3g for data of this size); ",
      "divide it by a constant or scale() it"), big, limit))
  }
  if (spread && hi > lo && hi - lo < 1e-100 * max(1, big)) {
    stop_arg(arg, sprintf(paste0(
      "varies by at most %.3g: its squared distances underflow to zero in double ",
      "precision; subtract its mean and scale() it"), hi - lo))
  }
  invisible()
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

# match.arg() whose error names the argument (R 4.2's does not): choices
# from the caller's formals unless given; unique partial matches accepted.
match_arg <- function(x, choices) {
  arg <- deparse(substitute(x))
  if (missing(choices)) {
    caller <- sys.parent()
    choices <- eval(formals(sys.function(caller))[[arg]], envir = sys.frame(caller))
  }
  if (identical(x, choices)) return(choices[1L])
  if (is.character(x) && length(x) == 1L && !is.na(x)) {
    hit <- pmatch(x, choices)
    if (!is.na(hit)) return(choices[hit])
  }
  stop_arg(arg, "must be one of ", paste0('"', choices, '"', collapse = ", "),
           if (is.character(x) && length(x) == 1L) sprintf(', not "%s"', x) else "")
}

# `newdata` of a predict() method: a finite numeric matrix with the p columns
# the fit was made on, or (sparse_ok) sparse points from a sparse matrix.
check_newdata <- function(newdata, p, sparse_ok = FALSE) {
  newdata_for_core(newdata, p, sparse_ok, transpose = FALSE)$x
}

# check_newdata() and, with `transpose`, the points as the core reads them
# (points_for_core()): list(x, xt), a dense matrix transposed in the pass
# that checks it.
newdata_for_core <- function(newdata, p, sparse_ok = FALSE, transpose = TRUE) {
  if (missing(newdata)) stop_arg("newdata", "is missing")
  if (sparse_ok && is_sparse_input(newdata)) {
    x <- sparse_points(newdata, "newdata")
    xt <- x
  } else {
    x <- as_data_matrix(newdata, "newdata", 1L)
    s <- .scan_points_cpp(x, transpose)
    if (!s$finite) stop_not_finite(x, "newdata")
    xt <- s$xt
  }
  if (n_coordinates(x) != p) {
    stop_arg("newdata", sprintf("has %d columns but the fit has %d", n_coordinates(x), p))
  }
  list(x = x, xt = xt)
}

check_dots_empty <- function(...) {
  if (...length() > 0L) {
    nms <- names(list(...))
    shown <- if (is.null(nms)) "unnamed" else paste0("`", nms, "`", collapse = ", ")
    stop(sprintf("unused arguments: %s", shown), call. = FALSE)
  }
}

check_partition <- function(v, n, arg) {
  if (!is.atomic(v) || !is.null(dim(v))) stop_arg(arg, "must be a vector or factor")
  if (length(v) != n) {
    stop_arg(arg, sprintf("has length %d but the data have n = %d points", length(v), n))
  }
  if (anyNA(v)) stop_arg(arg, sprintf("has NA values (%s)", describe_positions(which(is.na(v)))))
  as.integer(factor(v))
}

check_xi <- function(xi, arg, allow_inf = FALSE) {
  if (!is.numeric(xi) || !(length(xi) %in% 1:2) || anyNA(xi) || any(xi < 0) ||
      (!allow_inf && any(!is.finite(xi)))) {
    stop_arg(arg, sprintf("must be one or two %snon-negative numbers (must, cannot)",
                          if (allow_inf) "" else "finite "))
  }
  if (length(xi) == 2L && !is.null(names(xi))) {
    if (!setequal(names(xi), c("must", "cannot"))) {
      stop_arg(arg, "must be named `must` and `cannot` when named")
    }
    xi <- xi[c("must", "cannot")]
  }
  stats::setNames(rep_len(as.double(xi), 2L), c("must", "cannot"))
}

check_finite_beta <- function(beta) {
  if (!is.finite(beta)) {
    stop_arg("beta", paste0("must be finite for method = \"iterative\"; beta = Inf is the ",
                            "hard limit, use method = \"sequential\""))
  }
}

# beta in (0, Inf].
check_beta <- function(beta) {
  check_number(beta, "beta", lower = 0, lower_open = TRUE, allow_inf = TRUE)
}

# Integer class codes of y (no NA).
check_classes <- function(y, arg) {
  if (!is.atomic(y) || !is.null(dim(y)) || length(y) == 0L) {
    stop_arg(arg, "must be a non-empty vector or factor of classes")
  }
  if (is.integer(y) && !is.object(y) && is.null(names(y))) {
    # factor(y) without its as.character() of every element (most of its
    # time on long vectors): the same codes and levels for integers, in two
    # passes in C++ when the values span at most max(length(y), 1e4)
    # integers; NULL (an NA, or values spread wider) leaves it to the code below.
    cc <- .integer_class_codes_cpp(y)
    if (!is.null(cc)) return(structure(cc$codes, levels = as.character(cc$values), class = "factor"))
  }
  bad <- which(is.na(y))
  if (length(bad) > 0) {
    stop_arg(arg, sprintf("has %d NA value%s (%s); every point needs a class",
                          length(bad), if (length(bad) == 1L) "" else "s",
                          describe_positions(bad, "positions")))
  }
  if (is.integer(y) && !is.object(y) && is.null(names(y))) {
    # factor(y) without its as.character() of every element (most of its
    # time on long vectors): the same codes and levels for integers, from a
    # table over the range of values when it is not much longer than y.
    r <- range(y)
    if (r[1] > -.Machine$integer.max && as.double(r[2]) - r[1] < max(length(y), 1e4)) {
      at <- y - (r[1] - 1L)
      present <- tabulate(at, r[2] - r[1] + 1L) > 0L
      values <- which(present) + (r[1] - 1L)
      codes <- cumsum(present)[at]
    } else {
      values <- sort(unique(y))
      codes <- match(y, values)
    }
    return(structure(codes, levels = as.character(values), class = "factor"))
  }
  if (!is.factor(y)) y <- factor(y)
  y
}

# Weights normalized to sum 1, or double(0) for uniform.
check_weights <- function(weights, dims) {
  if (is.null(weights)) return(double(0))
  wd <- if (is.null(dim(weights))) length(weights) else dim(weights)
  if (!is.numeric(weights) || length(wd) != length(dims) || any(wd != dims)) {
    stop_arg("weights", sprintf("must be NULL or a numeric array of dimensions %s, as `x`",
                                paste(dims, collapse = " x ")))
  }
  if (anyNA(weights) || any(!is.finite(weights)) || any(weights < 0)) {
    stop_arg("weights", "must be finite and non-negative")
  }
  total <- sum(weights)
  if (!(total > 0)) stop_arg("weights", "are all zero")
  as.vector(weights) / total
}

check_tvclust_prior <- function(prior, p, family) {
  vec <- function(name, positive = FALSE) {
    v <- prior[[name]]
    if (!is.numeric(v) || length(v) != p || any(!is.finite(v))) {
      stop_arg(paste0("prior$", name), sprintf("must be %d finite numbers (one per column of `x`)", p))
    }
    if (positive && any(v <= 0)) stop_arg(paste0("prior$", name), "must be positive")
    as.double(v)
  }
  num <- function(name, lower) {
    check_number(prior[[name]], paste0("prior$", name), lower = lower, lower_open = TRUE)
  }
  if (family == "multinomial") return(list(alpha = vec("alpha", positive = TRUE)))
  out <- list(m0 = vec("m0"), kappa0 = num("kappa0", 0))
  if (family == "diagonal") {
    return(c(out, list(a0 = num("a0", 0), b0 = vec("b0", positive = TRUE))))
  }
  out$nu0 <- num("nu0", p - 1)
  S0 <- prior$S0
  if (!is.numeric(S0) || !is.matrix(S0) || any(dim(S0) != p) || any(!is.finite(S0))) {
    stop_arg("prior$S0", sprintf("must be a finite %d x %d matrix", p, p))
  }
  S0 <- unname(S0 + t(S0)) / 2
  if (inherits(try(chol(S0), silent = TRUE), "try-error")) {
    stop_arg("prior$S0", "must be positive definite")
  }
  out$S0 <- S0
  out
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

# combine_chains(): the fits must be tvclust() runs of the same data, side
# information, model and schedule, with their draws kept. Stops naming the
# first fit and the first setting that differ.
check_combinable_tvclust <- function(fits) {
  if (length(fits) == 0L) stop_arg("...", "must hold at least one tvclust() fit")
  for (f in seq_along(fits)) {
    if (!inherits(fits[[f]], "tvclust")) {
      stop_arg("...", sprintf("must hold only tvclust() fits; argument %d is a %s", f,
                              class(fits[[f]])[1L]))
    }
    if (is.null(fits[[f]]$draws)) {
      stop_arg("...", sprintf("argument %d holds no draws (they were not kept); rerun it with keep_draws = TRUE", f))
    }
  }
  settings <- function(fit) {
    c(list(data = unname(fit$data), side = fit$side, family = fit$family,
           iter = fit$iterations, burn_in = fit$burn_in, thin = fit$thin,
           loss = fit$loss, point_estimate = fit$point_estimate %||% "draws",
           max_candidates = fit$max_candidates %||% 100L),
      stats::setNames(fit$prior, paste0("prior$", names(fit$prior))),
      stats::setNames(fit$settings, names(fit$settings)))
  }
  show <- function(v) {
    if (is.null(v)) return("none")
    if (is.atomic(v) && length(v) <= 4L) return(paste(format(v), collapse = ", "))
    "..."
  }
  ref <- settings(fits[[1L]])
  for (f in seq_along(fits)[-1L]) {
    other <- settings(fits[[f]])
    for (name in union(names(ref), names(other))) {
      if (!isTRUE(all.equal(ref[[name]], other[[name]], tolerance = 0, check.attributes = FALSE))) {
        what <- switch(name,
          data = "were fitted to different data",
          side = "have different side information",
          sprintf("differ in `%s` (%s vs %s)", name, show(ref[[name]]), show(other[[name]])))
        stop_arg("...", sprintf(
          "cannot be pooled: fits 1 and %d %s; combine only chains of the same data and settings",
          f, what))
      }
    }
  }
  invisible(fits)
}

# The last guard against a silent wrong answer: a fit whose clusters hold NA
# or whose objective is not finite comes from data beyond double precision
# (or a bug); it is an error, never a result.
check_fit_finite <- function(fit, method) {
  fields <- intersect(c("objective", "cost", "loglik", "expected_loss", "information"),
                      names(fit))
  last <- vapply(fields, function(f) {
    v <- fit[[f]]
    if (is.numeric(v) && length(v)) v[length(v)] else 0
  }, numeric(1))
  bad <- fields[!is.finite(last)]
  na_cluster <- anyNA(fit$cluster)
  if (!length(bad) && !na_cluster) return(invisible(fit))
  what <- c(if (na_cluster) "clusters with NA",
            if (length(bad)) sprintf("a non-finite %s (%s)", paste(bad, collapse = ", "),
                                     paste(format(last[bad]), collapse = ", ")))
  stop(sprintf(paste0(
    "%s() ended with %s: the data are beyond what double precision can cluster ",
    "(values too large or too close together, or counts whose total overflows); ",
    "scale() `x` or divide the counts and try again"),
    method, paste(what, collapse = " and ")), call. = FALSE)
}
