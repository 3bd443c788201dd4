# constrained_mixture() and constraint_posterior(): Nelson & Cohen's examples,
# agreement of the E-steps with brute force, plain EM without constraints,
# and errors.

test_that("exact inference reproduces Example 1's table (cannot-link, weight exp(-2W))", {
  prob <- rbind(c(0.1, 0.9), c(0.01, 0.99))
  side <- constraints(cannot = c(1, 2), n = 2)
  w <- c(0.01, 0.1, 1, 3, 5, Inf)
  got <- sapply(w, function(v) constraint_posterior(prob, side, "exact", penalty = v)[, 2])
  expect_true(all(abs(got[1, ] - c(.898, .881, .567, .102, .084, .083)) <= 0.002))
  expect_true(all(abs(got[2, ] - c(.989, .988, .960, .918, .917, .917)) <= 0.002))
  # confidence 1 is W = Inf; confidence P is W = -log(1 - P)
  hard <- constraint_posterior(prob, side, "exact")
  expect_equal(hard[, 2], got[, 6])
  soft <- constraints(cannot = c(1, 2), n = 2, confidence = 1 - exp(-1))
  expect_equal(constraint_posterior(prob, soft, "exact")[, 2], got[, 3])
  # the chunklet model's answer for a certain cannot-link
  expect_equal(constraint_posterior(prob, side, "chunklet")[, 2], got[, 6])
})

test_that("Example 1: ICM updating j first stays in the wrong configuration", {
  prob <- rbind(c(0.01, 0.99), c(0.1, 0.9))  # j is point 1, i is point 2
  side <- constraints(cannot = c(1, 2), n = 2)
  icm <- constraint_posterior(prob, side, "icm", penalty = 5)
  expect_equal(attr(icm, "labels"), c(1L, 2L))  # j moved to cluster 1
  exact <- constraint_posterior(prob, side, "exact", penalty = 5)
  expect_equal(attr(exact, "labels"), c(2L, 1L))  # the likely one: i in cluster 1
})

test_that("ICM visiting only units whose neighbours moved gives the plain scan's labels", {
  set.seed(11)
  n <- 300
  k <- 4
  prob <- matrix(stats::rexp(n * k), n, k)
  prob <- prob / rowSums(prob)
  m <- 900
  i <- sample.int(n, m, replace = TRUE)
  j <- sample.int(n, m, replace = TRUE)
  keep <- i != j & !duplicated(paste(pmin(i, j), pmax(i, j)))
  i <- i[keep]
  j <- j[keep]
  must <- stats::runif(length(i)) < 0.4
  side <- constraints(must = cbind(i, j)[must, ], cannot = cbind(i, j)[!must, ], n = n)
  pen <- stats::runif(length(i), 0.2, 1.5)
  # the penalties in the order of the side information's pairs
  ord <- match(paste(side$i, side$j), paste(pmin(i, j), pmax(i, j)))
  got <- constraint_posterior(prob, side, "icm", penalty = pen[ord], inner_iter = 1000)
  expect_equal(attr(got, "labels"), icm_reference(prob, i, j, must, pen))
})

test_that("Example 2: ICM keeps the clique split, exact inference puts it in cluster 2", {
  L <- 5
  prob <- rbind(matrix(c(0.51, 0.49), L - 1, 2, byrow = TRUE), c(0.01, 0.99))
  pairs <- t(combn(L, 2))
  side <- constraints(must = pairs, n = L)
  for (w in c(1, 3)) {
    icm <- constraint_posterior(prob, side, "icm", penalty = w)
    expect_equal(attr(icm, "labels"), rep(1L, L), info = w)  # the L-th point moved to 1
    exact <- constraint_posterior(prob, side, "exact", penalty = w)
    expect_true(all(exact[, 2] > 0.95), info = w)
    expect_equal(exact, brute_posterior(prob, pairs[, 1], pairs[, 2], rep(TRUE, nrow(pairs)),
                                        rep(w, nrow(pairs))), ignore_attr = TRUE, info = w)
  }
  # certain must-links make one chunklet: every method then agrees with exact
  for (inf in c("icm", "gibbs", "mean_field", "chunklet", "sampled_chunklet")) {
    expect_equal(constraint_posterior(prob, side, inf)[, 2],
                 constraint_posterior(prob, side, "exact")[, 2], info = inf)
  }
})

