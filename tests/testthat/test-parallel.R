# Restarts and chains through the future plan: the same seed gives the same
# fit whatever the plan.

test_that("best_run() keeps the lowest score, earliest on ties, and attaches the scores", {
  vals <- c(3, 1, 1, 2)
  out <- sideclust:::best_run(4L, function(r) list(r = r), function(run) vals[run$r])
  expect_equal(out$r, 2L)
  expect_equal(as.vector(attr(out, "scores")), vals)
  lex <- list(c(1, 5), c(0, 9), c(0, 2), c(Inf, 0))
  out <- sideclust:::best_run(4L, function(r) list(r = r), function(run) lex[[run$r]])
  expect_equal(out$r, 3L)
})

test_that("runs get their own streams, fixed by set.seed(), and leave the caller's stream alike", {
  set.seed(5)
  a <- sideclust:::map_runs(1:4, function(r) runif(2))
  after_a <- runif(1)
  set.seed(5)
  b <- sideclust:::map_runs(1:4, function(r) runif(2))
  after_b <- runif(1)
  expect_identical(a, b)
  expect_identical(after_a, after_b)
  expect_false(any(duplicated(vapply(a, `[`, 0, 1))))
  expect_identical(RNGkind()[1L], "Mersenne-Twister")
})

test_that("restarts are the best of independent runs of one restart each", {
  x <- as.matrix(iris[, 1:4])
  set.seed(3)
  side <- sample_constraints(iris$Species, rate = 0.005)
  set.seed(9)
  fit <- cvqe(x, side, 3, restarts = 4)
  set.seed(9)
  streams <- sideclust:::run_streams(4L)
  state <- sideclust:::save_rng()
  singles <- lapply(streams, function(s) {
    assign(".Random.seed", s, envir = globalenv())
    cvqe(x, side, 3, restarts = 1)
  })
  sideclust:::restore_rng(state)
  objectives <- vapply(singles, function(f) f$objective[length(f$objective)], 0)
  expect_equal(fit$cluster, singles[[which.min(objectives)]]$cluster)
  expect_equal(fit$restarts, 4L)
})

test_that("cop_kmeans() counts the failed runs of its restarts", {
  x <- matrix(c(0, 0.1, 0.2, 5, 5.1), ncol = 1)
  side <- constraints(cannot = rbind(c(1, 2), c(1, 3), c(2, 3)), n = 5)
  expect_error(cop_kmeans(x, side, k = 2, restarts = 3), "all 3 runs")
  set.seed(1)
  fit <- cop_kmeans(x, side, k = 3, restarts = 3)
  expect_equal(fit$failed_runs, 0L)
})

test_that("fits agree under plan(sequential) and plan(multisession, workers = 2)", {
  skip_on_cran()
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  old <- future::plan()
  on.exit(future::plan(old), add = TRUE)
  x <- as.matrix(iris[, 1:4])
  set.seed(2)
  labels <- sample_labels(iris$Species, 0.2)
  side <- sample_constraints(iris$Species, rate = 0.005)
  run_all <- function() {
    set.seed(11)
    list(cec = cec_ib(x, labels, 3, restarts = 4)$cluster,
         cvqe = cvqe(x, side, 3, restarts = 3)$cluster,
         rdp = rdp_means(x, side, k = 3, restarts = 3)$cluster,
         tv = tvclust(x, side, iter = 30, chains = 3)[c("cluster", "trace", "psm")],
         tune = tune_side(rdp_means, x, side, grid = list(lambda = c(1, 5)), folds = 2,
                          refit = FALSE)$table,
         after = runif(1))
  }
  future::plan("sequential")
  sequential <- run_all()
  future::plan("multisession", workers = 2)
  parallel <- run_all()
  expect_identical(parallel, sequential)
})

test_that("tvclust() passes its chain seeds from R: one call equals the chains split in groups", {
  x <- as.matrix(iris[1:60, 1:4])
  set.seed(4)
  side <- sample_constraints(iris$Species[1:60], rate = 0.01)
  set.seed(8)
  whole <- tvclust(x, side, iter = 30, chains = 3, threads = 2)
  set.seed(8)
  init <- sideclust:::tvclust_init("random", 60L, 3L, 5L)
  halves <- floor(runif(6) * 2^32)
  prior <- sideclust:::resolve_tvclust_prior(NULL, x, "gaussian")
  settings <- sideclust:::tvclust_settings(side, 1, NULL, 0.9, 0.9, c(1, 1), 1L, NULL)
  store <- sideclust:::tvclust_store(NULL, 60L, 3L, 15L, 200L)
  part <- function(g) {
    sideclust:::.tvclust_chains_cpp(t(x), side, "gaussian", prior, settings, init[g],
                                    list(iter = 30L, burn_in = 15L, thin = 1L,
                                         store = store$store, threads = 1L, verbose = FALSE,
                                         progress = NULL,
                                         seeds = halves[rep(2 * g, each = 2) - c(1, 0)]))
  }
  pooled <- sideclust:::pool_chain_parts(list(part(1:2), part(3L)))
  expect_identical(pooled$log_joint, unname(whole$trace$log_posterior))
  expect_identical(pooled$draws, unname(whole$draws))
})

test_that("cores that record every run keep all the values, and `start` seeds the first run", {
  set.seed(1)
  counts <- matrix(rpois(30 * 8, rep(c(1, 6, 3), each = 80)), 30, 8) + 1
  set.seed(2)
  fit <- sib(counts, 3, restarts = 4)
  expect_length(fit$restart_info, 4L)
  expect_equal(max(fit$restart_info), fit$info_y)
  start <- rep(1:3, 10)
  single <- sib(counts, 3, restarts = 1, start = start)
  set.seed(3)
  several <- sib(counts, 3, restarts = 3, start = start)
  expect_equal(several$restart_info[1], single$info_y)
  expect_gte(several$info_y, single$info_y)
  set.seed(4)
  co <- itcc(counts, 2, 3, restarts = 3)
  expect_equal(min(co$restart_loss), co$loss)
  set.seed(5)
  mw <- multiway_clustering(counts, c(2, 2), restarts = 3)
  expect_length(mw$restart_objective, 3L)
})
