# The console front end of label_pairs(): prints the pair, reads one answer
# per line (readline() when interactive, standard input otherwise), and
# records it through the session like the browser does.

label_pairs_console <- function(lab, render_item = NULL, read = console_reader(), out = stdout()) {
  say <- function(...) cat(..., "\n", sep = "", file = out)
  say("Label pairs: s/1 same, d/2 different, k/3 skip, q done. Answers go to ", lab$file)
  if (lab$resumed > 0L) say("Resuming: ", lab$resumed, " answers read from the file.")
  repeat {
    pair <- labelling_next(lab)
    if (is.null(pair)) {
      say(if (!is.null(lab$budget) && nrow(lab$answers) >= lab$budget) "Budget reached." else "No pair left to ask.")
      break
    }
    say("")
    say(sprintf("Pair %d: items %d and %d", nrow(lab$answers) + 1L, pair[1L], pair[2L]))
    note <- labelling_recheck_note(lab, pair)
    if (!is.null(note)) say(note)
    say(paste(utils::capture.output(print(pair_values(lab$x, pair))), collapse = "\n"))
    if (!is.null(render_item)) {
      for (p in pair) console_item(render_item, p, say)
    }
    answer <- NULL
    while (is.null(answer)) {
      line <- read("Same (s), different (d), skip (k), done (q)? ")
      if (length(line) == 0L) {  # end of input
        say("")
        break
      }
      key <- tolower(trimws(line))
      answer <- switch(key, s = , "1" = , same = "must", d = , "2" = , different = "cannot",
                       k = , "3" = , skip = "skip", q = , quit = , done = "done", NULL)
      if (is.null(answer)) say("Please answer s, d, k or q.")
    }
    if (is.null(answer) || answer == "done") break
    labelling_answer(lab, pair[1L], pair[2L], answer)
    say(labelling_tally(lab))
  }
  labelling_result(lab)
}

console_reader <- function() {
  if (interactive()) return(function(prompt) readline(prompt))
  input <- file("stdin")
  open(input)
  function(prompt) {
    cat(prompt)
    readLines(input, n = 1L)
  }
}

# The two items' values side by side: one row per variable.
pair_values <- function(x, pair) {
  vars <- colnames(x) %||% paste0("V", seq_len(ncol(x)))
  out <- data.frame(variable = vars, a = x[pair[1L], ], b = x[pair[2L], ], row.names = NULL)
  names(out)[2:3] <- paste("item", pair)
  out
}

console_item <- function(render_item, i, say) {
  res <- withVisible(render_item(i))
  v <- res$value
  if (inherits(v, c("shiny.tag", "shiny.tag.list", "html"))) v <- as.character(v)
  if (is.character(v)) {
    say(sprintf("item %d: %s", i, paste(v, collapse = "\n")))
  } else if (res$visible && !is.null(v)) {
    print(v)
  }
}