test_that("exact inference equals brute-force enumeration; Gibbs converges to it", {
  set.seed(11)
  n <- 5
  k <- 3
  prob <- matrix(runif(n * k), n, k)
  prob <- prob / rowSums(prob)
  i <- c(1, 1, 2, 3, 4)
  j <- c(2, 3, 4, 5, 5)
  must <- c(TRUE, FALSE, TRUE, FALSE, TRUE)
  w <- c(0.8, 1.2, 0.5, 0.7, 1)
  side <- constraints(must = cbind(i, j)[must, ], cannot = cbind(i, j)[!must, ], n = n)
  pen <- w[match(paste(side$i, side$j), paste(i, j))]  # in the order of side's pairs
  ref <- brute_posterior(prob, i, j, must, w)
  exact <- constraint_posterior(prob, side, "exact", penalty = pen)
  expect_equal(exact, ref, ignore_attr = TRUE, tolerance = 1e-10)
  set.seed(1)
  gibbs <- constraint_posterior(prob, side, "gibbs", penalty = pen, sweeps = 20000)
  expect_lt(max(abs(gibbs - ref)), 0.01)
  set.seed(1)
  again <- constraint_posterior(prob, side, "gibbs", penalty = pen, sweeps = 20000)
  expect_identical(gibbs, again)
  # mean field is close for these moderate weights, not exact
  mf <- constraint_posterior(prob, side, "mean_field", penalty = pen)
  expect_lt(max(abs(mf - ref)), 0.25)
  expect_equal(rowSums(mf), rep(1, n))
})

test_that("with certain constraints, chunklets and sampled chunklets equal exact", {
  set.seed(5)
  n <- 8
  k <- 3
  prob <- matrix(runif(n * k), n, k)
  prob <- prob / rowSums(prob)
  side <- constraints(must = rbind(c(1, 2), c(2, 3), c(5, 6)),
                      cannot = rbind(c(1, 4), c(4, 5), c(3, 7)), n = n)
  ex <- constraint_posterior(prob, side, "exact")
  expect_equal(constraint_posterior(prob, side, "chunklet"), ex)
  expect_equal(constraint_posterior(prob, side, "sampled_chunklet", samples = 3), ex)
  expect_equal(ex[1, ], ex[3, ])
  # the chunklet model ignores confidences; with max_labelings too small it
  # falls back to mean field over chunklets
  soft <- constraints(must = rbind(c(1, 2), c(2, 3), c(5, 6)),
                      cannot = rbind(c(1, 4), c(4, 5), c(3, 7)), n = n, confidence = 0.6)
  expect_equal(constraint_posterior(prob, soft, "chunklet"), ex)
  cycle <- constraints(cannot = rbind(c(1, 2), c(2, 3), c(1, 3), c(3, 4)), n = n,
                       confidence = 0.6)
  mf <- constraint_posterior(prob, cycle, "chunklet", max_labelings = 2)
  expect_equal(rowSums(mf), rep(1, n))
  expect_error(constraint_posterior(prob, cycle, "exact", max_labelings = 2), "max_labelings")
})

test_that("components with cycles are exact by cutset conditioning", {
  set.seed(9)
  n <- 8
  k <- 3
  prob <- matrix(runif(n * k), n, k)
  prob <- prob / rowSums(prob)
  i <- c(1, 2, 3, 1, 1, 4, 5, 6, 5, 7)
  j <- c(2, 3, 4, 4, 3, 5, 6, 7, 7, 8)
  must <- c(TRUE, FALSE, FALSE, TRUE, FALSE, FALSE, TRUE, FALSE, FALSE, TRUE)
  w <- c(0.5, 1, Inf, 0.7, 0.4, 2, 0.3, Inf, 1.2, 0.8)
  side <- constraints(must = cbind(i, j)[must, ], cannot = cbind(i, j)[!must, ], n = n)
  pen <- w[match(paste(side$i, side$j), paste(i, j))]
  ref <- brute_posterior(prob, i, j, must, pmin(w, 1e3))
  # 3^8 labelings > 100: enumeration is refused; a cutset of 2 units is not
  # (3^2 labelings x 8 units = 72 <= 100)
  got <- constraint_posterior(prob, side, "exact", penalty = pen, max_labelings = 100)
  expect_equal(got, ref, ignore_attr = TRUE, tolerance = 1e-9)
  expect_error(constraint_posterior(prob, side, "exact", penalty = pen, max_labelings = 2),
               "max_labelings")
})

