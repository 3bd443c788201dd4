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

fmt <- function(v, digits = 2) formatC(v, format = "f", digits = digits)

# A data.frame as markdown table lines; NA shows as "-". Integer columns are
# printed as they are unless format_integers.
md_table <- function(df, digits = 2, format_integers = FALSE) {
  cells <- lapply(df, function(col) {
    numeric_cell <- is.numeric(col) && (format_integers || !is.integer(col))
    out <- if (numeric_cell) fmt(col, digits) else as.character(col)
    ifelse(is.na(col), "-", out)
  })
  rows <- do.call(paste, c(cells, sep = " | "))
  c(paste0("| ", paste(names(df), collapse = " | "), " |"),
    paste0("|", paste(rep("---", ncol(df)), collapse = "|"), "|"),
    paste0("| ", rows, " |"))
}

# Short git commit of the working tree and the CPU model, NA when unknown.
git_commit <- function() {
  tryCatch(system("git rev-parse --short HEAD", intern = TRUE, ignore.stderr = TRUE),
           error = function(e) NA, warning = function(w) NA)
}
cpu_name <- function() {
  tryCatch({
    l <- grep("^model name", readLines("/proc/cpuinfo"), value = TRUE)[1]
    trimws(sub("^model name\\s*:", "", l))
  }, error = function(e) NA, warning = function(w) NA)
}

# The five UCI data sets of the TVClust paper's Section 5.2 (iris, wine,
# ecoli, glass without its leaking id, balance), standardized.
tvclust_paper_datasets <- function() {
  env <- new.env()
  utils::data(list = c("wine", "ecoli", "glass", "balance"),
              package = "sideclust", envir = env)
  sets <- list(iris = data.frame(iris[, 1:4], class = iris$Species),
               wine = env$wine, ecoli = env$ecoli, glass = env$glass,
               balance = env$balance)
  lapply(sets, function(d) {
    raw <- as.matrix(d[, names(d) != "class"])
    list(x = scale(raw), raw = raw, y = d$class, k = nlevels(droplevels(d$class)))
  })
}
