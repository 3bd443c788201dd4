#!/usr/bin/env bash
# The C++ cores outside R (ARCHITECTURE.md): every core header in the family
# folders of src/ (src/<family>/*.h; the r_* glue stays at the top) must
# compile with Eigen alone -- no R, no Rcpp on the include path -- and
# tools/core/driver.cpp runs two cores with its own generator.
set -euo pipefail
cd "$(dirname "$0")/../.."
eigen=$(Rscript -e 'cat(system.file("include", package = "RcppEigen"))')
[ -d "$eigen/Eigen" ] || { echo "RcppEigen's Eigen headers not found"; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
flags=(-std=c++17 -O1 -Wall -Wno-ignored-attributes -Wno-deprecated-declarations -DEIGEN_NO_DEBUG -isystem "$eigen" -I src)
for h in src/*/*.h; do
  echo "#include \"${h#src/}\""
done > "$out/all_cores.cpp"
echo "compiling $(wc -l < "$out/all_cores.cpp") core headers without R ..."
g++ "${flags[@]}" -fsyntax-only "$out/all_cores.cpp"
g++ "${flags[@]}" -pthread tools/core/driver.cpp -o "$out/driver"
"$out/driver"