test_that("tree components are exact by message passing, whatever their size", {
  set.seed(8)
  n <- 8
  k <- 3
  prob <- matrix(runif(n * k), n, k)
  prob <- prob / rowSums(prob)
  i <- c(1, 2, 2, 4, 5, 5, 7)
  j <- c(2, 3, 4, 5, 6, 7, 8)
  must <- c(TRUE, FALSE, FALSE, TRUE, FALSE, TRUE, FALSE)
  w <- c(0.5, 1, Inf, 2, 0.3, 1.5, Inf)
  side <- constraints(must = cbind(i, j)[must, ], cannot = cbind(i, j)[!must, ], n = n)
  pen <- w[match(paste(side$i, side$j), paste(i, j))]
  ref <- brute_posterior(prob, i, j, must, pmin(w, 1e3))
  got <- constraint_posterior(prob, side, "exact", penalty = pen, max_labelings = 10)
  expect_equal(got, ref, ignore_attr = TRUE, tolerance = 1e-9)
})

test_that("sampled chunklets weight by omega and approach the prior (1 - P) per violation", {
  # one soft must-link: sampled chunklets average the chunklet posterior (kept
  # with probability P) and the independent one (1 - P)
  prob <- rbind(c(0.3, 0.7), c(0.8, 0.2))
  side <- constraints(must = c(1, 2), n = 2, confidence = 0.6)
  set.seed(2)
  sc <- constraint_posterior(prob, side, "sampled_chunklet", samples = 20000)
  joint <- prob[1, ] * prob[2, ] / sum(prob[1, ] * prob[2, ])
  expect_equal(sc[1, ], 0.6 * joint + 0.4 * prob[1, ], tolerance = 0.01)
  # a soft cannot-link inside a chunklet of certain must-links: every sample
  # has omega = 0.5, so the answer is the chunklet's
  side3 <- constraints(must = rbind(c(1, 2), c(2, 3)), cannot = c(1, 3), n = 3,
                       confidence = c(1, 1, 0.5))
  prob3 <- rbind(prob, c(0.5, 0.5))
  set.seed(3)
  sc3 <- constraint_posterior(prob3, side3, "sampled_chunklet", samples = 50)
  ch <- constraint_posterior(prob3, constraints(must = rbind(c(1, 2), c(2, 3)), n = 3),
                             "exact")
  expect_equal(sc3, ch)  # every sample holds the chunklet, weight 0.5 each
})

test_that("without constraints every inference is plain EM from the same start", {
  x <- scale(iris[, 1:4])
  set.seed(4)
  start <- kmeans(x, 3, nstart = 3)$cluster
  for (cov in c("full", "diagonal", "spherical", "unit")) {
    ref <- plain_em(x, diag(3)[start, ], cov, iters = 15)
    for (inf in c("mean_field", "chunklet", "icm", "gibbs", "sampled_chunklet", "exact")) {
      fit <- constrained_mixture(x, NULL, k = 3, inference = inf, covariance = cov,
                                 start = start, max_iter = 15, tol = 0, ridge = 0,
                                 samples = 2, sweeps = 1, burn_in = 0)
      info <- paste(cov, inf)
      expect_equal(fit$z, ref$z, ignore_attr = TRUE, tolerance = 1e-8, info = info)
      expect_equal(fit$loglik, ref$loglik, tolerance = 1e-10, info = info)
      expect_equal(fit$centers, ref$means, ignore_attr = TRUE, tolerance = 1e-8, info = info)
    }
    expect_true(all(diff(ref$loglik) > -1e-8))  # EM never lowers the likelihood
  }
})

test_that("without constraints the fit equals mclust's stored EM fit from the same start", {
  fx <- read_fixture("mclust-em-iris")
  x <- scale(iris[, 1:4])
  start <- fx$input$start
  for (cov in names(fx$output)) {
    ref <- fx$output[[cov]]
    fit <- constrained_mixture(x, NULL, k = 3, covariance = cov, start = start,
                               max_iter = 5000, tol = 1e-13, ridge = 0)
    expect_equal(fit$centers, t(ref$mean), ignore_attr = TRUE, tolerance = 1e-5, info = cov)
    expect_equal(fit$weights, ref$pro, tolerance = 1e-5, info = cov)
    expect_equal(fit$covariances, ref$sigma, ignore_attr = TRUE, tolerance = 1e-5, info = cov)
    expect_equal(utils::tail(fit$loglik, 1), ref$loglik, tolerance = 1e-6, info = cov)
  }
})

