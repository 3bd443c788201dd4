# Brute-force connected components: breadth-first search over an adjacency
# matrix, components numbered by first appearance.
bfs_components <- function(n, i, j) {
  adj <- matrix(FALSE, n, n)
  adj[cbind(i, j)] <- TRUE
  adj[cbind(j, i)] <- TRUE
  id <- rep(0L, n)
  next_id <- 0L
  for (start in seq_len(n)) {
    if (id[start] > 0L) next
    next_id <- next_id + 1L
    queue <- start
    id[start] <- next_id
    while (length(queue) > 0) {
      v <- queue[1]
      queue <- queue[-1]
      nb <- which(adj[v, ] & id == 0L)
      id[nb] <- next_id
      queue <- c(queue, nb)
    }
  }
  id
}

test_that("chunklets() equals breadth-first search on random graphs", {
  set.seed(42)
  for (trial in 1:30) {
    n <- sample(1:25, 1)
    m <- if (n > 1) sample(0:(2 * n), 1) else 0
    a <- sample.int(n, m, replace = TRUE)
    b <- sample.int(n, m, replace = TRUE)
    keep <- a != b & !duplicated(cbind(pmin(a, b), pmax(a, b)))
    a <- a[keep]
    b <- b[keep]
    must <- runif(length(a)) < 0.6
    side <- constraints(must = cbind(a[must], b[must]),
                        cannot = cbind(a[!must], b[!must]), n = n)
    expect_identical(chunklets(side), bfs_components(n, a[must], b[must]))
  }
})

test_that("chunklets() handles singletons, labels, NULL and other inputs", {
  expect_identical(chunklets(constraints(n = 4)), 1:4)
  expect_identical(chunklets(NULL, n = 3), 1:3)
  expect_error(chunklets(NULL), "`n` is required when `side` is a NULL")
  # cannot-links do not join chunklets
  side <- constraints(must = rbind(c(2, 4)), cannot = rbind(c(1, 2)), n = 4)
  expect_identical(chunklets(side), c(1L, 2L, 3L, 2L))
  # labels: one chunklet per class among labelled points
  expect_identical(chunklets(c("b", NA, "a", "b", NA, "a")), c(1L, 2L, 3L, 1L, 4L, 3L))
  lab <- as_constraints(c(3, 1, NA, 3, 1))
  expect_identical(chunklets(lab), chunklets(as_constraints(lab, expand = TRUE)))
  # data.frame needs n; a matrix gives its own
  df <- as.data.frame(side)
  expect_error(chunklets(df), "`n` is required when `side` is a data.frame")
  expect_identical(chunklets(df, n = 4), chunklets(side))
  E <- matrix(NA, 4, 4)
  E[2, 4] <- E[4, 2] <- 1
  expect_identical(chunklets(E), c(1L, 2L, 3L, 2L))
  expect_error(chunklets(side, n = 5), "describes n = 4 points but the data have n = 5")
})

test_that("chunklets() follows long chains (path compression)", {
  n <- 20000
  side <- constraints(must = cbind(1:(n - 1), 2:n), n = n)
  expect_identical(chunklets(side), rep(1L, n))
})

test_that("check_constraints() finds exactly the planted contradictions", {
  set.seed(7)
  n <- 60
  groups <- rep(1:6, each = 10)
  # must-links: a random spanning chain inside each group
  must <- do.call(rbind, lapply(split(sample(n), groups[sample(n)]), function(p) {
    cbind(p[-length(p)], p[-1])
  }))
  ids <- chunklets(constraints(must = must, n = n))
  # consistent cannot-links between different chunklets, plus planted ones
  pairs <- t(combn(n, 2))
  across <- pairs[ids[pairs[, 1]] != ids[pairs[, 2]], ]
  inside <- pairs[ids[pairs[, 1]] == ids[pairs[, 2]], ]
  inside <- inside[!paste(inside[, 1], inside[, 2]) %in%
                     paste(pmin(must[, 1], must[, 2]), pmax(must[, 1], must[, 2])), ]
  planted <- inside[sample(nrow(inside), 5), ]
  cannot <- rbind(across[sample(nrow(across), 40), ], planted)
  side <- constraints(must = must, cannot = cannot, n = n,
                      confidence = c(rep(1, nrow(must)), rep(0.5, 40),
                                     seq(0.1, 0.5, by = 0.1)))
  expect_message(bad <- check_constraints(side), "5 cannot-links lie inside")
  planted <- planted[order(planted[, 1], planted[, 2]), ]
  expect_identical(bad$i, as.integer(planted[, 1]))
  expect_identical(bad$j, as.integer(planted[, 2]))
  expect_identical(bad$chunklet, ids[planted[, 1]])
  expect_identical(sort(bad$confidence), seq(0.1, 0.5, by = 0.1))
  expect_identical(summary(side)$n_contradictions, 5L)
  # consistent input: zero rows
  ok <- constraints(must = must, cannot = across[1:40, ], n = n)
  expect_message(none <- check_constraints(ok), "No contradictions")
  expect_identical(nrow(none), 0L)
  expect_identical(names(none), c("i", "j", "confidence", "chunklet"))
  expect_silent(check_constraints(ok, quiet = TRUE))
  expect_identical(nrow(check_constraints(c(1, 2, NA, 1), quiet = TRUE)), 0L)
})
