# The TVClust collapsed Gibbs sampler against the exact posterior over set
# partitions, obtained by enumerating every partition of a tiny data set.

test_that("Gibbs partition frequencies match the exact posterior (1-D and 2-D, with side information)", {
  set.seed(11)
  prior1 <- list(m0 = 0, kappa0 = 0.5, nu0 = 3, S0 = matrix(1))
  x1 <- matrix(c(-1.1, -0.7, 0.2, 1.0, 1.3, 2.4), ncol = 1)
  side1 <- constraints(must = rbind(c(1, 2), c(4, 6)), cannot = rbind(c(2, 3), c(3, 5)), n = 6)
  exact1 <- exact_posterior(x1, side1, alpha = 1, p = 0.8, q = 0.85, prior1)
  freq1 <- run_sampler(x1, side1, 1, 0.8, 0.85, prior1, sweeps = 30000)
  expect_lt(total_variation(freq1, exact1), 0.03)

  prior2 <- list(m0 = c(0, 0), kappa0 = 0.3, nu0 = 4, S0 = diag(2))
  x2 <- matrix(c(0, 0.2, 1.5, 1.7, -1, 0.1, 0.3, 1.2, 1.6, 0.9), ncol = 2)
  side2 <- constraints(must = rbind(c(1, 5)), cannot = rbind(c(1, 2), c(3, 4)), n = 5,
                       confidence = c(1, 0.7, 0.9))
  exact2 <- exact_posterior(x2, side2, alpha = 0.7, p = 0.9, q = 0.8, prior2)
  freq2 <- run_sampler(x2, side2, 0.7, 0.9, 0.8, prior2, sweeps = 30000)
  expect_lt(total_variation(freq2, exact2), 0.03)
})

test_that("without side information it samples the plain DP mixture posterior", {
  set.seed(12)
  prior <- list(m0 = 0, kappa0 = 0.5, nu0 = 3, S0 = matrix(1))
  x <- matrix(c(-1, -0.6, 0.4, 1.1, 1.5), ncol = 1)
  exact <- exact_posterior(x, NULL, alpha = 1.5, p = 0.9, q = 0.9, prior)
  freq <- run_sampler(x, NULL, 1.5, 0.9, 0.9, prior, sweeps = 80000)
  expect_lt(total_variation(freq, exact), 0.03)
})

test_that("with p = q = 0.5 the side information has no effect", {
  prior <- list(m0 = 0, kappa0 = 0.5, nu0 = 3, S0 = matrix(1))
  x <- matrix(c(-1, -0.6, 0.4, 1.1, 1.5), ncol = 1)
  side <- constraints(must = rbind(c(1, 5)), cannot = rbind(c(1, 2)), n = 5)
  draw <- function(s) {
    set.seed(5)
    sideclust:::.tvclust_gibbs_cpp(t(x), s, "gaussian", prior,
                                   1, 0.5, 0.5, rep(1L, 5), 500L, FALSE, numeric(), numeric(), FALSE)$draws
  }
  expect_identical(draw(side), draw(NULL))
})

test_that("partial labels drive the sampler like their expanded pairs", {
  prior <- list(m0 = 0, kappa0 = 0.5, nu0 = 3, S0 = matrix(1))
  x <- matrix(c(-1, -0.6, 0.4, 1.1, 1.5, 0.2), ncol = 1)
  labels <- as_constraints(c("a", NA, "b", "a", NA, "b"))
  draw <- function(s) {
    set.seed(6)
    sideclust:::.tvclust_gibbs_cpp(t(x), s, "gaussian", prior,
                                   1, 0.8, 0.9, rep(1L, 6), 300L, FALSE, numeric(), numeric(), FALSE)$draws
  }
  expect_identical(draw(labels), draw(as_constraints(labels, expand = TRUE)))
})

test_that("with p and q sampled, partitions and E[p], E[q] match the exact posterior", {
  set.seed(13)
  prior <- list(m0 = 0, kappa0 = 0.5, nu0 = 3, S0 = matrix(1))
  x <- matrix(c(-1.1, -0.7, 0.2, 1.0, 1.3, 2.4), ncol = 1)
  side <- constraints(must = rbind(c(1, 2), c(4, 6), c(2, 3)),
                      cannot = rbind(c(2, 5), c(3, 5), c(1, 6)), n = 6)
  pq_prior <- c(4, 2, 3, 1)
  parts <- set_partitions(6)
  stats_of <- function(z) {
    same <- z[side$i] == z[side$j]
    c(ms = sum(side$must & same), mnv = sum(!side$must & same),
      mns = sum(!side$must & !same), mv = sum(side$must & !same))
  }
  logp <- vapply(parts, function(z) {
    lp <- 0
    for (k in unique(z)) {
      post <- niw_posterior(x[z == k, , drop = FALSE], prior$m0, prior$kappa0, prior$nu0, prior$S0)
      lp <- lp + lgamma(sum(z == k)) + niw_log_marginal(post, prior$m0, prior$kappa0, prior$nu0, prior$S0)
    }
    s <- stats_of(z)
    lp + lbeta(pq_prior[1] + s[["ms"]], pq_prior[2] + s[["mnv"]]) +
      lbeta(pq_prior[3] + s[["mns"]], pq_prior[4] + s[["mv"]])
  }, numeric(1))
  exact <- stats::setNames(exp(logp - max(logp)), vapply(parts, canonical, ""))
  exact <- exact / sum(exact)
  s_all <- t(vapply(parts, stats_of, numeric(4)))
  e_p <- sum(exact * (pq_prior[1] + s_all[, "ms"]) / (sum(pq_prior[1:2]) + s_all[, "ms"] + s_all[, "mnv"]))
  e_q <- sum(exact * (pq_prior[3] + s_all[, "mns"]) / (sum(pq_prior[3:4]) + s_all[, "mns"] + s_all[, "mv"]))
  out <- sideclust:::.tvclust_gibbs_cpp(t(x), side, "gaussian",
                                        prior, 1, 0.5, 0.5, rep(1L, 6), 40200L, FALSE, pq_prior, numeric(), FALSE)
  keep <- -(1:200)
  freq <- table(apply(out$draws[keep, ], 1, canonical)) / length(out$p[keep])
  expect_lt(total_variation(freq, exact), 0.03)
  expect_equal(mean(out$p[keep]), e_p, tolerance = 0.01)
  expect_equal(mean(out$q[keep]), e_q, tolerance = 0.01)
})

