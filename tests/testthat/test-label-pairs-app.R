# The Shiny server of label_pairs() without a browser (shiny::testServer).

test_that("the app records an answer only on the pair shown, and Done returns the constraints", {
  skip_if_not_installed("shiny")
  x <- scale(as.matrix(iris[c(1:10, 51:60, 101:110), 1:4]))
  file <- tempfile(fileext = ".csv")
  on.exit(unlink(file))
  set.seed(1)
  app <- label_pairs(x, file, k = 3, interface = "app",
                     render_item = function(i) shiny::tags$b(paste("item", i)))
  shiny::testServer(app, {
    p <- current()
    expect_length(p, 2L)
    session$setInputs(answer = list(answer = "different", i = p[2L], j = p[1L] + 100L))
    expect_false(file.exists(file))  # not the pair shown: ignored
    session$setInputs(answer = list(answer = "different", i = p[1L], j = p[2L]))
    expect_identical(read_pair_answers(file)$answer, "cannot")
    q <- current()
    expect_false(identical(q, p))
    session$setInputs(answer = list(answer = "skip", i = q[1L], j = q[2L]))
    expect_match(output$tally, "2 answered: 0 same, 1 different, 1 skipped")
    expect_match(output$item_a$html, "<b>item")
    session$setInputs(answer = list(answer = "done"))
  })
  a <- read_pair_answers(file, n = 30)
  expect_identical(a$answer, c("cannot", "skip"))
})

test_that("render_item() may give HTML, text or a plot; a failure shows as text", {
  skip_if_not_installed("shiny")
  dir <- tempfile()
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  item <- function(f) as.character(sideclust:::item_ui(f, 5L, dir, "items"))
  expect_identical(item(function(i) shiny::tags$em(i)), "<em>5</em>")
  expect_match(item(function(i) c("a", "b")), "<pre[^>]*>a\nb</pre>")
  expect_match(item(function(i) graphics::plot(seq_len(i))), "<img src=\"items/item-5.png")
  expect_true(file.exists(file.path(dir, "item-5.png")))
  expect_match(item(function(i) stop("no image")), "render_item\\(\\) failed: no image")
  expect_identical(item(function(i) invisible(NULL)), character(0))
})

test_that("the app says why a pair comes back: a note under the question, only on a pair asked again", {
  skip_if_not_installed("shiny")
  x <- rbind(c(0, 0), c(0.1, 0), c(10, 0), c(10.1, 0), c(0, 10), c(0.1, 10))
  file <- tempfile(fileext = ".csv")
  on.exit(unlink(file))
  set.seed(4)
  app <- label_pairs(x, file, k = 2, strategy = "explore_consolidate", interface = "app")
  shiny::testServer(app, {
    seen <- character(0)
    for (t in 1:4) {
      p <- current()
      key <- paste(sort(p), collapse = " ")
      html <- as.character(output$pair_title$html)
      if (key %in% seen) {
        expect_match(html, "lp-again.*Asked again to check")
      } else {
        expect_no_match(html, "Asked again")
      }
      seen <- c(seen, key)
      session$setInputs(answer = list(answer = "different", i = p[1L], j = p[2L]))
    }
    expect_true(anyDuplicated(seen) > 0L)
    session$setInputs(answer = list(answer = "done"))
  })
})
