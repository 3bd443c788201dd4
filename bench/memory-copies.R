# How many copies of the data does each point method hold at its peak?
#
#   Rscript bench/memory-copies.R                  # n = 2e5, p = 5 and 25
#   BENCH_N=1e5 BENCH_P=5,85 BENCH_METHODS=cvqe,kmeans Rscript bench/memory-copies.R
# With BENCH_METHODS the rows of only those methods are replaced in an
# existing section of the results (same n and p), the others kept.
#
# The goal of "one copy of the data plus O(n + pairs)" cannot be read off one
# peak: at p = 5 an n-vector of doubles is a fifth of the data. So each method
# runs on the same n points and pairs at two dimensions; the peak grows with p
# only through what is held per coordinate, hence
#   copies = (peak(p_high) - peak(p_low)) / (data(p_high) - data(p_low))
# is the number of n x p copies beyond the input, and the rest,
#   per_point_bytes = (peak(p_low) - copies * data(p_low)) / n,
# is what the method holds per point and pair whatever p (labels, pair lists,
# the n x k posterior of a mixture).
# Every (method, p) runs in a fresh Rscript process; peak is VmHWM above VmRSS
# after the data are made (as in bench/scale-one-machine.R, whose method list
# and data this script shares through bench/scale-methods.R).
# Results: bench/results/memory-copies.md.

args <- commandArgs(TRUE)
if (length(args) == 4L && args[1] == "--child") {
  p_dim <- as.integer(args[4])
  source("bench/scale-methods.R")
  name <- args[2]
  n <- as.numeric(args[3])
  spec <- methods[[name]]
  suppressPackageStartupMessages(library(sideclust))
  invisible(spec$run(make_data(1000, FALSE), 2L))  # load what it loads
  d <- make_data(n, FALSE)
  invisible(gc())
  base <- status_mb("VmRSS")
  writeLines("5", "/proc/self/clear_refs")  # reset VmHWM
  invisible(spec$run(d, 3L))
  peak <- status_mb("VmHWM") - base
  cat(peak, as.numeric(utils::object.size(d$x)) / 2^20, "\n")
  quit(save = "no")
}

source("bench/utils.R")
source("bench/scale-methods.R")
n <- as.numeric(Sys.getenv("BENCH_N", "2e5"))
dims <- as.integer(strsplit(Sys.getenv("BENCH_P", "5,25"), ",")[[1]])
stopifnot(length(dims) == 2L, dims[1] < dims[2])
which_methods <- Sys.getenv("BENCH_METHODS", "")
todo <- if (nzchar(which_methods)) strsplit(which_methods, ",")[[1]] else
  setdiff(names(methods), c("sib", "sib_1e4_words", "rdp_means_lambda12p", "dp_means_lambda12p"))  # sparse counts; variants of rows already here
script <- "bench/memory-copies.R"

peak_at <- function(name, p) {
  out <- system2(file.path(R.home("bin"), "Rscript"), c(script, "--child", name, n, p),
                 stdout = TRUE, stderr = FALSE, env = "MALLOC_MMAP_THRESHOLD_=131072")
  last <- utils::tail(out, 1L)
  v <- if (length(last)) suppressWarnings(as.numeric(strsplit(trimws(last), " +")[[1]])) else NA
  if (length(v) != 2L || anyNA(v)) c(NA_real_, NA_real_) else v  # the child failed
}

rows <- list()
for (name in todo) {
  spec <- methods[[name]]
  if (is.null(spec)) stop("unknown method ", name)
  if (!is.null(spec$peer) && !requireNamespace(spec$peer, quietly = TRUE)) next
  lo <- peak_at(name, dims[1])
  hi <- peak_at(name, dims[2])
  copies <- (hi[1] - lo[1]) / (hi[2] - lo[2])
  rows[[length(rows) + 1L]] <- data.frame(
    method = name, peak_mb_low_p = lo[1], peak_mb_high_p = hi[1], data_mb_low_p = lo[2],
    data_mb_high_p = hi[2], copies = copies,
    per_point_bytes = (lo[1] - copies * lo[2]) * 2^20 / n)
  message(sprintf("%-22s copies %.2f, %.0f bytes a point besides", name, copies,
                  rows[[length(rows)]]$per_point_bytes))
}
res <- do.call(rbind, rows)

