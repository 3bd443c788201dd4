tri_types <- rbind(c(1, 2), c(2, 3))

tiny_tripartite <- function(seed) {
  set.seed(seed)
  list(matrix(rnorm(4 * 3), 4, 3), matrix(rnorm(3 * 3), 3, 3))
}

test_that("the objective and weights are (61) and (63) recomputed in plain R", {
  set.seed(11)
  d <- kp_planted(c(12, 9, 7), c(3, 3, 2), tri_types)
  for (div in c("euclidean", "idivergence")) {
    fit <- kpartite_clustering(d$relations, k = c(3, 3, 2), divergence = div, restarts = 2)
    k <- fit$k
    expect_equal(utils::tail(fit$objective, 1),
                 kp_objective_r(d$relations, tri_types, fit$clusters, k, div))
    expect_equal(sum(fit$relation_objective), utils::tail(fit$objective, 1))
    for (r in 1:2) {
      ta <- tri_types[r, 1]
      tb <- tri_types[r, 2]
      expect_equal(unname(fit$cluster_relations[[r]]),
                   kp_weights_r(d$relations[[r]], fit$clusters[[ta]], k[ta],
                                fit$clusters[[tb]], k[tb]))
    }
  }
})

test_that("the objective never increases and the end is a fixed point of single moves", {
  for (div in c("euclidean", "idivergence")) {
    set.seed(3)
    d <- kp_planted(c(10, 8, 6), c(3, 2, 2), tri_types, low = 2, high = 4)
    fit <- kpartite_clustering(d$relations, k = c(3, 2, 2), divergence = div,
                               restarts = 1, tol = 0)
    expect_true(fit$converged)
    expect_true(all(diff(fit$objective) <= 1e-9 * fit$objective[1]))
    final <- utils::tail(fit$objective, 1)
    # every single vertex move, with the final weights fixed, costs at least as much
    worst_gain <- 0
    for (t in 1:3) for (h in seq_along(fit$clusters[[t]])) for (p in seq_len(fit$k[t])) {
      trial <- fit$clusters
      trial[[t]][h] <- p
      l <- kp_objective_r(d$relations, tri_types, trial, fit$k, div, fit$cluster_relations)
      worst_gain <- max(worst_gain, final - l)
    }
    expect_lte(worst_gain, 1e-9 * final)
  }
})

test_that("restarts find the global optimum of a tiny tripartite graph", {
  rel <- tiny_tripartite(5)
  k <- c(2, 2, 2)
  m <- c(4, 3, 3)
  lab <- lapply(seq_along(m), function(t) kp_all_labelings(m[t], k[t]))
  best <- Inf
  for (i in seq_len(nrow(lab[[1]]))) for (j in seq_len(nrow(lab[[2]]))) {
    for (l in seq_len(nrow(lab[[3]]))) {
      cl <- list(lab[[1]][i, ], lab[[2]][j, ], lab[[3]][l, ])
      best <- min(best, kp_objective_r(rel, tri_types, cl, k))
    }
  }
  set.seed(1)
  fit <- kpartite_clustering(rel, k = k, restarts = 40)
  expect_equal(utils::tail(fit$objective, 1), best)
  expect_true(all(fit$restart_objective >= best - 1e-10))
})

test_that("each step matches TR-09-12's algorithm written in plain R", {
  set.seed(8)
  d <- kp_planted(c(9, 7, 6), c(3, 2, 2), tri_types, noise = 1.5)
  start <- list(rep(1:3, 3), c(1, 2, 1, 2, 2, 1, 1), c(2, 1, 1, 2, 1, 2))
  ref <- kp_exchange_r(d$relations, tri_types, start, c(3, 2, 2))
  fit <- kpartite_clustering(d$relations, k = c(3, 2, 2), start = start, restarts = 1,
                             tol = 0)
  # the same partitions, numbered by first appearance in the fit
  expect_equal(unname(fit$clusters), lapply(ref$clusters, kp_first_seen))
  expect_equal(fit$objective, ref$trace)
})

