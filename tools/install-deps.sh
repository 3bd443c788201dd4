#!/usr/bin/env bash
# Installs everything sideclust needs to build, test and check on a fresh
# Debian machine: Debian's prebuilt r-cran-* packages where they exist, CRAN
# (the repository R is configured with) for the rest.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

debian_packages=(
  r-cran-rcpp r-cran-rcppeigen r-cran-matrix r-cran-testthat r-cran-roxygen2
  r-cran-knitr r-cran-rmarkdown r-cran-mclust
  r-cran-generics r-cran-progressr r-cran-posterior r-cran-coda r-cran-callr
  r-cran-future r-cran-future.apply
  pandoc qpdf tidy
)
# LaTeX for R CMD check's PDF manual; skip with SIDECLUST_NO_LATEX=1.
if [ "${SIDECLUST_NO_LATEX:-0}" != "1" ]; then
  debian_packages+=(texlive-latex-base texlive-latex-recommended texlive-fonts-recommended)
fi

$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${debian_packages[@]}" >/dev/null

# R packages that Debian does not ship (r-cran-rmixmod, r-cran-cec and
# r-cran-conclust do not exist in Debian): installed from CRAN only when
# missing. Rmixmod, CEC and conclust are only Suggests (peers in tests,
# vignettes and bench/); Rmixmod compiles a large C++ library, so let make use
# every core.
export MAKEFLAGS="${MAKEFLAGS:--j$(nproc 2>/dev/null || echo 2)}"
Rscript -e '
need <- c("Rcpp", "RcppEigen", "Matrix", "testthat", "knitr", "rmarkdown", "mclust",
          "generics", "progressr", "posterior", "coda", "callr", "future", "future.apply")
# Reference implementations for tests and vignettes (skipped when absent) and bench/.
peers <- c("Rmixmod", "CEC", "conclust", "RSpectra")
have <- function(p) vapply(p, requireNamespace, logical(1), quietly = TRUE)
missing <- c(need, peers)[!have(c(need, peers))]
if (length(missing)) try(install.packages(missing))
# CEC and conclust are at times missing from the CRAN index while their
# source tarballs are still served (or archived); fall back to the tarball of
# the known version (best effort: both are optional).
from_tarball <- function(pkg, version) {
  if (have(pkg)) return(invisible())
  repo <- sub("/+$", "", getOption("repos")[[1]])
  file <- sprintf("%s_%s.tar.gz", pkg, version)
  for (u in paste0(repo, c("/src/contrib/", sprintf("/src/contrib/Archive/%s/", pkg)), file)) {
    try(install.packages(u, repos = NULL, type = "source"))
    if (have(pkg)) break
  }
}
from_tarball("CEC", "0.11.3")
from_tarball("conclust", "1.1")
still <- need[!have(need)]
if (length(still)) stop("could not install: ", paste(still, collapse = ", "))
absent <- peers[!have(peers)]
if (length(absent)) {
  message("optional peers not installed (their comparisons are skipped): ",
          paste(absent, collapse = ", "))
}
'
echo "sideclust dependencies are installed."
