# label_pairs() in a real browser: the app runs in a separate R process,
# headless Chromium (driven by chromote) answers pairs by mouse clicks and
# key presses, the app is killed (SIGKILL, as in a crash) and restarted on
# the same answers file. Set SIDECLUST_GADGET_PNG to a path to keep a
# screenshot of the gadget.

find_chromium <- function() {
  path <- Sys.getenv("CHROMOTE_CHROME")
  if (nzchar(path) && file.exists(path)) return(path)
  for (name in c("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")) {
    path <- Sys.which(name)
    if (nzchar(path)) return(unname(path))
  }
  ""
}

# Starts the app of label_pairs() on `answers` in a new R process; returns
# the process and the app's address.
start_label_app <- function(dir, answers, result) {
  script <- file.path(dir, "app.R")
  writeLines(c(
    "library(sideclust)",
    "rows <- c(1:10, 51:60, 101:110)",
    "x <- scale(iris[rows, 1:4])",
    "show <- function(i) paste('Species:', iris$Species[rows][i])",
    sprintf("app <- label_pairs(x, %s, k = 3, fit = 'rdp_means', render_item = show, interface = 'app')",
            deparse(answers)),
    "res <- shiny::runApp(app, port = NULL, launch.browser = FALSE)",
    sprintf("saveRDS(res, %s)", deparse(result))), script)
  log <- file.path(dir, "app.log")
  proc <- processx::process$new(file.path(R.home("bin"), "Rscript"), script, stdout = log, stderr = "2>&1",
                                env = c("current", R_LIBS = paste(.libPaths(), collapse = .Platform$path.sep)))
  url <- NULL
  wait_until(function() {
    hit <- regmatches(readLines(log, warn = FALSE), regexpr("http://[0-9.]+:[0-9]+", readLines(log, warn = FALSE)))
    if (length(hit)) url <<- hit[1L]
    length(hit) > 0L || !proc$is_alive()
  }, 30, "the app to listen")
  if (is.null(url)) stop("the app did not start:\n", paste(readLines(log), collapse = "\n"))
  list(proc = proc, url = url)
}

wait_until <- function(cond, timeout, what) {
  end <- Sys.time() + timeout
  while (!isTRUE(cond())) {
    if (Sys.time() > end) stop("timed out waiting for ", what)
    Sys.sleep(0.1)
  }
  invisible(TRUE)
}

js <- function(b, expr) b$Runtime$evaluate(expr, returnByValue = TRUE)$result$value

shown_pair <- function(b) {
  v <- js(b, "(function(){var p=document.getElementById('lp-pair'); return p ? [p.dataset.i, p.dataset.j].join(',') : '';})()")
  if (is.null(v) || !nzchar(v) || v == ",") return(NULL)
  as.integer(strsplit(v, ",")[[1L]])
}

open_page <- function(b, url) {
  b$Page$navigate(url)
  wait_until(function() !is.null(shown_pair(b)), 30, "the first pair")
}

# A mouse click at the middle of the element with this id.
click <- function(b, id) {
  r <- js(b, sprintf("(function(){var r=document.getElementById('%s').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2];})()", id))
  for (type in c("mousePressed", "mouseReleased")) {
    b$Input$dispatchMouseEvent(type = type, x = r[[1L]], y = r[[2L]], button = "left", clickCount = 1)
  }
}

press <- function(b, key) {
  code <- utf8ToInt(toupper(key))
  b$Input$dispatchKeyEvent(type = "keyDown", key = key, text = key, windowsVirtualKeyCode = code)
  b$Input$dispatchKeyEvent(type = "keyUp", key = key, windowsVirtualKeyCode = code)
}

answer_rows <- function(file) if (file.exists(file)) max(length(readLines(file)) - 1L, 0L) else 0L

