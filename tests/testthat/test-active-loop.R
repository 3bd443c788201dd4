# active_side() and oracle_from_labels(): the loop fit -> query -> answer -> refit.

overlapping_blobs <- function(seed = 1) {
  set.seed(seed)
  y <- rep(1:3, each = 25)
  x <- cbind(c(0, 2.5, 5)[y], c(0, 2.5, 0)[y]) + matrix(stats::rnorm(150), ncol = 2)
  list(x = x, y = y)
}

test_that("oracle_from_labels answers from the classes and is wrong at the noise rate", {
  y <- rep(1:4, each = 50)
  exact <- oracle_from_labels(y)
  expect_equal(exact(c(1, 1, 60), c(2, 51, 70)), c("must", "cannot", "must"))
  set.seed(9)
  i <- sample.int(200, 20000, replace = TRUE)
  j <- sample.int(200, 20000, replace = TRUE)
  truth <- ifelse(y[i] == y[j], "must", "cannot")
  noisy <- oracle_from_labels(y, noise = 0.2)
  wrong <- mean(noisy(i, j) != truth)
  expect_lt(abs(wrong - 0.2), 0.015)  # about 5 standard errors
  unsure <- oracle_from_labels(y, dont_know = 0.3)
  a <- unsure(i, j)
  expect_lt(abs(mean(is.na(a)) - 0.3), 0.015)
  expect_true(all(a[!is.na(a)] == truth[!is.na(a)]))
  expect_identical(attr(noisy, "labels"), factor(y))
})

test_that("the loop asks the budget, keeps the answers and records the learning curve", {
  b <- overlapping_blobs()
  set.seed(1)
  run <- active_side(b$x, oracle_from_labels(b$y), budget = 12, k = 3, batch = 5,
                     strategy = "explore_consolidate", query_args = list(infer = FALSE, confirm = FALSE))
  expect_s3_class(run, "sideclust_active")
  expect_equal(nrow(run$queries), 12L)
  expect_equal(run$queries$round, rep(1:3, c(5, 5, 2)))
  expect_equal(run$curve$queries, c(0, 5, 10, 12))
  expect_equal(length(run$side$i), 12L)
  truth <- b$y[run$side$i] == b$y[run$side$j]
  expect_identical(run$side$must, truth)
  expect_equal(run$curve$f_measure[4], f_measure(b$y, run$fit$cluster))
  expect_equal(run$curve$ari[4], ari(b$y, run$fit$cluster))
  expect_true(all(is.finite(run$curve$objective)))
  expect_true(all(!run$curve$warm_start))  # RDP-means takes no start
  expect_output(print(run), "12 of 12 questions asked")
})

test_that("inferred must-links are recorded without asking and do not count against the budget", {
  set.seed(1)
  y <- rep(1:2, each = 30)
  b <- list(x = cbind(c(0, 2.5)[y], 0) + matrix(stats::rnorm(120), ncol = 2), y = y)
  asked <- NULL
  truthful <- oracle_from_labels(b$y)
  oracle <- function(i, j) {
    asked <<- rbind(asked, cbind(i, j))
    truthful(i, j)
  }
  set.seed(1)
  run <- active_side(b$x, oracle, budget = 20, k = 2, strategy = "npu")
  inferred <- run$queries$phase %in% "inferred"
  expect_gt(sum(inferred), 0L)
  expect_equal(sum(!inferred), 20L)
  expect_equal(unname(asked), unname(cbind(run$queries$i, run$queries$j)[!inferred, ]))
  expect_true(all(run$queries$answer[inferred] == "must"))
  # a truthful labeller and the true k: every inferred must-link is right
  expect_true(all(b$y[run$queries$i[inferred]] == b$y[run$queries$j[inferred]]))
  expect_equal(max(run$curve$queries), 20)
  expect_output(print(run), "20 of 20 questions asked")
  expect_output(print(run), sprintf("inferred: +%d point", sum(inferred)))
})

test_that("the loop is reproducible with set.seed, noisy oracle included", {
  b <- overlapping_blobs(2)
  one <- function() {
    set.seed(3)
    active_side(b$x, oracle_from_labels(b$y, noise = 0.2), budget = 8, k = 3, strategy = "npu",
                batch = 2)
  }
  a <- one()
  a2 <- one()
  a$call <- a2$call <- NULL
  expect_identical(a, a2)
})

