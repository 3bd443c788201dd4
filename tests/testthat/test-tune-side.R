# tune_side(): folds, scores, the choice and its errors.

blobs <- function(n_each = 25, sd = 0.3) {
  centres <- rbind(c(0, 0), c(3, 3), c(0, 3))
  x <- centres[rep(1:3, each = n_each), ] + matrix(rnorm(6 * n_each, sd = sd), ncol = 2)
  list(x = x, y = rep(1:3, each = n_each))
}

test_that("pair folds never split a must-link component and cover every pair", {
  set.seed(1)
  side <- sample_constraints(rep(1:4, each = 30), "nelson_cohen", n_constraints = 150)
  fold <- sideclust:::pair_folds(side, 4L)
  expect_length(fold, length(side$i))
  expect_setequal(unique(fold), 1:4)
  comp <- sideclust:::chunklet_ids(side, side$n)
  must <- side$must
  by_comp <- tapply(fold[must], comp[side$i[must]], function(f) length(unique(f)))
  expect_true(all(by_comp == 1L))
  # cannot-links go with the component of their first point
  expect_true(all(tapply(fold, comp[side$i], function(f) length(unique(f))) == 1L))
  # the folds are balanced in pairs up to the largest component
  expect_lte(diff(range(tabulate(fold, 4L))), max(table(comp[side$i])))
})

test_that("label folds hold out labelled points class by class", {
  set.seed(2)
  lab <- sample_labels(iris$Species, 0.3)
  fold <- sideclust:::label_folds(lab, 3L)
  expect_true(all(is.na(fold[is.na(lab$labels)])))
  expect_false(anyNA(fold[!is.na(lab$labels)]))
  counts <- table(lab$labels, fold)
  expect_true(all(apply(counts, 1, function(r) diff(range(r))) <= 1))
})

test_that("held-out scores count satisfied pairs and majority labels", {
  side <- constraints(must = rbind(c(1, 2), c(3, 4)), cannot = rbind(c(1, 3), c(2, 4)), n = 4)
  s <- sideclust:::held_out_scores(c(1, 1, 2, 1), side, rep(TRUE, 4), NULL)
  # must 1-2 kept, must 3-4 split, cannot 1-3 kept apart, cannot 2-4 broken
  expect_equal(unname(s["accuracy"]), 0.5)
  expect_equal(unname(s["f"]), 2 * 1 / (2 * 1 + 1 + 1))
  lab <- sideclust:::labels_from_vector(c("a", "a", "b", "b", "a", "b"))
  held <- c(FALSE, FALSE, FALSE, FALSE, TRUE, TRUE)
  train <- sideclust:::side_without(lab, held)
  s <- sideclust:::held_out_scores(c(1, 1, 2, 2, 1, 1), lab, held, train)
  expect_equal(unname(s["accuracy"]), 0.5)
})

test_that("tune_side() picks the planted lambda of RDP-means", {
  set.seed(3)
  d <- blobs()
  side <- sample_constraints(d$y, "nelson_cohen", n_constraints = 90)
  tuned <- tune_side(rdp_means, d$x, side, grid = list(lambda = c(0.05, 4, 60)), folds = 3)
  expect_equal(tuned$best$lambda, 4)
  expect_s3_class(tuned, "sideclust_tune")
  expect_equal(nrow(tuned$table), 3L)
  expect_equal(nrow(tuned$folds_table), 9L)
  expect_equal(tuned$fit$k, 3L)
  expect_equal(tuned$fit$lambda, 4)
  expect_gt(tuned$table$score[2], tuned$table$score[1])
  expect_gt(tuned$table$score[2], tuned$table$score[3])
})

test_that("tune_side() picks a beta that follows the labels of CEC-IB", {
  set.seed(4)
  # four blobs; the data alone split them bottom / top, the labels left / right,
  # and a beta of about 1 is needed for the labels to win (0.269 is not enough)
  centres <- rbind(c(0, 0), c(2, 0), c(0, 3), c(2, 3))
  x <- centres[rep(1:4, each = 30), ] + matrix(rnorm(240, sd = 0.25), ncol = 2)
  y <- c(1, 2, 1, 2)[rep(1:4, each = 30)]
  lab <- sample_labels(y, 0.5)
  tuned <- tune_side(cec_ib, x, lab, grid = list(beta = c(0, 0.1, 0.269, 1, 5)), folds = 3,
                     k = 2, restarts = 5, init = "partition")
  expect_equal(tuned$best$beta, 1)
  expect_gt(tuned$table$score[4], tuned$table$score[1] + 0.3)
  expect_equal(ari(y, tuned$fit$cluster), 1)
  expect_equal(tuned$side_kind, "labels")
})

