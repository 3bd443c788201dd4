# Shared by the bench/ scripts (sourced from the repository root).

# Replace, or append, the block between <!-- begin name --> and
# <!-- end name --> in a markdown results file, so each part of a benchmark
# can be rerun alone. `preamble` starts a new file.
write_md_section <- function(out_file, name, lines, preamble) {
  begin <- sprintf("<!-- begin %s -->", name)
  end <- sprintf("<!-- end %s -->", name)
  block <- c(begin, lines, end)
  old <- if (file.exists(out_file)) readLines(out_file) else preamble
  b <- match(begin, old)
  e <- match(end, old)
  new <- if (!is.na(b) && !is.na(e)) {
    c(old[seq_len(b - 1L)], block, old[-seq_len(e)])
  } else {
    c(old, block, "")
  }
  dir.create(dirname(out_file), showWarnings = FALSE, recursive = TRUE)
  writeLines(new, out_file)
}
