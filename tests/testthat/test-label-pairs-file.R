# The answers file of label_pairs(): append, read back, constraints.

test_that("each appended answer is a complete line in the file at once, after one header", {
  file <- tempfile(fileext = ".csv")
  on.exit(unlink(file))
  sideclust:::append_pair_answer(file, 3, 1, "must")
  expect_identical(readLines(file)[1L], "i,j,answer,time")
  expect_length(readLines(file), 2L)
  sideclust:::append_pair_answer(file, 2, 5, "different")
  sideclust:::append_pair_answer(file, 4, 5, "skip")
  lines <- readLines(file)
  expect_length(lines, 4L)
  expect_match(lines[2L], "^3,1,must,\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$")
  expect_match(lines[3L], "^2,5,cannot,")
  expect_error(sideclust:::append_pair_answer(file, 1, 2, "maybe"), "answer")
  expect_length(readLines(file), 4L)
})

test_that("read_pair_answers() gives the answers in order, and none for a missing file", {
  file <- tempfile(fileext = ".csv")
  expect_identical(nrow(read_pair_answers(file)), 0L)
  writeLines(c("i,j,answer,time", "1,2,must,t1", "3,2,same,t2", "4,5,different,t3", "1,5,skip,t4"), file)
  on.exit(unlink(file))
  a <- read_pair_answers(file, n = 5)
  expect_s3_class(a, "sideclust_pair_answers")
  expect_identical(a$i, c(1L, 3L, 4L, 1L))
  expect_identical(a$j, c(2L, 2L, 5L, 5L))
  expect_identical(a$answer, c("must", "must", "cannot", "skip"))
  expect_identical(a$time, paste0("t", 1:4))
})

test_that("a last line cut short is dropped with a warning; a bad line elsewhere is an error naming file", {
  file <- tempfile(fileext = ".csv")
  on.exit(unlink(file))
  cat("i,j,answer,time\n1,2,must,t1\n3,4,can", file = file)
  expect_warning(a <- read_pair_answers(file), "incomplete")
  expect_identical(nrow(a), 1L)
  writeLines(c("i,j,answer,time", "1,2,must,t1", "x,4,cannot,t2", "3,4,cannot,t3"), file)
  expect_error(read_pair_answers(file), "`file`.*malformed")
  writeLines(c("a,b", "1,2"), file)
  expect_error(read_pair_answers(file), "`file`.*not an answers file")
  writeLines(c("i,j,answer,time", "1,20,must,t1"), file)
  expect_error(read_pair_answers(file, n = 10), "`file`.*beyond")
})

test_that("as_constraints() of answers: the last answer on a pair wins, skips add nothing, side is kept", {
  a <- sideclust:::new_pair_answers(c(1, 2, 4, 2, 6), c(2, 3, 5, 1, 7),
                                    c("must", "cannot", "must", "cannot", "skip"), rep("t", 5))
  side <- as_constraints(a, n = 8)
  expect_identical(side$i, c(1L, 2L, 4L))
  expect_identical(side$j, c(2L, 3L, 5L))
  expect_identical(side$must, c(FALSE, FALSE, TRUE))
  before <- constraints(must = c(7, 8), cannot = c(4, 5), n = 8)
  both <- as_constraints(a, n = 8, side = before)
  expect_identical(both$i, c(1L, 2L, 4L, 7L))
  expect_identical(both$must, c(FALSE, FALSE, TRUE, TRUE))  # the answer on (4, 5) replaced the given one
  expect_error(as_constraints(a, n = 5), "`x`")
  expect_error(as_constraints(a), "`n`")
})

test_that("skipped pairs are excluded until they get an answer, and pairs answered twice after it", {
  a <- sideclust:::new_pair_answers(c(1, 3, 5, 6), c(2, 4, 6, 5), c("skip", "skip", "skip", "must"), rep("t", 4))
  ex <- sideclust:::answers_settled(a)
  expect_identical(ex, data.frame(i = c(1L, 3L), j = c(2L, 4L)))
  # a recheck: (7, 8) answered twice, kept in the orientation last asked
  b <- rbind(a, sideclust:::new_pair_answers(c(8, 7), c(7, 8), c("cannot", "cannot"), rep("t", 2)))
  expect_identical(sideclust:::answers_settled(b), data.frame(i = c(1L, 3L, 7L), j = c(2L, 4L, 8L)))
})