# Answers the shown pair (truthfully, by species) with a click or a key, and
# waits until the file has the line and the next pair is shown.
answer_shown <- function(b, file, species, by = c("click", "key")) {
  by <- match.arg(by)
  pair <- shown_pair(b)
  same <- species[pair[1L]] == species[pair[2L]]
  before <- answer_rows(file)
  if (by == "click") click(b, if (same) "same" else "different") else press(b, if (same) "s" else "d")
  wait_until(function() answer_rows(file) == before + 1L, 10, "the answer in the file")
  wait_until(function() !identical(shown_pair(b), pair), 20, "the next pair")
  data.frame(i = pair[1L], j = pair[2L], answer = if (same) "must" else "cannot")
}

test_that("answers given by clicks and keys in the browser survive a killed app, and the queries go on", {
  skip_on_cran()
  skip_if_not_installed("shiny")
  skip_if_not_installed("chromote")
  skip_if_not_installed("processx")
  chromium <- find_chromium()
  skip_if(!nzchar(chromium), "no Chromium or Chrome found (set CHROMOTE_CHROME); the browser test is skipped")

  dir <- tempfile("label-pairs-")
  dir.create(dir)
  answers <- file.path(dir, "answers.csv")
  result <- file.path(dir, "result.rds")
  species <- iris$Species[c(1:10, 51:60, 101:110)]
  args <- chromote::default_chrome_args()
  # Chromium refuses to run as root without --no-sandbox (containers, CI)
  if (.Platform$OS.type == "unix" && identical(unname(Sys.info()[["effective_user"]]), "root")) {
    args <- unique(c(args, "--no-sandbox"))
  }
  browser <- chromote::Chromote$new(browser = chromote::Chrome$new(path = chromium, args = args))
  app <- NULL
  b <- NULL
  on.exit({
    if (!is.null(app) && app$proc$is_alive()) app$proc$kill()
    if (!is.null(b)) try(b$close(), silent = TRUE)
    try(browser$close(), silent = TRUE)
    unlink(dir, recursive = TRUE)
  }, add = TRUE)
  b <- chromote::ChromoteSession$new(parent = browser, width = 1200, height = 900)

  app <- start_label_app(dir, answers, result)
  open_page(b, app$url)
  given <- rbind(answer_shown(b, answers, species, "click"),
                 answer_shown(b, answers, species, "click"),
                 answer_shown(b, answers, species, "key"),
                 answer_shown(b, answers, species, "click"))
  # skip one pair with its button
  skipped <- shown_pair(b)
  click(b, "skip")
  wait_until(function() answer_rows(answers) == 5L, 10, "the skip in the file")
  app$proc$kill()  # SIGKILL: R dies as in a crash
  wait_until(function() !app$proc$is_alive(), 10, "the app to die")

  saved <- read_pair_answers(answers, n = 30)
  expect_identical(as.data.frame(saved[1:4, c("i", "j", "answer")]),
                   data.frame(i = given$i, j = given$j, answer = given$answer))
  expect_identical(saved$answer[5L], "skip")
  expect_identical(c(saved$i[5L], saved$j[5L]), skipped)

  # restart on the same file: the answers are read, the next pair is a new one
  app <- start_label_app(dir, answers, result)
  open_page(b, app$url)
  expect_match(js(b, "document.getElementById('lp-tally').innerText"), "5 of them read from the file")
  key <- function(p) paste(min(p), max(p))
  asked <- vapply(seq_len(nrow(saved)), function(r) key(c(saved$i[r], saved$j[r])), "")
  expect_false(key(shown_pair(b)) %in% asked)
  more <- answer_shown(b, answers, species, "click")
  expect_false(key(shown_pair(b)) %in% c(asked, key(c(more$i, more$j))))
  png <- Sys.getenv("SIDECLUST_GADGET_PNG")
  if (nzchar(png)) {
    Sys.sleep(1)  # let the map and the items draw
    b$screenshot(png, show = FALSE)
  }
  # "q" ends the session: the app returns the constraints built from the file
  press(b, "q")
  wait_until(function() !app$proc$is_alive(), 20, "the app to stop")
  expect_true(file.exists(result))
  side <- readRDS(result)
  expect_s3_class(side, "sideclust_constraints")
  expect_identical(side, as_constraints(read_pair_answers(answers), n = 30))
  expect_identical(length(side$i), 5L)  # 4 answers before the crash, 1 after; the skip adds none
})
