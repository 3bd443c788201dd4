# The labelling session through the console front end (no browser needed).

scripted_reader <- function(keys) {
  k <- 0L
  function(prompt) {
    k <<- k + 1L
    if (k > length(keys)) character(0) else keys[k]
  }
}

console_session <- function(x, file, typed, ...) {
  lab <- sideclust:::new_labelling(x, sideclust:::active_pairs(NULL, nrow(x)), file, ...)
  out <- tempfile()
  con <- file(out, "w")
  on.exit({
    close(con)
    unlink(out)
  })
  res <- sideclust:::label_pairs_console(lab, read = scripted_reader(typed), out = con)
  list(result = res, lab = lab)
}

test_that("console answers go to the file as given and come back as the constraints", {
  x <- as.matrix(iris[1:30 * 5, 1:4])
  file <- tempfile(fileext = ".csv")
  on.exit(unlink(file))
  set.seed(2)
  run <- console_session(x, file, c("s", "d", "oops", "k", "2", "q"), strategy = "random",
                         fit = list(fit = NULL, fitter = NULL), k = NULL, batch = 1L, budget = NULL,
                         query_args = list())
  a <- read_pair_answers(file, n = 30)
  expect_identical(a$answer, c("must", "cannot", "skip", "cannot"))
  expect_s3_class(run$result, "sideclust_constraints")
  expect_identical(run$result, as_constraints(a, n = 30))
  expect_identical(sum(run$result$must), 1L)
})

test_that("a session resumes from the file: answers kept, skipped pairs and answered pairs not asked again", {
  x <- scale(as.matrix(iris[c(1:10, 51:60, 101:110), 1:4]))
  y <- rep(1:3, each = 10)
  file <- tempfile(fileext = ".csv")
  on.exit(unlink(file))
  truthful <- function(lab, m) {
    for (t in seq_len(m)) {
      p <- sideclust:::labelling_next(lab)
      sideclust:::labelling_answer(lab, p[1L], p[2L],
                                   if (t == 2L) "skip" else if (y[p[1L]] == y[p[2L]]) "must" else "cannot")
    }
  }
  args <- list(strategy = "explore_consolidate", fit = list(fit = NULL, fitter = NULL), k = 3L,
               batch = 1L, budget = NULL, query_args = list())
  set.seed(1)
  lab1 <- do.call(sideclust:::new_labelling, c(list(x, sideclust:::active_pairs(NULL, 30), file), args))
  truthful(lab1, 5)
  first <- read_pair_answers(file, n = 30)
  expect_identical(nrow(first), 5L)
  # a new session (as after a crash) reads the file and continues
  lab2 <- do.call(sideclust:::new_labelling, c(list(x, sideclust:::active_pairs(NULL, 30), file), args))
  expect_identical(lab2$resumed, 5L)
  expect_identical(lab2$side, lab1$side)
  asked <- paste(pmin(first$i, first$j), pmax(first$i, first$j))
  for (t in 1:8) {
    p <- sideclust:::labelling_next(lab2)
    expect_false(paste(min(p), max(p)) %in% asked)
    asked <- c(asked, paste(min(p), max(p)))
    sideclust:::labelling_answer(lab2, p[1L], p[2L], if (y[p[1L]] == y[p[2L]]) "must" else "cannot")
  }
  expect_identical(nrow(read_pair_answers(file)), 13L)
  expect_identical(sideclust:::labelling_result(lab2), as_constraints(read_pair_answers(file), n = 30))
})

test_that("the budget counts the answers in the file, resumed ones included", {
  x <- as.matrix(iris[1:20, 1:4])
  file <- tempfile(fileext = ".csv")
  on.exit(unlink(file))
  sideclust:::append_pair_answer(file, 1, 2, "must")
  sideclust:::append_pair_answer(file, 3, 4, "skip")
  run <- console_session(x, file, c("s", "s", "s"), strategy = "random", fit = list(fit = NULL, fitter = NULL),
                         k = NULL, batch = 1L, budget = 3L, query_args = list())
  expect_identical(nrow(read_pair_answers(file)), 3L)
})