test_that("with alpha sampled (Escobar & West), partitions and E[alpha] match the exact posterior", {
  set.seed(14)
  prior <- list(m0 = 0, kappa0 = 0.5, nu0 = 3, S0 = matrix(1))
  x <- matrix(c(-1.1, -0.7, 0.2, 1.0, 1.3), ncol = 1)
  n <- nrow(x); a <- 2; b <- 1.5
  # p(z) integrates alpha^K Gamma(alpha) / Gamma(alpha + n) against Gamma(a, rate b)
  crp_weight <- function(K, power = 0) {
    stats::integrate(function(al) al^(K + power) * exp(lgamma(al) - lgamma(al + n)) *
                       stats::dgamma(al, a, rate = b), 0, Inf)$value
  }
  parts <- set_partitions(n)
  K <- vapply(parts, function(z) length(unique(z)), 1L)
  logp <- vapply(seq_along(parts), function(t) {
    z <- parts[[t]]
    lp <- log(crp_weight(K[t]))
    for (k in unique(z)) {
      post <- niw_posterior(x[z == k, , drop = FALSE], prior$m0, prior$kappa0, prior$nu0, prior$S0)
      lp <- lp + lgamma(sum(z == k)) + niw_log_marginal(post, prior$m0, prior$kappa0, prior$nu0, prior$S0)
    }
    lp
  }, numeric(1))
  exact <- stats::setNames(exp(logp - max(logp)), vapply(parts, canonical, ""))
  exact <- exact / sum(exact)
  e_alpha <- sum(exact * vapply(K, function(k) crp_weight(k, 1) / crp_weight(k), 1))
  out <- sideclust:::.tvclust_gibbs_cpp(t(x), NULL, "gaussian",
                                        prior, 1, 0.9, 0.9, rep(1L, n), 60200L, FALSE,
                                        numeric(), c(a, b), FALSE)
  keep <- -(1:200)
  freq <- table(apply(out$draws[keep, ], 1, canonical)) / length(out$alpha[keep])
  expect_lt(total_variation(freq, exact), 0.03)
  expect_equal(mean(out$alpha[keep]), e_alpha, tolerance = 0.03)
})

test_that("whole-chunklet moves keep the exact posterior", {
  set.seed(15)
  prior <- list(m0 = 0, kappa0 = 0.5, nu0 = 3, S0 = matrix(1))
  x <- matrix(c(-1.1, -0.7, 0.2, 1.0, 1.3, 2.4), ncol = 1)
  side <- constraints(must = rbind(c(1, 2), c(2, 4), c(5, 6)), cannot = rbind(c(1, 5), c(3, 4)),
                      n = 6)
  exact <- exact_posterior(x, side, alpha = 1, p = 0.9, q = 0.85, prior)
  freq <- run_sampler(x, side, 1, 0.9, 0.85, prior, sweeps = 40000, chunklets = TRUE)
  expect_lt(total_variation(freq, exact), 0.03)
  expect_error(sideclust:::.tvclust_gibbs_cpp(t(x), as_constraints(c(1, 1, NA, 2, 2, NA)),
                                              "gaussian", prior, 1, 0.9, 0.9, rep(1L, 6), 10L,
                                              FALSE, numeric(), numeric(), TRUE),
               "pairwise side information")
})

test_that("split-merge moves (Jain & Neal) keep the exact posterior, alone and with Gibbs scans", {
  prior <- list(m0 = 0, kappa0 = 0.5, nu0 = 3, S0 = matrix(1))
  x <- matrix(c(-1.1, -0.7, 0.2, 1.0, 1.3, 2.4), ncol = 1)
  side <- constraints(must = rbind(c(1, 2), c(4, 6)), cannot = rbind(c(2, 3), c(3, 5)), n = 6)
  exact <- exact_posterior(x, side, alpha = 1, p = 0.8, q = 0.85, prior)
  run <- function(split_merge, point_scan, sweeps) {
    set.seed(16)
    out <- sideclust:::.tvclust_gibbs_cpp(t(x), side, "gaussian",
                                          prior, 1, 0.8, 0.85, rep(1L, 6), sweeps + 200L, FALSE,
                                          numeric(), numeric(), FALSE, split_merge, point_scan)
    draws <- out$draws[-seq_len(200), , drop = FALSE]
    table(apply(draws, 1, canonical)) / nrow(draws)
  }
  # alone they must carry the whole chain (dropping the proposal term gives TV ~0.16)
  expect_lt(total_variation(run(3L, FALSE, 40000L), exact), 0.03)
  expect_lt(total_variation(run(2L, TRUE, 30000L), exact), 0.03)
})
