# Brute force over all choose(n, 2) pairs.
brute_pairs <- function(truth, cluster) {
  truth <- as.character(truth)
  cluster <- as.character(cluster)
  n <- length(truth)
  both <- in_truth <- in_cluster <- 0
  for (i in seq_len(n - 1L)) {
    for (j in (i + 1L):n) {
      st <- truth[i] == truth[j]
      sc <- cluster[i] == cluster[j]
      both <- both + (st && sc)
      in_truth <- in_truth + st
      in_cluster <- in_cluster + sc
    }
  }
  list(both = both, truth = in_truth, cluster = in_cluster, all = n * (n - 1) / 2)
}

brute_f <- function(truth, cluster) {
  p <- brute_pairs(truth, cluster)
  precision <- p$both / p$cluster
  recall <- p$both / p$truth
  2 * precision * recall / (precision + recall)
}

brute_ari <- function(truth, cluster) {
  p <- brute_pairs(truth, cluster)
  expected <- p$truth * p$cluster / p$all
  (p$both - expected) / ((p$truth + p$cluster) / 2 - expected)
}

direct_nmi <- function(truth, cluster, normalization) {
  joint <- table(truth, cluster) / length(truth)
  pa <- rowSums(joint)
  pb <- colSums(joint)
  h <- function(p) -sum(p[p > 0] * log(p[p > 0]))
  nz <- joint > 0
  mi <- sum(joint[nz] * log(joint[nz] / outer(pa, pb)[nz]))
  if (normalization == "sqrt") mi / sqrt(h(pa) * h(pb)) else 2 * mi / (h(pa) + h(pb))
}

random_labelings <- function(n, seed) {
  set.seed(seed)
  list(
    integer = sample(1:4, n, replace = TRUE),
    character = sample(c("x", "y", "z"), n, replace = TRUE),
    factor = factor(sample(letters[1:6], n, replace = TRUE), levels = letters[1:8]),
    double = sample(c(0.5, 2.25, 7), n, replace = TRUE),
    logical = sample(c(TRUE, FALSE), n, replace = TRUE),
    many = sample(1:12, n, replace = TRUE)
  )
}

test_that("f_measure and ari equal brute-force pair counting", {
  for (seed in 1:3) {
    labs <- random_labelings(30, seed)
    for (a in names(labs)) for (b in names(labs)) {
      expect_equal(f_measure(labs[[a]], labs[[b]]),
                   brute_f(labs[[a]], labs[[b]]), info = paste(a, b))
      expect_equal(ari(labs[[a]], labs[[b]]),
                   brute_ari(labs[[a]], labs[[b]]), info = paste(a, b))
    }
  }
})

test_that("nmi equals a direct entropy computation from table()", {
  for (seed in 1:3) {
    labs <- random_labelings(40, seed)
    for (a in names(labs)) for (b in names(labs)) {
      if (a == b) next
      for (norm in c("sqrt", "sum")) {
        expect_equal(nmi(labs[[a]], labs[[b]], normalization = norm),
                     direct_nmi(labs[[a]], labs[[b]], norm), info = paste(a, b, norm))
      }
    }
  }
})

test_that("ari agrees with mclust::adjustedRandIndex's stored values", {
  fx <- read_fixture("mclust-ari")
  for (i in seq_along(fx$input)) {
    expect_equal(ari(fx$input[[i]]$a, fx$input[[i]]$b), fx$output[[i]], info = i)
  }
})

test_that("ari agrees with mclust::adjustedRandIndex", {
  skip_if_not_installed("mclust")
  set.seed(11)
  for (i in 1:20) {
    n <- sample(5:300, 1)
    a <- sample(seq_len(sample(1:10, 1)), n, replace = TRUE)
    b <- sample(seq_len(sample(1:10, 1)), n, replace = TRUE)
    if (i %% 2 == 0) b <- ifelse(runif(n) < 0.7, a, b)   # correlated case
    if (length(unique(a)) == 1 && length(unique(b)) == 1) next
    expect_equal(ari(a, b), mclust::adjustedRandIndex(a, b))
  }
})

test_that("metrics are symmetric and invariant to relabelling", {
  set.seed(5)
  a <- sample(1:5, 80, replace = TRUE)
  b <- ifelse(runif(80) < 0.6, a, sample(1:7, 80, replace = TRUE))
  relabel <- c("q", "w", "e", "r", "t", "y", "u")[b]
  perm_a <- c(5, 3, 1, 2, 4)[a]
  ref <- compare_partitions(a, b)
  expect_equal(compare_partitions(b, a), ref)
  expect_equal(compare_partitions(perm_a, relabel), ref)
  expect_equal(compare_partitions(factor(a), factor(b, levels = 9:1)), ref)
  expect_equal(nmi(a, b, "sum"), nmi(b, a, "sum"))
})

