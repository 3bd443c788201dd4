# predict() for kpartite_clustering(): new vertices of one type to the
# cluster with the lowest summed divergence to the fit's block values.

# Three types on a chain (relation 1: types 1 x 2, relation 2: types 2 x 3).
kp_predict_data <- function(divergence, seed = 1) {
  set.seed(seed)
  types <- cbind(c(1, 2), c(2, 3))
  d <- kp_planted(c(24, 18, 12), c(3, 2, 2), types, noise = if (divergence == "euclidean") 1 else 0)
  fit <- kpartite_clustering(d$relations, k = c(users = 3, items = 2, tags = 2),
                             divergence = divergence, restarts = 3, tol = 0)
  c(d, list(fit = fit, types = types))
}

# The rows of the clustered relations for the vertices of type `ty`, new
# vertices as rows, in the order of fit$types.
kp_rows_of_type <- function(rel, types, ty) {
  lapply(which(types[, 1] == ty | types[, 2] == ty), function(r) {
    if (types[r, 1] == ty) rel[[r]] else t(rel[[r]])
  })
}

# Summed divergence of every new vertex to every cluster of type `ty`, cell
# by cell in plain R.
kp_cost_brute <- function(fit, newdata, ty) {
  rel <- which(fit$types[, 1] == ty | fit$types[, 2] == ty)
  n_new <- nrow(newdata[[1]])
  cost <- matrix(0, n_new, fit$k[ty])
  for (i in seq_along(rel)) {
    r <- rel[i]
    rows <- fit$types[r, 1] == ty
    other <- fit$clusters[[fit$types[r, if (rows) 2 else 1]]]
    b <- if (rows) fit$cluster_relations[[r]] else t(fit$cluster_relations[[r]])
    x <- as.matrix(newdata[[i]])
    for (h in seq_len(n_new)) for (p in seq_len(fit$k[ty])) {
      cost[h, p] <- cost[h, p] + sum(kp_div_r(x[h, ], b[p, other], fit$divergence))
    }
  }
  cost
}

test_that("predict.kpartite takes the argmin of the recomputed summed divergence", {
  for (divergence in c("euclidean", "idivergence")) {
    d <- kp_predict_data(divergence)
    fit <- d$fit
    set.seed(7)
    # new vertices of every type: noisy copies of the other ends' rows
    for (ty in 1:3) {
      newdata <- lapply(kp_rows_of_type(d$relations, d$types, ty), function(a) {
        a <- a[sample(nrow(a), 9, replace = TRUE), , drop = FALSE]
        if (divergence == "euclidean") a + stats::rnorm(length(a), sd = 2)
        else a + stats::rpois(length(a), 2)
      })
      cost <- kp_cost_brute(fit, newdata, ty)
      pred <- predict(fit, newdata, type = ty)
      expect_identical(pred$cluster, apply(cost, 1, which.min), info = paste(divergence, ty))
      expect_equal(chosen_cost(pred), apply(cost, 1, min), tolerance = 1e-9,
                   info = paste(divergence, ty))
    }
  }
})

test_that("a converged fit (tol = 0) predicts its own vertices' clusters", {
  for (divergence in c("euclidean", "idivergence")) {
    for (seed in 1:2) {
      d <- kp_predict_data(divergence, seed)
      expect_true(d$fit$converged)
      for (ty in 1:3) {
        pred <- predict(d$fit, kp_rows_of_type(d$relations, d$types, ty), type = ty)
        expect_identical(pred$cluster, d$fit$clusters[[ty]], info = paste(divergence, seed, ty))
      }
    }
  }
})

test_that("dense and sparse newdata agree, and a type may be given by name", {
  d <- kp_predict_data("idivergence", 3)
  newdata <- lapply(kp_rows_of_type(d$relations, d$types, 2), function(a) a[1:6, ])
  ref <- predict(d$fit, newdata, type = 2)
  sparse <- lapply(newdata, Matrix::Matrix, sparse = TRUE)
  expect_identical(predict(d$fit, sparse, type = "items"), ref)
  expect_identical(predict(d$fit, list(newdata[[1]], sparse[[2]]), type = 2), ref)
  expect_identical(predict(d$fit, list(as.data.frame(newdata[[1]]), newdata[[2]]), type = 2), ref)
  # a single matrix for a type in one relation
  users <- d$relations[[1]][1:5, ]
  expect_identical(predict(d$fit, users, type = "users"), predict(d$fit, list(users)))
})

