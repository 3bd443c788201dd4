# The default search of cec() / cec_ib() (issue 45): without k, split mode with
# the BIC criterion, for cec_ib() from the labelled classes (start = "labels")
# and for cec() (or without labelled points) from one cluster; with k, a run
# from k clusters as before.

three_blobs <- function(seed) {
  set.seed(seed)
  x <- matrix(rnorm(150 * 4), ncol = 4) + 6 * cbind(rep(0:2, each = 50), 0, 0, 0)
  list(x = x, y = rep(1:3, each = 50))
}

test_that("the default call needs no k and splits by the BIC", {
  expect_identical(formals(cec_ib)$split, quote(missing(k)))
  expect_identical(formals(cec)$split, quote(missing(k)))
  expect_identical(eval(formals(cec_ib)$split_criterion)[1], "bic")
  expect_identical(eval(formals(cec)$split_criterion)[1], "bic")
  expect_identical(formals(cec_ib)$restarts, 10L)
  expect_identical(eval(formals(cec_ib)$init)[1], "greedy")
})

test_that("cec_ib() without k finds the classes where a start at 2k keeps too many", {
  b <- three_blobs(3)
  set.seed(1)
  lab <- sample_labels(b$y, 0.3)
  set.seed(2)
  fit <- cec_ib(b$x, lab)
  expect_equal(fit$k, 3L)
  expect_identical(fit$split_criterion, "bic")
  expect_equal(ari(b$y, fit$cluster), 1)
  # the paper's protocol (start at twice the true k) keeps extra clusters here
  set.seed(2)
  expect_gt(cec_ib(b$x, lab, k = 6)$k, 4L)
})

test_that("k given: a run from k clusters without splits, as before", {
  b <- three_blobs(3)
  set.seed(1)
  lab <- sample_labels(b$y, 0.3)
  fit <- cec_ib(b$x, lab, k = 6, restarts = 2)
  expect_null(fit$split_history)
  expect_null(fit$split_criterion)
  # the default criterion is not an error without split mode; an explicit "bic" is
  expect_silent(cec(b$x, 3, restarts = 1))
  expect_error(cec(b$x, 3, split_criterion = "bic"), "`split_criterion`.*split mode")
  expect_error(cec(b$x, split = FALSE), "`k`.*split")
  # split = TRUE with k: from k clusters, by the BIC unless told "cost"
  from2 <- cec(b$x, 2, split = TRUE, restarts = 2)
  expect_identical(from2$split_criterion, "bic")
  expect_identical(cec(b$x, 2, split = TRUE, split_criterion = "cost", restarts = 2)$split_criterion,
                   "cost")
})

test_that("tune_side() tunes cec_ib's beta without k (the default chooses the clusters)", {
  b <- three_blobs(5)
  set.seed(3)
  lab <- sample_labels(b$y, 0.3)
  tuned <- tune_side(cec_ib, b$x, lab, grid = list(beta = c(0.269, 1)), folds = 2, restarts = 2)
  expect_true(all(is.finite(tuned$table$score)))
  expect_true(abs(tuned$fit$k - 3L) <= 1L)
})

test_that("without labels (or with beta = 0) the runs start from one cluster", {
  b <- three_blobs(3)
  set.seed(1)
  lab <- sample_labels(b$y, 0.3)
  set.seed(3)
  a <- cec_ib(b$x, NULL, restarts = 2)
  expect_identical(a$split_history$k[1], 1L)
  expect_identical(a$init, "greedy")
  set.seed(3)
  expect_identical(a$cluster, cec_ib(b$x, NULL, 1, split = TRUE, restarts = 2)$cluster)
  set.seed(3)
  a0 <- cec_ib(b$x, lab, beta = 0, restarts = 2)
  set.seed(3)
  expect_identical(a0$cluster, cec(b$x, restarts = 2)$cluster)
  set.seed(3)
  expect_identical(cec_ib(b$x, rep(NA, 150), restarts = 2)$cluster, a$cluster)
  expect_error(cec(b$x, start = b$y), "`start`")
})

test_that("cec_ib() without k starts from the labelled classes and splits from there", {
  expect_identical(formals(cec_ib)$start, quote(if (missing(k)) "labels"))
  b <- three_blobs(3)
  set.seed(1)
  lab <- sample_labels(b$y, 0.3)
  set.seed(3)
  fit <- cec_ib(b$x, lab, restarts = 2)
  expect_identical(fit$init, "labels")
  expect_identical(fit$split_history$k[1], 3L)
  expect_identical(fit$split_criterion, "bic")
  expect_equal(fit$k, 3L)
  expect_equal(ari(b$y, fit$cluster), 1)
  # the labelled points start in their class; all restarts start there
  start <- sideclust:::cec_label_start(b$x, lab$labels)
  known <- !is.na(lab$labels)
  expect_identical(start[known], as.integer(lab$labels[known]))
  expect_equal(ari(b$y, start), 1)
  # explicitly, with the matching k; another k is an error that names it
  set.seed(3)
  expect_identical(cec_ib(b$x, lab, 3, start = "labels", split = TRUE, restarts = 2)$cluster,
                   fit$cluster)
  expect_error(cec_ib(b$x, lab, 4, start = "labels"), "`k`.*3 labelled classes")
  expect_identical(cec_ib(b$x, lab, start = "labels", split = FALSE)$k, 3L)
})

test_that("labels from two of three classes: the split finds the third", {
  b <- three_blobs(2)
  set.seed(2)
  lab <- sample_labels(b$y, 0.3, classes = 1:2)
  set.seed(2)
  fit <- cec_ib(b$x, lab, restarts = 2)
  expect_identical(fit$split_history$k[1], 2L)
  expect_equal(fit$k, 3L)
  expect_equal(ari(b$y, fit$cluster), 1)
})

test_that("the labelled start uses the whole data's covariance when the labels are too few", {
  b <- three_blobs(4)
  lab <- rep(NA, 150)
  lab[c(1, 2, 51, 101)] <- c(1, 1, 2, 3)  # 4 labelled points in 4 dimensions
  start <- sideclust:::cec_label_start(b$x, lab)
  expect_identical(start[c(1, 2, 51, 101)], c(1L, 1L, 2L, 3L))
  expect_setequal(start, 1:3)
  set.seed(1)
  fit <- cec_ib(b$x, lab, restarts = 2)
  expect_equal(fit$k, 3L)
  expect_gt(ari(b$y, fit$cluster), 0.95)
})
