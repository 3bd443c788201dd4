# tvclust(): chains, reproducibility, the point estimate and its summaries,
# prediction, and argument checks.

tiny_x <- matrix(c(-1.1, -0.7, 0.2, 1.0, 1.3, 2.4), ncol = 1)
tiny_prior <- list(m0 = 0, kappa0 = 0.5, nu0 = 3, S0 = matrix(1))
tiny_side <- constraints(must = rbind(c(1, 2), c(4, 6)), cannot = rbind(c(2, 3), c(3, 5)), n = 6)

test_that("parallel chains with every move sample the exact posterior", {
  set.seed(21)
  exact <- exact_posterior(tiny_x, tiny_side, alpha = 1, p = 0.8, q = 0.85, tiny_prior)
  fit <- tvclust(tiny_x, tiny_side, iter = 8000, burn_in = 200, chains = 2, threads = 2,
                 alpha = 1, p = 0.8, q = 0.85, pq_prior = NULL, prior = tiny_prior,
                 split_merge = 1, chunklet_moves = TRUE)
  freq <- table(apply(fit$draws, 1, canonical)) / nrow(fit$draws)
  expect_lt(total_variation(freq, exact), 0.03)
})

test_that("set.seed reproduces a run, whatever the number of threads", {
  x <- scale(iris[, 1:4])
  set.seed(3)
  side <- sample_constraints(iris$Species, rate = 0.005, noise = 0.1)
  set.seed(7)
  a <- tvclust(x, side, iter = 60, chains = 3, threads = 1)
  set.seed(7)
  b <- tvclust(x, side, iter = 60, chains = 3, threads = 2)
  expect_identical(a$draws, b$draws)
  expect_identical(a$trace, b$trace)
  expect_identical(a$cluster, b$cluster)
  expect_identical(a$confidence, b$confidence)
  set.seed(8)
  d <- tvclust(x, side, iter = 60, chains = 3, threads = 1)
  expect_false(identical(a$draws, d$draws))
})

test_that("with p = q = 0.5 the side information changes nothing", {
  x <- scale(iris[1:40, 1:4])
  side <- constraints(must = rbind(c(1, 30), c(2, 35)), cannot = rbind(c(1, 2), c(3, 4)), n = 40)
  set.seed(5)
  a <- tvclust(x, side, iter = 40, p = 0.5, q = 0.5, pq_prior = NULL, chunklet_moves = FALSE)
  set.seed(5)
  b <- tvclust(x, NULL, iter = 40)
  expect_identical(a$draws, b$draws)
  expect_equal(a$trace$k, b$trace$k)
})

test_that("burn-in and thinning keep the documented sweeps", {
  set.seed(1)
  fit <- tvclust(tiny_x, iter = 50, burn_in = 10, thin = 4, chains = 2, prior = tiny_prior)
  expect_equal(nrow(fit$draws), 2 * 10)
  expect_equal(fit$draw_iteration, rep(seq(14, 50, by = 4), 2))
  expect_equal(fit$draw_chain, rep(1:2, each = 10))
  expect_equal(dim(fit$trace$k), c(50, 2))
  expect_equal(which(fit$trace$kept), seq(14, 50, by = 4))
  # the stored draws are the traced partitions of the kept sweeps
  k_of_draws <- apply(fit$draws, 1, max)
  expect_equal(k_of_draws, as.vector(fit$trace$k[fit$trace$kept, ]))
})

binder <- function(a, b) {
  same_a <- outer(a, a, "==")
  same_b <- outer(b, b, "==")
  sum(same_a != same_b) / 2
}
vi <- function(a, b) {
  h <- function(t) { p <- t[t > 0] / sum(t); -sum(p * log(p)) }
  2 * h(table(a, b)) - h(table(a)) - h(table(b))
}

test_that("the point estimate minimizes the expected loss among the candidates", {
  x <- scale(iris[c(1:15, 51:65, 101:115), 1:4])
  for (loss in c("binder", "vi")) {
    set.seed(9)
    fit <- tvclust(x, iter = 80, chains = 2, loss = loss, max_candidates = 15,
                   point_estimate = "draws")
    f <- if (loss == "binder") binder else vi
    draws <- fit$draws
    candidates <- floor((seq_len(15) - 0.5) * nrow(draws) / 15) + 1
    expected <- vapply(candidates, function(s) {
      mean(apply(draws, 1, function(z) f(draws[s, ], z)))
    }, numeric(1))
    expect_equal(fit$expected_loss, min(expected), tolerance = 1e-10)
    best <- draws[candidates[which.min(expected)], ]
    expect_equal(fit$cluster, match(best, unique(best)), ignore_attr = TRUE)
  }
})

