# The methods tune_side() knows: one line each, the function's name, the
# side information it is tuned on and the parameters a grid may set
# (`fixed` holds arguments every fit of the entry gets, for an entry that is
# one mode of a function). The method must take (x, side, ...) and return a
# fit with `cluster`. A method registers with one line, e.g.
#   kernel_rdp_means = tunable_method("kernel_rdp_means", c("pairs", "labels"),
#                                     c("lambda", "xi", "k")),
#   tvclust_variational = tunable_method("tvclust", c("pairs", "labels"),
#                                        c("alpha", "p", "q"),
#                                        fixed = list(method = "variational")),
tunable_method <- function(fun, side = c("pairs", "labels"), params, fixed = list()) {
  list(fun = fun, side = side, params = params, fixed = fixed)
}

tune_registry <- list(
  rdp_means = tunable_method("rdp_means", c("pairs", "labels"), c("lambda", "xi", "k")),
  cec_ib = tunable_method("cec_ib", "labels", c("beta", "k", "eps")),
  constrained_mixture = tunable_method("constrained_mixture", "pairs", c("penalty", "k")),
  cvqe = tunable_method("cvqe", "pairs", "k"),
  lcvqe = tunable_method("lcvqe", "pairs", "k"),
  cop_kmeans = tunable_method("cop_kmeans", "pairs", "k"),
  pck_means = tunable_method("pck_means", "pairs", "k"),
  mpck_means = tunable_method("mpck_means", "pairs", c("k", "ridge")),
  kernel_rdp_means = tunable_method("kernel_rdp_means", c("pairs", "labels"),
                                    c("lambda", "xi", "k", "sigma")),
  tvclust_variational = tunable_method("tvclust", c("pairs", "labels"), c("alpha", "p", "q", "k"),
                                       fixed = list(method = "variational"))
)

#' The methods and parameters tune_side() tunes
#'
#' @return A data.frame with one row per method: `method`, the side
#'   information it is tuned on (`side`) and the parameters a grid may set
#'   (`parameters`).
#' @seealso [tune_side()]
#' @examples
#' tune_side_methods()
#' @export
tune_side_methods <- function() {
  data.frame(method = names(tune_registry),
             side = vapply(tune_registry, function(e) paste(e$side, collapse = ", "), ""),
             parameters = vapply(tune_registry, function(e) paste(e$params, collapse = ", "), ""),
             row.names = NULL)
}

# The registry entry of `method` (a function or a name), with the function
# and its name added.
tune_method_entry <- function(method) {
  name <- NULL
  if (is.character(method) && length(method) == 1L && !is.na(method)) {
    name <- method
  } else if (is.function(method)) {
    for (a in names(tune_registry)) {
      if (identical(method, get(tune_registry[[a]]$fun, envir = asNamespace("sideclust")))) {
        name <- a
        break
      }
    }
  }
  if (is.null(name) || !name %in% names(tune_registry)) {
    stop_arg("method", "must be one of the methods of tune_side_methods(): ",
             paste(names(tune_registry), collapse = ", "))
  }
  entry <- tune_registry[[name]]
  entry$name <- name
  entry$fun <- get(entry$fun, envir = asNamespace("sideclust"))
  entry
}
