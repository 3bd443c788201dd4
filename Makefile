# Developer entry points. Run from the repository root.
PKG := sideclust
VERSION := $(shell sed -n 's/^Version: //p' DESCRIPTION)
R ?= R

.PHONY: deps install document demo test core-check fuzz fuzz-ci sanitize check clean

deps:
	bash tools/install-deps.sh

# The leading + hands make's job slots (MAKEFLAGS=-jN) to the compiler runs R starts.
install:
	+$(R) CMD INSTALL --preclean .

# roxygen reads the installed package (load_all would need pkgbuild).
document:
	Rscript -e 'Rcpp::compileAttributes()'
	+$(R) CMD INSTALL --preclean .
	Rscript -e 'roxygen2::roxygenise(load_code = roxygen2::load_installed)'

# Set everything up, then cluster the wine data with noisy constraints.
demo: deps install
	Rscript demo/side-information.R

test: install
	Rscript tools/run-tests.R

# The C++ cores compile and run without R (tools/core/check.sh).
core-check:
	bash tools/core/check.sh

# The test suite (and the fuzz sweep's CI subset) under ASan + UBSan, from a
# separate library (tools/sanitize.sh).
sanitize:
	bash tools/sanitize.sh

# Fuzz sweep of the installed package (tools/fuzz.R): every call in a fresh R
# process; fails on crashes and on non-finite fits returned without a warning.
fuzz:
	Rscript tools/fuzz.R --subset full

fuzz-ci:
	Rscript tools/fuzz.R --subset ci --out fuzz-ci.md

check:
	$(R) CMD build .
	_R_CHECK_FORCE_SUGGESTS_=true _R_CHECK_CRAN_INCOMING_REMOTE_=false \
	  _R_CHECK_SYSTEM_CLOCK_=false R_RD4PDF="times,hyper" _R_SHLIB_STRIP_=true R_STRIP_SHARED_LIB="strip --strip-debug" \
	  $(R) CMD check --as-cran $(PKG)_$(VERSION).tar.gz

clean:
	rm -rf $(PKG)_*.tar.gz $(PKG).Rcheck src/*.o src/*.so demo-output sanitize
