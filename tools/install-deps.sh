#!/usr/bin/env bash
# Installs what sideclust needs on a fresh Debian machine: Debian's prebuilt
# r-cran-* packages where they exist, CRAN (the repository R is configured
# with) for the rest.
#
#   tools/install-deps.sh demo   what the package imports, plus knitr and
#                                pandoc to render its vignettes: prebuilt
#                                Debian packages only, about a minute
#   tools/install-deps.sh        (or "full") also the test and check tools,
#                                LaTeX for the PDF manual, pkgdown, and the
#                                peer packages the tests and benches compare
#                                with (Rmixmod, CEC, conclust, RSpectra,
#                                chromote for the browser test; built
#                                from CRAN, several minutes)
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
mode="${1:-full}"
case "$mode" in demo|full) ;; *) echo "usage: $0 [demo|full]" >&2; exit 2 ;; esac
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

# Imports and LinkingTo, and what renders the vignettes (mclust: one vignette
# compares with it).
debian_packages=(
  r-cran-rcpp r-cran-rcppeigen r-cran-matrix r-cran-generics r-cran-progressr
  r-cran-posterior r-cran-future r-cran-future.apply
  r-cran-knitr r-cran-rmarkdown r-cran-mclust pandoc
)
if [ "$mode" = full ]; then
  debian_packages+=(r-cran-testthat r-cran-roxygen2 r-cran-coda r-cran-callr r-cran-pkgdown qpdf tidy)
  # The labelling gadget's test drives headless Chromium through chromote
  # (from CRAN below; its websocket dependency compiles against OpenSSL).
  debian_packages+=(chromium r-cran-shiny r-cran-processx r-cran-curl r-cran-later
                    r-cran-promises r-cran-rcpphnsw r-cran-rspectra libssl-dev)
  # make warnings compiles the package's C++ with clang as well as gcc.
  debian_packages+=(clang)
  # LaTeX for R CMD check's PDF manual; skip with SIDECLUST_NO_LATEX=1.
  if [ "${SIDECLUST_NO_LATEX:-0}" != "1" ]; then
    debian_packages+=(texlive-latex-base texlive-latex-recommended texlive-fonts-recommended)
  fi
fi

missing_debs=()
for p in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing_debs+=("$p")
done
if [ "${#missing_debs[@]}" -gt 0 ]; then
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing_debs[@]}" >/dev/null
fi

need=(Rcpp RcppEigen Matrix generics progressr posterior future future.apply knitr rmarkdown)
if [ "$mode" = demo ]; then
  Rscript -e "need <- commandArgs(TRUE); miss <- need[!vapply(need, requireNamespace, logical(1), quietly = TRUE)]
              if (length(miss)) stop('could not install: ', paste(miss, collapse = ', '))" "${need[@]}"
  echo "sideclust's demo dependencies are installed."
  exit 0
fi

# R packages that Debian does not ship (r-cran-rmixmod, r-cran-cec,
# r-cran-conclust and r-cran-chromote do not exist in Debian; RSpectra comes
# from Debian above, CRAN is the fallback): installed from CRAN only when
# missing. They are only Suggests (peers in tests, vignettes
# and bench/); Rmixmod compiles a large C++ library, so let make use every core.
export MAKEFLAGS="${MAKEFLAGS:--j$(nproc 2>/dev/null || echo 2)}"
Rscript -e '
need <- c(commandArgs(TRUE), "testthat", "mclust", "coda", "callr")
peers <- c("Rmixmod", "CEC", "conclust", "RSpectra", "chromote")
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
' "${need[@]}"
echo "sideclust dependencies are installed."
