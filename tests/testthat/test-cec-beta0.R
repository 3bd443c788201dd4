# cec_ib_beta0() for the seven Gaussian families: the balance of cost (10)
# between a split and its merged cluster, from the families' closed forms.

test_that("beta0 of every family is 1 + sum p_i / q (H_i - H) / H(p / q)", {
  b <- cec_blobs(25, sep = 3)
  fine <- b$y
  w <- tabulate(fine) / length(fine)
  params <- list(full = NULL, diagonal = NULL, spherical = NULL,
                 fixed_covariance = matrix(c(1, 0.3, 0.3, 0.5), 2), fixed_spherical = 0.8,
                 eigenvalues = c(0.3, 1.2), fixed_mean = c(1, 1))
  for (type in names(params)) {
    pa <- params[[type]]
    h <- vapply(1:3, function(a) cec_family_h(b$x[fine == a, ], type, pa), 0)
    expected <- 1 + sum(w * (h - cec_family_h(b$x, type, pa))) / (-sum(w * log(w)))
    got <- cec_ib_beta0(b$x, fine, type = type, param = pa)
    expect_equal(got, expected, tolerance = 1e-9, info = type)
    expect_lte(got, 1 + 1e-12)  # the merged cluster's best Gaussian serves every part
  }
  # CEC's short names
  expect_equal(cec_ib_beta0(b$x, fine, type = "fixedr", param = 0.8),
               cec_ib_beta0(b$x, fine, type = "fixed_spherical", param = 0.8))
})

test_that("beta0 errors name the argument", {
  b <- cec_blobs(25, sep = 3)
  expect_error(cec_ib_beta0(b$x, b$y, type = "fixed_spherical"), "param")
  expect_error(cec_ib_beta0(b$x, b$y, type = "fixed_spherical", param = -1), "param")
  expect_error(cec_ib_beta0(b$x, b$y, type = "full", param = 1), "param")
  expect_error(cec_ib_beta0(b$x, b$y, type = "eigenvalues", param = c(1, 2, 3)), "param")
  expect_error(cec_ib_beta0(b$x, b$y, type = c("full", "diagonal")), "type")
  expect_error(cec_ib_beta0(b$x, b$y, type = "bogus"), "type")
  expect_error(cec_ib_beta0(b$x, c(1, 1, 1, rep(2, 72))), "cluster")
})