test_that("with two types and one relation it is block co-clustering of the matrix", {
  set.seed(21)
  rows <- rep(1:3, each = 6)
  cols <- rep(1:2, each = 5)
  means <- rbind(c(4, 0), c(0, 4), c(2, 2))
  a <- means[rows, cols] + matrix(rnorm(18 * 10, sd = 0.8), 18, 10)
  start <- list(rep(1:3, 6), rep(1:2, 5))
  ref <- kp_exchange_r(list(a), rbind(c(1, 2)), start, c(3, 2))
  fit <- kpartite_clustering(a, k = c(3, 2), start = start, restarts = 1, tol = 0)
  expect_equal(unname(fit$clusters), lapply(ref$clusters, kp_first_seen))
  expect_equal(fit$objective, ref$trace)
  # the planted blocks are found, and their weights are the block means
  fit <- kpartite_clustering(a, k = c(3, 2), restarts = 10)
  expect_equal(ari(rows, fit$clusters[[1]]), 1)
  expect_equal(ari(cols, fit$clusters[[2]]), 1)
  expect_equal(unname(fit$cluster_relations[[1]]),
               kp_block_means_r(a, fit$clusters[[1]], 3, fit$clusters[[2]], 2))
})

test_that("planted clusters of three types are recovered, dense or sparse alike", {
  set.seed(4)
  d <- kp_planted(c(60, 45, 30), c(3, 3, 3), tri_types, low = 0.3, high = 2)
  set.seed(9)
  fit <- kpartite_clustering(d$relations, k = 3, divergence = "idivergence")
  for (t in 1:3) expect_equal(ari(d$truth[[t]], fit$clusters[[t]]), 1)
  sparse <- lapply(d$relations, Matrix::Matrix, sparse = TRUE)
  set.seed(9)
  fit_sparse <- kpartite_clustering(sparse, k = 3, divergence = "idivergence")
  expect_equal(fit_sparse$clusters, fit$clusters)
  expect_equal(fit_sparse$objective, fit$objective)
})

test_that("reproducible under set.seed, and orientation of a relation is free", {
  set.seed(2)
  d <- kp_planted(c(15, 12, 10), c(2, 3, 2), tri_types, noise = 1)
  set.seed(5)
  f1 <- kpartite_clustering(d$relations, k = c(2, 3, 2), restarts = 3)
  set.seed(5)
  f2 <- kpartite_clustering(d$relations, k = c(2, 3, 2), restarts = 3)
  expect_identical(f1[names(f1) != "call"], f2[names(f2) != "call"])
  # relation 2 given as tags x items
  start <- lapply(f1$clusters, function(cl) rev(cl))
  a <- kpartite_clustering(d$relations, k = c(2, 3, 2), start = start, restarts = 1)
  b <- kpartite_clustering(list(d$relations[[1]], t(d$relations[[2]])), k = c(2, 3, 2),
                           types = list(c(1, 2), c(3, 2)), start = start, restarts = 1)
  expect_equal(b$clusters, a$clusters)
  expect_equal(b$objective, a$objective)
  expect_equal(b$cluster_relations[[2]], t(a$cluster_relations[[2]]),
               ignore_attr = TRUE)
})

test_that("clusters left empty are dropped and the objective stays exact", {
  set.seed(6)
  rel <- list(matrix(rnorm(6 * 5), 6, 5))
  # cluster 2 of the rows empty from the start: its weights start at the mean
  start <- list(c(1, 1, 1, 3, 3, 3), c(1, 2, 1, 2, 1))
  fit <- kpartite_clustering(rel, k = c(3, 2), start = start, restarts = 1)
  expect_equal(sort(unique(fit$clusters[[1]])), seq_len(fit$k[[1]]))
  expect_equal(ncol(fit$cluster_relations[[1]]), fit$k[[2]])
  expect_equal(nrow(fit$cluster_relations[[1]]), fit$k[[1]])
  expect_equal(utils::tail(fit$objective, 1),
               kp_objective_r(rel, rbind(c(1, 2)), fit$clusters, fit$k))
  # two pairs of equal rows: the empty cluster 2 (weights at the mean) stays empty
  a <- rbind(c(5, 0, 1), c(5, 0, 1), c(0, 5, 1), c(0, 5, 1))
  fit <- kpartite_clustering(a, k = c(3, 2), start = list(c(1, 1, 3, 3), c(1, 2, 2)))
  expect_equal(fit$k, c(type1 = 2L, type2 = 2L))
  expect_equal(fit$clusters[[1]], c(1L, 1L, 2L, 2L))
  expect_equal(dim(fit$cluster_relations[[1]]), c(2L, 2L))
})

