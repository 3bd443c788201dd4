test_that("itcc reports I(X;Y) - I(X^;Y^) as recomputed in plain R and never increases it", {
  set.seed(1)
  rates <- rbind(c(6, 1, 3), c(1, 6, 3), c(2, 2, 8))
  tr <- rep(1:3, c(12, 10, 8))
  tc <- rep(1:3, c(7, 9, 6))
  x <- matrix(rpois(30 * 22, rates[tr, tc]), 30, 22) + 1
  p <- info_joint(x)
  for (seed in 1:3) {
    set.seed(seed)
    fit <- itcc(x, k_rows = 3, k_cols = 3, restarts = 3)
    expect_equal(fit$loss, itcc_loss_plain(p, fit$cluster, fit$col_cluster), tolerance = 1e-10)
    expect_equal(fit$info_xy, mi_plain(p), tolerance = 1e-12)
    expect_equal(fit$info_clusters, fit$info_xy - fit$loss, tolerance = 1e-12)
    expect_true(all(diff(fit$loss_trace) <= 1e-13))
    expect_equal(utils::tail(fit$loss_trace, 1), fit$loss)
    expect_equal(fit$loss, min(fit$restart_loss))
    expect_equal(sum(fit$joint), 1, tolerance = 1e-12)
  }
  expect_equal(ari(fit$cluster, tr), 1)
  expect_equal(ari(fit$col_cluster, tc), 1)
})

test_that("every itcc half-step matches a plain-R reassignment from the same start", {
  set.seed(2)
  x <- matrix(rpois(15 * 9, 3), 15, 9) + 1
  p <- info_joint(x)
  r0 <- rep(1:3, 5)
  c0 <- rep(1:2, length.out = 9)
  fit <- itcc(x, 3, 2, restarts = 1, max_iter = 1, start = list(rows = r0, cols = c0))
  # Plain R row step: argmax over row clusters of sum_yhat p(x, yhat) log q(yhat | xhat).
  jt <- rowsum(t(rowsum(t(p), c0)), r0)  # 3 x 2 joint of (xhat, yhat)
  q <- jt / rowSums(jt)
  pxy_hat <- t(rowsum(t(p), c0))         # n x 2
  r1 <- max.col(pxy_hat %*% t(log(q)), ties.method = "first")
  expect_equal(fit$loss_trace[2], itcc_loss_plain(p, r1, c0), tolerance = 1e-12)
  expect_equal(fit$loss_trace[1], itcc_loss_plain(p, r0, c0), tolerance = 1e-12)
})

test_that("itcc is the same on sparse and dense input and reproducible", {
  set.seed(3)
  x <- matrix(rpois(20 * 12, 1), 20, 12)
  x[, 1] <- x[, 1] + 1
  x[1, ] <- x[1, ] + 1
  set.seed(5); a <- itcc(x, 2, 3, restarts = 2)
  set.seed(5); b <- itcc(Matrix::Matrix(x, sparse = TRUE), 2, 3, restarts = 2)
  expect_identical(a$cluster, b$cluster)
  expect_identical(a$col_cluster, b$col_cluster)
  expect_equal(a$loss, b$loss, tolerance = 1e-14)
})

planted_binary <- function(seed) {
  set.seed(seed)
  dens <- matrix(stats::runif(12, 0.05, 0.95), 3, 4)
  tr <- sample(rep(1:3, c(100, 120, 80)))
  tc <- sample(rep(1:4, c(50, 40, 60, 50)))
  list(x = matrix(stats::rbinom(300 * 200, 1, dens[tr, tc]), 300, 200), tr = tr, tc = tc)
}

test_that("cross_associations recovers planted 3 x 4 blocks and its cost never increases", {
  exact <- 0
  for (seed in 1:6) {
    d <- planted_binary(seed)
    fit <- cross_associations(d$x)
    expect_equal(c(fit$k, fit$k_cols), c(3L, 4L), info = paste("seed", seed))
    expect_gt(ari(fit$cluster, d$tr), 0.95)
    expect_gt(ari(fit$col_cluster, d$tc), 0.9)
    exact <- exact + (ari(fit$cluster, d$tr) == 1 && ari(fit$col_cluster, d$tc) == 1)
    expect_true(all(diff(fit$objective) < 0))
    expect_equal(fit$cost, utils::tail(fit$objective, 1))
    expect_equal(fit$cost, ca_cost_plain(d$x, fit$cluster, fit$col_cluster) +
                   log2(exp(1)) * (lfactorial(300) - sum(lfactorial(tabulate(fit$cluster))) +
                                     lfactorial(200) - sum(lfactorial(tabulate(fit$col_cluster)))),
                 tolerance = 1e-8)
    # Dense and sparse input give the same grouping.
    sp <- cross_associations(Matrix::Matrix(d$x == 1, sparse = TRUE))
    expect_identical(sp$cluster, fit$cluster)
  }
  expect_gte(exact, 4)
})

