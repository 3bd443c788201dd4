# tvclust(method = "variational"): the bound's formulas against the collapsed
# marginals, the ELBO never decreasing, the co-clustering probabilities
# against the exact posterior over set partitions, the Gibbs point estimate,
# reproducibility, the methods and the errors.

# The internal fit with every argument given, checking the ELBO after every
# coordinate update.
vb_checked <- function(x, side, family = "gaussian", k = 3L, alpha_prior = NULL,
                       pq_prior = c(1, 1), truncation = 8L, max_iter = 40L, prior = NULL,
                       delete_moves = FALSE) {
  s <- if (is.null(side)) NULL else sideclust:::as_side_info(side, n = nrow(x), arg = "side")
  suppressWarnings(sideclust:::tvclust_vb(x, s, k, family, 1, alpha_prior, 0.9, 0.9, pq_prior,
                                          prior, NULL, truncation, 2L, max_iter, 1e-10, FALSE,
                                          quote(tvclust()), check_each_update = TRUE,
                                          delete_moves = delete_moves))
}

exact_psm <- function(exact) {
  parts <- lapply(strsplit(names(exact), ""), as.integer)
  n <- length(parts[[1]])
  s <- matrix(0, n, n)
  for (a in seq_along(parts)) s <- s + exact[[a]] * outer(parts[[a]], parts[[a]], "==")
  s
}

test_that("with one-hot responsibilities the bound of each cluster is its collapsed marginal likelihood", {
  x <- scale(iris[, 1:4])
  z <- as.integer(iris$Species)
  for (family in c("gaussian", "diagonal")) {
    m <- sideclust:::.tvclust_vb_identity_cpp(t(x), z, family, tvclust_prior(x, family))
    expect_equal(m[, 1], m[, 2], tolerance = 1e-9, label = family)
  }
  set.seed(1)
  counts <- matrix(rpois(40 * 6, rep(c(1, 4), each = 120)), 40, 6)
  m <- sideclust:::.tvclust_vb_identity_cpp(t(counts), rep(1:4, 10), "multinomial",
                                            tvclust_prior(counts, "multinomial"))
  expect_equal(m[, 1], m[, 2], tolerance = 1e-9)
})

test_that("the ELBO never decreases, after every point, component, stick, alpha and p, q update", {
  x <- scale(iris[, 1:4])
  set.seed(2)
  pairs <- sample_constraints(iris$Species, rate = 0.02, noise = 0.1)
  labels <- sample_labels(iris$Species, 0.3)
  counts <- matrix(rpois(60 * 5, rep(c(1, 5, 2), each = 100)), 60, 5)
  count_side <- sample_constraints(rep(1:3, each = 20), rate = 0.05)
  runs <- list(
    gaussian = vb_checked(x, pairs, alpha_prior = c(1, 1)),
    diagonal = vb_checked(x, pairs, "diagonal"),
    labels = vb_checked(x, labels, pq_prior = c(2, 1, 2, 1)),
    fixed = vb_checked(x, pairs, pq_prior = NULL),
    none = vb_checked(x, NULL, alpha_prior = c(2, 1)),
    multinomial = vb_checked(counts, count_side, "multinomial", alpha_prior = c(1, 1))
  )
  for (name in names(runs)) {
    fit <- runs[[name]]
    expect_gt(fit$updates_checked, 60 * 5)
    expect_lt(fit$worst_drop, 1e-8 * abs(fit$elbo))
    expect_true(all(diff(fit$trace$elbo) >= -1e-8 * abs(fit$elbo)), label = name)
  }
  # with the delete moves: every accepted deletion ends above the bound it left,
  # and the bound never decreases between deletions
  set.seed(3)
  fit <- vb_checked(x, pairs, k = 8L, truncation = 10L, max_iter = 200L, delete_moves = TRUE)
  expect_gt(length(fit$trace$delete_at), 0)
  cuts <- c(1L, fit$trace$delete_at, length(fit$trace$elbo) + 1L)
  for (s in seq_len(length(cuts) - 1L)) {
    seg <- fit$trace$elbo[cuts[s]:(cuts[s + 1L] - 1L)]
    expect_true(all(diff(seg) >= -1e-8 * abs(fit$elbo)))
    if (s > 1L) expect_gt(seg[length(seg)], fit$trace$elbo[cuts[s] - 1L])
  }
  expect_lt(fit$worst_drop, 1e-8 * abs(fit$elbo))
})