test_that("clusters are numbered by first appearance, the weights permuted alike", {
  # a planted fixed point given with its labels in reverse order comes back
  # renumbered, with the rows and columns of B permuted, and the same L
  set.seed(14)
  d <- kp_planted(c(12, 9, 8), c(3, 3, 2), tri_types, noise = 0.1)
  k <- c(3, 3, 2)
  start <- lapply(seq_along(k), function(t) k[t] + 1L - d$truth[[t]])
  fit <- kpartite_clustering(d$relations, k = k, start = start, restarts = 1, tol = 0)
  expect_identical(fit$iterations, 1L)
  expect_identical(unname(fit$clusters), lapply(start, kp_first_seen))
  perm <- lapply(start, unique)  # start's cluster behind each new number
  for (r in 1:2) {
    ta <- tri_types[r, 1]
    tb <- tri_types[r, 2]
    b <- kp_block_means_r(d$relations[[r]], start[[ta]], k[ta], start[[tb]], k[tb])
    expect_equal(unname(fit$cluster_relations[[r]]), b[perm[[ta]], perm[[tb]]])
  }
  expect_equal(fit$objective, rep(kp_objective_r(d$relations, tri_types, start, k), 2))
  expect_identical(fit$size, lapply(fit$clusters, function(cl) tabulate(cl)))
  # any fit: the first vertex of every type in cluster 1, labels in
  # increasing order of first appearance, L recomputed from the fit's own
  # clusters and weights
  rel <- list(d$relations[[1]], d$relations[[2]], t(d$relations[[1]]))
  types <- rbind(c(1, 2), c(2, 3), c(2, 1))
  for (div in c("euclidean", "idivergence")) for (seed in 1:3) {
    set.seed(seed)
    fit <- kpartite_clustering(lapply(rel, abs), k = c(3, 2, 2), types = types,
                               divergence = div, restarts = 2)
    for (t in 1:3) {
      cl <- unname(fit$clusters[[t]])
      expect_identical(cl[1], 1L)
      expect_identical(cl, kp_first_seen(cl))
    }
    expect_identical(fit$cluster, fit$clusters[[1]])
    expect_equal(utils::tail(fit$objective, 1),
                 kp_objective_r(lapply(rel, abs), types, fit$clusters, fit$k, div,
                                fit$cluster_relations))
  }
})

test_that("print, summary and plot describe the fit", {
  set.seed(1)
  d <- kp_planted(c(12, 9, 6), c(2, 2, 2), tri_types)
  fit <- kpartite_clustering(d$relations, k = c(a = 2, b = 2, c = 2), restarts = 2)
  expect_named(fit$clusters, c("a", "b", "c"))
  expect_named(fit$cluster_relations, c("a-b", "b-c"))
  expect_output(print(fit), "k-partite clustering of 3 types")
  expect_output(print(fit), "Available components")
  expect_output(print(summary(fit)), "Cluster-level weights")
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_invisible(plot(fit))
  expect_error(plot(fit, min_weight = 2), "min_weight")
})

test_that("plot() keeps the circles inside the plot region, apart, and off the type names", {
  # the layout for plot regions of several shapes: every circle (radius
  # 0.1875 cex char_h inches) lies inside the y range and neighbours in a
  # column do not touch
  layout <- sideclust:::kp_plot_layout
  char_h <- 0.2
  k <- c(8L, 4L, 2L, 1L)
  size <- list(c(9, 1, 5, 5, 2, 7, 3, 8), c(1, 20, 4, 6), c(3, 3), 10)
  for (pin in list(c(4.8, 2.2), c(2.4, 4.2), c(1.6, 1.2), c(8, 0.8))) {
    lay <- layout(k, size, pin, char_h)
    inch_per_unit <- pin[2] / diff(lay$ylim)
    for (t in seq_along(k)) {
      r <- 0.1875 * char_h * lay$cex[[t]] / inch_per_unit  # radii in y units
      y <- if (k[t] == 1L) 0.5 else seq(1, 0, length.out = k[t])
      expect_true(all(y - r >= lay$ylim[1] & y + r <= lay$ylim[2]))
      if (k[t] > 1L) expect_true(all(-diff(y) >= r[-1] + r[-k[t]]))
      expect_true(all(0.1875 * char_h * lay$cex[[t]] <= 0.5 * pin[1] / length(k)))
    }
    expect_lte(max(unlist(lay$cex)), 4.5)
  }
  # at the fit's sizes the circles keep their 1.5 + 3 sqrt(size share)
  lay <- layout(c(2L, 2L), list(c(4, 1), c(1, 1)), c(4.8, 2.2), char_h)
  expect_equal(lay$cex[[1]], c(4.5, 3))
  # plot() uses that layout: at 6 x 4 inches the largest circle of the
  # bottom row ends inside the user coordinates
  set.seed(1)
  d <- kp_planted(c(12, 9, 6), c(3, 2, 2), tri_types)
  fit <- kpartite_clustering(d$relations, k = c(3, 2, 2), restarts = 1)
  file <- tempfile(fileext = ".png")
  grDevices::png(file, width = 6, height = 4, units = "in", res = 50)
  expect_invisible(plot(fit))
  usr <- graphics::par("usr")
  radius <- 0.1875 * 4.5 * graphics::par("cin")[2] * diff(usr[3:4]) / graphics::par("pin")[2]
  grDevices::dev.off()
  unlink(file)
  expect_lt(usr[3], -radius)
  expect_gt(usr[4], 1 + radius)
})

