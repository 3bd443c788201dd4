truth_of <- function(side, y) y[side$i] == y[side$j]

test_that("sample_constraints() is reproducible under set.seed", {
  y <- rep(1:3, each = 20)
  set.seed(1); a <- sample_constraints(y, "tvclust", rate = 0.05, noise = 0.1)
  set.seed(1); b <- sample_constraints(y, "tvclust", rate = 0.05, noise = 0.1)
  expect_identical(a, b)
  set.seed(2); c1 <- sample_constraints(y, "nelson_cohen", n_must = 20, n_cannot = 30, noise = 0.1)
  set.seed(2); c2 <- sample_constraints(y, "nelson_cohen", n_must = 20, n_cannot = 30, noise = 0.1)
  expect_identical(c1, c2)
  expect_false(identical(a, sample_constraints(y, "tvclust", rate = 0.05, noise = 0.1)))
})

test_that("tvclust 'authors' draws about rate * n^2 pairs with accuracy p", {
  set.seed(3)
  n <- 300
  y <- sample(letters[1:4], n, replace = TRUE)
  side <- sample_constraints(y, "tvclust", rate = 0.05, noise = 0.2)
  expect_s3_class(side, "sideclust_constraints")
  expect_identical(side, as_side_info(side, n))   # satisfies the contract
  draws <- round(0.05 * n^2)
  # distinct unordered pairs among `draws` ordered draws: expected count
  n_unordered <- choose(n, 2)
  expected <- n_unordered * (1 - (1 - 1 / n_unordered)^draws)
  expect_lt(abs(length(side$i) - expected), 4 * sqrt(expected))
  expect_gt(length(side$i), 0.9 * draws)
  expect_identical(side$correct, side$must == truth_of(side, y))
  expect_lt(abs(mean(side$correct) - 0.8), 0.03)
  expect_true(all(side$confidence == 1))
  # noise-free: every pair correct
  clean <- sample_constraints(y, "tvclust", rate = 0.01)
  expect_true(all(clean$must == truth_of(clean, y)))
})

test_that("tvclust 'authors' draws the pairs of the R reference code for the same seed", {
  # The R code sample_constraints() used before its draws moved to C++:
  # the same draws of R's generator, in the same order, must give the same
  # pairs, types and flips, and leave the generator in the same state.
  reference <- function(y, rate, noise) {
    n <- length(y)
    m <- round(rate * n^2)
    a <- sample.int(n, m, replace = TRUE)
    b <- sample.int(n - 1L, m, replace = TRUE)
    b <- b + (b >= a)
    flip <- stats::runif(m) > 1 - noise
    lo <- pmin(a, b)
    hi <- pmax(a, b)
    ord <- order(lo, hi, seq_len(m))
    last <- c(lo[ord][-1L] != lo[ord][-m] | hi[ord][-1L] != hi[ord][-m], TRUE)
    ord <- ord[last]
    code <- as.integer(factor(y))
    list(i = lo[ord], j = hi[ord], must = xor(code[lo[ord]] == code[hi[ord]], flip[ord]),
         correct = !flip[ord])
  }
  cases <- list(list(rep(1:3, 7), 0.5, 0.2), list(c("b", "a"), 3, 0),
                list(factor(sample(letters, 400, TRUE)), 0.02, 0.3),
                list(sample.int(300, 2000, TRUE), 0.002, 1),      # > 256 classes
                list(sample.int(1e5, 3e5, TRUE) - 5L, 1e-5, 0.1))  # > 65536 classes
  for (seed in 1:3) {
    for (case in cases) {
      set.seed(seed); got <- sample_constraints(case[[1]], rate = case[[2]], noise = case[[3]])
      after <- runif(1)
      set.seed(seed); want <- reference(case[[1]], case[[2]], case[[3]])
      expect_identical(got$i, want$i)
      expect_identical(got$j, want$j)
      expect_identical(got$must, want$must)
      expect_identical(got$correct, want$correct)
      expect_identical(after, runif(1))
    }
  }
  # Under R's default kinds the draws run on an inlined copy of R's
  # Mersenne-Twister: points in 16-bit chunks at chunk boundaries (n - 1 =
  # 2^16 takes two chunks, n = 2 none), the state anywhere in its 624 words,
  # and the other kinds through R's own calls.
  edge <- list(list(rep(1:2, length.out = 65537), 2e-9, 0.5),
               list(rep(1:2, length.out = 65536), 2e-9, 0.5),
               list(1:17, 1, 0.5), list(1:2, 5, 0.5))
  for (skip in c(0L, 1L, 620L, 623L, 624L)) {
    for (case in edge) {
      set.seed(skip); stats::runif(skip)
      got <- sample_constraints(case[[1]], rate = case[[2]], noise = case[[3]])
      after <- runif(1)
      set.seed(skip); stats::runif(skip)
      want <- reference(case[[1]], case[[2]], case[[3]])
      expect_identical(got[c("i", "j", "must", "correct")], want)
      expect_identical(after, runif(1))
    }
  }
  old_kind <- RNGkind()
  on.exit(do.call(RNGkind, as.list(old_kind)), add = TRUE)
  for (kind in list(list("L'Ecuyer-CMRG", "Inversion", "Rejection"),
                    list("Wichmann-Hill", "Inversion", "Rejection"),
                    list("Mersenne-Twister", "Inversion", "Rounding"))) {
    suppressWarnings(do.call(RNGkind, kind))
    for (case in cases[1:3]) {
      set.seed(7); got <- sample_constraints(case[[1]], rate = case[[2]], noise = case[[3]])
      after <- runif(1)
      set.seed(7); want <- reference(case[[1]], case[[2]], case[[3]])
      expect_identical(got[c("i", "j", "must", "correct")], want)
      expect_identical(after, runif(1))
    }
  }
  do.call(RNGkind, as.list(old_kind))
  # without a .Random.seed R seeds itself first, as sample.int() would
  had_seed <- exists(".Random.seed", globalenv())
  if (had_seed) saved <- get(".Random.seed", globalenv())
  rm(list = ".Random.seed", envir = globalenv())
  expect_s3_class(sample_constraints(rep(1:3, 10), rate = 0.1), "sideclust_constraints")
  expect_true(exists(".Random.seed", globalenv()))
  if (had_seed) assign(".Random.seed", saved, envir = globalenv())
  expect_error(sample_constraints(1:3, rate = 1e9), "`rate` asks for")
})