test_that("without constraints the fit equals mclust's EM from the same start", {
  skip_if_not_installed("mclust")
  x <- scale(iris[, 1:4])
  set.seed(4)
  start <- kmeans(x, 3, nstart = 3)$cluster
  models <- list(full = mclust::meVVV, diagonal = mclust::meVVI, spherical = mclust::meVII)
  for (cov in names(models)) {
    ref <- models[[cov]](data = x, z = diag(3)[start, ],
                      control = mclust::emControl(tol = c(1e-12, 1e-12), itmax = c(5000, 5000)))
    fit <- constrained_mixture(x, NULL, k = 3, covariance = cov, start = start,
                               max_iter = 5000, tol = 1e-13, ridge = 0)
    expect_equal(fit$centers, t(ref$parameters$mean), ignore_attr = TRUE, tolerance = 1e-5,
                 info = cov)
    expect_equal(fit$weights, ref$parameters$pro, tolerance = 1e-5, info = cov)
    expect_equal(fit$covariances, ref$parameters$variance$sigma, ignore_attr = TRUE,
                 tolerance = 1e-5, info = cov)
    expect_equal(utils::tail(fit$loglik, 1), ref$loglik, tolerance = 1e-6, info = cov)
  }
})

test_that("constraints change the fit and are kept; the fit has its parts", {
  x <- scale(iris[, 1:4])
  set.seed(7)
  side <- sample_constraints(iris$Species, "nelson_cohen", n_constraints = 60, noise = 0)
  # (exact inference is left out: these pairs join most points in one component)
  for (inf in c("mean_field", "chunklet", "icm", "gibbs", "sampled_chunklet")) {
    set.seed(1)
    fit <- constrained_mixture(x, side, k = 3, inference = inf, covariance = "diagonal",
                               samples = 5, max_iter = 30)
    expect_s3_class(fit, c("constrained_mixture", "sideclust"))
    expect_equal(dim(fit$z), c(150L, 3L))
    expect_equal(rowSums(fit$z), rep(1, 150), tolerance = 1e-12, info = inf)
    expect_true(all(fit$cluster %in% 1:3))
    expect_gt(nmi(iris$Species, fit$cluster), 0.6)
    expect_equal(fit$inference, inf)
    expect_true(fit$estep %in% c("exact", "mean field", "icm", "gibbs"))
  }
  hard <- constraints(must = rbind(c(1, 51), c(51, 101)), cannot = c(2, 3), n = 150)
  for (inf in c("exact", "chunklet", "mean_field", "icm")) {
    fit <- constrained_mixture(x, hard, k = 3, inference = inf, covariance = "diagonal")
    expect_equal(length(unique(fit$cluster[c(1, 51, 101)])), 1L, info = inf)
    expect_false(fit$cluster[2] == fit$cluster[3], info = inf)
  }
  expect_output(print(fit), "E-step")
  expect_output(print(summary(fit)), "Weights and means")
  pr <- predict(fit, x[1:5, ])
  expect_equal(rowSums(pr$probability), rep(1, 5), ignore_attr = TRUE)
  expect_equal(unname(pr$cluster), max.col(pr$probability))
  nc <- constrained_mixture(x, NULL, k = 3, covariance = "diagonal")
  expect_equal(predict(nc, x)$probability, nc$z, tolerance = 1e-6, ignore_attr = TRUE)
  expect_equal(predict(nc)$probability, nc$z, tolerance = 1e-6, ignore_attr = TRUE)
  expect_warning(old <- predict(nc, x[1:5, ], type = "prob"), "`type` is deprecated")
  expect_equal(old, unname(predict(nc, x[1:5, ])$probability), ignore_attr = TRUE)
})

test_that("the chunklet model reports mean field when a component is too large", {
  x <- scale(iris[, 1:4])
  set.seed(3)  # 200 random cannot-links among 40 points: many cycles
  pairs <- unique(t(apply(matrix(sample(40, 600, TRUE), ncol = 2), 1, sort)))
  pairs <- pairs[pairs[, 1] != pairs[, 2], ][1:200, ]
  side <- constraints(cannot = pairs, n = 150, confidence = 0.8)
  fit <- constrained_mixture(x, side, k = 3, inference = "chunklet", max_labelings = 1000,
                             covariance = "spherical")
  expect_equal(fit$estep, "mean field")
  fit2 <- constrained_mixture(x, side, k = 3, inference = "mean_field", covariance = "spherical")
  expect_equal(fit2$estep, "mean field")
  expect_error(constrained_mixture(x, side, k = 3, inference = "exact",
                                   max_labelings = 1000), "max_labelings")
  # the chunklet model warns about cannot-links it cannot keep
  bad <- constraints(must = rbind(c(1, 2), c(2, 3)), cannot = c(1, 3), n = 150,
                     confidence = 0.7)
  expect_warning(constrained_mixture(x, bad, k = 3, inference = "chunklet"), "1 cannot-link")
})

