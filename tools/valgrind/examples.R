# Writes the examples of every help page in man/ into one script (as R CMD
# check's <pkg>-Ex.R does, without its timing wrappers), for tools/valgrind.sh.
# Usage: Rscript tools/valgrind/examples.R <out.R>
out <- commandArgs(trailingOnly = TRUE)[1L]
pages <- sort(list.files("man", pattern = "[.]Rd$", full.names = TRUE))
lines <- c("library(sideclust)", "")
for (page in pages) {
  tmp <- tempfile(fileext = ".R")
  tools::Rd2ex(page, tmp)
  if (!file.exists(tmp)) next  # a page without examples writes nothing
  name <- sub("[.]Rd$", "", basename(page))
  # each page starts from the same random state, so a run is repeatable
  lines <- c(lines, sprintf("cat('## example: %s\\n'); set.seed(1)", name),
             readLines(tmp), "")
}
writeLines(lines, out)
cat(sum(grepl("^cat[(]'## example: ", lines)), "help pages with examples\n")