test_that("on well-separated tiny data the co-clustering probabilities are close to the exact posterior", {
  prior1 <- list(m0 = 0, kappa0 = 0.2, nu0 = 3, S0 = matrix(0.1))
  x1 <- matrix(c(-2, -1.8, -1.5, 1.4, 1.9, 2.2), ncol = 1)
  prior2 <- list(m0 = c(0, 0), kappa0 = 0.1, nu0 = 4, S0 = diag(2) * 0.05)
  x2 <- rbind(c(-3, -3), c(-3.2, -2.8), c(-2.9, -3.1), c(3, 3), c(3.1, 2.8), c(2.8, 3.2))
  cases <- list(
    list(x = x1, prior = prior1, side = NULL, tol = 0.08),
    list(x = x1, prior = prior1, side = constraints(must = rbind(c(3, 4)), n = 6), tol = 0.08),
    list(x = x1, prior = prior1, tol = 0.13,
         side = constraints(must = rbind(c(5, 6)), cannot = rbind(c(1, 2)), n = 6)),
    list(x = x2, prior = prior2, tol = 0.01,
         side = constraints(must = rbind(c(1, 2)), cannot = rbind(c(3, 4)), n = 6)))
  for (case in cases) {
    exact <- exact_posterior(case$x, case$side, alpha = 1, p = 0.8, q = 0.8, case$prior)
    set.seed(3)
    fit <- tvclust(case$x, case$side, k = 2, method = "variational", p = 0.8, q = 0.8,
                   pq_prior = NULL, prior = case$prior, truncation = 6)
    expect_lt(max(abs(psm(fit) - exact_psm(exact))), case$tol)
    # the hard partition is the most probable one
    expect_identical(canonical(fit$cluster), names(which.max(exact)))
  }
})

test_that("on easy data the hard partition equals the Gibbs point estimate", {
  set.seed(4)
  centres <- rbind(c(0, 0), c(6, 0), c(0, 6))
  y <- rep(1:3, each = 40)
  x <- centres[y, ] + matrix(rnorm(240, sd = 0.7), ncol = 2)
  side <- sample_constraints(y, rate = 0.01, noise = 0.05)
  for (family in c("gaussian", "diagonal")) {
    vb <- tvclust(x, side, family = family, method = "variational")
    gibbs <- tvclust(x, side, family = family, iter = 200, chains = 1, threads = 1)
    expect_equal(compare_partitions(gibbs$cluster, vb$cluster)[["ari"]], 1, label = family)
    expect_equal(compare_partitions(y, vb$cluster)[["ari"]], 1, label = family)
    expect_true(vb$converged)
    expect_equal(rowSums(vb$membership), rep(1, 120), tolerance = 1e-6)
  }
  # counts: three profiles
  probs <- rbind(c(8, 1, 1, 1), c(1, 8, 1, 1), c(1, 1, 1, 8))
  counts <- t(vapply(y, function(c) stats::rmultinom(1, 40, probs[c, ]), numeric(4)))
  vb <- tvclust(counts, family = "multinomial", method = "variational")
  expect_equal(compare_partitions(y, vb$cluster)[["ari"]], 1)
})

test_that("variational fits are reproducible with set.seed() and deterministic from a given start", {
  x <- scale(iris[, 1:4])
  set.seed(5)
  side <- sample_constraints(iris$Species, rate = 0.02)
  set.seed(6)
  a <- tvclust(x, side, method = "variational", init = "random", restarts = 3)
  set.seed(6)
  b <- tvclust(x, side, method = "variational", init = "random", restarts = 3)
  expect_identical(a[names(a) != "call"], b[names(b) != "call"])
  start <- as.integer(iris$Species)
  c1 <- tvclust(x, side, method = "variational", init = start)
  c2 <- tvclust(x, side, method = "variational", init = list(start, start), restarts = 2)
  expect_identical(c1$membership, c2$membership)
  expect_identical(c2$restart_elbo[1], c2$restart_elbo[2])
  expect_identical(c1$restarts, 1L)
  expect_identical(a$restart_elbo[a$best_restart], max(a$restart_elbo))
  expect_identical(a$elbo, max(a$restart_elbo))
})

test_that("the side information moves the variational fit, and p, q are learned under pq_prior", {
  set.seed(7)
  x <- matrix(rnorm(120), ncol = 2)  # one blob: the data alone see one cluster
  y <- rep(1:2, each = 30)
  side <- sample_constraints(y, rate = 0.2)
  plain <- tvclust(x, method = "variational")
  guided <- tvclust(x, side, method = "variational", pq_prior = c(1, 1))
  expect_lt(compare_partitions(y, plain$cluster)[["ari"]], 0.2)
  expect_gt(compare_partitions(y, guided$cluster)[["ari"]], 0.9)
  expect_gt(guided$p, 0.9)
  expect_gt(guided$q, 0.9)
  noisy <- sample_constraints(y, rate = 0.2, noise = 0.3)
  learned <- tvclust(x, noisy, method = "variational", pq_prior = c(1, 1))
  expect_lt(learned$q, guided$q)
  expect_identical(tvclust(x, side, method = "variational", pq_prior = NULL, p = 0.7)$p, 0.7)
})

