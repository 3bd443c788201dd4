# The seven Gaussian families of cross-entropy clustering (Tabor & Spurek
# 2014) in cec() / cec_ib(): costs against their closed forms, local optima,
# per-cluster families, agreement with the CEC package, errors.

# One parameter per family for 2-D data.
fam_params_2d <- list(
  full = NULL, diagonal = NULL, spherical = NULL,
  fixed_covariance = matrix(c(1, 0.3, 0.3, 0.5), 2),
  fixed_spherical = 0.8,
  eigenvalues = c(0.3, 1.2),
  fixed_mean = c(1, 1)
)

test_that("every family's cost is its closed form, at a single-move local optimum", {
  b <- cec_blobs(20, sep = 3)
  for (type in names(fam_params_2d)) {
    param <- fam_params_2d[[type]]
    set.seed(1)
    fit <- cec(b$x, k = 3, type = type, param = param, restarts = 2)
    expect_true(fit$converged, info = type)
    expect_identical(fit$type, rep(type, fit$k), info = type)
    parts <- cec_cost_parts(b$x, fit$cluster, type = type, param = param)
    expect_equal(fit$cost_parts, parts, tolerance = 1e-9, info = type)
    expect_equal(utils::tail(fit$objective, 1), fit$cost, tolerance = 1e-9, info = type)
    expect_lte(best_single_move_gain(b$x, fit$cluster, type = type, param = param), 1e-9)
    # the model Gaussians of the fit carry the cost: -n * cost = log-likelihood
    expect_equal(as.numeric(logLik(fit)), -60 * fit$cost, tolerance = 1e-9, info = type)
  }
})

test_that("CEC-IB with the fixed-parameter families: cost (10) and a local optimum", {
  b <- cec_blobs(20, sep = 3)
  labels <- b$y
  labels[seq(1, 60, by = 2)] <- NA
  for (type in c("fixed_covariance", "fixed_spherical", "eigenvalues", "fixed_mean")) {
    param <- fam_params_2d[[type]]
    set.seed(2)
    fit <- cec_ib(b$x, labels, k = 4, beta = 1, type = type, param = param, restarts = 2)
    parts <- cec_cost_parts(b$x, fit$cluster, labels, 1, type, param = param)
    expect_equal(fit$cost_parts, parts, tolerance = 1e-9, info = type)
    expect_lte(best_single_move_gain(b$x, fit$cluster, labels, 1, type, param = param), 1e-9)
  }
})

test_that("the eigenvalue family pairs the largest eigenvalues (brute force over rotations)", {
  set.seed(3)
  xs <- matrix(rnorm(80), 40) %*% matrix(c(2, 0.7, 0, 0.5), 2)
  lambda <- c(0.4, 3)
  sigma <- crossprod(sweep(xs, 2, colMeans(xs))) / 40
  h_rot <- function(theta) {
    r <- matrix(c(cos(theta), sin(theta), -sin(theta), cos(theta)), 2)
    g <- r %*% diag(lambda) %*% t(r)
    log(2 * pi) + 0.5 * log(det(g)) + 0.5 * sum(diag(solve(g, sigma)))
  }
  grid <- seq(0, pi, length.out = 2001)
  best <- min(vapply(grid, h_rot, 0))
  best <- min(best, stats::optimize(h_rot, grid[which.min(vapply(grid, h_rot, 0))] +
                                      c(-0.01, 0.01))$objective)
  expect_equal(cec_family_h(xs, "eigenvalues", lambda), best, tolerance = 1e-8)
  # the opposite pairing is worse
  ev <- sort(eigen(sigma)$values, decreasing = TRUE)
  wrong <- log(2 * pi) + 0.5 * sum(log(lambda)) + 0.5 * sum(ev / sort(lambda))
  expect_gt(wrong, best + 0.01)
  # and the package's cost of one cluster is the closed form, whatever the order of param
  one <- cec(xs, k = 1, type = "eigenvalues", param = lambda)
  expect_equal(one$cost, best, tolerance = 1e-8)
  expect_equal(cec(xs, k = 1, type = "eigenvalues", param = rev(lambda))$cost, one$cost)
  # its model covariance has the given eigenvalues on the data's axes
  g <- one$covariances[, , 1]
  expect_equal(sort(eigen(g)$values), sort(lambda))
  expect_equal(abs(sum(eigen(g)$vectors[, 1] * eigen(sigma)$vectors[, 1])), 1)
})

