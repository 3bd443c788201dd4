test_that("constraints() orients, sorts and merges pairs", {
  side <- constraints(must = rbind(c(4, 2), c(1, 3), c(2, 4)),
                      cannot = rbind(c(5, 1), c(3, 2)), n = 6,
                      confidence = c(0.5, 1, 0.8, 0.7, 0.2))
  expect_s3_class(side, c("sideclust_constraints", "sideclust_side"), exact = TRUE)
  expect_identical(side$n, 6L)
  expect_identical(side$i, c(1L, 1L, 2L, 2L))
  expect_identical(side$j, c(3L, 5L, 3L, 4L))
  expect_identical(side$must, c(TRUE, FALSE, FALSE, TRUE))
  # (4, 2) and (2, 4) are one pair: the largest confidence is kept
  expect_identical(side$confidence, c(1, 0.7, 0.2, 0.8))
  expect_identical(names(side), c("n", "i", "j", "must", "confidence"))
})

test_that("constraints() round-trips through as.data.frame()", {
  side <- constraints(must = rbind(c(1, 2), c(7, 3)), cannot = c(9, 4), n = 10,
                      confidence = c(0.3, 1, 0.6))
  df <- as.data.frame(side)
  expect_identical(names(df), c("i", "j", "type", "confidence"))
  expect_identical(df$type, c("must", "must", "cannot"))
  expect_identical(constraints(df, n = 10), side)
  expect_identical(as_constraints(df, n = 10), side)
  # logical types are accepted too
  df$type <- df$type == "must"
  expect_identical(constraints(df, n = 10), side)
  # an empty set of constraints is valid
  empty <- constraints(n = 3)
  expect_length(empty$i, 0L)
  expect_identical(constraints(as.data.frame(empty), n = 3), empty)
})

test_that("constraints() names the argument and the rows in its errors", {
  expect_error(constraints(rbind(c(1, 2))), "`n` is required")
  expect_error(constraints(rbind(c(1, 2)), n = 0), "`n` must be at least 1")
  expect_error(constraints(rbind(c(1, 2), c(3, 3), c(4, 2), c(5, 5)), n = 5),
               "`must` has 2 self-pairs \\(rows 2, 4\\)")
  expect_error(constraints(cannot = rbind(c(1, 2), c(0, 3), c(2, 11)), n = 10),
               "`cannot` has 2 pairs with indices outside 1..10 \\(rows 2, 3\\)")
  expect_error(constraints(rbind(c(1, 2.5)), n = 5),
               "`must` has 1 pair that are not whole numbers \\(rows 1\\)")
  expect_error(constraints(rbind(c(1, NA), c(1, 2)), n = 5),
               "`must` has 1 pair with NA \\(rows 1\\)")
  expect_error(constraints(matrix(1:6, 2), n = 5), "`must` must be a two-column")
  expect_error(constraints(rbind(c(1, 2), c(3, 4)), cannot = rbind(c(4, 3)), n = 5),
               "given both as must-link and as cannot-link: pairs \\(3, 4\\)")
  expect_error(constraints(rbind(c(1, 2)), n = 5, confidence = c(1, 1)),
               "`confidence` has length 2 but there are 1 pairs")
  expect_error(constraints(rbind(c(1, 2), c(2, 3), c(3, 4)), n = 5,
                           confidence = c(0.5, 0, 1.5)),
               "`confidence` must be in \\(0, 1\\]; 2 values are outside \\(positions 2, 3\\)")
  expect_error(constraints(rbind(c(1, 2)), n = 5, confidence = NA_real_),
               "`confidence` has 1 NA value")
  df <- data.frame(i = 1:2, j = 2:3, type = c("must", "maybe"))
  expect_error(constraints(df, n = 5), "`must` has 1 invalid type \\(rows 2\\)")
  expect_error(constraints(data.frame(i = 1, j = 2, type = "must", w = 1), n = 5),
               "unknown columns: w")
  expect_error(constraints(data.frame(i = 1, j = 2, type = "must"),
                           cannot = rbind(c(1, 3)), n = 5), "`cannot` must be NULL")
  expect_error(as_side_info(data.frame(i = 1, j = 1, type = "must"), 5),
               "`side` has 1 self-pair \\(rows 1\\)")
})

