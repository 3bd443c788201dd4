# query_pairs(): the strategies on tiny problems.

# k blobs in the plane, each of diameter below 2 * sqrt(2), 10 apart.
separated_blobs <- function(k, per = 15L) {
  centres <- cbind(10 * seq_len(k), 10 * (seq_len(k) %% 2))
  y <- rep(seq_len(k), each = per)
  list(x = centres[y, ] + matrix(stats::runif(2 * length(y), -1, 1), ncol = 2), y = y)
}

# Ask `oracle` the pairs `q` and add the answers to `side`.
answer <- function(side, q, oracle, n) {
  df <- rbind(if (!is.null(side)) as.data.frame(side)[, c("i", "j", "type")],
              data.frame(i = q$i, j = q$j, type = oracle(q$i, q$j)))
  constraints(df, n = n)
}

test_that("Explore-Consolidate and Min-Max find one point per cluster of separated blobs with k(k-1)/2 questions", {
  for (strategy in c("explore_consolidate", "min_max")) {
    for (seed in 1:3) {
      set.seed(seed)
      k <- 3L + seed
      b <- separated_blobs(k)
      n <- nrow(b$x)
      oracle <- oracle_from_labels(b$y)
      side <- NULL
      asked <- 0L
      repeat {
        q <- query_pairs(b$x, side, strategy, k = k)
        if (q$phase == "consolidate") break
        side <- answer(side, q, oracle, n)
        asked <- asked + 1L
      }
      # the bound of Basu et al.: the m-th neighbourhood costs m - 1 cannot-links
      expect_equal(asked, k * (k - 1L) / 2L)
      expect_true(all(!side$must))
      found <- unique(c(side$i, side$j))
      expect_length(found, k)
      expect_setequal(b$y[found], seq_len(k))
    }
  }
})

# Run a neighbourhood strategy until it has k neighbourhoods and asks to
# consolidate, passing the pairs asked twice in `exclude` as active_side()
# does; the questions asked, with their answers.
explore_until_consolidate <- function(x, k, oracle, strategy = "explore_consolidate", ...) {
  n <- nrow(x)
  asked <- data.frame(i = integer(0), j = integer(0), answer = character(0), phase = character(0))
  repeat {
    side <- if (nrow(asked)) {
      last <- asked[!duplicated(sideclust:::pair_key(asked$i, asked$j), fromLast = TRUE), ]
      constraints(data.frame(i = last$i, j = last$j, type = last$answer), n = n)
    }
    q <- query_pairs(x, side, strategy, k = k, exclude = sideclust:::settled_questions(asked), ...)
    if (q$phase == "consolidate" || nrow(asked) > 100L) break
    asked <- rbind(asked, data.frame(i = q$i, j = q$j, answer = oracle(q$i, q$j), phase = q$phase))
  }
  asked
}

test_that("with confirm, every new neighbourhood costs one question more: its cannot-link asked again", {
  for (seed in 1:3) {
    set.seed(seed)
    k <- 3L + seed
    b <- separated_blobs(k)
    asked <- explore_until_consolidate(b$x, k, oracle_from_labels(b$y), confirm = TRUE)
    expect_equal(nrow(asked), k * (k - 1L) / 2L + k - 1L)
    expect_equal(sum(asked$phase == "recheck"), k - 1L)
    expect_true(all(asked$answer == "cannot"))
    expect_setequal(b$y[unique(c(asked$i, asked$j))], seq_len(k))
  }
})