test_that("a checkerboard needs a joint row and column split", {
  set.seed(1)
  p <- matrix(c(0.9, 0.1, 0.2, 0.8), 2, 2)
  tr <- rep(1:2, c(30, 20))
  tc <- rep(1:2, c(15, 25))
  x <- matrix(stats::rbinom(50 * 40, 1, p[tr, tc]), 50, 40)
  # Every row (column) has about the same density, so neither margin alone
  # repays a split.
  single <- cross_associations(x, joint_splits = FALSE)
  expect_equal(c(single$k, single$k_cols), c(1L, 1L))
  fit <- cross_associations(x)
  expect_equal(ari(fit$cluster, tr), 1)
  expect_equal(ari(fit$col_cluster, tc), 1)
  expect_lt(fit$cost, single$cost)
})

test_that("a joint split separates groups merged on both sides", {
  # Topics 1 and 2 first end up as one row group over one merged word group
  # (density ~0.5); splitting rows alone does not pay until the words split
  # too, and regrouping between the two halves would undo the row split.
  set.seed(6)
  topic <- rep(1:3, each = 20)
  word <- c(rep(1:3, each = 10), rep(4, 10))
  rate <- matrix(0.5, 3, 40)
  rate[cbind(rep(1:3, each = 10), 1:30)] <- 6
  x <- matrix(stats::rpois(60 * 40, rate[topic, ]), 60, 40) > 2
  fit <- cross_associations(x)
  expect_equal(ari(fit$cluster, topic), 1)
  expect_equal(ari(fit$col_cluster, word), 1)
  expect_equal(fit$cost, ca_cost_plain(x * 1, fit$cluster, fit$col_cluster) +
                 ca_assignment_bits(fit$cluster) + ca_assignment_bits(fit$col_cluster),
               tolerance = 1e-8)
})

test_that("refined splits find sparse blocks that the margins hide", {
  set.seed(1)
  n <- 10000
  m <- 1500
  dens <- matrix(stats::runif(25, 0.001, 0.03), 5, 5)
  tr <- sample(rep_len(1:5, n))
  tc <- sample(rep_len(1:5, m))
  ii <- integer(0)
  jj <- integer(0)
  for (a in 1:5) for (b in 1:5) {
    r <- which(tr == a)
    c <- which(tc == b)
    idx <- sample.int(length(r) * length(c), stats::rbinom(1, length(r) * length(c), dens[a, b]))
    ii <- c(ii, r[(idx - 1) %% length(r) + 1])
    jj <- c(jj, c[(idx - 1) %/% length(r) + 1])
  }
  x <- Matrix::sparseMatrix(i = ii, j = jj, x = 1, dims = c(n, m))
  # The paper's search (its split rule, single splits only) stops early.
  plain <- cross_associations(x, refine_splits = FALSE, joint_splits = FALSE)
  fit <- cross_associations(x)
  expect_lt(plain$k * plain$k_cols, 4)
  expect_equal(c(fit$k, fit$k_cols), c(5L, 5L))
  expect_equal(ari(fit$col_cluster, tc), 1)
  expect_gt(ari(fit$cluster, tr), 0.7)  # rows are only ~1% dense: real confusion
  expect_lt(fit$cost, plain$cost)
  expect_true(all(diff(fit$objective) < 0))
})

test_that("the paper's cost is reproduced with assignment_cost = FALSE", {
  d <- planted_binary(7)
  fit <- cross_associations(d$x, assignment_cost = FALSE, split_tries = 1,
                            joint_splits = FALSE, refine_splits = FALSE)
  expect_equal(fit$cost, ca_cost_plain(d$x, fit$cluster, fit$col_cluster), tolerance = 1e-8)
  expect_true(all(diff(fit$objective) < 0))
  expect_equal(fit$density, fit$ones / outer(tabulate(fit$cluster), tabulate(fit$col_cluster)))
})

