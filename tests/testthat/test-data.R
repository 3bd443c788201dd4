# Lazy-loaded data when the package is installed; the .rda in data/ when the
# R files are sourced from a source tree.
get_dataset <- function(name) {
  e <- new.env()
  suppressWarnings(tryCatch(
    utils::data(list = name, package = "sideclust", envir = e),
    error = function(err) character(0)))
  if (!exists(name, envir = e, inherits = FALSE)) {
    load(test_path("..", "..", "data", paste0(name, ".rda")), envir = e)
  }
  e[[name]]
}

expected <- list(
  wine = list(dim = c(178, 14), counts = c(59, 71, 48)),
  ecoli = list(dim = c(336, 8), counts = c(143, 77, 52, 35, 20, 5, 2, 2)),
  glass = list(dim = c(214, 10), counts = c(70, 76, 17, 13, 9, 29)),
  balance = list(dim = c(625, 5), counts = c(49, 288, 288)),
  ionosphere = list(dim = c(351, 35), counts = c(225, 126)),
  vertebral = list(dim = c(310, 7), counts = c(60, 150, 100)),
  user_knowledge = list(dim = c(403, 6), counts = c(50, 129, 122, 102)),
  segmentation = list(dim = c(210, 6), counts = rep(30, 7))
)

test_that("data sets have the documented shape, classes and no NA", {
  for (name in names(expected)) {
    d <- get_dataset(name)
    exp <- expected[[name]]
    expect_s3_class(d, "data.frame")
    expect_equal(dim(d), exp$dim, info = name)
    expect_identical(names(d)[ncol(d)], "class", info = name)
    expect_true(is.factor(d$class), info = name)
    expect_equal(as.vector(table(d$class)), exp$counts, info = name)
    expect_false(anyNA(d), info = name)
    features <- d[-ncol(d)]
    expect_true(all(vapply(features, is.double, logical(1))), info = name)
    expect_true(all(vapply(features, function(v) all(is.finite(v)), logical(1))),
                info = name)
    expect_false(any(grepl("^(id|row|x$|\\.\\.)", names(features))), info = name)
    expect_identical(names(d), make.names(tolower(names(d)), unique = TRUE),
                     info = name)
  }
})

test_that("class levels are the documented ones", {
  expect_identical(levels(get_dataset("wine")$class), c("1", "2", "3"))
  expect_identical(levels(get_dataset("glass")$class), c("1", "2", "3", "5", "6", "7"))
  expect_identical(levels(get_dataset("ecoli")$class),
                   c("cp", "im", "pp", "imU", "om", "omL", "imL", "imS"))
  expect_identical(levels(get_dataset("balance")$class), c("B", "L", "R"))
  expect_identical(levels(get_dataset("ionosphere")$class), c("g", "b"))
  expect_identical(levels(get_dataset("vertebral")$class),
                   c("disk_hernia", "spondylolisthesis", "normal"))
  expect_identical(levels(get_dataset("user_knowledge")$class),
                   c("very_low", "low", "middle", "high"))
  expect_identical(levels(get_dataset("segmentation")$class), as.character(1:7))
})

test_that("glass has no column sorted by class (the UCI row id is dropped)", {
  glass <- get_dataset("glass")
  cls <- as.integer(glass$class)
  for (col in names(glass)[-ncol(glass)]) {
    o <- order(glass[[col]])
    expect_true(is.unsorted(cls[o]) && is.unsorted(rev(cls[o])), info = col)
    expect_false(isTRUE(all.equal(glass[[col]], seq_len(nrow(glass)))), info = col)
  }
})

test_that("data quirks are as documented", {
  ionosphere <- get_dataset("ionosphere")
  expect_true(all(ionosphere$x02 == 0))
  ecoli <- get_dataset("ecoli")
  expect_false(anyDuplicated(rownames(ecoli)) > 0)
  expect_equal(sum(ecoli$class %in% c("cp", "im", "pp", "imU", "om")), 327)
  vertebral <- get_dataset("vertebral")
  expect_lt(max(abs(with(vertebral,
                         pelvic_incidence - pelvic_tilt - sacral_slope))), 0.02)
  user <- get_dataset("user_knowledge")
  expect_false(is.unsorted(tapply(user$peg, user$class, mean)))
  balance <- get_dataset("balance")
  torque <- with(balance, left_weight * left_distance - right_weight * right_distance)
  expect_equal(as.character(balance$class),
               c("R", "B", "L")[sign(torque) + 2])
})