test_that("psm() and the confidence match plain R computations", {
  x <- scale(iris[c(1:10, 51:60, 101:110), 1:4])
  set.seed(4)
  fit <- tvclust(x, iter = 60, chains = 2)
  s <- psm(fit)
  brute <- matrix(0, 30, 30)
  for (r in seq_len(nrow(fit$draws))) brute <- brute + outer(fit$draws[r, ], fit$draws[r, ], "==")
  brute <- brute / nrow(fit$draws)
  expect_equal(s, brute)
  conf <- vapply(seq_len(30), function(i) {
    mates <- setdiff(which(fit$cluster == fit$cluster[i]), i)
    if (length(mates)) mean(s[i, mates]) else mean(apply(fit$draws, 1, function(z) sum(z == z[i]) == 1))
  }, numeric(1))
  expect_equal(fit$confidence, conf)
})

test_that("R-hat and ESS are posterior's rank-normalized ones for every traced quantity", {
  x <- scale(iris[c(1:10, 51:60, 101:110), 1:4])
  set.seed(12)
  side <- sample_constraints(rep(1:3, each = 10), rate = 0.1)
  fit <- tvclust(x, side, iter = 60, chains = 3, threads = 1, alpha_prior = c(1, 1))
  expect_equal(fit$diagnostics$variable, c("k", "log_posterior", "p", "q", "alpha"))
  for (v in fit$diagnostics$variable) {
    m <- fit$trace[[v]][fit$trace$kept, ]
    # a quantity no chain ever changed (k, under a stable posterior) has R-hat 1 by convention
    constant <- length(unique(as.vector(m))) == 1L
    expect_equal(fit$rhat[[v]], if (constant) 1 else posterior::rhat(m))
    if (constant) next
    expect_equal(fit$diagnostics$ess_bulk[fit$diagnostics$variable == v],
                 suppressWarnings(posterior::ess_bulk(m)))
    expect_equal(fit$diagnostics$ess_tail[fit$diagnostics$variable == v],
                 suppressWarnings(posterior::ess_tail(m)))
  }
  expect_identical(fit$converged, all(fit$rhat < 1.1))
  expect_output(print(summary(fit)), "rank-normalized split R-hat")
  # without side information and priors only k and the log posterior are traced
  set.seed(1)
  plain <- tvclust(x, iter = 30, chains = 1, threads = 1)
  expect_named(plain$rhat, c("k", "log_posterior"))
  # a trace that never moves counts as agreeing chains
  stuck <- plain
  stuck$trace$k[] <- 2
  d <- sideclust:::tvclust_diagnostics(stuck)
  expect_equal(d$rhat[1], 1)
  expect_true(is.na(d$ess_bulk[1]))
})

test_that("with sampled p and q, noisy constraints of accuracy 0.9 give E[p], E[q] near 0.9", {
  x <- scale(iris[, 1:4])
  set.seed(12)
  side <- sample_constraints(iris$Species, rate = 0.05, noise = 0.1)
  set.seed(13)
  fit <- tvclust(x, side, iter = 300, chains = 2)
  expect_lt(abs(fit$p - 0.9), 0.05)
  expect_lt(abs(fit$q - 0.9), 0.05)
  expect_gt(compare_partitions(iris$Species, fit$cluster)[["ari"]], 0.8)
})

test_that("partial labels, the diagonal and multinomial families run and predict", {
  set.seed(6)
  x <- scale(iris[, 1:4])
  labels <- sample_labels(iris$Species, fraction = 0.3)
  fit <- tvclust(x, labels, family = "diagonal", iter = 100)
  expect_s3_class(fit, "tvclust")
  expect_false(fit$settings$chunklet_moves)
  pr <- predict(fit, x[c(1, 51, 101), ])
  expect_equal(rowSums(pr$probability), rep(1, 3))
  expect_equal(pr$cluster, fit$cluster[c(1, 51, 101)])
  counts <- rbind(matrix(rpois(60, c(20, 2, 2)), 20, 3, byrow = TRUE),
                  matrix(rpois(60, c(2, 2, 20)), 20, 3, byrow = TRUE))
  mfit <- tvclust(counts, family = "multinomial", iter = 100)
  expect_equal(compare_partitions(rep(1:2, each = 20), mfit$cluster)[["ari"]], 1)
  expect_equal(predict(mfit, counts[c(1, 40), ])$cluster, mfit$cluster[c(1, 40)])
})