test_that("predict(), coef(), logLik(), psm(), print, summary and plots of a variational fit", {
  x <- scale(iris[, 1:4])
  set.seed(8)
  side <- sample_constraints(iris$Species, rate = 0.02)
  fit <- tvclust(x, side, method = "variational", alpha_prior = c(1, 1))
  pr <- predict(fit)
  expect_identical(dim(pr$probability), c(150L, fit$k + 1L))
  expect_equal(unname(rowSums(pr$probability)), rep(1, 150))
  expect_gt(mean(pr$cluster == fit$cluster), 0.9)
  cf <- coef(fit)
  expect_equal(sum(cf$weights), 1)
  expect_identical(dim(cf$covariances), c(4L, 4L, fit$k))
  expect_true(is.finite(logLik(fit)))
  s <- psm(fit)
  expect_equal(diag(s), rep(1, 150))
  expect_equal(s[1, 2], sum(fit$membership[1, ] * fit$membership[2, ]))
  expect_output(print(fit), "variational")
  expect_output(print(summary(fit)), "ELBO")
  file <- tempfile(fileext = ".png")
  grDevices::png(file)
  for (what in c("elbo", "estimate", "uncertainty", "psm")) {
    expect_no_warning(plot(fit, what = what), message = what)
  }
  grDevices::dev.off()
  unlink(file)
  expect_error(plot(fit, what = "trace"), "`what`")
  diag_fit <- tvclust(x, method = "variational", family = "diagonal", restarts = 1)
  expect_true(all(apply(coef(diag_fit)$covariances, 3, function(m) all(m[upper.tri(m)] == 0))))
})

test_that("the variational fit's errors name the argument", {
  x <- scale(iris[, 1:4])
  expect_error(tvclust(x, method = "variational", iter = 10), "`iter`.*gibbs")
  expect_error(tvclust(x, method = "variational", chains = 2), "`chains`")
  expect_error(tvclust(x, truncation = 10, iter = 20, chains = 1), "`truncation`.*variational")
  expect_error(tvclust(x, method = "variational", k = 30, truncation = 10), "`k`.*truncation")
  expect_error(tvclust(x, method = "variational", truncation = 0), "`truncation`")
  expect_error(tvclust(x, method = "variational", init = "one"), "`init`")
  expect_error(tvclust(x, method = "variational", init = list(1:150), restarts = 2), "`init`")
  expect_error(tvclust(x, method = "variational", init = 1:150, truncation = 20), "`init`")
  expect_error(tvclust(x, method = "variation_al"), "`method`")
  expect_error(tvclust(x, method = "variational", tol = -1), "`tol`")
  expect_warning(tvclust(x, method = "variational", max_iter = 1, tol = 0), "max_iter")
})

test_that("max_iter bounds every sweep of a variational run, the moves' trial sweeps included", {
  set.seed(7)
  x <- rbind(matrix(rnorm(60, -4), 30), matrix(rnorm(60, 0), 30), matrix(rnorm(60, 4), 30))
  y <- rep(1:3, each = 30)
  side <- sample_constraints(y, rate = 0.05)
  for (budget in c(1L, 4L, 12L, 30L, 1000L)) {
    set.seed(8)
    fit <- suppressWarnings(tvclust(x, side, k = 1, method = "variational", max_iter = budget))
    expect_lte(fit$sweeps, budget)
    expect_lte(fit$iterations, fit$sweeps)
    expect_length(fit$trace$elbo, fit$iterations)
  }
  # from one cluster only the split moves can find the three groups, within the budget
  expect_equal(fit$k, 3L)
  expect_gt(fit$sweeps, fit$iterations)
})

test_that("the truncation is at most one stick per point and refused beyond the memory limit", {
  set.seed(9)
  x <- matrix(rnorm(60), 30)
  fit <- tvclust(x, k = 1e6, method = "variational")
  expect_equal(fit$truncation, 30L)
  expect_lte(fit$k, 30L)
  expect_message(f2 <- tvclust(x, method = "variational", truncation = 50), "`truncation`.*30")
  expect_equal(f2$truncation, 30L)
  old <- options(sideclust.max_vb_bytes = 1e4)
  on.exit(options(old))
  expect_error(tvclust(x, method = "variational"), "`truncation`.*sideclust.max_vb_bytes")
})
