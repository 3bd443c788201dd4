# Small general utilities with no better home.

# `a`, or `b` when `a` is NULL.
`%||%` <- function(a, b) if (is.null(a)) b else a
