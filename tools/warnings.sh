#!/usr/bin/env bash
# Compiler warnings of the package's own code (issue 42, point 1): every
# src/*.cpp (the R glue; R's, Rcpp's and RcppEigen's headers as -isystem so
# their own warnings do not count) and the core headers without R (every
# src/*/*.h in one file, plus tools/core/driver.cpp, as tools/core/check.sh
# builds them), under g++ and clang++ with -Wall -Wextra -pedantic. Prints the
# compiler versions and the warnings per compiler; fails if any warning
# points into src/.
#
# g++ checks with -fsyntax-only (its -Wpsabi comes at template instantiation,
# so the front end shows it); WARNINGS_GCC_OPT=-O2 makes it compile at R's
# default level instead, which adds the flow warnings (-Wmaybe-uninitialized
# and the like) at several times the cost. clang++ raises -Wpsabi only while
# generating code, so it emits LLVM IR at -O0 to /dev/null (no backend).
# R's, Rcpp's and RcppEigen's headers are most of each compile, so they are
# parsed once per compiler into a precompiled header that a glue file whose
# first include is <Rcpp.h> or <RcppEigen.h> starts from.
# One exception: src/RcppExports.cpp, written by Rcpp::compileAttributes(),
# casts its entry points to DL_FUNC for R's registration table as R's API
# requires, so -Wcast-function-type is off for that file alone.
# Environment: WARNINGS_JOBS (parallel compiles, default 1; the machine may be
# shared), WARNINGS_COMPILERS (default "g++ clang++"), WARNINGS_GCC_OPT.
set -uo pipefail
cd "$(dirname "$0")/.."

# The mode of compiler $1: -fsyntax-only for g++ (unless WARNINGS_GCC_OPT),
# LLVM IR at -O0 for clang++.
compile_mode() {
  case "$1" in
    clang*) echo "-O0 -S -emit-llvm" ;;
    *) if [ -n "${WARNINGS_GCC_OPT:-}" ]; then echo "$WARNINGS_GCC_OPT -c"; else echo "-fsyntax-only"; fi ;;
  esac
}

# One compile (run through xargs below): compiler, kind, file, log; the
# precompiled headers are in $WARNINGS_PCH/<compiler>/.
if [ "${1:-}" = --one ]; then
  cxx=$2 kind=$3 file=$4 log=$5
  read -r -a common <<< "$WARNINGS_COMMON"
  read -r -a mode <<< "$(compile_mode "$cxx")"
  pch=()
  if [ "$kind" = glue ]; then
    read -r -a inc <<< "$WARNINGS_GLUE"
    first=$(grep -m 1 -o '^#include <[A-Za-z]*\.h>' "$file" | sed 's/.*<\(.*\)>/\1/')
    dir="$WARNINGS_PCH/$cxx"
    if [ "$first" = Rcpp.h ] || [ "$first" = RcppEigen.h ]; then
      case "$cxx" in
        clang*) pch=(-include-pch "$dir/$first.pch") ;;
        *) pch=(-include "$dir/$first" -Winvalid-pch) ;;
      esac
    fi
  else
    read -r -a inc <<< "$WARNINGS_CORE"
  fi
  [ "$file" = src/RcppExports.cpp ] && mode+=(-Wno-cast-function-type)
  "$cxx" "${common[@]}" "${inc[@]}" "${pch[@]}" "${mode[@]}" -o /dev/null "$file" > "$log" 2>&1 ||
    echo "$file: compile failed" >> "$log"
  exit 0
fi

jobs="${WARNINGS_JOBS:-1}"
compilers="${WARNINGS_COMPILERS:-g++ clang++}"

r_include=$(R CMD config --cppflags | sed -n 's/.*-I\([^ ]*\).*/\1/p')
rcpp=$(Rscript -e 'cat(system.file("include", package = "Rcpp"))')
eigen=$(Rscript -e 'cat(system.file("include", package = "RcppEigen"))')
for d in "$r_include" "$rcpp" "$eigen"; do
  [ -d "$d" ] || { echo "include directory not found: '$d'"; exit 2; }