test_that("one family per cluster: cost, local optimum, surviving families", {
  b <- cec_blobs(20, sep = 4)
  types <- c("full", "fixed_spherical", "eigenvalues")
  params <- list(NULL, 0.7, c(1, 0.25))
  start <- b$y
  fit <- cec(b$x, k = 3, start = start, type = types, param = params, eps = 0.1)
  expect_equal(fit$k, 3L)
  expect_identical(fit$type, types)
  expect_identical(fit$param, params)
  expect_equal(fit$cost, cec_cost(b$x, fit$cluster, type = fit$type, param = fit$param),
               tolerance = 1e-9)
  expect_lte(best_single_move_gain(b$x, fit$cluster, type = fit$type, param = fit$param), 1e-9)
  # CEC's convention: param lists only the families that take one
  again <- cec(b$x, k = 3, start = start, type = c("all", "fixedr", "eigen"),
               param = list(0.7, c(1, 0.25)), eps = 0.1)
  expect_equal(again$cluster, fit$cluster)
  expect_equal(again$cost, fit$cost)
  # restarts draw seeds; cluster a of the start keeps family a
  set.seed(1)
  many <- cec(b$x, k = 3, type = c("fixed_mean", "fixed_mean", "fixed_mean"),
              param = list(c(0, 0), c(4, 0), c(0, 4)), restarts = 3)
  expect_equal(many$cost, cec_cost(b$x, many$cluster, type = many$type, param = many$param),
               tolerance = 1e-9)
  expect_equal(unname(many$centers), do.call(rbind, many$param))
})

test_that("predict() uses each cluster's own family", {
  b <- cec_blobs(30, sep = 5)
  g <- matrix(c(0.8, 0.1, 0.1, 0.3), 2)
  fit <- cec(b$x, k = 3, start = b$y, type = c("fixed_covariance", "fixed_spherical", "full"),
             param = list(g, 0.5, NULL))
  expect_equal(fit$covariances[, , 1], g, ignore_attr = TRUE)
  expect_equal(fit$covariances[, , 2], diag(0.5, 2), ignore_attr = TRUE)
  pr <- predict(fit, b$x[1:5, ])
  by_hand <- vapply(1:3, function(a) {
    s <- fit$covariances[, , a]
    log(fit$size[a] / 90) + mvn_logdens(b$x[1:5, ], fit$centers[a, ], s)
  }, numeric(5))
  expect_equal(unname(pr$probability), exp(by_hand) / rowSums(exp(by_hand)), tolerance = 1e-10)
  expect_output(print(fit), "fixed_covariance")
  expect_output(print(summary(fit)), "CEC")
})

test_that("small_sample adds its term to the estimated-covariance families only", {
  b <- cec_blobs(15, sep = 6)
  for (type in c("fixed_covariance", "fixed_spherical", "eigenvalues", "fixed_mean")) {
    param <- fam_params_2d[[type]]
    plain <- cec(b$x, k = 3, start = b$y, type = type, param = param)
    small <- cec(b$x, k = 3, start = b$y, type = type, param = param, small_sample = TRUE)
    expect_equal(small$cost, plain$cost, info = type)
  }
})

test_that("cec() reaches CEC::cec's stored partition and cost for every family", {
  # cec()'s eps = 0.1 removes the clusters below 15 of 150 points, as the
  # stored fits' card.min = "10%" did
  fx <- read_fixture("cec-families-iris")
  x <- scale(iris[, 1:4])
  for (i in seq_along(fx$input)) {
    input <- fx$input[[i]]
    ref <- fx$output[[i]]
    ours <- cec(x, k = 3, start = input$start, type = input$type, param = input$param, eps = 0.1)
    info <- paste(paste(input$type, collapse = "+"), input$seed)
    expect_equal(ours$cost, ref$cost, tolerance = 1e-8, info = info)
    expect_equal(compare_partitions(ours$cluster, ref$cluster)[["ari"]], 1, info = info)
  }
})

