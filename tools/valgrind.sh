#!/usr/bin/env bash
# Runs the package's examples and the conventions test
# (tests/testthat/test-fit-conventions.R) under valgrind's memcheck, as CRAN's
# valgrind check does (R -d valgrind), from a library built with debug info
# (valgrind/lib, tools/valgrind/Makevars; the normal install is untouched).
# Fails unless every run finishes with 0 errors and 0 bytes definitely lost.
# R's own "possibly lost" and "still reachable" blocks are reported, not
# counted. No suppression file is used.
# Usage: bash tools/valgrind.sh [part ...]  with parts examples, conventions
# (both: all, the default; or make valgrind) and fits, a reduced stand-in for
# conventions: each of its fits once (tools/valgrind/conventions-once.R).
# Logs in valgrind/ (or $VALGRIND_DIR): <part>.log (valgrind), <part>.out (R),
# summary.txt. VALGRIND_SKIP_BUILD=1 reuses the library there as it is.
set -uo pipefail
cd "$(dirname "$0")/.."
parts=${*:-all}
[ "$parts" = all ] && parts="examples conventions"
command -v valgrind >/dev/null || { echo "valgrind not found"; exit 1; }
out=${VALGRIND_DIR:-valgrind}
mkdir -p "$out/lib" "$out/run" && out=$(cd "$out" && pwd)

if [ "${VALGRIND_SKIP_BUILD:-0}" != 1 ]; then
  command -v ccache >/dev/null && export CCACHE=ccache
  start=$(date +%s)
  # --preclean / --clean: the -O1 objects must not be reused by a normal install
  R_MAKEVARS_USER="$PWD/tools/valgrind/Makevars" R CMD INSTALL --preclean --clean \
    --no-docs --no-byte-compile --no-test-load --library="$out/lib" . \
    >"$out/install.txt" 2>&1 || { tail -40 "$out/install.txt"; exit 1; }
  echo "build: $(( $(date +%s) - start )) s"
fi

Rscript tools/valgrind/examples.R "$out/examples.R" || exit 1
cat >"$out/conventions.R" <<'EOF'
library(testthat)
# the test file's path comes after --args
res <- test_file(commandArgs(trailingOnly = TRUE)[1L], package = "sideclust",
                 load_package = "installed", reporter = "summary")
res <- as.data.frame(res)
cat(sprintf("conventions test: %d expectations, %d failed, %d errors, %d skipped\n",
            sum(res$nb), sum(res$failed), sum(res$error), sum(res$skipped)))
if (any(res$failed > 0 | res$error)) quit(status = 1)
EOF

# memcheck: every leak listed, only definite ones counted as errors (R and the
# packages it loads, e.g. cli's thread, leave "possibly lost" blocks); where an
# uninitialised value came from
vg="valgrind --leak-check=full --errors-for-leak-kinds=definite --track-origins=yes --num-callers=30"
status=0
summary=""
for part in $parts; do
  case $part in
    examples) script=$out/examples.R; args=() ;;
    conventions) script=$out/conventions.R
                 args=(--args "$PWD/tests/testthat/test-fit-conventions.R") ;;
    fits) script=$PWD/tools/valgrind/conventions-once.R
          args=(--args "$PWD/tests/testthat") ;;
    *) echo "unknown part: $part"; exit 1 ;;
  esac
  start=$(date +%s)
  (cd "$out/run" && R_LIBS="$out/lib" \
     R -d "$vg --log-file=$out/$part.log" --vanilla -q -f "$script" "${args[@]}" \
     >"$out/$part.out" 2>&1)
  rstatus=$?
  secs=$(( $(date +%s) - start ))
  log=$out/$part.log
  errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9,]*\) errors.*/\1/p' "$log" | tr -d , | tail -1)
  leak() {  # bytes and blocks of one leak kind, 0 when valgrind did not list it
    local line
    line=$(grep -E "$1: " "$log" | tail -1 | sed 's/.*: //' | tr -d ,)
    echo "${line:-0 bytes in 0 blocks}"
  }
  definite=$(leak "definitely lost")
  summary+="$part: ${secs} s, R exit status $rstatus, ${errors:-?} errors,"
  summary+=" definitely lost $definite, indirectly lost $(leak 'indirectly lost'),"
  summary+=" possibly lost $(leak 'possibly lost')"$'\n'
  if [ "$rstatus" -ne 0 ] || [ "${errors:-1}" != 0 ] || [ "${definite%% *}" != 0 ]; then
    status=1
    grep -nE -B2 -A25 'Invalid (read|write)|uninitialised|definitely lost in' "$log" | head -120
    tail -20 "$out/$part.out"
  fi
done
printf '%s' "$summary" | tee "$out/summary.txt"
exit $status
