# Every fit follows the package's conventions (ARCHITECTURE.md): the same core
# fields, plain R data that survives saveRDS(), set.seed() reproducibility,
# print/summary/fitted/nobs, and predict() on data of the fitted shape.

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

# The fitting functions of points with side information: (x, side, k, ...).
point_fitters <- list(
  rdp_means = c("x", "side", "k"), kernel_rdp_means = c("x", "side", "k"), tvclust = c("x", "side", "k"),
  constrained_mixture = c("x", "side", "k"), cvqe = c("x", "side", "k"),
  cop_kmeans = c("x", "side", "k"), lcvqe = c("x", "side", "k"),
  mpck_means = c("x", "side", "k"), pck_means = c("x", "side", "k"),
  cec_ib = c("x", "side", "k"), discriminative_clustering = c("x", "side", "k"),
  dp_means = c("x", "k"), cec = c("x", "k"), disparate_kmeans = c("x", "k"),
  ib_kmeans = c("x", "k")
)

test_that("point-clustering functions share the argument order (x, side, k, ...) and names", {
  for (name in names(point_fitters)) {
    args <- names(formals(getExportedValue("sideclust", name)))
    expect_identical(args[seq_along(point_fitters[[name]])], point_fitters[[name]], label = name)
  }
  # one name per concept across the package
  all_args <- unlist(lapply(getNamespaceExports("sideclust"), function(f) {
    fun <- getExportedValue("sideclust", f)
    if (is.function(fun)) names(formals(fun))
  }))
  retired <- c("burnin", "iters", "sweep", "maxiter", "max_iterations", "nstart", "n_restarts",
               "centres", "tolerance", "k_init")
  current <- setdiff(all_args, c("pxy", "counts", "labels", "burnin", "k_init", "accuracy", "error"))
  expect_false(any(retired %in% current), label = paste(intersect(retired, current), collapse = ", "))
})

test_that("k is positional and means the number of clusters", {
  x <- scale(iris[, 1:4])
  side <- constraints(must = rbind(c(1, 2), c(51, 52)), n = 150)
  set.seed(1)
  expect_equal(rdp_means(x, side, 3)$k, 3)
  expect_equal(dp_means(x, 3)$k, 3)
  expect_equal(cvqe(x, side, 3, restarts = 1)$k, 3)
  expect_equal(constrained_mixture(x, side, 3)$k, 3)
  expect_no_error(tvclust(x, side, 3, iter = 20, chains = 1, threads = 1))
})

test_that("predict() has one shape, with and without newdata, for every fit", {
  for (name in names(cases <- convention_cases())) {
    set.seed(14)
    fit <- cases[[name]]$fit()
    data <- cases[[name]]$data
    with_data <- predict(fit, data)
    without <- predict(fit)
    for (pr in list(with_data, without)) {
      expect_identical(names(pr)[1:2], c("cluster", if ("probability" %in% names(pr)) "probability" else "cost"),
                       label = name)
      m <- pr[[2]]
      expect_true(is.matrix(m) && nrow(m) == length(pr$cluster), label = name)
      if (names(pr)[2] == "probability") {
        expect_equal(unname(rowSums(m)), rep(1, nrow(m)), tolerance = 1e-8, label = name)
      }
    }
    expect_identical(without, with_data, label = name)
  }
})

test_that("predict() matches new data to the fitted columns by name, for every fit", {
  for (name in names(cases <- convention_cases())) {
    set.seed(17)
    fit <- cases[[name]]$fit()
    data <- cases[[name]]$data
    if (is.null(utils::getS3method("predict", class(fit)[1], optional = TRUE))) next
    first <- function(d) if (is.list(d) && !is.data.frame(d)) d[[1L]] else d
    fitted_cols <- dimnames(first(data))[[2L]]
    expect_false(is.null(fitted_cols), label = name)
    base <- predict(fit, data)
    # reordered columns: the same prediction
    expect_identical(predict(fit, map_case_columns(data, reverse_columns)), base, label = name)
    # renamed or missing columns: an error naming them
    expect_error(predict(fit, map_case_columns(data, rename_first_column)), "not_a_column",
                 label = name)
    last <- fitted_cols[length(fitted_cols)]
    expect_error(predict(fit, map_case_columns(data, drop_last_column)), last, fixed = TRUE,
                 label = name)
    # unnamed new data for a named fit: matched by position, with a warning
    unnamed <- capture_conditions(predict(fit, map_case_columns(data, unname_columns)))
    expect_true(length(unnamed$warnings) > 0L && all(grepl("no column names", unnamed$warnings)),
                label = name)
    expect_identical(unname(unnamed$value$cluster), unname(base$cluster), label = name)
  }
})