test_that("with confirm, a lone point cannot-linked to every neighbourhood is asked again before it becomes one", {
  set.seed(3)
  k <- 3L
  b <- separated_blobs(k)
  n <- nrow(b$x)
  p1 <- which(b$y == 1L)[1:2]
  p2 <- which(b$y == 2L)[1L]
  # exploring: p2 apart from p1[1] (asked twice), then p1[2] wrongly apart from p1[1]
  side <- constraints(cannot = rbind(c(p2, p1[1]), c(p1[2], p1[1]), c(p1[2], p2)), n = n)
  twice <- data.frame(i = p2, j = p1[1])
  state <- function(side, confirm) {
    sideclust:::neighbourhood_state(sideclust:::active_pairs(side, n), twice, n, k, b$x,
                                    confirm = confirm)
  }
  # without confirm cluster 1 has two of the three neighbourhoods
  expect_equal(sort(b$y[state(side, FALSE)$hood]), c(1L, 1L, 2L))
  expect_equal(sort(b$y[state(side, TRUE)$hood]), c(1L, 2L))
  q <- query_pairs(b$x, side, "explore_consolidate", k = k, exclude = twice, confirm = TRUE)
  expect_equal(q$phase, "recheck")
  expect_equal(c(q$i, q$j), c(p1[2], p1[1]))  # the nearest neighbourhood first
  # answered "same" this time: the point joins its cluster's neighbourhood
  fixed <- constraints(data.frame(i = c(p2, p1[2], p1[2]), j = c(p1[1], p1[1], p2),
                                  type = c("cannot", "must", "cannot")), n = n)
  st <- state(fixed, TRUE)
  expect_equal(lengths(st$members), c(2L, 1L))
  expect_equal(query_pairs(b$x, fixed, "explore_consolidate", k = k, exclude = twice,
                           confirm = TRUE)$phase, "explore")
  # a lone point confirmed apart becomes a neighbourhood
  again <- rbind(twice, data.frame(i = p1[2], j = p1[1]))
  st <- sideclust:::neighbourhood_state(sideclust:::active_pairs(side, n), again, n, k, b$x,
                                        confirm = TRUE)
  expect_length(st$hood, 3L)
})

test_that("consolidation asks the nearest neighbourhood first and places each point with at most k questions", {
  set.seed(4)
  k <- 4L
  b <- separated_blobs(k)
  n <- nrow(b$x)
  oracle <- oracle_from_labels(b$y)
  side <- NULL
  for (r in 1:6) side <- answer(side, query_pairs(b$x, side, "explore_consolidate", k = k), oracle, n)
  for (r in 1:10) {
    q <- query_pairs(b$x, side, "explore_consolidate", k = k)
    expect_equal(q$phase, "consolidate")
    expect_equal(oracle(q$i, q$j), "must")  # separated blobs: nearest centroid is right
    side <- answer(side, q, oracle, n)
  }
  # with a wrong first answer the point goes on to the next neighbourhood
  q <- query_pairs(b$x, side, "explore_consolidate", k = k)
  wrong <- constraints(rbind(as.data.frame(side)[, c("i", "j", "type")],
                             data.frame(i = q$i, j = q$j, type = "cannot")), n = n)
  q2 <- query_pairs(b$x, wrong, "explore_consolidate", k = k)
  expect_equal(q2$i, q$i)
  expect_false(b$y[q2$j] == b$y[q$j])
})

test_that("a sequential procedure continues from the constraints: a pending point is asked against the next neighbourhood", {
  set.seed(5)
  b <- separated_blobs(3L)
  n <- nrow(b$x)
  oracle <- oracle_from_labels(b$y)
  side <- answer(NULL, query_pairs(b$x, NULL, "explore_consolidate", k = 3), oracle, n)
  q <- query_pairs(b$x, side, "explore_consolidate", k = 3)  # the third cluster's first question
  side <- answer(side, q, oracle, n)
  q2 <- query_pairs(b$x, side, "explore_consolidate", k = 3)
  expect_equal(q2$i, q$i)
  expect_false(q2$j == q$j)
  # a pair with no answer is not asked again: the point moves on
  q3 <- query_pairs(b$x, side, "explore_consolidate", k = 3, exclude = q2[, c("i", "j")])
  expect_false(identical(c(q3$i, q3$j), c(q2$i, q2$j)))
})