test_that("check_classes() gives factor()'s codes and levels for integer classes", {
  big <- .Machine$integer.max
  for (y in list(c(3L, -1L, 3L, 10L, 2L), 5L, c(big, -big), -big + 0:3, big - 0:3,
                 sample.int(1e7, 1e4, TRUE), c(7L, 7L), -5:5, sample.int(2e4, 1e3, TRUE),
                 sample(c(-3L, 0L, 9999L), 50, TRUE), rep(4L, 1e5))) {
    expect_identical(sideclust:::check_classes(y, "y"), factor(y))
  }
  expect_error(sideclust:::check_classes(c(1L, NA, 2L, NA), "y"), "has 2 NA values")
  expect_error(sideclust:::check_classes(c(big, NA), "y"), "has 1 NA value")
  expect_identical(sideclust:::check_classes(c(a = 2L, b = 1L), "y"), factor(c(a = 2L, b = 1L)))
})

test_that("tvclust 'paper' draws exactly round(rate * n^2 / 2) distinct pairs", {
  set.seed(4)
  y <- rep(1:2, 50)
  side <- sample_constraints(y, "tvclust", rate = 0.03, pair_count = "paper")
  expect_length(side$i, round(0.03 * 100^2 / 2))
  expect_identical(side, as_side_info(side, 100))
  expect_true(all(side$must == truth_of(side, y)))
  # all pairs: the index-to-pair mapping covers the upper triangle exactly
  full <- sample_constraints(1:2, "tvclust", rate = 0.5, pair_count = "paper")
  expect_identical(c(full$i, full$j), c(1L, 2L))
  all_pairs <- sample_constraints(rep(1:3, 4), "tvclust", rate = 66 * 2 / 144,
                                  pair_count = "paper")
  expect_identical(cbind(all_pairs$i, all_pairs$j), unname(t(combn(12, 2))))
  expect_error(sample_constraints(1:4, "tvclust", rate = 1, pair_count = "paper"),
               "`rate` asks for 8 pairs but 4 points have only choose\\(4, 2\\) = 6")
})

test_that("nelson_cohen flips exactly round(E * total) and draws Beta confidences", {
  set.seed(5)
  y <- rep(c("a", "b", "c"), each = 200)
  side <- sample_constraints(y, "nelson_cohen", n_must = 400, n_cannot = 400,
                             noise = 0.25)
  expect_length(side$i, 800L)
  expect_identical(side, as_side_info(side, 600))
  expect_identical(sum(!side$correct), 200L)
  expect_identical(side$correct, side$must == truth_of(side, y))
  # before flipping there were 400 of each type
  expect_identical(sum(truth_of(side, y)), 400L)
  # Beta(5, 1) has mean 5/6, Beta(1, 5) mean 1/6
  expect_lt(abs(mean(side$confidence[side$correct]) - 5 / 6), 0.02)
  expect_lt(abs(mean(side$confidence[!side$correct]) - 1 / 6), 0.03)
  expect_true(all(side$confidence > 0 & side$confidence < 1))
  # n_constraints splits evenly by default
  half <- sample_constraints(y, "nelson_cohen", n_constraints = 101)
  expect_identical(sum(half$must), 50L)
  expect_true(all(half$correct))
  expect_identical(sum(sample_constraints(y, "nelson_cohen", n_constraints = 100,
                                          must_fraction = 0.2)$must), 20L)
})