test_that("singular data: the ridge keeps full covariances invertible", {
  x <- cbind(iris[, 1:2], iris[, 1] + iris[, 2])  # collinear columns
  set.seed(1)
  fit <- constrained_mixture(x, NULL, k = 2, covariance = "full")
  expect_true(all(is.finite(fit$z)))
  expect_error(constrained_mixture(x, NULL, k = 2, covariance = "full", ridge = 0), "ridge")
})

test_that("bad input gives errors that name the argument", {
  x <- scale(iris[, 1:4])
  side <- constraints(must = c(1, 2), n = 150)
  expect_error(constrained_mixture(x, side, k = 0), "`k`")
  expect_error(constrained_mixture(x, side, k = 151), "`k`.*larger")
  expect_error(constrained_mixture(x, side), "`k`")
  expect_error(constrained_mixture(x, k = 2), "`side`")
  expect_error(constrained_mixture(x, constraints(must = c(1, 2), n = 10), k = 2), "`side`")
  expect_error(constrained_mixture(x, side, k = 2, inference = "junction"), "`inference`")
  expect_error(constrained_mixture(x, side, k = 2, covariance = "VVV"), "`covariance`")
  expect_error(constrained_mixture(x, side, k = 2, penalty = -1), "`penalty`")
  expect_error(constrained_mixture(x, side, k = 2, penalty = c(1, 2)), "`penalty`")
  expect_error(constrained_mixture(x, side, k = 2, start = rep(3, 150)), "`start`")
  expect_error(constrained_mixture(x, side, k = 2, samples = 0), "`samples`")
  expect_error(constrained_mixture(x, side, k = 2, ridge = -1), "`ridge`")
  x_na <- x
  x_na[3, 2] <- NA
  expect_error(constrained_mixture(x_na, side, k = 2), "`x`.*NA")
  contra <- constraints(must = rbind(c(1, 2), c(2, 3)), cannot = rbind(c(1, 3), c(4, 5)),
                        n = 150)
  # contradictory certain pairs: refused when `penalty` says every pair is certain
  expect_error(constrained_mixture(x, contra, k = 2, penalty = Inf), "\\(1, 3\\)")
  expect_error(constraint_posterior(matrix(0.5, 150, 2), contra, "icm"), "`side`")
  three <- constraints(cannot = rbind(c(1, 2), c(1, 3), c(2, 3)), n = 150)
  expect_error(constrained_mixture(x, three, k = 2, inference = "exact"), "cannot-link")
  # the chunklet model settles for mean field on such a component
  fit <- constrained_mixture(x, three, k = 2, inference = "chunklet")
  expect_equal(fit$estep, "mean field")
  expect_error(constraint_posterior(matrix(-1, 2, 2), NULL), "`prob`")
})

test_that("contradictory certain pairs are taken as soft by default, with a message", {
  x <- scale(iris[, 1:4])
  set.seed(4)
  side <- sample_constraints(iris$Species, rate = 0.03, noise = 0.1)
  expect_true(all(side$confidence == 1))
  set.seed(1)
  expect_message(fit <- constrained_mixture(x, side, k = 3),
                 "certain cannot-links inside chunklets.*`penalty` 2.3 \\(confidence 0.9\\)")
  expect_equal(fit$penalty, rep(-log(0.1), length(side$i)))
  expect_gt(compare_partitions(iris$Species, fit)[["f_measure"]], 0.9)
  # the same fit as the penalty stated in the message, given by hand
  set.seed(1)
  by_hand <- constrained_mixture(x, side, k = 3, penalty = -log1p(-0.9))
  expect_identical(fit$z, by_hand$z)
  # penalty = Inf keeps the refusal, naming the pairs and the way out
  expect_error(constrained_mixture(x, side, k = 3, penalty = Inf),
               "certain cannot-links inside chunklets of certain must-links.*`penalty` NULL")
  pen <- rep(1, length(side$i))
  pen[side$must] <- Inf
  pen[which(!side$must)[1:50]] <- Inf
  expect_error(constrained_mixture(x, side, k = 3, penalty = pen), "certain cannot-link")
  # certain pairs never weigh less than the strongest uncertain pair
  contra <- constraints(must = rbind(c(1, 2), c(2, 3), c(60, 70)),
                        cannot = rbind(c(1, 3), c(4, 120)), n = 150,
                        confidence = c(1, 1, 0.999, 1, 1))
  expect_message(fit2 <- constrained_mixture(x, contra, k = 3),
                 "1 certain cannot-link inside.*all 4 certain pairs.*`penalty` 6.91")
  expect_equal(fit2$penalty, rep(-log(0.001), 5))
  # the chunklet model takes every pair as certain: it drops the cannot-link
  expect_warning(ch <- constrained_mixture(x, contra, k = 3, inference = "chunklet"),
                 "1 cannot-link lies")
  expect_identical(ch$dropped, 1L)
  # certain pairs without contradictions stay certain: no message, same fit
  clean <- constraints(must = rbind(c(1, 2), c(2, 3)), cannot = rbind(c(1, 120), c(4, 5)),
                       n = 150)
  set.seed(2)
  expect_silent(a <- constrained_mixture(x, clean, k = 3))
  set.seed(2)
  b <- constrained_mixture(x, clean, k = 3, penalty = Inf)
  expect_identical(a$penalty, rep(Inf, 4))
  expect_identical(a$z, b$z)
})