test_that("a vertex whose rows are a cluster's block values goes to that cluster", {
  for (divergence in c("euclidean", "idivergence")) {
    fit <- kp_predict_data(divergence, 4)$fit
    b1 <- fit$cluster_relations[[1]]   # users x items
    b2 <- fit$cluster_relations[[2]]   # items x tags
    users <- b1[, fit$clusters$items, drop = FALSE]
    pred <- predict(fit, users, type = 1)
    expect_identical(pred$cluster, seq_len(fit$k[1]))
    expect_equal(chosen_cost(pred), rep(0, fit$k[1]), tolerance = 1e-8)
    items <- list(t(b1)[, fit$clusters$users, drop = FALSE], b2[, fit$clusters$tags, drop = FALSE])
    pred <- predict(fit, items, type = 2)
    expect_identical(pred$cluster, seq_len(fit$k[2]))
    expect_equal(chosen_cost(pred), rep(0, fit$k[2]), tolerance = 1e-8)
  }
})

test_that("under the I-divergence weight in a zero block is infinitely far", {
  d <- kp_predict_data("idivergence", 5)
  fit <- d$fit
  fit$cluster_relations[[1]][2, ] <- 0     # cluster 2 of users expects no weight at all
  new_users <- rbind(d$relations[[1]][fit$clusters$users == 2, ][1, ], 0)
  pred <- predict(fit, new_users)
  expect_false(pred$cluster[1] == 2)
  expect_identical(pred$cluster[2], 2L)     # all zeros: cluster 2 codes it exactly
  expect_equal(chosen_cost(pred)[2], 0)
  fit$cluster_relations[[1]][] <- 0
  expect_warning(pred <- predict(fit, new_users[1, , drop = FALSE]), "`newdata` row 1 fits no cluster .* its cluster is NA")
  expect_identical(pred$cluster, NA_integer_)
  expect_true(all(pred$cost == Inf))
})

test_that("predict.kpartite rejects bad input naming the argument", {
  d <- kp_predict_data("idivergence", 6)
  fit <- d$fit
  items <- lapply(kp_rows_of_type(d$relations, d$types, 2), function(a) a[1:4, ])
  expect_identical(unname(predict(fit, type = 2)$cluster), unname(fit$clusters[[2]]))
  expect_error(predict(fit, items[1], type = 2),
               "`newdata` must be a list of 2 matrices, one per relation of type \"items\" \\(users-items, items-tags\\)")
  expect_error(predict(fit, "a", type = 2), "`newdata` must be a list of 2 matrices.*got character")
  expect_error(predict(fit, list(items[[1]], items[[2]][, 1:5]), type = 2),
               "`newdata\\[\\[2\\]\\]` has 5 columns but type \"tags\" has 12 vertices")
  expect_error(predict(fit, list(t(items[[1]]), items[[2]]), type = 2),
               "`newdata\\[\\[1\\]\\]` has 4 columns but type \"users\" has 24 vertices")
  expect_error(predict(fit, list(items[[1]], items[[2]][1:3, ]), type = 2),
               "`newdata\\[\\[2\\]\\]` has 3 rows but `newdata\\[\\[1\\]\\]` has 4")
  neg <- items
  neg[[2]][1, 1] <- -1
  expect_error(predict(fit, neg, type = 2), "`newdata\\[\\[2\\]\\]` has 1 negative weights")
  na <- items
  na[[1]][2, 2] <- NA
  expect_error(predict(fit, na, type = 2), "`newdata\\[\\[1\\]\\]` has 1 NA values")
  expect_error(predict(fit, list(list(1), items[[2]]), type = 2), "`newdata\\[\\[1\\]\\]` must be")
  expect_error(predict(fit, items, type = 4), "`type` must be a type number 1..3 or one of \"users\"")
  expect_error(predict(fit, items, type = "item"), "`type` must be")
  expect_error(predict(fit, items, type = c(1, 2)), "`type` must be")
  expect_error(predict(fit, items, type = NA), "`type` must be")
  # negative weights are fine under the squared Euclidean distance
  fit_e <- kp_predict_data("euclidean", 6)$fit
  expect_length(predict(fit_e, neg, type = 2)$cluster, 4)
})