test_that("predict() probabilities follow the predictive weights", {
  x <- matrix(c(-3, -2.8, -3.1, 3, 3.2, 2.9), ncol = 1)
  set.seed(1)
  fit <- tvclust(x, iter = 30, chains = 1, prior = tiny_prior, alpha = 0.5)
  expect_equal(fit$cluster, c(1L, 1L, 1L, 2L, 2L, 2L))
  logw <- vapply(1:2, function(k) {
    post <- niw_posterior(x[fit$cluster == k, , drop = FALSE], 0, 0.5, 3, matrix(1))
    log(3) + log_mvt(0.1, post$nu, post$m, post$S * (post$kappa + 1) / (post$kappa * post$nu))
  }, numeric(1))
  logw <- c(logw, log(0.5) + log_mvt(0.1, 3, 0, matrix(1) * 1.5 / (0.5 * 3)))
  expected <- exp(logw - max(logw)) / sum(exp(logw - max(logw)))
  expect_equal(unname(predict(fit, matrix(0.1))$probability[1, ]), expected)
})

test_that("the memory guard keeps only summaries, or stops with a clear message", {
  old <- options(sideclust.max_draws_bytes = 1000)
  on.exit(options(old))
  set.seed(2)
  x <- scale(iris[1:60, 1:4])
  fit <- tvclust(x, iter = 60, chains = 2, summary_draws = 10)
  expect_null(fit$draws)
  expect_length(fit$cluster, 60)
  expect_error(psm(fit), "no draws")
  expect_error(tvclust(x, iter = 60, keep_draws = TRUE), "keep_draws.*MB")
})

test_that("bad input gets clear errors", {
  x <- scale(iris[1:20, 1:4])
  expect_error(tvclust(x, p = 1), "`p` must be in \\(0, 1\\)")
  expect_error(tvclust(x, q = 0), "`q` must be in")
  expect_error(tvclust(x, alpha = -1), "`alpha`")
  expect_error(tvclust(x, pq_prior = c(1, -1)), "`pq_prior`")
  expect_error(tvclust(x, alpha_prior = 1), "`alpha_prior`")
  expect_error(tvclust(x, iter = 10, burn_in = 10), "`burn_in` must be less")
  expect_error(tvclust(x, iter = 10, burn_in = 5, thin = 6), "`thin`")
  expect_error(tvclust(x, prior = list(kappa0 = 0)), "prior\\$kappa0")
  expect_error(tvclust(x, prior = list(nu0 = 2)), "prior\\$nu0")
  expect_error(tvclust(x, prior = list(S0 = -diag(4))), "positive definite")
  expect_error(tvclust(x, prior = list(m0 = 1:3)), "prior\\$m0.*4 finite")
  expect_error(tvclust(x, prior = list(bogus = 1)), "unknown")
  expect_error(tvclust(-abs(x), family = "multinomial"), "counts.*negative")
  expect_error(tvclust(x, init = 1:3), "`init`")
  expect_error(tvclust(x, init = list(1:20), chains = 2), "2 chains")
  expect_error(tvclust(x, sample_labels(iris$Species[1:20], 0.5), chunklet_moves = TRUE),
               "chunklet_moves")
  expect_error(tvclust(x, family = "poisson"), "`family` must be one of")
  expect_error(psm(list()), "tvclust")
  expect_error(predict(tvclust(x, iter = 4), x[, 1:2]), "2 columns")
})

test_that("whole-chunklet moves free a must-link clique at once where single-point Gibbs is stuck", {
  # Two groups of 100 at -3 and +3 and a clique of 6 must-linked points at
  # +2.5, started inside the left group's cluster. Moving one clique point
  # breaks 5 links with p = q = 0.999 (a factor of about 1e-15) and the large
  # groups have no reason to move, so single-point Gibbs stays; the chunklet
  # move carries the clique over at once. (Over tens to hundreds of sweeps
  # single-point Gibbs may get there by a detour: the left group moves to a
  # cluster of its own, then the right group joins the clique.)
  set.seed(1)
  x <- matrix(c(rnorm(100, -3, 0.3), rnorm(100, 3, 0.3), rnorm(6, 2.5, 0.1)), ncol = 1)
  clique <- 201:206
  pairs <- t(utils::combn(clique, 2))
  side <- constraints(must = pairs, n = 206)
  init <- c(rep(1L, 100), rep(2L, 100), rep(1L, 6))
  prior <- list(m0 = 0, kappa0 = 0.1, nu0 = 3, S0 = matrix(0.2))
  run <- function(moves) {
    set.seed(2)
    fit <- tvclust(x, side, iter = 3, burn_in = 0, chains = 1, init = init, prior = prior,
                   p = 0.999, q = 0.999, pq_prior = NULL, split_merge = 0,
                   chunklet_moves = moves)
    fit$draws[, 201] == fit$draws[, 101]  # clique with the right-hand group, per sweep
  }
  expect_true(all(!run(FALSE)))
  expect_true(all(run(TRUE)))
})