test_that("mean field's residual sweeps reach the sequential fixed point", {
  set.seed(21)
  n <- 30
  k <- 3
  prob <- matrix(runif(n * k), n, k)
  prob <- prob / rowSums(prob)
  pairs <- unique(t(apply(matrix(sample(n, 120, TRUE), ncol = 2), 1, sort)))
  pairs <- pairs[pairs[, 1] != pairs[, 2], ]
  must <- seq_len(nrow(pairs)) %% 2 == 0
  side <- constraints(must = pairs[must, ], cannot = pairs[!must, ], n = n)
  w <- runif(nrow(pairs), 0.05, 0.4)  # weak couplings: one fixed point
  key <- paste(pairs[, 1], pairs[, 2])
  pen <- w[match(paste(side$i, side$j), key)]
  ref <- mean_field_reference(prob, pairs[, 1], pairs[, 2], must, w)
  got <- constraint_posterior(prob, side, "mean_field", penalty = pen, inner_iter = 1000,
                              inner_tol = 1e-12)
  expect_equal(got, ref, ignore_attr = TRUE, tolerance = 1e-9)
  # a looser tolerance stays within it
  loose <- constraint_posterior(prob, side, "mean_field", penalty = pen, inner_iter = 1000,
                                inner_tol = 1e-4)
  expect_lt(max(abs(loose - ref)), 1e-3)
  # certain cannot-links (the factor 1 - q_j(k), cached as logarithms)
  hard <- constraints(cannot = rbind(c(1, 2), c(2, 3), c(4, 5)), n = n)
  ref_h <- mean_field_reference(prob, hard$i, hard$j, rep(FALSE, 3), rep(Inf, 3))
  got_h <- constraint_posterior(prob, hard, "mean_field", inner_iter = 1000, inner_tol = 1e-12)
  expect_equal(got_h, ref_h, ignore_attr = TRUE, tolerance = 1e-9)
})

test_that("Gibbs agrees with exact inference for weak and strong couplings", {
  # weak couplings take the product form, a strong cannot-link (sum |J| > 50) and
  # certain cannot-links the exponentials of their scores
  set.seed(12)
  n <- 4
  k <- 3
  prob <- matrix(runif(n * k), n, k)
  prob <- prob / rowSums(prob)
  i <- c(1, 2, 3, 1)
  j <- c(2, 3, 4, 4)
  must <- c(TRUE, FALSE, TRUE, FALSE)
  for (w in list(c(0.3, 0.5, 0.2, 0.4), c(0.3, 30, 0.2, 0.4), c(0.3, Inf, 0.2, 0.4))) {
    side <- constraints(must = cbind(i, j)[must, ], cannot = cbind(i, j)[!must, ], n = n)
    pen <- w[match(paste(side$i, side$j), paste(i, j))]
    ref <- brute_posterior(prob, i, j, must, pmin(w, 1e3))
    set.seed(1)
    got <- constraint_posterior(prob, side, "gibbs", penalty = pen, sweeps = 20000)
    expect_lt(max(abs(got - ref)), 0.015, label = paste(w, collapse = " "))
  }
})

test_that("a mean-field fit's last E-step is the tight mean field at its parameters", {
  x <- scale(iris[, 1:4])
  set.seed(7)
  side <- sample_constraints(iris$Species, "nelson_cohen", n_constraints = 60, noise = 0.1)
  set.seed(1)
  fit <- constrained_mixture(x, side, k = 3, covariance = "diagonal", max_iter = 200,
                             tol = 1e-9)
  expect_true(fit$converged)
  prob <- predict(fit)$probability  # w_k p(x_i | k) normalized, at the fit's parameters
  tight <- constraint_posterior(prob, side, "mean_field", inner_iter = 1000, inner_tol = 1e-12)
  expect_lt(max(abs(fit$z - tight)), 1e-4)
})

