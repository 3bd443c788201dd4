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
  pandoc qpdf tidy
)
# LaTeX for R CMD check's PDF manual; skip with SIDECLUST_NO_LATEX=1.
if [ "${SIDECLUST_NO_LATEX:-0}" != "1" ]; then
  debian_packages+=(texlive-latex-base texlive-latex-recommended texlive-fonts-recommended)
fi

$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${debian_packages[@]}" >/dev/null

# R packages that Debian does not ship (none yet for this issue; later
# methods add Rmixmod, CEC, ...): installed from CRAN only when missing.
Rscript -e '
need <- c("Rcpp", "RcppEigen", "Matrix", "testthat", "knitr", "rmarkdown", "mclust")
missing <- need[!vapply(need, requireNamespace, logical(1), quietly = TRUE)]
if (length(missing)) install.packages(missing)
still <- need[!vapply(need, requireNamespace, logical(1), quietly = TRUE)]
if (length(still)) stop("could not install: ", paste(still, collapse = ", "))
'
echo "sideclust dependencies are installed."