test_that("nelson_cohen draws distinct pairs, even near saturation", {
  set.seed(6)
  y <- c(1, 1, 1, 2, 2, 3)        # 4 must pairs, 11 cannot pairs exist
  side <- sample_constraints(y, "nelson_cohen", n_must = 4, n_cannot = 11)
  expect_length(side$i, 15L)
  expect_identical(cbind(side$i, side$j), unname(t(combn(6, 2))))
  expect_error(sample_constraints(y, "nelson_cohen", n_must = 5),
               "`n_must` is 5 but only 4 distinct must-link pairs exist")
  expect_error(sample_constraints(y, "nelson_cohen", n_cannot = 12), "`n_cannot` is 12")
  # singleton classes are never picked for must-links
  single <- sample_constraints(c(1, 2, 3, 3), "nelson_cohen", n_must = 1)
  expect_identical(c(single$i, single$j), 3:4)
})

test_that("sample_constraints() validates its arguments", {
  expect_error(sample_constraints(c(1, NA, 2)), "`y` has 1 NA value \\(positions 2\\)")
  expect_error(sample_constraints(1:5, "tvclust", rate = -1), "`rate` must be in")
  expect_error(sample_constraints(1:5, "tvclust", noise = 2), "`noise` must be in")
  expect_error(sample_constraints(1:5, "nelson_cohen"), "`n_must` and `n_cannot`")
  expect_error(sample_constraints(1:5, "nelson_cohen", n_constraints = 4, n_must = 2),
               "`n_constraints` cannot be combined")
  expect_error(sample_constraints(rep(1, 5), "nelson_cohen", n_cannot = 1),
               "`y` has a single class")
  expect_error(sample_constraints(1:5, "nelson_cohen", n_must = 1),
               "`y` has no class with 2 points")
  expect_error(sample_constraints(1:5, "nelson_cohen", n_cannot = 1,
                                  confidence_shape = 1), "`confidence_shape` must be in")
  expect_error(sample_constraints(1:5, rat = 0.1), "unused arguments")
})

test_that("sample_labels() labels exact counts with exact noise", {
  set.seed(8)
  y <- factor(rep(c("x", "y", "z"), c(100, 60, 40)))
  lab <- sample_labels(y, fraction = 0.3, noise = 0.2)
  expect_s3_class(lab, "sideclust_labels")
  expect_identical(lab, as_side_info(lab, 200))
  expect_identical(lab$levels, c("x", "y", "z"))
  labelled <- !is.na(lab$labels)
  expect_identical(sum(labelled), 60L)
  wrong <- labelled & lab$labels != as.integer(y)
  expect_identical(sum(wrong), 12L)
  expect_identical(lab$correct, ifelse(labelled, !wrong, NA))
  clean <- sample_labels(y, fraction = 0.1)
  expect_identical(sum(!is.na(clean$labels)), 20L)
  expect_true(all(clean$labels == as.integer(y), na.rm = TRUE))
  expect_identical(sum(!is.na(sample_labels(y, 0)$labels)), 0L)
  set.seed(9); a <- sample_labels(y, 0.2, noise = 0.5)
  set.seed(9); b <- sample_labels(y, 0.2, noise = 0.5)
  expect_identical(a, b)
})

test_that("sample_labels() few classes: coverage, subset and reuse", {
  set.seed(10)
  y <- rep(c("a", "b", "c", "d", "e"), c(5, 5, 10, 40, 40))
  sizes <- table(y)
  seen <- character(0)
  for (k in 1:40) {
    lab <- sample_labels(y, fraction = 0.3, n_classes = 2)
    expect_length(lab$classes, 2L)
    expect_gte(sum(sizes[lab$classes]), 0.3 * 100)
    expect_true(all(lab$levels[stats::na.omit(lab$labels)] %in% lab$classes))
    expect_identical(sum(!is.na(lab$labels)), 30L)
    seen <- union(seen, lab$classes)
  }
  # a, b together cover 10%; a qualifying pair always involves d or e
  expect_true(all(c("d", "e") %in% seen))
  lab <- sample_labels(y, fraction = 0.1, classes = c("c", "a"))
  expect_identical(lab$classes, c("a", "c"))
  expect_true(all(stats::na.omit(lab$labels) %in% c(1L, 3L)))
  # noise stays within the chosen classes
  noisy <- sample_labels(y, fraction = 0.15, noise = 0.4, classes = c("a", "c"))
  expect_identical(sum(noisy$correct == FALSE, na.rm = TRUE), 6L)
  expect_true(all(stats::na.omit(noisy$labels) %in% c(1L, 3L)))
  expect_error(sample_labels(y, 0.3, classes = c("a", "c")),
               "`fraction` asks for 30 labelled points but the chosen classes hold only 15")
  expect_error(sample_labels(y, 0.1, n_classes = 2, min_coverage = 0.9),
               "`min_coverage` is 0.9 but the 2 largest classes of `y` cover only 0.8")
  expect_error(sample_labels(y, 0.1, n_classes = 6), "`n_classes` is 6 but `y` has only 5")
  expect_error(sample_labels(y, 0.1, classes = "q"), "`classes` has values that are not classes of `y`: q")
  expect_error(sample_labels(y, 0.05, noise = 0.5, classes = "a"), "`noise` needs at least 2 classes")
  expect_error(sample_labels(y, 1.5), "`fraction` must be in")
})