# Every partition of 6 points under TVClust's exact posterior.
enumerated_posterior <- function() {
  prior <- list(m0 = 0, kappa0 = 0.5, nu0 = 3, S0 = matrix(1))
  x <- matrix(c(-1.1, -0.7, 0.2, 1.0, 1.3, 2.4), ncol = 1)
  side <- constraints(must = rbind(c(1, 2)), cannot = rbind(c(3, 5)), n = 6)
  post <- exact_posterior(x, side, alpha = 1, p = 0.8, q = 0.85, prior)
  z <- do.call(rbind, lapply(strsplit(names(post), ""), as.integer))
  list(x = x, side = side, z = z, w = unname(post))
}

entropy_bits <- function(w) {
  w <- w[w > 0] / sum(w)
  -sum(w * log2(w))
}
pair_entropy <- function(p) {
  p <- pmin(pmax(p, 1e-300), 1 - 1e-16)
  -(p * log2(p) + (1 - p) * log2(1 - p))
}
coclust_matrix <- function(z, w) {
  w <- w / sum(w)
  Reduce(`+`, lapply(seq_along(w), function(r) w[r] * outer(z[r, ], z[r, ], "==")))
}

test_that("the uncertainty strategy asks the pair the exact posterior is least sure of", {
  e <- enumerated_posterior()
  s <- coclust_matrix(e$z, e$w)
  pairs <- which(upper.tri(s), arr.ind = TRUE)
  open <- !(pairs[, 1] == 1 & pairs[, 2] == 2) & !(pairs[, 1] == 3 & pairs[, 2] == 5)
  pairs <- pairs[open, ]
  p <- s[pairs]
  # the exact information an answer gives about the partition, by conditioning
  info <- apply(pairs, 1, function(ij) {
    same <- e$z[, ij[1]] == e$z[, ij[2]]
    pm <- sum(e$w[same])
    entropy_bits(e$w) - pm * entropy_bits(e$w[same]) - (1 - pm) * entropy_bits(e$w[!same])
  })
  expect_equal(info, pair_entropy(p), tolerance = 1e-10)
  q <- query_pairs(e$x, e$side, "uncertainty", posterior = list(draws = e$z, weights = e$w),
                   weighted = FALSE)
  least_sure <- which.min(abs(p - 0.5))
  expect_equal(c(q$i, q$j), unname(pairs[least_sure, ]))
  expect_equal(which.max(info), least_sure)
  expect_equal(q$p_same, p[least_sure])

  # weighted: the pair whose answer most lowers the summed entropy of all
  # pairwise decisions, by exact conditioning of the enumerated posterior
  total <- function(w) sum(pair_entropy(coclust_matrix(e$z, w)[upper.tri(s)]))
  fall <- apply(pairs, 1, function(ij) {
    same <- e$z[, ij[1]] == e$z[, ij[2]]
    pm <- sum(e$w[same])
    total(e$w) - pm * total(e$w * same) - (1 - pm) * total(e$w * !same)
  })
  qw <- query_pairs(e$x, e$side, "uncertainty", posterior = list(draws = e$z, weights = e$w))
  expect_equal(c(qw$i, qw$j), unname(pairs[which.max(fall), ]))
  expect_false(which.max(fall) == least_sure)  # the weighting matters here
})

test_that("the mean-field gain equals exact conditioning of independent memberships", {
  set.seed(6)
  r <- matrix(stats::rgamma(15, 1), 5, 3)
  r <- r / rowSums(r)
  labelings <- as.matrix(expand.grid(rep(list(1:3), 5)))
  w <- apply(labelings, 1, function(z) prod(r[cbind(1:5, z)]))
  membership <- list(type = "membership", membership = r)
  draws <- list(type = "draws", draws = labelings, weights = w / sum(w))
  for (ij in list(c(1, 2), c(2, 5), c(3, 4))) {
    others <- setdiff(1:5, ij)
    expect_equal(sideclust:::answer_gain(membership, ij[1], ij[2], others),
                 sideclust:::answer_gain(draws, ij[1], ij[2], others), tolerance = 1e-12)
  }
})