test_that("compare_partitions returns the three named metrics", {
  set.seed(2)
  a <- sample(letters[1:3], 50, replace = TRUE)
  b <- sample(1:4, 50, replace = TRUE)
  res <- compare_partitions(a, b)
  expect_named(res, c("f_measure", "ari", "nmi"))
  expect_equal(res[["f_measure"]], f_measure(a, b))
  expect_equal(res[["ari"]], ari(a, b))
  expect_equal(res[["nmi"]], nmi(a, b))
  expect_equal(compare_partitions(a, b, nmi_normalization = "sum")[["nmi"]],
               nmi(a, b, normalization = "sum"))
  fit <- list(cluster = b, k = 4L)
  expect_equal(compare_partitions(a, fit), res)
  expect_error(compare_partitions(a, b, nmi_normalization = "max"), "nmi_normalization")
  expect_error(nmi(a, b, normalization = "max"), "normalization")
})

test_that("edge cases: identical, singletons, one cluster, one point", {
  x <- c(3, 3, 1, 2, 2, 2)
  expect_equal(unname(compare_partitions(x, letters[x])), c(1, 1, 1))
  single <- 1:6
  expect_equal(unname(compare_partitions(single, rev(single))), c(1, 1, 1))
  one <- rep(1, 6)
  expect_equal(unname(compare_partitions(one, rep("a", 6))), c(1, 1, 1))
  # all singletons vs one cluster: no agreement
  expect_equal(f_measure(single, one), 0)
  expect_equal(ari(single, one), 0)
  expect_equal(nmi(single, one), 0)
  expect_equal(nmi(one, x), 0)
  expect_equal(f_measure(single, x), 0)
  expect_equal(unname(compare_partitions(7, "a")), c(1, 1, 1))
  expect_equal(unname(compare_partitions(1:2, c(1, 1))), c(0, 0, 0))
  # identical partitions with many clusters: nmi exactly within [0, 1]
  set.seed(3)
  z <- sample(1:50, 1000, replace = TRUE)
  expect_lte(nmi(z, z), 1)
  expect_equal(nmi(z, z), 1)
  expect_equal(nmi(z, -z, "sum"), 1)
})

test_that("bad input gives errors naming the argument", {
  expect_error(f_measure(1:3, 1:4), "`truth` and `cluster` must have the same length.*3.*4")
  expect_error(ari(c(1, NA, 2, NA), 1:4), "`truth` has 2 NA values \\(positions 2, 4\\)")
  expect_error(nmi(1:3, c("a", NA, "b")), "`cluster` has 1 NA value \\(positions 2\\)")
  expect_error(f_measure(integer(0), integer(0)), "`truth` is empty")
  expect_error(f_measure(1:3, list(cluster = 1:3)), "`cluster`.*list.*\\$cluster")
  expect_error(ari(matrix(1:4, 2), 1:4), "`truth` must be a vector")
  expect_error(compare_partitions(1:3, list(k = 2)), "`cluster`.*list")
})

test_that("sort path equals tabulate path and large n stays sparse", {
  set.seed(8)
  n <- 5000
  a <- sample(1:2000, n, replace = TRUE)
  b <- ifelse(runif(n) < 0.5, a, sample(1:2500, n, replace = TRUE))
  dense <- contingency(a, b, max_cells = Inf)
  sparse <- contingency(a, b, max_cells = 0)
  key <- function(tab) {
    o <- order(tab$cell_row, tab$cell_col)
    cbind(tab$cell_row[o], tab$cell_col[o], tab$cells[o])
  }
  expect_equal(key(sparse), key(dense))
  expect_equal(sparse$rows, dense$rows)
  expect_equal(sparse$cols, dense$cols)
  for (norm in c("sqrt", "sum")) {
    expect_equal(nmi_tab(sparse, norm), nmi_tab(dense, norm))
  }
  expect_equal(ari_tab(sparse), ari_tab(dense))
  expect_equal(f_measure_tab(sparse), f_measure_tab(dense))

  # n = 2e5 with ~n/2 clusters on both sides: 1e10 cells would be dense
  n <- 2e5
  a <- sample.int(n / 2, n, replace = TRUE)
  b <- ifelse(runif(n) < 0.8, a, sample.int(n / 2, n, replace = TRUE))
  tab <- contingency(a, b)
  expect_equal(sum(tab$cells), n)
  expect_lte(length(tab$cells), n)
  res <- compare_partitions(a, b)
  # closed forms from the pair counts (cross-check of the helper's outputs)
  cnt <- table(paste(a, b))
  both <- sum(choose(as.double(cnt), 2))
  pt <- sum(choose(as.double(table(a)), 2))
  pc <- sum(choose(as.double(table(b)), 2))
  expect_equal(res[["f_measure"]], 2 * both / (pt + pc))
  all <- choose(n, 2)
  expect_equal(res[["ari"]], (both - pt * pc / all) / ((pt + pc) / 2 - pt * pc / all))
  expect_true(res[["nmi"]] > 0.5 && res[["nmi"]] < 1)
})

test_that("pair counts do not overflow for large clusters", {
  n <- 1e6
  a <- rep(1:2, each = n / 2)
  b <- rep(1:2, times = n / 2)
  expect_equal(ari(a, a), 1)
  expect_equal(f_measure(a, rep(1L, n)), 2 * 2 * choose(n / 2, 2) /
                 (2 * choose(n / 2, 2) + choose(n, 2)))
  expect_equal(nmi(a, b), 0, tolerance = 1e-12)
})
