# The answers file of label_pairs(): an append-only CSV with columns i, j,
# answer ("must", "cannot" or "skip") and time (UTC, ISO 8601). Each answer
# is one line written and closed at once, so that nothing answered is lost
# when R or the browser dies; reading it back gives the constraints (the
# last answer on a pair wins) and the pairs skipped (never asked again).

answers_file_header <- "i,j,answer,time"

#' Read the answers saved by label_pairs()
#'
#' Reads the append-only CSV file that [label_pairs()] writes, one line per
#' answer: columns `i`, `j` (the two points, row numbers of the data),
#' `answer` (`"must"`, `"cannot"` or `"skip"`; `"same"` and `"different"`
#' are read as must and cannot) and `time` (when it was given, UTC). A last
#' line cut short (the machine stopped while writing it) is dropped with a
#' warning. [as_constraints()] turns the answers into constraints: the last
#' answer given on a pair wins (a person may change their mind) and skips
#' add nothing.
#'
#' @param file The path of the file. A file that does not exist reads as no
#'   answers.
#' @param n The number of points, to check that every index lies in `1..n`;
#'   `NULL` checks only that they are positive whole numbers.
#' @return A data frame of class `sideclust_pair_answers` with columns `i`,
#'   `j` (integer), `answer` (character) and `time` (character), one row per
#'   line of the file, in the order given.
#' @seealso [label_pairs()], [as_constraints()].
#' @examples
#' file <- tempfile(fileext = ".csv")
#' writeLines(c("i,j,answer,time",
#'              "1,51,cannot,2024-01-01T10:00:00Z",
#'              "1,2,must,2024-01-01T10:00:05Z",
#'              "51,101,skip,2024-01-01T10:00:09Z"), file)
#' answers <- read_pair_answers(file, n = 150)
#' answers
#' as_constraints(answers, n = 150)
#' @export
read_pair_answers <- function(file, n = NULL) {
  file <- check_answers_path(file)
  if (!is.null(n)) n <- check_count(n, "n", lower = 1L)
  if (!file.exists(file) || file.size(file) == 0) return(new_pair_answers())
  lines <- readLines(file, warn = FALSE)
  if (length(lines) == 0L) return(new_pair_answers())
  if (!identical(gsub("[\" ]", "", lines[1L]), answers_file_header)) {
    stop_arg("file", sprintf("is not an answers file of label_pairs(): its first line is \"%s\", expected \"%s\"",
                             lines[1L], answers_file_header))
  }
  lines <- lines[-1L]
  lines <- lines[nzchar(trimws(lines))]
  fields <- strsplit(lines, ",", fixed = TRUE)
  i <- suppressWarnings(as.integer(vapply(fields, field_or_na, "", 1L)))
  j <- suppressWarnings(as.integer(vapply(fields, field_or_na, "", 2L)))
  answer <- normalise_answer(vapply(fields, field_or_na, "", 3L))
  time <- vapply(fields, field_or_na, "", 4L)
  ok <- lengths(fields) == 4L & !is.na(i) & !is.na(j) & !is.na(answer) & i >= 1L & j >= 1L & i != j
  bad <- which(!ok)
  if (length(bad) == 1L && bad == length(lines)) {
    warning(sprintf("the last line of `file` (%s) is incomplete and was dropped: \"%s\"", file, lines[bad]),
            call. = FALSE)
  } else if (length(bad) > 0L) {
    stop_arg("file", sprintf("has %d malformed line%s (%s); each line is i,j,answer,time with answer must, cannot or skip",
                             length(bad), if (length(bad) == 1L) "" else "s",
                             describe_positions(bad + 1L, "lines")))
  }
  out <- new_pair_answers(i[ok], j[ok], answer[ok], time[ok])
  if (!is.null(n) && any(out$i > n | out$j > n)) {
    stop_arg("file", sprintf("has answers on points beyond the data's n = %d (largest index %d): is it the file of another data set?",
                             n, max(out$i, out$j)))
  }
  out
}

