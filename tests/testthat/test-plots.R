# Every plot method and every view renders to a PNG without warnings.

render <- function(expr) {
  file <- tempfile(fileext = ".png")
  grDevices::png(file, width = 900, height = 700)
  on.exit({
    grDevices::dev.off()
    unlink(file)
  })
  force(expr)
}

test_that("every fit's plot() renders without warnings, with the data it keeps", {
  for (name in names(cases <- convention_cases())) {
    set.seed(21)
    fit <- cases[[name]]$fit()
    if (name %in% c("multiway", "kpartite", "aib")) next  # 3-way, network, curve: below
    expect_no_warning(render(plot(fit)), message = name)
    if (!name %in% c("tvclust", "tvclust_vb")) {  # their plot()s take `what`, not data
      expect_no_warning(render(plot(fit, cases[[name]]$data)), message = name)
    }
  }
})

test_that("the point views: links, uncertainty, ellipses and the errors that name the argument", {
  x <- scale(iris[, 1:4])
  set.seed(2)
  side <- sample_constraints(iris$Species, rate = 0.01, noise = 0.1)
  mix <- constrained_mixture(x, side, 3, penalty = 2)
  for (links in c("broken", "all", "none")) {
    expect_no_warning(render(plot(mix, links = links)))
  }
  expect_no_warning(render(plot(mix, what = "uncertainty")))
  expect_no_warning(render(plot(mix, legend = FALSE, ellipses = FALSE)))
  expect_error(render(plot(cec(x, 3, restarts = 1), what = "uncertainty")), "`what`")
  expect_error(render(plot(rdp_means(x, side, 3), what = "uncertainty")), "`what`.*probabilities")
  expect_error(plot(mix, links = "some"), "`links`")
  expect_error(plot(mix, x[1:10, ]), "`data` has 10 rows")
  two <- x[, 1:2]
  expect_no_warning(render(plot(constrained_mixture(two, side, 3, penalty = 2))))
  labels <- sample_labels(iris$Species, 0.2)
  expect_no_warning(render(plot(cec_ib(x, labels, 3, restarts = 1))))
  one <- x[, 1, drop = FALSE]
  expect_no_warning(render(plot(dp_means(one, 3))))
})

test_that("TVClust's views render: traces with titles and legend, k, estimate and the PSM key", {
  x <- scale(iris[, 1:4])
  set.seed(3)
  side <- sample_constraints(iris$Species, rate = 0.01)
  fit <- tvclust(x, side, iter = 60, chains = 2, threads = 1, alpha_prior = c(1, 1))
  for (what in c("trace", "k", "estimate", "psm")) {
    expect_no_warning(render(plot(fit, what = what)), message = what)
  }
  expect_error(plot(fit, what = "nothing"), "`what`")
  expect_error(psm(fit, max_n = 10), "would need 0.2 MB")
})

test_that("the other views: multiway, k-partite and agglomerative IB", {
  set.seed(4)
  counts <- matrix(rpois(30 * 8, rep(c(1, 6, 3), each = 80)), 30, 8) + 1
  expect_no_warning(render(plot(aib(counts, k = 3))))
  expect_no_warning(render(plot(aib(counts, k = 3), against = "info_x")))
  m <- matrix(rnorm(20 * 6), 20, 6)
  expect_no_warning(render(plot(multiway_clustering(m, c(2, 2), restarts = 1))))
  fit <- kpartite_clustering(list(counts, counts[, 1:4]), k = c(a = 3, b = 2, c = 2),
                             types = rbind(c(1, 2), c(1, 3)), restarts = 1)
  expect_no_warning(render(plot(fit)))
})