test_that("a method given as fit is refitted after each batch and colours the session", {
  x <- scale(as.matrix(iris[c(1:10, 51:60, 101:110), 1:4]))
  file <- tempfile(fileext = ".csv")
  on.exit(unlink(file))
  calls <- 0L
  method <- function(x, side, previous) {
    calls <<- calls + 1L
    rdp_means(x, side, lambda = 4)
  }
  set.seed(3)
  lab <- sideclust:::new_labelling(x, sideclust:::active_pairs(NULL, 30), file, "random",
                                   sideclust:::labelling_fit(method, NULL), NULL, 2L, NULL, list())
  for (t in 1:4) {
    p <- sideclust:::labelling_next(lab)
    sideclust:::labelling_answer(lab, p[1L], p[2L], "cannot")
  }
  expect_identical(calls, 2L)  # before the first batch and after it
  sideclust:::labelling_next(lab)
  expect_identical(calls, 3L)
  expect_s3_class(lab$fit, "rdp_means")
})

test_that("label_pairs() checks its arguments and names them", {
  x <- as.matrix(iris[1:20, 1:4])
  expect_error(label_pairs(x), "`file`")
  expect_error(label_pairs(x, tempfile(), render_item = 3, interface = "console"), "`render_item`")
  expect_error(label_pairs(x, tempfile(), fit = 3, interface = "console"), "`fit`")
  expect_error(label_pairs(x, tempfile(), interface = "phone"), "`interface`")
  expect_error(label_pairs(x, tempfile(), strategy = "uncertainty", interface = "console"), "`fit`")
  expect_error(label_pairs(x, tempfile(), fit = rdp_means(iris[1:10, 1:4], NULL, lambda = 1), interface = "console"),
               "`fit`")
})

test_that("a labelling session asks every pair: it never infers the last neighbourhood", {
  set.seed(3)
  y <- rep(1:2, each = 15)
  x <- cbind(c(0, 10)[y], 0) + matrix(stats::runif(60, -1, 1), ncol = 2)
  # neighbourhoods {1, 3} and {16, 17}; point 20 answered apart from the first
  side <- constraints(must = rbind(c(1, 3), c(16, 17)), cannot = rbind(c(1, 16), c(20, 1)), n = 30)
  expect_equal(query_pairs(x, side, "npu", k = 2)$phase, "inferred")
  file <- tempfile(fileext = ".csv")
  on.exit(unlink(file))
  lab <- sideclust:::new_labelling(x, side, file, "npu", list(fit = NULL, fitter = NULL), 2L, 1L,
                                   NULL, list(infer = TRUE))
  p <- sideclust:::labelling_next(lab)
  expect_equal(p[1L], 20L)
  expect_true(p[2L] %in% c(16L, 17L))
})

test_that("a pair asked again says why, in the console and in the note the browser shows", {
  x <- rbind(c(0, 0), c(0.1, 0), c(10, 0), c(10.1, 0), c(0, 10), c(0.1, 10))
  file <- tempfile(fileext = ".csv")
  out <- tempfile()
  on.exit(unlink(c(file, out)))
  lab <- sideclust:::new_labelling(x, sideclust:::active_pairs(NULL, 6), file, strategy = "explore_consolidate",
                                   fit = list(fit = NULL, fitter = NULL), k = 2L, batch = 1L,
                                   budget = NULL, query_args = list())
  con <- file(out, "w")
  set.seed(4)
  # "different" to everything: with k = 2 a point apart from both clusters is asked again
  sideclust:::label_pairs_console(lab, read = scripted_reader(c("d", "d", "d", "d", "q")), out = con)
  close(con)
  said <- readLines(out)
  a <- read_pair_answers(file, n = 6)
  key <- paste(pmin(a$i, a$j), pmax(a$i, a$j))
  expect_true(anyDuplicated(key) > 0L)
  # a note right under each pair shown a second time, and under no other
  shown <- regmatches(said, regexec("^Pair [0-9]+: items ([0-9]+) and ([0-9]+)$", said))
  at <- which(lengths(shown) == 3L)
  shown_key <- vapply(shown[at], function(m) paste(sort(as.integer(m[2:3])), collapse = " "), "")
  again <- grep("^Asked again to check", said)
  expect_gt(length(again), 0L)
  expect_identical(again - 1L, at[duplicated(shown_key)])
  expect_match(said[again], "you answered \"different\" here before, and with k = 2 clusters the other answers")
  all_pairs <- t(utils::combn(6L, 2L))
  fresh <- all_pairs[!paste(all_pairs[, 1], all_pairs[, 2]) %in% key, , drop = FALSE][1L, ]
  expect_null(sideclust:::labelling_recheck_note(lab, fresh))
})