test_that("a prototype method's warm start is one more start: the refit keeps the lower objective", {
  b <- overlapping_blobs(3)
  side <- constraints(must = rbind(c(1, 2), c(30, 31)), cannot = rbind(c(1, 30)), n = nrow(b$x))
  fitter <- sideclust:::active_fitter("lcvqe", 3L, list())
  objective <- sideclust:::fit_objective
  # the run from the previous centres, then the restarts, in the fitter's order
  both <- function(previous) {
    set.seed(2)
    list(warm = lcvqe(b$x, side, k = 3, start = previous$centers), cold = lcvqe(b$x, side, k = 3))
  }
  # centres all in one blob: the run from them alone ends worse than the restarts
  bad <- list(centers = b$x[1:3, ])
  ref <- both(bad)
  expect_lt(objective(ref$cold), objective(ref$warm))
  set.seed(2)
  kept <- fitter(b$x, side, bad)
  expect_false(kept$warm)
  expect_identical(kept$fit$cluster, ref$cold$cluster)
  # from the restarts' own centres the warm run is as good, and is kept
  good <- list(centers = ref$cold$centers)
  ref <- both(good)
  expect_equal(objective(ref$warm), objective(ref$cold))  # the same optimum, up to rounding
  set.seed(2)
  kept <- fitter(b$x, side, good)
  expect_true(kept$warm)
  expect_identical(kept$fit$cluster, ref$warm$cluster)
})

test_that("when a prototype method's restarts fail, the refit keeps the warm fit instead of stopping", {
  set.seed(1)
  x <- rbind(matrix(stats::rnorm(20), 10), matrix(stats::rnorm(20, 5), 10))
  side <- constraints(must = rbind(c(1, 2)), cannot = rbind(c(1, 11)), n = 20)
  previous <- cop_kmeans(x, side, k = 2, start = x[c(1, 11), ])
  # COP-k-means' restarts finding no feasible start, simulated: only a start succeeds
  suppressMessages(trace("cop_kmeans", tracer = quote(if (is.null(start)) stop("no feasible start")),
                         where = asNamespace("sideclust"), print = FALSE))
  on.exit(suppressMessages(untrace("cop_kmeans", where = asNamespace("sideclust"))))
  fitter <- sideclust:::active_fitter("cop_kmeans", 2L, list())
  kept <- fitter(x, side, previous)
  expect_true(kept$warm)
  expect_identical(kept$fit$cluster, previous$cluster)
  expect_error(fitter(x, side, NULL), "no feasible start")  # no previous fit: nothing to keep
})

test_that("don't-know answers count against the budget and are not asked again", {
  b <- overlapping_blobs(3)
  set.seed(4)
  oracle <- oracle_from_labels(b$y, dont_know = 0.5)
  for (strategy in c("random", "explore_consolidate")) {
    run <- active_side(b$x, oracle, budget = 16, k = 3, strategy = strategy,
                       query_args = list(confirm = FALSE))
    q <- run$queries
    expect_equal(nrow(q), 16L)
    key <- paste(pmin(q$i, q$j), pmax(q$i, q$j))
    expect_false(anyDuplicated(key) > 0)
    expect_equal(length(run$side$i), sum(!is.na(q$answer)))
    expect_equal(run$curve$answered[nrow(run$curve)], sum(!is.na(q$answer)))
  }
})

