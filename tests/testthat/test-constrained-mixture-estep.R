# The E-steps' work sets and prefetching on graphs large enough for them to
# matter (thousands of units, isolated points between linked ones, units
# that settle early and are skipped): the results must still be the
# sequential fixed points, and Gibbs' EM schedule must stay reproducible.

# Largest violation of the mean-field equations q_u(k) propto
# prob_u(k) exp(sum J q_v(k)) prod over certain cannot-links (1 - q_v(k)).
mean_field_residual <- function(q, prob, i, j, must, w) {
  s <- log(prob)
  soft <- is.finite(w)
  coup <- ifelse(must, 2, -2) * w
  for (e in which(soft)) {
    s[i[e], ] <- s[i[e], ] + coup[e] * q[j[e], ]
    s[j[e], ] <- s[j[e], ] + coup[e] * q[i[e], ]
  }
  for (e in which(!soft)) {
    s[i[e], ] <- s[i[e], ] + log(pmax(1 - q[j[e], ], 1e-300))
    s[j[e], ] <- s[j[e], ] + log(pmax(1 - q[i[e], ], 1e-300))
  }
  r <- exp(s - apply(s, 1, max))
  max(abs(r / rowSums(r) - q))
}

test_that("mean field on thousands of units reaches its fixed point, with certain cannot-links", {
  set.seed(31)
  n <- 4000
  k <- 4
  prob <- matrix(runif(n * k), n, k)^3
  prob <- prob / rowSums(prob)
  m <- 3000
  pairs <- unique(t(apply(matrix(sample(n, 2 * m, TRUE), ncol = 2), 1, sort)))
  pairs <- pairs[pairs[, 1] != pairs[, 2], ]
  must <- seq_len(nrow(pairs)) %% 3 == 0
  side <- constraints(must = pairs[must, ], cannot = pairs[!must, ], n = n)
  key <- paste(pairs[, 1], pairs[, 2])
  w <- runif(nrow(pairs), 0.02, 0.3)  # weak couplings: one fixed point
  w[seq(2, nrow(pairs), by = 7)][!must[seq(2, nrow(pairs), by = 7)]] <- Inf
  pen <- w[match(paste(side$i, side$j), key)]
  mst <- must[match(paste(side$i, side$j), key)]
  got <- constraint_posterior(prob, side, "mean_field", penalty = pen, inner_iter = 5000,
                              inner_tol = 1e-12)
  expect_lt(mean_field_residual(got, prob, side$i, side$j, mst, pen), 1e-9)
  expect_equal(unname(rowSums(got)), rep(1, n), tolerance = 1e-12)
  # points in no pair keep their own probabilities
  free <- setdiff(seq_len(n), c(side$i, side$j))
  expect_gt(length(free), 100)
  expect_equal(unname(got[free, ]), prob[free, ], tolerance = 1e-12)
})

test_that("Gibbs in EM: fewer recorded sweeps while EM is far from converged, same seed same fit", {
  set.seed(3)
  x <- rbind(matrix(rnorm(400, 0), 200), matrix(rnorm(400, 3), 200))
  side <- sample_constraints(rep(1:2, each = 200), "nelson_cohen", n_constraints = 300,
                             noise = 0.1)
  fits <- lapply(1:2, function(r) {
    set.seed(8)
    constrained_mixture(x, side, 2, inference = "gibbs", sweeps = 3, max_iter = 8)
  })
  expect_identical(fits[[1]]$z, fits[[2]]$z)
  expect_equal(unname(rowSums(fits[[1]]$z)), rep(1, 400), tolerance = 1e-12)
  expect_gt(ari(rep(1:2, each = 200), fits[[1]]$cluster), 0.9)
})