test_that("cec() and CEC::cec reach the same partition and cost for every family", {
  skip_if_not_installed("CEC")
  # CEC's cost is in nats like ours (no conversion needed); its card.min =
  # "10%" removes the clusters below 15 of 150 points, as eps = 0.1 does.
  x <- scale(iris[, 1:4])
  g <- 0.3 * diag(4) + 0.1
  lam <- c(0.5, 0.2, 0.05, 0.02)
  cases <- list(
    list("full", NULL, "all", NULL), list("diagonal", NULL, "diagonal", NULL),
    list("spherical", NULL, "spherical", NULL),
    list("fixed_covariance", g, "covariance", list(g, g, g)),
    list("fixed_spherical", 0.4, "fixedr", list(0.4, 0.4, 0.4)),
    list("eigenvalues", lam, "eigenvalues", list(lam, lam, lam)),
    list("fixed_mean", list(c(-1, 1, -1, -1), c(0, 0, 0, 0), c(1, 0, 1, 1)), "mean",
         list(c(-1, 1, -1, -1), c(0, 0, 0, 0), c(1, 0, 1, 1))),
    list(c("full", "fixed_covariance", "eigenvalues"), list(NULL, g, lam),
         c("all", "covariance", "eigenvalues"), list(g, lam)))
  for (cs in cases) for (s in 1:2) {
    set.seed(s)
    centres <- x[sample(nrow(x), 3), ]
    d <- as.matrix(dist(rbind(centres, x)))[-(1:3), 1:3]
    start <- max.col(-d, ties.method = "first")
    ours <- cec(x, k = 3, start = start, type = cs[[1]], param = cs[[2]], eps = 0.1)
    ref_type <- if (length(cs[[3]]) == 1L) rep(cs[[3]], 3) else cs[[3]]
    ref <- if (is.null(cs[[4]])) {
      CEC::cec(x, centers = centres, type = ref_type, iter.max = 100, card.min = "10%")
    } else {
      CEC::cec(x, centers = centres, type = ref_type, param = cs[[4]], iter.max = 100,
               card.min = "10%")
    }
    info <- paste(paste(cs[[1]], collapse = "+"), s)
    expect_equal(ours$cost, utils::tail(ref$cost, 1), tolerance = 1e-8, info = info)
    expect_equal(compare_partitions(ours$cluster, ref$cluster)[["ari"]], 1, info = info)
  }
})

test_that("bad type or param give errors naming the argument", {
  b <- cec_blobs(10)
  x <- b$x
  expect_error(cec(x, 2, type = "round"), "`type`.*unknown family")
  expect_error(cec(x, 2, type = c("full", "full", "full")), "`type`.*length 3")
  expect_error(cec(x, 2, type = NA_character_), "`type`")
  expect_error(cec(x, 2, type = "full", param = 1), "`param`.*not used")
  expect_error(cec(x, 2, type = "fixed_covariance"), "`param`.*missing")
  expect_error(cec(x, 2, type = "fixed_covariance", param = diag(3)), "`param`.*2 x 2.*3 x 3")
  expect_error(cec(x, 2, type = "fixed_covariance", param = matrix(c(1, 2, 2, 1), 2)),
               "`param`.*positive definite")
  expect_error(cec(x, 2, type = "fixed_covariance", param = matrix(c(1, 0.5, 0, 1), 2)),
               "`param`.*symmetric")
  expect_error(cec(x, 2, type = "fixed_spherical", param = -1), "`param`.*radius r > 0")
  expect_error(cec(x, 2, type = "fixedr", param = c(1, 2)), "`param`.*single radius")
  expect_error(cec(x, 2, type = "eigenvalues", param = c(1, 2, 3)), "`param`.*p = 2 eigenvalues; got 3")
  expect_error(cec(x, 2, type = "eigenvalues", param = c(1, 0)), "`param`.*positive")
  expect_error(cec(x, 2, type = "fixed_mean", param = 1), "`param`.*length p = 2")
  expect_error(cec(x, 2, type = "fixed_mean", param = c(NA, 1)), "`param`.*finite")
  expect_error(cec(x, 2, type = c("full", "eigenvalues"), param = c(1, 2)), "`param`.*list")
  expect_error(cec(x, 2, type = c("full", "eigenvalues"), param = list(NULL, 1)),
               "`param`.*cluster 2.*eigenvalues")
  expect_error(cec(x, 3, type = c("full", "eigenvalues", "fixedr"), param = list(1)),
               "`param`.*1 entries")
  expect_error(cec_ib(x, b$y, 2, type = "fixedr", param = 0), "`param`.*radius")
})