test_that("each refit starts from the previous fit where the method takes a start", {
  b <- overlapping_blobs(4)
  seen <- list()
  method <- function(x, side, start) {
    seen[[length(seen) + 1L]] <<- list(start = start, pairs = length(side$i))
    rdp_means(x, side, k = 3)
  }
  set.seed(5)
  run <- active_side(b$x, oracle_from_labels(b$y), budget = 3, method = method,
                     strategy = "random", k = 3)
  expect_length(seen, 4L)
  expect_null(seen[[1]]$start)
  expect_equal(vapply(seen, `[[`, integer(1), "pairs"), 0:3)
  # refit r starts from fit r - 1, made with r - 2 answers
  expect_s3_class(seen[[2]]$start, "rdp_means")
  expect_equal(vapply(seen[2:4], function(s) length(s$start$side$i), integer(1)), 0:2)
  expect_identical(run$method, "custom")
  expect_identical(sideclust:::warm_start_of("tvclust", run$fit), as.integer(run$fit$cluster))
  expect_null(sideclust:::warm_start_of("rdp_means", run$fit))
  # the posterior strategies run with TVClust (variational), warm-started
  set.seed(6)
  vb <- active_side(b$x, oracle_from_labels(b$y), budget = 4, method = "tvclust", k = 3,
                    strategy = "uncertainty", batch = 2, fit_args = list(method = "variational"))
  expect_s3_class(vb$fit, "tvclust_vb")
  expect_equal(vb$curve$warm_start, c(FALSE, TRUE, TRUE))
  set.seed(6)
  cold <- active_side(b$x, oracle_from_labels(b$y), budget = 2, method = "tvclust", k = 3,
                      strategy = "random", fit_args = list(method = "variational"), warm_start = FALSE)
  expect_false(any(cold$curve$warm_start))
  expect_equal(nrow(vb$queries), 4L)
  expect_true(all(is.finite(vb$curve$objective)))
})

test_that("the loop fits RDP-means with whole-chunklet moves unless fit_args turns them off", {
  b <- overlapping_blobs(4)
  set.seed(9)
  run <- active_side(b$x, oracle_from_labels(b$y), budget = 3, method = "rdp_means", k = 3,
                     strategy = "npu")
  expect_true(run$fit$chunklet_moves)
  set.seed(9)
  off <- active_side(b$x, oracle_from_labels(b$y), budget = 3, method = "rdp_means", k = 3,
                     strategy = "npu", fit_args = list(chunklet_moves = FALSE))
  expect_false(off$fit$chunklet_moves)
  expect_identical(off$queries, run$queries)
})

test_that("the implied pairs are the transitive closure of the answers; a contradiction implies nothing", {
  side <- constraints(must = rbind(c(1, 2), c(2, 3), c(4, 5)),
                      cannot = rbind(c(3, 4), c(5, 6)), n = 8)
  imp <- sideclust:::implied_constraints(side, 8)
  pair <- paste(imp$i, imp$j)
  expect_false(anyDuplicated(pair) > 0)
  # chunklets {1, 2, 3}, {4, 5}, {6}; points 7 and 8 were never asked
  expect_setequal(pair[imp$must], c("1 2", "1 3", "2 3", "4 5"))
  expect_setequal(pair[!imp$must], c("1 4", "1 5", "2 4", "2 5", "3 4", "3 5", "4 6", "5 6"))
  # a cannot-link inside {1, 2, 3}: that chunklet implies nothing, the others still do
  bad <- constraints(must = rbind(c(1, 2), c(2, 3), c(4, 5)),
                     cannot = rbind(c(3, 4), c(5, 6), c(1, 3)), n = 8)
  imp <- sideclust:::implied_constraints(bad, 8)
  pair <- paste(imp$i, imp$j)
  expect_setequal(pair[imp$must], c("1 2", "2 3", "4 5"))
  expect_setequal(pair[!imp$must], c("3 4", "5 6", "1 3", "4 6"))
  # too many implied pairs: the answers as they are
  expect_identical(sideclust:::implied_constraints(side, 8, max_pairs = 5), side)
  expect_null(sideclust:::implied_constraints(NULL, 8))
})

test_that("the loop fits on the implied pairs and returns the answers", {
  b <- overlapping_blobs(8)
  seen <- list()
  method <- function(x, side, start) {
    seen[[length(seen) + 1L]] <<- side
    lcvqe(x, side, k = 3, restarts = 1)
  }
  for (implied in c(TRUE, FALSE)) {
    seen <- list()
    set.seed(9)
    run <- active_side(b$x, oracle_from_labels(b$y), budget = 12, method = method,
                       strategy = "explore_consolidate", k = 3, implied = implied,
                       query_args = list(confirm = FALSE))
    expect_equal(length(run$side$i), 12L)
    last <- seen[[length(seen)]]
    if (implied) {
      expect_identical(last, sideclust:::implied_constraints(run$side, nrow(b$x)))
      expect_gt(sum(!last$must), sum(!run$side$must))
    } else {
      expect_identical(last, run$side)
    }
  }
  expect_error(active_side(b$x, oracle_from_labels(b$y), budget = 2, k = 3, implied = NA), "`implied`")
})

