#!/usr/bin/env bash
# The C++ cores on aarch64, without R: cross-compiles every core header and
# tools/core/driver.cpp for aarch64 (Debian's g++-aarch64-linux-gnu), runs
# the driver's checks under user-mode emulation (qemu-user), and compares
# the fits tools/core/reference_fits.cpp writes there with those of the
# x86-64 build (its AVX kernels and, with --portable, its portable ones,
# which must agree bitwise). Partitions must be equal (a partition under
# other cluster numbers passes and is named), numbers equal to a relative
# 1e-10, and a core keeping another of its restarts only where their
# objectives tie to rounding (compare_fits.cpp), for each seed in
# CORE_ARM_SEEDS. What this cannot cover: the R layer, the Rcpp glue
# (src/r_*.cpp) and R's own generator, as R is not available for aarch64
# here. Fails on any mismatch. CROSS_CXX, QEMU, AARCH64_SYSROOT name other
# tools; CORE_ARM_CXXFLAGS adds flags to the aarch64 build; KEEP_FITS=dir
# keeps the fit files.
set -euo pipefail
cd "$(dirname "$0")/../.."
cross=${CROSS_CXX:-aarch64-linux-gnu-g++}
qemu=${QEMU:-qemu-aarch64}
sysroot=${AARCH64_SYSROOT:-/usr/aarch64-linux-gnu}
missing=0
if ! command -v "$cross" > /dev/null; then
  echo "core-check-arm: the cross compiler '$cross' is missing (Debian: g++-aarch64-linux-gnu)"
  missing=1
fi
if ! command -v "$qemu" > /dev/null; then
  echo "core-check-arm: the emulator '$qemu' is missing (Debian: qemu-user)"
  missing=1
fi
[ "$missing" = 0 ] || exit 1
eigen=$(Rscript -e 'cat(system.file("include", package = "RcppEigen"))')
[ -d "$eigen/Eigen" ] || { echo "RcppEigen's Eigen headers not found"; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# R's own flags for packages (-O2, GNU C++17) and the package's Makevars defines
flags=(-std=gnu++17 -O2 -Wall -Wno-ignored-attributes -Wno-deprecated-declarations
       -DEIGEN_NO_DEBUG -DEIGEN_DONT_PARALLELIZE -isystem "$eigen" -I src -pthread)
echo "== $("$cross" --version | head -n 1); $("$qemu" --version | head -n 1)"

for h in src/*/*.h; do
  echo "#include \"${h#src/}\""
done > "$out/all_cores.cpp"
echo "== compiling $(wc -l < "$out/all_cores.cpp") core headers for aarch64 ..."
"$cross" "${flags[@]}" -fsyntax-only "$out/all_cores.cpp"
# the AVX paths must be left out there (engine/avx_lanes.h)
printf '%s\n' '#include "engine/avx_lanes.h"' '#ifdef SIDECLUST_AVX' \
  '#error "AVX paths enabled on aarch64"' '#endif' > "$out/no_avx.cpp"
"$cross" "${flags[@]}" -fsyntax-only "$out/no_avx.cpp"
echo "ok   the AVX paths are not compiled for aarch64"

# static binaries run under qemu without the sysroot; else link dynamically
# and point qemu at the sysroot's loader and libraries
read -r -a arm_extra <<< "${CORE_ARM_CXXFLAGS:-}"
cross_build() {
  if "$cross" "${flags[@]}" "${arm_extra[@]}" -static "$1" -o "$2" 2> "$out/static.log"; then
    cat "$out/static.log" >&2
  else
    echo "(static link failed, linking dynamically against $sysroot)"
    "$cross" "${flags[@]}" "${arm_extra[@]}" "$1" -o "$2"
  fi
}
run_arm() { "$qemu" -L "$sysroot" "$@"; }

echo "== building the driver and the reference fits for aarch64 ..."
cross_build tools/core/driver.cpp "$out/driver-arm"
cross_build tools/core/reference_fits.cpp "$out/fits-arm"
echo "== building the reference fits for this machine ($(uname -m)) ..."
g++ "${flags[@]}" tools/core/reference_fits.cpp -o "$out/fits-host"
g++ -std=c++17 -O2 -Wall tools/core/compare_fits.cpp -o "$out/compare"

echo "== the core driver under $qemu"
run_arm "$out/driver-arm"

# several seeds of data and draws (CORE_ARM_SEEDS), each its own comparison
seeds=${CORE_ARM_SEEDS:-1 2 3 4 5 6}
has_avx=no
grep -qw avx /proc/cpuinfo 2> /dev/null && has_avx=yes
failed=0
for seed in $seeds; do
  echo "== seed $seed: this machine's fits, AVX kernels against the portable ones"
  "$out/fits-host" "$out/host-avx-$seed.txt" "$seed"
  "$out/fits-host" "$out/host-portable-$seed.txt" --portable "$seed"
  if cmp -s "$out/host-avx-$seed.txt" "$out/host-portable-$seed.txt"; then
    if [ "$has_avx" = yes ]; then
      echo "ok   bitwise the same ($(wc -l < "$out/host-avx-$seed.txt") fields)"
    else
      echo "(this processor has no AVX: both runs took the portable kernels)"
    fi
  else
    echo "FAIL the AVX kernels do not give the portable kernels' fits bitwise:"
    "$out/compare" "$out/host-portable-$seed.txt" "$out/host-avx-$seed.txt" 0 |
      grep -v '^ok' || true
    failed=1
  fi
  echo "== seed $seed: the fits under $qemu against this machine's"
  run_arm "$out/fits-arm" "$out/arm-$seed.txt" "$seed"
  status=0
  "$out/compare" "$out/host-avx-$seed.txt" "$out/arm-$seed.txt" 1e-10 > "$out/compare-$seed.txt" ||
    status=1
  # the whole table for the first seed, what is not plainly ok for the others
  if [ "$seed" = "${seeds%% *}" ]; then
    cat "$out/compare-$seed.txt"
  else
    grep -v '^ok' "$out/compare-$seed.txt" || true
  fi
  [ "$status" = 0 ] || failed=1
done
if [ -n "${KEEP_FITS:-}" ]; then
  mkdir -p "$KEEP_FITS"
  cp "$out"/host-*.txt "$out"/arm-*.txt "$KEEP_FITS"/
  echo "(fits kept in $KEEP_FITS)"
fi
if [ "$failed" != 0 ]; then
  echo "core-check-arm FAILED (${SECONDS} s)"
  exit 1
fi
echo "core-check-arm passed in ${SECONDS} s"