test_that("batches are not redundant: no point in two pairs of a batch", {
  set.seed(7)
  b <- separated_blobs(4L, per = 30L)
  n <- nrow(b$x)
  oracle <- oracle_from_labels(b$y)
  side <- NULL
  # neighbourhoods of more members than a batch needs
  for (r in 1:45) side <- answer(side, query_pairs(b$x, side, "explore_consolidate", k = 4), oracle, n)
  fit <- tvclust(b$x, side, method = "variational", k = 4)
  for (strategy in c("random", "explore_consolidate", "min_max", "npu", "uncertainty")) {
    q <- query_pairs(fit, side, strategy, batch = 8, k = 4)
    expect_equal(nrow(q), 8L)
    expect_false(anyDuplicated(c(q$i, q$j)) > 0, info = strategy)
    expect_false(any(sideclust:::known_pair(q$i, q$j, side, data.frame(i = integer(0), j = integer(0)),
                                            chunklets(side))), info = strategy)
  }
  # two pairs whose points lie with each other, one each: only one is asked
  # (1 and 3 always together, 2 and 4 too, joined half of the time)
  z <- rbind(c(1, 1, 1, 1, 2, 2), c(1, 2, 1, 2, 2, 2))
  q <- query_pairs(matrix(0, 6, 1), NULL, "uncertainty", batch = 3,
                   posterior = list(draws = z, weights = c(1, 1)), weighted = FALSE)
  expect_equal(sum(q$i %in% c(1, 3) & q$j %in% c(2, 4)), 1L)
})

test_that("NPU asks the point of largest entropy per expected question, most probable neighbourhood first", {
  x <- rbind(c(0, 0), c(10, 0), c(0.2, 0), c(5, 0), c(9.9, 0))
  side <- constraints(cannot = rbind(c(1, 2)), n = 5)
  set.seed(8)
  q <- query_pairs(x, side, "npu")
  expect_equal(q$i, 4L)   # midway: the most doubtful
  q2 <- query_pairs(x, constraints(cannot = rbind(c(1, 2), c(2, 4)), n = 5), "npu")
  expect_equal(c(q2$i, q2$j), c(4L, 1L))  # goes on with the remaining neighbourhood
  r <- cbind(c(1, 0, 0.9, 0.5, 0.1), c(0, 1, 0.1, 0.5, 0.9))
  q3 <- query_pairs(x, side, "npu", posterior = r)
  expect_equal(q3$i, 4L)
})

test_that("query_pairs' errors name the argument", {
  x <- matrix(stats::rnorm(20), 10)
  expect_error(query_pairs(x, strategy = "best"), "`strategy`")
  expect_error(query_pairs(x, batch = 0), "`batch`")
  expect_error(query_pairs(x, strategy = "explore_consolidate"), "`k`")
  expect_error(query_pairs(x, strategy = "uncertainty"), "`posterior`")
  expect_error(query_pairs(x, strategy = "uncertainty", posterior = matrix(2, 10, 2)), "`posterior`")
  expect_error(query_pairs(x, exclude = rbind(c(1, 11))), "`exclude`")
  expect_error(query_pairs(x, side = constraints(must = c(1, 2), n = 9)), "`side`")
  fit <- rdp_means(x, NULL, k = 2)
  expect_error(query_pairs(fit, strategy = "uncertainty"), "`x`.*no posterior")
})

