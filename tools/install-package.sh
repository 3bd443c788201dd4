#!/usr/bin/env bash
# Installs sideclust from this source tree with its vignettes, as a user gets
# them from a built tarball, but compiling only once: install, render the
# vignettes with the installed package into inst/doc, install again (the
# objects are up to date, so the second install only copies). Uses every core
# for the compile. Extra arguments go to R CMD INSTALL (e.g. -l LIB).
set -euo pipefail
cd "$(dirname "$0")/.."
export MAKEFLAGS="${MAKEFLAGS:--j$(nproc 2>/dev/null || echo 2)}"
# Compiler settings for this install, on top of the user's own (included
# first, if any): Eigen's headers raise hundreds of harmless
# -Wignored-attributes notes per build, which GCC and clang are told to drop
# here (a portable src/Makevars cannot); without settings of the user's own,
# also compile without debug info (R's default -g makes the build ~1.5x
# slower; CRAN strips it anyway; SIDECLUST_DEBUG_INFO=1 keeps it).
flags=$(mktemp)
trap 'rm -f "$flags"' EXIT
user_makevars="${R_MAKEVARS_USER:-$HOME/.R/Makevars}"
if [ -f "$user_makevars" ]; then
  printf 'include %s\n' "$user_makevars" > "$flags"
elif [ "${SIDECLUST_DEBUG_INFO:-0}" != "1" ]; then
  printf 'CXX17FLAGS := $(filter-out -g,$(CXX17FLAGS))\n' > "$flags"
fi
printf 'CXX17FLAGS += -Wno-ignored-attributes\n' >> "$flags"
export R_MAKEVARS_USER="$flags"
# The first install only has to serve the vignettes: skip byte-compiling and
# the help pages there, the second install does both.
R CMD INSTALL --preclean --no-byte-compile --no-docs "$@" .
Rscript tools/render-vignettes.R "$@"
log=$(mktemp)
trap 'rm -f "$flags" "$log"' EXIT
R CMD INSTALL "$@" . >"$log" 2>&1 || { cat "$log"; exit 1; }
echo "sideclust is installed with its vignettes: vignette(package = \"sideclust\")"