test_that("CEC's short names are aliases of the families", {
  b <- cec_blobs(15, sep = 4)
  alias <- c(all = "full", covariance = "fixed_covariance", fixedr = "fixed_spherical",
             sp = "spherical", diag = "diagonal", eigen = "eigenvalues", mean = "fixed_mean")
  for (a in names(alias)) {
    param <- fam_params_2d[[alias[[a]]]]
    f1 <- cec(b$x, k = 3, start = b$y, type = a, param = param)
    f2 <- cec(b$x, k = 3, start = b$y, type = alias[[a]], param = param)
    expect_identical(f1$type, f2$type, info = a)
    expect_equal(f1$cost, f2$cost, info = a)
  }
})

test_that("cov_reg regularizes fixed_mean and leaves the fixed families alone", {
  b <- cec_blobs(20, sep = 4)
  fm <- cec(b$x, k = 3, start = b$y, type = "fixed_mean",
            param = list(c(0, 0), c(4, 0), c(0, 4)), cov_reg = 1)
  expect_equal(fm$cost, cec_cost(b$x, fm$cluster, type = "fixed_mean", param = fm$param,
                                 cov_reg = 1), tolerance = 1e-9)
  for (type in c("fixed_covariance", "fixed_spherical", "eigenvalues")) {
    param <- fam_params_2d[[type]]
    a <- cec(b$x, k = 3, start = b$y, type = type, param = param)
    r <- cec(b$x, k = 3, start = b$y, type = type, param = param, cov_reg = 2)
    expect_equal(r$cost, a$cost, info = type)
  }
  # small_sample on a mixture: the term only on the full cluster
  mix <- cec(b$x, k = 3, start = b$y, type = c("full", "fixedr", "eigen"),
             param = list(NULL, 0.7, c(1, 0.25)), small_sample = TRUE)
  expect_equal(mix$cost, cec_cost(b$x, mix$cluster, type = mix$type, param = mix$param,
                                  small_sample = TRUE), tolerance = 1e-9)
})

test_that("eigenvalues in 5-D (moves from the secular equation): closed-form cost, local optimum", {
  set.seed(21)
  x <- rbind(matrix(rnorm(125), 25) %*% diag(c(2, 1, 1, 0.5, 0.3)),
             sweep(matrix(rnorm(125), 25), 2, c(4, 0, 0, 0, 0), "+"),
             sweep(matrix(rnorm(125), 25) %*% diag(c(0.5, 2, 1, 1, 1)), 2, c(0, 4, 0, 0, 0), "+"))
  lambda <- c(3, 1.5, 1, 0.4, 0.2)
  for (seed in 1:2) {
    set.seed(seed)
    fit <- cec(x, k = 3, type = "eigenvalues", param = lambda, restarts = 2, eps = 0.02)
    expect_true(fit$converged)
    expect_equal(fit$cost_parts, cec_cost_parts(x, fit$cluster, type = "eigenvalues", param = lambda),
                 tolerance = 1e-9)
    expect_lte(best_single_move_gain(x, fit$cluster, type = "eigenvalues", param = lambda), 1e-9)
  }
})