test_that("binary and signed E matrices and a sparse Matrix give one object", {
  n <- 6
  E <- matrix(NA, n, n)
  diag(E) <- 1
  set_pair <- function(E, i, j, v) { E[i, j] <- v; E[j, i] <- v; E }
  E <- set_pair(E, 1, 2, 1)
  E <- set_pair(E, 5, 3, 0)
  E <- set_pair(E, 2, 6, 1)
  E <- set_pair(E, 4, 1, 0)
  expected <- constraints(must = rbind(c(1, 2), c(2, 6)),
                          cannot = rbind(c(3, 5), c(1, 4)), n = n)
  expect_identical(as_constraints(E), expected)
  expect_identical(as_side_info(E, n), expected)
  S <- ifelse(is.na(E), 0, ifelse(E == 1, 1, -1))
  diag(S) <- 0
  expect_identical(as_constraints(S, coding = "signed"), expected)
  expect_identical(as_constraints(Matrix::Matrix(S, sparse = TRUE)), expected)
  # symmetric storage (one triangle) and a pattern of must-links also work
  expect_identical(as_constraints(Matrix::forceSymmetric(Matrix::Matrix(S, sparse = TRUE))),
                   expected)
  pat <- Matrix::sparseMatrix(i = c(1, 2), j = c(2, 1), dims = c(3, 3))
  expect_identical(as_constraints(pat), constraints(rbind(c(1, 2)), n = 3))
  # signed magnitudes are confidences
  S[1, 2] <- S[2, 1] <- 0.4
  S[3, 5] <- S[5, 3] <- -0.25
  side <- as_constraints(Matrix::Matrix(S, sparse = TRUE))
  expect_identical(side, as_constraints(S, coding = "signed"))
  expect_identical(side$confidence[side$i == 1 & side$j == 2], 0.4)
  expect_identical(side$confidence[side$i == 3 & side$j == 5], 0.25)
})

test_that("E matrix errors name the argument and a pair", {
  E <- matrix(NA, 4, 4)
  E[1, 3] <- 1
  expect_error(as_constraints(E), "`x` must be symmetric; 1 pair differ, e.g. \\[1, 3\\]")
  E[3, 1] <- 0
  expect_error(as_constraints(E), "\\[1, 3\\] = 1 but \\[3, 1\\] = 0")
  E[3, 1] <- 1
  E[2, 4] <- E[4, 2] <- 2
  expect_error(as_constraints(E), "not 0, 1 or NA .* first at \\[4, 2\\]")
  expect_error(as_constraints(E, coding = "signed"), "outside \\[-1, 1\\]")
  S <- Matrix::sparseMatrix(i = c(1, 2), j = c(2, 1), x = c(1, -1), dims = c(3, 3))
  expect_error(as_constraints(S), "`x` must be symmetric; 1 pair differ, e.g. the pair \\[1, 2\\]")
  S1 <- Matrix::sparseMatrix(i = 1, j = 3, x = 1, dims = c(3, 3))
  expect_error(as_constraints(S1), "pair \\[1, 3\\]")
  expect_error(as_constraints(S1, coding = "binary"), "`coding` must be \"signed\"")
  expect_error(as_side_info(matrix(NA, 3, 3), 4), "`side` is a 3 x 3 matrix but the data have n = 4")
})

test_that("labels stay labels and expand to the brute-force pairs", {
  y <- c(2, NA, 1, 2, NA, 3, 1, 2)
  lab <- as_constraints(y)
  expect_s3_class(lab, "sideclust_labels")
  expect_identical(lab$labels, c(2L, NA, 1L, 2L, NA, 3L, 1L, 2L))
  expect_identical(lab$levels, c("1", "2", "3"))
  expect_identical(as_constraints(factor(c("b", NA, "a")))$levels, c("a", "b"))
  expect_identical(as_constraints(c(TRUE, NA, FALSE))$labels, c(2L, NA, 1L))
  ex <- as_constraints(y, expand = TRUE)
  expect_identical(as_constraints(lab, expand = TRUE), ex)
  # brute force: every labelled pair, in loops
  bi <- bj <- integer(0)
  bm <- logical(0)
  for (a in seq_along(y)) for (b in seq_along(y)) {
    if (a < b && !is.na(y[a]) && !is.na(y[b])) {
      bi <- c(bi, a); bj <- c(bj, b); bm <- c(bm, y[a] == y[b])
    }
  }
  expect_identical(ex$i, bi)
  expect_identical(ex$j, bj)
  expect_identical(ex$must, bm)
  expect_identical(ex$confidence, rep(1, length(bi)))
  expect_length(as_constraints(c(1, NA, NA), expand = TRUE)$i, 0L)
})