test_that("partial labels count as neighbourhoods, and contradictory answers do not stop the procedure", {
  set.seed(10)
  b <- separated_blobs(3L)
  lab <- rep(NA, nrow(b$x))
  lab[c(1, 2, 16, 31)] <- b$y[c(1, 2, 16, 31)]
  q <- query_pairs(b$x, lab, "explore_consolidate", k = 3, batch = 3)
  expect_true(all(q$phase == "consolidate"))
  expect_true(all(q$j %in% c(1, 2, 16, 31)))
  expect_true(all(b$y[q$i] == b$y[q$j]))  # nearest centroid first
  # a cannot-link inside a must-link chunklet (a wrong answer) is left out of the state
  side <- constraints(must = rbind(c(1, 2), c(2, 3)), cannot = rbind(c(1, 3), c(1, 16)), n = nrow(b$x))
  q <- query_pairs(b$x, side, "explore_consolidate", k = 3)
  expect_equal(q$phase, "explore")
  expect_equal(b$y[q$i], 3L)
})

test_that("with k neighbourhoods, a point cannot-linked to all k is asked again, nearest neighbourhood first", {
  set.seed(11)
  b <- separated_blobs(3L)
  n <- nrow(b$x)
  hoods <- rbind(c(1, 16), c(1, 31), c(16, 31))
  # point 2 lies in the first blob, but every answer put it apart
  side <- constraints(cannot = rbind(hoods, c(2, 1), c(2, 16), c(2, 31)), n = n)
  grown <- constraints(must = c(1, 3), cannot = rbind(hoods, c(2, 1), c(2, 16), c(2, 31)), n = n)
  key <- function(q) paste(pmin(q$i, q$j), pmax(q$i, q$j))
  for (strategy in c("explore_consolidate", "npu")) {
    q <- query_pairs(b$x, side, strategy, k = 3)
    # points 1 and 2 are alike to the constraints; either is asked against the other
    expect_setequal(c(q$i, q$j), c(1L, 2L))
    expect_equal(q$phase, "recheck")
    # once point 1 is in a larger neighbourhood, point 2 is the one asked again
    q <- query_pairs(b$x, grown, strategy, k = 3)
    expect_equal(c(q$i, q$j), c(2L, 1L))
    # the cannot-link stood: the next neighbourhood, then a pair of neighbourhoods
    q <- query_pairs(b$x, grown, strategy, k = 3, exclude = data.frame(i = 2, j = 1))
    expect_equal(c(q$i, q$j), c(2L, 16L))
    twice <- data.frame(i = c(2, 2, 2), j = c(1, 16, 31))
    q <- query_pairs(b$x, grown, strategy, k = 3, exclude = twice)
    expect_equal(q$phase, "recheck")
    expect_true(key(q) %in% key(data.frame(i = hoods[, 1], j = hoods[, 2])))
    # every answer stood: point 2 is left out, and no fourth neighbourhood is made
    all_twice <- rbind(twice, data.frame(i = hoods[, 1], j = hoods[, 2]))
    q <- query_pairs(b$x, grown, strategy, k = 3, batch = 4, exclude = all_twice)
    expect_false(2L %in% c(q$i, q$j))
    expect_true(all(q$phase == "consolidate"))
    expect_true(all(q$j %in% c(1L, 3L, 16L, 31L)))
  }
  # the answer changed: point 2 joins the first neighbourhood
  fixed <- constraints(must = c(1, 2), cannot = rbind(hoods, c(2, 16), c(2, 31)), n = n)
  st <- sideclust:::neighbourhood_state(sideclust:::active_pairs(fixed, n),
                                        data.frame(i = 2L, j = 1L), n, k = 3L, x = b$x)
  expect_length(st$hood, 3L)
  expect_length(st$recheck, 0L)
  expect_true(st$in_hood[2])
  # without k (NPU on data alone) the old rule holds: a fourth neighbourhood
  st <- sideclust:::neighbourhood_state(sideclust:::active_pairs(side, n),
                                        data.frame(i = integer(0), j = integer(0)), n)
  expect_length(st$hood, 4L)
})

