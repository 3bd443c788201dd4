# Renders vignettes/*.Rmd with the installed sideclust into inst/doc (HTML, the
# source and the tangled R code), where R CMD INSTALL picks them up and indexes
# them. Arguments: those given to R CMD INSTALL; "-l LIB" selects the library.
args <- commandArgs(TRUE)
lib <- if (length(i <- which(args == "-l")) && length(args) > i) args[i + 1] else NULL
if (!is.null(lib)) .libPaths(c(lib, .libPaths()))
dir.create("inst/doc", recursive = TRUE, showWarnings = FALSE)
render_one <- function(rmd) {
  name <- sub("[.]Rmd$", "", basename(rmd))
  t0 <- proc.time()[["elapsed"]]
  # A fresh process per vignette, as R CMD build does, with the library first.
  code <- sprintf(
    ".libPaths(c(%s, .libPaths())); rmarkdown::render(%s, output_dir = 'inst/doc', quiet = TRUE, envir = globalenv())",
    if (is.null(lib)) "character()" else deparse(normalizePath(lib)), deparse(rmd))
  status <- system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(code)))
  if (status != 0) stop("rendering ", rmd, " failed (its error is above)")
  knitr::purl(rmd, output = file.path("inst/doc", paste0(name, ".R")), quiet = TRUE)
  file.copy(rmd, "inst/doc", overwrite = TRUE)
  sprintf("vignette %-14s %5.1f s", name, proc.time()[["elapsed"]] - t0)
}
# Each vignette renders in its own process; two at a time halve the wall time.
rmds <- list.files("vignettes", pattern = "[.]Rmd$", full.names = TRUE)
rmds <- rmds[order(-file.size(rmds))]
done <- parallel::mclapply(rmds, render_one, mc.cores = min(2L, parallel::detectCores()),
                           mc.preschedule = FALSE)
failed <- vapply(done, inherits, logical(1), "try-error")
if (any(failed)) stop(paste(unlist(done[failed]), collapse = "\n"))
cat(unlist(done), sep = "\n")
