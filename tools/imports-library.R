# Fills a library with the package's hard dependencies only: Depends, Imports
# and LinkingTo of DESCRIPTION, their own hard dependencies, recursively, and
# the VignetteBuilder packages with theirs (R CMD check's own depends-only mode
# keeps those, as CRAN's checks without Suggests do). Packages of R's base
# library (base and recommended) are left out: they stay visible anyway.
# Installed copies are copied from the current library path, nothing is
# downloaded or compiled.
# Usage: Rscript tools/imports-library.R LIB [--no-vignette-builder]
args <- commandArgs(TRUE)
if (!length(args)) stop("usage: Rscript tools/imports-library.R LIB [--no-vignette-builder]")
lib <- args[1]
with_builder <- !"--no-vignette-builder" %in% args

desc <- read.dcf("DESCRIPTION")
fields <- c("Depends", "Imports", "LinkingTo", if (with_builder) "VignetteBuilder")
fields <- intersect(fields, colnames(desc))
direct <- unique(unlist(lapply(desc[1, fields], tools:::.extract_dependency_package_names)))
direct <- setdiff(direct, "R")

installed <- installed.packages()
in_base <- rownames(installed.packages(lib.loc = .Library))
deps <- tools::package_dependencies(direct, db = installed, recursive = TRUE,
                                    which = c("Depends", "Imports", "LinkingTo"))
wanted <- sort(setdiff(unique(c(direct, unlist(deps))), in_base))
missing <- setdiff(wanted, rownames(installed))
if (length(missing)) {
  stop("not installed, cannot copy: ", paste(missing, collapse = ", "),
       " (tools/install-deps.sh installs them)")
}

unlink(lib, recursive = TRUE)
dir.create(lib, recursive = TRUE)
# The first library on the path that holds a package is the one R would load.
from <- installed[match(wanted, rownames(installed)), "LibPath"]
ok <- file.copy(file.path(from, wanted), lib, recursive = TRUE, copy.date = TRUE)
if (!all(ok)) stop("copying failed for ", paste(wanted[!ok], collapse = ", "))
cat(sprintf("%d packages copied to %s: %s\n", length(wanted), lib,
            paste(wanted, collapse = " ")))