test_that("the M-step over blocks of points equals the plain estimates (n above one block)", {
  set.seed(21)
  n <- 5000L  # more than one block of 4096 columns
  x <- matrix(rnorm(n * 3), n) + rep(c(0, 3), length.out = n)
  start <- rep(1:2, length.out = n)
  scale_var <- mean(apply(x, 2, var))
  for (cv in c("full", "diagonal", "spherical")) {
    fit <- constrained_mixture(x, NULL, 2, covariance = cv, start = start, max_iter = 1L)
    for (k in 1:2) {
      xs <- x[start == k, ]
      expect_equal(unname(fit$centers[k, ]), unname(colMeans(xs)), tolerance = 1e-12)
      s <- crossprod(sweep(xs, 2, colMeans(xs))) / nrow(xs)
      s <- switch(cv, full = s, diagonal = diag(diag(s)),
                  spherical = diag(mean(diag(s)), 3))
      expect_equal(unname(fit$covariances[, , k]), s + diag(1e-6 * scale_var, 3),
                   tolerance = 1e-10)
    }
  }
})

test_that("Gibbs and sampled chunklets leave points without pairs exact and untouched", {
  # the constrained points draw the same samples with or without free points
  # (draws per pair and per linked point, seeded once from R's generator)
  set.seed(5)
  k <- 3
  prob <- matrix(runif(7 * k), 7, k)
  prob <- prob / rowSums(prob)
  pairs <- data.frame(i = c(1, 2, 3), j = c(2, 3, 4), must = c(TRUE, FALSE, TRUE),
                      confidence = c(0.7, 0.6, 0.9))
  side_all <- constraints(must = pairs[pairs$must, 1:2], cannot = pairs[!pairs$must, 1:2],
                          n = 7, confidence = c(0.7, 0.9, 0.6))
  side_sub <- constraints(must = pairs[pairs$must, 1:2], cannot = pairs[!pairs$must, 1:2],
                          n = 4, confidence = c(0.7, 0.9, 0.6))
  for (inf in c("gibbs", "sampled_chunklet")) {
    set.seed(9)
    all <- constraint_posterior(prob, side_all, inf, samples = 7, sweeps = 30, burn_in = 3)
    set.seed(9)
    sub <- constraint_posterior(prob[1:4, ], side_sub, inf, samples = 7, sweeps = 30,
                                burn_in = 3)
    expect_equal(unclass(all)[1:4, ], unclass(sub), ignore_attr = TRUE, info = inf)
    expect_equal(unclass(all)[5:7, ], prob[5:7, ], ignore_attr = TRUE, info = inf)
  }
})

test_that("Gibbs with certain cannot-links, soft links and far-apart unaries matches exact", {
  # product-form weights: a certain cannot-link is a factor 0, unaries 600
  # apart in log would underflow to subnormal numbers without the cut-off
  set.seed(3)
  k <- 3
  lp <- matrix(rnorm(5 * k, sd = 2), 5, k)
  lp[5, ] <- c(0, -600, -650)
  side <- constraints(must = rbind(c(1, 2), c(4, 5)), cannot = rbind(c(2, 3), c(3, 4)),
                      n = 5, confidence = c(0.5, 0.4, 1, 0.5))
  ex <- constraint_posterior(lp, side, "exact", log = TRUE)
  set.seed(4)
  gb <- constraint_posterior(lp, side, "gibbs", log = TRUE, sweeps = 20000)
  # Monte Carlo error ~0.01 here (the certain cannot-link slows mixing)
  expect_lt(max(abs(unclass(gb) - unclass(ex))), 0.03)
  expect_equal(unclass(gb)[5, ], unclass(ex)[5, ], ignore_attr = TRUE, tolerance = 0.01)
  expect_true(all(is.finite(gb)))
})

test_that("Gibbs in EM: the burn-in runs once and set.seed() reproduces the fit", {
  set.seed(1)
  x <- rbind(matrix(rnorm(60, 0), 30), matrix(rnorm(60, 4), 30))
  side <- sample_constraints(rep(1:2, each = 30), "nelson_cohen", n_constraints = 40)
  set.seed(2)
  a <- constrained_mixture(x, side, 2, inference = "gibbs", max_iter = 5)
  set.seed(2)
  b <- constrained_mixture(x, side, 2, inference = "gibbs", max_iter = 5)
  expect_identical(a$z, b$z)
  expect_equal(a$settings$sweeps, 10L)
})