test_that("progress goes through progressr", {
  b <- overlapping_blobs(5)
  set.seed(7)
  progressr::with_progress(
    run <- active_side(b$x, oracle_from_labels(b$y), budget = 3, k = 3, strategy = "random"),
    handlers = progressr::handler_void())
  expect_equal(nrow(run$queries), 3L)
})

test_that("active_side's errors name the argument", {
  b <- overlapping_blobs(6)
  oracle <- oracle_from_labels(b$y)
  expect_error(active_side(b$x, "labels", budget = 3, k = 3), "`oracle`")
  expect_error(active_side(b$x, oracle, budget = 0, k = 3), "`budget`")
  expect_error(active_side(b$x, oracle, budget = 3, k = 3, method = "kmeans"), "`method`")
  expect_error(active_side(b$x, oracle, budget = 3, method = "constrained_mixture"), "`k`")
  expect_error(active_side(b$x, oracle, budget = 3, k = 3, strategy = "best"), "`strategy`")
  expect_error(active_side(b$x, oracle, budget = 3, k = 3, strategy = "uncertainty"), "`strategy`.*posterior")
  expect_error(active_side(b$x, oracle, budget = 3, k = 3, truth = 1:3), "`truth`")
  expect_error(active_side(b$x, function(i, j) "same", budget = 3, k = 3), "`oracle`")
  expect_error(active_side(b$x, function(i, j) "must", budget = 3, k = 3, batch = 2), "`oracle`")
  expect_error(active_side(b$x, oracle, budget = 3, k = 3, warm_start = NA), "`warm_start`")
  expect_error(oracle_from_labels(b$y, noise = 2), "`noise`")
  expect_error(oracle(0, 1), "`i`")
})

test_that("the loop asks a contradiction again and warns about points it leaves out", {
  set.seed(12)
  centres <- cbind(c(0, 10, 20), c(0, 10, 0))
  y <- rep(1:3, each = 10)
  x <- centres[y, ] + matrix(stats::runif(60, -1, 1), ncol = 2)
  # k too small: the third blob's points are apart from both neighbourhoods
  expect_warning(run <- active_side(x, oracle_from_labels(y), budget = 20, method = "rdp_means",
                                    strategy = "explore_consolidate", k = 2),
                 "kept those answers when asked again.*`k` is too small")
  rechecks <- run$queries[run$queries$phase == "recheck", ]
  expect_gt(nrow(rechecks), 0L)
  # each recheck repeats an earlier cannot-link (of a point, or between two
  # neighbourhoods), and no pair is asked a third time
  first <- run$queries[run$queries$phase != "recheck", ]
  key <- function(q) paste(pmin(q$i, q$j), pmax(q$i, q$j))
  expect_true(all(key(rechecks) %in% key(first[first$answer == "cannot", ])))
  expect_false(anyDuplicated(key(rechecks)) > 0L)
  expect_true(all(3L %in% y[c(rechecks$i, rechecks$j)]))
  expect_gt(length(run$left_out), 0L)
  expect_length(unique(y[run$left_out]), 1L)  # the cluster without a neighbourhood
  expect_output(print(run), "rechecks: .* asked again; [0-9]+ point\\(s\\) left out")
  # with the right k a truthful oracle never contradicts: no warning, and the
  # only pairs asked again are the k - 1 confirmations of new neighbourhoods
  set.seed(12)
  expect_no_warning(run <- active_side(x, oracle_from_labels(y), budget = 15, method = "rdp_means",
                                       strategy = "explore_consolidate", k = 3))
  rechecks <- run$queries[run$queries$phase == "recheck", ]
  expect_equal(nrow(rechecks), 2L)
  expect_true(all(rechecks$answer == "cannot"))
  expect_length(run$left_out, 0L)
  run <- active_side(x, oracle_from_labels(y), budget = 15, method = "rdp_means",
                     strategy = "explore_consolidate", k = 3, query_args = list(confirm = FALSE))
  expect_false(any(run$queries$phase == "recheck"))
})
