# predict() matches new data to the fitted columns by name, and scores new
# data far outside the fitted data (or says which rows it cannot score).

iris_x <- function() as.matrix(iris[c(1:15, 51:65, 101:115), 1:4])
iris_side <- function() {
  set.seed(1)
  sample_constraints(iris$Species[c(1:15, 51:65, 101:115)], rate = 0.02)
}

test_that("a data frame with the columns in another order gets the same clusters", {
  x <- iris_x()
  side <- iris_side()
  df <- as.data.frame(x)
  shuffled <- df[, c(3, 1, 4, 2)]
  set.seed(2)
  fits <- list(rdp_means = rdp_means(df, side, lambda = 4), cvqe = cvqe(df, side, 3, restarts = 2),
               cec = cec(df, 3, restarts = 2), mixture = constrained_mixture(df, side, 3))
  for (name in names(fits)) {
    expect_identical(predict(fits[[name]], shuffled), predict(fits[[name]], df), label = name)
    # a matrix with named columns in another order too
    expect_identical(predict(fits[[name]], x[, c(4, 3, 2, 1)]), predict(fits[[name]], x), label = name)
  }
})

test_that("missing, unknown or duplicated columns are an error naming them", {
  x <- iris_x()
  set.seed(3)
  fit <- cvqe(x, iris_side(), 3, restarts = 2)
  expect_error(predict(fit, x[, -2]), "lacks the fit's column `Sepal.Width`")
  renamed <- x
  colnames(renamed)[4] <- "petal_width"
  expect_error(predict(fit, renamed), "`Petal.Width`.*`petal_width`")
  expect_error(predict(fit, cbind(x, extra = 1)), "does not know: `extra`")
  dup <- x
  colnames(dup)[2] <- "Sepal.Length"
  expect_error(predict(fit, dup), "duplicated column names")
})

test_that("unnamed new data: by position, with a warning only when the fit had names", {
  x <- iris_x()
  side <- iris_side()
  set.seed(4)
  named <- lcvqe(x, side, 3, restarts = 2)
  expect_warning(pr <- predict(named, unname(x)), "no column names.*`Sepal.Length`")
  expect_identical(unname(pr$cluster), unname(predict(named, x)$cluster))
  set.seed(4)
  plain <- lcvqe(unname(x), side, 3, restarts = 2)
  expect_silent(predict(plain, unname(x)))
  expect_silent(predict(plain, x))  # names the fit cannot check: by position
})

test_that("sparse new data are matched by name and stay sparse", {
  set.seed(5)
  m <- Matrix::rsparsematrix(40, 6, 0.5)
  m@x <- abs(m@x) + 1
  colnames(m) <- letters[1:6]
  fit <- dp_means(m, lambda = 6)
  expect_identical(predict(fit, m[, 6:1]), predict(fit, m))
  cv <- cvqe(m, NULL, 3, restarts = 1)
  expect_identical(predict(cv, m[, c(2, 1, 3:6)]), predict(cv, m))
  expect_error(predict(cv, m[, 1:5]), "`f`")
})

test_that("co-clustering fits match new rows by column name and new columns by row name", {
  set.seed(6)
  counts <- matrix(rpois(30 * 8, rep(c(1, 6, 3), each = 80)), 30, 8) + 1
  dimnames(counts) <- list(paste0("d", 1:30), paste0("w", 1:8))
  fit <- itcc(counts, 3, 2, restarts = 2)
  expect_identical(predict(fit, counts[1:5, 8:1]), predict(fit, counts[1:5, ]))
  expect_identical(predict(fit, counts[30:1, 1:3], dimension = 2),
                   predict(fit, counts[, 1:3], dimension = 2))
  ib_fit <- sib(counts, 3, restarts = 2)
  expect_identical(predict(ib_fit, as.data.frame(counts)[, 8:1]), predict(ib_fit, counts))
})

test_that("Gaussian fits score new data scaled by 1e300 as the nearest cluster, no NA", {
  x <- iris_x()
  side <- iris_side()
  labels <- sample_labels(iris$Species[c(1:15, 51:65, 101:115)], 0.4)
  set.seed(7)
  fits <- list(cec = cec(x, 3, restarts = 2), cec_ib = cec_ib(x, labels, 3, restarts = 2),
               mixture = constrained_mixture(x, side, 3),
               ib_kmeans = ib_kmeans(x, 3, beta = 5, restarts = 2),
               ib_kmeans_hard = ib_kmeans(x, 3, beta = Inf, restarts = 2))
  for (name in names(fits)) {
    far <- expect_silent(predict(fits[[name]], x * 1e300))
    expect_false(anyNA(far$cluster), label = name)
    expect_true(all(is.finite(far$probability)), label = name)
    expect_equal(unname(rowSums(far$probability)), rep(1, nrow(x)), label = name)
    # the same clusters as at 1e100, where the densities are computed directly
    expect_identical(far$cluster, predict(fits[[name]], x * 1e100)$cluster, label = name)
  }
})

