# Pooling TVClust runs (combine_chains(), c()) and the traces in the forms of
# the posterior and coda packages.

chains_data <- function() {
  x <- scale(iris[c(1:12, 51:62, 101:112), 1:4])
  set.seed(30)
  side <- sample_constraints(rep(1:3, each = 12), rate = 0.08, noise = 0.1)
  list(x = x, side = side)
}

# Each chain's seed is drawn from R's generator (two uniforms per chain) after
# the starting partitions; with init = "one" the starts draw nothing, so a
# one-chain run after skipping 2 (c - 1) uniforms repeats chain c of a
# multi-chain run.
run_chain <- function(d, seed, skip, ...) {
  set.seed(seed)
  if (skip > 0) stats::runif(2 * skip)
  tvclust(d$x, d$side, iter = 60, burn_in = 20, thin = 2, chains = 1, threads = 1,
          init = "one", ...)
}

test_that("two pooled one-chain runs equal the two-chain run of the same chains", {
  d <- chains_data()
  for (pe in c("search", "draws")) {
    set.seed(7)
    both <- tvclust(d$x, d$side, iter = 60, burn_in = 20, thin = 2, chains = 2, threads = 2,
                    init = "one", alpha_prior = c(2, 1), point_estimate = pe)
    a <- run_chain(d, 7, 0, alpha_prior = c(2, 1), point_estimate = pe)
    b <- run_chain(d, 7, 1, alpha_prior = c(2, 1), point_estimate = pe)
    expect_false(identical(a$trace$k, b$trace$k))
    pooled <- combine_chains(a, b)
    for (field in c("cluster", "k", "confidence", "draws", "draw_chain", "draw_iteration",
                    "trace", "posterior_k", "p", "q", "alpha", "rhat", "diagnostics",
                    "expected_loss", "best_draw_loss", "converged", "chains", "iterations",
                    "burn_in", "thin", "loss", "point_estimate", "settings", "prior")) {
      expect_equal(pooled[[field]], both[[field]], label = paste0("pooled$", field))
    }
    expect_equal(psm(pooled), psm(both))
    expect_equal(summary(pooled)$diagnostics, summary(both)$diagnostics)
    expect_equal(c(a, b), pooled)
    expect_s3_class(pooled, c("tvclust", "sideclust"))
    expect_identical(pooled$call, a$call)
  }
})

test_that("pooling three runs stacks their chains in order", {
  d <- chains_data()
  fits <- lapply(1:3, function(s) run_chain(d, 100 + s, 0))
  two <- run_chain(d, 99, 0)
  pooled <- c(fits[[1]], fits[[2]], fits[[3]])
  expect_equal(pooled$chains, 3L)
  expect_equal(pooled$trace$k, do.call(cbind, lapply(fits, function(f) f$trace$k)))
  expect_equal(pooled$draw_chain, rep(1:3, each = 20))
  expect_equal(pooled$draw_iteration, rep(seq(22, 60, by = 2), 3))
  expect_equal(as.vector(pooled$posterior_k),
               as.vector(table(factor(unlist(lapply(fits, function(f) f$trace$k[f$trace$kept, ])),
                                      levels = names(pooled$posterior_k)))) / 60)
  # a pooled fit pools again
  expect_equal(combine_chains(pooled, two)$chains, 4L)
  expect_identical(combine_chains(two), two)
})

test_that("runs of different data or settings do not pool, and the error says why", {
  d <- chains_data()
  a <- run_chain(d, 1, 0)
  err <- function(b, pattern) expect_error(combine_chains(a, b), pattern)
  err(run_chain(modifyList(d, list(x = d$x * 2)), 2, 0), "fits 1 and 2 were fitted to different data")
  err(run_chain(modifyList(d, list(side = NULL)), 2, 0), "different side information")
  set.seed(2)
  err(tvclust(d$x, d$side, iter = 60, burn_in = 10, thin = 2, chains = 1, threads = 1),
      "differ in `burn_in` \\(20 vs 10\\)")
  set.seed(2)
  err(tvclust(d$x, d$side, iter = 80, burn_in = 20, thin = 2, chains = 1, threads = 1),
      "differ in `iter` \\(60 vs 80\\)")
  err(run_chain(d, 2, 0, alpha = 2), "differ in `alpha` \\(1 vs 2\\)")
  err(run_chain(d, 2, 0, pq_prior = c(2, 2)), "differ in `pq_prior`")
  err(run_chain(d, 2, 0, family = "diagonal"), "differ in `family` \\(gaussian vs diagonal\\)")
  err(run_chain(d, 2, 0, prior = list(kappa0 = 0.5)), "differ in `prior\\$kappa0`")
  err(run_chain(d, 2, 0, loss = "binder"), "differ in `loss` \\(vi vs binder\\)")
  err(run_chain(d, 2, 0, point_estimate = "draws"), "differ in `point_estimate`")
  err(run_chain(d, 2, 0, keep_draws = FALSE), "argument 2 holds no draws")
  err(rdp_means(d$x, d$side, lambda = 5), "argument 2 is a rdp_means")
  expect_error(combine_chains(), "at least one")
  expect_error(c(a, 1), "must hold only tvclust\\(\\) fits")
  # starting partitions and threads may differ
  set.seed(3)
  b <- tvclust(d$x, d$side, iter = 60, burn_in = 20, thin = 2, chains = 1, threads = 2,
               init = "random", k = 3)
  expect_equal(c(a, b)$chains, 2L)
})

test_that("as_draws_array() and as.mcmc.list() give the kept sweeps of the traced quantities", {
  d <- chains_data()
  set.seed(5)
  fit <- tvclust(d$x, d$side, iter = 60, burn_in = 20, thin = 2, chains = 3, threads = 1,
                 alpha_prior = c(1, 1))
  a <- posterior::as_draws_array(fit)
  expect_s3_class(a, "draws_array")
  expect_equal(posterior::variables(a), c("k", "log_posterior", "p", "q", "alpha"))
  expect_equal(posterior::niterations(a), 20L)
  expect_equal(posterior::nchains(a), 3L)
  kept <- seq(22, 60, by = 2)
  for (v in posterior::variables(a)) {
    expect_equal(unclass(a)[, , v], fit$trace[[v]][kept, ], ignore_attr = TRUE)
  }
  expect_equal(posterior::as_draws(fit), a)
  k_draws <- posterior::extract_variable_matrix(a, "k")
  # a k that no chain ever changed has R-hat 1 by the package's convention (posterior gives NA)
  expect_equal(if (length(unique(as.vector(k_draws))) == 1L) 1 else posterior::rhat(k_draws),
               fit$rhat[["k"]])
  # p, q and alpha only when sampled
  set.seed(5)
  plain <- tvclust(d$x, iter = 30, chains = 1, threads = 1)
  expect_equal(posterior::variables(posterior::as_draws_array(plain)), c("k", "log_posterior"))
  skip_if_not_installed("coda")
  m <- coda::as.mcmc.list(fit)
  expect_s3_class(m, "mcmc.list")
  expect_equal(coda::nchain(m), 3L)
  expect_equal(coda::varnames(m), c("k", "log_posterior", "p", "q", "alpha"))
  expect_equal(stats::start(m), 22)
  expect_equal(stats::end(m), 60)
  expect_equal(coda::thin(m), 2)
  for (c in 1:3) expect_equal(as.vector(m[[c]][, "log_posterior"]), fit$trace$log_posterior[kept, c])
})