done
# (paths with spaces are not supported: R's and the packages' are plain)
export WARNINGS_COMMON="-std=gnu++17 -fpic -DNDEBUG -I src -DEIGEN_NO_DEBUG -DEIGEN_DONT_PARALLELIZE -Wall -Wextra -pedantic"
export WARNINGS_GLUE="-isystem $r_include -isystem $rcpp -isystem $eigen"
export WARNINGS_CORE="-isystem $eigen"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export WARNINGS_PCH="$out/pch"
for h in src/*/*.h; do echo "#include \"${h#src/}\""; done > "$out/all_cores.cpp"

status=0
for cxx in $compilers; do
  if ! command -v "$cxx" > /dev/null; then echo "$cxx: not found"; status=1; continue; fi
  echo "== $("$cxx" --version | head -n 1)"
  start=$(date +%s)
  dir="$out/$cxx"
  mkdir -p "$dir" "$WARNINGS_PCH/$cxx"
  read -r -a common <<< "$WARNINGS_COMMON"
  read -r -a glue <<< "$WARNINGS_GLUE"
  # the optimisation level of the compiles (it sets __OPTIMIZE__)
  case "$cxx" in clang*) level=(-O0) ;; *) read -r -a level <<< "${WARNINGS_GCC_OPT:-}" ;; esac
  for h in Rcpp.h RcppEigen.h; do
    stub="$WARNINGS_PCH/$cxx/$h"
    printf '#include "%s"\n' "$([ $h = Rcpp.h ] && echo "$rcpp" || echo "$eigen")/$h" > "$stub"
    case "$cxx" in clang*) ext=pch ;; *) ext=gch ;; esac
    "$cxx" "${common[@]}" "${glue[@]}" "${level[@]}" -x c++-header "$stub" -o "$stub.$ext" ||
      { echo "$cxx: precompiling $h failed"; status=1; }
  done
  {
    for f in src/*.cpp; do printf '%s\n' glue "$f" "$dir/$(basename "$f").log"; done
    printf '%s\n' core "$out/all_cores.cpp" "$dir/all_cores.cpp.log"
    printf '%s\n' core tools/core/driver.cpp "$dir/driver.cpp.log"
  } | xargs -d '\n' -n 3 -P "$jobs" bash "$0" --one "$cxx"
  cat "$dir"/*.log > "$out/$cxx.log"
  # A warning's own line names the file it points into; system headers
  # (-isystem) raise none. Each distinct location counts once.
  grep -E '^[^ ]+:[0-9]+:[0-9]+: warning:' "$out/$cxx.log" | sort -u > "$out/$cxx.warnings"
  own=$(grep -cE '^(\./)?src/' "$out/$cxx.warnings")
  own_all=$(grep -cE '^(\./)?src/[^ ]+:[0-9]+:[0-9]+: warning:' "$out/$cxx.log")
  other=$(grep -cvE '^(\./)?src/' "$out/$cxx.warnings")
  failed=$(grep -c 'compile failed$' "$out/$cxx.log")
  echo "$cxx: $own warnings from src/ ($own_all counting repeats in several files), $other from elsewhere, $failed failed compiles ($(($(date +%s) - start)) s)"
  if [ "$own" -gt 0 ] || [ "$failed" -gt 0 ]; then
    status=1
    grep -E '^(\./)?src/' "$out/$cxx.warnings" | sed 's/^/  /'
    grep 'compile failed$' "$out/$cxx.log" | sed 's/^/  /'
    [ "$failed" -gt 0 ] && grep -m 20 ' error: ' "$out/$cxx.log" | sed 's/^/  /'
  fi
  [ "$other" -gt 0 ] && grep -vE '^(\./)?src/' "$out/$cxx.warnings" | sed 's/^/  (not counted) /'
done
exit $status