test_that("a point is asked against a neighbourhood's hub, not a member that a wrong answer let in", {
  set.seed(13)
  b <- separated_blobs(2L)
  n <- nrow(b$x)
  # neighbourhood of point 1 grew by must-links to 1; point 16 (second blob) got in by a wrong one
  side <- constraints(must = rbind(c(1, 2), c(1, 3), c(1, 16)), cannot = rbind(c(1, 20), c(20, 21)),
                      n = n)
  for (strategy in c("explore_consolidate", "npu")) {
    q <- query_pairs(b$x, side, strategy, k = 2, batch = 1)
    # pending point 21 (second blob) goes on with the first neighbourhood: its
    # hub 1, not point 16, its nearest member, which would answer "same"
    expect_equal(c(q$i, q$j), c(21L, 1L))
  }
})

test_that("the fits' implied pairs leave out a point that contradicts k", {
  set.seed(14)
  b <- separated_blobs(2L)
  n <- nrow(b$x)
  asked <- data.frame(i = c(16, 2, 3, 4, 4), j = c(1, 1, 16, 1, 16),
                      answer = c("cannot", "must", "must", "cannot", "cannot"))
  side <- constraints(must = rbind(c(1, 2), c(3, 16)), cannot = rbind(c(1, 16), c(1, 4), c(4, 16)), n = n)
  imp <- sideclust:::active_fit_side(side, b$x, asked, k = 2L, implied = TRUE)
  key <- paste(imp$i, imp$j)
  # point 4 is apart from both neighbourhoods: only its two answers, nothing implied
  expect_equal(sum(imp$i == 4 | imp$j == 4), 2L)
  expect_true(all(c("2 16", "1 3", "2 3") %in% key))
  # without k the closure spreads point 4's cannot-links to every member
  all_imp <- sideclust:::active_fit_side(side, b$x, asked, k = NULL, implied = TRUE)
  expect_equal(sum(all_imp$i == 4 | all_imp$j == 4), 4L)
})

test_that("contradictions are asked again on one-column data too", {
  x <- matrix(c(0, 0.1, 0.2, 10, 10.1, 20, 20.1), ncol = 1)
  side <- constraints(cannot = rbind(c(1, 4), c(1, 6), c(4, 6), c(2, 1), c(2, 4), c(2, 6)), n = 7)
  q <- query_pairs(x, side, "explore_consolidate", k = 3)
  expect_equal(q$phase, "recheck")
  expect_setequal(c(q$i, q$j), c(1L, 2L))
})

test_that("the last neighbourhood is inferred, not asked, only when the cannot-links were expected", {
  set.seed(12)
  b <- separated_blobs(2L)
  n <- nrow(b$x)
  # neighbourhoods {1, 3} and {16, 17}; point 20 lies in the second blob: its
  # cannot-link to the first neighbourhood was expected
  must <- rbind(c(1, 3), c(16, 17))
  expected <- constraints(must = must, cannot = rbind(c(1, 16), c(20, 1)), n = n)
  # point 2 lies in the first blob: its cannot-link to the first is a surprise
  surprise <- constraints(must = must, cannot = rbind(c(1, 16), c(2, 1)), n = n)
  for (strategy in c("explore_consolidate", "min_max", "npu")) {
    q <- query_pairs(b$x, expected, strategy, k = 2)
    expect_equal(q$i, 20L)
    expect_true(q$j %in% c(16L, 17L))
    expect_equal(q$phase, "inferred")
    q <- query_pairs(b$x, expected, strategy, k = 2, infer = FALSE)
    expect_equal(q$i, 20L)
    expect_equal(q$phase, "consolidate")
    q <- query_pairs(b$x, surprise, strategy, k = 2)
    expect_equal(q$i, 2L)
    expect_true(q$j %in% c(16L, 17L))
    expect_equal(q$phase, "consolidate")
  }
  # NPU without k may open new neighbourhoods: nothing is inferred
  expect_equal(query_pairs(b$x, expected, "npu")$phase, "consolidate")
  expect_error(query_pairs(b$x, expected, "npu", k = 2, infer = NA), "infer")
})
