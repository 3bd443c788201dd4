#!/usr/bin/env bash
# Installs sideclust from this source tree with its vignettes, as a user gets
# them from a built tarball, but compiling only once: install, render the
# vignettes with the installed package into inst/doc, install again (the
# objects are up to date, so the second install only copies). Uses every core
# for the compile. Extra arguments go to R CMD INSTALL (e.g. -l LIB).
set -euo pipefail
cd "$(dirname "$0")/.."
export MAKEFLAGS="${MAKEFLAGS:--j$(nproc 2>/dev/null || echo 2)}"
# Without compiler settings of the user's own, compile without debug info
# (R's default -g makes the build ~1.5x slower; CRAN strips it anyway). Set
# SIDECLUST_DEBUG_INFO=1 to keep R's flags.
if [ -z "${R_MAKEVARS_USER:-}" ] && [ ! -f "$HOME/.R/Makevars" ] && [ "${SIDECLUST_DEBUG_INFO:-0}" != "1" ]; then
  flags=$(mktemp)
  trap 'rm -f "$flags"' EXIT
  printf 'CXX17FLAGS := $(filter-out -g,$(CXX17FLAGS))\n' > "$flags"
  export R_MAKEVARS_USER="$flags"
fi
# The first install only has to serve the vignettes: skip byte-compiling and
# the help pages there, the second install does both.
R CMD INSTALL --preclean --no-byte-compile --no-docs "$@" .
Rscript tools/render-vignettes.R "$@"
R CMD INSTALL "$@" . >/dev/null
echo "sideclust is installed with its vignettes: vignette(package = \"sideclust\")"