test_that("verbose prints the objective after every iteration", {
  set.seed(1)
  d <- kp_planted(c(8, 6, 4), c(2, 2, 2), tri_types)
  expect_message(kpartite_clustering(d$relations, k = 2, restarts = 1, verbose = TRUE),
                "iteration +1: k = +6, objective")
})

test_that("max_iter too small gives a warning and converged = FALSE", {
  set.seed(2)
  d <- kp_planted(c(30, 20, 10), c(3, 2, 2), tri_types, noise = 3)
  expect_warning(fit <- kpartite_clustering(d$relations, k = c(3, 2, 2), max_iter = 1,
                                            restarts = 1), "max_iter")
  expect_false(fit$converged)
})

test_that("bad input gives errors naming the argument", {
  a <- matrix(1, 4, 3)
  b <- matrix(1, 3, 2)
  expect_error(kpartite_clustering(list(), k = 2), "relations")
  expect_error(kpartite_clustering("x", k = 2), "relations")
  expect_error(kpartite_clustering(list(a, "x"), k = 2), "relations\\[\\[2\\]\\]")
  expect_error(kpartite_clustering(list(a, rbind(b, NA)), k = 2), "relations\\[\\[2\\]\\]")
  sparse_na <- Matrix::Matrix(b, sparse = TRUE)
  sparse_na[1, 1] <- NA
  expect_error(kpartite_clustering(list(a, sparse_na), k = 2), "relations\\[\\[2\\]\\].*NA")
  expect_error(kpartite_clustering(list(a, data.frame(x = 1:3, y = letters[1:3])), k = 2),
               "relations\\[\\[2\\]\\].*numeric")
  expect_error(kpartite_clustering(list(a, matrix(1, 4, 2)), k = 2),
               "relations\\[\\[2\\]\\]` has 4 rows but type 2 has 3")
  expect_error(kpartite_clustering(list(a, -b), k = 2, divergence = "idivergence"),
               "relations\\[\\[2\\]\\].*negative")
  expect_error(kpartite_clustering(list(a, b), k = 2, types = list(c(1, 2))), "types")
  expect_error(kpartite_clustering(list(a, b), k = 2, types = list(c(1, 2), 3)), "types")
  expect_error(kpartite_clustering(list(a, b), k = 2, types = list(c(1, 2), c(2, 2))),
               "types.*itself")
  expect_error(kpartite_clustering(list(a, b), k = 2, types = list(c(1, 2), c(2, 4))),
               "types.*never mentions type 3")
  expect_error(kpartite_clustering(list(a, b), k = 2, types = list(c(1, 2), c(2, 1.5))),
               "types")
  expect_error(kpartite_clustering(list(a, b)), "k")
  expect_error(kpartite_clustering(list(a, b), k = c(2, 2)), "`k` has 2 values but there are 3")
  expect_error(kpartite_clustering(list(a, b), k = c(2, 4, 2)), "`k` asks for more clusters")
  expect_error(kpartite_clustering(list(a, b), k = 1.5), "`k`")
  expect_error(kpartite_clustering(list(a, b), k = 2, divergence = "kl"), "divergence")
  expect_error(kpartite_clustering(list(a, b), k = 2, restarts = 0), "restarts")
  expect_error(kpartite_clustering(list(a, b), k = 2, max_iter = "a"), "max_iter")
  expect_error(kpartite_clustering(list(a, b), k = 2, tol = -1), "tol")
  expect_error(kpartite_clustering(list(a, b), k = 2, verbose = NA), "verbose")
  expect_error(kpartite_clustering(list(a, b), k = 2, start = list(1:4)), "start")
  expect_error(kpartite_clustering(list(a, b), k = 2,
                                   start = list(c(1, 2, 1, 3), c(1, 2, 1), c(1, 2))),
               "start\\[\\[1\\]\\]")
})