load <- tryCatch(readLines("/proc/loadavg"), error = function(e) NA)
section <- sprintf("copies n %g p %s", n, paste(dims, collapse = " "))
out_file <- "bench/results/memory-copies.md"

# With BENCH_METHODS, only those rows of an existing section are replaced
# (the others, and the section's description, stay as they were measured),
# with a line saying which rows were re-run when.
old_section <- function() {
  if (!file.exists(out_file)) return(NULL)
  old <- readLines(out_file)
  b <- match(sprintf("<!-- begin %s -->", section), old)
  e <- match(sprintf("<!-- end %s -->", section), old)
  if (is.na(b) || is.na(e)) NULL else old[(b + 1L):(e - 1L)]
}
old <- if (nzchar(which_methods)) old_section() else NULL
if (!is.null(old) && any(startsWith(old, "| method |"))) {
  new_rows <- md_table(res, digits = 2)[-(1:2)]
  new_names <- trimws(vapply(strsplit(new_rows, "|", fixed = TRUE), `[`, "", 2L))
  row_name <- function(l) trimws(strsplit(l, "|", fixed = TRUE)[[1]][2])
  is_row <- startsWith(old, "| ") & !startsWith(old, "| method |") & !startsWith(old, "|---")
  for (r in which(is_row)) {
    hit <- match(row_name(old[r]), new_names)
    if (!is.na(hit)) old[r] <- new_rows[hit]
  }
  missing <- setdiff(new_names, vapply(old[is_row], row_name, ""))
  last_row <- max(which(is_row))
  old <- append(old, new_rows[match(missing, new_names)], after = last_row)
  note <- sprintf("- rows %s re-run: %s; git %s; load average at the end: %s",
                  paste(new_names, collapse = ", "),
                  format(Sys.time(), tz = "UTC", usetz = TRUE), git_commit(), load)
  # an earlier note goes only when every row it names has been re-run now
  is_note <- startsWith(old, "- rows ") & grepl(" re-run", old, fixed = TRUE)
  superseded <- vapply(old, function(line) {
    named <- strsplit(sub("^- rows (.*?) re-run.*$", "\\1", line, perl = TRUE), ", ", fixed = TRUE)[[1]]
    all(named %in% new_names)
  }, logical(1))
  old <- old[!(is_note & superseded)]
  blank <- match("", old)  # the new note after the others
  lines <- if (is.na(blank)) c(old, note) else append(old, note, after = blank - 1L)
  write_md_section(out_file, section, lines, c("# Copies of the data at the peak", ""))
  cat(lines, sep = "\n")
  quit(save = "no")
}

lines <- c(
  sprintf("- date: %s; git %s; %s", format(Sys.time(), tz = "UTC", usetz = TRUE), git_commit(),
          cpu_name()),
  sprintf("- command: `BENCH_N=%g BENCH_P=%s Rscript %s`; load average at the end: %s", n,
          paste(dims, collapse = ","), script, load),
  sprintf(paste0("- data: n = %g points from %d Gaussian blobs in p = %d and p = %d, about n pairs ",
                 "from `sample_constraints(y, rate = 1 / n)`; a 3-iteration call per method and p in a ",
                 "fresh process; peak_mb: peak resident memory above the start of the call; ",
                 "copies: the slope of the peak in the size of x (copies of x held beyond the input); ",
                 "per_point_bytes: the rest of the peak at the lower p, per point (with about one pair ",
                 "per point)."), n, k_true, dims[1], dims[2]),
  "",
  md_table(res, digits = 2))
write_md_section(out_file, section, lines, c("# Copies of the data at the peak", ""))
cat(lines, sep = "\n")