field_or_na <- function(f, k) if (length(f) >= k) trimws(gsub("\"", "", f[k], fixed = TRUE)) else NA_character_

# "must" / "cannot" / "skip" from the spellings a person might write; NA otherwise.
normalise_answer <- function(answer) {
  a <- tolower(trimws(answer))
  out <- rep(NA_character_, length(a))
  out[a %in% c("must", "must-link", "must_link", "same", "s", "yes")] <- "must"
  out[a %in% c("cannot", "cannot-link", "cannot_link", "different", "d", "no")] <- "cannot"
  out[a %in% c("skip", "k", "dont_know", "don't know", "na")] <- "skip"
  out
}

new_pair_answers <- function(i = integer(0), j = integer(0), answer = character(0), time = character(0)) {
  out <- data.frame(i = as.integer(i), j = as.integer(j), answer = as.character(answer),
                    time = as.character(time), stringsAsFactors = FALSE)
  class(out) <- c("sideclust_pair_answers", "data.frame")
  out
}

check_answers_path <- function(file) {
  if (!is.character(file) || length(file) != 1L || is.na(file) || !nzchar(file)) {
    stop_arg("file", "must be the path of the answers file (a single string), e.g. \"answers.csv\"")
  }
  path.expand(file)
}

# Appends one answer to `file` (writing the header first when the file is new
# or empty) and closes the file at once, so that the line reaches the disk
# even if R is killed right after.
append_pair_answer <- function(file, i, j, answer, time = Sys.time()) {
  answer <- normalise_answer(answer)
  if (length(answer) != 1L || is.na(answer)) stop_arg("answer", "must be \"must\", \"cannot\" or \"skip\"")
  line <- sprintf("%d,%d,%s,%s\n", as.integer(i), as.integer(j), answer, answer_time(time))
  if (!file.exists(file) || file.size(file) == 0) line <- paste0(answers_file_header, "\n", line)
  con <- file(file, open = "a")
  on.exit(close(con))
  cat(line, file = con)
  flush(con)
  invisible(line)
}

answer_time <- function(time) format(as.POSIXct(time), "%Y-%m-%dT%H:%M:%OS3Z", tz = "UTC")

#' @rdname read_pair_answers
#' @param x Answers read by `read_pair_answers()`.
#' @param side Side information known before the answers (anything
#'   [as_constraints()] accepts, or `NULL`); the answers are added to it, an
#'   answer on one of its pairs replacing it.
#' @param ... Unused.
#' @export
as_constraints.sideclust_pair_answers <- function(x, n, side = NULL, ...) {
  if (missing(n)) stop_arg("n", "is required: the number of points (the data's rows)")
  n <- check_count(n, "n", lower = 1L)
  if (length(x$i) > 0L && max(x$i, x$j) > n) {
    stop_arg("x", sprintf("has answers on points beyond n = %d", n))
  }
  side <- as_side_info(side, n, "side")
  side <- if (inherits(side, "sideclust_labels")) expand_labels(side) else active_pairs(side, n)
  answers_to_constraints(side, x)
}

# The constraints `side` plus the answers in order (the last answer on a pair
# wins; skips add nothing).
answers_to_constraints <- function(side, answers) {
  keep <- answers$answer != "skip"
  if (!any(keep)) return(side)
  lo <- pmin(answers$i[keep], answers$j[keep])
  hi <- pmax(answers$i[keep], answers$j[keep])
  last <- !duplicated(paste(lo, hi), fromLast = TRUE)
  add_answers(side, lo[last], hi[last], answers$answer[keep][last])
}

# Pairs skipped and not answered later, and pairs answered twice: the
# `exclude` of query_pairs().
answers_settled <- function(answers) {
  settled_questions(data.frame(i = answers$i, j = answers$j,
                               answer = ifelse(answers$answer == "skip", NA, answers$answer)))
}
