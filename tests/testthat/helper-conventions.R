# One small fit of every fitting function, with the data it clustered, for the
# tests of the shared conventions (test-fit-conventions.R, test-plots.R).

convention_cases <- function() {
  x <- as.matrix(iris[c(1:15, 51:65, 101:115), 1:4])
  y <- iris$Species[c(1:15, 51:65, 101:115)]
  set.seed(1)
  side <- sample_constraints(y, rate = 0.02)
  labels <- sample_labels(y, 0.4)
  counts <- matrix(rpois(30 * 8, rep(c(1, 6, 3), each = 80)), 30, 8) + 1
  cube <- array(rnorm(12 * 5 * 4), c(12, 5, 4))
  # named columns, so that the tests of predict() by name cover every fit
  colnames(counts) <- paste0("w", seq_len(ncol(counts)))
  dimnames(cube) <- list(NULL, paste0("b", 1:5), paste0("c", 1:4))
  list(
    aib = list(fit = function() aib(counts, k = 3), data = counts),
    cec = list(fit = function() cec(x, 4, restarts = 2), data = x),
    cec_ib = list(fit = function() cec_ib(x, labels, 4, restarts = 2), data = x),
    constrained_mixture = list(fit = function() constrained_mixture(x, side, 3), data = x),
    cross_associations = list(fit = function() cross_associations(counts > 3), data = counts > 3),
    cop_kmeans = list(fit = function() cop_kmeans(x, side, 3, restarts = 2), data = x),
    cvqe = list(fit = function() cvqe(x, side, 3, restarts = 2), data = x),
    discriminative_clustering = list(
      fit = function() discriminative_clustering(x, labels, 3, restarts = 2), data = x),
    disparate_kmeans = list(fit = function() disparate_kmeans(x, c(2, 2), restarts = 2), data = x),
    dp_means = list(fit = function() dp_means(x, k = 3), data = x),
    ib = list(fit = function() ib(counts, 3, beta = 5, restarts = 2), data = counts),
    ib_kmeans = list(fit = function() ib_kmeans(x, 3, beta = 5, restarts = 2), data = x),
    itcc = list(fit = function() itcc(counts, 3, 2, restarts = 2), data = counts),
    kpartite = list(fit = function() kpartite_clustering(list(counts, counts[, 1:4]),
                                                         k = c(a = 3, b = 2, c = 2),
                                                         types = rbind(c(1, 2), c(1, 3)),
                                                         restarts = 2),
                    data = list(counts, counts[, 1:4])),
    kernel_rdp_means = list(fit = function() kernel_rdp_means(x, side, lambda = 1.5), data = x),
    lcvqe = list(fit = function() lcvqe(x, side, 3, restarts = 2), data = x),
    mpck_means = list(fit = function() mpck_means(x, side, 3, restarts = 2), data = x),
    pck_means = list(fit = function() pck_means(x, side, 3, restarts = 2), data = x),
    multiway = list(fit = function() multiway_clustering(cube, c(3, 2, 2), restarts = 2), data = cube),
    parallel_ib = list(fit = function() parallel_ib(counts, c(2, 2), restarts = 2), data = counts),
    rdp_means = list(fit = function() rdp_means(x, side, k = 3), data = x),
    sib = list(fit = function() sib(counts, 3, restarts = 2), data = counts),
    symmetric_ib = list(fit = function() symmetric_ib(counts, 3, 2, restarts = 2), data = counts),
    tvclust = list(fit = function() tvclust(x, side, iter = 40, chains = 1, threads = 1),
                   data = x),
    tvclust_vb = list(fit = function() tvclust(x, side, method = "variational", restarts = 2),
                      data = x)
  )
}

# The data of a conventions case with its columns (for a list, every
# matrix's; for an array, the second dimension's) changed by `f`, a function
# of a matrix or array (e.g. reversing or renaming columns).
map_case_columns <- function(data, f) {
  if (is.list(data) && !is.data.frame(data)) return(lapply(data, f))
  f(data)
}

reverse_columns <- function(d) {
  if (length(dim(d)) == 3L) return(d[, rev(seq_len(dim(d)[2L])), , drop = FALSE])
  d[, rev(seq_len(ncol(d))), drop = FALSE]
}

rename_first_column <- function(d, to = "not_a_column") {
  dimnames(d)[[2L]][1L] <- to
  d
}

drop_last_column <- function(d) {
  if (length(dim(d)) == 3L) return(d[, -dim(d)[2L], , drop = FALSE])
  d[, -ncol(d), drop = FALSE]
}

unname_columns <- function(d) {
  dimnames(d)[2L] <- list(NULL)
  d
}

# Conditions raised while evaluating expr: list(value, warnings, error).
capture_conditions <- function(expr) {
  warnings <- character()
  value <- tryCatch(withCallingHandlers(expr, warning = function(w) {
    warnings <<- c(warnings, conditionMessage(w))
    invokeRestart("muffleWarning")
  }), error = function(e) e)
  if (inherits(value, "error")) return(list(value = NULL, warnings = warnings, error = conditionMessage(value)))
  list(value = value, warnings = warnings, error = NULL)
}