test_that("sampled chunklets draw their samples once per fit", {
  # the samples depend on the constraints only: R's generator is used in the
  # first E-step and not again, whatever the number of EM iterations
  set.seed(2)
  x <- rbind(matrix(rnorm(60), 30), matrix(rnorm(60, 3), 30))
  side <- constraints(must = cbind(1:10, 11:20), cannot = cbind(1:10, 41:50), n = 60,
                      confidence = 0.8)
  draws <- function(iters) {
    set.seed(7)
    fit <- constrained_mixture(x, side, 2, inference = "sampled_chunklet", start = rep(1:2, 30),
                               max_iter = iters, tol = 0, samples = 5)
    list(next_draw = runif(1), ess = fit$ess)
  }
  one <- draws(1)
  three <- draws(3)
  expect_identical(one$next_draw, three$next_draw)
  expect_identical(one$ess, three$ess)
})

test_that("sampled chunklets in product form match exact on trees, cycles and peaked unaries", {
  k <- 4
  # a star of certain cannot-links whose leaves are (numerically) certain of
  # their labels: the messages into the centre have zeros, so the centre's
  # messages to its leaves are multiplied out rather than divided
  n <- 6
  lp <- matrix(log(0.25), n, k)
  lp[2, ] <- c(0, -1000, -1000, -1000)
  lp[3, ] <- c(-1000, 0, -1000, -1000)
  lp[4, ] <- c(-3, 0, -1, -2)
  lp[5, ] <- c(-1, -1, 0, -2)
  prob <- exp(lp) / rowSums(exp(lp))
  star <- constraints(cannot = rbind(c(1, 2), c(1, 3), c(1, 4), c(4, 5), c(6, 5)), n = n)
  ex <- constraint_posterior(prob, star, "exact")
  expect_equal(constraint_posterior(prob, star, "sampled_chunklet", samples = 2), ex,
               tolerance = 1e-12)
  expect_equal(unname(ex[1, 1:2]), c(0, 0))
  # a cycle with a must-link chunklet: enumerated per sample
  set.seed(4)
  prob <- matrix(runif(7 * k), 7, k)
  prob <- prob / rowSums(prob)
  cyc <- constraints(must = rbind(c(6, 7)), cannot = rbind(c(1, 2), c(2, 3), c(3, 1), c(3, 6),
                                                          c(4, 6), c(4, 5)), n = 7)
  ex <- constraint_posterior(prob, cyc, "exact")
  expect_equal(constraint_posterior(prob, cyc, "sampled_chunklet", samples = 2), ex,
               tolerance = 1e-12)
  # too many labelings to enumerate: mean field in product form, the same
  # fixed point as the chunklet model's mean field in log form
  mf_ref <- constraint_posterior(prob, cyc, "chunklet", max_labelings = 2, inner_tol = 1e-12,
                                 inner_iter = 1000)
  mf <- constraint_posterior(prob, cyc, "sampled_chunklet", samples = 2, max_labelings = 2,
                             inner_tol = 1e-12, inner_iter = 1000)
  expect_equal(mf, mf_ref, tolerance = 1e-6)
})

test_that("sampled chunklets take components of certain pairs once, exactly", {
  # {1, 2, 3, 4}: certain pairs only, the same in every sample; {6, 7, 8}:
  # uncertain pairs, sampled
  set.seed(6)
  k <- 3
  prob <- matrix(runif(9 * k), 9, k)
  prob <- prob / rowSums(prob)
  side <- constraints(must = rbind(c(1, 2), c(6, 7)), cannot = rbind(c(2, 3), c(3, 4), c(7, 8)),
                      n = 9, confidence = c(1, 0.7, 1, 1, 0.6))
  certain <- constraints(must = rbind(c(1, 2)), cannot = rbind(c(2, 3), c(3, 4)), n = 4)
  set.seed(1)
  sc <- constraint_posterior(prob, side, "sampled_chunklet", samples = 5)
  expect_equal(unclass(sc)[1:4, ], unclass(constraint_posterior(prob[1:4, ], certain, "exact")),
               ignore_attr = TRUE, tolerance = 1e-12)
  expect_equal(unclass(sc)[c(5, 9), ], prob[c(5, 9), ], ignore_attr = TRUE)
  # the sampled component draws as if it were alone
  soft <- constraints(must = rbind(c(1, 2)), cannot = rbind(c(2, 3)), n = 3,
                      confidence = c(0.7, 0.6))
  set.seed(1)
  alone <- constraint_posterior(prob[6:8, ], soft, "sampled_chunklet", samples = 5)
  expect_equal(unclass(sc)[6:8, ], unclass(alone), ignore_attr = TRUE)
})
