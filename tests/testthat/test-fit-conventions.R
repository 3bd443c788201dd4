# Every fit follows the package's conventions (ARCHITECTURE.md): the same core
# fields, plain R data that survives saveRDS(), set.seed() reproducibility,
# print/summary/fitted/nobs, and predict() on data of the fitted shape.

convention_cases <- function() {
  x <- as.matrix(iris[c(1:15, 51:65, 101:115), 1:4])
  y <- iris$Species[c(1:15, 51:65, 101:115)]
  set.seed(1)
  side <- sample_constraints(y, rate = 0.02)
  labels <- sample_labels(y, 0.4)
  counts <- matrix(rpois(30 * 8, rep(c(1, 6, 3), each = 80)), 30, 8) + 1
  cube <- array(rnorm(12 * 5 * 4), c(12, 5, 4))
  list(
    aib = list(fit = function() aib(counts, k = 3), data = counts),
    cec = list(fit = function() cec(x, 4, restarts = 2), data = x),
    cec_ib = list(fit = function() cec_ib(x, labels, 4, restarts = 2), data = x),
    constrained_mixture = list(fit = function() constrained_mixture(x, side, 3), data = x),
    cross_associations = list(fit = function() cross_associations(counts > 3), data = counts > 3),
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
    multiway = list(fit = function() multiway_clustering(cube, c(3, 2, 2), restarts = 2), data = cube),
    parallel_ib = list(fit = function() parallel_ib(counts, c(2, 2), restarts = 2), data = counts),
    rdp_means = list(fit = function() rdp_means(x, side, k = 3), data = x),
    sib = list(fit = function() sib(counts, 3, restarts = 2), data = counts),
    symmetric_ib = list(fit = function() symmetric_ib(counts, 3, 2, restarts = 2), data = counts),
    tvclust = list(fit = function() tvclust(x, side, iter = 40, chains = 1, threads = 1),
                   data = x)
  )
}

test_that("every fit has the shared fields, class and consistent clusters", {
  for (name in names(cases <- convention_cases())) {
    set.seed(11)
    fit <- cases[[name]]$fit()
    expect_s3_class(fit, "sideclust")
    expect_true(all(c("cluster", "k", "call", "iterations", "converged") %in% names(fit)),
                label = name)
    cl <- fit$cluster
    expect_true(is.integer(cl) && !anyNA(cl), label = name)
    expect_identical(sort(unique(cl)), seq_len(max(cl)), label = name)
    expect_equal(max(cl), unname(fit$k[1]), label = name)
    expect_true(is.logical(fit$converged) && length(fit$converged) == 1L, label = name)
    expect_equal(nobs(fit), length(cl), label = name)
    expect_identical(unname(fitted(fit)), unname(cl), label = name)
  }
})

test_that("every fit is reproducible under set.seed and survives saveRDS()", {
  for (name in names(cases <- convention_cases())) {
    set.seed(12)
    a <- cases[[name]]$fit()
    set.seed(12)
    b <- cases[[name]]$fit()
    strip <- function(f) f[!names(f) %in% c("pass_seconds", "call")]  # wall times differ
    expect_identical(strip(a), strip(b), label = name)
    file <- tempfile(fileext = ".rds")
    saveRDS(a, file)
    expect_identical(readRDS(file), a, label = name)
    unlink(file)
  }
})

test_that("print() ends with the fields and summary() prints, for every fit", {
  for (name in names(cases <- convention_cases())) {
    set.seed(13)
    fit <- cases[[name]]$fit()
    out <- capture.output(print(fit))
    fields <- utils::tail(out, -max(grep("components", out)))  # the closing listing
    expect_true(all(vapply(sprintf("\"%s\"", names(fit)), function(f) any(grepl(f, fields, fixed = TRUE)),
                           TRUE)), label = name)
    expect_no_error(capture.output(print(summary(fit))))
  }
})

test_that("predict() on the fitted data gives one valid cluster per point, where it exists", {
  for (name in names(cases <- convention_cases())) {
    set.seed(14)
    fit <- cases[[name]]$fit()
    data <- cases[[name]]$data
    method <- utils::getS3method("predict", class(fit)[1], optional = TRUE)
    if (is.null(method) || is.null(data)) next
    pr <- predict(fit, data)
    cl <- if (is.list(pr)) pr$cluster else pr
    expect_length(cl, if (is.list(data) && !is.data.frame(data)) nrow(data[[1]]) else dim(data)[1])
    # soft fits may predict a cluster that is nowhere the most probable one
    k_max <- if (is.matrix(fit$membership)) ncol(fit$membership) else fit$k[1]
    expect_true(all(cl %in% seq_len(k_max)), label = name)
  }
})
