#!/usr/bin/env bash
# Builds sideclust with -fsanitize=address,undefined into its own library
# (sanitize/lib, the normal install is untouched) and runs the test suite and
# the fuzz sweep's CI subset against it, as CRAN's ASan / UBSan checks do.
# R itself is not instrumented, so the ASan runtime is preloaded. Leak
# detection is off: R's own allocations at exit would drown the report.
# Any sanitizer report aborts the R process (UBSan does not recover), so a
# clean run is one that ends with the suite's own summary and no report.
# Usage: bash tools/sanitize.sh   (or make sanitize); log in sanitize/log.txt
set -uo pipefail
cd "$(dirname "$0")/.."
export MAKEFLAGS="${MAKEFLAGS:--j$(nproc 2>/dev/null || echo 2)}"
rm -rf sanitize && mkdir -p sanitize/lib
log=sanitize/log.txt
R_MAKEVARS_USER="$PWD/tools/sanitize/Makevars" R CMD INSTALL --preclean --no-test-load \
  --library=sanitize/lib . >sanitize/install.txt 2>&1 || { tail -40 sanitize/install.txt; exit 1; }

asan_lib=$(gcc -print-file-name=libasan.so)
export LD_PRELOAD="$asan_lib"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:print_summary=1"
export UBSAN_OPTIONS="print_stacktrace=1:print_summary=1"
export R_LIBS="$PWD/sanitize/lib"
status=0
Rscript tools/run-tests.R >"$log" 2>&1 || status=$?
if [ -f tools/fuzz.R ]; then
  Rscript tools/fuzz.R --subset ci --out sanitize/fuzz-ci.md >>"$log" 2>&1 || status=$?
fi
reports=$(grep -cE 'ERROR: AddressSanitizer|runtime error:' "$log" || true)
grep -E '^tests:' "$log" || true
echo "sanitizer reports: $reports"
if [ "$reports" -ne 0 ] || [ "$status" -ne 0 ]; then
  grep -nE -A20 'ERROR: AddressSanitizer|runtime error:' "$log" | head -80
  exit 1
fi
