# Developer entry points. Run from the repository root.
PKG := sideclust
VERSION := $(shell sed -n 's/^Version: //p' DESCRIPTION)
R ?= R

.PHONY: deps deps-demo install document demo test core-check core-check-arm warnings fuzz fuzz-ci sanitize valgrind check check-imports-only site site-check clean

# Everything: the test and check tools, LaTeX, pkgdown and the peer packages.
deps:
	bash tools/install-deps.sh full

# Only what the package imports and what renders its vignettes (prebuilt).
deps-demo:
	bash tools/install-deps.sh demo

# Compiles on every core, renders the vignettes into inst/doc and installs
# them (tools/install-package.sh).
install:
	+bash tools/install-package.sh

# roxygen reads the installed package (load_all would need pkgbuild).
document:
	Rscript -e 'Rcpp::compileAttributes()'
	+$(R) CMD INSTALL --preclean .
	Rscript -e 'roxygen2::roxygenise(load_code = roxygen2::load_installed)'

# Set up what the package needs, then cluster the wine data with noisy constraints.
demo: deps-demo install
	Rscript demo/side-information.R

# Set up everything the tests need, install, run the suite.
test: deps install
	Rscript tools/run-tests.R

# The C++ cores compile and run without R (tools/core/check.sh).
core-check:
	bash tools/core/check.sh

# The cores cross-compiled for aarch64, the driver and reference fits run
# under qemu-aarch64 and compared with x86-64's (tools/core/check-arm.sh).
core-check-arm:
	bash tools/core/check-arm.sh

# No compiler warning from the package's own code: every src/*.cpp and the
# core headers under g++ and clang++ with -Wall -Wextra -pedantic
# (tools/warnings.sh; WARNINGS_JOBS=2 compiles two files at a time).
warnings:
	bash tools/warnings.sh

# The test suite (and the fuzz sweep's CI subset) under ASan + UBSan, from a
# separate library (tools/sanitize.sh).
sanitize:
	bash tools/sanitize.sh

# The examples and the conventions test under valgrind's memcheck, from a
# library built with debug info (tools/valgrind.sh); fails on any memory error
# or definite leak.
valgrind:
	bash tools/valgrind.sh

# Fuzz sweep of the installed package (tools/fuzz.R): every call in a fresh R
# process; fails on crashes, on non-finite fits returned without a warning and
# on silent wrong answers to shifted, huge-column or p > n data.
fuzz:
	Rscript tools/fuzz.R --subset full

fuzz-ci:
	Rscript tools/fuzz.R --subset ci --out fuzz-ci.md

check:
	$(R) CMD build .
	_R_CHECK_FORCE_SUGGESTS_=true _R_CHECK_CRAN_INCOMING_REMOTE_=false \
	  _R_CHECK_SYSTEM_CLOCK_=false R_RD4PDF="times,hyper" _R_SHLIB_STRIP_=true R_STRIP_SHARED_LIB="strip --strip-debug" \
	  $(R) CMD check --as-cran $(PKG)_$(VERSION).tar.gz

# R CMD check --as-cran of the built tarball with only the hard dependencies
# installed (copied into check/imports-only/lib; tools/check-imports-only.sh):
# fails on an ERROR, a WARNING or the installed-size NOTE, prints the NOTEs,
# the installed size and the slowest examples.
check-imports-only:
	bash tools/check-imports-only.sh

# The reference site (pkgdown) in docs/, examples run.
site:
	Rscript -e 'pkgdown::build_site(preview = FALSE, install = FALSE, new_process = FALSE)'

# Opens the built site in headless Chromium: home page, reference index, two
# articles; every exported function has a reference page; screenshots in
# site-check/.
site-check: site
	bash tools/site-check.sh

clean:
	rm -rf docs site-check check/imports-only inst/doc $(PKG)_*.tar.gz $(PKG).Rcheck src/*.o src/*.so demo-output sanitize valgrind