test_that("Table 1 of TR-09-12: what each method finds", {
  t1 <- matrix(c(1, 0, 0, 1, 0, 1,
                 0, 1, 1, 0, 1, 0,
                 1, 0, 0, 1, 0, 1,
                 1, 1, 1, 1, 1, 1,
                 0, 1, 1, 0, 1, 0,
                 1, 0, 1, 1, 1, 1), 6, 6, byrow = TRUE)
  paper_rows <- c(1, 2, 1, 3, 2, 3)   # {x1, x3}, {x2, x5}, {x4, x6}
  paper_cols <- c(1, 2, 2, 1, 2, 1)   # {y1, y4, y6}, {y2, y3, y5}
  # Cross-associations keeps one block. With the assignment cost, one block
  # is the global minimum (43.0 bits; Table 1(b) costs 46.0). With the
  # paper's cost, Table 1(b) is the global minimum by enumeration (35.2
  # bits) but no split from one block, single or joint, lowers the cost, so
  # the greedy search stops at once.
  for (asg in c(TRUE, FALSE)) {
    fit <- cross_associations(t1, assignment_cost = asg)
    expect_equal(c(fit$k, fit$k_cols), c(1L, 1L))
    expect_equal(fit$cost, 43.00679, tolerance = 1e-6)
  }
  expect_equal(ca_cost_plain(t1, paper_rows, paper_cols), 35.18668, tolerance = 1e-6)
  # With the numbers of groups given, itcc and sib find Table 1(b).
  set.seed(1)
  co <- itcc(t1, k_rows = 3, k_cols = 2, restarts = 10)
  expect_equal(ari(co$cluster, paper_rows), 1)
  expect_equal(ari(co$col_cluster, paper_cols), 1)
  set.seed(1)
  expect_equal(ari(sib(t1, k = 3, restarts = 10)$cluster, paper_rows), 1)
  expect_equal(ari(aib(t1, k = 3)$cluster, paper_rows), 1)
})

test_that("co-clustering front doors give clear errors", {
  x <- matrix(1:12, 4, 3)
  expect_error(itcc(x, 5, 2), "`k_rows` is 5 but there are only 4 rows")
  expect_error(itcc(x, 2, 4), "`k_cols` is 4 but there are only 3 columns")
  z <- x
  z[, 2] <- 0
  expect_error(itcc(z, 2, 2), "`x` has 1 all-zero column \\(2\\).*x\\[, colSums\\(x\\)")
  z <- x
  z[3, ] <- 0
  expect_error(itcc(z, 2, 2), "`x` has 1 all-zero row \\(3\\).*x\\[rowSums\\(x\\)")
  neg <- x
  neg[4, 1] <- -2
  expect_error(itcc(neg, 2, 2), "`x` has 1 negative entries \\(at \\[4, 1\\]\\)")
  expect_error(itcc(x, 2, 2, start = list(rows = 1:4)), "`start` must be NULL or a list")
  expect_error(cross_associations(x), "`x` has 11 entries other than 0 and 1 \\(at \\[1, 2\\]")
  expect_error(cross_associations(matrix(c(0, 1, NA, 1), 2)), "`x` has 1 NA values")
  # All-zero rows and columns are fine for binary data.
  b <- matrix(c(0, 0, 1, 1, 0, 0), 2)
  expect_s3_class(cross_associations(b), "cross_associations")
})

test_that("co-clustering fits print, summarize and plot", {
  d <- planted_binary(1)
  ca <- cross_associations(d$x)
  set.seed(1)
  co <- itcc(d$x + 1, 3, 4, restarts = 2)
  expect_output(print(ca), "Column clusters: 4.*Total description length.*Available components")
  expect_output(print(co), "Loss I\\(X;Y\\) - I\\(X\\^;Y\\^\\)")
  expect_output(print(summary(co)), "Column cluster sizes")
  pdf(NULL)
  on.exit(grDevices::dev.off())
  expect_identical(plot(ca, d$x), ca)
  expect_identical(plot(co, Matrix::Matrix(d$x + 1, sparse = TRUE), max_cells = 50), co)
  expect_error(plot(ca, d$x[-1, ]), "`data` does not have the dimensions")
})

test_that("cross_associations falls back to the paper's split when the refined one does not pay", {
  # planted 2 x 3 blocks where the 2-means refinement of the first row split
  # settles on a split the regrouping undoes (this draw stopped at 1 x 2)
  set.seed(2)
  dens <- rbind(c(0.9, 0.1, 0.9), c(0.1, 0.9, 0.9))
  rows <- rep(1:2, length.out = 60)
  cols <- rep(1:3, length.out = 40)
  x <- matrix(stats::rbinom(60 * 40, 1, dens[rows, cols]), 60, 40)
  fit <- cross_associations(x)
  expect_equal(c(fit$k, fit$k_cols), c(2, 3))
  expect_equal(nmi(rows, fit$cluster), 1)
  expect_equal(nmi(cols, fit$col_cluster), 1)
  unrefined <- cross_associations(x, refine_splits = FALSE)
  expect_lte(fit$cost, unrefined$cost + 1e-9)
})

test_that("cross_associations() polls for interrupts inside its passes, not only between splits", {
  # one round of split attempts over 5000 x 100 (5e4 ones) does several
  # times the poll interval of work: Ctrl-C must not wait for the round
  set.seed(7)
  x <- Matrix::rsparsematrix(5000, 100, density = 0.1, rand.x = NULL)
  csr <- sideclust:::as_joint_csr(x, "x", binary = TRUE)
  r <- sideclust:::.cross_associations_cpp(csr, list(max_groups = 100L, split_tries = 3L,
                                                      assignment_cost = TRUE, joint_splits = TRUE,
                                                      refine_splits = TRUE))
  expect_gt(r$interrupt_polls, length(r$trace))
})