test_that("tune_side() tunes every registered method and is reproducible", {
  set.seed(5)
  d <- blobs(15)
  side <- sample_constraints(d$y, "nelson_cohen", n_constraints = 40)
  for (m in c("cvqe", "lcvqe", "cop_kmeans", "pck_means", "mpck_means")) {
    # cop_kmeans() may find no feasible assignment at k = 2: those fits fail
    set.seed(6)
    a <- suppressWarnings(tune_side(m, d$x, side, grid = list(k = 2:4), folds = 2, restarts = 2))
    set.seed(6)
    b <- suppressWarnings(tune_side(m, d$x, side, grid = list(k = 2:4), folds = 2, restarts = 2))
    expect_identical(a$table, b$table)
    expect_equal(a$best$k, 3L, info = m)
  }
  tuned <- tune_side(constrained_mixture, d$x, side, grid = list(penalty = c(0, 2)),
                     folds = 2, k = 3)
  expect_equal(nrow(tuned$table), 2L)
  expect_true(is.finite(tuned$table$score[1]))
  expect_true(all(c("rdp_means", "cec_ib", "constrained_mixture", "cvqe", "lcvqe",
                    "cop_kmeans", "pck_means", "mpck_means") %in% tune_side_methods()$method))
})

test_that("tune_side() prints, summarizes, plots and converts", {
  set.seed(7)
  d <- blobs(15)
  side <- sample_constraints(d$y, "nelson_cohen", n_constraints = 40)
  tuned <- tune_side(rdp_means, d$x, side, grid = list(lambda = c(0.1, 4), xi = c(0.001, 1)),
                     folds = 2, refit = FALSE)
  expect_null(tuned$fit)
  expect_output(print(tuned), "Chosen: lambda = 4")
  expect_output(print(summary(tuned)), "not refitted")
  expect_equal(as.data.frame(tuned), tuned$table)
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_invisible(plot(tuned))
})

test_that("tune_side() errors name the argument", {
  set.seed(8)
  d <- blobs(10)
  side <- sample_constraints(d$y, "nelson_cohen", n_constraints = 20)
  lab <- sample_labels(d$y, 0.5)
  expect_error(tune_side(rdp_means, d$x, side, grid = list(beta = 1)), "`grid`.*beta")
  expect_error(tune_side(rdp_means, d$x, side, grid = list(lambda = numeric())), "`grid`")
  expect_error(tune_side(rdp_means, d$x, side, grid = list(lambda = c(1, NA))), "`grid`")
  expect_error(tune_side(rdp_means, d$x, side, grid = list(c(1, 2))), "`grid`")
  expect_error(tune_side(rdp_means, d$x, side, grid = c(1, 2)), "`grid`")
  expect_error(tune_side(rdp_means, d$x, side, grid = data.frame()), "`grid`")
  expect_error(tune_side(rdp_means, d$x, side, grid = list(lambda = "a")), "`grid`")
  expect_error(tune_side(rdp_means, d$x, side, grid = list(lambda = c(1, 1))), "`grid`")
  expect_error(tune_side(rdp_means, d$x, side, grid = list(lambda = 1), lambda = 2), "`grid`.*`...`")
  expect_error(tune_side(dp_means, d$x, side, grid = list(lambda = 1)), "`method`")
  expect_error(tune_side("nope", d$x, side, grid = list(lambda = 1)), "`method`")
  expect_error(tune_side(rdp_means, d$x, side, grid = list(lambda = 1), folds = 1), "`folds`")
  expect_error(tune_side(rdp_means, d$x, side, grid = list(lambda = 1), folds = 500), "`folds`")
  expect_error(tune_side(cec_ib, d$x, side, grid = list(beta = 1), k = 3), "`side`")
  expect_error(tune_side(cvqe, d$x, lab, grid = list(k = 2:3)), "`side`")
  expect_error(tune_side(rdp_means, d$x, NULL, grid = list(lambda = 1)), "`side`")
  expect_error(tune_side(rdp_means, d$x, side, grid = list(lambda = 1), score = "x"), "`score`")
})

test_that("tune_side() shows the first error of the method it tunes", {
  set.seed(5)
  d <- blobs(15)
  pairs <- sample_constraints(d$y, "nelson_cohen", n_constraints = 40)
  labels <- sample_labels(d$y, 0.5)
  # k = 0.5 is no count of clusters for any method: its own message must show
  for (m in tune_side_methods()$method) {
    side <- if (grepl("pairs", tune_side_methods()$side[tune_side_methods()$method == m])) pairs else labels
    err <- tryCatch(tune_side(m, d$x, side, grid = list(k = 0.5), folds = 2),
                    error = conditionMessage)
    expect_match(err, "first error (k = 0.5, fold 1): ", fixed = TRUE, info = m)
    expect_match(err, "`k`", fixed = TRUE, info = m)
  }
  # a grid where only some points fail: the warning carries the first error
  expect_warning(tune_side("rdp_means", d$x, pairs, grid = list(lambda = c(-1, 2)), folds = 2),
                 "first error \\(lambda = -1, fold 1\\): `lambda` must be")
})