test_that("discriminative clustering does not answer cluster 1 for every far row", {
  x <- iris_x()
  labels <- sample_labels(iris$Species[c(1:15, 51:65, 101:115)], 0.4)
  set.seed(8)
  fit <- discriminative_clustering(x, labels, 3, restarts = 2)
  far <- predict(fit, x * 1e300)
  direct <- predict(fit, x * 1e100)
  expect_identical(far$cluster, direct$cluster)
  expect_true(all(is.finite(far$probability)))
  # rows on either side of the origin go to different clusters
  both <- predict(fit, rbind(x[1, ], -x[1, ]) * 1e300)
  expect_identical(both$cluster, predict(fit, rbind(x[1, ], -x[1, ]) * 1e100)$cluster)
})

test_that("nearest-centre fits score rows whose squared distances overflow", {
  x <- iris_x()
  side <- iris_side()
  set.seed(9)
  fits <- list(cvqe = cvqe(x, side, 3, restarts = 2), cop = cop_kmeans(x, side, 3, restarts = 2),
               mpck = mpck_means(x, side, 3, restarts = 2, metric = "full"),
               disparate = disparate_kmeans(x, c(2, 2), restarts = 2))
  for (name in names(fits)) {
    far <- expect_silent(predict(fits[[name]], x * 1e300))
    expect_false(anyNA(far$cluster), label = name)
    expect_identical(far$cluster, predict(fits[[name]], x * 1e100)$cluster, label = name)
  }
})

test_that("TVClust says which far rows it cannot score instead of NaN in silence", {
  x <- iris_x()
  side <- iris_side()
  set.seed(10)
  gibbs <- tvclust(x, side, iter = 40, chains = 1, threads = 1)
  vb <- tvclust(x, side, method = "variational", restarts = 2)
  for (fit in list(gibbs, vb)) {
    new <- rbind(x[1:2, ], x[3, ] * 1e300)
    expect_warning(pr <- predict(fit, new), "row 3 lie too far")
    expect_identical(is.na(pr$cluster), c(FALSE, FALSE, TRUE), ignore_attr = TRUE)
    expect_identical(pr$cluster[1:2], predict(fit, x[1:2, ])$cluster)
    expect_false(any(is.nan(pr$probability)))
  }
})

test_that("far out, the nearest centre is the one furthest along the new point's direction", {
  x <- iris_x()
  set.seed(11)
  fit <- cvqe(x, iris_side(), 3, restarts = 2)
  # |t v - mu_c|^2 = t^2 |v|^2 - 2 t v'mu_c + |mu_c|^2: for large t the largest v'mu_c wins
  limit <- max.col(x %*% t(fit$centers), ties.method = "first")
  for (scale in c(1e20, 1e50, 1e300)) {
    expect_identical(unname(predict(fit, x * scale)$cluster), limit, label = format(scale))
  }
})

test_that("the scaled-down scoring of far rows agrees with the direct one on ordinary rows", {
  x <- iris_x()
  set.seed(12)
  fit <- cec(x, 3, restarts = 2)
  g <- sideclust:::gaussian_far_memberships(x, log(fit$size / sum(fit$size)), fit$centers,
                                            fit$covariances)
  direct <- predict(fit, x)
  expect_equal(g$probability, unname(direct$probability), tolerance = 1e-10)
  expect_identical(g$cluster, unname(direct$cluster))
  cv <- cvqe(x, iris_side(), 3, restarts = 2)
  expect_identical(sideclust:::far_nearest_centre(x, cv$centers), unname(predict(cv, x)$cluster))
})

test_that("a fit stripped of its data still matches by the names of its centres", {
  x <- iris_x()
  set.seed(13)
  fit <- cvqe(x, iris_side(), 3, restarts = 2)
  lean <- fit
  lean$data <- NULL
  expect_identical(predict(lean, x[, 4:1]), predict(fit, x))
  expect_error(predict(lean, x[, -1]), "`Sepal.Length`")
})
