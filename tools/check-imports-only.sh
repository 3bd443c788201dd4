#!/usr/bin/env bash
# R CMD check --as-cran of the built tarball where only the hard dependencies
# are installed, as on CRAN's checks without Suggests and on many users'
# machines. Builds the tarball with everything installed (the vignettes need
# knitr, rmarkdown and the peers), copies the hard dependencies into a library
# of their own (tools/imports-library.R), then checks with R seeing only that
# library and R's base library. The library also holds knitr, the
# VignetteBuilder, as R CMD check's own depends-only mode does: without it
# --as-cran fails re-building the vignettes; with it and without rmarkdown,
# knitr writes a placeholder page instead. Fails on a check ERROR or WARNING
# and on the installed-size NOTE (the package above 5 MB, not this machine);
# prints the NOTEs and the slowest examples. Output in check/imports-only/.
set -euo pipefail
cd "$(dirname "$0")/.."
out=check/imports-only
lib="$out/lib"
rm -rf "$out" && mkdir -p "$out"

Rscript tools/imports-library.R "$lib"

# --as-cran asks CRAN's package database whether a package that is not
# installed (here: the Suggests) is orphaned; the registry here does not
# serve that file, so the same fields are taken from the installed copies.
mkdir -p "$out/cran-web/web/packages"
Rscript -e '
  sug <- tools:::.extract_dependency_package_names(read.dcf("DESCRIPTION", "Suggests"))
  fields <- c("Package", "Version", "Maintainer")
  # a Suggests package not installed here either gets a row of its own name
  row <- function(p) {
    if (!nzchar(system.file(package = p))) return(c(p, "0", "not installed here"))
    vapply(fields, function(f) as.character(packageDescription(p, fields = f)), "")
  }
  db <- t(vapply(sug, row, character(3)))
  colnames(db) <- fields
  saveRDS(as.data.frame(db, row.names = FALSE), commandArgs(TRUE))' "$out/cran-web/web/packages/packages.rds"

(cd "$out" && R CMD build --no-manual ../.. >build.log 2>&1) || { cat "$out/build.log"; exit 1; }
tarball=$(cd "$out" && ls sideclust_*.tar.gz)

# Debian's Renviron.site puts /usr/local/lib/R/site-library back on the path
# whatever R_LIBS_SITE says: R reads a copy of it without its R_LIBS lines
# instead (its other settings, such as the compiler flags R CMD check knows,
# stay), no user environment files; R_LIBS_SITE and R_LIBS_USER point nowhere.
site_environ="$(R RHOME)/etc/Renviron.site"
environ="$PWD/$out/site.Renviron"
empty="$PWD/$out/empty.Renviron"
: >"$empty"
if [ -f "$site_environ" ]; then grep -v '^[[:space:]]*R_LIBS' "$site_environ" >"$environ" || true; else : >"$environ"; fi
isolated=(env R_ENVIRON="$environ" R_ENVIRON_USER="$empty" R_CHECK_ENVIRON="$empty"
  R_LIBS="$PWD/$lib" R_LIBS_SITE=/nonexistent R_LIBS_USER=/nonexistent
  R_CRAN_WEB="file://$PWD/$out/cran-web")

# The isolation holds: the library path is LIB and R's own, no Suggests.
"${isolated[@]}" Rscript -e '
  lp <- .libPaths(); cat("library path:", lp, "\n")
  if (!identical(lp[-1], .Library)) stop("more than LIB and R base library on the path")
  sug <- tools:::.extract_dependency_package_names(read.dcf("DESCRIPTION", "Suggests"))
  seen <- sug[vapply(sug, function(p) nzchar(system.file(package = p)), TRUE)]
  cat("Suggests visible:", if (length(seen)) seen else "none", "\n")
  if (length(setdiff(seen, read.dcf("DESCRIPTION", "VignetteBuilder")))) stop("Suggests packages visible")'

# As .ci/run: no network beyond the registries here (remote incoming checks
# and CRAN's clock skipped), no inconsolata font for the PDF manual, debug
# info stripped as CRAN does.
status=0
start=$(date +%s)
(cd "$out" && "${isolated[@]}" _R_CHECK_FORCE_SUGGESTS_=false \
  _R_CHECK_CRAN_INCOMING_REMOTE_=false _R_CHECK_SYSTEM_CLOCK_=false R_RD4PDF="times,hyper" \
  _R_SHLIB_STRIP_=true R_STRIP_SHARED_LIB="strip --strip-debug" \
  R CMD check --as-cran --timings "$tarball" >check.out 2>&1) || status=$?
echo "R CMD check took $(( $(date +%s) - start )) s (exit status $status)"

log="$out/sideclust.Rcheck/00check.log"
if [ ! -f "$log" ]; then cat "$out/check.out"; echo "R CMD check produced no log"; exit 1; fi
grep -nE '(ERROR|WARNING|NOTE)$' "$log" || true
timings="$out/sideclust.Rcheck/sideclust-Ex.timings"
if [ -f "$timings" ]; then
  echo "slowest examples (user, system, elapsed s):"
  tail -n +2 "$timings" | sort -t$'\t' -k4 -g -r | head -5
fi
tail -n 1 "$log"
if [ "$status" -ne 0 ] || grep -qE '(ERROR|WARNING)$' "$log"; then
  echo "R CMD check found problems (details in $log)"
  exit 1
fi

# The installed size as R CMD check measures it (du -k of the install it
# made, the library stripped): above 5 MB (5120 KB) it notes the package's
# own size, which is no NOTE about this machine.
installed="$out/sideclust.Rcheck/sideclust"
echo "installed size: $(du -sk "$installed" | cut -f1) KB (R CMD check notes above 5120 KB);" \
  "$(cd "$installed" && du -sk -- * | sort -n -r | head -4 | awk '{printf "%s %s KB  ", $2, $1}')"
if grep -q '^\* checking installed package size ... NOTE$' "$log"; then
  echo "the installed package is larger than 5 MB (details in $log)"
  exit 1
fi

# --as-cran does not run the vignettes' code, and knitr without rmarkdown
# writes a placeholder instead of weaving: run each vignette's R code here,
# with the checked install, each in its own R process as R CMD check runs
# them, to show that chunks needing a Suggests package are skipped when it is
# missing.
cd "$out"
: >vignette-code.log
for rmd in sideclust.Rcheck/00_pkg_src/sideclust/vignettes/*.Rmd; do
  "${isolated[@]}" R_LIBS="$PWD/sideclust.Rcheck:$PWD/lib" Rscript -e '
    rmd <- commandArgs(TRUE)
    code <- tempfile(fileext = ".R")
    knitr::purl(rmd, output = code, quiet = TRUE)
    t0 <- proc.time()[["elapsed"]]
    source(code, echo = FALSE)
    cat(sprintf("vignette code %-16s ran in %5.1f s without the Suggests\n",
                basename(rmd), proc.time()[["elapsed"]] - t0))' "$rmd" >>vignette-code.log 2>&1 ||
    { tail -20 vignette-code.log; echo "the code of $rmd failed without the Suggests"; exit 1; }
done
grep "^vignette code" vignette-code.log