test_that("predict() on extreme new data never gives NA or NaN in silence, for every fit", {
  for (name in names(cases <- convention_cases())) {
    set.seed(18)
    fit <- cases[[name]]$fit()
    data <- cases[[name]]$data
    if (is.null(utils::getS3method("predict", class(fit)[1], optional = TRUE))) next
    if (name == "cross_associations") next  # binary data: no scale to blow up
    huge <- map_case_columns(data, function(d) d * 1e300)
    got <- capture_conditions(predict(fit, huge))
    if (!is.null(got$error)) {
      expect_match(got$error, "newdata", label = name)  # an error that names the argument
      next
    }
    pr <- got$value
    scores <- pr[[2L]]
    unscored <- is.na(pr$cluster) | apply(is.nan(as.matrix(scores)), 1L, any)
    if (any(unscored)) {
      expect_true(length(got$warnings) > 0L, label = paste(name, "warns about its NA rows"))
      expect_true(all(is.na(pr$cluster[unscored])), label = paste(name, "NA clusters where unscored"))
    }
    if (names(pr)[2L] == "probability") {
      ok <- !is.na(pr$cluster)
      expect_equal(unname(rowSums(scores[ok, , drop = FALSE])), rep(1, sum(ok)), tolerance = 1e-8,
                   label = name)
    }
  }
})

test_that("clusters are named by the rows of the data", {
  for (name in names(cases <- convention_cases())) {
    set.seed(15)
    fit <- cases[[name]]$fit()
    data <- cases[[name]]$data
    rows <- if (is.list(data) && !is.data.frame(data)) rownames(data[[1]]) else dimnames(data)[[1]]
    expect_identical(names(fit$cluster), rows, label = name)
    if (!is.null(rows)) expect_identical(names(predict(fit)$cluster), rows, label = name)
  }
})

test_that("logLik(), AIC() and BIC() where claimed, a clear error elsewhere; coef() and the tidiers everywhere", {
  with_likelihood <- c("cec", "cec_ib", "constrained_mixture", "tvclust", "tvclust_vb")
  for (name in names(cases <- convention_cases())) {
    set.seed(16)
    fit <- cases[[name]]$fit()
    if (name %in% with_likelihood) {
      ll <- logLik(fit)
      expect_s3_class(ll, "logLik")
      expect_true(is.finite(ll) && attr(ll, "df") > 0, label = name)
      expect_equal(attr(ll, "nobs"), length(fit$cluster), label = name)
      expect_equal(BIC(fit), -2 * as.numeric(ll) + attr(ll, "df") * log(length(fit$cluster)))
      expect_equal(AIC(fit), -2 * as.numeric(ll) + 2 * attr(ll, "df"))
    } else {
      expect_error(logLik(fit), "no likelihood", label = name)
    }
    expect_false(is.null(coef(fit)), label = name)
    df <- as.data.frame(fit)
    expect_identical(nrow(df), length(fit$cluster), label = name)
    expect_identical(df$cluster, unname(fit$cluster), label = name)
    td <- tidy(fit)
    expect_identical(td$size, tabulate(fit$cluster, max(fit$cluster)), label = name)
    gl <- glance(fit)
    expect_identical(nrow(gl), 1L)
    expect_identical(gl$k, max(fit$cluster), label = name)
    if (name %in% c("kpartite", "multiway")) {
      expect_error(augment(fit), "`data`", label = name)
    } else {
      au <- augment(fit)
      expect_identical(nrow(au), length(fit$cluster), label = name)
      expect_identical(as.integer(au$.cluster), unname(fit$cluster), label = name)
    }
  }
})

test_that("verbose output comes as messages that suppressMessages() silences", {
  x <- scale(iris[, 1:4])
  side <- constraints(must = rbind(c(1, 2)), n = 150)
  expect_message(rdp_means(x, side, 3, verbose = TRUE, max_iter = 2), "sweep")
  expect_silent(suppressMessages(rdp_means(x, side, 3, verbose = TRUE, max_iter = 2)))
  expect_silent(suppressMessages(cvqe(x, side, 3, restarts = 1, verbose = TRUE)))
  set.seed(1)
  expect_silent(suppressMessages(cec(x, 3, restarts = 1, verbose = TRUE)))
})

test_that("long TVClust runs report progress through progressr", {
  x <- scale(iris[, 1:4])
  seen <- 0
  old <- options(progressr.enable = TRUE)
  on.exit(options(old))
  withCallingHandlers(
    tvclust(x, iter = 20000, chains = 1, threads = 1),
    progression = function(cond) seen <<- seen + 1
  )
  expect_gt(seen, 0)
})