test_that("label expansion is guarded and reports choose(n_lab, 2)", {
  y <- rep(1:3, length.out = 100)
  y[1:10] <- NA
  expect_error(as_constraints(y, expand = TRUE, max_pairs = 1000),
               "90 labelled points would create choose\\(90, 2\\) = 4,005 pairs")
  expect_length(as_constraints(y, expand = TRUE, max_pairs = 4005)$i, 4005L)
})

test_that("as_side_info() accepts every form and checks n", {
  side <- constraints(rbind(c(1, 2)), n = 5)
  expect_null(as_side_info(NULL, 5))
  expect_identical(as_side_info(side, 5), side)
  expect_error(as_side_info(side, 6, arg = "side_info"),
               "`side_info` describes n = 5 points but the data have n = 6")
  lab <- as_side_info(c("a", NA, "b"), 3)
  expect_s3_class(lab, "sideclust_labels")
  expect_identical(as_side_info(lab, 3), lab)
  expect_error(as_side_info(c("a", NA), 3), "`side` has 2 labels but the data have n = 3")
  expect_error(as_side_info(list(1), 3), "`side` must be NULL, constraints()")
  broken <- side
  broken$i <- 3L
  expect_error(as_side_info(broken, 5), "`side` is not a valid sideclust_constraints")
  expect_identical(as_constraints(side), side)
  expect_error(as_constraints(list(1)), "`x` must be labels")
  expect_error(as_constraints(c(1, 2), foo = 1), "unused arguments: `foo`")
})

test_that("validate_side() names each broken clause of the pair contract", {
  side <- constraints(rbind(c(1, 2), c(1, 4), c(2, 3)), rbind(c(3, 5)), n = 5)
  expect_silent(validate_side(side))
  broken <- function(field, value) {
    s <- side
    s[[field]] <- value
    expect_error(as_side_info(s, 5), "`side` is not a valid sideclust_constraints")
    tryCatch(validate_side(s), error = conditionMessage)
  }
  expect_match(broken("i", c(1L, 1L, NA, 3L)), "1 <= i < j <= n and no NA")
  expect_match(broken("j", c(2L, 4L, 3L, 6L)), "1 <= i < j <= n and no NA")
  expect_match(broken("i", c(1L, 1L, 3L, 3L)), "1 <= i < j <= n and no NA")  # i == j
  expect_match(broken("must", c(TRUE, NA, TRUE, FALSE)), "1 <= i < j <= n and no NA")
  expect_match(broken("confidence", c(1, 0, 1, 1)), "confidence must be in \\(0, 1\\]")
  expect_match(broken("confidence", c(1, NA, 1, 1)), "confidence must be in \\(0, 1\\]")
  expect_match(broken("j", c(4L, 2L, 3L, 5L)), "distinct and sorted")
  expect_match(broken("j", c(2L, 2L, 3L, 5L)), "distinct and sorted")
  # the earliest clause is reported when several are broken
  s <- side
  s$j <- c(4L, 2L, 3L, 5L)
  s$confidence <- c(1, 2, 1, 1)
  expect_error(validate_side(s), "confidence must be")
})

test_that("print, format and summary report counts, chunklets and contradictions", {
  side <- constraints(must = rbind(c(1, 2), c(2, 3)), cannot = rbind(c(1, 3), c(4, 5)),
                      n = 10, confidence = c(1, 0.9, 0.5, 0.7))
  s <- summary(side)
  expect_s3_class(s, "summary.sideclust_constraints")
  expect_identical(c(s$n_must, s$n_cannot, s$n_chunklets, s$largest_chunklet,
                     s$n_contradictions), c(2L, 2L, 8L, 3L, 1L))
  expect_identical(s$cannot_confidence, c(0.5, 0.7))
  expect_output(print(side), "contradictions: 1 cannot-link inside a chunklet")
  expect_output(print(side), "must-links: +2 \\(confidence 0.9 to 1\\)")
  expect_identical(format(side), "<sideclust_constraints: 10 points, 2 must-links, 2 cannot-links>")
  lab <- as_constraints(c("a", NA, "b", "a", NA))
  ls <- summary(lab)
  expect_identical(ls$counts, c(a = 2L, b = 1L))
  expect_identical(ls$n_chunklets, 4L)
  expect_output(print(lab), "5 points, 3 labelled \\(60%\\) in 2 classes")
  expect_identical(format(lab), "<sideclust_labels: 5 points, 3 labelled, 2 classes>")
  expect_identical(as.character(as.data.frame(lab)$label), c("a", NA, "b", "a", NA))
})
